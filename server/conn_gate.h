// Connection limits for the room server: the cpp-httplib server of
// server/server.h (Server::Impl::http), with its connections taken over by a gate.
//
// Why: cpp-httplib 0.11 hands every accepted connection to a pool thread
// until the connection closes, and times out each read separately (5 s), so
// clients that never finish their headers, or send one header line every
// 4 s (slowloris), held every thread and /health stopped answering.
//
// Contract:
//  * A connection waits in the gate's waiting room (one epoll thread, no
//    worker) until its whole request has arrived: the request line, the
//    headers and the body its Content-Length declares. The waiting room
//    reads these bytes itself (a worker starts from them), never more of a
//    request than its head declares. Only then does one of `workers` threads
//    answer it. Between keep-alive requests the connection waits there again.
//  * The head is judged as soon as it is complete, before any body byte is
//    awaited, and a refused request is answered at once, its connection's
//    sending side shut and what the client still sends read and dropped (up
//    to 1 MiB or 2 s) before it is closed (judge_head below: 400 a malformed
//    or conflicting Content-Length, 411 a chunked body, 413 a body over
//    `max_body_bytes`, 415 a form body, 417 an expectation other than
//    100-continue; 431 headers over 16 KB; 503 `busy` when the bodies being
//    received would pass `max_body_buffer` bytes in all). An `Expect:
//    100-continue` is answered by the gate.
//  * Headers not complete `header_timeout_ms` after the accept (or after the
//    first byte of a kept-alive connection's next request): the connection
//    is closed. A kept-alive connection idle for the server's keep-alive
//    timeout is closed. A body must arrive within `body_timeout_ms` of its
//    headers.
//  * At most `max_connections` connections are open at once; a connection
//    beyond is answered 503 (JSON, code "busy") and closed at once.
//  * Memory: a waiting connection holds at most 16 KB of headers plus its
//    declared body; all declared bodies together at most `max_body_buffer`.
//  * Handlers themselves are not timed (long-polls wait up to their cap);
//    writes time out after the server's write timeout (5 s).
//  * Thread-safe; counters readable at any time. The gate's threads start
//    when the server listens and stop (closing every waiting connection)
//    when it stops.
#pragma once

#include <httplib.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mentat::server {

struct GateOptions {
  int workers = 64;              // threads that read and answer requests
  int max_connections = 512;     // open connections at once (waiting and served)
  int header_timeout_ms = 10000;
  int body_timeout_ms = 30000;
  size_t max_body_bytes = 1 << 20;     // a declared body over this: 413 at once
  size_t max_body_buffer = 64u << 20;  // declared bodies being received at once, summed; beyond: 503
};

struct GateStats {
  int64_t open = 0;       // connections open now
  int64_t waiting = 0;    // of which in the waiting room
  int64_t refused = 0;    // answered 503 (over max_connections) since the start
  int64_t timed_out = 0;  // closed for slow headers or body, or idle keep-alive, since the start
  int64_t rejected = 0;   // refused by the gate from the head alone (400, 411, 413, 415, 417, 431, 503 busy body)
};

// What the gate makes of a complete request head (request line and headers,
// each line ending in CRLF): `status` 0 and the declared body length, or the
// refusal's status and sentence. Exposed for tests.
struct HeadVerdict {
  int status = 0;
  std::string message;
  uint64_t body = 0;
  bool expect_continue = false;
};
HeadVerdict judge_head(std::string_view head, size_t max_body_bytes);

// The trimmed values of the header lines named `name`, matched without case
// on both sides, in order.
std::vector<std::string_view> header_values(std::string_view head, std::string_view name);

class GatedHttpServer : public httplib::Server {
 public:
  explicit GatedHttpServer(GateOptions o);
  ~GatedHttpServer() override;
  GateStats gate_stats() const;

  struct Gate;

 private:
  bool process_and_close_socket(socket_t sock) override;  // called by cpp-httplib's accept loop
  std::unique_ptr<Gate> gate_;
};

}  // namespace mentat::server
