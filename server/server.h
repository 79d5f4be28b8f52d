// The room server: `mentat serve` (JSON over HTTP, cpp-httplib's blocking
// server; its connections go through server/conn_gate.h: a waiting room,
// header/body deadlines, a connection cap). Endpoints: docs/SERVER.md; the
// request and response tables: server/api.fbs (read and printed by
// FlatBuffers, server/api.h).
//
// Contract:
//  * Every action goes through store::submit (validate -> apply -> hash ->
//    synced append): an action is acknowledged (200) only after its event is
//    durable, and a rejected, stale or malformed action stores nothing.
//  * The seat is decided by the bearer token alone: a token acts only for
//    its own seat, whatever the request says. Seat tokens are random (256
//    bits from std::random_device), created with the room and stored with
//    EventStore::put_room_secrets; they are never shown again.
//  * Client action ids are per seat (stored as "s<seat>:<id>"): a resubmitted
//    id returns the original result (200, duplicate:true); the same id with
//    a different action is refused (409 id_reused).
//  * A request body the schema does not accept (not JSON, an unknown field,
//    a mistyped value) is 400 with the parser's message; nothing is stored.
//  * Nothing a seat may not know leaves the server: views are
//    inspect::build_view for the token's seat (observer without a token), and
//    event summaries show hidden details only of the caller's own events.
//    The game seed is never returned (omit it in real games: the server then
//    draws one).
//  * Thread-safe: many rooms are served concurrently; submits to one room
//    are serialised in-process (the store's compare-and-set stays the
//    authority). The head state of each room is cached by version (states
//    at a version never change). A room's seat tokens, bot seats and
//    deleted mark are cached too, and forgotten whenever its secrets change
//    (through this server, or through another sharing a PostgreSQL store:
//    store::EventStore::Watcher::secrets_changed, and after the store's
//    listening connection was lost: Watcher::resync). One server per store
//    directory (RocksDB); any number on one PostgreSQL database.
//  * Bot seats (POST /rooms "bots", with a profile each) are played by the
//    server: after every acknowledged event, and for every room with bots
//    when the server starts, a room waiting for a bot seat is queued for
//    the bot workers (ServerOptions::bot_threads, never the HTTP threads).
//    A worker builds the seat's own view (bots::make_input), asks the
//    seat's bot and submits its choice through the same path as a human's
//    action (store::submit, synced) with the client action id "bot-<V>"
//    (V: the version the action is based on, stored as "s<seat>:bot-<V>"),
//    so a restart never stores a bot move twice. When several bot seats are
//    waited for, the lowest seat acts first. Bot choices are deterministic:
//    bot of seat S is bots::make_bot(profile, f(bot_seed, S)) and chooses
//    from its view and legal actions alone; bot_seed is stored with the
//    room's secrets. A worker plays at most a few moves of one room before
//    yielding to the next queued room; bots stop when nobody is waited for
//    (game over, or only humans are asked) and when the server stops. The
//    rooms whose bots a server plays are looked at again every 10 s, those
//    whose lease another server holds every 2 s.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "store/event_store.h"

namespace mentat::server {

struct ServerOptions {
  int threads = 64;              // worker threads (each request being answered and each long-poll holds one)
  int max_connections = 512;     // open connections at once; beyond, 503 at once (server/conn_gate.h)
  double header_timeout_seconds = 10;  // request line and headers must arrive within this (else closed)
  double body_timeout_seconds = 30;    // a request body must arrive within this of its headers
  int max_wait_seconds = 30;     // cap on ?wait= of GET /rooms/{id}/events
  int keep_alive_seconds = 5;    // idle keep-alive connections are closed after this
  size_t max_body_bytes = 1 << 20;
  int max_events_per_poll = 500; // GET /rooms/{id}/events returns at most this many (more:true)
  int bot_threads = 1;           // workers that play bot seats (0: bots never act)
  int bot_moves_per_turn = 16;   // a worker yields to the next room after this many moves
  // The web side (server/web.h, docs/SERVER.md "Web client", "Hosting").
  std::string web_dir;           // the browser client's files (web/); empty: none served
  std::string cors;              // origins allowed to call the API from a browser: "*" or a comma-separated list
  std::string admin_token;       // the host's bearer token for /admin/...; empty: admin routes are off
  std::string access_log;        // one line per request: "-" stderr, else a file (appended); empty: none
};

struct MetricsSnapshot {
  int64_t rooms_loaded = 0;      // rooms this process has touched since it started
  int64_t appends = 0;           // accepted actions appended (duplicates not counted)
  int64_t duplicates = 0;
  int64_t rejected = 0;          // 422
  int64_t conflicts = 0;         // 409 stale version
  int64_t requests = 0;
  int64_t bot_actions = 0;       // actions stored by the server's bots (also counted in appends)
  double append_p50_ms = 0;      // over the last 4096 appends (store::submit, fsync included)
  double append_p99_ms = 0;
  double append_max_ms = 0;
  double uptime_s = 0;
};

class Server {
 public:
  explicit Server(store::EventStore& store, ServerOptions opts = {});
  ~Server();  // stops if running
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds host:port (port 0: any free port) and serves on a background
  // thread. Returns the bound port, or -1 with *error.
  int start(const std::string& host, int port, std::string* error);
  // Stops accepting, wakes long-polls and waits for the workers. Idempotent.
  void stop();
  MetricsSnapshot metrics() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// `mentat serve`: opens the store in `data_dir`, serves on `listen`
// ("HOST:PORT", port 0 for any) until SIGINT or SIGTERM, then closes the
// store cleanly. Prints "listening on http://HOST:PORT" once bound and, when
// `port_file` is set, writes the port there (atomically). Returns the exit
// code (0, 2 bad usage, 3 store or socket problems).
int run_serve(const std::string& data_dir, const std::string& listen, const std::string& port_file,
              const ServerOptions& opts);

// `mentat recover DIR`: opens the store for writing (RocksDB replays its
// log; an open that finds acknowledged writes missing or the store damaged
// fails, see store::EventStore::open), checks every record of every kind
// (store::EventStore::check_integrity), verifies every room with
// replay::verify_room and prints a table and the time taken. With
// `accept_loss`, a store that lost acknowledged writes is opened anyway
// (store::Options::accept_loss) and what was lost is listed. Returns 0 when
// everything checks and nothing was lost, 1 when a room or record fails or a
// loss was accepted, 3 when the store does not open. With `json`, stdout
// gets one JSON object instead ({"store", "lost": [...], "record_problems":
// [...], "rooms": [{"room", "head", "events", "ms", "ok", ...}], "failed",
// "open_ms", "verify_ms", "total_ms"}; docs/CLI.md); progress stays on stderr.
int run_recover(const std::string& data_dir, bool projection, bool accept_loss = false, bool json = false);

// The record check of `recover` and `verify --checksums`: runs
// store::EventStore::check_integrity and prints each problem (one line) to
// stdout, or one line saying all records check. Returns the number of
// problems (a check that cannot run counts as one).
int print_integrity(store::EventStore& st);

// `mentat backup DEST`: copies `st` (opened read-only, beside a running
// server if need be) into the new store DEST (store::EventStore::copy_to),
// then opens the copy and checks every record of it. Returns 0, 1 when the
// copy does not check, 3 when it cannot be made.
int run_backup(store::EventStore& st, const std::string& dest);

}  // namespace mentat::server
