#include "store/ack_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string_view>

#include <xxhash.h>

namespace mentat::store {

namespace {

constexpr std::string_view kMagic = "MENTAT-ACKS 1\n";

void put_be(std::string& s, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
uint64_t get_be(std::string_view s, size_t pos, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<uint8_t>(s[pos + static_cast<size_t>(i)]);
  return v;
}

std::string encode(const AckRecord& r) {
  std::string p;
  p.push_back(static_cast<char>(r.kind));
  p.push_back(static_cast<char>(r.room.size()));
  p += r.room;
  put_be(p, r.name.size(), 2);
  p += r.name;
  put_be(p, static_cast<uint64_t>(r.version), 8);
  put_be(p, r.sequence, 8);
  std::string out;
  put_be(out, p.size(), 4);
  out += p;
  put_be(out, XXH3_64bits(p.data(), p.size()), 8);
  return out;
}

bool decode(std::string_view p, AckRecord* r) {
  if (p.size() < 2) return false;
  r->kind = static_cast<AckRecord::Kind>(p[0]);
  if (r->kind != AckRecord::Event && r->kind != AckRecord::Fork && r->kind != AckRecord::Secret) return false;
  size_t pos = 1;
  const size_t room_len = static_cast<uint8_t>(p[pos++]);
  if (p.size() < pos + room_len + 2) return false;
  r->room.assign(p.substr(pos, room_len));
  pos += room_len;
  const size_t name_len = get_be(p, pos, 2);
  pos += 2;
  if (p.size() != pos + name_len + 16) return false;
  r->name.assign(p.substr(pos, name_len));
  pos += name_len;
  r->version = static_cast<int64_t>(get_be(p, pos, 8));
  r->sequence = get_be(p, pos + 8, 8);
  return true;
}

std::string errno_text() { return std::strerror(errno); }

bool sync_dir(const std::string& dir, std::string* error) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0 || ::fsync(fd) != 0) {
    *error = "cannot sync the directory " + dir + ": " + errno_text();
    if (fd >= 0) ::close(fd);
    return false;
  }
  ::close(fd);
  return true;
}

}  // namespace

namespace {
// What parsing a prefix of the log found.
enum class Parsed { Clean, Damaged, NeedMore };

// Parses the records of `s`, the first bytes of the log (`whole`: all of it).
// Stops at the first place that holds no record; NeedMore when telling what
// is there needs bytes past `s` (never with `whole`).
Parsed parse_records(std::string_view s, bool whole, const std::string& path, std::vector<AckRecord>* out,
                     std::string* error) {
  out->clear();
  if (s.size() < kMagic.size() && !whole) return Parsed::NeedMore;
  if (s.compare(0, kMagic.size(), kMagic) != 0) {
    *error = path + " is damaged: it does not start with the acknowledgement log's header";
    return Parsed::Damaged;
  }
  // The record at `at`, if one is there whole and checks; `short_read` when
  // the bytes read so far end before it does.
  bool short_read = false;
  const auto record_at = [&](size_t at, AckRecord* r, size_t* next) {
    if (at > s.size() || s.size() - at < 12) {
      short_read = !whole;
      return false;
    }
    const size_t n = get_be(s, at, 4);
    if (n > s.size() - at - 12) {
      short_read = !whole;
      return false;
    }
    const std::string_view p = s.substr(at + 4, n);
    *next = at + 12 + n;
    return XXH3_64bits(p.data(), p.size()) == get_be(s, at + 4 + n, 8) && decode(p, r);
  };
  size_t pos = kMagic.size();
  while (pos < s.size() || !whole) {
    AckRecord r;
    size_t next = 0;
    if (record_at(pos, &r, &next)) {
      out->push_back(std::move(r));
      pos = next;
      continue;
    }
    // Not a record: the zeros after the last one, or a torn write (never
    // acknowledged) -- unless a whole record follows where this one says it
    // ends: then this one was damaged after it was written.
    AckRecord after;
    size_t after_next = 0;
    if (next > pos && record_at(next, &after, &after_next)) {
      *error = path + " is damaged at byte " + std::to_string(pos) + " (a record fails its checksum)";
      return Parsed::Damaged;
    }
    return short_read ? Parsed::NeedMore : Parsed::Clean;
  }
  return Parsed::Clean;
}

// Reads up to `want` bytes from the start of `fd` into `buf`; false on an error.
bool read_prefix(int fd, std::unique_ptr<char[]>* buf, size_t want, size_t* got) {
  buf->reset(new char[want]);
  *got = 0;
  while (*got < want) {
    const ssize_t n = ::pread(fd, buf->get() + *got, want - *got, static_cast<off_t>(*got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    *got += static_cast<size_t>(n);
  }
  return true;
}
}  // namespace

bool AckLog::read(const std::string& path, bool salvage, std::vector<AckRecord>* out, bool* exists, std::string* error) {
  out->clear();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  *exists = fd >= 0;
  if (fd < 0) {
    if (errno == ENOENT) return true;
    *exists = true;
    *error = path + " cannot be read: " + std::strerror(errno);
    return false;
  }
  // The file is 1 MiB of mostly zeros and every open, read-only ones (a cold
  // replay) included, reads it: first only its first 64 KiB, where the
  // records of a log reset at the last writable open are; all of it only
  // when the records (or the check after the last) go on past them.
  struct stat st {};
  std::unique_ptr<char[]> buf;
  size_t got = 0;
  Parsed parsed = Parsed::Clean;
  bool bad = ::fstat(fd, &st) != 0;
  if (!bad && st.st_size > 0) {
    const size_t size = static_cast<size_t>(st.st_size);
    constexpr size_t kFirst = 64 * 1024;
    bad = !read_prefix(fd, &buf, std::min(size, kFirst), &got);
    if (!bad) parsed = parse_records(std::string_view(buf.get(), got), got < kFirst || got == size, path, out, error);
    if (!bad && parsed == Parsed::NeedMore) {
      bad = !read_prefix(fd, &buf, size, &got);
      if (!bad) parsed = parse_records(std::string_view(buf.get(), got), true, path, out, error);
    }
  } else if (!bad) {
    parsed = parse_records({}, true, path, out, error);
  }
  ::close(fd);
  if (bad) {
    *error = path + " cannot be read";
    return false;
  }
  return parsed == Parsed::Damaged ? salvage : true;
}

AckLog::~AckLog() {
  if (fd_ >= 0) ::close(fd_);
}

bool AckLog::reset(const std::string& path, std::string* error) {
  std::scoped_lock lock(mu_);
  path_ = path;
  return reset_locked(error);
}

namespace {
// The file is written in place over zeros: an fdatasync then flushes only
// the data (no size change for the file system to journal), about half the
// cost of an append on ext4 here.
constexpr uint64_t kChunk = 1u << 20;

bool pwrite_all(int fd, const char* data, size_t n, uint64_t at) {
  size_t done = 0;
  while (done < n) {
    const ssize_t w = ::pwrite(fd, data + done, n - done, static_cast<off_t>(at + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += static_cast<size_t>(w);
  }
  return true;
}
}  // namespace

bool AckLog::reset_locked(std::string* error) {
  const std::string tmp = path_ + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  std::string image(kChunk, '\0');
  image.replace(0, kMagic.size(), kMagic);
  const bool ok = fd >= 0 && pwrite_all(fd, image.data(), image.size(), 0) && ::fdatasync(fd) == 0;
  if (!ok) {
    *error = "cannot write " + tmp + ": " + errno_text();
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    return false;
  }
  if (::rename(tmp.c_str(), path_.c_str()) != 0) {
    *error = "cannot replace " + path_ + ": " + errno_text();
    ::close(fd);
    return false;
  }
  if (!sync_dir(std::filesystem::path(path_).parent_path().string(), error)) {
    ::close(fd);
    return false;
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  good_size_ = kMagic.size();
  dirty_end_ = good_size_;
  capacity_ = kChunk;
  records_ = 0;
  next_reset_ = kResetAfter;
  return true;
}

bool AckLog::write_all(const std::string& bytes, std::string* error) {
  if (fd_ < 0) {
    *error = "the acknowledgement log " + path_ + " is not open";
    return false;
  }
  if (fail_next_ > 0) {
    --fail_next_;
    *error = "cannot write " + path_ + ": No space left on device (injected by a test)";
    return false;
  }
  // What a failed write may have left past the good end is zeroed again.
  std::string out = bytes;
  if (dirty_end_ > good_size_ + out.size()) out.resize(dirty_end_ - good_size_, '\0');
  const uint64_t end = good_size_ + out.size();
  dirty_end_ = std::max(dirty_end_, end);
  if (end > capacity_) {
    // Grow by zeros (rare: a reset normally comes first).
    const uint64_t grow = ((end - capacity_) / kChunk + 1) * kChunk;
    const std::string zeros(grow, '\0');
    if (!pwrite_all(fd_, zeros.data(), zeros.size(), capacity_)) {
      *error = "cannot write " + path_ + ": " + errno_text();
      return false;
    }
    capacity_ += grow;
  }
  if (!pwrite_all(fd_, out.data(), out.size(), good_size_)) {
    *error = "cannot write " + path_ + ": " + errno_text();
    return false;
  }
  if (::fdatasync(fd_) != 0) {
    *error = "cannot sync " + path_ + ": " + errno_text();
    return false;
  }
  good_size_ += bytes.size();
  return true;
}

bool AckLog::acknowledge(const std::vector<AckRecord>& recs, std::string* error) {
  std::unique_lock lock(mu_);
  for (const auto& r : recs) pending_ += encode(r);
  pending_count_ += recs.size();
  const uint64_t mine = ++queued_;
  while (durable_ < mine) {
    if (syncing_) {
      cv_.wait(lock);
      continue;
    }
    // Leader: sync everything queued so far, for every waiting writer.
    syncing_ = true;
    std::string batch;
    batch.swap(pending_);
    const uint64_t count = pending_count_;
    pending_count_ = 0;
    const uint64_t from = durable_ + 1, upto = queued_;
    lock.unlock();
    std::string err;
    const bool ok = write_all(batch, &err);
    bool reset_due = false;
    if (ok) {
      records_ += count;
      reset_due = records_ >= next_reset_ && flush_;
    }
    if (reset_due) {
      // Still the only writer of the file (syncing_): records queued
      // meanwhile wait in pending_ and go into the new file.
      std::string rerr;
      if (!flush_() || !reset_locked(&rerr)) next_reset_ = records_ + kResetAfter / 8;
    }
    lock.lock();
    durable_ = upto;
    if (!ok) {
      failures_.push_back({from, upto, err});
      if (failures_.size() > 64) failures_.erase(failures_.begin());
    }
    syncing_ = false;
    cv_.notify_all();
  }
  for (const auto& f : failures_)
    if (mine >= f.from && mine <= f.upto) {
      *error = f.error;
      return false;
    }
  return true;
}

}  // namespace mentat::store
