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
using CS = CardSet;

struct TreacheryKindInfo {
  TreacheryKind kind;
  std::string_view name;
  TreacheryCategory category;
  uint8_t count;  // copies in the base deck
};

// One row per kind, in TreacheryKind order (the category is the kind's in
// every set that holds it).
constexpr TreacheryKindInfo kTreacheryKinds[kNumAllTreacheryKinds] = {
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
  {TK::Distrans, "Distrans", TC::Special, 0},
  {TK::JuiceOfSapho, "Juice of Sapho", TC::Special, 0},
  {TK::MirrorWeapon, "Mirror Weapon", TC::WeaponSpecial, 0},
  {TK::NullentropyBox, "Nullentropy Box", TC::Special, 0},
  {TK::Ornithopter, "Ornithopter", TC::Special, 0},
  {TK::PortableSnooper, "Portable Snooper", TC::DefensePoison, 0},
  {TK::ResidualPoison, "Residual Poison", TC::Special, 0},
  {TK::SemutaDrug, "Semuta Drug", TC::Special, 0},
  {TK::StoneBurner, "Stone Burner", TC::WeaponSpecial, 0},
  {TK::Amal, "Amal", TC::Special, 0},
  {TK::ArtilleryStrike, "Artillery Strike", TC::WeaponSpecial, 0},
  {TK::BasiliaWeapon, "Basilia Weapon", TC::WeaponPoison, 0},
  {TK::Chemistry, "Chemistry", TC::DefenseSpecial, 0},
  {TK::Harvester, "Harvester", TC::Special, 0},
  {TK::HunterSeeker, "Hunter-Seeker", TC::WeaponProjectile, 0},
  {TK::KullWahad, "Kull Wahad", TC::Worthless, 0},
  {TK::PoisonBlade, "Poison Blade", TC::WeaponSpecial, 0},
  {TK::PoisonTooth, "Poison Tooth", TC::WeaponSpecial, 0},
  {TK::ShieldSnooper, "Shield Snooper", TC::DefenseSpecial, 0},
  {TK::Thumper, "Thumper", TC::Special, 0},
  {TK::WeirdingWay, "Weirding Way", TC::WeaponSpecial, 0},
  {TK::HarassAndWithdraw, "Harass and Withdraw", TC::Special, 0},
  {TK::Recruits, "Recruits", TC::Special, 0},
  {TK::Reinforcements, "Reinforcements", TC::Special, 0},
};

constexpr bool treachery_kinds_in_order() {
  for (int i = 0; i < kNumAllTreacheryKinds; ++i) {
    if (static_cast<int>(kTreacheryKinds[i].kind) != i) return false;
    if ((kTreacheryKinds[i].count != 0) != (i < kNumTreacheryKinds)) return false;
  }
  return static_cast<int>(TK::WeatherControl) == kNumTreacheryKinds - 1 &&
         static_cast<int>(TK::Reinforcements) == kNumAllTreacheryKinds - 1;
}
static_assert(treachery_kinds_in_order());

constexpr CardSetInfo kCardSets[kNumCardSets] = {
  {CS::Base, "base", "base", 0, 33},
  {CS::Richese, "richese", "CHOAM & Richese (Richese cards)", 33, 10},
  {CS::IxiansTleilaxu, "ixians_tleilaxu", "Ixians & Tleilaxu", 43, 14},
  {CS::EcazMoritani, "ecaz_moritani", "Ecaz & Moritani", 57, 3},
};

// The expansion sets' cards, set by set, in name order within a set (ids 33..59).
struct SetCard {
  CardSet set;
  TreacheryKind kind;
};
constexpr SetCard kExpansionCards[kNumAllTreacheryCards - kNumTreacheryCards] = {
  {CS::Richese, TK::Distrans}, {CS::Richese, TK::JuiceOfSapho}, {CS::Richese, TK::Karama},
  {CS::Richese, TK::MirrorWeapon}, {CS::Richese, TK::NullentropyBox}, {CS::Richese, TK::Ornithopter},
  {CS::Richese, TK::PortableSnooper}, {CS::Richese, TK::ResidualPoison}, {CS::Richese, TK::SemutaDrug},
  {CS::Richese, TK::StoneBurner},
  {CS::IxiansTleilaxu, TK::Amal}, {CS::IxiansTleilaxu, TK::ArtilleryStrike},
  {CS::IxiansTleilaxu, TK::BasiliaWeapon}, {CS::IxiansTleilaxu, TK::Chemistry},
  {CS::IxiansTleilaxu, TK::Harvester}, {CS::IxiansTleilaxu, TK::HunterSeeker},
  {CS::IxiansTleilaxu, TK::KullWahad}, {CS::IxiansTleilaxu, TK::PoisonBlade},
  {CS::IxiansTleilaxu, TK::PoisonTooth}, {CS::IxiansTleilaxu, TK::Shield},
  {CS::IxiansTleilaxu, TK::ShieldSnooper}, {CS::IxiansTleilaxu, TK::Snooper},
  {CS::IxiansTleilaxu, TK::Thumper}, {CS::IxiansTleilaxu, TK::WeirdingWay},
  {CS::EcazMoritani, TK::HarassAndWithdraw}, {CS::EcazMoritani, TK::Recruits},
  {CS::EcazMoritani, TK::Reinforcements},
};

// Ids 0..32: every base kind's copies, consecutive, in kind order; then the sets.
constexpr std::array<TreacheryCard, kNumAllTreacheryCards> build_treachery_cards() {
  std::array<TreacheryCard, kNumAllTreacheryCards> cards{};
  std::size_t next = 0;
  for (const TreacheryKindInfo& k : kTreacheryKinds) {
    for (int c = 0; c < k.count; ++c) cards[next++] = TreacheryCard{k.kind, k.name, k.category, CS::Base};
  }
  for (const SetCard& e : kExpansionCards) {
    const TreacheryKindInfo& k = kTreacheryKinds[static_cast<int>(e.kind)];
    cards[next++] = TreacheryCard{k.kind, k.name, k.category, e.set};
  }
  // Leaves a default entry (detected below) if the counts do not add up.
  return cards;
}

constexpr int treachery_total() {
  int total = 0;
  for (const TreacheryKindInfo& k : kTreacheryKinds) total += k.count;
  return total;
}
static_assert(treachery_total() == kNumTreacheryCards);

constexpr std::array<TreacheryCard, kNumAllTreacheryCards> kTreacheryCards = build_treachery_cards();

constexpr bool card_sets_consistent() {
  int next = 0;
  for (int i = 0; i < kNumCardSets; ++i) {
    const CardSetInfo& info = kCardSets[i];
    if (static_cast<int>(info.set) != i || info.first != next) return false;
    for (int id = info.first; id < info.first + info.count; ++id)
      if (kTreacheryCards[id].set != info.set || kTreacheryCards[id].name.empty()) return false;
    next += info.count;
  }
  return next == kNumAllTreacheryCards;
}
static_assert(card_sets_consistent());

constexpr std::string_view kLeaderSkills[kNumLeaderSkills] = {
  "Bureaucrat", "Diplomat", "Killer Medic", "Master of Assassins", "Mentat", "Planetologist",
  "Prana Bindu Adept", "Rihani Decipherer", "Sandmaster", "Smuggler", "Spice Banker",
  "Suk Graduate", "Swordmaster of Ginaz", "Warmaster",
};

constexpr std::string_view kStrongholdCards[kNumStrongholdCards] = {
  "Arrakeen", "Carthag", "Habbanya Sietch", "Sietch Tabr", "Tuek's Sietch", "Hidden Mobile Stronghold",
};

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

// The leader id scheme (components.h): faction * 5 + index, strongest first
// within a faction, then the extra leaders from 60 on.
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

  {"C'Tair Pilru", F::Ixians, 5},
  {"Tessia Vernius", F::Ixians, 5},
  {"Dominic Vernius", F::Ixians, 4},
  {"Kailea Vernius", F::Ixians, 2},
  {"Cammar Pilru", F::Ixians, 1},

  {"Hidar Fen Ajidica", F::Tleilaxu, 4},
  {"Master Zaaf", F::Tleilaxu, 3},
  {"Wykk", F::Tleilaxu, 2},
  {"Blin", F::Tleilaxu, 1},
  {"Zoal", F::Tleilaxu, 0},  // no printed strength: it takes the opponent leader's (rule with the Tleilaxu)

  {"Frankos Aru", F::Choam, 4},
  {"Lady Jalma", F::Choam, 4},
  {"Duke Verdun", F::Choam, 3},
  {"Rajiv Londine", F::Choam, 3},
  {"Viscount Tull", F::Choam, 2},

  {"Premier Ein Calimar", F::Richese, 5},
  {"Lady Helena", F::Richese, 4},
  {"Flinto Kinnis", F::Richese, 3},
  {"Haloa Rund", F::Richese, 2},
  {"Talis Balt", F::Richese, 2},

  {"Sanya Ecaz", F::Ecaz, 4},
  {"Whitmore Bludd", F::Ecaz, 4},
  {"Ilesa Ecaz", F::Ecaz, 3},
  {"Rivvy Dinari", F::Ecaz, 3},
  {"Bindikk Narvi", F::Ecaz, 2},

  {"Lupino Ord", F::Moritani, 5},
  {"Grieu Kronos", F::Moritani, 4},
  {"Hiih Resser", F::Moritani, 4},
  {"Trin Kronos", F::Moritani, 2},
  {"Vando Terboli", F::Moritani, 1},

  {"Auditor", F::Choam, 2},                             // 60: CHOAM's sixth leader
  {"Duke Prad Vidal", static_cast<F>(kNoFaction), 6},  // 61: neutral (Ecaz & Moritani)
};

constexpr bool leaders_ordered() {
  for (int i = 0; i < kFirstExtraLeader; ++i) {
    if (static_cast<int>(kLeaders[i].faction) != i / kLeadersPerFaction) return false;
    if (i % kLeadersPerFaction != 0 && kLeaders[i - 1].strength < kLeaders[i].strength) return false;
  }
  return kLeaders[kAuditor].faction == F::Choam && kLeaders[kDukeVidal].neutral();
}
static_assert(leaders_ordered());

// ---- Faction setup ----------------------------------------------------------

// faction, starting_spice, forces_total, special_forces, forces_on_planet,
// special_on_planet, free_revival, hand_limit, starting_treachery_cards,
// traitors_kept, special_force_name, start_territory
constexpr FactionSetup kFactionSetup[kNumFactions] = {
  {F::Atreides, 10, 20, 0, 10, 0, 2, 4, 1, 1, "", "Arrakeen"},
  {F::BeneGesserit, 5, 20, 0, 1, 0, 1, 4, 1, 1, "", "Polar Sink"},  // advanced: by choice (2.02.08)
  {F::Emperor, 10, 20, 5, 0, 0, 1, 4, 1, 1, "Sardaukar", ""},
  {F::Fremen, 3, 20, 3, 10, 0, 3, 4, 1, 1, "Fedaykin", ""},  // distributed by choice (2.04.02)
  {F::Harkonnen, 10, 20, 0, 10, 0, 2, 8, 2, 4, "", "Carthag"},
  {F::Guild, 5, 20, 0, 5, 0, 1, 4, 1, 1, "", "Tuek's Sietch"},
  {F::Ixians, 10, 20, 7, 6, 3, 1, 4, 1, 1, "Cyborgs", "Hidden Mobile Stronghold"},
  {F::Tleilaxu, 5, 20, 0, 0, 0, 2, 4, 1, 0, "", ""},  // 3 Face Dancers instead of a traitor
  {F::Choam, 2, 20, 0, 0, 0, 0, 5, 1, 1, "", ""},
  {F::Richese, 5, 20, 0, 0, 0, 2, 4, 1, 1, "", ""},  // No-Field tokens 0/3/5 are not forces
  {F::Ecaz, 12, 20, 0, 6, 0, 2, 4, 1, 1, "", "Imperial Basin"},
  {F::Moritani, 12, 20, 0, 6, 0, 2, 4, 1, 1, "", ""},  // any territory, by choice
};

constexpr bool faction_setup_ordered() {
  for (int i = 0; i < kNumFactions; ++i) {
    const FactionSetup& s = kFactionSetup[i];
    if (static_cast<int>(s.faction) != i) return false;
    if (s.forces_on_planet > s.forces_total || s.special_forces > s.forces_total) return false;
    if (s.special_forces != 0 && s.special_force_name.empty()) return false;
    if (s.special_on_planet > s.special_forces || s.special_on_planet > s.forces_on_planet) return false;
  }
  return true;
}
static_assert(faction_setup_ordered());

// Sietch Tabr, False Wall South, False Wall West, in the order of the rule
// text (territory ids; see board.cpp).
constexpr TerritoryId kFremenStartTerritories[] = {32, 12, 13};

}  // namespace

const TreacheryCard& treachery_card(TreacheryId id) { return kTreacheryCards[id]; }

const CardSetInfo& card_set(CardSet set) { return kCardSets[static_cast<int>(set)]; }

std::string_view leader_skill_name(uint8_t id) { return id < kNumLeaderSkills ? kLeaderSkills[id] : "?"; }

std::string_view stronghold_card_name(uint8_t id) { return id < kNumStrongholdCards ? kStrongholdCards[id] : "?"; }

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

FactionLeaders faction_leaders(Faction f) {
  FactionLeaders out;
  for (int i = 0; i < kLeadersPerFaction; ++i) out.ids[out.n++] = leader_id(f, i);
  for (int id = kFirstExtraLeader; id < kNumLeaders; ++id)
    if (kLeaders[id].faction == f) out.ids[out.n++] = static_cast<LeaderId>(id);
  return out;
}

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
    case Faction::Ecaz: return find_location("Imperial Basin (Center Sector)");
    case Faction::Emperor:
    case Faction::Fremen:
    case Faction::Ixians:
    case Faction::Tleilaxu:
    case Faction::Choam:
    case Faction::Richese:
    case Faction::Moritani: return std::nullopt;
  }
  return std::nullopt;
}

std::span<const TerritoryId> fremen_start_territories() { return kFremenStartTerritories; }

}  // namespace mentat::data
