// Helpers shared by several phases: decks, forces, spice, storm order.
#include <algorithm>
#include <utility>

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/rules.h"

namespace mentat {

int GameState::forces_in_territory(Faction fa, TerritoryId t) const {
  const auto& ter = data::territory(t);
  int n = 0;
  for (int i = 0; i < ter.num_locations; ++i)
    n += forces_in_location(fa, static_cast<LocationId>(ter.first_location + i));
  return n;
}

int GameState::forces_total(Faction fa) const {
  const auto& x = of(fa);
  int n = x.reserves[0] + x.reserves[1] + x.tanks[0] + x.tanks[1];
  for (int l = 0; l < data::kNumLocations; ++l) n += forces_in_location(fa, static_cast<LocationId>(l));
  return n;
}

void transfer_spice(GameState& s, SpiceAccount from, SpiceAccount to, int amount) {
  auto adjust = [&](SpiceAccount a, int delta) {
    switch (a.holder) {
      case SpiceHolder::Bank: s.bank += delta; break;
      case SpiceHolder::Faction: s.f[a.index].spice = static_cast<uint16_t>(s.f[a.index].spice + delta); break;
      case SpiceHolder::Board: s.spice_on_board[a.index] = static_cast<uint16_t>(s.spice_on_board[a.index] + delta); break;
      case SpiceHolder::Bribe: s.f[a.index].bribes = static_cast<uint16_t>(s.f[a.index].bribes + delta); break;
    }
  };
  adjust(from, -amount);
  adjust(to, amount);
  rules::raise(s, rules::SpiceMoved{from, to, amount});  // the owners listening (core/rules/owners.h)
}

namespace rules {

uint32_t Ctx::rand_below(uint32_t bound, DrawKind kind) {
  uint32_t v = s.rng.below(bound);
  record(kind, static_cast<uint16_t>(v));
  return v;
}

int popcount8(uint8_t m) { return __builtin_popcount(m); }

int marker_sector(const GameState& s, Seat seat) {
  const int circle = (seat * 6) / std::max<int>(1, s.num_seats);
  return circle * 3;
}

std::vector<Seat> order_from_first(const GameState& s) {
  auto out = storm_order_only(s);
  if (s.juice.mode == 0) return out;  // the common case: no Juice of Sapho played
  for (const uint8_t mode : {kJuiceFirst, kJuiceLast}) {
    const Seat j = juice_seat(s, mode);
    if (j == kNoSeat) continue;
    auto it = std::find(out.begin(), out.end(), j);
    if (it == out.end()) continue;
    out.erase(it);
    if (mode == kJuiceFirst) out.insert(out.begin(), j);
    else out.push_back(j);
  }
  return out;
}

std::vector<Seat> storm_order_only(const GameState& s) {
  // 1.01.01: the first player is the one whose marker the storm next
  // approaches, moving counterclockwise (increasing sector numbers).
  // Sorted by (distance, seat) with an insertion sort on the stack: this runs
  // in every step-skipping test, so it allocates only the result.
  int dist[kMaxSeats];
  std::vector<Seat> out;
  const Seat n = static_cast<Seat>(std::min<int>(s.num_seats, kMaxSeats));
  out.reserve(static_cast<size_t>(n));
  for (Seat i = 0; i < n; ++i) {
    int d = (marker_sector(s, i) - s.storm_sector + 18) % 18;
    if (d == 0 && s.rulings.is(RulingId::StormOnMarker, 0)) d = 18;  // passed already
    size_t k = out.size();
    out.push_back(i);
    while (k > 0 && dist[k - 1] > d) {  // equal distances keep seat order
      dist[k] = dist[k - 1];
      out[k] = out[k - 1];
      --k;
    }
    dist[k] = d;
    out[k] = i;
  }
  return out;
}

uint8_t draw_treachery(Ctx& c) {
  auto& s = c.s;
  if (s.treachery_deck.empty()) {
    if (s.treachery_discard.empty()) return kNone8;
    while (!s.treachery_discard.empty()) s.treachery_deck.push(s.treachery_discard.pop());
    s.treachery_discard_hidden = 0;
    shuffle_pile(c, s.treachery_deck, DrawKind::ShuffleTreachery);
  }
  uint8_t id = s.treachery_deck.pop();
  c.record(DrawKind::DrawTreachery, id);
  return id;
}

namespace {
uint8_t* zone_counts(GameState& s, Faction f, ForcePlace p) {
  switch (p.zone) {
    case ForceZone::Board: return &s.forces_at(f, p.loc, 0);  // [0] regular, [1] special: forces[f][loc][kind]
    case ForceZone::Reserves: return s.of(f).reserves;
    case ForceZone::Tanks: return s.of(f).tanks;
    case ForceZone::Supply: return nullptr;
  }
  return nullptr;
}
}  // namespace

void move_forces(GameState& s, Faction f, ForcePlace from, ForcePlace to, int regular, int special, ForceCause cause,
                 ArriveAs as) {
  if (uint8_t* c = zone_counts(s, f, from)) {
    c[0] = static_cast<uint8_t>(c[0] - regular);
    c[1] = static_cast<uint8_t>(c[1] - special);
  }
  int reg = regular, spec = special;
  if (as == ArriveAs::Regular) reg += std::exchange(spec, 0);
  if (as == ArriveAs::Special) spec += std::exchange(reg, 0);
  if (uint8_t* c = zone_counts(s, f, to)) {
    c[0] = static_cast<uint8_t>(c[0] + reg);
    c[1] = static_cast<uint8_t>(c[1] + spec);
  }
  raise(s, ForcesMoved{f, from, to, regular, special, cause, as});
}

void flip_forces(GameState& s, Faction f, LocationId loc, int from_kind, int n) {
  s.forces_at(f, loc, 1 - from_kind) = static_cast<uint8_t>(s.forces_at(f, loc, 1 - from_kind) + n);
  s.forces_at(f, loc, from_kind) = static_cast<uint8_t>(s.forces_at(f, loc, from_kind) - n);
  raise(s, ForcesFlipped{f, loc, from_kind, n});
}

void leader_to_tanks(GameState& s, LeaderId id, bool face_down) {
  auto& l = s.leaders[id];
  l.zone = face_down ? LeaderZone::TanksFaceDown : LeaderZone::Tanks;
  l.died_once = 1;
  l.holder = static_cast<uint8_t>(data::leader(id).faction);  // 2.05.12
  l.aux = kNone8;
  l.used_in_territory = kNone8;
  raise(s, LeaderDied{id, face_down});
}

void leader_revived(GameState& s, LeaderId id, Faction by) {
  auto& l = s.leaders[id];
  l.zone = LeaderZone::Pool;
  l.holder = static_cast<uint8_t>(by);
  l.aux = kNone8;
  raise(s, LeaderRevived{id, by});
}

void forces_to_tanks(GameState& s, Faction f, LocationId loc, int regular, int special) {
  // The faction's token among them (the Richese No-Field, hook force_token) is
  // revealed first: the forces it becomes are destroyed with the rest.
  if (special > 0)
    if (const auto h = faction_rules(f).force_token.destroyed) {
      regular += h(s, loc);
      special = 0;
    }
  // Bene Gesserit advisors are ordinary forces in the tanks.
  move_forces(s, f, at(loc), tanks_zone(), regular, special, ForceCause::Destroyed,
              faction_rules(f).specials_tank_as_regular ? ArriveAs::Regular : ArriveAs::Same);
}

int hand_limit(const GameState& s, Faction f) {
  (void)s;
  return data::faction_setup(f).hand_limit;
}

bool hand_full(const GameState& s, Faction f) { return s.of(f).hand.n >= hand_limit(s, f); }

bool occupies(const GameState& s, Faction f, TerritoryId t) {
  const auto& ter = data::territory(t);
  for (int i = 0; i < ter.num_locations; ++i) {
    auto loc = static_cast<LocationId>(ter.first_location + i);
    if (s.forces_at(f, loc, 0) > 0) return true;
    // Bene Gesserit advisors (advanced) do not occupy (2.02.12).
    if (s.forces_at(f, loc, 1) > 0 && specials_fight(s, f)) return true;
  }
  return false;
}

// The counts below visit the seated factions (a game has at most six of the
// twelve); the order does not matter to a count.
int other_factions_in(const GameState& s, Faction f, TerritoryId t) {
  int n = 0;
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const Faction of = s.faction_at(seat);
    if (of == f) continue;
    if (occupies(s, of, t)) ++n;
  }
  return n;
}

int occupancy_others(const GameState& s, Faction f, TerritoryId t) {
  int n = other_factions_in(s, f, t);
  if (!s.rulings.is(RulingId::AdvisorOccupancy, 1)) return n;
  for (Seat seat = 0; seat < s.num_seats; ++seat) {  // advisors alone count too (2.02.12 vs 1.06.05.09)
    const Faction of = s.faction_at(seat);
    if (of == f || specials_fight(s, of)) continue;
    if (!occupies(s, of, t) && s.forces_in_territory(of, t) > 0) ++n;
  }
  return n;
}

bool path_blocked_by_storm(const GameState& s, LocationId loc) { return s.in_storm(loc); }

}  // namespace rules
}  // namespace mentat
