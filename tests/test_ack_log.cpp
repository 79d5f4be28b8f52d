// The acknowledgement log's reader (store/ack_log.cpp) reads the first
// 64 KiB of the file and the rest only when the records go on past them:
// a log of any length reads the same as if it were read whole.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "store/ack_log.h"

using namespace mentat;
namespace fs = std::filesystem;

namespace {

// Every record here is 41 bytes long: [be32 n][29 bytes: kind, room length,
// "room-NNNN", name length, version, sequence][be64 checksum].
constexpr size_t kMagicSize = 14;  // "MENTAT-ACKS 1\n"
constexpr size_t kRecordSize = 41;
size_t record_offset(int i) { return kMagicSize + kRecordSize * static_cast<size_t>(i); }

std::string room_name(int i) {
  char name[16];
  std::snprintf(name, sizeof name, "room-%04d", i);
  return name;
}

// A log of `n` records (room-0000 version 0, room-0001 version 1, ...).
fs::path write_log(const fs::path& dir, int n) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path path = dir / store::AckLog::kFileName;
  store::AckLog log;
  std::string error;
  REQUIRE(log.reset(path.string(), &error));
  std::vector<store::AckRecord> batch;
  for (int i = 0; i < n; ++i) {
    batch.push_back({store::AckRecord::Event, room_name(i), i, "", static_cast<uint64_t>(i) + 1});
    if (batch.size() == 500 || i + 1 == n) {
      REQUIRE(log.acknowledge(batch, &error));
      batch.clear();
    }
  }
  return path;
}

// Flips the bits of `mask` in the byte at `at`.
void flip(const fs::path& path, size_t at, char mask) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(at));
  const char was = static_cast<char>(f.get());
  f.seekp(static_cast<std::streamoff>(at));
  f.put(static_cast<char>(was ^ mask));
}

}  // namespace

TEST_CASE("ack log: records past the first 64 KiB are read, and damage there is reported", "[store]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-ack-log-" + std::to_string(::getpid()));
  const int n = 3000;  // 123,014 bytes of records: the first read ends inside record 1598
  REQUIRE(record_offset(n) > 2 * 64 * 1024 - 10000);
  std::vector<store::AckRecord> got;
  bool exists = false;
  std::string error;

  SECTION("a long log is read whole") {
    const fs::path path = write_log(dir, n);
    REQUIRE(store::AckLog::read(path.string(), false, &got, &exists, &error));
    CHECK(exists);
    CHECK(error.empty());
    REQUIRE(got.size() == static_cast<size_t>(n));
    for (int i : {0, 1597, 1598, 1599, n - 1}) {
      CHECK(got[static_cast<size_t>(i)].room == room_name(i));
      CHECK(got[static_cast<size_t>(i)].version == i);
      CHECK(got[static_cast<size_t>(i)].sequence == static_cast<uint64_t>(i) + 1);
    }
  }
  SECTION("a short log needs no second read and is read the same") {
    const fs::path path = write_log(dir, 40);
    REQUIRE(store::AckLog::read(path.string(), false, &got, &exists, &error));
    REQUIRE(got.size() == 40u);
    CHECK(got.back().room == room_name(39));
  }
  SECTION("a record damaged past 64 KiB, with a whole record after it, is damage") {
    const fs::path path = write_log(dir, n);
    const int bad = 2000;
    REQUIRE(record_offset(bad) > 64 * 1024);
    flip(path, record_offset(bad) + 4 + 3, 0x20);  // a byte of its room name
    CHECK_FALSE(store::AckLog::read(path.string(), false, &got, &exists, &error));
    CHECK_THAT(error, Catch::Contains("damaged at byte " + std::to_string(record_offset(bad))));
    // Salvaged: the records before it.
    error.clear();
    REQUIRE(store::AckLog::read(path.string(), true, &got, &exists, &error));
    CHECK(got.size() == static_cast<size_t>(bad));
    CHECK_FALSE(error.empty());
  }
  SECTION("the record across the 64 KiB boundary, damaged, is damage too") {
    const fs::path path = write_log(dir, n);
    const int across = static_cast<int>((64 * 1024 - kMagicSize) / kRecordSize);
    REQUIRE(record_offset(across) < 64 * 1024);
    REQUIRE(record_offset(across + 1) > 64 * 1024);
    flip(path, record_offset(across) + kRecordSize - 2, 0x55);  // its checksum, past the boundary
    CHECK_FALSE(store::AckLog::read(path.string(), false, &got, &exists, &error));
    CHECK_THAT(error, Catch::Contains("damaged at byte " + std::to_string(record_offset(across))));
  }
  SECTION("a torn last record past 64 KiB is dropped quietly") {
    const fs::path path = write_log(dir, n);
    flip(path, record_offset(n - 1) + kRecordSize - 1, 0x01);  // its checksum's last byte
    REQUIRE(store::AckLog::read(path.string(), false, &got, &exists, &error));
    CHECK(error.empty());
    CHECK(got.size() == static_cast<size_t>(n - 1));
  }
  fs::remove_all(dir);
}
