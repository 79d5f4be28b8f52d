// Described positions: the Position table of events/mentat.fbs, its JSON
// (`mentat new --position FILE`, `mentat show --position`) and its place in
// the creation event (CreateGame.position).
//
// A position is the table either as a phase of a turn begins, before the
// phase's opening steps (the bidding deal, the spice blow, the storm dials:
// the game's creation runs them), or, with a `step`, a state inside its
// phase taken exactly as given (what `show --position` prints for a stored
// version). Its sections are the seats, modules, rulings, turn, phase,
// storm, spice everywhere, forces per place, hands, leaders, traitors,
// decks, the random stream; every other field of the canonical state travels
// by its name (PositionField). It does not carry the history before it: the
// game starts at version 0 there (docs/CLI.md "Positions").
//
// Contract: pure functions, thread-safe (each JSON call builds its own
// FlatBuffers parser). Errors: false and one sentence in *error naming the
// field ("factions[2].forces[0].place: no location 'Arakeen', did you mean
// 'Arrakeen'?"); *out is then unspecified. Custody and conservation are not
// checked here: callers run inspect::check_position on the result (the CLI
// does, before anything is created).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/engine.h"

namespace flatbuffers {
class FlatBufferBuilder;
}

namespace mentat::position {

// JSON of a Position table -> a GameSetup with `start` (resume,
// shuffle_decks).
bool from_json(std::string_view json, GameSetup* out, std::string* error);
// The Position JSON (strict, indented) of `start` (its creation fields are
// the game's): with `resume`, the state inside its phase (step, waiting);
// without, a phase start. `shuffle` as recorded.
bool to_json(const GameState& start, bool resume, bool shuffle, std::string* out, std::string* error);

// For events/codec.cpp: the Position table of `start` in `b` (its offset),
// and a Position table read back into `out` (seed, seats, advanced,
// max_turns, rulings, modules, start, resume, shuffle_decks).
uint32_t build(flatbuffers::FlatBufferBuilder& b, const GameState& start, bool resume, bool shuffle);
bool read(const void* position_table, GameSetup* out, std::string* error);

}  // namespace mentat::position
