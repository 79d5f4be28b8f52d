// The room server's web side (docs/SERVER.md, "Web client" and "Hosting"):
// the browser client's static files (web/), the endpoints it needs beyond
// the game API (the board picture, a seat's legal actions, a past observer
// view), the host's admin actions, /metrics in Prometheus text, CORS and the
// access log. Server::Impl (server/server_impl.h) owns the rooms; it implements Host
// and calls install() once while it sets up its routes (server/handlers.cpp).
//
// Contract:
//  * Secrecy: the board picture and past views are the observer's (public);
//    the legal actions need the seat's token and are that seat's own options
//    (as the bots get them, bots/bot.h). No route returns a token except the
//    admin's reissue.
//  * Admin routes (/admin/...) answer 404 when no admin token is configured
//    and 401 for any other bearer token; the admin token is compared in
//    constant time.
//  * The access log writes one line per request: time, peer, method, path
//    (never the query string, never a header), status, body bytes. Tokens
//    travel only in the Authorization header, so they are never logged.
//  * Static files: only names of web/'s form (letters, digits, '-', '_',
//    '.', one optional sub-folder) are served, from ServerOptions::web_dir;
//    nothing outside it is reachable.
//  * Thread-safe: the handlers run on the HTTP worker threads; Host must be.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/state.h"
#include "server/server.h"

namespace httplib {
class Server;
}

namespace mentat::server::web {

struct Answer {
  int status = 200;
  std::string body;
};

// What the web routes need from the server (implemented by Server::Impl).
class Host {
 public:
  virtual ~Host() = default;
  // The seat the Authorization header names (kNoSeat without one). False with
  // the error answer (401 for a token that is not a seat, 404 for no room).
  virtual bool seat_of(const std::string& room, const std::string& auth, Seat* seat, Answer* err) = 0;
  // The room's state at `version` (-1: its head). False with the error answer.
  virtual bool state_at(const std::string& room, int64_t version, std::shared_ptr<const GameState>* out,
                        Answer* err) = 0;
  // The JSON error answer of the API ({"error", "code"}).
  virtual Answer error(int status, const std::string& code, const std::string& message) = 0;
  // Admin: a new random token for `seat` (the old one stops working at once).
  virtual bool reissue_token(const std::string& room, Seat seat, std::string* token, std::string* error) = 0;
  // Admin: the room's bot seats after making `seat` a bot of `profile`
  // ("easy".."brutal") or a human seat ("human"); queues the room for the bots.
  virtual bool set_bot(const std::string& room, Seat seat, const std::string& profile, std::string* bots,
                       std::string* error) = 0;
  // Admin: deletes the room (true) or brings it back (false): a deleted room
  // keeps every event but is 404 `deleted` to every request, is not listed,
  // its bots stop and every seat token is replaced by one nobody knows.
  virtual bool set_deleted(const std::string& room, bool deleted, std::string* error) = 0;
  // Admin: wakes the room's long-polls and bots after it was archived or reopened.
  virtual void room_changed(const std::string& room) = 0;
  virtual void count_request() = 0;
  virtual MetricsSnapshot metrics_snapshot() const = 0;
  virtual int64_t rooms_in_store() = 0;
  // /metrics as the API's JSON (the Metrics table).
  virtual Answer metrics_json() = 0;
};

// Whether the room is archived (read-only: actions are refused with 410,
// bots stop). Archiving is a room secret ("archived" = "1"), outside the
// event stream.
bool archived(store::EventStore& store, const std::string& room);
// Whether the host deleted the room (a room secret "deleted" = "1"; the
// events stay in the store: docs/SERVER.md "Hosting").
bool deleted(store::EventStore& store, const std::string& room);

// Registers the web routes, the pre-routing handler (CORS preflight,
// /metrics in Prometheus text), the post-routing handler (CORS headers) and
// the access logger. Call before the server's own routes.
void install(httplib::Server& http, Host& host, store::EventStore& store, const ServerOptions& opts);

}  // namespace mentat::server::web
