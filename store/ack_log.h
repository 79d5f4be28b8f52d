// The acknowledgement log (internal to store/, not part of the contract in
// event_store.h): a file MENTAT-ACKS in the store directory that records,
// after the database has synced a write and before the writer is answered,
// what was acknowledged (room and version of an event, a fork, a secret's
// name) and the database's sequence number at that point. It lets an open
// tell "the database lost acknowledged writes" (its write-ahead log was
// damaged, truncated or deleted) from "the last writes were never
// acknowledged" (a torn tail after a crash), which the database's own log
// cannot: a log cut at a record boundary, or a missing log, reads as clean.
//
// File: the magic line, then records [be32 n][n bytes][be64 xxh3 of them],
// then zeros (the file is created 1 MiB long and written in place, so that
// an fdatasync need not journal a new size). Records are written and
// fdatasync'd before the write is acknowledged (group commit: concurrent
// writers share one fdatasync). A record that fails its checksum with
// anything but zeros after it is damage; an incomplete or bad last record
// is a torn write, never acknowledged.
//
// The log only needs what the database's table files do not yet hold: once
// every column family is flushed the file is reset to its magic line (at
// every writable open, and while running after kResetAfter records).
//
// Thread-safe: acknowledge() may be called from any number of threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace mentat::store {

struct AckRecord {
  enum Kind : uint8_t { Event = 'E', Fork = 'F', Secret = 'S' };
  Kind kind = Event;
  std::string room;
  int64_t version = -1;   // Event: its version; Fork: the fork's parent version
  std::string name;       // Secret: its name
  uint64_t sequence = 0;  // the database's last sequence number once the write was synced
};

class AckLog {
 public:
  static constexpr const char* kFileName = "MENTAT-ACKS";
  static constexpr uint64_t kResetAfter = 8192;

  // Reads `path`. Returns false with *error on damage (a bad record before
  // the end); a torn tail is dropped. *exists is false when there is no file.
  // With `salvage`, damage stops the read instead, keeping the records before
  // it, and *error still describes it.
  static bool read(const std::string& path, bool salvage, std::vector<AckRecord>* out, bool* exists, std::string* error);

  // Creates (or replaces) the file at `path` empty (magic line only, synced,
  // renamed into place, directory synced) and opens it for appending.
  bool reset(const std::string& path, std::string* error);
  ~AckLog();

  // Appends the records and syncs them; true once they are durable. On a
  // write or sync error, returns false with *error; the file is cut back to
  // its last durable size before the next write.
  bool acknowledge(const std::vector<AckRecord>& recs, std::string* error);

  // Called (by the thread that synced) once kResetAfter records are in the
  // file: `flush` must make every write acknowledged so far durable without
  // the database's log; the file is then reset. A failed flush keeps the
  // records (and tries again later).
  void set_flush(std::function<bool()> flush) { flush_ = std::move(flush); }

  // Tests: the next `n` writes of the file fail as a full disk would.
  void debug_fail_writes(int n) { fail_next_ = n; }

 private:
  bool write_all(const std::string& bytes, std::string* error);
  bool reset_locked(std::string* error);

  std::string path_;
  int fd_ = -1;
  std::function<bool()> flush_;
  std::atomic<int> fail_next_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  std::string pending_;         // encoded records waiting for the next sync
  uint64_t queued_ = 0;         // tickets handed out
  uint64_t durable_ = 0;        // tickets whose batch was written (or failed: see failures_)
  uint64_t pending_count_ = 0;  // records in pending_
  struct Failure {
    uint64_t from, upto;
    std::string error;
  };
  std::vector<Failure> failures_;  // recent batches whose write failed (tickets from..upto)
  bool syncing_ = false;
  uint64_t good_size_ = 0;      // end of the records after the last successful sync
  uint64_t dirty_end_ = 0;      // a failed write may have left bytes up to here
  uint64_t capacity_ = 0;       // file size (zeros past good_size_)
  uint64_t records_ = 0;        // records in the file
  uint64_t next_reset_ = kResetAfter;
};

}  // namespace mentat::store
