// The origins and destinations of a seat's movements, for the labelled Move
// origins of inspect/options.h (defined in core/rules/shipment_movement.cpp).
//
// Contract: pure; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "core/state.h"

namespace mentat::rules {

// Every origin << 8 | destination of a single-origin movement that
// legal_actions(s, seat) lists (its whole group or one force of it), in no
// particular order; nothing outside the movement step.
void move_reach(const GameState& s, Seat seat, std::vector<uint16_t>& out);

}  // namespace mentat::rules
