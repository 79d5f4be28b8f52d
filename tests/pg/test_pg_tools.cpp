// The command line on a PostgreSQL store (`--data postgresql://...`), and
// `mentat migrate-store` from RocksDB into PostgreSQL and back.
#include <catch2/catch.hpp>

#include <filesystem>

#include "pg_fixture.h"
#include "support/run_command.h"

namespace fs = std::filesystem;
using testrun::run_mentat;

namespace {
std::string q(const std::string& s) { return "'" + s + "'"; }
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
  auto r = run_mentat("--data " + rocks + " new --factions atreides,harkonnen,fremen --seed 9 --room m");
  REQUIRE(r.code == 0);
  REQUIRE(run_mentat("--data " + rocks + " play m --seed 1 --max-events 200").code == 0);
  REQUIRE(run_mentat("--data " + rocks + " fork m --at 70 --name mf").code == 0);
  REQUIRE(run_mentat("--data " + rocks + " play mf --seed 2 --max-events 20").code == 0);
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
  // Into a store that holds rooms: refused, nothing written.
  r = run_mentat("--data " + rocks + " migrate-store " + q(db.location));
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::Contains("already holds"));
  fs::remove_all(dir);
}
