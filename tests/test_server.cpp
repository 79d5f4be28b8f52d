// The room server (server/server.h) in-process on an ephemeral loopback
// port, driven over HTTP with cpp-httplib's client.
#include <catch2/catch.hpp>
#include <httplib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/engine.h"
#include "events/codec.h"
#include "server/json.h"
#include "server/server.h"
#include "store/room.h"
#include "support/mini_json.h"
#include "support/random_play.h"

namespace fs = std::filesystem;
using namespace mentat;

namespace {

struct Res {
  int status = 0;  // 0: no answer
  std::string body;
  mini_json::Value json() const { return mini_json::parse(body); }
};

class Harness {
 public:
  Harness() {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() / ("mentat-server-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir_);
    open();
  }
  ~Harness() {
    close();
    fs::remove_all(dir_);
  }
  void open() {
    std::string error;
    store_ = store::EventStore::open(dir_.string(), store::Options{}, &error);
    REQUIRE(store_);
    server::ServerOptions o;
    o.threads = 16;
    o.keep_alive_seconds = 1;
    server_ = std::make_unique<server::Server>(*store_, o);
    port_ = server_->start("127.0.0.1", 0, &error);
    REQUIRE(port_ > 0);
  }
  void close() {
    if (server_) server_->stop();
    server_.reset();
    store_.reset();
  }
  store::EventStore& store() { return *store_; }
  server::Server& server() { return *server_; }

  Res request(const std::string& method, const std::string& path, const std::string& body = "",
              const std::string& token = "") {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(20);
    httplib::Headers h;
    if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
    httplib::Result r = method == "GET" ? c.Get(path.c_str(), h) : c.Post(path.c_str(), h, body, "application/json");
    if (!r) return {};
    return {r->status, r->body};
  }
  Res get(const std::string& path, const std::string& token = "") { return request("GET", path, "", token); }
  Res post(const std::string& path, const std::string& body, const std::string& token = "") {
    return request("POST", path, body, token);
  }

 private:
  fs::path dir_;
  std::unique_ptr<store::EventStore> store_;
  std::unique_ptr<server::Server> server_;
  int port_ = -1;
};

// Seats: 0 Atreides, 1 Harkonnen, 2 Bene Gesserit.
struct Room {
  std::string id;
  std::vector<std::string> tokens;
};

Room make_room(Harness& h, const std::string& id, const std::string& extra = "") {
  auto r = h.post("/rooms", R"({"factions":["atreides","harkonnen","bene_gesserit"],"seed":4,"room":")" + id + "\"" + extra + "}");
  INFO(r.body);
  REQUIRE(r.status == 201);
  auto j = r.json();
  Room room{j["room"].str(), {}};
  for (size_t i = 0; i < j["seats"].size(); ++i) room.tokens.push_back(j["seats"][i]["token"].str());
  return room;
}

std::string act_body(int64_t expect, const std::string& id, const std::string& action) {
  return "{\"expect\":" + std::to_string(expect) + ",\"id\":\"" + id + "\",\"action\":" + action + "}";
}

const std::string kPredict = R"({"action_type":"Predict","action":{"faction":"Harkonnen","turn":3}})";
const std::string kPredictOther = R"({"action_type":"Predict","action":{"faction":"Atreides","turn":5}})";

int64_t head_of(Harness& h, const std::string& room) {
  std::string error;
  auto m = h.store().meta(room, &error);
  REQUIRE(m);
  return m->head;
}

const mini_json::Value& faction_entry(const mini_json::Value& view, const std::string& key) {
  const auto& fs_ = view["factions"];
  for (size_t i = 0; i < fs_.size(); ++i)
    if (fs_[i]["faction"].str() == key) return fs_[i];
  FAIL("no faction " << key << " in the view");
  return fs_[0];
}

size_t list_size(const mini_json::Value& entry, const char* key) {
  const auto* v = entry.find(key);
  return v && v->is_array() ? v->size() : 0;
}

}  // namespace

TEST_CASE("server: create a room, act with the right token, and every rejection", "[server]") {
  Harness h;
  auto created = h.post("/rooms", R"({"factions":["atreides","harkonnen","bene_gesserit"],"seed":4,"room":"s1","bots":[1],"turns":5})");
  REQUIRE(created.status == 201);
  auto cj = created.json();
  CHECK(cj["room"].str() == "s1");
  REQUIRE(cj["seats"].size() == 3);
  std::set<std::string> tokens;
  for (size_t i = 0; i < 3; ++i) {
    CHECK(cj["seats"][i]["seat"].as_int() == static_cast<int>(i));
    CHECK(cj["seats"][i]["token"].str().size() == 64);
    CHECK(cj["seats"][i]["bot"].as_bool() == (i == 1));
    tokens.insert(cj["seats"][i]["token"].str());
  }
  CHECK(tokens.size() == 3);
  CHECK(cj["seats"][2]["faction"].str() == "bene_gesserit");
  CHECK(created.body.find("seed") == std::string::npos);
  const std::string atreides = cj["seats"][0]["token"].str();
  const std::string bg = cj["seats"][2]["token"].str();

  SECTION("room creation errors") {
    CHECK(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"room":"s1"})").status == 409);
    CHECK(h.post("/rooms", R"({"factions":["atreides","sardaukar"]})").status == 400);
    CHECK(h.post("/rooms", R"({"factions":["atreides","atreides"]})").status == 400);
    CHECK(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"bots":[2]})").status == 400);
    CHECK(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"rules":"expert"})").status == 400);
    CHECK(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"rulings":{"no_such_ruling":"x"}})").status == 400);
    CHECK(h.post("/rooms", "factions=atreides").status == 400);
    auto list = h.get("/rooms").json();
    REQUIRE(list["rooms"].size() == 1);
    CHECK(list["rooms"][0]["room"].str() == "s1");
    CHECK(list["rooms"][0]["head"].as_int() == 0);
  }

  SECTION("unknown room: 404") {
    auto r = h.post("/rooms/nope/actions", act_body(0, "x", kPredict), bg);
    CHECK(r.status == 404);
    CHECK(r.json()["code"].str() == "unknown_room");
    CHECK(h.get("/rooms/nope/view").status == 404);
    CHECK(h.get("/rooms/nope/events").status == 404);
    CHECK(h.get("/no/such/endpoint").status == 404);
  }

  SECTION("bad or missing token: 401, nothing stored") {
    auto r = h.post("/rooms/s1/actions", act_body(0, "x", kPredict), "not-a-token");
    CHECK(r.status == 401);
    CHECK(r.json()["code"].str() == "bad_token");
    CHECK(h.post("/rooms/s1/actions", act_body(0, "x", kPredict)).status == 401);
    // A seat token of another room is not a token of this one.
    Room other = make_room(h, "s2");
    CHECK(h.post("/rooms/s1/actions", act_body(0, "x", kPredict), other.tokens[2]).status == 401);
    CHECK(h.get("/rooms/s1/view", "not-a-token").status == 401);
    CHECK(head_of(h, "s1") == 0);
  }

  SECTION("malformed body: 400, nothing stored") {
    for (const std::string& body :
         {std::string("{nope"), std::string("[]"), std::string(R"({"id":"x","action":)") + kPredict + "}",
          std::string(R"({"expect":"zero","id":"x","action":)") + kPredict + "}",
          std::string(R"({"expect":0,"action":)") + kPredict + "}", std::string(R"({"expect":0,"id":"x"})"),
          act_body(0, "x", R"({"action_type":"Predict","action":{"turn":"soon"}})"),
          act_body(0, "x", R"({"action_type":"NoSuchAction","action":{}})"), act_body(0, "x", kPredict) + "trailing"}) {
      auto r = h.post("/rooms/s1/actions", body, bg);
      INFO(body << " -> " << r.body);
      CHECK(r.status == 400);
      CHECK(r.json()["code"].str() == "malformed");
    }
    CHECK(head_of(h, "s1") == 0);
  }

  SECTION("the token decides the seat: another seat's action is judged for the token's seat (422)") {
    // Only the Bene Gesserit predict; the Atreides token sending the same JSON is rejected.
    auto r = h.post("/rooms/s1/actions", act_body(0, "p1", kPredict), atreides);
    INFO(r.body);
    CHECK(r.status == 422);
    CHECK(r.json()["code"].str() == "rejected");
    CHECK(!r.json()["error"].str().empty());
    CHECK(head_of(h, "s1") == 0);
    CHECK(h.server().metrics().rejected == 1);
  }

  SECTION("accepted, resubmitted, reused id, stale version") {
    auto r = h.post("/rooms/s1/actions", act_body(0, "p1", kPredict), bg);
    INFO(r.body);
    REQUIRE(r.status == 200);
    auto j = r.json();
    CHECK(j["version"].as_int() == 1);
    CHECK(j["duplicate"].as_bool() == false);
    CHECK_THAT(j["summary"].str(), Catch::Contains("predicts Harkonnen on turn 3"));
    CHECK(head_of(h, "s1") == 1);

    // The same client action id again: the original result, nothing appended.
    auto again = h.post("/rooms/s1/actions", act_body(0, "p1", kPredict), bg);
    REQUIRE(again.status == 200);
    CHECK(again.json()["version"].as_int() == 1);
    CHECK(again.json()["duplicate"].as_bool() == true);
    CHECK(again.json()["summary"].str() == j["summary"].str());
    CHECK(head_of(h, "s1") == 1);

    // The same id for a different action is refused.
    auto reused = h.post("/rooms/s1/actions", act_body(0, "p1", kPredictOther), bg);
    CHECK(reused.status == 409);
    CHECK(reused.json()["code"].str() == "id_reused");

    // A new action based on a stale version.
    auto stale = h.post("/rooms/s1/actions", act_body(0, "p2", kPredictOther), bg);
    CHECK(stale.status == 409);
    CHECK(stale.json()["code"].str() == "stale_version");
    CHECK(stale.json()["head"].as_int() == 1);
    CHECK(head_of(h, "s1") == 1);

    // The stored event: seat 2, the client id namespaced by seat.
    std::string bytes, error;
    REQUIRE(h.store().read_event("s1", 1, &bytes, &error));
    codec::Event e;
    REQUIRE(codec::decode_event(bytes, &e, &error));
    CHECK(e.seat == 2);
    CHECK(e.client_action_id == "s2:p1");
    CHECK(e.action.kind == ActionKind::Predict);

    auto m = h.server().metrics();
    CHECK(m.appends == 1);
    CHECK(m.duplicates == 1);
    CHECK(m.conflicts == 1);
    auto metrics = h.get("/metrics").json();
    CHECK(metrics["appends"].as_int() == 1);
    CHECK(metrics["rooms_loaded"].as_int() >= 1);
    CHECK(metrics["append_latency_ms"]["p99"].num() >= metrics["append_latency_ms"]["p50"].num());
    CHECK(h.get("/health").json()["status"].str() == "ok");
  }
}

TEST_CASE("server: views and event summaries hide other seats' secrets", "[server]") {
  Harness h;
  Room room = make_room(h, "v1");
  const std::string &atreides = room.tokens[0], &harkonnen = room.tokens[1], &bg = room.tokens[2];
  REQUIRE(h.post("/rooms/v1/actions", act_body(0, "p1", kPredict), bg).status == 200);

  // Atreides' view: its own hand and traitor offer; nobody else's.
  auto av = h.get("/rooms/v1/view", atreides);
  REQUIRE(av.status == 200);
  auto a = av.json();
  CHECK(a["seat"].as_int() == 0);
  CHECK(a["view"]["viewer"].str() == "atreides");
  CHECK(a["view"]["version"].as_int() == 1);
  const auto& own = faction_entry(a["view"], "atreides");
  CHECK(list_size(own, "hand") == static_cast<size_t>(own["hand_count"].as_int()));
  CHECK(list_size(own, "hand") > 0);
  CHECK(list_size(own, "traitor_offer") == 4);
  for (const char* other : {"harkonnen", "bene_gesserit"}) {
    const auto& f = faction_entry(a["view"], other);
    CHECK(f["hand_count"].as_int() > 0);
    CHECK(list_size(f, "hand") == 0);
    CHECK(list_size(f, "traitor_offer") == 0);
    CHECK(list_size(f, "traitors") == 0);
  }
  CHECK(faction_entry(a["view"], "bene_gesserit")["prediction_turn"].is_null());

  // The Bene Gesserit see their prediction; the observer sees no hand at all.
  auto b = h.get("/rooms/v1/view", bg).json();
  CHECK(faction_entry(b["view"], "bene_gesserit")["prediction_turn"].as_int() == 3);
  CHECK(list_size(faction_entry(b["view"], "atreides"), "hand") == 0);
  auto o = h.get("/rooms/v1/view").json();
  CHECK(o["seat"].is_null());
  CHECK(o["view"]["viewer"].str() == "observer");
  for (const char* f : {"atreides", "harkonnen", "bene_gesserit"}) {
    CHECK(list_size(faction_entry(o["view"], f), "hand") == 0);
    CHECK(list_size(faction_entry(o["view"], f), "traitor_offer") == 0);
  }
  CHECK(faction_entry(o["view"], "bene_gesserit")["prediction_turn"].is_null());
  CHECK(list_size(faction_entry(h.get("/rooms/v1/view", harkonnen).json()["view"], "harkonnen"), "hand") > 0);

  // Events: the prediction is named only to the Bene Gesserit; the seed to nobody.
  auto ea = h.get("/rooms/v1/events?after=-1", atreides);
  REQUIRE(ea.status == 200);
  auto ej = ea.json();
  REQUIRE(ej["events"].size() == 2);
  CHECK(ej["head"].as_int() == 1);
  CHECK(ej["events"][0]["kind"].str() == "CreateGame");
  CHECK_THAT(ej["events"][0]["summary"].str(), !Catch::Contains("seed"));
  CHECK(ej["events"][1]["own"].as_bool() == false);
  CHECK(ej["events"][1].find("id") == nullptr);
  CHECK_THAT(ej["events"][1]["summary"].str(), Catch::Contains("makes the prediction"));
  CHECK_THAT(ea.body, !Catch::Contains("turn 3"));
  CHECK_THAT(h.get("/rooms/v1/events").body, !Catch::Contains("turn 3"));
  auto eb = h.get("/rooms/v1/events?after=0", bg).json();
  REQUIRE(eb["events"].size() == 1);
  CHECK(eb["events"][0]["own"].as_bool() == true);
  CHECK(eb["events"][0]["id"].str() == "p1");
  CHECK_THAT(eb["events"][0]["summary"].str(), Catch::Contains("predicts Harkonnen on turn 3"));
  CHECK(h.get("/rooms/v1/events?after=x").status == 400);
}

TEST_CASE("server: long-poll returns when an event arrives, or at the deadline", "[server]") {
  Harness h;
  Room room = make_room(h, "lp");
  Res polled;
  double waited = 0;
  std::thread poller([&] {
    const auto t0 = std::chrono::steady_clock::now();
    polled = h.get("/rooms/lp/events?after=0&wait=10");
    waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  REQUIRE(h.post("/rooms/lp/actions", act_body(0, "p1", kPredict), room.tokens[2]).status == 200);
  poller.join();
  REQUIRE(polled.status == 200);
  auto j = polled.json();
  REQUIRE(j["events"].size() == 1);
  CHECK(j["events"][0]["version"].as_int() == 1);
  CHECK(waited >= 0.3);
  CHECK(waited < 5.0);

  const auto t0 = std::chrono::steady_clock::now();
  auto empty = h.get("/rooms/lp/events?after=1&wait=1");
  const double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(empty.status == 200);
  CHECK(empty.json()["events"].size() == 0);
  CHECK(empty.json()["head"].as_int() == 1);
  CHECK(w >= 0.9);
  CHECK(w < 5.0);
}

TEST_CASE("server: concurrent submits on one version: exactly one wins", "[server]") {
  Harness h;
  Room room = make_room(h, "cc");
  std::atomic<int> ok{0}, stale{0}, other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      const std::string action =
          R"({"action_type":"Predict","action":{"faction":"Harkonnen","turn":)" + std::to_string(1 + i) + "}}";
      auto r = h.post("/rooms/cc/actions", act_body(0, "t" + std::to_string(i), action), room.tokens[2]);
      if (r.status == 200) ++ok;
      else if (r.status == 409) ++stale;
      else ++other;
    });
  for (auto& t : threads) t.join();
  CHECK(ok == 1);
  CHECK(stale == 7);
  CHECK(other == 0);
  CHECK(head_of(h, "cc") == 1);
}

TEST_CASE("server: tokens and idempotency survive reopening the store", "[server]") {
  Harness h;
  Room room = make_room(h, "rs");
  REQUIRE(h.post("/rooms/rs/actions", act_body(0, "p1", kPredict), room.tokens[2]).status == 200);
  h.close();
  h.open();
  // The original result after a restart.
  auto again = h.post("/rooms/rs/actions", act_body(0, "p1", kPredict), room.tokens[2]);
  REQUIRE(again.status == 200);
  CHECK(again.json()["duplicate"].as_bool());
  // Atreides keep a traitor with their stored token (a legal action from the engine).
  GameState s;
  std::string error;
  REQUIRE(store::load_state(h.store(), "rs", -1, &s, &error));
  auto acts = legal_actions(s, 0);
  REQUIRE(!acts.empty());
  std::string action;
  REQUIRE(server::json::action_request_json(acts[0], &action, &error));
  auto r = h.post("/rooms/rs/actions", act_body(1, "t1", action), room.tokens[0]);
  INFO(action << " -> " << r.body);
  CHECK(r.status == 200);
  CHECK(head_of(h, "rs") == 2);
  CHECK(h.post("/rooms/rs/actions", act_body(2, "t2", action), "0000").status == 401);
}

TEST_CASE("server json: strict parsing, raw spans, exact integers", "[server]") {
  using server::json::Value;
  Value v;
  std::string error;
  REQUIRE(server::json::parse(R"( {"a": [1, -2, 3.5e1], "b": {"c": "x\"\u00e9"}, "seed": 18446744073709551615} )", &v, &error));
  CHECK(v.get("b")->raw == R"({"c": "x\"\u00e9"})");
  CHECK(v.get("b")->get("c")->text == "x\"\xc3\xa9");
  uint64_t seed = 0;
  CHECK(v.get("seed")->as_uint64(&seed));
  CHECK(seed == 18446744073709551615ull);
  int64_t i = 0;
  CHECK(!v.get("seed")->as_int64(&i));
  CHECK(v.get("a")->items[1].as_int64(&i));
  CHECK(i == -2);
  CHECK(!v.get("a")->items[2].as_int64(&i));
  for (const char* bad : {"", "{", "{\"a\":}", "[1,]", "{'a':1}", "01", "1 2", "\"\\x\"", "nul", "[\"a\nb\"]"}) {
    INFO(bad);
    CHECK(!server::json::parse(bad, &v, &error));
  }
  std::string deep(100, '[');
  deep += std::string(100, ']');
  CHECK(!server::json::parse(deep, &v, &error));
  CHECK(server::json::quote("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"");
}

TEST_CASE("server json: action_request_json reads back to the same action", "[server]") {
  for (uint64_t seed : {3u, 11u}) {
    GameState s = create_game(testplay::setup_for(seed, 6, seed % 2 == 1), nullptr);
    std::string why;
    int checked = 0;
    bool ok = testplay::play(s, seed, 400, [&](const GameState&, const testplay::Step& st) {
      std::string text, error;
      REQUIRE(server::json::action_request_json(st.action, &text, &error));
      Action back;
      GameSetup ignored;
      INFO(text);
      REQUIRE(codec::parse_action_json(text, &back, &ignored, &error));
      CHECK(back == st.action);
      ++checked;
    }, &why);
    INFO(why);
    CHECK(ok);
    CHECK(checked > 100);
  }
}
