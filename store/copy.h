// Copying every room of one store into another, of either backend
// (`mentat migrate-store`: RocksDB -> PostgreSQL and back), and comparing
// two stores record by record.
//
// Contract:
//  * copy_store() needs an empty destination. Rooms are copied parents
//    first; each event is appended at its own version with its client
//    action id and, where the source has one, its snapshot, so the copy
//    keeps the destination's contract (checksums, compare-and-set,
//    durability) for every record. Secrets, migration records and creation
//    times follow their room; the secrets of rooms that have no events are
//    copied too. Not copied: RocksDB's MENTAT-LOSSES.
//  * compare_stores() appends one sentence per difference (room and record)
//    to *problems: the same rooms, heads, fork parents and creation times,
//    the same event bytes, client action ids, snapshots, secrets (of rooms
//    with and without events) and migration records.
//  * Both return false with *error only when they cannot go on (a store
//    error); a copy stopped that way leaves the destination partly written
//    (start again into a new one). Thread-safety: as the stores'; nothing
//    else may write the destination meanwhile.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store/event_store.h"

namespace mentat::store {

struct CopyReport {
  int64_t rooms = 0, events = 0, snapshots = 0, action_ids = 0, secrets = 0, migrations = 0;
};

bool copy_store(EventStore& from, EventStore& to, CopyReport* report, std::string* error);
bool compare_stores(EventStore& from, EventStore& to, std::vector<std::string>* problems, std::string* error);

}  // namespace mentat::store
