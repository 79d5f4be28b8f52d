// The Bene Gesserit's abilities (2.02) that the phases reach through the hook
// table (core/factions/faction_rules.h). Still in their phase files: 2.02.03
// prediction and 2.02.08 placement at setup (setup.cpp), 2.02.05/11/15-17
// spiritual advisors, intrusion, take up arms (shipment_movement.cpp),
// the Voice's plan check (2.02.06 "as well as they are able", with the
// Prescience's: battle_abilities.cpp), 1.14.06 / 2.02.22 Karama
// (cards.cpp, bidding.cpp); docs/ARCHITECTURE.md.
#include "core/factions/faction_rules.h"
#include "core/rules/battle_abilities.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::BeneGesserit;

// ---- 2.02.06/07 the Voice: battle sub-step kVoice ----
// When the Bene Gesserit fight, or their ally does, they answer Voice{must,
// kind} or Pass; the opponent of that side is commanded
// (BeneGesseritState::Battle). "As well as they are able to" is checked with
// the plan in battle_abilities.cpp (check_commitments), which reads the
// Prescience answer too.

using ability::kCheapHero;
using ability::kNamed;
using ability::kVoice;

Action pass() {
  Action a;
  a.kind = ActionKind::Pass;
  return a;
}

bool valid_voice_kind(uint8_t kind) {
  if (kind <= kCheapHero) return true;
  if (kind < kNamed || kind - kNamed >= data::kNumTreacheryKinds) return false;
  // A special weapon or defense by name: the base deck's only one is the Lasgun.
  for (int id = 0; id < data::kNumTreacheryCards; ++id) {
    const auto& c = data::treachery_card(static_cast<uint8_t>(id));
    if (static_cast<int>(c.kind) == kind - kNamed) return c.category == data::TreacheryCategory::WeaponLasgun;
  }
  return false;
}


bool voice_opens(Ctx& c) {
  auto& s = c.s;
  if (battle_supported_side(s, kMe) < 0) return false;  // 2.02.06/07
  s.step = kVoice;
  s.waiting = bit(s.seat_of(kMe));
  return true;
}

std::optional<Rejection> voice_validate(const GameState& s, Seat seat, const Action& a) {
  if (a.kind != ActionKind::Voice && a.kind != ActionKind::Pass)
    return reject(RejectCode::WrongPhase, "the Bene Gesserit may use the Voice before the battle plans: the phase takes Voice (or Pass) now");
  if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "the Bene Gesserit decide whether to use the Voice (2.02.06)");
  if (a.kind == ActionKind::Voice)
    if (auto why = ability_blocked(s, kMe, Ability::BgVoice)) return reject(RejectCode::IllegalChoice, *why);
  if (a.kind == ActionKind::Voice && !valid_voice_kind(a.value))
    return reject(RejectCode::Malformed, "unknown Voice kind " + std::to_string(a.value) +
                                             " (0-5, or 64 + the kind of a special weapon or defense, 78: Lasgun)");
  return std::nullopt;
}

void voice_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  if (a.kind == ActionKind::Voice && karama_window(c, seat, Ability::BgVoice, a)) return;  // 3.01.11.01
  consume_prevention(s, kMe, Ability::BgVoice);  // 3.01.11.02: its use opportunity
  if (a.kind == ActionKind::Voice) {
    s.bene_gesserit.battle.voice = static_cast<uint8_t>(a.value + 1);
    s.bene_gesserit.battle.voice_must = a.flag ? 1 : 0;
  }
  battle_open_after(c, static_cast<int>(kMe));
}

void voice_decisions(const GameState& s, Seat, std::vector<Decision>& out) {
  const Seat target = battle_target_of(s, kMe);
  if (auto why = ability_blocked(s, kMe, Ability::BgVoice)) {
    out.push_back(Decision{ActionKind::Pass, "No Voice in this battle: " + *why, 0, 0, {}});
    return;
  }
  Decision d{ActionKind::Voice,
             "The Voice (2.02.06): command " + std::string(faction_name(s.faction_at(target))) +
                 " to play (must) or not to play a kind of card (Voice.kind: one of the choices)",
             0, 0, {}};
  for (uint8_t k = 0; k <= kCheapHero; ++k) d.options.push_back(k);
  for (int k = 0; k < data::kNumTreacheryKinds; ++k)
    if (valid_voice_kind(static_cast<uint8_t>(kNamed + k))) d.options.push_back(static_cast<uint16_t>(kNamed + k));
  out.push_back(std::move(d));
  out.push_back(Decision{ActionKind::Pass, "Do not use the Voice in this battle", 0, 0, {}});
}

void voice_legal(const GameState& s, Seat, std::vector<Action>& out) {
  Action a;
  for (bool must : {true, false}) {
    if (ability_cancelled(s, kMe, Ability::BgVoice)) break;
    for (int k = 0; k < kNamed + data::kNumTreacheryKinds; ++k) {
      if (!valid_voice_kind(static_cast<uint8_t>(k))) continue;
      a.kind = ActionKind::Voice;
      a.flag = must;
      a.value = static_cast<uint8_t>(k);
      out.push_back(a);
    }
  }
  out.push_back(pass());
}

// 2.02.12 (advanced): advisors (the special side) do not occupy, collect or battle.
bool specials_passive(const GameState& s) { return s.advanced != 0; }

// 2.02.09: the Bene Gesserit receive at least 2 spice whatever they hold,
// unless a Karama prevents it (3.01.11.02): then 1.03 applies.
int charity_amount(const GameState& s) { return ability_cancelled(s, kMe, Ability::BgCharity) ? -1 : 2; }
// 3.01.11.02: the prevention is used up by the next charity where it
// matters (they hold 1 spice or more; ruling karama_automatic_use).
Ability charity_prevention_due(const GameState& s) {
  return ability_cancelled(s, kMe, Ability::BgCharity) && (s.of(kMe).spice >= 1 || prevention_at_next_occasion(s))
             ? Ability::BgCharity
             : Ability::None;
}

// 2.02.03: the prediction of the winner and the turn, if right, makes the
// Bene Gesserit the sole winner.
bool takes_over_victory(const GameState& s, FactionMask winners, VictoryClaim* claim) {
  const auto& bg = s.of(kMe);
  if (bg.prediction_turn != s.turn || !((winners >> bg.prediction_faction) & 1u)) return false;
  *claim = VictoryClaim{0, faction_bit(kMe), kPrediction};
  return true;
}

// 1.14.06 / 2.02.22 (ruling bg_worthless_karama: always, never, advanced_only):
// the Bene Gesserit may use a worthless card as a Karama.
bool worthless_as_karama(const GameState& s) {
  if (s.rulings.is(RulingId::BgWorthlessKarama, 1)) return true;   // always
  if (s.rulings.is(RulingId::BgWorthlessKarama, 2)) return false;  // never
  return s.advanced != 0;                                          // advanced_only
}

// 3.01.11: this faction's abilities marked ✷ (a Karama cancels or prevents
// them): their rules and the action each changes (ActionKind::Pass: an
// automatic ability, prevented only). ability_info() reads them.
constexpr AbilityInfo kAbilities[] = {
    {Ability::BgSpiritualAdvisor, kMe, "2.02.05 / 2.02.11", "spiritual advisors", ActionKind::SendSpiritualAdvisor},
    {Ability::BgVoice, kMe, "2.02.06 / 2.02.07", "the Voice", ActionKind::Voice},
    {Ability::BgIntrusion, kMe, "2.02.15", "intrusion", ActionKind::Flip},
    {Ability::BgWartime, kMe, "2.02.17", "wartime", ActionKind::Flip},
    {Ability::BgCharity, kMe, "2.02.09", "charity", ActionKind::Pass},
    {Ability::BgTakeUpArms, kMe, "2.02.16", "take up arms", ActionKind::Move},
};

constexpr FactionRules make() {
  FactionRules r;
  r.abilities = kAbilities;
  r.specials_passive = specials_passive;
  r.specials_tank_as_regular = true;  // advisors are ordinary forces in the tanks
  r.charity_amount = charity_amount;
  r.charity_prevention_due = charity_prevention_due;
  r.takes_over_victory = takes_over_victory;
  r.predicts = true;
  r.worthless_as_karama = worthless_as_karama;
  r.battle_step = {kVoice, kVoice, voice_opens, voice_validate, voice_apply, voice_decisions, voice_legal};
  return r;
}

}  // namespace

constinit const FactionRules kBeneGesseritRules = make();

}  // namespace mentat::rules
