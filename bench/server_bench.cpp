// mentat_bench_server: the room server's durability and latency figures
// (docs/PERFORMANCE.md, "Room server"). A plain reproducible harness that
// prints one table per measurement; nothing here is a test.
//
//   mentat_bench_server [--dir DIR] [--seconds S] [--rooms N] [--quick] [--http-only] [--pg URL]
//
// With --pg (a postgresql:// URL of a database to write rooms into), the
// durable appends and the cold replay run against PostgreSQL as well.
//
//  1. raw fsync: write(300 bytes) + fdatasync in a loop on a file in DIR:
//     the disk's synced-write rate, the floor every durable append pays.
//  2. durable appends: EventStore::append (synced, one WriteBatch per event)
//     from 1, 8 and 64 threads, each on its own room, for S seconds:
//     throughput, p50/p99 latency, and appends per fsync of (1) (above 1:
//     concurrent rooms share fsyncs through RocksDB's group commit).
//  3. recovery: N stored rooms of 70 events (a snapshot at 64), written
//     without sync; then the store is reopened, a server started, and every
//     room's view fetched once over HTTP (8 clients): time to /health, and
//     until all N rooms have been served.
//  4. HTTP round trips on loopback: C clients (1, 8, 32) each playing its own
//     room through POST /rooms/{id}/actions (synced), and reading views
//     (GET /rooms/{id}/view): p50/p99 per request.
#include <fcntl.h>
#include <httplib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/engine.h"
#include "events/codec.h"
#include "server/api.h"
#include "server/server.h"
#include "store/event_store.h"
#include "store/room.h"
#include "support/random_play.h"

namespace fs = std::filesystem;
using namespace mentat;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct Stats {
  double p50 = 0, p99 = 0, max = 0;
  size_t n = 0;
};

Stats stats(std::vector<double> v) {
  Stats s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  auto pct = [&](double p) { return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5))]; };
  s.p50 = pct(0.5);
  s.p99 = pct(0.99);
  s.max = v.back();
  return s;
}

double loadavg() {
  std::ifstream f("/proc/loadavg");
  double l = 0;
  f >> l;
  return l;
}

// (1) write + fdatasync on a file in `dir`: appending to the file (every
// sync also commits the new size), or overwriting a preallocated file
// (data only, as RocksDB's preallocated write-ahead log mostly does).
Stats raw_fsync(const fs::path& dir, double seconds, bool preallocated, double* per_s) {
  const fs::path p = dir / "fsync-probe";
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    std::perror("open");
    std::exit(3);
  }
  if (preallocated) {
    if (::posix_fallocate(fd, 0, 64 << 20) != 0 || ::fsync(fd) != 0) {
      std::perror("posix_fallocate");
      std::exit(3);
    }
  }
  char buf[300];
  std::memset(buf, 'x', sizeof buf);
  std::vector<double> lat;
  const auto t0 = Clock::now();
  while (ms_since(t0) < seconds * 1000) {
    const auto t = Clock::now();
    if (::write(fd, buf, sizeof buf) != static_cast<ssize_t>(sizeof buf) || ::fdatasync(fd) != 0) {
      std::perror("write/fdatasync");
      std::exit(3);
    }
    lat.push_back(ms_since(t));
  }
  *per_s = static_cast<double>(lat.size()) / (ms_since(t0) / 1000);
  ::close(fd);
  fs::remove(p);
  return stats(lat);
}

// The encoded events of one seeded game (for appends and stored rooms), and
// the snapshot bytes after event 64.
struct Recorded {
  std::vector<std::string> events;  // events[v] is version v
  std::string snapshot64;
};

Recorded record_game(int count) {
  Recorded r;
  GameSetup g = testplay::setup_for(2026, 6, true);
  GameState s = create_game(g, nullptr);
  codec::Event created;
  created.setup = g;
  created.action = action::CreateGame{};
  created.state_hash = codec::state_hash(s);
  r.events.push_back(codec::encode_event(created));
  std::string why;
  testplay::play(s, 99, count - 1, [&](const GameState& after, const testplay::Step& st) {
    codec::Event e;
    e.version = after.version;
    e.seat = st.seat;
    e.action = st.action;
    e.draws = st.draws;
    e.client_action_id = "c" + std::to_string(after.version);
    e.state_hash = codec::state_hash(after);
    r.events.push_back(codec::encode_event(e));
    if (after.version == 64) r.snapshot64 = codec::encode_state(after);
  }, &why);
  return r;
}

// (2) synced appends from `threads` threads, one room each; into a new
// RocksDB directory under `dir`, or (with `pg`, a postgresql:// URL) into
// new rooms of that database.
void durable_appends(const fs::path& dir, const Recorded& rec, int threads, double seconds, double fsync_per_s,
                     const std::string& pg = "") {
  const fs::path d = dir / ("appends-" + std::to_string(threads));
  fs::remove_all(d);
  std::string error;
  auto st = store::EventStore::open(pg.empty() ? d.string() : pg, store::Options{}, &error);
  if (!st) {
    std::fprintf(stderr, "%s\n", error.c_str());
    std::exit(3);
  }
  std::vector<std::vector<double>> lat(static_cast<size_t>(threads));
  std::atomic<bool> go{false};
  std::vector<std::thread> ts;
  const auto t0 = Clock::now();
  for (int t = 0; t < threads; ++t)
    ts.emplace_back([&, t] {
      while (!go) std::this_thread::yield();
      const std::string room = "a" + std::to_string(::getpid()) + "-" + std::to_string(threads) + "-" + std::to_string(t);
      const auto start = Clock::now();
      for (int64_t v = 0; ms_since(start) < seconds * 1000; ++v) {
        const auto& bytes = rec.events[static_cast<size_t>(v) % rec.events.size()];
        const auto a0 = Clock::now();
        auto r = st->append(room, v - 1, bytes, "c" + std::to_string(v));
        lat[static_cast<size_t>(t)].push_back(ms_since(a0));
        if (r.status != store::AppendStatus::Ok) {
          std::fprintf(stderr, "append: %s\n", r.error.c_str());
          std::exit(3);
        }
      }
    });
  go = true;
  for (auto& t : ts) t.join();
  const double wall_s = ms_since(t0) / 1000;
  std::vector<double> all;
  for (auto& v : lat) all.insert(all.end(), v.begin(), v.end());
  const Stats s = stats(all);
  const double per_s = static_cast<double>(s.n) / wall_s;
  std::printf("| %s | %d | %zu | %.0f | %.2f | %.2f | %.2f | %.1f |\n", pg.empty() ? "RocksDB" : "PostgreSQL", threads, s.n,
              per_s, s.p50, s.p99, s.max, per_s / fsync_per_s);
  st.reset();
  fs::remove_all(d);
}

// (2b) cold replay of a full game: the game's events stored in a room of a
// new store; then a new open of the store and a fold of every event from
// version 0 (read, checksum, decode, apply), no snapshot.
void cold_replay(const fs::path& dir, const Recorded& rec, const std::string& pg = "") {
  const fs::path d = dir / "replay";
  fs::remove_all(d);
  const std::string location = pg.empty() ? d.string() : pg;
  const std::string room = "r" + std::to_string(::getpid());
  std::string error;
  {
    store::Options o;
    o.sync = false;
    auto st = store::EventStore::open(location, o, &error);
    if (!st) {
      std::fprintf(stderr, "%s\n", error.c_str());
      std::exit(3);
    }
    for (size_t v = 0; v < rec.events.size(); ++v)
      if (st->append(room, static_cast<int64_t>(v) - 1, rec.events[v], "c" + std::to_string(v)).status !=
          store::AppendStatus::Ok) {
        std::fprintf(stderr, "replay: cannot store the game\n");
        std::exit(3);
      }
  }
  std::vector<double> ms;
  for (int round = 0; round < 5; ++round) {
    const auto t0 = Clock::now();
    store::Options ro;
    ro.read_only = true;
    ro.create_if_missing = false;
    auto st = store::EventStore::open(location, ro, &error);
    GameState s;
    int64_t n = 0;
    const bool ok = st && st->scan_events(room, 0, static_cast<int64_t>(rec.events.size()) - 1,
                                          [&](int64_t, const std::string& bytes) {
                                            codec::Event e;
                                            if (!codec::decode_event(bytes, &e, &error)) return false;
                                            if (e.action.kind() == ActionKind::CreateGame) s = create_game(e.setup, nullptr);
                                            else apply(s, e.seat, e.action, nullptr);
                                            ++n;
                                            return true;
                                          },
                                          &error);
    if (!ok || n != static_cast<int64_t>(rec.events.size())) {
      std::fprintf(stderr, "replay: %s\n", error.c_str());
      std::exit(3);
    }
    ms.push_back(ms_since(t0));
  }
  std::sort(ms.begin(), ms.end());
  std::printf("| %s | %zu | %.1f | %.1f |\n", pg.empty() ? "RocksDB" : "PostgreSQL", rec.events.size(), ms[ms.size() / 2],
              ms.front());
  fs::remove_all(d);
}

struct HttpRes {
  int status = 0;
  std::string body;
};

HttpRes http(httplib::Client& c, const std::string& method, const std::string& path, const std::string& body = "",
             const std::string& token = "") {
  httplib::Headers h;
  if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
  auto r = method == "GET" ? c.Get(path.c_str(), h) : c.Post(path.c_str(), h, body, "application/json");
  if (!r) return {0, "(no answer: " + httplib::to_string(r.error()) + ")"};
  return {r->status, r->body};
}

// (3) recovery of `rooms` stored rooms.
void recovery(const fs::path& dir, const Recorded& rec, int rooms) {
  const fs::path d = dir / "recovery";
  fs::remove_all(d);
  std::string error;
  {
    store::Options o;
    o.sync = false;  // writing the rooms is not what is measured
    auto st = store::EventStore::open(d.string(), o, &error);
    if (!st) {
      std::fprintf(stderr, "%s\n", error.c_str());
      std::exit(3);
    }
    const auto t0 = Clock::now();
    for (int i = 0; i < rooms; ++i) {
      const std::string room = "room" + std::to_string(i);
      for (size_t v = 0; v < rec.events.size(); ++v) {
        auto r = st->append(room, static_cast<int64_t>(v) - 1, rec.events[v], "c" + std::to_string(v),
                            v == 64 ? &rec.snapshot64 : nullptr);
        if (r.status != store::AppendStatus::Ok) {
          std::fprintf(stderr, "append: %s\n", r.error.c_str());
          std::exit(3);
        }
      }
    }
    std::fprintf(stderr, "  wrote %d rooms of %zu events in %.1f s\n", rooms, rec.events.size(), ms_since(t0) / 1000);
  }
  const auto t0 = Clock::now();
  auto st = store::EventStore::open(d.string(), store::Options{}, &error);
  if (!st) {
    std::fprintf(stderr, "%s\n", error.c_str());
    std::exit(3);
  }
  const double open_ms = ms_since(t0);
  server::ServerOptions so;
  so.threads = 16;
  server::Server srv(*st, so);
  const int port = srv.start("127.0.0.1", 0, &error);
  if (port < 0) {
    std::fprintf(stderr, "%s\n", error.c_str());
    std::exit(3);
  }
  {
    httplib::Client c("127.0.0.1", port);
    while (http(c, "GET", "/health").status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const double health_ms = ms_since(t0);
  std::atomic<int> next{0}, bad{0};
  std::vector<std::thread> ts;
  std::vector<std::vector<double>> lat(8);
  for (int t = 0; t < 8; ++t)
    ts.emplace_back([&, t] {
      httplib::Client c("127.0.0.1", port);
      c.set_keep_alive(true);
      c.set_tcp_nodelay(true);
      for (int i; (i = next++) < rooms;) {
        const auto a = Clock::now();
        if (http(c, "GET", "/rooms/room" + std::to_string(i) + "/view").status != 200) ++bad;
        lat[static_cast<size_t>(t)].push_back(ms_since(a));
      }
    });
  for (auto& t : ts) t.join();
  const double all_ms = ms_since(t0);
  std::vector<double> flat;
  for (auto& v : lat) flat.insert(flat.end(), v.begin(), v.end());
  const Stats s = stats(flat);
  std::printf("| %d | %.0f | %.0f | %.0f | %.2f | %.2f | %d |\n", rooms, open_ms, health_ms, all_ms, s.p50, s.p99,
              bad.load());
  srv.stop();
  st.reset();
  fs::remove_all(d);
}

// (4) HTTP round trips with `clients` concurrent clients, each in its own room.
// With `pg`, on PostgreSQL, through `servers` servers sharing the database
// (each with a store of its own, as separate processes would have; client t
// talks to server t % servers).
void round_trips(const fs::path& dir, int clients, double seconds, const std::string& pg = "", int servers = 1) {
  const fs::path d = dir / ("http-" + std::to_string(clients));
  fs::remove_all(d);
  std::string error;
  std::vector<std::unique_ptr<store::EventStore>> stores;
  std::vector<std::unique_ptr<server::Server>> srvs;
  std::vector<int> ports;
  for (int i = 0; i < servers; ++i) {
    stores.push_back(store::EventStore::open(pg.empty() ? d.string() : pg, store::Options{}, &error));
    if (!stores.back()) {
      std::fprintf(stderr, "%s\n", error.c_str());
      std::exit(3);
    }
    server::ServerOptions so;
    so.threads = std::max(16, clients * 2);
    srvs.push_back(std::make_unique<server::Server>(*stores.back(), so));
    ports.push_back(srvs.back()->start("127.0.0.1", 0, &error));
    if (ports.back() < 0) {
      std::fprintf(stderr, "%s\n", error.c_str());
      std::exit(3);
    }
  }
  auto& st = stores.front();
  auto& srv = *srvs.front();
  std::vector<std::vector<double>> posts(static_cast<size_t>(clients)), gets(static_cast<size_t>(clients));
  std::atomic<int> errors{0};
  std::mutex first_mu;
  std::string first_error;
  auto failed = [&](const std::string& what, const HttpRes& r) {
    ++errors;
    std::scoped_lock lock(first_mu);
    if (first_error.empty()) first_error = what + ": status " + std::to_string(r.status) + " " + r.body;
  };
  std::vector<std::thread> ts;
  const auto t0 = Clock::now();
  for (int t = 0; t < clients; ++t)
    ts.emplace_back([&, t] {
      httplib::Client c("127.0.0.1", ports[static_cast<size_t>(t % servers)]);
      c.set_keep_alive(true);
      c.set_tcp_nodelay(true);
      int game = 0;
      while (ms_since(t0) < seconds * 1000) {
        const std::string room = "h" + std::to_string(::getpid()) + "-" + std::to_string(servers) + "-" +
                                 std::to_string(clients) + "-" + std::to_string(t) + "-" + std::to_string(game++);
        auto cr = http(c, "POST", "/rooms",
                       R"({"factions":["atreides","harkonnen","bene_gesserit","fremen"],"seed":)" + std::to_string(t * 1000 + game) +
                           R"(,"turns":2,"room":")" + room + "\"}");
        std::string buffer, err;
        const auto* resp = server::api::parse<fb::CreateRoomResponse>(cr.body, &buffer, &err);
        if (cr.status != 201 || !resp) {
          failed("POST /rooms " + room, cr);
          return;
        }
        std::vector<std::string> tokens;
        for (const auto* seat : *resp->seats()) tokens.push_back(seat->token()->str());
        GameState s;
        if (!store::load_state(*st, room, -1, &s, &err)) {
          failed("load_state " + err, {});
          return;
        }
        while (ms_since(t0) < seconds * 1000) {
          const uint8_t w = waiting_for(s);
          if (w == 0) break;
          Seat seat = 0;
          while (!((w >> seat) & 1u)) ++seat;
          const auto acts = legal_actions(s, seat);
          const auto a0 = Clock::now();
          auto r = http(c, "POST", "/rooms/" + room + "/actions",
                        server::api::submit_request_json(static_cast<int64_t>(s.version), "c" + std::to_string(s.version), acts[0]),
                        tokens[static_cast<size_t>(seat)]);
          posts[static_cast<size_t>(t)].push_back(ms_since(a0));
          if (r.status != 200) {
            failed("POST action", r);
            return;
          }
          apply(s, seat, acts[0], nullptr);
          const auto g0 = Clock::now();
          if (auto v = http(c, "GET", "/rooms/" + room + "/view", "", tokens[static_cast<size_t>(seat)]); v.status != 200)
            failed("GET view", v);
          gets[static_cast<size_t>(t)].push_back(ms_since(g0));
        }
      }
    });
  for (auto& t : ts) t.join();
  const double wall_s = ms_since(t0) / 1000;
  std::vector<double> p, g;
  for (auto& v : posts) p.insert(p.end(), v.begin(), v.end());
  for (auto& v : gets) g.insert(g.end(), v.begin(), v.end());
  const Stats sp = stats(p), sg = stats(g);
  auto m = srv.metrics();
  if (servers > 1) {  // the submit figures of the servers together: the larger of each
    for (auto& x : srvs) {
      const auto mx = x->metrics();
      m.append_p50_ms = std::max(m.append_p50_ms, mx.append_p50_ms);
      m.append_p99_ms = std::max(m.append_p99_ms, mx.append_p99_ms);
    }
  }
  std::printf("| %s | %d | %zu | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %d |\n",
              pg.empty() ? "RocksDB" : servers > 1 ? "PostgreSQL, 2 servers" : "PostgreSQL", clients, sp.n,
              static_cast<double>(sp.n) / wall_s, sp.p50, sp.p99, m.append_p50_ms, m.append_p99_ms, sg.p50, sg.p99,
              errors.load());
  if (!first_error.empty()) std::printf("  first error: %s\n", first_error.c_str());
  for (auto& x : srvs) x->stop();
  srvs.clear();
  stores.clear();
  fs::remove_all(d);
}

}  // namespace

int main(int argc, char** argv) {
  fs::path dir = fs::temp_directory_path() / ("mentat-bench-server-" + std::to_string(::getpid()));
  double seconds = 5;
  int rooms = 10000;
  bool http_only = false;
  std::string pg;  // --pg URL: the store figures for PostgreSQL too
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--seconds" && i + 1 < argc) seconds = std::stod(argv[++i]);
    else if (a == "--rooms" && i + 1 < argc) rooms = std::stoi(argv[++i]);
    else if (a == "--http-only") http_only = true;
    else if (a == "--pg" && i + 1 < argc) pg = argv[++i];
    else if (a == "--quick") {
      seconds = 1;
      rooms = 200;
    } else {
      std::fprintf(stderr, "usage: mentat_bench_server [--dir DIR] [--seconds S] [--rooms N] [--quick] [--http-only] [--pg URL]\n");
      return 2;
    }
  }
  fs::create_directories(dir);
  std::printf("mentat_bench_server: dir %s, %.1f s per measurement, %u hardware threads, load average %.2f at start\n\n",
              dir.c_str(), seconds, std::thread::hardware_concurrency(), loadavg());

  if (http_only) goto http_part;
  {
  double fsync_per_s = 0, extend_per_s = 0;
  const Stats fe = raw_fsync(dir, seconds, false, &extend_per_s);
  std::printf("raw write+fdatasync, appending to a file: %.0f /s, p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples)\n",
              extend_per_s, fe.p50, fe.p99, fe.max, fe.n);
  const Stats f = raw_fsync(dir, seconds, true, &fsync_per_s);
  std::printf("raw write+fdatasync, preallocated file:   %.0f /s, p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples)\n",
              fsync_per_s, f.p50, f.p99, f.max, f.n);
  std::printf("(\"appends per raw fsync\" below divides by the preallocated rate)\n\n");

  const Recorded rec = record_game(70);
  std::printf("durable appends (EventStore::append, synced; one room per thread)\n\n");
  std::printf("| store | threads (rooms) | appends | appends/s | p50 ms | p99 ms | max ms | appends per raw fsync |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int threads : {1, 8, 64}) durable_appends(dir, rec, threads, seconds, fsync_per_s);
  if (!pg.empty())
    for (int threads : {1, 8, 64}) durable_appends(dir, rec, threads, seconds, fsync_per_s, pg);

  {
    const Recorded game = record_game(3000);
    std::printf("\ncold replay of one game (a new open, then every event folded from version 0, no snapshot; 5 runs)\n\n");
    std::printf("| store | events | median ms | best ms |\n| --- | --- | --- | --- |\n");
    cold_replay(dir, game);
    if (!pg.empty()) cold_replay(dir, game, pg);
  }

  std::printf("\nrecovery (rooms of %zu events, snapshot at 64; reopen + server start + every room's view once, 8 clients)\n\n",
              rec.events.size());
  std::printf("| rooms | store open ms | to /health ms | all rooms served ms | view p50 ms | view p99 ms | errors |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  recovery(dir, rec, rooms);
  }
http_part:

  std::printf("\nHTTP round trips on loopback (each client plays its own 4-seat room: POST action, then GET view)\n\n");
  std::printf("| store | clients | actions | actions/s | POST p50 ms | POST p99 ms | server submit p50 ms | server submit p99 ms | "
              "GET view p50 ms | GET view p99 ms | errors |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int clients : {1, 8, 32}) round_trips(dir, clients, seconds);
  if (!pg.empty())
    for (int servers : {1, 2})
      for (int clients : {1, 8}) round_trips(dir, clients, seconds, pg, servers);
  std::printf("\nload average at end %.2f\n", loadavg());
  fs::remove_all(dir);
  return 0;
}
