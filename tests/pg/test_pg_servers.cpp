// Several room servers on one PostgreSQL store (docs/SERVER.md, "The store"):
// each server has a store of its own (its own connections, as separate
// processes would), on one database.
#include <catch2/catch.hpp>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "pg_fixture.h"
#include "server/server.h"
#include "store/event_store.h"

using namespace mentat;

namespace {

std::unique_ptr<store::EventStore> open_pg(const std::string& location) {
  std::string err;
  auto st = store::EventStore::open(location, {}, &err);
  INFO(err);
  REQUIRE(st);
  return st;
}

struct Node {
  std::unique_ptr<store::EventStore> store;
  std::unique_ptr<server::Server> server;
  int port = -1;
  Node(const std::string& location, int bot_threads) {
    store = open_pg(location);
    server::ServerOptions o;
    o.threads = 16;
    o.keep_alive_seconds = 1;
    o.bot_threads = bot_threads;
    server = std::make_unique<server::Server>(*store, o);
    std::string err;
    port = server->start("127.0.0.1", 0, &err);
    INFO(err);
    REQUIRE(port > 0);
  }
  ~Node() { close(); }
  void close() {
    if (server) server->stop();
    server.reset();
    store.reset();
  }
  httplib::Result post(const std::string& path, const std::string& body, const std::string& token = "") {
    httplib::Client c("127.0.0.1", port);
    c.set_read_timeout(30);
    httplib::Headers h;
    if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
    return c.Post(path.c_str(), h, body, "application/json");
  }
  httplib::Result get(const std::string& path, const std::string& token = "") {
    httplib::Client c("127.0.0.1", port);
    c.set_read_timeout(30);
    httplib::Headers h;
    if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
    return c.Get(path.c_str(), h);
  }
};

// Seats 0 Atreides, 1 Harkonnen, 2 Bene Gesserit; returns the tokens.
std::vector<std::string> create_room(Node& n, const std::string& room, const std::string& extra = "") {
  auto r = n.post("/rooms", R"({"factions":["atreides","harkonnen","bene_gesserit"],"seed":4,"room":")" + room + "\"" + extra + "}");
  REQUIRE(r);
  INFO(r->body);
  REQUIRE(r->status == 201);
  std::vector<std::string> tokens;
  // The answer is JSON; the tokens are the 64-hex-digit strings after "token".
  for (size_t p = r->body.find("\"token\""); p != std::string::npos; p = r->body.find("\"token\"", p + 1)) {
    const auto q = r->body.find('"', r->body.find(':', p) + 1);
    tokens.push_back(r->body.substr(q + 1, 64));
  }
  REQUIRE(tokens.size() == 3);
  return tokens;
}

// The integer after "key": in a JSON answer (-1 when absent).
int64_t json_int(const std::string& body, const std::string& key) {
  const auto p = body.find("\"" + key + "\"");
  if (p == std::string::npos) return -1;
  return std::stoll(body.substr(body.find(':', p) + 1));
}

std::string predict(int64_t expect, const std::string& id, const std::string& faction) {
  return "{\"expect\":" + std::to_string(expect) + ",\"id\":\"" + id +
         R"(","action_type":"Predict","action":{"faction":")" + faction + R"(","turn":3}})";
}

}  // namespace

TEST_CASE("postgresql servers: a racing pair of actions from two servers gives one winner and one 409",
          "[pg][server]") {
  FreshStore db;
  Node a(db.location, 0), b(db.location, 0);
  for (int round = 0; round < 8; ++round) {
    const std::string room = "race" + std::to_string(round);
    auto tokens = create_room(a, room);
    std::atomic<int> ok{0}, conflict{0}, other{0};
    auto act = [&](Node& n, const std::string& id, const std::string& faction) {
      auto r = n.post("/rooms/" + room + "/actions", predict(0, id, faction), tokens[2]);
      if (r && r->status == 200) ++ok;
      else if (r && r->status == 409) ++conflict;
      else ++other;
    };
    std::thread t1(act, std::ref(a), "a" + std::to_string(round), "Harkonnen");
    std::thread t2(act, std::ref(b), "b" + std::to_string(round), "Atreides");
    t1.join();
    t2.join();
    CHECK(ok == 1);
    CHECK(conflict == 1);
    CHECK(other == 0);
    std::string err;
    CHECK(a.store->meta(room, &err)->head == 1);
    CHECK(b.store->meta(room, &err)->head == 1);
  }
}

TEST_CASE("postgresql servers: a long-poll on one server wakes when another appends", "[pg][server]") {
  FreshStore db;
  Node a(db.location, 0), b(db.location, 0);
  auto tokens = create_room(a, "poll");
  // b follows the room (its slot exists) before a appends.
  REQUIRE(b.get("/rooms/poll/events?after=-1", tokens[0])->status == 200);
  std::atomic<int> status{0};
  std::string body;
  std::chrono::duration<double> waited{};
  std::thread poll([&] {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = b.get("/rooms/poll/events?after=0&wait=20", tokens[0]);
    waited = std::chrono::steady_clock::now() - t0;
    if (r) {
      status = r->status;
      body = r->body;
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto r = a.post("/rooms/poll/actions", predict(0, "p1", "Harkonnen"), tokens[2]);
  REQUIRE(r);
  REQUIRE(r->status == 200);
  poll.join();
  CHECK(status == 200);
  CHECK(json_int(body, "head") == 1);
  // Woken by the notification, not by the end of its 20 s wait.
  CHECK(waited.count() < 10);
}

TEST_CASE("postgresql store: one holder of a room's lease at a time, taken over when it goes", "[pg][store]") {
  FreshStore db;
  auto one = open_pg(db.location);
  auto two = open_pg(db.location);
  CHECK(one->hold_room_lease("r"));
  CHECK(one->hold_room_lease("r"));
  CHECK_FALSE(two->hold_room_lease("r"));
  CHECK(two->hold_room_lease("other"));
  CHECK_FALSE(one->hold_room_lease("other"));
  one.reset();  // its connections close: PostgreSQL releases its leases
  bool taken = false;
  for (int i = 0; i < 50 && !taken; ++i) {
    taken = two->hold_room_lease("r");
    if (!taken) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(taken);
}

TEST_CASE("postgresql store: appends of another store are told to watchers", "[pg][store]") {
  FreshStore db;
  auto one = open_pg(db.location);
  auto two = open_pg(db.location);
  std::mutex mu;
  std::vector<std::pair<std::string, int64_t>> seen;
  two->watch_appends([&](const std::string& room, int64_t v) {
    std::scoped_lock lock(mu);
    seen.emplace_back(room, v);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the listener connects
  REQUIRE(one->append("w", -1, "e0", "").status == store::AppendStatus::Ok);
  REQUIRE(one->append("w", 0, "e1", "").status == store::AppendStatus::Ok);
  for (int i = 0; i < 50; ++i) {
    {
      std::scoped_lock lock(mu);
      if (seen.size() >= 2) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  two->watch_appends(nullptr);
  std::scoped_lock lock(mu);
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == std::make_pair(std::string("w"), int64_t{0}));
  CHECK(seen[1] == std::make_pair(std::string("w"), int64_t{1}));
}

TEST_CASE("postgresql servers: one server plays a room's bots, the other takes over when it stops", "[pg][server]") {
  FreshStore db;
  std::unique_ptr<Node> nodes[2] = {std::make_unique<Node>(db.location, 1), std::make_unique<Node>(db.location, 1)};
  // Every seat a bot: the game plays itself; only its lease holder may move
  // (either server may take it first: both look at the room).
  create_room(*nodes[0], "bots", R"(,"bots":[0,1,2],"turns":10,"bot_seed":5)");
  nodes[1]->get("/rooms/bots/view");  // the other follows it too
  std::string err;
  auto head = [&](Node& n) { return n.store->meta("bots", &err)->head; };
  for (int i = 0; i < 100 && head(*nodes[1]) < 20; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE(head(*nodes[1]) >= 20);
  const auto m0 = nodes[0]->server->metrics(), m1 = nodes[1]->server->metrics();
  INFO("bot actions: " << m0.bot_actions << " and " << m1.bot_actions);
  REQUIRE((m0.bot_actions > 0) != (m1.bot_actions > 0));
  CHECK(m0.conflicts + m1.conflicts == 0);
  // The holder goes (its connections close, its lease with them): the other carries on.
  const int holder = m0.bot_actions > 0 ? 0 : 1;
  Node& other = *nodes[1 - holder];
  nodes[holder]->close();
  const int64_t at = head(other);
  for (int i = 0; i < 100 && head(other) < at + 10; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(head(other) >= at + 10);
  CHECK(other.server->metrics().bot_actions > 0);
}
