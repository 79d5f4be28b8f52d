// What every backend shares (store/event_store.h): choosing the backend,
// room ids, stored-event checksums, and reading through a fork's parents.
#include "store/event_store.h"

#include <flatbuffers/flatbuffers.h>
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "events/mentat_generated.h"
#include "store/be64.h"
#include "store/rocks_store.h"
#ifdef MENTAT_WITH_POSTGRES
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#endif

namespace mentat::store {

namespace {

constexpr int kMaxForkDepth = 64;

}  // namespace

std::string seal_event(const std::string& bytes) {
  std::string v = bytes;
  v += be64(XXH3_64bits(bytes.data(), bytes.size()));
  return v;
}

bool unseal_event(const std::string& room, int64_t version, std::string_view value, std::string* bytes,
                  std::string* error) {
  if (value.size() < 8) {
    *error = "room " + room + " version " + std::to_string(version) + ": stored event is truncated";
    return false;
  }
  const std::string_view body = value.substr(0, value.size() - 8);
  if (XXH3_64bits(body.data(), body.size()) != from_be64(value.substr(value.size() - 8))) {
    *error = "room " + room + " version " + std::to_string(version) + ": stored event fails its checksum";
    return false;
  }
  bytes->assign(body);
  return true;
}

#ifdef MENTAT_WITH_POSTGRES
namespace {

std::atomic<PostgresOpener> g_pg_opener{nullptr};
std::once_flag g_pg_load_once;
std::string g_pg_load_error;  // written once under g_pg_load_once

// Loads mentat_pg.so (see set_postgres_opener in event_store.h) and
// registers its opener, or records why it could not.
void load_pg_module() {
  std::vector<std::string> where;
  if (const char* env = std::getenv("MENTAT_PG_MODULE"); env && *env) where.emplace_back(env);
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) where.push_back((exe.parent_path() / "mentat_pg.so").string());
#ifdef MENTAT_PG_MODULE_BUILT
  where.emplace_back(MENTAT_PG_MODULE_BUILT);
#endif
  std::string tried;
  for (const auto& path : where) {
    if (!std::filesystem::exists(path, ec)) {
      tried += (tried.empty() ? "" : ", ") + path + " (absent)";
      continue;
    }
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      tried += (tried.empty() ? "" : ", ") + path + " (" + (e ? e : "cannot be loaded") + ")";
      continue;
    }
    using Entry = PostgresOpener (*)();
    auto entry = reinterpret_cast<Entry>(dlsym(h, "mentat_pg_opener"));
    if (!entry) {
      tried += (tried.empty() ? "" : ", ") + path + " (no mentat_pg_opener: not a Mentat PostgreSQL module)";
      continue;
    }
    PostgresOpener expected = nullptr;
    g_pg_opener.compare_exchange_strong(expected, entry());
    return;  // the module stays loaded for the life of the process
  }
  g_pg_load_error = "the PostgreSQL backend module mentat_pg.so could not be loaded (looked at: " + tried +
                    "); set MENTAT_PG_MODULE to its path, or rebuild mentat (scripts/install-deps.sh installs libpqxx-dev)";
}

}  // namespace

void set_postgres_opener(PostgresOpener opener) { g_pg_opener.store(opener); }
#else
void set_postgres_opener(PostgresOpener) {}
#endif

bool is_postgres_location(const std::string& location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

std::unique_ptr<EventStore> EventStore::open(const std::string& location, const Options& opts, std::string* error,
                                             std::vector<LostWrite>* lost) {
  if (is_postgres_location(location)) {
#ifdef MENTAT_WITH_POSTGRES
    if (lost) lost->clear();
    if (!g_pg_opener.load()) std::call_once(g_pg_load_once, load_pg_module);
    if (const PostgresOpener opener = g_pg_opener.load()) return opener(location, opts, error);
    *error = g_pg_load_error + "; it cannot open " + location.substr(0, location.find("://") + 3) + "...";
    return nullptr;
#else
    *error = "this mentat was built without PostgreSQL (libpqxx-dev was not installed when it was built: "
             "scripts/install-deps.sh installs it); it cannot open " + location.substr(0, location.find("://") + 3) + "...";
    return nullptr;
#endif
  }
  return RocksStore::open(location, opts, error, lost);
}

std::string redact_location(const std::string& location) {
  if (!is_postgres_location(location)) return location;
  std::string out = location;
  // scheme://user:password@host... -> scheme://user:***@host...
  const size_t authority = out.find("://") + 3;
  const size_t end = std::min(out.find_first_of("/?", authority), out.size());
  const size_t at = end > authority ? out.rfind('@', end - 1) : std::string::npos;
  if (at != std::string::npos && at >= authority) {
    const size_t colon = out.find(':', authority);
    if (colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  // ...?a=1&password=secret&... -> ...?a=1&password=***&...
  for (size_t p = out.find('?', authority); p != std::string::npos; p = out.find('&', p)) {
    ++p;
    if (out.compare(p, 9, "password=") != 0) continue;
    const size_t value = p + 9, stop = std::min(out.find('&', value), out.size());
    out.replace(value, stop - value, "***");
  }
  return out;
}

EventStore::~EventStore() = default;

AppendResult EventStore::append(const std::string& room, int64_t expected_head, const std::string& event_bytes,
                                const std::string& client_action_id, const std::string* snapshot_bytes) {
  if (!valid_room_id(room)) {
    AppendResult r;
    r.error = "invalid room id '" + room + "'";
    return r;
  }
  return append_valid(room, expected_head, event_bytes, client_action_id, snapshot_bytes);
}

bool EventStore::valid_room_id(const std::string& room) {
  if (room.empty() || room.size() > 64 || room == "." || room == "..") return false;  // never a path segment of its own
  for (char c : room)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

bool EventStore::read_event(const std::string& room, int64_t version, std::string* bytes, std::string* error) {
  std::string owner = room;
  for (int depth = 0; depth < kMaxForkDepth; ++depth) {
    auto m = meta(owner, error);
    if (!m) {
      if (error->empty()) *error = "no room " + owner;
      return false;
    }
    if (!m->parent.empty() && version <= m->parent_version) {
      owner = m->parent;
      continue;
    }
    if (version < 0 || version > m->head) {
      *error = "room " + room + " has no version " + std::to_string(version);
      return false;
    }
    std::string value;
    if (!read_own_event(owner, version, &value, error)) return false;
    return unseal_event(room, version, value, bytes, error);
  }
  *error = "room " + room + ": fork chain too deep";
  return false;
}

bool EventStore::scan_events(const std::string& room, int64_t from, int64_t to,
                             const std::function<bool(int64_t, const std::string&)>& fn, std::string* error) {
  auto m = meta(room, error);
  if (!m) {
    if (error->empty()) *error = "no room " + room;
    return false;
  }
  if (to > m->head) to = m->head;
  if (from < 0) from = 0;
  // The shared prefix of a fork comes from its ancestors.
  if (!m->parent.empty() && from <= m->parent_version) {
    bool stop = false;
    bool ok = scan_events(m->parent, from, std::min(to, m->parent_version),
                          [&](int64_t v, const std::string& b) {
                            if (!fn(v, b)) {
                              stop = true;
                              return false;
                            }
                            return true;
                          },
                          error);
    if (!ok || stop) return ok;
    from = m->parent_version + 1;
  }
  if (from > to) return true;
  int64_t expect = from;
  bool stopped = false, bad = false;
  std::string bytes;
  bool ok = scan_own_events(room, from, to,
                            [&](int64_t v, std::string_view value) {
                              if (v != expect) return false;  // a hole at `expect`: said below
                              ++expect;
                              if (!unseal_event(room, v, value, &bytes, error)) {
                                bad = true;
                                return false;
                              }
                              if (!fn(v, bytes)) {
                                stopped = true;
                                return false;
                              }
                              return true;
                            },
                            error);
  if (!ok || bad) return false;
  if (stopped) return true;
  if (expect <= to) {
    *error = "room " + room + ": version " + std::to_string(expect) + " is missing from the store";
    return false;
  }
  return true;
}

bool EventStore::latest_snapshot(const std::string& room, int64_t at_most, int64_t* version, std::string* bytes,
                                 std::string* error) {
  std::string owner = room;
  for (int depth = 0; depth < kMaxForkDepth; ++depth) {
    auto m = meta(owner, error);
    if (!m) {
      if (error->empty()) *error = "no room " + owner;
      return false;
    }
    int64_t v = -1;
    if (!own_snapshot(owner, at_most, &v, bytes, error)) return false;
    if (v >= 0 && (m->parent.empty() || v > m->parent_version)) {
      *version = v;
      return true;
    }
    if (m->parent.empty()) {
      *version = -1;
      return true;
    }
    at_most = std::min(at_most, m->parent_version);
    owner = m->parent;
  }
  *error = "room " + room + ": fork chain too deep";
  return false;
}

void EventStore::check_action_id(const std::string& where, const std::string& room, const std::string& id,
                                 int64_t version, int64_t head, std::vector<std::string>* problems) {
  const std::string what = where + "room " + room + ": client action id '" + id + "' (version " + std::to_string(version) + ")";
  if (version > head || version < 0) {
    problems->push_back(what + " points past the room's head");
    return;
  }
  std::string bytes, err;
  if (!read_event(room, version, &bytes, &err)) {
    problems->push_back(what + ": " + err);
    return;
  }
  flatbuffers::Verifier ver(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (!fb::VerifyEventBuffer(ver)) {
    problems->push_back(what + ": its event cannot be decoded");
    return;
  }
  const auto* cid = fb::GetEvent(bytes.data())->client_action_id();
  const std::string stored = cid ? cid->str() : "";
  if (stored != id && !(stored.empty() && id == "create"))
    problems->push_back(what + " names an event that carries '" + stored + "'");
}

}  // namespace mentat::store
