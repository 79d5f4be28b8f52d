// Playing: new, act, actions, play, demo, rulings (cli/cli.h).
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>

#include "cli/cli.h"
#include "core/engine.h"
#include "events/codec.h"
#include "events/names.h"
#include "events/position.h"
#include "inspect/options.h"
#include "inspect/custody.h"
#include "inspect/render.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "replay/diff.h"
#include "replay/fold.h"
#include "replay/tools.h"
#include "store/room.h"

namespace mentat::cli {
namespace {

// ", did you mean 'Move'?" when the action_type is not a kind.
std::string kind_hint(const std::string& json) {
  const auto at = json.find("\"action_type\"");
  if (at == std::string::npos) return "";
  const auto q1 = json.find('"', json.find(':', at) + 1);
  const auto q2 = q1 == std::string::npos ? q1 : json.find('"', q1 + 1);
  if (q2 == std::string::npos) return "";
  const std::string kind = json.substr(q1 + 1, q2 - q1 - 1);
  std::vector<std::string> kinds;
  for (int k = 0; k < 64; ++k) {
    const auto name = action_kind_name(static_cast<ActionKind>(k));
    if (name != "Unknown" && name != "None") kinds.emplace_back(name);
  }
  if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return "";
  return names::did_you_mean(kind, kinds);
}

}  // namespace

namespace {

// new --position FILE: the described position, validated (custody and
// conservation before and after its phase's opening steps) before anything
// is created.
int new_from_position(const Args& a, store::EventStore& st) {
  std::string error;
  if (!a.position_conflicts.empty())
    return fail(2, "--position gives the seats, modules, rulings, seed and turns itself; drop " + a.position_conflicts);
  std::ifstream f(a.position_file, std::ios::binary);
  if (!f) return fail(2, "cannot read the position file " + a.position_file);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  GameSetup g;
  if (!position::from_json(text, &g, &error)) return fail(2, a.position_file + ": " + error);
  if (auto v = inspect::check_position(g))
    return fail(2, v->invariant == "position" ? fmt::format("{}: {}", a.position_file, v->detail)
                                              : fmt::format("{}: the position breaks {}: {}", a.position_file, v->invariant, v->detail));
  g.name = a.room_name;
  std::string id = a.room_name;
  if (!store::create_room(st, g, &id, &error)) return fail(3, error);
  std::printf("%s\n", id.c_str());
  return 0;
}

}  // namespace

int cmd_new(const Args& a, store::EventStore& st) {
  if (!a.position_file.empty()) return new_from_position(a, st);
  std::string error;
  Args args = a;
  if (!a.seed_given) {  // a fresh random seed, recorded in CreateGame like any other
    std::random_device rd;
    args.seed = (static_cast<uint64_t>(rd()) << 32 | rd()) % 1000000000ULL;
  }
  GameSetup g;
  if (!make_setup(args, &g, &error)) return fail(2, error);
  std::string id = a.room_name;
  if (!store::create_room(st, g, &id, &error)) return fail(3, error);
  if (!a.seed_given) std::fprintf(stderr, "mentat: seed %llu (random; --seed S to choose one)\n", static_cast<unsigned long long>(args.seed));
  std::printf("%s\n", id.c_str());
  return 0;
}

constexpr size_t kMaxActionBytes = 1 << 20;

int cmd_act(const Args& a, store::EventStore& st) {
  std::string error;
  GameState s;
  if (!store::load_state(st, a.room, -1, &s, &error)) return fail(3, error);
  Seat seat;
  if (!parse_seat(s, a.seat_arg, &seat, &error)) return fail(2, error);
  int64_t expect = -1;
  if (a.expect == "head") {
    expect = static_cast<int64_t>(s.version);
  } else {
    char* end = nullptr;
    errno = 0;
    expect = std::strtoll(a.expect.c_str(), &end, 10);
    if (a.expect.empty() || *end != '\0' || expect < 0 || errno == ERANGE || !std::isdigit(static_cast<unsigned char>(a.expect[0])))
      return fail(2, "--expect takes a version number or 'head', got '" + a.expect + "'");
  }
  // "-": the action is read from standard input (at most kMaxActionBytes, as the server's body limit).
  std::string text = a.action_json;
  if (text == "-") {
    text.clear();
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0 && text.size() <= kMaxActionBytes) text.append(buf, n);
    if (text.size() > kMaxActionBytes)
      return fail(2, "the action on standard input is larger than " + std::to_string(kMaxActionBytes) + " bytes");
  }
  // Names for ids (events/names.h); a card's name means the copy this seat holds.
  std::string json;
  if (!names::resolve_action_json(text, names::Context{&s, seat}, &json, &error)) return fail(2, error);
  Action act;
  if (!codec::parse_action_json(json, &act, nullptr, &error)) return fail(2, error + kind_hint(text));
  if (a.action_id.size() > 128 || std::any_of(a.action_id.begin(), a.action_id.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
    return fail(2, "--id must be a client action id of 1..128 characters without control characters");
  std::string action_id = a.action_id;
  if (action_id.empty()) action_id = fmt::format("cli-{}-{}-{:016x}", expect + 1, seat, codec::hash_bytes(json));
  auto o = store::submit(st, a.room, seat, expect, act, action_id);
  if (o.rejection)
    return fail(1, fmt::format("rejected ({}): {}", reject_code_name(o.rejection->code), o.rejection->reason));
  if (o.conflict) return fail(1, "conflict: " + o.error);
  if (!o.ok) return fail(3, o.error);
  GameState after;
  if (!store::load_state(st, a.room, o.version, &after, &error)) return fail(3, error);
  std::printf("%s%s\n", inspect::summarize_event(o.event, &s, after, false).c_str(), o.duplicate ? " (duplicate: already stored)" : "");
  const auto notes = o.duplicate ? ApplyNotes{} : inspect::notes_of(s, o.event);  // a duplicate was based on another state
  if (const auto out = inspect::outcome_line(s, after, false, &notes); !out.empty() && !o.duplicate) std::printf("        = %s\n", out.c_str());
  return 0;
}

int cmd_actions(const Args& a, store::EventStore& st) {
  std::string error;
  GameState s;
  if (!store::load_state(st, a.room, -1, &s, &error)) return fail(3, error);
  Seat seat;
  if (!parse_seat(s, a.seat_arg, &seat, &error)) return fail(2, error);
  if (a.json) {
    std::printf("%s\n", inspect::decisions_json(s, seat).c_str());
    return 0;
  }
  auto ds = decisions(s, seat);
  if (ds.empty()) std::printf("seat %d (%s) has nothing to decide at version %llu\n", seat,
                              std::string(faction_name(s.faction_at(seat))).c_str(), static_cast<unsigned long long>(s.version));
  else std::printf("version %llu, seat %d (%s):\n", static_cast<unsigned long long>(s.version), seat,
                   std::string(faction_name(s.faction_at(seat))).c_str());
  for (const auto& d : ds) {
    std::printf("%s: %s", std::string(action_kind_name(d.kind)).c_str(), d.prompt.c_str());
    if (d.max > d.min) std::printf(" [%d..%d]", d.min, d.max);
    std::printf("\n");
    // The labelled choices, one line per role and field: "  destinations (to): 65 Sietch Tabr, ...".
    const auto choices = inspect::label_choices(s, seat, d);
    std::vector<std::pair<std::string, std::string>> lines;  // (role (field), items)
    for (const auto& c : choices) {
      if (d.kind == ActionKind::Move && c.role == "origin") {  // its own line, with the destinations reachable from it
        std::string to = c.to.empty() ? "nowhere (no legal movement from here)" : "";
        for (int l : c.to) to += (to.empty() ? "" : ", ") + std::to_string(l) + " " + names::location_name(static_cast<LocationId>(l));
        lines.emplace_back("from " + inspect::choice_text(c) + " to", to);
        continue;
      }
      std::string key = c.role + (c.set.empty() ? "" : " (" + c.set[0].field + (c.set.size() > 1 ? ", " + c.set[1].field : "") + ")");
      auto it = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == key; });
      if (it == lines.end()) lines.emplace_back(key, inspect::choice_text(c));
      else it->second += ", " + inspect::choice_text(c);
    }
    for (const auto& [key, items] : lines) std::printf("  %s: %s\n", key.c_str(), items.c_str());
  }
  return 0;
}

int cmd_play(const Args& a, store::EventStore& st) {
  std::string error;
  int n = play_random(st, a.room, a.seed, a.demo_events, &error);
  if (n < 0) return fail(1, error);
  std::printf("%d actions played\n", n);
  return 0;
}

int cmd_demo(const Args& a, store::EventStore& st) {
  std::string error;
  GameSetup g;
  if (!make_setup(a, &g, &error)) return fail(2, error);
  std::string id = a.room_name;
  if (!store::create_room(st, g, &id, &error)) return fail(3, error);
  std::printf("room %s created in %s\n", id.c_str(), st.dir().c_str());
  int n = play_random(st, id, a.seed, a.demo_events, &error);
  if (n < 0) return fail(1, error);
  if (int rc = print_log(st, id, false, true, 0, INT64_MAX)) return rc;
  GameState s;
  if (!store::load_state(st, id, -1, &s, &error)) return fail(3, error);
  std::printf("\n%d actions played; phase %s, turn %d\n", n, std::string(phase_name(s.phase)).c_str(), s.turn);
  if (s.phase == Phase::GameOver) {
    std::printf("winners:");
    for (int i = 0; i < kNumFactions; ++i)
      if ((s.winners >> i) & 1u) std::printf(" %s", std::string(faction_name(static_cast<Faction>(i))).c_str());
    std::printf("\n");
  }
  std::printf("\n");
  return do_verify(st, {id});
}

int cmd_rulings(const Args& a) {
  if (a.json) {
    std::string out = "[";
    for (const auto& info : ruling_registry()) {
      if (out.size() > 1) out += ",";
      out += "{\"id\":" + json_str(info.key) + ",\"question\":" + json_str(info.question) + ",\"values\":[";
      for (size_t i = 0; i < info.values.size(); ++i) out += (i ? "," : "") + json_str(info.values[i]);
      out += "],\"default\":" + json_str(info.values[info.default_value]) + "}";
    }
    std::printf("%s]\n", out.c_str());
    return 0;
  }
  for (const auto& info : ruling_registry()) {
    std::printf("%s: %s\n", std::string(info.key).c_str(), std::string(info.question).c_str());
    for (size_t i = 0; i < info.values.size(); ++i)
      std::printf("  %s%s\n", std::string(info.values[i]).c_str(), i == info.default_value ? " (default)" : "");
  }
  return 0;
}

int cmd_names(const Args&) {
  std::printf("%s", names::names_markdown().c_str());
  return 0;
}

}  // namespace mentat::cli
