#include "store/copy.h"

#include <algorithm>
#include <map>
#include <set>

namespace mentat::store {

namespace {

// Parents before their forks.
std::vector<RoomMeta> parents_first(std::vector<RoomMeta> all) {
  std::vector<RoomMeta> out;
  std::set<std::string> done;
  while (!all.empty()) {
    const size_t before = all.size();
    for (auto it = all.begin(); it != all.end();) {
      if (it->parent.empty() || done.count(it->parent)) {
        done.insert(it->room);
        out.push_back(*it);
        it = all.erase(it);
      } else {
        ++it;
      }
    }
    if (all.size() == before) {  // parents missing: copy them as they are (the copy will say)
      for (auto& m : all) out.push_back(m);
      break;
    }
  }
  return out;
}

}  // namespace

bool copy_store(EventStore& from, EventStore& to, CopyReport* report, std::string* error) {
  *report = {};
  error->clear();
  const auto existing = to.rooms(error);
  if (!error->empty()) return false;
  if (!existing.empty()) {
    *error = "the destination " + to.dir() + " already holds " + std::to_string(existing.size()) +
             " room(s): a copy goes into an empty store";
    return false;
  }
  auto all = from.rooms(error);
  if (!error->empty()) return false;
  std::vector<std::string> copied;
  for (const auto& m : all) copied.push_back(m.room);
  std::sort(copied.begin(), copied.end());
  for (const auto& m : parents_first(std::move(all))) {
    EventStore::RoomRecords rec;
    if (!from.room_records(m.room, &rec, error)) return false;
    std::map<int64_t, std::string> id_at;
    for (const auto& [id, v] : rec.action_ids) id_at[v] = id;
    const std::set<int64_t> snaps(rec.snapshots.begin(), rec.snapshots.end());
    int64_t first = 0;
    if (!m.parent.empty()) {
      if (!to.create_fork(m.room, m.parent, m.parent_version, error)) {
        *error = "room " + m.room + ": " + *error;
        return false;
      }
      first = m.parent_version + 1;
    }
    bool ok = true;
    if (first <= m.head &&
        !from.scan_events(m.room, first, m.head,
                          [&](int64_t v, const std::string& bytes) {
                            std::string snap;
                            int64_t sv = -1;
                            const bool with_snap = snaps.count(v) > 0;
                            if (with_snap && (!from.latest_snapshot(m.room, v, &sv, &snap, error) || sv != v)) {
                              if (error->empty()) *error = "room " + m.room + ": its snapshot at version " + std::to_string(v) + " cannot be read";
                              ok = false;
                              return false;
                            }
                            auto it = id_at.find(v);
                            auto r = to.append(m.room, v - 1, bytes, it == id_at.end() ? "" : it->second,
                                               with_snap ? &snap : nullptr);
                            if (r.status != AppendStatus::Ok) {
                              *error = "room " + m.room + " version " + std::to_string(v) + ": the copy's append failed: " +
                                       (r.error.empty() ? "duplicate client action id" : r.error);
                              ok = false;
                              return false;
                            }
                            ++report->events;
                            report->snapshots += with_snap;
                            report->action_ids += it != id_at.end();
                            return true;
                          },
                          error))
      return false;
    if (!ok) return false;
    // Snapshots at versions the events above did not carry (written by a
    // migration): as they are.
    std::vector<std::pair<int64_t, std::string>> extra;
    for (int64_t v : rec.snapshots) {
      if (v >= first && v <= m.head) continue;
      std::string snap;
      int64_t sv = -1;
      if (!from.latest_snapshot(m.room, v, &sv, &snap, error)) return false;
      if (sv == v) extra.emplace_back(v, snap);
    }
    if (!rec.secrets.empty()) {
      if (!to.put_room_secrets(m.room, rec.secrets, error)) return false;
      report->secrets += static_cast<int64_t>(rec.secrets.size());
    }
    if (!to.set_created(m.room, m.created_unix_ms, error)) return false;
    auto mig = from.get_migration(m.room, error);
    if (!error->empty()) return false;
    if (mig || !extra.empty()) {
      if (mig && !to.put_migration(m.room, *mig, extra, error)) return false;
      if (!mig)
        for (const auto& [v, bytes] : extra)
          if (!to.debug_put_snapshot(m.room, v, bytes, error)) return false;
      report->migrations += mig.has_value();
      report->snapshots += static_cast<int64_t>(extra.size());
    }
    ++report->rooms;
  }
  // Secrets of rooms without events (written before a room's first event).
  std::vector<std::string> with_secrets;
  if (!from.secret_rooms(&with_secrets, error)) return false;
  for (const auto& room : with_secrets) {
    if (std::binary_search(copied.begin(), copied.end(), room)) continue;
    EventStore::RoomRecords rec;
    if (!from.room_records(room, &rec, error)) return false;
    if (rec.secrets.empty()) continue;
    if (!to.put_room_secrets(room, rec.secrets, error)) return false;
    report->secrets += static_cast<int64_t>(rec.secrets.size());
  }
  return true;
}

bool compare_stores(EventStore& from, EventStore& to, std::vector<std::string>* problems, std::string* error) {
  const std::string where = "copy " + to.dir() + ": ";
  error->clear();
  auto a = from.rooms(error);
  if (!error->empty()) return false;
  auto b = to.rooms(error);
  if (!error->empty()) return false;
  std::map<std::string, RoomMeta> theirs;
  for (const auto& m : b) theirs[m.room] = m;
  for (const auto& m : a) {
    auto it = theirs.find(m.room);
    if (it == theirs.end()) {
      problems->push_back(where + "room " + m.room + " is missing");
      continue;
    }
    const RoomMeta& c = it->second;
    if (c.created_unix_ms != m.created_unix_ms)
      problems->push_back(where + "room " + m.room + " was created at " + std::to_string(c.created_unix_ms) +
                          " (Unix ms), not " + std::to_string(m.created_unix_ms));
    if (c.head != m.head || c.parent != m.parent || c.parent_version != m.parent_version) {
      problems->push_back(where + "room " + m.room + " is at version " + std::to_string(c.head) + " (fork of '" + c.parent +
                          "' at " + std::to_string(c.parent_version) + "), not " + std::to_string(m.head) + " ('" + m.parent +
                          "' at " + std::to_string(m.parent_version) + ")");
      theirs.erase(it);
      continue;
    }
    theirs.erase(it);
    std::vector<std::string> mine;
    if (!from.scan_events(m.room, 0, m.head, [&](int64_t, const std::string& bytes) {
          mine.push_back(bytes);
          return true;
        }, error))
      return false;
    std::string err;
    int64_t n = 0;
    const bool read = to.scan_events(m.room, 0, m.head, [&](int64_t v, const std::string& bytes) {
      if (static_cast<size_t>(v) >= mine.size() || mine[static_cast<size_t>(v)] != bytes)
        problems->push_back(where + "room " + m.room + " version " + std::to_string(v) + " differs");
      ++n;
      return true;
    }, &err);
    if (!read) problems->push_back(where + err);
    else if (n != m.head + 1) problems->push_back(where + "room " + m.room + " holds " + std::to_string(n) + " events, not " + std::to_string(m.head + 1));
    EventStore::RoomRecords ra, rb;
    if (!from.room_records(m.room, &ra, error)) return false;
    if (!to.room_records(m.room, &rb, &err)) {
      problems->push_back(where + err);
      continue;
    }
    std::sort(ra.action_ids.begin(), ra.action_ids.end());
    std::sort(rb.action_ids.begin(), rb.action_ids.end());
    if (ra.action_ids != rb.action_ids) problems->push_back(where + "room " + m.room + ": its client action ids differ");
    if (ra.snapshots != rb.snapshots) problems->push_back(where + "room " + m.room + ": its snapshots are at other versions");
    for (int64_t v : ra.snapshots) {
      std::string sa, sb;
      int64_t va = -1, vb = -1;
      if (!from.latest_snapshot(m.room, v, &va, &sa, error)) return false;
      if (!to.latest_snapshot(m.room, v, &vb, &sb, &err) || va != vb || sa != sb)
        problems->push_back(where + "room " + m.room + ": its snapshot at version " + std::to_string(v) + " differs");
    }
    std::sort(ra.secrets.begin(), ra.secrets.end());
    std::sort(rb.secrets.begin(), rb.secrets.end());
    if (ra.secrets != rb.secrets) problems->push_back(where + "room " + m.room + ": its secrets differ");
    auto ma = from.get_migration(m.room, error);
    if (!error->empty()) return false;
    auto mb = to.get_migration(m.room, &err);
    if (ma != mb) problems->push_back(where + "room " + m.room + ": its migration record differs");
  }
  for (const auto& [room, m] : theirs) problems->push_back(where + "room " + room + " is not in the source");
  // The secrets of rooms without events.
  std::vector<std::string> sa, sb;
  if (!from.secret_rooms(&sa, error)) return false;
  std::string err;
  if (!to.secret_rooms(&sb, &err)) {
    problems->push_back(where + err);
    return true;
  }
  std::set<std::string> with_events;
  for (const auto& m : a) with_events.insert(m.room);
  for (const auto& m : b) with_events.insert(m.room);
  std::set<std::string> either(sa.begin(), sa.end());
  either.insert(sb.begin(), sb.end());
  for (const auto& room : either) {
    if (with_events.count(room)) continue;  // compared above
    EventStore::RoomRecords ra, rb;
    if (!from.room_records(room, &ra, error)) return false;
    if (!to.room_records(room, &rb, &err)) {
      problems->push_back(where + err);
      continue;
    }
    std::sort(ra.secrets.begin(), ra.secrets.end());
    std::sort(rb.secrets.begin(), rb.secrets.end());
    if (ra.secrets != rb.secrets) problems->push_back(where + "room " + room + " (no events): its secrets differ");
  }
  return true;
}

}  // namespace mentat::store
