// mentat: the command-line front end. main() declares every option (CLI11)
// into one cli::Args and dispatches to the command groups in cli/*.cpp
// (cli/cli.h). Every command opens the store, does one thing, and exits 0 on
// success; errors are one line on stderr and a non-zero exit (1: the answer is
// "no"/"different"/"failed", 2: bad usage or input, 3: store problems).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "bots/selfplay.h"
#include "cli/cli.h"
#include "events/codec.h"
#include "events/names.h"
#include "server/server.h"

using namespace mentat;

namespace {

// A mistyped subcommand gets "did you mean" (CLI11 would only say that the
// argument was not expected). Returns 2 after printing, 0 to go on.
int check_subcommand(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> known;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) known.push_back(sub->get_name());
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--data") {
      ++i;
      continue;
    }
    if (!arg.empty() && arg[0] == '-') continue;
    if (std::find(known.begin(), known.end(), arg) != known.end()) return 0;
    return cli::fail(2, "unknown command '" + arg + "'" + names::did_you_mean(arg, known) + " (mentat --help lists them)");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mentat: event-sourced rules engine for GF9's Dune (2019)"};
  cli::Args args;
  app.require_subcommand(1);
  app.fallthrough();  // --data and -v work after the subcommand too
  app.set_version_flag("--version", fmt::format("mentat engine {}, rules {}, state format {}", kEngineVersion, kRulesVersion,
                                                codec::kStateFormat));
  app.add_option("--data", args.data_dir, "the store: a directory (RocksDB) or a postgresql:// URL")->capture_default_str();
  app.add_flag("-v,--verbose", args.verbose, "log more (spdlog debug level)");

  // new
  auto* cmd_new = app.add_subcommand("new", "create a game; prints the room id");
  cmd_new->add_option("--modules", args.modules_arg, "comma-separated game modules (choam_richese, leader_skills, ...); default none");
  cmd_new->add_option("--factions", args.factions_arg, "comma-separated, in seat order")->capture_default_str();
  cmd_new->add_option("--seed", args.seed, "game seed (default: a random one, printed on stderr)");
  cmd_new->add_option("--rules", args.rules_arg, "basic or advanced")->check(CLI::IsMember({"basic", "advanced"}))->capture_default_str();
  cmd_new->add_option("--ruling", args.ruling_args, "ruling id=value (see `mentat rulings`)");
  cmd_new->add_option("--room", args.room_name, "room id (default: generated)");
  cmd_new->add_option("--turns", args.max_turns, "number of turns (0.02)")->capture_default_str();
  cmd_new->add_option("--position", args.position_file,
                      "start from a described position (JSON file: docs/CLI.md \"Positions\"); it gives the seats, "
                      "modules, rulings, seed and turns");

  // act
  auto* cmd_act = app.add_subcommand("act", "submit one action for a seat");
  cmd_act->add_option("room", args.room, "room id")->required();
  cmd_act->add_option("--seat", args.seat_arg, "seat number or faction")->required();
  cmd_act->add_option("--expect", args.expect, "the version the action is based on (compare-and-set), or 'head'")->required();
  cmd_act->add_option("action", args.action_json,
                      R"x(action JSON, e.g. '{"action_type":"Move","action":{"from":[{"location":"Arrakeen","forces":3}],"to":"Old Gap (East Sector)"}}'; names or ids; '-' reads it from standard input)x")->required();
  cmd_act->add_option("--id", args.action_id, "client action id (idempotency key; default: derived)");

  // log
  auto* cmd_log = app.add_subcommand("log", "one line per event");
  cmd_log->add_option("room", args.room, "room id")->required();
  cmd_log->add_flag("--json", args.json, "the stored events as JSON, one per line");
  cmd_log->add_flag("--hidden", args.hidden, "adjudicator view: show secret choices");
  cmd_log->add_option("--from", args.from, "first version");
  cmd_log->add_option("--to", args.to, "last version");

  // show
  auto* cmd_show = app.add_subcommand("show", "state (or a seat's view) as JSON");
  cmd_show->add_option("room", args.room, "room id")->required();
  cmd_show->add_option("--at", args.at, "version (default: head)")->check(CLI::Range(int64_t{-1}, INT64_MAX));
  cmd_show->add_option("--as", args.as, "seat number, faction, or 'observer'");
  cmd_show->add_flag("--position", args.show_position,
                     "print the version as a position (the whole table, inside its phase) in the format of new --position");

  // actions
  auto* cmd_actions = app.add_subcommand("actions", "what a seat may do now (decisions and legal actions)");
  cmd_actions->add_option("room", args.room, "room id")->required();
  cmd_actions->add_option("--seat", args.seat_arg, "seat number or faction")->required();
  cmd_actions->add_flag("--json", args.json, "the decisions with labelled choices as JSON (docs/CLI.md)");

  // verify
  auto* cmd_verify = app.add_subcommand("verify", "refold, re-validate and check every event");
  cmd_verify->add_option("room", args.room, "room id");
  cmd_verify->add_flag("--all", args.verify_all, "every room in the store");
  cmd_verify->add_flag("--json", args.json, "the results as JSON");
  cmd_verify->add_flag("--checksums", args.verify_checksums, "first read and check every record of every kind (as recover does)");

  // migrate (cli/upgrade.cpp)
  auto* cmd_migrate = app.add_subcommand("migrate", "refold rooms stored under an older state format and record their new hashes");
  cmd_migrate->add_option("room", args.room, "room id");
  cmd_migrate->add_flag("--all", args.migrate_all, "every room in the store");
  auto* cmd_migrate_store = app.add_subcommand(
      "migrate-store", "copy every room of the store (--data) into a new store of either backend, compare and verify it");
  cmd_migrate_store->add_option("dest", args.migrate_store_dest, "the new store: a directory or a postgresql:// URL")->required();

  // rooms, rulings
  auto* cmd_rooms = app.add_subcommand("rooms", "list rooms");
  cmd_rooms->add_flag("--json", args.json, "as JSON");
  auto* cmd_rulings = app.add_subcommand("rulings", "list the named rulings and their values");
  cmd_rulings->add_flag("--json", args.json, "as JSON");
  auto* cmd_names = app.add_subcommand("names", "the ids and names of locations, territories, leaders, cards and factions (Markdown)");

  // demo
  auto* cmd_demo = app.add_subcommand("demo", "create a game, play random legal actions, print the log and verify");
  cmd_demo->add_option("--seed", args.seed, "game seed")->capture_default_str();
  cmd_demo->add_option("--factions", args.factions_arg, "comma-separated, in seat order")->capture_default_str();
  cmd_demo->add_option("--rules", args.rules_arg, "basic or advanced")->check(CLI::IsMember({"basic", "advanced"}))->capture_default_str();
  cmd_demo->add_option("--max-events", args.demo_events, "stop after this many actions")->capture_default_str();
  cmd_demo->add_option("--room", args.room_name, "room id (default: generated)");

  // play (random legal actions in an existing room)
  auto* cmd_play = app.add_subcommand("play", "play random legal actions in a room");
  cmd_play->add_option("room", args.room, "room id")->required();
  cmd_play->add_option("--seed", args.seed, "seed of the random player")->capture_default_str();
  cmd_play->add_option("--max-events", args.demo_events, "stop after this many actions")->capture_default_str();

  // replay
  auto* cmd_replay = app.add_subcommand("replay", "print events with one-line summaries (what a seat saw with --as)");
  cmd_replay->add_option("room", args.room, "room id")->required();
  cmd_replay->add_option("--from", args.from, "first version");
  cmd_replay->add_option("--to", args.to, "last version");
  cmd_replay->add_option("--as", args.as, "seat number, faction or 'observer' (default): only what that viewer saw");
  cmd_replay->add_flag("--hidden", args.hidden, "adjudicator replay: the seed and every secret choice");
  cmd_replay->add_option("--html", args.html_out, "write a self-contained HTML replay to this file ('-': stdout)");
  cmd_replay->add_flag("--views", args.replay_views, "print the view (JSON) after each event");
  cmd_replay->add_flag("--json", args.json, "one JSON object per event (version, seat, kind, summary, view with --views)");

  // step (interactive)
  auto* cmd_step = app.add_subcommand("step", "interactive stepper: n, p, j V, k KIND, s SEAT, v, q");
  cmd_step->add_option("room", args.room, "room id")->required();
  cmd_step->add_option("--as", args.as, "seat number, faction or 'observer'");

  // fork
  auto* cmd_fork = app.add_subcommand("fork", "new room sharing the first versions of another");
  cmd_fork->add_option("room", args.room, "parent room")->required();
  cmd_fork->add_option("--at", args.at, "last shared version")->required()->check(CLI::Range(int64_t{0}, INT64_MAX));
  cmd_fork->add_option("--name", args.fork_name, "new room id (default: ROOM-fV)");
  cmd_fork->add_option("--ruling", args.ruling_args, "ruling id=value from the fork on");

  // rerun
  auto* cmd_rerun = app.add_subcommand("rerun", "re-validate a game's actions under another ruling");
  cmd_rerun->add_option("room", args.room, "room id")->required();
  cmd_rerun->add_option("--ruling", args.ruling_args, "ruling id=value")->required();
  cmd_rerun->add_option("--from", args.rerun_from, "version from which the other ruling holds (default 0: the whole game)");
  cmd_rerun->add_option("--keep", args.keep_name, "keep the rerun as a fork with this id (up to the divergence)");
  cmd_rerun->add_flag("--json", args.json, "the whole report as one JSON object");

  // diff
  auto* cmd_diff = app.add_subcommand("diff", "compare two positions: ROOM_A[@V] ROOM_B[@V]");
  cmd_diff->add_option("a", args.pos_a, "ROOM[@VERSION]")->required();
  cmd_diff->add_option("b", args.pos_b, "ROOM[@VERSION]")->required();
  cmd_diff->add_flag("--json", args.json, "JSON output");

  // render
  auto* cmd_render = app.add_subcommand("render", "draw the board at a version as SVG");
  cmd_render->add_option("room", args.room, "room id")->required();
  cmd_render->add_option("--at", args.at, "version (default: head)")->check(CLI::Range(int64_t{-1}, INT64_MAX));
  cmd_render->add_option("--as", args.as, "seat number or faction (adds its private panel), or 'observer' (default)");
  cmd_render->add_option("--svg", args.svg_out, "output file ('-': stdout)")->required();

  // bisect
  auto* cmd_bisect = app.add_subcommand("bisect", "first version where an invariant fails or a predicate holds");
  cmd_bisect->add_option("room", args.room, "room id")->required();
  cmd_bisect->add_option("--invariant", args.invariant, "custody, forces, spice, or any");
  cmd_bisect->add_option("--predicate", args.predicate, R"(e.g. 'turn >= 3 && spice(atreides) > 12')");
  cmd_bisect->add_flag("--json", args.json, "the result as JSON");

  // serve, recover (server/server.h)
  auto* cmd_serve = app.add_subcommand("serve", "run the room server (JSON over HTTP; docs/SERVER.md)");
  std::string listen_addr = "127.0.0.1:8080", port_file;
  server::ServerOptions serve_opts;
  cmd_serve->add_option("--data", args.data_dir, "the store: a directory (RocksDB) or a postgresql:// URL")->capture_default_str();
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
  cmd_recover->add_option("dir", recover_dir, "the store: a directory or a postgresql:// URL (default: --data)");
  cmd_recover->add_flag("--no-projection", recover_fast, "skip the per-seat view checks (faster)");
  bool accept_loss = false;
  bool recover_json = false;
  cmd_recover->add_flag("--json", recover_json, "one JSON object on stdout (progress stays on stderr)");
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
  cmd_selfplay->add_flag("--json", sp.json, "the summary and every game's result as one JSON object on stdout");
  cmd_selfplay->add_option("--modules", sp.modules, "modules besides those the factions bring (e.g. stronghold_cards)");
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
  cmd_tournament->add_flag("--json", tp.json, "the results as one JSON object on stdout");

  if (int rc = check_subcommand(app, argc, argv)) return rc;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every usage error exits 2 (docs/CLI.md).
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  args.seed_given = cmd_new->count("--seed") > 0;
  for (const char* o : {"--factions", "--seed", "--rules", "--ruling", "--modules", "--turns"})
    if (cmd_new->count(o) > 0) args.position_conflicts += (args.position_conflicts.empty() ? "" : ", ") + std::string(o);
  spdlog::set_level(args.verbose ? spdlog::level::debug : spdlog::level::warn);

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
    return server::run_serve(args.data_dir, listen_addr, port_file, serve_opts);
  }
  if (cmd_recover->parsed()) return server::run_recover(recover_dir.empty() ? args.data_dir : recover_dir, !recover_fast, accept_loss, recover_json);
  if (cmd_selfplay->parsed()) {
    sp.data_dir = args.data_dir;
    return bots::run_selfplay(sp);
  }
  if (cmd_tournament->parsed()) {
    tp.data_dir = args.data_dir;
    return bots::run_tournament(tp);
  }
  if (cmd_rulings->parsed()) return cli::cmd_rulings(args);
  if (cmd_names->parsed()) return cli::cmd_names(args);

  // The commands that work on a store: which are readers, whether their ROOM
  // argument must name a stored room (else exit 2, before anything runs), and
  // what each runs.
  struct StoreCommand {
    CLI::App* sub;
    bool reader;
    bool room;
    int (*run)(const cli::Args&, store::EventStore&);
  };
  const StoreCommand commands[] = {
      {cmd_new, false, false, cli::cmd_new},         {cmd_act, false, true, cli::cmd_act},
      {cmd_log, true, true, cli::cmd_log},           {cmd_show, true, true, cli::cmd_show},
      {cmd_actions, true, true, cli::cmd_actions},   {cmd_verify, true, false, cli::cmd_verify},
      {cmd_rooms, true, false, cli::cmd_rooms},      {cmd_render, true, true, cli::cmd_render},
      {cmd_replay, true, true, cli::cmd_replay},     {cmd_step, true, true, cli::cmd_step},
      {cmd_fork, false, true, cli::cmd_fork},        {cmd_rerun, false, true, cli::cmd_rerun},
      {cmd_diff, true, false, cli::cmd_diff},        {cmd_bisect, true, true, cli::cmd_bisect},
      {cmd_play, false, true, cli::cmd_play},        {cmd_demo, false, false, cli::cmd_demo},
      {cmd_migrate, false, false, cli::cmd_migrate}, {cmd_migrate_store, true, false, cli::cmd_migrate_store},
  };
  if (cmd_backup->parsed()) {
    std::string error;
    auto st = cli::open_store(args.data_dir, true, &error);
    if (!st) return cli::fail(error.rfind("no store", 0) == 0 ? 2 : 3, error);
    return server::run_backup(*st, backup_dest);
  }
  for (const auto& c : commands) {
    if (!c.sub->parsed()) continue;
    std::string error;
    auto st = cli::open_store(args.data_dir, c.reader, &error);
    if (!st) return cli::fail(error.rfind("no store", 0) == 0 ? 2 : 3, error);
    if (c.room)
      if (const int rc = cli::check_room(*st, args.room)) return rc;
    return c.run(args, *st);
  }
  return 0;
}
