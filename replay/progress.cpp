#include "replay/progress.h"

#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

namespace mentat::replay {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
std::string clock_text(double s) {
  const auto t = static_cast<int64_t>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60) : fmt::format("{}:{:02}", t / 60, t % 60);
}
}  // namespace

int64_t events_to_verify(store::EventStore& st, const std::vector<std::string>& rooms) {
  int64_t n = 0;
  std::string error;
  for (const auto& r : rooms)
    if (auto m = st.meta(r, &error)) n += m->head + 1;
  return n;
}

VerifyProgress::VerifyProgress(int64_t rooms, int64_t events, std::FILE* out)
    : VerifyProgress(rooms, events, out, ::isatty(::fileno(out)) != 0) {}

VerifyProgress::VerifyProgress(int64_t rooms, int64_t events, std::FILE* out, bool terminal)
    : out_(out), tty_(terminal), rooms_total_(rooms), events_total_(events), t0_(std::chrono::steady_clock::now()),
      last_draw_(t0_) {}

VerifyProgress::~VerifyProgress() { finish(); }

void VerifyProgress::at(int64_t version, int64_t) {
  in_room_ = std::max(in_room_, version + 1);
  draw(false);
}

void VerifyProgress::room_done(int64_t events) {
  ++rooms_done_;
  events_done_ += events;
  in_room_ = 0;
  if (tty_ && drawn_) {
    std::fprintf(out_, "\r%78s\r", "");
    std::fflush(out_);
    drawn_ = false;
  }
}

std::string VerifyProgress::status() const {
  const int64_t done = events_done_ + in_room_;
  const double t = seconds_since(t0_);
  const double rate = t > 0 ? static_cast<double>(done) / t : 0;
  const int64_t left = std::max<int64_t>(0, events_total_ - done);
  return fmt::format("verify: {}/{} rooms, {} events, {:.0f} events/s, ETA {}", rooms_done_, rooms_total_, done, rate,
                     rate > 0 ? clock_text(static_cast<double>(left) / rate) : std::string("?"));
}

void VerifyProgress::draw(bool force) {
  if (!tty_ || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  std::fprintf(out_, "\r%-78s", status().c_str());  // padded over the previous line
  std::fflush(out_);
  drawn_ = true;
}

void VerifyProgress::finish() {
  if (finished_) return;
  finished_ = true;
  const double t = seconds_since(t0_);
  const int64_t done = events_done_ + in_room_;
  std::fprintf(out_, "%sverified %lld room(s), %lld events in %.1f s (%.0f events/s)\n", tty_ && drawn_ ? "\r                                                                              \r" : "",
               static_cast<long long>(rooms_done_), static_cast<long long>(done), t, t > 0 ? static_cast<double>(done) / t : 0.0);
  std::fflush(out_);
}

}  // namespace mentat::replay
