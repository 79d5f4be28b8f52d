// The throwaway PostgreSQL server of ctest's "pg:" fixture
// (scripts/pg-test-server.sh): each FreshStore is a new, empty database on it.
#pragma once

#include <pqxx/pqxx>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace pgtest {

// postgresql://mentat@/postgres?host=DIR, read from the file the fixture
// wrote (MENTAT_TEST_PG_STATE).
inline std::string base_url() {
  const char* state = std::getenv("MENTAT_TEST_PG_STATE");
  if (!state) throw std::runtime_error("MENTAT_TEST_PG_STATE is not set: run these tests through ctest (the pg: fixture)");
  std::ifstream f(state);
  std::string url;
  if (!std::getline(f, url) || url.empty())
    throw std::runtime_error(std::string("no test PostgreSQL server: ") + state +
                             " is missing (scripts/pg-test-server.sh start " + state + ")");
  return url;
}

// The URL of database `db` on the test server.
inline std::string url_of(const std::string& db) {
  std::string url = base_url();
  const auto q = url.find("/postgres?");
  return url.substr(0, q) + "/" + db + url.substr(q + std::string("/postgres").size());
}

inline std::string create_database() {
  static std::atomic<int> n{0};
  const std::string db = "mentat_t" + std::to_string(::getpid()) + "_" + std::to_string(n++);
  pqxx::connection c(base_url());
  pqxx::nontransaction t(c);
  t.exec("DROP DATABASE IF EXISTS " + db);
  t.exec("CREATE DATABASE " + db);
  return db;
}

inline void drop_database(const std::string& db) {
  try {
    pqxx::connection c(base_url());
    pqxx::nontransaction t(c);
    t.exec("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
  } catch (const std::exception&) {
    // The server goes with the fixture anyway.
  }
}

}  // namespace pgtest

struct FreshStore {
  std::string db = pgtest::create_database();
  std::string location = pgtest::url_of(db);
  ~FreshStore() { pgtest::drop_database(db); }
};
