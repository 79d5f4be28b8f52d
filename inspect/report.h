// Human-readable one-line summaries of events (mentat log, mentat replay).
//
// Contract: pure; thread-safe. `before` is the state the event was applied
// to (null for version 0), `after` the state it produced. The summary names
// only what is public unless `show_hidden` is set (adjudicator output). It
// holds no control characters: free text goes through codec::printable.
#pragma once

#include <string>

#include "core/state.h"
#include "events/codec.h"

namespace mentat::inspect {

std::string summarize_event(const codec::Event& e, const GameState* before, const GameState& after, bool show_hidden);

}  // namespace mentat::inspect
