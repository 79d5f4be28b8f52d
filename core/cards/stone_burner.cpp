// Stone Burner (CHOAM & Richese, a Richese card; docs/cards/richese-cards.md).
//
// A weapon of the battle plan (core/rules/battle.cpp reads it through
// stone_burner_side). After the reveal, when no traitor was called and no
// Lasgun met a Shield, its owner chooses in a StoneBurner window, Respond
// accept = true: both leaders are killed (no defense stops it; the winner is
// paid for them, 1.07.06.03), accept = false: both live. Either way both
// leaders count 0 and no other weapon or defense acts: the side with more
// undialled forces in the battle wins (the forces its dial costs, regular
// first, taken from those present; ties: the aggressor); the loser loses
// everything there, the winner its dialled forces. Discarded after use, by
// the winner too. A Mirror Weapon does not copy it (it is no projectile,
// poison or lasgun weapon).
#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/battle_abilities.h"

namespace mentat::rules {
namespace {

using data::TreacheryKind;

bool is_stone_burner(uint8_t card) { return card != kNone8 && data::treachery_card(card).kind == TreacheryKind::StoneBurner; }

std::optional<Rejection> check(const GameState&, Seat, const action::PlayCard&) {
  return reject(RejectCode::IllegalChoice, "Stone Burner is played as the weapon of a battle plan");
}
void apply(Ctx&, Seat, const action::PlayCard&) {}
void candidates(const GameState&, Seat, const action::PlayCard&, std::vector<Action>&) {}
std::string prompt(const GameState&, Seat) { return "Stone Burner: the weapon of a battle plan"; }

std::string what(const GameState& s, const Window& w) {
  return std::string(faction_name(s.faction_at(w.owner))) +
         "'s Stone Burner: kill both leaders, or neither; both count 0, and the forces not dialed decide";
}
std::optional<Rejection> validate(const GameState&, Seat, const action::Respond& a, const Window&) {
  if (a.card != kNone8) return reject(RejectCode::Malformed, "the Stone Burner's choice names no card (Respond accept only)");
  return std::nullopt;
}
bool apply_answer(Ctx& c, Seat, const action::Respond& a, Window&) {
  c.s.battle.stone_burner = a.accept ? 2 : 1;
  return true;
}
void decisions(const GameState& s, Seat, const Window& w, std::vector<Decision>& out) {
  out.push_back(Decision{ActionKind::Respond, what(s, w), 0, 1, {}});
}
void legal(const GameState&, Seat, const Window&, std::vector<Action>& out) {
  out.push_back(action::Respond{.accept = false});
  out.push_back(action::Respond{.accept = true});
}
void closed(Ctx& c, const Window&) { battle_resolve(c); }

}  // namespace

int stone_burner_side(const GameState& s) {
  for (int i = 0; i < 2; ++i)
    if (is_stone_burner(s.battle.plan[i].weapon) && s.battle.wheels.contains(s.battle.plan[i].weapon)) return i;
  return -1;
}

void ask_stone_burner(Ctx& c, Seat owner) {
  Window w;
  w.kind = WindowKind::StoneBurner;
  w.owner = owner;
  w.asked = bit(owner);
  open_window(c.s, w);
}

const CardRules kStoneBurnerRules{TreacheryKind::StoneBurner, check, apply, candidates, prompt,
                                  {WindowKind::StoneBurner, what, validate, apply_answer, decisions, legal, closed}};

}  // namespace mentat::rules
