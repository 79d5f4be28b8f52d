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
