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
#include <optional>
#include <string>

#include "events/codec.h"
#include "inspect/projection.h"
#include "store/event_store.h"

namespace mentat::replay {

// Once-only effects checked from the history itself, independently of the
// state's flags (FactionState::karama_power_used, shipped, revived and the
// like): what an event does is read from its action, the seat, the turn and
// phase of the state before it, and its recorded draws. verify_room feeds it
// every event in order. Checked: each faction's once-per-game Karama power
// (1.14) used at most once; the paid effects of a turn paid once: one
// shipment (Ship, 1.06.02) and one paid revival (Revive, 1.05) per faction
// per turn; every shuffle draws each card once; the expansions'
// once-per-game powers (CHOAM & Richese): CHOAM's special Karama and its
// Inflation token, the Richese special Karama purchase, each accepted at most
// once. The later modules' powers come with their rules.
class OnceOnly {
 public:
  // nullopt, or why event `e` (about to be applied to `before`) repeats a once-only effect.
  std::optional<std::string> check(const GameState& before, const codec::Event& e);

 private:
  FactionMask karama_power_ = 0;  // factions that used their once-per-game Karama power
  uint8_t turn_ = 0;              // the turn the two masks below are for
  FactionMask shipped_ = 0;       // factions that shipped in turn_
  FactionMask revived_ = 0;       // factions that paid for a revival in turn_
  uint8_t module_powers_ = 0;     // the expansions' once-per-game powers used (bit: ChoamKarama, ChoamInflation, RicheseBuy)
  uint8_t no_field_last_ = kNone8, no_field_prev_ = kNone8;  // the No-Field values shipped last and before (kNone8: none)
  // The last shipment (any faction): who made it, whether with a token, the
  // cancellation standing when it was made, and whether a later cancellation
  // already took it back (once).
  uint8_t last_ship_faction_ = kNone8, last_ship_cancel_ability_ = kNone8, last_ship_cancel_faction_ = kNone8;
  bool last_ship_token_ = false, last_ship_forgotten_ = false;
};

struct VerifyOptions {
  bool projection = true;          // check every seat's and the observer's view after every event
  inspect::ViewFn view = inspect::build_view;  // the view under test, compared as bytes (tests plant leaks here)
};

struct VerifyReport {
  bool ok = true;
  int64_t events = 0;          // events checked
  int64_t first_bad = -1;      // first failing version
  std::string check;           // "decode", "validate", "draws", "hash", "custody", "forces", "spice", "version",
                               // "once" (a client action id applied twice, a once-per-game power used
                               // twice, a shuffle drawing a card twice: read from the history, not from
                               // the state's flags), "projection" (a view leaks), "format" (stored under
                               // another state format, not migrated),
                               // "snapshot" (a stored snapshot is not the refolded state)
  std::string detail;
};

// A room stored under another state format (store/room.h format_problem)
// and not migrated fails at version 0 with check "format" and the sentence
// naming both formats; a migrated room is checked against its migration's
// hashes.
// progress(v, head) is called now and then for long rooms (may be empty).
VerifyReport verify_room(store::EventStore& store, const std::string& room,
                         const std::function<void(int64_t, int64_t)>& progress = {}, const VerifyOptions& opts = {});

// Refolds every event of `room` under this engine and records the state
// hashes in this release's format beside the events (store/room.h
// Migration), with every stored snapshot re-encoded; the events themselves
// are never rewritten. Before anything is written it checks that every
// recorded action is still accepted (validate) and every recorded draw is
// drawn again, and the custody invariants after every event; on the first
// failure it writes nothing and reports it like verify_room. A room already
// in this format is left as it is (report.detail says so). Not safe against
// a concurrent writer to the same room (run it on a store no server holds).
struct MigrateReport {
  bool ok = true;
  bool migrated = false;      // false: nothing to do, or failed
  uint32_t from_format = 0;   // the format its hashes were in
  int64_t events = 0;
  int64_t first_bad = -1;
  std::string check;          // as VerifyReport::check
  std::string detail;
};
MigrateReport migrate_room(store::EventStore& store, const std::string& room);

}  // namespace mentat::replay
