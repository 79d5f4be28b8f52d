// The HTTP routes of the room server's game API (docs/SERVER.md; the request
// and response tables: server/api.fbs): health, metrics, the room list,
// creating a room, a seat's view, the event feed (long-poll) and acting.
#include <httplib.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "events/names.h"
#include "inspect/view.h"
#include "server/server_impl.h"
#include "store/room.h"

namespace mentat::server {

namespace {

double rounded(double v, double unit) { return std::round(v / unit) * unit; }

std::string client_id_of(const std::string& stored) {
  auto colon = stored.find(':');
  return colon == std::string::npos ? stored : stored.substr(colon + 1);
}

void fold(GameState& s, const codec::Event& e) {
  if (e.action.kind() == ActionKind::CreateGame) s = create_game(e.setup, nullptr);
  else apply(s, e.seat, e.action, nullptr);
}

}  // namespace

Reply Server::Impl::health() {
  Builder b;
  const auto status = b.CreateString("ok");
  return reply(b, fb::CreateHealth(b, status, rounded(std::chrono::duration<double>(Clock::now() - born).count(), 0.1)));
}

Reply Server::Impl::metrics() {
  const auto m = snapshot();
  std::string error;
  const auto all = store.rooms(&error);
  Builder b;
  const auto latency = fb::CreateLatencyStats(b, rounded(m.append_p50_ms, 0.001), rounded(m.append_p99_ms, 0.001),
                                              rounded(m.append_max_ms, 0.001),
                                              std::min<int64_t>(m.appends, static_cast<int64_t>(kLatencies)));
  return reply(b, fb::CreateMetrics(b, m.rooms_loaded, static_cast<int64_t>(all.size()), m.appends, m.duplicates,
                                    m.rejected, m.conflicts, m.requests, latency, rounded(m.uptime_s, 0.1),
                                    m.bot_actions));
}

Reply Server::Impl::list_rooms() {
  std::string error;
  auto all = store.rooms(&error);
  if (!error.empty()) return error_reply(500, "store", error);
  Builder b;
  std::vector<Offset<fb::RoomInfo>> rooms_out;
  for (const auto& m : all) {
    if (web::deleted(store, m.room)) continue;  // the host deleted it: not listed (its events are kept)
    const auto name = b.CreateString(m.room);
    if (m.parent.empty()) {
      rooms_out.push_back(fb::CreateRoomInfo(b, name, m.head, m.created_unix_ms));
    } else {
      const auto parent = b.CreateString(m.parent);
      rooms_out.push_back(fb::CreateRoomInfo(b, name, m.head, m.created_unix_ms, parent, m.parent_version));
    }
  }
  // Without nulls: a room that is not a fork has no parent fields.
  return reply(b, fb::CreateRoomList(b, b.CreateVector(rooms_out)), 200, false);
}

Reply Server::Impl::create(const std::string& body) {
  std::string buffer, error;
  const auto* req = api::parse<fb::CreateRoomRequest>(body, &buffer, &error);
  if (!req) return error_reply(400, "malformed", error);
  GameSetup g;
  if (!req->factions() || req->factions()->size() == 0)
    return error_reply(400, "malformed", "factions must be a non-empty array of faction names");
  for (const auto* f : *req->factions()) {
    Faction fac;
    if (!parse_faction(f->string_view(), &fac)) return error_reply(400, "malformed", "unknown faction \"" + f->str() + "\"");
    g.factions.push_back(fac);
  }
  g.seed = req->seed() ? *req->seed() : random_u64();
  if (req->rules()) {
    if (req->rules()->string_view() != "basic" && req->rules()->string_view() != "advanced")
      return error_reply(400, "malformed", "rules must be \"basic\" or \"advanced\"");
    g.advanced = req->rules()->string_view() == "advanced";
  }
  if (req->turns() < 1 || req->turns() > kMaxGameTurns)
    return error_reply(400, "malformed", "turns must be an integer 1.." + std::to_string(kMaxGameTurns));
  g.max_turns = req->turns();
  if (req->rulings())
    for (const auto* r : *req->rulings()) {
      if (!r->id() || !r->value())
        return error_reply(400, "malformed", R"(rulings must be a list of {"id": ..., "value": ...})");
      if (!g.rulings.set(r->id()->string_view(), r->value()->string_view(), &error))
        return error_reply(400, "malformed", error);
    }
  // Module keys (GET /modules); check_setup below refuses one this release
  // does not play, and a faction whose module is missing, naming it.
  if (req->modules())
    for (const auto* m : *req->modules()) {
      data::Module mod;
      if (!data::parse_module(m->string_view(), &mod))
        return error_reply(400, "malformed", data::unknown_module_error(m->string_view()));
      g.modules = static_cast<data::ModuleSet>(g.modules | data::module_bit(mod));
    }
  std::vector<BotSeat> bot_seats;
  if (req->bot_profiles() && (!req->bots() || req->bot_profiles()->size() != req->bots()->size()))
    return error_reply(400, "malformed", "bot_profiles must give one profile per entry of bots");
  if (req->bots())
    for (flatbuffers::uoffset_t i = 0; i < req->bots()->size(); ++i) {
      const int8_t seat = req->bots()->Get(i);
      if (seat < 0 || seat >= static_cast<int>(g.factions.size()) ||
          std::any_of(bot_seats.begin(), bot_seats.end(), [&](const BotSeat& b) { return b.seat == seat; }))
        return error_reply(400, "malformed", "bots must list distinct seat numbers of this game, got " + std::to_string(seat));
      BotSeat b;
      b.seat = seat;
      if (req->bot_profiles() && !bots::parse_profile(req->bot_profiles()->Get(i)->string_view(), &b.profile))
        return error_reply(400, "malformed", "unknown bot profile \"" + req->bot_profiles()->Get(i)->str() +
                                                 "\" (easy, medium, hard or brutal)");
      bot_seats.push_back(b);
    }
  std::sort(bot_seats.begin(), bot_seats.end(), [](const BotSeat& a, const BotSeat& b) { return a.seat < b.seat; });
  std::vector<int> bots;
  for (const auto& b : bot_seats) bots.push_back(b.seat);
  // The bots' seed: reproducible when the game's seed is given (test games).
  const uint64_t bot_seed = req->bot_seed() ? *req->bot_seed() : req->seed() ? mix(*req->seed(), 0xb075eedULL) : random_u64();
  if (req->name()) g.name = req->name()->str();
  std::string room;
  if (req->room()) {
    room = req->room()->str();
    if (!store::EventStore::valid_room_id(room))
      return error_reply(400, "malformed", "room must be an id of letters, digits, '-', '_', '.' (at most 64)");
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
  secrets.emplace_back("bots", bots_secret(bot_seats));
  secrets.emplace_back("bot_seed", std::to_string(bot_seed));
  if (!store.put_room_secrets(room, secrets, &error)) return error_reply(500, "store", error);
  if (!bot_seats.empty()) queue_bots(room);

  Builder b;
  std::vector<Offset<fb::SeatInfo>> seats;
  for (size_t s = 0; s < g.factions.size(); ++s) {
    const auto it = std::find_if(bot_seats.begin(), bot_seats.end(), [&](const BotSeat& x) { return x.seat == static_cast<Seat>(s); });
    const bool bot = it != bot_seats.end();
    seats.push_back(fb::CreateSeatInfoDirect(b, static_cast<int8_t>(s), std::string(faction_key(g.factions[s])).c_str(),
                                             tokens[s].c_str(), bot,
                                             bot ? std::string(bots::profile_name(it->profile)).c_str() : nullptr));
  }
  const std::vector<int8_t> bot_seat_numbers(bots.begin(), bots.end());
  std::vector<Offset<flatbuffers::String>> modules;
  for (int i = 0; i < data::kNumModules; ++i)
    if (g.modules & data::module_bit(static_cast<data::Module>(i)))
      modules.push_back(b.CreateString(std::string(data::module_info(static_cast<data::Module>(i)).key)));
  return reply(b,
               fb::CreateCreateRoomResponseDirect(b, room.c_str(), 0, g.advanced ? "advanced" : "basic", g.max_turns,
                                                  &seats, &bot_seat_numbers, &modules),
               201);
}

Reply Server::Impl::view(const std::string& room, const std::string& auth) {
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
  const std::string view_bytes = inspect::build_view(*s, who);
  Builder b;
  const auto name = b.CreateString(room);
  const auto view_vec = b.CreateVector(reinterpret_cast<const uint8_t*>(view_bytes.data()), view_bytes.size());
  fb::ViewResponseBuilder r(b);
  r.add_room(name);
  r.add_version(s->version);
  if (seat != kNoSeat) r.add_seat(seat);
  r.add_view(view_vec);
  return reply(b, r.Finish());
}

Reply Server::Impl::events(const std::string& room, const std::string& auth, const std::string& after_text,
    const std::string& wait_text) {
  Reply err;
  auto sl = slot(room, &err);
  if (!sl) return err;
  Seat seat;
  if (authenticate(*sl, room, auth, &seat, &err) == Auth::Bad) return err;
  int64_t after = -1, wait = 0;
  std::string error;
  if (!after_text.empty() && !(parse_int(after_text, &after) && after >= -1))
    return error_reply(400, "malformed", "after must be an integer version >= -1");
  if (!wait_text.empty() && !(parse_int(wait_text, &wait) && wait >= 0))
    return error_reply(400, "malformed", "wait must be a whole number of seconds >= 0");
  wait = std::min<int64_t>(wait, opts.max_wait_seconds);
  auto m = store.meta(room, &error);
  if (!m) return error_reply(500, "store", error.empty() ? "room " + room + " vanished" : error);
  int64_t head = m->head;
  if (head <= after && wait > 0) {
    // Each waiting long-poll holds a worker: a few workers stay free for
    // every other request, whoever opens long-polls (observers need no
    // token). One more is told to come back (503 busy; the web client backs off).
    if (long_polls.fetch_add(1) >= long_poll_cap()) {
      --long_polls;
      return error_reply(503, "busy", "too many clients are waiting for events: poll again shortly");
    }
    struct Release {
      std::atomic<int>& n;
      ~Release() { --n; }
    } release{long_polls};
    const auto deadline = Clock::now() + std::chrono::seconds(wait);
    std::unique_lock lock(sl->mu);
    sl->head = std::max(sl->head, head);
    ++sl->waiters;
    const auto woken = [&] { return sl->head > after || stopping.load() || sl->deleted.load(); };
    // The store is asked too, every kRecheck: a server sharing it that
    // died between an append's commit and its notification told no one.
    while (!sl->changed.wait_until(lock, std::min(deadline, Clock::now() + kRecheck), woken) && Clock::now() < deadline) {
      lock.unlock();
      std::string e;
      const auto now = store.meta(room, &e);
      lock.lock();
      if (now) sl->head = std::max(sl->head, now->head);
    }
    --sl->waiters;
    head = sl->head;
    if (sl->deleted) return error_reply(404, "deleted", "room " + room + " was deleted by the host");
  }
  Builder b;
  std::vector<Offset<fb::EventInfo>> items;
  bool more = false;
  if (head > after) {
    const int64_t last = std::min(head, after + opts.max_events_per_poll);
    more = last < head;
    GameState s;
    if (after >= 0 && !store::load_state(store, room, after, &s, &error)) return error_reply(500, "store", error);
    bool ok = store.scan_events(room, after + 1, last, [&](int64_t v, const std::string& bytes) {
      codec::Event e;
      if (!codec::decode_event(bytes, &e, &error)) {
        error = fmt::format("room {} version {}: {}", room, v, error);
        return false;
      }
      GameState before = s;
      fold(s, e);
      const bool own = seat != kNoSeat && e.seat == seat;
      const auto faction =
          e.seat == kNoSeat ? Offset<flatbuffers::String>() : b.CreateString(faction_key(s.faction_at(e.seat)));
      const auto kind = b.CreateString(action_kind_name(e.action.kind()));
      const auto summary = b.CreateString(summary_for(e, v == 0 ? nullptr : &before, s, seat));
      const auto id = own ? b.CreateString(client_id_of(e.client_action_id)) : Offset<flatbuffers::String>();
      fb::EventInfoBuilder info(b);
      info.add_version(v);
      if (e.seat != kNoSeat) info.add_seat(e.seat);
      if (!faction.IsNull()) info.add_faction(faction);
      info.add_kind(kind);
      info.add_own(own);
      info.add_summary(summary);
      if (!id.IsNull()) info.add_id(id);
      items.push_back(info.Finish());
      return true;
    }, &error);
    if (!ok) return error_reply(500, "store", error);
    head = std::max(head, last);
  }
  const auto name = b.CreateString(room);
  const auto events_vec = b.CreateVector(items);
  fb::EventsResponseBuilder r(b);
  r.add_room(name);
  r.add_head(head);
  if (seat != kNoSeat) r.add_seat(seat);
  r.add_events(events_vec);
  r.add_more(more);
  return reply(b, r.Finish());
}

Reply Server::Impl::act(const std::string& room, const std::string& auth, const std::string& body) {
  Reply err;
  auto sl = slot(room, &err);
  if (!sl) return err;
  Seat seat;
  const Auth a = authenticate(*sl, room, auth, &seat, &err);
  if (a == Auth::Bad) return err;
  if (a != Auth::SeatToken) return error_reply(401, "bad_token", "acting needs a seat token (Authorization: Bearer TOKEN)");
  if (web::archived(store, room)) return error_reply(410, "archived", "room " + room + " is archived: it takes no more actions");
  std::string buffer, error, resolved;
  // Names for ids in the action (events/names.h), as `mentat act` takes them.
  if (!names::resolve_action_json(body, names::Context{}, &resolved, &error)) return error_reply(400, "malformed", error);
  const auto* req = api::parse<fb::SubmitRequest>(resolved, &buffer, &error);
  if (!req) return error_reply(400, "malformed", error);
  if (!req->expect() || *req->expect() < 0)
    return error_reply(400, "malformed", "expect must be the integer version the action is based on");
  const int64_t expect = *req->expect();
  if (!req->id() || req->id()->size() == 0 || req->id()->size() > 128 ||
      std::any_of(req->id()->begin(), req->id()->end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return error_reply(400, "malformed", "id must be a client action id of 1..128 characters without control characters");
  if (req->action_type() == fb::Action::NONE)
    return error_reply(400, "malformed", R"(the action is missing: give "action_type" and "action", like "action_type":"Bid","action":{"amount":3})");
  Action action;
  GameSetup ignored;
  if (!codec::action_from_table(static_cast<uint8_t>(req->action_type()), req->action(), &action, &ignored, &error))
    return error_reply(400, "malformed", error);
  return submit_as(sl, room, seat, expect, action, stored_action_id(seat, req->id()->str()), false);
}

void Server::Impl::routes() {
  http.set_payload_max_length(opts.max_body_bytes);
  http.set_keep_alive_timeout(opts.keep_alive_seconds);
  // Replies are written in pieces (headers, then body): without
  // TCP_NODELAY, Nagle's algorithm and the client's delayed ACK add ~40 ms
  // to every keep-alive round trip (docs/PERFORMANCE.md, "Room server").
  http.set_tcp_nodelay(true);
  // cpp-httplib closes a keep-alive connection after 5 requests by
  // default; clients that poll and act would reconnect all the time.
  http.set_keep_alive_max_count(1000);
  // Remember the listening socket: cpp-httplib listens with a backlog of
  // 5, too short for many clients connecting at once (start() raises it).
  http.set_socket_options([this](socket_t sock) {
    httplib::default_socket_options(sock);
    listen_fd = sock;
  });
  web::install(http, *this, store, opts);  // the browser client, admin, CORS, access log (server/web.cpp)
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

}  // namespace mentat::server
