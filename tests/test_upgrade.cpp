// Upgrades never strand stored games (issue 12 item 6): a store written by the
// previous release (state format 2, tests/fixtures/format2-game.jsonl: a game
// the previous main's binary stored, with its `mentat log`) is reported
// clearly, migrated by refolding every event, and then verifies and loads;
// the original events are never rewritten.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.h"
#include "events/codec.h"
#include "inspect/report.h"
#include "replay/fold.h"
#include "store/event_store.h"
#include "store/room.h"

using namespace mentat;
namespace fs = std::filesystem;

namespace {

struct UpgradeDir {
  fs::path path = fs::temp_directory_path() / ("mentat-upgrade-" + std::to_string(::getpid()));
  UpgradeDir() { fs::remove_all(path); }
  ~UpgradeDir() { fs::remove_all(path); }
};

std::vector<std::string> read_lines(const std::string& name) {
  std::ifstream in(std::string(MENTAT_SOURCE_DIR) + "/tests/fixtures/" + name);
  REQUIRE(in.good());
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::vector<codec::Event> fixture_events() {
  std::vector<codec::Event> out;
  for (const auto& line : read_lines("format2-game.jsonl")) {
    codec::Event e;
    std::string err;
    INFO(err);
    REQUIRE(codec::parse_event_json(line, &e, &err));
    out.push_back(std::move(e));
  }
  return out;
}

std::unique_ptr<store::EventStore> open_store(const UpgradeDir& dir) {
  std::string error;
  store::Options opts;
  opts.sync = false;
  auto st = store::EventStore::open(dir.path.string(), opts, &error);
  INFO(error);
  REQUIRE(st);
  return st;
}

// Stores the events as they are (the previous release's hashes) in `room`.
void store_events(store::EventStore& st, const std::string& room, const std::vector<codec::Event>& events) {
  for (const auto& e : events) {
    auto r = st.append(room, static_cast<int64_t>(e.version) - 1, codec::encode_event(e),
                       e.client_action_id.empty() ? "create" : e.client_action_id, nullptr);
    INFO(r.error);
    REQUIRE(r.status == store::AppendStatus::Ok);
  }
}

}  // namespace

TEST_CASE("a store of the previous state format is reported, migrated, then verifies", "[upgrade]") {
  const auto events = fixture_events();
  REQUIRE(events.size() > 50);
  REQUIRE(events[0].setup.state_format == 2);  // the previous release recorded no format: 2
  UpgradeDir dir;
  std::string error;
  auto st = open_store(dir);
  store_events(*st, "old1", events);

  // Before: a clear sentence, from verify and from every load.
  auto before = replay::verify_room(*st, "old1", {}, {});
  CHECK_FALSE(before.ok);
  CHECK(before.check == "format");
  CHECK(before.first_bad == 0);
  CHECK_THAT(before.detail, Catch::Contains("stored under state format 2; this release writes 4"));
  CHECK_THAT(before.detail, Catch::Contains("mentat migrate old1"));
  GameState s;
  CHECK_FALSE(store::load_state(*st, "old1", -1, &s, &error));
  CHECK_THAT(error, Catch::Contains("stored under state format 2"));

  // Migrate: every action accepted again, every draw drawn again.
  auto m = replay::migrate_room(*st, "old1");
  INFO(m.check << ": " << m.detail);
  REQUIRE(m.ok);
  CHECK(m.migrated);
  CHECK(m.from_format == 2);
  CHECK(m.events == static_cast<int64_t>(events.size()));

  // After: verify passes, loads work, and the stored events are the original ones.
  auto after = replay::verify_room(*st, "old1", {}, {});
  INFO(after.check << ": " << after.detail);
  CHECK(after.ok);
  CHECK(after.events == static_cast<int64_t>(events.size()));
  REQUIRE(store::load_state(*st, "old1", -1, &s, &error));
  CHECK(s.version == events.back().version);
  for (const auto& e : events) {
    std::string bytes;
    REQUIRE(st->read_event("old1", static_cast<int64_t>(e.version), &bytes, &error));
    CHECK(bytes == codec::encode_event(e));
  }
  // A migrated game plays on: its new events get hashes in this release's format.
  std::vector<codec::Event> part(events.begin(), events.begin() + 60);
  store_events(*st, "old2", part);
  REQUIRE(replay::migrate_room(*st, "old2").migrated);
  REQUIRE(store::load_state(*st, "old2", -1, &s, &error));
  REQUIRE(waiting_for(s) != 0);
  const Seat next = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
  const auto legal = legal_actions(s, next);
  REQUIRE_FALSE(legal.empty());
  auto o = store::submit(*st, "old2", next, static_cast<int64_t>(s.version), legal.front(), "after-migration");
  INFO(o.error);
  REQUIRE(o.ok);
  CHECK(o.version == 60);
  auto played_on = replay::verify_room(*st, "old2", {}, {});
  INFO(played_on.check << ": " << played_on.detail);
  CHECK(played_on.ok);
  CHECK(played_on.events == 61);

  // Once migrated, nothing more to do.
  auto again = replay::migrate_room(*st, "old1");
  CHECK(again.ok);
  CHECK_FALSE(again.migrated);
  CHECK_THAT(again.detail, Catch::Contains("already"));
}

TEST_CASE("the base game summarises the previous release's game line for line", "[upgrade]") {
  // `mentat log` of the fixture as the previous main's binary printed it.
  const auto want = read_lines("format2-game.log");
  const auto events = fixture_events();
  REQUIRE(want.size() == events.size());
  GameState s;
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    GameState before = s;
    DrawLog draws;
    if (e.action.kind() == ActionKind::CreateGame) {
      s = create_game(e.setup, &draws);
    } else {
      REQUIRE_FALSE(validate(s, e.seat, e.action).has_value());
      apply(s, e.seat, e.action, &draws);
    }
    CHECK(draws == e.draws);
    INFO("version " << i);
    CHECK(inspect::summarize_event(e, i ? &before : nullptr, s, false) == want[i]);
  }
}

TEST_CASE("migrate refuses a game whose recorded draws are no longer drawn, and writes nothing", "[upgrade]") {
  auto events = fixture_events();
  REQUIRE_FALSE(events[0].draws.empty());
  events[0].draws.back().value = static_cast<uint16_t>(events[0].draws.back().value ^ 1);
  UpgradeDir dir;
  std::string error;
  auto st = open_store(dir);
  store_events(*st, "bad1", events);
  auto m = replay::migrate_room(*st, "bad1");
  CHECK_FALSE(m.ok);
  CHECK_FALSE(m.migrated);
  CHECK(m.check == "draws");
  CHECK(m.first_bad == 0);
  CHECK_FALSE(st->get_migration("bad1", &error).has_value());
  CHECK(error.empty());
}

TEST_CASE("a room created by this release records its state format and needs no migration", "[upgrade]") {
  UpgradeDir dir;
  std::string error;
  auto st = open_store(dir);
  GameSetup g;
  g.seed = 3;
  g.factions = {Faction::Atreides, Faction::Fremen};
  g.state_format = 2;  // whatever the caller says, a new room is this release's format
  std::string room = "new1";
  REQUIRE(store::create_room(*st, g, &room, &error));
  std::string bytes;
  REQUIRE(st->read_event("new1", 0, &bytes, &error));
  codec::Event e;
  REQUIRE(codec::decode_event(bytes, &e, &error));
  CHECK(e.setup.state_format == kStateFormat);
  CHECK(e.rules_version == kRulesVersion);
  CHECK(replay::verify_room(*st, "new1", {}, {}).ok);
  auto m = replay::migrate_room(*st, "new1");
  CHECK(m.ok);
  CHECK_FALSE(m.migrated);
}

TEST_CASE("a ruling introduced for a behaviour change takes its legacy value in games of an older rules version", "[upgrade][rulings]") {
  const auto& info = ruling_info(RulingId::AbilityStepDeals);
  REQUIRE(info.since_rules == 3);
  CHECK(Rulings::defaults_for(2).get(RulingId::AbilityStepDeals) == info.legacy_value);
  CHECK(Rulings::defaults_for(3).get(RulingId::AbilityStepDeals) == info.default_value);
  CHECK(Rulings::defaults_for(kRulesVersion) == Rulings::defaults());
  // The fixture's creation event (rules version 2) does not name the ruling:
  // it reads as the behaviour the game was played under.
  const auto events = fixture_events();
  REQUIRE(events[0].rules_version == 2);
  CHECK(events[0].setup.rulings.get(RulingId::AbilityStepDeals) == info.legacy_value);
  // The same creation event recorded by this release reads the default.
  codec::Event now = events[0];
  now.rules_version = kRulesVersion;
  now.setup.rulings = Rulings::defaults();
  codec::Event back;
  std::string error;
  REQUIRE(codec::decode_event(codec::encode_event(now), &back, &error));
  CHECK(back.setup.rulings.get(RulingId::AbilityStepDeals) == info.default_value);
}

TEST_CASE("compact merges the table files a migration leaves, and every event reads back the same", "[upgrade]") {
  const auto events = fixture_events();
  UpgradeDir dir;
  std::string error;
  const auto tables = [&] {
    int n = 0;
    for (const auto& f : fs::directory_iterator(dir.path)) n += f.path().extension() == ".sst";
    return n;
  };
  {
    auto st = open_store(dir);
    store_events(*st, "old1", events);
    REQUIRE(st->flush(&error));
    REQUIRE(replay::migrate_room(*st, "old1").migrated);  // what `mentat migrate` writes
    REQUIRE(st->flush(&error));
    store_events(*st, "old2", std::vector<codec::Event>(events.begin(), events.begin() + 40));
    REQUIRE(st->flush(&error));
    REQUIRE(tables() > 5);
    REQUIRE(st->compact(&error));
  }
  CHECK(tables() <= 5);  // one per column family at most, once the store is closed
  auto st = open_store(dir);
  for (const auto& e : events) {
    std::string bytes;
    REQUIRE(st->read_event("old1", static_cast<int64_t>(e.version), &bytes, &error));
    CHECK(bytes == codec::encode_event(e));
  }
  auto after = replay::verify_room(*st, "old1", {}, {});
  INFO(after.check << ": " << after.detail);
  CHECK(after.ok);
}
