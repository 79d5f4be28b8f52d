// Progress of a long verify (`mentat verify --all`, `mentat recover`).
//
// Contract: on a terminal (stderr is a TTY) one status line is redrawn at
// most every 0.2 s: rooms done, events checked, events/s and the time left
// (from the events still to check); when the work ends the line is
// replaced by the summary. Not on a terminal, only the summary line is
// printed: "verified R room(s), E events in T s (X events/s)". Not
// thread-safe: one verifying thread calls it.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "store/event_store.h"

namespace mentat::replay {

// The events `rooms` hold (sum of head + 1; rooms that do not open count 0).
int64_t events_to_verify(store::EventStore& st, const std::vector<std::string>& rooms);

class VerifyProgress {
 public:
  // `rooms` and `events` are the totals to check (events: the sum of the
  // rooms' heads + 1); `out` is where the lines go (stderr).
  VerifyProgress(int64_t rooms, int64_t events, std::FILE* out = stderr);
  VerifyProgress(int64_t rooms, int64_t events, std::FILE* out, bool terminal);  // terminal given (tests)
  // verify_room's progress callback for the room being checked: (version, head).
  void at(int64_t version, int64_t head);
  // The current room is done (`events` checked in it). On a terminal the
  // status line is cleared, so that the caller can print the room's row.
  void room_done(int64_t events);
  // Prints the summary line (once).
  void finish();
  ~VerifyProgress();

  std::string status() const;  // the status line as it would be drawn now

 private:
  void draw(bool force);
  std::FILE* out_;
  bool tty_;
  bool finished_ = false;
  bool drawn_ = false;  // a status line is on the terminal
  int64_t rooms_total_, events_total_;
  int64_t rooms_done_ = 0, events_done_ = 0, in_room_ = 0;
  std::chrono::steady_clock::time_point t0_, last_draw_;
};

}  // namespace mentat::replay
