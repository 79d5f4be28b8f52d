// The mentat command line, split by command group. main.cpp declares the
// options (CLI11) into one Args and dispatches; each cli/*.cpp implements a
// group of commands as `int cmd_x(const Args&, store::EventStore&)` returning
// the process exit code (docs/CLI.md: 0 ok, 1 "no", 2 usage/input, 3 store).
// Single-threaded; nothing here is a library API.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.h"
#include "inspect/view.h"
#include "store/room.h"

namespace mentat::cli {

// Every option of every subcommand; main.cpp binds them, commands read them.
struct Args {
  std::string data_dir = "./mentat-data";
  bool verbose = false;
  // new, demo
  std::string factions_arg = "atreides,bene_gesserit,emperor,fremen,harkonnen,spacing_guild";
  uint64_t seed = 1;
  bool seed_given = false;  // new without --seed takes a random seed (printed on stderr)
  std::string rules_arg = "basic";
  std::vector<std::string> ruling_args;
  std::string room_name;
  int max_turns = 10;
  std::string modules_arg;  // new --modules (core/data/modules.h parse_module_list)
  std::string position_file;       // new --position FILE (events/position.h)
  std::string position_conflicts;  // new: the options --position gives itself, if given too
  bool show_position = false;      // show --position
  int demo_events = 5000;
  // act
  std::string room;
  std::string seat_arg;
  std::string expect;  // a version, or "head"
  std::string action_json;
  std::string action_id;
  // log, show, replay, render, step
  bool json = false;
  bool hidden = false;
  int64_t from = 0;
  int64_t to = INT64_MAX;
  int64_t at = -1;
  std::string as;
  std::string html_out;
  bool replay_views = false;
  std::string svg_out;
  // verify
  bool verify_all = false;
  bool verify_checksums = false;  // verify --checksums (server::print_integrity first)
  // migrate
  bool migrate_all = false;
  std::string migrate_store_dest;  // migrate-store DEST
  // fork, rerun
  std::string fork_name;
  std::string keep_name;
  int64_t rerun_from = 0;
  // diff
  std::string pos_a, pos_b;
  // bisect
  std::string invariant, predicate;
};

// Prints "mentat: MSG" on stderr and returns `code`.
int fail(int code, const std::string& msg);

// A JSON string literal of `s` (quotes and escapes).
std::string json_str(std::string_view s);

// Commands that only read open the store read-only (docs/PERFORMANCE.md).
std::unique_ptr<store::EventStore> open_store(const std::string& dir, bool reader, std::string* error);

// A seat number or a faction key/name present in the game; the error
// suggests the nearest faction ("did you mean").
bool parse_seat(const GameState& s, const std::string& text, Seat* out, std::string* error);

// "ROOM" or "ROOM@V".
bool load_position(store::EventStore& st, const std::string& spec, GameState* out, std::string* error);

// Plays random legal actions (the project's own Rng) until the game ends or
// `max_events` are stored. Returns the number of events appended, -1 on error.
int play_random(store::EventStore& st, const std::string& room, uint64_t seed, int max_events, std::string* error);

int print_log(store::EventStore& st, const std::string& room, bool json, bool hidden, int64_t from, int64_t to);
int do_verify(store::EventStore& st, const std::vector<std::string>& rooms, bool json = false);
// ", did you mean 'g2'?" among the store's rooms, or "".
std::string room_hint(store::EventStore& st, const std::string& room);
// 0 when the store holds `room`; else says so on stderr and returns the exit
// code: 2 for a room the store does not hold ("no room X", with a did you
// mean), 3 when the store cannot be read.
int check_room(store::EventStore& st, const std::string& room);
// --as: "" gives `dflt`, "observer" the public view, else a seat (parse_seat).
bool parse_viewer(const GameState& s, const std::string& as, inspect::Viewer dflt, inspect::Viewer* out, std::string* error);
// Writes `bytes` to `path`, or to stdout when path is "-".
bool write_output(const std::string& path, const std::string& bytes, std::string* error);
// Applies "id=value" ruling arguments to *r; false with a sentence (and the
// nearest ruling names) on a bad one.
bool apply_rulings(const std::vector<std::string>& args, Rulings* r, std::string* error);
// Builds a GameSetup from the new/demo options; false with *error on bad input.
bool make_setup(const Args& a, GameSetup* g, std::string* error);

// Commands (cli/play.cpp).
int cmd_new(const Args& a, store::EventStore& st);
int cmd_act(const Args& a, store::EventStore& st);
int cmd_actions(const Args& a, store::EventStore& st);
int cmd_play(const Args& a, store::EventStore& st);
int cmd_demo(const Args& a, store::EventStore& st);
int cmd_rulings(const Args& a);
int cmd_names(const Args& a);
// Commands (cli/read.cpp).
int cmd_log(const Args& a, store::EventStore& st);
int cmd_show(const Args& a, store::EventStore& st);
int cmd_verify(const Args& a, store::EventStore& st);
int cmd_rooms(const Args& a, store::EventStore& st);
int cmd_render(const Args& a, store::EventStore& st);
int cmd_replay(const Args& a, store::EventStore& st);
int cmd_step(const Args& a, store::EventStore& st);
// Commands (cli/adjudicate.cpp).
int cmd_fork(const Args& a, store::EventStore& st);
int cmd_rerun(const Args& a, store::EventStore& st);
int cmd_diff(const Args& a, store::EventStore& st);
int cmd_bisect(const Args& a, store::EventStore& st);
// cli/upgrade.cpp
int cmd_migrate(const Args& a, store::EventStore& st);
int cmd_migrate_store(const Args& a, store::EventStore& st);  // migrate-store DEST (do_migrate_store, cli/commands.h)  // migrate ROOM|--all (do_migrate, cli/commands.h)

}  // namespace mentat::cli
