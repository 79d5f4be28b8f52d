// Encoding of events and states (FlatBuffers) and their JSON forms.
//
// Contract:
//  * encode_* return freshly built FlatBuffers bytes (the caller owns them).
//  * decode_event verifies every byte sequence with the FlatBuffers Verifier,
//    checks the file identifier, and rejects union tags this build does not
//    know (the generated 2.0.8 verifier lets them pass). On failure it returns
//    false, sets *error to one sentence and leaves *out unspecified.
//  * The state encoding is canonical: equal states give equal bytes, and
//    decode_state(encode_state(s)) reproduces s field for field.
//  * Thread-safe: JSON printers keep one parser per thread (reused); JSON
//    is printed valid for any stored text (events/json_text.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/engine.h"

namespace flatbuffers {
class FlatBufferBuilder;
}

namespace mentat::codec {

struct Event {
  uint64_t version = 0;
  Seat seat = kNoSeat;
  Action action;          // kind == CreateGame for version 0
  GameSetup setup;        // only for CreateGame
  std::string client_action_id;
  uint32_t engine_version = kEngineVersion;
  uint32_t rules_version = kRulesVersion;
  DrawLog draws;
  uint64_t state_hash = 0;
};

std::string encode_event(const Event& e);
bool decode_event(std::string_view bytes, Event* out, std::string* error);

// JSON (through flatbuffers::Parser and the schema compiled into the program).
// An action request is {"action_type": "Bid", "action": {"amount": 3}}.
bool parse_action_json(std::string_view json, Action* out, GameSetup* setup, std::string* error);

// Strict one-line JSON of an action as an action request
// ({"action_type": "Bid", "action": {...}}, every field named by the schema),
// the form parse_action_json reads back. CreateGame prints without its
// GameSetup. For messages and logs; never throws.
std::string action_to_json(const Action& a);

// The Action union of events/mentat.fbs inside another schema's table
// (server/api.fbs). action_to_table builds the member table of `a` in `b`
// and returns its offset (0 for None; CreateGame takes its fields from
// `setup`); the union tag is static_cast<uint8_t>(a.kind()). action_from_table
// reads a member table back, rejecting unknown tags and oversized lists like
// decode_event.
uint32_t action_to_table(flatbuffers::FlatBufferBuilder& b, const Action& a, const GameSetup* setup);
bool action_from_table(uint8_t type, const void* table, Action* out, GameSetup* setup, std::string* error);

// A stored event from its JSON (as printed by event_to_json); the result is
// verified like any stored event.
bool parse_event_json(std::string_view json, Event* out, std::string* error);
// Strict JSON of a stored event.
bool event_to_json(std::string_view bytes, std::string* out, std::string* error);
// Strict JSON of a View FlatBuffer (inspect/view.h).
bool view_to_json(std::string_view bytes, std::string* out, std::string* error);
// Strict JSON of any root table of events/view.fbs (View, DiffView, ...).
bool table_to_json(const char* root, std::string_view bytes, std::string* out, std::string* error);

// Canonical state encoding and its hash.
using mentat::kStateFormat;  // core/engine.h
std::string encode_state(const GameState& s);
bool decode_state(std::string_view bytes, GameState* out, std::string* error);
uint64_t state_hash(const GameState& s);
uint64_t hash_bytes(std::string_view bytes);

}  // namespace mentat::codec
