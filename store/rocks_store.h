// The RocksDB event store (store/event_store.h's contract): the embedded
// default, one process's directory.
//
// Layout (column families):
//   events     room '\0' be64(version)        -> Event FlatBuffer (events/mentat.fbs)
//                                               followed by its xxh3-64 (8 bytes, big-endian)
//   rooms      room                            -> RoomMeta FlatBuffer (store/store.fbs)
//   snapshots  room '\0' be64(version)        -> StateEncoding FlatBuffer (events/state.fbs)
//   actions    room '\0' client_action_id      -> be64(version)   (idempotency)
//   default    "secret" '\0' room '\0' name      -> value           (room secrets)
//              "migration" '\0' room             -> migration record
//              "mentat" '\0' "ack-log"           -> "1"             (this store keeps MENTAT-ACKS)
// Beside the database, MENTAT-ACKS (store/ack_log.h) records every
// acknowledged write until the database's table files hold it, and
// MENTAT-LOSSES (text) every loss a host accepted (Options::accept_loss).
//
// Beyond the common contract:
//  * append() writes the event, its idempotency key, the new head and an
//    optional snapshot in one atomic WriteBatch, synced to disk before it
//    returns (unless Options::sync is false). Appends to one room are
//    serialised by a per-room lock.
//  * One process per directory (RocksDB's LOCK file); read-only opens may sit
//    beside it. Room metadata (meta()) is kept in memory once read or
//    written: this object is the only writer of its directory, so the copy
//    is the stored one.
//  * Durability: the database's own log cannot tell a log cut short or
//    deleted from one whose last writes were never acknowledged, so each
//    acknowledged write is also recorded, synced, in an acknowledgement log
//    before it returns (see open()). A write that fails (disk full, I/O
//    error) returns an error and is not acknowledged, though its event may
//    be stored (a resend then answers Duplicate); the next write first asks
//    the database to resume, so writing continues once the cause is gone.
#pragma once

#include <rocksdb/db.h>

#include <array>
#include <atomic>
#include <mutex>
#include <unordered_map>

#include "store/event_store.h"

namespace mentat::store {

class AckLog;
struct AckRecord;

// Tests only: the rocksdb::Env every RocksDB store opened from now on reads
// and writes its files through (a fault-injecting FileSystem in
// tests/test_faults.cpp); not owned, must outlive those stores. Null (the
// default): RocksDB's own. Set it before opening, not during an open.
void debug_set_rocksdb_env(rocksdb::Env* env);

class RocksStore final : public EventStore {
 public:
  // EventStore::open() for a directory.
  static std::unique_ptr<RocksStore> open(const std::string& dir, const Options& opts, std::string* error,
                                          std::vector<LostWrite>* lost = nullptr);
  ~RocksStore() override;

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
  bool flush(std::string* error) override;
  bool compact(std::string* error) override;
  bool copy_to(const std::string& dest, int64_t* records, std::string* error) override;
  bool put_migration(const std::string& room, const std::string& record,
                     const std::vector<std::pair<int64_t, std::string>>& snapshots, std::string* error) override;
  std::optional<std::string> get_migration(const std::string& room, std::string* error) override;
  bool debug_put_snapshot(const std::string& room, int64_t version, const std::string& bytes,
                          std::string* error) override;
  void debug_fail_acknowledgements(int n) override;
  bool debug_overwrite_event(const std::string& room, int64_t version, const std::string& bytes, std::string* error,
                             bool raw = false) override;

 protected:
  AppendResult append_valid(const std::string& room, int64_t expected_head, const std::string& event_bytes,
                            const std::string& client_action_id, const std::string* snapshot_bytes) override;
  bool read_own_event(const std::string& room, int64_t version, std::string* value, std::string* error) override;
  bool scan_own_events(const std::string& room, int64_t from, int64_t to,
                       const std::function<bool(int64_t, std::string_view)>& fn, std::string* error) override;
  bool own_snapshot(const std::string& room, int64_t at_most, int64_t* version, std::string* bytes,
                    std::string* error) override;

 private:
  explicit RocksStore(const std::string& dir);
  std::mutex& room_lock(const std::string& room);
  static std::unique_ptr<RocksStore> open_once(const std::string& dir, const Options& opts, std::string* error,
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
