#include "store/pg_store.h"

#include <pqxx/pqxx>

#include <chrono>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "store/copy.h"
#include "store/rocks_store.h"

namespace mentat::store {

struct PgConn {
  explicit PgConn(const std::string& url) : c(url) {}
  pqxx::connection c;
};

namespace {

uint64_t now_ms() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

// The database's message without its "ERROR:" prefix and trailing newlines.
std::string message(const std::exception& e) {
  std::string s = e.what();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  for (const char* p : {"ERROR:  ", "FATAL:  "})
    if (s.starts_with(p)) s = s.substr(std::char_traits<char>::length(p));
  for (auto& c : s)
    if (c == '\n') c = ' ';
  return s;
}

// `msg` with every password `url` holds (its user info's, its password=
// parameters') replaced by *** (libpq quotes parts of a URL it cannot
// parse), as redact_location() finds them.
std::string without_passwords(std::string msg, const std::string& url) {
  std::vector<std::string> secrets;
  const size_t authority = url.find("://") + 3;
  const size_t end = std::min(url.find_first_of("/?", authority), url.size());
  const size_t at = end > authority ? url.rfind('@', end - 1) : std::string::npos;
  if (at != std::string::npos && at >= authority) {
    const size_t colon = url.find(':', authority);
    if (colon < at) secrets.push_back(url.substr(colon + 1, at - colon - 1));
  }
  for (size_t p = url.find('?', authority); p != std::string::npos; p = url.find('&', p)) {
    ++p;
    if (url.compare(p, 9, "password=") == 0) secrets.push_back(url.substr(p + 9, url.find('&', p) - (p + 9)));
  }
  for (const auto& secret : secrets)
    for (size_t p = secret.empty() ? std::string::npos : msg.find(secret); p != std::string::npos; p = msg.find(secret, p + 3))
      msg.replace(p, secret.size(), "***");
  return msg;
}

std::string bytes_of(const pqxx::field& f) {
  pqxx::binarystring b(f);
  return b.str();
}

// One schema change per version, applied in order in one transaction each
// (PostgreSQL's DDL is transactional). Never edit a released step: add one.
struct Step {
  int version;
  const char* sql;
};
const Step kSteps[] = {
    {1, R"sql(
CREATE TABLE rooms (
  room text PRIMARY KEY,
  head bigint NOT NULL,
  parent text NOT NULL DEFAULT '',
  parent_version bigint NOT NULL DEFAULT -1,
  created_unix_ms bigint NOT NULL
);
CREATE TABLE events (
  room text NOT NULL,
  version bigint NOT NULL,
  client_action_id text,
  value bytea NOT NULL,
  PRIMARY KEY (room, version),
  UNIQUE (room, client_action_id)
);
CREATE TABLE snapshots (
  room text NOT NULL,
  version bigint NOT NULL,
  state bytea NOT NULL,
  PRIMARY KEY (room, version)
);
CREATE TABLE secrets (
  room text NOT NULL,
  name text NOT NULL,
  value bytea NOT NULL,
  PRIMARY KEY (room, name)
);
CREATE TABLE state_migrations (
  room text PRIMARY KEY,
  record bytea NOT NULL
);
)sql"},
};
static_assert(sizeof(kSteps) / sizeof(kSteps[0]) == PgStore::kSchemaVersion, "one step per schema version");

// Any fixed number: the advisory lock a migrating process holds.
constexpr int64_t kMigrationLock = 0x6d656e746174;  // "mentat"

}  // namespace

PgStore::PgStore(const std::string& url, const Options& opts) : EventStore(url), url_(url), opts_(opts) {}

PgStore::~PgStore() {
  closing_ = true;
  if (watcher_.joinable()) watcher_.join();
}

void PgStore::watch(Watcher w) {
  std::scoped_lock lock(watch_mu_);
  watcher_fns_ = std::move(w);
  const bool any = watcher_fns_.appended || watcher_fns_.secrets_changed || watcher_fns_.resync;
  if (!any || watcher_.joinable()) return;
  watcher_ = std::thread([this] { listen_loop(); });
}

void PgStore::listen_loop() {
  struct Receiver final : pqxx::notification_receiver {
    Receiver(pqxx::connection& c, PgStore& st, const char* channel) : pqxx::notification_receiver(c, channel), st(st) {}
    void operator()(const std::string& payload, int) override {
      if (channel() == "mentat_room") {
        std::scoped_lock lock(st.watch_mu_);
        if (st.watcher_fns_.secrets_changed) st.watcher_fns_.secrets_changed(payload);
        return;
      }
      const auto colon = payload.rfind(':');
      if (colon == std::string::npos) return;
      int64_t version = -1;
      try {
        version = std::stoll(payload.substr(colon + 1));
      } catch (const std::logic_error&) {
        return;  // not a notification of ours
      }
      std::scoped_lock lock(st.watch_mu_);
      if (st.watcher_fns_.appended) st.watcher_fns_.appended(payload.substr(0, colon), version);
    }
    PgStore& st;
  };
  while (!closing_) {
    std::string err;
    auto pc = connect(&err, "mentat listen");
    if (pc) {
      try {
        Receiver appends(pc->c, *this, "mentat_append"), secrets(pc->c, *this, "mentat_room");
        {
          // Listening now: what was committed before is read again.
          std::scoped_lock lock(watch_mu_);
          if (watcher_fns_.resync) watcher_fns_.resync();
        }
        auto last_check = std::chrono::steady_clock::now();
        while (!closing_) {
          pc->c.await_notification(0, 200000);
          // A connection the server ended (or that silently went away) is
          // found by a round trip at least every second.
          if (std::chrono::steady_clock::now() - last_check > std::chrono::seconds(1)) {
            pqxx::nontransaction(pc->c).exec("SELECT 1");
            last_check = std::chrono::steady_clock::now();
          }
        }
      } catch (const std::exception&) {
        // The connection was lost: listen again on a new one.
      }
    }
    for (int i = 0; i < 10 && !closing_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

bool PgStore::hold_room_lease(const std::string& room) {
  std::scoped_lock lock(lease_mu_);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!lease_conn_) {
      std::string err;
      leased_.clear();
      lease_conn_ = connect(&err, "mentat lease");
      if (!lease_conn_) return false;
    }
    try {
      pqxx::nontransaction n(lease_conn_->c);
      if (leased_.count(room)) {
        n.exec("SELECT 1");  // still connected: still held
        return true;
      }
      if (!n.exec_params("SELECT pg_try_advisory_lock(hashtextextended($1, 0))", room)[0][0].as<bool>()) return false;
      leased_.insert(room);
      return true;
    } catch (const std::exception&) {
      // The connection (and every lease on it) is gone: once more on a new one.
      lease_conn_.reset();
      leased_.clear();
    }
  }
  return false;
}

std::unique_ptr<PgConn> PgStore::connect(std::string* error, const char* name) {
  try {
    auto c = std::make_unique<PgConn>(url_);
    pqxx::nontransaction n(c->c);
    if (name) n.exec(std::string("SET application_name TO '") + name + "'");
    // Every commit waits for the database's log to be flushed (the
    // contract's "durable before it returns"), whatever the server's default.
    n.exec(opts_.sync ? "SET synchronous_commit TO on" : "SET synchronous_commit TO off");
    if (opts_.read_only) n.exec("SET default_transaction_read_only TO on");
    return c;
  } catch (const std::exception& e) {
    *error = "cannot connect to the store at " + dir() + ": " + without_passwords(message(e), url_);
    return nullptr;
  }
}

bool PgStore::with_connection(const std::string& what, const std::function<void(PgConn&)>& fn,
                              std::string* error) {
  for (int attempt = 0;; ++attempt) {
    std::unique_ptr<PgConn> c;
    {
      std::scoped_lock lock(mu_);
      if (!idle_.empty()) {
        c = std::move(idle_.back());
        idle_.pop_back();
      }
    }
    const bool pooled = c != nullptr;
    if (!c) {
      std::string err;
      c = connect(&err);
      if (!c) {
        *error = what + ": " + err;
        return false;
      }
    }
    try {
      fn(*c);
    } catch (const pqxx::broken_connection& e) {
      // A pooled connection the server dropped (it restarted, or closed idle
      // connections): once more on a new one. Nothing was committed on it.
      if (pooled && attempt == 0) continue;
      *error = what + ": the connection to the store at " + dir() + " was lost (" + message(e) + ")";
      return false;
    } catch (const pqxx::in_doubt_error& e) {
      *error = what + ": the connection to the store at " + dir() +
               " was lost while committing: whether the write was stored is unknown (" + message(e) + ")";
      return false;
    } catch (const std::exception& e) {
      *error = what + ": " + message(e);
      if (c->c.is_open()) {
        std::scoped_lock lock(mu_);
        idle_.push_back(std::move(c));
      }
      return false;
    }
    std::scoped_lock lock(mu_);
    idle_.push_back(std::move(c));
    return true;
  }
}

bool PgStore::migrate(PgConn& pc, std::string* error) {
  pqxx::work w(pc.c);
  w.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLock);
  w.exec("CREATE TABLE IF NOT EXISTS mentat_schema (version integer PRIMARY KEY, applied_unix_ms bigint NOT NULL)");
  const int have = w.exec("SELECT coalesce(max(version), 0) FROM mentat_schema")[0][0].as<int>();
  if (have > kSchemaVersion) {
    *error = "the store at " + dir() + " has schema version " + std::to_string(have) + "; this mentat knows versions up to " +
             std::to_string(kSchemaVersion) + ": use a newer mentat";
    return false;
  }
  for (const auto& step : kSteps) {
    if (step.version <= have) continue;
    w.exec(step.sql);
    w.exec_params("INSERT INTO mentat_schema (version, applied_unix_ms) VALUES ($1, $2)", step.version,
                  static_cast<int64_t>(now_ms()));
  }
  w.commit();
  return true;
}

PostgresOpener PgStore::opener() {
  return [](const std::string& url, const Options& opts, std::string* error) -> std::unique_ptr<EventStore> {
    return open(url, opts, error);
  };
}

std::unique_ptr<PgStore> PgStore::open(const std::string& url, const Options& opts, std::string* error) {
  std::unique_ptr<PgStore> st(new PgStore(url, opts));
  bool ok = false;
  const bool writer = !opts.read_only && opts.create_if_missing;
  const bool done = st->with_connection(
      "cannot open the store at " + st->dir(),
      [&](PgConn& pc) {
        auto& c = pc.c;
        if (writer) {
          ok = st->migrate(pc, error);
          return;
        }
        pqxx::nontransaction n(c);
        if (n.exec("SELECT to_regclass('mentat_schema')")[0][0].is_null()) {
          *error = "no store at " + st->dir() + " (the database holds no Mentat store)";
          return;
        }
        const int have = n.exec("SELECT coalesce(max(version), 0) FROM mentat_schema")[0][0].as<int>();
        if (have != kSchemaVersion) {
          *error = "the store at " + st->dir() + " has schema version " + std::to_string(have) + "; this mentat reads " +
                   std::to_string(kSchemaVersion) +
                   (have < kSchemaVersion ? ": a writer (mentat serve, or any writing command) upgrades it"
                                          : ": use a newer mentat");
          return;
        }
        ok = true;
      },
      error);
  if (!done || !ok) return nullptr;
  return st;
}

std::optional<RoomMeta> PgStore::meta(const std::string& room, std::string* error) {
  std::optional<RoomMeta> out;
  with_connection(
      "room " + room,
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::nontransaction n(c);
        auto r = n.exec_params("SELECT head, parent, parent_version, created_unix_ms FROM rooms WHERE room = $1", room);
        if (r.empty()) return;
        out = RoomMeta{room, r[0][0].as<int64_t>(), r[0][1].as<std::string>(), r[0][2].as<int64_t>(),
                       static_cast<uint64_t>(r[0][3].as<int64_t>())};
      },
      error);
  return out;
}

std::vector<RoomMeta> PgStore::rooms(std::string* error) {
  std::vector<RoomMeta> out;
  with_connection(
      "store " + dir() + ": the rooms' metadata cannot be read",
      [&](PgConn& pc) {
        auto& c = pc.c;
        out.clear();
        pqxx::nontransaction n(c);
        for (const auto& row : n.exec("SELECT room, head, parent, parent_version, created_unix_ms FROM rooms ORDER BY room"))
          out.push_back({row[0].as<std::string>(), row[1].as<int64_t>(), row[2].as<std::string>(), row[3].as<int64_t>(),
                         static_cast<uint64_t>(row[4].as<int64_t>())});
      },
      error);
  return out;
}

std::optional<int64_t> PgStore::find_action(const std::string& room, const std::string& client_action_id,
                                            std::string* error) {
  std::optional<int64_t> out;
  with_connection(
      "room " + room,
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::nontransaction n(c);
        auto r = n.exec_params("SELECT version FROM events WHERE room = $1 AND client_action_id = $2", room,
                               client_action_id);
        if (!r.empty()) out = r[0][0].as<int64_t>();
      },
      error);
  return out;
}

AppendResult PgStore::append_valid(const std::string& room, int64_t expected_head, const std::string& event_bytes,
                                   const std::string& client_action_id, const std::string* snapshot_bytes) {
  AppendResult r;
  const int64_t version = expected_head + 1;
  const std::string sealed = seal_event(event_bytes);
  auto duplicate = [&](PgConn& pc) {
    auto& c = pc.c;
    if (client_action_id.empty()) return false;
    pqxx::nontransaction n(c);
    auto q = n.exec_params("SELECT version FROM events WHERE room = $1 AND client_action_id = $2", room, client_action_id);
    if (q.empty()) return false;
    r.status = AppendStatus::Duplicate;
    r.version = q[0][0].as<int64_t>();
    return true;
  };
  with_connection(
      "room " + room + " version " + std::to_string(version) + ": write failed",
      [&](PgConn& pc) {
        auto& c = pc.c;
        if (duplicate(pc)) return;
        bool won = false;
        try {
          pqxx::work w(c);
          // The compare-and-set: one row per (room, version).
          w.exec_params("INSERT INTO events (room, version, client_action_id, value) VALUES ($1, $2, NULLIF($3, ''), $4)",
                        room, version, client_action_id, pqxx::binarystring(sealed));
          // The head moves only from the expected one (no version skipped).
          const auto moved =
              expected_head < 0
                  ? w.exec_params("INSERT INTO rooms (room, head, created_unix_ms) VALUES ($1, 0, $2) ON CONFLICT (room) DO NOTHING",
                                  room, static_cast<int64_t>(now_ms()))
                  : w.exec_params("UPDATE rooms SET head = $2 WHERE room = $1 AND head = $3", room, version, expected_head);
          if (moved.affected_rows() == 1) {
            if (snapshot_bytes)
              w.exec_params("INSERT INTO snapshots (room, version, state) VALUES ($1, $2, $3) "
                            "ON CONFLICT (room, version) DO UPDATE SET state = EXCLUDED.state",
                            room, version, pqxx::binarystring(*snapshot_bytes));
            w.commit();
            won = true;
          }
        } catch (const pqxx::unique_violation&) {
          // Another append took this version, or this action id.
        }
        if (won) {
          r.status = AppendStatus::Ok;
          r.version = version;
          // Long-polls on every server sharing the database: in a
          // transaction of its own, not synced. (A NOTIFY holds a global
          // lock through its transaction's commit: inside the append it
          // serialised every synced commit, 8 rooms appending no faster
          // than one fsync each: docs/PERFORMANCE.md.) Best effort: the
          // event is stored whatever happens here.
          try {
            pqxx::work n(c);
            n.exec("SET LOCAL synchronous_commit TO off");
            n.exec_params("SELECT pg_notify('mentat_append', $1)", room + ":" + std::to_string(version));
            n.commit();
          } catch (const std::exception&) {
            // (A lost connection is found and replaced at its next use.)
          }
          return;
        }
        if (duplicate(pc)) return;
        pqxx::nontransaction n(c);
        auto h = n.exec_params("SELECT head FROM rooms WHERE room = $1", room);
        const int64_t head = h.empty() ? -1 : h[0][0].as<int64_t>();
        r.status = AppendStatus::Conflict;
        r.version = head;
        r.error = "room " + room + " is at version " + std::to_string(head) + ", not " + std::to_string(expected_head);
      },
      &r.error);
  return r;
}

bool PgStore::create_fork(const std::string& room, const std::string& parent, int64_t parent_version,
                          std::string* error) {
  if (!valid_room_id(room)) {
    *error = "invalid room id '" + room + "' (letters, digits, '-', '_', '.'; at most 64)";
    return false;
  }
  bool ok = false;
  const bool ran = with_connection(
      "room " + room,
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::work w(c);
        auto p = w.exec_params("SELECT head FROM rooms WHERE room = $1", parent);
        if (p.empty()) {
          *error = "no room " + parent;
          return;
        }
        const int64_t head = p[0][0].as<int64_t>();
        if (parent_version < 0 || parent_version > head) {
          *error = "room " + parent + " has no version " + std::to_string(parent_version) + " (head " + std::to_string(head) + ")";
          return;
        }
        auto ins = w.exec_params(
            "INSERT INTO rooms (room, head, parent, parent_version, created_unix_ms) VALUES ($1, $2, $3, $2, $4) "
            "ON CONFLICT (room) DO NOTHING",
            room, parent_version, parent, static_cast<int64_t>(now_ms()));
        if (ins.affected_rows() != 1) {
          *error = "room " + room + " already exists";
          return;
        }
        w.commit();
        ok = true;
      },
      error);
  return ran && ok;
}

bool PgStore::read_own_event(const std::string& room, int64_t version, std::string* value, std::string* error) {
  bool found = false;
  const bool ran = with_connection(
      "room " + room + " version " + std::to_string(version),
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::nontransaction n(c);
        auto r = n.exec_params("SELECT value FROM events WHERE room = $1 AND version = $2", room, version);
        if (r.empty()) return;
        *value = bytes_of(r[0][0]);
        found = true;
      },
      error);
  if (ran && !found) *error = "room " + room + " version " + std::to_string(version) + ": NotFound: the event is missing";
  return ran && found;
}

bool PgStore::scan_own_events(const std::string& room, int64_t from, int64_t to,
                              const std::function<bool(int64_t, std::string_view)>& fn, std::string* error) {
  pqxx::result rows;
  if (!with_connection(
          "room " + room,
          [&](PgConn& pc) {
            auto& c = pc.c;
            pqxx::nontransaction n(c);
            rows = n.exec_params("SELECT version, value FROM events WHERE room = $1 AND version BETWEEN $2 AND $3 "
                                 "ORDER BY version",
                                 room, from, to);
          },
          error))
    return false;
  for (const auto& row : rows) {
    const std::string value = bytes_of(row[1]);
    if (!fn(row[0].as<int64_t>(), value)) break;
  }
  return true;
}

bool PgStore::own_snapshot(const std::string& room, int64_t at_most, int64_t* version, std::string* bytes,
                           std::string* error) {
  *version = -1;
  return with_connection(
      "room " + room,
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::nontransaction n(c);
        auto r = n.exec_params("SELECT version, state FROM snapshots WHERE room = $1 AND version <= $2 "
                               "ORDER BY version DESC LIMIT 1",
                               room, at_most);
        if (r.empty()) return;
        *version = r[0][0].as<int64_t>();
        *bytes = bytes_of(r[0][1]);
      },
      error);
}

bool PgStore::put_room_secrets(const std::string& room,
                               const std::vector<std::pair<std::string, std::string>>& entries, std::string* error) {
  if (!valid_room_id(room)) {
    *error = "invalid room id '" + room + "'";
    return false;
  }
  return with_connection(
      "room " + room + ": writing its secrets failed",
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::work w(c);
        for (const auto& [name, value] : entries)
          w.exec_params("INSERT INTO secrets (room, name, value) VALUES ($1, $2, $3) "
                        "ON CONFLICT (room, name) DO UPDATE SET value = EXCLUDED.value",
                        room, name, pqxx::binarystring(value));
        // Every server sharing the store forgets what it read of them
        // (sent with the commit; rare enough to ride in it).
        w.exec_params("SELECT pg_notify('mentat_room', $1)", room);
        w.commit();
      },
      error);
}

std::optional<std::string> PgStore::get_room_secret(const std::string& room, const std::string& name,
                                                    std::string* error) {
  std::optional<std::string> out;
  with_connection(
      "room " + room + ": reading secret " + name,
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::nontransaction n(c);
        auto r = n.exec_params("SELECT value FROM secrets WHERE room = $1 AND name = $2", room, name);
        if (!r.empty()) out = bytes_of(r[0][0]);
      },
      error);
  return out;
}

bool PgStore::put_migration(const std::string& room, const std::string& record,
                            const std::vector<std::pair<int64_t, std::string>>& snapshots, std::string* error) {
  if (!valid_room_id(room)) {
    *error = "invalid room id '" + room + "'";
    return false;
  }
  return with_connection(
      "room " + room + ": writing its migration failed",
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::work w(c);
        w.exec_params("INSERT INTO state_migrations (room, record) VALUES ($1, $2) "
                      "ON CONFLICT (room) DO UPDATE SET record = EXCLUDED.record",
                      room, pqxx::binarystring(record));
        for (const auto& [version, bytes] : snapshots)
          w.exec_params("INSERT INTO snapshots (room, version, state) VALUES ($1, $2, $3) "
                        "ON CONFLICT (room, version) DO UPDATE SET state = EXCLUDED.state",
                        room, version, pqxx::binarystring(bytes));
        w.commit();
      },
      error);
}

std::optional<std::string> PgStore::get_migration(const std::string& room, std::string* error) {
  std::optional<std::string> out;
  with_connection(
      "room " + room + ": reading its migration",
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::nontransaction n(c);
        auto r = n.exec_params("SELECT record FROM state_migrations WHERE room = $1", room);
        if (!r.empty()) out = bytes_of(r[0][0]);
      },
      error);
  return out;
}

bool PgStore::debug_put_snapshot(const std::string& room, int64_t version, const std::string& bytes,
                                 std::string* error) {
  return with_connection(
      "room " + room,
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::work w(c);
        w.exec_params("INSERT INTO snapshots (room, version, state) VALUES ($1, $2, $3) "
                      "ON CONFLICT (room, version) DO UPDATE SET state = EXCLUDED.state",
                      room, version, pqxx::binarystring(bytes));
        w.commit();
      },
      error);
}

bool PgStore::debug_overwrite_event(const std::string& room, int64_t version, const std::string& bytes,
                                    std::string* error, bool raw) {
  return with_connection(
      "room " + room + " version " + std::to_string(version),
      [&](PgConn& pc) {
        auto& c = pc.c;
        pqxx::work w(c);
        w.exec_params("UPDATE events SET value = $3 WHERE room = $1 AND version = $2", room, version,
                      pqxx::binarystring(raw ? bytes : seal_event(bytes)));
        w.commit();
      },
      error);
}

bool PgStore::room_records(const std::string& room, RoomRecords* out, std::string* error) {
  return with_connection(
      "room " + room,
      [&](PgConn& pc) {
        *out = {};
        pqxx::read_transaction t(pc.c);
        for (const auto& row : t.exec_params("SELECT client_action_id, version FROM events WHERE room = $1 AND "
                                             "client_action_id IS NOT NULL ORDER BY client_action_id COLLATE \"C\"",
                                             room))
          out->action_ids.emplace_back(row[0].as<std::string>(), row[1].as<int64_t>());
        for (const auto& row : t.exec_params("SELECT version FROM snapshots WHERE room = $1 ORDER BY version", room))
          out->snapshots.push_back(row[0].as<int64_t>());
        for (const auto& row : t.exec_params("SELECT name, value FROM secrets WHERE room = $1 ORDER BY name COLLATE \"C\"", room))
          out->secrets.emplace_back(row[0].as<std::string>(), bytes_of(row[1]));
      },
      error);
}

bool PgStore::secret_rooms(std::vector<std::string>* out, std::string* error) {
  return with_connection(
      "store " + dir() + ": the rooms' secrets cannot be listed",
      [&](PgConn& pc) {
        out->clear();
        pqxx::nontransaction n(pc.c);
        for (const auto& row : n.exec("SELECT DISTINCT room COLLATE \"C\" FROM secrets ORDER BY 1"))
          out->push_back(row[0].as<std::string>());
      },
      error);
}

bool PgStore::set_created(const std::string& room, uint64_t created_unix_ms, std::string* error) {
  bool found = false;
  const bool ran = with_connection(
      "room " + room,
      [&](PgConn& pc) {
        pqxx::work w(pc.c);
        found = w.exec_params("UPDATE rooms SET created_unix_ms = $2 WHERE room = $1", room,
                              static_cast<int64_t>(created_unix_ms))
                    .affected_rows() == 1;
        w.commit();
      },
      error);
  if (ran && !found) *error = "no room " + room;
  return ran && found;
}

bool PgStore::copy_to(const std::string& dest, int64_t* records, std::string* error) {
  *records = 0;
  if (is_postgres_location(dest)) {
    *error = "a backup of the PostgreSQL store " + dir() + " goes into a new directory (a RocksDB store); to copy it "
             "into another database use `mentat migrate-store`, pg_dump or pg_basebackup (docs/SERVER.md)";
    return false;
  }
  std::error_code ec;
  if (std::filesystem::exists(dest, ec)) {
    *error = "the backup directory " + dest + " exists already (a backup goes into a new directory)";
    return false;
  }
  Options o;
  o.sync = false;  // one flush at the end makes the copy durable
  auto copy = RocksStore::open(dest, o, error);
  if (!copy) return false;
  CopyReport r;
  if (!copy_store(*this, *copy, &r, error) || !copy->flush(error)) {
    *error = "the backup " + dest + " is incomplete (remove it): " + *error;
    return false;
  }
  *records = r.rooms + r.events + r.snapshots + r.action_ids + r.secrets + r.migrations;
  return true;
}

bool PgStore::check_integrity(std::vector<std::string>* problems, std::string* error) {
  const std::string where = "store " + dir() + ": ";
  std::map<std::string, RoomMeta> metas;
  std::string err;
  for (auto& m : rooms(&err)) metas[m.room] = m;
  if (!err.empty()) {
    *error = err;
    return false;
  }
  pqxx::result events, snapshots, secrets;
  if (!with_connection(
          "store " + dir() + ": the check could not read it",
          [&](PgConn& pc) {
            auto& c = pc.c;
            // One moment of the whole store.
            pqxx::read_transaction t(c);
            events = t.exec("SELECT room, version, client_action_id, value FROM events ORDER BY room, version");
            snapshots = t.exec("SELECT room, version FROM snapshots");
            secrets = t.exec("SELECT count(*) FROM secrets");
          },
          error))
    return false;
  std::map<std::string, int64_t> own_events;
  for (const auto& row : events) {
    const std::string room = row[0].as<std::string>();
    const int64_t v = row[1].as<int64_t>();
    std::string bytes, err;
    auto m = metas.find(room);
    if (m == metas.end())
      problems->push_back(where + "an event of room " + room + " (version " + std::to_string(v) + "), a room the store does not know");
    else if (v > m->second.head)
      problems->push_back(where + "room " + room + " holds an event at version " + std::to_string(v) + ", past its head " + std::to_string(m->second.head));
    else if (!m->second.parent.empty() && v <= m->second.parent_version)
      problems->push_back(where + "fork " + room + " holds its own event at shared version " + std::to_string(v));
    else
      ++own_events[room];
    if (!unseal_event(room, v, bytes_of(row[3]), &bytes, &err)) problems->push_back(where + err);
    if (!row[2].is_null())
      check_action_id(where, room, row[2].as<std::string>(), v, m == metas.end() ? -1 : m->second.head, problems);
  }
  for (const auto& [room, m] : metas) {
    const int64_t want = m.head - (m.parent.empty() ? -1 : m.parent_version);
    const int64_t have = own_events.count(room) ? own_events[room] : 0;
    if (have != want)
      problems->push_back(where + "room " + room + " holds " + std::to_string(have) + " of its " + std::to_string(want) +
                          " events (up to version " + std::to_string(m.head) + ")");
    if (!m.parent.empty() && !metas.count(m.parent))
      problems->push_back(where + "fork " + room + " names a parent " + m.parent + " the store does not know");
  }
  for (const auto& row : snapshots) {
    const std::string room = row[0].as<std::string>();
    const int64_t v = row[1].as<int64_t>();
    auto m = metas.find(room);
    if (m == metas.end() || v > m->second.head)
      problems->push_back(where + "a snapshot of room " + room + " at version " + std::to_string(v) + " lies past the room's head");
  }
  return true;
}

}  // namespace mentat::store
