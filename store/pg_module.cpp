// The entry point of mentat_pg.so, the PostgreSQL backend as a module
// (store/event_store.h, set_postgres_opener): EventStore::open() loads the
// module on the first postgresql:// location and registers the opener this
// returns. The module's other symbols come from the executable that loads it
// (built with ENABLE_EXPORTS).
#include "store/pg_store.h"

extern "C" __attribute__((visibility("default"))) mentat::store::PostgresOpener mentat_pg_opener() {
  return mentat::store::PgStore::opener();
}
