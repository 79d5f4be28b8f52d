// The room server (server/server.h) in-process on an ephemeral loopback
// port, driven over HTTP with cpp-httplib's client. Responses are read with
// their tables of server/api.fbs, the schema the server prints them with.
#include <catch2/catch.hpp>
#include <httplib.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/engine.h"
#include "events/codec.h"
#include "inspect/view.h"
#include "replay/fold.h"
#include "server/api.h"
#include "server/conn_gate.h"
#include "server/server.h"
#include "store/room.h"
#include "support/mini_json.h"
#include "support/random_play.h"

namespace fs = std::filesystem;
using namespace mentat;

namespace {

// A response body parsed as table T of server/api.fbs (and verified).
template <class T>
struct Parsed {
  std::string buffer;
  const T* operator->() const { return flatbuffers::GetRoot<T>(buffer.data()); }
};

struct Res {
  int status = 0;  // 0: no answer
  std::string body;
  template <class T>
  Parsed<T> as() const {
    Parsed<T> out;
    std::string error;
    const bool ok = server::api::parse<T>(body, &out.buffer, &error) != nullptr;
    INFO(body << " -> " << error);
    REQUIRE(ok);
    return out;
  }
  std::string code() const { return as<fb::ErrorResponse>()->code()->str(); }
  std::string error() const { return as<fb::ErrorResponse>()->error()->str(); }
};

std::string str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

class Harness {
 public:
  // `tweak` adjusts the server's options (after the defaults below).
  explicit Harness(std::function<void(server::ServerOptions&)> tweak = {}) : tweak_(std::move(tweak)) {
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
    if (tweak_) tweak_(o);
    server_ = std::make_unique<server::Server>(*store_, o);
    port_ = server_->start("127.0.0.1", 0, &error);
    REQUIRE(port_ > 0);
  }
  // The store without a server (nothing acts).
  void reopen_store_only() {
    std::string error;
    store_ = store::EventStore::open(dir_.string(), store::Options{}, &error);
    REQUIRE(store_);
  }
  void close() {
    if (server_) server_->stop();
    server_.reset();
    store_.reset();
  }
  store::EventStore& store() { return *store_; }
  server::Server& server() { return *server_; }
  int port() const { return port_; }

  Res request(const std::string& method, const std::string& path, const std::string& body = "",
              const std::string& token = "", httplib::Headers h = {}) {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(20);
    if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
    httplib::Result r = method == "GET"       ? c.Get(path.c_str(), h)
                        : method == "OPTIONS" ? c.Options(path.c_str(), h)
                                              : c.Post(path.c_str(), h, body, "application/json");
    if (!r) return {};
    {
      // Requests may come from several threads at once (the concurrency
      // tests): the last answer's headers are shared, so they are guarded.
      std::scoped_lock lock(headers_mu_);
      last_headers_ = r->headers;
    }
    return {r->status, r->body};
  }
  // The headers of the last answer (of any thread's request).
  std::string header(const std::string& name) const {
    std::scoped_lock lock(headers_mu_);
    auto it = last_headers_.find(name);
    return it == last_headers_.end() ? std::string() : it->second;
  }
  Res get(const std::string& path, const std::string& token = "") { return request("GET", path, "", token); }
  Res post(const std::string& path, const std::string& body, const std::string& token = "") {
    return request("POST", path, body, token);
  }

 private:
  std::function<void(server::ServerOptions&)> tweak_;
  mutable std::mutex headers_mu_;
  httplib::Headers last_headers_;
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
  auto j = r.as<fb::CreateRoomResponse>();
  Room room{j->room()->str(), {}};
  for (const auto* seat : *j->seats()) room.tokens.push_back(seat->token()->str());
  return room;
}

// {"expect": E, "id": ID, "action_type": ..., "action": {...}}; `action` is
// the last two members.
std::string act_body(int64_t expect, const std::string& id, const std::string& action) {
  return "{\"expect\":" + std::to_string(expect) + ",\"id\":\"" + id + "\"," + action + "}";
}

const std::string kPredict = R"("action_type":"Predict","action":{"faction":"Harkonnen","turn":3})";
const std::string kPredictOther = R"("action_type":"Predict","action":{"faction":"Atreides","turn":5})";

int64_t head_of(Harness& h, const std::string& room) {
  std::string error;
  auto m = h.store().meta(room, &error);
  REQUIRE(m);
  return m->head;
}

const fb::FactionView* faction_entry(const fb::View* view, const std::string& key) {
  REQUIRE(view);
  REQUIRE(view->factions());
  for (const auto* f : *view->factions())
    if (str(f->faction()) == key) return f;
  FAIL("no faction " << key << " in the view");
  return nullptr;
}

template <class V>
size_t list_size(const V* v) {
  return v ? v->size() : 0;
}

}  // namespace

TEST_CASE("server: create a room, act with the right token, and every rejection", "[server]") {
  Harness h;
  auto created = h.post("/rooms", R"({"factions":["atreides","harkonnen","bene_gesserit"],"seed":4,"room":"s1","bots":[1],"turns":5})");
  REQUIRE(created.status == 201);
  auto cj = created.as<fb::CreateRoomResponse>();
  CHECK(str(cj->room()) == "s1");
  CHECK(cj->turns() == 5);
  CHECK(str(cj->rules()) == "basic");
  REQUIRE(cj->seats()->size() == 3);
  REQUIRE(cj->bots()->size() == 1);
  CHECK(cj->bots()->Get(0) == 1);
  std::set<std::string> tokens;
  for (uint32_t i = 0; i < 3; ++i) {
    const auto* seat = cj->seats()->Get(i);
    CHECK(seat->seat() == static_cast<int>(i));
    CHECK(str(seat->token()).size() == 64);
    CHECK(seat->bot() == (i == 1));
    tokens.insert(str(seat->token()));
  }
  CHECK(tokens.size() == 3);
  CHECK(str(cj->seats()->Get(2)->faction()) == "bene_gesserit");
  CHECK(created.body.find("seed") == std::string::npos);
  const std::string atreides = str(cj->seats()->Get(0)->token());
  const std::string bg = str(cj->seats()->Get(2)->token());

  SECTION("room creation errors") {
    CHECK(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"room":"s1"})").status == 409);
    for (const std::string& body :
         {std::string(R"({"factions":["atreides","sardaukar"]})"), std::string(R"({"factions":["atreides","atreides"]})"),
          std::string(R"({"factions":[]})"), std::string(R"({"room":"x"})"),
          std::string(R"({"factions":["atreides","harkonnen"],"bots":[2]})"),
          std::string(R"({"factions":["atreides","harkonnen"],"bots":[1,1]})"),
          std::string(R"({"factions":["atreides","harkonnen"],"rules":"expert"})"),
          std::string(R"({"factions":["atreides","harkonnen"],"turns":0})"),
          std::string(R"({"factions":["atreides","harkonnen"],"turns":256})"),
          std::string(R"({"factions":["atreides","harkonnen"],"room":"a/b"})"),
          std::string(R"({"factions":["atreides","harkonnen"],"rulings":[{"id":"no_such_ruling","value":"x"}]})"),
          std::string(R"({"factions":["atreides","harkonnen"],"rulings":[{"id":"contested_stronghold"}]})"),
          // The former {id: value} form of rulings is not the schema's.
          std::string(R"({"factions":["atreides","harkonnen"],"rulings":{"contested_stronghold":"shared"}})"),
          std::string(R"({"factions":["atreides","harkonnen"],"seed":-1})"), std::string("factions=atreides"),
          std::string(R"({"factions":["atreides","harkonnen"],"colour":"red"})")}) {
      auto r = h.post("/rooms", body);
      INFO(body << " -> " << r.body);
      CHECK(r.status == 400);
      CHECK(r.code() == "malformed");
    }
    // The schema's parser names what it did not accept.
    CHECK_THAT(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"colour":"red"})").error(),
               Catch::Contains("unknown field: colour"));
    auto list = h.get("/rooms").as<fb::RoomList>();
    REQUIRE(list->rooms()->size() == 1);
    CHECK(str(list->rooms()->Get(0)->room()) == "s1");
    CHECK(list->rooms()->Get(0)->head() == 0);
    CHECK(!list->rooms()->Get(0)->parent_version().has_value());
    // Rulings as a list of {id, value}; an advanced game with an explicit seed.
    auto ok = h.post("/rooms", R"({"factions":["atreides","harkonnen"],"room":"s3","rules":"advanced","seed":18446744073709551615,)"
                               R"("rulings":[{"id":"contested_stronghold","value":"shared"}],"name":"ruled"})");
    INFO(ok.body);
    REQUIRE(ok.status == 201);
    CHECK(str(ok.as<fb::CreateRoomResponse>()->rules()) == "advanced");
    CHECK(ok.as<fb::CreateRoomResponse>()->bots()->size() == 0);
    std::string bytes, error;
    REQUIRE(h.store().read_event("s3", 0, &bytes, &error));
    codec::Event e0;
    REQUIRE(codec::decode_event(bytes, &e0, &error));
    CHECK(e0.setup.seed == 18446744073709551615ull);
    CHECK(e0.setup.advanced);
    CHECK(e0.setup.rulings.get(RulingId::ContestedStrongholdCounts) == 1);
    CHECK(e0.setup.name == "ruled");
  }

  SECTION("unknown room: 404") {
    auto r = h.post("/rooms/nope/actions", act_body(0, "x", kPredict), bg);
    CHECK(r.status == 404);
    CHECK(r.code() == "unknown_room");
    CHECK(h.get("/rooms/nope/view").status == 404);
    CHECK(h.get("/rooms/nope/events").status == 404);
    CHECK(h.get("/no/such/endpoint").status == 404);
    CHECK(h.get("/no/such/endpoint").code() == "not_found");
  }

  SECTION("bad or missing token: 401, nothing stored") {
    auto r = h.post("/rooms/s1/actions", act_body(0, "x", kPredict), "not-a-token");
    CHECK(r.status == 401);
    CHECK(r.code() == "bad_token");
    CHECK(h.post("/rooms/s1/actions", act_body(0, "x", kPredict)).status == 401);
    // A seat token of another room is not a token of this one.
    Room other = make_room(h, "s2");
    CHECK(h.post("/rooms/s1/actions", act_body(0, "x", kPredict), other.tokens[2]).status == 401);
    CHECK(h.get("/rooms/s1/view", "not-a-token").status == 401);
    CHECK(head_of(h, "s1") == 0);
  }

  SECTION("malformed body: 400 with the parser's message, nothing stored") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{nope", "expecting: string constant"},
        {"[]", "expecting: {"},
        {"", "empty"},
        {R"({"id":"x",)" + kPredict + "}", "expect must be"},
        {R"({"expect":"zero","id":"x",)" + kPredict + "}", "invalid SubmitRequest"},
        {R"({"expect":1.5,"id":"x",)" + kPredict + "}", "invalid SubmitRequest"},
        {R"({"expect":-1,"id":"x",)" + kPredict + "}", "expect must be"},
        {R"({"expect":0,)" + kPredict + "}", "id must be"},
        {R"({"expect":0,"id":"",)" + kPredict + "}", "id must be"},
        {R"({"expect":0,"id":")" + std::string(129, 'i') + "\"," + kPredict + "}", "id must be"},
        {R"({"expect":0,"id":7,)" + kPredict + "}", "invalid SubmitRequest"},
        {R"({"expect":0,"id":"x"})", "action is missing"},
        {R"({"expect":0,"id":"x","action_type":"Predict"})", "action table is missing"},
        {R"({"expect":0,"id":"x","extra":true,)" + kPredict + "}", "unknown field: extra"},
        {R"({"expect":0,"expect":0,"id":"x",)" + kPredict + "}", "field set more than once"},
        {act_body(0, "x", R"("action_type":"Predict","action":{"turn":"soon"})"), "invalid SubmitRequest"},
        {act_body(0, "x", R"("action_type":"Predict","action":{"turn":3,"when":"now"})"), "unknown field: when"},
        {act_body(0, "x", R"("action_type":"Predict","action":{"turn":300})"), "does not fit"},
        {act_body(0, "x", R"("action_type":"NoSuchAction","action":{})"), "unknown enum value"},
        // The former nested form {"action": {"action_type": ..., "action": ...}}.
        {R"({"expect":0,"id":"x","action":{)" + kPredict + "}}", "invalid SubmitRequest"},
        {act_body(0, "x", kPredict) + "trailing", "expecting: end of file"},
        {act_body(0, "x", kPredict) + act_body(0, "x", kPredict), "expecting: end of file"},
        {std::string("{\"expect\":0,\"id\":\"x\xff\",") + kPredict + "}", "illegal UTF-8"},
        {std::string("{\"expect\":0,\"id\":\"x\",") + kPredict + "}" + std::string(1, '\0') + "x", "NUL"},
    };
    for (const auto& [body, message] : cases) {
      auto r = h.post("/rooms/s1/actions", body, bg);
      INFO(body << " -> " << r.body);
      CHECK(r.status == 400);
      CHECK(r.code() == "malformed");
      CHECK_THAT(r.error(), Catch::Contains(message));
    }
    CHECK(head_of(h, "s1") == 0);
  }

  SECTION("the token decides the seat: another seat's action is judged for the token's seat (422)") {
    // Only the Bene Gesserit predict; the Atreides token sending the same JSON is rejected.
    auto r = h.post("/rooms/s1/actions", act_body(0, "p1", kPredict), atreides);
    INFO(r.body);
    CHECK(r.status == 422);
    auto e = r.as<fb::ErrorResponse>();
    CHECK(str(e->code()) == "rejected");
    CHECK(!str(e->error()).empty());
    CHECK(!str(e->reject_code()).empty());
    CHECK(e->head() == 0);
    CHECK(head_of(h, "s1") == 0);
    CHECK(h.server().metrics().rejected == 1);
  }

  SECTION("accepted, resubmitted, reused id, stale version") {
    auto r = h.post("/rooms/s1/actions", act_body(0, "p1", kPredict), bg);
    INFO(r.body);
    REQUIRE(r.status == 200);
    auto j = r.as<fb::SubmitResponse>();
    CHECK(str(j->room()) == "s1");
    CHECK(j->version() == 1);
    CHECK(j->duplicate() == false);
    CHECK_THAT(r.body, Catch::Contains("\"duplicate\": false"));
    CHECK_THAT(str(j->summary()), Catch::Contains("predicts Harkonnen on turn 3"));
    CHECK(head_of(h, "s1") == 1);

    // The same client action id again: the original result, nothing appended.
    auto again = h.post("/rooms/s1/actions", act_body(0, "p1", kPredict), bg);
    REQUIRE(again.status == 200);
    CHECK(again.as<fb::SubmitResponse>()->version() == 1);
    CHECK(again.as<fb::SubmitResponse>()->duplicate() == true);
    CHECK(str(again.as<fb::SubmitResponse>()->summary()) == str(j->summary()));
    CHECK(head_of(h, "s1") == 1);

    // The same id for a different action is refused.
    auto reused = h.post("/rooms/s1/actions", act_body(0, "p1", kPredictOther), bg);
    CHECK(reused.status == 409);
    CHECK(reused.code() == "id_reused");
    CHECK(reused.as<fb::ErrorResponse>()->version() == 1);

    // A new action based on a stale version.
    auto stale = h.post("/rooms/s1/actions", act_body(0, "p2", kPredictOther), bg);
    CHECK(stale.status == 409);
    auto sj = stale.as<fb::ErrorResponse>();
    CHECK(str(sj->code()) == "stale_version");
    CHECK(sj->head() == 1);
    CHECK(!sj->version().has_value());
    CHECK_THAT(stale.body, !Catch::Contains("null"));
    CHECK(head_of(h, "s1") == 1);

    // The stored event: seat 2, the client id namespaced by seat.
    std::string bytes, error;
    REQUIRE(h.store().read_event("s1", 1, &bytes, &error));
    codec::Event e;
    REQUIRE(codec::decode_event(bytes, &e, &error));
    CHECK(e.seat == 2);
    CHECK(e.client_action_id == "s2:p1");
    CHECK(e.action.kind() == ActionKind::Predict);

    auto m = h.server().metrics();
    CHECK(m.appends == 1);
    CHECK(m.duplicates == 1);
    CHECK(m.conflicts == 1);
    auto metrics = h.get("/metrics").as<fb::Metrics>();
    CHECK(metrics->appends() == 1);
    CHECK(metrics->rooms_loaded() >= 1);
    CHECK(metrics->rooms_in_store() == 1);
    REQUIRE(metrics->append_latency_ms());
    CHECK(metrics->append_latency_ms()->samples() == 1);
    CHECK(metrics->append_latency_ms()->p99() >= metrics->append_latency_ms()->p50());
    CHECK(str(h.get("/health").as<fb::Health>()->status()) == "ok");
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
  auto a = av.as<fb::ViewResponse>();
  CHECK(str(a->room()) == "v1");
  CHECK(a->version() == 1);
  CHECK(a->seat() == 0);
  const fb::View* view = a->view_nested_root();
  REQUIRE(view);
  CHECK(str(view->viewer()) == "atreides");
  CHECK(view->version() == 1);
  const auto* own = faction_entry(view, "atreides");
  CHECK(list_size(own->hand()) == own->hand_count());
  CHECK(list_size(own->hand()) > 0);
  CHECK(list_size(own->traitor_offer()) == 4);
  for (const char* other : {"harkonnen", "bene_gesserit"}) {
    const auto* f = faction_entry(view, other);
    CHECK(f->hand_count() > 0);
    CHECK(list_size(f->hand()) == 0);
    CHECK(list_size(f->traitor_offer()) == 0);
    CHECK(list_size(f->traitors()) == 0);
  }
  CHECK(!faction_entry(view, "bene_gesserit")->prediction_turn().has_value());
  // "view" is the View object that `mentat show --as` prints (codec::view_to_json).
  {
    GameState s;
    std::string error, json;
    REQUIRE(store::load_state(h.store(), "v1", -1, &s, &error));
    REQUIRE(codec::view_to_json(inspect::build_view(s, inspect::Viewer::of(0)), &json, &error));
    CHECK(av.body == R"({"room": "v1","version": 1,"seat": 0,"view": )" + json + "}");
  }

  // The Bene Gesserit see their prediction; the observer sees no hand at all.
  auto b = h.get("/rooms/v1/view", bg).as<fb::ViewResponse>();
  CHECK(faction_entry(b->view_nested_root(), "bene_gesserit")->prediction_turn() == 3);
  CHECK(list_size(faction_entry(b->view_nested_root(), "atreides")->hand()) == 0);
  auto ores = h.get("/rooms/v1/view");
  auto o = ores.as<fb::ViewResponse>();
  CHECK(!o->seat().has_value());
  CHECK_THAT(ores.body, Catch::Contains("\"seat\": null"));
  CHECK(str(o->view_nested_root()->viewer()) == "observer");
  for (const char* f : {"atreides", "harkonnen", "bene_gesserit"}) {
    CHECK(list_size(faction_entry(o->view_nested_root(), f)->hand()) == 0);
    CHECK(list_size(faction_entry(o->view_nested_root(), f)->traitor_offer()) == 0);
  }
  CHECK(!faction_entry(o->view_nested_root(), "bene_gesserit")->prediction_turn().has_value());
  auto hv = h.get("/rooms/v1/view", harkonnen).as<fb::ViewResponse>();
  CHECK(list_size(faction_entry(hv->view_nested_root(), "harkonnen")->hand()) > 0);

  // Events: the prediction is named only to the Bene Gesserit; the seed to nobody.
  auto ea = h.get("/rooms/v1/events?after=-1", atreides);
  REQUIRE(ea.status == 200);
  auto ej = ea.as<fb::EventsResponse>();
  REQUIRE(ej->events()->size() == 2);
  CHECK(ej->head() == 1);
  CHECK(ej->seat() == 0);
  CHECK(ej->more() == false);
  const auto* e0 = ej->events()->Get(0);
  CHECK(str(e0->kind()) == "CreateGame");
  CHECK(!e0->seat().has_value());
  CHECK(e0->faction() == nullptr);
  CHECK_THAT(str(e0->summary()), !Catch::Contains("seed"));
  const auto* e1 = ej->events()->Get(1);
  CHECK(e1->seat() == 2);
  CHECK(str(e1->faction()) == "bene_gesserit");
  CHECK(e1->own() == false);
  CHECK(e1->id() == nullptr);
  CHECK_THAT(str(e1->summary()), Catch::Contains("makes the prediction"));
  CHECK_THAT(ea.body, !Catch::Contains("turn 3"));
  CHECK_THAT(h.get("/rooms/v1/events").body, !Catch::Contains("turn 3"));
  CHECK(!h.get("/rooms/v1/events").as<fb::EventsResponse>()->seat().has_value());
  auto eb = h.get("/rooms/v1/events?after=0", bg).as<fb::EventsResponse>();
  REQUIRE(eb->events()->size() == 1);
  CHECK(eb->events()->Get(0)->own() == true);
  CHECK(str(eb->events()->Get(0)->id()) == "p1");
  CHECK_THAT(str(eb->events()->Get(0)->summary()), Catch::Contains("predicts Harkonnen on turn 3"));
  for (const char* bad : {"x", "-2", "1.5", "1x", ""}) {
    if (!*bad) continue;
    CHECK(h.get(std::string("/rooms/v1/events?after=") + bad).status == 400);
  }
  CHECK(h.get("/rooms/v1/events?after=0&wait=-1").status == 400);
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
  auto j = polled.as<fb::EventsResponse>();
  REQUIRE(j->events()->size() == 1);
  CHECK(j->events()->Get(0)->version() == 1);
  CHECK(waited >= 0.3);
  CHECK(waited < 5.0);

  const auto t0 = std::chrono::steady_clock::now();
  auto empty = h.get("/rooms/lp/events?after=1&wait=1");
  const double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(empty.status == 200);
  CHECK(empty.as<fb::EventsResponse>()->events()->size() == 0);
  CHECK_THAT(empty.body, Catch::Contains("\"events\": []"));
  CHECK(empty.as<fb::EventsResponse>()->head() == 1);
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
          R"("action_type":"Predict","action":{"faction":"Harkonnen","turn":)" + std::to_string(1 + i) + "}";
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

// Regression (issue 11): the concurrency tests above once corrupted the heap
// now and then (`malloc_consolidate(): unaligned fastbin chunk detected`,
// "Subprocess aborted") under load. The cause was this file's Harness: every
// request assigned the answer's headers to one shared map, unguarded, and
// those tests send requests from several threads. This drives that path
// hard (16 threads x 40 rounds: a submit or resend in its own room, a read of
// it and of another room, the shared headers read after each) within a few
// seconds; with the map unguarded it fails or aborts in a good share of runs
// (and ThreadSanitizer reports the race on every run).
TEST_CASE("server: sixteen clients at once, each playing its own room, through one harness", "[server]") {
  Harness h;
  constexpr int kClients = 16, kRounds = 40;
  std::vector<Room> rooms;
  for (int i = 0; i < kClients; ++i) rooms.push_back(make_room(h, "mc" + std::to_string(i)));
  std::atomic<int> wrong{0}, answered{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i)
    threads.emplace_back([&, i] {
      const std::string id = "mc" + std::to_string(i);
      for (int k = 0; k < kRounds; ++k) {
        // The first submit is stored; each resend answers the same (a duplicate, no new event).
        const auto r = h.post("/rooms/" + id + "/actions", act_body(0, "p0", kPredict), rooms[i].tokens[2]);
        if (r.status != 200 || h.header("Content-Type").empty()) ++wrong;
        const auto e = h.get("/rooms/" + id + "/events?after=0&wait=0");
        if (e.status != 200 || e.body.find("\"version\": 1") == std::string::npos || h.header("Content-Type").empty()) ++wrong;
        const auto other = h.get("/rooms/mc" + std::to_string((i + 1) % kClients) + "/events?after=0");
        if (other.status != 200) ++wrong;
        if (h.header("Content-Type").empty()) ++wrong;
        answered += 3;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(wrong == 0);
  CHECK(answered == kClients * kRounds * 3);
  for (int i = 0; i < kClients; ++i) CHECK(head_of(h, "mc" + std::to_string(i)) == 1);
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
  CHECK(again.as<fb::SubmitResponse>()->duplicate());
  // Atreides keep a traitor with their stored token (a legal action from the engine).
  GameState s;
  std::string error;
  REQUIRE(store::load_state(h.store(), "rs", -1, &s, &error));
  auto acts = legal_actions(s, 0);
  REQUIRE(!acts.empty());
  const std::string body = server::api::submit_request_json(1, "t1", acts[0]);
  auto r = h.post("/rooms/rs/actions", body, room.tokens[0]);
  INFO(body << " -> " << r.body);
  CHECK(r.status == 200);
  CHECK(head_of(h, "rs") == 2);
  CHECK(h.post("/rooms/rs/actions", server::api::submit_request_json(2, "t2", acts[0]), "0000").status == 401);
}

TEST_CASE("server api: bodies are read by the schema's parser", "[server]") {
  std::string buffer, error;
  const auto* req = server::api::parse<fb::CreateRoomRequest>(
      R"( {"factions": ["atreides", "Bene Gesserit"], "seed": 18446744073709551615, "bots": [1],
           "rulings": [{"id": "contested_stronghold", "value": "shared"}], "name": "x\"\u00e9"} )",
      &buffer, &error);
  INFO(error);
  REQUIRE(req);
  CHECK(req->factions()->size() == 2);
  CHECK(req->seed() == 18446744073709551615ull);
  CHECK(req->turns() == 10);
  CHECK(req->rules() == nullptr);
  CHECK(str(req->name()) == "x\"\xc3\xa9");
  CHECK(str(req->rulings()->Get(0)->value()) == "shared");
  req = server::api::parse<fb::CreateRoomRequest>(R"({"factions":["atreides"],"seed":null})", &buffer, &error);
  REQUIRE(req);
  CHECK(!req->seed().has_value());
  for (const char* bad : {"", "{", R"({"factions":})", R"({"factions":["a",]})", R"({factions:[]})",
                          R"({"factions":"atreides"})", R"({"seed":18446744073709551616})", R"({"seed":1.5})",
                          R"({"turns":-1})", R"({"bots":[200]})", R"({"rulings":[{"id":"a","value":1,"x":2}]})",
                          R"({"factions":[]} {})", "[]", "table T {} root_type T; {}", "include \"/etc/passwd\";"}) {
    INFO(bad);
    CHECK(server::api::parse<fb::CreateRoomRequest>(bad, &buffer, &error) == nullptr);
    CHECK_THAT(error, Catch::StartsWith("invalid CreateRoomRequest: "));
  }
}

TEST_CASE("server api: submit_request_json reads back to the same action", "[server]") {
  for (uint64_t seed : {3u, 11u}) {
    GameState s = create_game(testplay::setup_for(seed, 6, seed % 2 == 1), nullptr);
    std::string why;
    int checked = 0;
    bool ok = testplay::play(s, seed, 400, [&](const GameState& at, const testplay::Step& st) {
      const std::string text = server::api::submit_request_json(static_cast<int64_t>(at.version), "c1", st.action);
      INFO(text);
      std::string buffer, error;
      const auto* req = server::api::parse<fb::SubmitRequest>(text, &buffer, &error);
      INFO(error);
      REQUIRE(req);
      CHECK(req->expect() == static_cast<int64_t>(at.version));
      CHECK(str(req->id()) == "c1");
      Action back;
      GameSetup ignored;
      REQUIRE(codec::action_from_table(static_cast<uint8_t>(req->action_type()), req->action(), &back, &ignored, &error));
      CHECK(back == st.action);
      ++checked;
    }, &why);
    INFO(why);
    CHECK(ok);
    CHECK(checked > 100);
  }
}

// ---- bots in server seats ---------------------------------------------------

namespace {

struct Stored {
  Seat seat;
  Action action;
  std::string id;
};

std::vector<Stored> stored_events(Harness& h, const std::string& room) {
  std::vector<Stored> out;
  std::string error;
  const int64_t head = head_of(h, room);
  REQUIRE(h.store().scan_events(room, 1, head, [&](int64_t, const std::string& bytes) {
    codec::Event e;
    REQUIRE(codec::decode_event(bytes, &e, &error));
    out.push_back({e.seat, e.action, e.client_action_id});
    return true;
  }, &error));
  return out;
}

GameState head_state_of(Harness& h, const std::string& room) {
  GameState s;
  std::string error;
  REQUIRE(store::load_state(h.store(), room, -1, &s, &error));
  return s;
}

// Waits (up to `seconds`) until pred(head state) holds; returns that state.
template <class Pred>
GameState wait_until(Harness& h, const std::string& room, double seconds, Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    GameState s = head_state_of(h, room);
    if (pred(s)) return s;
    INFO("room " << room << " at version " << s.version << ", phase " << phase_name(s.phase) << ", waiting for "
                 << int(waiting_for(s)));
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The server counts a bot's action after its append returns, and a reader can
// see the stored event a moment before that: wait (bounded) for the counter.
int64_t bot_actions_settled(Harness& h, int64_t expected, double seconds = 5) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (h.server().metrics().bot_actions != expected && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return h.server().metrics().bot_actions;
}

const std::string kAllBots =
    R"({"factions":["atreides","harkonnen","bene_gesserit"],"seed":11,"bot_seed":5,"turns":2,"bots":[0,1,2],
        "bot_profiles":["medium","hard","easy"],"room":"allbots"})";

bool game_over(const GameState& s) { return s.phase == Phase::GameOver && waiting_for(s) == 0; }

}  // namespace

TEST_CASE("server bots: the bots play every seat but the human's, through the durable path", "[server][bots]") {
  Harness h;
  auto r = h.post("/rooms", R"({"factions":["atreides","harkonnen","bene_gesserit"],"seed":4,"room":"b1",)"
                            R"("bots":[2,1],"bot_profiles":["easy","medium"]})");
  INFO(r.body);
  REQUIRE(r.status == 201);
  auto j = r.as<fb::CreateRoomResponse>();
  REQUIRE(j->seats()->size() == 3);
  CHECK_FALSE(j->seats()->Get(0)->bot());
  CHECK(j->seats()->Get(1)->bot());
  CHECK(str(j->seats()->Get(1)->bot_profile()) == "medium");
  CHECK(str(j->seats()->Get(2)->bot_profile()) == "easy");
  CHECK(j->seats()->Get(0)->bot_profile() == nullptr);
  const std::string human = j->seats()->Get(0)->token()->str();

  // The human plays seat 0 with its first legal action whenever only it is
  // asked; the bots answer everything else by themselves.
  int human_moves = 0;
  for (; human_moves < 12; ++human_moves) {
    GameState s = wait_until(h, "b1", 20, [](const GameState& g) { return waiting_for(g) == 1u || game_over(g); });
    if (game_over(s)) break;
    auto acts = legal_actions(s, 0);
    REQUIRE(!acts.empty());
    auto a = h.post("/rooms/b1/actions", server::api::submit_request_json(static_cast<int64_t>(s.version),
                                                                           "h" + std::to_string(human_moves), acts[0]),
                    human);
    INFO(a.body);
    REQUIRE(a.status == 200);
  }
  CHECK(human_moves == 12);
  const auto events = stored_events(h, "b1");
  int by_bots = 0, by_human = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    if (e.seat == 0) {
      ++by_human;
      CHECK(e.id.rfind("s0:h", 0) == 0);
    } else {
      ++by_bots;
      REQUIRE(e.seat != kNoSeat);
      // The deterministic id: the seat and the version the move is based on.
      CHECK(e.id == "s" + std::to_string(e.seat) + ":bot-" + std::to_string(i));
    }
  }
  CHECK(by_human == 12);
  CHECK(by_bots > 12);
  CHECK(bot_actions_settled(h, by_bots) == by_bots);
  // The bot seats' moves are ordinary events: the room verifies.
  CHECK(replay::verify_room(h.store(), "b1").ok);
  // Bad bot requests.
  CHECK(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"bots":[1],"bot_profiles":["genius"]})").code() == "malformed");
  CHECK(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"bots":[1],"bot_profiles":["easy","hard"]})").code() ==
        "malformed");
  CHECK(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"bot_profiles":["easy"]})").code() == "malformed");
}

TEST_CASE("server modules: GET /modules lists the playable modules, POST /rooms seats CHOAM and Richese with theirs, "
          "bots of every profile play them, and every refusal names the module", "[server][bots][modules]") {
  Harness h;
  // The lobby's choices: the six base factions, then each playable module with the factions it seats.
  auto list = h.get("/modules");
  INFO(list.body);
  REQUIRE(list.status == 200);
  auto ml = list.as<fb::ModuleList>();
  std::vector<std::string> base, modules;
  for (const auto* f : *ml->factions()) base.push_back(str(f->key()));
  for (const auto* m : *ml->modules()) modules.push_back(str(m->key()));
  CHECK(base == std::vector<std::string>{"atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "spacing_guild"});
  CHECK(modules == std::vector<std::string>{"choam_richese", "leader_skills", "stronghold_cards"});
  const auto* cr = ml->modules()->Get(0);
  CHECK(str(cr->name()) == "CHOAM & Richese");
  REQUIRE(list_size(cr->factions()) == 2);
  CHECK(str(cr->factions()->Get(0)->key()) == "choam");
  CHECK(str(cr->factions()->Get(1)->key()) == "richese");
  CHECK(str(cr->factions()->Get(1)->name()) == "Richese");
  CHECK(list_size(ml->modules()->Get(1)->factions()) == 0);
  CHECK(list_size(ml->modules()->Get(2)->factions()) == 0);

  // Refusals: 400, the module named, nothing stored.
  std::string error;
  const size_t rooms_before = h.store().rooms(&error).size();
  auto bad = h.post("/rooms", R"({"factions":["atreides","harkonnen"],"modules":["spice_must_flow"]})");
  CHECK(bad.status == 400);
  CHECK(bad.code() == "malformed");
  CHECK_THAT(bad.error(), Catch::StartsWith("unknown module 'spice_must_flow' (modules: choam_richese, "));
  bad = h.post("/rooms", R"({"factions":["atreides","harkonnen"],"modules":["homeworlds"]})");
  CHECK(bad.status == 400);
  CHECK_THAT(bad.error(), Catch::Contains("module homeworlds (Homeworlds) is not implemented"));
  bad = h.post("/rooms", R"({"factions":["atreides","choam"]})");
  CHECK(bad.status == 400);
  CHECK(bad.error() == "faction choam needs the module choam_richese (CHOAM & Richese), which this game does not use");
  bad = h.post("/rooms", R"({"factions":["richese","atreides"],"modules":["leader_skills"]})");
  CHECK(bad.status == 400);
  CHECK_THAT(bad.error(), Catch::Contains("faction richese needs the module choam_richese"));
  bad = h.post("/rooms", R"({"factions":["atreides","choam"],"modules":"choam_richese"})");
  CHECK(bad.status == 400);
  CHECK_THAT(bad.error(), Catch::StartsWith("invalid CreateRoomRequest: "));
  CHECK(h.store().rooms(&error).size() == rooms_before);

  // Every profile plays CHOAM and every profile the Richese (two rooms, the
  // profiles turned round), with the CHOAM & Richese modules.
  const std::vector<std::string> profiles = {"easy", "medium", "hard", "brutal"};
  for (int round = 0; round < 2; ++round) {
    const std::string room = "modules" + std::to_string(round);
    std::vector<std::string> seat_profiles;
    for (int seat = 0; seat < 4; ++seat) seat_profiles.push_back(profiles[static_cast<size_t>((seat + 2 * round) % 4)]);
    const std::string body = R"({"factions":["choam","richese","atreides","harkonnen"],"seed":)" + std::to_string(31 + round) +
                             R"(,"bot_seed":3,"turns":2,"modules":["choam_richese","leader_skills","stronghold_cards"],)"
                             R"("bots":[0,1,2,3],"bot_profiles":[")" + seat_profiles[0] + "\",\"" + seat_profiles[1] + "\",\"" +
                             seat_profiles[2] + "\",\"" + seat_profiles[3] + R"("],"room":")" + room + "\"}";
    auto r = h.post("/rooms", body);
    INFO(body << " -> " << r.body);
    REQUIRE(r.status == 201);
    auto j = r.as<fb::CreateRoomResponse>();
    REQUIRE(j->seats()->size() == 4);
    CHECK(str(j->seats()->Get(0)->faction()) == "choam");
    CHECK(str(j->seats()->Get(1)->faction()) == "richese");
    for (int seat = 0; seat < 4; ++seat) CHECK(str(j->seats()->Get(seat)->bot_profile()) == seat_profiles[static_cast<size_t>(seat)]);
    std::vector<std::string> game_modules;
    for (const auto* m : *j->modules()) game_modules.push_back(m->str());
    CHECK(game_modules == std::vector<std::string>{"choam_richese", "leader_skills", "stronghold_cards"});
    // The bots move: CHOAM and the Richese act, through the durable path.
    const GameState s = wait_until(h, room, 60, [](const GameState& g) { return g.version >= 30 || game_over(g); });
    CHECK(s.uses(data::Module::ChoamRichese));
    CHECK(s.uses(data::Module::StrongholdCards));
    int by_choam = 0, by_richese = 0;
    for (const auto& e : stored_events(h, room)) {
      by_choam += e.seat == 0;
      by_richese += e.seat == 1;
    }
    CHECK(by_choam > 0);
    CHECK(by_richese > 0);
    CHECK(replay::verify_room(h.store(), room).ok);
  }
}

TEST_CASE("server bots: a room of bots plays to the end by itself, verifies, and restarts without doubling a move",
          "[server][bots]") {
  // Uninterrupted run.
  std::vector<Stored> reference;
  {
    Harness h;
    REQUIRE(h.post("/rooms", kAllBots).status == 201);
    GameState s = wait_until(h, "allbots", 60, game_over);
    CHECK(s.turn >= 1);
    reference = stored_events(h, "allbots");
    REQUIRE(reference.size() > 20);
    for (size_t i = 0; i < reference.size(); ++i)
      CHECK(reference[i].id == "s" + std::to_string(reference[i].seat) + ":bot-" + std::to_string(i));
    const auto rep = replay::verify_room(h.store(), "allbots");
    INFO(rep.check << ": " << rep.detail);
    CHECK(rep.ok);
    CHECK(bot_actions_settled(h, static_cast<int64_t>(reference.size())) == static_cast<int64_t>(reference.size()));
  }
  // The same room stopped twice mid-game: the restarted server resumes the
  // bots from the stored head and the stream is move for move the same
  // (no move lost, none stored twice: the bots are deterministic).
  Harness h;
  REQUIRE(h.post("/rooms", kAllBots).status == 201);
  int stopped_mid_game = 0;
  for (size_t stop_at : {reference.size() / 4, reference.size() / 2}) {
    wait_until(h, "allbots", 30, [&](const GameState& g) { return g.version >= stop_at; });
    h.close();
    h.reopen_store_only();
    const int64_t head = head_of(h, "allbots");
    if (head < static_cast<int64_t>(reference.size())) ++stopped_mid_game;
    h.close();
    h.open();
  }
  CHECK(stopped_mid_game > 0);  // the restarts really happened mid-game
  wait_until(h, "allbots", 60, game_over);
  const auto again = stored_events(h, "allbots");
  REQUIRE(again.size() == reference.size());
  for (size_t i = 0; i < again.size(); ++i) {
    INFO("version " << i + 1);
    CHECK(again[i].seat == reference[i].seat);
    CHECK(again[i].action == reference[i].action);
    CHECK(again[i].id == reference[i].id);
  }
  CHECK(replay::verify_room(h.store(), "allbots").ok);
}

TEST_CASE("server bots: a stored room with bot seats is resumed at start-up, old secrets meaning medium", "[server][bots]") {
  Harness h;
  h.close();
  // A room written without the server (as by an older server): bot seats
  // "0,1" without profiles, no bot seed.
  {
    h.reopen_store_only();
    GameSetup g;
    g.seed = 9;
    g.max_turns = 1;
    g.factions = {Faction::Atreides, Faction::Harkonnen};
    std::string room = "old", error;
    REQUIRE(store::create_room(h.store(), g, &room, &error));
    REQUIRE(h.store().put_room_secrets("old", {{"token.0", "t0"}, {"token.1", "t1"}, {"bots", "0,1"}}, &error));
    CHECK(head_of(h, "old") == 0);
    h.close();
  }
  h.open();  // nothing is submitted: the server finds the room by itself
  GameState s = wait_until(h, "old", 30, game_over);
  CHECK(s.version > 10);
  for (const auto& e : stored_events(h, "old")) CHECK(e.id.find(":bot-") != std::string::npos);
  CHECK(replay::verify_room(h.store(), "old").ok);
}

namespace {
bool has_raw_control(const std::string& s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f) return true;
  return false;
}
// The body parsed by the strict reader (RFC 8259; tests/support/mini_json.h).
mini_json::Value strict_json(const Res& r) {
  INFO(r.status << " " << r.body);
  CHECK_FALSE(has_raw_control(r.body));
  try {
    return mini_json::parse(r.body);
  } catch (const std::exception& e) {
    FAIL("not strict JSON: " << e.what());
  }
  return {};
}
}  // namespace

TEST_CASE("server: hostile deal text and room ids never break a feed (strict JSON everywhere)", "[server][hostile]") {
  Harness h;
  Room room = make_room(h, "hostile");
  // The setup through the room layer, until deals are accepted.
  GameState s = head_state_of(h, "hostile");
  for (int guard = 0; guard < 200 && (s.phase == Phase::Setup || s.phase == Phase::Storm); ++guard) {
    Seat who = 0;
    while (!((waiting_for(s) >> who) & 1u)) ++who;
    const auto acts = legal_actions(s, who);
    REQUIRE(!acts.empty());
    auto o = store::submit(h.store(), "hostile", who, s.version, acts[0], "setup-" + std::to_string(guard));
    REQUIRE(o.ok);
    s = head_state_of(h, "hostile");
  }
  REQUIRE(s.phase != Phase::Setup);
  // Through the API: C0 controls, ESC sequences, DEL, a C1 control and U+2028 as JSON escapes.
  const std::string deal =
      R"("action_type":"Deal","action":{"with":["Harkonnen"],"text":"a\u0001b\u001b[31mred\u001b[0m\u007f\u0085\u2028 \"end\""})";
  auto r = h.post("/rooms/hostile/actions", act_body(s.version, "deal1", deal), room.tokens[0]);
  strict_json(r);
  REQUIRE(r.status == 200);
  // A byte that is not UTF-8 (the parser's \x extension, or raw): refused with a strict JSON error, or stored.
  for (const std::string& text : {std::string(R"(\xff)"), std::string("\xff\xfe")}) {
    s = head_state_of(h, "hostile");
    const std::string bad = R"("action_type":"Deal","action":{"with":["Harkonnen"],"text":"x)" + text + R"(y"})";
    auto b = h.post("/rooms/hostile/actions", act_body(s.version, "deal-" + std::to_string(s.version), bad), room.tokens[0]);
    strict_json(b);
    CHECK((b.status == 200 || b.status == 400));
  }
  // Stored by another path (the room layer takes any bytes): the feed stays valid.
  s = head_state_of(h, "hostile");
  action::Deal a;
  a.with.push_back(static_cast<uint8_t>(Faction::Harkonnen));
  a.text = "raw\x01\x1b\xff\xc0\xaf\xed\xa0\x80 end";
  REQUIRE(store::submit(h.store(), "hostile", 0, s.version, a, "raw").ok);
  action::Bribe bribe{.to = static_cast<uint8_t>(Faction::Harkonnen), .amount = 1, .note = a.text};
  REQUIRE(store::submit(h.store(), "hostile", 0, s.version + 1, bribe, "bribe").ok);

  for (const std::string& token : {std::string(), room.tokens[0], room.tokens[1]}) {
    auto ev = strict_json(h.get("/rooms/hostile/events?after=-1", token));
    REQUIRE(ev.find("events"));
    CHECK(ev["events"].size() == static_cast<size_t>(head_of(h, "hostile") + 1));
    strict_json(h.get("/rooms/hostile/view", token));
  }
  strict_json(h.get("/rooms"));
  // A hostile room id is echoed in the 404 as valid JSON.
  auto nf = h.get("/rooms/%01%1b%5b31m%ff%22%5c%7f/view");
  CHECK(nf.status == 404);
  CHECK(strict_json(nf)["error"].str().find("no room") != std::string::npos);
  auto nf2 = h.get("/rooms/%c0%af%ed%a0%80x/events");
  CHECK(nf2.status == 404);
  strict_json(nf2);
  // The refold still verifies.
  CHECK(replay::verify_room(h.store(), "hostile").ok);
}

namespace {
// A loopback TCP connection to the test server that sends `first` (maybe
// an unfinished request) and keeps the socket open.
int open_raw(int port, const std::string& first) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  if (!first.empty()) REQUIRE(::send(fd, first.data(), first.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(first.size()));
  return fd;
}
// What the server sends before closing, waiting at most `ms`; `closed` tells
// whether the server closed the connection in that time.
std::string read_until_closed(int fd, int ms, bool* closed) {
  std::string got;
  *closed = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return got;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
    char buf[4096];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      *closed = true;
      return got;
    }
    got.append(buf, static_cast<size_t>(n));
  }
}
// GET /health on a fresh connection, giving up after `seconds`.
int health_status(int port, int seconds) {
  httplib::Client c("127.0.0.1", port);
  c.set_connection_timeout(seconds);
  c.set_read_timeout(seconds);
  auto r = c.Get("/health");
  return r ? r->status : 0;
}
}  // namespace

TEST_CASE("server limits: 80 slowloris connections do not block /health, and are closed at the header deadline",
          "[server][limits]") {
  Harness h([](server::ServerOptions& o) {
    o.threads = 8;
    o.header_timeout_seconds = 1.5;
  });
  std::vector<int> socks;
  for (int i = 0; i < 80; ++i) socks.push_back(open_raw(h.port(), "GET /health HTTP/1.1\r\nHost: x\r\n"));
  // Half of them keep sending one header line now and then (never the blank line).
  std::atomic<bool> done{false};
  std::thread trickle([&] {
    for (int k = 0; k < 10 && !done; ++k) {
      for (size_t i = 0; i < socks.size(); i += 2) {
        const std::string line = "X-Slow-" + std::to_string(k) + ": 1\r\n";
        (void)!::send(socks[i], line.data(), line.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
  });
  // /health answers while every slow connection is open (bounded wait: 2 s).
  for (int i = 0; i < 3; ++i) CHECK(health_status(h.port(), 2) == 200);
  // A normal request on a kept-alive connection works too.
  CHECK(h.get("/rooms").status == 200);
  // The server closes every one of them once the header deadline has passed.
  int closed_by_server = 0;
  for (int fd : socks) {
    bool closed = false;
    read_until_closed(fd, 4000, &closed);
    closed_by_server += closed ? 1 : 0;
  }
  done = true;
  trickle.join();
  CHECK(closed_by_server == 80);
  for (int fd : socks) ::close(fd);
  CHECK(health_status(h.port(), 2) == 200);
}

TEST_CASE("server limits: connections beyond max_connections are answered 503 at once, and a body must arrive in time",
          "[server][limits]") {
  Harness h([](server::ServerOptions& o) {
    o.max_connections = 10;
    o.header_timeout_seconds = 30;
    o.body_timeout_seconds = 1;
  });
  std::vector<int> idle;
  for (int i = 0; i < 10; ++i) idle.push_back(open_raw(h.port(), ""));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const int extra = open_raw(h.port(), "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
  bool closed = false;
  const std::string answer = read_until_closed(extra, 2000, &closed);
  CHECK(closed);
  CHECK_THAT(answer, Catch::StartsWith("HTTP/1.1 503"));
  CHECK_THAT(answer, Catch::Contains("\"code\":\"busy\""));
  ::close(extra);
  for (int fd : idle) ::close(fd);
  // Once they are gone, requests are served again.
  int status = 0;
  for (int i = 0; i < 40 && status != 200; ++i) {
    status = health_status(h.port(), 2);
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(status == 200);
  // A body announced but never sent: the connection is closed after the body deadline, nothing stored.
  const int slow = open_raw(h.port(), "POST /rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
  read_until_closed(slow, 4000, &closed);
  CHECK(closed);
  ::close(slow);
  std::string error;
  auto rooms = h.store().rooms(&error);
  CHECK(rooms.empty());
  CHECK(health_status(h.port(), 2) == 200);
}

TEST_CASE("server limits: the gate judges a request head (either header case, sizes, types, expectations)", "[server][limits]") {
  using server::judge_head;
  const std::string line = "POST /rooms HTTP/1.1\r\nHost: x\r\n";
  for (const char* name : {"Content-Length", "content-length", "CONTENT-LENGTH", "cOnTeNt-LeNgTh"}) {
    INFO(name);
    const auto v = judge_head(line + name + ": 100\r\n", 1 << 20);
    CHECK(v.status == 0);
    CHECK(v.body == 100);
  }
  CHECK(server::header_values(line + "Content-Type: a\r\ncontent-type: b\r\n", "CONTENT-TYPE").size() == 2);
  CHECK(judge_head(line + "Content-Length: 1048577\r\n", 1 << 20).status == 413);
  CHECK(judge_head(line + "Content-Length: 1000000000\r\n", 1 << 20).status == 413);
  CHECK(judge_head(line + "Content-Length: 99999999999999999999999\r\n", 1 << 20).status == 400);
  CHECK(judge_head(line + "Content-Length: -1\r\n", 1 << 20).status == 400);
  CHECK(judge_head(line + "Content-Length: 1e3\r\n", 1 << 20).status == 400);
  CHECK(judge_head(line + "Content-Length: 5\r\nContent-Length: 6\r\n", 1 << 20).status == 400);
  CHECK(judge_head(line + "Content-Length: 5\r\nContent-Length: 5\r\n", 1 << 20).status == 0);
  CHECK(judge_head(line + "Transfer-Encoding: chunked\r\n", 1 << 20).status == 411);
  CHECK(judge_head(line + "Content-Length: 61440\r\nContent-Type: application/x-www-form-urlencoded\r\n", 1 << 20).status == 415);
  CHECK(judge_head(line + "Content-Length: 10\r\ncontent-type: multipart/form-data; boundary=x\r\n", 1 << 20).status == 415);
  CHECK(judge_head(line + "Content-Length: 10\r\nContent-Type: application/json\r\n", 1 << 20).status == 0);
  CHECK(judge_head(line + "Content-Length: 10\r\nExpect: 100-continue\r\n", 1 << 20).expect_continue);
  CHECK(judge_head(line + "Content-Length: 10\r\nExpect: something-else\r\n", 1 << 20).status == 417);
  // A body-taking method without a length would be read until the client closes: 411.
  for (const char* m : {"POST", "PUT", "PATCH", "DELETE"}) CHECK(judge_head(std::string(m) + " /rooms HTTP/1.1\r\nHost: x\r\n", 1 << 20).status == 411);
  CHECK(judge_head("GET /health HTTP/1.1\r\nHost: x\r\n", 1 << 20).status == 0);
  CHECK(judge_head(line + "Content-Length: 0\r\n", 1 << 20).status == 0);
  // A compressed body would be inflated past every limit: 415.
  CHECK(judge_head(line + "Content-Length: 10\r\nContent-Encoding: gzip\r\n", 1 << 20).status == 415);
  CHECK(judge_head(line + "Content-Length: 10\r\nContent-Encoding: identity\r\n", 1 << 20).status == 0);
  // The request line and header lines must be well formed: 400.
  for (const char* bad : {"GARBAGE\r\n", "FOO /health HTTP/1.1\r\n", "PRI * HTTP/2.0\r\n", "GET /health HTTP/9.9\r\n",
                          "GET /a b HTTP/1.1\r\n", "GET  /health HTTP/1.1\r\n", "GET health HTTP/1.1\r\n",
                          "GET /health HTTP/1.1\r\nContent-Length : 3\r\n", "GET /health HTTP/1.1\r\nNoColon\r\n",
                          "GET /health HTTP/1.1\r\nX-A: 1\r\n folded\r\n", "GET /health HTTP/1.1\r\n: empty\r\n"}) {
    INFO(bad);
    CHECK(judge_head(bad, 1 << 20).status == 400);
  }
  {
    static constexpr char kNul[] = "GET /health HTTP/1.1\r\nX-\0A: 1\r\n";
    CHECK(judge_head(std::string(kNul, sizeof kNul - 1), 1 << 20).status == 400);  // a NUL in a header name
  }
  CHECK(judge_head("OPTIONS * HTTP/1.1\r\nHost: x\r\n", 1 << 20).status == 0);
  CHECK(judge_head("GET http://x/health HTTP/1.0\r\n", 1 << 20).status == 0);
}

TEST_CASE("server limits: declared bodies never sent, at and above the thread count and in either header case, hold no worker",
          "[server][limits]") {
  Harness h([](server::ServerOptions& o) {
    o.threads = 8;
    o.body_timeout_seconds = 2;
  });
  for (const char* name : {"Content-Length", "content-length"}) {
    for (int count : {8, 24}) {
      INFO(name << " x " << count);
      std::vector<int> socks;
      for (int i = 0; i < count; ++i)
        socks.push_back(open_raw(h.port(), std::string("POST /rooms HTTP/1.1\r\nHost: x\r\n") + name + ": 100\r\n\r\n"));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      // Every worker would be reading a body that never comes: /health must still answer.
      CHECK(health_status(h.port(), 1) == 200);
      CHECK(h.get("/rooms").status == 200);
      // Each is closed at the body deadline, nothing stored.
      int closed_by_server = 0;
      for (int fd : socks) {
        bool closed = false;
        read_until_closed(fd, 5000, &closed);
        closed_by_server += closed ? 1 : 0;
        ::close(fd);
      }
      CHECK(closed_by_server == count);
    }
  }
  std::string error;
  CHECK(h.store().rooms(&error).empty());
}

TEST_CASE("server limits: a body over the limit, a form, a chunked body are refused from the head at once, large and "
          "100-continue bodies are read",
          "[server][limits]") {
  Harness h([](server::ServerOptions& o) {
    o.threads = 4;
    o.body_timeout_seconds = 30;  // an answer that waited for the body would come too late below
  });
  struct Case {
    std::string head;
    const char* status;
  };
  const std::vector<Case> cases = {
      {"POST /rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n", "HTTP/1.1 413"},
      {"POST /rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 61440\r\n\r\n",
       "HTTP/1.1 415"},
      {"POST /rooms HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", "HTTP/1.1 411"},
      {"POST /rooms HTTP/1.1\r\nHost: x\r\nContent-Length: 12x\r\n\r\n", "HTTP/1.1 400"},
      {"POST /rooms HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 411"},  // before: held a worker 30 s, then read any length
      {"POST /rooms HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 20\r\n\r\n", "HTTP/1.1 415"},
      {"GARBAGE\r\nGET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n", "HTTP/1.1 400"},  // one answer, then closed
  };
  for (const auto& c : cases) {
    INFO(c.head);
    const int fd = open_raw(h.port(), c.head);
    bool closed = false;
    const std::string answer = read_until_closed(fd, 2000, &closed);  // before: 413 after 30 s, holding a worker
    CHECK(closed);
    CHECK_THAT(answer, Catch::StartsWith(c.status));
    CHECK_THAT(answer, Catch::Contains("\"code\""));
    CHECK(answer.find("}HTTP/") == std::string::npos);  // a single answer (no second one after the first body)
    CHECK_THAT(answer, !Catch::Contains("HTTP/1.1 200"));
    ::close(fd);
  }
  // A form body sent whole (curl's default type) is refused as a form, not as too large.
  {
    const std::string body(61440, 'a');
    const int fd = open_raw(h.port(), "POST /rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " +
                                          std::to_string(body.size()) + "\r\n\r\n" + body);
    bool closed = false;
    CHECK_THAT(read_until_closed(fd, 2000, &closed), Catch::StartsWith("HTTP/1.1 415"));
    ::close(fd);
  }
  // A valid body of 300 KB (JSON with spaces) is read through the gate and answered.
  {
    const std::string body = R"({"factions":["atreides","harkonnen"],"room":"big")" + std::string(300 * 1024, ' ') + "}";
    auto r = h.post("/rooms", body);
    INFO(r.body);
    CHECK(r.status == 201);
  }
  // Expect: 100-continue: the gate says continue once, then the request is answered.
  {
    const std::string body = R"({"factions":["atreides","harkonnen"],"room":"cont"})";
    const int fd = open_raw(h.port(), "POST /rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                                      "Connection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n");
    bool closed = false;
    std::string got = read_until_closed(fd, 300, &closed);
    CHECK(got == "HTTP/1.1 100 Continue\r\n\r\n");
    REQUIRE(::send(fd, body.data(), body.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(body.size()));
    got += read_until_closed(fd, 3000, &closed);
    CHECK_THAT(got, Catch::Contains("HTTP/1.1 201"));
    size_t continues = 0;
    for (size_t at = got.find("100 Continue"); at != std::string::npos; at = got.find("100 Continue", at + 1)) ++continues;
    CHECK(continues == 1);
    ::close(fd);
  }
  // A Range header is ignored: the whole answer, 200 (before: a cut JSON marked 200, or one multiplied by 2,000 ranges).
  {
    std::string ranges = "bytes=0-9";
    for (int i = 0; i < 500; ++i) ranges += ",0-";
    for (const std::string& r : {std::string("bytes=0-9"), ranges}) {
      const int fd = open_raw(h.port(), "GET /health HTTP/1.1\r\nHost: x\r\nRange: " + r + "\r\nConnection: close\r\n\r\n");
      bool closed = false;
      const std::string got = read_until_closed(fd, 3000, &closed);
      CHECK_THAT(got, Catch::StartsWith("HTTP/1.1 200"));
      CHECK_THAT(got, !Catch::Contains("Content-Range"));
      CHECK(got.size() < 4096);
      CHECK_THAT(got, Catch::EndsWith("}"));
      ::close(fd);
    }
  }
  // Two requests sent at once on one connection (pipelined) are both answered.
  {
    const std::string req = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
    const int fd = open_raw(h.port(), req + req.substr(0, req.size() - 2) + "Connection: close\r\n\r\n");
    bool closed = false;
    const std::string got = read_until_closed(fd, 3000, &closed);
    CHECK(closed);
    CHECK(got.find("HTTP/1.1 200") != got.rfind("HTTP/1.1 200"));
    ::close(fd);
  }
  CHECK(health_status(h.port(), 2) == 200);
}

TEST_CASE("server limits: an action nested 50,000 levels deep is refused with a clear error, and the server lives",
          "[server][limits]") {
  Harness h;
  Room room = make_room(h, "deep");
  for (const auto& [open, close] : std::vector<std::pair<std::string, std::string>>{{"[", "]"}, {"{\"a\":", "}"}}) {
    std::string body = R"({"expect":0,"id":"n","action_type":"Pass","action":)";
    for (int i = 0; i < 50000; ++i) body += open;
    body += "0";
    for (int i = 0; i < 50000; ++i) body += close;
    body += "}";
    auto r = h.post("/rooms/deep/actions", body, room.tokens[2]);
    INFO(r.body.substr(0, 300));
    REQUIRE(r.status == 400);
    CHECK_THAT(r.error(), Catch::Contains("deeper than 64 levels"));
  }
  // A client action id with a control character is refused too.
  auto nul = h.post("/rooms/deep/actions", act_body(0, "a\\u0000b", kPredict), room.tokens[2]);
  CHECK(nul.status == 400);
  CHECK_THAT(nul.error(), Catch::Contains("without control characters"));
  CHECK(health_status(h.port(), 2) == 200);
  CHECK(head_of(h, "deep") == 0);
}

TEST_CASE("server limits: long-polls without a token never hold every worker: one more is answered 503 at once", "[server][limits]") {
  Harness h([](server::ServerOptions& o) { o.threads = 8; });  // 6 may wait at once (8 less 2)
  make_room(h, "lp8");
  std::vector<std::thread> polls;
  std::atomic<int> busy{0}, answered{0};
  for (int i = 0; i < 10; ++i)
    polls.emplace_back([&] {
      auto r = h.get("/rooms/lp8/events?after=0&wait=3");  // no token: an observer
      if (r.status == 503) ++busy;
      else if (r.status == 200) ++answered;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  // Every worker would be waiting: /health answers at once.
  CHECK(health_status(h.port(), 1) == 200);
  for (auto& t : polls) t.join();
  CHECK(busy == 4);
  CHECK(answered == 6);
  CHECK(h.get("/rooms/lp8/events?after=0&wait=0").status == 200);  // nothing left waiting
}

// ---- the web side (server/web.h) -----------------------------------------------

namespace {

// The Harness's tweak for the web side's options.
std::function<void(server::ServerOptions&)> web_options(const std::string& access_log = "") {
  return [access_log](server::ServerOptions& o) {
    o.web_dir = std::string(MENTAT_SOURCE_DIR) + "/web";
    o.admin_token = "admin-token-for-tests-0123456789";
    o.cors = "https://play.example";
    o.access_log = access_log;
  };
}

// The body of POST /actions for the first of the seat's legal actions of `kind`.
std::string legal_body(Harness& h, const std::string& room, const std::string& token, const std::string& kind,
                       const std::string& id) {
  auto r = h.get("/rooms/" + room + "/legal", token);
  INFO(r.body);
  REQUIRE(r.status == 200);
  auto j = r.as<fb::LegalActions>();
  REQUIRE(j->actions());
  for (const auto* la : *j->actions()) {
    if (str(la->kind()) != kind) continue;
    Action a;
    GameSetup ignored;
    std::string error;
    REQUIRE(codec::action_from_table(static_cast<uint8_t>(la->action_type()), la->action(), &a, &ignored, &error));
    return server::api::submit_request_json(j->version(), id, a);
  }
  FAIL("no legal " << kind << " in " << r.body);
  return "";
}

}  // namespace

TEST_CASE("server web: the client's files, the board, past observer views and a seat's legal actions", "[server][web]") {
  Harness h(web_options());
  SECTION("static files, only from web/") {
    auto index = h.get("/");
    CHECK(index.status == 200);
    CHECK_THAT(index.body, Catch::Contains("<title>Mentat"));
    CHECK_THAT(h.header("Content-Type"), Catch::StartsWith("text/html"));
    CHECK(h.get("/js/table.js").status == 200);
    CHECK_THAT(h.header("Content-Type"), Catch::StartsWith("text/javascript"));
    CHECK(h.get("/app.css").status == 200);
    CHECK(h.get("/nothing.html").code() == "not_found");
    CHECK(h.get("/../CMakeLists.txt").status == 404);
    CHECK(h.get("/%2e%2e/CMakeLists.txt").status == 404);
    CHECK(h.get("/js/../../CMakeLists.txt").status == 404);
  }
  SECTION("the rulings the lobby offers") {
    auto r = h.get("/rulings");
    REQUIRE(r.status == 200);
    auto j = r.as<fb::RulingList>();
    REQUIRE(list_size(j->rulings()) == static_cast<size_t>(kNumRulings));
    CHECK_THAT(r.body, Catch::Contains(R"("id": "contested_stronghold")"));
    for (const auto* x : *j->rulings()) CHECK(list_size(x->values()) >= 2);
  }
  Room room = make_room(h, "w1");
  SECTION("the board: the observer's picture, at any version") {
    auto svg = h.get("/rooms/w1/board.svg");
    REQUIRE(svg.status == 200);
    CHECK(svg.body.rfind("<svg", 0) == 0);
    CHECK_THAT(svg.body, Catch::Contains("data-location="));
    CHECK_THAT(svg.body, !Catch::Contains("id=\"panel\""));
    CHECK_THAT(h.header("Content-Type"), Catch::StartsWith("image/svg+xml"));
    CHECK(h.get("/rooms/w1/board.svg?v=0").status == 200);
    CHECK(h.get("/rooms/w1/board.svg?v=5").code() == "not_found");
    CHECK(h.get("/rooms/w1/board.svg?v=x").code() == "malformed");
    CHECK(h.get("/rooms/zz/board.svg").code() == "unknown_room");
  }
  SECTION("legal actions: the seat's own, labelled, each accepted as it is") {
    CHECK(h.get("/rooms/w1/legal").code() == "bad_token");
    CHECK(h.get("/rooms/w1/legal", "nope").code() == "bad_token");
    auto legal = h.get("/rooms/w1/legal", room.tokens[2]);
    REQUIRE(legal.status == 200);
    auto j = legal.as<fb::LegalActions>();
    CHECK(j->seat() == 2);
    REQUIRE(list_size(j->actions()) > 0);
    CHECK(str(j->actions()->Get(0)->kind()) == "Predict");
    CHECK_THAT(str(j->actions()->Get(0)->label()), Catch::StartsWith("Bene Gesserit predicts"));
    CHECK_THAT(legal.body, Catch::Contains(R"("action_type": "Predict")"));
    CHECK_THAT(legal.body, !Catch::Contains(R"("karama")"));  // only on a PlayCard that spends a Karama
    // The Harkonnen are asked nothing in the setup: no legal actions.
    auto none = h.get("/rooms/w1/legal", room.tokens[1]).as<fb::LegalActions>();
    CHECK(list_size(none->actions()) == 0);
    auto sent = h.post("/rooms/w1/actions", legal_body(h, "w1", room.tokens[2], "Predict", "bg-1"), room.tokens[2]);
    INFO(sent.body);
    CHECK(sent.status == 200);
    SECTION("a past observer view hides the prediction") {
      auto v1 = h.get("/rooms/w1/observer?v=1");
      REQUIRE(v1.status == 200);
      auto vj = v1.as<fb::ViewResponse>();
      CHECK_FALSE(vj->seat().has_value());
      CHECK(vj->version() == 1);
      CHECK_THAT(v1.body, Catch::Contains(R"("viewer": "observer")"));
      CHECK(faction_entry(vj->view_nested_root(), "bene_gesserit")->prediction_faction() == nullptr);
      CHECK(h.get("/rooms/w1/observer?v=0").as<fb::ViewResponse>()->version() == 0);
      CHECK(h.get("/rooms/w1/observer?v=2").code() == "not_found");
    }
  }
}

TEST_CASE("server web: admin actions need the admin token: reissue a token, change a bot seat, archive, delete", "[server][web]") {
  SECTION("off without an admin token") {
    Harness plain;
    Room room = make_room(plain, "a0");
    CHECK(plain.post("/admin/rooms/a0/token", R"({"seat":0})", "anything").status == 404);
  }
  Harness h(web_options());
  Room room = make_room(h, "a1");
  const std::string admin = "admin-token-for-tests-0123456789";
  CHECK(h.post("/admin/rooms/a1/token", R"({"seat":0})").code() == "bad_token");
  CHECK(h.post("/admin/rooms/a1/token", R"({"seat":0})", room.tokens[0]).code() == "bad_token");
  CHECK(h.post("/admin/rooms/a1/token", R"({"seat":0})", admin + "x").code() == "bad_token");
  CHECK(h.post("/admin/rooms/zz/token", R"({"seat":0})", admin).code() == "unknown_room");
  CHECK(h.post("/admin/rooms/a1/token", R"({"seat":7})", admin).code() == "malformed");
  CHECK(h.post("/admin/rooms/a1/token", R"({"seat":0,"colour":1})", admin).code() == "malformed");

  SECTION("reissue: the old token stops working, the new one plays") {
    CHECK(h.get("/rooms/a1/view", room.tokens[2]).status == 200);
    auto r = h.post("/admin/rooms/a1/token", R"({"seat":2})", admin);
    REQUIRE(r.status == 200);
    const std::string fresh = str(r.as<fb::AdminResponse>()->token());
    CHECK(fresh.size() == 64);
    CHECK(fresh != room.tokens[2]);
    CHECK(h.get("/rooms/a1/view", room.tokens[2]).code() == "bad_token");
    CHECK(h.get("/rooms/a1/view", fresh).as<fb::ViewResponse>()->seat() == 2);
    CHECK(h.post("/rooms/a1/actions", act_body(0, "p", kPredict), fresh).status == 200);
  }
  SECTION("a human seat becomes a bot (and plays), then a human again") {
    CHECK(h.post("/admin/rooms/a1/bot", R"({"seat":0,"profile":"wizard"})", admin).code() == "malformed");
    CHECK(h.post("/admin/rooms/a1/bot", R"({"seat":0})", admin).code() == "malformed");
    auto r = h.post("/admin/rooms/a1/bot", R"({"seat":2,"profile":"easy"})", admin);
    INFO(r.body);
    REQUIRE(r.status == 200);
    CHECK(str(r.as<fb::AdminResponse>()->bots()) == "2:easy");
    for (int i = 0; i < 400 && head_of(h, "a1") < 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(head_of(h, "a1") >= 1);  // the Bene Gesserit bot predicted
    auto back = h.post("/admin/rooms/a1/bot", R"({"seat":2,"profile":"human"})", admin);
    CHECK(str(back.as<fb::AdminResponse>()->bots()).empty());
  }
  SECTION("an archived room takes no actions until it is reopened") {
    CHECK(h.post("/admin/rooms/a1/archive", R"({})", admin).code() == "malformed");
    auto r = h.post("/admin/rooms/a1/archive", R"({"archived":true})", admin);
    REQUIRE(r.status == 200);
    CHECK(r.as<fb::AdminResponse>()->archived());
    auto refused = h.post("/rooms/a1/actions", act_body(0, "p", kPredict), room.tokens[2]);
    CHECK(refused.status == 410);
    CHECK(refused.code() == "archived");
    CHECK(head_of(h, "a1") == 0);
    CHECK(h.get("/rooms/a1/view").status == 200);  // still readable
    CHECK_FALSE(h.post("/admin/rooms/a1/archive", R"({"archived":false})", admin).as<fb::AdminResponse>()->archived());
    CHECK(h.post("/rooms/a1/actions", act_body(0, "p", kPredict), room.tokens[2]).status == 200);
  }
  SECTION("a deleted room is gone from the API, its tokens revoked, its events kept; it can be brought back") {
    REQUIRE(h.post("/rooms/a1/actions", act_body(0, "p", kPredict), room.tokens[2]).status == 200);
    CHECK(h.post("/admin/rooms/a1/delete", R"({})", admin).code() == "malformed");
    CHECK(h.post("/admin/rooms/a1/delete", R"({"deleted":true})", room.tokens[2]).code() == "bad_token");
    CHECK(h.post("/admin/rooms/zz/delete", R"({"deleted":true})", admin).code() == "unknown_room");
    auto r = h.post("/admin/rooms/a1/delete", R"({"deleted":true})", admin);
    REQUIRE(r.status == 200);
    CHECK(r.as<fb::AdminResponse>()->deleted());
    for (const char* path : {"/rooms/a1/view", "/rooms/a1/events?after=-1", "/rooms/a1/board.svg", "/rooms/a1/observer"}) {
      INFO(path);
      CHECK(h.get(path).status == 404);
      CHECK(h.get(path).code() == "deleted");
    }
    CHECK(h.post("/rooms/a1/actions", act_body(1, "q", kPredict), room.tokens[0]).code() == "deleted");
    CHECK(h.get("/rooms").body.find("\"a1\"") == std::string::npos);
    CHECK(h.post("/rooms", R"({"room":"a1","factions":["atreides","harkonnen"]})").code() == "room_exists");  // the id stays taken
    // Nothing acknowledged is lost: the events are still in the store.
    std::string error;
    auto m = h.store().meta("a1", &error);
    REQUIRE(m);
    CHECK(m->head == 1);
    // Brought back: readable again, but the old tokens stay revoked (the admin reissues them).
    auto back = h.post("/admin/rooms/a1/delete", R"({"deleted":false})", admin);
    REQUIRE(back.status == 200);
    CHECK_FALSE(back.as<fb::AdminResponse>()->deleted());
    CHECK(h.get("/rooms/a1/view").status == 200);
    CHECK(h.get("/rooms").body.find("\"a1\"") != std::string::npos);
    CHECK(h.get("/rooms/a1/view", room.tokens[0]).code() == "bad_token");
    const std::string fresh = str(h.post("/admin/rooms/a1/token", R"({"seat":0})", admin).as<fb::AdminResponse>()->token());
    CHECK(h.get("/rooms/a1/view", fresh).as<fb::ViewResponse>()->seat() == 0);
  }
}

TEST_CASE("server web: /metrics in Prometheus text, CORS, an access log line per request without tokens", "[server][web]") {
  const fs::path log = fs::temp_directory_path() / ("mentat-access-" + std::to_string(::getpid()) + ".log");
  fs::remove(log);
  std::vector<std::string> tokens;
  {
    Harness h(web_options(log.string()));
    Room room = make_room(h, "m1");
    tokens = room.tokens;
    REQUIRE(h.post("/rooms/m1/actions", act_body(0, "p", kPredict), room.tokens[2]).status == 200);

    auto prom = h.get("/metrics?format=prometheus");
    CHECK(prom.status == 200);
    CHECK_THAT(h.header("Content-Type"), Catch::StartsWith("text/plain"));
    CHECK_THAT(prom.body, Catch::Contains("# TYPE mentat_appends_total counter\nmentat_appends_total 1\n"));
    CHECK_THAT(prom.body, Catch::Contains("mentat_rooms_in_store 1\n"));
    CHECK_THAT(prom.body, Catch::Contains("mentat_append_latency_ms{quantile=\"0.99\"}"));
    CHECK_THAT(h.request("GET", "/metrics", "", "", {{"Accept", "text/plain"}}).body, Catch::StartsWith("# HELP"));
    CHECK(h.get("/metrics").as<fb::Metrics>()->appends() == 1);  // JSON stays the default

    auto pre = h.request("OPTIONS", "/rooms/m1/actions", "", "", {{"Origin", "https://play.example"}});
    CHECK(pre.status == 204);
    CHECK(h.header("Access-Control-Allow-Origin") == "https://play.example");
    CHECK_THAT(h.header("Access-Control-Allow-Headers"), Catch::Contains("Authorization"));
    h.request("GET", "/rooms", "", "", {{"Origin", "https://play.example"}});
    CHECK(h.header("Access-Control-Allow-Origin") == "https://play.example");
    h.request("GET", "/rooms", "", "", {{"Origin", "https://evil.example"}});
    CHECK(h.header("Access-Control-Allow-Origin").empty());

    CHECK(h.get("/rooms/m1/events?after=0&wait=0", room.tokens[0]).status == 200);
  }
  std::ifstream f(log);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  fs::remove(log);
  CHECK_THAT(text, Catch::Contains("\"POST /rooms/m1/actions\" 200 "));
  CHECK_THAT(text, Catch::Contains("\"GET /rooms/m1/events\" 200 "));  // the path, never the query
  CHECK_THAT(text, Catch::Contains("\"OPTIONS /rooms/m1/actions\" 204 "));
  CHECK_THAT(text, !Catch::Contains("after="));
  CHECK_THAT(text, !Catch::Contains("Bearer"));
  for (const auto& t : tokens) CHECK_THAT(text, !Catch::Contains(t));
  CHECK(std::count(text.begin(), text.end(), '\n') == 9);  // one line for each of the 9 requests above
}

TEST_CASE("server: a token the host issued for one seat of a room made without tokens works at once", "[server][web]") {
  Harness h(web_options());
  h.close();
  h.reopen_store_only();
  {
    GameSetup g;
    g.seed = 5;
    g.factions = {Faction::Atreides, Faction::Harkonnen, Faction::BeneGesserit};
    std::string room = "cli", error;
    REQUIRE(store::create_room(h.store(), g, &room, &error));  // as `mentat new`: no tokens
  }
  h.close();
  h.open();
  const std::string admin = "admin-token-for-tests-0123456789";
  auto r = h.post("/admin/rooms/cli/token", R"({"seat":2})", admin);
  REQUIRE(r.status == 200);
  const std::string token = str(r.as<fb::AdminResponse>()->token());
  auto v = h.get("/rooms/cli/view", token);  // before: 401 until seats 0 and 1 had tokens too
  INFO(v.body.substr(0, 200));
  REQUIRE(v.status == 200);
  CHECK(v.as<fb::ViewResponse>()->seat() == 2);
  CHECK(h.post("/rooms/cli/actions", act_body(0, "p", kPredict), token).status == 200);
  CHECK(h.get("/rooms/cli/view", "").status == 200);  // observers as before
  CHECK(h.get("/rooms/cli/view", std::string(64, '0')).code() == "bad_token");
}

TEST_CASE("server: junk version numbers and room ids are refused", "[server]") {
  Harness h(web_options());
  make_room(h, "jv");
  for (const char* v : {"+0", "%200", "%09%0A0", "-1", "1e3", "0x1", ""}) {
    INFO(v);
    CHECK(h.get(std::string("/rooms/jv/observer?v=") + v).status == 400);
  }
  CHECK(h.get("/rooms/jv/observer?v=0").status == 200);
  CHECK(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"room":".."})").code() == "malformed");
  CHECK(h.post("/rooms", R"({"factions":["atreides","harkonnen"],"room":"."})").code() == "malformed");
  auto t = h.post("/rooms", R"({"factions":["atreides","harkonnen"],"turns":21})");
  CHECK(t.code() == "malformed");
  CHECK_THAT(t.error(), Catch::Contains("1..20"));
}
