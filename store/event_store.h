// RocksDB event store: one append-only event stream per room.
//
// Layout (column families):
//   events     room '\0' be64(version)        -> Event FlatBuffer (events/mentat.fbs)
//                                               followed by its xxh3-64 (8 bytes, big-endian)
//   rooms      room                            -> RoomMeta FlatBuffer (store/store.fbs)
//   snapshots  room '\0' be64(version)        -> StateEncoding FlatBuffer (events/state.fbs)
//   actions    room '\0' client_action_id      -> be64(version)   (idempotency)
//   default    "secret" '\0' room '\0' name      -> value           (room secrets, see below)
//              "mentat" '\0' "ack-log"           -> "1"             (this store keeps MENTAT-ACKS)
// Beside the database, MENTAT-ACKS (store/ack_log.h) records every
// acknowledged write until the database's table files hold it, and
// MENTAT-LOSSES (text) every loss a host accepted (Options::accept_loss).
//
// Contract:
//  * append() is compare-and-set on the room's head version: it succeeds only
//    when `expected_head` equals the current head (-1 for a new room), and
//    writes the event, its idempotency key, the new head and an optional
//    snapshot in one atomic WriteBatch, synced to disk before it returns
//    (unless Options::sync is false: benchmarks only).
//  * A client action id already stored for the room makes append() return
//    AppendStatus::Duplicate with the original version, writing nothing.
//  * A fork's history up to its parent version is read from the parent (not
//    copied); read_event() resolves that transparently.
//  * Thread-safe: any number of threads may call any method concurrently;
//    appends to one room are serialised by a per-room lock. One process per
//    directory (RocksDB's LOCK file). Room metadata (meta()) is kept in
//    memory once read or written: this object is the only writer of its
//    directory, so the copy is the stored one.
//  * Errors never leave a partial write; they come back as Status with one
//    sentence naming the room and version.
//  * Durability: a write that returned success (append Ok, create_fork and
//    put_room_secrets true) is never lost silently. The database's own log
//    cannot tell a log cut short or deleted from one whose last writes were
//    never acknowledged, so each such write is also recorded, synced, in an
//    acknowledgement log before it returns (see open()). A write that fails
//    (disk full, I/O error) returns an error and is not acknowledged, though
//    its event may be stored (a resend then answers Duplicate); the next
//    write first asks the database to resume, so writing continues once the
//    cause is gone.
#pragma once

#include <rocksdb/db.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mentat::store {

class AckLog;
struct AckRecord;

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
  bool sync = true;            // fsync every append (only benchmarks turn this off)
  bool create_if_missing = true;
  // Read-only: no write, lock, log or options file, no background work
  // (rocksdb::DB::OpenForReadOnly). For readers (replay, verify, benchmarks):
  // appends and other writes then fail with an error. Sees the store as of
  // the open, and may open a store another process is writing.
  bool read_only = false;
  // Write-ahead log (with sync off only: `wal` = false with `sync` = true is
  // treated as sync). Off, appends go to the memtable alone: they reach the
  // files when RocksDB flushes (at the latest when the store is closed), and
  // a process that dies before that loses them. Only throughput benchmarks
  // turn it off; a store for real games keeps it.
  bool wal = true;
  // The host's decision to open a store that lost acknowledged writes (its
  // log damaged, cut short or deleted): keep the consistent prefix that can
  // be read, remove records that point past a room's surviving head, list
  // what is gone in open()'s *lost and append it to DIR/MENTAT-LOSSES. Only
  // `mentat recover --accept-loss` sets it; never a default. Writable only.
  bool accept_loss = false;
};

// An acknowledged write an open found missing.
struct LostWrite {
  std::string room;
  int64_t first = -1, last = -1;  // events: the versions lost; -1 for a fork or a secret
  std::string what;               // one sentence naming the room and what is gone
};

class EventStore {
 public:
  // Opens (or creates) the store in `dir`. On failure returns null and sets
  // *error to sentences naming `dir` and what is wrong. Damage is reported,
  // never repaired silently: the open fails when the database's log or files
  // cannot be read, when an acknowledged write is missing (each is listed:
  // room and versions), or when the acknowledgement log is damaged or gone,
  // unless opts.accept_loss (then *lost, if given, receives what was given
  // up). Writes that never returned success (a torn tail after a crash) are
  // dropped quietly. A reader (read_only) checks the same and writes nothing.
  static std::unique_ptr<EventStore> open(const std::string& dir, const Options& opts, std::string* error,
                                          std::vector<LostWrite>* lost = nullptr);
  ~EventStore();
  EventStore(const EventStore&) = delete;
  EventStore& operator=(const EventStore&) = delete;

  static bool valid_room_id(const std::string& room);

  // Creates a fork: `room` shares `parent`'s events 0..parent_version.
  bool create_fork(const std::string& room, const std::string& parent, int64_t parent_version, std::string* error);

  AppendResult append(const std::string& room, int64_t expected_head, const std::string& event_bytes,
                      const std::string& client_action_id, const std::string* snapshot_bytes = nullptr);

  std::optional<RoomMeta> meta(const std::string& room, std::string* error);
  bool read_event(const std::string& room, int64_t version, std::string* bytes, std::string* error);
  // Events from..to (inclusive) in order; stops early when fn returns false.
  bool scan_events(const std::string& room, int64_t from, int64_t to,
                   const std::function<bool(int64_t, const std::string&)>& fn, std::string* error);
  // The newest snapshot at or below `version` of this room or its ancestors.
  bool latest_snapshot(const std::string& room, int64_t at_most, int64_t* version, std::string* bytes,
                       std::string* error);
  std::optional<int64_t> find_action(const std::string& room, const std::string& client_action_id, std::string* error);
  std::vector<RoomMeta> rooms(std::string* error);

  // Room secrets: server-side data about a room that is not part of its game
  // (the room server's seat tokens and bot seats, server/). They live outside
  // the event stream, are never in events, snapshots or views, are not
  // shared with forks, and are not checked by verify. put_room_secrets writes
  // all `entries` (name -> value, overwriting) in one WriteBatch, synced like
  // an append; the room need not exist yet. get_room_secret returns nullopt
  // with an empty *error when the name is not set.
  bool put_room_secrets(const std::string& room, const std::vector<std::pair<std::string, std::string>>& entries,
                        std::string* error);
  std::optional<std::string> get_room_secret(const std::string& room, const std::string& name, std::string* error);

  // Reads every stored record (events, room metadata, snapshots, client
  // action ids, secrets), checks every checksum the store keeps, and checks
  // the records against each other: every event, snapshot and client action
  // id belongs to a room and lies at or below its head, and every client
  // action id names an event that carries it. Appends one sentence per
  // problem (naming the store, the room and the record) to *problems.
  // Returns false with *error only when the check itself cannot run. Costs
  // a full read of the store; thread-safe like any reader.
  bool check_integrity(std::vector<std::string>* problems, std::string* error);

  // Backup: copies every record of the store as of one moment (a reader's
  // open, or a snapshot of a writer) into a new store at `dest`, which must
  // not exist, and makes the copy durable; *records counts what was copied.
  // A reader may do it beside the process that writes the store. The copy
  // opens like any store; restoring is putting it in the store's place.
  bool copy_to(const std::string& dest, int64_t* records, std::string* error);

  const std::string& dir() const { return dir_; }

  // Migration records (`mentat migrate`, store/room.h): a room's state hashes
  // refolded under a newer state format, kept beside its events (which are
  // never rewritten), written in one WriteBatch with the room's snapshots
  // re-encoded in that format (version -> bytes, overwriting). Not shared
  // with forks (each room is migrated on its own). get_migration returns
  // nullopt with an empty *error when the room was never migrated.
  bool put_migration(const std::string& room, const std::string& record,
                     const std::vector<std::pair<int64_t, std::string>>& snapshots, std::string* error);
  std::optional<std::string> get_migration(const std::string& room, std::string* error);

  // Writes a snapshot (canonical state bytes) at a version. Used by drills
  // and tests that plant a bad snapshot; rooms write theirs through append().
  bool debug_put_snapshot(const std::string& room, int64_t version, const std::string& bytes, std::string* error);

  // Makes the next `n` acknowledgement records fail to be written, as a
  // full disk would after the database has synced the write. For tests.
  void debug_fail_acknowledgements(int n);

  // Replaces a stored event (sealed with a valid checksum unless `raw`). For
  // tests and drills that plant corruption; never used by the engine.
  bool debug_overwrite_event(const std::string& room, int64_t version, const std::string& bytes, std::string* error,
                             bool raw = false);

 private:
  EventStore() = default;
  std::mutex& room_lock(const std::string& room);
  static std::unique_ptr<EventStore> open_once(const std::string& dir, const Options& opts, std::string* error,
                                               std::vector<LostWrite>* lost, bool diagnose = false);
  bool check_acknowledged(const std::vector<AckRecord>& acks, std::vector<LostWrite>* lost, std::string* error);
  bool drop_beyond_heads(int64_t* dropped, std::string* error);
  bool acknowledge(const std::vector<AckRecord>& recs, std::string* error);
  bool resume_writes(std::string* error);
  void write_failed(const rocksdb::Status& st);

  std::string dir_;
  std::unique_ptr<AckLog> acks_;  // null for readers and unsynced stores
  std::atomic<bool> write_failed_{false};
  std::mutex resume_mu_;

  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  rocksdb::ColumnFamilyHandle* events_ = nullptr;
  rocksdb::ColumnFamilyHandle* rooms_ = nullptr;
  rocksdb::ColumnFamilyHandle* snapshots_ = nullptr;
  rocksdb::ColumnFamilyHandle* actions_ = nullptr;
  Options opts_;
  std::array<std::mutex, 64> locks_;
  // Room metadata read or written through this object, by room (sharded like
  // locks_). Only this object writes rooms (RocksDB's lock keeps other
  // writers out; a read-only store sees the store as of its open), so an
  // entry is what the store holds: append and create_fork assign it after
  // their write, under the room's lock; meta() inserts what it read only
  // where no entry is (a write that raced the read has already put a newer
  // one).
  struct MetaShard {
    std::mutex mu;
    std::unordered_map<std::string, RoomMeta> map;
  };
  std::array<MetaShard, 64> meta_cache_;
  MetaShard& meta_shard(const std::string& room);
  void remember_meta(const RoomMeta& m, bool overwrite);
};

}  // namespace mentat::store
