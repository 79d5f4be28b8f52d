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
#include <span>
#include <utility>

#include "core/rules/battle_abilities.h"
#include "core/rules/rules.h"
#include "core/rules/shipment_movement.h"

namespace mentat::rules {

// Victory kinds stored in GameState::victory_kind (stable: in the state
// encoding; bots/selfplay.cpp names them).
enum VictoryKind : uint8_t { kNoVictory = 0, kStronghold = 1, kPrediction = 2, kGuildDefault = 3,
                             kFremenSpecial = 4, kFremenDefault = 5, kMostStrongholds = 6 };

// What a view reveals of a faction ability's secrets (inspect/view.cpp,
// inspect/projection.cpp ask through sees_secret below).
enum class Secret : uint8_t {
  StormCard = 0,              // 2.04.14 the next storm card (GameState::storm_card)
  Wormsign = 1,               // 2.01.07 the spice card seen (GameState::wormsign_card)
  KwisatzHaderachLosses = 2,  // 2.01.10 KwisatzHaderachState::losses
  KaramaPlan = 3,             // 1.14.01 the battle plan of side `side` seen by Karama
  PrescienceAnswer = 4,       // 2.01.08/09 the Prescience answer before the reveal
};

// A claim to win when the last turn ends without a stronghold victory
// (1.09.04): the lowest `priority` among the claims wins.
struct VictoryClaim {
  int priority = 0;     // 0 first
  FactionMask winners = 0;  // mask over Faction
  uint8_t kind = 0;     // mentat_pause.cpp victory kinds
};

struct FactionRules {
  // ---- 3.01.11 the faction's abilities marked ✷ (cards.cpp) ----
  // The abilities a Karama may cancel (3.01.11.01) or prevent (3.01.11.02):
  // rules::Ability numbers them (core/rules/rules.h), each row names its
  // owner, rules and action; ability_info() indexes every faction's rows.
  std::span<const AbilityInfo> abilities;

  // ---- 0.xx setup (setup.cpp) ----
  // The decks are being shuffled (after the traitor deck, before the
  // forces): this faction's own deck (2.04.13 the Fremen storm deck).
  void (*setup_decks)(Ctx& c) = nullptr;
  // 0.13: true when this faction places its starting forces in its setup
  // step instead of at data::fixed_start_location (2.02.08).
  bool (*places_start_forces)(const GameState& s) = nullptr;
  // The setup steps (SetupStep, core/state.h) this faction takes, in any
  // order: when GameState::step reaches `step` and `asks` is true, this
  // faction's seat alone is asked (2.02.03, 2.04.02, 2.02.08). `apply`
  // changes only the faction's setup; setup.cpp then goes on.
  struct SetupDecision {
    SetupStep step = SetupStep::StormDial;
    bool (*asks)(const GameState& s) = nullptr;
    std::optional<Rejection> (*validate)(const GameState& s, const Action& a) = nullptr;
    void (*apply)(GameState& s, const Action& a) = nullptr;
    void (*decisions)(const GameState& s, std::vector<Decision>& out) = nullptr;
    void (*legal)(const GameState& s, std::vector<Action>& out) = nullptr;
  };
  std::span<const SetupDecision> setup_steps;

  // ---- forces (common.cpp, collection.cpp, battle.cpp) ----
  // 2.02.12: true when this faction's special forces are not fighters in
  // this game (the advanced Bene Gesserit's advisors): they do not occupy,
  // collect, battle or count for a dial. Null: specials always fight.
  bool (*specials_passive)(const GameState& s) = nullptr;
  // Special forces go to the tanks as regular forces (the Bene Gesserit:
  // advisors are ordinary forces in the tanks).
  bool specials_tank_as_regular = false;

  // ---- a hidden-value token that stands for forces (the Richese No-Field,
  // core/factions/richese_no_field.cpp) ----
  // While the faction's token is on the board it is the faction's special
  // force at its location (one force wherever forces are counted); the
  // faction has no other special forces. The phases call these hooks of the
  // faction whose special force they touch; null `destroyed`: no token.
  struct ForceToken {
    // Ship.no_field: why `shipper`'s shipment with a token is refused, after
    // the phase's destination checks (the cost is one force's); `ship` makes
    // it once paid (the shipper is the faction or its ally) and returns the
    // shipper's own forces (regular, special) the token became at its
    // destination (an ally's token is revealed at once).
    std::optional<Rejection> (*check_ship)(const GameState& s, Faction shipper, const action::Ship& a) = nullptr;
    std::pair<int, int> (*ship)(GameState& s, Faction shipper, const action::Ship& a) = nullptr;
    Ability ability = Ability::None;  // 3.01.11: the ability a token shipment uses
    // The token at `loc` is destroyed with the forces there (forces_to_tanks:
    // storm, worm, explosions, Family Atomics, 1.06.07): it is revealed first;
    // returns the regular forces it became at `loc`, which the caller destroys too.
    int (*destroyed)(GameState& s, LocationId loc) = nullptr;
    // The token at `loc` is revealed (Trip to Gamont): returns the forces it became there.
    int (*reveal)(GameState& s, LocationId loc) = nullptr;
    // A group with the token moved from `from` to `to` (apply_move).
    void (*moved)(GameState& s, LocationId from, LocationId to) = nullptr;
    // 1.07.04.02: the faction's highest dial in the battle's area when its
    // token is there (`n`: the dial counting the token as one force).
    int (*max_dial)(const GameState& s, TerritoryId t, uint8_t area, int n) = nullptr;
    // 1.07.05: the plans are revealed: the token in the battle becomes forces.
    void (*plans_revealed)(Ctx& c) = nullptr;
    // True when the dial of battle side `side` may not be asked (2.01.08 Prescience).
    bool (*dial_hidden)(const GameState& s, int side) = nullptr;
    // 1.02.05: true when a worm leaves the token (not its forces) where it is.
    bool (*worm_ignores)(const GameState& s) = nullptr;
    // 1.14.05 (the Guild's Karama cancels the shipment just made,
    // ShipMoveState::last_*): why it may not be cancelled because of a token
    // it carried (nullopt: it may, or it carried none); `cancelled` undoes
    // the token's part of it before the Guild returns the forces recorded in
    // last_* and the spice.
    std::optional<Rejection> (*check_cancel)(const GameState& s) = nullptr;
    void (*cancelled)(GameState& s) = nullptr;
    // AllyPermission (deals.cpp) from this faction: why its `no_field`
    // consent (its ally may ship with a token) is refused (null hook: the
    // faction gives no such consent); `permit` records the whole consent
    // of every AllyPermission (no_field false withdraws it).
    std::optional<Rejection> (*check_permit)(const GameState& s, const action::AllyPermission& a) = nullptr;
    void (*permit)(GameState& s, const action::AllyPermission& a) = nullptr;
    bool (*permits)(const GameState& s) = nullptr;  // the consent stands now (for the current ally)
  } force_token;

  // ---- 1.01 storm (storm.cpp) ----
  // 2.04.13: the storm card this faction's deck deals this turn (from turn
  // 2: the sectors the storm moves), or -1 when the dials move it.
  int (*deals_storm_card)(const GameState& s) = nullptr;
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

  // ---- 1.02 Spice Blow (spice_blow.cpp) ----
  // A Shai-Hulud is revealed after turn 1: true when this faction places it
  // instead of the cards (2.04.15: step and waiting set, blow_step below).
  bool (*worm_revealed)(GameState& s) = nullptr;
  // A worm appears in territory t (`placed`: a faction placed it): true when
  // this faction is asked first (2.04.10: step and waiting set); otherwise it
  // may set *answer, handed to worm_spares (ruling fremen_ally_protection).
  bool (*worm_appears)(GameState& s, TerritoryId t, bool placed, bool* answer) = nullptr;
  // The worm devours territory t: the factions (mask) whose forces it spares
  // (2.04.07, 2.04.10; `answer` from worm_appears or the faction's decision).
  // May consume this faction's preventions and record the worm (2.04.08).
  FactionMask (*worm_spares)(GameState& s, TerritoryId t, bool answer) = nullptr;
  // Every pile has its territory card: true when this faction is asked
  // before the phase ends (1.14.03: step and waiting set).
  bool (*blow_ends)(GameState& s) = nullptr;
  // This faction's sub-steps of the blow: while GameState::step is in
  // [first, last] (0 is spice_blow.cpp's own) the phase hands the seat asked
  // (GameState::waiting, cleared before apply) each action; `wait` is the
  // rejection to a seat not asked. first == 0: none.
  struct BlowStep {
    uint8_t first = 0, last = 0;
    std::optional<Rejection> (*validate)(const GameState& s, const Action& a) = nullptr;
    void (*apply)(Ctx& c, const Action& a) = nullptr;
    void (*decisions)(const GameState& s, std::vector<Decision>& out) = nullptr;
    void (*legal)(const GameState& s, std::vector<Action>& out) = nullptr;
    const char* wait = "";
  } blow_step;

  // ---- 1.10.01 Nexus (nexus.cpp) ----
  // A step this faction takes upon conclusion of the Nexus (2.04.08 Beast of
  // Burden), while GameState::step is the Nexus's faction step; the seat
  // asked is the one in GameState::waiting.
  struct FactionStep {
    // The Nexus concluded: true when the faction is asked (waiting set).
    bool (*begins)(GameState& s) = nullptr;
    std::optional<Rejection> (*validate)(const GameState& s, const Action& a) = nullptr;
    // Applies the answer; true while the faction is still asked (waiting set).
    bool (*apply)(GameState& s, const Action& a) = nullptr;
    void (*decisions)(const GameState& s, std::vector<Decision>& out) = nullptr;
    void (*legal)(const GameState& s, std::vector<Action>& out) = nullptr;
    const char* wait = "";  // the rejection to every other seat
    // 3.01.11.01: the faction ability answer `a` uses (the phase opens a
    // KaramaCancel window before applying it); null or Ability::None: none.
    Ability (*uses)(const GameState& s, const Action& a) = nullptr;
  } after_nexus;

  // ---- 1.03 CHOAM Charity (charity.cpp) ----
  // 2.02.09: the charity this faction receives when it claims, and whether
  // it may claim whatever it holds; return -1 for the 1.03 rule. May not
  // change anything.
  int (*charity_amount)(const GameState& s) = nullptr;
  // 3.01.11.02: the ability a Karama prevents whose use opportunity this
  // charity is (charity.cpp consumes it when the faction answers, or at the
  // phase's start when it is not asked); Ability::None: none.
  Ability (*charity_prevention_due)(const GameState& s) = nullptr;
  // CHOAM (CHOAM & Richese): the Charity phase begins (before anyone is
  // asked; core/factions/choam.cpp collects CHOAM's income, consuming its
  // prevention); this faction never claims (no_charity_claim); it pays the
  // others' claims while charity_payer is true; charity_multiplier scales
  // every charity amount (-1: none; 0 means no charity this turn: the phase
  // asks nobody).
  void (*charity_begins)(Ctx& c) = nullptr;
  bool no_charity_claim = false;
  bool (*charity_payer)(const GameState& s) = nullptr;
  int (*charity_multiplier)(const GameState& s) = nullptr;

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
  // The faction's own lots of the Bidding phase (the Richese cache lot and
  // Black Market). `begins`: the phase begins, before the deal: true when
  // this faction's step is now up (GameState::step != 0, waiting set); its
  // steps end with bidding_deal (core/rules/rules.h). `lots`: how many of
  // the round's cards are this faction's lots (the deal is that many fewer).
  // `first_lot`: after the deal, true when a lot of the faction's comes up
  // before the dealt cards; `row_done`: the dealt cards are done, true when
  // a lot of the faction's comes up now. While GameState::step != 0 the
  // phase hands every action to validate/apply/decisions/legal; a lot ends
  // with bidding_lot_done (core/rules/rules.h). `seller`: the faction paid
  // for the card up for bid now (kNoFaction: 1.04.06.03 / 2.03.04).
  struct BiddingStep {
    bool (*begins)(Ctx& c) = nullptr;
    int (*lots)(const GameState& s) = nullptr;
    bool (*first_lot)(Ctx& c) = nullptr;
    bool (*row_done)(Ctx& c) = nullptr;
    std::optional<Rejection> (*validate)(const GameState& s, Seat seat, const Action& a) = nullptr;
    void (*apply)(Ctx& c, Seat seat, const Action& a) = nullptr;
    void (*decisions)(const GameState& s, Seat seat, std::vector<Decision>& out) = nullptr;
    void (*legal)(const GameState& s, Seat seat, std::vector<Action>& out) = nullptr;
    // The card up for bid now when it is one of this faction's lots (kNone8: none).
    uint8_t (*lot_card)(const GameState& s) = nullptr;
    // True when `card` in `seat`'s hand is promised to this faction's lot up
    // for bid (its seller keeps it in hand until the auction ends).
    bool (*promised)(const GameState& s, Seat seat, uint8_t card) = nullptr;
    // The spice `seat` has bid on this faction's lot and would owe beyond
    // the phase's high bid (a sealed silent bid), 0: none.
    int (*pledged)(const GameState& s, Seat seat) = nullptr;
    // True while `seat` has a sealed bid in on this faction's lot (a public
    // fact: that it is in, not how much).
    bool (*sealed)(const GameState& s, Seat seat) = nullptr;
  } bidding_step;

  // ---- 1.05 revival (revival.cpp) ----
  // 2.03.11 / 2.04.20 (advanced): only one of this faction's special forces
  // may be revived a turn.
  bool one_special_revival = false;
  // The Revival phase begins: may consume this faction's preventions; true
  // when this faction must first answer its grant (RevivalGrant below).
  bool (*revival_begins)(GameState& s) = nullptr;
  // The grant question (2.04.11 fremen_decides): its texts and its answer.
  struct RevivalGrant {
    const char* wait = "";    // rejection to the others while it is asked
    const char* answer = "";  // rejection of another action kind
    const char* prompt = "";  // the decision's prompt
  } revival_grant;
  void (*revival_grant_answer)(GameState& s, bool accept) = nullptr;
  // The Revival phase ends.
  void (*revival_ends)(GameState& s) = nullptr;
  // 2.03.07: the ability by which this faction pays for up to
  // `ally_extra_revival` forces of its ally beyond the limit (None: no).
  Ability pays_ally_revival = Ability::None;
  int ally_extra_revival = 0;
  // The ability of the faction's own revival rule (CHOAM's; its limit and
  // cost are its answers to RevivalLimitQuery / RevivalCostQuery,
  // core/rules/owners.h): 3.01.11.02, a prevention is used up by its next
  // revival answer, which follows 1.05.01.
  Ability revival_ability = Ability::None;

  // ---- 1.06 shipment and movement (shipment_movement.cpp) ----
  // Shipping abilities, each the Ability a Karama may cancel or prevent
  // (Ability::None: the faction does not have it). `team` ones are the
  // faction's and its ally's (2.06.09 / 2.06.10).
  Ability ship_half_price = Ability::None;  // 2.06.06 team: half the 1.06.03.01 cost, rounded up
  Ability ship_cross = Ability::None;       // 2.06.05.02 team: from one territory to another
  Ability ship_off_planet = Ability::None;  // 2.06.05.03: from the board back to reserves
  // 2.06.04: the ability that sends other factions' shipment payments to this
  // faction (None: to the bank, 1.06.03.02).
  Ability receives_shipment_payments = Ability::None;
  // 2.04.05: this faction sends forces from reserves for free instead of
  // shipping them (1.06.03 does not apply); its checks and its effects.
  bool sends_from_reserves = false;
  std::optional<Rejection> (*check_send)(const GameState& s, const action::Ship& a) = nullptr;
  void (*sent)(GameState& s, const action::Ship& a) = nullptr;  // after the forces arrived
  Ability storm_migration = Ability::None;  // 2.04.17: a send into the storm (✷)
  // 2.04.06: the faction moves `movement_range` territories by
  // `movement_ability` (1.06.05.03: otherwise 1). The range itself is the
  // faction's answer to the modifier MovementRangeQuery (core/rules/owners.h);
  // these two say which ability a Karama cancels and how far it reached.
  int movement_range = 0;
  Ability movement_ability = Ability::None;
  // The phase's sub-steps this faction owns (bit i: ship::Step i,
  // core/rules/shipment_movement.h); while GameState::step is one of them
  // the phase, having checked the action kind and that the seat is asked,
  // hands each action to these, and appends Pass to `legal`'s actions.
  // `in_use` (1.00.05): the ability the phase waits on at this step, or
  // nullptr. steps == 0: none.
  struct ShipStep {
    uint16_t steps = 0;
    std::optional<Rejection> (*validate)(const GameState& s, Seat seat, const Action& a) = nullptr;
    void (*apply)(Ctx& c, Seat seat, const Action& a) = nullptr;
    void (*decisions)(const GameState& s, Seat seat, std::vector<Decision>& out) = nullptr;
    void (*legal)(const GameState& s, Seat seat, std::vector<Action>& out) = nullptr;
    const char* (*in_use)(const GameState& s) = nullptr;
  } ship_step;
  // 2.06.12: the seat this faction takes out of storm order this phase
  // (kNoSeat: none); while its turn is still to come, before_ship_turn is
  // asked before each other seat's turn (`next`): true when this faction is
  // asked first (step and waiting set); when every other seat is done, the
  // held seat takes its turn.
  Seat (*holds_ship_turn)(const GameState& s) = nullptr;
  bool (*before_ship_turn)(Ctx& c, Seat next) = nullptr;
  // A seat's turn begins (before its shipment step).
  void (*ship_turn_begins)(GameState& s) = nullptr;
  // `shipper`'s shipment was made (paid, the forces arrived; the one from
  // reserves that may be cancelled is in ShipMoveState::last_*): true when
  // this faction is asked about it first (step and waiting set; the step
  // goes on with ship::shipment_stands). 1.14.05.
  bool (*shipment_made)(GameState& s, Faction shipper, const action::Ship& a) = nullptr;
  // The phase begins (after the owners' PhaseBegins, core/rules/owners.h): true when this
  // faction is asked before anyone ships (step and waiting set; its step
  // goes on with ship::advance). 2.02.17.
  bool (*ship_phase_opens)(GameState& s) = nullptr;
  // `shipper`'s shipment step is over (`ship`: its shipment, null when it
  // passed; `from_off_planet`: from reserves at the 1.06.03 cost) and stands:
  // true when this faction answers it (step and waiting set; its step goes
  // on with ship::to_move_step). 2.02.05, 2.02.15.
  bool (*answers_shipment)(GameState& s, Faction shipper, const action::Ship* ship, bool from_off_planet) = nullptr;
  // `mover`'s movement was made: true when this faction answers it (step and
  // waiting set; its step goes on with ship::after_move). 2.02.15.
  bool (*answers_move)(GameState& s, Faction mover, const action::Move& move) = nullptr;
  // A seat's turn ended (after 1.06.07), and once more as the phase ends. 2.02.21.
  void (*ship_turn_ends)(GameState& s) = nullptr;
  // This faction's own shipments and moves (the phase asks the shipper's or
  // mover's entry only):
  // 2.02.13: why its shipment from reserves `a` is refused, after the
  // destination's checks (nullopt: it is not).
  std::optional<Rejection> (*check_shipment)(const GameState& s, const action::Ship& a) = nullptr;
  // 2.02.14 / 2.02.20: what its moved group becomes at a.to (null: Keep).
  ship::GroupType (*moved_group)(const GameState& s, const action::Move& a) = nullptr;
  // Move.flip (2.02.16): why its movement `a` may not flip (nullopt: it may);
  // `advisors`: its moving special forces that do not fight, `type`:
  // moved_group's answer. Null: the faction never flips as it moves.
  std::optional<Rejection> (*check_move_flip)(const GameState& s, const action::Move& a, int advisors, ship::GroupType type) = nullptr;
  // Its valid movement `a` is about to be made: may consume its preventions
  // (3.01.11.02 of 2.02.16).
  void (*moving)(GameState& s, const action::Move& a) = nullptr;
  // Adds the variants of its legal movements `legal` (2.02.16: with flip).
  void (*move_variants)(const GameState& s, std::vector<action::Move>& legal) = nullptr;
  // Appended to its Move decision's prompt ("" for nothing).
  const char* (*move_prompt)(const GameState& s) = nullptr;
  // The ability marked ✷ its movement `a` uses as it is made (a KaramaCancel
  // window, 3.01.11.01; 2.02.16 Take Up Arms), or Ability::None.
  Ability (*move_uses)(const GameState& s, const action::Move& a) = nullptr;
  // Why `mover` may not move into territory `to` now (empty: it may): CHOAM's Baliset.
  std::string (*move_blocked)(const GameState& s, Faction mover, TerritoryId to) = nullptr;

  // ---- 1.07 battle (battle.cpp) ----
  // 2.03.08-09 / 2.04.18 (advanced): the battle worth of one of this
  // faction's special forces is its answer to EliteWorthQuery (core/rules/owners.h).
  // The ability that makes the special forces count double (3.01.11.02: a
  // prevention is consumed by the faction's next battle with them).
  Ability elite_ability = Ability::None;
  // 2.04.21 (advanced): the ability by which this faction's dial counts fully
  // without spice (1.13.04 does not apply); Ability::None: 1.13.04 applies.
  Ability battle_hardened = Ability::None;
  // 3.01.11.02: this faction's battle plan is in; a prevented battle ability
  // that the plan could have used is consumed (2.01.11 Kwisatz Haderach).
  void (*plan_submitted)(GameState& s) = nullptr;
  // The battle plans' commitments (battle_abilities.cpp; PlanBinding and
  // PlanCommand in core/rules/battle_abilities.h). plan_binding adds what
  // this faction's answer binds in `seat`'s plan (2.01.08); plan_command
  // puts this faction's command on it (true: set, 2.02.06); plan_check
  // rejects a plan that breaks them (`bound`: every faction's binding);
  // narrow_plan narrows the seat's BattlePlan decision; forbids_cheap_hero:
  // the seat may not count its Cheap Heroes for 1.07.04.05 (2.02.06).
  void (*plan_binding)(const GameState& s, Seat seat, PlanBinding& bound) = nullptr;
  bool (*plan_command)(const GameState& s, Seat seat, PlanCommand& command) = nullptr;
  std::optional<Rejection> (*plan_check)(const GameState& s, Seat seat, const action::BattlePlan& plan, const PlanBinding& bound) = nullptr;
  void (*narrow_plan)(const GameState& s, Seat seat, const PlanBinding& bound, Decision& d) = nullptr;
  bool (*forbids_cheap_hero)(const GameState& s, Seat seat) = nullptr;
  // Why `card` in `seat`'s hand is promised to this faction's pending
  // exchange and may not be played, given or sold meanwhile (CHOAM's card
  // trade offer); std::nullopt: it is not (cards.cpp committed()).
  std::optional<std::string> (*card_promised)(const GameState& s, Seat seat, uint8_t card) = nullptr;
  // The token this faction's plan may add to its leader or Cheap Hero
  // (BattlePlan.flag; 2.01.10-14 the Kwisatz Haderach). No `check`: the
  // faction has none.
  struct PlanFlag {
    // Why the flag may not be set now (nullopt: it may), before the plan.
    std::optional<Rejection> (*unavailable)(const GameState& s, Seat seat) = nullptr;
    // The plan with the flag set (unavailable, and what it must accompany).
    std::optional<Rejection> (*check)(const GameState& s, Seat seat, const action::BattlePlan& plan) = nullptr;
    int strength = 0;          // added unless its leader or Cheap Hero is killed (2.01.11)
    const char* prompt = "";   // appended to the BattlePlan decision while available
    void (*exploded)(GameState& s) = nullptr;  // 2.01.13 a lasgun/shield explosion
    // 2.01.14: why its token cannot be revived now (nullopt: it can, spice
    // aside); its revival (revival.cpp).
    std::optional<std::string> (*unrevivable)(const GameState& s) = nullptr;
    void (*revive)(GameState& s) = nullptr;
  } plan_flag;
  // The battle sub-steps this faction adds (battle_abilities.h numbers them: the
  // range [first, last] of ability::Step, core/rules/battle_abilities.h);
  // while GameState::step is in the range the battle hands each action to
  // these. first == 0: none.
  struct BattleStep {
    uint8_t first = 0, last = 0;
    // The battle opens, or the faction before this one (by id) is done with
    // its opening step: true when this faction asks before the plans (step
    // and waiting set; its step then ends with battle_open_after,
    // core/rules/battle_abilities.h). 2.01.08 Prescience, 2.02.06 Voice.
    bool (*opens)(Ctx& c) = nullptr;
    std::optional<Rejection> (*validate)(const GameState& s, Seat seat, const Action& a) = nullptr;
    void (*apply)(Ctx& c, Seat seat, const Action& a) = nullptr;
    void (*decisions)(const GameState& s, Seat seat, std::vector<Decision>& out) = nullptr;
    void (*legal)(const GameState& s, Seat seat, std::vector<Action>& out) = nullptr;
  } battle_step;
  // 1.07.06.07: extra seats (mask) this faction adds to those asked
  // CallTraitor against side `side`'s opponent (2.05.09: in its ally's battle).
  uint8_t (*battle_traitor_askers)(const GameState& s, int side) = nullptr;
  // The resolution of a battle begins (plans revealed, traitors called).
  void (*battle_resolves)(Ctx& c) = nullptr;
  // Once after each battle's resolution (before its end): true when this
  // faction's decision is now pending (step and waiting set; its step ends
  // with battle_end, core/rules/battle_abilities.h). 2.01.10-11, 2.05.10.
  bool (*after_battle)(Ctx& c) = nullptr;
  // Each battle ends (after any after_battle decision): 2.05.11.
  void (*battle_ends)(GameState& s) = nullptr;
  // `payer` paid `paid` spice dialed in a battle to the bank (1.13.04.05),
  // no traitor revealed: the advanced CHOAM takes half from the bank.
  void (*battle_spice_paid)(GameState& s, Faction payer, int paid) = nullptr;
  // Alliance (CHOAM): how much of this faction's spice its ally may use now
  // for the spice it dials in a battle (BattlePlan.ally_pays; 0: none), and
  // the payment of `paid` of it at the resolution (battle.cpp pay_dialed_spice).
  int (*ally_battle_support)(const GameState& s) = nullptr;
  void (*ally_battle_paid)(GameState& s, int paid) = nullptr;
  // After each battle's resolution, once every after_battle decision is
  // done (asked again each time one ends; the faction keeps track of its own
  // progress): true when this faction's decision is now pending (as
  // after_battle). The CHOAM Auditor's look.
  bool (*after_battle_more)(Ctx& c) = nullptr;

  // ---- 1.12 deals (deals.cpp) ----
  // 2.03.06: this faction may give spice to its ally at any time (GiveSpice).
  bool gives_ally_spice = false;
  // Why no bribe may be made now (a sentence; null: 1.12 applies): CHOAM's
  // Inflation token Double side up.
  const char* (*forbids_bribes)(const GameState& s) = nullptr;
  // The faction's own any-time actions (the 1.12 path, deals.cpp: after setup,
  // outside response windows and ability steps): `owns` names its kinds;
  // validate/apply them from any seat (`seat` need not be the faction's: an
  // ally's answer); decisions/legal add what `seat` may do now (deals.cpp
  // calls them only for a seat the game waits for).
  struct AnyTime {
    bool (*owns)(ActionKind k) = nullptr;
    std::optional<Rejection> (*validate)(const GameState& s, Seat seat, const Action& a) = nullptr;
    void (*apply)(Ctx& c, Seat seat, const Action& a) = nullptr;
    void (*decisions)(const GameState& s, Seat seat, std::vector<Decision>& out) = nullptr;
    void (*legal)(const GameState& s, Seat seat, std::vector<Action>& out) = nullptr;
  } anytime;

  // ---- 1.14 the faction's once-a-game Karama power (cards.cpp) ----
  // cards.cpp checks what every power shares (advanced game, a Karama in
  // hand, not used yet), discards the card and marks the power used; these
  // check and apply the rest. No `check`: the faction has no such power
  // (the Bene Gesserit, 1.14.06).
  struct KaramaPower {
    std::optional<Rejection> (*check)(const GameState& s, Faction me, const Action& a) = nullptr;
    void (*apply)(Ctx& c, Seat seat, const Action& a) = nullptr;
    // Candidate PlayCard actions (a superset of the legal ones) from `base`
    // (kind and card set).
    void (*candidates)(const GameState& s, Faction me, const Action& base, std::vector<Action>& out) = nullptr;
    const char* prompt = "";  // appended to the Karama card's prompt: ", or ..."
  } karama_power;
  // A response window (1.00.05) of this faction's kind `kind` (its power
  // opens it with open_window; cards.cpp runs the window stack and hands
  // it each Respond). kind == WindowKind::None: none. `what` describes it
  // (rejections, prompts); `validate` checks an asked seat's Respond;
  // `apply` applies it (Window::answered and the seat's waiting bit already
  // updated; it may open a window above its own, and then returns false)
  // and returns true when the window closes; `decisions` and `legal` are the
  // asked seat's; `closed` (may be null) runs after the window closed and
  // `waiting` was restored: what goes on.
  struct ResponseWindow {
    WindowKind kind = WindowKind::None;
    std::string (*what)(const GameState& s, const Window& w) = nullptr;
    std::optional<Rejection> (*validate)(const GameState& s, Seat seat, const action::Respond& a, const Window& w) = nullptr;
    bool (*apply)(Ctx& c, Seat seat, const action::Respond& a, Window& w) = nullptr;
    void (*decisions)(const GameState& s, Seat seat, const Window& w, std::vector<Decision>& out) = nullptr;
    void (*legal)(const GameState& s, Seat seat, const Window& w, std::vector<Action>& out) = nullptr;
    void (*closed)(Ctx& c, const Window& w) = nullptr;
  } response_window;

  // ---- the end of every phase (core/engine.cpp enter_phase) ----
  // The phase GameState::phase ends and `next` is about to be entered: true
  // when this faction opened a response window first (its `closed` enters
  // `next` with rules::begin_phase). Not asked at the end of the Setup, while
  // a window is open, or when a position starts. CHOAM's end-of-phase sale
  // (ruling choam_sell_timing).
  bool (*phase_ends)(Ctx& c, Phase next) = nullptr;

  // ---- what a view reveals (inspect/view.cpp, inspect/projection.cpp) ----
  // The secrets this faction's abilities keep (bit = rules::Secret) and who
  // sees each: `viewer` is a faction in the game; `side` is the battle side
  // for Secret::KaramaPlan.
  uint32_t keeps_secrets = 0;
  bool (*reveals)(const GameState& s, Faction viewer, Secret what, int side) = nullptr;

  // ---- 1.09 Mentat Pause (mentat_pause.cpp) ----
  // A step this faction takes in the Mentat Pause after the victory check
  // (when the game goes on), like after_nexus: CHOAM's Inflation token.
  FactionStep mentat_pause_step;

  // ---- 1.09 victory (mentat_pause.cpp) ----
  // 2.02.03: this faction predicts a winner and a turn at setup (FactionState::prediction_*;
  // setup.cpp asks it, 3.01.22 Truthtrance may ask about it).
  bool predicts = false;
  // 2.02.03: a stronghold victory of `winners` is taken over by this
  // faction (true, and *claim set: its winners and kind).
  bool (*takes_over_victory)(const GameState& s, FactionMask winners, VictoryClaim* claim) = nullptr;
  // 1.09.05: the faction's claim when the last turn ends with no stronghold
  // victory (false: none): 2.04.09 the Fremen special victory, 2.06.08 the
  // Guild's default win, 2.06.11 the Fremen's default win without the Guild.
  bool (*default_victory)(const GameState& s, VictoryClaim* claim) = nullptr;
};

// The entry of the faction (in the game) whose battle_step owns `step`, or null.
const FactionRules::BattleStep* faction_battle_step(const GameState& s, uint8_t step);
// The hooks of the faction (in the game) whose response_window is of kind k, or null.
const FactionRules::ResponseWindow* faction_window(const GameState& s, WindowKind k);

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
extern const FactionRules kChoamRules;
extern const FactionRules kRicheseRules;

// ---- folds over the table (the phases' common questions) ----

// True when a faction in the game keeps `what` (its ability makes it exist).
bool secret_kept(const GameState& s, Secret what);
// Does faction `viewer` (in the game) see `what`? False when nobody keeps it.
bool sees_secret(const GameState& s, Faction viewer, Secret what, int side = 0);

// A faction with its ally (1.10.02.01: allies win together); faction_bit is core/types.h's.
inline FactionMask team_of(const GameState& s, Faction f) {
  FactionMask m = faction_bit(f);
  if (s.of(f).ally != kNoFaction) m |= faction_bit(static_cast<Faction>(s.of(f).ally));
  return m;
}

// ---- helpers of cards.cpp for the Karama powers ----
// 3.01.20 / 1.14.02 revival by a card or a Karama power (a PlayCard): target a
// leader or value = regular + 16 x special forces, at most `max_forces`;
// `elite_limit`: 2.03.11 / 2.04.20 apply; `rule` is cited in rejections. A
// revived leader may be offered a leader skill (skills_card_revived, module
// leader_skills: a SkillRevival window opened on top of whatever was asked).
std::optional<Rejection> check_card_revival(const GameState& s, Faction me, const Action& a, int max_forces, bool elite_limit,
                                            const std::string& rule);
void apply_card_revival(Ctx& c, Faction me, const Action& a, bool elite_limit);
void card_revival_candidates(const GameState& s, Faction me, int max_forces, Action base, std::vector<Action>& out);
// Opens a response window (false when the stack is full).
bool open_window(GameState& s, Window w);
// Candidates naming each faction id as the target (PlayCard.target) of `base` (a PlayCard).
inline void target_candidates(const Action& base, std::vector<Action>& out) {
  for (int f = 0; f < kNumFactions; ++f) {
    action::PlayCard a = base.as<action::PlayCard>();
    a.target = static_cast<uint8_t>(f);
    out.push_back(a);
  }
}

// 1.06.03: checks a shipment's destination `to` for faction `me`
// (storm unless `storm_ok`, occupancy, the map); defined in shipment_movement.cpp.
std::optional<Rejection> check_ship_destination(const GameState& s, Faction me, LocationId to, bool storm_ok);

// The ally of f when it is in the game, else kNoFaction.
inline uint8_t ally_in_game(const GameState& s, Faction f) {
  const uint8_t a = s.of(f).ally;
  return a < kNumFactions && s.f[a].in_game ? a : kNoFaction;
}
// An ability f has itself or through its ally (2.06.09 / 2.06.10): the
// `field` of f's entry, else of its ally's; Ability::None when neither.
inline Ability team_ability(const GameState& s, Faction f, Ability FactionRules::*field) {
  if (const Ability a = faction_rules(f).*field; a != Ability::None) return a;
  const uint8_t ally = ally_in_game(s, f);
  return ally == kNoFaction ? Ability::None : faction_rules(static_cast<Faction>(ally)).*field;
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

// A battle opens (battle_abilities.cpp open_battle): the factions' answers
// and counts of the previous battle are void (their sections, core/state.h).
inline void clear_battle_opening(GameState& s) {
  s.atreides.battle.prescience = s.atreides.battle.prescience_answered = s.atreides.battle.prescience_value = 0;
  s.bene_gesserit.battle.voice = s.bene_gesserit.battle.voice_must = 0;
  s.atreides.battle.tanks = s.harkonnen.battle.captive = 0;
}

}  // namespace mentat::rules
