// Compares the game-data tables with the reference facts in
// MENTAT_REFERENCE_DIR (map.json, components.json), read at run time.
// Registered only when that directory exists.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/data/board.h"
#include "core/data/components.h"
#include "core/types.h"
#include "support/mini_json.h"

#ifndef MENTAT_REFERENCE_DIR
#error "MENTAT_REFERENCE_DIR must name the directory holding map.json and components.json"
#endif

using namespace mentat;
using namespace mentat::data;
using mini_json::Value;

namespace {

const Value& map_json() {
  static const Value v = mini_json::parse_file(std::string(MENTAT_REFERENCE_DIR) + "/map.json");
  return v;
}

const Value& components_json() {
  static const Value v = mini_json::parse_file(std::string(MENTAT_REFERENCE_DIR) + "/components.json");
  return v;
}

const Value& choam_richese_json() {
  static const Value v = mini_json::parse_file(std::string(MENTAT_REFERENCE_DIR) + "/choam-richese.json");
  return v;
}

std::string kind_key(TerritoryKind k) {
  switch (k) {
    case TerritoryKind::Sand: return "sand";
    case TerritoryKind::ProtectedSand: return "protected_sand";
    case TerritoryKind::Rock: return "rock";
    case TerritoryKind::Stronghold: return "stronghold";
    case TerritoryKind::PolarSink: return "polar_sink";
  }
  return "?";
}

std::string category_key(TreacheryCategory c) {
  switch (c) {
    case TreacheryCategory::WeaponProjectile: return "weapon-projectile";
    case TreacheryCategory::WeaponPoison: return "weapon-poison";
    case TreacheryCategory::WeaponLasgun: return "lasgun";
    case TreacheryCategory::DefenseProjectile: return "defense-projectile";
    case TreacheryCategory::DefensePoison: return "defense-poison";
    case TreacheryCategory::Special: return "special";
    case TreacheryCategory::Worthless: return "worthless";
    case TreacheryCategory::WeaponSpecial: return "weapon-special";
    case TreacheryCategory::DefenseSpecial: return "defense-special";
  }
  return "?";
}

std::set<std::string> string_set(const Value& array) {
  std::set<std::string> out;
  for (const Value& v : array.array) out.insert(v.str());
  return out;
}

int sector_of(const Value& v) { return v.is_null() ? kNoSector : v.as_int(); }

std::string tname(TerritoryId t) { return std::string(territory(t).name); }
std::string lname(LocationId l) { return std::string(location(l).name); }

std::set<std::string> our_adjacent_territories(TerritoryId t) {
  std::set<std::string> out;
  for (int u = 0; u < kNumTerritories; ++u) {
    if (territories_adjacent(t, static_cast<TerritoryId>(u))) out.insert(tname(static_cast<TerritoryId>(u)));
  }
  return out;
}

constexpr Faction kBaseFactions[] = {Faction::Atreides, Faction::BeneGesserit, Faction::Emperor,
                                     Faction::Fremen,   Faction::Harkonnen,    Faction::Guild};

}  // namespace

// ---- map.json ----------------------------------------------------------------

TEST_CASE("reference: territories", "[reference][board]") {
  const Value& terrs = map_json()["territories"];
  REQUIRE(terrs.size() == static_cast<std::size_t>(kNumTerritories));
  CHECK(map_json()["counts"]["territories"].as_int() == kNumTerritories);
  for (int i = 0; i < kNumTerritories; ++i) {
    const Value& ref = terrs[static_cast<std::size_t>(i)];
    const auto id = static_cast<TerritoryId>(i);
    const Territory& t = territory(id);
    INFO("territory " << i << " " << ref["name"].str());
    CHECK(tname(id) == ref["name"].str());
    CHECK(kind_key(t.kind) == ref["kind"].str());
    CHECK(t.stronghold == ref["is_stronghold"].as_bool());
    CHECK(t.storm_protected == ref["storm_protected"].as_bool());
    CHECK(t.protection_lost_after_family_atomics == ref["storm_protection_lost_after_family_atomics"].as_bool());

    // Locations, in the listed order, are the territory's contiguous ids.
    const Value& locs = ref["locations"];
    REQUIRE(locs.size() == t.num_locations);
    std::vector<int> our_sectors;
    for (int j = 0; j < t.num_locations; ++j) {
      const auto l = static_cast<LocationId>(t.first_location + j);
      CHECK(lname(l) == locs[static_cast<std::size_t>(j)].str());
      if (location(l).sector != kNoSector) our_sectors.push_back(location(l).sector);
    }
    std::vector<int> ref_sectors;
    for (const Value& s : ref["sectors"].array) ref_sectors.push_back(s.as_int());
    std::sort(our_sectors.begin(), our_sectors.end());
    std::sort(ref_sectors.begin(), ref_sectors.end());
    CHECK(our_sectors == ref_sectors);

    // Spice blow.
    const Value& blow = ref["spice_blow"];
    int our_blows = 0;
    for (int j = 0; j < t.num_locations; ++j) {
      const auto l = static_cast<LocationId>(t.first_location + j);
      if (location(l).spice_blow_amount == 0) continue;
      ++our_blows;
      REQUIRE_FALSE(blow.is_null());
      CHECK(lname(l) == blow["location"].str());
      CHECK(location(l).spice_blow_amount == blow["amount"].as_int());
      CHECK(location(l).sector == blow["sector"].as_int());
    }
    CHECK(our_blows == (blow.is_null() ? 0 : 1));

    CHECK(our_adjacent_territories(id) == string_set(ref["adjacent_territories"]));
    CHECK(our_adjacent_territories(id) == string_set(map_json()["territory_adjacency"][ref["name"].str()]));
  }
}

TEST_CASE("reference: territory counts and strongholds", "[reference][board]") {
  const Value& counts = map_json()["counts"];
  int sand = 0, protected_sand = 0, rock = 0, strongholds_n = 0, polar = 0, storm_protected = 0, blows = 0;
  for (int i = 0; i < kNumTerritories; ++i) {
    const Territory& t = territory(static_cast<TerritoryId>(i));
    switch (t.kind) {
      case TerritoryKind::Sand: ++sand; break;
      case TerritoryKind::ProtectedSand: ++protected_sand; break;
      case TerritoryKind::Rock: ++rock; break;
      case TerritoryKind::Stronghold: ++strongholds_n; break;
      case TerritoryKind::PolarSink: ++polar; break;
    }
    if (t.storm_protected) ++storm_protected;
  }
  for (int l = 0; l < kNumLocations; ++l) {
    if (location(static_cast<LocationId>(l)).spice_blow_amount > 0) ++blows;
  }
  CHECK(counts["sand_territories"].as_int() == sand);
  CHECK(counts["protected_sand_territories"].as_int() == protected_sand);
  CHECK(counts["rock_territories"].as_int() == rock);
  CHECK(counts["strongholds"].as_int() == strongholds_n);
  CHECK(counts["polar_sink"].as_int() == polar);
  CHECK(counts["storm_protected_territories"].as_int() == storm_protected);
  CHECK(counts["spice_blow_territories"].as_int() == blows);
  CHECK(counts["locations"].as_int() == kNumLocations);

  std::set<std::string> ours;
  for (TerritoryId t : strongholds()) ours.insert(tname(t));
  CHECK(ours == string_set(map_json()["strongholds"]));
  CHECK(strongholds().size() == map_json()["strongholds"].size());
}

TEST_CASE("reference: locations", "[reference][board]") {
  const Value& locs = map_json()["locations"];
  REQUIRE(locs.size() == static_cast<std::size_t>(kNumLocations));
  std::set<LocationId> matched;
  for (const Value& ref : locs.array) {
    const std::string& name = ref["name"].str();
    INFO(name);
    const auto id = find_location(name);
    REQUIRE(id.has_value());
    matched.insert(*id);
    const Location& l = location(*id);
    CHECK(tname(l.territory) == ref["territory"].str());
    CHECK(l.sector == sector_of(ref["sector"]));
    CHECK(l.spice_blow_amount == ref["spice_blow_amount"].as_int());
    std::set<std::string> ours;
    for (LocationId n : neighbours(*id)) ours.insert(lname(n));
    CHECK(ours == string_set(ref["neighbours"]));
    CHECK(neighbours(*id).size() == ref["neighbours"].size());
  }
  CHECK(matched.size() == static_cast<std::size_t>(kNumLocations));
}

TEST_CASE("reference: location neighbour pairs", "[reference][board]") {
  const Value& pairs = map_json()["location_neighbour_pairs"];
  CHECK(pairs.size() == 190u);
  CHECK(map_json()["counts"]["location_neighbour_pairs"].as_int() == 190);
  std::set<std::pair<LocationId, LocationId>> ref_pairs;
  int within = 0;
  for (const Value& p : pairs.array) {
    REQUIRE(p.size() == 2u);
    const auto a = find_location(p[0].str());
    const auto b = find_location(p[1].str());
    REQUIRE(a.has_value());
    REQUIRE(b.has_value());
    INFO(p[0].str() << " / " << p[1].str());
    CHECK(are_neighbours(*a, *b));
    CHECK(are_neighbours(*b, *a));
    ref_pairs.insert(std::minmax(*a, *b));
    if (territory_of(*a) == territory_of(*b)) ++within;
  }
  CHECK(ref_pairs.size() == 190u);
  CHECK(within == map_json()["counts"]["location_neighbour_pairs_within_one_territory"].as_int());
  // No pair of ours is missing from the reference.
  std::set<std::pair<LocationId, LocationId>> our_pairs;
  for (int a = 0; a < kNumLocations; ++a) {
    for (LocationId b : neighbours(static_cast<LocationId>(a))) our_pairs.insert(std::minmax(static_cast<LocationId>(a), b));
  }
  CHECK(our_pairs == ref_pairs);
}

TEST_CASE("reference: territory adjacency pairs", "[reference][board]") {
  const Value& pairs = map_json()["territory_adjacency_pairs"];
  CHECK(pairs.size() == 103u);
  CHECK(map_json()["counts"]["territory_adjacency_pairs"].as_int() == 103);
  std::set<std::pair<TerritoryId, TerritoryId>> ref_pairs;
  for (const Value& p : pairs.array) {
    const auto a = find_territory(p[0].str());
    const auto b = find_territory(p[1].str());
    REQUIRE(a.has_value());
    REQUIRE(b.has_value());
    INFO(p[0].str() << " / " << p[1].str());
    CHECK(territories_adjacent(*a, *b));
    ref_pairs.insert(std::minmax(*a, *b));
  }
  std::set<std::pair<TerritoryId, TerritoryId>> our_pairs;
  for (int a = 0; a < kNumTerritories; ++a) {
    for (int b = a + 1; b < kNumTerritories; ++b) {
      if (territories_adjacent(static_cast<TerritoryId>(a), static_cast<TerritoryId>(b))) {
        our_pairs.insert({static_cast<TerritoryId>(a), static_cast<TerritoryId>(b)});
      }
    }
  }
  CHECK(our_pairs == ref_pairs);
}

TEST_CASE("reference: derived sets", "[reference][board]") {
  const Value& derived = map_json()["derived"];
  std::set<std::string> fremen;
  for (int t = 0; t < kNumTerritories; ++t) {
    if (in_fremen_shipping_range(static_cast<TerritoryId>(t))) fremen.insert(tname(static_cast<TerritoryId>(t)));
  }
  CHECK(fremen == string_set(derived["fremen_shipping_range"]["territories"]));

  std::set<std::string> near_wall = our_adjacent_territories(shield_wall());
  near_wall.insert(tname(shield_wall()));
  CHECK(near_wall == string_set(derived["shield_wall_and_adjacent_territories"]["territories"]));
}

// ---- components.json ---------------------------------------------------------

TEST_CASE("reference: base treachery deck", "[reference][components]") {
  const Value& tc = components_json()["treachery_cards"];
  CHECK(tc["counts_by_set"]["base"].as_int() == kNumTreacheryCards);
  std::map<std::string, const Value*> base;
  for (const Value& c : tc["cards"].array) {
    if (c["set"].str() == "base") base[c["name"].str()] = &c;
  }
  CHECK(base.size() == static_cast<std::size_t>(kNumTreacheryKinds));
  int total = 0;
  for (int k = 0; k < kNumTreacheryKinds; ++k) {
    const auto kind = static_cast<TreacheryKind>(k);
    const std::string name(treachery_kind_name(kind));
    INFO(name);
    REQUIRE(base.count(name) == 1);
    const Value& ref = *base[name];
    CHECK(treachery_kind_count(kind) == ref["count"].as_int());
    total += ref["count"].as_int();
  }
  CHECK(total == kNumTreacheryCards);
  for (int id = 0; id < kNumTreacheryCards; ++id) {
    const TreacheryCard& c = treachery_card(static_cast<TreacheryId>(id));
    const std::string name(c.name);
    INFO("card " << id << " " << name);
    REQUIRE(base.count(name) == 1);
    CHECK(category_key(c.category) == (*base[name])["category"].str());
  }
}

TEST_CASE("reference: base spice deck", "[reference][components]") {
  const Value& deck = components_json()["spice_deck_base"];
  CHECK(deck["total_cards"].as_int() == kNumSpiceCards);
  CHECK(deck["shai_hulud"].as_int() == 6);
  const Value& cards = deck["territory_cards"];
  REQUIRE(cards.size() == 15u);
  CHECK(deck["territory_card_count"].as_int() == 15);
  int total = 0;
  for (int id = 0; id < 15; ++id) {
    const Value& ref = cards[static_cast<std::size_t>(id)];
    const SpiceCard& c = spice_card(static_cast<SpiceCardId>(id));
    INFO("spice card " << id << " " << ref["location"].str());
    CHECK_FALSE(c.shai_hulud);
    CHECK(lname(c.location) == ref["location"].str());
    CHECK(tname(territory_of(c.location)) == ref["territory"].str());
    CHECK(c.amount == ref["amount"].as_int());
    CHECK(location(c.location).sector == ref["sector"].as_int());
    CHECK(spice_card_name(static_cast<SpiceCardId>(id)) ==
          ref["territory"].str() + " (" + std::to_string(ref["amount"].as_int()) + ")");
    total += c.amount;
  }
  int worms = 0;
  for (int id = 15; id < kNumSpiceCards; ++id) {
    if (spice_card(static_cast<SpiceCardId>(id)).shai_hulud) ++worms;
  }
  CHECK(worms == deck["shai_hulud"].as_int());
  CHECK(total == deck["total_spice_on_cards"].as_int());
}

TEST_CASE("reference: base leaders", "[reference][components]") {
  const Value& by_faction = components_json()["leaders"]["by_faction"];
  for (Faction f : kBaseFactions) {
    const std::string fname(faction_name(f));
    INFO(fname);
    const Value& ref = by_faction[fname];
    REQUIRE(ref.size() == static_cast<std::size_t>(kLeadersPerFaction));
    for (int i = 0; i < kLeadersPerFaction; ++i) {
      const Leader& l = leader(leader_id(f, i));
      const Value& r = ref[static_cast<std::size_t>(i)];
      INFO("index " << i);
      CHECK(std::string(l.name) == r["name"].str());
      CHECK(l.strength == r["strength"].as_int());
      CHECK(l.faction == f);
      CHECK(find_leader(r["name"].str()) == std::optional<LeaderId>(leader_id(f, i)));
    }
  }
}

TEST_CASE("reference: base faction setup", "[reference][components]") {
  const Value& setup = components_json()["faction_setup_base"];
  CHECK(setup.size() == static_cast<std::size_t>(kNumBaseFactions));
  for (Faction f : kBaseFactions) {
    const std::string fname(faction_name(f));
    INFO(fname);
    const Value& ref = setup[fname];
    const FactionSetup& s = faction_setup(f);
    CHECK(s.starting_spice == ref["starting_spice"].as_int());
    CHECK(s.forces_total == ref["forces_total"].as_int());
    CHECK(s.free_revival == ref["free_revival"].as_int());
    CHECK(s.hand_limit == ref["hand_limit"].as_int());
    CHECK(s.starting_treachery_cards == ref["starting_treachery_cards"].as_int());
    CHECK(s.traitors_kept == ref["traitors_kept"].as_int());
    CHECK(ref["traitors_drawn"].as_int() == 4);
    if (ref["special_forces"].is_null()) {
      CHECK(s.special_forces == 0);
      CHECK(s.special_force_name.empty());
    } else {
      CHECK(s.special_forces == ref["special_forces"]["count"].as_int());
      CHECK(std::string(s.special_force_name) == ref["special_forces"]["name"].str());
    }

    int on_planet = 0;
    std::set<std::string> places;
    for (const Value& p : ref["forces_on_planet"].array) {
      on_planet += p["forces"].as_int();
      if (p["territory"].is_array()) {
        for (const Value& t : p["territory"].array) places.insert(t.str());
      } else {
        places.insert(p["territory"].str());
      }
    }
    CHECK(s.forces_on_planet == on_planet);
    CHECK(s.forces_total - s.forces_on_planet == ref["reserves"].as_int());

    const auto start = fixed_start_location(f);
    if (f == Faction::Fremen) {
      CHECK_FALSE(start.has_value());
      // Same territories, in the order the reference lists them.
      REQUIRE(ref["forces_on_planet"].size() == 1u);
      const Value& listed = ref["forces_on_planet"][0]["territory"];
      REQUIRE(listed.size() == fremen_start_territories().size());
      for (std::size_t i = 0; i < listed.size(); ++i) {
        CHECK(tname(fremen_start_territories()[i]) == listed[i].str());
      }
    } else if (places.empty()) {
      CHECK_FALSE(start.has_value());
    } else {
      REQUIRE(start.has_value());
      REQUIRE(places.size() == 1u);
      CHECK(tname(territory_of(*start)) == *places.begin());
      CHECK(territory(territory_of(*start)).num_locations == 1);
    }
  }
}

// ---- expansions (components.json, choam-richese.json) ------------------------

namespace {
constexpr Faction kExpansionFactions[] = {Faction::Ixians, Faction::Tleilaxu, Faction::Choam,
                                          Faction::Richese, Faction::Ecaz, Faction::Moritani};
}  // namespace

TEST_CASE("reference: expansion treachery card sets", "[reference][components]") {
  const Value& tc = components_json()["treachery_cards"];
  // Our card set -> the reference's set name; ids of a set are its cards in name order.
  for (int si = 1; si < kNumCardSets; ++si) {
    const CardSetInfo& set = card_set(static_cast<CardSet>(si));
    INFO(set.name);
    CHECK(tc["counts_by_set"][std::string(set.name)].as_int() == set.count);
    std::vector<std::pair<std::string, std::string>> ref;  // name, category (count 1 each)
    for (const Value& c : tc["cards"].array) {
      if (c["set"].str() != set.name) continue;
      for (int i = 0; i < c["count"].as_int(); ++i) ref.emplace_back(c["name"].str(), c["category"].str());
    }
    std::sort(ref.begin(), ref.end());
    REQUIRE(ref.size() == set.count);
    for (int i = 0; i < set.count; ++i) {
      const TreacheryCard& c = treachery_card(static_cast<TreacheryId>(set.first + i));
      INFO("card " << set.first + i);
      CHECK(std::string(c.name) == ref[static_cast<std::size_t>(i)].first);
      CHECK(category_key(c.category) == ref[static_cast<std::size_t>(i)].second);
      CHECK(c.set == set.set);
    }
  }
  // The Richese cache holds the same ten cards choam-richese.json lists.
  std::set<std::string> cache;
  for (const Value& c : choam_richese_json()["richese_treachery_cards"].array) cache.insert(c["name"].str());
  const CardSetInfo& richese = card_set(CardSet::Richese);
  std::set<std::string> ours;
  for (int i = 0; i < richese.count; ++i) ours.insert(std::string(treachery_card(static_cast<TreacheryId>(richese.first + i)).name));
  CHECK(ours == cache);
  CHECK(tc["total_all_sets"].as_int() == kNumAllTreacheryCards);
}

TEST_CASE("reference: expansion leaders, the Auditor and Duke Vidal", "[reference][components]") {
  const Value& leaders = components_json()["leaders"];
  const Value& by_faction = leaders["by_faction"];
  int count = 0;
  for (int fi = 0; fi < kNumFactions; ++fi) count += static_cast<int>(faction_leaders(static_cast<Faction>(fi)).n);
  CHECK(count == leaders["count"].as_int());
  for (Faction f : kExpansionFactions) {
    const std::string fname(faction_name(f));
    INFO(fname);
    const Value& ref = by_faction[fname];
    const FactionLeaders ours = faction_leaders(f);
    REQUIRE(ref.size() == ours.n);
    std::set<std::pair<std::string, int>> want, got;
    for (const Value& r : ref.array) want.emplace(r["name"].str(), r.find("strength") == nullptr || r["strength"].is_null() ? 0 : r["strength"].as_int());
    for (LeaderId id : ours) {
      got.emplace(std::string(leader(id).name), leader(id).strength);
      CHECK(leader(id).faction == f);
      CHECK(find_leader(leader(id).name) == std::optional<LeaderId>(id));
    }
    CHECK(got == want);
  }
  CHECK(std::string(leader(kAuditor).name) == "Auditor");
  CHECK(leader(kAuditor).faction == Faction::Choam);
  const Value& vidal = leaders["duke_vidal"];
  CHECK(std::string(leader(kDukeVidal).name) == vidal["name"].str());
  CHECK(leader(kDukeVidal).strength == vidal["strength"].as_int());
  CHECK(leader(kDukeVidal).neutral());
  // CHOAM's five printed leaders plus the Auditor, as choam-richese.json lists them.
  CHECK(choam_richese_json()["factions"]["CHOAM"]["setup"]["leaders"]["values"].size() == faction_leaders(Faction::Choam).n);
}

TEST_CASE("reference: expansion faction setup", "[reference][components]") {
  const Value& setup = components_json()["faction_setup_expansions"]["factions"];
  CHECK(setup.size() == static_cast<std::size_t>(kNumFactions - kNumBaseFactions));
  for (Faction f : kExpansionFactions) {
    const std::string fname(faction_name(f));
    INFO(fname);
    const Value& ref = setup[fname];
    const FactionSetup& s = faction_setup(f);
    CHECK(s.faction == f);
    CHECK(s.starting_spice == ref["starting_spice"].as_int());
    CHECK(s.forces_total == ref["forces_total"].as_int());
    CHECK(s.free_revival == ref["free_revival"].as_int());
    CHECK(s.hand_limit == ref["hand_limit"].as_int());
    if (ref.find("special_forces") == nullptr) {
      CHECK(s.special_forces == 0);
    } else {
      CHECK(s.special_forces == ref["special_forces"]["count"].as_int());
      CHECK(std::string(s.special_force_name) == ref["special_forces"]["name"].str());
      CHECK(s.forces_total - s.special_forces == ref["regular"].as_int());
    }
    CHECK(s.traitors_kept == (ref.find("traitors") == nullptr ? 1 : 0));  // Tleilaxu: Face Dancers instead
    int on_planet = 0, special = 0;
    std::string where;
    for (const Value& p : ref["forces_on_planet"].array) {
      const int sp = p.find("special_forces") == nullptr ? 0 : p["special_forces"].as_int();
      on_planet += p["forces"].as_int() + sp;
      special += sp;
      where = p["territory"].str();
    }
    CHECK(s.forces_on_planet == on_planet);
    CHECK(s.special_on_planet == special);
    if (where.rfind("any", 0) == 0) {
      CHECK(s.start_territory.empty());  // Moritani: by choice
    } else {
      CHECK(std::string(s.start_territory) == where);
    }
    const auto start = fixed_start_location(f);
    if (start) CHECK(lname(*start) == ref["forces_on_planet"][0]["location"].str());
  }
  // choam-richese.json confirms CHOAM's and the Richese's numbers.
  const Value& cr = choam_richese_json()["factions"];
  for (Faction f : {Faction::Choam, Faction::Richese}) {
    const Value& s = cr[std::string(faction_name(f))]["setup"];
    INFO(faction_name(f));
    CHECK(std::to_string(faction_setup(f).starting_spice) == s["starting_spice"]["fact"].str());
    CHECK(std::to_string(faction_setup(f).free_revival) == s["free_revival"]["fact"].str());
    CHECK(s["hand_limit"]["fact"].str().rfind(std::to_string(faction_setup(f).hand_limit), 0) == 0);
  }
}

TEST_CASE("reference: leader skill cards", "[reference][components]") {
  const Value& skills = components_json()["leader_skill_cards"];
  CHECK(skills["count"].as_int() == kNumLeaderSkills);
  REQUIRE(skills["names"].size() == static_cast<std::size_t>(kNumLeaderSkills));
  for (int i = 0; i < kNumLeaderSkills; ++i) CHECK(std::string(leader_skill_name(static_cast<uint8_t>(i))) == skills["names"][static_cast<std::size_t>(i)].str());
  const Value& strongholds = choam_richese_json()["advanced_stronghold_cards"]["cards"];
  REQUIRE(strongholds.size() == static_cast<std::size_t>(kNumStrongholdCards));
  for (int i = 0; i < kNumStrongholdCards; ++i)
    CHECK(std::string(stronghold_card_name(static_cast<uint8_t>(i))) == strongholds[static_cast<std::size_t>(i)]["stronghold"].str());
}
