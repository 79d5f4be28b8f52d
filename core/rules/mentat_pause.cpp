// 1.09 Mentat Pause: bribe spice collected (1.09.01), stronghold victory
// (1.09.02, 4 strongholds for an alliance 1.10.02.02), multiple winners
// (1.09.03), the game-end default (1.09.05), and the move to the next turn.
// Automatic. Faction hooks (core/factions/faction_rules.h):
// takes_over_victory (2.02.03 the Bene Gesserit prediction) and
// default_victory (2.04.09 Fremen, 2.06.08 Spacing Guild special victories);
// mentat_pause_step: a faction's step when the game goes on (CHOAM's
// Inflation token), by faction id, before the next turn begins. Game events
// (core/rules/owners.h): PhaseBegins (the Spice Banker's gains), TurnEnds
// (the Advanced Stronghold Cards change hands).
#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

FactionMask fbit(Faction f) { return faction_bit(f); }

bool controls(const GameState& s, Faction f, TerritoryId t) {
  if (!occupies(s, f, t)) return false;
  if (s.rulings.is(RulingId::ContestedStrongholdCounts, 1)) return true;
  for (Seat seat = 0; seat < s.num_seats; ++seat) {  // the seated factions (any order)
    const Faction of = s.faction_at(seat);
    if (of == f || s.of(f).ally == static_cast<uint8_t>(of)) continue;
    if (occupies(s, of, t)) return false;
  }
  return true;
}

int strongholds_of(const GameState& s, Faction f) {
  int n = 0;
  for (auto t : data::strongholds()) n += controls(s, f, t) ? 1 : 0;
  return n;
}

// 1.10.02.01: allies' forces are one for victory, so a stronghold both allies
// hold counts once.
int team_strongholds(const GameState& s, Faction f) {
  const uint8_t ally = s.of(f).ally;
  int n = 0;
  for (auto t : data::strongholds())
    n += (controls(s, f, t) || (ally != kNoFaction && controls(s, static_cast<Faction>(ally), t))) ? 1 : 0;
  return n;
}

FactionMask team(const GameState& s, Faction f) { return team_of(s, f); }

constexpr uint8_t kFactionStep = 1;  // GameState::step: a faction's mentat_pause_step

// Asks the first faction from id `first` on whose step begins; else the next turn.
void faction_steps_from(Ctx& c, int first) {
  auto& s = c.s;
  for (int fi = first; fi < kNumFactions; ++fi) {
    const auto h = faction_rules(static_cast<Faction>(fi)).mentat_pause_step.begins;
    if (h && s.has(static_cast<Faction>(fi)) && h(s)) {
      s.step = kFactionStep;
      return;
    }
  }
  s.step = 0;
  s.waiting = 0;
  raise(s, TurnEnds{s.turn});  // the owners' end of turn (core/rules/owners.h: the Advanced Stronghold Cards change hands)
  ++s.turn;
  enter_phase(c, Phase::Storm);
}

const FactionRules::FactionStep& step_asked(const GameState& s) {
  if (s.step != kFactionStep || !s.waiting) return kNoFactionRules.mentat_pause_step;
  return faction_rules(s.faction_at(static_cast<Seat>(__builtin_ctz(s.waiting)))).mentat_pause_step;
}

void end_game(GameState& s, FactionMask winners, uint8_t kind) {
  s.winners = winners;
  s.victory_kind = kind;
  s.phase = Phase::GameOver;
  s.waiting = 0;
}

void enter(Ctx& c) {
  auto& s = c.s;
  raise(s, PhaseBegins{Phase::MentatPause});  // the owners' phase start (core/rules/owners.h)
  for (int i = 0; i < kNumFactions; ++i)
    if (s.f[i].bribes) transfer_spice(s, bribe_pool(static_cast<Faction>(i)), shield(static_cast<Faction>(i)), s.f[i].bribes);

  FactionMask winners = 0;
  for (Seat seat : order_from_first(s)) {
    const Faction f = s.faction_at(seat);
    const bool allied = s.of(f).ally != kNoFaction;
    const int n = team_strongholds(s, f);
    if (n >= (allied ? 4 : 3)) {
      winners = team(s, f);  // 1.09.03: only the first in storm order
      break;
    }
  }
  if (winners) {
    for (int fi = 0; fi < kNumFactions; ++fi) {  // 2.02.03
      const auto h = faction_rules(static_cast<Faction>(fi)).takes_over_victory;
      VictoryClaim claim;
      if (h && s.has(static_cast<Faction>(fi)) && h(s, winners, &claim)) {
        end_game(s, claim.winners, claim.kind);
        return;
      }
    }
    end_game(s, winners, kStronghold);
    return;
  }
  if (s.turn >= s.max_turns) {
    bool claimed = false;  // 2.04.09, 2.06.08: the first claim by priority
    VictoryClaim first;
    for (int fi = 0; fi < kNumFactions; ++fi) {
      const auto h = faction_rules(static_cast<Faction>(fi)).default_victory;
      VictoryClaim claim;
      if (!h || !s.has(static_cast<Faction>(fi)) || !h(s, &claim)) continue;
      if (!claimed || claim.priority < first.priority) first = claim;
      claimed = true;
    }
    if (claimed) {
      end_game(s, first.winners, first.kind);
      return;
    }
    int best = -1;
    FactionMask mask = 0;
    for (Seat seat = 0; seat < s.num_seats; ++seat) {
      const Faction f = s.faction_at(seat);
      const int n = strongholds_of(s, f);
      if (n > best) {
        best = n;
        mask = fbit(f);
      } else if (n == best) {
        mask |= fbit(f);
      }
    }
    end_game(s, mask, kMostStrongholds);
    return;
  }
  faction_steps_from(c, 0);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (s.step != kFactionStep) return reject(RejectCode::WrongPhase, "the Mentat Pause is automatic");
  if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, step_asked(s).wait);
  return step_asked(s).validate(s, a);
}
void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  const Faction me = s.faction_at(seat);
  const auto& step = faction_rules(me).mentat_pause_step;
  if (const Ability used = step.uses ? step.uses(s, a) : Ability::None; used != Ability::None && karama_window(c, seat, used, a))
    return;  // 3.01.11.01: the answer waits in a KaramaCancel window (resumed here when nobody cancels it)
  if (!step.apply(s, a)) faction_steps_from(c, static_cast<int>(me) + 1);
}
void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (s.step == kFactionStep && has_bit(s.waiting, seat)) step_asked(s).decisions(s, out);
}
void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (s.step == kFactionStep && has_bit(s.waiting, seat)) step_asked(s).legal(s, out);
}

}  // namespace

const PhaseRules& mentat_pause_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
