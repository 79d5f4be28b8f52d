// 1.02.06 / 1.10.01 Nexus: alliances formed and broken, then 2.04.08 Beast
// of Burden (the Fremen ride the sandworm upon conclusion of the Nexus).
//
// Alliances (step kAlliances): every seat is asked; a seat answers with
//   ProposeAlliance{with}  offer an alliance (replaces its previous offer;
//                          re-opens the decision of the faction asked),
//   AcceptAlliance{with}   accept `with`'s standing offer: both are allied,
//   BreakAlliance          leave its alliance: both sides are unallied (the
//                          former ally is asked again),
//   Pass                   done with this Nexus (its standing offer remains).
// Every seat's decision stays open until it passes; the Nexus concludes when
// all have passed. Termination: 1.10.01.02 a faction allies at most once per
// Nexus, and may propose to each other faction at most once per Nexus, so
// only finitely many actions re-open decisions.
// Ruling nexus_reopen (1.10.01.07): a proposal or a break re-opens the other
// seat's decision (on_proposal_and_break), or a seat that passed is done for
// this Nexus and proposals to it are refused (never).
// Limits: 1.10.01.04 two players per alliance, 1.10.01.05 one alliance per
// player; 1.10.01.03 allies are public (FactionState::ally is in the view).
//
// Worm rides (step kRides): for each worm of the spice blow (s.blow.rides,
// in order) where the Fremen have forces outside the storm, the Fremen may
// WormRide{to} (all those forces; Action.forces/special, when not both zero,
// choose how many regular/Fedaykin ride) to any territory without their
// ally's forces, not in storm, within the occupancy limit, or Pass.
#include <algorithm>
#include <utility>

#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

enum NexusStep : uint8_t {
  kAlliances = 0,
  kRides = 1,
};

uint8_t fbit(Faction f) { return static_cast<uint8_t>(1u << static_cast<int>(f)); }
uint8_t fbit(uint8_t f) { return static_cast<uint8_t>(1u << f); }

bool valid_faction(const GameState& s, uint8_t f) { return f < kNumFactions && s.has(static_cast<Faction>(f)); }

bool allied(const GameState& s, Faction f) { return s.of(f).ally != kNoFaction; }

constexpr uint8_t kNeverReopen = 1;  // ruling NexusReopen (core/rulings.cpp)

bool reopens(const GameState& s) { return !s.rulings.is(RulingId::NexusReopen, kNeverReopen); }

// Under nexus_reopen=never, a faction whose seat has passed can no longer answer.
bool passed_for_good(const GameState& s, uint8_t f) {
  return !reopens(s) && valid_faction(s, f) && !has_bit(s.waiting, s.f[f].seat);
}

// ---- 2.04.08 worm rides ------------------------------------------------

// Fremen forces (regular, special) in territory t outside the storm.
std::pair<int, int> ridable(const GameState& s, TerritoryId t) {
  const auto& ter = data::territory(t);
  int reg = 0, spec = 0;
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    if (s.in_storm(loc)) continue;
    reg += s.forces_at(Faction::Fremen, loc, 0);
    spec += s.forces_at(Faction::Fremen, loc, 1);
  }
  return {reg, spec};
}

TerritoryId ride_from(const GameState& s) { return s.blow.rides[s.blow.ride_index]; }

void advance_rides(Ctx& c) {
  auto& s = c.s;
  s.waiting = 0;
  if (s.has(Faction::Fremen)) {
    while (s.blow.ride_index < s.blow.n_rides) {
      auto [reg, spec] = ridable(s, ride_from(s));
      if (reg + spec > 0) {
        s.step = kRides;
        s.waiting = bit(s.seat_of(Faction::Fremen));
        return;
      }
      ++s.blow.ride_index;
    }
  }
  s.blow.n_rides = 0;
  s.blow.ride_index = 0;
  for (auto& r : s.blow.rides) r = 0;
  enter_phase(c, Phase::Charity);
}

std::optional<Rejection> validate_ride(const GameState& s, const Action& a) {
  if (a.kind == ActionKind::Pass) return std::nullopt;
  if (a.kind != ActionKind::WormRide)
    return reject(RejectCode::WrongPhase, "ride the sandworm (WormRide) or Pass (2.04.08)");
  if (a.to >= data::kNumLocations) return reject(RejectCode::Malformed, "unknown destination location");
  const TerritoryId from = ride_from(s);
  const TerritoryId dest = data::territory_of(a.to);
  if (dest == from) return reject(RejectCode::IllegalChoice, "the sandworm must carry the forces to another territory");
  if (s.in_storm(a.to)) return reject(RejectCode::Storm, std::string(data::location(a.to).name) + " is in the storm");
  const uint8_t ally = s.of(Faction::Fremen).ally;
  if (valid_faction(s, ally) && s.forces_in_territory(static_cast<Faction>(ally), dest) > 0)
    return reject(RejectCode::IllegalChoice, "the Fremen may not ride into a territory holding their ally's forces (2.04.08)");
  if (data::territory(dest).stronghold && occupancy_others(s, Faction::Fremen, dest) >= 2)
    return reject(RejectCode::Occupancy, std::string(data::territory(dest).name) + " is already occupied by two other factions");
  auto [reg, spec] = ridable(s, from);
  if (a.forces > reg || a.special > spec)
    return reject(RejectCode::IllegalChoice, "only " + std::to_string(reg) + " forces and " + std::to_string(spec) +
                                                 " Fedaykin outside the storm can ride from " + std::string(data::territory(from).name));
  return std::nullopt;
}

void apply_ride(Ctx& c, const Action& a) {
  auto& s = c.s;
  if (a.kind == ActionKind::WormRide) {
    const TerritoryId from = ride_from(s);
    auto [reg_all, spec_all] = ridable(s, from);
    int reg = a.forces, spec = a.special;
    if (reg == 0 && spec == 0) {
      reg = reg_all;
      spec = spec_all;
    }
    const auto& ter = data::territory(from);
    for (int i = 0; i < ter.num_locations && reg + spec > 0; ++i) {
      const auto loc = static_cast<LocationId>(ter.first_location + i);
      if (s.in_storm(loc)) continue;
      for (int k = 0; k < 2; ++k) {
        int& want = k == 0 ? reg : spec;
        const int n = std::min<int>(want, s.forces_at(Faction::Fremen, loc, k));
        s.forces_at(Faction::Fremen, loc, k) = static_cast<uint8_t>(s.forces_at(Faction::Fremen, loc, k) - n);
        s.forces_at(Faction::Fremen, a.to, k) = static_cast<uint8_t>(s.forces_at(Faction::Fremen, a.to, k) + n);
        want -= n;
      }
    }
  }
  ++s.blow.ride_index;
  advance_rides(c);
}

void ride_legal(const GameState& s, std::vector<Action>& out) {
  for (int l = 0; l < data::kNumLocations; ++l) {
    Action a;
    a.kind = ActionKind::WormRide;
    a.to = static_cast<LocationId>(l);
    if (!validate_ride(s, a)) out.push_back(a);
  }
  Action pass;
  pass.kind = ActionKind::Pass;
  out.push_back(pass);
}

// ---- 1.10.01 alliances ----------------------------------------------------

// Why `me` may not propose to / accept `with`; empty when allowed.
std::string alliance_obstacle(const GameState& s, Faction me, uint8_t with) {
  if (!valid_faction(s, with)) return "that faction is not in this game";
  const auto other = static_cast<Faction>(with);
  if (other == me) return "a faction cannot ally with itself";
  if (allied(s, me)) return "you are already in an alliance: break it first (1.10.01.05)";
  if (allied(s, other)) return std::string(faction_name(other)) + " is already in an alliance (1.10.01.04, 1.10.01.05)";
  if (s.nexus.allied & fbit(me)) return "you have already allied once in this Nexus (1.10.01.02)";
  if (s.nexus.allied & fbit(other)) return std::string(faction_name(other)) + " has already allied once in this Nexus (1.10.01.02)";
  return {};
}

void conclude_alliances(Ctx& c) {
  auto& s = c.s;
  for (auto& fs : s.f) fs.proposal = kNoFaction;
  s.nexus = NexusState{};
  s.blow.ride_index = 0;
  advance_rides(c);
}

void enter(Ctx& c) {
  auto& s = c.s;
  s.nexus_pending = 0;
  s.nexus = NexusState{};
  for (auto& fs : s.f) fs.proposal = kNoFaction;
  s.step = kAlliances;
  s.waiting = 0;
  for (Seat seat = 0; seat < s.num_seats; ++seat) s.waiting |= bit(seat);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (!has_bit(s.waiting, seat))
    return reject(RejectCode::NotYourDecision, s.step == kRides ? "only the Fremen may ride the sandworm now"
                                                                 : "this seat has already passed in this Nexus");
  if (s.step == kRides) return validate_ride(s, a);
  const Faction me = s.faction_at(seat);
  switch (a.kind) {
    case ActionKind::Pass: return std::nullopt;
    case ActionKind::ProposeAlliance: {
      if (auto why = alliance_obstacle(s, me, a.faction); !why.empty())
        return reject(valid_faction(s, a.faction) ? RejectCode::IllegalChoice : RejectCode::Malformed, why);
      if (s.nexus.proposed[static_cast<int>(me)] & fbit(a.faction))
        return reject(RejectCode::IllegalChoice, "you have already proposed an alliance to " +
                                                     std::string(faction_name(static_cast<Faction>(a.faction))) + " in this Nexus");
      if (passed_for_good(s, a.faction))
        return reject(RejectCode::IllegalChoice, std::string(faction_name(static_cast<Faction>(a.faction))) +
                                                     " has passed and is done with this Nexus (1.10.01.07, ruling nexus_reopen=never)");
      return std::nullopt;
    }
    case ActionKind::AcceptAlliance: {
      if (auto why = alliance_obstacle(s, me, a.faction); !why.empty())
        return reject(valid_faction(s, a.faction) ? RejectCode::IllegalChoice : RejectCode::Malformed, why);
      if (s.f[a.faction].proposal != static_cast<uint8_t>(me))
        return reject(RejectCode::IllegalChoice, std::string(faction_name(static_cast<Faction>(a.faction))) +
                                                     " has not proposed an alliance to you");
      return std::nullopt;
    }
    case ActionKind::BreakAlliance:
      if (!allied(s, me)) return reject(RejectCode::IllegalChoice, "you are not in an alliance");
      return std::nullopt;
    default:
      return reject(RejectCode::WrongPhase, "a Nexus takes ProposeAlliance, AcceptAlliance, BreakAlliance or Pass");
  }
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  if (s.step == kRides) {
    apply_ride(c, a);
    return;
  }
  const Faction me = s.faction_at(seat);
  auto& mine = s.of(me);
  switch (a.kind) {
    case ActionKind::Pass:
      s.waiting &= static_cast<uint8_t>(~bit(seat));
      break;
    case ActionKind::ProposeAlliance:
      mine.proposal = a.faction;
      s.nexus.proposed[static_cast<int>(me)] |= fbit(a.faction);
      if (reopens(s)) s.waiting |= bit(s.f[a.faction].seat);  // the faction asked may answer
      break;
    case ActionKind::AcceptAlliance: {
      auto& theirs = s.f[a.faction];
      mine.ally = a.faction;
      theirs.ally = static_cast<uint8_t>(me);
      mine.proposal = theirs.proposal = kNoFaction;
      mine.permit_ship = mine.permit_bids = theirs.permit_ship = theirs.permit_bids = 0;  // 1.10.02.05/06 consent is per alliance
      s.nexus.allied |= static_cast<uint8_t>(fbit(me) | fbit(a.faction));
      break;
    }
    case ActionKind::BreakAlliance: {
      auto& theirs = s.f[mine.ally];
      theirs.ally = kNoFaction;
      mine.ally = kNoFaction;
      mine.permit_ship = mine.permit_bids = theirs.permit_ship = theirs.permit_bids = 0;
      if (reopens(s)) s.waiting |= bit(theirs.seat);  // the former ally may look for another
      break;
    }
    default: break;
  }
  if (!s.waiting) conclude_alliances(c);
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (s.step == kRides) {
    const TerritoryId from = ride_from(s);
    auto [reg, spec] = ridable(s, from);
    Decision d{ActionKind::WormRide,
               "Ride the sandworm from " + std::string(data::territory(from).name) + " with up to " + std::to_string(reg) +
                   " forces and " + std::to_string(spec) + " Fedaykin (2.04.08)",
               0, reg + spec, {}};
    std::vector<Action> acts;
    ride_legal(s, acts);
    for (const auto& a : acts)
      if (a.kind == ActionKind::WormRide) d.options.push_back(a.to);
    out.push_back(d);
    out.push_back(Decision{ActionKind::Pass, "Do not ride the sandworm", 0, 0, {}});
    return;
  }
  const Faction me = s.faction_at(seat);
  Decision propose{ActionKind::ProposeAlliance, "Propose an alliance", 0, 0, {}};
  Decision accept{ActionKind::AcceptAlliance, "Accept a proposed alliance", 0, 0, {}};
  for (int f = 0; f < kNumFactions; ++f) {
    if (!alliance_obstacle(s, me, static_cast<uint8_t>(f)).empty()) continue;
    if (!(s.nexus.proposed[static_cast<int>(me)] & fbit(static_cast<uint8_t>(f))) && !passed_for_good(s, static_cast<uint8_t>(f)))
      propose.options.push_back(static_cast<uint16_t>(f));
    if (s.f[f].proposal == static_cast<uint8_t>(me)) accept.options.push_back(static_cast<uint16_t>(f));
  }
  if (!propose.options.empty()) out.push_back(propose);
  if (!accept.options.empty()) out.push_back(accept);
  if (allied(s, me))
    out.push_back(Decision{ActionKind::BreakAlliance,
                           "Break the alliance with " + std::string(faction_name(static_cast<Faction>(s.of(me).ally))), 0, 0, {}});
  out.push_back(Decision{ActionKind::Pass, "Done with this Nexus", 0, 0, {}});
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (s.step == kRides) {
    ride_legal(s, out);
    return;
  }
  std::vector<Decision> ds;
  decisions(s, seat, ds);
  for (const auto& d : ds) {
    if (d.kind == ActionKind::ProposeAlliance || d.kind == ActionKind::AcceptAlliance) {
      for (auto f : d.options) {
        Action a;
        a.kind = d.kind;
        a.faction = static_cast<uint8_t>(f);
        out.push_back(a);
      }
    } else {
      Action a;
      a.kind = d.kind;
      out.push_back(a);
    }
  }
}

}  // namespace

const PhaseRules& nexus_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
