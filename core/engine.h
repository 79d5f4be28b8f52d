// The Mentat engine: one game API over GameState.
//
//   create  GameSetup -> GameState           (version 0, the creation event)
//   validate(state, seat, action)            is this legal now? typed rejection
//   apply(state, seat, action, draws)        fold one ACCEPTED action: total
//   decisions(state, seat)                   what may this seat do now
//   legal_actions(state, seat)               concrete legal actions (for bots/tests)
//
// Contract:
//  * validate never changes anything; apply never validates. Calling apply
//    with an action validate rejected is a programming error (the state is
//    then unspecified), so every caller validates first (store/room.cpp).
//  * Engine-driven steps that follow an action (moving the storm once both
//    dials are in, the spice blow, phase changes) run inside apply; each
//    random outcome they draw from the state's Rng is appended to `draws`
//    (which may be null when folding stored events).
//  * Everything here is a pure function of its arguments: the same state and
//    action give the same result on every machine. Thread-safe for distinct
//    states.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/action.h"
#include "core/data/modules.h"
#include "core/state.h"

namespace mentat {

inline constexpr uint32_t kEngineVersion = 1;
// The rules version recorded in every event. 2: Karama powers, ally payments,
// KeepCards, ... 3: ability steps hold deals, bribes, gifts and card plays
// (1.00.05; games of version 2 replay with ruling ability_step_deals=open).
// 4: CHOAM sells its cards at the end of a phase (the reference's timing;
// games of version 3 that name no value replay with choam_sell_timing=any_time).
// 5: the Atreides' Wormsign in the basic game too (2.01.00; games of version 4
// that name no value replay with wormsign_basic=advanced_only).
// 6: the Karama window before the Fremen's movement counts the Planetologist's
// +1 (movement_ability_window=beyond_one before), the marker revealed by a
// No-Field shipment stays face up (no_field_shipped_reveal=returned_unseen
// before), Kulon's default follows the seeds (kulon_ornithopter=plus_one
// before).
// 7: the winner's losses worth the least over its dial (winner_losses=
// regulars_first before), a Karama prevention of a battle ability in the
// battle being fought (karama_battle_prevention=next_battle before), who pays
// first when an ally backs a bid named (ally_bid_payer, buyer_first as before),
// the founding documents' defaults for no_field_ally_permission (not_needed
// before) and ornithopter_advisors (two_groups_only before).
// A behaviour change bumps it and names the old behaviour as a ruling with
// RulingInfo::since_rules / legacy_value (core/rulings.h).
inline constexpr uint32_t kRulesVersion = 7;
// The canonical state encoding's format (events/state_codec.cpp), recorded in
// every creation event (CreateGame.state_format; absent = 2, the format before
// it was recorded). 3: twelve factions (16-bit faction sets, 62 leaders,
// 60-card treachery piles), game modules.
// 4: rulings encoded as those that differ from their defaults.
inline constexpr uint32_t kStateFormat = 4;

// Game creation parameters (the CreateGame action).
inline constexpr int kMaxGameTurns = 20;  // GameSetup::max_turns is 1..kMaxGameTurns

struct GameSetup {
  uint64_t seed = 0;
  std::vector<Faction> factions;  // seat order
  bool advanced = false;
  uint8_t max_turns = 10;
  Rulings rulings = Rulings::defaults();
  std::string name;
  data::ModuleSet modules = 0;          // the game's modules (core/data/modules.h)
  // The canonical state format of the game's recorded hashes (events decoded
  // from stores older than format 3 read 2). Not a rule: nothing in the
  // engine reads it; verify and migrate do (replay/fold.h).
  uint32_t state_format = kStateFormat;
  // A game started from a described position (mentat new --position,
  // events/position.h). Null: the setup of rule 0. Its creation fields
  // (seed, seats, advanced, max_turns, rulings, modules) equal the ones
  // above. With `resume` false, `start` is the table as `start->phase` of
  // `start->turn` begins, before that phase's opening steps (create_game
  // runs them); with `resume` true it is a state inside its phase (step,
  // waiting and the phase's scratch as given: `mentat show --position` of a
  // stored version), taken as it is. With shuffle_decks, create_game first
  // shuffles the treachery, spice and traitor decks (and an advanced Fremen
  // storm deck) of the position with its random stream.
  std::shared_ptr<const GameState> start;
  bool resume = false;
  bool shuffle_decks = false;
};

enum class RejectCode : uint8_t {
  Malformed,        // impossible values (unknown location, zero forces, ...)
  NotYourDecision,  // this seat is not being asked anything of this kind now
  WrongPhase,       // the action does not belong to the current phase/step
  IllegalChoice,    // the rules forbid this choice
  NotEnoughSpice,
  Storm,            // obstructed by the storm
  Occupancy,        // stronghold occupancy limit
  GameOver,
};
std::string_view reject_code_name(RejectCode c);

struct Rejection {
  RejectCode code;
  std::string reason;  // one human-readable sentence
};

// A random outcome drawn while applying (recorded in the event).
struct DrawRecord {
  DrawKind kind;
  uint16_t value;
  friend bool operator==(const DrawRecord&, const DrawRecord&) = default;
};
using DrawLog = std::vector<DrawRecord>;

// What a decision is about, beyond its action kind, where a program must tell
// two decisions of one kind apart. Programs (the bots, the web client, tools)
// read this and the other typed fields of Decision; `prompt` is a sentence
// for a player, and no code outside inspect/ reads it. The view names each
// topic by topic_key() (stable: in views and `mentat actions --json`).
enum class Topic : uint8_t {
  None = 0,
  RicheseLot,         // the Richese cache lot (RicheseLot; the Pass after a Karama cancelled it)
  BlackMarket,        // the Richese Black Market lot (RicheseLot)
  LotNobodyBid,       // nobody bid on the Richese's lot: Respond accept keeps it free
  GuildKaramaCancel,  // 1.14.05 the Guild may cancel the shipment just made (Pass lets it stand)
  SkillDraw,          // Leader Skills: draw two skill cards for a leader revived without one (Respond)
  GrantAllyRevival,   // 2.04.11 a faction may grant its ally a free revival (Respond)
  ProtectAllyFromWorm,  // 2.04.10 the Fremen may protect their ally's forces from the sandworm (Respond)
  WormAppears,        // 2.04.15 the additional sandworm appears where the spice deck puts it (Pass; `place`)
  HarkonnenCapture,   // 2.05.10 capture (accept) or kill a leader the battle won (Respond)
  PrescienceLeader,   // 2.01.08 the element Prescience asks: the leader
  PrescienceWeapon,   //   ... the weapon
  PrescienceDefense,  //   ... the defense
  PrescienceDial,     //   ... the number dialed
  Intrusion,          // 2.02.15 the Bene Gesserit may flip their fighters to advisors (Flip)
  HalfPriceShipment,  // the shipment is priced at half (2.06.06, 2.06.09; Ship)
};
inline constexpr int kNumTopics = static_cast<int>(Topic::HalfPriceShipment) + 1;
std::string_view topic_key(Topic t);  // "richese_lot", ...; "" for None
std::string_view window_kind_key(WindowKind w);  // "karama_cancel", "discard_search", ...; "" for None

// One decision a seat is being asked for, with its legal choices.
struct Decision {
  ActionKind kind;
  std::string prompt;            // "Bid on the card up for auction (1..7) or pass": for a player only
  int min = 0, max = 0;          // numeric range where one applies
  std::vector<uint16_t> options; // discrete choices (leader ids, locations, factions, ...)
  // Typed, for programs (see Topic):
  Topic topic = Topic::None;
  WindowKind window = WindowKind::None;  // the response window it answers (1.00.05), if any
  uint8_t owner = kNoFaction;            // the faction whose ability or window it is (windows: the window's owner)
  uint8_t ability = 0;                   // the rules::Ability at stake (a KaramaCancel window), 0: none
  int amount = -1;                       // a number it turns on (Revive: the free revivals), -1: none
  uint8_t place = kNone8;                // a territory it turns on (WormAppears: where the worm appears)
};

// Errors in GameSetup (bad faction list, duplicate factions, a faction or
// module whose rules this release does not implement, ...).
std::optional<std::string> check_setup(const GameSetup& setup);
// Creates the game (version 0). Precondition: check_setup passed (and, for a
// position, check_start: events/position.h validates the rest).
GameState create_game(const GameSetup& setup, DrawLog* draws);
// Where a described position may start (nullopt: it may). A phase start
// (`resume` false): a phase of a turn, Storm .. Mentat Pause (not the Setup,
// whose steps make the position, nor a Nexus, which opens inside the Spice
// Blow). A state inside its phase (`resume` true): any version before the
// game's end. Either way the turn is 1..max_turns (0 only in the Setup).
std::optional<std::string> check_start(const GameState& start, bool resume);

// Calls `fn` at each phase start applied on this thread while the watch
// lives (nested watches: the innermost), with the state as the phase begins:
// its `phase` is the phase entered, before the phase's opening steps (what a
// phase-start position describes). For tests and tools (tests/
// test_position.cpp); not thread-shared.
class PhaseStartWatch {
 public:
  explicit PhaseStartWatch(std::function<void(const GameState&)> fn);
  ~PhaseStartWatch();
  PhaseStartWatch(const PhaseStartWatch&) = delete;
  PhaseStartWatch& operator=(const PhaseStartWatch&) = delete;

 private:
  std::function<void(const GameState&)> fn_;
  PhaseStartWatch* outer_;
  friend void notify_phase_start(const GameState& s);
};
void notify_phase_start(const GameState& s);  // called by the engine only

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a);
void apply(GameState& s, Seat seat, const Action& a, DrawLog* draws);

// Seats from which the game waits for a decision (bit mask). Zero only when
// the game is over.
uint8_t waiting_for(const GameState& s);
std::vector<Decision> decisions(const GameState& s, Seat seat);
// Concrete legal actions for `seat`, every one accepted by validate. Complete
// for small choice spaces; for large ones (shipments, movements) a
// representative subset that always includes passing where passing is legal.
std::vector<Action> legal_actions(const GameState& s, Seat seat);

// Storm order: seats starting with the first player (1.01.01).
std::vector<Seat> storm_order(const GameState& s);
Seat first_player(const GameState& s);

}  // namespace mentat
