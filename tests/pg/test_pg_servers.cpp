// Several room servers on one PostgreSQL store (docs/SERVER.md, "The store"):
// each server has a store of its own (its own connections, as separate
// processes would), on one database.
#include <catch2/catch.hpp>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "pg_fixture.h"
#include "replay/fold.h"
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

constexpr const char* kAdmin = "admin-token-of-the-pg-tests";

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
    o.admin_token = kAdmin;
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

// The string value of "key" in a JSON answer ("" when absent).
std::string json_str(const std::string& body, const std::string& key) {
  const auto p = body.find("\"" + key + "\"");
  if (p == std::string::npos) return "";
  const auto q = body.find('"', body.find(':', p) + 1);
  return body.substr(q + 1, body.find('"', q + 1) - q - 1);
}

// Polls `ok` every 50 ms for up to `seconds`; true once it holds.
template <class F>
bool within(double seconds, F ok) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    if (ok()) return true;
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// A long-poll GET on its own thread: its answer and how long it took.
struct LongPoll {
  int status = -1;
  std::string body;
  std::chrono::duration<double> waited{};
  std::thread thread;
  LongPoll(Node& n, const std::string& path, const std::string& token) {
    thread = std::thread([this, &n, path, token] {
      const auto t0 = std::chrono::steady_clock::now();
      auto r = n.get(path, token);
      waited = std::chrono::steady_clock::now() - t0;
      if (r) {
        status = r->status;
        body = r->body;
      }
    });
  }
  void join() { thread.join(); }
  ~LongPoll() {
    if (thread.joinable()) thread.join();
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

// Two servers without bots on a new database, and a room created through
// `a` that `b` follows (it has read the room, tokens included).
struct TwoServers {
  FreshStore db;
  Node a{db.location, 0}, b{db.location, 0};
  std::vector<std::string> tokens;
  explicit TwoServers(const std::string& room) {
    tokens = create_room(a, room);
    REQUIRE(b.get("/rooms/" + room + "/events?after=-1", tokens[0])->status == 200);
  }
};

// Bene Gesserit's prediction at version 0 through `n`, then `poll` (waiting
// after version 0 on another server) must answer it well before its 20 s.
void act_and_check_woken(Node& n, const std::string& room, const std::string& bg_token, LongPoll& poll) {
  auto r = n.post("/rooms/" + room + "/actions", predict(0, "p1", "Harkonnen"), bg_token);
  REQUIRE(r);
  REQUIRE(r->status == 200);
  poll.join();
  CHECK(poll.status == 200);
  CHECK(json_int(poll.body, "head") == 1);
  CHECK(poll.waited.count() < 10);
}

// Puts room loud's version 1 into room quiet (created alike, at version 0)
// by hand: committed, and no NOTIFY, as if its server died in between.
void store_version_1_unannounced(const std::string& location) {
  pqxx::connection c(location);
  pqxx::work w(c);
  w.exec("INSERT INTO events (room, version, client_action_id, value) "
         "SELECT 'quiet', 1, client_action_id, value FROM events WHERE room = 'loud' AND version = 1");
  REQUIRE(w.exec("UPDATE rooms SET head = 1 WHERE room = 'quiet' AND head = 0").affected_rows() == 1);
  w.commit();
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
  TwoServers t("poll");  // b follows the room (its slot exists) before a appends
  auto &a = t.a, &b = t.b;
  const auto& tokens = t.tokens;
  LongPoll poll(b, "/rooms/poll/events?after=0&wait=20", tokens[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // Woken by the notification, not by the end of its 20 s wait.
  act_and_check_woken(a, "poll", tokens[2], poll);
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
  store::EventStore::Watcher w;
  w.appended = [&](const std::string& room, int64_t v) {
    std::scoped_lock lock(mu);
    seen.emplace_back(room, v);
  };
  two->watch(std::move(w));
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
  two->watch({});
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

// ---- secrets changed through one server, seen by the others ------------------

TEST_CASE("postgresql servers: a seat token reissued on one server is refused on the other, the new one accepted",
          "[pg][server][secrets]") {
  TwoServers t("tok");  // b has read the room's tokens (and would keep them)
  auto &a = t.a, &b = t.b;
  const auto& tokens = t.tokens;
  auto r = a.post("/admin/rooms/tok/token", R"({"seat":2})", kAdmin);
  REQUIRE(r);
  INFO(r->body);
  REQUIRE(r->status == 200);
  const std::string fresh = json_str(r->body, "token");
  REQUIRE(fresh.size() == 64);
  REQUIRE(fresh != tokens[2]);
  auto status = [&](const std::string& token) {
    auto g = b.get("/rooms/tok/events?after=-1", token);
    return g ? g->status : -1;
  };
  CHECK(within(5, [&] { return status(tokens[2]) == 401; }));
  CHECK(status(fresh) == 200);
  // The other seats' tokens still work there.
  CHECK(status(tokens[0]) == 200);
  // And acting through b with the new token is that seat's.
  r = b.post("/rooms/tok/actions", predict(0, "t1", "Harkonnen"), fresh);
  REQUIRE(r);
  CHECK(r->status == 200);
}

TEST_CASE("postgresql servers: a room deleted on one server is 404 on the other, and its long-polls there answer",
          "[pg][server][secrets]") {
  TwoServers t("del");
  auto &a = t.a, &b = t.b;
  const auto& tokens = t.tokens;
  LongPoll poll(b, "/rooms/del/events?after=0&wait=20", tokens[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto r = a.post("/admin/rooms/del/delete", R"({"deleted":true})", kAdmin);
  REQUIRE(r);
  INFO(r->body);
  REQUIRE(r->status == 200);
  CHECK(within(5, [&] { return b.get("/rooms/del/view")->status == 404; }));
  CHECK(b.get("/rooms/del/events?after=-1")->body.find("\"deleted\"") != std::string::npos);
  poll.join();
  CHECK(poll.status == 404);
  CHECK(poll.waited.count() < 10);
  // Brought back on a: readable on b again.
  r = a.post("/admin/rooms/del/delete", R"({"deleted":false})", kAdmin);
  REQUIRE(r);
  REQUIRE(r->status == 200);
  CHECK(within(5, [&] { return b.get("/rooms/del/view")->status == 200; }));
}

TEST_CASE("postgresql servers: seats made bots through one server are played by exactly one server",
          "[pg][server][secrets]") {
  FreshStore db;
  Node a(db.location, 1), b(db.location, 1);
  // b creates the room with one bot seat (Bene Gesserit, who predicts
  // first): b plays it, and holds the room's lease from then on.
  create_room(b, "bs", R"(,"bots":[2],"turns":10,"bot_seed":5)");
  REQUIRE(within(10, [&] { return b.server->metrics().bot_actions > 0; }));
  std::string err;
  auto head = [&] { return a.store->meta("bs", &err)->head; };
  // The game then waits for the human seats.
  int64_t before = -1;
  REQUIRE(within(10, [&] {
    const int64_t h = head();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const bool still = h == head();
    before = h;
    return still;
  }));
  // a makes the two human seats bots: the lease holder (b) must play them.
  for (int seat : {0, 1}) {
    auto r = a.post("/admin/rooms/bs/bot", "{\"seat\":" + std::to_string(seat) + R"(,"profile":"easy"})", kAdmin);
    REQUIRE(r);
    INFO(r->body);
    REQUIRE(r->status == 200);
  }
  CHECK(within(20, [&] { return head() >= before + 20; }));
  const auto ma = a.server->metrics(), mb = b.server->metrics();
  INFO("bot actions: a " << ma.bot_actions << ", b " << mb.bot_actions);
  CHECK(ma.bot_actions == 0);
  CHECK(mb.bot_actions > 0);
  CHECK(ma.conflicts + mb.conflicts == 0);
}

TEST_CASE("postgresql servers: a long-poll wakes for an append made while its server's listening connection was down",
          "[pg][server]") {
  TwoServers t("relisten");
  auto &a = t.a, &b = t.b;
  const auto& tokens = t.tokens;
  pqxx::connection admin(t.db.location);
  auto listeners = [&] {
    pqxx::nontransaction t(admin);
    return t.exec("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND "
                  "application_name = 'mentat listen'")[0][0]
        .as<int>();
  };
  REQUIRE(within(10, [&] { return listeners() == 2; }));
  LongPoll poll(b, "/rooms/relisten/events?after=0&wait=20", tokens[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  {
    // Both servers' listening connections end (waiting until they have).
    pqxx::nontransaction t(admin);
    const auto ended = t.exec("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE "
                              "datname = current_database() AND application_name = 'mentat listen'");
    REQUIRE(ended.size() == 2);
  }
  // The append's notification goes to nobody.
  // Woken once b listened again and read the room's head, not by the end of its wait.
  act_and_check_woken(a, "relisten", tokens[2], poll);
  // And b listens again: a later append wakes it as before.
  CHECK(within(10, [&] { return listeners() == 2; }));
}

TEST_CASE("postgresql servers: a long-poll wakes within seconds for an append nobody was told of", "[pg][server]") {
  // As if the server that appended died between its commit and its
  // notification: the event is put in by hand (a copy of another room's
  // version 1, both rooms created alike), with no NOTIFY.
  TwoServers t("quiet");
  const auto loud = create_room(t.a, "loud");
  auto r = t.a.post("/rooms/loud/actions", predict(0, "p1", "Harkonnen"), loud[2]);
  REQUIRE(r);
  REQUIRE(r->status == 200);
  LongPoll poll(t.b, "/rooms/quiet/events?after=0&wait=20", t.tokens[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  store_version_1_unannounced(t.db.location);
  poll.join();
  CHECK(poll.status == 200);
  CHECK(json_int(poll.body, "head") == 1);
  CHECK(poll.waited.count() < 10);  // the server's recheck (5 s), not the end of its 20 s wait
}

TEST_CASE("postgresql servers: bots move within seconds after a human's append nobody was told of", "[pg][server]") {
  // As above: two rooms created alike (bots on seats 0 and 1, played by b),
  // the human Bene Gesserit's prediction stored in one through a, and put
  // into the other by hand, with no NOTIFY.
  FreshStore db;
  Node a(db.location, 0), b(db.location, 1);
  const std::string bots = R"(,"bots":[0,1],"turns":10,"bot_seed":5)";
  const auto loud = create_room(b, "loud", bots);
  create_room(b, "quiet", bots);
  std::string err;
  auto head = [&](const char* room) { return a.store->meta(room, &err)->head; };
  auto r = a.post("/rooms/loud/actions", predict(0, "p1", "Harkonnen"), loud[2]);
  REQUIRE(r);
  REQUIRE(r->status == 200);
  REQUIRE(within(10, [&] { return head("loud") > 1; }));  // the bots answer the notified append
  store_version_1_unannounced(db.location);
  CHECK(within(20, [&] { return head("quiet") > 1; }));  // b's recheck of its bot rooms (10 s)
  CHECK(replay::verify_room(*a.store, "quiet").ok);
}
