// The event store's contract (tests/store_contract.inc) on PostgreSQL.
#include "pg_fixture.h"

#define MENTAT_CONTRACT_BACKEND "postgresql"
#include "store_contract.inc"

// PostgreSQL only: the schema is mentat's own (store/pg_store.h).
#include <thread>

#include "store/pg_store.h"

TEST_CASE("postgresql store: mentat creates its schema once, records its version, and refuses a newer one",
          "[pg][store][schema]") {
  FreshStore db;
  std::string err;
  // A reader does not create it.
  mentat::store::Options reader;
  reader.read_only = true;
  reader.create_if_missing = false;
  CHECK_FALSE(mentat::store::EventStore::open(db.location, reader, &err));
  CHECK_THAT(err, Catch::Contains("no store at"));
  // Writers opening at once: one migrates, the other waits for it (an advisory lock).
  std::unique_ptr<mentat::store::EventStore> w[4];
  std::string errs[4];
  {
    std::vector<std::thread> ts;
    for (int i = 0; i < 4; ++i) ts.emplace_back([&, i] { w[i] = mentat::store::EventStore::open(db.location, {}, &errs[i]); });
    for (auto& t : ts) t.join();
  }
  for (int i = 0; i < 4; ++i) {
    INFO(errs[i]);
    CHECK(w[i]);
  }
  pqxx::connection c(db.location);
  {
    pqxx::nontransaction t(c);
    auto r = t.exec("SELECT version FROM mentat_schema ORDER BY version");
    REQUIRE(static_cast<int>(r.size()) == mentat::store::PgStore::kSchemaVersion);
    CHECK(r[r.size() - 1][0].as<int>() == mentat::store::PgStore::kSchemaVersion);
  }
  CHECK(mentat::store::EventStore::open(db.location, reader, &err));
  // A schema from a newer mentat: refused by writers and readers, nothing changed.
  {
    pqxx::nontransaction t(c);
    t.exec("INSERT INTO mentat_schema (version, applied_unix_ms) VALUES (" +
           std::to_string(mentat::store::PgStore::kSchemaVersion + 1) + ", 0)");
  }
  err.clear();
  CHECK_FALSE(mentat::store::EventStore::open(db.location, {}, &err));
  CHECK_THAT(err, Catch::Contains("newer mentat"));
  err.clear();
  CHECK_FALSE(mentat::store::EventStore::open(db.location, reader, &err));
  CHECK_THAT(err, Catch::Contains("newer mentat"));
}
