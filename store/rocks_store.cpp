#include "store/rocks_store.h"

#include <rocksdb/convenience.h>
#include <rocksdb/listener.h>

#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <ctime>
#include <fstream>
#include <map>
#include <thread>
#include <cstdio>
#include <filesystem>
#include <functional>

#include <xxhash.h>

#include "events/mentat_generated.h"
#include "events/store_generated.h"
#include "store/ack_log.h"
#include "store/be64.h"

namespace mentat::store {

namespace {
std::atomic<rocksdb::Env*> debug_env{nullptr};  // debug_set_rocksdb_env
}  // namespace

void debug_set_rocksdb_env(rocksdb::Env* env) { debug_env = env; }


namespace {

std::string prefix(const std::string& room) { return room + std::string(1, '\0'); }
std::string vkey(const std::string& room, int64_t v) { return prefix(room) + be64(static_cast<uint64_t>(v)); }

std::string encode_meta(const RoomMeta& m) {
  flatbuffers::FlatBufferBuilder b(128);
  auto off = fb::CreateRoomMeta(b, m.head, m.parent.empty() ? 0 : b.CreateString(m.parent), m.parent_version,
                                m.created_unix_ms);
  fb::FinishRoomMetaBuffer(b, off);
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

bool decode_meta(const std::string& room, const std::string& bytes, RoomMeta* out, std::string* error) {
  flatbuffers::Verifier v(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (bytes.size() < 8 || !fb::RoomMetaBufferHasIdentifier(bytes.data()) || !fb::VerifyRoomMetaBuffer(v)) {
    *error = "room " + room + ": metadata is corrupt";
    return false;
  }
  const auto* m = fb::GetRoomMeta(bytes.data());
  out->room = room;
  out->head = m->head();
  out->parent = m->parent() ? m->parent()->str() : "";
  out->parent_version = m->parent_version();
  out->created_unix_ms = m->created_unix_ms();
  return true;
}

uint64_t now_ms() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

// RocksDB's log: errors to stderr, nothing written into the store. (Its
// own LOG file would share the store's disk, and Debian's RocksDB is built
// with assertions: a LOG write after a failed one, on a full disk, aborts
// the process.)
class StderrErrorLogger : public rocksdb::Logger {
 public:
  explicit StderrErrorLogger(std::string prefix)
      : rocksdb::Logger(rocksdb::InfoLogLevel::ERROR_LEVEL), prefix_(std::move(prefix)) {}
  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    std::fputs(prefix_.c_str(), stderr);
    std::vfprintf(stderr, format, ap);
    std::fputc('\n', stderr);
  }

 private:
  std::string prefix_;
};

}  // namespace

namespace {

const std::string kAckMarker = std::string("mentat") + '\0' + "ack-log";

std::string advice(const std::string& dir) {
  return "Restore the store from a backup (docs/SERVER.md), or run `mentat recover --accept-loss " + dir +
         "` to keep what can be read and list what is lost.";
}

std::string damaged(const std::string& dir, const std::string& what) {
  return "cannot open the store at " + dir + ": it is damaged: " + what + ". " + advice(dir);
}

// RocksDB's own recovery after a failed write (a thread that waits for free
// space, and polls only every few seconds) is turned off: the store resumes
// at the next write instead (RocksStore::resume_writes), which answers at
// once whether the disk has room again.
class NoAutoRecovery : public rocksdb::EventListener {
 public:
  void OnErrorRecoveryBegin(rocksdb::BackgroundErrorReason, rocksdb::Status, bool* auto_recovery) override {
    *auto_recovery = false;
  }
};

}  // namespace

std::unique_ptr<RocksStore> RocksStore::open(const std::string& dir, const Options& opts, std::string* error,
                                             std::vector<LostWrite>* lost) {
  // A reader beside a running server may race a flush that moves the last
  // writes from the log into table files (and deletes the log); a second
  // look settles it.
  for (int attempt = 0;; ++attempt) {
    auto st = open_once(dir, opts, error, lost);
    if (st || !opts.read_only || attempt > 0) return st;
    error->clear();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::unique_ptr<RocksStore> RocksStore::open_once(const std::string& dir, const Options& opts, std::string* error,
                                                  std::vector<LostWrite>* lost, bool diagnose) {
  if (opts.accept_loss && opts.read_only) {
    *error = "store " + dir + ": accepting a loss needs a writable open";
    return nullptr;
  }
  std::vector<LostWrite> gone;
  // The acknowledgement log first: everything it holds was synced into the
  // database before it was written, so the database opened after it must
  // hold it too.
  const std::string ack_path = (std::filesystem::path(dir) / AckLog::kFileName).string();
  std::vector<AckRecord> acks;
  bool ack_exists = false;
  {
    std::string err;
    if (!AckLog::read(ack_path, opts.accept_loss, &acks, &ack_exists, &err)) {
      *error = damaged(dir, err);
      return nullptr;
    }
    if (!err.empty()) gone.push_back({"", -1, -1, err + "; acknowledged writes recorded after the damage cannot be listed"});
  }
  rocksdb::DBOptions dbo;
  dbo.create_if_missing = opts.create_if_missing;
  dbo.create_missing_column_families = true;
  dbo.paranoid_checks = true;
  // A record that fails its checksum anywhere in the log fails the open
  // (RocksDB's default, point-in-time recovery, would stop there silently
  // and drop the rest); only an incomplete last record, a write that never
  // returned, is dropped. Accepting a loss keeps the readable prefix.
  const bool keep_prefix = opts.accept_loss || diagnose;
  dbo.wal_recovery_mode = keep_prefix ? rocksdb::WALRecoveryMode::kPointInTimeRecovery
                                      : rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords;
  // RocksDB also records each log file in its MANIFEST and fails the open
  // when one is missing (sizes it checks only for closed logs).
  dbo.track_and_verify_wals_in_manifest = !keep_prefix;
  dbo.info_log_level = rocksdb::InfoLogLevel::ERROR_LEVEL;
  dbo.listeners.push_back(std::make_shared<NoAutoRecovery>());
  dbo.info_log = std::make_shared<StderrErrorLogger>("mentat store " + dir + (opts.read_only ? " (read-only): " : ": "));
  // Open the table files in the calling thread. RocksDB's default (16) starts
  // a pool of threads per column family on every open, which cost a cold
  // replay about 2 ms of its 3; the stores here have few table files.
  dbo.max_file_opening_threads = 1;
  if (auto* env = debug_env.load()) dbo.env = env;
  rocksdb::ColumnFamilyOptions cfo;
  // Client action ids are looked up before every append and are almost never
  // there: a bloom filter over the memtable's keys answers those misses
  // without a skip-list search (memory only; the files are unchanged).
  rocksdb::ColumnFamilyOptions actions_cfo = cfo;
  actions_cfo.memtable_prefix_bloom_size_ratio = 0.02;
  actions_cfo.memtable_whole_key_filtering = true;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {
      {rocksdb::kDefaultColumnFamilyName, cfo}, {"events", cfo}, {"rooms", cfo}, {"snapshots", cfo}, {"actions", actions_cfo}};
  if (opts.read_only) {
    // A reader's open does no file housekeeping: no statistics pass over
    // the tables.
    dbo.create_if_missing = false;
    dbo.skip_stats_update_on_db_open = true;
  }
  if (opts.create_if_missing && !opts.read_only) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      *error = "cannot create the store directory " + dir + ": " + ec.message();
      return nullptr;
    }
  }
  std::unique_ptr<RocksStore> store(new RocksStore(dir));
  store->opts_ = opts;
  store->dir_ = dir;
  rocksdb::DB* raw = nullptr;
  auto st = opts.read_only ? rocksdb::DB::OpenForReadOnly(dbo, dir, cfs, &store->handles_, &raw)
                           : rocksdb::DB::Open(dbo, dir, cfs, &store->handles_, &raw);
  if (!st.ok()) {
    if (st.IsCorruption()) {
      std::string what = "its database cannot be read (" + st.ToString() + ")";
      if (!keep_prefix) {
        // What keeping the readable prefix would give up (a reader's look:
        // nothing is changed).
        Options look = opts;
        look.read_only = true;
        look.create_if_missing = false;
        std::vector<LostWrite> would;
        std::string derr;
        open_once(dir, look, &derr, &would, true);
        if (would.empty()) {
          what += "; which acknowledged writes are in the damaged part cannot be told";
        } else {
          what += "; keeping what can be read would lose: ";
          for (size_t n = 0; n < would.size() && n < 8; ++n) what += (n ? "; " : "") + would[n].what;
          if (would.size() > 8) what += "; and " + std::to_string(would.size() - 8) + " more";
        }
      }
      *error = damaged(dir, what);
    } else if ((st.IsIOError() && st.ToString().find("While lock file") != std::string::npos) || st.IsBusy()) {
      // RocksDB's lock file is held: another process (or this one) writes the store.
      *error = "the store " + dir + " is in use by another process (a running `mentat serve`?): stop it first, or use a command "
               "that only reads (log, show, actions, verify, replay, ...), which works beside it";
    } else {
      *error = "cannot open the store at " + dir + ": " + st.ToString();
    }
    return nullptr;
  }
  store->db_.reset(raw);
  store->events_ = store->handles_[1];
  store->rooms_ = store->handles_[2];
  store->snapshots_ = store->handles_[3];
  store->actions_ = store->handles_[4];

  // Is every acknowledged write there?
  std::string marker;
  auto ms = store->db_->Get(rocksdb::ReadOptions(), store->handles_[0], kAckMarker, &marker);
  if (!ms.ok() && !ms.IsNotFound()) {
    *error = damaged(dir, "its database cannot be read (" + ms.ToString() + ")");
    return nullptr;
  }
  if (ms.ok() && !ack_exists) {
    const std::string what = "its acknowledgement log " + ack_path + " is missing";
    if (!opts.accept_loss) {
      *error = damaged(dir, what);
      return nullptr;
    }
    gone.push_back({"", -1, -1, what + "; acknowledged writes since the last flush cannot be checked"});
  }
  std::string err;
  if (!store->check_acknowledged(acks, &gone, &err)) {
    *error = damaged(dir, err);
    return nullptr;
  }
  if (diagnose) {
    *lost = std::move(gone);
    return nullptr;
  }
  if (!gone.empty() && !opts.accept_loss) {
    std::string list;
    for (size_t n = 0; n < gone.size() && n < 8; ++n) list += (n ? "; " : "") + gone[n].what;
    if (gone.size() > 8) list += "; and " + std::to_string(gone.size() - 8) + " more";
    *error = "cannot open the store at " + dir +
             ": it is damaged: acknowledged writes are missing (its write-ahead log was damaged, cut short or "
             "deleted): " + list + ". " + advice(dir);
    return nullptr;
  }
  if (opts.read_only) return store;

  if (opts.accept_loss) {
    int64_t dropped = 0;
    if (!store->drop_beyond_heads(&dropped, &err)) {
      *error = "store " + dir + ": " + err;
      return nullptr;
    }
    if (dropped > 0)
      gone.push_back({"", -1, -1, std::to_string(dropped) + " stored record(s) past their room's surviving head removed"});
  }
  // Everything acknowledged so far into the table files; then the
  // acknowledgement log starts empty.
  if (auto fs = store->db_->Flush(rocksdb::FlushOptions(), store->handles_); !fs.ok()) {
    *error = "store " + dir + ": cannot flush the database: " + fs.ToString();
    return nullptr;
  }
  auto log = std::make_unique<AckLog>();
  if (!log->reset(ack_path, &err)) {
    *error = "store " + dir + ": " + err;
    return nullptr;
  }
  if (ms.IsNotFound()) {
    rocksdb::WriteOptions wo;
    wo.sync = true;
    if (auto ps = store->db_->Put(wo, store->handles_[0], kAckMarker, "1"); !ps.ok()) {
      *error = "store " + dir + ": " + ps.ToString();
      return nullptr;
    }
  }
  if (opts.sync) {
    RocksStore* self = store.get();
    log->set_flush([self] { return self->db_->Flush(rocksdb::FlushOptions(), self->handles_).ok(); });
    store->acks_ = std::move(log);
  }
  if (!gone.empty()) {
    std::ofstream f(std::filesystem::path(dir) / "MENTAT-LOSSES", std::ios::app);
    const auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    for (const auto& g : gone) f << when << " accepted loss: " << g.what << "\n";
    f.flush();
    if (!f) {
      *error = "store " + dir + ": cannot record the accepted loss in MENTAT-LOSSES";
      return nullptr;
    }
  }
  if (lost) *lost = std::move(gone);
  return store;
}

bool RocksStore::check_acknowledged(const std::vector<AckRecord>& acks, std::vector<LostWrite>* lost,
                                    std::string* error) {
  // Event records by room: the versions that are not in the store.
  std::map<std::string, std::pair<int64_t, int64_t>> missing;  // room -> (first, last)
  std::map<std::string, int64_t> acked_head;
  uint64_t last_seq = 0;
  for (const auto& a : acks) {
    last_seq = std::max(last_seq, a.sequence);
    std::string err;
    auto m = meta(a.room, &err);
    if (!err.empty()) {
      *error = err;
      return false;
    }
    if (a.kind == AckRecord::Event) {
      bool present = m && m->head >= a.version;
      if (present) {
        std::string value;
        auto st = db_->Get(rocksdb::ReadOptions(), events_, vkey(a.room, a.version), &value);
        if (!st.ok() && !st.IsNotFound()) {
          *error = "room " + a.room + " version " + std::to_string(a.version) + ": " + st.ToString();
          return false;
        }
        present = st.ok();
      }
      auto& h = acked_head.try_emplace(a.room, -1).first->second;
      h = std::max(h, a.version);
      if (!present) {
        auto [it, fresh] = missing.try_emplace(a.room, a.version, a.version);
        if (!fresh) {
          it->second.first = std::min(it->second.first, a.version);
          it->second.second = std::max(it->second.second, a.version);
        }
      }
    } else if (a.kind == AckRecord::Fork) {
      if (!m || m->parent.empty())
        lost->push_back({a.room, -1, -1, "room " + a.room + " (a fork at version " + std::to_string(a.version) + ") is missing"});
    } else {
      auto v = get_room_secret(a.room, a.name, &err);
      if (!err.empty()) {
        *error = err;
        return false;
      }
      if (!v) lost->push_back({a.room, -1, -1, "room " + a.room + ": its secret " + a.name + " is missing"});
    }
  }
  for (const auto& [room, range] : missing) {
    std::string err;
    auto m = meta(room, &err);
    // Everything past the surviving head is gone, not only what the log names.
    const int64_t first = m ? std::min(range.first, m->head + 1) : 0;
    const int64_t last = std::max(range.second, acked_head[room]);
    lost->insert(lost->begin(), {room, first, last,
                                 "room " + room + ": versions " + std::to_string(first) + ".." + std::to_string(last) +
                                     " lost (acknowledged, not in the store" +
                                     (m ? "; it now ends at version " + std::to_string(m->head) : "; the room is gone") +
                                     ")"});
  }
  if (lost->empty() && last_seq > db_->GetLatestSequenceNumber())
    lost->push_back({"?", -1, -1, "the database ends at write " + std::to_string(db_->GetLatestSequenceNumber()) +
                                      " but writes up to " + std::to_string(last_seq) + " were acknowledged"});
  return true;
}

bool RocksStore::drop_beyond_heads(int64_t* dropped, std::string* error) {
  std::map<std::string, int64_t> heads;
  for (const auto& m : rooms(error)) heads[m.room] = m.head;
  if (!error->empty()) return false;
  rocksdb::WriteBatch batch;
  auto sweep = [&](rocksdb::ColumnFamilyHandle* cf, bool version_in_value) {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string key = it->key().ToString();
      const auto nul = key.find('\0');
      if (nul == std::string::npos) continue;
      const std::string room = key.substr(0, nul);
      const std::string value = it->value().ToString();
      const int64_t v = static_cast<int64_t>(
          from_be64(version_in_value ? std::string_view(value) : std::string_view(key).substr(nul + 1)));
      auto h = heads.find(room);
      if (h == heads.end() || v > h->second) {
        batch.Delete(cf, key);
        ++*dropped;
      }
    }
    if (!it->status().ok()) *error = it->status().ToString();
  };
  sweep(events_, false);
  sweep(snapshots_, false);
  sweep(actions_, true);
  if (!error->empty()) return false;
  if (batch.Count() == 0) return true;
  rocksdb::WriteOptions wo;
  wo.sync = true;
  auto st = db_->Write(wo, &batch);
  if (!st.ok()) *error = st.ToString();
  return st.ok();
}

bool RocksStore::acknowledge(const std::vector<AckRecord>& recs, std::string* error) {
  if (!acks_) return true;
  return acks_->acknowledge(recs, error);
}

void RocksStore::write_failed(const rocksdb::Status& st) {
  (void)st;
  write_failed_ = true;
}

bool RocksStore::resume_writes(std::string* error) {
  if (!write_failed_.load()) return true;
  std::scoped_lock lock(resume_mu_);
  if (!write_failed_.load()) return true;
  // After a failed write RocksDB refuses writes until resumed; Resume()
  // flushes the memtables and starts a new log, so a half-written record in
  // the old one is never replayed.
  auto st = db_->Resume();
  if (!st.ok()) {
    // An I/O error other than a full disk inside the database's own log
    // (its write or sync) stops RocksDB for good in this process: the log
    // may hold a torn record. Reopening replays the log up to its last whole
    // record; nothing that was acknowledged is lost.
    if (st.severity() >= rocksdb::Status::Severity::kFatalError)
      *error = "store " + dir_ + " cannot write until it is reopened (restart the server): its database stopped "
               "after a failed write (" + st.ToString() + "); nothing acknowledged is lost";
    else
      *error = "store " + dir_ + " cannot write (" + st.ToString() + ")";
    return false;
  }
  for (auto& shard : meta_cache_) {
    std::scoped_lock l(shard.mu);
    shard.map.clear();
  }
  write_failed_ = false;
  return true;
}

RocksStore::RocksStore(const std::string& dir) : EventStore(dir), dir_(dir) {}

RocksStore::~RocksStore() {
  if (db_) {
    for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
    db_->Close();
  }
}

std::mutex& RocksStore::room_lock(const std::string& room) {
  return locks_[std::hash<std::string>{}(room) % locks_.size()];
}

RocksStore::MetaShard& RocksStore::meta_shard(const std::string& room) {
  return meta_cache_[std::hash<std::string>{}(room) % meta_cache_.size()];
}

void RocksStore::remember_meta(const RoomMeta& m, bool overwrite) {
  auto& shard = meta_shard(m.room);
  std::scoped_lock lock(shard.mu);
  if (overwrite) shard.map.insert_or_assign(m.room, m);
  else shard.map.try_emplace(m.room, m);
}

std::optional<RoomMeta> RocksStore::meta(const std::string& room, std::string* error) {
  {
    auto& shard = meta_shard(room);
    std::scoped_lock lock(shard.mu);
    auto it = shard.map.find(room);
    if (it != shard.map.end()) return it->second;
  }
  std::string bytes;
  auto st = db_->Get(rocksdb::ReadOptions(), rooms_, room, &bytes);
  if (st.IsNotFound()) return std::nullopt;
  if (!st.ok()) {
    *error = "room " + room + ": " + st.ToString();
    return std::nullopt;
  }
  RoomMeta m;
  if (!decode_meta(room, bytes, &m, error)) return std::nullopt;
  remember_meta(m, false);
  return m;
}

bool RocksStore::create_fork(const std::string& room, const std::string& parent, int64_t parent_version,
                             std::string* error) {
  if (!valid_room_id(room)) {
    *error = "invalid room id '" + room + "' (letters, digits, '-', '_', '.'; at most 64)";
    return false;
  }
  std::scoped_lock lock(room_lock(room));
  std::string err;
  if (!resume_writes(error)) return false;
  if (meta(room, &err)) {
    *error = "room " + room + " already exists";
    return false;
  }
  auto p = meta(parent, &err);
  if (!p) {
    *error = err.empty() ? "no room " + parent : err;
    return false;
  }
  if (parent_version < 0 || parent_version > p->head) {
    *error = "room " + parent + " has no version " + std::to_string(parent_version) + " (head " + std::to_string(p->head) + ")";
    return false;
  }
  RoomMeta m{room, parent_version, parent, parent_version, now_ms()};
  rocksdb::WriteOptions wo;
  wo.sync = opts_.sync;
  wo.disableWAL = !opts_.wal && !opts_.sync;
  auto st = db_->Put(wo, rooms_, room, encode_meta(m));
  if (!st.ok()) {
    write_failed(st);
    *error = "room " + room + ": " + st.ToString();
    return false;
  }
  remember_meta(m, true);
  if (!acknowledge({{AckRecord::Fork, room, parent_version, "", db_->GetLatestSequenceNumber()}}, &err)) {
    *error = "room " + room + ": created, but its acknowledgement could not be recorded (" + err + ")";
    return false;
  }
  return true;
}

AppendResult RocksStore::append_valid(const std::string& room, int64_t expected_head, const std::string& event_bytes,
                                      const std::string& client_action_id, const std::string* snapshot_bytes) {
  AppendResult r;
  std::scoped_lock lock(room_lock(room));
  std::string err;
  if (!resume_writes(&err)) {
    r.error = "room " + room + ": " + err;
    return r;
  }
  auto m = meta(room, &err);
  if (!err.empty()) {
    r.error = err;
    return r;
  }
  RoomMeta cur = m ? *m : RoomMeta{room, -1, "", -1, now_ms()};
  if (!client_action_id.empty()) {
    auto prev = find_action(room, client_action_id, &err);
    if (!err.empty()) {
      r.error = err;
      return r;
    }
    if (prev) {
      r.status = AppendStatus::Duplicate;
      r.version = *prev;
      return r;
    }
  }
  if (cur.head != expected_head) {
    r.status = AppendStatus::Conflict;
    r.version = cur.head;
    r.error = "room " + room + " is at version " + std::to_string(cur.head) + ", not " + std::to_string(expected_head);
    return r;
  }
  const int64_t version = cur.head + 1;
  cur.head = version;
  rocksdb::WriteBatch batch;
  batch.Put(events_, vkey(room, version), seal_event(event_bytes));
  batch.Put(rooms_, room, encode_meta(cur));
  if (!client_action_id.empty()) batch.Put(actions_, prefix(room) + client_action_id, be64(static_cast<uint64_t>(version)));
  if (snapshot_bytes) batch.Put(snapshots_, vkey(room, version), *snapshot_bytes);
  rocksdb::WriteOptions wo;
  wo.sync = opts_.sync;
  wo.disableWAL = !opts_.wal && !opts_.sync;
  auto st = db_->Write(wo, &batch);
  if (!st.ok()) {
    write_failed(st);
    r.error = "room " + room + " version " + std::to_string(version) + ": write failed, nothing stored: " + st.ToString();
    return r;
  }
  remember_meta(cur, true);
  if (!acknowledge({{AckRecord::Event, room, version, "", db_->GetLatestSequenceNumber()}}, &err)) {
    r.error = "room " + room + " version " + std::to_string(version) +
              ": stored, but its acknowledgement could not be recorded (" + err + "); resend it";
    return r;
  }
  r.status = AppendStatus::Ok;
  r.version = version;
  return r;
}

bool RocksStore::read_own_event(const std::string& room, int64_t version, std::string* value, std::string* error) {
  auto st = db_->Get(rocksdb::ReadOptions(), events_, vkey(room, version), value);
  if (!st.ok()) {
    *error = "room " + room + " version " + std::to_string(version) + ": " + st.ToString();
    return false;
  }
  return true;
}

bool RocksStore::scan_own_events(const std::string& room, int64_t from, int64_t to,
                                 const std::function<bool(int64_t, std::string_view)>& fn, std::string* error) {
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, events_));
  const std::string pre = prefix(room);
  for (it->Seek(vkey(room, from)); it->Valid(); it->Next()) {
    auto key = it->key();
    if (!key.starts_with(pre)) break;
    const auto v = static_cast<int64_t>(from_be64(std::string_view(key.data() + pre.size(), key.size() - pre.size())));
    if (v > to) break;
    if (!fn(v, std::string_view(it->value().data(), it->value().size()))) return true;
  }
  if (!it->status().ok()) {
    *error = "room " + room + ": " + it->status().ToString();
    return false;
  }
  return true;
}

bool RocksStore::own_snapshot(const std::string& room, int64_t at_most, int64_t* version, std::string* bytes,
                              std::string* error) {
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, snapshots_));
  const std::string pre = prefix(room);
  *version = -1;
  it->SeekForPrev(vkey(room, at_most));
  if (it->Valid() && it->key().starts_with(pre)) {
    const auto key = it->key();
    *version = static_cast<int64_t>(from_be64(std::string_view(key.data() + pre.size(), key.size() - pre.size())));
    *bytes = it->value().ToString();
    return true;
  }
  if (!it->status().ok()) {
    *error = "room " + room + ": " + it->status().ToString();
    return false;
  }
  return true;
}

std::optional<int64_t> RocksStore::find_action(const std::string& room, const std::string& client_action_id,
                                               std::string* error) {
  std::string v;
  auto st = db_->Get(rocksdb::ReadOptions(), actions_, prefix(room) + client_action_id, &v);
  if (st.IsNotFound()) return std::nullopt;
  if (!st.ok()) {
    *error = "room " + room + ": " + st.ToString();
    return std::nullopt;
  }
  return static_cast<int64_t>(from_be64(v));
}

std::vector<RoomMeta> RocksStore::rooms(std::string* error) {
  std::vector<RoomMeta> out;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), rooms_));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    RoomMeta m;
    if (decode_meta(it->key().ToString(), it->value().ToString(), &m, error)) out.push_back(m);
  }
  if (!it->status().ok()) *error = "store " + dir_ + ": the rooms' metadata cannot be read: " + it->status().ToString();
  return out;
}

namespace {
std::string secret_key(const std::string& room, const std::string& name) {
  return std::string("secret", 6) + '\0' + room + '\0' + name;
}
}  // namespace

bool RocksStore::put_room_secrets(const std::string& room,
                                  const std::vector<std::pair<std::string, std::string>>& entries, std::string* error) {
  if (!valid_room_id(room)) {
    *error = "invalid room id '" + room + "'";
    return false;
  }
  if (!resume_writes(error)) return false;
  rocksdb::WriteBatch batch;
  for (const auto& [name, value] : entries) batch.Put(handles_[0], secret_key(room, name), value);
  rocksdb::WriteOptions wo;
  wo.sync = opts_.sync;
  wo.disableWAL = !opts_.wal && !opts_.sync;
  auto st = db_->Write(wo, &batch);
  if (!st.ok()) {
    write_failed(st);
    *error = "room " + room + ": writing its secrets failed: " + st.ToString();
    return false;
  }
  std::vector<AckRecord> recs;
  const uint64_t seq = db_->GetLatestSequenceNumber();
  for (const auto& e : entries) recs.push_back({AckRecord::Secret, room, -1, e.first, seq});
  if (!acknowledge(recs, error)) {
    *error = "room " + room + ": its secrets were written but their acknowledgement could not be recorded (" + *error + ")";
    return false;
  }
  return true;
}

std::optional<std::string> RocksStore::get_room_secret(const std::string& room, const std::string& name,
                                                       std::string* error) {
  std::string v;
  auto st = db_->Get(rocksdb::ReadOptions(), handles_[0], secret_key(room, name), &v);
  if (st.IsNotFound()) return std::nullopt;
  if (!st.ok()) {
    *error = "room " + room + ": reading secret " + name + ": " + st.ToString();
    return std::nullopt;
  }
  return v;
}

bool RocksStore::room_records(const std::string& room, RoomRecords* out, std::string* error) {
  *out = {};
  auto scan = [&](rocksdb::ColumnFamilyHandle* cf, const std::string& pre,
                  const std::function<void(std::string_view, std::string_view)>& fn) {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf));
    for (it->Seek(pre); it->Valid() && it->key().starts_with(pre); it->Next())
      fn(std::string_view(it->key().data() + pre.size(), it->key().size() - pre.size()),
         std::string_view(it->value().data(), it->value().size()));
    if (!it->status().ok()) *error = "room " + room + ": " + it->status().ToString();
    return it->status().ok();
  };
  return scan(actions_, prefix(room),
              [&](std::string_view id, std::string_view v) {
                out->action_ids.emplace_back(std::string(id), static_cast<int64_t>(from_be64(v)));
              }) &&
         scan(snapshots_, prefix(room),
              [&](std::string_view v, std::string_view) { out->snapshots.push_back(static_cast<int64_t>(from_be64(v))); }) &&
         scan(handles_[0], secret_key(room, ""), [&](std::string_view name, std::string_view value) {
           out->secrets.emplace_back(std::string(name), std::string(value));
         });
}

bool RocksStore::secret_rooms(std::vector<std::string>* out, std::string* error) {
  out->clear();
  const std::string pre = std::string("secret", 6) + '\0';
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), handles_[0]));
  for (it->Seek(pre); it->Valid() && it->key().starts_with(pre); it->Next()) {
    const std::string_view rest(it->key().data() + pre.size(), it->key().size() - pre.size());
    const std::string room(rest.substr(0, rest.find('\0')));
    if (out->empty() || out->back() != room) out->push_back(room);
  }
  if (!it->status().ok()) {
    *error = "store " + dir_ + ": the rooms' secrets cannot be listed: " + it->status().ToString();
    return false;
  }
  return true;
}

bool RocksStore::set_created(const std::string& room, uint64_t created_unix_ms, std::string* error) {
  std::scoped_lock lock(room_lock(room));
  std::string err;
  auto m = meta(room, &err);
  if (!m) {
    *error = err.empty() ? "no room " + room : err;
    return false;
  }
  m->created_unix_ms = created_unix_ms;
  rocksdb::WriteOptions wo;
  wo.sync = opts_.sync;
  wo.disableWAL = !opts_.wal && !opts_.sync;
  auto st = db_->Put(wo, rooms_, room, encode_meta(*m));
  if (!st.ok()) {
    write_failed(st);
    *error = "room " + room + ": " + st.ToString();
    return false;
  }
  remember_meta(*m, true);
  return true;
}

bool RocksStore::flush(std::string* error) {
  if (opts_.read_only) return true;
  if (auto st = db_->Flush(rocksdb::FlushOptions(), handles_); !st.ok()) {
    *error = "store " + dir_ + ": flushing it failed: " + st.ToString();
    return false;
  }
  return true;
}

bool RocksStore::compact(std::string* error) {
  if (opts_.read_only) return true;
  rocksdb::CompactRangeOptions o;
  o.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;  // merge the bottom level's files too
  for (auto* cf : handles_)
    if (auto st = db_->CompactRange(o, cf, nullptr, nullptr); !st.ok()) {
      *error = "store " + dir_ + ": compacting it failed: " + st.ToString();
      return false;
    }
  return true;
}

void RocksStore::debug_fail_acknowledgements(int n) {
  if (acks_) acks_->debug_fail_writes(n);
}

namespace {
std::string migration_key(const std::string& room) { return std::string("migration", 9) + '\0' + room; }
}  // namespace

bool RocksStore::put_migration(const std::string& room, const std::string& record,
                               const std::vector<std::pair<int64_t, std::string>>& snapshots, std::string* error) {
  if (!valid_room_id(room)) {
    *error = "invalid room id '" + room + "'";
    return false;
  }
  rocksdb::WriteBatch batch;
  batch.Put(handles_[0], migration_key(room), record);
  for (const auto& [version, bytes] : snapshots) batch.Put(snapshots_, vkey(room, version), bytes);
  rocksdb::WriteOptions wo;
  wo.sync = opts_.sync;
  wo.disableWAL = !opts_.wal && !opts_.sync;
  auto st = db_->Write(wo, &batch);
  if (!st.ok()) {
    *error = "room " + room + ": writing its migration failed: " + st.ToString();
    return false;
  }
  return true;
}

std::optional<std::string> RocksStore::get_migration(const std::string& room, std::string* error) {
  std::string v;
  auto st = db_->Get(rocksdb::ReadOptions(), handles_[0], migration_key(room), &v);
  if (st.IsNotFound()) return std::nullopt;
  if (!st.ok()) {
    *error = "room " + room + ": reading its migration: " + st.ToString();
    return std::nullopt;
  }
  return v;
}

bool RocksStore::debug_put_snapshot(const std::string& room, int64_t version, const std::string& bytes, std::string* error) {
  auto st = db_->Put(rocksdb::WriteOptions(), snapshots_, vkey(room, version), bytes);
  if (!st.ok()) *error = st.ToString();
  return st.ok();
}

bool RocksStore::debug_overwrite_event(const std::string& room, int64_t version, const std::string& bytes,
                                       std::string* error, bool raw) {
  auto st = db_->Put(rocksdb::WriteOptions(), events_, vkey(room, version), raw ? bytes : seal_event(bytes));
  if (!st.ok()) *error = st.ToString();
  return st.ok();
}

bool RocksStore::check_integrity(std::vector<std::string>* problems, std::string* error) {
  const std::string where = "store " + dir_ + ": ";
  rocksdb::ReadOptions ro;
  ro.verify_checksums = true;
  ro.fill_cache = false;
  // The database's own block checksums, over every table file of every
  // column family (the reads below see only live records).
  if (auto st = db_->VerifyChecksum(ro); !st.ok())
    problems->push_back(where + "a table file fails its checksum (" + st.ToString() + ")");
  auto each = [&](rocksdb::ColumnFamilyHandle* cf, const char* what,
                  const std::function<void(std::string_view, std::string_view)>& fn) {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf));
    for (it->SeekToFirst(); it->Valid(); it->Next())
      fn(std::string_view(it->key().data(), it->key().size()), std::string_view(it->value().data(), it->value().size()));
    if (!it->status().ok()) problems->push_back(where + "the " + what + " cannot be read (" + it->status().ToString() + ")");
  };
  // Splits room '\0' rest.
  auto split = [](std::string_view key, std::string* room, std::string_view* rest) {
    const auto nul = key.find('\0');
    if (nul == std::string_view::npos) return false;
    *room = std::string(key.substr(0, nul));
    *rest = key.substr(nul + 1);
    return true;
  };
  std::map<std::string, RoomMeta> metas;
  each(rooms_, "rooms' metadata", [&](std::string_view key, std::string_view value) {
    RoomMeta m;
    std::string err;
    if (decode_meta(std::string(key), std::string(value), &m, &err)) metas[m.room] = m;
    else problems->push_back(where + err);
  });
  // Keys room '\0' be64(version).
  auto version_key = [&](std::string_view key, const char* what, std::string* room, int64_t* v) {
    std::string_view rest;
    if (!split(key, room, &rest) || rest.size() != 8) {
      problems->push_back(where + what + " has a malformed key");
      return false;
    }
    *v = static_cast<int64_t>(from_be64(rest));
    return true;
  };
  std::map<std::string, int64_t> own_events;
  each(events_, "events", [&](std::string_view key, std::string_view value) {
    std::string room, bytes, err;
    int64_t v = 0;
    if (!version_key(key, "an event", &room, &v)) return;
    auto m = metas.find(room);
    if (m == metas.end()) problems->push_back(where + "an event of room " + room + " (version " + std::to_string(v) + "), a room the store does not know");
    else if (v > m->second.head) problems->push_back(where + "room " + room + " holds an event at version " + std::to_string(v) + ", past its head " + std::to_string(m->second.head));
    else if (!m->second.parent.empty() && v <= m->second.parent_version) problems->push_back(where + "fork " + room + " holds its own event at shared version " + std::to_string(v));
    else ++own_events[room];
    if (!unseal_event(room, v, value, &bytes, &err)) problems->push_back(where + err);
  });
  for (const auto& [room, m] : metas) {
    const int64_t want = m.head - (m.parent.empty() ? -1 : m.parent_version);
    const int64_t have = own_events.count(room) ? own_events[room] : 0;
    if (have != want)
      problems->push_back(where + "room " + room + " holds " + std::to_string(have) + " of its " + std::to_string(want) +
                          " events (up to version " + std::to_string(m.head) + ")");
    if (!m.parent.empty() && !metas.count(m.parent))
      problems->push_back(where + "fork " + room + " names a parent " + m.parent + " the store does not know");
  }
  each(snapshots_, "snapshots", [&](std::string_view key, std::string_view) {
    std::string room;
    int64_t v = 0;
    if (!version_key(key, "a snapshot", &room, &v)) return;
    auto m = metas.find(room);
    if (m == metas.end() || v > m->second.head)
      problems->push_back(where + "a snapshot of room " + room + " at version " + std::to_string(v) + " lies past the room's head");
  });
  each(actions_, "client action ids", [&](std::string_view key, std::string_view value) {
    std::string room;
    std::string_view id;
    if (!split(key, &room, &id) || value.size() != 8) {
      problems->push_back(where + "a client action id entry is malformed");
      return;
    }
    const auto v = static_cast<int64_t>(from_be64(value));
    auto m = metas.find(room);
    check_action_id(where, room, std::string(id), v, m == metas.end() ? -1 : m->second.head, problems);
  });
  each(handles_[0], "room secrets", [&](std::string_view, std::string_view) {});
  (void)error;
  return true;
}

bool RocksStore::copy_to(const std::string& dest, int64_t* records, std::string* error) {
  *records = 0;
  if (std::filesystem::exists(dest)) {
    *error = "the backup directory " + dest + " exists already (a backup goes into a new directory)";
    return false;
  }
  Options o;
  o.sync = false;  // one flush at the end makes the copy durable
  auto copy = open(dest, o, error);
  if (!copy) return false;
  // One moment of the source: a reader's store never changes; a writer's is
  // read through a snapshot.
  const rocksdb::Snapshot* snap = opts_.read_only ? nullptr : db_->GetSnapshot();
  rocksdb::ReadOptions ro;
  ro.snapshot = snap;
  ro.fill_cache = false;
  bool ok = true;
  for (size_t cf = 0; cf < handles_.size() && ok; ++cf) {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, handles_[cf]));
    rocksdb::WriteBatch batch;
    auto write = [&] {
      rocksdb::WriteOptions wo;
      wo.disableWAL = true;
      auto st = copy->db_->Write(wo, &batch);
      batch.Clear();
      if (!st.ok()) *error = "writing the backup " + dest + ": " + st.ToString();
      return st.ok();
    };
    for (it->SeekToFirst(); it->Valid() && ok; it->Next()) {
      batch.Put(copy->handles_[cf], it->key(), it->value());
      ++*records;
      if (batch.GetDataSize() > (1u << 20)) ok = write();
    }
    if (ok && !it->status().ok()) {
      *error = "store " + dir_ + ": reading it for the backup: " + it->status().ToString();
      ok = false;
    }
    if (ok && batch.Count() > 0) ok = write();
  }
  if (snap) db_->ReleaseSnapshot(snap);
  if (ok) {
    if (auto st = copy->db_->Flush(rocksdb::FlushOptions(), copy->handles_); !st.ok()) {
      *error = "flushing the backup " + dest + ": " + st.ToString();
      ok = false;
    }
  }
  if (ok) {
    std::error_code ec;
    const auto losses = std::filesystem::path(dir_) / "MENTAT-LOSSES";
    if (std::filesystem::exists(losses, ec))
      std::filesystem::copy_file(losses, std::filesystem::path(dest) / "MENTAT-LOSSES", ec);
  }
  return ok;
}

}  // namespace mentat::store
