// The event store's contract (tests/store_contract.inc) on PostgreSQL.
#include "pg_fixture.h"

#define MENTAT_CONTRACT_BACKEND "postgresql"
#include "store_contract.inc"
