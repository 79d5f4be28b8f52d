#include "store/event_store.h"

#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <functional>

#include <xxhash.h>

#include "events/store_generated.h"

namespace mentat::store {

namespace {

std::string be64(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 7; i >= 0; --i) {
    s[static_cast<size_t>(i)] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
  return s;
}
uint64_t from_be64(std::string_view s) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8 && i < s.size(); ++i) v = (v << 8) | static_cast<uint8_t>(s[i]);
  return v;
}
// Stored event values carry an xxh3-64 checksum of the event bytes after
// them, so that a changed byte is caught even where RocksDB's block checksums
// cannot see it (a value rewritten through the API, a bad copy).
std::string seal(const std::string& bytes) {
  std::string v = bytes;
  v += be64(XXH3_64bits(bytes.data(), bytes.size()));
  return v;
}
bool unseal(const std::string& room, int64_t version, std::string_view value, std::string* bytes, std::string* error) {
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

// A reader's RocksDB log: errors to stderr, nothing written into the store.
class StderrErrorLogger : public rocksdb::Logger {
 public:
  StderrErrorLogger() : rocksdb::Logger(rocksdb::InfoLogLevel::ERROR_LEVEL) {}
  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    std::fputs("mentat store (read-only): ", stderr);
    std::vfprintf(stderr, format, ap);
    std::fputc('\n', stderr);
  }
};

}  // namespace

std::unique_ptr<EventStore> EventStore::open(const std::string& dir, const Options& opts, std::string* error) {
  rocksdb::DBOptions dbo;
  dbo.create_if_missing = opts.create_if_missing;
  dbo.create_missing_column_families = true;
  dbo.paranoid_checks = true;
  dbo.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  dbo.keep_log_file_num = 2;
  // Open the table files in the calling thread. RocksDB's default (16) starts
  // a pool of threads per column family on every open, which cost a cold
  // replay about 2 ms of its 3; the stores here have few table files.
  dbo.max_file_opening_threads = 1;
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
    // A reader's open does no file housekeeping: no info log file (warnings
    // would have nowhere useful to go), no statistics pass over the tables.
    dbo.create_if_missing = false;
    dbo.skip_stats_update_on_db_open = true;
    dbo.info_log = std::make_shared<StderrErrorLogger>();
  }
  if (opts.create_if_missing && !opts.read_only) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      *error = "cannot create the store directory " + dir + ": " + ec.message();
      return nullptr;
    }
  }
  std::unique_ptr<EventStore> store(new EventStore());
  store->opts_ = opts;
  rocksdb::DB* raw = nullptr;
  auto st = opts.read_only ? rocksdb::DB::OpenForReadOnly(dbo, dir, cfs, &store->handles_, &raw)
                           : rocksdb::DB::Open(dbo, dir, cfs, &store->handles_, &raw);
  if (!st.ok()) {
    *error = "cannot open the store at " + dir + ": " + st.ToString();
    return nullptr;
  }
  store->db_.reset(raw);
  store->events_ = store->handles_[1];
  store->rooms_ = store->handles_[2];
  store->snapshots_ = store->handles_[3];
  store->actions_ = store->handles_[4];
  return store;
}

EventStore::~EventStore() {
  if (db_) {
    for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
    db_->Close();
  }
}

bool EventStore::valid_room_id(const std::string& room) {
  if (room.empty() || room.size() > 64) return false;
  for (char c : room)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

std::mutex& EventStore::room_lock(const std::string& room) {
  return locks_[std::hash<std::string>{}(room) % locks_.size()];
}

EventStore::MetaShard& EventStore::meta_shard(const std::string& room) {
  return meta_cache_[std::hash<std::string>{}(room) % meta_cache_.size()];
}

void EventStore::remember_meta(const RoomMeta& m, bool overwrite) {
  auto& shard = meta_shard(m.room);
  std::scoped_lock lock(shard.mu);
  if (overwrite) shard.map.insert_or_assign(m.room, m);
  else shard.map.try_emplace(m.room, m);
}

std::optional<RoomMeta> EventStore::meta(const std::string& room, std::string* error) {
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

bool EventStore::create_fork(const std::string& room, const std::string& parent, int64_t parent_version,
                             std::string* error) {
  if (!valid_room_id(room)) {
    *error = "invalid room id '" + room + "' (letters, digits, '-', '_', '.'; at most 64)";
    return false;
  }
  std::scoped_lock lock(room_lock(room));
  std::string err;
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
    *error = "room " + room + ": " + st.ToString();
    return false;
  }
  remember_meta(m, true);
  return true;
}

AppendResult EventStore::append(const std::string& room, int64_t expected_head, const std::string& event_bytes,
                                const std::string& client_action_id, const std::string* snapshot_bytes) {
  AppendResult r;
  if (!valid_room_id(room)) {
    r.error = "invalid room id '" + room + "'";
    return r;
  }
  std::scoped_lock lock(room_lock(room));
  std::string err;
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
  batch.Put(events_, vkey(room, version), seal(event_bytes));
  batch.Put(rooms_, room, encode_meta(cur));
  if (!client_action_id.empty()) batch.Put(actions_, prefix(room) + client_action_id, be64(static_cast<uint64_t>(version)));
  if (snapshot_bytes) batch.Put(snapshots_, vkey(room, version), *snapshot_bytes);
  rocksdb::WriteOptions wo;
  wo.sync = opts_.sync;
  wo.disableWAL = !opts_.wal && !opts_.sync;
  auto st = db_->Write(wo, &batch);
  if (!st.ok()) {
    r.error = "room " + room + " version " + std::to_string(version) + ": write failed: " + st.ToString();
    return r;
  }
  remember_meta(cur, true);
  r.status = AppendStatus::Ok;
  r.version = version;
  return r;
}

bool EventStore::read_event(const std::string& room, int64_t version, std::string* bytes, std::string* error) {
  std::string owner = room;
  for (int depth = 0; depth < 64; ++depth) {
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
    auto st = db_->Get(rocksdb::ReadOptions(), events_, vkey(owner, version), &value);
    if (!st.ok()) {
      *error = "room " + room + " version " + std::to_string(version) + ": " + st.ToString();
      return false;
    }
    return unseal(room, version, value, bytes, error);
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
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, events_));
  const std::string pre = prefix(room);
  int64_t expect = from;
  for (it->Seek(vkey(room, from)); it->Valid(); it->Next()) {
    auto key = it->key();
    if (!key.starts_with(pre)) break;
    const auto v = static_cast<int64_t>(from_be64(std::string_view(key.data() + pre.size(), key.size() - pre.size())));
    if (v > to) break;
    if (v != expect) {
      *error = "room " + room + ": version " + std::to_string(expect) + " is missing from the store";
      return false;
    }
    ++expect;
    std::string bytes;
    if (!unseal(room, v, std::string_view(it->value().data(), it->value().size()), &bytes, error)) return false;
    if (!fn(v, bytes)) return true;
  }
  if (!it->status().ok()) {
    *error = "room " + room + ": " + it->status().ToString();
    return false;
  }
  if (expect <= to) {
    *error = "room " + room + ": version " + std::to_string(expect) + " is missing from the store";
    return false;
  }
  return true;
}

bool EventStore::latest_snapshot(const std::string& room, int64_t at_most, int64_t* version, std::string* bytes,
                                 std::string* error) {
  auto m = meta(room, error);
  if (!m) {
    if (error->empty()) *error = "no room " + room;
    return false;
  }
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, snapshots_));
  const std::string pre = prefix(room);
  it->SeekForPrev(vkey(room, at_most));
  if (it->Valid() && it->key().starts_with(pre)) {
    const auto key = it->key();
    const auto v = static_cast<int64_t>(from_be64(std::string_view(key.data() + pre.size(), key.size() - pre.size())));
    if (m->parent.empty() || v > m->parent_version) {
      *version = v;
      *bytes = it->value().ToString();
      return true;
    }
  }
  if (!it->status().ok()) {
    *error = "room " + room + ": " + it->status().ToString();
    return false;
  }
  if (!m->parent.empty()) return latest_snapshot(m->parent, std::min(at_most, m->parent_version), version, bytes, error);
  *version = -1;
  return true;
}

std::optional<int64_t> EventStore::find_action(const std::string& room, const std::string& client_action_id,
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

std::vector<RoomMeta> EventStore::rooms(std::string* error) {
  std::vector<RoomMeta> out;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), rooms_));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    RoomMeta m;
    if (decode_meta(it->key().ToString(), it->value().ToString(), &m, error)) out.push_back(m);
  }
  if (!it->status().ok()) *error = it->status().ToString();
  return out;
}

namespace {
std::string secret_key(const std::string& room, const std::string& name) {
  return std::string("secret", 6) + '\0' + room + '\0' + name;
}
}  // namespace

bool EventStore::put_room_secrets(const std::string& room,
                                  const std::vector<std::pair<std::string, std::string>>& entries, std::string* error) {
  if (!valid_room_id(room)) {
    *error = "invalid room id '" + room + "'";
    return false;
  }
  rocksdb::WriteBatch batch;
  for (const auto& [name, value] : entries) batch.Put(handles_[0], secret_key(room, name), value);
  rocksdb::WriteOptions wo;
  wo.sync = opts_.sync;
  wo.disableWAL = !opts_.wal && !opts_.sync;
  auto st = db_->Write(wo, &batch);
  if (!st.ok()) {
    *error = "room " + room + ": writing its secrets failed: " + st.ToString();
    return false;
  }
  return true;
}

std::optional<std::string> EventStore::get_room_secret(const std::string& room, const std::string& name,
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

bool EventStore::debug_put_snapshot(const std::string& room, int64_t version, const std::string& bytes, std::string* error) {
  auto st = db_->Put(rocksdb::WriteOptions(), snapshots_, vkey(room, version), bytes);
  if (!st.ok()) *error = st.ToString();
  return st.ok();
}

bool EventStore::debug_overwrite_event(const std::string& room, int64_t version, const std::string& bytes,
                                       std::string* error, bool raw) {
  auto st = db_->Put(rocksdb::WriteOptions(), events_, vkey(room, version), raw ? bytes : seal(bytes));
  if (!st.ok()) *error = st.ToString();
  return st.ok();
}

}  // namespace mentat::store
