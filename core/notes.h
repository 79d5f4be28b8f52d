// What an apply decided that the state does not keep once the step is over,
// for reports (the log's outcome lines, inspect/report.h): each battle
// resolved and its winner. Public facts only (the plans are revealed by then).
//
// Contract: filled only when a caller passes an ApplyNotes; applying with
// notes gives the same state, draws and hash as without (the rules never read
// them). Same thread safety as apply (engine.h).
#pragma once

#include <vector>

#include "core/engine.h"

namespace mentat {

struct BattleOutcome {
  enum How : uint8_t { Totals, Traitor, BothTraitors, LasgunShield };
  TerritoryId territory = kNone8;
  uint8_t winner = kNoFaction;  // kNoFaction: nobody won (both traitors, lasgun and shield)
  uint8_t loser = kNoFaction;   // the other side (nobody won: the defender)
  How how = Totals;
  int total2[2] = {0, 0};       // Totals: the winner's and the loser's totals in half units (1.13.04.03)
};

struct ApplyNotes {
  std::vector<BattleOutcome> battles;
};

// apply (engine.h), recording into `notes` (may be null).
void apply(GameState& s, Seat seat, const Action& a, DrawLog* draws, ApplyNotes* notes);

}  // namespace mentat
