// The event store's contract (tests/store_contract.inc) on RocksDB, the
// embedded default. The same tests run on PostgreSQL in mentat_pg_tests.
#include <filesystem>
#include <string>

#include <unistd.h>

namespace {
struct FreshStore {
  std::string location;
  FreshStore() {
    static int n = 0;
    location = (std::filesystem::temp_directory_path() /
                ("mentat-contract-" + std::to_string(::getpid()) + "-" + std::to_string(n++)))
                   .string();
    std::filesystem::remove_all(location);
    std::filesystem::create_directories(location);
  }
  ~FreshStore() { std::filesystem::remove_all(location); }
};
}  // namespace

#define MENTAT_CONTRACT_BACKEND "rocksdb"
#include "store_contract.inc"

#include "support/run_command.h"

TEST_CASE("store locations are printed with their password redacted", "[store][cli]") {
  using mentat::store::redact_location;
  CHECK(redact_location("postgresql://u:s3cret@db.example:5432/mentat") == "postgresql://u:***@db.example:5432/mentat");
  CHECK(redact_location("postgres://u:s3cret@db/m?sslmode=require&password=s3cret&x=1") ==
        "postgres://u:***@db/m?sslmode=require&password=***&x=1");
  CHECK(redact_location("postgresql:///m?password=s3cret") == "postgresql:///m?password=***");
  CHECK(redact_location("postgresql://u@/m?host=/tmp/x") == "postgresql://u@/m?host=/tmp/x");
  CHECK(redact_location("postgresql://db/m") == "postgresql://db/m");
  CHECK(redact_location("./mentat-data") == "./mentat-data");
  CHECK(redact_location("dir:with@signs") == "dir:with@signs");
  // A command that fails to reach the database names it without the password.
  const auto r = testrun::run_mentat("--data 'postgresql://u:s3cret@/nosuchdb?host=/nonexistent-mentat-socket' log g");
  CHECK(r.code != 0);
  CHECK_THAT(r.out, !Catch::Contains("s3cret"));
}
