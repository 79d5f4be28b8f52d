// Internal interface between the engine dispatcher (core/engine.cpp) and the
// rules, one file per phase (core/rules/<phase>.cpp) plus shared helpers
// (core/rules/common.cpp). Not a public header: only core/ includes it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/engine.h"
#include "core/notes.h"

namespace mentat::rules {

// Mutable context of one apply(): the state and where random outcomes go.
struct Ctx {
  GameState& s;
  DrawLog* draws;
  ApplyNotes* notes = nullptr;  // reports only (engine.h); never read by the rules

  uint32_t rand_below(uint32_t bound, DrawKind kind);
  void record(DrawKind kind, uint16_t value) {
    if (draws) draws->push_back({kind, value});
  }
};

inline std::optional<Rejection> reject(RejectCode c, std::string reason) {
  return Rejection{c, std::move(reason)};
}

// One phase's rules. `validate` only sees actions addressed to the phase
// (bribes and deals are handled by core/rules/deals.cpp in every phase).
struct PhaseRules {
  void (*enter)(Ctx&);  // the phase begins: automatic steps, set `waiting`
  std::optional<Rejection> (*validate)(const GameState&, Seat, const Action&);
  void (*apply)(Ctx&, Seat, const Action&);
  void (*decisions)(const GameState&, Seat, std::vector<Decision>&);
  void (*legal)(const GameState&, Seat, std::vector<Action>&);
  // 1.00.05: the faction ability the phase is waiting on as a step of its
  // own (Prescience, the Voice, the Guild's timing, ...), named with its rule
  // number, or nullptr. While one is in use, bribes, deals and the other
  // any-time actions wait (core/rules/deals.cpp). Null: the phase has none.
  const char* (*ability_in_use)(const GameState&) = nullptr;
};

const PhaseRules& setup_rules();
const PhaseRules& storm_rules();
const PhaseRules& spice_blow_rules();
const PhaseRules& nexus_rules();
const PhaseRules& charity_rules();
const PhaseRules& bidding_rules();
const PhaseRules& revival_rules();
const PhaseRules& shipment_movement_rules();
const PhaseRules& battle_rules();
const PhaseRules& collection_rules();
const PhaseRules& mentat_pause_rules();
const PhaseRules& phase_rules(Phase p);

// Ends the current phase and enters `next` (which may itself end at once):
// first a faction's end-of-phase window when one opens
// (FactionRules::phase_ends; `next` is entered when it closes), otherwise
// begin_phase at once.
void enter_phase(Ctx& c, Phase next);
// Enters `next` now: phase and step set, waiting cleared, its `enter` run.
void begin_phase(Ctx& c, Phase next);

// Actions valid in any phase after setup (1.12 deals and bribes).
std::optional<Rejection> validate_anytime(const GameState& s, Seat seat, const Action& a);
void apply_anytime(Ctx& c, Seat seat, const Action& a);
bool is_anytime(ActionKind k);
// 1.00.05: the faction ability the game waits on as a phase step of its own
// (PhaseRules::ability_in_use), or nullptr. Deals, bribes, gifts and card
// plays other than a Karama (3.01.11, which may cancel that very use) wait.
const char* ability_step(const GameState& s);
// GiveSpice / AllyPermission choices (any seat; legal actions only for a seat waited for).
void anytime_decisions(const GameState& s, Seat seat, std::vector<Decision>& out);
void anytime_legal(const GameState& s, Seat seat, std::vector<Action>& out);

// ---- treachery cards outside battle, Karama, response windows (core/rules/cards.cpp) ----

// Faction abilities marked ✷ that a Karama may cancel as they are used
// (3.01.11.01: Window::subject) or prevent before their use (3.01.11.02:
// GameState::prevented, bit = value). The values are stable ids (state
// encoding), numbered here as Faction numbers the factions; each faction's
// file declares its own rows, rule and action (FactionRules::abilities,
// core/factions/<faction>.cpp), which ability_info() finds.
enum class Ability : uint8_t {
  None = 0,
  GuildHalfPrice = 1,      // 2.06.06 / 2.06.09: Ship at half price
  GuildCrossShip = 2,      // 2.06.05.02 / 2.06.10: Ship with `from`
  GuildOffPlanet = 3,      // 2.06.05.03: Ship back to reserves
  FremenMovement = 4,      // 2.04.06: Move two territories
  BgSpiritualAdvisor = 5,  // 2.02.05 / 2.02.11: SendSpiritualAdvisor
  BgVoice = 6,             // 2.02.06 / 2.02.07: Voice
  AtreidesPrescience = 7,  // 2.01.08 / 2.01.09: Prescience
  FremenStormMigration = 8,  // 2.04.17: Ship (send) into the storm
  BgIntrusion = 9,         // 2.02.15: Flip at the intrusion step
  BgWartime = 10,          // 2.02.17: Flip at the wartime step
  FremenWormPlacement = 11,  // 2.04.15: WormRide placing a worm
  HarkonnenCapture = 12,   // 2.05.10.01: Respond kill or capture
  KwisatzHaderach = 13,    // 2.01.11: BattlePlan.kwisatz_haderach
  // Automatic abilities (no action of their own): prevented only (3.01.11.02),
  // consumed at the next occurrence where the ability changes the outcome.
  AtreidesBidding = 14,    // 2.01.05: the next card up for bid is not seen (bidding.cpp)
  AtreidesWormsign = 15,   // 2.01.07: no look at the next Shipment and Movement (shipment_movement.cpp)
  BgCharity = 16,          // 2.02.09: the next CHOAM Charity follows 1.03 (charity.cpp)
  EmperorPayment = 17,     // 2.03.04: the next card payment goes to the bank (bidding.cpp)
  HarkonnenTopCard = 18,   // 2.05.08: no free card with the next purchase (bidding.cpp)
  GuildPayment = 19,       // 2.06.04: the next shipment payment goes to the bank (shipment_movement.cpp)
  FremenShaiHulud = 20,    // 2.04.07: the next worm finding Fremen forces devours them (spice_blow.cpp)
  FremenStormLosses = 21,  // 2.04.16: the next storm catching Fremen forces destroys them all (storm.cpp)
  FremenAllyProtection = 22,  // 2.04.10: the next worm finding the ally's forces devours them (spice_blow.cpp)
  FremenAllyRevival = 23,  // 2.04.11: the ally's next revival with forces in the tanks is the normal one (revival.cpp)
  EmperorAllyRevival = 24, // 2.03.07: the ally's next revival answer has no 3 extra forces (revival.cpp)
  EmperorSardaukar = 25,   // 2.03.08: Sardaukar count as one in the next battle with them (battle.cpp)
  FremenFedaykin = 26,     // 2.04.18: Fedaykin count as one in the next battle with them (battle.cpp)
  FremenBattleHardened = 27,  // 2.04.21: the Fremen's next battle needs spice (battle.cpp)
  FremenStormCard = 28,    // 2.04.14: the next storm card is not seen (storm.cpp, inspect/view.cpp)
  BgTakeUpArms = 29,       // 2.02.16: Move.flip (shipment_movement.cpp)
  GuildTiming = 30,        // 2.06.12: the next GuildTiming decision is not offered (shipment_movement.cpp)
  // CHOAM (CHOAM & Richese, core/factions/choam.cpp; docs/factions/choam.md).
  ChoamCharity = 31,       // CHOAM Charity: the next Charity phase CHOAM collects nothing, the bank pays the claims
  ChoamInflation = 32,     // the Inflation token: not offered at the next Mentat Pause
  ChoamDiscarding = 33,    // selling cards (ChoamSell): no sale for the rest of the turn
  ChoamRevival = 34,       // revival at 1 spice a force without a limit: the next revival follows 1.05.01
  ChoamBattleIncome = 35,  // advanced: half the spice others pay in battle: not taken from the next such payment
  ChoamAudit = 36,         // advanced: the Auditor's look after a battle: not taken after the next battle it fights
  // Richese (CHOAM & Richese, core/factions/richese.cpp; docs/factions/richese.md).
  RicheseCache = 37,       // the cache lot: no cache card is sold in the next Bidding phase (all its cards are dealt)
  RicheseBlackMarket = 38, // advanced: no Black Market in the next Bidding phase
  RicheseGift = 39,        // alliance: a Richese card to the ally (RicheseGift; cancelled as it is given, or prevented)
  RicheseNoField = 40,     // shipping with a No-Field token (Ship.no_field; cancelled as it is used, or prevented)
  // CHOAM's alliance abilities (the GF9 FAQ counts alliance abilities among those a Karama cancels).
  ChoamTrade = 41,         // alliance: the card trade (ChoamTrade; cancelled as CHOAM offers, or prevented until the Mentat Pause)
  ChoamAllySupport = 42,   // alliance: paying for the ally's battle spice (ChoamSupport; cancelled as set, or prevented until the Mentat Pause)
};
inline constexpr int kNumAbilities = 43;
static_assert(kNumAbilities <= 64, "GameState::prevented and prevented_hi hold one bit per ability");
// 3.01.11.02: is ability `ab` of faction f prevented (GameState::prevented, prevented_hi)?
inline bool prevented_bit(const GameState& s, int f, int ab) {
  return ab < 32 ? ((s.prevented[f] >> ab) & 1u) != 0 : ((s.prevented_hi[f] >> (ab - 32)) & 1u) != 0;
}
inline void set_prevented_bit(GameState& s, int f, int ab, bool on) {
  uint32_t& word = ab < 32 ? s.prevented[f] : s.prevented_hi[f];
  const uint32_t m = 1u << (ab & 31);
  word = on ? (word | m) : (word & ~m);
}
// The faction that owns an ability, its rule numbers and the action it changes.
struct AbilityInfo {
  Ability id;
  Faction faction;
  const char* rule;
  const char* name;
  ActionKind action;
};
// The row of `a` from its faction's FactionRules::abilities (core/factions/table.cpp);
// null for None / unknown. Thread-safe (built once, then read only).
const AbilityInfo* ability_info(Ability a);
// 3.01.22 Truthtrance questions (PlayCard value >> 4; the asked faction is value & 15).
enum class Question : uint8_t {
  FreeForm = 0,          // any yes/no question: the asked seat answers (Respond accept = yes)
  HoldsCard = 1,         // "do you hold a <TreacheryKind target>?"
  IsTraitor = 2,         // "is <leader target> one of your traitors?"
  SpiceAtLeast = 3,      // "do you hold at least <target> spice behind your shield?"
  PredictedFaction = 4,  // Bene Gesserit: "did you predict <faction target>?"
  PredictedTurn = 5,     // Bene Gesserit: "did you predict turn <target>?"
};
inline constexpr int kNumQuestions = 6;
// Karama PlayCard value: this bit buys the turn's shipment at Guild rates
// (3.01.11.03); kKaramaPrevent | ability (target = its faction) prevents its
// next use (3.01.11.02); otherwise the faction's once-a-game power (1.14).
inline constexpr uint8_t kKaramaGuildRates = 0x80;
inline constexpr uint8_t kKaramaPrevent = 0x40;
// 1.14.03 Fremen Karama sandworm: value bit 0 = protect the ally's forces (2.04.10).
inline constexpr uint8_t kKaramaProtectAlly = 0x01;
// PlayCard goes here, and so does every action while a response window is open.
bool is_card_action(const GameState& s, const Action& a);
std::optional<Rejection> validate_card(const GameState& s, Seat seat, const Action& a);
void apply_card(Ctx& c, Seat seat, const Action& a);
bool window_open(const GameState& s);
// Why `card` of `seat`'s hand may not be played or given now (part of its
// battle plan, a lot it offers, a Karama high bid's), if it may not.
std::optional<std::string> card_committed(const GameState& s, Seat seat, uint8_t card);
std::string window_description(const GameState& s);  // the innermost open window, for views
// The cards `seat` may play now (any seat, waited for or not) and the
// decisions of an open window (the phase's own are then suspended).
void card_decisions(const GameState& s, Seat seat, std::vector<Decision>& out);
void card_legal(const GameState& s, Seat seat, std::vector<Action>& out);
// 3.01.11.01: `owner` is about to use `ability` by `pending`. True when a
// KaramaCancel window opened: the caller stops, and `pending` is replayed
// through the phase's apply when the window closes without a Karama.
bool karama_window(Ctx& c, Seat owner, Ability ability, const Action& pending);
// 1.00.04: the faction's ability was cancelled (3.01.11.01), or a Karama
// prevents its next use (3.01.11.02): the action goes without it.
bool ability_cancelled(const GameState& s, Faction f, Ability ability);
// A sentence saying why the ability cannot be used now, if it cannot.
std::optional<std::string> ability_blocked(const GameState& s, Faction f, Ability ability);
// 3.01.11.02: the use opportunity of a prevented ability was consumed.
void consume_prevention(GameState& s, Faction f, Ability ability);
// Ruling karama_automatic_use = next_occasion: a prevented automatic ability
// is used up at its next occasion even where it would change nothing
// (changes_outcome: only where it would change the outcome).
bool prevention_at_next_occasion(const GameState& s);
// 3.01.11.02 (battle.cpp): a prevention of `target`'s ability was just played;
// under karama_battle_prevention = current_battle it may apply to the battle
// being fought (2.03.08, 2.04.18, 2.04.21).
void battle_prevention_played(GameState& s, Faction target);
// Could faction f hold a Karama, by public information only (hand size,
// the discard pile)? Used to ask without revealing hands.
bool may_hold_karama(const GameState& s, Faction f);
// 1.14 once-a-game power still available to f (advanced game, not used),
// and f could hold a Karama by public information.
bool karama_power_possible(const GameState& s, Faction f);
// Ruling karama_windows = all_other_seats.
bool karama_windows_ask(const GameState& s);

// 1.14.05 (core/factions/guild.cpp): the Guild's Karama cancels the shipment
// recorded in ShipMoveState::last_*; forces back to reserves, spice refunded.
std::optional<Rejection> check_guild_cancel(const GameState& s, Faction target);
void guild_cancel_shipment(Ctx& c);
// 1.02 Spice Blow (spice_blow.cpp), for the factions' blow hooks
// (core/factions/faction_rules.h): `answer` is the answer to a worm_appears
// question, handed to every worm_spares.
// 1.02.05: the worm devours territory t (`placed`: a faction placed it).
void spice_blow_devour(GameState& s, TerritoryId t, bool answer, bool placed);
// A worm appears in t: false when a faction is asked first (worm_appears).
bool spice_blow_worm_appears(Ctx& c, TerritoryId t, bool placed);
// The revealed worm appears where the cards say: false when a faction is asked.
bool spice_blow_worm_from_pile(Ctx& c);
// The blow goes on (reveals until every pile has its territory card, or a
// decision is due, then ends the phase).
void spice_blow_run(Ctx& c);
// Where the revealed worm appears when nobody places it (a decision's text).
std::string spice_blow_worm_place(const GameState& s);
// The same territory's id; kNone8 where the worm appears nowhere.
uint8_t spice_blow_worm_territory(const GameState& s);
// A worm a faction's power placed in t (1.14.03): devours; in the Spice Blow
// it causes a Nexus (1.02.06) and the blow goes on.
void spice_blow_worm_placed(Ctx& c, TerritoryId t, bool answer);
// 3.01.11.03: the faction's shipment this turn is at Guild rates, paid to the bank.
bool karama_shipment(const GameState& s, Faction f);
// 3.01.09 Hajr: true (and consumed) when the current seat has a movement left.
bool take_hajr_move(GameState& s);
// A seat's Shipment and Movement turn begins: per-turn card effects end.
void card_turn_begins(GameState& s);

// ---- shared helpers (core/rules/common.cpp) ----

inline uint8_t bit(Seat s) { return static_cast<uint8_t>(1u << s); }
inline bool has_bit(uint8_t mask, Seat s) { return (mask >> s) & 1u; }
int popcount8(uint8_t m);

// Player marker positions: seat i sits at circle floor(6i/N), sector 3*circle.
int marker_sector(const GameState& s, Seat seat);

// Draws the top treachery card, reshuffling the discard pile into the deck
// when the deck is empty (0.06). Returns kNone8 when no card is left at all.
uint8_t draw_treachery(Ctx& c);
// Shuffles a pile with the game's Rng, recording the resulting order.
template <int N>
void shuffle_pile(Ctx& c, Pile<N>& p, DrawKind kind) {
  c.s.rng.shuffle(std::span<uint8_t>(p.ids, p.n));
  for (int i = 0; i < p.n; ++i) c.record(kind, p.ids[i]);
}

// ---- where forces are, and the one door through which they move ----------------
//
// Every change of where a faction's forces are goes through move_forces or
// flip_forces (or forces_to_tanks, which calls move_forces): each raises the
// game event ForcesMoved / ForcesFlipped (core/rules/owners.h) after the
// counts changed, so that an owner reacting to forces arriving in or leaving
// a territory, going to the tanks or back to reserves hears every path. A
// test keeps the ledger of these events over whole games and checks it
// against the state after every action (tests/test_owners.cpp "force
// events").
enum class ForceZone : uint8_t {
  Board = 0,        // a location of the board (ForcePlace::loc)
  Reserves = 1,     // off-planet (1.02.04)
  Tanks = 2,        // the Tleilaxu Tanks (1.02.05)
  Supply = 3,       // outside the game: forces before setup (0.13), tokens not placed (the No-Field markers)
};
struct ForcePlace {
  ForceZone zone = ForceZone::Reserves;
  LocationId loc = 0;  // Board only
  bool on_board() const { return zone == ForceZone::Board; }
};
inline ForcePlace at(LocationId l) { return {ForceZone::Board, l}; }
inline ForcePlace reserves_zone() { return {ForceZone::Reserves, 0}; }
inline ForcePlace tanks_zone() { return {ForceZone::Tanks, 0}; }
inline ForcePlace supply() { return {ForceZone::Supply, 0}; }

// Why forces moved: what an owner reading the event may tell apart.
enum class ForceCause : uint8_t {
  Setup = 0,         // placed at the start (1.01.05)
  Shipment = 1,      // shipped from reserves (1.06.03), sent (2.04.17) or cross-shipped (2.06.05.01)
  OffPlanet = 2,     // shipped back to reserves (2.06.05.02)
  Movement = 3,      // an ordinary move (1.06.05), the Ornithopter's, a ride (2.04.13)
  Revival = 4,       // from the tanks (1.05), to reserves or the board
  Destroyed = 5,     // to the tanks: battle, storm, worm, a card, an ability
  Returned = 6,      // back to reserves by a rule (a cancelled shipment 1.14.05, a loss that saves forces)
  Ability = 7,       // placed or taken by a faction's, skill's or card's own rule (2.02.06 spiritual advisors, a retreat)
  Token = 8,         // a token that stands for forces placed (Supply to Board), returned (Board to Supply), or
                     // revealed: the forces it becomes arrive from reserves (the No-Field, 2.09.x)
  Card = 9,          // a card sent them (Trip to Gamont)
};
// How moved forces arrive: as they were, or all as one kind (Bene Gesserit
// advisors becoming fighters or the reverse, 2.02.16; advisors in the tanks,
// 2.02.12).
enum class ArriveAs : uint8_t { Same = 0, Regular = 1, Special = 2 };

// Moves `regular` + `special` forces of `f` from one place to another.
// Precondition (the caller's validation): the source holds them. A zone
// without counts in the state (Supply) is neither debited nor credited.
void move_forces(GameState& s, Faction f, ForcePlace from, ForcePlace to, int regular, int special, ForceCause cause,
                 ArriveAs as = ArriveAs::Same);
// Turns `n` forces of `f` at `loc` from one kind into the other (kind 0
// regular, 1 special): Bene Gesserit advisors and fighters (2.02.16-.18).
void flip_forces(GameState& s, Faction f, LocationId loc, int from_kind, int n);
// A leader to the tanks, face down when `face_down` (1.05.04, 2.05.10.02),
// back in its owner's custody (2.05.12); raises LeaderDied. Every death of a
// leader of the leader table goes through here (not the Kwisatz Haderach's).
void leader_to_tanks(GameState& s, LeaderId id, bool face_down);
// A leader from the tanks to `by`'s leader pool; raises LeaderRevived.
void leader_revived(GameState& s, LeaderId id, Faction by);

// Forces from a board location to the tanks (cause Destroyed), the
// faction's token among them revealed first (hook force_token.destroyed).
void forces_to_tanks(GameState& s, Faction f, LocationId loc, int regular, int special);
// Storm helpers.
bool path_blocked_by_storm(const GameState& s, LocationId loc);
int hand_limit(const GameState& s, Faction f);
bool hand_full(const GameState& s, Faction f);
// Every treachery card goes to the discard pile through here: on top of the
// pile, discarded by `by` (kNoFaction-valued: nobody's), recorded for the
// Semuta Drug in games with the CHOAM & Richese module (core/cards/semuta_drug.cpp).
void to_treachery_discard(GameState& s, uint8_t card, Faction by);
// Factions other than `f` with forces (fighters; BG advisors excluded in the
// advanced game) in territory t.
int other_factions_in(const GameState& s, Faction f, TerritoryId t);
bool occupies(const GameState& s, Faction f, TerritoryId t);  // fighters present
// Factions other than `f` counted for the stronghold occupancy limit in t
// (1.06.03.05, 1.06.05.09): other_factions_in, plus the advanced Bene
// Gesserit's advisors under ruling advisor_occupancy=limit_applies.
int occupancy_others(const GameState& s, Faction f, TerritoryId t);
// 2.01.05: may faction `f` look at the treachery card up for bid? (defined in bidding.cpp)
bool can_see_card_up_for_bid(const GameState& s, Faction f);
// ---- 1.04 bidding (bidding.cpp), for a faction's own lots (FactionRules::BiddingStep) ----
// The card up for bid now (a dealt card or a faction's lot), kNone8 when none.
uint8_t current_lot_card(const GameState& s);
// `card` in `seat`'s hand is promised to a faction's lot up for bid (the
// Richese Black Market: hook BiddingStep::promised); it may not be played,
// given or traded until the auction ends.
bool lot_promises(const GameState& s, Seat seat, uint8_t card);
// A faction in the game sells lots of its own (its cards can reach hands:
// the Richese cache).
bool lots_sold(const GameState& s);
// The faction's opening step is over: deal the round's cards and go on.
void bidding_deal(Ctx& c);
// A faction's lot is over: the dealt cards go on (or the phase ends).
void bidding_lot_done(Ctx& c);
// 1.04.06.04 + 1.10.02.05: the most faction f may bid (its spice and its ally's support).
int bid_limit(const GameState& s, Faction f);
// Why f may not spend `amount` spice now (a Nullentropy Box's fee, the
// special Karama purchase): a standing bid of f, or of the ally f backs
// (1.10.02.05), a high bid or a sealed silent bid, would then exceed what its
// bidder may pay. std::nullopt: no bid is broken.
std::optional<std::string> spending_breaks_bid(const GameState& s, Faction f, int amount);
// A lot of `seller`'s bought by `buyer` for `amount`: paid to the seller; the
// seller's own purchase (buyer == seller) as 1.04.06.03 / 2.03.04.
void pay_for_lot(GameState& s, Faction buyer, int amount, Faction seller);
// 1.07.05: are the current battle's plans face up? (defined in battle.cpp)
bool battle_plans_revealed(const GameState& s);
// This phase's turn order (seat list): storm order from the first player
// (1.01.01), with a Juice of Sapho's seat moved first or last while its
// choice is in effect (core/cards/juice_of_sapho.cpp). Every phase's turn
// order asks this; the storm's dialers ask storm_order_only.
std::vector<Seat> order_from_first(const GameState& s);
// Storm order from the first player, without any Juice of Sapho.
std::vector<Seat> storm_order_only(const GameState& s);

// ---- the Juice of Sapho (core/cards/juice_of_sapho.cpp) ----
inline constexpr uint8_t kJuiceAggressor = 1, kJuiceFirst = 2, kJuiceLast = 3;  // PlayCard.value, GameState::juice.mode
// The seat whose Juice of Sapho choice `mode` is in effect now (the aggressor
// choice: in the battle being fought), or kNoSeat.
Seat juice_seat(const GameState& s, uint8_t mode);
// The side (0 aggressor, 1 defender) that wins a tie of the battle being fought (1.07.06.01).
// In the Battle phase before its first battle: could a Juice of Sapho still
// be played to go first (the card may be held by public facts, none played
// this phase)? battle.cpp then lets the first aggressor confirm even a single
// battle, so that the moment exists (core/cards/juice_of_sapho.cpp).
bool juice_may_go_first(const GameState& s);
int juice_tie_side(const GameState& s);
// The turn order of the Battle phase changed (defined in battle.cpp): with
// `from_start` (go_first, before the phase's first battle) the aggressors are
// taken again from the first; without (go_last by the seat choosing its
// battle) from the same place in the new order.
void battle_order_changed(Ctx& c, bool from_start);

}  // namespace mentat::rules
