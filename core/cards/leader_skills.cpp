// Leader Skills (CHOAM & Richese, module leader_skills; docs/cards/leader-skills.md;
// reference choam-richese.json leader_skills; the Planetologist's contract:
// ../shared/seeds/PLANETOLOGIST_RULES.md).
//
// Custody (core/state.h LeaderSkillsState; inspect/custody.cpp counts each
// card once): the deck (face down), a faction's two dealt cards (its secret),
// under a leader (face down, its owner's secret, until every faction has
// assigned; then face up), back to the deck when that leader dies
// (skill_card_returns, on the game event LeaderDied: every death).
//
// Setup (setup.cpp, in the traitor step, every faction at once): the deck is
// shuffled and each faction dealt two; it puts one under one of its leaders
// in its pool (never the CHOAM Auditor) with AssignSkill, the other goes back
// to the deck, which is shuffled when everyone has assigned.
//
// Bands. A skilled leader is "in front of the shield" while it is alive, in
// its owner's pool or on the battlefield, and not captured; its front band
// then works for its owner. In a battle whose plan uses it, it is behind the
// shield: its front band is off and its battle band works for whoever plays
// it (a captor too: the captor never has the front band), only if it
// survives the battle (not killed by a weapon, a traitor or the explosion).
// Named limit: the bluff of moving a skilled leader behind the shield without
// using it is not offered; the leader is behind the shield exactly when its
// plan uses it, which the others learn at the reveal.
//
// Implemented (each a function below, asked by the phase that needs it):
//  * Battle bonuses (skills_bonus, battle.cpp totals): Mentat +2; Spice Banker
//    + the 1-3 spice its plan pays (BattlePlan.skill_spice); Warmaster (a
//    worthless card in the plan), Prana Bindu Adept (projectile defense),
//    Swordmaster of Ginaz (projectile weapon), Killer Medic (poison defense),
//    Master of Assassins (poison weapon): +3 to the skilled leader, or +1 to
//    another leader of its owner while the skilled one is in front; the
//    Planetologist +2 with a green Special in its weapon slot. Bonuses count
//    only for a leader that survives. Ruling skill_stacking.
//  * Bureaucrat (skills_penalty): its surviving leader's opponent subtracts 1
//    per stronghold it occupies.
//  * Planetologist's battle role (planetologist_special, skills_must_discard):
//    a green Special (category Special; never a Cheap Hero, ruling
//    planetologist_cheap_hero) in place of a weapon: not a weapon for any rule,
//    its own effect not used, discarded after the battle in every outcome.
//  * Planetologist's front band (planetologist_band, answering the modifier
//    MovementRangeQuery; planetologist_may_gather, shipment_movement.cpp
//    check_move): a movement goes one territory further,
//    at most 3, or gathers the groups of two territories to one destination,
//    each with its ordinary range (ruling planetologist_exclusive); advisors
//    may come (one stance on arrival: a mixed gather where another faction is
//    takes up arms), and with the Ornithopter card the gather is its one
//    three-territory movement (mode 1: both groups up to three) or one of its
//    two movements (mode 2).
//  * Smuggler: front band, one extra force free from the reserves with a
//    shipment from off-planet into a territory where no forces are
//    (smuggler_extra_force; a real force, also beside a concealed No-Field);
//    battle band, its surviving leader collects spice equal to its strength
//    from the battle territory (skills_battle_resolved).
//  * Sandmaster's battle band: the winner's surviving leader adds 3 spice to
//    the battle territory when spice is there (skills_battle_resolved).
//  * Suk Graduate (suk_graduate_saves): the winner losing forces saves 1 to
//    its reserves (front band), or up to 3 with the leader in the battle (1
//    stays in the territory, up to 2 to the reserves).
//  * Spice Banker's front band (banker_saw_payment on the SpiceMoved event,
//    banker_pays_out, on PhaseBegins): once
//    a phase, when another faction pays 4 or more to the bank in one payment,
//    its owner gains 1, collected in the Mentat Pause.
//  * Diplomat: front band (diplomat_defense), a plan with a worthless card and
//    no defense counts the opponent's defense as its own, the worthless card
//    discarded afterwards; battle band (skills_diplomat_retreat_offered, battle
//    step kDiplomatRetreat): the loser whose Diplomat survived may retreat
//    undialled forces up to its strength to an adjacent empty non-stronghold
//    territory outside the storm (a Move, or Pass) before the losses.
//  * Sandmaster's front band (sandmaster_moved, from shipment_movement.cpp
//    before each movement): 1 spice from each territory with spice that the
//    best path within the movement's range enters (the destination included,
//    the origin not), once per territory.
//  * Rihani Decipherer's front band (skills_battle_resolved): its owner,
//    winning a battle, looks at 2 random traitor cards (two recorded random
//    positions, then the deck shuffled; GameState::skills.rihani_seen, secret).
// Not implemented yet (docs/cards/leader-skills.md names them partial): the
// front bands of the Bureaucrat and Mentat, the battle band of the Rihani
// Decipherer, the draw of a new skill at a
// revival.
#include <algorithm>
#include <vector>

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/battle_abilities.h"
#include "core/rules/owners.h"

namespace mentat::rules {
namespace {

using data::LeaderSkill;

// The first location of t with spice on it, or kNone8.
LocationId spice_location(const GameState& s, TerritoryId t) {
  const auto& ter = data::territory(t);
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    if (s.spice_on_board[loc] > 0) return loc;
  }
  return kNone8;
}
bool alive(const LeaderState& l) { return l.zone == LeaderZone::Pool || l.zone == LeaderZone::Battlefield; }

// The revealed plan of f's side in the battle being fought, or null (before
// the reveal nobody knows which leader a plan uses: its front band still works).
const BattlePlanState* plan_of(const GameState& s, Faction f) {
  if (s.phase != Phase::Battle || !battle_plans_revealed(s)) return nullptr;
  const auto& b = s.battle;
  for (int side = 0; side < 2; ++side) {
    const Seat seat = side == 0 ? b.aggressor : b.defender;
    if (seat >= 0 && s.faction_at(seat) == f && has_bit(b.plans_in, seat)) return &b.plan[side];
  }
  return nullptr;
}

bool poison_weapon(uint8_t card) {
  return is_category(card, data::TreacheryCategory::WeaponPoison) ||
         (card < data::kNumAllTreacheryCards && data::treachery_card(card).kind == data::TreacheryKind::PoisonTooth);
}

// The bonus condition of the five weapon/defense skills for plan p.
bool condition_met(LeaderSkill k, const BattlePlanState& p) {
  switch (k) {
    case LeaderSkill::Warmaster:
      return is_category(p.weapon, data::TreacheryCategory::Worthless) || is_category(p.defense, data::TreacheryCategory::Worthless);
    case LeaderSkill::PranaBinduAdept: return is_category(p.defense, data::TreacheryCategory::DefenseProjectile);
    case LeaderSkill::SwordmasterOfGinaz: return is_category(p.weapon, data::TreacheryCategory::WeaponProjectile);
    case LeaderSkill::KillerMedic: return is_category(p.defense, data::TreacheryCategory::DefensePoison);
    case LeaderSkill::MasterOfAssassins: return poison_weapon(p.weapon);
    default: return false;
  }
}

// The worthless card of `mine` the Diplomat counts as a defense (no other defense played), or kNone8.
uint8_t diplomat_card(const BattlePlanState& mine) {
  if (is_category(mine.defense, data::TreacheryCategory::Worthless)) return mine.defense;
  if (mine.defense == kNone8 && is_category(mine.weapon, data::TreacheryCategory::Worthless)) return mine.weapon;
  return kNone8;
}

// The traitor cards f holds whose leader no battle has revealed as a traitor (the Decipherer may give one back).
std::vector<LeaderId> unrevealed_traitors(const GameState& s, Faction f) {
  std::vector<LeaderId> out;
  const auto& tr = s.of(f).traitors;
  for (int i = 0; i < tr.n; ++i)
    if (tr.ids[i] < 64 && !((s.skills.traitors_revealed >> tr.ids[i]) & 1u)) out.push_back(tr.ids[i]);
  return out;
}

std::string card_name(uint8_t card) { return std::string(data::treachery_card(card).name); }

// A weapon card the Mentat may name: a weapon of a card set in the game (Chemistry excepted: a defense too).
bool askable_weapon(const GameState& s, uint8_t card) {
  if (card >= data::kNumAllTreacheryCards) return false;
  const auto& tc = data::treachery_card(card);
  if (!((data::card_sets_in_game(s.modules) >> static_cast<int>(tc.set)) & 1u)) return false;
  if (tc.kind == data::TreacheryKind::Chemistry) return false;
  return data::is_weapon(tc.category) || tc.category == data::TreacheryCategory::WeaponSpecial;
}

// One card id per askable weapon kind (the lowest), in id order.
std::vector<uint16_t> askable_weapons(const GameState& s) {
  std::vector<uint16_t> out;
  bool seen[data::kNumAllTreacheryKinds] = {};
  for (int c = 0; c < data::kNumAllTreacheryCards; ++c) {
    if (!askable_weapon(s, static_cast<uint8_t>(c))) continue;
    const int k = static_cast<int>(data::treachery_card(static_cast<uint8_t>(c)).kind);
    if (k < data::kNumAllTreacheryKinds && !seen[k]) {
      seen[k] = true;
      out.push_back(static_cast<uint16_t>(c));
    }
  }
  return out;
}

Seat mentat_opponent(const GameState& s) {
  const auto& b = s.battle;
  if (s.skills.mentat_faction >= kNumFactions) return kNoSeat;
  return s.faction_at(b.aggressor) == static_cast<Faction>(s.skills.mentat_faction) ? b.defender : b.aggressor;
}

// The cards `seat` may show in answer: those of the kind asked when it holds one, else its whole hand.
std::vector<uint16_t> mentat_answers(const GameState& s, Seat seat) {
  std::vector<uint16_t> same, all;
  const auto& hand = s.of(s.faction_at(seat)).hand;
  const auto kind = data::treachery_card(s.skills.mentat_asked).kind;
  for (int i = 0; i < hand.n; ++i) {
    all.push_back(hand.ids[i]);
    if (data::treachery_card(hand.ids[i]).kind == kind) same.push_back(hand.ids[i]);
  }
  return same.empty() ? all : same;
}

}  // namespace

int leader_skill(const GameState& s, LeaderId l) {
  if (!s.uses(data::Module::LeaderSkills) || l >= data::kNumLeaders || !s.skills.assigned[l]) return -1;
  return s.skills.assigned[l] - 1;
}

bool skill_in_front(const GameState& s, Faction f, LeaderSkill k) {
  if (!s.uses(data::Module::LeaderSkills)) return false;
  const BattlePlanState* p = plan_of(s, f);
  for (int l = 0; l < data::kNumLeaders; ++l) {
    if (s.skills.assigned[l] != static_cast<uint8_t>(k) + 1 || s.skills.face_down[l]) continue;
    const auto& ld = s.leaders[l];
    if (data::leader(static_cast<LeaderId>(l)).faction != f || ld.holder != static_cast<uint8_t>(f) || !alive(ld)) continue;
    if (p && p->leader == l) continue;                             // behind the shield in this battle
    if (s.skills.behind[static_cast<int>(f)] == l + 1) continue;  // moved there before the plan (SkillBehind)
    return true;
  }
  return false;
}

bool skilled_as(const GameState& s, LeaderId l, LeaderSkill k) { return leader_skill(s, l) == static_cast<int>(k); }

// ---- setup ----------------------------------------------------------------------

void skills_deal(Ctx& c) {
  auto& s = c.s;
  if (!s.uses(data::Module::LeaderSkills)) return;
  for (int i = 0; i < data::kNumLeaderSkills; ++i) s.skills.deck.push(static_cast<uint8_t>(i));
  shuffle_pile(c, s.skills.deck, DrawKind::ShuffleSkills);
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const Faction f = s.faction_at(seat);
    for (int k = 0; k < 2 && !s.skills.deck.empty(); ++k) {
      const uint8_t card = s.skills.deck.pop();
      c.record(DrawKind::DealSkill, card);
      s.skills.hand[static_cast<int>(f)].push(card);
    }
  }
}

bool skills_to_assign(const GameState& s, Faction f) {
  return s.uses(data::Module::LeaderSkills) && !s.skills.hand[static_cast<int>(f)].empty();
}

namespace {
bool may_hold_skill(const GameState& s, Faction f, LeaderId l) {
  return l < data::kNumLeaders && l != data::kAuditor && data::leader(l).faction == f && s.leader_in_game(l) &&
         s.leaders[l].holder == static_cast<uint8_t>(f) && s.leaders[l].zone == LeaderZone::Pool && !s.skills.assigned[l];
}
}  // namespace

std::optional<Rejection> skills_assign_validate(const GameState& s, Faction f, const action::AssignSkill& a) {
  if (!skills_to_assign(s, f)) return reject(RejectCode::NotYourDecision, "you have no leader skill card to assign");
  if (a.skill >= data::kNumLeaderSkills) return reject(RejectCode::Malformed, "unknown leader skill id " + std::to_string(a.skill));
  if (!s.skills.hand[static_cast<int>(f)].contains(a.skill))
    return reject(RejectCode::IllegalChoice, std::string(data::leader_skill_name(a.skill)) + " is not one of the skill cards dealt to you");
  if (a.leader >= data::kNumLeaders) return reject(RejectCode::Malformed, "unknown leader id " + std::to_string(a.leader));
  if (a.leader == data::kAuditor) return reject(RejectCode::IllegalChoice, "the Auditor cannot hold a leader skill");
  if (!may_hold_skill(s, f, a.leader))
    return reject(RejectCode::IllegalChoice, std::string(data::leader(a.leader).name) + " is not a leader in your pool");
  return std::nullopt;
}

void skills_assign_apply(GameState& s, Faction f, const action::AssignSkill& a) {
  auto& hand = s.skills.hand[static_cast<int>(f)];
  hand.remove(a.skill);
  s.skills.assigned[a.leader] = static_cast<uint8_t>(a.skill + 1);
  s.skills.face_down[a.leader] = 1;  // until every faction has assigned
  while (!hand.empty()) s.skills.deck.push(hand.pop());
}

void skills_assigned_all(Ctx& c) {
  auto& s = c.s;
  if (!s.uses(data::Module::LeaderSkills)) return;
  for (auto& d : s.skills.face_down) d = 0;
  shuffle_pile(c, s.skills.deck, DrawKind::ShuffleSkills);
}

void skills_decisions(const GameState& s, Faction f, std::vector<Decision>& out) {
  if (!skills_to_assign(s, f)) return;
  const auto& hand = s.skills.hand[static_cast<int>(f)];
  std::string names;
  for (int i = 0; i < hand.n; ++i) names += (i ? " or " : "") + std::string(data::leader_skill_name(hand.ids[i]));
  Decision d{ActionKind::AssignSkill, "Put one of your leader skill cards (" + names + ") under one of your leaders", 0, 0, {}};
  for (int l = 0; l < data::kNumLeaders; ++l)
    if (may_hold_skill(s, f, static_cast<LeaderId>(l))) d.options.push_back(static_cast<uint16_t>(l));
  out.push_back(d);
}

void skills_legal(const GameState& s, Faction f, std::vector<Action>& out) {
  if (!skills_to_assign(s, f)) return;
  const auto& hand = s.skills.hand[static_cast<int>(f)];
  for (int i = 0; i < hand.n; ++i)
    for (int l = 0; l < data::kNumLeaders; ++l)
      if (may_hold_skill(s, f, static_cast<LeaderId>(l)))
        out.push_back(action::AssignSkill{.skill = hand.ids[i], .leader = static_cast<LeaderId>(l)});
}

namespace {
// A leader died (game event LeaderDied: every death): its skill card back to the deck.
void skill_card_returns(GameState& s, const LeaderDied& e) {
  const LeaderId l = e.leader;
  if (l >= data::kNumLeaders || !s.skills.assigned[l]) return;
  s.skills.deck.push(static_cast<uint8_t>(s.skills.assigned[l] - 1));  // back to the deck (both programs)
  s.skills.assigned[l] = 0;
  s.skills.face_down[l] = 0;
}
}  // namespace

// ---- a leader revived by a faction without a skilled leader (treachery.online's reading) ----

bool skills_leader_revived(Ctx& c, Faction f, LeaderId l) {
  auto& s = c.s;
  auto& k = s.skills;
  if (!s.uses(data::Module::LeaderSkills) || l >= data::kNumLeaders || l == data::kAuditor || data::leader(l).faction != f) return false;
  for (int x = 0; x < data::kNumLeaders; ++x)  // a skilled leader of its own, in the tanks never (its card left), captured included
    if (k.assigned[x] && data::leader(static_cast<LeaderId>(x)).faction == f) return false;
  if (k.deck.empty() || !k.hand[static_cast<int>(f)].empty()) return false;
  k.revival_leader1[static_cast<int>(f)] = static_cast<uint8_t>(l + 1);  // it may draw (skills_revival_draw) or not
  return true;
}

bool skills_revival_drawn(const GameState& s, Faction f) { return !s.skills.hand[static_cast<int>(f)].empty(); }

bool skills_revival_draw(Ctx& c, Faction f, bool draw) {
  auto& k = c.s.skills;
  for (int n = 0; draw && n < 2 && !k.deck.empty(); ++n) {
    const uint8_t card = k.deck.pop();
    c.record(DrawKind::DealSkill, card);
    k.hand[static_cast<int>(f)].push(card);
  }
  if (k.hand[static_cast<int>(f)].empty()) k.revival_leader1[static_cast<int>(f)] = 0;  // declined: no skill for it
  return !k.hand[static_cast<int>(f)].empty();
}

LeaderId skills_revival_leader(const GameState& s, Faction f) {
  if (!s.uses(data::Module::LeaderSkills)) return kNone8;
  const uint8_t l1 = s.skills.revival_leader1[static_cast<int>(f)];
  return l1 ? static_cast<LeaderId>(l1 - 1) : kNone8;
}

void skills_revival_assigned(Ctx& c, Faction f, const action::AssignSkill& a) {
  auto& s = c.s;
  skills_assign_apply(s, f, a);
  s.skills.face_down[a.leader] = 0;  // the only faction assigning: face up at once
  s.skills.revival_leader1[static_cast<int>(f)] = 0;
  shuffle_pile(c, s.skills.deck, DrawKind::ShuffleSkills);
}

// ---- a leader revived by a card: the SkillRevival window ------------------------
// The same offer as in the Revival phase (skills_leader_revived), asked at once
// in a window over whatever the card interrupted: Respond accept draws the two
// cards (the window stays open, asking the same seat), Respond decline ends it
// with no skill; AssignSkill gives one of the two to the revived leader, face
// up, the other back to the deck, which is shuffled.

namespace {
Faction revival_faction(const GameState& s, const Window& w) { return s.faction_at(w.owner); }

std::string revival_what(const GameState& s, const Window& w) {
  const Faction f = revival_faction(s, w);
  const LeaderId l = skills_revival_leader(s, f);
  const std::string name = l < data::kNumLeaders ? std::string(data::leader(l).name) : std::string("the revived leader");
  if (skills_revival_drawn(s, f)) return std::string(faction_name(f)) + " give " + name + " one of the two leader skill cards drawn";
  return std::string(faction_name(f)) + " revived " + name +
         " with no skilled leader: they may draw two leader skill cards for it, or not (Leader Skills)";
}

std::optional<Rejection> revival_validate(const GameState& s, Seat, const action::Respond& a, const Window& w) {
  if (skills_revival_drawn(s, revival_faction(s, w))) return reject(RejectCode::WrongPhase, "the two skill cards are drawn: give one to the revived leader (AssignSkill)");
  if (a.card != kNone8) return reject(RejectCode::Malformed, "the draw's answer names no card (Respond.accept only)");
  return std::nullopt;
}

bool revival_apply(Ctx& c, Seat seat, const action::Respond& a, Window& w) {
  if (!skills_revival_draw(c, revival_faction(c.s, w), a.accept)) return true;  // declined (or nothing to draw): no skill
  c.s.waiting |= bit(seat);  // the same seat chooses next
  w.answered = 0;
  return false;
}

std::optional<Rejection> revival_validate_assign(const GameState& s, Seat, const Action& a, const Window& w) {
  const Faction f = revival_faction(s, w);
  const LeaderId l = skills_revival_leader(s, f);
  if (!skills_revival_drawn(s, f)) return reject(RejectCode::WrongPhase, "draw the two skill cards first (Respond accept=true), or decline");
  const auto& as = a.as<action::AssignSkill>();
  if (as.leader != l) return reject(RejectCode::IllegalChoice, "the skill goes to the leader revived, " + std::string(data::leader(l).name));
  return skills_assign_validate(s, f, as);
}

bool revival_apply_assign(Ctx& c, Seat, const Action& a, Window& w) {
  skills_revival_assigned(c, revival_faction(c.s, w), a.as<action::AssignSkill>());
  return true;
}

void revival_decisions(const GameState& s, Seat, const Window& w, std::vector<Decision>& out) {
  const Faction f = revival_faction(s, w);
  if (!skills_revival_drawn(s, f)) {
    out.push_back(Decision{ActionKind::Respond, revival_what(s, w), 0, 1, {}, Topic::SkillDraw});
    return;
  }
  Decision d{ActionKind::AssignSkill, revival_what(s, w) + ": put one of your two cards under " +
                                          std::string(data::leader(skills_revival_leader(s, f)).name),
             0, 0, {}};
  const auto& hand = s.skills.hand[static_cast<int>(f)];
  for (int i = 0; i < hand.n; ++i) d.options.push_back(hand.ids[i]);
  out.push_back(std::move(d));
}

void revival_legal(const GameState& s, Seat, const Window& w, std::vector<Action>& out) {
  const Faction f = revival_faction(s, w);
  if (!skills_revival_drawn(s, f)) {
    out.push_back(action::Respond{});
    out.push_back(action::Respond{.accept = true});
    return;
  }
  const auto& hand = s.skills.hand[static_cast<int>(f)];
  for (int i = 0; i < hand.n; ++i) out.push_back(action::AssignSkill{.skill = hand.ids[i], .leader = skills_revival_leader(s, f)});
}
}  // namespace

const CardRules::CardWindow kSkillRevivalWindow{WindowKind::SkillRevival, revival_what,  revival_validate,         revival_apply,
                                                revival_decisions,        revival_legal, nullptr,                  ActionKind::AssignSkill,
                                                revival_validate_assign,  revival_apply_assign};

void skills_card_revived(Ctx& c, Faction f, LeaderId l) {
  auto& s = c.s;
  if (!s.uses(data::Module::LeaderSkills) || skills_revival_leader(s, f) != kNone8) return;  // one offer at a time
  if (!skills_leader_revived(c, f, l)) return;
  Window w;
  w.kind = WindowKind::SkillRevival;
  w.owner = s.seat_of(f);
  w.asked = static_cast<uint8_t>(bit(w.owner));
  if (!open_window(s, w)) s.skills.revival_leader1[static_cast<int>(f)] = 0;  // the window stack is full: no offer
}

// ---- battle -----------------------------------------------------------------------

bool planetologist_special(const GameState& s, LeaderId leader, uint8_t card) {
  if (!skilled_as(s, leader, LeaderSkill::Planetologist) || card >= data::kNumAllTreacheryCards) return false;
  if (!is_category(card, data::TreacheryCategory::Special)) return false;
  const auto k = data::treachery_card(card).kind;
  const bool hero = k == data::TreacheryKind::CheapHero || k == data::TreacheryKind::CheapHeroine;
  return !hero || s.rulings.is(RulingId::PlanetologistCheapHero, 1);
}

std::optional<Rejection> skills_check_plan(const GameState& s, Faction me, const action::BattlePlan& a) {
  if (a.skill_spice == 0) return std::nullopt;
  if (!skilled_as(s, a.leader, LeaderSkill::SpiceBanker))
    return reject(RejectCode::IllegalChoice, "only a leader with the Spice Banker skill is boosted with spice (skill_spice)");
  if (a.skill_spice > 3) return reject(RejectCode::IllegalChoice, "the Spice Banker adds 1 to 3 spice to its leader");
  (void)me;
  return std::nullopt;
}

int skills_bonus(const GameState& s, Faction f, const BattlePlanState& p, bool killed) {
  if (!s.uses(data::Module::LeaderSkills) || p.leader >= data::kNumLeaders || killed) return 0;
  const bool first_only = s.rulings.is(RulingId::SkillStacking, 1);
  const int own = leader_skill(s, p.leader);
  int total = 0;
  // treachery.online's order (ruling skill_stacking = first_bonus stops at the first match).
  static constexpr LeaderSkill kOrder[] = {LeaderSkill::Mentat, LeaderSkill::SpiceBanker, LeaderSkill::Warmaster,
                                           LeaderSkill::PranaBinduAdept, LeaderSkill::SwordmasterOfGinaz, LeaderSkill::Planetologist,
                                           LeaderSkill::KillerMedic, LeaderSkill::MasterOfAssassins};
  for (const LeaderSkill k : kOrder) {
    int add = 0;
    const bool mine = own == static_cast<int>(k);
    switch (k) {
      case LeaderSkill::Mentat: add = mine ? 2 : 0; break;
      case LeaderSkill::SpiceBanker: add = mine ? p.skill_spice : 0; break;
      case LeaderSkill::Planetologist: add = mine && planetologist_special(s, p.leader, p.weapon) ? 2 : 0; break;
      default:
        if (condition_met(k, p)) add = mine ? 3 : skill_in_front(s, f, k) ? 1 : 0;
    }
    if (add <= 0) continue;
    total += add;
    if (first_only) break;
  }
  return total;
}

int skills_penalty(const GameState& s, const BattlePlanState& mine, bool killed, Faction opp) {
  if (killed || !skilled_as(s, mine.leader, LeaderSkill::Bureaucrat)) return 0;
  int n = 0;
  for (const TerritoryId t : data::strongholds()) n += occupies(s, opp, t) ? 1 : 0;
  return n;
}

std::optional<std::string> skills_must_discard(const GameState& s, const BattlePlanState& p, uint8_t card) {
  // A card in the weapon slot that is no weapon is there only as the Planetologist's Special (decided by the
  // slot, not by the skill: a Planetologist killed in the battle has given its card back already).
  if (card != kNone8 && card == p.weapon && s.uses(data::Module::LeaderSkills) && !battle_fits_weapon_slot(card))
    return std::string("a Special played through the Planetologist is discarded after the battle");
  if (card != kNone8 && card == diplomat_card(p) && s.phase == Phase::Battle && s.battle.winner) {  // the Diplomat's worthless card
    const int w = s.battle.winner - 1;
    const Faction f = s.faction_at(w == 0 ? s.battle.aggressor : s.battle.defender);
    uint8_t used = kNone8;
    if (&p == &s.battle.plan[w] && diplomat_defense(s, f, p, s.battle.plan[1 - w], &used))
      return std::string("the worthless card the Diplomat counted as a defense is discarded after the battle");
  }
  return std::nullopt;
}

void skills_battle_resolved(Ctx& c, int winner, const BattlePlanState p[2], const bool survived[2], const Faction fa[2], TerritoryId t) {
  auto& s = c.s;
  if (!s.uses(data::Module::LeaderSkills)) return;
  // Rihani Decipherer in front of the winner's shield (2 random traitor cards seen, the deck shuffled again),
  // or in the winner's plan, surviving (the same 2 drawn: it may swap one for an unrevealed traitor of its own).
  const bool rihani_band = winner >= 0 && survived[winner] && skilled_as(s, p[winner].leader, LeaderSkill::RihaniDecipherer);
  if (winner >= 0 && (rihani_band || skill_in_front(s, fa[winner], LeaderSkill::RihaniDecipherer)) && !s.traitor_deck.empty()) {
    const int n = s.traitor_deck.n;
    const int a = static_cast<int>(c.rand_below(static_cast<uint32_t>(n), DrawKind::Random));  // two random positions
    int b = n > 1 ? static_cast<int>(c.rand_below(static_cast<uint32_t>(n - 1), DrawKind::Random)) : -1;
    if (b >= a) ++b;
    s.skills.rihani_faction = static_cast<uint8_t>(fa[winner]);
    s.skills.rihani_seen[0] = s.traitor_deck.ids[a];
    s.skills.rihani_seen[1] = b >= 0 ? s.traitor_deck.ids[b] : kNone8;
    if (rihani_band && !unrevealed_traitors(s, fa[winner]).empty())
      s.skills.rihani_swap = 1;  // the swap decision after the battle (skills_after_battle); the shuffle then
    else
      shuffle_pile(c, s.traitor_deck, DrawKind::ShuffleTraitors);  // then the deck is reshuffled
  }
  for (int i = 0; i < 2; ++i) {  // Smuggler: its strength in spice from the territory
    if (!survived[i] || !skilled_as(s, p[i].leader, LeaderSkill::Smuggler)) continue;
    const LocationId loc = spice_location(s, t);
    if (loc == kNone8) continue;
    const int n = std::min<int>(s.spice_on_board[loc], data::leader(p[i].leader).strength);
    if (n > 0) transfer_spice(s, board(loc), shield(fa[i]), n);
  }
  if (winner >= 0 && survived[winner] && skilled_as(s, p[winner].leader, LeaderSkill::Sandmaster)) {
    const LocationId loc = spice_location(s, t);  // Sandmaster: 3 more where spice is
    if (loc != kNone8) transfer_spice(s, bank(), board(loc), std::min<int>(3, s.bank));
  }
}

SukSaves suk_graduate_saves(const GameState& s, Faction winner, const BattlePlanState& p, bool killed, int losses) {
  SukSaves out;  // `losses`: forces (not dial units)
  if (losses <= 0 || !s.uses(data::Module::LeaderSkills)) return out;
  if (!killed && skilled_as(s, p.leader, LeaderSkill::SukGraduate)) {
    out.stay = 1;
    out.to_reserves = std::min(2, losses - 1);
  } else if (skill_in_front(s, winner, LeaderSkill::SukGraduate)) {
    out.to_reserves = 1;
  }
  return out;
}

// ---- the Diplomat ------------------------------------------------------------------

bool diplomat_defense(const GameState& s, Faction f, const BattlePlanState& mine, const BattlePlanState& theirs, uint8_t* defense) {
  if (!skill_in_front(s, f, LeaderSkill::Diplomat) || diplomat_card(mine) == kNone8) return false;
  if (theirs.defense == kNone8) return false;
  const auto c = data::treachery_card(theirs.defense).category;
  if (!data::is_defense(c)) return false;
  *defense = theirs.defense;
  return true;
}

namespace {
// What the Diplomat's losing owner may retreat: at most the leader's strength
// of undialled fighters (regular forces, and elite ones where they fight), to
// an adjacent territory (next to a piece of the battle's area) that is not a
// stronghold, outside the storm, with no faction's forces. `to`: sorted.
struct RetreatRoom {
  int max = 0;
  bool elites = false;
  std::vector<LocationId> to;
};

bool in_battle_area(const GameState& s, LocationId loc) {
  const auto& ter = data::territory(s.battle.territory);
  if (loc >= data::kNumLocations || data::territory_of(loc) != s.battle.territory) return false;
  return ((s.battle.area >> (loc - ter.first_location)) & 1u) != 0;
}

RetreatRoom retreat_room(const GameState& s, Faction loser, const BattlePlanState& p) {
  RetreatRoom r;
  if (p.leader >= data::kNumLeaders) return r;
  const auto& ter = data::territory(s.battle.territory);
  r.elites = specials_fight(s, loser) && data::faction_setup(loser).special_forces > 0;
  int fighters = 0;
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    if (!in_battle_area(s, loc)) continue;
    for (int type = 0; type < (r.elites ? 2 : 1); ++type) fighters += s.forces_at(loser, loc, type);
  }
  r.max = std::min<int>(std::max(0, fighters - p.dial), data::leader(p.leader).strength);
  if (r.max <= 0) return r;
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    if (!in_battle_area(s, loc)) continue;
    data::other_territory_neighbours(loc).for_each([&](LocationId v) {
      const TerritoryId vt = data::territory_of(v);
      if (data::territory(vt).stronghold || s.in_storm(v)) return;
      for (Seat seat = 0; seat < s.num_seats; ++seat)
        if (s.forces_in_territory(s.faction_at(seat), vt) > 0) return;
      if (std::find(r.to.begin(), r.to.end(), v) == r.to.end()) r.to.push_back(v);
    });
  }
  std::sort(r.to.begin(), r.to.end());
  return r;
}

const BattlePlanState& loser_plan(const GameState& s) { return s.battle.plan[2 - s.battle.winner]; }
Faction loser_faction(const GameState& s) { return battle_faction_of_side(s, 2 - s.battle.winner); }

// The most a retreat to `to` can take: elite forces first (the more valuable), then regular ones.
action::Move full_retreat(const GameState& s, Faction loser, const RetreatRoom& r, LocationId to) {
  action::Move m;
  m.to = to;
  int left = r.max;
  const auto& ter = data::territory(s.battle.territory);
  for (int i = 0; i < ter.num_locations && left > 0; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    if (!in_battle_area(s, loc)) continue;
    const int e = r.elites ? std::min<int>(left, s.forces_at(loser, loc, 1)) : 0;
    const int f = std::min<int>(left - e, s.forces_at(loser, loc, 0));
    if (e + f == 0) continue;
    m.from.push_back(Placement{loc, static_cast<uint8_t>(f), static_cast<uint8_t>(e)});
    left -= e + f;
  }
  return m;
}

std::optional<Rejection> retreat_validate(const GameState& s, const action::Move& m) {
  if (m.ornithopter || m.flip) return reject(RejectCode::IllegalChoice, "the Diplomat's retreat is a plain Move (no ornithopter, no flip)");
  const Faction loser = loser_faction(s);
  const RetreatRoom r = retreat_room(s, loser, loser_plan(s));
  if (std::find(r.to.begin(), r.to.end(), m.to) == r.to.end())
    return reject(RejectCode::IllegalChoice,
                  "the Diplomat's forces retreat to a territory next to the battle, not a stronghold, outside the storm, where no faction has forces (Move.to)");
  int total = 0;
  for (int i = 0; i < m.from.size(); ++i) {
    const Placement& pl = m.from[i];
    if (!in_battle_area(s, pl.location)) return reject(RejectCode::IllegalChoice, "the retreating forces come from the battle's territory (Move.from)");
    if (pl.special > 0 && !r.elites) return reject(RejectCode::IllegalChoice, "only forces that fought retreat: no special forces here (Move.from special)");
    int regs = 0, els = 0;  // a location named twice counts once, with both amounts
    for (const Placement& q : m.from)
      if (q.location == pl.location) regs += q.forces, els += q.special;
    if (regs > s.forces_at(loser, pl.location, 0) || els > s.forces_at(loser, pl.location, 1))
      return reject(RejectCode::IllegalChoice, "more forces than you have there (Move.from)");
    total += pl.forces + pl.special;
  }
  if (total == 0) return reject(RejectCode::IllegalChoice, "retreat at least one force, or Pass");
  if (total > r.max)
    return reject(RejectCode::IllegalChoice, "at most " + std::to_string(r.max) +
                                                 " forces retreat: undialled ones, no more than the Diplomat's strength (Move.from)");
  return std::nullopt;
}

void retreat_apply(GameState& s, const action::Move& m) {
  const Faction loser = loser_faction(s);
  for (const Placement& pl : m.from) {
    move_forces(s, loser, at(pl.location), at(m.to), pl.forces, pl.special, ForceCause::Ability);
  }
}
}  // namespace

bool skills_diplomat_retreat_offered(GameState& s, int loser_side, const BattlePlanState& p, bool killed, bool winner_killed) {
  if (!s.uses(data::Module::LeaderSkills) || killed || !skilled_as(s, p.leader, LeaderSkill::Diplomat)) return false;
  const Faction loser = battle_faction_of_side(s, loser_side);
  const RetreatRoom r = retreat_room(s, loser, p);
  if (r.max <= 0 || r.to.empty()) return false;
  s.skills.retreat_pending = static_cast<uint8_t>(1 + (winner_killed ? 1 : 0));
  s.step = ability::kDiplomatRetreat;
  s.waiting = bit(s.seat_of(loser));
  return true;
}

// ---- shipment and movement -----------------------------------------------------------

int smuggler_extra_force(const GameState& s, Faction f, LocationId to, int shipped_regular) {
  if (!skill_in_front(s, f, LeaderSkill::Smuggler) || to >= data::kNumLocations) return 0;
  if (s.of(f).reserves[0] <= shipped_regular) return 0;  // no regular force left to bring
  const auto& ter = data::territory(data::territory_of(to));
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    for (Seat seat = 0; seat < s.num_seats; ++seat)
      if (s.forces_in_location(s.faction_at(seat), loc) > 0) return 0;
  }
  return 1;
}

namespace {
// Territories one crossing from t through pieces outside the storm.
std::vector<TerritoryId> next_territories(const GameState& s, TerritoryId t) {
  std::vector<TerritoryId> out;
  const auto& ter = data::territory(t);
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto l = static_cast<LocationId>(ter.first_location + i);
    if (s.in_storm(l)) continue;
    data::other_territory_neighbours(l).for_each([&](LocationId v) {
      if (s.in_storm(v)) return;
      const TerritoryId vt = data::territory_of(v);
      if (std::find(out.begin(), out.end(), vt) == out.end()) out.push_back(vt);
    });
  }
  return out;
}
// The most spice territories a path of at most `left` crossings from `at` to `to` enters (`seen`: entered so far).
int best_path(const GameState& s, TerritoryId at, TerritoryId to, int left, std::vector<TerritoryId>& seen, std::vector<TerritoryId>& best,
              int* best_n) {
  if (at == to) {
    int n = 0;
    for (const TerritoryId t : seen) n += spice_location(s, t) != kNone8 ? 1 : 0;
    if (n > *best_n) {
      *best_n = n;
      best = seen;
    }
  }
  if (left == 0) return *best_n;
  for (const TerritoryId nt : next_territories(s, at)) {
    if (std::find(seen.begin(), seen.end(), nt) != seen.end()) continue;
    seen.push_back(nt);
    best_path(s, nt, to, left - 1, seen, best, best_n);
    seen.pop_back();
  }
  return *best_n;
}
}  // namespace

void sandmaster_moved(GameState& s, Faction f, TerritoryId from, TerritoryId to, int range) {
  if (!skill_in_front(s, f, LeaderSkill::Sandmaster) || from == to) return;
  std::vector<TerritoryId> seen, best;
  int best_n = 0;
  best_path(s, from, to, std::min(range, 4), seen, best, &best_n);
  for (const TerritoryId t : best)  // 1 from each spice territory entered (the first sector with spice)
    if (const LocationId l = spice_location(s, t); l != kNone8) transfer_spice(s, board(l), shield(f), 1);
}

bool planetologist_may_gather(const GameState& s, Faction f) { return skill_in_front(s, f, LeaderSkill::Planetologist); }

namespace {

// The modifier MovementRangeQuery, order 1 (core/rules/owners.h): the
// Planetologist in front moves one territory further, at most 3, for the
// groups the phase reads as taking a skill's band; never for the Ornithopter
// card's group.
int planetologist_band(const GameState& s, const MovementRangeQuery& q, int range) {
  if (!q.skill_bonus || q.basis == RangeBasis::OrnithopterCard) return range;
  if (!skill_in_front(s, q.mover, LeaderSkill::Planetologist) || range >= 3) return range;
  return range + 1;
}

// ---- Spice Banker's front band ------------------------------------------------------------

// The SpiceMoved event: a payment of 4 or more from a faction to the bank.
void banker_saw_payment(GameState& s, const SpiceMoved& e) {
  if (e.from.holder != SpiceHolder::Faction || e.to.holder != SpiceHolder::Bank) return;
  const uint8_t payer = e.from.index;
  const int amount = e.amount;
  if (!s.uses(data::Module::LeaderSkills) || amount < 4 || payer >= kNumFactions) return;
  const uint16_t mark = static_cast<uint16_t>(s.turn * 16 + static_cast<int>(s.phase));
  if (s.skills.banked_mark == mark) return;  // once a phase
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const Faction f = s.faction_at(seat);
    if (static_cast<uint8_t>(f) == payer || !skill_in_front(s, f, LeaderSkill::SpiceBanker)) continue;
    s.skills.banked = static_cast<uint8_t>(std::min(255, s.skills.banked + 1));
    s.skills.banked_mark = mark;
    return;
  }
}

}  // namespace

namespace {
// Game event PhaseBegins: as the Mentat Pause begins, the Spice Banker's gains of the turn.
void banker_pays_out(GameState& s, const PhaseBegins& e) {
  if (e.phase != Phase::MentatPause || !s.skills.banked) return;
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const Faction f = s.faction_at(seat);
    for (int l = 0; l < data::kNumLeaders; ++l)
      if (s.skills.assigned[l] == static_cast<uint8_t>(LeaderSkill::SpiceBanker) + 1 && data::leader(static_cast<LeaderId>(l)).faction == f) {
        transfer_spice(s, bank(), shield(f), std::min<int>(s.skills.banked, s.bank));
        s.skills.banked = 0;
        return;
      }
  }
  s.skills.banked = 0;  // the Spice Banker died meanwhile: its gains are lost
}
}  // namespace

// ---- the Mentat's question (front band) and the Decipherer's swap (battle band): battle steps ----

// ---- the bluff: a skilled leader's card behind the shield before the plan (SkillBehind) ----
// treachery.online's SwitchedSkilledLeader: a battler, before its plan,
// moves the card of a skilled leader of its own behind its shield (public),
// whether its plan uses that leader or not; its front band stops for this
// battle (skill_in_front), and the card comes back in front after it.

namespace {
bool may_go_behind(const GameState& s, Faction f, LeaderId l) {
  if (l >= data::kNumLeaders || !s.skills.assigned[l] || s.skills.face_down[l]) return false;
  const auto& ld = s.leaders[l];
  return data::leader(l).faction == f && ld.holder == static_cast<uint8_t>(f) && alive(ld);
}
}  // namespace

std::optional<Rejection> skills_check_behind(const GameState& s, Faction f, const action::SkillBehind& a) {
  if (!s.uses(data::Module::LeaderSkills)) return reject(RejectCode::IllegalChoice, "no Leader Skills in this game (module leader_skills)");
  if (a.leader >= data::kNumLeaders) return reject(RejectCode::Malformed, "name the skilled leader to move behind your shield (SkillBehind.leader)");
  if (!may_go_behind(s, f, a.leader))
    return reject(RejectCode::IllegalChoice,
                  "only a leader of your own holding a face-up skill card, alive and not captured, goes behind your shield");
  if (s.skills.behind[static_cast<int>(f)] == a.leader + 1) return reject(RejectCode::IllegalChoice, "that skill card is behind your shield already");
  if (s.skills.behind[static_cast<int>(f)] != 0)
    return reject(RejectCode::IllegalChoice, "another skill card of yours is behind your shield in this battle");
  return std::nullopt;
}

void skills_apply_behind(GameState& s, Faction f, const action::SkillBehind& a) {
  s.skills.behind[static_cast<int>(f)] = static_cast<uint8_t>(a.leader + 1);
}

void skills_behind_legal(const GameState& s, Faction f, std::vector<Action>& out) {
  if (!s.uses(data::Module::LeaderSkills)) return;
  for (int l = 0; l < data::kNumLeaders; ++l)
    if (const action::SkillBehind a{.leader = static_cast<LeaderId>(l)}; may_go_behind(s, f, a.leader) && !skills_check_behind(s, f, a))
      out.push_back(a);
}

void skills_behind_decisions(const GameState& s, Faction f, std::vector<Decision>& out) {
  std::vector<Action> legal;
  skills_behind_legal(s, f, legal);
  if (legal.empty()) return;
  Decision d{ActionKind::SkillBehind,
             "Before your plan, you may move a skilled leader's card behind your shield (public; a bluff if your plan does not use "
             "it): its in-front ability stops until the battle ends",
             0, 0, {}};
  for (const auto& a : legal) d.options.push_back(a.as<action::SkillBehind>().leader);
  out.push_back(std::move(d));
}

bool skills_battle_opens(Ctx& c) {
  auto& s = c.s;
  auto& k = s.skills;
  k.mentat_faction = kNoFaction, k.mentat_asked = kNone8, k.mentat_shown = kNone8, k.mentat_answered = 0;
  for (auto& b : k.behind) b = 0;
  if (!s.uses(data::Module::LeaderSkills)) return false;
  for (const Seat seat : {s.battle.aggressor, s.battle.defender}) {
    if (seat < 0 || !skill_in_front(s, s.faction_at(seat), LeaderSkill::Mentat)) continue;
    k.mentat_faction = static_cast<uint8_t>(s.faction_at(seat));
    s.step = ability::kMentatQuestion;
    s.waiting = bit(seat);
    return true;
  }
  return false;
}

bool skills_after_battle(Ctx& c) {
  auto& s = c.s;
  auto& k = s.skills;
  if (!s.uses(data::Module::LeaderSkills)) return false;
  if (k.rihani_swap) {
    const Faction f = static_cast<Faction>(k.rihani_faction);
    if (!unrevealed_traitors(s, f).empty()) {
      s.step = ability::kDecipher;
      s.waiting = bit(s.seat_of(f));
      return true;
    }
    k.rihani_swap = 0;  // nothing left to give back (a traitor revealed since)
    shuffle_pile(c, s.traitor_deck, DrawKind::ShuffleTraitors);
  }
  // The battle ends: its Mentat question with it, and the cards moved behind the shields come back in front.
  k.mentat_faction = kNoFaction, k.mentat_asked = kNone8, k.mentat_shown = kNone8, k.mentat_answered = 0;
  for (auto& b : k.behind) b = 0;
  return false;
}

void skills_traitor_revealed(GameState& s, LeaderId leader) {
  if (s.uses(data::Module::LeaderSkills) && leader < 64) s.skills.traitors_revealed |= uint64_t{1} << leader;
}

std::optional<Rejection> skills_step_validate(const GameState& s, Seat seat, const Action& a) {
  const bool asked = has_bit(s.waiting, seat);
  switch (s.step) {
    case ability::kMentatQuestion: {
      if (a.kind() != ActionKind::MentatQuestion && a.kind() != ActionKind::Pass)
        return reject(RejectCode::WrongPhase, "the Mentat's owner may ask about a weapon before the battle plans: the phase takes MentatQuestion (or Pass) now");
      if (!asked) return reject(RejectCode::NotYourDecision, "the Mentat's owner decides whether to ask its question");
      if (const auto* q = a.get_if<action::MentatQuestion>(); q && !askable_weapon(s, q->weapon))
        return reject(RejectCode::IllegalChoice, "the Mentat names a weapon card of this game (MentatQuestion.weapon: a weapon's card id or name)");
      return std::nullopt;
    }
    case ability::kMentatAnswer: {
      if (a.kind() != ActionKind::MentatAnswer)
        return reject(RejectCode::WrongPhase, "the Mentat's question awaits its answer: the phase takes MentatAnswer now");
      if (!asked) return reject(RejectCode::NotYourDecision, "the Mentat's opponent shows a card");
      const auto ok = mentat_answers(s, seat);
      const uint8_t card = a.as<action::MentatAnswer>().card;
      if (std::find(ok.begin(), ok.end(), card) != ok.end()) return std::nullopt;
      const auto asked_name = card_name(s.skills.mentat_asked);
      if (card < data::kNumAllTreacheryCards && s.of(s.faction_at(seat)).hand.contains(card))
        return reject(RejectCode::IllegalChoice, "you hold a " + asked_name + ": show it (MentatAnswer.card)");
      return reject(RejectCode::IllegalChoice, "show a card of your hand (MentatAnswer.card; a " + asked_name + " if you hold one)");
    }
    case ability::kDecipher: {
      if (a.kind() != ActionKind::DecipherTraitor && a.kind() != ActionKind::Pass)
        return reject(RejectCode::WrongPhase, "the Rihani Decipherer's winner may swap a traitor card: the phase takes DecipherTraitor (or Pass) now");
      if (!asked) return reject(RejectCode::NotYourDecision, "the Rihani Decipherer's owner decides on its traitor cards");
      const auto* d = a.get_if<action::DecipherTraitor>();
      if (!d) return std::nullopt;
      if (d->take == kNone8 || (d->take != s.skills.rihani_seen[0] && d->take != s.skills.rihani_seen[1]))
        return reject(RejectCode::IllegalChoice, "take one of the two traitor cards the Decipherer drew (DecipherTraitor.take)");
      const auto give = unrevealed_traitors(s, s.faction_at(seat));
      if (std::find(give.begin(), give.end(), d->give) == give.end())
        return reject(RejectCode::IllegalChoice, "give back a traitor card you hold that no battle has revealed (DecipherTraitor.give)");
      return std::nullopt;
    }
    case ability::kDiplomatRetreat: {
      if (a.kind() != ActionKind::Move && a.kind() != ActionKind::Pass)
        return reject(RejectCode::WrongPhase, "the Diplomat's owner lost: it may retreat undialled forces first (Move, or Pass) before its losses");
      if (!asked) return reject(RejectCode::NotYourDecision, "the Diplomat's owner decides on its retreat");
      if (const auto* m = a.get_if<action::Move>()) return retreat_validate(s, *m);
      return std::nullopt;
    }
    default: return reject(RejectCode::WrongPhase, "nothing is decided in this step");
  }
}

void skills_step_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  auto& k = s.skills;
  switch (s.step) {
    case ability::kMentatQuestion: {
      if (a.kind() == ActionKind::Pass) {
        k.mentat_faction = kNoFaction;
        battle_open_after(c, kNumFactions);
        return;
      }
      k.mentat_asked = a.as<action::MentatQuestion>().weapon;
      const Seat opp = mentat_opponent(s);
      if (opp < 0 || s.of(s.faction_at(opp)).hand.empty()) {  // nothing to show: answered at once
        k.mentat_answered = 1;
        battle_open_after(c, kNumFactions);
        return;
      }
      s.step = ability::kMentatAnswer;
      s.waiting = bit(opp);
      return;
    }
    case ability::kMentatAnswer:
      k.mentat_shown = a.as<action::MentatAnswer>().card;
      k.mentat_answered = 1;
      battle_open_after(c, kNumFactions);
      return;
    case ability::kDecipher: {
      if (const auto* d = a.get_if<action::DecipherTraitor>()) {
        auto& tr = s.of(s.faction_at(seat)).traitors;
        s.traitor_deck.remove(d->take);
        tr.remove(d->give);
        tr.push(d->take);
        s.traitor_deck.push(d->give);
      }
      k.rihani_swap = 0;
      shuffle_pile(c, s.traitor_deck, DrawKind::ShuffleTraitors);  // the two drawn (or the one given back) shuffled in
      s.waiting = 0;
      battle_end(c);
      return;
    }
    case ability::kDiplomatRetreat: {
      if (const auto* m = a.get_if<action::Move>()) retreat_apply(s, *m);
      const bool winner_killed = k.retreat_pending == 2;
      k.retreat_pending = 0;
      s.waiting = 0;
      battle_losses(c, winner_killed);  // the loser loses what stayed, then the winner
      return;
    }
    default: return;
  }
}

void skills_step_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  switch (s.step) {
    case ability::kMentatQuestion: {
      const Seat opp = s.battle.aggressor == seat ? s.battle.defender : s.battle.aggressor;
      out.push_back(Decision{ActionKind::MentatQuestion,
                             "Your Mentat (in front of your shield): ask " + std::string(faction_name(s.faction_at(opp))) +
                                 " about one weapon; it shows you that card if it holds it, else a card of its choice",
                             0, 0, askable_weapons(s)});
      out.push_back(Decision{ActionKind::Pass, "Do not ask the Mentat's question in this battle", 0, 0, {}});
      return;
    }
    case ability::kMentatAnswer:
      out.push_back(Decision{ActionKind::MentatAnswer,
                             std::string(faction_name(static_cast<Faction>(s.skills.mentat_faction))) + "'s Mentat asks whether you hold a " +
                                 card_name(s.skills.mentat_asked) + ": show it, or any card of your hand if you do not",
                             0, 0, mentat_answers(s, seat)});
      return;
    case ability::kDecipher: {
      Decision d{ActionKind::DecipherTraitor,
                 "Your Rihani Decipherer won: keep one of the two traitor cards drawn by giving back one of your unrevealed traitor cards, "
                 "or keep yours",
                 0, 0, {}};
      for (const uint8_t l : s.skills.rihani_seen)
        if (l != kNone8) d.options.push_back(l);
      out.push_back(std::move(d));
      out.push_back(Decision{ActionKind::Pass, "Keep your traitor cards", 0, 0, {}});
      return;
    }
    case ability::kDiplomatRetreat: {
      const RetreatRoom r = retreat_room(s, loser_faction(s), loser_plan(s));
      Decision d{ActionKind::Move,
                 "Your Diplomat survived the battle you lost: retreat up to " + std::to_string(r.max) +
                     " forces you did not dial from the battle's territory to an adjacent empty territory that is not a stronghold, "
                     "or stay; the rest are lost",
                 1, r.max, {}};
      for (const LocationId v : r.to) d.options.push_back(v);
      out.push_back(std::move(d));
      out.push_back(Decision{ActionKind::Pass, "Do not retreat: all your forces in the battle are lost", 0, 0, {}});
      return;
    }
    default: return;
  }
}

void skills_step_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  switch (s.step) {
    case ability::kMentatQuestion:
      for (const uint16_t w : askable_weapons(s)) out.push_back(action::MentatQuestion{.weapon = static_cast<uint8_t>(w)});
      out.push_back(action::Pass{});
      return;
    case ability::kMentatAnswer:
      for (const uint16_t card : mentat_answers(s, seat)) out.push_back(action::MentatAnswer{.card = static_cast<uint8_t>(card)});
      return;
    case ability::kDecipher:
      for (const uint8_t take : s.skills.rihani_seen)
        if (take != kNone8)
          for (const LeaderId give : unrevealed_traitors(s, s.faction_at(seat))) out.push_back(action::DecipherTraitor{.take = take, .give = give});
      out.push_back(action::Pass{});
      return;
    case ability::kDiplomatRetreat: {  // for each destination: the largest retreat, and a single force
      const Faction loser = loser_faction(s);
      const RetreatRoom r = retreat_room(s, loser, loser_plan(s));
      for (const LocationId v : r.to) {
        const action::Move m = full_retreat(s, loser, r, v);
        out.push_back(m);
        if (r.max > 1 && !m.from.empty()) {
          action::Move one;
          one.to = v;
          const Placement& pl = m.from[0];
          one.from.push_back(Placement{pl.location, static_cast<uint8_t>(pl.special ? 0 : 1), static_cast<uint8_t>(pl.special ? 1 : 0)});
          out.push_back(one);
        }
      }
      out.push_back(action::Pass{});
      return;
    }
    default: return;
  }
}


// ---- the Bureaucrat's front band: a response window after a payment between two other factions ----
//
// A payment is spice moved from one faction's shield to another's by a rule
// (a bid paid to the Emperor or a lot's seller, a shipment's cost to the
// Guild, CHOAM's audit cancelled, ...): the transfers of one action to the
// same receiver add up (a bid its ally helps to pay is one payment). Spice
// given as a gift or a bribe (GiveSpice, Bribe, Deal) is not a payment
// (treachery.online's reading: only the payments the rules require), nor a
// refund (the Guild's 1.14.05 cancellation). With 5 or more paid, a faction
// other than the payer and the receiver whose Bureaucrat is in front, not
// used yet in the payment's phase, is asked once the action's own windows and
// ability steps are over (the Guild's 1.14.05 question first: a cancelled
// shipment is no payment); accepting forces 2 of the receiver's spice (what
// it has, at most 2) to the bank and uses the band for that phase. Declining
// leaves it for a later payment of the same phase.

namespace {
constexpr int kBureaucratMin = 5;
constexpr int kBureaucratTake = 2;

uint16_t phase_mark(const GameState& s) { return static_cast<uint16_t>(s.turn * 16 + static_cast<int>(s.phase)); }

void clear_bureau(GameState& s) {
  auto& k = s.skills;
  k.bureau_payer = kNoFaction, k.bureau_receiver = kNoFaction, k.bureau_stage = 0, k.bureau_amount = 0, k.bureau_rec_mark = 0;
}

// The seat whose Bureaucrat may take from the recorded payment, or kNoSeat.
Seat bureaucrat_seat(const GameState& s) {
  const auto& k = s.skills;
  if (k.bureau_receiver >= kNumFactions || k.bureau_amount < kBureaucratMin || k.bureau_mark == k.bureau_rec_mark) return kNoSeat;
  if (s.of(static_cast<Faction>(k.bureau_receiver)).spice == 0) return kNoSeat;
  for (Seat x = 0; x < s.num_seats; ++x) {
    const Faction f = s.faction_at(x);
    if (static_cast<uint8_t>(f) == k.bureau_payer || static_cast<uint8_t>(f) == k.bureau_receiver) continue;
    if (skill_in_front(s, f, LeaderSkill::Bureaucrat)) return x;
  }
  return kNoSeat;
}

std::string bureau_what(const GameState& s, const Window&) {
  const auto& k = s.skills;
  return std::string(faction_name(static_cast<Faction>(k.bureau_receiver))) + " was paid " + std::to_string(k.bureau_amount) + " spice by " +
         std::string(faction_name(static_cast<Faction>(k.bureau_payer))) +
         ": the Bureaucrat's owner may send 2 of it to the bank, or let it be (Bureaucrat)";
}

std::optional<Rejection> bureau_validate(const GameState& s, Seat seat, const action::Respond& a, const Window&) {
  if (a.card != kNone8) return reject(RejectCode::Malformed, "the Bureaucrat's answer names no card (Respond.accept only)");
  (void)s, (void)seat;
  return std::nullopt;
}

bool bureau_apply(Ctx& c, Seat, const action::Respond& a, Window&) {
  auto& s = c.s;
  auto& k = s.skills;
  if (a.accept) {
    const Faction r = static_cast<Faction>(k.bureau_receiver);
    const int take = std::min<int>(kBureaucratTake, s.of(r).spice);
    if (take > 0) transfer_spice(s, shield(r), bank(), take);
    k.bureau_mark = k.bureau_rec_mark;  // used for the payment's phase
    if (s.phase == Phase::ShipmentMovement) k.bureau_refund = static_cast<uint8_t>(take), k.bureau_refund_payer = k.bureau_payer;
  }
  return true;
}

void bureau_decisions(const GameState& s, Seat, const Window& w, std::vector<Decision>& out) {
  out.push_back(Decision{ActionKind::Respond, bureau_what(s, w), 0, 1, {}});
}

void bureau_legal(const GameState&, Seat, const Window&, std::vector<Action>& out) {
  out.push_back(action::Respond{});
  out.push_back(action::Respond{.accept = true});
}

void bureau_closed(Ctx& c, const Window&) { clear_bureau(c.s); }
}  // namespace

const CardRules::CardWindow kBureaucracyWindow{WindowKind::Bureaucracy, bureau_what, bureau_validate, bureau_apply,
                                               bureau_decisions, bureau_legal, bureau_closed};

void skills_paid_to_faction(GameState& s, uint8_t payer, uint8_t receiver, int amount) {
  if (!s.uses(data::Module::LeaderSkills) || payer >= kNumFactions || receiver >= kNumFactions || amount <= 0) return;
  auto& k = s.skills;
  if (k.bureau_stage >= 2) return;  // a payment waits for its window already
  if (k.bureau_stage == 1 && k.bureau_receiver == receiver) {
    k.bureau_amount = static_cast<uint16_t>(std::min(0xFFFF, k.bureau_amount + amount));
    return;
  }
  if (k.bureau_stage == 1 && k.bureau_amount >= kBureaucratMin) return;  // the first payment of 5 or more stands
  k.bureau_payer = payer, k.bureau_receiver = receiver, k.bureau_amount = static_cast<uint16_t>(amount);
  k.bureau_stage = 1, k.bureau_rec_mark = phase_mark(s);
}

namespace {
// The SpiceMoved event: a payment from one faction's shield to another's.
void bureaucrat_saw_payment(GameState& s, const SpiceMoved& e) {
  if (e.from.holder == SpiceHolder::Faction && e.to.holder == SpiceHolder::Faction && e.from.index != e.to.index)
    skills_paid_to_faction(s, e.from.index, e.to.index, e.amount);
}
}  // namespace

void skills_begin_action(GameState& s) {
  if (s.uses(data::Module::LeaderSkills) && s.skills.bureau_stage == 1) clear_bureau(s);  // (end_action resolves each record)
}

void skills_payment_cancelled(GameState& s) {
  if (s.uses(data::Module::LeaderSkills) && s.skills.bureau_stage != 3) clear_bureau(s);
}

int skills_taken_from(const GameState& s, Faction shipper) {
  const auto& k = s.skills;
  if (!s.uses(data::Module::LeaderSkills) || k.bureau_refund_payer != static_cast<uint8_t>(shipper) || k.bureau_mark != phase_mark(s)) return 0;
  return static_cast<int>(std::min<int64_t>(k.bureau_refund, s.bank));
}

void skills_refund_taken(GameState& s, Faction shipper, Faction payee) {
  auto& k = s.skills;
  if (!s.uses(data::Module::LeaderSkills) || !k.bureau_refund || k.bureau_refund_payer != static_cast<uint8_t>(shipper)) return;
  if (k.bureau_mark == phase_mark(s)) transfer_spice(s, bank(), shield(payee), std::min<int>(k.bureau_refund, s.bank));
  k.bureau_refund = 0, k.bureau_refund_payer = kNoFaction;
}

void skills_end_action(Ctx& c, const Action& a) {
  auto& s = c.s;
  auto& k = s.skills;
  if (!s.uses(data::Module::LeaderSkills) || k.bureau_stage == 0 || k.bureau_stage == 3) return;
  const ActionKind kind = a.kind();
  if (k.bureau_stage == 1 && (kind == ActionKind::GiveSpice || kind == ActionKind::Bribe || kind == ActionKind::Deal)) {
    clear_bureau(s);  // a gift or a bribe, not a payment
    return;
  }
  const Seat seat = s.phase == Phase::GameOver ? kNoSeat : bureaucrat_seat(s);
  if (seat == kNoSeat) {
    clear_bureau(s);
    return;
  }
  if (s.window_depth > 0 || ability_step(s) != nullptr) {  // the action's own windows and steps first
    k.bureau_stage = 2;
    return;
  }
  Window w;
  w.kind = WindowKind::Bureaucracy;
  w.owner = kNoSeat;
  w.asked = static_cast<uint8_t>(bit(seat));
  if (open_window(s, w)) k.bureau_stage = 3;
  else clear_bureau(s);  // the window stack is full: the moment passes
}

// ---- the owner (core/rules/owners.h) ----------------------------------------------------

namespace {
bool skills_in_game(const GameState& s) { return s.uses(data::Module::LeaderSkills); }
constexpr Subscription kSubscriptions[] = {on<SpiceMoved, banker_saw_payment>(), on<SpiceMoved, bureaucrat_saw_payment>(),
                                           on<LeaderDied, skill_card_returns>(), on<PhaseBegins, banker_pays_out>()};
constexpr ModifierAnswer kAnswers[] = {answer<MovementRangeQuery, planetologist_band>(1)};
}  // namespace

constinit const Owner kLeaderSkillsOwner{"leader_skills", OwnerKind::LeaderSkill, skills_in_game, kSubscriptions, kAnswers};

}  // namespace mentat::rules
