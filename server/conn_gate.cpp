#include "server/conn_gate.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <iterator>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace mentat::server {

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kMaxHeaderBytes = 16 * 1024;
constexpr size_t kMaxLinger = 1 << 20;  // bytes read and dropped after a refusal, at most
constexpr int kLingerMs = 2000;         // ... and for at most this long

int ms_until(Clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now()).count();
  return ms <= 0 ? 0 : static_cast<int>(std::min<int64_t>(ms, 1 << 30));
}

bool wait_for(int fd, short events, int ms) {
  pollfd p{fd, events, 0};
  for (;;) {
    const int r = ::poll(&p, 1, ms);
    if (r < 0 && errno == EINTR) continue;
    return r > 0;
  }
}

bool same_ci(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

// The values of every header line named `name` (either case on both sides),
// trimmed, in order; `head` is the request line and headers, each line
// ending in CRLF.
std::vector<std::string_view> header_values(std::string_view head, std::string_view name) {
  std::vector<std::string_view> out;
  size_t at = head.find("\r\n");
  while (at != std::string_view::npos && at + 2 < head.size()) {
    const size_t line = at + 2;
    const size_t end = head.find("\r\n", line);
    if (end == std::string_view::npos || end == line) break;
    const std::string_view text = head.substr(line, end - line);
    const size_t colon = text.find(':');
    if (colon != std::string_view::npos && same_ci(text.substr(0, colon), name)) {
      std::string_view v = text.substr(colon + 1);
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
      while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
      out.push_back(v);
    }
    at = end;
  }
  return out;
}

namespace {
bool is_token_char(char c) {  // RFC 9110 tchar
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;  // never NUL
}
}  // namespace

HeadVerdict judge_head(std::string_view head, size_t max_body_bytes) {
  HeadVerdict v;
  auto refuse = [&](int status, std::string message) {
    v.status = status;
    v.message = std::move(message);
    return v;
  };
  // The request line: METHOD SP TARGET SP HTTP/1.x, a method the server knows.
  const size_t eol = head.find("\r\n");
  const std::string_view line = head.substr(0, eol);
  const size_t sp1 = line.find(' '), sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp1 == std::string_view::npos || sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos)
    return refuse(400, "the request line must be METHOD TARGET HTTP/1.1");
  const std::string_view method = line.substr(0, sp1), target = line.substr(sp1 + 1, sp2 - sp1 - 1), version = line.substr(sp2 + 1);
  static constexpr std::string_view kMethods[] = {"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"};
  if (std::find(std::begin(kMethods), std::end(kMethods), method) == std::end(kMethods))
    return refuse(400, "the method must be one of GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH");
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return refuse(400, "the protocol must be HTTP/1.1 or HTTP/1.0");
  if (target.empty() || !(target[0] == '/' || target == "*" || target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0) ||
      std::any_of(target.begin(), target.end(), [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; }))
    return refuse(400, "the request target must be a path without spaces or control characters");
  // Every header line: a token name, a colon (no space before it), a value.
  for (size_t at = eol; at != std::string_view::npos && at + 2 < head.size();) {
    const size_t start = at + 2, end = head.find("\r\n", start);
    if (end == std::string_view::npos || end == start) break;
    const std::string_view h = head.substr(start, end - start);
    const size_t colon = h.find(':');
    if (colon == std::string_view::npos || colon == 0 || !std::all_of(h.begin(), h.begin() + static_cast<ptrdiff_t>(colon), is_token_char))
      return refuse(400, "every header line must be NAME: VALUE, the name a token (no space before the colon, no folded lines)");
    at = end;
  }
  if (!header_values(head, "transfer-encoding").empty()) {
    v.status = 411;
    v.message = "send the body with a Content-Length header (chunked request bodies are not accepted)";
    return v;
  }
  const auto lengths = header_values(head, "content-length");
  for (const auto cl : lengths) {
    if (cl.empty() || cl.size() > 19 || !std::all_of(cl.begin(), cl.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        (cl != lengths.front())) {
      v.status = 400;
      v.message = "the Content-Length header must be one decimal number";
      return v;
    }
  }
  if (!lengths.empty()) v.body = std::strtoull(std::string(lengths.front()).c_str(), nullptr, 10);
  // cpp-httplib reads a body for these methods whatever the head says: without
  // a length it would read until the client closes, unbounded.
  if (lengths.empty() && (method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE"))
    return refuse(411, "send a Content-Length header with a " + std::string(method) + " (Content-Length: 0 for no body)");
  if (v.body > max_body_bytes) {
    v.status = 413;
    v.message = "the request body is larger than the server accepts (" + std::to_string(max_body_bytes) + " bytes)";
    return v;
  }
  for (const auto ct : header_values(head, "content-type")) {
    const std::string_view type = ct.substr(0, ct.find(';'));
    std::string_view t = type;
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    if (v.body > 0 && (same_ci(t, "application/x-www-form-urlencoded") || same_ci(t, "multipart/form-data"))) {
      v.status = 415;
      v.message = "send the body as JSON (Content-Type: application/json), not as a form";
      return v;
    }
  }
  // Compressed bodies would be inflated past every size limit: refused.
  for (const auto ce : header_values(head, "content-encoding"))
    if (!same_ci(ce, "identity")) return refuse(415, "send the body uncompressed (no Content-Encoding)");
  for (const auto e : header_values(head, "expect")) {
    if (!same_ci(e, "100-continue")) {
      v.status = 417;
      v.message = "the only expectation the server meets is 100-continue";
      return v;
    }
    v.expect_continue = true;
  }
  return v;
}

namespace {

// One connection's reads and writes for cpp-httplib's request parser: reads
// are buffered and fail once the deadline has passed; writes time out.
class GateStream : public httplib::Stream {
 public:
  // `read_already`: the bytes the waiting room took off the socket.
  GateStream(int fd, int write_timeout_ms, std::string read_already)
      : fd_(fd), write_ms_(write_timeout_ms), buf_(std::move(read_already)) {}
  void set_deadline(Clock::time_point t) { deadline_ = t; }
  size_t buffered() const { return buf_.size() - pos_; }
  std::string take_buffered() { return buf_.substr(pos_); }

  bool is_readable() const override { return buffered() > 0 || wait_for(fd_, POLLIN, ms_until(deadline_)); }
  bool is_writable() const override { return wait_for(fd_, POLLOUT, write_ms_); }
  ssize_t read(char* ptr, size_t size) override {
    if (buffered() == 0) {
      if (!wait_for(fd_, POLLIN, ms_until(deadline_))) return -1;
      buf_.resize(4096);
      pos_ = 0;
      const ssize_t n = ::recv(fd_, buf_.data(), buf_.size(), 0);
      buf_.resize(n > 0 ? static_cast<size_t>(n) : 0);
      if (n <= 0) return n;
    }
    const size_t n = std::min(size, buffered());
    std::memcpy(ptr, buf_.data() + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    return ::send(fd_, ptr, size, MSG_NOSIGNAL);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override { address(true, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address(false, ip, port); }
  socket_t socket() const override { return fd_; }

 private:
  void address(bool peer, std::string& ip, int& port) const {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    auto* sa = reinterpret_cast<sockaddr*>(&a);
    if ((peer ? ::getpeername(fd_, sa, &len) : ::getsockname(fd_, sa, &len)) != 0) return;
    char text[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(&a);
      ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
      port = ntohs(in->sin_port);
    } else if (a.ss_family == AF_INET6) {
      const auto* in = reinterpret_cast<const sockaddr_in6*>(&a);
      ::inet_ntop(AF_INET6, &in->sin6_addr, text, sizeof text);
      port = ntohs(in->sin6_port);
    }
    ip = text;
  }

  int fd_;
  int write_ms_;
  Clock::time_point deadline_ = Clock::now();
  std::string buf_;
  size_t pos_ = 0;
};

// A whole HTTP answer with a JSON error body; the connection is to close.
// `message` and `code` are the gate's own sentences (no quotes to escape).
std::string error_response(int status, const char* reason, const char* code, const std::string& message) {
  const std::string body = std::string("{\"error\":\"") + message + "\",\"code\":\"" + code + "\"}";
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// Removes the header lines named `name` from the head that ends at `head_end`
// (the blank line's position) in `buf`; returns the bytes removed.
size_t strip_header(std::string& buf, size_t head_end, std::string_view name) {
  size_t removed = 0;
  size_t at = buf.find("\r\n");
  while (at != std::string::npos && at + 2 < head_end + 2) {
    const size_t line = at + 2;
    const size_t end = buf.find("\r\n", line);
    if (end == std::string::npos || end > head_end) break;
    const size_t colon = buf.find(':', line);
    if (colon != std::string::npos && colon < end && same_ci(std::string_view(buf).substr(line, colon - line), name)) {
      buf.erase(line, end + 2 - line);
      removed += end + 2 - line;
      head_end -= end + 2 - line;
      continue;  // `at` still ends the line before
    }
    at = end;
  }
  return removed;
}

}  // namespace

struct GatedHttpServer::Gate {
  // A connection in the waiting room and what it has sent of its next request.
  struct Waiting {
    Clock::time_point deadline;
    bool got_bytes = false;  // the next request has begun
    std::string buf;         // its bytes so far (the gate reads them off the socket)
    size_t need = 0;         // head and body length, once the head is here (0: not yet)
    size_t reserved = 0;     // bytes of the body budget held for it
    size_t served = 0;       // requests answered on this connection
    bool closing = false;    // refused: answered, reading what follows until the peer closes
    size_t dropped = 0;      // bytes read and dropped while closing
  };
  struct Ready {
    int fd;
    size_t served;
    std::string request;  // its whole request (and maybe the start of the next)
  };

  GatedHttpServer& srv;
  GateOptions o;
  int ep = -1, wake = -1;
  std::atomic<bool> stopping{false};
  std::atomic<int64_t> open{0}, refused{0}, timed_out{0}, rejected{0};

  mutable std::mutex mu;  // guards waiting, ready, body_bytes
  std::unordered_map<int, Waiting> waiting;
  std::deque<Ready> ready;
  size_t body_bytes = 0;  // declared bodies being received, summed
  std::condition_variable ready_cv;

  std::thread room;
  std::vector<std::thread> workers;

  Gate(GatedHttpServer& s, GateOptions opts) : srv(s), o(opts) {}

  void start() {
    stopping = false;
    ep = ::epoll_create1(EPOLL_CLOEXEC);
    wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = wake;
    ::epoll_ctl(ep, EPOLL_CTL_ADD, wake, &ev);
    room = std::thread([this] { room_loop(); });
    for (int i = 0; i < std::max(1, o.workers); ++i) workers.emplace_back([this] { worker_loop(); });
  }

  void stop() {
    stopping = true;
    const uint64_t one = 1;
    if (wake >= 0) (void)!::write(wake, &one, sizeof one);
    ready_cv.notify_all();
    if (room.joinable()) room.join();
    for (auto& t : workers) t.join();
    workers.clear();
    std::vector<int> left;
    {
      std::scoped_lock lock(mu);
      for (auto& [fd, w] : waiting) left.push_back(fd);
      waiting.clear();
      body_bytes = 0;
      for (auto& r : ready) left.push_back(r.fd);
      ready.clear();
    }
    for (int fd : left) close_conn(fd);
    if (ep >= 0) ::close(ep);
    if (wake >= 0) ::close(wake);
    ep = wake = -1;
  }

  void close_conn(int fd) {
    ::shutdown(fd, SHUT_RDWR);
    ::close(fd);
    --open;
  }

  // A refusal of the request `w` is receiving: a short answer written without
  // blocking, the connection's sending side shut, and the connection left in
  // the waiting room to read and drop what the client still sends (it is
  // closed at its end, after kMaxLinger bytes, or after kLingerMs).
  void answer_then_linger(int fd, Waiting& w, int status, const char* code, const std::string& message) {
    const std::string all = error_response(status, reason_of(status), code, message);
    (void)!::send(fd, all.data(), all.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(fd, SHUT_WR);
    body_bytes -= w.reserved;
    w.reserved = 0;
    w.closing = true;
    w.buf.clear();
    w.deadline = Clock::now() + std::chrono::milliseconds(kLingerMs);
  }

  // A short answer written without blocking, then the connection closed.
  void answer_and_close(int fd, int status, const char* reason, const char* code, const std::string& message, bool counted) {
    const std::string all = error_response(status, reason, code, message);
    (void)!::send(fd, all.data(), all.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(fd, SHUT_WR);
    ::close(fd);
    if (counted) --open;
  }

  void admit(int fd) {
    if (stopping || open.load() >= o.max_connections) {
      ++refused;
      answer_and_close(fd, 503, "Service Unavailable", "busy", "too many connections: try again shortly", false);
      return;
    }
    ++open;
    Waiting w;
    w.deadline = Clock::now() + std::chrono::milliseconds(o.header_timeout_ms);
    w.got_bytes = true;
    to_room(fd, std::move(w));
  }

  // Puts `fd` in the waiting room; what `w.buf` holds already is judged at once
  // (edge-triggered epoll reports only bytes that arrive from now on... and the
  // ones already queued, on EPOLL_CTL_ADD).
  void to_room(int fd, Waiting w) {
    const bool has_bytes = !w.buf.empty();
    {
      std::scoped_lock lock(mu);
      waiting[fd] = std::move(w);
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
    ev.data.fd = fd;
    if (::epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
      std::scoped_lock lock(mu);
      waiting.erase(fd);
      close_conn(fd);
      return;
    }
    if (has_bytes) look(fd);
  }

  // Takes `fd` out of the waiting room and releases its body budget; with the
  // lock held.
  void leave_locked(int fd, std::unordered_map<int, Waiting>::iterator it) {
    body_bytes -= it->second.reserved;
    waiting.erase(it);
    ::epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
  }

  static const char* reason_of(int status) {
    switch (status) {
      case 400: return "Bad Request";
      case 411: return "Length Required";
      case 413: return "Content Too Large";
      case 415: return "Unsupported Media Type";
      case 417: return "Expectation Failed";
      case 431: return "Request Header Fields Too Large";
      case 503: return "Service Unavailable";
    }
    return "Error";
  }

  // Reads what has arrived on a waiting connection (never more than its
  // request needs, once its head is known), judges the head when it is
  // complete, and hands a complete request to a worker.
  void look(int fd) {
    std::unique_lock lock(mu);
    auto it = waiting.find(fd);
    if (it == waiting.end()) return;
    Waiting& w = it->second;
    bool closed = false;
    for (;;) {
      if (!w.closing && !w.need) judge(fd, w);  // the head may be complete
      if (!w.closing && w.need && w.buf.size() >= w.need) break;
      // While closing, what the client still sends is read and dropped (at
      // most kMaxLinger bytes), so that the answer is not lost to a reset.
      const size_t limit = w.closing ? kMaxLinger : w.need ? w.need : kMaxHeaderBytes + 4;
      if (w.buf.size() >= limit) {
        if (w.closing) closed = true;
        break;
      }
      const size_t want = std::min<size_t>(limit - w.buf.size(), 64 * 1024);
      const size_t at = w.buf.size();
      w.buf.resize(at + want);
      const ssize_t n = ::recv(fd, w.buf.data() + at, want, MSG_DONTWAIT);
      w.buf.resize(at + (n > 0 ? static_cast<size_t>(n) : 0));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (n <= 0) {  // closed by the peer, or an error
        closed = true;
        break;
      }
      if (w.closing) {
        w.dropped += static_cast<size_t>(n);
        w.buf.clear();
        if (w.dropped >= kMaxLinger) closed = true;
        if (closed) break;
        continue;
      }
      if (!w.got_bytes) {  // a kept-alive connection's next request has begun
        w.got_bytes = true;
        w.deadline = Clock::now() + std::chrono::milliseconds(o.header_timeout_ms);
      }
    }
    if (!w.closing && w.need && w.buf.size() >= w.need) {
      Ready r{fd, w.served, std::move(w.buf)};
      leave_locked(fd, it);
      ready.push_back(std::move(r));
      lock.unlock();
      ready_cv.notify_one();
      return;
    }
    if (closed) {
      leave_locked(fd, it);
      lock.unlock();
      close_conn(fd);
    }
  }

  // Judges the head once it is complete (with the lock held): sets `w.need`
  // (head and declared body), or answers a refusal and sets `w.closing`
  // (answer_then_linger).
  void judge(int fd, Waiting& w) {
    size_t end = w.buf.find("\r\n\r\n");
    auto refuse = [&](int status, const char* code, const std::string& message) {
      ++rejected;
      answer_then_linger(fd, w, status, code, message);
    };
    if (end == std::string::npos) {
      if (w.buf.size() > kMaxHeaderBytes) refuse(431, "malformed", "the request headers are too large");
      return;
    }
    const HeadVerdict v = judge_head(std::string_view(w.buf).substr(0, end + 2), o.max_body_bytes);
    if (v.status) {
      refuse(v.status, v.status == 413 ? "too_large" : "malformed", v.message);
      return;
    }
    if (v.body > 0) {
      if (body_bytes + v.body > o.max_body_buffer) {
        refuse(503, "busy", "too many request bodies on their way: try again shortly");
        return;
      }
      body_bytes += v.body;
      w.reserved = v.body;
    }
    size_t head_len = end + 4;
    // Ranges are not served (every answer is whole JSON or a whole file):
    // cpp-httplib would cut or multiply an answer by them.
    for (const char* name : {"range", "if-range"}) {
      const size_t gone = strip_header(w.buf, end, name);
      head_len -= gone;
      end -= gone;
    }
    if (v.expect_continue) {
      // The gate answers the expectation itself; the worker must not answer it again.
      head_len -= strip_header(w.buf, end, "expect");
      if (w.buf.size() < head_len + v.body) {
        static constexpr char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
        (void)!::send(fd, kContinue, sizeof kContinue - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
      }
    }
    w.need = head_len + static_cast<size_t>(v.body);
    if (v.body > 0) w.deadline = Clock::now() + std::chrono::milliseconds(o.body_timeout_ms);
  }

  void expire() {
    std::vector<int> late;
    {
      std::scoped_lock lock(mu);
      const auto now = Clock::now();
      for (auto& [fd, w] : waiting)
        if (w.deadline <= now) late.push_back(fd);
      for (int fd : late) leave_locked(fd, waiting.find(fd));
    }
    for (int fd : late) {
      ++timed_out;
      close_conn(fd);
    }
  }

  void room_loop() {
    epoll_event evs[64];
    auto next_sweep = Clock::now();
    while (!stopping) {
      const int n = ::epoll_wait(ep, evs, 64, 100);
      for (int i = 0; i < n; ++i) {
        if (evs[i].data.fd == wake) continue;
        look(evs[i].data.fd);
      }
      if (Clock::now() >= next_sweep) {
        expire();
        next_sweep = Clock::now() + std::chrono::milliseconds(100);
      }
    }
  }

  void worker_loop() {
    for (;;) {
      Ready job;
      {
        std::unique_lock lock(mu);
        ready_cv.wait(lock, [&] { return stopping || !ready.empty(); });
        if (ready.empty()) return;  // stopping
        job = std::move(ready.front());
        ready.pop_front();
      }
      serve(job);
    }
  }

  // Answers the request that is here, then puts the connection back in the
  // waiting room (keep-alive, with any bytes of its next request) or closes it.
  void serve(Ready& job) {
    GateStream strm(job.fd, static_cast<int>(srv.write_timeout_sec_ * 1000 + srv.write_timeout_usec_ / 1000), std::move(job.request));
    strm.set_deadline(Clock::now() + std::chrono::milliseconds(o.body_timeout_ms));
    const bool last = stopping || job.served + 1 >= std::max<size_t>(1, srv.keep_alive_max_count_);
    bool closed = false;
    const bool ok = srv.process_request(strm, last, closed, [](httplib::Request&) {});
    if (!ok || closed || last || stopping) {
      close_conn(job.fd);
      return;
    }
    Waiting w;
    w.buf = strm.take_buffered();
    w.got_bytes = !w.buf.empty();
    w.deadline = w.got_bytes ? Clock::now() + std::chrono::milliseconds(o.header_timeout_ms)
                             : Clock::now() + std::chrono::seconds(std::max<time_t>(1, srv.keep_alive_timeout_sec_));
    w.served = job.served + 1;
    to_room(job.fd, std::move(w));
  }
};

namespace {
// cpp-httplib's accept loop hands each accepted socket to its task queue:
// this one runs the hand-over inline (process_and_close_socket below), and
// starts and stops the gate with the listening loop.
class GateQueue : public httplib::TaskQueue {
 public:
  explicit GateQueue(GatedHttpServer::Gate& g) : g_(g) { g_.start(); }
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override { g_.stop(); }

 private:
  GatedHttpServer::Gate& g_;
};
}  // namespace

GatedHttpServer::GatedHttpServer(GateOptions o) : gate_(std::make_unique<Gate>(*this, o)) {
  new_task_queue = [this] { return new GateQueue(*gate_); };
}

GatedHttpServer::~GatedHttpServer() = default;

bool GatedHttpServer::process_and_close_socket(socket_t sock) {
  gate_->admit(sock);
  return true;
}

GateStats GatedHttpServer::gate_stats() const {
  GateStats s;
  s.open = gate_->open.load();
  {
    std::scoped_lock lock(gate_->mu);
    s.waiting = static_cast<int64_t>(gate_->waiting.size());
  }
  s.refused = gate_->refused.load();
  s.timed_out = gate_->timed_out.load();
  s.rejected = gate_->rejected.load();
  return s;
}

}  // namespace mentat::server
