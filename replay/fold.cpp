#include "replay/fold.h"

#include <set>

#include "core/engine.h"
#include "events/codec.h"
#include "inspect/custody.h"

namespace mentat::replay {

VerifyReport verify_room(store::EventStore& store, const std::string& room,
                         const std::function<void(int64_t, int64_t)>& progress, const VerifyOptions& opts) {
  VerifyReport r;
  std::string error;
  auto meta = store.meta(room, &error);
  if (!meta) {
    r.ok = false;
    r.check = "room";
    r.detail = error.empty() ? "no room " + room : error;
    return r;
  }
  GameState s;
  std::set<std::string> action_ids;
  auto fail = [&](int64_t v, std::string check, std::string detail) {
    r.ok = false;
    r.first_bad = v;
    r.check = std::move(check);
    if (r.detail.rfind("note: ", 0) == 0) detail += " (" + r.detail.substr(6) + ": a game stored by another rules version may not refold)";
    r.detail = std::move(detail);
    return false;
  };
  bool scanned = store.scan_events(room, 0, meta->head, [&](int64_t v, const std::string& bytes) {
    codec::Event e;
    std::string err;
    if (!codec::decode_event(bytes, &e, &err)) return fail(v, "decode", err);
    if (static_cast<int64_t>(e.version) != v)
      return fail(v, "version", "the event stored at version " + std::to_string(v) + " says version " + std::to_string(e.version));
    // A game stored by another rules version may legitimately not refold: say so.
    if (e.rules_version != kRulesVersion) {
      const bool ok_so_far = r.ok;
      if (ok_so_far && r.detail.empty())
        r.detail = "note: version " + std::to_string(v) + " was stored by rules version " + std::to_string(e.rules_version) +
                   ", this engine is rules version " + std::to_string(kRulesVersion);
    }
    DrawLog draws;
    if (v == 0) {
      if (e.action.kind != ActionKind::CreateGame) return fail(v, "validate", "version 0 is not a CreateGame event");
      if (auto bad = check_setup(e.setup)) return fail(v, "validate", *bad);
      s = create_game(e.setup, &draws);
    } else {
      if (e.action.kind == ActionKind::CreateGame) return fail(v, "validate", "a CreateGame event after version 0");
      if (auto rej = validate(s, e.seat, e.action))
        return fail(v, "validate", "the stored action is not legal here: " + rej->reason);
      apply(s, e.seat, e.action, &draws);
    }
    if (draws != e.draws)
      return fail(v, "draws", "the random outcomes differ from those recorded (" + std::to_string(draws.size()) +
                                  " drawn, " + std::to_string(e.draws.size()) + " recorded)");
    if (codec::state_hash(s) != e.state_hash) return fail(v, "hash", "the refolded state's hash differs from the stored hash");
    if (auto viol = inspect::check_invariants(s)) return fail(v, viol->invariant, viol->detail);
    // A stored snapshot at this version must be this very state (loads start from it).
    {
      int64_t sv = -1;
      std::string snap, serr;
      if (store.latest_snapshot(room, v, &sv, &snap, &serr) && sv == v) {
        GameState stored;
        if (!codec::decode_state(snap, &stored, &serr)) return fail(v, "snapshot", "the stored snapshot does not decode: " + serr);
        if (auto viol = inspect::check_invariants(stored))
          return fail(v, viol->invariant, "in the stored snapshot: " + viol->detail);
        if (codec::encode_state(stored) != codec::encode_state(s))
          return fail(v, "snapshot", "the stored snapshot differs from the refolded state");
      }
    }
    // Once-only: a client action id is applied at most once.
    if (!e.client_action_id.empty() && !action_ids.insert(e.client_action_id).second)
      return fail(v, "once", "client action id '" + e.client_action_id + "' was applied twice");
    if (opts.projection) {
      if (auto leak = inspect::check_projection(s, inspect::Viewer::observer(), opts.view)) return fail(v, "projection", *leak);
      for (Seat x = 0; x < s.num_seats; ++x)
        if (auto leak = inspect::check_projection(s, inspect::Viewer::of(x), opts.view)) return fail(v, "projection", *leak);
    }
    ++r.events;
    if (progress && (v % 256 == 0 || v == meta->head)) progress(v, meta->head);
    return true;
  }, &error);
  if (!scanned && r.ok) {
    r.ok = false;
    r.check = "store";
    r.first_bad = r.events;  // the version after the last good one
    r.detail = error;
  }
  return r;
}

}  // namespace mentat::replay
