// Views: what one seat may know of a position.
//
// Contract: pure functions; thread-safe. A seat's view holds the public board
// and counts plus that seat's own hidden information (hand, traitors,
// prediction, spice behind the shield, its secret storm dial, and what its
// faction is allowed to look at); an observer's view holds only public
// information; the "state" view holds everything (for adjudicators and
// debugging, never sent to a seat). Nothing hidden leaks through ids, order
// or counts: others' hands appear only as counts, decks only as counts.
#pragma once

#include <string>

#include "core/state.h"

namespace mentat::inspect {

struct Viewer {
  enum Kind { State, Observer, SeatView } kind = State;
  Seat seat = kNoSeat;
  static Viewer state() { return {State, kNoSeat}; }
  static Viewer observer() { return {Observer, kNoSeat}; }
  static Viewer of(Seat s) { return {SeatView, s}; }
};

// A View FlatBuffer (events/view.fbs).
std::string build_view(const GameState& s, Viewer who);
// The same as strict JSON (through flatbuffers' text generator).
std::string view_json(const GameState& s, Viewer who);

}  // namespace mentat::inspect
