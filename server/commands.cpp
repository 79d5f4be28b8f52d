// `mentat serve` and `mentat recover` (server/server.h).
#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "events/json_text.h"
#include "replay/fold.h"
#include "replay/progress.h"
#include "server/server_impl.h"

namespace mentat::server {

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
