// The crash test (tests/crash_run.inc) on PostgreSQL: kill -9 of `mentat
// serve` and of the database server, on a PostgreSQL server of its own (the
// fixture's serves the other tests meanwhile).
#include "crash_run.inc"

#include <cstdlib>

TEST_CASE("postgresql crash: kill -9 the room server and the database server, nothing acknowledged is lost or doubled",
          "[pg][crash]") {
  const std::string script = std::string(MENTAT_SOURCE_DIR) + "/scripts/pg-test-server.sh";
  const std::string state = (fs::temp_directory_path() / ("mentat-pg-crash-" + std::to_string(::getpid()) + ".url")).string();
  REQUIRE(std::system((script + " start " + state + " >/dev/null").c_str()) == 0);
  struct Stop {
    std::string cmd;
    ~Stop() { (void)std::system(cmd.c_str()); }
  } stop{script + " stop " + state};
  std::string base;
  {
    std::ifstream f(state);
    REQUIRE(std::getline(f, base));
  }
  crash_run(base, [&] {
    REQUIRE(std::system((script + " kill9 " + state).c_str()) == 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the room server finds it gone
    REQUIRE(std::system((script + " restart " + state).c_str()) == 0);
  }, /*min_bot_moves=*/30);  // bots wait out each outage of the database (2 of the 5 crashes)
}
