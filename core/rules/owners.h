// Owners, game events and modifiers: the vocabulary through which whatever
// changes the printed rules — a faction, a treachery card or card family, a
// leader skill, a stronghold card, a module — takes part in the game without
// a phase file naming it (docs/ARCHITECTURE.md "Owners, game events and
// modifiers").
//
// Internal header (core/ only), like core/rules/rules.h.
//
// An *owner* is one entry of the owner table (owners(), core/rules/owners.cpp):
// a constant `Owner` defined in the owner's own file (core/factions/guild.cpp,
// core/cards/leader_skills.cpp, ...) and listed once in the table. It names
// the game events it listens to and the modifiers it answers.
//
// A *game event* is a typed fact raised after the state changed: by the
// primitive that changed it ("spice moved from this account to that one",
// transfer_spice) or, for a moment of the turn, by the phase at that moment
// (a phase begins, a battle is decided: each event's comment names its
// places). raise(s, e) hands it to every subscription of that event's kind
// whose owner is in the game. An event's pointers are valid only while it is
// dispatched. A described position (events/position.cpp) is built directly,
// not through events: a ledger kept from events starts from a game's setup.
//
// A *modifier* is a number a phase asks of the owners instead of computing an
// ability's change itself: "what does this shipment cost", "how far may this
// group move". modify(s, q, v) passes the phase's own value `v` through every
// answer to that query kind whose owner is in the game, and returns the last.
//
// Contract:
//  * Order is explicit. Subscriptions and answers run in ascending `order`,
//    then in owner-table order. Each event and modifier below documents what
//    its orders mean; two answers with one order must commute (tests check
//    the table: tests/test_owners.cpp). Where the printed rules leave an order
//    open, it is a ruling (core/rulings.h) read by the owner, not a table order.
//  * An owner answers only while in_game(s) is true (a faction seated, a
//    module in use; a base card always).
//  * Modifier answers are pure: they read the state and the query and return
//    the new value. Event handlers may change the state (never the event) and
//    may raise further events; they do not open decisions themselves — they
//    record what a later step or response window asks (the Bureaucrat's
//    payment, resolved by its window).
//  * Cost: the per-kind index is built once (first use); raising an event or
//    asking a modifier nobody answers is an index load and an empty loop; each
//    answer costs an in_game call and an indirect call. No allocation.
//  * Thread safety: the table and the index are immutable after first use
//    (the index is a function-local static); any thread may read them.
//
// Adding an event or a modifier: a struct below with `kKind`/`kModifier`, its
// enumerator, its orders documented, and the places that raise or ask it.
// Adding an owner: docs/ARCHITECTURE.md "Adding a faction".
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/rules/rules.h"
#include "core/state.h"

namespace mentat::rules {

// ---- game events ---------------------------------------------------------------

enum class EventKind : uint8_t {
  SpiceMoved = 0,
  ForcesMoved = 1,
  ForcesFlipped = 2,
  LeaderDied = 3,
  LeaderRevived = 4,
  PhaseBegins = 5,
  AllianceChanged = 6,
  TurnEnds = 7,
  BattleDecided = 8,
  kCount
};

// Spice moved between two accounts (transfer_spice, core/rules/common.cpp):
// every payment, collection, gift, bribe and refund. Raised after both
// balances changed. Subscribers: the Spice Banker (a payment of 4 or more to
// the bank) and the Bureaucrat (a payment between two factions), both in
// core/cards/leader_skills.cpp. Orders: 0 (they watch disjoint payments).
struct SpiceMoved {
  static constexpr EventKind kKind = EventKind::SpiceMoved;
  SpiceAccount from;
  SpiceAccount to;
  int amount = 0;
};

// Forces of one faction moved from one place to another (move_forces,
// core/rules/common.cpp): shipped, moved, revived, destroyed, returned,
// placed at setup or by an ability, a token placed or returned. Raised after
// both places changed, once per origin for a move from several. A force
// arrives in a territory when `to` is on the board and `from` is not a
// location of that territory. The counts may both be 0 (a No-Field revealed
// into empty reserves, then destroyed). Subscribers: none yet; Ambassadors, Terror
// tokens, Tech tokens and homeworld thresholds listen here.
struct ForcesMoved {
  static constexpr EventKind kKind = EventKind::ForcesMoved;
  Faction faction = Faction::Atreides;
  ForcePlace from;
  ForcePlace to;
  int regular = 0;  // as they left
  int special = 0;
  ForceCause cause = ForceCause::Movement;
  ArriveAs as = ArriveAs::Same;
};

// Forces of one faction turned from one kind into the other where they stand
// (flip_forces: Bene Gesserit advisors and fighters). Subscribers: none yet.
struct ForcesFlipped {
  static constexpr EventKind kKind = EventKind::ForcesFlipped;
  Faction faction = Faction::BeneGesserit;
  LocationId loc = 0;
  int from_kind = 1;  // 0 regular, 1 special
  int n = 0;
};

// A leader went to the tanks (leader_to_tanks, core/rules/common.cpp): killed
// in battle (1.07.06.03), by a weapon, a lasgun/shield explosion or Residual
// Poison, or by the Harkonnen (2.05.10.02). Raised after its zone changed.
// The Kwisatz Haderach is no leader of the leader table: its death and
// revival (core/factions/atreides.cpp) raise nothing yet.
// Subscribers: the Leader Skills (its skill card back to the deck; core/cards/
// leader_skills.cpp), order 0.
struct LeaderDied {
  static constexpr EventKind kKind = EventKind::LeaderDied;
  LeaderId leader = 0;
  bool face_down = false;  // killed again (1.05.04) or by the Harkonnen
};

// A leader left the tanks for a faction's pool (leader_revived, core/rules/
// common.cpp): 1.05.03 or a card. Raised after its zone changed, before any
// decision its revival opens (a Leader Skills draw). Subscribers: none yet.
struct LeaderRevived {
  static constexpr EventKind kKind = EventKind::LeaderRevived;
  LeaderId leader = 0;
  Faction by = Faction::Atreides;
};

// A phase began: raised by the phase's own `enter` once the phase's scratch
// state is reset, before its first step (core/rules/<phase>.cpp); every phase
// of a turn and the Nexus, not the Setup; the Charity phase too when the
// Inflation token's Cancel side then skips it. Handlers
// set up what the owner does in the phase; a question a faction asks at a
// phase's start is a phase hook (it opens a decision). Subscribers, order 0
// (they touch disjoint state): the Atreides (2.01.07 Wormsign) and the Guild
// (3.01.11.02 of 2.06.12) at Shipment and Movement; the Leader Skills (the
// Spice Banker's gains, before 1.09.01's bribes) at the Mentat Pause.
struct PhaseBegins {
  static constexpr EventKind kKind = EventKind::PhaseBegins;
  Phase phase = Phase::Storm;
};

// Two factions formed or broke an alliance (1.10.01, core/rules/nexus.cpp),
// raised after both factions' `ally` changed. Subscribers: none yet.
struct AllianceChanged {
  static constexpr EventKind kKind = EventKind::AllianceChanged;
  Faction a = Faction::Atreides;  // the faction that accepted or broke it
  Faction b = Faction::Atreides;
  bool formed = true;
};

// The turn ends and the game goes on (core/rules/mentat_pause.cpp, after
// every faction's Mentat Pause step, before the turn counter moves and the
// next Storm phase is entered; not raised when the game ends). Subscribers:
// the Advanced Stronghold Cards (who holds each for the next turn,
// core/cards/stronghold_cards.cpp), order 0.
struct TurnEnds {
  static constexpr EventKind kKind = EventKind::TurnEnds;
  int turn = 0;  // the turn that ends
};

// A battle's winner is known (core/rules/battle.cpp, every resolution
// branch: raised once per battle). The dialled spice is paid; leaders, losses
// and cards are not settled yet, except when both leaders were traitors (the
// event follows both sides' losses there). `winner` is the side (0 aggressor, 1 defender) or -1 when nobody
// wins (both traitors, a lasgun/shield explosion). Subscribers: the Advanced
// Stronghold Cards (Tuek's Sietch, Sietch Tabr; core/cards/stronghold_cards.cpp),
// order 0.
struct BattleDecided {
  static constexpr EventKind kKind = EventKind::BattleDecided;
  int winner = -1;
  const BattlePlanState* plans = nullptr;  // the two plans as played, [2]: valid during the dispatch only
  int loser_dial2 = 0;                     // the loser's dial in half units as the battle counted it (0 without a winner)
};

// A listener of every event raised on this thread, before the owners': for
// tests and tools that keep a ledger of what happened (tests/test_owners.cpp
// checks the force events against the state). Not an owner: it must not
// change the state. set_event_tap(nullptr, nullptr) removes it.
using EventTap = void (*)(void* ctx, EventKind kind, const void* event);
void set_event_tap(EventTap tap, void* ctx);

// One owner's handler of one event kind; build with on<Event, handler>().
struct Subscription {
  EventKind kind = EventKind::kCount;
  int order = 0;
  void (*handle)(GameState& s, const void* event) = nullptr;
};

template <class E, void (*F)(GameState&, const E&)>
constexpr Subscription on(int order = 0) {
  return {E::kKind, order, [](GameState& s, const void* e) { F(s, *static_cast<const E*>(e)); }};
}

// ---- modifiers -----------------------------------------------------------------

enum class Modifier : uint8_t {
  ShipmentCost = 0,
  MovementRange = 1,
  FreeRevival = 2,
  RevivalLimit = 3,
  RevivalCost = 4,
  EliteWorth = 5,
  kCount
};

// What a shipment onto the board costs (1.06.03.01, asked by
// core/rules/shipment_movement.cpp shipment_cost). The value starts at the
// printed price; `printed` keeps it for answers that are a fraction of it.
// Answers: the Guild's half price, the faction's and its ally's (2.06.06 /
// 2.06.09, core/factions/guild.cpp) and a Karama's shipment at Guild rates
// (3.01.11.03, core/rules/cards.cpp), order 0: each returns at most half the
// printed price rounded up, so both together halve once.
struct ShipmentCostQuery {
  static constexpr Modifier kModifier = Modifier::ShipmentCost;
  Faction shipper = Faction::Atreides;
  LocationId to = 0;
  int forces = 0;   // forces priced (a token counts 1)
  int printed = 0;  // 1.06.03.01: 1 a force into a stronghold, else 2
};

// What a movement's range is counted from (asked by
// core/rules/shipment_movement.cpp move_range and core/cards/ornithopter.cpp).
enum class RangeBasis : uint8_t {
  Ordinary = 0,         // 1.06.05.03: 1, or 3 with ornithopters (1.06.05.04)
  PassiveGroup = 1,     // a group of special forces that do not fight (2.02.12): 1, no ornithopter
  OrnithopterCard = 2,  // the Ornithopter card's group: 3 (core/cards/ornithopter.cpp)
};

// How many territories a group may move (1.06.05.03/.04). The value starts
// at the basis's printed range. Answers, in order:
//   0  the faction's own range (2.04.06 the Fremen: 2, ordinary groups; core/factions/fremen.cpp)
//   1  a leader skill's band (the Planetologist: +1, at most 3, when
//      `skill_bonus`; core/cards/leader_skills.cpp)
//   2  after every other range rule (CHOAM's Kulon: +1 this turn, not for a
//      passive group; ruling kulon_ornithopter; core/factions/choam.cpp)
struct MovementRangeQuery {
  static constexpr Modifier kModifier = Modifier::MovementRange;
  Faction mover = Faction::Atreides;
  RangeBasis basis = RangeBasis::Ordinary;
  // The phase's reading of the group for a skill's band: false for the groups
  // of a Planetologist's gather under ruling planetologist_exclusive and for
  // a concealed marker under ruling planetologist_no_field.
  bool skill_bonus = true;
  // The range as if this ability were not used (3.01.11.01: does a move need
  // it?): the answer that uses it returns the value unchanged.
  Ability unused = Ability::None;
};

// A faction's free revival this turn (1.05.01.02, asked by
// core/rules/revival.cpp free_revival). The value starts at the player
// sheet's number (data::faction_setup). Answers, in order:
//   0  an ally's grant (2.04.11 the Fremen give their ally 3, ruling
//      fremen_ally_revival; core/factions/fremen.cpp): the larger one counts
//   1  a rule that takes it away (CHOAM's La La La this turn: 0;
//      core/factions/choam.cpp)
struct FreeRevivalQuery {
  static constexpr Modifier kModifier = Modifier::FreeRevival;
  Faction faction = Faction::Atreides;
};

// How many forces a faction may revive this turn on its own (1.05.01: 3)
// and what each costs beyond the free ones (1.05.01.03: 2), asked by
// core/rules/revival.cpp. Answers, order 0: a faction's own revival rule
// (CHOAM: 20 forces at 1 spice, unless a Karama prevents it, 3.01.11.02;
// core/factions/choam.cpp). An ally paying for more (2.03.07, the Emperor)
// is not a limit of the faction's own: revival.cpp's hook pays_ally_revival.
struct RevivalLimitQuery {
  static constexpr Modifier kModifier = Modifier::RevivalLimit;
  Faction faction = Faction::Atreides;
};
struct RevivalCostQuery {
  static constexpr Modifier kModifier = Modifier::RevivalCost;
  Faction faction = Faction::Atreides;
};

// What one elite force of `faction` is worth in a battle against `opponent`
// (dial and losses; asked by core/rules/battle.cpp elite_worth in the
// advanced game only). The value starts at 1, a force's printed worth.
// Answers, in order:
//   0  the faction's own elites (2.03.08-09 the Sardaukar: 2, 1 against the
//      Fremen, core/factions/emperor.cpp; 2.04.18 the Fedaykin: 2,
//      core/factions/fremen.cpp)
//   1  a Karama that prevented them for this battle (3.01.11.02: 1;
//      BattleState::karama_elite_off, core/rules/cards.cpp)
struct EliteWorthQuery {
  static constexpr Modifier kModifier = Modifier::EliteWorth;
  Faction faction = Faction::Emperor;
  Faction opponent = Faction::Atreides;
};

// One owner's answer to one modifier; build with answer<Query, function>().
struct ModifierAnswer {
  Modifier what = Modifier::kCount;
  int order = 0;
  int (*answer)(const GameState& s, const void* query, int value) = nullptr;
};

template <class Q, int (*F)(const GameState&, const Q&, int)>
constexpr ModifierAnswer answer(int order = 0) {
  return {Q::kModifier, order, [](const GameState& s, const void* q, int v) { return F(s, *static_cast<const Q*>(q), v); }};
}

// ---- owners --------------------------------------------------------------------

enum class OwnerKind : uint8_t { Faction = 0, Card = 1, LeaderSkill = 2, StrongholdCard = 3, Module = 4 };

struct Owner {
  std::string_view key;  // stable, lower_snake_case: a faction its faction_key ("spacing_guild"), "karama", "leader_skills"
  OwnerKind kind = OwnerKind::Faction;
  bool (*in_game)(const GameState& s) = nullptr;  // null: never answers
  std::span<const Subscription> subscriptions;
  std::span<const ModifierAnswer> modifiers;
};

// in_game for a faction owner: the faction is seated.
template <Faction F>
bool faction_seated(const GameState& s) {
  return s.has(F);
}
// in_game for an owner present in every game (a base treachery card).
inline bool always(const GameState&) { return true; }

// The owner table, in its fixed order (core/rules/owners.cpp).
std::span<const Owner* const> owners();

// Dispatch (core/rules/owners.cpp); the templates below are the typed doors.
void raise_event(GameState& s, EventKind kind, const void* event);
int modify_value(const GameState& s, Modifier what, const void* query, int value);

template <class E>
void raise(GameState& s, const E& e) {
  raise_event(s, E::kKind, &e);
}
template <class Q>
int modify(const GameState& s, const Q& q, int value) {
  return modify_value(s, Q::kModifier, &q, value);
}

// The owner constants, each defined in its owner's file.
extern const Owner kAtreidesOwner, kBeneGesseritOwner, kEmperorOwner, kFremenOwner, kHarkonnenOwner, kGuildOwner,
    kChoamOwner, kRicheseOwner, kKaramaOwner, kLeaderSkillsOwner, kStrongholdCardsOwner;

}  // namespace mentat::rules
