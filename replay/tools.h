// Adjudication tools over stored games: predicates, bisect, rerun.
//
// Contract: read-only over the store (rerun's --keep goes through the room
// layer); thread-safe as EventStore is. Errors come back as false + one
// sentence.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/state.h"
#include "replay/diff.h"
#include "store/event_store.h"

namespace mentat::replay {

// A predicate over a state, parsed from a small expression language:
//   turn >= 3 && phase == "Battle"
//   spice(atreides) > 10 || forces(harkonnen, "Carthag") == 0
// Values: numbers, "strings", turn, version, storm, bank, phase (its name),
// spice(f), bribes(f), reserves(f), tanks(f), hand(f), forces(f),
// forces(f, "Location"), board_spice("Location"), ally(f) (0/1), winner(f) (0/1).
// Operators: == != < <= > >=, &&, ||, parentheses.
class Predicate {
 public:
  static std::unique_ptr<Predicate> parse(const std::string& text, std::string* error);
  virtual ~Predicate() = default;
  virtual bool eval(const GameState& s) const = 0;
};

// Loads the state at a version (for bisect); false + error on failure.
using StateLoader = std::function<bool(int64_t version, GameState* out, std::string* error)>;

struct BisectResult {
  bool found = false;
  int64_t version = -1;   // first version where the condition holds
  int loads = 0;          // states loaded
  std::string error;
};
// Finds the first version in [0, head] where `holds` is true, assuming it
// stays true once it becomes true (like git bisect), in O(log n) loads.
BisectResult bisect(int64_t head, const StateLoader& load, const std::function<bool(const GameState&)>& holds);

struct RerunReport {
  bool ok = false;              // the rerun itself ran (false: store/decoding error in `error`)
  bool diverged = false;
  int64_t version = -1;         // first version that became illegal or different
  std::string kind;             // "illegal" or "state"
  std::string detail;           // the rejection, or a summary
  std::vector<DiffEntry> diff;  // original -> rerun at that version (state divergence)
  int64_t checked = 0;
  std::string error;
};
// Refolds `room` from version 0, switching to `rulings` at version `from`
// (0: from the creation), re-validating every later action under them.
RerunReport rerun(store::EventStore& store, const std::string& room, const Rulings& rulings, int64_t from);

// Keeps a rerun as a new room `new_room` (rerun --keep): a fork of `room`
// before version `from` that records `rulings` (an adjudicator SetRulings
// event), followed by the original actions re-submitted through the room
// layer (validated, hashed, synced) up to the last one that stayed legal and
// equal: report.version - 1 when the rerun diverged, else the whole game.
// The kept room's head goes to *head. On failure (no such room, new_room
// exists, an action rejected) returns false with one sentence in *error; a
// partly copied room stays in the store as a normal fork and is named there.
bool keep_rerun(store::EventStore& store, const std::string& room, const Rulings& rulings, int64_t from,
                const RerunReport& report, const std::string& new_room, int64_t* head, std::string* error);

}  // namespace mentat::replay
