// The command line on a PostgreSQL store (`--data postgresql://...`), and
// `mentat migrate-store` from RocksDB into PostgreSQL and back.
#include <catch2/catch.hpp>

#include <filesystem>

#include "pg_fixture.h"
#include "store/copy.h"
#include "store/event_store.h"
#include "support/run_command.h"

namespace fs = std::filesystem;
using testrun::run_mentat;

namespace {
std::string q(const std::string& s) { return "'" + s + "'"; }

// A command refused with exit 3, saying `says`.
void check_refused(const testrun::Run& r, const std::string& says) {
  INFO(r.out);
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::Contains(says));
}

std::unique_ptr<mentat::store::EventStore> open_at(const std::string& location) {
  std::string err;
  auto st = mentat::store::EventStore::open(location, {}, &err);
  INFO(err);
  REQUIRE(st);
  return st;
}
}  // namespace

TEST_CASE("postgresql tools: new, play, verify, fork, diff, rerun and recover on a PostgreSQL store", "[pg][cli]") {
  FreshStore db;
  const std::string data = "--data " + q(db.location);
  auto r = run_mentat(data + " new --factions atreides,harkonnen,fremen --seed 7 --room g");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("g"));
  r = run_mentat(data + " play g --seed 3 --max-events 150");
  INFO(r.out);
  REQUIRE(r.code == 0);
  r = run_mentat(data + " verify g");
  INFO(r.out);
  CHECK(r.code == 0);
  r = run_mentat(data + " fork g --at 40 --name g2");
  INFO(r.out);
  REQUIRE(r.code == 0);
  r = run_mentat(data + " play g2 --seed 4 --max-events 30");
  REQUIRE(r.code == 0);
  r = run_mentat(data + " diff g@40 g2@40");
  INFO(r.out);
  CHECK(r.code == 0);
  r = run_mentat(data + " diff g@60 g2@60");
  CHECK(r.code == 1);
  r = run_mentat(data + " rerun g --ruling bribe_timing=immediate");
  INFO(r.out);
  CHECK((r.code == 0 || r.code == 1));
  CHECK_THAT(r.out, !Catch::Contains("cannot"));
  r = run_mentat(data + " rooms");
  CHECK_THAT(r.out, Catch::Contains("g2"));
  r = run_mentat("recover " + q(db.location));
  INFO(r.out);
  CHECK(r.code == 0);
  // A reader on a database without a store says so.
  FreshStore empty;
  r = run_mentat("--data " + q(empty.location) + " log g");
  CHECK(r.code != 0);
  CHECK_THAT(r.out, Catch::Contains("no store at"));
}

TEST_CASE("postgresql tools: migrate-store copies RocksDB into PostgreSQL and back, and verifies every room",
          "[pg][cli]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-pg-migrate-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string rocks = (dir / "a").string(), back = (dir / "b").string();
  std::string err;
  auto r = run_mentat("--data " + rocks + " new --factions atreides,harkonnen,fremen --seed 9 --room m");
  REQUIRE(r.code == 0);
  REQUIRE(run_mentat("--data " + rocks + " play m --seed 1 --max-events 200").code == 0);
  REQUIRE(run_mentat("--data " + rocks + " fork m --at 70 --name mf").code == 0);
  REQUIRE(run_mentat("--data " + rocks + " play mf --seed 2 --max-events 20").code == 0);
  // A room whose secrets were written before its first event (the copy takes them too).
  REQUIRE(open_at(rocks)->put_room_secrets("early", {{"token.0", "e0"}}, &err));
  FreshStore db;
  r = run_mentat("--data " + rocks + " migrate-store " + q(db.location));
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("copied 2 room(s)") && Catch::Contains("identical"));
  r = run_mentat("--data " + q(db.location) + " migrate-store " + back);
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("identical"));
  r = run_mentat("--data " + back + " verify mf");
  CHECK(r.code == 0);
  // Creation times and the early secrets made it there and back ("identical"
  // above compares them too).
  {
    auto a = open_at(rocks), p = open_at(db.location), b = open_at(back);
    for (const char* room : {"m", "mf"}) {
      const auto created = a->meta(room, &err)->created_unix_ms;
      CHECK(p->meta(room, &err)->created_unix_ms == created);
      CHECK(b->meta(room, &err)->created_unix_ms == created);
    }
    CHECK(p->get_room_secret("early", "token.0", &err) == std::optional<std::string>("e0"));
    CHECK(b->get_room_secret("early", "token.0", &err) == std::optional<std::string>("e0"));
  }
  // Into a store that holds rooms: refused, nothing written.
  check_refused(run_mentat("--data " + rocks + " migrate-store " + q(db.location)), "already holds");
  fs::remove_all(dir);
}

TEST_CASE("postgresql tools: backup copies a PostgreSQL store into a new RocksDB directory that verifies",
          "[pg][cli][backup]") {
  FreshStore db;
  const std::string data = "--data " + q(db.location);
  REQUIRE(run_mentat(data + " new --factions atreides,harkonnen,fremen --seed 5 --room b1").code == 0);
  REQUIRE(run_mentat(data + " play b1 --seed 2 --max-events 120").code == 0);
  REQUIRE(run_mentat(data + " fork b1 --at 30 --name b2").code == 0);
  std::string err;
  REQUIRE(open_at(db.location)->put_room_secrets("b1", {{"token.0", "t0"}}, &err));
  const fs::path dir = fs::temp_directory_path() / ("mentat-pg-backup-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto r = run_mentat(data + " backup " + dir.string());
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("2 room(s)") && Catch::Contains("every record"));
  r = run_mentat("--data " + dir.string() + " verify b2");
  INFO(r.out);
  CHECK(r.code == 0);
  {
    auto from = open_at(db.location), copy = open_at(dir.string());
    std::vector<std::string> problems;
    REQUIRE(mentat::store::compare_stores(*from, *copy, &problems, &err));
    INFO((problems.empty() ? std::string() : problems[0]));
    CHECK(problems.empty());
  }
  // Into a directory that exists, or into a database: refused, saying what to use.
  check_refused(run_mentat(data + " backup " + dir.string()), "exists already");
  check_refused(run_mentat(data + " backup " + q(db.location)), "pg_dump");
  fs::remove_all(dir);
}

TEST_CASE("postgresql tools: serve, recover and the other commands print the store's URL without its password",
          "[pg][cli]") {
  FreshStore db;
  // The test server trusts its socket: any password is accepted, and must never be shown.
  std::string url = db.location;
  const auto at = url.find('@');
  REQUIRE(at != std::string::npos);
  url.insert(at, ":hunter2pw");
  const std::string shown = url.substr(0, at) + ":***" + url.substr(at + std::string(":hunter2pw").size());
  const std::string data = "--data " + q(url);
  std::string all;  // everything every command printed
  auto run = [&](const std::string& args) {
    auto r = run_mentat(args);
    all += r.out;
    return r;
  };
  auto r = run(data + " new --factions atreides,harkonnen,fremen --seed 5 --room p");
  INFO(r.out);
  REQUIRE(r.code == 0);
  r = run(data + " demo --factions atreides,harkonnen --room p2 --max-events 5");
  CHECK_THAT(r.out, Catch::Contains(shown));
  r = run("recover " + q(url));
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains(shown));
  r = run("recover --json " + q(url));
  CHECK_THAT(r.out, Catch::Contains(shown));
  r = run(data + " verify --checksums p");
  CHECK_THAT(r.out, Catch::Contains(shown));
  r = testrun::run_shell("timeout -s TERM 5 " + std::string(MENTAT_BINARY) + " serve " + data + " --listen 127.0.0.1:0");
  all += r.out;
  CHECK_THAT(r.out, Catch::Contains("listening on") && Catch::Contains(shown));
  const fs::path dir = fs::temp_directory_path() / ("mentat-pg-redact-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  r = run(data + " backup " + dir.string());
  CHECK_THAT(r.out, Catch::Contains(shown));
  r = run(data + " migrate-store " + q(url));  // refused: it holds rooms
  CHECK_THAT(r.out, Catch::Contains(shown));
  fs::remove_all(dir);
  // A connection that fails is named without the password too.
  r = run("--data " + q(url.substr(0, url.find("?host=")) + "?host=/nonexistent-mentat-socket") + " log p");
  CHECK(r.code != 0);
  INFO(all);
  CHECK_THAT(all, !Catch::Contains("hunter2pw"));
}
