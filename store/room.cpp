#include "store/room.h"

#include <chrono>

#include <fmt/format.h>

namespace mentat::store {

bool create_room(EventStore& store, const GameSetup& setup, std::string* room, std::string* error) {
  if (auto bad = check_setup(setup)) {
    *error = *bad;
    return false;
  }
  if (room->empty()) {
    const auto t = static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
    *room = fmt::format("g{:08x}", static_cast<uint32_t>(codec::hash_bytes(fmt::format("{}:{}", setup.seed, t))));
  }
  if (!EventStore::valid_room_id(*room)) {
    *error = "invalid room id '" + *room + "'";
    return false;
  }
  codec::Event e;
  e.version = 0;
  e.seat = kNoSeat;
  e.action = action::CreateGame{};
  e.setup = setup;
  e.setup.state_format = kStateFormat;  // a new room's hashes are this release's format
  GameState s = create_game(setup, &e.draws);
  e.state_hash = codec::state_hash(s);
  const std::string snap = codec::encode_state(s);
  auto r = store.append(*room, -1, codec::encode_event(e), "create", &snap);
  if (r.status == AppendStatus::Conflict) {
    *error = "room " + *room + " already exists";
    return false;
  }
  if (r.status != AppendStatus::Ok) {
    *error = r.status == AppendStatus::Duplicate ? "room " + *room + " already exists" : r.error;
    return false;
  }
  return true;
}

std::string encode_migration(const Migration& m) {
  std::string out = "MIG1";
  auto put = [&out](uint64_t x, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((x >> (8 * i)) & 0xFF));
  };
  put(m.state_format, 4);
  put(m.hashes.size(), 8);
  for (uint64_t h : m.hashes) put(h, 8);
  return out;
}

std::optional<Migration> read_migration(EventStore& store, const std::string& room, std::string* error) {
  error->clear();
  auto bytes = store.get_migration(room, error);
  if (!bytes) return std::nullopt;
  auto get = [&bytes](size_t at, int n) {
    uint64_t x = 0;
    for (int i = 0; i < n; ++i) x |= static_cast<uint64_t>(static_cast<uint8_t>((*bytes)[at + i])) << (8 * i);
    return x;
  };
  if (bytes->size() < 16 || bytes->compare(0, 4, "MIG1") != 0) {
    *error = "room " + room + ": its migration record is damaged";
    return std::nullopt;
  }
  Migration m;
  m.state_format = static_cast<uint32_t>(get(4, 4));
  const uint64_t n = get(8, 8);
  if (bytes->size() != 16 + 8 * n) {
    *error = "room " + room + ": its migration record is damaged";
    return std::nullopt;
  }
  m.hashes.resize(n);
  for (uint64_t i = 0; i < n; ++i) m.hashes[i] = get(16 + 8 * i, 8);
  return m;
}

uint64_t expected_hash(const Migration* m, const codec::Event& e) {
  if (m && e.version < m->hashes.size()) return m->hashes[e.version];
  return e.state_hash;
}

std::optional<std::string> format_problem(const std::string& room, const codec::Event& creation, const Migration* m) {
  if (m && m->state_format == kStateFormat) return std::nullopt;
  if (creation.setup.state_format == kStateFormat && !m) return std::nullopt;
  const uint32_t stored = m ? m->state_format : creation.setup.state_format;
  return "room " + room + " is stored under state format " + std::to_string(stored) + "; this release writes " +
         std::to_string(kStateFormat) + ": run `mentat migrate " + room + "`";
}

namespace {
// Applies a stored event to `s` (fold step); checks the expected hash when asked.
bool fold_event(GameState& s, const codec::Event& e, const Migration* m, bool check_hash, std::string* error) {
  if (e.action.kind() == ActionKind::CreateGame) {
    s = create_game(e.setup, nullptr);
  } else {
    apply(s, e.seat, e.action, nullptr);
  }
  if (check_hash && codec::state_hash(s) != expected_hash(m, e)) {
    *error = "state hash differs from the stored hash at version " + std::to_string(e.version);
    return false;
  }
  return true;
}
}  // namespace

bool load_state(EventStore& store, const std::string& room, int64_t version, GameState* out, std::string* error) {
  auto m = store.meta(room, error);
  if (!m) {
    if (error->empty()) *error = "no room " + room;
    return false;
  }
  if (version < 0) version = m->head;
  std::optional<Migration> mig = read_migration(store, room, error);
  if (!error->empty()) return false;
  {
    std::string ev0;
    codec::Event creation;
    if (!store.read_event(room, 0, &ev0, error) || !codec::decode_event(ev0, &creation, error)) {
      *error = "room " + room + " version 0: " + *error;
      return false;
    }
    if (auto why = format_problem(room, creation, mig ? &*mig : nullptr)) {
      *error = *why;
      return false;
    }
  }
  if (version > m->head) {
    *error = "room " + room + " has no version " + std::to_string(version) + " (head " + std::to_string(m->head) + ")";
    return false;
  }
  int64_t snap_v = -1;
  std::string snap;
  if (!store.latest_snapshot(room, version, &snap_v, &snap, error)) return false;
  GameState s;
  int64_t from = 0;
  if (snap_v >= 0) {
    if (!codec::decode_state(snap, &s, error)) {
      *error = "room " + room + " snapshot " + std::to_string(snap_v) + ": " + *error;
      return false;
    }
    std::string ev_bytes;
    codec::Event ev;
    if (!store.read_event(room, snap_v, &ev_bytes, error) || !codec::decode_event(ev_bytes, &ev, error)) {
      *error = "room " + room + " version " + std::to_string(snap_v) + ": " + *error;
      return false;
    }
    if (codec::hash_bytes(snap) != expected_hash(mig ? &*mig : nullptr, ev)) {
      *error = "room " + room + ": snapshot at version " + std::to_string(snap_v) + " does not match its event's hash";
      return false;
    }
    from = snap_v + 1;
  }
  bool ok = true;
  bool scanned = store.scan_events(room, from, version, [&](int64_t v, const std::string& bytes) {
    codec::Event e;
    if (!codec::decode_event(bytes, &e, error)) {
      *error = "room " + room + " version " + std::to_string(v) + ": " + *error;
      ok = false;
      return false;
    }
    ok = fold_event(s, e, mig ? &*mig : nullptr, v == version, error);
    return ok;
  }, error);
  if (!scanned || !ok) return false;
  *out = s;
  return true;
}

bool fork_room(EventStore& store, const std::string& parent, int64_t at, const std::string& name, const Rulings* rulings,
               std::string* error) {
  if (!store.create_fork(name, parent, at, error)) return false;
  if (!rulings) return true;
  action::SetRulings a;
  a.rulings = *rulings;
  auto o = submit(store, name, kNoSeat, at, a, "set-rulings");
  if (!o.ok) {
    *error = o.rejection ? o.rejection->reason : o.error;
    return false;
  }
  return true;
}

namespace {

// Idempotency: a client action id already stored returns the original event.
bool find_duplicate(EventStore& store, const std::string& room, const std::string& client_action_id, Outcome* o) {
  if (client_action_id.empty()) return false;
  auto prev = store.find_action(room, client_action_id, &o->error);
  if (!o->error.empty()) return true;
  if (!prev) return false;
  o->ok = true;
  o->duplicate = true;
  o->version = *prev;
  std::string bytes;
  if (!store.read_event(room, *prev, &bytes, &o->error) || !codec::decode_event(bytes, &o->event, &o->error)) o->ok = false;
  return true;
}

// validate -> apply -> hash -> encode -> append, on the room's head state `s`
// (left as the new head state when the append succeeds).
Outcome submit_on(EventStore& store, const std::string& room, GameState& s, Seat seat, int64_t expected_version,
                  const Action& action, const std::string& client_action_id) {
  Outcome o;
  if (static_cast<int64_t>(s.version) != expected_version) {
    o.conflict = true;
    o.version = static_cast<int64_t>(s.version);
    o.error = "room " + room + " is at version " + std::to_string(s.version) + ", not " + std::to_string(expected_version);
    return o;
  }
  if (auto rej = validate(s, seat, action)) {
    o.rejection = rej;
    return o;
  }
  codec::Event e;
  e.version = s.version + 1;
  e.seat = seat;
  e.action = action;
  e.client_action_id = client_action_id;
  GameState next = s;
  apply(next, seat, action, &e.draws);
  e.state_hash = codec::state_hash(next);
  std::string snap;
  if (e.version % kSnapshotEvery == 0) snap = codec::encode_state(next);
  auto r = store.append(room, expected_version, codec::encode_event(e), client_action_id,
                        snap.empty() ? nullptr : &snap);
  switch (r.status) {
    case AppendStatus::Ok:
      o.ok = true;
      o.version = r.version;
      o.event = std::move(e);
      s = next;
      break;
    case AppendStatus::Duplicate:
      o.ok = true;
      o.duplicate = true;
      o.version = r.version;
      if (std::string bytes; store.read_event(room, r.version, &bytes, &o.error)) codec::decode_event(bytes, &o.event, &o.error);
      break;
    case AppendStatus::Conflict:
      o.conflict = true;
      o.version = r.version;
      o.error = r.error;
      break;
    case AppendStatus::Error: o.error = r.error; break;
  }
  return o;
}

}  // namespace

Outcome submit(EventStore& store, const std::string& room, Seat seat, int64_t expected_version, const Action& action,
               const std::string& client_action_id) {
  Outcome o;
  if (find_duplicate(store, room, client_action_id, &o)) return o;
  GameState s;
  if (!load_state(store, room, -1, &s, &o.error)) return o;
  return submit_on(store, room, s, seat, expected_version, action, client_action_id);
}

Outcome submit_loaded(EventStore& store, const std::string& room, GameState& head, Seat seat, const Action& action,
                      const std::string& client_action_id) {
  Outcome o;
  if (find_duplicate(store, room, client_action_id, &o)) return o;
  // The stored head must be the caller's: a store that moved on is a conflict
  // before any validation, as in submit().
  auto m = store.meta(room, &o.error);
  if (!m) {
    if (o.error.empty()) o.error = "no room " + room;
    return o;
  }
  if (m->head != static_cast<int64_t>(head.version)) {
    o.conflict = true;
    o.version = m->head;
    o.error = "room " + room + " is at version " + std::to_string(m->head) + ", not " + std::to_string(head.version);
    return o;
  }
  return submit_on(store, room, head, seat, static_cast<int64_t>(head.version), action, client_action_id);
}

}  // namespace mentat::store
