// Bots: computer players in four strengths (easy, medium, hard, brutal).
//
// Contract:
//  * A bot sees BY CONSTRUCTION only what its seat may know. Its input
//    (ViewInput) is built by make_input() from two things: the seat's View
//    FlatBuffer (inspect::build_view(state, Viewer::of(seat)), the same bytes
//    a human player's client receives) and the seat's legal actions
//    (legal_actions(state, seat)). The legal actions are computed from the
//    full state, but they are the seat's own options only (its cards, its
//    forces, its spice): nothing a seat could not work out from its own view
//    and the rules. A Bot never receives the GameState.
//  * choose() returns one of in.legal, or, for the two decisions whose legal
//    actions carry only a few sample amounts (GiveSpice 2.03.06,
//    AllyPermission 1.10.02.05/06), one of them with its amounts changed
//    within the range the seat's decision states, or a Bribe (1.12, which
//    legal_actions never lists) to one of its Bribe decision's factions
//    with an amount in that decision's range (is_valid_choice). So a bot's
//    action is never rejected. in.legal must not be empty.
//  * Deterministic: the choice is a pure function of the view bytes, the
//    legal actions and the bot's seed (the project's Rng, seeded from the
//    seed, the view's version and the seat; no std:: distributions, no
//    clock, no state kept between calls). Two bots of the same profile and
//    seed choose the same action for the same input on every machine.
//  * Thread-safe: distinct Bot objects may be used from distinct threads; a
//    Bot object holds no mutable state, so sharing one is safe too.
//  * Every profile answers every decision kind a base faction can be asked
//    (basic and advanced rules) with its own policy (docs/BOTS.md, the
//    decision/policy table). A kind this build does not know (an action
//    added later) falls back to a safe legal action: Pass where legal, else
//    the first legal action that is not a card play.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.h"

namespace mentat::fb {
struct View;
}

namespace mentat::bots {

enum class Profile : uint8_t {
  Easy = 0,    // a uniformly random legal action
  Medium = 1,  // simple heuristics: modest bids, ships toward strongholds and spice, keeps reserves
  Hard = 2,    // medium + shipments/movements by a one-ply board evaluation, battle plans weighed
               // against the opponent, stronghold preference, traitors, storm dials
  Brutal = 3,  // hard + lookahead: threats to its strongholds next turn, battle plans by their
               // expected outcome over the opponent's possible plans
};
inline constexpr int kNumProfiles = 4;
std::string_view profile_name(Profile p);           // "easy", "medium", "hard", "brutal"
bool parse_profile(std::string_view text, Profile* out);

// Everything a bot may use: one seat's view and its legal actions.
struct ViewInput {
  Seat seat = kNoSeat;
  std::string view_bytes;    // a View FlatBuffer (events/view.fbs) built for `seat`
  std::vector<Action> legal; // legal_actions(state, seat), in the engine's order
  const fb::View* view() const;  // the verified root of view_bytes (null if they are not a View)
  // Set by make_input(): view_bytes were built by inspect::build_view in this
  // process, so view() trusts them without running the FlatBuffers verifier
  // while view_bytes still holds that buffer (same data pointer and size; a
  // copy of the input has its own buffer and is verified). Code that edits
  // view_bytes in place after make_input() must reset `trusted` to null.
  const char* trusted = nullptr;
  size_t trusted_size = 0;
};

// The only place where a bot's input touches the state (see the contract).
ViewInput make_input(const GameState& s, Seat seat);

class Bot {
 public:
  virtual ~Bot() = default;
  virtual Action choose(const ViewInput& in) const = 0;
  virtual Profile profile() const = 0;
};

std::unique_ptr<Bot> make_bot(Profile p, uint64_t seed);

// What choose() may return for `in` (see the contract): a legal action, a
// GiveSpice / AllyPermission legal action with amounts within its decision's
// range (bids only where a legal AllyPermission offers them), or a Bribe
// within the Bribe decision (a listed faction, an amount in range, a note
// of at most 200 bytes). Pure.
bool is_valid_choice(const ViewInput& in, const Action& a);

}  // namespace mentat::bots
