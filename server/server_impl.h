// Internal to the room server (server/server.h): Server::Impl and what its
// files share. Not a public interface; include it only from the server's own
// files, each of which holds one job of the Impl:
//
//   rooms.cpp      the room registry (slots, head states), the append path
//                  every action takes (submit_as), the store's notifications,
//                  the host's delete, metrics, Server::start and stop
//   auth.cpp       seat tokens: who a bearer token is, new tokens
//   bot_seats.cpp  bot seats: the bots secret, the queue, the workers, the
//                  leases and their rechecks
//   handlers.cpp   the HTTP routes of the game API (docs/SERVER.md)
//   commands.cpp   `mentat serve` and `mentat recover`
//
// Locking (unchanged by the split): RoomSlot::write serialises a room's
// submits and secret edits; RoomSlot::mu guards the slot's cached fields;
// rooms_mu the registry; bot_mu the bot queue and lease sets; lat_mu the
// latency ring.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bots/bot.h"
#include "core/engine.h"
#include "events/codec.h"
#include "server/api.h"
#include "server/conn_gate.h"
#include "server/server.h"
#include "server/web.h"

namespace mentat::server {

using Clock = std::chrono::steady_clock;
using flatbuffers::Offset;
using api::Builder;

struct Reply {
  int status = 200;
  std::string body;
};

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

// {"error": message, "code": code} plus the details that are set. (rooms.cpp)
Reply error_reply(int status, std::string_view code, const std::string& message, const ErrorDetails& d = {});

// A whole decimal integer (an optional '-', digits, nothing else). (rooms.cpp)
bool parse_int(std::string_view s, int64_t* out);

// The summary a viewer may read: hidden details only of its own events; the
// creation event never names the seed (it would reveal every future draw).
// (rooms.cpp)
std::string summary_for(const codec::Event& e, const GameState* before, const GameState& after, Seat viewer);

// Client action ids are stored per seat: "s<seat>:<id>".
inline std::string stored_action_id(Seat seat, const std::string& id) { return "s" + std::to_string(seat) + ":" + id; }

// Random secrets (std::random_device). (auth.cpp)
std::string random_hex(size_t bytes);
uint64_t random_u64();
// The room secret holding the seat's token.
std::string token_name(Seat seat);

// splitmix64-style mixing of two words (the bots' seeds). (bot_seats.cpp)
uint64_t mix(uint64_t a, uint64_t b);

// A room's bot seats as stored in its secrets: "bots" is a comma-separated
// list of "SEAT:PROFILE" (or just "SEAT", meaning medium: rooms created
// before profiles), "bot_seed" a decimal unsigned 64-bit number.
// (bot_seats.cpp)
struct BotSeat {
  Seat seat = kNoSeat;
  bots::Profile profile = bots::Profile::Medium;
};
std::string bots_secret(const std::vector<BotSeat>& seats);
bool parse_bots_secret(std::string_view text, std::vector<BotSeat>* out);

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

  // ---- rooms.cpp: the registry, the append path, notifications ------------
  std::shared_ptr<RoomSlot> slot(const std::string& room, Reply* err, bool even_deleted = false);
  bool head_state(RoomSlot& slot, const std::string& room, std::shared_ptr<const GameState>* out, std::string* error);
  void record_latency(double ms);
  MetricsSnapshot snapshot() const;
  Reply duplicate_reply(const std::string& room, Seat seat, int64_t version, const Action& requested);
  static Reply submitted(const std::string& room, int64_t version, const std::string& summary, bool duplicate);
  Reply submit_as(const std::shared_ptr<RoomSlot>& sl, const std::string& room, Seat seat, int64_t expect,
                  const Action& action, const std::string& id, bool by_bot);
  void on_append(const std::string& room, int64_t version);
  static void forget_secrets(RoomSlot& sl);
  void on_secrets_changed(const std::string& room);
  void on_resync();
  void refresh(RoomSlot& sl, const std::string& room, bool head);

  // ---- web::Host (server/web.cpp); rooms.cpp unless noted -----------------
  bool seat_of(const std::string& room, const std::string& auth, Seat* seat, web::Answer* err) override;  // auth.cpp
  bool state_at(const std::string& room, int64_t version, std::shared_ptr<const GameState>* out,
                web::Answer* err) override;
  web::Answer error(int status, const std::string& code, const std::string& message) override;
  bool reissue_token(const std::string& room, Seat seat, std::string* token, std::string* error) override;  // auth.cpp
  bool set_deleted(const std::string& room, bool deleted, std::string* error) override;
  bool set_bot(const std::string& room, Seat seat, const std::string& profile, std::string* bots_text,
               std::string* error) override;  // bot_seats.cpp
  void room_changed(const std::string& room) override;
  void count_request() override { ++requests; }
  MetricsSnapshot metrics_snapshot() const override { return snapshot(); }
  int64_t rooms_in_store() override;
  web::Answer metrics_json() override;

  // ---- auth.cpp: seat tokens ----------------------------------------------
  Auth authenticate(RoomSlot& slot, const std::string& room, const std::string& header, Seat* seat, Reply* err);

  // ---- bot_seats.cpp: bot seats, queue, workers, leases -------------------
  bool load_bots(RoomSlot& sl, const std::string& room, std::string* error);
  void queue_bots(const std::string& room);
  void after_event(RoomSlot& sl, const std::string& room);
  void play_bots(const std::string& room);
  void bot_worker();
  void scan_bot_rooms();

  // ---- handlers.cpp: the HTTP routes --------------------------------------
  Reply health();
  Reply metrics();
  Reply list_rooms();
  Reply create(const std::string& body);
  Reply view(const std::string& room, const std::string& auth);
  Reply events(const std::string& room, const std::string& auth, const std::string& after_text,
               const std::string& wait_text);
  Reply act(const std::string& room, const std::string& auth, const std::string& body);
  void routes();
};

}  // namespace mentat::server
