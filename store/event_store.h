// RocksDB event store: one append-only event stream per room.
//
// Layout (column families):
//   events     room '\0' be64(version)        -> Event FlatBuffer (events/mentat.fbs)
//                                               followed by its xxh3-64 (8 bytes, big-endian)
//   rooms      room                            -> RoomMeta FlatBuffer (store/store.fbs)
//   snapshots  room '\0' be64(version)        -> StateEncoding FlatBuffer (events/state.fbs)
//   actions    room '\0' client_action_id      -> be64(version)   (idempotency)
//   default    "secret" '\0' room '\0' name      -> value           (room secrets, see below)
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
#pragma once

#include <rocksdb/db.h>

#include <array>
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
};

class EventStore {
 public:
  // Opens (or creates) the store in `dir`. On failure returns null and sets
  // *error (a damaged database is reported, never repaired silently).
  static std::unique_ptr<EventStore> open(const std::string& dir, const Options& opts, std::string* error);
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

  // Writes a snapshot (canonical state bytes) at a version. Used by drills
  // and tests that plant a bad snapshot; rooms write theirs through append().
  bool debug_put_snapshot(const std::string& room, int64_t version, const std::string& bytes, std::string* error);

  // Replaces a stored event (sealed with a valid checksum unless `raw`). For
  // tests and drills that plant corruption; never used by the engine.
  bool debug_overwrite_event(const std::string& room, int64_t version, const std::string& bytes, std::string* error,
                             bool raw = false);

 private:
  EventStore() = default;
  std::mutex& room_lock(const std::string& room);

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
