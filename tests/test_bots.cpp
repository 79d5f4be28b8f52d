// Bots (bots/): every profile plays complete games with zero rejected
// actions and the invariants after every event; determinism; a bot's input
// holds nothing hidden from its seat; a long run over profiles, faction
// mixes and both rule sets.
//
// The long run: 1,000 seeded games (2-6 players, every profile, both rule
// sets), tagged "[bots-long]" rather than "[bots]" so that the quick
// `mentat_tests "[bots]"` stays quick; ctest runs them (five test cases of
// 200 games, about a minute of CPU each: `ctest -j2` takes a few minutes).
//   ./build/tests/mentat_tests "[bots-long]"
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "bots/bot.h"
#include "bots/selfplay.h"
#include "events/codec.h"
#include "inspect/custody.h"
#include "inspect/projection.h"
#include "store/room.h"

using namespace mentat;
using namespace mentat::bots;

namespace {

namespace fs = std::filesystem;

struct BotTempDir {
  fs::path path;
  BotTempDir() {
    static int n = 0;
    path = fs::temp_directory_path() / ("mentat-bots-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
  }
  ~BotTempDir() { fs::remove_all(path); }
};

// Factions for a game: `players` of the six, chosen and ordered by the seed.
GameSetup setup_for(uint64_t seed, int players, bool advanced) {
  GameSetup g;
  g.seed = seed;
  g.advanced = advanced;
  Rng r = Rng::from_seed(seed * 7919 + 3);
  uint8_t all[kNumFactions] = {0, 1, 2, 3, 4, 5};
  r.shuffle(std::span<uint8_t>(all, kNumFactions));
  for (int i = 0; i < players; ++i) g.factions.push_back(static_cast<Faction>(all[i]));
  return g;
}

GameSpec spec_for(uint64_t seed, int players, bool advanced, const std::vector<Profile>& profiles) {
  GameSpec spec;
  spec.setup = setup_for(seed, players, advanced);
  for (int i = 0; i < players; ++i) spec.profiles.push_back(profiles[static_cast<size_t>(i) % profiles.size()]);
  spec.bot_seed = seed * 31 + 7;
  return spec;
}

std::string describe(const GameSpec& spec, const GameResult& r) {
  std::string s = "seed " + std::to_string(spec.setup.seed) + (spec.setup.advanced ? " advanced" : " basic") + ":";
  for (size_t i = 0; i < spec.profiles.size(); ++i)
    s += " " + std::string(faction_key(spec.setup.factions[i])) + "=" + std::string(profile_name(spec.profiles[i]));
  return s + (r.ok ? "" : " FAILED at version " + std::to_string(r.version) + ": " + r.error);
}

void run_many(int games, uint64_t first_seed) {
  const Profile all[] = {Profile::Easy, Profile::Medium, Profile::Hard, Profile::Brutal};
  int ok = 0;
  for (int g = 0; g < games; ++g) {
    const uint64_t seed = first_seed + static_cast<uint64_t>(g);
    const int players = 2 + g % 5;
    const bool advanced = (g / 5) % 2 == 1;
    std::vector<Profile> profiles;
    for (int i = 0; i < players; ++i) profiles.push_back(all[(g + i * (1 + g % 3)) % 4]);
    const auto spec = spec_for(seed, players, advanced, profiles);
    const auto r = play_in_memory(spec);
    INFO(describe(spec, r));
    CHECK(r.ok);
    ok += r.ok;
  }
  CHECK(ok == games);
}

}  // namespace

TEST_CASE("each bot profile plays complete games, 2-6 players, basic and advanced", "[bots]") {
  for (int p = 0; p < kNumProfiles; ++p) {
    const auto profile = static_cast<Profile>(p);
    for (int players = 2; players <= 6; ++players) {
      for (bool advanced : {false, true}) {
        const uint64_t seed = 1000 + static_cast<uint64_t>(p * 100 + players * 10 + advanced);
        // The profile under test at every seat: no other profile to lean on.
        const auto spec = spec_for(seed, players, advanced, {profile});
        const auto r = play_in_memory(spec);
        INFO(describe(spec, r));
        CHECK(r.ok);
        CHECK(r.winners != 0);
      }
    }
  }
}

TEST_CASE("bot games through the store: every decision an event, verify passes", "[bots]") {
  BotTempDir dir;
  std::string error;
  store::Options opts;
  opts.sync = false;
  auto st = store::EventStore::open(dir.path.string(), opts, &error);
  REQUIRE(st);
  for (bool advanced : {false, true}) {
    GameSpec spec = spec_for(advanced ? 42 : 41, advanced ? 6 : 4, advanced,
                             {Profile::Brutal, Profile::Hard, Profile::Medium, Profile::Easy});
    spec.room = advanced ? "bots-adv" : "bots-basic";
    spec.projection = true;  // and every seat's view after every event
    const auto r = play_game(*st, spec);
    INFO(describe(spec, r));
    REQUIRE(r.ok);
    auto meta = st->meta(spec.room, &error);
    REQUIRE(meta);
    CHECK(meta->head == r.events);
    // The stored game equals the same game played in memory.
    std::vector<uint64_t> hashes;
    GameSpec mem = spec;
    const auto m = play_in_memory(mem, [&](const GameState& s, const Step&) { hashes.push_back(codec::state_hash(s)); });
    REQUIRE(m.ok);
    REQUIRE(static_cast<int64_t>(hashes.size()) == meta->head);
    int64_t v = 1;
    CHECK(st->scan_events(spec.room, 1, meta->head, [&](int64_t, const std::string& bytes) {
      codec::Event e;
      std::string err;
      REQUIRE(codec::decode_event(bytes, &e, &err));
      CHECK(e.state_hash == hashes[static_cast<size_t>(v - 1)]);
      ++v;
      return true;
    }, &error));
  }
}

TEST_CASE("bots are deterministic: same seed, same event hashes", "[bots]") {
  for (bool advanced : {false, true}) {
    const auto spec = spec_for(77, 5, advanced, {Profile::Brutal, Profile::Hard, Profile::Medium, Profile::Easy, Profile::Hard});
    std::vector<uint64_t> a, b;
    REQUIRE(play_in_memory(spec, [&](const GameState& s, const Step&) { a.push_back(codec::state_hash(s)); }).ok);
    REQUIRE(play_in_memory(spec, [&](const GameState& s, const Step&) { b.push_back(codec::state_hash(s)); }).ok);
    CHECK(a == b);
    // Another bot seed plays another game.
    auto other = spec;
    other.bot_seed += 1;
    std::vector<uint64_t> c;
    REQUIRE(play_in_memory(other, [&](const GameState& s, const Step&) { c.push_back(codec::state_hash(s)); }).ok);
    CHECK(a != c);
  }
}

TEST_CASE("a bot's input holds nothing hidden from its seat", "[bots]") {
  // At every decision of a few games, permute what the deciding seat may not
  // know (others' hands, traitors, spice, dials, deck orders, ...): its view,
  // its legal actions and every profile's choice stay the same.
  int checked = 0;
  for (bool advanced : {false, true}) {
    const auto spec = spec_for(advanced ? 91 : 90, 6, advanced, {Profile::Easy, Profile::Medium, Profile::Hard, Profile::Brutal});
    std::vector<std::unique_ptr<Bot>> bots;
    for (int p = 0; p < kNumProfiles; ++p) bots.push_back(make_bot(static_cast<Profile>(p), 5));
    // on_step sees the state after each action: check the next decision there.
    const auto r = play_in_memory(spec, [&](const GameState& s, const Step&) {
      const uint8_t w = waiting_for(s);
      for (Seat seat = 0; seat < s.num_seats; ++seat) {
        if (!((w >> seat) & 1u)) continue;
        const ViewInput in = make_input(s, seat);
        const GameState t = inspect::permute_hidden(s, inspect::Viewer::of(seat));
        const ViewInput pin = make_input(t, seat);
        INFO("version " << s.version << " seat " << int(seat));
        REQUIRE(in.view_bytes == pin.view_bytes);
        REQUIRE(in.legal == pin.legal);
        for (const auto& bot : bots) REQUIRE(bot->choose(in) == bot->choose(pin));
        ++checked;
      }
    });
    INFO(describe(spec, r));
    CHECK(r.ok);
  }
  CHECK(checked > 1000);
}

TEST_CASE("bots never choose outside the legal actions and never see the state", "[bots]") {
  // The Bot interface takes a ViewInput only; its view is a seat's View.
  GameState s = create_game(setup_for(5, 3, true), nullptr);
  const Seat seat = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
  const ViewInput in = make_input(s, seat);
  REQUIRE(in.view() != nullptr);
  for (int p = 0; p < kNumProfiles; ++p) {
    auto bot = make_bot(static_cast<Profile>(p), 1);
    const Action a = bot->choose(in);
    CHECK(std::find(in.legal.begin(), in.legal.end(), a) != in.legal.end());
  }
}

namespace {
struct CliRun {
  int code;
  std::string out;
};
CliRun run_cli(const std::string& args) {
  const std::string cmd = std::string(MENTAT_BINARY) + " " + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  return {WEXITSTATUS(status), out};
}
}  // namespace

TEST_CASE("CLI: selfplay and tournament", "[bots]") {
  BotTempDir dir;
  const std::string data = "--data " + dir.path.string();
  auto r = run_cli(data + " selfplay --games 3 --factions atreides,harkonnen,fremen --bots easy,brutal --rules advanced --turns 3 --jobs 2 --no-sync --seed 9");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("3 game(s) played"));
  CHECK_THAT(r.out, Catch::Contains("winners by profile"));
  // The rooms are ordinary rooms: verify passes.
  auto v = run_cli(data + " verify --all");
  CHECK(v.code == 0);
  CHECK_THAT(v.out, Catch::Contains("3 room(s) verified, 0 failed"));
  // Same seed again: the rooms exist already; the run fails naming the room.
  r = run_cli(data + " selfplay --games 1 --factions atreides,harkonnen --no-sync --seed 9");
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("FAILED room sp-9-0"));
  CHECK(run_cli(data + " selfplay --games 1 --bots easy,superb").code == 2);

  const std::string doc = (dir.path / "BOTS.md").string();
  r = run_cli(data + " tournament --games 4 --turns 2 --seed 3 --no-sync --write " + doc);
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("95% Wilson interval"));
  std::ifstream in(doc);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::Contains("<!-- tournament:begin -->"));
  CHECK_THAT(text, Catch::Contains("| brutal |"));
  CHECK_THAT(text, Catch::Contains("tournament --games 4 --seed 3"));
}

TEST_CASE("Wilson interval", "[bots]") {
  double lo, hi;
  wilson95(50, 100, &lo, &hi);
  CHECK(lo == Approx(0.4038).margin(0.001));
  CHECK(hi == Approx(0.5962).margin(0.001));
  wilson95(0, 10, &lo, &hi);
  CHECK(lo == 0.0);
  CHECK(hi == Approx(0.2775).margin(0.001));
}

// 1,000 seeded games in five parts of 200 (seeds 20000..20999): separate test
// cases so that `ctest -j2` runs them side by side (about a minute of CPU each).
TEST_CASE("1,000 bot games, part 1: seeds 20000-20199", "[bots-long][long]") { run_many(200, 20000); }
TEST_CASE("1,000 bot games, part 2: seeds 20200-20399", "[bots-long][long]") { run_many(200, 20200); }
TEST_CASE("1,000 bot games, part 3: seeds 20400-20599", "[bots-long][long]") { run_many(200, 20400); }
TEST_CASE("1,000 bot games, part 4: seeds 20600-20799", "[bots-long][long]") { run_many(200, 20600); }
TEST_CASE("1,000 bot games, part 5: seeds 20800-20999", "[bots-long][long]") { run_many(200, 20800); }
