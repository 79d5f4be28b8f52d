// Faction abilities of the Battle phase (core/rules/battle_abilities.cpp),
// hooked into the battle core (core/rules/battle.cpp). Internal to core/.
//
//  * 2.01.08/09 Prescience, 2.02.06/07 Voice: their sub-steps between the
//    start of a battle and the battle plans and their plan checks are in
//    core/factions/atreides.cpp and bene_gesserit.cpp (hooks battle_step,
//    plan_binding, plan_command, plan_check, narrow_plan, forbids_cheap_hero).
//  * the plans' commitments: PlanBinding / PlanCommand below, filled by the
//    factions' hooks (plan_binding, plan_command; faction_rules.h) and held
//    by check_commitments, plan_candidates, narrow_plan_decision.
//  * 2.01.10-15 Kwisatz Haderach: the plan's flag is the faction's
//    plan_flag (core/factions/atreides.cpp): its check, +2, death (2.01.13),
//    2.01.14 revival (core/rules/revival.cpp through kh_* below); its
//    loyalty (2.01.12) is loyal() below.
//  * 2.05.09-13 the Harkonnen's traitors in their ally's battle and captured
//    leaders: core/factions/harkonnen.cpp through the hooks
//    battle_traitor_askers, after_battle, battle_step, battle_ends.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/rules/rules.h"

namespace mentat::rules {

// ---- defined in battle.cpp (its helpers, for the abilities) ----------------------
// Side of `seat` in the current battle: 0 aggressor, 1 defender; a seat not in
// the battle counts on the side of its ally (2.01.09, 2.02.07, 2.05.09), else 1.
int battle_side_of(const GameState& s, Seat seat);
std::vector<uint8_t> battle_available_leaders(const GameState& s, Faction me, TerritoryId t);  // 1.07.04.04
bool battle_leader_available(const GameState& s, Faction me, uint8_t id, TerritoryId t);
std::vector<uint8_t> battle_cheap_heroes(const GameState& s, Faction me);  // Cheap Hero cards in hand
int battle_max_dial(const GameState& s, Seat seat);                        // 1.07.04.02 in the current battle
bool battle_fits_weapon_slot(uint8_t card);
bool battle_fits_defense_slot(uint8_t card);
bool battle_is_cheap_hero(uint8_t card);
void battle_end(Ctx& c);  // finishes the resolved battle (end_battle) and goes on with the next one
void battle_kill_leader(GameState& s, uint8_t id);  // to the tanks (face down if it died before), back to its owner
void battle_resolve(Ctx& c);  // resolves the revealed battle (again, after a card's choice: the Stone Burner)
// 1.07.06.05-06 after the totals: the loser's losses, the winner's, then its
// cards (kKeep) and the battle's end. `winner_killed`: the winner's leader died
// (no Suk Graduate band). Called by resolve, or after the Diplomat's retreat step.
void battle_losses(Ctx& c, bool winner_killed);
// ---- defined in battle_abilities.cpp, for the factions' battle hooks ----
Faction battle_faction_of_side(const GameState& s, int side);  // 0 aggressor, 1 defender
// Side `side` won by a traitor call its opponent did not match (1.07.06.07.01).
bool battle_traitor_win(const GameState& s, int side);
// 0/1: the side faction f fights on or supports as an ally; -1: none (2.01.09, 2.02.07).
int battle_supported_side(const GameState& s, Faction f);
// The seat f's Prescience / Voice is aimed at: the opponent of that side (kNoSeat: none).
Seat battle_target_of(const GameState& s, Faction f);
const char* battle_element_name(int e);  // Prescience element: "leader", "weapon", "defense", "number dialed"
// The opening steps before the plans: asks the next faction after id `after`
// (-1: the first) whose battle_step.opens asks, then the leader skills'
// opening step (skipped with after = kNumFactions), else starts the plans.
void battle_open_after(Ctx& c, int after);
// ---- the plans' commitments (hooks plan_binding, plan_command, plan_check, narrow_plan) ----
// What the factions' answers bind in a seat's battle plan (2.01.08 the
// Prescience answer): `lead` binds the leader or Cheap Hero (leader / hero,
// kNone8 when that card has left the hand), `weapon` / `defense` their slot
// (kNone8: none), `dial` the number; `element` (-1: nothing bound) and
// `value` are the answer as given (ability::Element, PrescienceAnswer.value).
struct PlanBinding {
  bool lead = false;
  uint8_t leader = kNone8, hero = kNone8;
  bool weapon = false;
  uint8_t weapon_card = kNone8;
  bool defense = false;
  uint8_t defense_card = kNone8;
  bool dial = false;
  uint8_t dial_value = 0;
  int element = -1;
  uint8_t value = 0;
};
// A command on a seat's plan (2.02.06 the Voice): play (`must`) or do not
// play a card of `kind` (ability::VoiceKind).
struct PlanCommand {
  bool on = false;
  bool must = false;
  uint8_t kind = 0;
};
PlanBinding battle_plan_binding(const GameState& s, Seat seat);  // all factions' bindings of `seat`
PlanCommand battle_plan_command(const GameState& s, Seat seat);  // the command on `seat` (on = false: none)
bool battle_card_matches(uint8_t kind, uint8_t card);             // is `card` of the commanded kind?
// A leader in a pool or on the battlefield (not in the tanks).
inline bool leader_alive(const LeaderState& l) { return l.zone == LeaderZone::Pool || l.zone == LeaderZone::Battlefield; }

namespace ability {

// Battle sub-steps of the abilities (battle.cpp has kChoose 0, kPlans 1, kTraitors 2).
enum Step : uint8_t {
  kPrescience = 3,        // the Atreides choose an element or Pass (2.01.08)
  kPrescienceAnswer = 4,  // the opponent commits that element
  kVoice = 5,             // the Bene Gesserit command or Pass (2.02.06)
  kCapture = 6,           // the Harkonnen kill or capture the drawn leader, or Pass (2.05.10; core/factions/harkonnen.cpp)
  // 7: battle.cpp's kKeep (1.07.06.06 KeepCards)
  kAudit = 8,             // CHOAM's opponent pays to cancel the Auditor's look, or Pass (core/factions/choam.cpp)
  // Leader Skills (core/cards/leader_skills.cpp; the card family's steps, not a faction's):
  kMentatQuestion = 9,    // the Mentat's owner names a weapon card, or Pass (before the plans)
  kMentatAnswer = 10,     // its opponent shows a card (MentatAnswer)
  kDecipher = 11,         // the Rihani Decipherer's winner swaps a traitor card (DecipherTraitor), or Pass
  kDiplomatRetreat = 12,  // the Diplomat's losing owner retreats undialled forces (Move), or Pass, before its losses
};
inline bool owns_step(uint8_t step) { return (step >= kPrescience && step <= kCapture) || (step >= kAudit && step <= kDiplomatRetreat); }
inline bool skill_step(uint8_t step) { return step >= kMentatQuestion && step <= kDiplomatRetreat; }

enum Element : uint8_t { kLeader = 0, kWeapon = 1, kDefense = 2, kDial = 3 };
inline constexpr uint8_t kNotPlayed = 255;    // PrescienceAnswer: "not playing that element"
inline constexpr uint8_t kHeroOffset = 100;   // PrescienceAnswer for the leader: 100 + Cheap Hero card id
// Voice kinds (events/mentat.fbs).
enum VoiceKind : uint8_t {
  kPoisonWeapon = 0,
  kProjectileWeapon = 1,
  kPoisonDefense = 2,
  kProjectileDefense = 3,
  kWorthless = 4,
  kCheapHero = 5,
  kNamed = 64,  // 64 + TreacheryKind: a special weapon or defense by name
};
// Revive.leader naming the Kwisatz Haderach token (2.01.14).
inline constexpr uint8_t kKwisatzHaderachToken = 254;
inline constexpr int kKwisatzHaderachStrength = 2;  // 2.01.11
inline constexpr int kKwisatzHaderachActivation = 7;  // 2.01.10

// start_battle: the first step of a new battle (prescience, voice or plans).
void open_battle(Ctx& c);

// The ability steps (owns_step(s.step)).
std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a);
void apply(Ctx& c, Seat seat, const Action& a);
void decisions(const GameState& s, Seat seat, std::vector<Decision>& out);
void legal(const GameState& s, Seat seat, std::vector<Action>& out);

// ---- battle plans -----------------------------------------------------------------
// The plan's Kwisatz Haderach flag (2.01.10/11); called when a.kwisatz_haderach is set.
std::optional<Rejection> check_kwisatz_haderach(const GameState& s, Seat seat, const action::BattlePlan& a);
// May `seat` count its Cheap Heroes for 1.07.04.05? False when the Voice
// forbids them and nothing binds the seat to one.
bool may_play_cheap_hero(const GameState& s, Seat seat);
// The Prescience answer and the Voice command bind the plan (2.01.08, 2.02.06).
std::optional<Rejection> check_commitments(const GameState& s, Seat seat, const action::BattlePlan& a);
// Candidate plans that honour the commitments and the Kwisatz Haderach
// (battle.cpp filters every candidate through its validation).
void plan_candidates(const GameState& s, Seat seat, std::vector<Action>& out);
// Narrows the BattlePlan decision to the commitments.
void narrow_plan_decision(const GameState& s, Seat seat, Decision& d);

// ---- reveal, traitors, resolution ----------------------------------------------------
// Seats asked CallTraitor after the reveal (1.07.06.07, 2.01.12, 2.05.09).
uint8_t traitor_askers(const GameState& s);
// 2.01.12: a leader accompanied by the Kwisatz Haderach cannot turn traitor.
bool loyal(const BattlePlanState& p);
// Start of the resolution: remembers what the post-battle bookkeeping needs.
void before_resolve(Ctx& c);
// 2.01.11: strength faction f's plan flag adds to its plan, in half units.
int kwisatz_haderach_bonus2(Faction f, const BattlePlanState& p, bool killed);
// 2.01.13: the flag of faction f's plan is blown up (lasgun/shield).
void lasgun_shield_explosion(GameState& s, Faction f, const BattlePlanState& p);
// end_battle: runs once after the resolution; true when a decision (2.05.10)
// is pending, after which battle_end is called again.
bool hold_after_battle(Ctx& c);

// ---- 2.01.14 Kwisatz Haderach revival (core/rules/revival.cpp) ----------------------
// Why `f` cannot revive the token now (nullopt: it can, spice aside).
std::optional<std::string> kh_unrevivable(const GameState& s, Faction f);
void revive_kh(GameState& s, Faction f);
// Spice to revive leader `id` or the token (1.05.03.02: its strength; the token: 2).
int revival_strength(uint8_t id);

}  // namespace ability
}  // namespace mentat::rules
