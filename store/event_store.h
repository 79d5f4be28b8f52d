// The event store: one append-only event stream per room, with the rooms'
// metadata, snapshots, idempotency keys and secrets beside it. This header
// is the contract every backend keeps; how each lays its records out is in
// its own header:
//   store/rocks_store.h  RocksDB in a directory: the embedded default
//   store/pg_store.h     PostgreSQL: a database several servers may share
// EventStore::open() picks the backend by the location: a
// `postgresql://...` (or `postgres://...`) URL opens PostgreSQL, anything
// else is a directory (RocksDB). Every command's `--data` is such a
// location.
//
// Contract (both backends):
//  * append() is compare-and-set on the room's head version: it succeeds only
//    when `expected_head` equals the current head (-1 for a new room), and
//    writes the event, its idempotency key, the new head and an optional
//    snapshot atomically, durable before it returns (unless Options::sync is
//    false: benchmarks only). Of racing appends at one head exactly one
//    wins; the others answer Conflict with the head that won.
//  * A client action id already stored for the room makes append() return
//    AppendStatus::Duplicate with the original version, writing nothing.
//  * A fork's history up to its parent version is read from the parent (not
//    copied); read_event(), scan_events() and latest_snapshot() resolve that
//    transparently (here, for every backend).
//  * Stored events carry a checksum (xxh3-64 of their bytes) checked on
//    every read: a changed byte is an error naming the room and version.
//  * Thread-safe: any number of threads may call any method concurrently.
//  * Errors never leave a partial write; they come back as Status with one
//    sentence naming the room and version.
//  * Durability: a write that returned success (append Ok, create_fork and
//    put_room_secrets true) is never lost silently (how each backend makes
//    sure is in its header).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mentat::store {

struct RoomMeta {
  std::string room;
  int64_t head = -1;            // version of the last event, -1 when empty
  std::string parent;           // fork: the parent room ("" otherwise)
  int64_t parent_version = -1;  // fork: last version shared with the parent
  uint64_t created_unix_ms = 0;
};

enum class AppendStatus { Ok, Conflict, Duplicate, Error };

struct AppendResult {
  AppendStatus status = AppendStatus::Error;
  int64_t version = -1;   // Ok: the new head; Duplicate: the original version; Conflict: the current head
  std::string error;
};

struct Options {
  bool sync = true;            // durable before every append returns (only benchmarks turn this off)
  // A missing store is created (RocksDB: the directory; PostgreSQL: the
  // schema, in a database that must exist). Off, a missing store is an error.
  bool create_if_missing = true;
  // Read-only: nothing is written. For readers (replay, verify, benchmarks):
  // appends and other writes then fail with an error. RocksDB: no write,
  // lock, log or options file, no background work (OpenForReadOnly); sees
  // the store as of the open, and may open a store another process is
  // writing. PostgreSQL: read-only transactions; sees every commit.
  bool read_only = false;
  // RocksDB only: the write-ahead log (with sync off only: `wal` = false
  // with `sync` = true is treated as sync). Off, appends go to the memtable
  // alone: they reach the files when RocksDB flushes (at the latest when the
  // store is closed), and a process that dies before that loses them. Only
  // throughput benchmarks turn it off; a store for real games keeps it.
  bool wal = true;
  // RocksDB only: the host's decision to open a store that lost acknowledged
  // writes (its log damaged, cut short or deleted): keep the consistent
  // prefix that can be read, remove records that point past a room's
  // surviving head, list what is gone in open()'s *lost and append it to
  // DIR/MENTAT-LOSSES. Only `mentat recover --accept-loss` sets it; never a
  // default. Writable only. (PostgreSQL recovers by its own log; there it
  // finds nothing to accept.)
  bool accept_loss = false;
};

// An acknowledged write an open found missing.
struct LostWrite {
  std::string room;
  int64_t first = -1, last = -1;  // events: the versions lost; -1 for a fork or a secret
  std::string what;               // one sentence naming the room and what is gone
};

// True when `location` names a PostgreSQL database (postgresql:// or
// postgres://) rather than a directory.
bool is_postgres_location(const std::string& location);

// `location` as it may be printed or logged: a PostgreSQL URL's password
// replaced by *** (postgresql://user:***@host/db, ...?password=***);
// anything else unchanged. Every message naming a store uses this (or
// EventStore::dir(), which is it).
std::string redact_location(const std::string& location);

class EventStore;

// The PostgreSQL backend (store/pg_store.h) lives in a module of its own,
// mentat_pg.so, so that a process that never opens a postgresql:// location
// never loads libpq and the libraries it needs. EventStore::open() asks the
// opener registered here; when none is registered it loads the module once
// (dlopen) from, in order: $MENTAT_PG_MODULE, the directory of the running
// executable, the build tree the binary was built in; and registers the
// module's opener. A module that cannot be found or loaded makes each
// postgresql:// open fail with sentences saying where it looked and why.
// Programs that link the backend into themselves (tests/pg) register
// PgStore's opener directly. Thread-safe; a registered opener is never
// unregistered.
using PostgresOpener = std::unique_ptr<EventStore> (*)(const std::string& url, const Options& opts,
                                                       std::string* error);
void set_postgres_opener(PostgresOpener opener);

class EventStore {
 public:
  // Opens (or creates) the store at `location` (a directory, or a
  // postgresql:// URL). On failure returns null and sets *error to sentences
  // naming the location and what is wrong. Damage is reported, never
  // repaired silently: the open fails when the store cannot be read or an
  // acknowledged write is missing (each is listed: room and versions),
  // unless opts.accept_loss (then *lost, if given, receives what was given
  // up). Writes that never returned success (a torn tail after a crash) are
  // dropped quietly. A reader (read_only) checks the same and writes nothing.
  static std::unique_ptr<EventStore> open(const std::string& location, const Options& opts, std::string* error,
                                          std::vector<LostWrite>* lost = nullptr);
  virtual ~EventStore();
  EventStore(const EventStore&) = delete;
  EventStore& operator=(const EventStore&) = delete;

  static bool valid_room_id(const std::string& room);

  // Creates a fork: `room` shares `parent`'s events 0..parent_version.
  virtual bool create_fork(const std::string& room, const std::string& parent, int64_t parent_version,
                           std::string* error) = 0;

  // An invalid room id (valid_room_id) is an error, nothing written.
  AppendResult append(const std::string& room, int64_t expected_head, const std::string& event_bytes,
                      const std::string& client_action_id, const std::string* snapshot_bytes = nullptr);

  // nullopt with an empty *error when there is no such room.
  virtual std::optional<RoomMeta> meta(const std::string& room, std::string* error) = 0;
  bool read_event(const std::string& room, int64_t version, std::string* bytes, std::string* error);
  // Events from..to (inclusive) in order; stops early when fn returns false.
  // A version missing inside the range is an error.
  bool scan_events(const std::string& room, int64_t from, int64_t to,
                   const std::function<bool(int64_t, const std::string&)>& fn, std::string* error);
  // The newest snapshot at or below `version` of this room or its ancestors
  // (*version -1 when there is none).
  bool latest_snapshot(const std::string& room, int64_t at_most, int64_t* version, std::string* bytes,
                       std::string* error);
  virtual std::optional<int64_t> find_action(const std::string& room, const std::string& client_action_id,
                                             std::string* error) = 0;
  virtual std::vector<RoomMeta> rooms(std::string* error) = 0;

  // Room secrets: server-side data about a room that is not part of its game
  // (the room server's seat tokens and bot seats, server/). They live outside
  // the event stream, are never in events, snapshots or views, are not
  // shared with forks, and are not checked by verify. put_room_secrets writes
  // all `entries` (name -> value, overwriting) atomically, durable like an
  // append; the room need not exist yet. get_room_secret returns nullopt
  // with an empty *error when the name is not set.
  virtual bool put_room_secrets(const std::string& room,
                                const std::vector<std::pair<std::string, std::string>>& entries,
                                std::string* error) = 0;
  virtual std::optional<std::string> get_room_secret(const std::string& room, const std::string& name,
                                                     std::string* error) = 0;

  // Reads every stored record (events, room metadata, snapshots, client
  // action ids, secrets), checks every checksum the store keeps, and checks
  // the records against each other: every event, snapshot and client action
  // id belongs to a room and lies at or below its head, and every client
  // action id names an event that carries it. Appends one sentence per
  // problem (naming the store, the room and the record) to *problems.
  // Returns false with *error only when the check itself cannot run. Costs
  // a full read of the store; thread-safe like any reader.
  virtual bool check_integrity(std::vector<std::string>* problems, std::string* error) = 0;

  // Backup: copies every record of the store as of one moment into a new
  // store at `dest`, which must not exist, and makes the copy durable;
  // *records counts what was copied. RocksDB only (a directory beside the
  // running store); a PostgreSQL store answers an error naming PostgreSQL's
  // own tools (pg_dump, pg_basebackup).
  virtual bool copy_to(const std::string& dest, int64_t* records, std::string* error) = 0;

  // Where the store is, for messages: the directory, or the URL with its
  // password redacted (redact_location).
  const std::string& dir() const { return location_; }

  // Migration records (`mentat migrate`, store/room.h): a room's state hashes
  // refolded under a newer state format, kept beside its events (which are
  // never rewritten), written atomically with the room's snapshots
  // re-encoded in that format (version -> bytes, overwriting). Not shared
  // with forks (each room is migrated on its own). get_migration returns
  // nullopt with an empty *error when the room was never migrated.
  virtual bool put_migration(const std::string& room, const std::string& record,
                             const std::vector<std::pair<int64_t, std::string>>& snapshots, std::string* error) = 0;
  virtual std::optional<std::string> get_migration(const std::string& room, std::string* error) = 0;

  // Writes a snapshot (canonical state bytes) at a version. Used by drills
  // and tests that plant a bad snapshot; rooms write theirs through append().
  virtual bool debug_put_snapshot(const std::string& room, int64_t version, const std::string& bytes,
                                  std::string* error) = 0;

  // Makes the next `n` acknowledgement records fail to be written, as a
  // full disk would after the database has synced the write. For tests; a
  // backend without an acknowledgement log (PostgreSQL) ignores it.
  virtual void debug_fail_acknowledgements(int n) { (void)n; }

  // Replaces a stored event (sealed with a valid checksum unless `raw`:
  // then `bytes` is the stored value itself, checksum included). For tests
  // and drills that plant corruption; never used by the engine.
  virtual bool debug_overwrite_event(const std::string& room, int64_t version, const std::string& bytes,
                                     std::string* error, bool raw = false) = 0;

  // ---- Copying a store to another backend (`mentat migrate-store`) ----
  // The records of `room` beside its events and metadata, in key order:
  // its client action ids (id -> version), the versions of its own
  // snapshots, its secrets (name -> value). Not those of its parent.
  struct RoomRecords {
    std::vector<std::pair<std::string, int64_t>> action_ids;
    std::vector<int64_t> snapshots;
    std::vector<std::pair<std::string, std::string>> secrets;
  };
  virtual bool room_records(const std::string& room, RoomRecords* out, std::string* error) = 0;
  // Every room that has secrets, in key order, whether or not it has events
  // (a room's secrets may be written before its first event).
  virtual bool secret_rooms(std::vector<std::string>* out, std::string* error) = 0;
  // Sets an existing room's creation time (RoomMeta::created_unix_ms), so
  // that a copy keeps its source's; durable like an append. Copies only.
  virtual bool set_created(const std::string& room, uint64_t created_unix_ms, std::string* error) = 0;
  // Makes every write so far durable, for a store opened with Options::sync
  // off (a copy written in bulk: one flush at its end). A synced store has
  // nothing to do.
  virtual bool flush(std::string* error) {
    (void)error;
    return true;
  }
  // Merges the store's files after a bulk rewrite (mentat migrate), so that
  // later opens read as few files as a store written once would. Durable
  // writes stay durable; a backend without files to merge does nothing.
  virtual bool compact(std::string* error) {
    (void)error;
    return true;
  }

  // ---- Several processes on one store (PostgreSQL) ----
  // What processes sharing the store commit, told from a thread of the
  // store's (each callback may be empty). A backend with one writing
  // process (RocksDB) never calls them.
  struct Watcher {
    // An append committed by any process sharing the store (this one's
    // included).
    std::function<void(const std::string& room, int64_t version)> appended;
    // put_room_secrets committed for the room by any process (this one's
    // included): whatever was read of its secrets may be stale.
    std::function<void(const std::string& room)> secrets_changed;
    // The store's listening connection was established (at the start, and
    // again after it was lost): what was committed while nothing listened
    // was not told, so every room's head and secrets may have moved. Called
    // once the new connection listens, before anything it receives.
    std::function<void()> resync;
  };
  // Replaces the watcher (an empty one: no more calls; once watch returns,
  // the previous callbacks are not running and are not called again).
  virtual void watch(Watcher w) { (void)w; }
  // The lease on a room's background work (its bot seats): true while this
  // process holds it. Of the processes sharing a store at most one holds a
  // room's lease at a time; it ends with its holder's process (its
  // connection to the database), and another process's next call takes it
  // over. A backend with one writing process (RocksDB): always true.
  // Thread-safe.
  virtual bool hold_room_lease(const std::string& room) {
    (void)room;
    return true;
  }

 protected:
  explicit EventStore(std::string location) : location_(redact_location(location)) {}

  // append() once the room id is valid.
  virtual AppendResult append_valid(const std::string& room, int64_t expected_head, const std::string& event_bytes,
                                    const std::string& client_action_id, const std::string* snapshot_bytes) = 0;

  // What a backend stores of one room alone (no fork resolution; the
  // public readers above add that):
  // The stored (sealed) value of the room's own event at `version`; false
  // with *error naming the room and version when it is not there.
  virtual bool read_own_event(const std::string& room, int64_t version, std::string* value, std::string* error) = 0;
  // The room's own stored events from..to in order (sealed values; gaps are
  // simply absent); stops when fn returns false.
  virtual bool scan_own_events(const std::string& room, int64_t from, int64_t to,
                               const std::function<bool(int64_t, std::string_view)>& fn, std::string* error) = 0;
  // The room's own newest snapshot at or below `at_most` (*version -1 when
  // there is none).
  virtual bool own_snapshot(const std::string& room, int64_t at_most, int64_t* version, std::string* bytes,
                            std::string* error) = 0;

  // check_integrity()'s check of one client action id entry: the event at
  // `version` must exist and carry `id` (the creation event carries none
  // for "create"). Appends a problem prefixed by `where`.
  void check_action_id(const std::string& where, const std::string& room, const std::string& id, int64_t version,
                       int64_t head, std::vector<std::string>* problems);

  std::string location_;
};

// Stored event values: the event bytes followed by their xxh3-64 (8 bytes,
// big-endian), so that a changed byte is caught even where the database's
// own checksums cannot see it (a value rewritten through its API, a bad
// copy). Both backends store these values.
std::string seal_event(const std::string& bytes);
// The event bytes of a stored value; false with *error naming the room and
// version when it is truncated or fails its checksum.
bool unseal_event(const std::string& room, int64_t version, std::string_view value, std::string* bytes,
                  std::string* error);

}  // namespace mentat::store
