// mentat: the command-line front end. Every command opens the store, does
// one thing, and exits 0 on success; errors are one line on stderr and a
// non-zero exit (1: the answer is "no"/"different"/"failed", 2: bad usage or
// input, 3: store problems).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "core/engine.h"
#include "events/codec.h"
#include "inspect/custody.h"
#include "inspect/render.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "replay/diff.h"
#include "replay/fold.h"
#include "replay/progress.h"
#include "replay/tools.h"
#include "server/server.h"
#include "store/room.h"
#include "bots/selfplay.h"

using namespace mentat;

namespace {

int fail(int code, const std::string& msg) {
  std::fprintf(stderr, "mentat: %s\n", msg.c_str());
  return code;
}

// Commands that only read open the store read-only (docs/PERFORMANCE.md):
// nothing is written into it and they work beside a running server. A store
// that does not exist yet is still created by the writable open, as before.
std::unique_ptr<store::EventStore> open_store(const std::string& dir, bool reader, std::string* error) {
  store::Options o;
  if (reader && std::filesystem::exists(std::filesystem::path(dir) / "CURRENT")) {
    o.read_only = true;
    o.create_if_missing = false;
  }
  return store::EventStore::open(dir, o, error);
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
  replay::VerifyProgress progress(static_cast<int64_t>(rooms.size()), replay::events_to_verify(st, rooms));
  for (const auto& room : rooms) {
    auto r = replay::verify_room(st, room, [&](int64_t v, int64_t head) { progress.at(v, head); });
    progress.room_done(r.events);
    if (r.ok) {
      std::printf("%-20s %8lld  ok\n", room.c_str(), static_cast<long long>(r.events));
    } else {
      ++bad;
      std::printf("%-20s %8lld  FAILED at version %lld: %s: %s\n", room.c_str(), static_cast<long long>(r.events),
                  static_cast<long long>(r.first_bad), r.check.c_str(), r.detail.c_str());
    }
  }
  progress.finish();
  std::printf("%zu room(s) verified, %d failed\n", rooms.size(), bad);
  return bad ? 1 : 0;
}

// "ROOM" or "ROOM@V".
bool load_position(store::EventStore& st, const std::string& spec, GameState* out, std::string* error) {
  auto at = spec.rfind('@');
  if (at == std::string::npos) return store::load_state(st, spec, -1, out, error);
  const std::string room = spec.substr(0, at);
  int64_t v;
  try {
    v = std::stoll(spec.substr(at + 1));
  } catch (...) {
    *error = "bad version in '" + spec + "'";
    return false;
  }
  return store::load_state(st, room, v, out, error);
}

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
  Seat seat = kNoSeat;
  if (!as.empty() && !parse_seat(probe, as, &seat, &error)) return fail(2, error);
  int64_t v = 0;
  auto show = [&]() {
    GameState after, before;
    if (!store::load_state(st, room, v, &after, &error)) {
      std::printf("error: %s\n", error.c_str());
      return;
    }
    const bool have_before = v > 0 && store::load_state(st, room, v - 1, &before, &error);
    const auto& e = events[static_cast<size_t>(v)];
    std::printf("%s\n", inspect::summarize_event(e, have_before ? &before : nullptr, after, seat == kNoSeat || e.seat == seat).c_str());
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
        if (cmd == "k" && action_kind_name(e.action.kind) == arg) found = i;
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
        std::printf("%s\n", inspect::view_json(s, seat == kNoSeat ? inspect::Viewer::state() : inspect::Viewer::of(seat)).c_str());
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
  std::string modules_arg;
  cmd_new->add_option("--modules", modules_arg, "comma-separated game modules (choam_richese, leader_skills, ...); default none");
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
  bool verify_checksums = false;
  cmd_verify->add_flag("--checksums", verify_checksums, "first read and check every record of every kind (as recover does)");

  // migrate (cli/upgrade.cpp)
  auto* cmd_migrate = app.add_subcommand("migrate", "refold rooms stored under an older state format and record their new hashes");
  bool migrate_all = false;
  cmd_migrate->add_option("room", room, "room id");
  cmd_migrate->add_flag("--all", migrate_all, "every room in the store");

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

  // replay
  auto* cmd_replay = app.add_subcommand("replay", "print events with one-line summaries (what a seat saw with --as)");
  std::string html_out;
  cmd_replay->add_option("room", room, "room id")->required();
  cmd_replay->add_option("--from", from, "first version");
  cmd_replay->add_option("--to", to, "last version");
  cmd_replay->add_option("--as", as, "seat number or faction: only what that seat saw");
  cmd_replay->add_option("--html", html_out, "write a self-contained HTML replay to this file");
  bool replay_views = false;
  cmd_replay->add_flag("--views", replay_views, "print the view (JSON) after each event");

  // step (interactive)
  auto* cmd_step = app.add_subcommand("step", "interactive stepper: n, p, j V, k KIND, s SEAT, v, q");
  cmd_step->add_option("room", room, "room id")->required();
  cmd_step->add_option("--as", as, "seat number or faction");

  // fork
  auto* cmd_fork = app.add_subcommand("fork", "new room sharing the first versions of another");
  std::string fork_name;
  cmd_fork->add_option("room", room, "parent room")->required();
  cmd_fork->add_option("--at", at, "last shared version")->required();
  cmd_fork->add_option("--name", fork_name, "new room id (default: ROOM-fV)");
  cmd_fork->add_option("--ruling", ruling_args, "ruling id=value from the fork on");

  // rerun
  auto* cmd_rerun = app.add_subcommand("rerun", "re-validate a game's actions under another ruling");
  std::string keep_name;
  int64_t rerun_from = 0;
  cmd_rerun->add_option("room", room, "room id")->required();
  cmd_rerun->add_option("--ruling", ruling_args, "ruling id=value")->required();
  cmd_rerun->add_option("--from", rerun_from, "version from which the other ruling holds (default 0: the whole game)");
  cmd_rerun->add_option("--keep", keep_name, "keep the rerun as a fork with this id (up to the divergence)");
  bool rerun_json = false;
  cmd_rerun->add_flag("--json", rerun_json, "the diff as JSON");

  // diff
  auto* cmd_diff = app.add_subcommand("diff", "compare two positions: ROOM_A[@V] ROOM_B[@V]");
  std::string pos_a, pos_b;
  bool diff_json = false;
  cmd_diff->add_option("a", pos_a, "ROOM[@VERSION]")->required();
  cmd_diff->add_option("b", pos_b, "ROOM[@VERSION]")->required();
  cmd_diff->add_flag("--json", diff_json, "JSON output");

  // render
  auto* cmd_render = app.add_subcommand("render", "draw the board at a version as SVG");
  std::string svg_out;
  cmd_render->add_option("room", room, "room id")->required();
  cmd_render->add_option("--at", at, "version (default: head)");
  cmd_render->add_option("--as", as, "seat number or faction (adds its private panel)");
  cmd_render->add_option("--svg", svg_out, "output file")->required();

  // bisect
  auto* cmd_bisect = app.add_subcommand("bisect", "first version where an invariant fails or a predicate holds");
  std::string invariant, predicate;
  cmd_bisect->add_option("room", room, "room id")->required();
  cmd_bisect->add_option("--invariant", invariant, "custody, forces, spice, or any");
  cmd_bisect->add_option("--predicate", predicate, R"(e.g. 'turn >= 3 && spice(atreides) > 12')");

  // serve, recover (server/server.h)
  auto* cmd_serve = app.add_subcommand("serve", "run the room server (JSON over HTTP; docs/SERVER.md)");
  std::string listen_addr = "127.0.0.1:8080", port_file;
  server::ServerOptions serve_opts;
  cmd_serve->add_option("--data", data_dir, "store directory")->capture_default_str();
  cmd_serve->add_option("--listen", listen_addr, "HOST:PORT (port 0: any free port)")->capture_default_str();
  cmd_serve->add_option("--port-file", port_file, "write the bound port to this file");
  cmd_serve->add_option("--threads", serve_opts.threads, "worker threads (each request being answered or long-poll holds one)")->capture_default_str();
  cmd_serve->add_option("--max-connections", serve_opts.max_connections, "open connections at once (beyond: 503 at once)")->capture_default_str();
  cmd_serve->add_option("--header-timeout", serve_opts.header_timeout_seconds, "seconds for a request's line and headers to arrive")->capture_default_str();
  cmd_serve->add_option("--body-timeout", serve_opts.body_timeout_seconds, "seconds for a request's body to arrive after its headers")->capture_default_str();
  cmd_serve->add_option("--bot-threads", serve_opts.bot_threads, "threads that play the rooms' bot seats (0: bots never act)")->capture_default_str();
#ifdef MENTAT_WEB_DIR
  serve_opts.web_dir = MENTAT_WEB_DIR;
#endif
  serve_opts.access_log = "-";
  std::string admin_token_file;
  cmd_serve->add_option("--web", serve_opts.web_dir, "folder of the browser client (web/); '' serves none")->capture_default_str();
  cmd_serve->add_option("--cors", serve_opts.cors, "origins allowed to call the API from a browser: '*' or a comma-separated list");
  cmd_serve->add_option("--admin-token-file", admin_token_file, "file holding the host's admin token (/admin/...; at least 16 characters)");
  cmd_serve->add_option("--access-log", serve_opts.access_log, "one line per request: '-' stderr, a file, or '' for none")->capture_default_str();
  auto* cmd_recover = app.add_subcommand("recover", "open a store after a crash and verify every room");
  std::string recover_dir;
  bool recover_fast = false;
  cmd_recover->add_option("dir", recover_dir, "store directory (default: --data)");
  cmd_recover->add_flag("--no-projection", recover_fast, "skip the per-seat view checks (faster)");
  bool accept_loss = false;
  cmd_recover->add_flag("--accept-loss", accept_loss, "open a store that lost acknowledged writes anyway; lists the loss");

  auto* cmd_backup = app.add_subcommand("backup", "copy the store (beside a running server too) into a new directory");
  std::string backup_dest;
  cmd_backup->add_option("dest", backup_dest, "new directory for the copy")->required();

  // selfplay, tournament (bots/selfplay.h, docs/BOTS.md)
  auto* cmd_selfplay = app.add_subcommand("selfplay", "play complete games between bots into the store");
  bots::SelfPlayOptions sp;
  cmd_selfplay->add_option("--games", sp.games, "number of games")->capture_default_str();
  cmd_selfplay->add_option("--factions", sp.factions, "comma-separated, in seat order")->capture_default_str();
  cmd_selfplay->add_option("--rules", sp.rules, "basic or advanced")->check(CLI::IsMember({"basic", "advanced"}))->capture_default_str();
  cmd_selfplay->add_option("--bots", sp.bots, "profiles (easy, medium, hard, brutal) given to the seats in turn, rotated each game")->capture_default_str();
  cmd_selfplay->add_option("--seed", sp.seed, "seed of the games and the bots")->capture_default_str();
  cmd_selfplay->add_option("--jobs", sp.jobs, "games played at once (threads)")->capture_default_str();
  cmd_selfplay->add_option("--turns", sp.turns, "number of turns (0.02)")->capture_default_str();
  cmd_selfplay->add_flag("--no-sync", sp.no_sync, "do not fsync each event (simulation only: a crash may lose games)");
  cmd_selfplay->add_flag("--projection", sp.projection, "also check every seat's view after every event when verifying (slow)");
  auto* cmd_tournament = app.add_subcommand("tournament", "bot strength: one seat per profile, factions rotated; win rates");
  bots::TournamentOptions tp;
  cmd_tournament->add_option("--games", tp.games, "number of games")->capture_default_str();
  cmd_tournament->add_option("--seed", tp.seed, "seed of the games and the bots")->capture_default_str();
  cmd_tournament->add_option("--jobs", tp.jobs, "games played at once (threads)")->capture_default_str();
  cmd_tournament->add_option("--turns", tp.turns, "number of turns (0.02)")->capture_default_str();
  cmd_tournament->add_option("--rules", tp.rules, "basic or advanced")->check(CLI::IsMember({"basic", "advanced"}))->capture_default_str();
  cmd_tournament->add_option("--factions", tp.factions, "exactly four factions, rotated over the profiles")->capture_default_str();
  cmd_tournament->add_flag("--no-sync", tp.no_sync, "do not fsync each event (simulation only)");
  cmd_tournament->add_option("--write", tp.write_doc, "also write the results into this Markdown file (docs/BOTS.md)");

  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::warn);

  if (cmd_serve->parsed()) {
    if (!admin_token_file.empty()) {
      std::ifstream f(admin_token_file);
      std::string token;
      if (!f || !std::getline(f, token)) {
        std::fprintf(stderr, "mentat: cannot read the admin token from %s\n", admin_token_file.c_str());
        return 2;
      }
      while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
      if (token.size() < 16) {
        std::fprintf(stderr, "mentat: the admin token in %s must have at least 16 characters\n", admin_token_file.c_str());
        return 2;
      }
      serve_opts.admin_token = token;
    }
    return server::run_serve(data_dir, listen_addr, port_file, serve_opts);
  }
  if (cmd_recover->parsed()) return server::run_recover(recover_dir.empty() ? data_dir : recover_dir, !recover_fast, accept_loss);
  if (cmd_selfplay->parsed()) {
    sp.data_dir = data_dir;
    return bots::run_selfplay(sp);
  }
  if (cmd_tournament->parsed()) {
    tp.data_dir = data_dir;
    return bots::run_tournament(tp);
  }

  if (cmd_rulings->parsed()) {
    for (const auto& info : ruling_registry()) {
      std::printf("%s: %s\n", std::string(info.key).c_str(), std::string(info.question).c_str());
      for (size_t i = 0; i < info.values.size(); ++i)
        std::printf("  %s%s\n", std::string(info.values[i]).c_str(), i == info.default_value ? " (default)" : "");
    }
    return 0;
  }

  std::string error;
  const bool reader = cmd_log->parsed() || cmd_show->parsed() || cmd_actions->parsed() || cmd_verify->parsed() ||
                      cmd_rooms->parsed() || cmd_render->parsed() || cmd_replay->parsed() || cmd_step->parsed() ||
                      cmd_diff->parsed() || cmd_bisect->parsed() || cmd_backup->parsed();
  auto st = open_store(data_dir, reader, &error);
  if (!st) return fail(3, error);

  auto make_setup = [&](GameSetup* g) -> bool {
    g->seed = seed;
    g->advanced = rules_arg == "advanced";
    g->max_turns = static_cast<uint8_t>(std::clamp(max_turns, 0, 255));
    if (!data::parse_module_list(modules_arg, &g->modules, &error)) return false;
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
    const int bad_records = verify_checksums ? server::print_integrity(*st) : 0;
    const int rc = do_verify(*st, rooms);
    return rc ? rc : bad_records ? 1 : 0;
  }

  if (cmd_migrate->parsed()) {
    std::vector<std::string> rooms;
    if (migrate_all) {
      for (const auto& m : st->rooms(&error)) rooms.push_back(m.room);
      if (!error.empty()) return fail(3, error);
    } else if (!room.empty()) {
      rooms.push_back(room);
    } else {
      return fail(2, "migrate needs a room or --all");
    }
    return cli::do_migrate(*st, rooms);
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

  if (cmd_render->parsed()) {
    GameState s;
    if (!store::load_state(*st, room, at, &s, &error)) return fail(3, error);
    inspect::Viewer who = inspect::Viewer::observer();
    if (!as.empty()) {
      Seat seat;
      if (!parse_seat(s, as, &seat, &error)) return fail(2, error);
      who = inspect::Viewer::of(seat);
    }
    std::FILE* f = std::fopen(svg_out.c_str(), "wb");
    if (!f) return fail(3, "cannot write " + svg_out);
    const std::string svg = inspect::render_svg(s, who);
    std::fwrite(svg.data(), 1, svg.size(), f);
    std::fclose(f);
    return 0;
  }

  if (cmd_replay->parsed()) {
    GameState probe;
    if (!store::load_state(*st, room, 0, &probe, &error)) return fail(3, error);
    Seat seat = kNoSeat;
    if (!as.empty() && !parse_seat(probe, as, &seat, &error)) return fail(2, error);
    std::vector<inspect::ReplayFrame> frames;
    GameState s;
    int rc = 0;
    bool ok = st->scan_events(room, 0, to, [&](int64_t v, const std::string& bytes) {
      codec::Event e;
      if (!codec::decode_event(bytes, &e, &error)) {
        rc = 3;
        return false;
      }
      GameState before = s;
      if (e.action.kind == ActionKind::CreateGame) s = create_game(e.setup, nullptr);
      else apply(s, e.seat, e.action, nullptr);
      if (v < from) return true;
      const bool hidden = seat == kNoSeat || e.seat == seat;
      const std::string line = inspect::summarize_event(e, v ? &before : nullptr, s, hidden);
      if (!html_out.empty()) {
        frames.push_back({v, line, inspect::render_position_layer(s),
                          inspect::render_panel(s, seat == kNoSeat ? inspect::Viewer::observer() : inspect::Viewer::of(seat))});
        return true;
      }
      std::printf("%s\n", line.c_str());
      if (replay_views)
        std::printf("%s\n", inspect::view_json(s, seat == kNoSeat ? inspect::Viewer::state() : inspect::Viewer::of(seat)).c_str());
      return true;
    }, &error);
    if (!ok || rc) return fail(3, error);
    if (!html_out.empty()) {
      std::FILE* f = std::fopen(html_out.c_str(), "wb");
      if (!f) return fail(3, "cannot write " + html_out);
      const std::string html = inspect::render_replay_html("Mentat replay of " + room, frames);
      std::fwrite(html.data(), 1, html.size(), f);
      std::fclose(f);
      std::printf("%zu frames written to %s\n", frames.size(), html_out.c_str());
    }
    return 0;
  }

  if (cmd_step->parsed()) return run_stepper(*st, room, as);
  if (cmd_backup->parsed()) return server::run_backup(*st, backup_dest);

  if (cmd_fork->parsed()) {
    if (fork_name.empty()) fork_name = fmt::format("{}-f{}", room, at);
    Rulings overrides;
    bool have_rulings = !ruling_args.empty();
    if (have_rulings) {
      GameState s;
      if (!store::load_state(*st, room, at, &s, &error)) return fail(3, error);
      overrides = s.rulings;
      for (const auto& r : ruling_args) {
        auto eq = r.find('=');
        if (eq == std::string::npos || !overrides.set(r.substr(0, eq), r.substr(eq + 1), &error))
          return fail(2, eq == std::string::npos ? "a ruling is written id=value" : error);
      }
    }
    if (!store::fork_room(*st, room, at, fork_name, have_rulings ? &overrides : nullptr, &error)) return fail(3, error);
    std::printf("%s\n", fork_name.c_str());
    return 0;
  }

  if (cmd_rerun->parsed()) {
    GameState s;
    if (!store::load_state(*st, room, 0, &s, &error)) return fail(3, error);
    Rulings alt = s.rulings;
    for (const auto& r : ruling_args) {
      auto eq = r.find('=');
      if (eq == std::string::npos || !alt.set(r.substr(0, eq), r.substr(eq + 1), &error))
        return fail(2, eq == std::string::npos ? "a ruling is written id=value" : error);
    }
    auto rep = replay::rerun(*st, room, alt, rerun_from);
    if (!rep.ok) return fail(3, rep.error);
    if (!rep.diverged) {
      std::printf("no difference: %lld events re-validated and refolded under the other ruling\n", static_cast<long long>(rep.checked));
    } else {
      std::printf("first divergence at version %lld (%s): %s\n", static_cast<long long>(rep.version), rep.kind.c_str(), rep.detail.c_str());
      if (!rep.diff.empty()) std::printf("%s", rerun_json ? (replay::diff_to_json(rep.diff) + "\n").c_str() : replay::diff_to_text(rep.diff).c_str());
    }
    if (!keep_name.empty()) {
      // Keep the position just before the divergence under the other ruling.
      int64_t head = -1;
      if (!replay::keep_rerun(*st, room, alt, rerun_from, rep, keep_name, &head, &error)) return fail(3, error);
      std::printf("kept as room %s (head %lld)\n", keep_name.c_str(), static_cast<long long>(head));
    }
    return rep.diverged ? 1 : 0;
  }

  if (cmd_diff->parsed()) {
    GameState a, b;
    if (!load_position(*st, pos_a, &a, &error) || !load_position(*st, pos_b, &b, &error)) return fail(3, error);
    auto d = replay::diff_states(a, b);
    if (diff_json) std::printf("%s\n", replay::diff_to_json(d).c_str());
    else std::printf("%s", replay::diff_to_text(d).c_str());
    return d.empty() ? 0 : 1;
  }

  if (cmd_bisect->parsed()) {
    if (invariant.empty() == predicate.empty()) return fail(2, "bisect needs exactly one of --invariant or --predicate");
    std::function<bool(const GameState&)> holds;
    std::unique_ptr<replay::Predicate> pred;
    if (!predicate.empty()) {
      pred = replay::Predicate::parse(predicate, &error);
      if (!pred) return fail(2, error);
      holds = [&](const GameState& s) { return pred->eval(s); };
    } else {
      if (invariant != "any" && invariant != "custody" && invariant != "forces" && invariant != "spice")
        return fail(2, "unknown invariant '" + invariant + "' (custody, forces, spice, any)");
      holds = [&](const GameState& s) {
        auto v = inspect::check_invariants(s);
        return v && (invariant == "any" || v->invariant == invariant);
      };
    }
    auto m = st->meta(room, &error);
    if (!m) return fail(3, error.empty() ? "no room " + room : error);
    auto r = replay::bisect(m->head, [&](int64_t v, GameState* out, std::string* err) {
      return store::load_state(*st, room, v, out, err);
    }, holds);
    if (!r.error.empty()) return fail(3, r.error);
    if (!r.found) {
      std::printf("never: the condition does not hold at the head (version %lld); %d state(s) loaded\n", static_cast<long long>(m->head), r.loads);
      return 1;
    }
    std::string bytes;
    codec::Event e;
    GameState before, after;
    std::string line;
    if (st->read_event(room, r.version, &bytes, &error) && codec::decode_event(bytes, &e, &error) &&
        store::load_state(*st, room, r.version, &after, &error)) {
      bool have_before = r.version > 0 && store::load_state(*st, room, r.version - 1, &before, &error);
      line = inspect::summarize_event(e, have_before ? &before : nullptr, after, true);
    }
    std::printf("first version where it holds: %lld (%d state(s) loaded)\n%s\n", static_cast<long long>(r.version), r.loads, line.c_str());
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
