// `mentat migrate`: bring stored rooms to this release's state format.
#include <cstdio>

#include "cli/cli.h"
#include "cli/commands.h"
#include "core/engine.h"
#include "replay/fold.h"

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

}  // namespace mentat::cli
