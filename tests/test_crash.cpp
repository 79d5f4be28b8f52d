// The crash test (tests/crash_run.inc) on RocksDB: kill -9 of `mentat serve`.
#include "crash_run.inc"

TEST_CASE("crash: kill -9 the server at random moments, nothing acknowledged is lost or doubled", "[crash]") {
  crash_run("");
}
