// `mentat migrate`: bring stored rooms to this release's state format.
// `mentat migrate-store DEST`: copy the store into another (of either backend).
#include <cstdio>

#include "cli/cli.h"
#include "cli/commands.h"
#include "core/engine.h"
#include "replay/fold.h"
#include "store/copy.h"

namespace mentat::cli {

int do_migrate(store::EventStore& st, const std::vector<std::string>& rooms) {
  int bad = 0, migrated = 0;
  std::printf("%-20s %8s  %s\n", "room", "events", "result");
  for (const auto& room : rooms) {
    const replay::MigrateReport r = replay::migrate_room(st, room);
    if (!r.ok) {
      ++bad;
      std::printf("%-20s %8lld  FAILED at version %lld: %s: %s (nothing written)\n", room.c_str(),
                  static_cast<long long>(r.events), static_cast<long long>(r.first_bad), r.check.c_str(), r.detail.c_str());
    } else if (r.migrated) {
      ++migrated;
      std::printf("%-20s %8lld  migrated from state format %u to %u (every action accepted, every draw drawn again)\n",
                  room.c_str(), static_cast<long long>(r.events), r.from_format, kStateFormat);
    } else {
      std::printf("%-20s %8s  %s\n", room.c_str(), "-", r.detail.c_str());
    }
  }
  std::printf("%zu room(s): %d migrated, %d failed\n", rooms.size(), migrated, bad);
  // The migration's writes are durable already (each room's batch is synced);
  // flushing them into table files spares every later read-only open
  // (mentat show, verify) a replay of the migration's write-ahead log, and
  // merging the files spares it the extra table files the rewrite made (a
  // migrated store opens as fast as one written once). The merge needs free
  // space about the size of the store: failing, it is only a warning.
  if (std::string error; migrated && !st.flush(&error)) return fail(3, error);
  if (std::string error; migrated && !st.compact(&error))
    std::fprintf(stderr, "mentat: warning: %s (the migrated rooms are stored; later opens read more table files)\n", error.c_str());
  return bad ? 1 : 0;
}

int cmd_migrate(const Args& a, store::EventStore& st) {
  std::vector<std::string> rooms;
  if (a.migrate_all) {
    std::string error;
    for (const auto& m : st.rooms(&error)) rooms.push_back(m.room);
    if (!error.empty()) return fail(3, error);
  } else if (!a.room.empty()) {
    rooms.push_back(a.room);
  } else {
    return fail(2, "migrate needs a room or --all");
  }
  return do_migrate(st, rooms);
}

int do_migrate_store(store::EventStore& from, const std::string& dest) {
  std::string error;
  auto to = store::EventStore::open(dest, store::Options{}, &error);
  if (!to) return fail(3, error);
  store::CopyReport r;
  if (!store::copy_store(from, *to, &r, &error)) return fail(3, "migrate-store stopped: " + error);
  std::printf("copied %lld room(s) from %s to %s: %lld events, %lld snapshots, %lld client action ids, %lld secrets, "
              "%lld migration records\n",
              static_cast<long long>(r.rooms), from.dir().c_str(), to->dir().c_str(), static_cast<long long>(r.events),
              static_cast<long long>(r.snapshots), static_cast<long long>(r.action_ids), static_cast<long long>(r.secrets),
              static_cast<long long>(r.migrations));
  std::vector<std::string> problems;
  if (!store::compare_stores(from, *to, &problems, &error)) return fail(3, "migrate-store could not compare: " + error);
  int bad = 0;
  for (const auto& m : to->rooms(&error)) {
    const auto v = replay::verify_room(*to, m.room);
    if (!v.ok) {
      ++bad;
      problems.push_back("copy " + to->dir() + ": room " + m.room + " fails verify at version " +
                         std::to_string(v.first_bad) + ": " + v.check + ": " + v.detail);
    }
  }
  if (!error.empty()) return fail(3, error);
  for (const auto& p : problems) std::printf("%s\n", p.c_str());
  if (!problems.empty()) {
    std::printf("the copy differs from %s or fails verify: %zu problem(s)\n", from.dir().c_str(), problems.size());
    return 1;
  }
  std::printf("compared record by record: identical; every room of the copy verified\n");
  return 0;
}

int cmd_migrate_store(const Args& a, store::EventStore& st) { return do_migrate_store(st, a.migrate_store_dest); }

}  // namespace mentat::cli
