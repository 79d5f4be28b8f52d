// Crash test of `mentat serve`: the built binary (MENTAT_BINARY) runs as a
// child process on a loopback port; client threads play several rooms
// concurrently and log every acknowledged (version, client id); the server
// is killed with SIGKILL at random moments and restarted. Afterwards every
// acknowledged action must be stored exactly once, no room's stream may have
// a hole, and every room must verify. Bounded: about 15 s on 2 cores.
#include <catch2/catch.hpp>
#include <httplib.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/engine.h"
#include "core/rng.h"
#include "events/codec.h"
#include "replay/fold.h"
#include "server/api.h"
#include "store/event_store.h"

extern char** environ;

namespace fs = std::filesystem;
using namespace mentat;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

class ServerProcess {
 public:
  ServerProcess(fs::path dir) : dir_(std::move(dir)) {}
  ~ServerProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  // Starts the binary and waits until /health answers; returns the port.
  int start() {
    const std::string port_file = (dir_.parent_path() / (dir_.filename().string() + ".port")).string();
    const std::string log = (dir_.parent_path() / (dir_.filename().string() + ".log")).string();
    fs::remove(port_file);
    const std::string data = dir_.string();
    std::vector<std::string> args = {MENTAT_BINARY, "serve", "--data", data, "--listen", "127.0.0.1:0",
                                     "--port-file", port_file, "--threads", "16"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    const int rc = posix_spawn(&pid_, MENTAT_BINARY, &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    REQUIRE(rc == 0);
    const auto t0 = Clock::now();
    port_ = -1;
    while (seconds_since(t0) < 20) {
      std::ifstream f(port_file);
      if (f >> port_ && port_ > 0) break;
      port_ = -1;
      int status;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        FAIL("mentat serve exited early; see " << log);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    REQUIRE(port_ > 0);
    while (seconds_since(t0) < 20) {
      httplib::Client c("127.0.0.1", port_);
      if (auto r = c.Get("/health"); r && r->status == 200) return port_;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    FAIL("mentat serve does not answer /health");
    return -1;
  }
  void kill9() {
    REQUIRE(pid_ > 0);
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  int terminate() {
    REQUIRE(pid_ > 0);
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  fs::path dir_;
  pid_t pid_ = -1;
  int port_ = -1;
};

struct Ack {
  int64_t version;
  Seat seat;
  std::string id;
  bool duplicate;
};

struct ClientRoom {
  std::string room;
  GameSetup setup;
  std::vector<std::string> tokens;
  std::vector<Ack> acks;
  int retries = 0;        // requests that got no answer (server down) and were sent again
  std::string failure;    // an unexpected answer stops this client
};

// Plays random legal actions (chosen on a local mirror of the game) until
// `stop`; resends the same request until it is answered.
void play(ClientRoom& r, std::atomic<int>& port, std::atomic<bool>& stop, uint64_t seed) {
  GameState mirror = create_game(r.setup, nullptr);
  Rng rng = Rng::from_seed(seed);
  while (!stop) {
    const uint8_t w = waiting_for(mirror);
    if (w == 0) return;
    std::vector<Seat> seats;
    for (Seat s = 0; s < mirror.num_seats; ++s)
      if ((w >> s) & 1u) seats.push_back(s);
    const Seat seat = seats[rng.below(static_cast<uint32_t>(seats.size()))];
    const auto acts = legal_actions(mirror, seat);
    if (acts.empty()) {
      r.failure = "no legal action at version " + std::to_string(mirror.version);
      return;
    }
    const Action a = acts[rng.below(static_cast<uint32_t>(acts.size()))];
    const int64_t expect = static_cast<int64_t>(mirror.version);
    const std::string id = "c" + std::to_string(expect + 1);
    const std::string body = server::api::submit_request_json(expect, id, a);
    const httplib::Headers headers = {{"Authorization", "Bearer " + r.tokens[static_cast<size_t>(seat)]}};
    while (true) {
      httplib::Client c("127.0.0.1", port.load());
      c.set_connection_timeout(1);
      c.set_read_timeout(10);
      auto res = c.Post(("/rooms/" + r.room + "/actions").c_str(), headers, body, "application/json");
      if (!res) {
        ++r.retries;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      if (res->status != 200) {
        r.failure = "HTTP " + std::to_string(res->status) + " at version " + std::to_string(expect) + ": " + res->body;
        return;
      }
      std::string buffer, error;
      const auto* j = server::api::parse<fb::SubmitResponse>(res->body, &buffer, &error);
      if (!j) {
        r.failure = "unreadable answer at version " + std::to_string(expect) + ": " + error;
        return;
      }
      const int64_t v = j->version();
      if (v != expect + 1) {
        r.failure = "acknowledged version " + std::to_string(v) + ", expected " + std::to_string(expect + 1);
        return;
      }
      r.acks.push_back({v, seat, id, j->duplicate()});
      break;
    }
    apply(mirror, seat, a, nullptr);
  }
}

}  // namespace

TEST_CASE("crash: kill -9 the server at random moments, nothing acknowledged is lost or doubled", "[crash]") {
  const auto t_start = Clock::now();
  const fs::path dir = fs::temp_directory_path() / ("mentat-crash-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  std::mt19937_64 timing(std::random_device{}());
  const int kRooms = 4, kCrashes = 5;

  ServerProcess server(dir);
  std::atomic<int> port{server.start()};

  // Rooms, created through the server.
  std::vector<ClientRoom> rooms(kRooms);
  const std::vector<std::string> factions = {"atreides", "harkonnen", "emperor", "fremen", "spacing_guild", "bene_gesserit"};
  for (int i = 0; i < kRooms; ++i) {
    auto& r = rooms[static_cast<size_t>(i)];
    r.room = "crash" + std::to_string(i);
    r.setup.seed = 1000 + static_cast<uint64_t>(i);
    r.setup.advanced = i % 2 == 1;
    std::string list;
    for (int f = 0; f < 3 + i % 4; ++f) {
      Faction fac;
      REQUIRE(parse_faction(factions[static_cast<size_t>(f)], &fac));
      r.setup.factions.push_back(fac);
      list += (f ? ",\"" : "\"") + factions[static_cast<size_t>(f)] + "\"";
    }
    httplib::Client c("127.0.0.1", port.load());
    auto res = c.Post("/rooms",
                      "{\"room\":\"" + r.room + "\",\"seed\":" + std::to_string(r.setup.seed) + ",\"rules\":\"" +
                          (r.setup.advanced ? "advanced" : "basic") + "\",\"factions\":[" + list + "]}",
                      "application/json");
    REQUIRE(res);
    INFO(res->body);
    REQUIRE(res->status == 201);
    std::string buffer, error;
    const auto* j = server::api::parse<fb::CreateRoomResponse>(res->body, &buffer, &error);
    INFO(error);
    REQUIRE(j);
    for (const auto* seat : *j->seats()) r.tokens.push_back(seat->token()->str());
  }

  // A room of bots only: the server plays it by itself across the crashes.
  {
    httplib::Client c("127.0.0.1", port.load());
    auto res = c.Post("/rooms",
                      R"({"room":"crashbots","seed":5,"factions":["atreides","harkonnen","fremen","emperor","spacing_guild",)"
                      R"("bene_gesserit"],"bots":[0,1,2,3,4,5],"bot_profiles":["easy","medium","hard","easy","medium","hard"]})",
                      "application/json");
    REQUIRE(res);
    REQUIRE(res->status == 201);
  }

  std::atomic<bool> stop{false};
  std::vector<std::thread> clients;
  for (int i = 0; i < kRooms; ++i)
    clients.emplace_back([&, i] { play(rooms[static_cast<size_t>(i)], port, stop, 77 + static_cast<uint64_t>(i)); });

  std::vector<double> restart_ms;
  for (int k = 0; k < kCrashes; ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250 + timing() % 750));
    server.kill9();
    const auto t0 = Clock::now();
    port = server.start();
    restart_ms.push_back(seconds_since(t0) * 1000);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  stop = true;
  for (auto& t : clients) t.join();
  CHECK(server.terminate() == 0);

  // `mentat recover` on the store.
  const auto t_rec = Clock::now();
  // (--no-projection: the full check, views included, runs in-process below.)
  const std::string cmd = std::string(MENTAT_BINARY) + " recover --no-projection " + dir.string() + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string recover_out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) recover_out.append(buf.data(), n);
  const int recover_status = pclose(p);
  const double recover_ms = seconds_since(t_rec) * 1000;
  INFO(recover_out);
  CHECK(WEXITSTATUS(recover_status) == 0);

  // Check the store against the clients' logs.
  std::string error;
  auto st = store::EventStore::open(dir.string(), store::Options{}, &error);
  REQUIRE(st);
  int64_t acknowledged = 0, duplicates_answered = 0, lost = 0, duplicated = 0, unacknowledged = 0, holes = 0, retries = 0;
  for (auto& r : rooms) {
    INFO("room " << r.room);
    CHECK(r.failure.empty());
    if (!r.failure.empty()) UNSCOPED_INFO(r.failure);
    retries += r.retries;
    auto m = st->meta(r.room, &error);
    REQUIRE(m);
    std::map<int64_t, std::string> stored;  // version -> client action id
    std::map<std::string, int> id_count;
    int64_t expect = 0;
    bool scanned = st->scan_events(r.room, 0, m->head, [&](int64_t v, const std::string& bytes) {
      if (v != expect) ++holes;
      expect = v + 1;
      codec::Event e;
      if (!codec::decode_event(bytes, &e, &error)) return false;
      stored[v] = e.client_action_id;
      ++id_count[e.client_action_id];
      return true;
    }, &error);
    INFO(error);
    CHECK(scanned);
    if (expect != m->head + 1) ++holes;
    for (const auto& [id, c] : id_count)
      if (c > 1) duplicated += c - 1;
    std::set<int64_t> acked_versions;
    for (const auto& a : r.acks) {
      ++acknowledged;
      if (a.duplicate) ++duplicates_answered;
      auto it = stored.find(a.version);
      if (it == stored.end() || it->second != "s" + std::to_string(a.seat) + ":" + a.id) ++lost;
      if (!acked_versions.insert(a.version).second) ++duplicated;
    }
    for (const auto& [v, id] : stored)
      if (v > 0 && !acked_versions.count(v)) ++unacknowledged;
    auto rep = replay::verify_room(*st, r.room);
    INFO(rep.check << ": " << rep.detail);
    CHECK(rep.ok);
    CHECK(rep.events == m->head + 1);
  }
  // The bots' room: one move per version, each under its deterministic id
  // (a bot move is never stored twice), and it verifies.
  int64_t bot_head = -1, bot_bad_ids = 0;
  {
    auto m = st->meta("crashbots", &error);
    REQUIRE(m);
    bot_head = m->head;
    CHECK(st->scan_events("crashbots", 1, m->head, [&](int64_t v, const std::string& bytes) {
      codec::Event e;
      if (!codec::decode_event(bytes, &e, &error)) return false;
      if (e.client_action_id != "s" + std::to_string(e.seat) + ":bot-" + std::to_string(v - 1)) ++bot_bad_ids;
      return true;
    }, &error));
    CHECK(bot_head > 100);
    CHECK(bot_bad_ids == 0);
    auto rep = replay::verify_room(*st, "crashbots");
    INFO(rep.check << ": " << rep.detail);
    CHECK(rep.ok);
  }
  double restart_max = 0, restart_sum = 0;
  for (double ms : restart_ms) {
    restart_max = std::max(restart_max, ms);
    restart_sum += ms;
  }
  std::printf("crash test: %d rooms, %d crashes (kill -9), %lld acknowledged (%lld answered as duplicates after a lost reply, "
              "%lld resent requests), lost=%lld, duplicated=%lld, holes=%lld, stored-unacknowledged=%lld; restart to "
              "/health: mean %.0f ms, max %.0f ms; mentat recover: %.0f ms; bots' room: %lld moves; total %.1f s\n",
              kRooms, kCrashes, static_cast<long long>(acknowledged), static_cast<long long>(duplicates_answered),
              static_cast<long long>(retries), static_cast<long long>(lost), static_cast<long long>(duplicated),
              static_cast<long long>(holes), static_cast<long long>(unacknowledged),
              restart_ms.empty() ? 0.0 : restart_sum / static_cast<double>(restart_ms.size()), restart_max, recover_ms,
              static_cast<long long>(bot_head), seconds_since(t_start));
  std::printf("%s", recover_out.c_str());
  CHECK(restart_ms.size() == static_cast<size_t>(kCrashes));
  CHECK(acknowledged >= 40);
  CHECK(lost == 0);
  CHECK(duplicated == 0);
  CHECK(holes == 0);
  CHECK(unacknowledged == 0);
  CHECK(seconds_since(t_start) < 60);
  st.reset();
  fs::remove_all(dir);
  for (const char* ext : {".port", ".log"}) fs::remove(dir.parent_path() / (dir.filename().string() + ext));
}
