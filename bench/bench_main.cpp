// Benchmarks (Google Benchmark). Build with -DMENTAT_BUILD_BENCH=ON, run
//   ./build/bench/mentat_bench --benchmark_min_time=2
// Figures and how to read them: docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "bots/selfplay.h"
#include "core/engine.h"
#include "events/codec.h"
#include "replay/fold.h"
#include "store/room.h"
#include "support/random_play.h"

using namespace mentat;

namespace {

// One recorded 6-faction advanced game (random legal play).
struct Recorded {
  GameSetup setup;
  std::vector<codec::Event> events;
  std::vector<std::string> bytes;
};

const Recorded& recorded() {
  static const Recorded r = [] {
    Recorded rec;
    rec.setup = testplay::setup_for(2026, 6, true);
    GameState s = create_game(rec.setup, nullptr);
    std::string why;
    testplay::play(s, 2026, 100000, [&](const GameState& st, const testplay::Step& step) {
      codec::Event e;
      e.version = st.version;
      e.seat = step.seat;
      e.action = step.action;
      e.draws = step.draws;
      e.state_hash = codec::state_hash(st);
      rec.events.push_back(e);
    }, &why);
    for (const auto& e : rec.events) rec.bytes.push_back(codec::encode_event(e));
    return rec;
  }();
  return r;
}

// Fold: apply stored (already decoded) actions to a state.
void BM_Fold(benchmark::State& state) {
  const auto& rec = recorded();
  int64_t events = 0;
  for (auto _ : state) {
    GameState s = create_game(rec.setup, nullptr);
    for (const auto& e : rec.events) apply(s, e.seat, e.action, nullptr);
    benchmark::DoNotOptimize(s);
    events += static_cast<int64_t>(rec.events.size());
  }
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["events/game"] = static_cast<double>(rec.events.size());
}
BENCHMARK(BM_Fold)->Unit(benchmark::kMicrosecond);

// Fold from bytes: verify + decode + apply.
void BM_FoldFromBytes(benchmark::State& state) {
  const auto& rec = recorded();
  int64_t events = 0;
  std::string err;
  for (auto _ : state) {
    GameState s = create_game(rec.setup, nullptr);
    for (const auto& b : rec.bytes) {
      codec::Event e;
      codec::decode_event(b, &e, &err);
      apply(s, e.seat, e.action, nullptr);
    }
    benchmark::DoNotOptimize(s);
    events += static_cast<int64_t>(rec.bytes.size());
  }
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FoldFromBytes)->Unit(benchmark::kMicrosecond);

// State hash (canonical encoding + xxh3), paid once per event when storing.
void BM_StateHash(benchmark::State& state) {
  GameState s = create_game(recorded().setup, nullptr);
  for (auto _ : state) benchmark::DoNotOptimize(codec::state_hash(s));
}
BENCHMARK(BM_StateHash);

// One cold replay: open, scan, decode and fold. Not inlined, so that
// callgrind can count it alone (--toggle-collect='*cold_replay_once*').
__attribute__((noinline)) GameState cold_replay_once(const std::string& dir, bool read_only) {
  std::string err;
  store::Options ro;
  ro.sync = false;
  ro.create_if_missing = false;
  ro.read_only = read_only;  // a reader: no lock, log or options file written
  auto st = store::EventStore::open(dir, ro, &err);
  GameState s;
  st->scan_events("game", 0, INT64_MAX, [&](int64_t, const std::string& bytes) {
    codec::Event e;
    codec::decode_event(bytes, &e, &err);
    if (e.action.kind() == ActionKind::CreateGame) s = create_game(e.setup, nullptr);
    else apply(s, e.seat, e.action, nullptr);
    return true;
  }, &err);
  return s;
}

// Replay a whole stored game from RocksDB, opening the store cold each time
// (read-only, as a replay or verify does; BM_ReplayFromStoreColdWritable
// opens it for writing, as the room server does).
void replay_cold(benchmark::State& state, bool read_only) {
  const auto dir = std::filesystem::temp_directory_path() / "mentat-bench-replay";
  std::filesystem::remove_all(dir);
  std::string err;
  {
    auto st = store::EventStore::open(dir.string(), store::Options{false, true}, &err);
    codec::Event create;
    create.action = action::CreateGame{};
    create.setup = recorded().setup;
    GameState s = create_game(create.setup, &create.draws);
    create.state_hash = codec::state_hash(s);
    st->append("game", -1, codec::encode_event(create), "c");
    int64_t head = 0;
    for (const auto& b : recorded().bytes) st->append("game", head++, b, "");
  }
  {
    // Reopen once for writing: recovery moves the log into table files, as
    // any later writer's open would; the replays below read tables, not a log.
    auto st = store::EventStore::open(dir.string(), store::Options{false, false}, &err);
  }
  for (auto _ : state) {
    GameState s = cold_replay_once(dir.string(), read_only);
    benchmark::DoNotOptimize(s);
  }
  std::filesystem::remove_all(dir);
}
void BM_ReplayFromStoreCold(benchmark::State& state) { replay_cold(state, true); }
void BM_ReplayFromStoreColdWritable(benchmark::State& state) { replay_cold(state, false); }
BENCHMARK(BM_ReplayFromStoreCold)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReplayFromStoreColdWritable)->Unit(benchmark::kMillisecond);

// Self-play: complete 6-faction advanced games by random legal players,
// stored in RocksDB with sync off (the benchmark only).
void BM_SelfPlayStored(benchmark::State& state) {
  const auto dir = std::filesystem::temp_directory_path() / "mentat-bench-selfplay";
  std::filesystem::remove_all(dir);
  std::string err;
  auto st = store::EventStore::open(dir.string(), store::Options{false, true}, &err);
  uint64_t seed = 1;
  int64_t games = 0;
  for (auto _ : state) {
    GameSetup g = testplay::setup_for(seed, 6, true);
    codec::Event create;
    create.action = action::CreateGame{};
    create.setup = g;
    GameState s = create_game(g, &create.draws);
    create.state_hash = codec::state_hash(s);
    const std::string room = "g" + std::to_string(seed);
    st->append(room, -1, codec::encode_event(create), "c");
    std::string why;
    testplay::play(s, seed, 100000, [&](const GameState& after, const testplay::Step& step) {
      codec::Event e;
      e.version = after.version;
      e.seat = step.seat;
      e.action = step.action;
      e.draws = step.draws;
      e.state_hash = codec::state_hash(after);
      st->append(room, static_cast<int64_t>(after.version) - 1, codec::encode_event(e), "");
    }, &why);
    ++seed;
    ++games;
  }
  state.counters["games/s"] = benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsRate);
  st.reset();
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_SelfPlayStored)->Unit(benchmark::kMillisecond);

// A 6-faction advanced game of bots, one seat per profile (easy, medium,
// hard, brutal, hard, brutal), not verified at the end.
bots::GameSpec six_bots(uint64_t seed, const std::string& room) {
  bots::GameSpec spec;
  spec.setup = testplay::setup_for(seed, 6, true);
  spec.profiles = {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard,
                   bots::Profile::Brutal, bots::Profile::Hard, bots::Profile::Brutal};
  spec.bot_seed = seed;
  spec.room = room;
  spec.verify = false;
  return spec;
}

// Self-play by bots (bots/selfplay.h): complete 6-faction advanced games, one
// seat per profile (easy, medium, hard, brutal, hard, brutal), every action
// through store::submit_loaded (the room kept in memory: validate, apply,
// hash, encode, append; sync off),
// the bots building each seat's view and legal actions; no final verify.
void self_play_bots(benchmark::State& state, bool wal) {
  const auto dir = std::filesystem::temp_directory_path() / "mentat-bench-selfplay-bots";
  std::filesystem::remove_all(dir);
  std::string err;
  store::Options opts{false, true};
  opts.wal = wal;
  auto st = store::EventStore::open(dir.string(), opts, &err);
  uint64_t seed = 1;
  int64_t games = 0, events = 0;
  for (auto _ : state) {
    const auto r = bots::play_game(*st, six_bots(seed, "b" + std::to_string(seed)));
    if (!r.ok) state.SkipWithError(r.error.c_str());
    events += r.events;
    ++seed;
    ++games;
  }
  state.counters["games/s"] = benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsRate);
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["events/game"] = games ? static_cast<double>(events) / static_cast<double>(games) : 0.0;
  st.reset();
  std::filesystem::remove_all(dir);
}
void BM_SelfPlayBots(benchmark::State& state) { self_play_bots(state, true); }
BENCHMARK(BM_SelfPlayBots)->Unit(benchmark::kMillisecond);
// The same with the store's write-ahead log off (store::Options::wal): the
// appends go to the memtable only (a simulation's store, not a game's).
void BM_SelfPlayBotsNoWal(benchmark::State& state) { self_play_bots(state, false); }
BENCHMARK(BM_SelfPlayBotsNoWal)->Unit(benchmark::kMillisecond);

// The full verify of one stored room (replay/fold.h verify_room, as `mentat
// verify` and `mentat recover` run it): decode, re-validate, refold, draws,
// state hash, custody invariants, stored snapshots, client action ids and
// the projection check (every seat's and the observer's view unchanged when
// what they may not know is permuted). The room: one 6-faction advanced game
// played by bots through store::submit_loaded (snapshots and client ids as
// the server stores them). BM_VerifyNoProjection skips the view checks.
void verify(benchmark::State& state, bool projection) {
  const auto dir = std::filesystem::temp_directory_path() / "mentat-bench-verify";
  std::filesystem::remove_all(dir);
  std::string err;
  auto st = store::EventStore::open(dir.string(), store::Options{false, true}, &err);
  const auto game = bots::play_game(*st, six_bots(2026, "v"));
  if (!game.ok) state.SkipWithError(game.error.c_str());
  replay::VerifyOptions opts;
  opts.projection = projection;
  int64_t events = 0;
  for (auto _ : state) {
    const auto r = replay::verify_room(*st, "v", {}, opts);
    if (!r.ok) state.SkipWithError((r.check + ": " + r.detail).c_str());
    events += r.events;
  }
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["per_event"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["events/game"] = static_cast<double>(game.events);
  st.reset();
  std::filesystem::remove_all(dir);
}
void BM_VerifyFull(benchmark::State& state) { verify(state, true); }
BENCHMARK(BM_VerifyFull)->Unit(benchmark::kMillisecond);
void BM_VerifyNoProjection(benchmark::State& state) { verify(state, false); }
BENCHMARK(BM_VerifyNoProjection)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
