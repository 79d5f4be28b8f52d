// Bodies of `mentat` subcommands kept out of cli/main.cpp (which parses the
// command line and dispatches). Each prints its report on stdout and returns
// the process exit code (docs/CLI.md).
#pragma once

#include <string>
#include <vector>

#include "store/event_store.h"

namespace mentat::cli {

// `mentat migrate ROOM|--all`: replay/fold.h migrate_room for each room; a
// table, then a summary. Exit 0 when every room is migrated or already
// current, 1 when one cannot be (its first failing version and check).
int do_migrate(store::EventStore& st, const std::vector<std::string>& rooms);

// `mentat migrate-store DEST`: copies every room of `from` into a new store
// at DEST (a directory or a postgresql:// URL; it must hold no room), then
// compares the two record by record and verifies every room of the copy
// (store/copy.h). Exit 0 when identical and verified, 1 on a difference, 3
// when a store cannot be opened or the copy stops.
int do_migrate_store(store::EventStore& from, const std::string& dest);

}  // namespace mentat::cli
