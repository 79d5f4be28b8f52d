// mentat: the command-line front end. Every command opens the store, does
// one thing, and exits 0 on success; errors are one line on stderr and a
// non-zero exit (1: the answer is "no"/"different"/"failed", 2: bad usage or
// input, 3: store problems).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "core/engine.h"
#include "events/codec.h"
#include "inspect/custody.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "replay/fold.h"
#include "store/room.h"

using namespace mentat;

namespace {

int fail(int code, const std::string& msg) {
  std::fprintf(stderr, "mentat: %s\n", msg.c_str());
  return code;
}

std::unique_ptr<store::EventStore> open_store(const std::string& dir, std::string* error) {
  return store::EventStore::open(dir, store::Options{}, error);
}

bool parse_seat(const GameState& s, const std::string& text, Seat* out, std::string* error) {
  if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) {
    int v = std::stoi(text);
    if (v < 0 || v >= s.num_seats) {
      *error = "seat " + text + " is not in this game (0.." + std::to_string(s.num_seats - 1) + ")";
      return false;
    }
    *out = static_cast<Seat>(v);
    return true;
  }
  Faction f;
  if (!parse_faction(text, &f) || !s.has(f)) {
    *error = "no seat '" + text + "' in this game (use a seat number or a faction in the game)";
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
    if (e.action.kind == ActionKind::CreateGame) s = create_game(e.setup, nullptr);
    else apply(s, e.seat, e.action, nullptr);
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
    }
    have = true;
    return true;
  }, &error);
  if (!ok || rc) return fail(rc ? rc : 3, error);
  return 0;
}

int do_verify(store::EventStore& st, const std::vector<std::string>& rooms) {
  int bad = 0;
  std::printf("%-20s %8s  %s\n", "room", "events", "result");
  for (const auto& room : rooms) {
    auto r = replay::verify_room(st, room, [&](int64_t v, int64_t head) {
      if (head > 2000) std::fprintf(stderr, "\r%s: %lld/%lld", room.c_str(), static_cast<long long>(v), static_cast<long long>(head));
    });
    if (r.ok) {
      std::printf("%-20s %8lld  ok\n", room.c_str(), static_cast<long long>(r.events));
    } else {
      ++bad;
      std::printf("%-20s %8lld  FAILED at version %lld: %s: %s\n", room.c_str(), static_cast<long long>(r.events),
                  static_cast<long long>(r.first_bad), r.check.c_str(), r.detail.c_str());
    }
  }
  std::printf("%zu room(s) verified, %d failed\n", rooms.size(), bad);
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mentat: event-sourced rules engine for GF9's Dune (2019)"};
  app.require_subcommand(1);
  std::string data_dir = "./mentat-data";
  bool verbose = false;
  app.add_option("--data", data_dir, "store directory")->capture_default_str();
  app.add_flag("-v,--verbose", verbose, "log more (spdlog debug level)");

  // new
  auto* cmd_new = app.add_subcommand("new", "create a game; prints the room id");
  std::string factions_arg = "atreides,bene_gesserit,emperor,fremen,harkonnen,spacing_guild";
  uint64_t seed = 1;
  std::string rules_arg = "basic";
  std::vector<std::string> ruling_args;
  std::string room_name;
  int max_turns = 10;
  cmd_new->add_option("--factions", factions_arg, "comma-separated, in seat order")->capture_default_str();
  cmd_new->add_option("--seed", seed, "game seed")->capture_default_str();
  cmd_new->add_option("--rules", rules_arg, "basic or advanced")->check(CLI::IsMember({"basic", "advanced"}))->capture_default_str();
  cmd_new->add_option("--ruling", ruling_args, "ruling id=value (see `mentat rulings`)");
  cmd_new->add_option("--room", room_name, "room id (default: generated)");
  cmd_new->add_option("--turns", max_turns, "number of turns (0.02)")->capture_default_str();

  // act
  auto* cmd_act = app.add_subcommand("act", "submit one action for a seat");
  std::string room;
  std::string seat_arg;
  int64_t expect = -2;
  std::string action_json;
  std::string action_id;
  cmd_act->add_option("room", room, "room id")->required();
  cmd_act->add_option("--seat", seat_arg, "seat number or faction")->required();
  cmd_act->add_option("--expect", expect, "the version the action is based on (compare-and-set)")->required();
  cmd_act->add_option("action", action_json, R"(action JSON, e.g. '{"action_type":"Bid","action":{"amount":2}}')")->required();
  cmd_act->add_option("--id", action_id, "client action id (idempotency key; default: derived)");

  // log
  auto* cmd_log = app.add_subcommand("log", "one line per event");
  bool json = false, hidden = false;
  int64_t from = 0, to = INT64_MAX;
  cmd_log->add_option("room", room, "room id")->required();
  cmd_log->add_flag("--json", json, "the stored events as JSON, one per line");
  cmd_log->add_flag("--hidden", hidden, "adjudicator view: show secret choices");
  cmd_log->add_option("--from", from, "first version");
  cmd_log->add_option("--to", to, "last version");

  // show
  auto* cmd_show = app.add_subcommand("show", "state (or a seat's view) as JSON");
  int64_t at = -1;
  std::string as;
  cmd_show->add_option("room", room, "room id")->required();
  cmd_show->add_option("--at", at, "version (default: head)");
  cmd_show->add_option("--as", as, "seat number, faction, or 'observer'");

  // actions
  auto* cmd_actions = app.add_subcommand("actions", "what a seat may do now (decisions and legal actions)");
  cmd_actions->add_option("room", room, "room id")->required();
  cmd_actions->add_option("--seat", seat_arg, "seat number or faction")->required();

  // verify
  auto* cmd_verify = app.add_subcommand("verify", "refold, re-validate and check every event");
  bool verify_all = false;
  cmd_verify->add_option("room", room, "room id");
  cmd_verify->add_flag("--all", verify_all, "every room in the store");

  // rooms, rulings
  auto* cmd_rooms = app.add_subcommand("rooms", "list rooms");
  auto* cmd_rulings = app.add_subcommand("rulings", "list the named rulings and their values");

  // demo
  auto* cmd_demo = app.add_subcommand("demo", "create a game, play random legal actions, print the log and verify");
  int demo_events = 5000;
  cmd_demo->add_option("--seed", seed, "game seed")->capture_default_str();
  cmd_demo->add_option("--factions", factions_arg, "comma-separated, in seat order")->capture_default_str();
  cmd_demo->add_option("--rules", rules_arg, "basic or advanced")->check(CLI::IsMember({"basic", "advanced"}))->capture_default_str();
  cmd_demo->add_option("--max-events", demo_events, "stop after this many actions")->capture_default_str();
  cmd_demo->add_option("--room", room_name, "room id (default: generated)");

  // play (random legal actions in an existing room)
  auto* cmd_play = app.add_subcommand("play", "play random legal actions in a room");
  cmd_play->add_option("room", room, "room id")->required();
  cmd_play->add_option("--seed", seed, "seed of the random player")->capture_default_str();
  cmd_play->add_option("--max-events", demo_events, "stop after this many actions")->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::warn);

  if (cmd_rulings->parsed()) {
    for (const auto& info : ruling_registry()) {
      std::printf("%s: %s\n", std::string(info.key).c_str(), std::string(info.question).c_str());
      for (size_t i = 0; i < info.values.size(); ++i)
        std::printf("  %s%s\n", std::string(info.values[i]).c_str(), i == info.default_value ? " (default)" : "");
    }
    return 0;
  }

  std::string error;
  auto st = open_store(data_dir, &error);
  if (!st) return fail(3, error);

  auto make_setup = [&](GameSetup* g) -> bool {
    g->seed = seed;
    g->advanced = rules_arg == "advanced";
    g->max_turns = static_cast<uint8_t>(std::clamp(max_turns, 0, 255));
    std::stringstream ss(factions_arg);
    std::string item;
    while (std::getline(ss, item, ',')) {
      Faction f;
      if (!parse_faction(item, &f)) {
        error = "unknown faction '" + item + "'";
        return false;
      }
      g->factions.push_back(f);
    }
    for (const auto& r : ruling_args) {
      auto eq = r.find('=');
      if (eq == std::string::npos) {
        error = "a ruling is written id=value, got '" + r + "'";
        return false;
      }
      if (!g->rulings.set(r.substr(0, eq), r.substr(eq + 1), &error)) return false;
    }
    if (auto bad = check_setup(*g)) {
      error = *bad;
      return false;
    }
    return true;
  };

  if (cmd_new->parsed()) {
    GameSetup g;
    if (!make_setup(&g)) return fail(2, error);
    std::string id = room_name;
    if (!store::create_room(*st, g, &id, &error)) return fail(3, error);
    std::printf("%s\n", id.c_str());
    return 0;
  }

  if (cmd_act->parsed()) {
    GameState s;
    if (!store::load_state(*st, room, -1, &s, &error)) return fail(3, error);
    Seat seat;
    if (!parse_seat(s, seat_arg, &seat, &error)) return fail(2, error);
    Action a;
    if (!codec::parse_action_json(action_json, &a, nullptr, &error)) return fail(2, error);
    if (action_id.empty()) action_id = fmt::format("cli-{}-{}-{:016x}", expect + 1, seat, codec::hash_bytes(action_json));
    auto o = store::submit(*st, room, seat, expect, a, action_id);
    if (o.rejection)
      return fail(1, fmt::format("rejected ({}): {}", reject_code_name(o.rejection->code), o.rejection->reason));
    if (o.conflict) return fail(1, "conflict: " + o.error);
    if (!o.ok) return fail(3, o.error);
    GameState after;
    if (!store::load_state(*st, room, o.version, &after, &error)) return fail(3, error);
    std::printf("%s%s\n", inspect::summarize_event(o.event, &s, after, false).c_str(), o.duplicate ? " (duplicate: already stored)" : "");
    return 0;
  }

  if (cmd_log->parsed()) return print_log(*st, room, json, hidden, from, to);

  if (cmd_show->parsed()) {
    GameState s;
    if (!store::load_state(*st, room, at, &s, &error)) return fail(3, error);
    inspect::Viewer who = inspect::Viewer::state();
    if (as == "observer") {
      who = inspect::Viewer::observer();
    } else if (!as.empty()) {
      Seat seat;
      if (!parse_seat(s, as, &seat, &error)) return fail(2, error);
      who = inspect::Viewer::of(seat);
    }
    std::printf("%s\n", inspect::view_json(s, who).c_str());
    return 0;
  }

  if (cmd_actions->parsed()) {
    GameState s;
    if (!store::load_state(*st, room, -1, &s, &error)) return fail(3, error);
    Seat seat;
    if (!parse_seat(s, seat_arg, &seat, &error)) return fail(2, error);
    auto ds = decisions(s, seat);
    if (ds.empty()) std::printf("seat %d (%s) has nothing to decide at version %llu\n", seat,
                                std::string(faction_name(s.faction_at(seat))).c_str(), static_cast<unsigned long long>(s.version));
    for (const auto& d : ds) {
      std::printf("%s: %s", std::string(action_kind_name(d.kind)).c_str(), d.prompt.c_str());
      if (d.max > d.min) std::printf(" [%d..%d]", d.min, d.max);
      if (!d.options.empty()) {
        std::printf(" options:");
        for (auto o : d.options) std::printf(" %u", o);
      }
      std::printf("\n");
    }
    return 0;
  }

  if (cmd_verify->parsed()) {
    std::vector<std::string> rooms;
    if (verify_all) {
      for (const auto& m : st->rooms(&error)) rooms.push_back(m.room);
      if (!error.empty()) return fail(3, error);
    } else if (!room.empty()) {
      rooms.push_back(room);
    } else {
      return fail(2, "verify needs a room or --all");
    }
    return do_verify(*st, rooms);
  }

  if (cmd_rooms->parsed()) {
    auto list = st->rooms(&error);
    if (!error.empty()) return fail(3, error);
    for (const auto& m : list) {
      if (m.parent.empty())
        std::printf("%-20s head %lld\n", m.room.c_str(), static_cast<long long>(m.head));
      else
        std::printf("%-20s head %lld  fork of %s@%lld\n", m.room.c_str(), static_cast<long long>(m.head), m.parent.c_str(),
                    static_cast<long long>(m.parent_version));
    }
    return 0;
  }

  if (cmd_play->parsed()) {
    int n = play_random(*st, room, seed, demo_events, &error);
    if (n < 0) return fail(1, error);
    std::printf("%d actions played\n", n);
    return 0;
  }

  if (cmd_demo->parsed()) {
    GameSetup g;
    if (!make_setup(&g)) return fail(2, error);
    std::string id = room_name;
    if (!store::create_room(*st, g, &id, &error)) return fail(3, error);
    std::printf("room %s created in %s\n", id.c_str(), data_dir.c_str());
    int n = play_random(*st, id, seed, demo_events, &error);
    if (n < 0) return fail(1, error);
    if (int rc = print_log(*st, id, false, true, 0, INT64_MAX)) return rc;
    GameState s;
    if (!store::load_state(*st, id, -1, &s, &error)) return fail(3, error);
    std::printf("\n%d actions played; phase %s, turn %d\n", n, std::string(phase_name(s.phase)).c_str(), s.turn);
    if (s.phase == Phase::GameOver) {
      std::printf("winners:");
      for (int i = 0; i < kNumFactions; ++i)
        if ((s.winners >> i) & 1u) std::printf(" %s", std::string(faction_name(static_cast<Faction>(i))).c_str());
      std::printf("\n");
    }
    std::printf("\n");
    return do_verify(*st, {id});
  }
  return 0;
}
