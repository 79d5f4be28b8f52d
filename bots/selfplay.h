// Self-play: complete games between bots, stored like any other game.
//
// Contract:
//  * play_game() creates a room and plays it to the end. Every action is a
//    bot's choice from its seat's legal actions, submitted through
//    store::submit_loaded (the submit path of a room kept loaded: validate,
//    apply, hash, encode, append; the driver's state is the room's head, not
//    reloaded from a snapshot before each action), so each decision is an
//    ordinary event, the same bytes store::submit would store. After every
//    event the custody invariants are checked (inspect::check_invariants) on
//    the driver's state; at the end replay::verify_room (refold from the
//    stored events, every hash compared) must pass unless spec.verify is off. The first failure ends the game with ok = false, the room id and
//    the version where it happened.
//  * Deterministic: the same GameSpec gives the same events (the driver picks
//    among simultaneously waited-for seats with an Rng seeded from the spec).
//  * Thread-safe: play_game may run concurrently on one EventStore (distinct
//    rooms).
//  * run_selfplay / run_tournament are the `mentat selfplay` and `mentat
//    tournament` commands (docs/BOTS.md): they open the store themselves,
//    print progress on stderr and a summary on stdout, and return the exit
//    code.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "store/event_store.h"

namespace mentat::bots {

struct GameSpec {
  GameSetup setup;
  std::vector<Profile> profiles;  // one per seat
  uint64_t bot_seed = 0;
  std::string room;               // empty: derived from the seed
  bool verify = true;             // replay::verify_room at the end
  bool projection = false;        // ... with the per-seat view checks (slow)
  int max_events = 30000;
};

struct GameResult {
  bool ok = false;
  std::string room;
  int64_t version = -1;  // last stored version (the failing one when !ok)
  std::string error;
  FactionMask winners = 0;   // factions (mask)
  uint8_t victory_kind = 0;
  int turns = 0;
  int events = 0;        // events stored after creation
  std::vector<Faction> factions;
  std::vector<Profile> profiles;
};

GameResult play_game(store::EventStore& st, const GameSpec& spec);

// Same loop without a store (tests and benchmarks of the bots alone): every
// step is validated, applied and checked for invariants. on_step (optional)
// sees each state after an action.
struct Step {
  Seat seat;
  Action action;
};
GameResult play_in_memory(const GameSpec& spec, const std::function<void(const GameState&, const Step&)>& on_step = {});

std::string_view victory_kind_name(uint8_t kind);

struct SelfPlayOptions {
  std::string data_dir;
  int games = 10;
  std::string factions = "atreides,bene_gesserit,emperor,fremen,harkonnen,spacing_guild";
  std::string rules = "basic";
  std::string bots = "easy,medium,hard,brutal";  // assigned to seats round-robin, rotated per game
  uint64_t seed = 1;
  int jobs = 1;
  int turns = 10;
  bool no_sync = false;
  bool projection = false;
  bool json = false;  // the summary as one JSON object on stdout (docs/CLI.md)
  std::string modules;  // "stronghold_cards,...": added to the modules the factions bring
};
int run_selfplay(const SelfPlayOptions& o);

struct TournamentOptions {
  std::string data_dir;
  int games = 600;
  uint64_t seed = 1;
  int jobs = 1;
  int turns = 10;
  std::string rules = "basic";
  std::string factions = "atreides,bene_gesserit,emperor,harkonnen";  // exactly four
  bool no_sync = false;
  std::string write_doc;  // path of docs/BOTS.md to write (empty: don't)
  bool json = false;      // the results as one JSON object on stdout (docs/CLI.md)
};
int run_tournament(const TournamentOptions& o);

// 95% Wilson score interval for k successes in n trials.
void wilson95(int k, int n, double* lo, double* hi);

}  // namespace mentat::bots
