#include "server/server.h"

#include <httplib.h>
#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bots/bot.h"
#include "core/engine.h"
#include "events/codec.h"
#include "events/json_text.h"
#include "events/names.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "replay/fold.h"
#include "replay/progress.h"
#include "server/api.h"
#include "server/conn_gate.h"
#include "server/web.h"
#include "store/room.h"

namespace mentat::server {

namespace {

using Clock = std::chrono::steady_clock;

struct Reply {
  int status = 200;
  std::string body;
};

using flatbuffers::Offset;
using api::Builder;

// The finished response table `root` as the reply body (server/api.fbs).
// nulls: print unset scalars too (null for unset optional ones).
template <class T>
Reply reply(Builder& b, Offset<T> root, int status = 200, bool nulls = true) {
  b.Finish(root);
  return {status, api::print<T>(b, nulls)};
}

struct ErrorDetails {
  std::optional<int64_t> head = std::nullopt;
  std::optional<int64_t> version = std::nullopt;
  std::string reject_code = {};
};

// {"error": message, "code": code} plus the details that are set.
Reply error_reply(int status, std::string_view code, const std::string& message, const ErrorDetails& d = {}) {
  Builder b;
  const auto m = b.CreateString(api::valid_utf8(message));
  const auto c = b.CreateString(code.data(), code.size());
  const auto rc = d.reject_code.empty() ? Offset<flatbuffers::String>() : b.CreateString(d.reject_code);
  fb::ErrorResponseBuilder e(b);
  e.add_error(m);
  e.add_code(c);
  if (d.head) e.add_head(*d.head);
  if (d.version) e.add_version(*d.version);
  if (!rc.IsNull()) e.add_reject_code(rc);
  return reply(b, e.Finish(), status, false);
}

// A whole decimal integer (an optional '-', digits, nothing else).
bool parse_int(std::string_view s, int64_t* out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

double rounded(double v, double unit) { return std::round(v / unit) * unit; }

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

std::string token_name(Seat seat) { return "token." + std::to_string(seat); }

// splitmix64-style mixing of two words (the bots' seeds).
uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A room's bot seats as stored in its secrets: "bots" is a comma-separated
// list of "SEAT:PROFILE" (or just "SEAT", meaning medium: rooms created
// before profiles), "bot_seed" a decimal unsigned 64-bit number.
struct BotSeat {
  Seat seat = kNoSeat;
  bots::Profile profile = bots::Profile::Medium;
};

std::string bots_secret(const std::vector<BotSeat>& seats) {
  std::string out;
  for (const auto& b : seats)
    out += fmt::format("{}{}:{}", out.empty() ? "" : ",", b.seat, bots::profile_name(b.profile));
  return out;
}

bool parse_bots_secret(std::string_view text, std::vector<BotSeat>* out) {
  out->clear();
  while (!text.empty()) {
    const auto comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    BotSeat b;
    const auto colon = item.find(':');
    int64_t seat;
    if (!parse_int(item.substr(0, colon), &seat) || seat < 0 || seat >= kMaxSeats) return false;
    b.seat = static_cast<Seat>(seat);
    if (colon != std::string_view::npos && !bots::parse_profile(item.substr(colon + 1), &b.profile)) return false;
    out->push_back(b);
  }
  return true;
}
std::string stored_action_id(Seat seat, const std::string& id) { return "s" + std::to_string(seat) + ":" + id; }
std::string client_id_of(const std::string& stored) {
  auto colon = stored.find(':');
  return colon == std::string::npos ? stored : stored.substr(colon + 1);
}

// The summary a viewer may read: hidden details only of its own events; the
// creation event never names the seed (it would reveal every future draw).
std::string summary_for(const codec::Event& e, const GameState* before, const GameState& after, Seat viewer) {
  if (e.action.kind() == ActionKind::CreateGame) {
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
  if (e.action.kind() == ActionKind::CreateGame) s = create_game(e.setup, nullptr);
  else apply(s, e.seat, e.action, nullptr);
}

struct RoomSlot {
  std::mutex write;                 // serialises submits to this room in this process
  std::mutex mu;                    // guards everything below
  std::condition_variable changed;  // head moved, or the server is stopping
  int64_t head = -1;                // newest version known to this process
  std::shared_ptr<const GameState> cached;  // state at cached->version (immutable)
  // What was read of the room's secrets (tokens, bots, deleted) is stale
  // once they change (here, or on another server sharing the store:
  // forget_secrets); each change bumps secrets_gen, and a read that began
  // before the change does not fill the cache.
  uint64_t secrets_gen = 0;
  int waiters = 0;                  // long-polls waiting on `changed`
  bool tokens_loaded = false;
  std::vector<std::string> tokens;  // index = seat
  bool bots_loaded = false;
  std::vector<BotSeat> bot_seats;   // ascending seats
  std::vector<std::shared_ptr<const bots::Bot>> bots;  // index = seat (null: a human seat)
  std::atomic<bool> deleted{false};  // the host deleted it (docs/SERVER.md "Hosting"): 404 for every request
};

enum class Auth { Observer, SeatToken, Bad };

}  // namespace

struct Server::Impl : web::Host {
  store::EventStore& store;
  ServerOptions opts;
  GatedHttpServer http;  // connection limits: server/conn_gate.h
  std::thread thread;
  std::atomic<bool> stopping{false};
  std::atomic<int> long_polls{0};  // GET /rooms/{id}/events waiting now
  // Long-polls that may wait at once: the workers less max(2, workers / 8).
  int long_poll_cap() const {
    const int workers = std::max(2, opts.threads);
    return std::max(1, workers - std::max(2, workers / 8));
  }
  std::atomic<bool> started{false};
  std::atomic<int> listen_fd{-1};
  Clock::time_point born = Clock::now();

  mutable std::mutex rooms_mu;
  std::unordered_map<std::string, std::shared_ptr<RoomSlot>> rooms;

  std::atomic<int64_t> appends{0}, duplicates{0}, rejected{0}, conflicts{0}, requests{0}, bot_actions{0};

  // Bot workers: rooms that may wait for a bot seat, each queued at most once.
  std::mutex bot_mu;
  std::condition_variable bot_cv;
  std::deque<std::string> bot_queue;
  std::unordered_set<std::string> bot_queued;
  std::unordered_set<std::string> leased_elsewhere;  // rooms whose bots another server plays
  // Rooms whose bots this server plays, their game not over: looked at
  // again every kBotRecheck (an append on another server whose
  // notification was never sent would otherwise leave them waiting).
  std::unordered_set<std::string> leased_here;
  Clock::time_point bots_rechecked = Clock::now();
  static constexpr auto kBotRecheck = std::chrono::seconds(10);
  static constexpr auto kLeaseRetry = std::chrono::seconds(2);
  static constexpr auto kRecheck = std::chrono::seconds(5);  // a waiting long-poll reads the room's head again
  std::vector<std::thread> bot_threads;
  mutable std::mutex lat_mu;
  std::vector<double> latencies;  // ring of the last kLatencies append times (ms)
  size_t lat_next = 0;
  static constexpr size_t kLatencies = 4096;

  Impl(store::EventStore& s, ServerOptions o) : store(s), opts(o), http(gate_options(o)) {}

  static GateOptions gate_options(const ServerOptions& o) {
    GateOptions g;
    g.workers = std::max(2, o.threads);
    g.max_connections = std::max(1, o.max_connections);
    g.header_timeout_ms = static_cast<int>(std::max(0.05, o.header_timeout_seconds) * 1000);
    g.body_timeout_ms = static_cast<int>(std::max(0.05, o.body_timeout_seconds) * 1000);
    g.max_body_bytes = o.max_body_bytes;
    g.max_body_buffer = std::max<size_t>(o.max_body_bytes, 64u << 20);
    return g;
  }

  void record_latency(double ms) {
    std::scoped_lock lock(lat_mu);
    if (latencies.size() < kLatencies) latencies.push_back(ms);
    else latencies[lat_next] = ms;
    lat_next = (lat_next + 1) % kLatencies;
  }

  // The room's slot, or null with a 404/500 reply (a room the host deleted
  // is 404 `deleted`, unless `even_deleted`: the admin's undelete).
  std::shared_ptr<RoomSlot> slot(const std::string& room, Reply* err, bool even_deleted = false) {
    auto found = [&](std::shared_ptr<RoomSlot> sl) -> std::shared_ptr<RoomSlot> {
      if (!even_deleted && sl->deleted) {
        *err = error_reply(404, "deleted", "room " + room + " was deleted by the host");
        return nullptr;
      }
      return sl;
    };
    {
      std::scoped_lock lock(rooms_mu);
      if (auto it = rooms.find(room); it != rooms.end()) return found(it->second);
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
    const bool deleted = web::deleted(store, room);
    std::scoped_lock lock(rooms_mu);
    auto& s = rooms[room];
    if (!s) {
      s = std::make_shared<RoomSlot>();
      s->head = m->head;
      s->deleted = deleted;
    }
    return found(s);
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
    uint64_t gen;
    bool loaded;
    {
      std::scoped_lock lock(slot.mu);
      loaded = slot.tokens_loaded;
      if (loaded) tokens = slot.tokens;
      gen = slot.secrets_gen;
    }
    if (!loaded) {
      // Every seat is read: a seat without a token (a room made with `mentat
      // new`, tokens issued by the host seat by seat) stops none after it.
      std::string error;
      for (Seat s = 0; s < kMaxSeats; ++s) {
        auto t = store.get_room_secret(room, token_name(s), &error);
        if (!error.empty()) {
          *err = error_reply(500, "store", error);
          return Auth::Bad;
        }
        tokens.push_back(t ? *t : std::string());
      }
      std::scoped_lock lock(slot.mu);
      if (slot.secrets_gen == gen) {
        slot.tokens = tokens;
        slot.tokens_loaded = true;
      }
    }
    bool found = false;
    for (size_t s = 0; s < tokens.size(); ++s)
      if (!tokens[s].empty() && api::same_secret(tokens[s], token)) {
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

  // ---- bots ----------------------------------------------------------------

  // Reads the room's bot seats and seed (once per slot). False on a store
  // error or a damaged secret.
  bool load_bots(RoomSlot& sl, const std::string& room, std::string* error) {
    uint64_t gen;
    {
      std::scoped_lock lock(sl.mu);
      if (sl.bots_loaded) return true;
      gen = sl.secrets_gen;
    }
    auto text = store.get_room_secret(room, "bots", error);
    if (!error->empty()) return false;
    std::vector<BotSeat> seats;
    std::vector<std::shared_ptr<const bots::Bot>> made;
    if (text && !text->empty()) {
      if (!parse_bots_secret(*text, &seats)) {
        *error = "room " + room + ": damaged bots secret '" + *text + "'";
        return false;
      }
      auto seed_text = store.get_room_secret(room, "bot_seed", error);
      if (!error->empty()) return false;
      uint64_t seed = 0;
      if (seed_text) {
        const auto [end, ec] = std::from_chars(seed_text->data(), seed_text->data() + seed_text->size(), seed);
        if (ec != std::errc() || end != seed_text->data() + seed_text->size()) {
          *error = "room " + room + ": damaged bot_seed secret";
          return false;
        }
      }
      for (const auto& b : seats) {
        if (made.size() <= static_cast<size_t>(b.seat)) made.resize(static_cast<size_t>(b.seat) + 1);
        made[static_cast<size_t>(b.seat)] = bots::make_bot(b.profile, mix(seed, 0xb07'0000ULL + b.seat));
      }
    }
    std::scoped_lock lock(sl.mu);
    if (!sl.bots_loaded && sl.secrets_gen == gen) {
      sl.bot_seats = std::move(seats);
      sl.bots = std::move(made);
      sl.bots_loaded = true;
    }
    return true;
  }

  void queue_bots(const std::string& room) {
    if (opts.bot_threads <= 0) return;
    {
      std::scoped_lock lock(bot_mu);
      if (!bot_queued.insert(room).second) return;
      bot_queue.push_back(room);
    }
    bot_cv.notify_one();
  }

  // After an acknowledged event: queue the room if it has bot seats.
  void after_event(RoomSlot& sl, const std::string& room) {
    std::string error;
    if (!load_bots(sl, room, &error)) {
      std::fprintf(stderr, "mentat serve: %s\n", error.c_str());
      return;
    }
    bool any;
    {
      std::scoped_lock lock(sl.mu);
      any = !sl.bot_seats.empty();
    }
    if (any) queue_bots(room);
  }

  // Plays the room's bot seats while one is waited for, at most
  // bot_moves_per_turn moves (then the room goes to the back of the queue).
  // Only while this server holds the room's lease (servers sharing a
  // PostgreSQL store: one plays a room's bots; store::EventStore::hold_room_lease).
  void play_bots(const std::string& room) {
    Reply err;
    auto sl = slot(room, &err);
    if (!sl) return;
    {
      const bool mine = store.hold_room_lease(room);
      std::scoped_lock lock(bot_mu);
      if (!mine) {
        leased_elsewhere.insert(room);
        leased_here.erase(room);
        return;
      }
      leased_elsewhere.erase(room);
      leased_here.insert(room);
    }
    std::string error;
    if (!load_bots(*sl, room, &error)) {
      std::fprintf(stderr, "mentat serve: %s\n", error.c_str());
      return;
    }
    for (int moves = 0; !stopping; ) {
      std::shared_ptr<const GameState> s;
      if (!head_state(*sl, room, &s, &error)) {
        std::fprintf(stderr, "mentat serve: bots of room %s: %s\n", room.c_str(), error.c_str());
        return;
      }
      const uint8_t waiting = waiting_for(*s);
      std::shared_ptr<const bots::Bot> bot;
      Seat seat = kNoSeat;
      {
        std::scoped_lock lock(sl->mu);
        for (const auto& b : sl->bot_seats)
          if (b.seat < s->num_seats && ((waiting >> b.seat) & 1u)) {
            seat = b.seat;
            bot = sl->bots[static_cast<size_t>(b.seat)];
            break;
          }
      }
      if (!bot) {  // game over, or only humans are asked
        if (!waiting) {
          std::scoped_lock lock(bot_mu);
          leased_here.erase(room);
        }
        return;
      }
      if (sl->deleted || web::archived(store, room)) return;
      if (moves == opts.bot_moves_per_turn) {
        queue_bots(room);
        return;
      }
      const bots::ViewInput in = bots::make_input(*s, seat);
      if (in.legal.empty()) {
        std::fprintf(stderr, "mentat serve: room %s version %llu: bot seat %d is waited for but has no legal action\n",
                     room.c_str(), static_cast<unsigned long long>(s->version), seat);
        return;
      }
      const Action a = bot->choose(in);
      const int64_t expect = static_cast<int64_t>(s->version);
      const Reply r = submit_as(sl, room, seat, expect, a, stored_action_id(seat, "bot-" + std::to_string(expect)), true);
      if (r.status == 200) {
        ++moves;
        continue;
      }
      // A human acted first (the head moved): look again. (An id_reused
      // 409 would be a bot bug: reported below, not retried.)
      if (r.status == 409 && r.body.find("\"stale_version\"") != std::string::npos) continue;
      std::fprintf(stderr, "mentat serve: room %s version %lld: the bot of seat %d was refused: %s\n", room.c_str(),
                   static_cast<long long>(expect), seat, r.body.c_str());
      return;
    }
  }

  void bot_worker() {
    for (;;) {
      std::string room;
      {
        std::unique_lock lock(bot_mu);
        // Rooms whose lease another server holds are looked at again every
        // kLeaseRetry (a holder that died has released it), this server's
        // own every kBotRecheck.
        while (!stopping && bot_queue.empty())
          if (!bot_cv.wait_for(lock, kLeaseRetry, [&] { return stopping.load() || !bot_queue.empty(); })) {
            for (const auto& r : leased_elsewhere)
              if (bot_queued.insert(r).second) bot_queue.push_back(r);
            if (Clock::now() - bots_rechecked >= kBotRecheck) {
              bots_rechecked = Clock::now();
              for (const auto& r : leased_here)
                if (bot_queued.insert(r).second) bot_queue.push_back(r);
            }
          }
        if (stopping) return;
        room = std::move(bot_queue.front());
        bot_queue.pop_front();
        bot_queued.erase(room);
      }
      try {
        play_bots(room);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "mentat serve: bots of room %s: %s\n", room.c_str(), e.what());
      }
    }
  }

  // An append committed by any server sharing the store
  // (store::EventStore::Watcher::appended): long-polls on this server wake, and
  // the room's bots, if any, get their turn.
  void on_append(const std::string& room, int64_t version) {
    std::shared_ptr<RoomSlot> sl;
    {
      std::scoped_lock lock(rooms_mu);
      auto it = rooms.find(room);
      if (it == rooms.end()) return;  // nobody here follows it
      sl = it->second;
    }
    {
      std::scoped_lock lock(sl->mu);
      if (version <= sl->head) return;  // this server's own append, or old news
      sl->head = version;
    }
    sl->changed.notify_all();
    after_event(*sl, room);
  }

  // Forgets what this process read of the room's secrets (seat tokens, bot
  // seats, deleted); they are read again when next needed. Under sl.mu.
  static void forget_secrets(RoomSlot& sl) {
    ++sl.secrets_gen;
    sl.tokens_loaded = false;
    sl.tokens.clear();
    sl.bots_loaded = false;
    sl.bot_seats.clear();
    sl.bots.clear();
  }

  // The room's secrets changed (store::EventStore::Watcher::secrets_changed,
  // on any server sharing the store, this one included): forget them, read
  // `deleted` again, wake the long-polls (a deleted room's answer 404) and
  // give the bots their turn (a seat may have become a bot's).
  void on_secrets_changed(const std::string& room) {
    std::shared_ptr<RoomSlot> sl;
    {
      std::scoped_lock lock(rooms_mu);
      auto it = rooms.find(room);
      if (it == rooms.end()) return;  // nothing read of it here
      sl = it->second;
    }
    refresh(*sl, room, false);
  }

  // The store's listening connection was (re-)established
  // (Watcher::resync): appends and secret changes committed meanwhile were
  // not told. Every followed room forgets its secrets; the rooms with
  // waiting long-polls read their head again (they wake when it moved);
  // bots get their turn.
  void on_resync() {
    std::vector<std::pair<std::string, std::shared_ptr<RoomSlot>>> all;
    {
      std::scoped_lock lock(rooms_mu);
      all.assign(rooms.begin(), rooms.end());
    }
    for (const auto& [room, sl] : all) {
      if (stopping) return;
      bool waited_for;
      {
        std::scoped_lock lock(sl->mu);
        waited_for = sl->waiters > 0;
      }
      refresh(*sl, room, waited_for);
    }
  }

  // on_secrets_changed and on_resync: forgets the room's secrets, reads
  // `deleted` (and with `head` the room's head) again, wakes its long-polls
  // and queues its bots.
  void refresh(RoomSlot& sl, const std::string& room, bool head) {
    {
      std::scoped_lock lock(sl.mu);
      forget_secrets(sl);
    }
    std::string error;
    int64_t stored = -1;
    if (head) {
      auto m = store.meta(room, &error);
      if (!m) {
        if (!error.empty()) std::fprintf(stderr, "mentat serve: room %s: %s\n", room.c_str(), error.c_str());
        return;
      }
      stored = m->head;
    }
    sl.deleted = web::deleted(store, room);
    {
      std::scoped_lock lock(sl.mu);
      sl.head = std::max(sl.head, stored);
      sl.changed.notify_all();
    }
    if (!sl.deleted) after_event(sl, room);
  }

  // At start-up: queue every stored room that has bot seats (a restart
  // continues their games).
  void scan_bot_rooms() {
    std::string error;
    const auto all = store.rooms(&error);
    for (const auto& m : all) {
      if (stopping) return;
      auto text = store.get_room_secret(m.room, "bots", &error);
      if (text && !text->empty()) queue_bots(m.room);
    }
    if (!error.empty()) std::fprintf(stderr, "mentat serve: listing rooms for the bots: %s\n", error.c_str());
  }

  // ---- web::Host (server/web.cpp) -----------------------------------------

  bool seat_of(const std::string& room, const std::string& auth, Seat* seat, web::Answer* err) override {
    Reply e;
    auto sl = slot(room, &e);
    if (sl && authenticate(*sl, room, auth, seat, &e) != Auth::Bad) return true;
    *err = {e.status, e.body};
    return false;
  }

  bool state_at(const std::string& room, int64_t version, std::shared_ptr<const GameState>* out,
                web::Answer* err) override {
    Reply e;
    auto sl = slot(room, &e);
    std::string error;
    if (sl && head_state(*sl, room, out, &error)) {
      if (version < 0 || version == static_cast<int64_t>((*out)->version)) return true;
      if (version > static_cast<int64_t>((*out)->version)) {
        *err = this->error(404, "not_found", fmt::format("room {} has no version {} yet", room, version));
        return false;
      }
      auto s = std::make_shared<GameState>();
      if (store::load_state(store, room, version, s.get(), &error)) {
        *out = s;
        return true;
      }
    }
    if (sl) e = error_reply(500, "store", error);
    *err = {e.status, e.body};
    return false;
  }

  web::Answer error(int status, const std::string& code, const std::string& message) override {
    const Reply r = error_reply(status, code, message);
    return {r.status, r.body};
  }

  bool reissue_token(const std::string& room, Seat seat, std::string* token, std::string* error) override {
    Reply e;
    auto sl = slot(room, &e);
    if (!sl) {
      *error = "no room " + room;
      return false;
    }
    *token = random_hex(32);
    if (!store.put_room_secrets(room, {{token_name(seat), *token}}, error)) return false;
    std::scoped_lock lock(sl->mu);
    forget_secrets(*sl);
    return true;
  }

  // Deleting keeps every event (docs/SERVER.md "Hosting"): it marks the room
  // (a room secret), revokes every seat token and hides the room from the API.
  bool set_deleted(const std::string& room, bool deleted, std::string* error) override {
    Reply e;
    auto sl = slot(room, &e, true);
    if (!sl) {
      *error = "no room " + room;
      return false;
    }
    std::unique_lock write(sl->write);  // no submit of this room meanwhile
    std::shared_ptr<const GameState> s;
    if (!head_state(*sl, room, &s, error)) return false;
    std::vector<std::pair<std::string, std::string>> secrets{{"deleted", deleted ? "1" : "0"}};
    if (deleted)
      for (Seat seat = 0; seat < s->num_seats; ++seat) secrets.emplace_back(token_name(seat), random_hex(32));  // told to nobody
    if (!store.put_room_secrets(room, secrets, error)) return false;
    {
      std::scoped_lock lock(sl->mu);
      sl->deleted = deleted;
      forget_secrets(*sl);
      sl->changed.notify_all();  // waiting long-polls answer, and then see the 404
    }
    if (!deleted) after_event(*sl, room);
    return true;
  }

  bool set_bot(const std::string& room, Seat seat, const std::string& profile, std::string* bots_text,
               std::string* error) override {
    Reply e;
    auto sl = slot(room, &e);
    if (!sl) {
      *error = "no room " + room;
      return false;
    }
    std::unique_lock write(sl->write);  // no submit of this room meanwhile
    auto text = store.get_room_secret(room, "bots", error);
    if (!error->empty()) return false;
    std::vector<BotSeat> seats;
    if (text && !parse_bots_secret(*text, &seats)) {
      *error = "room " + room + ": damaged bots secret";
      return false;
    }
    std::erase_if(seats, [&](const BotSeat& b) { return b.seat == seat; });
    if (profile != "human") {
      BotSeat b;
      b.seat = seat;
      if (!bots::parse_profile(profile, &b.profile)) {
        *error = "unknown bot profile \"" + profile + "\" (easy, medium, hard, brutal or human)";
        return false;
      }
      seats.push_back(b);
    }
    std::sort(seats.begin(), seats.end(), [](const BotSeat& a, const BotSeat& b) { return a.seat < b.seat; });
    *bots_text = bots_secret(seats);
    std::vector<std::pair<std::string, std::string>> secrets = {{"bots", *bots_text}};
    // Rooms created before bot seats had no bot seed: one now.
    if (!store.get_room_secret(room, "bot_seed", error)) secrets.emplace_back("bot_seed", std::to_string(random_u64()));
    if (!error->empty() || !store.put_room_secrets(room, secrets, error)) return false;
    {
      std::scoped_lock lock(sl->mu);
      forget_secrets(*sl);
    }
    write.unlock();
    if (!seats.empty()) queue_bots(room);
    return true;
  }

  void room_changed(const std::string& room) override {
    Reply e;
    if (auto sl = slot(room, &e)) {
      {
        std::scoped_lock lock(sl->mu);
        sl->changed.notify_all();
      }
      after_event(*sl, room);
    }
  }

  void count_request() override { ++requests; }
  MetricsSnapshot metrics_snapshot() const override { return snapshot(); }
  int64_t rooms_in_store() override {
    std::string error;
    return static_cast<int64_t>(store.rooms(&error).size());
  }
  web::Answer metrics_json() override {
    const Reply r = metrics();
    return {r.status, r.body};
  }

  // ---- handlers ----------------------------------------------------------

  Reply health() {
    Builder b;
    const auto status = b.CreateString("ok");
    return reply(b, fb::CreateHealth(b, status, rounded(std::chrono::duration<double>(Clock::now() - born).count(), 0.1)));
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
    m.bot_actions = bot_actions;
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
    Builder b;
    const auto latency = fb::CreateLatencyStats(b, rounded(m.append_p50_ms, 0.001), rounded(m.append_p99_ms, 0.001),
                                                rounded(m.append_max_ms, 0.001),
                                                std::min<int64_t>(m.appends, static_cast<int64_t>(kLatencies)));
    return reply(b, fb::CreateMetrics(b, m.rooms_loaded, static_cast<int64_t>(all.size()), m.appends, m.duplicates,
                                      m.rejected, m.conflicts, m.requests, latency, rounded(m.uptime_s, 0.1),
                                      m.bot_actions));
  }

  Reply list_rooms() {
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

  Reply create(const std::string& body) {
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
    return reply(b,
                 fb::CreateCreateRoomResponseDirect(b, room.c_str(), 0, g.advanced ? "advanced" : "basic", g.max_turns,
                                                    &seats, &bot_seat_numbers),
                 201);
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

  Reply events(const std::string& room, const std::string& auth, const std::string& after_text,
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

  // The reply for an action already stored under this seat's client id.
  Reply duplicate_reply(const std::string& room, Seat seat, int64_t version, const Action& requested) {
    std::string bytes, error;
    codec::Event e;
    if (!store.read_event(room, version, &bytes, &error) || !codec::decode_event(bytes, &e, &error))
      return error_reply(500, "store", error);
    if (e.seat != seat || !(e.action == requested))
      return error_reply(409, "id_reused",
                         fmt::format("client action id already used at version {} for a different action", version),
                         {.version = version});
    GameState before, after;
    if (!store::load_state(store, room, version - 1, &before, &error) ||
        !store::load_state(store, room, version, &after, &error))
      return error_reply(500, "store", error);
    ++duplicates;
    return submitted(room, version, summary_for(e, &before, after, seat), true);
  }

  static Reply submitted(const std::string& room, int64_t version, const std::string& summary, bool duplicate) {
    Builder b;
    return reply(b, fb::CreateSubmitResponseDirect(b, room.c_str(), version, summary.c_str(), duplicate));
  }

  Reply act(const std::string& room, const std::string& auth, const std::string& body) {
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

  // The durable path of every action, a human's (act) or a bot's: checks
  // the client id and the expected version, then store::submit (synced).
  // `id` is the stored id ("s<seat>:<client id>").
  Reply submit_as(const std::shared_ptr<RoomSlot>& sl, const std::string& room, Seat seat, int64_t expect,
                  const Action& action, const std::string& id, bool by_bot) {
    std::string error;
    std::unique_lock write(sl->write);
    auto prev = store.find_action(room, id, &error);
    if (!error.empty()) return error_reply(500, "store", error);
    if (prev) return duplicate_reply(room, seat, *prev, action);
    std::shared_ptr<const GameState> before;
    if (!head_state(*sl, room, &before, &error)) return error_reply(500, "store", error);
    if (static_cast<int64_t>(before->version) != expect) {
      ++conflicts;
      return error_reply(409, "stale_version",
                         fmt::format("room {} is at version {}, not {}", room, before->version, expect),
                         {.head = static_cast<int64_t>(before->version)});
    }
    const auto t0 = Clock::now();
    auto o = store::submit(store, room, seat, expect, action, id);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (o.rejection) {
      ++rejected;
      return error_reply(422, "rejected", o.rejection->reason,
                         {.head = expect, .reject_code = std::string(reject_code_name(o.rejection->code))});
    }
    if (o.conflict) {
      ++conflicts;
      return error_reply(409, "stale_version", o.error, {.head = o.version});
    }
    if (!o.ok) return error_reply(500, "store", o.error);
    if (o.duplicate) return duplicate_reply(room, seat, o.version, action);
    ++appends;
    if (by_bot) ++bot_actions;
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
    write.unlock();
    // A bot's worker goes on playing the room by itself.
    if (!by_bot) after_event(*sl, room);
    return submitted(room, o.version, summary_for(o.event, before.get(), *after, seat), false);
  }

  void routes() {
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
  // Linux lets listen() be called again on a listening socket to change
  // its backlog (cpp-httplib 0.11 uses 5: simultaneous connects beyond it
  // were dropped and their first request went unanswered).
  if (impl_->listen_fd >= 0) ::listen(impl_->listen_fd, SOMAXCONN);
  auto returned = std::make_shared<std::atomic<bool>>(false);
  impl_->thread = std::thread([this, returned] {
    impl_->http.listen_after_bind();
    *returned = true;
  });
  // stop() only acts on a running server: wait until it runs.
  while (!impl_->http.is_running() && !*returned) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (*returned) {
    impl_->thread.join();
    impl_->started = false;
    *error = fmt::format("the server on {}:{} stopped at once", host, bound);
    return -1;
  }
  impl_->stopping = false;
  store::EventStore::Watcher w;
  w.appended = [impl = impl_.get()](const std::string& room, int64_t version) { impl->on_append(room, version); };
  w.secrets_changed = [impl = impl_.get()](const std::string& room) { impl->on_secrets_changed(room); };
  w.resync = [impl = impl_.get()] { impl->on_resync(); };
  impl_->store.watch(std::move(w));
  for (int i = 0; i < impl_->opts.bot_threads; ++i)
    impl_->bot_threads.emplace_back([this, i] {
      if (i == 0) impl_->scan_bot_rooms();
      impl_->bot_worker();
    });
  return bound;
}

void Server::stop() {
  if (!impl_->started.exchange(false)) return;
  impl_->stopping = true;
  impl_->store.watch({});
  {
    std::scoped_lock lock(impl_->bot_mu);
    impl_->bot_cv.notify_all();
  }
  for (auto& t : impl_->bot_threads) t.join();
  impl_->bot_threads.clear();
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
    int64_t p;
    if (parse_int(std::string_view(listen).substr(colon + 1), &p) && p >= 0 && p <= 65535) port = static_cast<int>(p);
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
    std::printf("listening on http://%s:%d (store %s opened in %.1f ms)\n", host.c_str(), bound, st->dir().c_str(), open_ms);
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

int run_recover(const std::string& data_dir, bool projection, bool accept_loss, bool json) {
  const auto t0 = Clock::now();
  std::string error;
  store::Options o;
  o.create_if_missing = false;
  o.accept_loss = accept_loss;
  std::vector<store::LostWrite> lost;
  auto st = store::EventStore::open(data_dir, o, &error, &lost);
  if (!st) {
    std::fprintf(stderr, "mentat: %s\n", error.c_str());
    return 3;
  }
  auto ms_since = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  std::string out;  // the JSON object (json only)
  if (json) {
    out = "{\"store\":" + codec::json_quote(st->dir()) + ",\"lost\":[";
    for (size_t i = 0; i < lost.size(); ++i) out += (i ? "," : "") + codec::json_quote(lost[i].what);
    out += "]";
  } else {
    for (const auto& l : lost) std::printf("accepted loss in %s: %s\n", st->dir().c_str(), l.what.c_str());
    if (!lost.empty()) std::printf("(recorded in %s/MENTAT-LOSSES)\n", st->dir().c_str());
  }
  const auto t_open = Clock::now();
  int bad_records = 0;
  if (json) {
    std::vector<std::string> problems;
    if (!st->check_integrity(&problems, &error)) problems.push_back("the record check could not run: " + error);
    bad_records = static_cast<int>(problems.size());
    out += ",\"record_problems\":[";
    for (size_t i = 0; i < problems.size(); ++i) out += (i ? "," : "") + codec::json_quote(problems[i]);
    out += "],\"rooms\":[";
  } else {
    bad_records = print_integrity(*st);
  }
  auto rooms = st->rooms(&error);
  if (!error.empty()) {
    std::fprintf(stderr, "mentat: %s\n", error.c_str());
    return 3;
  }
  if (!json) std::printf("%-24s %8s %8s %10s  %s\n", "room", "head", "events", "ms", "result");
  int bad = 0;
  replay::VerifyOptions vo;
  vo.projection = projection;
  int64_t total = 0;
  for (const auto& m : rooms) total += m.head + 1;
  replay::VerifyProgress progress(static_cast<int64_t>(rooms.size()), total);  // on stderr
  bool first = true;
  for (const auto& m : rooms) {
    const auto r0 = Clock::now();
    auto r = replay::verify_room(*st, m.room, [&](int64_t v, int64_t head) { progress.at(v, head); }, vo);
    progress.room_done(r.events);
    const double ms = ms_since(r0, Clock::now());
    if (!r.ok) ++bad;
    if (json) {
      out += fmt::format("{}{{\"room\":{},\"head\":{},\"events\":{},\"ms\":{:.1f},\"ok\":{}", first ? "" : ",", codec::json_quote(m.room),
                         m.head, r.events, ms, r.ok ? "true" : "false");
      if (!r.ok)
        out += fmt::format(",\"first_bad\":{},\"check\":{},\"detail\":{}", r.first_bad, codec::json_quote(r.check), codec::json_quote(r.detail));
      out += "}";
      first = false;
    } else if (r.ok) {
      std::printf("%-24s %8lld %8lld %10.1f  ok\n", m.room.c_str(), static_cast<long long>(m.head),
                  static_cast<long long>(r.events), ms);
    } else {
      std::printf("%-24s %8lld %8lld %10.1f  FAILED at version %lld: %s: %s\n", m.room.c_str(),
                  static_cast<long long>(m.head), static_cast<long long>(r.events), ms,
                  static_cast<long long>(r.first_bad), r.check.c_str(), r.detail.c_str());
    }
  }
  progress.finish();
  const auto t_end = Clock::now();
  if (json)
    std::printf("%s],\"failed\":%d,\"open_ms\":%.1f,\"verify_ms\":%.1f,\"total_ms\":%.1f}\n", out.c_str(), bad, ms_since(t0, t_open),
                ms_since(t_open, t_end), ms_since(t0, t_end));
  else
    std::printf("%zu room(s), %d failed; store opened in %.1f ms, verified in %.1f ms, total %.1f ms\n", rooms.size(), bad,
                ms_since(t0, t_open), ms_since(t_open, t_end), ms_since(t0, t_end));
  return bad || bad_records || !lost.empty() ? 1 : 0;
}

}  // namespace mentat::server
