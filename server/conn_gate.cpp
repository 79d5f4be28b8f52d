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
constexpr size_t kMaxWaitedBody = 64 * 1024;

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

// Case-insensitive search for a header name at a line start within the header block.
std::string_view header_value(std::string_view head, std::string_view name) {
  size_t at = head.find("\r\n");
  while (at != std::string_view::npos && at + 2 < head.size()) {
    const size_t line = at + 2;
    const size_t end = head.find("\r\n", line);
    if (end == std::string_view::npos || end == line) break;
    if (end - line > name.size() && head[line + name.size()] == ':' &&
        std::equal(name.begin(), name.end(), head.begin() + static_cast<ptrdiff_t>(line),
                   [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; })) {
      std::string_view v = head.substr(line + name.size() + 1, end - line - name.size() - 1);
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
      while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
      return v;
    }
    at = end;
  }
  return {};
}

// One connection's reads and writes for cpp-httplib's request parser: reads
// are buffered and fail once the deadline has passed; writes time out.
class GateStream : public httplib::Stream {
 public:
  GateStream(int fd, int write_timeout_ms) : fd_(fd), write_ms_(write_timeout_ms) {}
  void set_deadline(Clock::time_point t) { deadline_ = t; }
  size_t buffered() const { return len_ - pos_; }

  bool is_readable() const override { return buffered() > 0 || wait_for(fd_, POLLIN, ms_until(deadline_)); }
  bool is_writable() const override { return wait_for(fd_, POLLOUT, write_ms_); }
  ssize_t read(char* ptr, size_t size) override {
    if (buffered() == 0) {
      if (!wait_for(fd_, POLLIN, ms_until(deadline_))) return -1;
      const ssize_t n = ::recv(fd_, buf_, sizeof buf_, 0);
      if (n <= 0) return n;
      pos_ = 0;
      len_ = static_cast<size_t>(n);
    }
    const size_t n = std::min(size, buffered());
    std::memcpy(ptr, buf_ + pos_, n);
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
  char buf_[4096];
  size_t pos_ = 0, len_ = 0;
};

}  // namespace

struct GatedHttpServer::Gate {
  struct Waiting {
    Clock::time_point deadline;
    bool got_bytes = false;     // the next request has begun
    bool headers_done = false;  // ... and its headers are here (waiting for the body)
    size_t served = 0;          // requests answered on this connection
  };

  GatedHttpServer& srv;
  GateOptions o;
  int ep = -1, wake = -1;
  std::atomic<bool> stopping{false};
  std::atomic<int64_t> open{0}, refused{0}, timed_out{0};

  mutable std::mutex mu;  // guards waiting, ready
  std::unordered_map<int, Waiting> waiting;
  std::deque<std::pair<int, size_t>> ready;  // (socket, requests served)
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
      for (auto& [fd, n] : ready) left.push_back(fd);
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

  // A short answer written without blocking, then the connection closed.
  void answer_and_close(int fd, int status, const char* reason, const char* code, const char* message, bool counted) {
    const std::string body = std::string("{\"error\":\"") + message + "\",\"code\":\"" + code + "\"}";
    const std::string head = "HTTP/1.1 " + std::to_string(status) + " " + reason +
                             "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
                             std::to_string(body.size()) + "\r\n\r\n";
    const std::string all = head + body;
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
    to_room(fd, w);
  }

  void to_room(int fd, const Waiting& w) {
    {
      std::scoped_lock lock(mu);
      waiting[fd] = w;
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
    ev.data.fd = fd;
    if (::epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
      std::scoped_lock lock(mu);
      waiting.erase(fd);
      close_conn(fd);
    }
  }

  // Takes `fd` out of the waiting room (false if it was not there).
  bool leave_room(int fd, Waiting* w) {
    std::scoped_lock lock(mu);
    auto it = waiting.find(fd);
    if (it == waiting.end()) return false;
    if (w) *w = it->second;
    waiting.erase(it);
    ::epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
    return true;
  }

  // Looks at what has arrived on a waiting connection (without reading it).
  void look(int fd) {
    static thread_local char buf[kMaxHeaderBytes];
    const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_PEEK | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (n <= 0) {  // closed by the peer, or an error
      if (leave_room(fd, nullptr)) close_conn(fd);
      return;
    }
    const std::string_view data(buf, static_cast<size_t>(n));
    const size_t end = data.find("\r\n\r\n");
    std::unique_lock lock(mu);
    auto it = waiting.find(fd);
    if (it == waiting.end()) return;
    Waiting& w = it->second;
    if (!w.got_bytes) {
      w.got_bytes = true;
      w.deadline = Clock::now() + std::chrono::milliseconds(o.header_timeout_ms);
    }
    if (end == std::string_view::npos) {
      if (static_cast<size_t>(n) < sizeof buf) return;  // more to come
      lock.unlock();
      if (leave_room(fd, nullptr)) answer_and_close(fd, 431, "Request Header Fields Too Large", "malformed", "the request headers are too large", true);
      return;
    }
    const std::string_view head = data.substr(0, end + 2);
    if (header_value(head, "expect").empty() && header_value(head, "transfer-encoding").empty()) {
      const std::string cl(header_value(head, "content-length"));
      const size_t body = cl.empty() ? 0 : static_cast<size_t>(std::strtoull(cl.c_str(), nullptr, 10));
      if (body > 0 && body <= kMaxWaitedBody) {
        int avail = 0;
        if (::ioctl(fd, FIONREAD, &avail) == 0 && static_cast<size_t>(avail) < end + 4 + body) {
          if (!w.headers_done) {
            w.headers_done = true;
            w.deadline = Clock::now() + std::chrono::milliseconds(o.body_timeout_ms);
          }
          return;  // the body is on its way
        }
      }
    }
    const size_t served = w.served;
    waiting.erase(it);
    ::epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
    ready.emplace_back(fd, served);
    lock.unlock();
    ready_cv.notify_one();
  }

  void expire() {
    std::vector<int> late;
    {
      std::scoped_lock lock(mu);
      const auto now = Clock::now();
      for (auto& [fd, w] : waiting)
        if (w.deadline <= now) late.push_back(fd);
      for (int fd : late) {
        waiting.erase(fd);
        ::epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
      }
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
      std::pair<int, size_t> job;
      {
        std::unique_lock lock(mu);
        ready_cv.wait(lock, [&] { return stopping || !ready.empty(); });
        if (ready.empty()) return;  // stopping
        job = ready.front();
        ready.pop_front();
      }
      serve(job.first, job.second);
    }
  }

  // Answers the requests that are here, then puts the connection back in
  // the waiting room (keep-alive) or closes it.
  void serve(int fd, size_t served) {
    GateStream strm(fd, static_cast<int>(srv.write_timeout_sec_ * 1000 + srv.write_timeout_usec_ / 1000));
    for (;;) {
      strm.set_deadline(Clock::now() + std::chrono::milliseconds(o.body_timeout_ms));
      const bool last = stopping || served + 1 >= std::max<size_t>(1, srv.keep_alive_max_count_);
      bool closed = false;
      const bool ok = srv.process_request(strm, last, closed, [](httplib::Request&) {});
      ++served;
      if (!ok || closed || last || stopping) {
        close_conn(fd);
        return;
      }
      if (strm.buffered() == 0) break;
      // A pipelined request is partly read already: answer it here.
      strm.set_deadline(Clock::now() + std::chrono::milliseconds(o.header_timeout_ms));
    }
    Waiting w;
    w.deadline = Clock::now() + std::chrono::seconds(std::max<time_t>(1, srv.keep_alive_timeout_sec_));
    w.served = served;
    to_room(fd, w);
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
  return s;
}

}  // namespace mentat::server
