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
//    DefensePoison), Voice's "poison defense" included. Its second use —
//    added to a plan without a defense after the reveal — is not implemented
//    yet (partial, docs/cards/richese-cards.md).
// Stone Burner, Residual Poison, Juice of Sapho: not implemented (rejected
// with a reason by battle.cpp and cards.cpp).
#include "core/cards/card_rules.h"

namespace mentat::rules {

using data::TreacheryCategory;
using data::TreacheryKind;

bool battle_card_implemented(uint8_t card) {
  if (card >= data::kNumAllTreacheryCards) return false;
  const auto k = data::treachery_card(card).kind;
  return k == TreacheryKind::MirrorWeapon || k == TreacheryKind::PortableSnooper;
}

uint8_t acting_weapon(const BattlePlanState& mine, const BattlePlanState& theirs) {
  if (mine.weapon == kNone8 || data::treachery_card(mine.weapon).kind != TreacheryKind::MirrorWeapon) return mine.weapon;
  if (theirs.weapon == kNone8) return kNone8;
  return data::is_weapon(data::treachery_card(theirs.weapon).category) ? theirs.weapon : kNone8;
}

}  // namespace mentat::rules
