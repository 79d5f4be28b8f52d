// Internal to inspect/: comparing two views as bytes without copying them
// (the projection check's default, inspect/projection.h).
#pragma once

#include "core/state.h"
#include "inspect/view.h"

namespace mentat::inspect {

// build_view(a, who) == build_view(b, who). Thread-safe (per-thread buffers).
bool same_view(const GameState& a, const GameState& b, Viewer who);

}  // namespace mentat::inspect
