// mentat_pg_tests links the PostgreSQL backend in rather than loading
// mentat_pg.so (store/event_store.h, set_postgres_opener): register it
// before any test opens a postgresql:// location.
#include "store/pg_store.h"

namespace {

const bool registered = [] {
  mentat::store::set_postgres_opener(mentat::store::PgStore::opener());
  return true;
}();

}  // namespace
