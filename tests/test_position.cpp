// Described positions (events/position.h, mentat new --position, show --position).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <set>
#include <tuple>

#include "bots/selfplay.h"
#include "events/codec.h"
#include "events/position.h"
#include "inspect/custody.h"
#include "replay/fold.h"
#include "store/room.h"
#include "support/random_play.h"
#include "support/run_command.h"
#include "inspect/view.h"

using namespace mentat;

namespace {

struct Recorded {
  GameSetup setup;
  std::vector<bots::Step> steps;
  std::vector<GameState> after;  // after[i]: the state at version i + 1
  // Phase starts (positions may start there), with the step that entered
  // them: the last start within a step is the table that step left behind.
  std::vector<std::pair<size_t, GameState>> starts;
};

Recorded record(uint64_t seed, int players, bool advanced) {
  bots::GameSpec spec;
  spec.setup = testplay::setup_for(seed, players, advanced);
  for (int i = 0; i < players; ++i) spec.profiles.push_back(i % 2 ? bots::Profile::Hard : bots::Profile::Medium);
  spec.bot_seed = seed * 31 + 7;
  spec.verify = false;
  Recorded r;
  r.setup = spec.setup;
  const auto res = bots::play_in_memory(spec, [&](const GameState&, const bots::Step& st) { r.steps.push_back(st); });
  REQUIRE(res.ok);
  // Refold with a phase-start watch (not during the bots' own look-ahead).
  GameState s = create_game(r.setup, nullptr);
  size_t current = 0;
  PhaseStartWatch watch([&](const GameState& x) {
    if (check_start(x, false)) return;  // the Setup, a Nexus, the game's end
    if (!r.starts.empty() && r.starts.back().first == current) r.starts.back().second = x;
    else r.starts.emplace_back(current, x);
  });
  for (size_t i = 0; i < r.steps.size(); ++i) {
    current = i;
    apply(s, r.steps[i].seat, r.steps[i].action, nullptr);
    r.after.push_back(s);
  }
  return r;
}

std::string canonical(GameState s, uint64_t version) {
  s.version = version;
  return codec::encode_state(s);
}

// The game of a position stored as a creation event and decoded again.
GameState through_creation_event(const GameSetup& g) {
  codec::Event e;
  e.action.emplace(action::CreateGame{});
  e.setup = g;
  codec::Event back;
  std::string error;
  REQUIRE(codec::decode_event(codec::encode_event(e), &back, &error));
  REQUIRE(back.setup.start);
  CHECK(back.setup.resume == g.resume);
  CHECK(back.setup.shuffle_decks == g.shuffle_decks);
  return create_game(back.setup, nullptr);
}

// Every view of `s` (each seat's, the observer's, the whole state's) with
// the version set to `version`.
std::vector<std::string> views(GameState s, uint64_t version) {
  s.version = version;
  std::vector<std::string> v{inspect::view_json(s, inspect::Viewer::observer()), inspect::view_json(s, inspect::Viewer::state())};
  for (Seat seat = 0; seat < s.num_seats; ++seat) v.push_back(inspect::view_json(s, inspect::Viewer::of(seat)));
  return v;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int n = 0;
    path = std::filesystem::temp_directory_path() / ("mentat-position-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    std::filesystem::remove_all(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

// A small hand-written position: Atreides and Harkonnen at the Bidding of turn 2.
std::string small_position(const std::string& atreides_extra = "", const std::string& top = "") {
  return R"({"seats": ["Atreides", "Harkonnen"], "seed": 7, "turn": 2, "phase": "Bidding", "storm_sector": 3,)" + top +
         R"( "spice": [{"place": "The Great Flat", "amount": 6}],
  "factions": [
    {"faction": "Atreides", "spice": 10, "forces": [{"place": "Arrakeen", "forces": 10}], "hand": [0, 5],
     "traitors": ["Feyd Rautha"])" + atreides_extra + R"(},
    {"faction": "Harkonnen", "spice": 8, "forces": [{"place": "Carthag", "forces": 10}], "hand": [7],
     "traitors": ["Lady Jessica"]}],
  "shuffle": true})";
}

}  // namespace

TEST_CASE("positions: show/new round trips at phase starts of recorded bot games", "[position]") {
  for (const auto& [seed, players, advanced] : {std::tuple{41, 4, false}, std::tuple{42, 6, true}}) {
    const Recorded r = record(static_cast<uint64_t>(seed), players, advanced);
    REQUIRE(r.starts.size() > 20);
    std::set<Phase> phases;
    // Every fifth phase start, and the rest of the game for a few of them.
    for (size_t k = 0; k < r.starts.size(); k += 5) {
      const auto& [step, start] = r.starts[k];
      INFO("seed " << seed << " step " << step << " phase " << phase_name(start.phase) << " turn " << int(start.turn));
      std::string json, error;
      REQUIRE(position::to_json(start, false, false, &json, &error));
      GameSetup g;
      REQUIRE(position::from_json(json, &g, &error));
      const auto bad = inspect::check_position(g);
      INFO((bad ? bad->invariant + ": " + bad->detail : std::string()));
      CHECK_FALSE(bad);
      GameState s = create_game(g, nullptr);
      const GameState& original = r.after[step];
      REQUIRE(canonical(s, 0) == canonical(original, 0));
      phases.insert(start.phase);
      // The position's JSON prints again the same.
      std::string again;
      CHECK_FALSE(g.resume);
      REQUIRE(position::to_json(*g.start, false, false, &again, &error));
      CHECK(again == json);
      // Stored as a creation event and read back, it gives the same game.
      CHECK(canonical(through_creation_event(g), 0) == canonical(original, 0));
      if (k % 15 == 0) {  // the recorded actions go on being accepted and give the same states
        for (size_t j = step + 1; j < r.steps.size() && j < step + 80; ++j) {
          REQUIRE_FALSE(validate(s, r.steps[j].seat, r.steps[j].action));
          apply(s, r.steps[j].seat, r.steps[j].action, nullptr);
          REQUIRE(canonical(s, 0) == canonical(r.after[j], 0));
        }
      }
    }
    CHECK(phases.size() >= 5);
  }
}

TEST_CASE("positions: custody and conservation violations are refused", "[position]") {
  std::string error;
  GameSetup g;
  REQUIRE(position::from_json(small_position(), &g, &error));
  CHECK_FALSE(inspect::check_position(g));
  // The decks not given hold every card that is nowhere else.
  CHECK(g.start->treachery_deck.n == data::kNumTreacheryCards - 3);
  CHECK(g.start->of(Faction::Atreides).reserves[0] == 10);
  // A card in two hands.
  std::string two = small_position();
  two.replace(two.find("\"hand\": [7]"), 11, "\"hand\": [0]");
  REQUIRE(position::from_json(two, &g, &error));
  auto v = inspect::check_position(g);
  REQUIRE(v);
  CHECK(v->invariant == "custody");
  CHECK(v->detail.find("more than one place") != std::string::npos);
  // Spice not conserved: a bank that does not balance.
  REQUIRE(position::from_json(small_position("", R"( "bank": 5,)"), &g, &error));
  v = inspect::check_position(g);
  REQUIRE(v);
  CHECK(v->invariant == "spice");
  // 21 forces.
  REQUIRE(position::from_json(small_position(R"(, "reserves": 11)"), &g, &error));
  v = inspect::check_position(g);
  REQUIRE(v);
  CHECK(v->invariant == "forces");
  CHECK(v->detail == "Atreides has 21 forces, not 20");
  // More on the board than the faction has: refused while reading.
  CHECK_FALSE(position::from_json(small_position(R"(, "tanks": 11)"), &g, &error));
  CHECK(error.find("factions[0]") != std::string::npos);
}

TEST_CASE("positions: bad input names the field", "[position]") {
  std::string error;
  GameSetup g;
  std::string bad = small_position();
  bad.replace(bad.find("Arrakeen"), 8, "Arakeen");
  CHECK_FALSE(position::from_json(bad, &g, &error));
  CHECK(error.rfind("factions[0].forces[0].place: ", 0) == 0);
  CHECK(error.find("Arrakeen") != std::string::npos);  // did you mean
  CHECK_FALSE(position::from_json(small_position("", R"( "colour": 1,)"), &g, &error));
  CHECK(error.find("colour") != std::string::npos);
  std::string nexus = small_position();
  nexus.replace(nexus.find("\"Bidding\""), 9, "\"Nexus\"");
  CHECK_FALSE(position::from_json(nexus, &g, &error));
  CHECK(error.rfind("phase: ", 0) == 0);
  CHECK(error.find("Spice Blow") != std::string::npos);
  std::string setup = small_position();
  setup.replace(setup.find("\"Bidding\""), 9, "\"Setup\"");
  CHECK_FALSE(position::from_json(setup, &g, &error));
  CHECK(error.rfind("phase: ", 0) == 0);
  CHECK_FALSE(position::from_json(small_position("", R"( "fields": [{"name": "no_such_field", "value": 1}],)"), &g, &error));
  CHECK(error.find("no_such_field") != std::string::npos);
  CHECK_FALSE(position::from_json(small_position("", R"( "fields": [{"name": "forces", "index": 0, "value": 1}],)"), &g, &error));
  CHECK(error.find("its own section") != std::string::npos);
  CHECK_FALSE(position::from_json(small_position(R"(, "hand": [1, 2, 3, 4, 6])"), &g, &error));
  CHECK(error.find("hand") != std::string::npos);
  // Factions that are not seated.
  std::string fremen = small_position();
  const std::string harkonnen = R"({"faction": "Harkonnen")";
  fremen.replace(fremen.find(harkonnen), harkonnen.size(), R"({"faction": "Fremen")");
  CHECK_FALSE(position::from_json(fremen, &g, &error));
  CHECK(error == "factions[1].faction: not a seated faction");
  std::string stilgar = small_position();
  stilgar.replace(stilgar.find("Feyd Rautha"), 11, "Stilgar");
  CHECK_FALSE(position::from_json(stilgar, &g, &error));
  CHECK(error == "factions[0].traitors[0]: Stilgar is a leader of the Fremen, who are not seated");
  CHECK_FALSE(position::from_json(small_position(R"(, "ally": "Emperor")"), &g, &error));
  CHECK(error.rfind("factions[0].ally: ", 0) == 0);
  CHECK_FALSE(position::from_json(small_position("", R"( "leaders": [{"leader": "Thufir Hawat", "zone": "tanks", "holder": "Guild"}],)"), &g, &error));
  CHECK(error.rfind("leaders[0].holder: ", 0) == 0);
  // Unseatable factions and unimplemented modules, as `mentat new` refuses them.
  std::string richese = small_position();
  const std::string seats = R"("seats": ["Atreides", "Harkonnen"])";
  richese.replace(richese.find(seats), seats.size(), R"("seats": ["Atreides", "Ixians"])");
  CHECK_FALSE(position::from_json(richese, &g, &error));
  CHECK(error.find("not implemented") != std::string::npos);
  CHECK_FALSE(position::from_json(small_position("", R"( "modules": ["Homeworlds"],)"), &g, &error));
  CHECK(error.find("not implemented") != std::string::npos);
}

TEST_CASE("positions: a position game is stored, verified and forked under another ruling", "[position]") {
  TempDir dir;
  std::string error;
  store::Options opts;
  opts.sync = false;
  auto st = store::EventStore::open(dir.path.string(), opts, &error);
  REQUIRE(st);
  GameSetup g;
  REQUIRE(position::from_json(small_position(), &g, &error));
  REQUIRE_FALSE(inspect::check_position(g));
  std::string room = "disputed";
  REQUIRE(store::create_room(*st, g, &room, &error));
  // A few legal actions (the first listed each time).
  for (int i = 0; i < 12; ++i) {
    GameState s;
    REQUIRE(store::load_state(*st, room, -1, &s, &error));
    const uint8_t w = waiting_for(s);
    if (!w) break;
    Seat seat = 0;
    while (!((w >> seat) & 1u)) ++seat;
    const auto acts = legal_actions(s, seat);
    REQUIRE_FALSE(acts.empty());
    auto o = store::submit(*st, room, seat, static_cast<int64_t>(s.version), acts.front(), "a" + std::to_string(i));
    REQUIRE(o.ok);
  }
  auto r = replay::verify_room(*st, room, {});
  INFO(r.check << ": " << r.detail);
  CHECK(r.ok);
  // Fork at version 0 under another reading.
  Rulings other = g.rulings;
  const auto& info = ruling_info(RulingId::BattleUnderStorm);
  other.value[static_cast<int>(RulingId::BattleUnderStorm)] = static_cast<uint8_t>((g.rulings.get(RulingId::BattleUnderStorm) + 1) % info.values.size());
  REQUIRE(store::fork_room(*st, room, 0, "disputed-other", &other, &error));
  GameState f;
  REQUIRE(store::load_state(*st, "disputed-other", -1, &f, &error));
  CHECK(f.rulings == other);
  CHECK(f.forces_total(Faction::Atreides) == 20);
  auto rf = replay::verify_room(*st, "disputed-other", {});
  INFO(rf.check << ": " << rf.detail);
  CHECK(rf.ok);
}

TEST_CASE("positions: show --position of any version round trips, inside a phase too", "[position]") {
  std::set<std::pair<Phase, bool>> seen;  // (phase, inside it: after its first decision)
  for (const auto& [seed, players, advanced] : {std::tuple{42, 6, true}, std::tuple{41, 4, false}}) {
    const Recorded r = record(static_cast<uint64_t>(seed), players, advanced);
    REQUIRE(r.after.size() > 200);
    for (size_t v = 0; v + 1 < r.after.size(); v += 7) {
      const GameState& at = r.after[v];
      INFO("seed " << seed << " version " << v + 1 << " phase " << phase_name(at.phase) << " step " << int(at.step));
      std::string json, error;
      REQUIRE(position::to_json(at, true, false, &json, &error));
      GameSetup g;
      REQUIRE(position::from_json(json, &g, &error));
      CHECK(g.resume);
      const auto bad = inspect::check_position(g);
      INFO((bad ? bad->invariant + ": " + bad->detail : std::string()));
      REQUIRE_FALSE(bad);
      GameState s = create_game(g, nullptr);
      REQUIRE(canonical(s, 0) == canonical(at, 0));
      const bool inside = at.phase == Phase::Bidding    ? at.bidding.index > 0 || at.bidding.passed || at.bidding.high_bid
                          : at.phase == Phase::Battle ? at.battle.plans_in || at.step > 0
                                                      : at.step > 0;
      seen.insert({at.phase, inside});
      // Stored as a creation event and read back.
      CHECK(canonical(through_creation_event(g), 0) == canonical(at, 0));
      // From there on: the recorded actions are accepted, with the same draws,
      // states and views.
      if (v % 21 == 0)
        for (size_t j = v + 1; j < r.steps.size() && j < v + 60; ++j) {
          REQUIRE_FALSE(validate(s, r.steps[j].seat, r.steps[j].action));
          DrawLog mine, theirs;
          GameState before = r.after[j - 1];
          apply(before, r.steps[j].seat, r.steps[j].action, &theirs);
          apply(s, r.steps[j].seat, r.steps[j].action, &mine);
          REQUIRE(mine == theirs);
          REQUIRE(canonical(s, 0) == canonical(r.after[j], 0));
          REQUIRE(views(s, 0) == views(r.after[j], 0));
        }
    }
  }
  CHECK(seen.count({Phase::Bidding, true}));
  CHECK(seen.count({Phase::Battle, true}));
  CHECK(seen.count({Phase::ShipmentMovement, true}));
  CHECK(seen.count({Phase::Setup, true}) + seen.count({Phase::Setup, false}) > 0);
  CHECK(seen.size() >= 10);
}

TEST_CASE("positions: a state inside a phase must wait for someone who can act", "[position]") {
  const Recorded r = record(41, 4, false);
  size_t v = 0;
  while (v < r.after.size() && !(r.after[v].phase == Phase::Bidding && r.after[v].bidding.high_bid > 0)) ++v;
  REQUIRE(v < r.after.size());
  std::string json, error;
  REQUIRE(position::to_json(r.after[v], true, false, &json, &error));
  // No one waited for.
  std::string none = json;
  const auto w = none.find("\"waiting\": [");
  REQUIRE(w != std::string::npos);
  none.replace(w, none.find(']', w) - w + 1, "\"waiting\": []");
  GameSetup g;
  REQUIRE(position::from_json(none, &g, &error));
  auto bad = inspect::check_position(g);
  REQUIRE(bad);
  CHECK(bad->invariant == "position");
  CHECK(bad->detail.find("waits for no one") != std::string::npos);
  // A faction not seated is waited for.
  std::string unseated = json;
  unseated.replace(w, unseated.find(']', w) - w + 1, "\"waiting\": [\"Guild\"]");
  if (r.after[v].has(Faction::Guild)) unseated.replace(w, unseated.find(']', w) - w + 1, "\"waiting\": [\"None\"]");
  CHECK_FALSE(position::from_json(unseated, &g, &error));
  CHECK(error.rfind("waiting[0]: ", 0) == 0);
  // A phase start does not say whom it waits for.
  std::string start = json;
  const auto st = start.find("\"step\": ");
  REQUIRE(st != std::string::npos);
  start.replace(st, start.find(',', st) - st + 1, "");
  CHECK_FALSE(position::from_json(start, &g, &error));
  CHECK(error.rfind("waiting: ", 0) == 0);
  // The end of the game is no starting point.
  GameState over = r.after.back();
  REQUIRE(over.phase == Phase::GameOver);
  REQUIRE(position::to_json(over, true, false, &json, &error));
  CHECK_FALSE(position::from_json(json, &g, &error));
  CHECK(error.find("after the game is over") != std::string::npos);
}

TEST_CASE("positions: the CLI prints, creates, refuses without creating, forks and reruns", "[position][cli]") {
  TempDir dir;
  const std::string data = "--data " + dir.path.string() + " ";
  const std::string file = (dir.path / "p.json").string();
  std::filesystem::create_directories(dir.path);
  auto run = [&](const std::string& args) { return testrun::run_mentat(data + args); };
  REQUIRE(run("new --factions atreides,harkonnen,fremen --seed 7 --room g").code == 0);
  REQUIRE(run("play g --seed 1 --max-events 120").code == 0);
  auto r = testrun::run_shell(std::string(MENTAT_BINARY) + " " + data + "show g --at 100 --position > " + file);
  REQUIRE(r.code == 0);
  r = run("new --position " + file + " --room p");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out == "p\n");
  // The same table: every view of p@0 is g@100's but for the version.
  for (const char* as : {"observer", "atreides", "harkonnen", "fremen"}) {
    auto a = run(std::string("show g --at 100 --as ") + as), b = run(std::string("show p --as ") + as);
    REQUIRE(a.code == 0);
    REQUIRE(b.code == 0);
    const auto strip = [](std::string s) {
      const auto i = s.find("\"version\": ");
      if (i != std::string::npos) s.erase(i, s.find_first_of(",\n", i) - i);
      return s;
    };
    CHECK(strip(a.out) == strip(b.out));
  }
  r = run("show p --position");
  REQUIRE(r.code == 0);
  r = run("verify p");
  INFO(r.out);
  CHECK(r.code == 0);
  r = run("play p --seed 1 --max-events 30");
  CHECK(r.code == 0);
  // Forked at its start under another reading, and rerun under it.
  r = run("fork p --at 0 --name p-alt --ruling storm_on_marker=that_player");
  INFO(r.out);
  CHECK(r.code == 0);
  r = run("rerun p --ruling bribe_timing=immediate");
  INFO(r.out);
  CHECK((r.code == 0 || r.code == 1));
  // Refused: nothing is created.
  testrun::run_shell("sed -i '0,/\"place\": \"[^\"]*\"/s//\"place\": \"Arakeen\"/' " + file);
  r = run("new --position " + file + " --room bad");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("Arrakeen"));
  r = run("new --position " + file + " --room bad --seed 3");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("drop --seed"));
  r = run("rooms");
  CHECK_THAT(r.out, !Catch::Contains("bad"));
  r = run("show g --at 0 --position");  // the creation: inside the Setup, a starting point too
  CHECK(r.code == 0);
}
