// The PostgreSQL event store (store/event_store.h's contract): a database
// that several room servers may share and that outlives any of them.
// Opened by EventStore::open() for a postgresql:// (or postgres://) URL
// (libpq's connection URI: user, host or socket directory, port, database).
//
// Schema (created and upgraded by mentat itself at a writable open; the
// database must exist; mentat_schema records each applied version):
//   rooms     (room PK, head, parent, parent_version, created_unix_ms)
//   events    (room, version) PK, client_action_id, value bytea
//             UNIQUE (room, client_action_id); value is the event bytes
//             followed by their xxh3-64 (seal_event), as RocksDB stores them
//   snapshots (room, version) PK, state bytea
//   secrets   (room, name) PK, value bytea
//   state_migrations (room PK, record bytea)
//
// Beyond the common contract:
//  * append() is one transaction: the insert of the event at
//    expected_head+1 is the compare-and-set (a racing insert at the same
//    version fails on the primary key and becomes Conflict), the update of
//    the room's head checks expected_head (so no version is skipped), the
//    unique (room, client_action_id) makes a resend Duplicate; the
//    transaction commits with synchronous_commit on (the database's log is
//    flushed) before append() returns. Several processes may append to one
//    room at once: the database decides, and exactly one wins.
//  * Nothing is cached: meta() and every read see every commit, whichever
//    process made it.
//  * Durability is PostgreSQL's own (its write-ahead log, synced at commit):
//    there is no acknowledgement log beside it, and Options::accept_loss
//    finds nothing to accept.
//  * Thread-safe: connections are pooled (one per concurrent caller); a
//    connection the server dropped is replaced at the next call.
//  * Several processes: watch() and hold_room_lease() below.
#pragma once

#include <atomic>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

#include "store/event_store.h"

namespace mentat::store {

struct PgConn;  // a pooled connection (pg_store.cpp)

class PgStore final : public EventStore {
 public:
  // The schema version this release writes (mentat_schema).
  static constexpr int kSchemaVersion = 1;

  // EventStore::open() for a postgresql:// URL: connects, and (writable
  // opens with create_if_missing) creates or upgrades the schema. Refuses a
  // database whose schema is newer than this release's, and for readers one
  // without a schema or with an older one.
  static std::unique_ptr<PgStore> open(const std::string& url, const Options& opts, std::string* error);
  // open() as the PostgresOpener that EventStore::open() calls
  // (store/event_store.h, set_postgres_opener).
  static PostgresOpener opener();
  ~PgStore() override;

  bool create_fork(const std::string& room, const std::string& parent, int64_t parent_version,
                   std::string* error) override;
  std::optional<RoomMeta> meta(const std::string& room, std::string* error) override;
  std::optional<int64_t> find_action(const std::string& room, const std::string& client_action_id,
                                     std::string* error) override;
  std::vector<RoomMeta> rooms(std::string* error) override;
  bool put_room_secrets(const std::string& room, const std::vector<std::pair<std::string, std::string>>& entries,
                        std::string* error) override;
  std::optional<std::string> get_room_secret(const std::string& room, const std::string& name,
                                             std::string* error) override;
  bool check_integrity(std::vector<std::string>* problems, std::string* error) override;
  bool room_records(const std::string& room, RoomRecords* out, std::string* error) override;
  bool secret_rooms(std::vector<std::string>* out, std::string* error) override;
  bool set_created(const std::string& room, uint64_t created_unix_ms, std::string* error) override;
  // Backup (`mentat backup DEST`): a logical copy into a new RocksDB store
  // directory DEST by store/copy.h's copy_store (every room, parents first,
  // each event with its client action id and snapshot, secrets, migration
  // records, creation times), flushed once at the end. Each room is copied
  // as of the moment its turn comes (its events up to the head the room
  // list showed), not the whole database as of one moment: for that, and
  // for a PostgreSQL copy, use pg_dump or pg_basebackup (docs/SERVER.md).
  bool copy_to(const std::string& dest, int64_t* records, std::string* error) override;
  bool put_migration(const std::string& room, const std::string& record,
                     const std::vector<std::pair<int64_t, std::string>>& snapshots, std::string* error) override;
  std::optional<std::string> get_migration(const std::string& room, std::string* error) override;
  bool debug_put_snapshot(const std::string& room, int64_t version, const std::string& bytes,
                          std::string* error) override;
  bool debug_overwrite_event(const std::string& room, int64_t version, const std::string& bytes, std::string* error,
                             bool raw = false) override;

  // LISTEN mentat_append and mentat_room on a connection of its own
  // (application_name 'mentat listen'; reconnected when lost, then
  // Watcher::resync). After each append's commit, a transaction of its own
  // (not synced) sends NOTIFY mentat_append 'room:version' (a process that
  // dies between the two stores the event and tells no one: long-polls
  // elsewhere end at their wait). put_room_secrets sends NOTIFY mentat_room
  // 'room' inside its own transaction (delivered with its commit).
  void watch(Watcher w) override;
  // A session-level advisory lock (pg_try_advisory_lock on the room id's
  // 64-bit text hash) on a connection of its own (application_name
  // 'mentat lease'): PostgreSQL releases it
  // when that connection ends, the holder's process with it. Two rooms whose
  // ids hash alike share one lease.
  bool hold_room_lease(const std::string& room) override;

 protected:
  AppendResult append_valid(const std::string& room, int64_t expected_head, const std::string& event_bytes,
                            const std::string& client_action_id, const std::string* snapshot_bytes) override;
  bool read_own_event(const std::string& room, int64_t version, std::string* value, std::string* error) override;
  bool scan_own_events(const std::string& room, int64_t from, int64_t to,
                       const std::function<bool(int64_t, std::string_view)>& fn, std::string* error) override;
  bool own_snapshot(const std::string& room, int64_t at_most, int64_t* version, std::string* bytes,
                    std::string* error) override;

 private:
  PgStore(const std::string& url, const Options& opts);
  // Runs fn with a pooled connection; a database error becomes false with
  // *error = `what` + ": " + the database's message.
  bool with_connection(const std::string& what, const std::function<void(PgConn&)>& fn, std::string* error);
  // A new connection; `name`, when given, is its application_name (what
  // pg_stat_activity shows).
  std::unique_ptr<PgConn> connect(std::string* error, const char* name = nullptr);
  void listen_loop();
  bool migrate(PgConn& pc, std::string* error);

  std::string url_;
  Options opts_;
  std::mutex mu_;
  std::vector<std::unique_ptr<PgConn>> idle_;
  std::atomic<bool> closing_{false};
  std::mutex watch_mu_;  // held while a callback of watcher_fns_ runs
  Watcher watcher_fns_;
  std::thread watcher_;
  std::mutex lease_mu_;
  std::unique_ptr<PgConn> lease_conn_;       // holds the leases (guarded by lease_mu_)
  std::unordered_set<std::string> leased_;   // rooms leased on lease_conn_
};

}  // namespace mentat::store
