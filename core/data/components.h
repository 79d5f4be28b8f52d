// Components of GF9's Dune (2019) and its expansions: treachery cards (the
// base deck and the expansion card sets), spice deck, leaders (and the
// traitor deck, one card per leader), faction setup for all twelve factions,
// leader skill cards and the Advanced Stronghold Cards. Tables exist for a
// component as soon as it is known, even where its rules come later
// (core/data/modules.h says which rules are implemented).
//
// Contract: immutable tables compiled into the program; pure, thread-safe.
// Ids are dense and stable (stored in events and states).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/types.h"

namespace mentat::data {

// ---- Treachery cards -------------------------------------------------------

// The base deck: ids 0..32, kinds 0..23. Rules of the base game iterate over
// these (an id >= kNumTreacheryCards is not a base card).
inline constexpr int kNumTreacheryCards = 33;
// Every treachery card of every set: ids 0..59 (see CardSet below).
inline constexpr int kNumAllTreacheryCards = 60;

enum class TreacheryKind : uint8_t {
  // the base deck (0..23)
  Baliset, Chaumas, Chaumurky, CheapHero, CheapHeroine, Crysknife, EllacaDrug,
  FamilyAtomics, GomJabbar, Hajr, JubbaCloak, Karama, Kulon, LaLaLa, Lasgun,
  MaulaPistol, Shield, SlipTip, Snooper, Stunner, TleilaxuGhola, TripToGamont,
  Truthtrance, WeatherControl,
  // CHOAM & Richese: the Richese cards (Karama is the base kind)
  Distrans, JuiceOfSapho, MirrorWeapon, NullentropyBox, Ornithopter, PortableSnooper,
  ResidualPoison, SemutaDrug, StoneBurner,
  // Ixians & Tleilaxu (Shield and Snooper are the base kinds)
  Amal, ArtilleryStrike, BasiliaWeapon, Chemistry, Harvester, HunterSeeker, KullWahad,
  PoisonBlade, PoisonTooth, ShieldSnooper, Thumper, WeirdingWay,
  // Ecaz & Moritani
  HarassAndWithdraw, Recruits, Reinforcements,
};
inline constexpr int kNumTreacheryKinds = 24;     // kinds of the base deck
inline constexpr int kNumAllTreacheryKinds = 48;  // every kind above

enum class TreacheryCategory : uint8_t {
  WeaponProjectile, WeaponPoison, WeaponLasgun, DefenseProjectile,
  DefensePoison, Special, Worthless,
  WeaponSpecial, DefenseSpecial,  // expansion cards with their own behaviour
};

// The card sets, with stable ids (stored in no event: a game's modules name
// them, core/data/modules.h).
enum class CardSet : uint8_t {
  Base = 0,            // 33 cards, ids 0..32
  Richese = 1,         // CHOAM & Richese: the Richese cache, 10 cards, ids 33..42
  IxiansTleilaxu = 2,  // 14 cards, ids 43..56
  EcazMoritani = 3,    // 3 cards, ids 57..59
};
inline constexpr int kNumCardSets = 4;
struct CardSetInfo {
  CardSet set;
  std::string_view key;   // "base", "richese", "ixians_tleilaxu", "ecaz_moritani"
  std::string_view name;  // as printed in the reference ("CHOAM & Richese (Richese cards)")
  TreacheryId first;      // ids first .. first + count - 1
  uint8_t count;
};
const CardSetInfo& card_set(CardSet set);

struct TreacheryCard {
  TreacheryKind kind;
  std::string_view name;  // "Cheap Heroine", "Trip to Gamont", ...
  TreacheryCategory category;
  CardSet set;
};

// Ids 0..32 in kind order (Baliset 0, Chaumas 1, ..., Cheap Hero 3 and 4, ...);
// ids 33..59 set by set (CardSet order), within a set in name order.
// Precondition: id < kNumAllTreacheryCards.
const TreacheryCard& treachery_card(TreacheryId id);
std::string_view treachery_kind_name(TreacheryKind k);  // any kind < kNumAllTreacheryKinds
int treachery_kind_count(TreacheryKind k);  // copies in the base deck (0 for expansion kinds)
inline bool is_weapon(TreacheryCategory c) {
  return c == TreacheryCategory::WeaponProjectile || c == TreacheryCategory::WeaponPoison ||
         c == TreacheryCategory::WeaponLasgun;
}
inline bool is_defense(TreacheryCategory c) {
  return c == TreacheryCategory::DefenseProjectile || c == TreacheryCategory::DefensePoison;
}

// ---- Spice deck -------------------------------------------------------------

inline constexpr int kNumSpiceCards = 21;  // 15 territory cards + 6 Shai-Hulud

struct SpiceCard {
  bool shai_hulud;
  LocationId location;  // piece carrying the spice-blow icon (territory cards only)
  uint8_t amount;       // 0 for Shai-Hulud
};
// Ids 0..14: territory cards in territory-name order; 15..20: Shai-Hulud.
const SpiceCard& spice_card(SpiceCardId id);
std::string spice_card_name(SpiceCardId id);

// ---- Leaders and traitors ---------------------------------------------------

// Leader id scheme (stable; stored in events and states, never renumbered):
//   * the five printed leaders of faction f have ids f * 5 + index, index
//     0..4 strongest first: 0..29 the base factions, 30..59 the expansion
//     factions (Ixians 30, Tleilaxu 35, CHOAM 40, Richese 45, Ecaz 50,
//     Moritani 55);
//   * every further leader gets the next id from kFirstExtraLeader on, in the
//     order it was added: 60 the CHOAM Auditor (a sixth CHOAM leader), 61 Duke
//     Vidal (neutral: no faction). Later expansions append after 61.
// So leader_id(f, i) is valid for i < kLeadersPerFaction only; to list all of
// a faction's leaders use faction_leaders().
inline constexpr int kLeadersPerFaction = 5;
inline constexpr int kNumBaseLeaders = kNumBaseFactions * kLeadersPerFaction;  // 30
inline constexpr int kFirstExtraLeader = kNumFactions * kLeadersPerFaction;    // 60
inline constexpr LeaderId kAuditor = 60;
// The CHOAM Auditor (CHOAM & Richese, advanced) is never captured by the
// Harkonnen (2.05.10) and is revived as if all CHOAM leaders were in the
// tanks (1.05.03/1.05.04 do not hold it back).
inline constexpr bool capturable(LeaderId id) { return id != kAuditor; }
inline constexpr bool revives_as_if_all_dead(LeaderId id) { return id == kAuditor; }
inline constexpr LeaderId kDukeVidal = 61;
inline constexpr int kNumLeaders = 62;

struct Leader {
  std::string_view name;
  Faction faction;  // static_cast<Faction>(kNoFaction) for a neutral leader (Duke Vidal)
  uint8_t strength;
  constexpr bool neutral() const { return static_cast<uint8_t>(faction) == kNoFaction; }
};
const Leader& leader(LeaderId id);  // precondition: id < kNumLeaders
inline LeaderId leader_id(Faction f, int index) {
  return static_cast<LeaderId>(static_cast<int>(f) * kLeadersPerFaction + index);
}
// Every leader of `f`: its five printed ones, then its extra ones (CHOAM: the Auditor).
struct FactionLeaders {
  uint8_t n = 0;
  LeaderId ids[kLeadersPerFaction + 1] = {};
  const LeaderId* begin() const { return ids; }
  const LeaderId* end() const { return ids + n; }
};
FactionLeaders faction_leaders(Faction f);
std::optional<LeaderId> find_leader(std::string_view name);

// ---- Leader skill cards (CHOAM & Richese) and Advanced Stronghold Cards -----

inline constexpr int kNumLeaderSkills = 14;
std::string_view leader_skill_name(uint8_t id);  // ids 0..13 in name order
enum class LeaderSkill : uint8_t {
  Bureaucrat = 0, Diplomat, KillerMedic, MasterOfAssassins, Mentat, Planetologist, PranaBinduAdept,
  RihaniDecipherer, Sandmaster, Smuggler, SpiceBanker, SukGraduate, SwordmasterOfGinaz, Warmaster,
};
inline constexpr int kNumStrongholdCards = 6;
// Ids 0..5: Arrakeen, Carthag, Habbanya Sietch, Sietch Tabr, Tuek's Sietch (CHOAM &
// Richese), Hidden Mobile Stronghold (Ixians & Tleilaxu). The name is the stronghold's.
std::string_view stronghold_card_name(uint8_t id);

// ---- Faction setup (rules 0.12, 0.13 and each faction's 2.xx.01-02) --------

struct StartingForces {
  std::string_view territory;  // empty when the faction has none on the planet
  uint8_t forces;
};

struct FactionSetup {
  Faction faction;
  uint8_t starting_spice;
  uint8_t forces_total;        // 20 for every faction, special forces included
  uint8_t special_forces;      // Fedaykin 3, Sardaukar 5, Cyborgs 7, else 0
  uint8_t forces_on_planet;    // placed at setup, special ones included (Fremen, Moritani: by choice)
  uint8_t special_on_planet;   // of which special (Ixians: 3 Cyborgs)
  uint8_t free_revival;
  uint8_t hand_limit;
  uint8_t starting_treachery_cards;
  uint8_t traitors_kept;       // Tleilaxu 0: Face Dancers instead
  std::string_view special_force_name;  // "Fedaykin", "Sardaukar", "Cyborgs" or empty
  std::string_view start_territory;     // where forces_on_planet go when fixed; empty: by choice or none
};
const FactionSetup& faction_setup(Faction f);

// The fixed starting location of a faction's forces, if it has one on the
// base board (Atreides: Arrakeen, Harkonnen: Carthag, Guild: Tuek's Sietch,
// Bene Gesserit basic game: Polar Sink, Ecaz: Imperial Basin center). Fremen,
// Emperor, the Ixians (the Hidden Mobile Stronghold is not on the base board
// yet) and the factions starting off-planet: none.
std::optional<LocationId> fixed_start_location(Faction f);
// Territories among which the Fremen distribute their 10 starting forces,
// in this order: Sietch Tabr, False Wall South, False Wall West.
std::span<const TerritoryId> fremen_start_territories();

}  // namespace mentat::data
