// Helpers shared by the commands (cli/cli.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/cli.h"
#include "core/data/modules.h"
#include "core/engine.h"
#include "events/codec.h"
#include "events/json_text.h"
#include "events/names.h"
#include "inspect/custody.h"
#include "inspect/render.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "replay/diff.h"
#include "replay/fold.h"
#include "replay/progress.h"
#include "replay/tools.h"
#include "store/room.h"

namespace mentat::cli {

// The message on standard error; control characters a user's argument put in
// it (an escape sequence in a room id) are shown as \xHH, never sent to the
// terminal. Line breaks of multi-line messages stay.
int fail(int code, const std::string& msg) {
  std::string shown;
  for (unsigned char c : msg) {
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) shown += fmt::format("\\x{:02x}", c);
    else shown.push_back(static_cast<char>(c));
  }
  std::fprintf(stderr, "mentat: %s\n", shown.c_str());
  return code;
}

// Commands that only read open an existing store read-only
// (docs/PERFORMANCE.md): nothing is written into it and they work beside a
// running server. A reader given a path that holds no store says so and
// creates nothing; a writer creates the store when missing.
std::unique_ptr<store::EventStore> open_store(const std::string& dir, bool reader, std::string* error) {
  store::Options o;
  if (reader) {
    if (!store::is_postgres_location(dir) && !std::filesystem::exists(std::filesystem::path(dir) / "CURRENT")) {
      *error = "no store at " + dir + (std::filesystem::exists(dir) ? " (the directory holds no Mentat store)" : " (no such directory)") +
               "; give the store with --data DIR or --data postgresql://... (default ./mentat-data)";
      return nullptr;
    }
    o.read_only = true;
    o.create_if_missing = false;
  }
  // The store names its own failures: damaged, in use by another process, missing.
  auto st = store::EventStore::open(dir, o, error);
  return st;
}

std::string json_str(std::string_view s) { return codec::json_quote(s); }  // valid JSON for any text (events/json_text.h)

bool parse_seat(const GameState& s, const std::string& text, Seat* out, std::string* error) {
  if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) {
    const bool digits = text.size() <= 3 && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
    const int v = digits ? std::stoi(text) : -1;
    if (v < 0 || v >= s.num_seats) {
      *error = "seat " + text + " is not in this game (0.." + std::to_string(s.num_seats - 1) + ")";
      return false;
    }
    *out = static_cast<Seat>(v);
    return true;
  }
  Faction f;
  if (!parse_faction(text, &f) || !s.has(f)) {
    std::vector<std::string> keys;
    for (Seat i = 0; i < s.num_seats; ++i) keys.emplace_back(faction_key(s.faction_at(i)));
    *error = "no seat '" + text + "' in this game (use a seat number or a faction in the game" +
             (names::did_you_mean(text, keys).empty() ? ": " + fmt::format("{}", fmt::join(keys, ", ")) + ")" : ")" + names::did_you_mean(text, keys));
    return false;
  }
  *out = s.seat_of(f);
  return true;
}

// Plays random legal actions (the project's own Rng) until the game ends or
// `max_events` are stored. Returns the number of events appended.
int play_random(store::EventStore& st, const std::string& room, uint64_t seed, int max_events, std::string* error) {
  Rng rng = Rng::from_seed(seed ^ 0x5eedULL);
  int n = 0;
  for (; n < max_events; ++n) {
    GameState s;
    if (!store::load_state(st, room, -1, &s, error)) return -1;
    const uint8_t w = waiting_for(s);
    if (w == 0) break;
    std::vector<Seat> seats;
    for (Seat i = 0; i < s.num_seats; ++i)
      if ((w >> i) & 1u) seats.push_back(i);
    const Seat who = seats[rng.below(static_cast<uint32_t>(seats.size()))];
    auto acts = legal_actions(s, who);
    if (acts.empty()) {
      *error = fmt::format("seat {} is waited for but has no legal action at version {}", who, s.version);
      return -1;
    }
    const Action a = acts[rng.below(static_cast<uint32_t>(acts.size()))];
    auto o = store::submit(st, room, who, static_cast<int64_t>(s.version), a, fmt::format("demo-{}", s.version + 1));
    if (!o.ok) {
      *error = o.rejection ? "a legal action was rejected: " + o.rejection->reason : o.error;
      return -1;
    }
  }
  return n;
}

int print_log(store::EventStore& st, const std::string& room, bool json, bool hidden, int64_t from, int64_t to) {
  std::string error;
  GameState s;
  bool have = false;
  int rc = 0;
  bool ok = st.scan_events(room, 0, to, [&](int64_t v, const std::string& bytes) {
    codec::Event e;
    if (!codec::decode_event(bytes, &e, &error)) {
      error = fmt::format("room {} version {}: {}", room, v, error);
      rc = 3;
      return false;
    }
    GameState before = s;
    ApplyNotes notes;  // each battle's winner, for the outcome line
    if (e.action.kind() == ActionKind::CreateGame) s = create_game(e.setup, nullptr);
    else apply(s, e.seat, e.action, nullptr, &notes);
    if (v < from) {
      have = true;
      return true;
    }
    if (json) {
      std::string out;
      if (!codec::event_to_json(bytes, &out, &error)) {
        rc = 3;
        return false;
      }
      std::printf("%s\n", out.c_str());
    } else {
      std::printf("%s\n", inspect::summarize_event(e, have ? &before : nullptr, s, hidden).c_str());
      // What the event (and the automatic steps after it) did.
      if (have)
        if (const auto out = inspect::outcome_line(before, s, hidden, &notes); !out.empty()) std::printf("        = %s\n", out.c_str());
    }
    have = true;
    return true;
  }, &error);
  if (!ok || rc) return fail(rc ? rc : 3, error);
  return 0;
}

int do_verify(store::EventStore& st, const std::vector<std::string>& rooms, bool json) {
  int bad = 0;
  std::string out = "{\"rooms\":[";
  if (!json) std::printf("%-20s %8s  %s\n", "room", "events", "result");
  replay::VerifyProgress progress(static_cast<int64_t>(rooms.size()), replay::events_to_verify(st, rooms));
  for (const auto& room : rooms) {
    auto r = replay::verify_room(st, room, [&](int64_t v, int64_t head) { progress.at(v, head); });
    progress.room_done(r.events);
    if (!r.ok) ++bad;
    if (json) {
      if (out.back() != '[') out += ",";
      out += fmt::format("{{\"room\":{},\"events\":{},\"ok\":{}", json_str(room), r.events, r.ok);
      if (!r.ok) out += fmt::format(",\"first_bad\":{},\"check\":{},\"detail\":{}", r.first_bad, json_str(r.check), json_str(r.detail));
      out += "}";
    } else if (r.ok) {
      std::printf("%-20s %8lld  ok\n", room.c_str(), static_cast<long long>(r.events));
    } else {
      std::printf("%-20s %8lld  FAILED at version %lld: %s: %s\n", room.c_str(), static_cast<long long>(r.events),
                  static_cast<long long>(r.first_bad), r.check.c_str(), r.detail.c_str());
    }
  }
  progress.finish();
  if (json) std::printf("%s],\"verified\":%zu,\"failed\":%d}\n", out.c_str(), rooms.size(), bad);
  else std::printf("%zu room(s) verified, %d failed\n", rooms.size(), bad);
  return bad ? 1 : 0;
}

// ", did you mean 'g2'?" among the store's rooms.
std::string room_hint(store::EventStore& st, const std::string& room) {
  std::string err;
  std::vector<std::string> ids;
  for (const auto& m : st.rooms(&err)) ids.push_back(m.room);
  return names::did_you_mean(room, ids);
}

int check_room(store::EventStore& st, const std::string& room) {
  std::string err;
  if (st.meta(room, &err)) return 0;
  return err.empty() ? fail(2, "no room " + room + room_hint(st, room)) : fail(3, err);
}

bool parse_viewer(const GameState& s, const std::string& as, inspect::Viewer dflt, inspect::Viewer* out, std::string* error) {
  if (as.empty()) {
    *out = dflt;
    return true;
  }
  if (as == "observer") {
    *out = inspect::Viewer::observer();
    return true;
  }
  Seat seat;
  if (!parse_seat(s, as, &seat, error)) return false;
  *out = inspect::Viewer::of(seat);
  return true;
}

bool write_output(const std::string& path, const std::string& bytes, std::string* error) {
  if (path == "-") {
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    return true;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (std::fclose(f) != 0 || !ok) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

// "ROOM" or "ROOM@V".
bool load_position(store::EventStore& st, const std::string& spec, GameState* out, std::string* error) {
  auto at = spec.rfind('@');
  if (at == std::string::npos) return store::load_state(st, spec, -1, out, error);
  const std::string room = spec.substr(0, at);
  int64_t v = -1;
  const char* first = spec.data() + at + 1;
  const char* last = spec.data() + spec.size();
  const auto [end, ec] = std::from_chars(first, last, v);
  if (first == last || ec != std::errc() || end != last || v < 0 || *first == '+') {
    *error = "bad version in '" + spec + "': give ROOM@V with V a version number (0 or more)";
    return false;
  }
  return store::load_state(st, room, v, out, error);
}


bool apply_rulings(const std::vector<std::string>& args, Rulings* r, std::string* error) {
  for (const auto& arg : args) {
    auto eq = arg.find('=');
    if (eq == std::string::npos) {
      *error = "a ruling is written id=value, got '" + arg + "'";
      return false;
    }
    const std::string key = arg.substr(0, eq);
    if (!r->set(key, arg.substr(eq + 1), error)) {
      std::vector<std::string> keys;
      for (const auto& info : ruling_registry()) keys.emplace_back(info.key);
      if (error->rfind("unknown ruling", 0) == 0) *error += names::did_you_mean(key, keys) + " (see `mentat rulings`)";
      return false;
    }
  }
  return true;
}

bool make_setup(const Args& a, GameSetup* g, std::string* error) {
  g->seed = a.seed;
  g->advanced = a.rules_arg == "advanced";
  g->max_turns = static_cast<uint8_t>(std::clamp(a.max_turns, 0, 255));
  if (!data::parse_module_list(a.modules_arg, &g->modules, error)) return false;
  std::stringstream ss(a.factions_arg);
  std::string item;
  while (std::getline(ss, item, ',')) {
    Faction f;
    if (!parse_faction(item, &f)) {
      *error = "unknown faction '" + item + "'";
      return false;
    }
    g->factions.push_back(f);
  }
  if (!apply_rulings(a.ruling_args, &g->rulings, error)) return false;
  if (auto bad = check_setup(*g)) {
    *error = *bad;
    return false;
  }
  return true;
}

}  // namespace mentat::cli
