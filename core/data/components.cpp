// Base-game component tables. See components.h for the contract.
//
// The project's own transcription of the GF9 Dune (2019) base components.
// Location and territory ids used here refer to the board tables
// (core/data/board.cpp); tests check that they name the intended places.
#include "core/data/components.h"

#include <array>
#include <cstddef>

#include "core/data/board.h"

namespace mentat::data {
namespace {

// ---- Treachery cards --------------------------------------------------------

using TK = TreacheryKind;
using TC = TreacheryCategory;

struct TreacheryKindInfo {
  TreacheryKind kind;
  std::string_view name;
  TreacheryCategory category;
  uint8_t count;
};

// One row per kind, in TreacheryKind order.
constexpr TreacheryKindInfo kTreacheryKinds[kNumTreacheryKinds] = {
  {TK::Baliset, "Baliset", TC::Worthless, 1},
  {TK::Chaumas, "Chaumas", TC::WeaponPoison, 1},
  {TK::Chaumurky, "Chaumurky", TC::WeaponPoison, 1},
  {TK::CheapHero, "Cheap Hero", TC::Special, 2},
  {TK::CheapHeroine, "Cheap Heroine", TC::Special, 1},
  {TK::Crysknife, "Crysknife", TC::WeaponProjectile, 1},
  {TK::EllacaDrug, "Ellaca Drug", TC::WeaponPoison, 1},
  {TK::FamilyAtomics, "Family Atomics", TC::Special, 1},
  {TK::GomJabbar, "Gom Jabbar", TC::WeaponPoison, 1},
  {TK::Hajr, "Hajr", TC::Special, 1},
  {TK::JubbaCloak, "Jubba Cloak", TC::Worthless, 1},
  {TK::Karama, "Karama", TC::Special, 2},
  {TK::Kulon, "Kulon", TC::Worthless, 1},
  {TK::LaLaLa, "La La La", TC::Worthless, 1},
  {TK::Lasgun, "Lasgun", TC::WeaponLasgun, 1},
  {TK::MaulaPistol, "Maula Pistol", TC::WeaponProjectile, 1},
  {TK::Shield, "Shield", TC::DefenseProjectile, 4},
  {TK::SlipTip, "Slip Tip", TC::WeaponProjectile, 1},
  {TK::Snooper, "Snooper", TC::DefensePoison, 4},
  {TK::Stunner, "Stunner", TC::WeaponProjectile, 1},
  {TK::TleilaxuGhola, "Tleilaxu Ghola", TC::Special, 1},
  {TK::TripToGamont, "Trip to Gamont", TC::Worthless, 1},
  {TK::Truthtrance, "Truthtrance", TC::Special, 2},
  {TK::WeatherControl, "Weather Control", TC::Special, 1},
};

constexpr bool treachery_kinds_in_order() {
  for (int i = 0; i < kNumTreacheryKinds; ++i) {
    if (static_cast<int>(kTreacheryKinds[i].kind) != i) return false;
  }
  return static_cast<int>(TK::WeatherControl) == kNumTreacheryKinds - 1;
}
static_assert(treachery_kinds_in_order());

// Ids 0..32: every kind's copies, consecutive, in kind order.
constexpr std::array<TreacheryCard, kNumTreacheryCards> build_treachery_deck() {
  std::array<TreacheryCard, kNumTreacheryCards> deck{};
  std::size_t next = 0;
  for (const TreacheryKindInfo& k : kTreacheryKinds) {
    for (int c = 0; c < k.count; ++c) deck[next++] = TreacheryCard{k.kind, k.name, k.category};
  }
  // Leaves a default entry (detected below) if the counts do not add up.
  return deck;
}

constexpr int treachery_total() {
  int total = 0;
  for (const TreacheryKindInfo& k : kTreacheryKinds) total += k.count;
  return total;
}
static_assert(treachery_total() == kNumTreacheryCards);

constexpr std::array<TreacheryCard, kNumTreacheryCards> kTreacheryDeck = build_treachery_deck();

// ---- Spice deck -------------------------------------------------------------

// Location ids of the spice-blow pieces (see board.cpp).
constexpr SpiceCard kSpiceDeck[kNumSpiceCards] = {
  {false, 7, 8},    // Broken Land (West Sector)
  {false, 16, 8},   // Cielago North (East Sector)
  {false, 17, 12},  // Cielago South (West Sector)
  {false, 31, 6},   // Funeral Plain
  {false, 33, 8},   // Habbanya Erg (West Sector)
  {false, 36, 10},  // Habbanya Ridge Flat (East Sector)
  {false, 39, 6},   // Hagga Basin (West Sector)
  {false, 49, 6},   // Old Gap (Middle Sector)
  {false, 59, 8},   // Red Chasm
  {false, 62, 6},   // Rock Outcroppings (South Sector)
  {false, 66, 6},   // Sihaya Ridge
  {false, 68, 10},  // South Mesa (Middle Sector)
  {false, 70, 10},  // The Great Flat
  {false, 75, 8},   // The Minor Erg (Far North Sector)
  {false, 84, 6},   // Wind Pass North (North Sector)
  {true, kNone8, 0},  // Shai-Hulud x6
  {true, kNone8, 0},
  {true, kNone8, 0},
  {true, kNone8, 0},
  {true, kNone8, 0},
  {true, kNone8, 0},
};

constexpr bool spice_deck_shape() {
  int total = 0;
  for (int i = 0; i < kNumSpiceCards; ++i) {
    const SpiceCard& c = kSpiceDeck[i];
    if (c.shai_hulud != (i >= 15)) return false;
    if (!c.shai_hulud && (c.amount == 0 || c.location >= kNumLocations)) return false;
    if (i > 0 && i < 15 && !(kSpiceDeck[i - 1].location < c.location)) return false;
    total += c.amount;
  }
  return total == 118;
}
static_assert(spice_deck_shape());

// ---- Leaders ----------------------------------------------------------------

using F = Faction;

// LeaderId = faction * 5 + index; strongest first within a faction.
constexpr Leader kLeaders[kNumLeaders] = {
  {"Lady Jessica", F::Atreides, 5},
  {"Thufir Hawat", F::Atreides, 5},
  {"Gurney Halleck", F::Atreides, 4},
  {"Duncan Idaho", F::Atreides, 2},
  {"Dr. Wellington Yueh", F::Atreides, 1},

  {"Alia", F::BeneGesserit, 5},
  {"Margot Lady Fenring", F::BeneGesserit, 5},
  {"Mother Ramallo", F::BeneGesserit, 5},
  {"Princess Irulan", F::BeneGesserit, 5},
  {"Wanna Marcus", F::BeneGesserit, 5},

  {"Hasimir Fenring", F::Emperor, 6},
  {"Captain Aramsham", F::Emperor, 5},
  {"Burseg", F::Emperor, 3},
  {"Caid", F::Emperor, 3},
  {"Bashar", F::Emperor, 2},

  {"Stilgar", F::Fremen, 7},
  {"Chani", F::Fremen, 6},
  {"Otheym", F::Fremen, 5},
  {"Shadout Mapes", F::Fremen, 3},
  {"Jamis", F::Fremen, 2},

  {"Feyd Rautha", F::Harkonnen, 6},
  {"Beast Rabban", F::Harkonnen, 4},
  {"Piter de Vries", F::Harkonnen, 3},
  {"Captain Iakin Nefud", F::Harkonnen, 2},
  {"Umman Kudu", F::Harkonnen, 1},

  {"Staban Tuek", F::Guild, 5},
  {"Esmar Tuek", F::Guild, 3},
  {"Master Bewt", F::Guild, 3},
  {"Soo-Soo Sook", F::Guild, 2},
  {"Guild Rep.", F::Guild, 1},
};

constexpr bool leaders_ordered() {
  for (int i = 0; i < kNumLeaders; ++i) {
    if (static_cast<int>(kLeaders[i].faction) != i / kLeadersPerFaction) return false;
    if (i % kLeadersPerFaction != 0 && kLeaders[i - 1].strength < kLeaders[i].strength) return false;
  }
  return true;
}
static_assert(leaders_ordered());

// ---- Faction setup ----------------------------------------------------------

// faction, starting_spice, forces_total, special_forces, forces_on_planet,
// free_revival, hand_limit, starting_treachery_cards, traitors_kept,
// special_force_name
constexpr FactionSetup kFactionSetup[kNumFactions] = {
  {F::Atreides, 10, 20, 0, 10, 2, 4, 1, 1, ""},
  {F::BeneGesserit, 5, 20, 0, 1, 1, 4, 1, 1, ""},
  {F::Emperor, 10, 20, 5, 0, 1, 4, 1, 1, "Sardaukar"},
  {F::Fremen, 3, 20, 3, 10, 3, 4, 1, 1, "Fedaykin"},
  {F::Harkonnen, 10, 20, 0, 10, 2, 8, 2, 4, ""},
  {F::Guild, 5, 20, 0, 5, 1, 4, 1, 1, ""},
};

constexpr bool faction_setup_ordered() {
  for (int i = 0; i < kNumFactions; ++i) {
    const FactionSetup& s = kFactionSetup[i];
    if (static_cast<int>(s.faction) != i) return false;
    if (s.forces_on_planet > s.forces_total || s.special_forces > s.forces_total) return false;
    if (s.special_forces != 0 && s.special_force_name.empty()) return false;
  }
  return true;
}
static_assert(faction_setup_ordered());

// Sietch Tabr, False Wall South, False Wall West, in the order of the rule
// text (territory ids; see board.cpp).
constexpr TerritoryId kFremenStartTerritories[] = {32, 12, 13};

}  // namespace

const TreacheryCard& treachery_card(TreacheryId id) { return kTreacheryDeck[id]; }

std::string_view treachery_kind_name(TreacheryKind k) {
  return kTreacheryKinds[static_cast<int>(k)].name;
}

int treachery_kind_count(TreacheryKind k) { return kTreacheryKinds[static_cast<int>(k)].count; }

const SpiceCard& spice_card(SpiceCardId id) { return kSpiceDeck[id]; }

std::string spice_card_name(SpiceCardId id) {
  const SpiceCard& c = kSpiceDeck[id];
  if (c.shai_hulud) return "Shai-Hulud";
  std::string name(territory(territory_of(c.location)).name);
  name += " (";
  name += std::to_string(c.amount);
  name += ")";
  return name;
}

const Leader& leader(LeaderId id) { return kLeaders[id]; }

std::optional<LeaderId> find_leader(std::string_view name) {
  for (int i = 0; i < kNumLeaders; ++i) {
    if (kLeaders[i].name == name) return static_cast<LeaderId>(i);
  }
  return std::nullopt;
}

const FactionSetup& faction_setup(Faction f) { return kFactionSetup[static_cast<int>(f)]; }

std::optional<LocationId> fixed_start_location(Faction f) {
  switch (f) {
    case Faction::Atreides: return arrakeen();
    case Faction::BeneGesserit: return polar_sink();
    case Faction::Harkonnen: return carthag();
    case Faction::Guild: return tueks_sietch();
    case Faction::Emperor:
    case Faction::Fremen: return std::nullopt;
  }
  return std::nullopt;
}

std::span<const TerritoryId> fremen_start_territories() { return kFremenStartTerritories; }

}  // namespace mentat::data
