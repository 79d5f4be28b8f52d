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
// Upon conclusion (step kRides, the factions' step): the hook after_nexus of
// each faction in the game, by id; 2.04.08 the Fremen worm rides
// (core/factions/fremen.cpp).
#include <algorithm>
#include <utility>

#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

enum NexusStep : uint8_t {
  kAlliances = 0,
  kRides = 1,  // a faction's step upon conclusion (hook after_nexus)
};

FactionMask fbit(Faction f) { return faction_bit(f); }
FactionMask fbit(uint8_t f) { return faction_bit(f); }

bool valid_faction(const GameState& s, uint8_t f) { return f < kNumFactions && s.has(static_cast<Faction>(f)); }

bool allied(const GameState& s, Faction f) { return s.of(f).ally != kNoFaction; }

constexpr uint8_t kNeverReopen = 1;  // ruling NexusReopen (core/rulings.cpp)

bool reopens(const GameState& s) { return !s.rulings.is(RulingId::NexusReopen, kNeverReopen); }

// Under nexus_reopen=never, a faction whose seat has passed can no longer answer.
bool passed_for_good(const GameState& s, uint8_t f) {
  return !reopens(s) && valid_faction(s, f) && !has_bit(s.waiting, s.f[f].seat);
}

// ---- the factions' steps upon conclusion (hook after_nexus: 2.04.08) ----------

// Asks the first faction from id `first` on that has a step now; else the
// Nexus is over.
void faction_steps_from(Ctx& c, int first) {
  auto& s = c.s;
  for (int fi = first; fi < kNumFactions; ++fi) {
    const auto h = faction_rules(static_cast<Faction>(fi)).after_nexus.begins;
    if (h && s.has(static_cast<Faction>(fi)) && h(s)) {
      s.step = kRides;
      return;
    }
  }
  s.waiting = 0;
  enter_phase(c, Phase::Charity);
}

// The faction asked at the faction step (the one seat waited for).
const FactionRules::FactionStep& step_asked(const GameState& s) {
  if (!s.waiting) return kNoFactionRules.after_nexus;
  return faction_rules(s.faction_at(static_cast<Seat>(__builtin_ctz(s.waiting)))).after_nexus;
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
  s.waiting = 0;
  faction_steps_from(c, 0);
}

void enter(Ctx& c) {
  auto& s = c.s;
  s.nexus_pending = 0;
  s.nexus = NexusState{};
  for (auto& fs : s.f) fs.proposal = kNoFaction;
  s.step = kAlliances;
  s.waiting = 0;
  raise(s, PhaseBegins{Phase::Nexus});  // the owners' phase start (core/rules/owners.h)
  for (Seat seat = 0; seat < s.num_seats; ++seat) s.waiting |= bit(seat);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (!has_bit(s.waiting, seat))
    return reject(RejectCode::NotYourDecision, s.step == kRides ? step_asked(s).wait
                                                                 : "this seat has already passed in this Nexus");
  if (s.step == kRides) return step_asked(s).validate(s, a);
  const Faction me = s.faction_at(seat);
  switch (a.kind()) {
    case ActionKind::Pass: return std::nullopt;
    case ActionKind::ProposeAlliance: {
      const uint8_t with = a.as<action::ProposeAlliance>().with;
      if (auto why = alliance_obstacle(s, me, with); !why.empty())
        return reject(valid_faction(s, with) ? RejectCode::IllegalChoice : RejectCode::Malformed, why);
      if (s.nexus.proposed[static_cast<int>(me)] & fbit(with))
        return reject(RejectCode::IllegalChoice, "you have already proposed an alliance to " +
                                                     std::string(faction_name(static_cast<Faction>(with))) + " in this Nexus");
      if (passed_for_good(s, with))
        return reject(RejectCode::IllegalChoice, std::string(faction_name(static_cast<Faction>(with))) +
                                                     " has passed and is done with this Nexus (1.10.01.07, ruling nexus_reopen=never)");
      return std::nullopt;
    }
    case ActionKind::AcceptAlliance: {
      const uint8_t with = a.as<action::AcceptAlliance>().with;
      if (auto why = alliance_obstacle(s, me, with); !why.empty())
        return reject(valid_faction(s, with) ? RejectCode::IllegalChoice : RejectCode::Malformed, why);
      if (s.f[with].proposal != static_cast<uint8_t>(me))
        return reject(RejectCode::IllegalChoice, std::string(faction_name(static_cast<Faction>(with))) +
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
    const Faction me = s.faction_at(seat);
    if (!faction_rules(me).after_nexus.apply(s, a)) faction_steps_from(c, static_cast<int>(me) + 1);
    return;
  }
  const Faction me = s.faction_at(seat);
  auto& mine = s.of(me);
  switch (a.kind()) {
    case ActionKind::Pass:
      s.waiting &= static_cast<uint8_t>(~bit(seat));
      break;
    case ActionKind::ProposeAlliance: {
      const uint8_t with = a.as<action::ProposeAlliance>().with;
      mine.proposal = with;
      s.nexus.proposed[static_cast<int>(me)] |= fbit(with);
      if (reopens(s)) s.waiting |= bit(s.f[with].seat);  // the faction asked may answer
      break;
    }
    case ActionKind::AcceptAlliance: {
      const uint8_t with = a.as<action::AcceptAlliance>().with;
      auto& theirs = s.f[with];
      mine.ally = with;
      theirs.ally = static_cast<uint8_t>(me);
      mine.proposal = theirs.proposal = kNoFaction;
      mine.permit_ship = mine.permit_bids = theirs.permit_ship = theirs.permit_bids = 0;  // 1.10.02.05/06 consent is per alliance
      s.nexus.allied |= static_cast<FactionMask>(fbit(me) | fbit(with));
      raise(s, AllianceChanged{me, static_cast<Faction>(with), true});
      break;
    }
    case ActionKind::BreakAlliance: {
      const auto former = static_cast<Faction>(mine.ally);
      auto& theirs = s.of(former);
      theirs.ally = kNoFaction;
      mine.ally = kNoFaction;
      mine.permit_ship = mine.permit_bids = theirs.permit_ship = theirs.permit_bids = 0;
      raise(s, AllianceChanged{me, former, false});
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
    faction_rules(s.faction_at(seat)).after_nexus.decisions(s, out);
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
    faction_rules(s.faction_at(seat)).after_nexus.legal(s, out);
    return;
  }
  std::vector<Decision> ds;
  decisions(s, seat, ds);
  for (const auto& d : ds) {
    if (d.kind == ActionKind::ProposeAlliance || d.kind == ActionKind::AcceptAlliance) {
      for (auto f : d.options) {
        const auto with = static_cast<uint8_t>(f);
        if (d.kind == ActionKind::ProposeAlliance)
          out.push_back(action::ProposeAlliance{.with = with});
        else
          out.push_back(action::AcceptAlliance{.with = with});
      }
    } else {
      out.push_back(Action::of_kind(d.kind));
    }
  }
}

}  // namespace

namespace {
// 1.00.05: the factions' steps upon the conclusion of the Nexus (2.04.08 the ride).
const char* ability_in_use(const GameState& s) {
  return s.step == kRides ? "a faction's ability upon the conclusion of the Nexus (2.04.08)" : nullptr;
}
}  // namespace

const PhaseRules& nexus_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal, ability_in_use};
  return r;
}

}  // namespace mentat::rules
