// libFuzzer target: action decoding, from client text to the engine.
//
// Input: JSON text, read two ways: as an action ({"action_type": "Bid",
// "action": {...}}, codec::parse_action_json, the `mentat act` path) and as
// a room server SubmitRequest (api::parse + codec::action_from_table, the
// POST /rooms/{id}/actions path). Every action that decodes is validated
// for every seat against a few fixed game states (tests/fuzz/fuzz_states.h).
//
// Property: accepted or rejected, never a crash or a partial write.
//  * validate() never changes the state (the state hash is the same after);
//  * an accepted action is applied, which moves the version and the hash and
//    keeps the custody invariants.
// A violation aborts (libFuzzer records the input as a crash).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "events/codec.h"
#include "fuzz_states.h"
#include "inspect/custody.h"
#include "server/api.h"

namespace {

using namespace mentat;

[[noreturn]] void fail(const char* what, const Action& a, Seat seat) {
  std::fprintf(stderr, "fuzz_action: %s (kind %s, seat %d)\n", what, std::string(action_kind_name(a.kind())).c_str(), seat);
  std::abort();
}

void check_against_states(const Action& a) {
  if (a.kind() == ActionKind::CreateGame) return;  // never an action a seat can submit
  for (const GameState& fixed : fuzzsupport::fixed_states()) {
    for (Seat seat = 0; seat < static_cast<Seat>(fixed.num_seats); ++seat) {
      GameState s = fixed;
      const uint64_t before = codec::state_hash(s);
      const auto rej = validate(s, seat, a);
      if (codec::state_hash(s) != before) fail("validate changed the state", a, seat);
      if (rej) {
        if (rej->reason.empty()) fail("a rejection without a reason", a, seat);
        continue;
      }
      DrawLog draws;
      apply(s, seat, a, &draws);
      if (s.version != fixed.version + 1) fail("an accepted action did not move the version", a, seat);
      if (codec::state_hash(s) == before) fail("an accepted action left the state hash unchanged", a, seat);
      if (auto v = inspect::check_invariants(s)) fail(("invariant " + v->invariant + ": " + v->detail).c_str(), a, seat);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  {
    Action a;
    GameSetup setup;
    if (codec::parse_action_json(text, &a, &setup, &error)) check_against_states(a);
    else if (error.empty()) fail("parse_action_json failed without an error", a, kNoSeat);
  }
  {
    std::string buffer;
    error.clear();
    const auto* req = server::api::parse<fb::SubmitRequest>(text, &buffer, &error);
    if (req && req->action_type() != fb::Action::NONE) {
      Action a;
      GameSetup setup;
      if (codec::action_from_table(static_cast<uint8_t>(req->action_type()), req->action(), &a, &setup, &error))
        check_against_states(a);
      else if (error.empty()) fail("action_from_table failed without an error", a, kNoSeat);
    }
  }
  return 0;
}
