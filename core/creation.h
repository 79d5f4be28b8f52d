// The creation fields of a game's state, shared by create_game (core/
// engine.cpp) and described positions (events/position.cpp): one home for
// what a GameSetup puts into a fresh GameState before any rule runs.
//
// Contract: a pure function of its arguments; `setup` passed check_setup.
#pragma once

#include "core/engine.h"

namespace mentat {

// A fresh state with the setup's seed and random stream, seats (each seated
// faction in the game at its seat), advanced flag, turns, rulings and
// modules, and every leader in its own faction's pool.
GameState creation_state(const GameSetup& setup);

}  // namespace mentat
