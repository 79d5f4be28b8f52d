// Folding stored events into states, and verifying a stored game.
//
// Contract: verify_room() refolds a room from version 0, re-validating every
// action against the state before it, comparing the random outcomes drawn
// with those recorded, the state hash with the stored one, and the custody
// invariants after every event. It reports the first failing version and
// what failed. Every stored snapshot is checked against the refolded state
// (and its own custody). Read-only; thread-safe as EventStore is.
#pragma once

#include <functional>
#include <string>

#include "inspect/projection.h"
#include "store/event_store.h"

namespace mentat::replay {

struct VerifyOptions {
  bool projection = true;          // check every seat's and the observer's view after every event
  inspect::ViewFn view = inspect::build_view;  // the view under test, compared as bytes (tests plant leaks here)
};

struct VerifyReport {
  bool ok = true;
  int64_t events = 0;          // events checked
  int64_t first_bad = -1;      // first failing version
  std::string check;           // "decode", "validate", "draws", "hash", "custody", "forces", "spice", "version",
                               // "once" (a client action id applied twice), "projection" (a view leaks),
                               // "snapshot" (a stored snapshot is not the refolded state)
  std::string detail;
};

// progress(v, head) is called now and then for long rooms (may be empty).
VerifyReport verify_room(store::EventStore& store, const std::string& room,
                         const std::function<void(int64_t, int64_t)>& progress = {}, const VerifyOptions& opts = {});

}  // namespace mentat::replay
