// Projection invariance: a seat's view must not change when the information
// hidden from that seat is permuted (other seats' hands, traitors, spice
// behind their shields, predictions, dials, deck orders, the storm card):
// every field core/state_fields.inc declares hidden from some viewer
// (field_sights::kAll), each by its own permutation (projection.cpp, which
// does not compile while a declared hidden field has none).
//
// Contract: pure; thread-safe. check_projection() builds a permuted copy of
// the state for `viewer` and compares the two views produced by `view`:
// by default the View FlatBuffers' bytes (build_view), which are equal
// exactly when the views' contents are (the builder is deterministic), and
// thirty times cheaper to make than their JSON.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/state.h"
#include "inspect/view.h"

namespace mentat::inspect {

using ViewFn = std::function<std::string(const GameState&, Viewer)>;

// A copy of `s` in which everything `viewer` may not know is changed: each
// hidden field's permutation, in projection.cpp's order.
GameState permute_hidden(const GameState& s, Viewer viewer);
// nullopt when the view is the same; otherwise a sentence naming the viewer.
std::optional<std::string> check_projection(const GameState& s, Viewer viewer, const ViewFn& view = build_view);

}  // namespace mentat::inspect
