// The faction hook table: the named points where a phase asks the factions
// in the game whether one of their abilities changes its rule, and the
// abilities' code, one file per faction (core/factions/<faction>.cpp).
//
// Internal header (core/ only), like core/rules/rules.h.
//
// Contract:
//  * One FactionRules value per faction, a constant in the faction's own
//    file; faction_rules(f) returns it from a static table indexed by the
//    faction (core/factions/table.cpp), so dispatch is one load and one
//    indirect call: no allocation, no virtual dispatch, no locks.
//  * Every hook is optional: a null function pointer (or a false / zero data
//    field) means "the phase's own rule applies unchanged". A faction with no
//    abilities implemented yet has an all-null entry (kNoFactionRules).
//  * Hooks are pure functions of their arguments. Hooks taking a const
//    GameState& never change anything; hooks taking GameState& or Ctx& change
//    only what their comment says, and may consume the faction's Karama
//    preventions (3.01.11.02, core/rules/cards.cpp) at that use opportunity.
//  * Thread safety: the table is immutable after static initialisation
//    (constant-initialised); any thread may read it.
//
// Adding a faction: its data (core/data), its file here defining
// `extern const FactionRules k<Faction>Rules`, and one line in table.cpp.
// docs/ARCHITECTURE.md ("Faction hooks") lists every hook, its signature,
// who registers it and the rules it carries.
#pragma once

#include <array>

#include "core/rules/rules.h"

namespace mentat::rules {

// Victory kinds stored in GameState::victory_kind (stable: in the state
// encoding; bots/selfplay.cpp names them).
enum VictoryKind : uint8_t { kNoVictory = 0, kStronghold = 1, kPrediction = 2, kGuildDefault = 3,
                             kFremenSpecial = 4, kFremenDefault = 5, kMostStrongholds = 6 };

// A claim to win when the last turn ends without a stronghold victory
// (1.09.04): the lowest `priority` among the claims wins.
struct VictoryClaim {
  int priority = 0;     // 0 first
  uint8_t winners = 0;  // mask over Faction
  uint8_t kind = 0;     // mentat_pause.cpp victory kinds
};

struct FactionRules {
  // ---- forces (common.cpp, collection.cpp, battle.cpp) ----
  // 2.02.12: true when this faction's special forces are not fighters in
  // this game (the advanced Bene Gesserit's advisors): they do not occupy,
  // collect, battle or count for a dial. Null: specials always fight.
  bool (*specials_passive)(const GameState& s) = nullptr;
  // Special forces go to the tanks as regular forces (the Bene Gesserit:
  // advisors are ordinary forces in the tanks).
  bool specials_tank_as_regular = false;

  // ---- 1.01 storm (storm.cpp) ----
  // 2.04.13: true when this faction's storm deck sets the storm's movement
  // from turn 2 on (instead of the dials).
  bool (*deals_storm_card)(const GameState& s) = nullptr;
  // 1.01.03: the storm catches `reg` + `spec` of this faction's forces at
  // `loc` (reg + spec > 0); the hook sends its losses to the tanks and
  // returns true when the catch is the use opportunity of a Karama-prevented
  // ability. Null: all are destroyed (forces_to_tanks).
  bool (*storm_catches)(GameState& s, LocationId loc, int reg, int spec) = nullptr;
  // The storm has moved (the sweep is over): `prevented_used` is the
  // or-ed result of storm_catches for this faction during the move.
  void (*storm_moved)(GameState& s, bool prevented_used) = nullptr;
  // The storm phase ends (before the Spice Blow is entered): 2.04.13 the
  // next storm card is drawn.
  void (*storm_phase_ends)(Ctx& c) = nullptr;

  // ---- 1.03 CHOAM Charity (charity.cpp) ----
  // 2.02.09: the charity this faction receives when it claims, and whether
  // it may claim whatever it holds; return -1 for the 1.03 rule. May not
  // change anything.
  int (*charity_amount)(const GameState& s) = nullptr;
  // 3.01.11.02: the ability a Karama prevents whose use opportunity this
  // charity is (charity.cpp consumes it when the faction answers, or at the
  // phase's start when it is not asked); Ability::None: none.
  Ability (*charity_prevention_due)(const GameState& s) = nullptr;

  // ---- 1.04 bidding (bidding.cpp), 3.01.11 Karama cards (cards.cpp) ----
  // 2.01.05: the faction sees the card up for bid (bidding in progress).
  bool (*sees_card_up_for_bid)(const GameState& s) = nullptr;
  // A card comes up for bid (after the opener is known): 3.01.11.02 of 2.01.05.
  void (*card_up_for_bid)(GameState& s) = nullptr;
  // 2.03.04: the ability that sends other factions' card payments to this
  // faction (Ability::None: payments go to the bank, 1.04.06.03).
  Ability receives_card_payments = Ability::None;
  // 2.05.08: this faction bought the card now in its hand (after 3.01.11.04).
  void (*bought_card)(Ctx& c) = nullptr;
  // 1.14.06 / 2.02.22 (ruling bg_worthless_karama): this faction's worthless
  // cards count as Karama cards in this game.
  bool (*worthless_as_karama)(const GameState& s) = nullptr;

  // ---- 1.09 victory (mentat_pause.cpp) ----
  // 2.02.03: a stronghold victory of `winners` is taken over by this
  // faction (true, and *claim set: its winners and kind).
  bool (*takes_over_victory)(const GameState& s, uint8_t winners, VictoryClaim* claim) = nullptr;
  // 1.09.05: the faction's claim when the last turn ends with no stronghold
  // victory (false: none): 2.04.09 the Fremen special victory, 2.06.08 the
  // Guild's default win, 2.06.11 the Fremen's default win without the Guild.
  bool (*default_victory)(const GameState& s, VictoryClaim* claim) = nullptr;
};

// The table itself (core/factions/table.cpp), indexed by faction id.
extern const std::array<const FactionRules*, kNumFactions> kFactionTable;
// The entry for faction f (kNoFactionRules for a faction without abilities).
// Precondition: static_cast<int>(f) < kNumFactions.
inline const FactionRules& faction_rules(Faction f) { return *kFactionTable[static_cast<int>(f)]; }

extern const FactionRules kNoFactionRules;
extern const FactionRules kAtreidesRules;
extern const FactionRules kBeneGesseritRules;
extern const FactionRules kEmperorRules;
extern const FactionRules kFremenRules;
extern const FactionRules kHarkonnenRules;
extern const FactionRules kGuildRules;

// ---- folds over the table (the phases' common questions) ----

// Mask bit of a faction, and of it with its ally (1.10.02.01: allies win together).
inline uint8_t faction_bit(Faction f) { return static_cast<uint8_t>(1u << static_cast<int>(f)); }
inline uint8_t team_of(const GameState& s, Faction f) {
  uint8_t m = faction_bit(f);
  if (s.of(f).ally != kNoFaction) m |= faction_bit(static_cast<Faction>(s.of(f).ally));
  return m;
}

// 3.01.11.04 / 1.14.06: does `card` count as a Karama card for faction f?
inline bool counts_as_karama(const GameState& s, Faction f, uint8_t card) {
  const auto& tc = data::treachery_card(card);
  if (tc.kind == data::TreacheryKind::Karama) return true;
  const auto h = faction_rules(f).worthless_as_karama;
  return h && h(s) && tc.category == data::TreacheryCategory::Worthless;
}

// 2.02.12: does faction f's special force fight (occupy, collect, battle)?
inline bool specials_fight(const GameState& s, Faction f) {
  const auto h = faction_rules(f).specials_passive;
  return !h || !h(s);
}

}  // namespace mentat::rules
