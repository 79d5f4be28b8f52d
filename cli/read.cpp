// Reading a game: log, show, verify, rooms, render, replay, step (cli/cli.h).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/cli.h"
#include "core/engine.h"
#include "events/codec.h"
#include "events/position.h"
#include "inspect/custody.h"
#include "inspect/render.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "replay/diff.h"
#include "replay/fold.h"
#include "replay/tools.h"
#include "server/server.h"
#include "store/room.h"

namespace mentat::cli {

namespace {

int run_stepper(store::EventStore& st, const std::string& room, const std::string& as) {
  std::string error;
  auto m = st.meta(room, &error);
  if (!m) return fail(3, error.empty() ? "no room " + room : error);
  std::vector<codec::Event> events;
  if (!st.scan_events(room, 0, m->head, [&](int64_t, const std::string& bytes) {
        codec::Event e;
        if (!codec::decode_event(bytes, &e, &error)) return false;
        events.push_back(std::move(e));
        return true;
      }, &error))
    return fail(3, error);
  GameState probe;
  if (!store::load_state(st, room, 0, &probe, &error)) return fail(3, error);
  inspect::Viewer who;
  if (!parse_viewer(probe, as, inspect::Viewer::state(), &who, &error)) return fail(2, error);
  const Seat seat = who.kind == inspect::Viewer::SeatView ? who.seat : kNoSeat;
  int64_t v = 0;
  auto show = [&]() {
    GameState after, before;
    if (!store::load_state(st, room, v, &after, &error)) {
      std::printf("error: %s\n", error.c_str());
      return;
    }
    const bool have_before = v > 0 && store::load_state(st, room, v - 1, &before, &error);
    const auto& e = events[static_cast<size_t>(v)];
    std::printf("%s\n", inspect::summarize_event(e, have_before ? &before : nullptr, after, who.kind == inspect::Viewer::State || (seat != kNoSeat && e.seat == seat)).c_str());
    if (have_before) {  // what changed (public unless adjudicating)
      const auto notes = inspect::notes_of(before, e);
      const auto changes = inspect::what_changed(before, after, who.kind == inspect::Viewer::State, &notes);
      if (!changes.empty()) std::printf("what changed:\n");
      for (const auto& c : changes) std::printf("  %s\n", c.c_str());
    }
  };
  std::printf("%zu events. Commands: n(ext) p(rev) j V (jump) k KIND (next of a kind) s SEAT (next by seat) v (view) q\n", events.size());
  show();
  std::string line;
  while (std::printf("> "), std::fflush(stdout), std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string cmd, arg;
    in >> cmd >> arg;
    if (cmd == "q") break;
    if (cmd == "n" || cmd.empty()) v = std::min<int64_t>(v + 1, m->head);
    else if (cmd == "p") v = std::max<int64_t>(v - 1, 0);
    else if (cmd == "j") v = std::clamp<int64_t>(std::atoll(arg.c_str()), 0, m->head);
    else if (cmd == "k" || cmd == "s") {
      int64_t found = -1;
      for (int64_t i = v + 1; i <= m->head && found < 0; ++i) {
        const auto& e = events[static_cast<size_t>(i)];
        if (cmd == "k" && action_kind_name(e.action.kind()) == arg) found = i;
        if (cmd == "s" && e.seat >= 0 && (std::to_string(e.seat) == arg || faction_key(probe.faction_at(e.seat)) == arg)) found = i;
      }
      if (found < 0) {
        std::printf("no later event matches\n");
        continue;
      }
      v = found;
    } else if (cmd == "v") {
      GameState s;
      if (store::load_state(st, room, v, &s, &error))
        std::printf("%s\n", inspect::view_json(s, who).c_str());
      continue;
    } else {
      std::printf("commands: n p j V k KIND s SEAT v q\n");
      continue;
    }
    show();
  }
  return 0;
}

}  // namespace

int cmd_log(const Args& a, store::EventStore& st) {
  return print_log(st, a.room, a.json, a.hidden, a.from, a.to);
}

namespace {

// show --position: the state of that version, inside its phase (a step),
// in the format of new --position.
int show_position(const Args& a, const GameState& s) {
  std::string error;
  if (auto why = check_start(s, true))
    return fail(2, fmt::format("version {} of room {}: {}", s.version, a.room, *why));
  std::string out;
  if (!position::to_json(s, true, false, &out, &error)) return fail(3, error);
  std::printf("%s\n", out.c_str());
  return 0;
}

}  // namespace

int cmd_show(const Args& a, store::EventStore& st) {
  std::string error;
  GameState s;
  if (!store::load_state(st, a.room, a.at, &s, &error)) return fail(3, error);
  if (a.show_position) {
    if (!a.as.empty()) return fail(2, "show --position prints the whole table; it takes no --as");
    return show_position(a, s);
  }
  inspect::Viewer who;
  if (!parse_viewer(s, a.as, inspect::Viewer::state(), &who, &error)) return fail(2, error);
  std::printf("%s\n", inspect::view_json(s, who).c_str());
  return 0;
}

int cmd_verify(const Args& a, store::EventStore& st) {
  std::string error;
  std::vector<std::string> rooms;
  if (a.verify_all) {
    for (const auto& m : st.rooms(&error)) rooms.push_back(m.room);
    if (!error.empty()) return fail(3, error);
  } else if (!a.room.empty()) {
    if (const int rc = check_room(st, a.room)) return rc;
    rooms.push_back(a.room);
  } else {
    return fail(2, "verify needs a room or --all");
  }
  const int bad_records = a.verify_checksums ? server::print_integrity(st) : 0;
  const int rc = do_verify(st, rooms, a.json);
  return rc ? rc : bad_records ? 1 : 0;
}

int cmd_rooms(const Args& a, store::EventStore& st) {
  std::string error;
  auto list = st.rooms(&error);
  if (!error.empty()) return fail(3, error);
  if (a.json) {
    std::string out = "[";
    for (const auto& m : list) {
      if (out.size() > 1) out += ",";
      out += fmt::format("{{\"room\":{},\"head\":{}", json_str(m.room), m.head);
      if (!m.parent.empty()) out += fmt::format(",\"parent\":{},\"parent_version\":{}", json_str(m.parent), m.parent_version);
      out += "}";
    }
    std::printf("%s]\n", out.c_str());
    return 0;
  }
  for (const auto& m : list) {
    if (m.parent.empty())
      std::printf("%-20s head %lld\n", m.room.c_str(), static_cast<long long>(m.head));
    else
      std::printf("%-20s head %lld  fork of %s@%lld\n", m.room.c_str(), static_cast<long long>(m.head), m.parent.c_str(),
                  static_cast<long long>(m.parent_version));
  }
  return 0;
}

int cmd_render(const Args& a, store::EventStore& st) {
  std::string error;
  GameState s;
  if (!store::load_state(st, a.room, a.at, &s, &error)) return fail(3, error);
  inspect::Viewer who;
  if (!parse_viewer(s, a.as, inspect::Viewer::observer(), &who, &error)) return fail(2, error);
  if (who.kind == inspect::Viewer::State) who = inspect::Viewer::observer();
  if (!write_output(a.svg_out, inspect::render_svg(s, who), &error)) return fail(2, error);
  return 0;
}

int cmd_replay(const Args& a, store::EventStore& st) {
  std::string error;
  GameState probe;
  if (!store::load_state(st, a.room, 0, &probe, &error)) return fail(3, error);
  // Default: the observer's replay (no seed, no secret choices); --hidden:
  // the adjudicator's (everything); --as SEAT: what that seat knew.
  inspect::Viewer who;
  if (!parse_viewer(probe, a.as, a.hidden ? inspect::Viewer::state() : inspect::Viewer::observer(), &who, &error)) return fail(2, error);
  const Seat seat = who.kind == inspect::Viewer::SeatView ? who.seat : kNoSeat;
  const inspect::Viewer panel = who.kind == inspect::Viewer::State ? inspect::Viewer::observer() : who;
  std::vector<inspect::ReplayFrame> frames;
  GameState s;
  int rc = 0;
  bool ok = st.scan_events(a.room, 0, a.to, [&](int64_t v, const std::string& bytes) {
    codec::Event e;
    if (!codec::decode_event(bytes, &e, &error)) {
      rc = 3;
      return false;
    }
    GameState before = s;
    ApplyNotes notes;  // each battle's winner
    if (e.action.kind() == ActionKind::CreateGame) s = create_game(e.setup, nullptr);
    else apply(s, e.seat, e.action, nullptr, &notes);
    if (v < a.from) return true;
    const bool hidden = who.kind == inspect::Viewer::State || (seat != kNoSeat && e.seat == seat);
    const std::string line = inspect::summarize_event(e, v ? &before : nullptr, s, hidden);
    const bool adjudicator = who.kind == inspect::Viewer::State;
    if (!a.html_out.empty()) {
      std::string changes;
      if (v) for (const auto& c : inspect::what_changed(before, s, adjudicator, &notes)) changes += c + "\n";
      frames.push_back({v, line, inspect::render_position_layer(s), inspect::render_panel(s, panel), changes});
      return true;
    }
    const std::string outcome = v ? inspect::outcome_line(before, s, adjudicator, &notes) : "";
    if (a.json) {  // one JSON object per event
      std::string out = fmt::format("{{\"version\":{},\"seat\":{},\"kind\":{},\"summary\":{}", v, e.seat,
                                    json_str(action_kind_name(e.action.kind())), json_str(line));
      out += ",\"outcome\":" + json_str(outcome);
      if (a.replay_views) out += ",\"view\":" + inspect::view_json(s, who);
      std::printf("%s}\n", out.c_str());
      return true;
    }
    std::printf("%s\n", line.c_str());
    if (!outcome.empty()) std::printf("        = %s\n", outcome.c_str());
    if (a.replay_views) std::printf("%s\n", inspect::view_json(s, who).c_str());
    return true;
  }, &error);
  if (!ok || rc) return fail(3, error);
  if (!a.html_out.empty()) {
    if (!write_output(a.html_out, inspect::render_replay_html("Mentat replay of " + a.room, frames), &error)) return fail(2, error);
    if (a.html_out != "-") std::fprintf(stderr, "%zu frames written to %s\n", frames.size(), a.html_out.c_str());
  }
  return 0;
}

int cmd_step(const Args& a, store::EventStore& st) {
  return run_stepper(st, a.room, a.as);
}

}  // namespace mentat::cli
