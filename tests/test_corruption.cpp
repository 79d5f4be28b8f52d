// Damage to a store's files, tried on copies of a store holding one room of
// 62 synced events (issue 11): a flipped bit in the write-ahead log, the log
// truncated or deleted, flipped bytes in a table file of each column family.
// Every tool must report it (opening for writing refuses; verify and recover
// exit non-zero naming the store and what is damaged) and nothing
// acknowledged may disappear silently; only a torn tail of bytes that were
// never acknowledged is dropped quietly. Bounded: a few seconds.
#include <catch2/catch.hpp>
#include <rocksdb/db.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/engine.h"
#include "core/rng.h"
#include "store/room.h"
#include "support/run_command.h"

namespace fs = std::filesystem;
using namespace mentat;

namespace {

using testrun::run_mentat;
using testrun::run_shell;

struct Scratch {
  fs::path root;
  Scratch() {
    static int n = 0;
    root = fs::temp_directory_path() / ("mentat-corrupt-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Scratch() { fs::remove_all(root); }
};

// Room b1: version 0 plus 61 random legal actions, each acknowledged (synced).
void play_room(const fs::path& dir, int actions) {
  std::string err;
  auto st = store::EventStore::open(dir.string(), store::Options{}, &err);
  INFO(err);
  REQUIRE(st);
  GameSetup g;
  g.seed = 11;
  for (int f = 0; f < kNumBaseFactions; ++f) g.factions.push_back(static_cast<Faction>(f));
  std::string room = "b1";
  REQUIRE(store::create_room(*st, g, &room, &err));
  Rng rng = Rng::from_seed(5);
  GameState s;
  REQUIRE(store::load_state(*st, room, -1, &s, &err));
  for (int i = 0; i < actions; ++i) {
    const uint8_t w = waiting_for(s);
    REQUIRE(w != 0);
    std::vector<Seat> seats;
    for (Seat x = 0; x < s.num_seats; ++x)
      if ((w >> x) & 1u) seats.push_back(x);
    const Seat who = seats[rng.below(static_cast<uint32_t>(seats.size()))];
    const auto acts = legal_actions(s, who);
    REQUIRE(!acts.empty());
    auto o = store::submit_loaded(*st, room, s, who, acts[rng.below(static_cast<uint32_t>(acts.size()))],
                                  "t" + std::to_string(i + 1));
    INFO(o.error);
    REQUIRE(o.ok);
  }
}

std::vector<fs::path> files_with(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path());
  return out;
}

// The write-ahead log holding the room's events (the largest *.log).
fs::path wal_of(const fs::path& dir) {
  fs::path best;
  for (const auto& p : files_with(dir, ".log"))
    if (best.empty() || fs::file_size(p) > fs::file_size(best)) best = p;
  REQUIRE(!best.empty());
  return best;
}

void flip_bit(const fs::path& file, uint64_t offset, uint8_t mask = 0x10) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  REQUIRE(f);
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  f.read(&c, 1);
  REQUIRE(f);
  c = static_cast<char>(c ^ mask);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(&c, 1);
  REQUIRE(f);
}

// Table files by column family name (RocksDB's own metadata, read-only).
std::map<std::string, std::vector<fs::path>> tables_by_family(const fs::path& dir) {
  std::vector<std::string> names;
  REQUIRE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir.string(), &names).ok());
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (const auto& n : names) cfs.emplace_back(n, rocksdb::ColumnFamilyOptions());
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  REQUIRE(rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(), dir.string(), cfs, &handles, &db).ok());
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::map<std::string, std::vector<fs::path>> out;
  for (const auto& f : files) out[f.column_family_name].push_back(dir / fs::path(f.name).filename());
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
  delete db;
  return out;
}

// `verify --all --checksums` and `recover` both fail, naming the store.
void expect_checks_fail(const fs::path& copy) {
  auto v = run_mentat("--data " + copy.string() + " verify --all --checksums");
  INFO(v.out);
  CHECK(v.code != 0);
  CHECK_THAT(v.out, Catch::Contains(copy.string()));
  auto r = run_mentat("recover --no-projection " + copy.string());
  INFO(r.out);
  CHECK(r.code != 0);
  CHECK_THAT(r.out, Catch::Contains(copy.string()));
}

// Every way in: the writable open (server, recover), verify --all (with the
// checksum pass), recover, and serve must all refuse or fail.
void expect_reported(const fs::path& copy, const std::string& what) {
  INFO("damage: " << what);
  std::string err;
  auto st = store::EventStore::open(copy.string(), store::Options{}, &err);
  CHECK(!st);
  CHECK_THAT(err, Catch::Contains(copy.string()));
  CHECK_THAT(err, Catch::Contains("room b1: versions"));  // what is lost, by room and version
  st.reset();
  expect_checks_fail(copy);
  // The server refuses to start (timeout's 124 would mean it served).
  auto s = run_shell("timeout 10 " + std::string(MENTAT_BINARY) + " serve --data " + copy.string() + " --listen 127.0.0.1:0");
  INFO(s.out);
  CHECK(s.code == 3);
}

}  // namespace

TEST_CASE("corruption: damage to the write-ahead log is reported, never silently truncates a room", "[corruption]") {
  static Scratch tmp;  // one store for all the sections (Catch runs the body once per section)
  const fs::path base = tmp.root / "store";
  if (!fs::exists(base)) play_room(base, 61);

  SECTION("a flipped bit in the middle of the log") {
    const fs::path copy = tmp.root / "flip";
    fs::remove_all(copy);
    fs::copy(base, copy, fs::copy_options::recursive);
    const fs::path wal = wal_of(copy);
    flip_bit(wal, fs::file_size(wal) / 2);
    expect_reported(copy, "bit flip in " + wal.filename().string());
  }
  SECTION("the log truncated in the middle") {
    const fs::path copy = tmp.root / "trunc";
    fs::copy(base, copy, fs::copy_options::recursive);
    const fs::path wal = wal_of(copy);
    fs::resize_file(wal, fs::file_size(wal) / 2);
    expect_reported(copy, "truncated " + wal.filename().string());
  }
  SECTION("the log deleted") {
    const fs::path copy = tmp.root / "deleted";
    fs::copy(base, copy, fs::copy_options::recursive);
    fs::remove(wal_of(copy));
    expect_reported(copy, "deleted log");
  }
  SECTION("accepting the loss lists the room and the versions lost, and only then opens") {
    const fs::path copy = tmp.root / "accept";
    fs::copy(base, copy, fs::copy_options::recursive);
    const fs::path wal = wal_of(copy);
    flip_bit(wal, fs::file_size(wal) / 2);
    auto r = run_mentat("recover --no-projection " + copy.string());
    CHECK(r.code == 3);
    CHECK_THAT(r.out, Catch::Contains("--accept-loss"));
    r = run_mentat("recover --no-projection --accept-loss " + copy.string());
    INFO(r.out);
    CHECK(r.code == 1);  // a loss happened: never 0
    CHECK_THAT(r.out, Catch::Contains("room b1: versions"));
    CHECK_THAT(r.out, Catch::Contains("..61 lost"));
    std::string err;
    auto st = store::EventStore::open(copy.string(), store::Options{}, &err);
    INFO(err);
    REQUIRE(st);
    auto m = st->meta("b1", &err);
    REQUIRE(m);
    CHECK(m->head < 61);
    st.reset();
    // The accepted store verifies; the decision is on record.
    r = run_mentat("recover --no-projection " + copy.string());
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(fs::exists(copy / "MENTAT-LOSSES"));
  }
  SECTION("a torn tail of never-acknowledged bytes is dropped quietly") {
    const fs::path copy = tmp.root / "torn";
    fs::copy(base, copy, fs::copy_options::recursive);
    {
      // A record header promising 1000 bytes of which 10 reached the disk
      // (the append that wrote it never returned).
      std::ofstream f(wal_of(copy), std::ios::binary | std::ios::app);
      const char header[7] = {'\x12', '\x34', '\x56', '\x78', '\xe8', '\x03', '\x01'};
      f.write(header, 7);
      f.write("0123456789", 10);
    }
    std::string err;
    auto st = store::EventStore::open(copy.string(), store::Options{}, &err);
    INFO(err);
    REQUIRE(st);
    auto m = st->meta("b1", &err);
    REQUIRE(m);
    CHECK(m->head == 61);
    st.reset();
    auto r = run_mentat("recover --no-projection " + copy.string());
    INFO(r.out);
    CHECK(r.code == 0);
  }
}

TEST_CASE("corruption: flipped bytes in any table file are reported by verify --checksums and recover", "[corruption]") {
  Scratch tmp;
  const fs::path base = tmp.root / "store";
  play_room(base, 61);
  {
    // Reopen once: recovery moves the logged events into table files.
    std::string err;
    auto st = store::EventStore::open(base.string(), store::Options{}, &err);
    REQUIRE(st);
  }
  const auto tables = tables_by_family(base);
  for (const char* family : {"events", "actions", "rooms", "snapshots", "default"}) {
    INFO("column family " << family);
    auto it = tables.find(family);
    REQUIRE(it != tables.end());
    REQUIRE(!it->second.empty());
    const fs::path copy = tmp.root / (std::string("sst-") + family);
    fs::copy(base, copy, fs::copy_options::recursive);
    // Byte 10 lies in the first data block: only a read of that block sees it.
    flip_bit(copy / it->second.front().filename(), 10, 0x01);
    expect_checks_fail(copy);
  }
}

TEST_CASE("corruption: a backup restores what a damaged store lost", "[corruption]") {
  Scratch tmp;
  const fs::path base = tmp.root / "store";
  play_room(base, 61);
  // A backup, taken as a reader (beside a server it would work the same).
  const fs::path backup = tmp.root / "backup";
  auto b = run_mentat("--data " + base.string() + " backup " + backup.string());
  INFO(b.out);
  REQUIRE(b.code == 0);
  CHECK_THAT(b.out, Catch::Contains("every record of every kind read and checked"));
  auto again = run_mentat("--data " + base.string() + " backup " + backup.string());
  CHECK(again.code == 3);  // never into an existing directory
  // The store is damaged; the host restores the backup in its place.
  const fs::path wal = wal_of(base);
  flip_bit(wal, fs::file_size(wal) / 2);
  expect_reported(base, "bit flip before the restore");
  fs::rename(base, tmp.root / "damaged");
  fs::rename(backup, base);
  auto r = run_mentat("recover --no-projection " + base.string());
  INFO(r.out);
  CHECK(r.code == 0);
  std::string err;
  auto st = store::EventStore::open(base.string(), store::Options{}, &err);
  INFO(err);
  REQUIRE(st);
  auto m = st->meta("b1", &err);
  REQUIRE(m);
  CHECK(m->head == 61);
  auto v = st->find_action("b1", "t61", &err);
  REQUIRE(v);
  CHECK(*v == 61);
}

TEST_CASE("corruption: a damaged table file is named as damage by the readers, and a held store as in use", "[corruption]") {
  Scratch tmp;
  const fs::path base = tmp.root / "store";
  play_room(base, 30);
  {
    std::string err;
    auto st = store::EventStore::open(base.string(), store::Options{}, &err);
    REQUIRE(st);
  }
  // A writer holds the store: a second writer is told it is in use; readers work beside it.
  {
    std::string err;
    auto held = store::EventStore::open(base.string(), store::Options{}, &err);
    REQUIRE(held);
    auto w = run_mentat("--data " + base.string() + " new --factions atreides,harkonnen --room x");
    INFO(w.out);
    CHECK(w.code == 3);
    CHECK_THAT(w.out, Catch::Contains("is in use by another process"));
    CHECK(run_mentat("--data " + base.string() + " log b1").code == 0);
  }
  // One bit flipped near the end of a table file (its index and footer):
  // every reader says the store is damaged, none that it is in use (before:
  // "block checksum mismatch" matched "lock").
  const auto tables = tables_by_family(base);
  const fs::path sst = tables.at("events").front();
  flip_bit(sst, fs::file_size(sst) - 60, 0x01);
  for (const char* cmd : {"log b1", "show b1", "verify b1", "rooms"}) {
    INFO(cmd);
    auto r = run_mentat("--data " + base.string() + " " + cmd);
    INFO(r.out);
    CHECK(r.code != 0);
    CHECK_THAT(r.out, Catch::Contains("damaged"));
    CHECK_THAT(r.out, !Catch::Contains("in use"));
  }
}
