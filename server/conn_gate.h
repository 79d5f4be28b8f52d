// Connection limits for the room server: the cpp-httplib server of
// server.cpp, with its connections taken over by a gate.
//
// Why: cpp-httplib 0.11 hands every accepted connection to a pool thread
// until the connection closes, and times out each read separately (5 s), so
// clients that never finish their headers, or send one header line every
// 4 s (slowloris), held every thread and /health stopped answering.
//
// Contract:
//  * A connection waits in the gate's waiting room (one epoll thread, no
//    worker) until its request line and headers have arrived, and its body
//    too when it declares one of at most 64 KB (Content-Length, no Expect);
//    only then does one of `workers` threads read and answer the request.
//    Between keep-alive requests the connection waits there again.
//  * Headers not complete `header_timeout_ms` after the accept (or after the
//    first byte of a kept-alive connection's next request): the connection
//    is closed. A kept-alive connection idle for the server's keep-alive
//    timeout is closed. A body must arrive within `body_timeout_ms` of its
//    headers (in the waiting room or, for larger bodies, in the worker).
//    Headers over 16 KB are answered 431 and closed.
//  * At most `max_connections` connections are open at once; a connection
//    beyond is answered 503 (JSON, code "busy") and closed at once.
//  * Handlers themselves are not timed (long-polls wait up to their cap);
//    writes time out after the server's write timeout (5 s).
//  * Thread-safe; counters readable at any time. The gate's threads start
//    when the server listens and stop (closing every waiting connection)
//    when it stops.
#pragma once

#include <httplib.h>

#include <cstdint>
#include <memory>

namespace mentat::server {

struct GateOptions {
  int workers = 64;              // threads that read and answer requests
  int max_connections = 512;     // open connections at once (waiting and served)
  int header_timeout_ms = 10000;
  int body_timeout_ms = 30000;
};

struct GateStats {
  int64_t open = 0;       // connections open now
  int64_t waiting = 0;    // of which in the waiting room
  int64_t refused = 0;    // answered 503 (over max_connections) since the start
  int64_t timed_out = 0;  // closed for slow headers or body, or idle keep-alive, since the start
};

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
