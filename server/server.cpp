#include "server/server.h"

#include <httplib.h>
#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/engine.h"
#include "events/codec.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "replay/fold.h"
#include "server/json.h"
#include "store/room.h"

namespace mentat::server {

namespace {

using Clock = std::chrono::steady_clock;

struct Reply {
  int status = 200;
  std::string body;
};

Reply ok_reply(std::string body, int status = 200) { return {status, std::move(body)}; }

// {"error": message, "code": code, ...extra}; `extra` starts with ',' when set.
Reply error_reply(int status, std::string_view code, const std::string& message, const std::string& extra = "") {
  return {status, fmt::format(R"({{"error":{},"code":{}{}}})", json::quote(message), json::quote(code), extra)};
}

std::string random_hex(size_t bytes) {
  thread_local std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes * 2);
  while (out.size() < bytes * 2) {
    uint32_t v = rd();
    for (int k = 0; k < 4 && out.size() < bytes * 2; ++k, v >>= 8) {
      out += kHex[(v >> 4) & 0xF];
      out += kHex[v & 0xF];
    }
  }
  return out;
}

uint64_t random_u64() {
  thread_local std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char d = 0;
  for (size_t i = 0; i < a.size(); ++i) d |= static_cast<unsigned char>(a[i] ^ b[i]);
  return d == 0;
}

std::string token_name(Seat seat) { return "token." + std::to_string(seat); }
std::string stored_action_id(Seat seat, const std::string& id) { return "s" + std::to_string(seat) + ":" + id; }
std::string client_id_of(const std::string& stored) {
  auto colon = stored.find(':');
  return colon == std::string::npos ? stored : stored.substr(colon + 1);
}

// The summary a viewer may read: hidden details only of its own events; the
// creation event never names the seed (it would reveal every future draw).
std::string summary_for(const codec::Event& e, const GameState* before, const GameState& after, Seat viewer) {
  if (e.action.kind == ActionKind::CreateGame) {
    codec::Event pub = e;
    pub.setup.seed = 0;
    std::string s = inspect::summarize_event(pub, before, after, false);
    if (auto at = s.find("seed 0, "); at != std::string::npos) s.erase(at, 8);
    return s;
  }
  const bool own = viewer != kNoSeat && e.seat == viewer;
  return inspect::summarize_event(e, before, after, own);
}

void fold(GameState& s, const codec::Event& e) {
  if (e.action.kind == ActionKind::CreateGame) s = create_game(e.setup, nullptr);
  else apply(s, e.seat, e.action, nullptr);
}

std::string seat_json(Seat seat) { return seat == kNoSeat ? "null" : std::to_string(seat); }

struct RoomSlot {
  std::mutex write;                 // serialises submits to this room in this process
  std::mutex mu;                    // guards everything below
  std::condition_variable changed;  // head moved, or the server is stopping
  int64_t head = -1;                // newest version known to this process
  std::shared_ptr<const GameState> cached;  // state at cached->version (immutable)
  bool tokens_loaded = false;
  std::vector<std::string> tokens;  // index = seat
};

enum class Auth { Observer, SeatToken, Bad };

}  // namespace

struct Server::Impl {
  store::EventStore& store;
  ServerOptions opts;
  httplib::Server http;
  std::thread thread;
  std::atomic<bool> stopping{false};
  std::atomic<bool> started{false};
  Clock::time_point born = Clock::now();

  mutable std::mutex rooms_mu;
  std::unordered_map<std::string, std::shared_ptr<RoomSlot>> rooms;

  std::atomic<int64_t> appends{0}, duplicates{0}, rejected{0}, conflicts{0}, requests{0};
  mutable std::mutex lat_mu;
  std::vector<double> latencies;  // ring of the last kLatencies append times (ms)
  size_t lat_next = 0;
  static constexpr size_t kLatencies = 4096;

  Impl(store::EventStore& s, ServerOptions o) : store(s), opts(o) {}

  void record_latency(double ms) {
    std::scoped_lock lock(lat_mu);
    if (latencies.size() < kLatencies) latencies.push_back(ms);
    else latencies[lat_next] = ms;
    lat_next = (lat_next + 1) % kLatencies;
  }

  // The room's slot, or null with a 404/500 reply.
  std::shared_ptr<RoomSlot> slot(const std::string& room, Reply* err) {
    {
      std::scoped_lock lock(rooms_mu);
      if (auto it = rooms.find(room); it != rooms.end()) return it->second;
    }
    if (!store::EventStore::valid_room_id(room)) {
      *err = error_reply(404, "unknown_room", "no room " + room);
      return nullptr;
    }
    std::string error;
    auto m = store.meta(room, &error);
    if (!m) {
      *err = error.empty() ? error_reply(404, "unknown_room", "no room " + room) : error_reply(500, "store", error);
      return nullptr;
    }
    std::scoped_lock lock(rooms_mu);
    auto& s = rooms[room];
    if (!s) {
      s = std::make_shared<RoomSlot>();
      s->head = m->head;
    }
    return s;
  }

  // Which seat the Authorization header names (Observer without one).
  Auth authenticate(RoomSlot& slot, const std::string& room, const std::string& header, Seat* seat, Reply* err) {
    *seat = kNoSeat;
    if (header.empty()) return Auth::Observer;
    static constexpr std::string_view kBearer = "Bearer ";
    if (header.size() <= kBearer.size() || header.compare(0, kBearer.size(), kBearer) != 0) {
      *err = error_reply(401, "bad_token", "the Authorization header must be 'Bearer TOKEN'");
      return Auth::Bad;
    }
    const std::string_view token = std::string_view(header).substr(kBearer.size());
    std::vector<std::string> tokens;
    {
      std::scoped_lock lock(slot.mu);
      if (slot.tokens_loaded) tokens = slot.tokens;
    }
    if (tokens.empty()) {
      std::string error;
      for (Seat s = 0; s < kMaxSeats; ++s) {
        auto t = store.get_room_secret(room, token_name(s), &error);
        if (!error.empty()) {
          *err = error_reply(500, "store", error);
          return Auth::Bad;
        }
        if (!t) break;
        tokens.push_back(*t);
      }
      std::scoped_lock lock(slot.mu);
      slot.tokens = tokens;
      slot.tokens_loaded = true;
    }
    bool found = false;
    for (size_t s = 0; s < tokens.size(); ++s)
      if (same_secret(tokens[s], token)) {
        *seat = static_cast<Seat>(s);
        found = true;
      }
    if (!found) {
      *err = error_reply(401, "bad_token", "this token is not a seat of room " + room);
      return Auth::Bad;
    }
    return Auth::SeatToken;
  }

  // The state at the room's head (cached by version).
  bool head_state(RoomSlot& slot, const std::string& room, std::shared_ptr<const GameState>* out, std::string* error) {
    auto m = store.meta(room, error);
    if (!m) {
      if (error->empty()) *error = "no room " + room;
      return false;
    }
    {
      std::scoped_lock lock(slot.mu);
      slot.head = std::max(slot.head, m->head);
      if (slot.cached && static_cast<int64_t>(slot.cached->version) == m->head) {
        *out = slot.cached;
        return true;
      }
    }
    auto s = std::make_shared<GameState>();
    if (!store::load_state(store, room, m->head, s.get(), error)) return false;
    std::scoped_lock lock(slot.mu);
    if (!slot.cached || slot.cached->version < s->version) slot.cached = s;
    *out = s;
    return true;
  }

  // ---- handlers ----------------------------------------------------------

  Reply health() {
    return ok_reply(fmt::format(R"({{"status":"ok","uptime_s":{:.1f}}})",
                                std::chrono::duration<double>(Clock::now() - born).count()));
  }

  MetricsSnapshot snapshot() const {
    MetricsSnapshot m;
    {
      std::scoped_lock lock(rooms_mu);
      m.rooms_loaded = static_cast<int64_t>(rooms.size());
    }
    m.appends = appends;
    m.duplicates = duplicates;
    m.rejected = rejected;
    m.conflicts = conflicts;
    m.requests = requests;
    m.uptime_s = std::chrono::duration<double>(Clock::now() - born).count();
    std::vector<double> lat;
    {
      std::scoped_lock lock(lat_mu);
      lat = latencies;
    }
    if (!lat.empty()) {
      std::sort(lat.begin(), lat.end());
      auto pct = [&](double p) {
        size_t idx = static_cast<size_t>(p * static_cast<double>(lat.size() - 1) + 0.5);
        return lat[std::min(idx, lat.size() - 1)];
      };
      m.append_p50_ms = pct(0.50);
      m.append_p99_ms = pct(0.99);
      m.append_max_ms = lat.back();
    }
    return m;
  }

  Reply metrics() {
    const auto m = snapshot();
    std::string error;
    const auto all = store.rooms(&error);
    return ok_reply(fmt::format(
        R"({{"rooms_loaded":{},"rooms_in_store":{},"appends":{},"duplicates":{},"rejected":{},"conflicts":{},)"
        R"("requests":{},"append_latency_ms":{{"p50":{:.3f},"p99":{:.3f},"max":{:.3f},"samples":{}}},"uptime_s":{:.1f}}})",
        m.rooms_loaded, all.size(), m.appends, m.duplicates, m.rejected, m.conflicts, m.requests, m.append_p50_ms,
        m.append_p99_ms, m.append_max_ms, std::min<int64_t>(m.appends, static_cast<int64_t>(kLatencies)), m.uptime_s));
  }

  Reply list_rooms() {
    std::string error;
    auto all = store.rooms(&error);
    if (!error.empty()) return error_reply(500, "store", error);
    std::string out = R"({"rooms":[)";
    for (size_t i = 0; i < all.size(); ++i) {
      const auto& m = all[i];
      if (i) out += ',';
      out += fmt::format(R"({{"room":{},"head":{},"created_unix_ms":{})", json::quote(m.room), m.head, m.created_unix_ms);
      if (!m.parent.empty()) out += fmt::format(R"(,"parent":{},"parent_version":{})", json::quote(m.parent), m.parent_version);
      out += '}';
    }
    out += "]}";
    return ok_reply(out);
  }

  Reply create(const std::string& body) {
    json::Value v;
    std::string error;
    if (!json::parse(body, &v, &error)) return error_reply(400, "malformed", error);
    if (!v.is(json::Value::Type::Object)) return error_reply(400, "malformed", "the body must be a JSON object");
    GameSetup g;
    const auto* factions = v.get("factions");
    if (!factions || !factions->is(json::Value::Type::Array) || factions->items.empty())
      return error_reply(400, "malformed", "factions must be a non-empty array of faction names");
    for (const auto& f : factions->items) {
      Faction fac;
      if (!f.is(json::Value::Type::String) || !parse_faction(f.text, &fac))
        return error_reply(400, "malformed", "unknown faction " + std::string(f.raw));
      g.factions.push_back(fac);
    }
    if (const auto* seed = v.get("seed"); seed && !seed->is(json::Value::Type::Null)) {
      if (!seed->as_uint64(&g.seed)) return error_reply(400, "malformed", "seed must be an unsigned 64-bit integer");
    } else {
      g.seed = random_u64();
    }
    if (const auto* rules = v.get("rules")) {
      if (!rules->is(json::Value::Type::String) || (rules->text != "basic" && rules->text != "advanced"))
        return error_reply(400, "malformed", "rules must be \"basic\" or \"advanced\"");
      g.advanced = rules->text == "advanced";
    }
    if (const auto* turns = v.get("turns")) {
      int64_t t;
      if (!turns->as_int64(&t) || t < 1 || t > 255) return error_reply(400, "malformed", "turns must be an integer 1..255");
      g.max_turns = static_cast<uint8_t>(t);
    }
    if (const auto* rulings = v.get("rulings")) {
      if (!rulings->is(json::Value::Type::Object)) return error_reply(400, "malformed", "rulings must be an object {id: value}");
      for (size_t i = 0; i < rulings->keys.size(); ++i) {
        const auto& val = rulings->values[i];
        const std::string text = val.is(json::Value::Type::String) ? val.text : std::string(val.raw);
        if (!g.rulings.set(rulings->keys[i], text, &error)) return error_reply(400, "malformed", error);
      }
    }
    std::vector<int> bots;
    if (const auto* b = v.get("bots")) {
      if (!b->is(json::Value::Type::Array)) return error_reply(400, "malformed", "bots must be an array of seat numbers");
      for (const auto& item : b->items) {
        int64_t seat;
        if (!item.as_int64(&seat) || seat < 0 || seat >= static_cast<int64_t>(g.factions.size()) ||
            std::find(bots.begin(), bots.end(), static_cast<int>(seat)) != bots.end())
          return error_reply(400, "malformed", "bots must list distinct seat numbers of this game, got " + std::string(item.raw));
        bots.push_back(static_cast<int>(seat));
      }
      std::sort(bots.begin(), bots.end());
    }
    if (const auto* name = v.get("name")) {
      if (!name->is(json::Value::Type::String)) return error_reply(400, "malformed", "name must be a string");
      g.name = name->text;
    }
    std::string room;
    if (const auto* r = v.get("room")) {
      if (!r->is(json::Value::Type::String) || !store::EventStore::valid_room_id(r->text))
        return error_reply(400, "malformed", "room must be an id of letters, digits, '-', '_', '.' (at most 64)");
      room = r->text;
    } else {
      room = "r" + random_hex(8);
    }
    if (auto bad = check_setup(g)) return error_reply(400, "malformed", *bad);
    if (store.meta(room, &error)) return error_reply(409, "room_exists", "room " + room + " already exists");
    if (!store::create_room(store, g, &room, &error)) {
      if (error.find("already exists") != std::string::npos) return error_reply(409, "room_exists", error);
      return error_reply(500, "store", error);
    }
    // The tokens are written after the room: a crash in between leaves a
    // room nobody can act in (the creator never got an answer), never a
    // room whose tokens someone else chose.
    std::vector<std::pair<std::string, std::string>> secrets;
    std::vector<std::string> tokens;
    for (size_t s = 0; s < g.factions.size(); ++s) {
      tokens.push_back(random_hex(32));
      secrets.emplace_back(token_name(static_cast<Seat>(s)), tokens.back());
    }
    std::string bots_text;
    for (int b : bots) bots_text += (bots_text.empty() ? "" : ",") + std::to_string(b);
    secrets.emplace_back("bots", bots_text);
    if (!store.put_room_secrets(room, secrets, &error)) return error_reply(500, "store", error);

    std::string out = fmt::format(R"({{"room":{},"version":0,"rules":{},"turns":{},"seats":[)", json::quote(room),
                                  g.advanced ? "\"advanced\"" : "\"basic\"", g.max_turns);
    for (size_t s = 0; s < g.factions.size(); ++s) {
      const bool bot = std::find(bots.begin(), bots.end(), static_cast<int>(s)) != bots.end();
      out += fmt::format(R"({}{{"seat":{},"faction":{},"token":{},"bot":{}}})", s ? "," : "", s,
                         json::quote(faction_key(g.factions[s])), json::quote(tokens[s]), bot ? "true" : "false");
    }
    out += "],\"bots\":[" + bots_text + "]}";
    return ok_reply(out, 201);
  }

  Reply view(const std::string& room, const std::string& auth) {
    Reply err;
    auto sl = slot(room, &err);
    if (!sl) return err;
    Seat seat;
    const Auth a = authenticate(*sl, room, auth, &seat, &err);
    if (a == Auth::Bad) return err;
    std::shared_ptr<const GameState> s;
    std::string error;
    if (!head_state(*sl, room, &s, &error)) return error_reply(500, "store", error);
    const auto who = a == Auth::SeatToken ? inspect::Viewer::of(seat) : inspect::Viewer::observer();
    return ok_reply(fmt::format(R"({{"room":{},"version":{},"seat":{},"view":{}}})", json::quote(room), s->version,
                                seat_json(seat), inspect::view_json(*s, who)));
  }

  Reply events(const std::string& room, const std::string& auth, const std::string& after_text,
               const std::string& wait_text) {
    Reply err;
    auto sl = slot(room, &err);
    if (!sl) return err;
    Seat seat;
    if (authenticate(*sl, room, auth, &seat, &err) == Auth::Bad) return err;
    int64_t after = -1, wait = 0;
    json::Value num;
    std::string error;
    if (!after_text.empty() && !(json::parse(after_text, &num, &error) && num.as_int64(&after) && after >= -1))
      return error_reply(400, "malformed", "after must be an integer version >= -1");
    if (!wait_text.empty() && !(json::parse(wait_text, &num, &error) && num.as_int64(&wait) && wait >= 0))
      return error_reply(400, "malformed", "wait must be a whole number of seconds >= 0");
    wait = std::min<int64_t>(wait, opts.max_wait_seconds);
    auto m = store.meta(room, &error);
    if (!m) return error_reply(500, "store", error.empty() ? "room " + room + " vanished" : error);
    int64_t head = m->head;
    if (head <= after && wait > 0) {
      const auto deadline = Clock::now() + std::chrono::seconds(wait);
      std::unique_lock lock(sl->mu);
      sl->head = std::max(sl->head, head);
      sl->changed.wait_until(lock, deadline, [&] { return sl->head > after || stopping.load(); });
      head = sl->head;
    }
    std::string items;
    bool more = false;
    if (head > after) {
      const int64_t last = std::min(head, after + opts.max_events_per_poll);
      more = last < head;
      GameState s;
      if (after >= 0 && !store::load_state(store, room, after, &s, &error)) return error_reply(500, "store", error);
      int n = 0;
      bool ok = store.scan_events(room, after + 1, last, [&](int64_t v, const std::string& bytes) {
        codec::Event e;
        if (!codec::decode_event(bytes, &e, &error)) {
          error = fmt::format("room {} version {}: {}", room, v, error);
          return false;
        }
        GameState before = s;
        fold(s, e);
        const bool own = seat != kNoSeat && e.seat == seat;
        items += fmt::format(R"({}{{"version":{},"seat":{},"faction":{},"kind":{},"own":{},"summary":{})", n++ ? "," : "", v,
                             seat_json(e.seat),
                             e.seat == kNoSeat ? "null" : json::quote(faction_key(s.faction_at(e.seat))),
                             json::quote(action_kind_name(e.action.kind)), own ? "true" : "false",
                             json::quote(summary_for(e, v == 0 ? nullptr : &before, s, seat)));
        if (own) items += ",\"id\":" + json::quote(client_id_of(e.client_action_id));
        items += '}';
        return true;
      }, &error);
      if (!ok) return error_reply(500, "store", error);
      head = std::max(head, last);
    }
    return ok_reply(fmt::format(R"({{"room":{},"head":{},"seat":{},"events":[{}],"more":{}}})", json::quote(room), head,
                                seat_json(seat), items, more ? "true" : "false"));
  }

  // The reply for an action already stored under this seat's client id.
  Reply duplicate_reply(const std::string& room, Seat seat, int64_t version, const Action& requested) {
    std::string bytes, error;
    codec::Event e;
    if (!store.read_event(room, version, &bytes, &error) || !codec::decode_event(bytes, &e, &error))
      return error_reply(500, "store", error);
    if (e.seat != seat || !(e.action == requested))
      return error_reply(409, "id_reused",
                         fmt::format("client action id already used at version {} for a different action", version),
                         fmt::format(R"(,"version":{})", version));
    GameState before, after;
    if (!store::load_state(store, room, version - 1, &before, &error) ||
        !store::load_state(store, room, version, &after, &error))
      return error_reply(500, "store", error);
    ++duplicates;
    return ok_reply(fmt::format(R"({{"room":{},"version":{},"summary":{},"duplicate":true}})", json::quote(room), version,
                                json::quote(summary_for(e, &before, after, seat))));
  }

  Reply act(const std::string& room, const std::string& auth, const std::string& body) {
    Reply err;
    auto sl = slot(room, &err);
    if (!sl) return err;
    Seat seat;
    const Auth a = authenticate(*sl, room, auth, &seat, &err);
    if (a == Auth::Bad) return err;
    if (a != Auth::SeatToken) return error_reply(401, "bad_token", "acting needs a seat token (Authorization: Bearer TOKEN)");
    json::Value v;
    std::string error;
    if (!json::parse(body, &v, &error)) return error_reply(400, "malformed", error);
    if (!v.is(json::Value::Type::Object)) return error_reply(400, "malformed", "the body must be a JSON object");
    int64_t expect;
    const auto* ev = v.get("expect");
    if (!ev || !ev->as_int64(&expect) || expect < 0)
      return error_reply(400, "malformed", "expect must be the integer version the action is based on");
    const auto* idv = v.get("id");
    if (!idv || !idv->is(json::Value::Type::String) || idv->text.empty() || idv->text.size() > 128)
      return error_reply(400, "malformed", "id must be a client action id of 1..128 characters");
    const auto* av = v.get("action");
    if (!av || !av->is(json::Value::Type::Object))
      return error_reply(400, "malformed", R"(action must be an object like {"action_type":"Bid","action":{"amount":3}})");
    Action action;
    GameSetup ignored;
    if (!codec::parse_action_json(av->raw, &action, &ignored, &error)) return error_reply(400, "malformed", error);
    const std::string id = stored_action_id(seat, idv->text);

    std::scoped_lock write(sl->write);
    auto prev = store.find_action(room, id, &error);
    if (!error.empty()) return error_reply(500, "store", error);
    if (prev) return duplicate_reply(room, seat, *prev, action);
    std::shared_ptr<const GameState> before;
    if (!head_state(*sl, room, &before, &error)) return error_reply(500, "store", error);
    if (static_cast<int64_t>(before->version) != expect) {
      ++conflicts;
      return error_reply(409, "stale_version",
                         fmt::format("room {} is at version {}, not {}", room, before->version, expect),
                         fmt::format(R"(,"head":{})", before->version));
    }
    const auto t0 = Clock::now();
    auto o = store::submit(store, room, seat, expect, action, id);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (o.rejection) {
      ++rejected;
      return error_reply(422, "rejected", o.rejection->reason,
                         fmt::format(R"(,"reject_code":{},"head":{})", json::quote(reject_code_name(o.rejection->code)), expect));
    }
    if (o.conflict) {
      ++conflicts;
      return error_reply(409, "stale_version", o.error, fmt::format(R"(,"head":{})", o.version));
    }
    if (!o.ok) return error_reply(500, "store", o.error);
    if (o.duplicate) return duplicate_reply(room, seat, o.version, action);
    ++appends;
    record_latency(ms);
    auto after = std::make_shared<GameState>(*before);
    apply(*after, seat, action, nullptr);
    if (codec::state_hash(*after) != o.event.state_hash &&
        !store::load_state(store, room, o.version, after.get(), &error))
      return error_reply(500, "store", error);
    {
      std::scoped_lock lock(sl->mu);
      sl->head = std::max(sl->head, o.version);
      if (!sl->cached || sl->cached->version < after->version) sl->cached = after;
    }
    sl->changed.notify_all();
    return ok_reply(fmt::format(R"({{"room":{},"version":{},"summary":{},"duplicate":false}})", json::quote(room),
                                o.version, json::quote(summary_for(o.event, before.get(), *after, seat))));
  }

  void routes() {
    http.new_task_queue = [n = static_cast<size_t>(std::max(2, opts.threads))] { return new httplib::ThreadPool(n); };
    http.set_payload_max_length(opts.max_body_bytes);
    http.set_keep_alive_timeout(opts.keep_alive_seconds);
    auto wrap = [this](auto fn) {
      return [this, fn](const httplib::Request& req, httplib::Response& res) {
        ++requests;
        Reply r;
        try {
          r = fn(req);
        } catch (const std::exception& e) {
          r = error_reply(500, "internal", std::string("internal error: ") + e.what());
        }
        res.status = r.status;
        res.set_content(r.body, "application/json");
      };
    };
    auto auth = [](const httplib::Request& req) { return req.get_header_value("Authorization"); };
    auto param = [](const httplib::Request& req, const char* key) {
      return req.has_param(key) ? req.get_param_value(key) : std::string();
    };
    http.Get("/health", wrap([this](const httplib::Request&) { return health(); }));
    http.Get("/metrics", wrap([this](const httplib::Request&) { return metrics(); }));
    http.Get("/rooms", wrap([this](const httplib::Request&) { return list_rooms(); }));
    http.Post("/rooms", wrap([this](const httplib::Request& req) { return create(req.body); }));
    http.Get(R"(/rooms/([^/]+)/view)",
             wrap([this, auth](const httplib::Request& req) { return view(req.matches[1].str(), auth(req)); }));
    http.Get(R"(/rooms/([^/]+)/events)", wrap([this, auth, param](const httplib::Request& req) {
               return events(req.matches[1].str(), auth(req), param(req, "after"), param(req, "wait"));
             }));
    http.Post(R"(/rooms/([^/]+)/actions)",
              wrap([this, auth](const httplib::Request& req) { return act(req.matches[1].str(), auth(req), req.body); }));
    http.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
      if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;  // our own JSON error
      const Reply r = res.status == 413 ? error_reply(413, "too_large", "the request body is too large")
                      : res.status == 404 ? error_reply(404, "not_found", "no such endpoint")
                                          : error_reply(res.status, "malformed", "bad request");
      res.set_content(r.body, "application/json");
      return httplib::Server::HandlerResponse::Handled;
    }));
  }
};

Server::Server(store::EventStore& store, ServerOptions opts) : impl_(std::make_unique<Impl>(store, opts)) {
  impl_->routes();
}

Server::~Server() { stop(); }

int Server::start(const std::string& host, int port, std::string* error) {
  if (impl_->started.exchange(true)) {
    *error = "the server is already started";
    return -1;
  }
  // A peer closing its socket mid-reply must not kill the process.
  struct sigaction old {};
  if (sigaction(SIGPIPE, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) ::signal(SIGPIPE, SIG_IGN);
  int bound = port;
  if (port == 0) {
    bound = impl_->http.bind_to_any_port(host);
  } else if (!impl_->http.bind_to_port(host, port)) {
    bound = -1;
  }
  if (bound <= 0) {
    *error = fmt::format("cannot listen on {}:{}", host, port);
    impl_->started = false;
    return -1;
  }
  impl_->thread = std::thread([this] { impl_->http.listen_after_bind(); });
  // stop() only acts on a running server: wait until it runs.
  while (!impl_->http.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return bound;
}

void Server::stop() {
  if (!impl_->started.exchange(false)) return;
  impl_->stopping = true;
  {
    std::scoped_lock lock(impl_->rooms_mu);
    for (auto& [name, s] : impl_->rooms) {
      std::scoped_lock l(s->mu);
      s->changed.notify_all();
    }
  }
  impl_->http.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

MetricsSnapshot Server::metrics() const { return impl_->snapshot(); }

// ---- commands ---------------------------------------------------------------

int run_serve(const std::string& data_dir, const std::string& listen, const std::string& port_file,
              const ServerOptions& opts) {
  const auto colon = listen.rfind(':');
  int port = -1;
  std::string host = colon == std::string::npos ? std::string() : listen.substr(0, colon);
  if (colon != std::string::npos) {
    json::Value v;
    std::string err;
    int64_t p;
    if (json::parse(listen.substr(colon + 1), &v, &err) && v.as_int64(&p) && p >= 0 && p <= 65535) port = static_cast<int>(p);
  }
  if (host.empty() || port < 0) {
    std::fprintf(stderr, "mentat: --listen takes HOST:PORT (port 0: any free port), got '%s'\n", listen.c_str());
    return 2;
  }
  // SIGINT/SIGTERM are taken by sigwait below; block them before any thread
  // starts so that every thread inherits the mask.
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);

  std::string error;
  const auto t0 = Clock::now();
  auto st = store::EventStore::open(data_dir, store::Options{}, &error);
  if (!st) {
    std::fprintf(stderr, "mentat: %s\n", error.c_str());
    return 3;
  }
  const double open_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  int code = 0;
  {
    Server server(*st, opts);
    const int bound = server.start(host, port, &error);
    if (bound < 0) {
      std::fprintf(stderr, "mentat: %s\n", error.c_str());
      return 3;
    }
    std::printf("listening on http://%s:%d (store %s opened in %.1f ms)\n", host.c_str(), bound, data_dir.c_str(), open_ms);
    std::fflush(stdout);
    if (!port_file.empty()) {
      const std::string tmp = port_file + ".tmp";
      {
        std::ofstream f(tmp, std::ios::trunc);
        f << bound << "\n";
      }
      std::error_code ec;
      std::filesystem::rename(tmp, port_file, ec);
      if (ec) {
        std::fprintf(stderr, "mentat: cannot write %s: %s\n", port_file.c_str(), ec.message().c_str());
        code = 3;
      }
    }
    if (code == 0) {
      int sig = 0;
      sigwait(&sigs, &sig);
      std::printf("signal %d: stopping\n", sig);
      std::fflush(stdout);
    }
    server.stop();
    const auto m = server.metrics();
    std::printf("stopped: %lld append(s), p50 %.2f ms, p99 %.2f ms\n", static_cast<long long>(m.appends), m.append_p50_ms,
                m.append_p99_ms);
  }
  st.reset();
  return code;
}

int run_recover(const std::string& data_dir, bool projection) {
  const auto t0 = Clock::now();
  std::string error;
  store::Options o;
  o.create_if_missing = false;
  auto st = store::EventStore::open(data_dir, o, &error);
  if (!st) {
    std::fprintf(stderr, "mentat: %s\n", error.c_str());
    return 3;
  }
  const auto t_open = Clock::now();
  auto rooms = st->rooms(&error);
  if (!error.empty()) {
    std::fprintf(stderr, "mentat: %s\n", error.c_str());
    return 3;
  }
  std::printf("%-24s %8s %8s %10s  %s\n", "room", "head", "events", "ms", "result");
  int bad = 0;
  replay::VerifyOptions vo;
  vo.projection = projection;
  for (const auto& m : rooms) {
    const auto r0 = Clock::now();
    auto r = replay::verify_room(*st, m.room, {}, vo);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - r0).count();
    if (r.ok) {
      std::printf("%-24s %8lld %8lld %10.1f  ok\n", m.room.c_str(), static_cast<long long>(m.head),
                  static_cast<long long>(r.events), ms);
    } else {
      ++bad;
      std::printf("%-24s %8lld %8lld %10.1f  FAILED at version %lld: %s: %s\n", m.room.c_str(),
                  static_cast<long long>(m.head), static_cast<long long>(r.events), ms,
                  static_cast<long long>(r.first_bad), r.check.c_str(), r.detail.c_str());
    }
  }
  const auto t_end = Clock::now();
  std::printf("%zu room(s), %d failed; store opened in %.1f ms, verified in %.1f ms, total %.1f ms\n", rooms.size(), bad,
              std::chrono::duration<double, std::milli>(t_open - t0).count(),
              std::chrono::duration<double, std::milli>(t_end - t_open).count(),
              std::chrono::duration<double, std::milli>(t_end - t0).count());
  return bad ? 1 : 0;
}

}  // namespace mentat::server
