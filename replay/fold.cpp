#include "replay/fold.h"

#include <algorithm>
#include <optional>
#include <set>

#include "core/engine.h"
#include "events/codec.h"
#include "core/rules/rules.h"
#include "inspect/custody.h"
#include "store/room.h"

namespace mentat::replay {

std::optional<std::string> OnceOnly::check(const GameState& before, const codec::Event& e) {
  // 1.14 faction Karama powers: a Karama card played for no other purpose
  // (not 3.01.11.03 Guild rates, not 3.01.11.02 prevention), advanced game.
  if (const auto* play = e.action.get_if<action::PlayCard>();
      play && e.seat >= 0 && e.seat < before.num_seats && before.advanced && play->card < data::kNumAllTreacheryCards &&
      data::treachery_card(play->card).kind == data::TreacheryKind::Karama &&
      !(play->value & (rules::kKaramaGuildRates | rules::kKaramaPrevent))) {
    const Faction f = before.faction_at(e.seat);
    if (karama_power_ & faction_bit(f))
      return "the " + std::string(faction_name(f)) + " once-per-game Karama power is used a second time (1.14.00)";
    karama_power_ = static_cast<FactionMask>(karama_power_ | faction_bit(f));
    // 1.14.05: the Guild's power in the Shipment and Movement phase cancels
    // the target's shipment just made: it never happened (a token shipment
    // is forgotten; a shipment made again is the turn's one shipment).
    if (f == Faction::Guild && before.phase == Phase::ShipmentMovement && play->target < kNumFactions) {
      const auto target = static_cast<Faction>(play->target);
      if (last_ship_faction_ == play->target && last_ship_token_ && !last_ship_forgotten_) {
        no_field_last_ = no_field_prev_;
        no_field_prev_ = kNone8;
        last_ship_forgotten_ = true;
      }
      if (before.turn == turn_) shipped_ = static_cast<FactionMask>(shipped_ & ~faction_bit(target));
    }
  }
  // The expansions' once-per-game powers (CHOAM & Richese), one bit each.
  static constexpr struct {
    ActionKind kind;
    const char* what;
  } kPowers[] = {{ActionKind::ChoamKarama, "CHOAM's special Karama"},
                 {ActionKind::ChoamInflation, "CHOAM's Inflation token"},
                 {ActionKind::RicheseBuy, "the Richese special Karama purchase"}};
  for (int i = 0; i < 3; ++i)
    if (e.action.kind() == kPowers[i].kind) {
      if ((module_powers_ >> i) & 1u) return std::string(kPowers[i].what) + " is used a second time (once a game)";
      module_powers_ = static_cast<uint8_t>(module_powers_ | (1u << i));
    }
  // The No-Field tokens (CHOAM & Richese): no token is shipped twice in a row,
  // the Richese's and their ally's shipments together, from the history. A
  // Karama that cancels an ability of the last shipment (its KaramaCancel
  // window applied nothing: the token's, the Guild's rates, any) takes that
  // shipment back: a token shipment is forgotten, once; a retake made while
  // the cancellation stands is a new shipment.
  if (before.cancelled_ability != kNone8 && before.cancelled_faction == last_ship_faction_ && last_ship_token_ &&
      !last_ship_forgotten_ &&
      (before.cancelled_ability != last_ship_cancel_ability_ || before.cancelled_faction != last_ship_cancel_faction_)) {
    no_field_last_ = no_field_prev_;
    no_field_prev_ = kNone8;
    last_ship_forgotten_ = true;
  }
  if (const auto* ship = e.action.get_if<action::Ship>(); ship && e.seat >= 0 && e.seat < before.num_seats) {
    last_ship_faction_ = static_cast<uint8_t>(before.faction_at(e.seat));
    last_ship_cancel_ability_ = before.cancelled_ability;
    last_ship_cancel_faction_ = before.cancelled_faction;
    last_ship_token_ = ship->no_field != kNone8;
    last_ship_forgotten_ = false;
    if (ship->no_field != kNone8) {
      if (ship->no_field == no_field_last_)
        return "the " + std::to_string(ship->no_field) + " No-Field token is shipped twice in a row (CHOAM & Richese)";
      no_field_prev_ = no_field_last_;
      no_field_last_ = ship->no_field;
    }
  }
  // The paid effects of a turn, each paid once per faction (1.06.02 one
  // shipment, 1.05 one revival): counted from the actions themselves.
  if (before.turn != turn_) {
    turn_ = before.turn;
    shipped_ = revived_ = 0;
  }
  if ((e.action.kind() == ActionKind::Ship || e.action.kind() == ActionKind::Revive) && e.seat >= 0 && e.seat < before.num_seats) {
    const Faction f = before.faction_at(e.seat);
    FactionMask& done = e.action.kind() == ActionKind::Ship ? shipped_ : revived_;
    // 1.00.04: a Karama cancelled the ability the first action used (its
    // KaramaCancel window applied nothing); the faction retakes it without.
    const bool retaken = before.cancelled_ability != kNone8 && before.cancelled_faction == static_cast<uint8_t>(f);
    if ((done & faction_bit(f)) && !retaken)
      return "the " + std::string(faction_name(f)) +
             (e.action.kind() == ActionKind::Ship ? " ship a second time in turn " : " pay for a second revival in turn ") +
             std::to_string(before.turn) + (e.action.kind() == ActionKind::Ship ? " (1.06.02)" : " (1.05)");
    done = static_cast<FactionMask>(done | faction_bit(f));
  }
  // Every shuffle is drawn once: within one shuffle's recorded positions no
  // card appears twice.
  for (size_t i = 0; i < e.draws.size();) {
    const DrawKind k = e.draws[i].kind;
    size_t j = i;
    if (k == DrawKind::ShuffleTreachery || k == DrawKind::ShuffleSpice || k == DrawKind::ShuffleTraitors ||
        k == DrawKind::ShuffleStormDeck || k == DrawKind::ShuffleSkills) {
      uint64_t seen = 0;
      for (; j < e.draws.size() && e.draws[j].kind == k; ++j) {
        const uint16_t id = e.draws[j].value;
        if (id < 64 && ((seen >> id) & 1u)) return "a shuffle draws the same card twice (draw " + std::to_string(j) + ")";
        if (id < 64) seen |= uint64_t{1} << id;
      }
    }
    i = std::max(j, i + 1);
  }
  return std::nullopt;
}

namespace {

struct StepFailure {
  std::string check, detail;
};

// Decodes the event stored at version v.
std::optional<StepFailure> decode_step(int64_t v, const std::string& bytes, codec::Event& e) {
  std::string err;
  if (!codec::decode_event(bytes, &e, &err)) return StepFailure{"decode", err};
  if (static_cast<int64_t>(e.version) != v)
    return StepFailure{"version", "the event stored at version " + std::to_string(v) + " says version " + std::to_string(e.version)};
  return std::nullopt;
}

// Folds event e (version v) into s under this engine: CreateGame only at
// version 0, the action accepted by validate, the once-only effects, the
// recorded draws drawn again; s is then the state after it.
std::optional<StepFailure> fold_step(GameState& s, int64_t v, const codec::Event& e, OnceOnly& once, const char* illegal) {
  DrawLog draws;
  if (v == 0) {
    if (e.action.kind() != ActionKind::CreateGame) return StepFailure{"validate", "version 0 is not a CreateGame event"};
    if (auto bad = check_setup(e.setup)) return StepFailure{"validate", *bad};
    s = create_game(e.setup, &draws);
    if (auto twice = once.check(s, e)) return StepFailure{"once", *twice};
  } else {
    if (e.action.kind() == ActionKind::CreateGame) return StepFailure{"validate", "a CreateGame event after version 0"};
    if (auto rej = validate(s, e.seat, e.action)) return StepFailure{"validate", std::string(illegal) + rej->reason};
    if (auto twice = once.check(s, e)) return StepFailure{"once", *twice};
    apply(s, e.seat, e.action, &draws);
  }
  if (draws != e.draws)
    return StepFailure{"draws", "the random outcomes differ from those recorded (" + std::to_string(draws.size()) + " drawn, " +
                                    std::to_string(e.draws.size()) + " recorded)"};
  return std::nullopt;
}

}  // namespace

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
  OnceOnly once;
  std::optional<store::Migration> mig = store::read_migration(store, room, &error);
  if (!error.empty()) {
    r.ok = false;
    r.check = "store";
    r.detail = error;
    return r;
  }
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
    if (auto bad = decode_step(v, bytes, e)) return fail(v, bad->check, bad->detail);
    // A game stored by another rules version may legitimately not refold: say so.
    if (e.rules_version != kRulesVersion && r.ok && r.detail.empty())
      r.detail = "note: version " + std::to_string(v) + " was stored by rules version " + std::to_string(e.rules_version) +
                 ", this engine is rules version " + std::to_string(kRulesVersion);
    if (v == 0) {
      if (auto why = store::format_problem(room, e, mig ? &*mig : nullptr)) return fail(v, "format", *why);
    }
    if (auto bad = fold_step(s, v, e, once, "the stored action is not legal here: ")) return fail(v, bad->check, bad->detail);
    if (codec::state_hash(s) != store::expected_hash(mig ? &*mig : nullptr, e))
      return fail(v, "hash", "the refolded state's hash differs from the stored hash");
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

MigrateReport migrate_room(store::EventStore& store, const std::string& room) {
  MigrateReport r;
  std::string error;
  auto meta = store.meta(room, &error);
  if (!meta) {
    r.ok = false;
    r.check = "room";
    r.detail = error.empty() ? "no room " + room : error;
    return r;
  }
  auto fail = [&](int64_t v, std::string check, std::string detail) {
    r.ok = false;
    r.first_bad = v;
    r.check = std::move(check);
    r.detail = std::move(detail);
    return false;
  };
  std::optional<store::Migration> old = store::read_migration(store, room, &error);
  if (!error.empty()) {
    fail(0, "store", error);
    return r;
  }
  store::Migration mig;
  mig.state_format = kStateFormat;
  mig.hashes.reserve(static_cast<size_t>(meta->head + 1));
  std::vector<std::pair<int64_t, std::string>> snapshots;
  bool current = false;  // already in this format: nothing to write
  GameState s;
  OnceOnly once;
  bool scanned = store.scan_events(room, 0, meta->head, [&](int64_t v, const std::string& bytes) {
    codec::Event e;
    if (auto bad = decode_step(v, bytes, e)) return fail(v, bad->check, bad->detail);
    if (v == 0) {
      r.from_format = old ? old->state_format : e.setup.state_format;
      if (!store::format_problem(room, e, old ? &*old : nullptr)) {
        current = true;
        return false;  // stop scanning: nothing to do
      }
    }
    if (auto bad = fold_step(s, v, e, once, "the recorded action is no longer accepted: ")) return fail(v, bad->check, bad->detail);
    if (auto viol = inspect::check_invariants(s)) return fail(v, viol->invariant, viol->detail);
    mig.hashes.push_back(codec::state_hash(s));
    int64_t sv = -1;
    std::string snap, serr;
    if (store.latest_snapshot(room, v, &sv, &snap, &serr) && sv == v) snapshots.emplace_back(v, codec::encode_state(s));
    ++r.events;
    return true;
  }, &error);
  if (current) {
    r.detail = "already in state format " + std::to_string(kStateFormat);
    return r;
  }
  if (!r.ok) return r;
  if (!scanned) {
    fail(r.events, "store", error);
    return r;
  }
  if (!store.put_migration(room, store::encode_migration(mig), snapshots, &error)) {
    fail(r.events, "store", error);
    return r;
  }
  r.migrated = true;
  return r;
}

}  // namespace mentat::replay
