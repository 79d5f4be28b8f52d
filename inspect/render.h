// Board pictures: an SVG of a position, and a self-contained HTML replay.
//
// Contract: pure functions of their inputs; thread-safe. The board is drawn
// schematically: the Polar Sink in the centre, each territory piece as a
// wedge in its storm sector at a ring given by its distance from the Polar
// Sink. Only what `viewer` may see is drawn (the private panel lists the
// seat's own hand, traitors, spice and prediction).
#pragma once

#include <string>
#include <vector>

#include "core/state.h"
#include "inspect/view.h"

namespace mentat::inspect {

// The static board (territory pieces), identical for every position.
std::string render_board_layer();
// The dynamic layer of one position: storm, spice, forces.
std::string render_position_layer(const GameState& s);
// A private panel (text) for a seat; empty for observers.
std::string render_panel(const GameState& s, Viewer who);
// A whole SVG document.
std::string render_svg(const GameState& s, Viewer who);

struct ReplayFrame {
  int64_t version;
  std::string summary;  // one line (inspect/report.h)
  std::string layer;    // render_position_layer
  std::string panel;    // render_panel
  std::string changes;  // what changed from the previous frame, one line each (inspect/report.h what_changed)
};
// One HTML file, no network needed: slider and arrow keys step through frames
// (one version per key, focused slider or not); the URL follows as `#v=N`,
// and a changed or typed `#v=N` opens version N (an out-of-range one says
// so). The layout fits 1024x768.
std::string render_replay_html(const std::string& title, const std::vector<ReplayFrame>& frames);

}  // namespace mentat::inspect
