// The Richese battle cards on the wheel (CHOAM & Richese; docs/cards/richese-cards.md).
//
//  * Mirror Weapon (weapon slot): becomes a copy of the opponent's weapon
//    when the opponent's plan has one that is a weapon (projectile, poison,
//    lasgun); it then acts as that card for every rule of the resolution
//    (the defense that stops it, the Lasgun's explosion with a Shield, Ellaca
//    Drug's ruling). Against no weapon, or against a worthless card, it does
//    nothing. Discarded after the battle like any played card (the winner may
//    not keep it: its use is spent; core/rules/battle.cpp).
//  * Portable Snooper (defense slot): a poison defense (data category
//    DefensePoison), Voice's "poison defense" included. Its second use:
//    PlayCard{card = Portable Snooper} after the plans are revealed, in the
//    traitor step (battle step kTraitors), by a battling seat whose plan has
//    a leader or Cheap Hero and no defense, unless the Voice commanded it
//    not to play a poison defense: the card goes from the hand to the
//    battle wheels as the plan's defense. So that nobody learns who holds
//    it, the traitor step also waits for every battling seat that could use
//    it by public information (snooper_askers: its plan has a hero and no
//    defense, it holds a card, the Portable Snooper is in no public place);
//    that seat answers the step with CallTraitor{call = false} or Pass.
// The other Richese battle cards have their own files: the Stone Burner
// (stone_burner.cpp), Residual Poison (residual_poison.cpp), the Juice of
// Sapho (juice_of_sapho.cpp).
#include "core/cards/card_rules.h"
#include "core/rules/battle_abilities.h"

namespace mentat::rules {

using data::TreacheryCategory;
using data::TreacheryKind;

bool battle_card_implemented(uint8_t card) {
  if (card >= data::kNumAllTreacheryCards) return false;
  const auto k = data::treachery_card(card).kind;
  return k == TreacheryKind::MirrorWeapon || k == TreacheryKind::PortableSnooper || k == TreacheryKind::StoneBurner;
}

uint8_t acting_weapon(const BattlePlanState& mine, const BattlePlanState& theirs) {
  if (mine.weapon == kNone8 || data::treachery_card(mine.weapon).kind != TreacheryKind::MirrorWeapon) return mine.weapon;
  if (theirs.weapon == kNone8) return kNone8;
  return data::is_weapon(data::treachery_card(theirs.weapon).category) ? theirs.weapon : kNone8;
}

namespace {

constexpr uint8_t kTraitorStep = 2;  // core/rules/battle.cpp kTraitors

int side_of_seat(const GameState& s, Seat seat) {
  return seat == s.battle.aggressor ? 0 : seat == s.battle.defender ? 1 : -1;
}

// Whether `seat`'s revealed plan may still take a defense (a hero, no
// defense, no Voice command against a poison defense).
std::optional<std::string> plan_open(const GameState& s, Seat seat) {
  const int side = side_of_seat(s, seat);
  if (side < 0) return std::string("you are not in the battle being fought");
  const auto& p = s.battle.plan[side];
  if (p.leader == kNone8 && p.cheap_hero == kNone8)
    return std::string("without a leader or a Cheap Hero no treachery card is played (1.07.04.06)");
  if (p.defense != kNone8) return std::string("your plan has a defense already");
  const auto v = battle_plan_command(s, seat);
  if (v.on && !v.must && v.kind == ability::kPoisonDefense) return std::string("the Voice commanded you not to play a poison defense (2.02.06)");
  return std::nullopt;
}

std::optional<Rejection> snooper_check(const GameState& s, Seat seat, const action::PlayCard&) {
  if (s.phase != Phase::Battle || s.step != kTraitorStep || !battle_plans_revealed(s))
    return reject(RejectCode::WrongPhase,
                  "Portable Snooper is played in a battle plan, or added after the plans are revealed (the traitor step) to a plan without a defense");
  if (auto why = plan_open(s, seat)) return reject(RejectCode::IllegalChoice, *why);
  return std::nullopt;
}

void snooper_apply(Ctx& c, Seat seat, const action::PlayCard& a) {
  auto& s = c.s;
  auto& b = s.battle;
  if (s.of(s.faction_at(seat)).hand.remove(a.card)) {
    b.wheels.push(a.card);
    b.plan[side_of_seat(s, seat)].defense = a.card;
  }
}

void snooper_candidates(const GameState&, Seat, const action::PlayCard& base, std::vector<Action>& out) { out.push_back(base); }

std::string snooper_prompt(const GameState&, Seat) {
  return "Play Portable Snooper: add it to your revealed plan as its poison defense (your plan has none)";
}

}  // namespace

uint8_t snooper_askers(const GameState& s) {
  uint8_t card = kNone8;
  for (int id = data::kNumTreacheryCards; id < data::kNumAllTreacheryCards; ++id)
    if (data::treachery_card(static_cast<uint8_t>(id)).kind == TreacheryKind::PortableSnooper) card = static_cast<uint8_t>(id);
  const uint8_t sets = data::card_sets_in(s.modules, data::CardPlace::RicheseCache) | data::card_sets_in(s.modules, data::CardPlace::TreacheryDeck);
  if (card == kNone8 || !(sets & (1u << static_cast<int>(data::CardSet::Richese)))) return 0;
  // Public facts only: a Snooper in the shuffled rest below a Nullentropy Box
  // is not known to be there.
  for (int i = s.treachery_discard_hidden; i < s.treachery_discard.n; ++i)
    if (s.treachery_discard.ids[i] == card) return 0;
  if (s.battle.wheels.contains(card) || s.richese.removed.contains(card)) return 0;
  uint8_t w = 0;
  for (Seat seat : {s.battle.aggressor, s.battle.defender}) {
    if (seat < 0 || s.of(s.faction_at(seat)).hand.n == 0 || plan_open(s, seat)) continue;
    w |= static_cast<uint8_t>(1u << seat);
  }
  return w;
}

const CardRules kPortableSnooperRules{TreacheryKind::PortableSnooper, snooper_check, snooper_apply, snooper_candidates, snooper_prompt, {}};

}  // namespace mentat::rules
