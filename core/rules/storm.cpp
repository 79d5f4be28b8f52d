// 1.01 Storm phase: 0.16 first storm (dial 0..20), 1.01.02 storm movement
// (dial 1..3 by the two players who last used the battle wheels), 1.01.03
// destruction. The storm's effect on movement and battles (1.01.04) is
// checked where those happen (shipment_movement.cpp, battle.cpp).
// Faction hooks (core/factions/faction_rules.h): deals_storm_card and
// storm_phase_ends (2.04.13-14 the Fremen storm deck), storm_catches and
// storm_moved (2.04.16 Fremen half losses, and their Karama prevention).
#include <algorithm>

#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

// 2.04.13: the storm card a faction in the game deals from its deck (from
// turn 2): the sectors the storm moves; -1: the dials move it (1.01.02).
int storm_deck_card(const GameState& s) {
  if (s.turn <= 1) return -1;
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto h = faction_rules(static_cast<Faction>(fi)).deals_storm_card;
    if (!h || !s.has(static_cast<Faction>(fi))) continue;
    if (const int card = h(s); card >= 0) return card;
  }
  return -1;
}

int dial_max(const GameState& s) { return s.turn == 1 ? 20 : 3; }
int dial_min(const GameState& s) { return s.turn == 1 ? 0 : 1; }

// Applies storm damage to one sector. `spice_too` matters for spice only.
// prevented_used[f] |= the storm_catches hook's answer (3.01.11.02).
void storm_sweep_sector(GameState& s, int sector, bool spice_too, bool* prevented_used) {
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto loc = static_cast<LocationId>(l);
    const auto& L = data::location(loc);
    if (L.sector != sector) continue;
    const auto& T = data::territory(L.territory);
    bool exposed = T.kind == data::TerritoryKind::Sand ||
                   (T.kind == data::TerritoryKind::ProtectedSand && s.shield_wall_destroyed);
    // Family Atomics also strips Arrakeen and Carthag of their protection.
    if (T.protection_lost_after_family_atomics && s.shield_wall_destroyed) exposed = true;
    if (!exposed) continue;
    if (spice_too && s.spice_on_board[loc] > 0) transfer_spice(s, board(loc), bank(), s.spice_on_board[loc]);
    for (int fi = 0; fi < kNumFactions; ++fi) {
      const auto fa = static_cast<Faction>(fi);
      if (!s.has(fa)) continue;
      int reg = s.forces_at(fa, loc, 0), spec = s.forces_at(fa, loc, 1);
      if (reg + spec == 0) continue;
      if (const auto h = faction_rules(fa).storm_catches) {
        if (h(s, loc, reg, spec)) prevented_used[fi] = true;
      } else {
        forces_to_tanks(s, fa, loc, reg, spec);
      }
    }
  }
}

void move_storm(Ctx& c, int sectors) {
  auto& s = c.s;
  c.record(DrawKind::StormMove, static_cast<uint16_t>(sectors));
  int sector = s.storm_sector;
  bool prevented_used[kNumFactions] = {};  // 3.01.11.02: this movement is a prevented ability's next use
  if (sectors > 0) storm_sweep_sector(s, sector, false, prevented_used);  // where it starts (forces only)
  for (int i = 0; i < sectors; ++i) {
    sector = (sector + 1) % data::kNumSectors;
    storm_sweep_sector(s, sector, true, prevented_used);
  }
  s.storm_sector = static_cast<int8_t>(sector);
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto h = faction_rules(static_cast<Faction>(fi)).storm_moved;
    if (h && s.has(static_cast<Faction>(fi))) h(s, prevented_used[fi]);
  }
}

void choose_dialers(GameState& s) {
  if (s.turn == 1) {
    // 0.16: the markers nearest on either side of the Storm Start sector.
    s.storm_dialers[0] = 0;
    s.storm_dialers[1] = static_cast<uint8_t>(s.num_seats - 1);
    return;
  }
  if (s.last_wheels[0] != kNone8 && s.last_wheels[1] != kNone8) {
    s.storm_dialers[0] = s.last_wheels[0];
    s.storm_dialers[1] = s.last_wheels[1];
    return;
  }
  if (s.rulings.is(RulingId::StormDialersWithoutBattle, 1) && s.storm_dialers[0] != kNone8) return;
  // Nearest on either side of the storm: the first and the last in storm order.
  auto order = storm_order_only(s);
  s.storm_dialers[0] = static_cast<uint8_t>(order.front());
  s.storm_dialers[1] = static_cast<uint8_t>(order.back());
}

void finish(Ctx& c) {
  auto& s = c.s;
  for (int fi = 0; fi < kNumFactions; ++fi) {  // 2.04.13: the next storm card
    const auto h = faction_rules(static_cast<Faction>(fi)).storm_phase_ends;
    if (h && s.has(static_cast<Faction>(fi))) h(c);
  }
  enter_phase(c, Phase::SpiceBlow);
}

void enter(Ctx& c) {
  auto& s = c.s;
  for (auto& fs : s.f) {
    fs.storm_dial = 0;
    fs.shipped = fs.moved = fs.revived = 0;
  }
  raise(s, PhaseBegins{Phase::Storm});  // the owners' phase start (core/rules/owners.h)
  if (const int card = storm_deck_card(s); card >= 0) {
    move_storm(c, card);
    finish(c);
    return;
  }
  choose_dialers(s);
  s.waiting = static_cast<uint8_t>(bit(static_cast<Seat>(s.storm_dialers[0])) | bit(static_cast<Seat>(s.storm_dialers[1])));
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (a.kind() != ActionKind::DialStorm) return reject(RejectCode::WrongPhase, "the storm phase only takes storm dials (DialStorm)");
  if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "this seat is not dialing the storm");
  const uint8_t value = a.as<action::DialStorm>().value;
  if (value < dial_min(s) || value > dial_max(s))
    return reject(RejectCode::IllegalChoice, "the storm dial must be " + std::to_string(dial_min(s)) + ".." + std::to_string(dial_max(s)));
  return std::nullopt;
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  s.of(s.faction_at(seat)).storm_dial = a.as<action::DialStorm>().value;
  s.waiting &= static_cast<uint8_t>(~bit(seat));
  if (s.waiting) return;
  int total = 0;
  for (auto d : s.storm_dialers) total += s.of(s.faction_at(static_cast<Seat>(d))).storm_dial;
  if (s.storm_override != kNone8) total = s.storm_override;  // 3.01.23 Weather Control (core/rules/cards.cpp)
  s.storm_override = kNone8;
  move_storm(c, total);
  finish(c);
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  out.push_back(Decision{ActionKind::DialStorm, "Dial the storm secretly", dial_min(s), dial_max(s), {}});
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  for (int v = dial_min(s); v <= dial_max(s); ++v) {
    action::DialStorm a;
    a.value = static_cast<uint8_t>(v);
    out.push_back(a);
  }
}

}  // namespace

const PhaseRules& storm_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
