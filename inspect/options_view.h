// Internal to inspect/: the DecisionView table of one decision, with its
// labelled choices (inspect/options.h), for view.cpp and options.cpp.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include "core/engine.h"
#include "events/view_generated.h"

namespace mentat::inspect {

flatbuffers::Offset<fb::DecisionView> build_decision_view(flatbuffers::FlatBufferBuilder& b, const GameState& s, Seat seat,
                                                          const Decision& d);

}  // namespace mentat::inspect
