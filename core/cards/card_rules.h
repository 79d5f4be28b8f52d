// One card, one home: the treachery cards whose effect lives in its own file
// (core/cards/<card>.cpp), the way core/factions/ holds one file per faction.
// Internal to core/, like core/rules/rules.h.
//
// A card played outside the battle wheel (PlayCard{card, target, value}) is
// routed by core/rules/cards.cpp: when card_rules(kind) has an entry, that
// entry's check / apply / candidates / prompt decide the play; the common
// checks (the card in the player's hand, not committed to a plan or a lot,
// no window open, no ability in use as a step) are made by cards.cpp before
// `check` is called, and cards.cpp does not discard the card: `apply` does,
// exactly once. A card that opens its own response window (the Nullentropy
// Box's private search) names the window kind and its four hooks; cards.cpp's
// window stack runs them like a faction's (FactionRules::response_window).
// A battle card on the wheel (Mirror Weapon, Portable Snooper in a plan) is
// read by the battle (core/rules/battle.cpp) through core/cards/battle_cards.cpp
// (below); Portable Snooper's play after the reveal is an entry here.
//
// Contract: pure functions of their arguments; `apply` changes the state only
// as its file's header comment says, and only after `check` accepted the same
// action on the same state (precondition). Thread safety: none needed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/rules/rules.h"

namespace mentat::rules {

struct CardRules {
  data::TreacheryKind kind;
  // The card's own timing and targets (after the common checks).
  std::optional<Rejection> (*check)(const GameState& s, Seat seat, const action::PlayCard& a) = nullptr;
  // Its effect; discards the card (or sets it aside) itself.
  void (*apply)(Ctx& c, Seat seat, const action::PlayCard& a) = nullptr;
  // Candidate plays (a superset: cards.cpp keeps those `check` accepts).
  void (*candidates)(const GameState& s, Seat seat, const action::PlayCard& base, std::vector<Action>& out) = nullptr;
  // The decision's prompt: what the card does and its action's fields.
  std::string (*prompt)(const GameState& s, Seat seat) = nullptr;

  // A response window of the card's own (WindowKind::None: none).
  struct CardWindow {
    WindowKind kind = WindowKind::None;
    std::string (*what)(const GameState& s, const Window& w) = nullptr;
    std::optional<Rejection> (*validate)(const GameState& s, Seat seat, const action::Respond& a, const Window& w) = nullptr;
    // Applies the answer; true when the window is done (cards.cpp closes it).
    bool (*apply)(Ctx& c, Seat seat, const action::Respond& a, Window& w) = nullptr;
    void (*decisions)(const GameState& s, Seat seat, const Window& w, std::vector<Decision>& out) = nullptr;
    void (*legal)(const GameState& s, Seat seat, const Window& w, std::vector<Action>& out) = nullptr;
    // After the window closed (its answer applied and `waiting` restored): what goes on (may be null).
    void (*closed)(Ctx& c, const Window& w) = nullptr;
    // A second answer kind the window takes besides Respond (ActionKind::None: Respond only), with its
    // check and its effect (true when the window is done), asked seats only (cards.cpp checks `waiting`).
    ActionKind also = ActionKind::None;
    std::optional<Rejection> (*validate_also)(const GameState& s, Seat seat, const Action& a, const Window& w) = nullptr;
    bool (*apply_also)(Ctx& c, Seat seat, const Action& a, Window& w) = nullptr;
  } window;
};

// Card `card` (any id; kNone8 and unknown ids: false) is of category c.
inline bool is_category(uint8_t card, data::TreacheryCategory c) {
  return card < data::kNumAllTreacheryCards && data::treachery_card(card).category == c;
}

// The entry of a card kind, or null (the kind's rule is in cards.cpp, in the
// battle, or not implemented). Precondition: none (any kind value).
const CardRules* card_rules(data::TreacheryKind kind);
// The card entry whose window is of kind k, or null.
const CardRules::CardWindow* card_window(WindowKind k);
// Could the game's Richese card of this kind be in some hand, by public facts
// only (core/cards/table.cpp)? False when the game has no such card, when it
// is listed on the discard pile, in the played-card zone or removed from the
// game, or while the cache holds every Richese card; true otherwise (a
// superset: the deck after a reshuffle is not tracked). Being asked because of
// it tells nobody who holds the card.
bool card_may_be_held(const GameState& s, data::TreacheryKind kind);

// ---- battle cards (core/cards/battle_cards.cpp) ----
// A card id of the expansions whose battle-wheel use is implemented (Mirror
// Weapon in the weapon slot, Portable Snooper in the defense slot).
bool battle_card_implemented(uint8_t card);
// The weapon card that acts for `mine` against `theirs`: the plan's own, or,
// for a Mirror Weapon, the opponent's weapon when it is a weapon (kNone8:
// none). Precondition: both plans' cards are kNone8 or valid ids.
uint8_t acting_weapon(const BattlePlanState& mine, const BattlePlanState& theirs);
// The battling seats the traitor step also waits for, so that they may add a
// Portable Snooper to their revealed plan (from public information only).
uint8_t snooper_askers(const GameState& s);

// ---- the Ornithopter (core/cards/ornithopter.cpp), asked by core/rules/shipment_movement.cpp ----
// Move.ornithopter's own checks (and the second group's: not the forces that
// arrived with the first); for mode 1 sets *range to the card's range.
std::optional<Rejection> ornithopter_check(const GameState& s, Faction me, const action::Move& a, bool advisors, int* range);
// After apply_move: the card's custody and the two-group record
// (`before_at_to`: me's regular and special forces at a.to before the move).
void ornithopter_moved(GameState& s, Faction me, const action::Move& a, const uint8_t before_at_to[2]);
bool ornithopter_second_group(const GameState& s);  // a second group may move now
// A Karama window opened over a Move with the card: the card from me's hand to
// the played-card zone; the Move cancelled: back to the hand (nothing spent).
void ornithopter_declared(GameState& s, Faction me);
// A concealed No-Field marker at `loc` became `forces` regular forces of `f`:
// when it arrived with the Ornithopter's first group, those forces are
// arrivals too (they never move as the second group).
void ornithopter_marker_revealed(GameState& s, Faction f, LocationId loc, int forces);
void ornithopter_declaration_cancelled(GameState& s, Faction me);
bool ornithopter_usable(const GameState& s, Faction me);  // me may play the card with its next Move
// The turn ends: an Ornithopter in the played-card zone is discarded, the record cleared.
void ornithopter_turn_ends(GameState& s);

// The files' entries (core/cards/table.cpp lists them).
extern const CardRules kDistransRules;        // core/cards/distrans.cpp
extern const CardRules kNullentropyBoxRules;  // core/cards/nullentropy_box.cpp
extern const CardRules kPortableSnooperRules; // core/cards/battle_cards.cpp (its play after the reveal)
extern const CardRules kResidualPoisonRules;  // core/cards/residual_poison.cpp
extern const CardRules kStoneBurnerRules;     // core/cards/stone_burner.cpp (its choice window)
extern const CardRules kSemutaDrugRules;      // core/cards/semuta_drug.cpp (its window after a discard)
extern const CardRules kJuiceOfSaphoRules;    // core/cards/juice_of_sapho.cpp

// ---- the Semuta Drug (core/cards/semuta_drug.cpp), asked by core/engine.cpp around every action ----
// Clears the record of what the previous action discarded (unless its window is being answered).
void semuta_begin_action(GameState& s);
// Opens the Semuta window when the action discarded a card a possible holder may take (ruling semuta_timing = window).
void semuta_end_action(Ctx& c);

// ---- the Stone Burner (core/cards/stone_burner.cpp), asked by battle.cpp resolve ----
// The side (0, 1) whose plan's weapon is a Stone Burner, or -1.
int stone_burner_side(const GameState& s);
// Opens its owner's choice (kill both leaders or not); the window's close resolves the battle again.
void ask_stone_burner(Ctx& c, Seat owner);

// ---- the Advanced Stronghold Cards (core/cards/stronghold_cards.cpp, module stronghold_cards) ----
// The owner kStrongholdCardsOwner hears TurnEnds (each card to the one faction occupying its stronghold,
// or back) and BattleDecided (Tuek's Sietch, Sietch Tabr) (core/rules/owners.h).
// Asked by battle.cpp for the battle being fought (0 / false / -1 outside the card's stronghold or without the module):
int stronghold_battle_discount(const GameState& s, Faction f);  // Arrakeen: the spice the bank pays of f's dialled spice
// Carthag: f's defense also counts as a Snooper (the plan it played: no poison weapon, a defense).
bool defense_counts_as_snooper(const GameState& s, Faction f, const BattlePlanState& played);
int stronghold_tie_side(const GameState& s);  // Habbanya Sietch: the side that wins a tie, or -1

// ---- Leader Skills (core/cards/leader_skills.cpp, module leader_skills) ----
// Every function is a no-op / 0 / false / -1 without the module.
int leader_skill(const GameState& s, LeaderId l);  // the skill card (0..13) under leader l, or -1
bool skilled_as(const GameState& s, LeaderId l, data::LeaderSkill k);
// f's skilled leader with skill k is in front of f's shield: alive, not captured,
// not the leader of f's plan in the battle being fought (its front band works).
bool skill_in_front(const GameState& s, Faction f, data::LeaderSkill k);
// Setup (setup.cpp, the traitor step): deal, then each faction's AssignSkill.
void skills_deal(Ctx& c);
bool skills_to_assign(const GameState& s, Faction f);  // f holds dealt cards not yet assigned
std::optional<Rejection> skills_assign_validate(const GameState& s, Faction f, const action::AssignSkill& a);
void skills_assign_apply(GameState& s, Faction f, const action::AssignSkill& a);  // precondition: validated
void skills_assigned_all(Ctx& c);  // every faction assigned: cards face up, the deck shuffled
void skills_decisions(const GameState& s, Faction f, std::vector<Decision>& out);
void skills_legal(const GameState& s, Faction f, std::vector<Action>& out);
// Revival (revival.cpp): f revived its own leader l; with no skilled leader of its own (alive, captured
// included) it may draw two skill cards and assign one to l before its revival is done (true: it is asked).
bool skills_leader_revived(Ctx& c, Faction f, LeaderId l);
LeaderId skills_revival_leader(const GameState& s, Faction f);  // the leader f draws for or assigns a card to now, or kNone8
// Whether f has drawn its two cards for that leader (then it assigns one).
bool skills_revival_drawn(const GameState& s, Faction f);
// f's answer to the offer: `draw` deals the two cards (true: f assigns one next); declined, or the deck
// empty, the leader gets no skill (false).
bool skills_revival_draw(Ctx& c, Faction f, bool draw);
// After the AssignSkill of a revived leader (validated by skills_assign_validate, the leader skills_revival_leader):
// the card face up, the other back to the deck, the deck shuffled.
void skills_revival_assigned(Ctx& c, Faction f, const action::AssignSkill& a);
// Battle (battle.cpp):
// `card` may sit in the weapon slot of a plan led by `leader` as the Planetologist's green Special.
bool planetologist_special(const GameState& s, LeaderId leader, uint8_t card);
std::optional<Rejection> skills_check_plan(const GameState& s, Faction me, const action::BattlePlan& a);  // skill_spice
// The bluff, at battle.cpp's plans step (the seat is a battler whose plan is not in): SkillBehind moves a
// skilled leader of f's own behind its shield until the battle ends (its front band stops); the
// decision and the legal candidates (none without the module or a skilled leader in front).
std::optional<Rejection> skills_check_behind(const GameState& s, Faction f, const action::SkillBehind& a);
void skills_apply_behind(GameState& s, Faction f, const action::SkillBehind& a);  // precondition: checked
void skills_behind_decisions(const GameState& s, Faction f, std::vector<Decision>& out);
void skills_behind_legal(const GameState& s, Faction f, std::vector<Action>& out);
// Strength points the skills add to f's plan p (0 when its leader is killed; ruling skill_stacking).
int skills_bonus(const GameState& s, Faction f, const BattlePlanState& p, bool killed);
// Bureaucrat: the points opp subtracts from its total because of `mine` (its leader surviving).
int skills_penalty(const GameState& s, const BattlePlanState& mine, bool killed, Faction opp);
// Why the winner may not keep `card` of its plan p because of a skill (nullopt: no skill says so).
std::optional<std::string> skills_must_discard(const GameState& s, const BattlePlanState& p, uint8_t card);
// After a resolution with a winner or not (-1): Smuggler's and Sandmaster's battle bands.
// The Rihani Decipherer's front band: the winner looks at 2 random traitor cards (recorded shuffles).
void skills_battle_resolved(Ctx& c, int winner, const BattlePlanState p[2], const bool survived[2], const Faction fa[2], TerritoryId t);
// The battle steps of the card family (battle_abilities.h kMentatQuestion, kMentatAnswer, kDecipher):
// the Mentat's question opens before the plans (true: its step is set; it ends with
// battle_open_after(c, kNumFactions)); the Decipherer's swap after the battle (true: pending; it ends with battle_end;
// false: the battle ends, its Mentat question cleared).
bool skills_battle_opens(Ctx& c);
bool skills_after_battle(Ctx& c);
std::optional<Rejection> skills_step_validate(const GameState& s, Seat seat, const Action& a);
void skills_step_apply(Ctx& c, Seat seat, const Action& a);  // precondition: validated
void skills_step_decisions(const GameState& s, Seat seat, std::vector<Decision>& out);
void skills_step_legal(const GameState& s, Seat seat, std::vector<Action>& out);
// A battle revealed the traitor card of `leader` (battle.cpp): no longer unused for the Decipherer's swap.
void skills_traitor_revealed(GameState& s, LeaderId leader);
// Diplomat's front band: f's plan `mine` (a worthless card, no defense) counts the opponent's defense as its own (*defense).
bool diplomat_defense(const GameState& s, Faction f, const BattlePlanState& mine, const BattlePlanState& theirs, uint8_t* defense);
// Diplomat's battle band: before the loser's losses (battle.cpp resolve, s.battle.winner set), a surviving
// Diplomat's owner may retreat up to the leader's strength of undialled forces to an adjacent empty
// non-stronghold territory. True: the step kDiplomatRetreat asks it (a Move, or Pass), and its answer goes
// on with battle_losses; false: nothing to offer (no Diplomat, no undialled force, no such territory).
bool skills_diplomat_retreat_offered(GameState& s, int loser_side, const BattlePlanState& p, bool killed, bool winner_killed);
// Suk Graduate: of the winner's `losses` forces lost, how many stay and how many go to its reserves.
struct SukSaves {
  int stay = 0;
  int to_reserves = 0;
};
SukSaves suk_graduate_saves(const GameState& s, Faction winner, const BattlePlanState& p, bool killed, int losses);
// Shipment and movement (shipment_movement.cpp):
// Smuggler: 1 when f's shipment of `shipped_regular` regular forces from off-planet to `to` brings one more.
int smuggler_extra_force(const GameState& s, Faction f, LocationId to, int shipped_regular);
bool planetologist_may_gather(const GameState& s, Faction f);     // f's Move may gather the groups of two territories
// Sandmaster's front band: f's group moves from territory `from` to `to` with `range` crossings: 1 spice from
// each spice territory its best path enters (called before the forces move).
void sandmaster_moved(GameState& s, Faction f, TerritoryId from, TerritoryId to, int range);
// Spice Banker (its gains: mentat_pause.cpp; the payments it sees: the SpiceMoved event, core/rules/owners.h).
// Bureaucrat's front band: the SpiceMoved event reports every transfer from one faction's
// shield to another's (and CHOAM's share of a payment, choam.cpp); engine.cpp apply brackets every action (skills_begin_action before,
// skills_end_action after: a payment of 5 or more between two other factions opens the
// Bureaucracy window once the game is free of windows and ability steps); a payment undone
// (the Guild's 1.14.05 cancellation refunds it: guild.cpp) is no longer one.
void skills_paid_to_faction(GameState& s, uint8_t payer, uint8_t receiver, int amount);
void skills_begin_action(GameState& s);
void skills_end_action(Ctx& c, const Action& a);
void skills_payment_cancelled(GameState& s);
// Before the Guild refunds a cancelled shipment paid to `payee` (a faction): what the Bureaucrat took of
// that payment comes back to the payee from the bank, so that the shipper gets back all it paid.
void skills_refund_taken(GameState& s, Faction shipper, Faction payee);
int skills_taken_from(const GameState& s, Faction shipper);  // what skills_refund_taken would give back
extern const CardRules::CardWindow kBureaucracyWindow;  // WindowKind::Bureaucracy
// A leader of f revived by a card outside the Revival phase's Revive (cards.cpp, the Tleilaxu Ghola):
// when f has no skilled leader (skills_leader_revived), the SkillRevival window asks f at once to draw
// two skill cards (Respond accept) or not, then to give one to that leader (AssignSkill); the game
// resumes where the card was played. Nothing without the module, or while f has such an offer pending.
void skills_card_revived(Ctx& c, Faction f, LeaderId l);
extern const CardRules::CardWindow kSkillRevivalWindow;  // WindowKind::SkillRevival

}  // namespace mentat::rules
