// Rooms: the engine and the event store together. This is the one path by
// which an action becomes an event:
//   validate -> apply (drawing outcomes) -> hash -> encode -> durable append.
//
// Contract:
//  * submit() stores nothing when it rejects; on success the event is
//    durable (synced) before it returns.
//  * A resubmitted client action id returns the original event's version and
//    appends nothing (Outcome::duplicate).
//  * load() rebuilds the state at a version from the nearest snapshot plus
//    the tail, checking the snapshot against the stored hash of its event.
//  * Thread-safe as EventStore is; concurrent submits to one room race on
//    the expected version and exactly one wins.
#pragma once

#include <optional>
#include <vector>
#include <optional>
#include <string>

#include "core/engine.h"
#include "events/codec.h"
#include "store/event_store.h"

namespace mentat::store {

inline constexpr int kSnapshotEvery = 64;

struct Outcome {
  bool ok = false;
  bool duplicate = false;
  bool conflict = false;
  int64_t version = -1;             // new (or original) version; current head on conflict
  std::optional<Rejection> rejection;
  std::string error;                // store or decoding problems
  codec::Event event;               // the stored event (ok only)
};

// Creates a room with its version-0 event. An empty `room` picks an id
// derived from the seed and the clock. Returns false with *error on failure.
bool create_room(EventStore& store, const GameSetup& setup, std::string* room, std::string* error);

// ---- State formats and migration ------------------------------------------
// Every event stores the hash of the state after it, in the canonical state
// format of the release that stored it (the creation event records that
// format: GameSetup::state_format). When this release writes another format
// (kStateFormat), a stored room's hashes and snapshots no longer match and
// the room must be migrated (`mentat migrate`, replay/fold.h migrate_room):
// its events are refolded under this engine and the new hashes recorded
// beside them (the events are never rewritten).
struct Migration {
  uint32_t state_format = 0;     // the format of `hashes`
  std::vector<uint64_t> hashes;  // per version 0..hashes.size()-1
};
std::string encode_migration(const Migration& m);
// nullopt with an empty *error when the room was never migrated.
std::optional<Migration> read_migration(EventStore& store, const std::string& room, std::string* error);
// The hash version e.version must have under this release: the migration's
// for the versions it covers, else the stored one.
uint64_t expected_hash(const Migration* m, const codec::Event& e);
// Why a room whose creation event is `creation` cannot be read by this
// release as it is ("room R is stored under state format 2; this release
// writes 3: run `mentat migrate R`"), or nullopt.
std::optional<std::string> format_problem(const std::string& room, const codec::Event& creation, const Migration* m);

// Loads the state of `room` at `version` (-1: head). A room stored under
// another state format and not migrated is refused with format_problem().
bool load_state(EventStore& store, const std::string& room, int64_t version, GameState* out, std::string* error);

// Creates `name` as a fork of `parent` sharing versions 0..at (nothing is
// copied). With `rulings`, the fork's first own event (version at+1, seat -1)
// sets them: the rest of the fork is played under the other reading.
bool fork_room(EventStore& store, const std::string& parent, int64_t at, const std::string& name, const Rulings* rulings,
               std::string* error);

Outcome submit(EventStore& store, const std::string& room, Seat seat, int64_t expected_version,
               const Action& action, const std::string& client_action_id);

// submit() for a process that keeps the room loaded (self-play, bots): the
// caller passes the room's head state instead of having it reloaded from the
// latest snapshot. `head` must be the state folded from the room's stored
// events (as load_state() would return it); its version is the expected
// version, so a store that has moved on answers a conflict. The stored event
// is the one submit() would store. On success `head` becomes the new head
// state; otherwise it is unchanged.
Outcome submit_loaded(EventStore& store, const std::string& room, GameState& head, Seat seat, const Action& action,
                      const std::string& client_action_id);

}  // namespace mentat::store
