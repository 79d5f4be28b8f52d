// Internal to inspect/: the DecisionView table of one decision, with its
// labelled choices (inspect/options.h), for view.cpp and options.cpp.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include "core/engine.h"
#include "inspect/options.h"
#include "events/view_generated.h"

namespace mentat::inspect {

// Everything labelling a seat's decisions reads from the position besides
// the decisions themselves (label_choices is a function of the two).
struct LabelInputs {
  uint8_t prescience = 0;  // the element the Atreides asked for (PrescienceAnswer)
  uint8_t guild = 0;       // the seat is the Guild (its Ship lists origins on the board)
  uint8_t forces[data::kNumLocations][2] = {};  // the seat's forces; only with a Move or the Guild's Ship
  std::vector<uint16_t> reach;  // origin << 8 | destination of each single-origin Move legal_actions lists, sorted
  bool operator==(const LabelInputs&) const = default;
};
LabelInputs label_inputs(const GameState& s, Seat seat, const std::vector<Decision>& ds);
std::vector<Choice> label_choices(const LabelInputs& in, const Decision& d);

flatbuffers::Offset<fb::DecisionView> build_decision_view(flatbuffers::FlatBufferBuilder& b, const LabelInputs& in,
                                                          const Decision& d);

}  // namespace mentat::inspect
