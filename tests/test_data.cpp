// Self-consistency tests of the game-data tables (core/types, core/data).
// These need nothing outside the repository; the comparison with the
// reference files is in test_reference.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <vector>

#include "core/data/board.h"
#include "core/data/components.h"
#include "core/data/modules.h"
#include "core/types.h"

using namespace mentat;
using namespace mentat::data;

namespace {

TerritoryId tid(std::string_view name) {
  const auto t = find_territory(name);
  REQUIRE(t.has_value());
  return *t;
}

LocationId lid(std::string_view name) {
  const auto l = find_location(name);
  REQUIRE(l.has_value());
  return *l;
}

bool sectors_equal_or_adjacent(int a, int b) {
  const int d = ((a - b) % kNumSectors + kNumSectors) % kNumSectors;
  return d == 0 || d == 1 || d == kNumSectors - 1;
}

constexpr std::array<Faction, kNumFactions> kAllFactions = {
    Faction::Atreides, Faction::BeneGesserit, Faction::Emperor, Faction::Fremen, Faction::Harkonnen, Faction::Guild,
    Faction::Ixians,   Faction::Tleilaxu,     Faction::Choam,   Faction::Richese, Faction::Ecaz,    Faction::Moritani};
constexpr std::array<Faction, kNumBaseFactions> kBaseFactionList = {
    Faction::Atreides, Faction::BeneGesserit, Faction::Emperor, Faction::Fremen, Faction::Harkonnen, Faction::Guild};

}  // namespace

// ---- Factions -----------------------------------------------------------------

TEST_CASE("faction names and keys round-trip through parse_faction", "[data][types]") {
  CHECK(faction_name(Faction::Atreides) == "Atreides");
  CHECK(faction_name(Faction::BeneGesserit) == "Bene Gesserit");
  CHECK(faction_name(Faction::Emperor) == "Emperor");
  CHECK(faction_name(Faction::Fremen) == "Fremen");
  CHECK(faction_name(Faction::Harkonnen) == "Harkonnen");
  CHECK(faction_name(Faction::Guild) == "Spacing Guild");
  CHECK(faction_key(Faction::BeneGesserit) == "bene_gesserit");
  CHECK(faction_key(Faction::Guild) == "spacing_guild");

  std::set<std::string_view> names, keys;
  for (Faction f : kAllFactions) {
    names.insert(faction_name(f));
    keys.insert(faction_key(f));
    Faction parsed = Faction::Atreides;
    CHECK(parse_faction(faction_name(f), &parsed));
    CHECK(parsed == f);
    parsed = Faction::Atreides;
    CHECK(parse_faction(faction_key(f), &parsed));
    CHECK(parsed == f);
  }
  CHECK(names.size() == kNumFactions);
  CHECK(keys.size() == kNumFactions);

  Faction parsed = Faction::Atreides;
  CHECK(parse_faction("BENE GESSERIT", &parsed));
  CHECK(parsed == Faction::BeneGesserit);
  CHECK(parse_faction("hArKoNnEn", &parsed));
  CHECK(parsed == Faction::Harkonnen);
  CHECK(parse_faction("Guild", &parsed));
  CHECK(parsed == Faction::Guild);
  parsed = Faction::Fremen;
  CHECK_FALSE(parse_faction("Sardaukar", &parsed));
  CHECK_FALSE(parse_faction("", &parsed));
  CHECK_FALSE(parse_faction("atreides ", &parsed));
  CHECK(parsed == Faction::Fremen);  // untouched on failure
  CHECK(parse_faction("CHOAM", &parsed));
  CHECK(parsed == Faction::Choam);
  CHECK(parse_faction("ixians", &parsed));
  CHECK(parsed == Faction::Ixians);
}

// ---- Territories and locations ---------------------------------------------

TEST_CASE("territory and location counts", "[data][board]") {
  int locations = 0;
  std::array<int, 5> by_kind{};
  int strongholds_flagged = 0, protected_count = 0, atomics_count = 0;
  for (int t = 0; t < kNumTerritories; ++t) {
    const Territory& ter = territory(static_cast<TerritoryId>(t));
    CHECK(ter.first_location == locations);  // contiguous, in territory order
    CHECK(ter.num_locations >= 1);
    locations += ter.num_locations;
    ++by_kind[static_cast<int>(ter.kind)];
    if (ter.stronghold) ++strongholds_flagged;
    if (ter.storm_protected) ++protected_count;
    if (ter.protection_lost_after_family_atomics) ++atomics_count;
  }
  CHECK(kNumTerritories == 42);
  CHECK(kNumLocations == 86);
  CHECK(locations == kNumLocations);
  CHECK(by_kind[static_cast<int>(TerritoryKind::Sand)] == 28);
  CHECK(by_kind[static_cast<int>(TerritoryKind::ProtectedSand)] == 1);
  CHECK(by_kind[static_cast<int>(TerritoryKind::Rock)] == 7);
  CHECK(by_kind[static_cast<int>(TerritoryKind::Stronghold)] == 5);
  CHECK(by_kind[static_cast<int>(TerritoryKind::PolarSink)] == 1);
  CHECK(strongholds_flagged == 5);
  CHECK(protected_count == 14);
  CHECK(atomics_count == 3);
}

TEST_CASE("territory ids are in name order with known anchors", "[data][board]") {
  CHECK(territory(0).name == "Arrakeen");
  CHECK(territory(1).name == "Arsunt");
  CHECK(territory(2).name == "Basin");
  CHECK(territory(41).name == "Wind Pass North");
  for (int t = 1; t < kNumTerritories; ++t) {
    CHECK(territory(static_cast<TerritoryId>(t - 1)).name < territory(static_cast<TerritoryId>(t)).name);
  }
  CHECK(territory(polar_sink_territory()).name == "Polar Sink");
  CHECK(territory(the_great_flat()).name == "The Great Flat");
  CHECK(territory(shield_wall()).name == "Shield Wall");
  CHECK(territory(imperial_basin()).name == "Imperial Basin");
  CHECK(territory(imperial_basin()).kind == TerritoryKind::ProtectedSand);
  CHECK(territory(shield_wall()).kind == TerritoryKind::Rock);
  CHECK(territory(polar_sink_territory()).kind == TerritoryKind::PolarSink);
}

TEST_CASE("every location belongs to its territory and names are unique", "[data][board]") {
  std::set<std::string_view> names;
  for (int l = 0; l < kNumLocations; ++l) {
    const Location& loc = location(static_cast<LocationId>(l));
    names.insert(loc.name);
    REQUIRE(loc.territory < kNumTerritories);
    CHECK(territory_of(static_cast<LocationId>(l)) == loc.territory);
    const Territory& ter = territory(loc.territory);
    CHECK(l >= ter.first_location);
    CHECK(l < ter.first_location + ter.num_locations);
    // A piece is named after its territory, with a sector suffix when the
    // territory has more than one piece.
    if (ter.num_locations == 1) {
      CHECK(loc.name == ter.name);
    } else {
      CHECK(loc.name.substr(0, ter.name.size() + 2) == std::string(ter.name) + " (");
      CHECK(loc.name.ends_with(" Sector)"));
    }
    if (ter.kind == TerritoryKind::PolarSink) {
      CHECK(loc.sector == kNoSector);
    } else {
      CHECK(loc.sector >= 0);
      CHECK(loc.sector < kNumSectors);
    }
    CHECK(find_location(loc.name) == std::optional<LocationId>(static_cast<LocationId>(l)));
  }
  CHECK(names.size() == static_cast<std::size_t>(kNumLocations));
  for (int t = 0; t < kNumTerritories; ++t) {
    CHECK(find_territory(territory(static_cast<TerritoryId>(t)).name) ==
          std::optional<TerritoryId>(static_cast<TerritoryId>(t)));
  }
  CHECK_FALSE(find_territory("Arrakis").has_value());
  CHECK_FALSE(find_territory("arrakeen").has_value());
  CHECK_FALSE(find_location("Cielago North").has_value());  // has three pieces
  CHECK_FALSE(find_location("").has_value());
}

TEST_CASE("pieces of a territory are in distinct sectors along the storm's path", "[data][board]") {
  for (int t = 0; t < kNumTerritories; ++t) {
    const Territory& ter = territory(static_cast<TerritoryId>(t));
    for (int i = 1; i < ter.num_locations; ++i) {
      const int prev = location(static_cast<LocationId>(ter.first_location + i - 1)).sector;
      const int cur = location(static_cast<LocationId>(ter.first_location + i)).sector;
      INFO(ter.name);
      CHECK(cur == (prev + 1) % kNumSectors);
    }
  }
  CHECK(location(lid("Cielago West (North Sector)")).sector == 17);
  CHECK(location(lid("Cielago West (South Sector)")).sector == 0);
}

TEST_CASE("named locations", "[data][board]") {
  CHECK(location(arrakeen()).name == "Arrakeen");
  CHECK(location(arrakeen()).sector == 9);
  CHECK(location(carthag()).name == "Carthag");
  CHECK(location(carthag()).sector == 10);
  CHECK(location(sietch_tabr()).name == "Sietch Tabr");
  CHECK(location(sietch_tabr()).sector == 13);
  CHECK(location(tueks_sietch()).name == "Tuek's Sietch");
  CHECK(location(tueks_sietch()).sector == 4);
  CHECK(location(habbanya_sietch()).name == "Habbanya Sietch");
  CHECK(location(habbanya_sietch()).sector == 16);
  CHECK(location(polar_sink()).name == "Polar Sink");
  CHECK(location(polar_sink()).sector == kNoSector);
  CHECK(territory_of(polar_sink()) == polar_sink_territory());
  CHECK(arrakeen() == 0);
  CHECK(territory_of(arrakeen()) == 0);

  // Sector 0 holds the Storm Start pieces.
  std::set<std::string_view> sector0;
  for (int l = 0; l < kNumLocations; ++l) {
    if (location(static_cast<LocationId>(l)).sector == 0) sector0.insert(location(static_cast<LocationId>(l)).name);
  }
  CHECK(sector0 == std::set<std::string_view>{"Cielago North (West Sector)", "Cielago Depression (West Sector)",
                                              "Meridian (West Sector)", "Cielago West (South Sector)"});
}

TEST_CASE("strongholds and storm protection", "[data][board]") {
  const auto s = strongholds();
  REQUIRE(s.size() == 5);
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Territory& t = territory(s[i]);
    CHECK(t.stronghold);
    CHECK(t.kind == TerritoryKind::Stronghold);
    CHECK(t.storm_protected);
    CHECK(t.num_locations == 1);
    if (i > 0) CHECK(s[i - 1] < s[i]);
    names.insert(t.name);
  }
  CHECK(names == std::set<std::string_view>{"Arrakeen", "Carthag", "Habbanya Sietch", "Sietch Tabr", "Tuek's Sietch"});

  std::set<std::string_view> atomics;
  for (int t = 0; t < kNumTerritories; ++t) {
    const Territory& ter = territory(static_cast<TerritoryId>(t));
    const bool printed_protection = ter.kind == TerritoryKind::Rock || ter.kind == TerritoryKind::Stronghold ||
                                    ter.kind == TerritoryKind::ProtectedSand || ter.kind == TerritoryKind::PolarSink;
    CHECK(ter.storm_protected == printed_protection);
    CHECK(ter.stronghold == (ter.kind == TerritoryKind::Stronghold));
    if (ter.protection_lost_after_family_atomics) atomics.insert(ter.name);
  }
  CHECK(atomics == std::set<std::string_view>{"Arrakeen", "Carthag", "Imperial Basin"});
}

TEST_CASE("spice-blow pieces", "[data][board]") {
  int count = 0, total = 0;
  std::set<TerritoryId> territories;
  for (int l = 0; l < kNumLocations; ++l) {
    const Location& loc = location(static_cast<LocationId>(l));
    if (loc.spice_blow_amount == 0) continue;
    ++count;
    total += loc.spice_blow_amount;
    territories.insert(loc.territory);
    CHECK(territory(loc.territory).kind == TerritoryKind::Sand);
  }
  CHECK(count == 15);
  CHECK(territories.size() == 15u);  // at most one per territory
  CHECK(total == 118);
  CHECK(location(lid("Cielago South (West Sector)")).spice_blow_amount == 12);
  CHECK(location(lid("Cielago South (East Sector)")).spice_blow_amount == 0);
  CHECK(location(lid("The Great Flat")).spice_blow_amount == 10);
}

// ---- Neighbours and adjacency ----------------------------------------------

TEST_CASE("location neighbours are sorted, symmetric and irreflexive", "[data][board]") {
  std::size_t directed = 0;
  int within = 0, between = 0;
  for (int a = 0; a < kNumLocations; ++a) {
    const auto n = neighbours(static_cast<LocationId>(a));
    CHECK_FALSE(n.empty());
    directed += n.size();
    CHECK(std::is_sorted(n.begin(), n.end()));
    CHECK(std::adjacent_find(n.begin(), n.end()) == n.end());
    for (LocationId b : n) {
      REQUIRE(b < kNumLocations);
      CHECK(b != a);
      CHECK(are_neighbours(b, static_cast<LocationId>(a)));
      if (a < b) {
        if (territory_of(static_cast<LocationId>(a)) == territory_of(b)) ++within;
        else ++between;
      }
    }
    for (int b = 0; b < kNumLocations; ++b) {
      const bool listed = std::find(n.begin(), n.end(), b) != n.end();
      CHECK(are_neighbours(static_cast<LocationId>(a), static_cast<LocationId>(b)) == listed);
    }
  }
  CHECK(directed == 380u);
  CHECK(within == 44);
  CHECK(between == 146);
  CHECK_FALSE(are_neighbours(arrakeen(), arrakeen()));
  CHECK_FALSE(are_neighbours(arrakeen(), 200));
}

TEST_CASE("neighbouring locations lie in the same or adjacent sectors", "[data][board]") {
  int polar = 0;
  for (int a = 0; a < kNumLocations; ++a) {
    const Location& la = location(static_cast<LocationId>(a));
    for (LocationId b : neighbours(static_cast<LocationId>(a))) {
      const Location& lb = location(b);
      if (la.sector == kNoSector || lb.sector == kNoSector) {
        if (a < b) ++polar;
        continue;
      }
      INFO(la.name << " / " << lb.name);
      CHECK(sectors_equal_or_adjacent(la.sector, lb.sector));
    }
  }
  CHECK(polar == 19);
  CHECK(neighbours(polar_sink()).size() == 19u);

  // Two pieces of one territory are neighbours exactly when their sectors are adjacent.
  for (int t = 0; t < kNumTerritories; ++t) {
    const Territory& ter = territory(static_cast<TerritoryId>(t));
    for (int i = 0; i < ter.num_locations; ++i) {
      for (int j = 0; j < ter.num_locations; ++j) {
        if (i == j) continue;
        const auto a = static_cast<LocationId>(ter.first_location + i);
        const auto b = static_cast<LocationId>(ter.first_location + j);
        INFO(location(a).name << " / " << location(b).name);
        CHECK(are_neighbours(a, b) == sectors_equal_or_adjacent(location(a).sector, location(b).sector));
      }
    }
  }
}

TEST_CASE("territory adjacency is derived from location neighbours", "[data][board]") {
  int pairs = 0;
  for (int a = 0; a < kNumTerritories; ++a) {
    CHECK_FALSE(territories_adjacent(static_cast<TerritoryId>(a), static_cast<TerritoryId>(a)));
    for (int b = 0; b < kNumTerritories; ++b) {
      const auto ta = static_cast<TerritoryId>(a);
      const auto tb = static_cast<TerritoryId>(b);
      bool expected = false;
      if (a != b) {
        const Territory& x = territory(ta);
        const Territory& y = territory(tb);
        for (int i = 0; i < x.num_locations; ++i) {
          for (int j = 0; j < y.num_locations; ++j) {
            expected = expected || are_neighbours(static_cast<LocationId>(x.first_location + i),
                                                  static_cast<LocationId>(y.first_location + j));
          }
        }
      }
      CHECK(territories_adjacent(ta, tb) == expected);
      CHECK(territories_adjacent(ta, tb) == territories_adjacent(tb, ta));
      if (a < b && expected) ++pairs;
    }
  }
  CHECK(pairs == 103);

  auto adjacent_names = [](std::string_view name) {
    std::set<std::string_view> out;
    const TerritoryId t = tid(name);
    for (int u = 0; u < kNumTerritories; ++u) {
      if (territories_adjacent(t, static_cast<TerritoryId>(u))) out.insert(territory(static_cast<TerritoryId>(u)).name);
    }
    return out;
  };
  CHECK(adjacent_names("Arrakeen") == std::set<std::string_view>{"Imperial Basin", "Old Gap", "Rim Wall West"});
  CHECK(adjacent_names("Habbanya Sietch") == std::set<std::string_view>{"Habbanya Ridge Flat"});
  CHECK(adjacent_names("Shield Wall") ==
        std::set<std::string_view>{"False Wall East", "Gara Kulon", "Hole In The Rock", "Imperial Basin",
                                   "Pasty Mesa", "Sihaya Ridge", "The Minor Erg"});
  CHECK(adjacent_names("Polar Sink").size() == 8u);
  CHECK_FALSE(territories_adjacent(tid("Arrakeen"), tid("Carthag")));
  CHECK_FALSE(territories_adjacent(0, 99));
}

TEST_CASE("Fremen shipping range is The Great Flat plus two territories", "[data][board]") {
  // Breadth-first distances over the territory adjacency.
  std::vector<int> dist(kNumTerritories, -1);
  std::vector<TerritoryId> queue{the_great_flat()};
  dist[the_great_flat()] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const TerritoryId t = queue[head];
    for (int u = 0; u < kNumTerritories; ++u) {
      if (territories_adjacent(t, static_cast<TerritoryId>(u)) && dist[u] < 0) {
        dist[u] = dist[t] + 1;
        queue.push_back(static_cast<TerritoryId>(u));
      }
    }
  }
  int count = 0;
  for (int t = 0; t < kNumTerritories; ++t) {
    INFO(territory(static_cast<TerritoryId>(t)).name);
    CHECK(dist[t] >= 0);  // the board is connected
    CHECK(in_fremen_shipping_range(static_cast<TerritoryId>(t)) == (dist[t] <= 2));
    if (in_fremen_shipping_range(static_cast<TerritoryId>(t))) ++count;
  }
  CHECK(count == 16);
  CHECK(in_fremen_shipping_range(the_great_flat()));
  CHECK(in_fremen_shipping_range(tid("Sietch Tabr")));
  CHECK(in_fremen_shipping_range(polar_sink_territory()));
  CHECK_FALSE(in_fremen_shipping_range(tid("Arrakeen")));
  CHECK_FALSE(in_fremen_shipping_range(tid("Habbanya Sietch")));
  CHECK_FALSE(in_fremen_shipping_range(99));
}

// ---- Treachery deck ----------------------------------------------------------

TEST_CASE("treachery deck: ids, kinds and counts", "[data][components]") {
  CHECK(kNumTreacheryCards == 33);
  int total = 0;
  std::array<int, kNumTreacheryKinds> seen{};
  for (int id = 0; id < kNumTreacheryCards; ++id) {
    const TreacheryCard& c = treachery_card(static_cast<TreacheryId>(id));
    ++seen[static_cast<int>(c.kind)];
    CHECK(c.name == treachery_kind_name(c.kind));
    if (id > 0) CHECK(static_cast<int>(treachery_card(static_cast<TreacheryId>(id - 1)).kind) <= static_cast<int>(c.kind));
  }
  for (int k = 0; k < kNumTreacheryKinds; ++k) {
    CHECK(seen[k] == treachery_kind_count(static_cast<TreacheryKind>(k)));
    CHECK(seen[k] >= 1);
    total += treachery_kind_count(static_cast<TreacheryKind>(k));
  }
  CHECK(total == 33);

  CHECK(treachery_kind_count(TreacheryKind::CheapHero) == 2);
  CHECK(treachery_kind_count(TreacheryKind::CheapHeroine) == 1);
  CHECK(treachery_kind_count(TreacheryKind::Karama) == 2);
  CHECK(treachery_kind_count(TreacheryKind::Shield) == 4);
  CHECK(treachery_kind_count(TreacheryKind::Snooper) == 4);
  CHECK(treachery_kind_count(TreacheryKind::Truthtrance) == 2);
  CHECK(treachery_kind_count(TreacheryKind::Lasgun) == 1);

  // Stable ids named in components.h.
  const std::vector<std::pair<int, TreacheryKind>> anchors = {
      {0, TreacheryKind::Baliset},        {1, TreacheryKind::Chaumas},       {2, TreacheryKind::Chaumurky},
      {3, TreacheryKind::CheapHero},      {4, TreacheryKind::CheapHero},     {5, TreacheryKind::CheapHeroine},
      {6, TreacheryKind::Crysknife},      {7, TreacheryKind::EllacaDrug},    {8, TreacheryKind::FamilyAtomics},
      {9, TreacheryKind::GomJabbar},      {10, TreacheryKind::Hajr},         {11, TreacheryKind::JubbaCloak},
      {12, TreacheryKind::Karama},        {13, TreacheryKind::Karama},       {14, TreacheryKind::Kulon},
      {15, TreacheryKind::LaLaLa},        {16, TreacheryKind::Lasgun},       {17, TreacheryKind::MaulaPistol},
      {18, TreacheryKind::Shield},        {21, TreacheryKind::Shield},       {22, TreacheryKind::SlipTip},
      {23, TreacheryKind::Snooper},       {26, TreacheryKind::Snooper},      {27, TreacheryKind::Stunner},
      {28, TreacheryKind::TleilaxuGhola}, {29, TreacheryKind::TripToGamont}, {30, TreacheryKind::Truthtrance},
      {31, TreacheryKind::Truthtrance},   {32, TreacheryKind::WeatherControl}};
  for (const auto& [id, kind] : anchors) {
    INFO("id " << id);
    CHECK(treachery_card(static_cast<TreacheryId>(id)).kind == kind);
  }
  CHECK(treachery_card(5).name == "Cheap Heroine");
  CHECK(treachery_card(16).name == "Lasgun");
  CHECK(treachery_card(29).name == "Trip to Gamont");
  CHECK(treachery_card(15).name == "La La La");
}

TEST_CASE("treachery deck: categories", "[data][components]") {
  std::array<int, 7> by_category{};
  int weapons = 0, defenses = 0;
  for (int id = 0; id < kNumTreacheryCards; ++id) {
    const TreacheryCategory c = treachery_card(static_cast<TreacheryId>(id)).category;
    ++by_category[static_cast<int>(c)];
    if (is_weapon(c)) ++weapons;
    if (is_defense(c)) ++defenses;
    CHECK_FALSE((is_weapon(c) && is_defense(c)));
  }
  CHECK(by_category[static_cast<int>(TreacheryCategory::WeaponProjectile)] == 4);
  CHECK(by_category[static_cast<int>(TreacheryCategory::WeaponPoison)] == 4);
  CHECK(by_category[static_cast<int>(TreacheryCategory::WeaponLasgun)] == 1);
  CHECK(by_category[static_cast<int>(TreacheryCategory::DefenseProjectile)] == 4);
  CHECK(by_category[static_cast<int>(TreacheryCategory::DefensePoison)] == 4);
  CHECK(by_category[static_cast<int>(TreacheryCategory::Special)] == 11);
  CHECK(by_category[static_cast<int>(TreacheryCategory::Worthless)] == 5);
  CHECK(weapons == 9);
  CHECK(defenses == 8);
  CHECK(treachery_card(16).category == TreacheryCategory::WeaponLasgun);
  CHECK(treachery_card(18).category == TreacheryCategory::DefenseProjectile);
  CHECK(treachery_card(23).category == TreacheryCategory::DefensePoison);
  CHECK(treachery_card(9).category == TreacheryCategory::WeaponPoison);   // Gom Jabbar
  CHECK(treachery_card(6).category == TreacheryCategory::WeaponProjectile);  // Crysknife
  CHECK(treachery_card(12).category == TreacheryCategory::Special);       // Karama
  CHECK(treachery_card(0).category == TreacheryCategory::Worthless);      // Baliset
}

// ---- Spice deck --------------------------------------------------------------

TEST_CASE("spice deck", "[data][components]") {
  CHECK(kNumSpiceCards == 21);
  int total = 0, worms = 0;
  std::set<LocationId> blow_locations;
  for (int id = 0; id < kNumSpiceCards; ++id) {
    const SpiceCard& c = spice_card(static_cast<SpiceCardId>(id));
    total += c.amount;
    if (c.shai_hulud) {
      ++worms;
      CHECK(id >= 15);
      CHECK(c.amount == 0);
      CHECK(spice_card_name(static_cast<SpiceCardId>(id)) == "Shai-Hulud");
      continue;
    }
    CHECK(id < 15);
    REQUIRE(c.location < kNumLocations);
    const Location& loc = location(c.location);
    INFO(loc.name);
    CHECK(loc.spice_blow_amount == c.amount);
    CHECK(blow_locations.insert(c.location).second);
    CHECK(spice_card_name(static_cast<SpiceCardId>(id)) ==
          std::string(territory(loc.territory).name) + " (" + std::to_string(c.amount) + ")");
    if (id > 0) {
      CHECK(territory(territory_of(spice_card(static_cast<SpiceCardId>(id - 1)).location)).name <
            territory(loc.territory).name);
    }
  }
  CHECK(worms == 6);
  CHECK(total == 118);
  // Every spice-blow piece has exactly one card.
  for (int l = 0; l < kNumLocations; ++l) {
    CHECK((location(static_cast<LocationId>(l)).spice_blow_amount > 0) ==
          (blow_locations.count(static_cast<LocationId>(l)) == 1));
  }
  CHECK(spice_card_name(0) == "Broken Land (8)");
  CHECK(spice_card_name(2) == "Cielago South (12)");
  CHECK(spice_card_name(14) == "Wind Pass North (6)");
  CHECK(spice_card(0).location == lid("Broken Land (West Sector)"));
}

// ---- Leaders -----------------------------------------------------------------

TEST_CASE("leaders", "[data][components]") {
  CHECK(kNumBaseLeaders == 30);
  std::set<std::string_view> names;
  for (Faction f : kBaseFactionList) {
    int sum = 0;
    for (int i = 0; i < kLeadersPerFaction; ++i) {
      const LeaderId id = leader_id(f, i);
      CHECK(id == static_cast<int>(f) * 5 + i);
      const Leader& l = leader(id);
      CHECK(l.faction == f);
      CHECK(l.strength >= 1);
      CHECK(l.strength <= 7);
      if (i > 0) CHECK(leader(leader_id(f, i - 1)).strength >= l.strength);
      CHECK(find_leader(l.name) == std::optional<LeaderId>(id));
      names.insert(l.name);
      sum += l.strength;
    }
    INFO(faction_name(f));
    switch (f) {
      case Faction::Atreides: CHECK(sum == 17); break;
      case Faction::BeneGesserit: CHECK(sum == 25); break;
      case Faction::Emperor: CHECK(sum == 19); break;
      case Faction::Fremen: CHECK(sum == 23); break;
      case Faction::Harkonnen: CHECK(sum == 16); break;
      case Faction::Guild: CHECK(sum == 14); break;
      default: FAIL("not a base faction"); break;
    }
  }
  CHECK(names.size() == 30u);
  CHECK(leader(0).name == "Lady Jessica");
  CHECK(leader(leader_id(Faction::Fremen, 0)).name == "Stilgar");
  CHECK(leader(leader_id(Faction::Fremen, 0)).strength == 7);
  CHECK(leader(leader_id(Faction::Harkonnen, 0)).name == "Feyd Rautha");
  CHECK(leader(29).name == "Guild Rep.");
  CHECK(leader(29).strength == 1);
  CHECK_FALSE(find_leader("Paul Atreides").has_value());
  CHECK_FALSE(find_leader("stilgar").has_value());
}

// ---- Faction setup -----------------------------------------------------------

TEST_CASE("faction setup", "[data][components]") {
  int spice = 0, on_planet = 0;
  for (Faction f : kBaseFactionList) {
    const FactionSetup& s = faction_setup(f);
    INFO(faction_name(f));
    CHECK(s.faction == f);
    CHECK(s.forces_total == 20);
    CHECK(s.forces_on_planet <= s.forces_total);
    CHECK(s.special_force_name.empty() == (s.special_forces == 0));
    spice += s.starting_spice;
    on_planet += s.forces_on_planet;
    if (f == Faction::Harkonnen) {
      CHECK(s.hand_limit == 8);
      CHECK(s.traitors_kept == 4);
      CHECK(s.starting_treachery_cards == 2);
    } else {
      CHECK(s.hand_limit == 4);
      CHECK(s.traitors_kept == 1);
      CHECK(s.starting_treachery_cards == 1);
    }
    const auto start = fixed_start_location(f);
    if (f == Faction::Fremen || f == Faction::Emperor) {
      CHECK_FALSE(start.has_value());
    } else {
      REQUIRE(start.has_value());
      CHECK(s.forces_on_planet > 0);
    }
  }
  CHECK(spice == 43);
  CHECK(on_planet == 36);

  CHECK(faction_setup(Faction::Atreides).starting_spice == 10);
  CHECK(faction_setup(Faction::Atreides).forces_on_planet == 10);
  CHECK(faction_setup(Faction::Atreides).free_revival == 2);
  CHECK(faction_setup(Faction::BeneGesserit).starting_spice == 5);
  CHECK(faction_setup(Faction::BeneGesserit).forces_on_planet == 1);
  CHECK(faction_setup(Faction::Emperor).forces_on_planet == 0);
  CHECK(faction_setup(Faction::Emperor).special_forces == 5);
  CHECK(faction_setup(Faction::Emperor).special_force_name == "Sardaukar");
  CHECK(faction_setup(Faction::Fremen).starting_spice == 3);
  CHECK(faction_setup(Faction::Fremen).free_revival == 3);
  CHECK(faction_setup(Faction::Fremen).special_forces == 3);
  CHECK(faction_setup(Faction::Fremen).special_force_name == "Fedaykin");
  CHECK(faction_setup(Faction::Fremen).forces_on_planet == 10);
  CHECK(faction_setup(Faction::Guild).forces_on_planet == 5);
  CHECK(faction_setup(Faction::Guild).free_revival == 1);

  CHECK(fixed_start_location(Faction::Atreides) == std::optional<LocationId>(arrakeen()));
  CHECK(fixed_start_location(Faction::Harkonnen) == std::optional<LocationId>(carthag()));
  CHECK(fixed_start_location(Faction::Guild) == std::optional<LocationId>(tueks_sietch()));
  CHECK(fixed_start_location(Faction::BeneGesserit) == std::optional<LocationId>(polar_sink()));

  std::set<std::string_view> fremen;
  for (TerritoryId t : fremen_start_territories()) fremen.insert(territory(t).name);
  CHECK(fremen_start_territories().size() == 3u);
  CHECK(fremen == std::set<std::string_view>{"Sietch Tabr", "False Wall South", "False Wall West"});
  // The order is part of the contract (components.h).
  REQUIRE(fremen_start_territories().size() == 3u);
  CHECK(territory(fremen_start_territories()[0]).name == "Sietch Tabr");
  CHECK(territory(fremen_start_territories()[1]).name == "False Wall South");
  CHECK(territory(fremen_start_territories()[2]).name == "False Wall West");
  CHECK(fremen_start_territories()[0] == territory_of(sietch_tabr()));
}

// ---- Expansion components and modules -----------------------------------------

TEST_CASE("leader id scheme: five per faction, then the extra leaders", "[data][components][expansion]") {
  CHECK(kNumLeaders == 62);
  std::set<std::string_view> names;
  for (Faction f : kAllFactions) {
    const FactionLeaders ls = faction_leaders(f);
    CHECK(ls.n == (f == Faction::Choam ? 6 : 5));
    for (int i = 0; i < kLeadersPerFaction; ++i) {
      CHECK(ls.ids[i] == static_cast<int>(f) * 5 + i);  // stable: faction * 5 + index
      CHECK(leader(ls.ids[i]).faction == f);
      names.insert(leader(ls.ids[i]).name);
    }
  }
  CHECK(names.size() == 60u);
  CHECK(faction_leaders(Faction::Choam).ids[5] == kAuditor);
  CHECK(kAuditor == kFirstExtraLeader);
  CHECK(leader(kDukeVidal).neutral());
  CHECK(leader(kDukeVidal).strength == 6);
  CHECK(find_leader("Auditor") == std::optional<LeaderId>(kAuditor));
  CHECK(leader(leader_id(Faction::Ixians, 0)).name == "C'Tair Pilru");
  CHECK(leader(59).name == "Vando Terboli");
}

TEST_CASE("expansion factions: setup tables", "[data][components][expansion]") {
  CHECK(faction_setup(Faction::Choam).hand_limit == 5);
  CHECK(faction_setup(Faction::Choam).free_revival == 0);
  CHECK(faction_setup(Faction::Choam).starting_spice == 2);
  CHECK(faction_setup(Faction::Ixians).special_forces == 7);
  CHECK(faction_setup(Faction::Ixians).special_force_name == "Cyborgs");
  CHECK(faction_setup(Faction::Ixians).special_on_planet == 3);
  CHECK(faction_setup(Faction::Tleilaxu).traitors_kept == 0);
  CHECK(faction_setup(Faction::Ecaz).starting_spice == 12);
  CHECK(fixed_start_location(Faction::Ecaz) == find_location("Imperial Basin (Center Sector)"));
  CHECK_FALSE(fixed_start_location(Faction::Moritani).has_value());
  for (Faction f : kAllFactions) CHECK(faction_setup(f).forces_total == 20);
}

TEST_CASE("card sets: stable ids, names and categories", "[data][components][expansion]") {
  int total = 0;
  for (int si = 0; si < kNumCardSets; ++si) {
    const CardSetInfo& set = card_set(static_cast<CardSet>(si));
    CHECK(set.first == total);
    total += set.count;
    for (int id = set.first; id < set.first + set.count; ++id) CHECK(treachery_card(static_cast<TreacheryId>(id)).set == set.set);
  }
  CHECK(total == kNumAllTreacheryCards);
  CHECK(card_set(CardSet::Richese).count == 10);
  CHECK(card_set(CardSet::IxiansTleilaxu).count == 14);
  CHECK(card_set(CardSet::EcazMoritani).count == 3);
  CHECK(treachery_card(33).name == "Distrans");
  CHECK(treachery_card(35).kind == TreacheryKind::Karama);  // the Richese Karama
  CHECK(treachery_card(38).kind == TreacheryKind::Ornithopter);
  CHECK(treachery_card(52).kind == TreacheryKind::Shield);  // the Ixians & Tleilaxu Shield
  CHECK(treachery_card(59).name == "Reinforcements");
  CHECK(treachery_card(44).category == TreacheryCategory::WeaponSpecial);  // Artillery Strike
  CHECK(treachery_card(32).set == CardSet::Base);
}

TEST_CASE("modules: keys, factions they seat, card sets they add", "[data][modules][expansion]") {
  ModuleSet m = 0;
  std::string error;
  REQUIRE(parse_module_list("choam_richese,leader_skills,stronghold_cards", &m, &error));
  CHECK(m == (module_bit(Module::ChoamRichese) | module_bit(Module::LeaderSkills) | module_bit(Module::StrongholdCards)));
  CHECK(module_list(m) == "choam_richese,leader_skills,stronghold_cards");
  CHECK_FALSE(parse_module_list("choam_richese,spice_harvest", &m, &error));
  CHECK(error.find("spice_harvest") != std::string::npos);
  REQUIRE(parse_module_list("", &m, &error));
  CHECK(m == 0);

  CHECK(factions_allowed(0) == 0x3F);
  CHECK((factions_allowed(module_bit(Module::ChoamRichese)) & faction_bit(Faction::Choam)) != 0);
  CHECK((factions_allowed(module_bit(Module::ChoamRichese)) & faction_bit(Faction::Ixians)) == 0);
  CHECK(card_sets_in(0, CardPlace::TreacheryDeck) == 1);
  CHECK(card_sets_in(0, CardPlace::RicheseCache) == 0);
  CHECK(card_sets_in(module_bit(Module::ChoamRichese), CardPlace::RicheseCache) == (1u << static_cast<int>(CardSet::Richese)));
  CHECK(card_sets_in(module_bit(Module::IxiansTleilaxu) | module_bit(Module::EcazMoritani), CardPlace::TreacheryDeck) ==
        (1u | (1u << static_cast<int>(CardSet::IxiansTleilaxu)) | (1u << static_cast<int>(CardSet::EcazMoritani))));

  // Today the six base factions, CHOAM and the Richese (with choam_richese, issues 15 and 13) are implemented: each refusal names what is.
  CHECK_FALSE(check_factions_and_modules({Faction::Atreides, Faction::Fremen}, 0).has_value());
  CHECK_FALSE(check_factions_and_modules({Faction::Atreides, Faction::Choam}, module_bit(Module::ChoamRichese)).has_value());
  CHECK_FALSE(check_factions_and_modules({Faction::Atreides, Faction::Fremen}, module_bit(Module::LeaderSkills)).has_value());  // issue 16
  auto why = check_factions_and_modules({Faction::Atreides, Faction::Fremen}, module_bit(Module::Homeworlds));
  REQUIRE(why.has_value());
  CHECK(why->find("homeworlds") != std::string::npos);
  CHECK(why->find("not implemented") != std::string::npos);
  // The Richese sit with choam_richese (issue 13); the Ixians do not sit yet.
  CHECK_FALSE(check_factions_and_modules({Faction::Atreides, Faction::Richese}, module_bit(Module::ChoamRichese)).has_value());
  why = check_factions_and_modules({Faction::Atreides, Faction::Ixians}, module_bit(Module::ChoamRichese));
  REQUIRE(why.has_value());
  CHECK(why->find("ixians") != std::string::npos);
  CHECK(why->find("atreides, bene_gesserit, emperor, fremen, harkonnen, spacing_guild, choam, richese") != std::string::npos);
  why = check_factions_and_modules({Faction::Atreides, Faction::Choam}, 0);
  REQUIRE(why.has_value());
  CHECK(*why == "faction choam needs the module choam_richese (CHOAM & Richese), which this game does not use");
  why = check_factions_and_modules({Faction::Richese}, module_bit(Module::LeaderSkills));
  REQUIRE(why.has_value());
  CHECK(why->find("richese needs the module choam_richese") != std::string::npos);
  CHECK(modules_seating(Faction::Richese) == module_bit(Module::ChoamRichese));
  CHECK(modules_seating(Faction::Atreides) == 0);
  CHECK(unknown_module_error("spice") ==
        "unknown module 'spice' (modules: choam_richese, leader_skills, stronghold_cards, ixians_tleilaxu, ecaz_moritani, "
        "homeworlds, discovery)");
  for (Faction f : kAllFactions)
    CHECK(faction_rules_implemented(f) == (static_cast<int>(f) < kNumBaseFactions || f == Faction::Choam || f == Faction::Richese));
}
