// 1.07 Battle.
//
// Flow (sub-step in GameState::step, scratch in GameState::battle):
//  * 1.07.02 the seats are aggressors in storm order (battle.aggressor_index
//    into order_from_first). For the current aggressor the engine lists every
//    battle it has: (territory, opponent) pairs. None: the next seat. Exactly
//    one: that battle starts at once (nothing to choose, nothing to hide).
//    Several: step kChoose, the aggressor answers ChooseBattle. Ruling
//    aggressor_order: `free`, the aggressor may take its battles in any
//    order, territories interleaved (1.07.02); `finish_territory`, once it
//    has fought in a territory (battle.finish_in) its battles left there come
//    first (1.07.03). An aggressor's list is recomputed after every battle,
//    so it keeps fighting until it has no battle left.
//  * 1.07.01 who battles: two factions battle in a territory when both have
//    fighters (advanced Bene Gesserit advisors are not fighters, 2.02.12) in
//    pieces of it that are not separated by the storm. Pieces are grouped into
//    components: pieces out of the storm joined by the board's neighbour
//    relation (a piece in storm breaks the chain: 1.07.01.01, 1.01.04), and a
//    piece in storm on its own (1.07.01.02 battling blind: forces in the same
//    sector under storm battle; ruling battle_under_storm = no_battle makes
//    nobody battle there). The battle's area (battle.area) is the union of the
//    components where both are present; the dial limit, the loser's losses and
//    the winner's losses count only forces in the area. Never in the Polar Sink
//    (1.07.01.03); never between allies (1.10.02.07 keeps them apart anyway).
//  * 1.07.04 step kPlans: both seats submit BattlePlan, secretly (battle.plan
//    is secret until the reveal; the cards stay in the hand until then).
//    Validation: 1.07.04.02 dial 0..forces in the area (advanced: Sardaukar
//    count 2 except against the Fremen, 2.03.08/09; Fedaykin 2, 2.04.18);
//    1.07.04.03/05 a leader or a Cheap Hero whenever one is available;
//    1.07.04.04 leaders that fought in another territory this phase are not
//    available (LeaderState::used_in_territory; a survivor waiting on the
//    battlefield of this territory is); 1.07.04.06 no card without a leader;
//    1.07.04.07 weapon slot: weapon or worthless card, defense slot: defense
//    or worthless card (3.01.01 etc.: "in place of a weapon, defense, or
//    both"). Advanced 1.13.04 spice dialing: spice 0..dial, each spice makes
//    one force unit count fully, the others count half (totals are compared
//    in half units); the Fremen dial no spice (2.04.21 battle hardened).
//    Ruling spice_dialing_elite=per_token: a spice supports a force token
//    instead, elite tokens first (an elite worth 2 counts fully for 1 spice).
//    The Kwisatz Haderach flag, the Prescience answer and the Voice bind the
//    plan (core/rules/battle_abilities.cpp).
//  * 1.07.05 both plans in: the cards move from the hands to battle.wheels
//    (custody zone "battle_wheels") and s.last_wheels records both seats.
//  * 1.07.06.07 step kTraitors: every seat whose opponent revealed a leader
//    disc (not a Cheap Hero, not "no leader": public after the reveal, so
//    asking leaks nothing) answers CallTraitor{call} (Pass also declines),
//    holders and non-holders alike.
//  * 1.07.06 resolution, in this order:
//    - two traitors (1.07.06.07.03): both sides lose their forces in the area,
//      their cards and their leaders; no spice to anyone.
//    - one traitor (1.07.06.07.01/02): the caller wins, loses nothing, keeps
//      its dialed spice (1.13.05), its leader goes back to the pool and may
//      fight again this phase; the traitor goes to the tanks and the caller
//      receives its strength; the other side loses its forces in the area and
//      discards its cards.
//    - Lasgun and Shield in the same battle (3.01.14): every force (any
//      faction, advisors too, 2.02.12) and all spice in the territory are
//      lost, both leaders die, no spice for leaders, all cards discarded.
//    - otherwise 1.07.06.02 weapons: projectile vs Shield (projectile
//      defense), poison vs Snooper (poison defense; the Ellaca Drug, 3.01.06,
//      by ruling ellaca_drug_defense: poison or projectile), Lasgun: no defense. A
//      killed leader's strength does not count. 1.07.06 total = dial (or
//      spiced value) + surviving leader's strength, 1.07.06.01 ties go to the
//      aggressor. 1.07.06.03 killed leaders to the tanks (face down when they
//      had died before, 1.05.04), the winner receives their strengths from the
//      bank. 1.07.06.04 surviving leaders wait on the battlefield.
//      1.07.06.05 the loser loses its forces in the area (ruling
//      battle_losses_scope=whole_territory: in the whole territory, also in
//      the traitor cases) and discards its
//      cards. 1.07.06.06 the winner loses forces worth its dial, elite
//      forces at their battle worth (2.03.08, 2.04.18): the split worth the
//      least over the dial, elites kept on a tie (ruling winner_losses;
//      regulars_first: every regular force first, the elites rounded up).
//      Its cards: step kKeep, the winner answers KeepCards{keep}
//      (Pass keeps every card it may keep): 1.07.06.06 it may keep any card
//      that does not say "Discard after use" and discards the others. Always
//      discarded: a Cheap Hero ("Discard after use", 3.01.04) and, by ruling
//      winner_worthless=discarded, worthless cards (3.01.01 etc.: "you can
//      discard it by playing it"; may_keep reads 1.07.06.06 literally). When
//      winning by traitor (1.07.06.07.01 "one time use cards may be kept or
//      discarded") a Cheap Hero may be kept too. No choice (nothing the
//      winner may keep): no step. The cards wait on the wheels meanwhile.
//    Dialed spice (advanced) is paid to the bank (1.13.04.05) at resolution.
//  * 1.07.07 after the last battle: leaders on the battlefield return to
//    their pools, used_in_territory is cleared, then Spice Collection.
//
// Decisions: ChooseBattle options are territory | opponent << 8. BattlePlan
// options are the available leader ids and 100 + card id for each Cheap
// Hero in hand; min/max bound the dial.
//
// Faction abilities (core/rules/battle_abilities.cpp, steps 3..6): 2.01.08/09
// Prescience and 2.02.06/07 Voice before the plans, 2.01.10-15 Kwisatz
// Haderach, 2.05.09 Harkonnen traitors in an ally's battle, 2.05.10-13
// captured leaders after the resolution. Not implemented: Karama in battle
// (1.14.01, 3.01.11).
#include <algorithm>

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/rules.h"
#include "core/rules/battle_abilities.h"

namespace mentat::rules {
namespace {

using data::TreacheryCategory;
using data::TreacheryKind;

enum BattleStep : uint8_t {
  kChoose = 0,    // the aggressor picks its next battle (ChooseBattle)
  kPlans = 1,     // both sides submit a BattlePlan
  kTraitors = 2,  // after the reveal: CallTraitor
  // 3..6: the abilities' steps (core/rules/battle_abilities.h ability::Step)
  kKeep = 7,      // 1.07.06.06 the winner keeps or discards its cards (KeepCards)
};

constexpr int kCheapHeroOption = 100;  // Decision option offset for Cheap Hero cards

// ---- who battles where (1.07.01) ----------------------------------------------

int fighters_at(const GameState& s, Faction f, LocationId loc) {
  int n = s.forces_at(f, loc, 0);
  if (specials_fight(s, f)) n += s.forces_at(f, loc, 1);  // 2.02.12
  return n;
}

bool has_fighters_in(const GameState& s, Faction f, TerritoryId t) {
  const auto& ter = data::territory(t);
  // fighters_at per piece, with the faction's hook asked once (at most).
  int specials = -1;
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    if (s.forces_at(f, loc, 0) > 0) return true;
    if (s.forces_at(f, loc, 1) == 0) continue;
    if (specials < 0) specials = specials_fight(s, f) ? 1 : 0;
    if (specials) return true;
  }
  return false;
}

bool allied(const GameState& s, Faction a, Faction b) { return s.of(a).ally == static_cast<uint8_t>(b); }

// Pieces of territory t grouped by the storm: comp[i] is the component of
// piece i, -1 where nobody battles.
void components(const GameState& s, TerritoryId t, int8_t comp[8]) {
  const auto& ter = data::territory(t);
  const int n = ter.num_locations;
  for (int i = 0; i < n; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    if (s.in_storm(loc))
      comp[i] = s.rulings.is(RulingId::BattleUnderStorm, 0) ? static_cast<int8_t>(i) : int8_t{-1};
    else
      comp[i] = static_cast<int8_t>(i);
  }
  for (int pass = 0; pass < n; ++pass)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const auto li = static_cast<LocationId>(ter.first_location + i);
        const auto lj = static_cast<LocationId>(ter.first_location + j);
        if (i == j || s.in_storm(li) || s.in_storm(lj) || !data::are_neighbours(li, lj)) continue;
        const int8_t lo = std::min(comp[i], comp[j]);
        comp[i] = comp[j] = lo;
      }
}

// The pieces (bit i = first_location + i) in which a and b battle in t; 0
// when they do not battle there.
uint8_t battle_area(const GameState& s, Faction a, Faction b, TerritoryId t) {
  if (a == b || !s.has(a) || !s.has(b)) return 0;
  if (t >= data::kNumTerritories || t == data::polar_sink_territory()) return 0;  // 1.07.01.03
  if (allied(s, a, b)) return 0;
  const auto& ter = data::territory(t);
  if (!has_fighters_in(s, a, t) || !has_fighters_in(s, b, t)) return 0;  // nobody to battle
  int8_t comp[8];
  components(s, t, comp);
  uint8_t area = 0;
  for (int c = 0; c < ter.num_locations; ++c) {
    bool has_a = false, has_b = false;
    uint8_t pieces = 0;
    for (int i = 0; i < ter.num_locations; ++i) {
      if (comp[i] != c) continue;
      const auto loc = static_cast<LocationId>(ter.first_location + i);
      pieces |= static_cast<uint8_t>(1u << i);
      has_a = has_a || fighters_at(s, a, loc) > 0;
      has_b = has_b || fighters_at(s, b, loc) > 0;
    }
    if (has_a && has_b) area |= pieces;
  }
  return area;
}

template <class F>
void for_area(TerritoryId t, uint8_t area, F&& fn) {
  const auto& ter = data::territory(t);
  for (int i = 0; i < ter.num_locations; ++i)
    if ((area >> i) & 1u) fn(static_cast<LocationId>(ter.first_location + i));
}

struct Option {
  TerritoryId territory;
  Faction opponent;
};

// Every battle of `seat` (as aggressor), by territory then opponent in storm order.
std::vector<Option> battles_of(const GameState& s, Seat seat) {
  std::vector<Option> out;
  const Faction me = s.faction_at(seat);
  const auto order = order_from_first(s);
  for (int t = 0; t < data::kNumTerritories; ++t) {
    if (!has_fighters_in(s, me, static_cast<TerritoryId>(t))) continue;  // no battle of mine there
    for (Seat o : order) {
      const Faction opp = s.faction_at(o);
      if (battle_area(s, me, opp, static_cast<TerritoryId>(t))) out.push_back({static_cast<TerritoryId>(t), opp});
    }
  }
  // Ruling aggressor_order=finish_territory (1.07.03): the battles left in the
  // territory of the aggressor's last battle come first.
  if (s.rulings.is(RulingId::AggressorOrder, 1) && s.battle.finish_in != kNone8) {
    std::vector<Option> here;
    for (const auto& o : out)
      if (o.territory == s.battle.finish_in) here.push_back(o);
    if (!here.empty()) return here;
  }
  return out;
}

// ---- battle plans (1.07.04) ------------------------------------------------------

// A seat not in the battle counts on the side of its ally (2.01.09, 2.02.07, 2.05.09).
int side_of(const GameState& s, Seat seat) {
  if (seat == s.battle.aggressor) return 0;
  if (seat == s.battle.defender || s.battle.aggressor < 0) return 1;
  return s.of(s.faction_at(seat)).ally == s.seat_faction[s.battle.aggressor] ? 0 : 1;
}
Seat seat_of_side(const GameState& s, int side) { return side == 0 ? s.battle.aggressor : s.battle.defender; }
Faction faction_of_side(const GameState& s, int side) { return s.faction_at(seat_of_side(s, side)); }

// Battle worth of one elite force (advanced only): the owners' answer to
// EliteWorthQuery (core/rules/owners.h: 2.03.08-09, 2.04.18, 3.01.11.02).
int elite_worth(const GameState& s, Faction me, Faction opp) {
  if (!s.advanced) return 1;
  return modify(s, EliteWorthQuery{me, opp}, 1);
}

// 2.04.21: the faction's dial counts fully without spice (unless a Karama prevents it).
bool battle_hardened(const GameState& s, Faction me) {
  return faction_rules(me).battle_hardened != Ability::None && !s.battle.karama_hardened_off;
}

// 1.07.04.02: the highest dial, in force units.
int max_dial(const GameState& s, Faction me, Faction opp, TerritoryId t, uint8_t area) {
  int n = 0;
  const int worth = elite_worth(s, me, opp);
  for_area(t, area, [&](LocationId loc) {
    n += s.forces_at(me, loc, 0);
    if (specials_fight(s, me)) n += worth * s.forces_at(me, loc, 1);
  });
  if (const auto h = faction_rules(me).force_token.max_dial) n = h(s, t, area, n);  // the Richese No-Field
  return std::min(n, 255);
}

// Ruling spice_dialing_elite (1.13.04 with 2.03.08/2.04.18). per_unit: one
// spice makes one unit of the dial count fully. per_token: one spice supports
// one force token, elite tokens first, so an elite worth 2 counts fully for 1.
int elites_in_area(const GameState& s, Faction me, TerritoryId t, uint8_t area) {
  if (!specials_fight(s, me)) return 0;  // advisors (2.02.12)
  int n = 0;
  for_area(t, area, [&](LocationId loc) { n += s.forces_at(me, loc, 1); });
  return n;
}
// The most spice that supports a dial of `dial` units (the tokens making it up).
int dial_tokens(const GameState& s, Faction me, Faction opp, TerritoryId t, uint8_t area, int dial) {
  if (s.rulings.is(RulingId::SpiceDialingElite, 0)) return dial;
  const int worth = elite_worth(s, me, opp);
  const int e = std::min(elites_in_area(s, me, t, area), (dial + worth - 1) / worth);
  return e + std::max(0, dial - worth * e);
}
// Units of a `dial` that count fully for `spice` spice paid.
int spiced_units(const GameState& s, Faction me, Faction opp, TerritoryId t, uint8_t area, int dial, int spice) {
  if (s.rulings.is(RulingId::SpiceDialingElite, 0)) return std::min(dial, spice);
  const int e = std::min(spice, elites_in_area(s, me, t, area));
  return std::min(dial, elite_worth(s, me, opp) * e + (spice - e));
}

bool is_cheap_hero(uint8_t card) {
  if (card >= data::kNumTreacheryCards) return false;
  const auto k = data::treachery_card(card).kind;
  return k == TreacheryKind::CheapHero || k == TreacheryKind::CheapHeroine;
}
// An expansion card whose battle use is not implemented (Stone Burner...).
std::optional<Rejection> expansion_card_unusable(uint8_t card) {
  if (card < data::kNumTreacheryCards || battle_card_implemented(card)) return std::nullopt;
  return reject(RejectCode::IllegalChoice,
                std::string(data::treachery_card(card).name) + " is held and counted only: its battle use is not implemented yet (docs/cards/richese-cards.md)");
}
bool fits_weapon_slot(uint8_t card) {
  const auto c = data::treachery_card(card).category;
  return data::is_weapon(c) || c == TreacheryCategory::Worthless || c == TreacheryCategory::WeaponSpecial;  // Mirror Weapon
}
bool fits_defense_slot(uint8_t card) {
  const auto c = data::treachery_card(card).category;
  return data::is_defense(c) || c == TreacheryCategory::Worthless || c == TreacheryCategory::DefenseSpecial;
}

// 1.07.04.04: may `me` put leader `id` on its wheel in territory t?
bool leader_available(const GameState& s, Faction me, uint8_t id, TerritoryId t) {
  if (id >= data::kNumLeaders) return false;
  const auto& l = s.leaders[id];
  if (l.holder != static_cast<uint8_t>(me)) return false;
  if (l.zone == LeaderZone::Pool) return l.used_in_territory == kNone8 || l.used_in_territory == t;
  if (l.zone == LeaderZone::Battlefield) return l.aux == t;  // survived here, fights here again
  return false;
}

std::vector<uint8_t> available_leaders(const GameState& s, Faction me, TerritoryId t) {
  std::vector<uint8_t> out;
  for (int i = 0; i < data::kNumLeaders; ++i)
    if (leader_available(s, me, static_cast<uint8_t>(i), t)) out.push_back(static_cast<uint8_t>(i));
  return out;
}

std::vector<uint8_t> cheap_heroes_in_hand(const GameState& s, Faction me) {
  std::vector<uint8_t> out;
  const auto& hand = s.of(me).hand;
  for (int i = 0; i < hand.n; ++i)
    if (is_cheap_hero(hand.ids[i])) out.push_back(hand.ids[i]);
  return out;
}

std::string card_name(uint8_t card) { return std::string(data::treachery_card(card).name); }
std::string leader_name(uint8_t id) { return std::string(data::leader(id).name); }
std::string territory_name(TerritoryId t) { return std::string(data::territory(t).name); }

// How much of its ally's spice `me` may use now for the spice it dials
// (CHOAM's alliance ability: hook ally_battle_support; 0 without it).
int ally_battle_support(const GameState& s, Faction me) {
  const uint8_t ally = ally_in_game(s, me);
  if (ally == kNoFaction) return 0;
  const auto h = faction_rules(static_cast<Faction>(ally)).ally_battle_support;
  return h ? std::min<int>(h(s), s.f[ally].spice) : 0;
}

std::optional<Rejection> check_plan(const GameState& s, Seat seat, const action::BattlePlan& a) {
  const auto& b = s.battle;
  const Faction me = s.faction_at(seat);
  const Faction opp = faction_of_side(s, 1 - side_of(s, seat));
  const TerritoryId t = b.territory;
  const auto& hand = s.of(me).hand;
  const uint8_t leader = a.leader, cheap = a.cheap_hero, weapon = a.weapon, defense = a.defense;

  if (a.kwisatz_haderach)
    if (auto r = ability::check_kwisatz_haderach(s, seat, a)) return r;  // 2.01.10/11
  if (leader != kNone8 && cheap != kNone8)
    return reject(RejectCode::IllegalChoice, "a battle plan has one leader or one Cheap Hero, not both (1.07.04.03)");
  if (leader != kNone8) {
    if (leader >= data::kNumLeaders) return reject(RejectCode::Malformed, "unknown leader id " + std::to_string(leader));
    if (!leader_available(s, me, leader, t)) {
      const auto& l = s.leaders[leader];
      if (l.holder == static_cast<uint8_t>(me) && l.used_in_territory != kNone8 && l.used_in_territory != t &&
          (l.zone == LeaderZone::Pool || l.zone == LeaderZone::Battlefield))
        return reject(RejectCode::IllegalChoice, leader_name(leader) + " fought in " + territory_name(l.used_in_territory) +
                                                     " this phase: no leader fights in two territories (1.07.04.04)");
      return reject(RejectCode::IllegalChoice, leader_name(leader) + " is not in your leader pool");
    }
  }
  if (cheap != kNone8) {
    if (cheap >= data::kNumTreacheryCards) return reject(RejectCode::Malformed, "unknown card id " + std::to_string(cheap));
    if (!hand.contains(cheap)) return reject(RejectCode::IllegalChoice, card_name(cheap) + " is not in your hand");
    if (!is_cheap_hero(cheap)) return reject(RejectCode::IllegalChoice, card_name(cheap) + " is not a Cheap Hero (3.01.04)");
  }
  const bool has_hero = leader != kNone8 || cheap != kNone8;
  if (!has_hero && (!available_leaders(s, me, t).empty() ||
                    (!cheap_heroes_in_hand(s, me).empty() && ability::may_play_cheap_hero(s, seat))))
    return reject(RejectCode::IllegalChoice, "you must play a leader or a Cheap Hero when you can (1.07.04.05)");
  if (!has_hero && (weapon != kNone8 || defense != kNone8))
    return reject(RejectCode::IllegalChoice,
                  "without a leader or a Cheap Hero no treachery card may be played (1.07.04.06)");
  if (weapon != kNone8) {
    if (weapon >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "unknown card id " + std::to_string(weapon));
    if (auto why = expansion_card_unusable(weapon)) return *why;
    if (!hand.contains(weapon)) return reject(RejectCode::IllegalChoice, card_name(weapon) + " is not in your hand");
    if (!fits_weapon_slot(weapon) && !planetologist_special(s, leader, weapon))  // the Planetologist's green Special (leader_skills.cpp)
      return reject(RejectCode::IllegalChoice, card_name(weapon) + " is not a weapon or a worthless card (1.07.04.07)" +
                                                   (leader_skill(s, leader) == static_cast<int>(data::LeaderSkill::Planetologist)
                                                        ? "; the Planetologist takes a green Special, never a Cheap Hero (ruling planetologist_cheap_hero)"
                                                        : ""));
    if (weapon == cheap) return reject(RejectCode::IllegalChoice, "one card cannot be both the Cheap Hero and the weapon");
  }
  if (defense != kNone8) {
    if (defense >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "unknown card id " + std::to_string(defense));
    if (auto why = expansion_card_unusable(defense)) return *why;
    if (!hand.contains(defense)) return reject(RejectCode::IllegalChoice, card_name(defense) + " is not in your hand");
    if (!fits_defense_slot(defense))
      return reject(RejectCode::IllegalChoice, card_name(defense) + " is not a defense or a worthless card (1.07.04.07)");
    if (defense == weapon) return reject(RejectCode::IllegalChoice, "one card cannot be both the weapon and the defense");
  }
  const int max = max_dial(s, me, opp, t, b.area);
  if (a.ally_pays > 0) {  // CHOAM's alliance ability (hook ally_battle_support)
    if (a.ally_pays > a.spice) return reject(RejectCode::IllegalChoice, "ally_pays is the part of the spice dialed that your ally pays");
    const int support = ally_battle_support(s, me);
    if (a.ally_pays > support)
      return reject(RejectCode::IllegalChoice, "your ally lets you use " + std::to_string(support) +
                                                   " of its spice for the spice you dial (CHOAM's ChoamSupport)");
  }
  if (a.dial > max)
    return reject(RejectCode::IllegalChoice, "you may dial at most " + std::to_string(max) + ", your forces in " +
                                                 territory_name(t) + " (1.07.04.02)");
  if (a.spice > 0) {
    if (!s.advanced) return reject(RejectCode::IllegalChoice, "spice dialing is an advanced rule (1.13.04)");
    if (battle_hardened(s, me))
      return reject(RejectCode::IllegalChoice, "Fremen forces count fully without spice (2.04.21 battle hardened)");
    if (a.spice > a.dial)
      return reject(RejectCode::IllegalChoice, "at most one spice for each force dialed (1.13.04)");
    if (a.spice > dial_tokens(s, me, opp, t, b.area, a.dial))
      return reject(RejectCode::IllegalChoice, "at most one spice for each force token dialed (1.13.04, ruling spice_dialing_elite=per_token): " +
                                                   std::to_string(dial_tokens(s, me, opp, t, b.area, a.dial)) + " here");
    const int by_bank = stronghold_battle_discount(s, me);  // the Arrakeen stronghold card (core/cards/stronghold_cards.cpp)
    if (a.spice - a.ally_pays > s.of(me).spice + by_bank)
      return reject(RejectCode::NotEnoughSpice, "you hold only " + std::to_string(s.of(me).spice) + " spice (1.13.04.04)" +
                                                    (a.ally_pays ? " besides what your ally pays" : "") +
                                                    (by_bank ? " and the bank pays 2 (the Arrakeen stronghold card)" : ""));
  }
  if (auto r = skills_check_plan(s, me, a)) return r;  // Spice Banker (core/cards/leader_skills.cpp)
  const int own_dial_spice = std::max(0, a.spice - a.ally_pays - (a.spice > 0 ? stronghold_battle_discount(s, me) : 0));
  if (a.skill_spice > 0 && own_dial_spice + a.skill_spice > s.of(me).spice)
    return reject(RejectCode::NotEnoughSpice, "you hold only " + std::to_string(s.of(me).spice) + " spice for the Spice Banker's boost and your dial");
  return ability::check_commitments(s, seat, a);  // 2.01.08 Prescience, 2.02.06 Voice
}

// ---- traitors (1.07.06.07) ----------------------------------------------------------

// May `seat` call traitor on its opponent's revealed leader?
bool can_call_traitor(const GameState& s, Seat seat) {
  const auto& opp_plan = s.battle.plan[1 - side_of(s, seat)];
  return opp_plan.leader != kNone8 && !ability::loyal(opp_plan) &&  // 2.01.12
         s.of(s.faction_at(seat)).traitors.contains(opp_plan.leader);
}

// ---- resolution (1.07.06) -------------------------------------------------------------

void kill_leader(GameState& s, uint8_t id) {
  leader_to_tanks(s, id, s.leaders[id].died_once != 0);  // 1.07.06.03, 1.05.04
}

void leader_survives(GameState& s, uint8_t id, TerritoryId t) {  // 1.07.06.04
  auto& l = s.leaders[id];
  l.zone = LeaderZone::Battlefield;
  l.aux = t;
  l.used_in_territory = t;
}

void lose_all_in_area(GameState& s, Faction f, TerritoryId t, uint8_t area) {  // 1.07.06.05
  if (s.rulings.is(RulingId::BattleLossesScope, 1))  // whole_territory: forces separated by the storm too
    area = static_cast<uint8_t>((1u << data::territory(t).num_locations) - 1);
  for_area(t, area, [&](LocationId loc) {
    const int reg = s.forces_at(f, loc, 0);
    const int spec = !specials_fight(s, f) ? 0 : s.forces_at(f, loc, 1);
    if (reg + spec) forces_to_tanks(s, f, loc, reg, spec);
  });
}

// 1.07.06.06 THE WINNER: the winner loses only the number of forces it
// dialed on the Battle Wheel. 2.03.08 / 2.04.18: a Sardaukar or a Fedaykin
// is worth two normal forces in battle and in taking losses (2.03.09: a
// Sardaukar only one against the Fremen; elite_worth).
// Which forces make up that loss (ruling winner_losses):
//  * least_worth: the split of regular and elite forces worth at least the
//    dial and as little over it as the forces allow (more than the dial only
//    where nothing else makes it up, e.g. only elites remain for an odd
//    remainder); among equal worths the one that keeps the most elites
//    (regulars go first). Under spice_dialing_elite = per_token the elite
//    forces the dialed spice supports (elite tokens first, as spiced_units
//    counts them) are forces dialed, so they are among the losses.
//  * regulars_first: every regular force first, then elites for the rest,
//    rounded up (the engine before rules version 7: a dial of 10 with 5
//    forces and 4 Sardaukar lost 5 + 3, worth 11).
// The winner does not choose its losses: the split is the rule (docs/RULINGS.md).
constexpr uint8_t kRegularsFirst = 1;  // RulingId::WinnerLosses
struct LossSplit {
  int regular = 0, elite = 0;
};
LossSplit dialed_losses(const GameState& s, int regs, int els, int worth, int dial, int min_elites) {
  if (s.rulings.is(RulingId::WinnerLosses, kRegularsFirst)) {
    const int r = std::min(dial, regs);
    return {r, std::min(els, (dial - r + worth - 1) / worth)};
  }
  LossSplit best{regs, els};  // forces short of the dial (a No-Field's count): all of them
  int best_worth = -1;
  for (int e = std::min(min_elites, els); e <= els; ++e) {
    const int r = std::clamp(dial - worth * e, 0, regs);
    const int w = r + worth * e;
    if (w >= dial && (best_worth < 0 || w < best_worth)) best = {r, e}, best_worth = w;
  }
  return best;
}

// The winner's share of `dial` in the battle area of t (forces that fight only:
// advisors, 2.02.12, are not lost).
LossSplit winner_split(const GameState& s, Faction w, Faction l, TerritoryId t, uint8_t area, const BattlePlanState& p) {
  int regs = 0, els = 0;
  for_area(t, area, [&](LocationId loc) {
    regs += s.forces_at(w, loc, 0);
    if (specials_fight(s, w)) els += s.forces_at(w, loc, 1);
  });
  const int worth = elite_worth(s, w, l);
  const int supported = s.rulings.is(RulingId::SpiceDialingElite, 0) || worth < 2 ? 0 : std::min<int>(p.spice, p.dial / worth);
  return dialed_losses(s, regs, els, worth, p.dial, supported);
}

// `loss` forces to the tanks from the area: regular forces location by
// location, then elite forces.
void lose_forces(GameState& s, Faction f, TerritoryId t, uint8_t area, LossSplit loss) {
  for_area(t, area, [&](LocationId loc) {
    const int n = std::min<int>(loss.regular, s.forces_at(f, loc, 0));
    if (n > 0) forces_to_tanks(s, f, loc, n, 0);
    loss.regular -= n;
  });
  if (!specials_fight(s, f)) return;  // advisors (2.02.12)
  for_area(t, area, [&](LocationId loc) {
    const int n = std::min<int>(loss.elite, s.forces_at(f, loc, 1));
    if (n > 0) forces_to_tanks(s, f, loc, 0, n);
    loss.elite -= n;
  });
}

// The faction whose plan put `card` on the wheels (kNoFaction-valued if none).
Faction wheel_owner(const GameState& s, uint8_t card) {
  const auto& b = s.battle;
  for (int side = 0; side < 2; ++side) {
    const auto& p = b.plan[side];
    const Seat seat = side == 0 ? b.aggressor : b.defender;
    if (seat >= 0 && (p.weapon == card || p.defense == card || p.cheap_hero == card)) return s.faction_at(seat);
  }
  return static_cast<Faction>(kNoFaction);
}

void discard_from_wheels(GameState& s, uint8_t card) {
  if (card != kNone8 && s.battle.wheels.remove(card)) to_treachery_discard(s, card, wheel_owner(s, card));
}
void keep_from_wheels(GameState& s, Faction f, uint8_t card) {
  if (card != kNone8 && s.battle.wheels.remove(card)) s.of(f).hand.push(card);
}

void discard_plan(GameState& s, const BattlePlanState& p) {
  discard_from_wheels(s, p.cheap_hero);
  discard_from_wheels(s, p.weapon);
  discard_from_wheels(s, p.defense);
}

bool worthless(uint8_t card) {
  return card != kNone8 && data::treachery_card(card).category == TreacheryCategory::Worthless;
}

void end_battle(Ctx& c);
constexpr uint8_t kWorthlessMayKeep = 1;  // RulingId::WinnerWorthless

// 1.07.06.06 / 1.07.06.07.01: why the winner may not keep `card` of its plan
// (nullopt: it may keep it).
std::optional<std::string> must_discard(const GameState& s, uint8_t card) {
  const auto& b = s.battle;
  if (!b.winner || card == kNone8 || !b.wheels.contains(card)) return std::string("it is not one of your cards on the battle wheels");
  const int w = b.winner - 1;
  const auto& p = b.plan[w];
  if (card != p.weapon && card != p.defense && card != p.cheap_hero) return std::string("it is not one of your cards on the battle wheels");
  if (card == p.cheap_hero) {
    const bool traitor_win = has_bit(b.traitor_calls, seat_of_side(s, w)) && !has_bit(b.traitor_calls, seat_of_side(s, 1 - w));
    if (!traitor_win) return std::string("a Cheap Hero is discarded after use (3.01.04); only a traitor win lets you keep it (1.07.06.07.01)");
    return std::nullopt;
  }
  if (auto why = skills_must_discard(s, p, card)) return why;  // the Planetologist's Special (core/cards/leader_skills.cpp)
  if (card >= data::kNumTreacheryCards && battle_card_implemented(card))  // "Discard after use" (core/cards/battle_cards.cpp)
    return std::string(data::treachery_card(card).name) + " is discarded after use";
  if (worthless(card) && !s.rulings.is(RulingId::WinnerWorthless, kWorthlessMayKeep))
    return std::string("a worthless card is discarded by playing it (3.01.01; ruling winner_worthless)");
  return std::nullopt;
}

// The cards of the winner's plan it may keep, in plan order.
std::vector<uint8_t> keepable(const GameState& s) {
  std::vector<uint8_t> out;
  if (!s.battle.winner) return out;
  const auto& p = s.battle.plan[s.battle.winner - 1];
  for (uint8_t card : {p.cheap_hero, p.weapon, p.defense})
    if (card != kNone8 && !must_discard(s, card)) out.push_back(card);
  return out;
}

// After the resolution: the winner decides on its cards (kKeep), unless it
// has none it may keep; end_battle discards whatever stays on the wheels.
void winner_cards(Ctx& c, int w) {
  auto& s = c.s;
  s.battle.winner = static_cast<uint8_t>(w + 1);
  if (keepable(s).empty()) {
    end_battle(c);
    return;
  }
  s.step = kKeep;
  s.waiting = bit(seat_of_side(s, w));
}

// 1.13.04.05: dialed spice to the bank; returns what was paid. `share`: no
// traitor was revealed, so a faction's battle_spice_paid hook (the advanced
// CHOAM's half) takes its share from the bank.
// The ally's part (BattlePlan.ally_pays, CHOAM's alliance ability) is paid
// from the ally's spice, within what it still allows, and is not shared.
int pay_dialed_spice(GameState& s, Faction f, const BattlePlanState& p, bool share = true, int* boost_paid = nullptr) {
  // The Arrakeen stronghold card: the bank pays 2 of it first (core/cards/stronghold_cards.cpp); it counts as paid.
  const int by_bank = std::min<int>(p.spice, stronghold_battle_discount(s, f));
  const int ally_part = std::min<int>(p.ally_pays, p.spice - by_bank);  // the ally's part of the rest
  int from_ally = 0;
  if (ally_part > 0) {
    const uint8_t ally = ally_in_game(s, f);
    from_ally = std::min<int>(ally_part, ally_battle_support(s, f));
    if (from_ally > 0) {
      transfer_spice(s, shield(static_cast<Faction>(ally)), bank(), from_ally);
      if (const auto h = faction_rules(static_cast<Faction>(ally)).ally_battle_paid) h(s, from_ally);
    }
  }
  const int paid = std::min<int>(std::max(0, p.spice - by_bank - p.ally_pays), s.of(f).spice);
  if (paid > 0) transfer_spice(s, shield(f), bank(), paid);
  // The Spice Banker's boost (core/cards/leader_skills.cpp): to the bank, not spice for forces (no share of it).
  const int boost = std::min<int>(p.skill_spice, s.of(f).spice);  // what it still holds (a bribe may have spent it)
  if (boost > 0) transfer_spice(s, shield(f), bank(), boost);
  if (boost_paid) *boost_paid = boost;
  if (paid + by_bank > 0 && share)
    for (int fi = 0; fi < kNumFactions; ++fi)
      if (const auto h = faction_rules(static_cast<Faction>(fi)).battle_spice_paid; h && s.has(static_cast<Faction>(fi)))
        h(s, f, paid + by_bank);
  return paid + from_ally + by_bank;
}

bool has_kind(const BattlePlanState& p, TreacheryKind k) {
  return (p.weapon != kNone8 && data::treachery_card(p.weapon).kind == k) ||
         (p.defense != kNone8 && data::treachery_card(p.defense).kind == k);
}
bool weapon_of(const BattlePlanState& p, TreacheryCategory c) {
  return p.weapon != kNone8 && data::treachery_card(p.weapon).category == c;
}
bool defense_of(const BattlePlanState& p, TreacheryCategory c) {
  return p.defense != kNone8 && data::treachery_card(p.defense).category == c;
}

// 1.07.06.02: does the plan `att`'s weapon kill the leader (or Cheap Hero) of `def`?
// `def_snooper`: def's defense also counts as a Snooper (the Carthag stronghold card).
bool weapon_kills(const GameState& s, const BattlePlanState& att, const BattlePlanState& def, bool def_snooper = false) {
  if (def.leader == kNone8 && def.cheap_hero == kNone8) return false;
  if (weapon_of(att, TreacheryCategory::WeaponLasgun)) return true;  // 3.01.14 no defense
  // 3.01.06 Ellaca Drug: a poison weapon that a projectile defense stops (ruling ellaca_drug_defense).
  if (s.rulings.is(RulingId::EllacaDrugDefense, 1) && att.weapon != kNone8 &&
      data::treachery_card(att.weapon).kind == TreacheryKind::EllacaDrug)
    return !defense_of(def, TreacheryCategory::DefenseProjectile);
  if (weapon_of(att, TreacheryCategory::WeaponProjectile)) return !defense_of(def, TreacheryCategory::DefenseProjectile);
  if (weapon_of(att, TreacheryCategory::WeaponPoison)) return !defense_of(def, TreacheryCategory::DefensePoison) && !def_snooper;
  return false;
}

// 1.07.06.01 ties: the aggressor wins; the Juice of Sapho's defender
// (core/cards/juice_of_sapho.cpp); the Habbanya Sietch card's holder
// (core/cards/stronghold_cards.cpp), against a defender's Juice by ruling
// habbanya_juice (holder_wins: the holder; defender_juice: the Juice).
int tie_side(const GameState& s) {
  const int juice = juice_tie_side(s);
  const int holder = stronghold_tie_side(s);
  if (holder < 0) return juice;
  if (juice == 1 && s.rulings.is(RulingId::HabbanyaJuice, 1)) return 1;
  return holder;
}

void next_battle(Ctx& c);
void end_battle(Ctx& c);

void end_battle(Ctx& c) {
  if (ability::hold_after_battle(c)) return;  // 2.01.10 count, 2.05.10 capture decision pending
  auto& b = c.s.battle;
  const uint8_t index = b.aggressor_index;
  const uint8_t fought_in = b.territory;
  const uint8_t fought = b.fought;  // battles begun this phase: kept until the phase ends
  // Anything still on the wheels (a plan's card missing) is discarded.
  while (!b.wheels.empty()) {
    const uint8_t card = b.wheels.pop();
    to_treachery_discard(c.s, card, wheel_owner(c.s, card));
  }
  clear_battle_scratch(c.s);
  b.aggressor_index = index;
  b.finish_in = fought_in;  // ruling aggressor_order
  b.fought = fought;
  c.s.step = kChoose;
  c.s.waiting = 0;
  next_battle(c);
}

// 1.07.06.06 the winner's dialled losses (winner_split), less what a Suk
// Graduate saves (core/cards/leader_skills.cpp), counted in forces, elite ones
// first: those to the reserves leave the area, the one that stays is not lost.
void winner_losses(GameState& s, Faction w, Faction l, TerritoryId t, uint8_t area, const BattlePlanState& p, bool killed) {
  const LossSplit loss = winner_split(s, w, l, t, area, p);
  const int lost_r = loss.regular, lost_e = loss.elite;
  const auto saves = suk_graduate_saves(s, w, p, killed, lost_r + lost_e);
  if (saves.stay + saves.to_reserves == 0) {
    lose_forces(s, w, t, area, loss);
    return;
  }
  // Which forces are saved: elite ones first (the one that stays, then those to the reserves).
  int save_e = std::min(lost_e, saves.stay + saves.to_reserves);
  int save_r = std::min(lost_r, saves.stay + saves.to_reserves - save_e);
  const int stay_e = std::min(save_e, saves.stay), stay_r = std::min(save_r, saves.stay - stay_e);
  int res[2] = {save_r - stay_r, save_e - stay_e};
  int dead[2] = {lost_r - save_r, lost_e - save_e};
  for_area(t, area, [&](LocationId loc) {
    for (int type = 0; type < 2; ++type) {
      const int k = std::min<int>(dead[type], s.forces_at(w, loc, type));
      if (k > 0) forces_to_tanks(s, w, loc, type == 0 ? k : 0, type == 1 ? k : 0);
      dead[type] -= k;
      const int r = std::min<int>(res[type], s.forces_at(w, loc, type));
      if (r > 0) move_forces(s, w, at(loc), reserves_zone(), type == 0 ? r : 0, type == 1 ? r : 0, ForceCause::Returned);
      res[type] -= r;
    }
  });
}

// 1.07.06.05 the loser loses everything in the area and discards its plan;
// 1.07.06.06 the winner its dial; then its cards. b.winner is set.
void losses(Ctx& c, bool winner_killed) {
  auto& s = c.s;
  auto& b = s.battle;
  const int w = b.winner - 1, l = 1 - w;
  const Faction fw = faction_of_side(s, w), fl = faction_of_side(s, l);
  const BattlePlanState lp = b.plan[l], wp = b.plan[w];
  lose_all_in_area(s, fl, b.territory, b.area);
  discard_plan(s, lp);
  winner_losses(s, fw, fl, b.territory, b.area, wp, winner_killed);
  winner_cards(c, w);
}

void resolve(Ctx& c) {
  auto& s = c.s;
  auto& b = s.battle;
  ability::before_resolve(c);  // 2.01.10
  const TerritoryId t = b.territory;
  const Faction fa[2] = {faction_of_side(s, 0), faction_of_side(s, 1)};
  auto note = [&](BattleOutcome::How how, int w, int t2w = 0, int t2l = 0) {  // for reports (engine.h ApplyNotes)
    if (!c.notes) return;
    BattleOutcome o;
    o.territory = t;
    o.how = how;
    o.winner = w >= 0 ? static_cast<uint8_t>(fa[w]) : kNoFaction;
    o.loser = static_cast<uint8_t>(fa[w >= 0 ? 1 - w : 1]);
    o.total2[0] = t2w, o.total2[1] = t2l;
    c.notes->battles.push_back(o);
  };
  const BattlePlanState p[2] = {b.plan[0], b.plan[1]};
  const bool called[2] = {has_bit(b.traitor_calls, b.aggressor), has_bit(b.traitor_calls, b.defender)};
  for (int i = 0; i < 2; ++i)  // a revealed traitor card is no longer unused (the Rihani Decipherer's swap)
    if (called[i]) skills_traitor_revealed(s, p[1 - i].leader);
  // A side's dial in half units, given the spice that backs it (1.13.04.02/.03; 2.04.21; ruling spice_dialing_elite).
  auto dial2_of = [&](int i, int paid) {
    return s.advanced && !battle_hardened(s, fa[i]) ? p[i].dial + spiced_units(s, fa[i], fa[1 - i], t, b.area, p[i].dial, paid)
                                                    : 2 * p[i].dial;
  };

  if (called[0] && called[1]) {  // 1.07.06.07.03
    note(BattleOutcome::BothTraitors, -1);
    for (int i = 0; i < 2; ++i) {
      pay_dialed_spice(s, fa[i], p[i], false);
      lose_all_in_area(s, fa[i], t, b.area);
      discard_plan(s, p[i]);
      kill_leader(s, p[i].leader);
    }
    raise(s, BattleDecided{-1, p, 0});  // the owners (core/rules/owners.h)
    end_battle(c);
    return;
  }
  if (called[0] || called[1]) {  // 1.07.06.07.01/02
    const int w = called[0] ? 0 : 1, l = 1 - w;
    note(BattleOutcome::Traitor, w);
    const int loser_paid = pay_dialed_spice(s, fa[l], p[l], false);  // 1.13.05: the winner keeps its spice
    raise(s, BattleDecided{w, p, dial2_of(l, loser_paid)});
    lose_all_in_area(s, fa[l], t, b.area);
    discard_plan(s, p[l]);
    const int strength = data::leader(p[l].leader).strength;
    kill_leader(s, p[l].leader);
    if (strength > 0) transfer_spice(s, bank(), shield(fa[w]), strength);
    if (p[w].leader != kNone8) {  // back to the pool, available again this phase
      auto& ld = s.leaders[p[w].leader];
      ld.zone = LeaderZone::Pool;
      ld.aux = kNone8;
      ld.used_in_territory = kNone8;
    }
    const bool survived[2] = {w == 0 && p[0].leader != kNone8, w == 1 && p[1].leader != kNone8};
    skills_battle_resolved(c, w, p, survived, fa, t);  // Smuggler, Sandmaster, Rihani Decipherer (core/cards/leader_skills.cpp)
    winner_cards(c, w);
    return;
  }
  // The weapons that act (a Mirror Weapon as the opponent's: core/cards/battle_cards.cpp).
  BattlePlanState acting[2] = {p[0], p[1]};
  for (int i = 0; i < 2; ++i) acting[i].weapon = acting_weapon(p[i], p[1 - i]);
  for (int i = 0; i < 2; ++i)  // the Diplomat's worthless card counts as the opponent's defense (core/cards/leader_skills.cpp)
    if (uint8_t d = kNone8; diplomat_defense(s, fa[i], p[i], p[1 - i], &d)) acting[i].defense = d;
  const bool lasgun = has_kind(acting[0], TreacheryKind::Lasgun) || has_kind(acting[1], TreacheryKind::Lasgun);
  const bool shield_played = has_kind(p[0], TreacheryKind::Shield) || has_kind(p[1], TreacheryKind::Shield);
  if (lasgun && shield_played) {  // 3.01.14
    note(BattleOutcome::LasgunShield, -1);
    for (int i = 0; i < 2; ++i) pay_dialed_spice(s, fa[i], p[i]);
    raise(s, BattleDecided{-1, p, 0});
    const auto& ter = data::territory(t);
    for (int i = 0; i < ter.num_locations; ++i) {
      const auto loc = static_cast<LocationId>(ter.first_location + i);
      for (int fi = 0; fi < kNumFactions; ++fi) {
        const auto f = static_cast<Faction>(fi);
        if (!s.has(f)) continue;
        const int reg = s.forces_at(f, loc, 0), spec = s.forces_at(f, loc, 1);
        if (reg + spec) forces_to_tanks(s, f, loc, reg, spec);
      }
      if (s.spice_on_board[loc] > 0) transfer_spice(s, board(loc), bank(), s.spice_on_board[loc]);
    }
    for (int i = 0; i < 2; ++i) {
      if (p[i].leader != kNone8) kill_leader(s, p[i].leader);
      ability::lasgun_shield_explosion(s, fa[i], p[i]);  // 2.01.13
      discard_plan(s, p[i]);
    }
    end_battle(c);
    return;
  }

  // The Stone Burner (core/cards/stone_burner.cpp): its owner chooses, then
  // both leaders count 0 and the undialled forces decide; no other weapon or
  // defense acts.
  if (const int sb = stone_burner_side(s); sb >= 0) {
    if (!b.stone_burner) {
      ask_stone_burner(c, seat_of_side(s, sb));
      return;
    }
    int left[2], paid_sb[2];
    for (int i = 0; i < 2; ++i) {
      paid_sb[i] = pay_dialed_spice(s, fa[i], p[i]);
      int forces = 0;
      for_area(t, b.area, [&](LocationId loc) {
        forces += s.forces_at(fa[i], loc, 0);
        if (specials_fight(s, fa[i])) forces += s.forces_at(fa[i], loc, 1);
      });
      const LossSplit dialed = winner_split(s, fa[i], fa[1 - i], t, b.area, p[i]);  // as the winner loses them
      left[i] = forces - dialed.regular - dialed.elite;
    }
    const int tie = tie_side(s);  // ties: the aggressor (the Juice of Sapho, the Habbanya Sietch card)
    const int w = left[tie] >= left[1 - tie] ? tie : 1 - tie, l = 1 - w;
    note(BattleOutcome::Totals, w, 2 * left[w], 2 * left[l]);
    raise(s, BattleDecided{w, p, dial2_of(l, paid_sb[l])});
    int leader_spice = 0;
    for (int i = 0; i < 2; ++i) {
      if (p[i].leader == kNone8) continue;
      if (b.stone_burner == 2) {
        leader_spice += data::leader(p[i].leader).strength;  // 1.07.06.03: the winner is paid for killed leaders
        kill_leader(s, p[i].leader);
      } else {
        leader_survives(s, p[i].leader, t);
      }
    }
    if (leader_spice > 0) transfer_spice(s, bank(), shield(fa[w]), leader_spice);
    const bool survived[2] = {p[0].leader != kNone8 && b.stone_burner != 2, p[1].leader != kNone8 && b.stone_burner != 2};
    skills_battle_resolved(c, w, p, survived, fa, t);  // Smuggler, Sandmaster, Rihani Decipherer (core/cards/leader_skills.cpp)
    lose_all_in_area(s, fa[l], t, b.area);
    discard_plan(s, p[l]);
    winner_losses(s, fa[w], fa[l], t, b.area, p[w], b.stone_burner == 2);
    winner_cards(c, w);
    return;
  }

  // 1.07.06.02 weapons.
  const bool snooper[2] = {defense_counts_as_snooper(s, fa[0], p[0]), defense_counts_as_snooper(s, fa[1], p[1])};  // Carthag: the cards played
  const bool killed[2] = {weapon_kills(s, acting[1], acting[0], snooper[0]), weapon_kills(s, acting[0], acting[1], snooper[1])};
  // 1.07.06 totals in half units (1.13.04.03).
  int total[2], dials2[2];
  for (int i = 0; i < 2; ++i) {
    int boost = 0;
    const int paid = pay_dialed_spice(s, fa[i], p[i], true, &boost);
    dials2[i] = dial2_of(i, paid);  // 1.13.04.02, 2.04.21; ruling spice_dialing_elite
    total[i] = dials2[i];
    if (p[i].leader != kNone8 && !killed[i]) total[i] += 2 * data::leader(p[i].leader).strength;
    total[i] += ability::kwisatz_haderach_bonus2(fa[i], p[i], killed[i]);  // 2.01.11
    BattlePlanState paid_plan = p[i];
    paid_plan.skill_spice = static_cast<uint8_t>(boost);  // the Spice Banker adds what was paid
    total[i] += 2 * skills_bonus(s, fa[i], paid_plan, killed[i]);  // Leader Skills (core/cards/leader_skills.cpp)
  }
  for (int i = 0; i < 2; ++i)  // the Bureaucrat: the opponent less 1 per stronghold it occupies
    total[1 - i] = std::max(0, total[1 - i] - 2 * skills_penalty(s, p[i], killed[i], fa[1 - i]));
  const int tie = tie_side(s);  // 1.07.06.01 ties: the aggressor (the Juice of Sapho, the Habbanya Sietch card)
  const int w = total[tie] >= total[1 - tie] ? tie : 1 - tie, l = 1 - w;
  note(BattleOutcome::Totals, w, total[w], total[l]);
  raise(s, BattleDecided{w, p, dials2[l]});  // the owners (core/rules/owners.h)

  // 1.07.06.03 killed leaders; 1.07.06.04 survivors.
  int leader_spice = 0;
  for (int i = 0; i < 2; ++i) {
    if (p[i].leader == kNone8) continue;
    if (killed[i]) {
      leader_spice += data::leader(p[i].leader).strength;
      kill_leader(s, p[i].leader);
    } else {
      leader_survives(s, p[i].leader, t);
    }
  }
  if (leader_spice > 0) transfer_spice(s, bank(), shield(fa[w]), leader_spice);
  const bool survived[2] = {p[0].leader != kNone8 && !killed[0], p[1].leader != kNone8 && !killed[1]};
  skills_battle_resolved(c, w, p, survived, fa, t);  // Smuggler, Sandmaster, Rihani Decipherer (core/cards/leader_skills.cpp)

  // 1.07.06.05 the loser (a surviving Diplomat may retreat some first: step kDiplomatRetreat,
  // core/cards/leader_skills.cpp); 1.07.06.06 the winner (a Suk Graduate saves some).
  b.winner = static_cast<uint8_t>(w + 1);
  if (skills_diplomat_retreat_offered(s, l, p[l], killed[l], killed[w])) return;
  losses(c, killed[w]);
}

// 1.07.05: both plans are in.
void reveal(Ctx& c) {
  auto& s = c.s;
  auto& b = s.battle;
  for (int i = 0; i < 2; ++i) {
    auto& p = b.plan[i];
    auto& hand = s.of(faction_of_side(s, i)).hand;
    for (uint8_t* card : {&p.cheap_hero, &p.weapon, &p.defense}) {
      if (*card == kNone8) continue;
      if (hand.remove(*card)) b.wheels.push(*card);
      else *card = kNone8;  // no longer in the hand: not played
    }
  }
  for (int i = 0; i < 2; ++i)  // a token in the battle becomes forces (the Richese No-Field)
    if (const auto h = faction_rules(faction_of_side(s, i)).force_token.plans_revealed) h(c);
  s.last_wheels[0] = static_cast<uint8_t>(b.aggressor);  // 1.01.02
  s.last_wheels[1] = static_cast<uint8_t>(b.defender);
  s.step = kTraitors;
  s.waiting = ability::traitor_askers(s) | snooper_askers(s);  // 1.07.06.07; 2.01.12, 2.05.09; Portable Snooper
  if (!s.waiting) resolve(c);
}

// ---- flow -------------------------------------------------------------------------------

// 3.01.11.02 (cards.cpp): a prevented 2.03.08 / 2.04.18 / 2.04.21 is used up
// by the faction's next battle where it would count (elite forces in the
// battle; for 2.04.21 any Fremen battle, advanced): for that whole battle
// the elites count as one force (dial and losses) and the Fremen may, and
// must, support their dial with spice like anyone (1.13.04).
// The faction of `side`: its preventions that this battle uses up.
void prevent_in_battle(GameState& s, int side) {
  auto& b = s.battle;
  const Faction me = faction_of_side(s, side), opp = faction_of_side(s, 1 - side);
  const Ability elite = faction_rules(me).elite_ability;
  const bool counts = elite_worth(s, me, opp) == 2 && elites_in_area(s, me, b.territory, b.area) > 0;
  if (elite != Ability::None && (counts || prevention_at_next_occasion(s)) && ability_cancelled(s, me, elite)) {
    b.karama_elite_off = static_cast<FactionMask>(b.karama_elite_off | faction_bit(me));
    consume_prevention(s, me, elite);
  }
  if (const Ability hard = faction_rules(me).battle_hardened; hard != Ability::None && ability_cancelled(s, me, hard)) {
    b.karama_hardened_off = 1;
    consume_prevention(s, me, hard);
  }
}

void karama_prevented_battle(GameState& s) {
  auto& b = s.battle;
  b.karama_elite_off = b.karama_hardened_off = 0;
  if (!s.advanced) return;
  for (int side = 0; side < 2; ++side) prevent_in_battle(s, side);
}

void start_battle(Ctx& c, Seat aggressor, const Option& o) {
  auto& s = c.s;
  auto& b = s.battle;
  b.territory = o.territory;
  b.aggressor = aggressor;
  b.defender = s.seat_of(o.opponent);
  b.area = battle_area(s, s.faction_at(aggressor), o.opponent, o.territory);
  b.plans_in = 0;
  b.traitor_calls = 0;
  b.plan[0] = b.plan[1] = BattlePlanState{};
  b.karama_seen = 0;  // 1.14.01 (cards.cpp)
  if (s.modules != 0 && b.fought < 255) ++b.fought;  // for the Juice of Sapho (core/cards/juice_of_sapho.cpp)
  karama_prevented_battle(s);
  ability::open_battle(c);  // 2.01.08 Prescience, 2.02.06 Voice, then kPlans
}

}  // namespace

// 3.01.11.02 KARAMA: prevent a player from using one of their faction's ✷
// abilities (before it is used). Ruling karama_battle_prevention =
// current_battle: a prevention of the faction's battle abilities that apply by
// themselves (2.03.08, 2.04.18, 2.04.21), played while the faction fights a
// battle, before its battle plan is in and before a Prescience answer commits
// its dial, applies to that battle as if played before it began (the dial it
// may make is then counted without it);
// next_battle (the engine before rules version 7): it waits for the next battle.
void battle_prevention_played(GameState& s, Faction target) {
  constexpr uint8_t kNextBattle = 1;  // RulingId::KaramaBattlePrevention
  if (s.rulings.is(RulingId::KaramaBattlePrevention, kNextBattle) || !s.advanced) return;
  const auto& b = s.battle;
  if (s.phase != Phase::Battle || s.step == kChoose || b.aggressor < 0 || b.defender < 0 || b.winner) return;
  for (int side = 0; side < 2; ++side) {
    const Seat seat = seat_of_side(s, side);
    // A dial already committed (a Prescience answer, 2.01.08) was made under the ability: the battle keeps it.
    if (faction_of_side(s, side) == target && !has_bit(b.plans_in, seat) && !battle_plan_binding(s, seat).dial) prevent_in_battle(s, side);
  }
}

namespace {

void finish(Ctx& c) {  // 1.07.07
  auto& s = c.s;
  for (auto& l : s.leaders) {
    if (l.zone == LeaderZone::Battlefield) {
      l.zone = LeaderZone::Pool;
      l.aux = kNone8;
    }
    l.used_in_territory = kNone8;
  }
  clear_battle_scratch(s);
  enter_phase(c, Phase::SpiceCollection);
}

// A single battle begins at once, unless a Juice of Sapho may still make
// another aggressor go first (juice_may_go_first, from public facts): then
// the first aggressor confirms it with ChooseBattle, and the others may play
// the card meanwhile.
bool confirm_first_battle(const GameState& s, Seat x) {
  if (!juice_may_go_first(s)) return false;
  for (Seat o = 0; o < s.num_seats; ++o)
    if (o != x && s.of(s.faction_at(o)).hand.n > 0 && !battles_of(s, o).empty()) return true;
  return false;
}

void next_battle(Ctx& c) {
  auto& s = c.s;
  auto& b = s.battle;
  const auto order = order_from_first(s);
  while (b.aggressor_index < order.size()) {
    const Seat x = order[b.aggressor_index];
    const auto opts = battles_of(s, x);
    if (opts.empty()) {
      ++b.aggressor_index;
      b.finish_in = kNone8;
      continue;
    }
    if (opts.size() == 1 && !confirm_first_battle(s, x)) {
      start_battle(c, x, opts[0]);
      return;
    }
    b.aggressor = x;
    s.step = kChoose;
    s.waiting = bit(x);
    return;
  }
  finish(c);
}

// ---- phase interface ------------------------------------------------------------------

void enter(Ctx& c) {
  auto& s = c.s;
  clear_battle_scratch(s);
  for (auto& l : s.leaders) l.used_in_territory = kNone8;
  raise(s, PhaseBegins{Phase::Battle});  // the owners' phase start (core/rules/owners.h)
  s.step = kChoose;
  s.waiting = 0;
  next_battle(c);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (ability::owns_step(s.step)) return ability::validate(s, seat, a);
  const auto& b = s.battle;
  switch (s.step) {
    case kChoose: {
      if (a.kind() != ActionKind::ChooseBattle)
        return reject(RejectCode::WrongPhase, "the aggressor is choosing the next battle: the phase takes ChooseBattle now");
      if (!has_bit(s.waiting, seat))
        return reject(RejectCode::NotYourDecision,
                      std::string(faction_name(s.faction_at(b.aggressor))) + " is the aggressor and chooses the next battle (1.07.02)");
      const auto& choice = a.as<action::ChooseBattle>();
      if (choice.territory >= data::kNumTerritories) return reject(RejectCode::Malformed, "unknown territory id " + std::to_string(choice.territory));
      if (choice.opponent >= kNumFactions || !s.has(static_cast<Faction>(choice.opponent)))
        return reject(RejectCode::Malformed, "the opponent is not a faction in this game");
      if (!battle_area(s, s.faction_at(seat), static_cast<Faction>(choice.opponent), choice.territory))
        return reject(RejectCode::IllegalChoice, "you have no battle against " +
                                                     std::string(faction_name(static_cast<Faction>(choice.opponent))) + " in " +
                                                     territory_name(choice.territory) + " (1.07.01)");
      if (s.rulings.is(RulingId::AggressorOrder, 1)) {  // finish_territory: only the listed battles
        bool listed = false;
        for (const auto& o : battles_of(s, seat))
          listed = listed || (o.territory == choice.territory && o.opponent == static_cast<Faction>(choice.opponent));
        if (!listed)
          return reject(RejectCode::IllegalChoice, "finish your battles in " + territory_name(s.battle.finish_in) +
                                                       " before fighting elsewhere (1.07.03)");
      }
      return std::nullopt;
    }
    case kPlans: {
      if (a.kind() != ActionKind::BattlePlan && a.kind() != ActionKind::SkillBehind)
        return reject(RejectCode::WrongPhase, "battle plans are being made: the phase takes BattlePlan now");
      if (seat != b.aggressor && seat != b.defender)
        return reject(RejectCode::NotYourDecision, "you are not in the battle in " + territory_name(b.territory));
      if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "your battle plan is already in");
      if (const auto* behind = a.get_if<action::SkillBehind>()) return skills_check_behind(s, s.faction_at(seat), *behind);  // Leader Skills
      return check_plan(s, seat, a.as<action::BattlePlan>());
    }
    case kKeep: {
      if (a.kind() != ActionKind::KeepCards && a.kind() != ActionKind::Pass)
        return reject(RejectCode::WrongPhase, "the battle's winner decides which cards to keep: the phase takes KeepCards (or Pass, keeping all it may) now");
      if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "only the battle's winner keeps or discards its cards (1.07.06.06)");
      if (a.kind() == ActionKind::Pass) return std::nullopt;
      const auto& keep = a.as<action::KeepCards>().keep;
      for (int i = 0; i < keep.size(); ++i) {
        for (int j = 0; j < i; ++j)
          if (keep[j] == keep[i]) return reject(RejectCode::Malformed, "a card is named twice");
        if (auto why = must_discard(s, keep[i]))
          return reject(RejectCode::IllegalChoice,
                        (keep[i] < data::kNumAllTreacheryCards ? std::string(data::treachery_card(keep[i]).name) : std::string("that card")) +
                            " cannot be kept: " + *why);
      }
      return std::nullopt;
    }
    case kTraitors: {
      if (a.kind() != ActionKind::CallTraitor && a.kind() != ActionKind::Pass)
        return reject(RejectCode::WrongPhase, "the battle plans are revealed: the phase takes CallTraitor (or Pass) now");
      if (!has_bit(s.waiting, seat)) {
        if (seat == b.aggressor || seat == b.defender)
          return reject(RejectCode::NotYourDecision, "there is no traitor call for you to make in this battle");
        return reject(RejectCode::NotYourDecision, "you are not in the battle in " + territory_name(b.territory));
      }
      if (a.kind() == ActionKind::CallTraitor && a.as<action::CallTraitor>().call && !can_call_traitor(s, seat))
        return reject(RejectCode::IllegalChoice, "you hold no traitor card for " +
                                                     leader_name(b.plan[1 - side_of(s, seat)].leader) + " (1.07.06.07)");
      return std::nullopt;
    }
  }
  return reject(RejectCode::WrongPhase, "nothing is decided in this step");
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  auto& b = s.battle;
  if (ability::owns_step(s.step)) return ability::apply(c, seat, a);
  switch (s.step) {
    case kChoose:
      start_battle(c, seat, Option{a.as<action::ChooseBattle>().territory, static_cast<Faction>(a.as<action::ChooseBattle>().opponent)});
      return;
    case kPlans: {
      if (const auto* behind = a.get_if<action::SkillBehind>()) {  // Leader Skills: the plan is still to come
        skills_apply_behind(s, s.faction_at(seat), *behind);
        return;
      }
      auto& p = b.plan[side_of(s, seat)];
      const auto& plan = a.as<action::BattlePlan>();
      // 3.01.11.01 (ruling karama_windows = all_other_seats): the Kwisatz Haderach's use is announced as
      // the plan is submitted, and a Karama may cancel it (cards.cpp); cancelled, the Atreides plan again without it.
      if (plan.kwisatz_haderach && karama_window(c, seat, Ability::KwisatzHaderach, a)) return;
      p.leader = plan.leader;
      p.cheap_hero = plan.cheap_hero;
      p.weapon = plan.weapon;
      p.defense = plan.defense;
      p.dial = plan.dial;
      p.spice = plan.spice;
      p.kwisatz_haderach = plan.kwisatz_haderach ? 1 : 0;
      p.ally_pays = plan.ally_pays;
      p.skill_spice = plan.skill_spice;  // Spice Banker
      if (const auto h = faction_rules(s.faction_at(seat)).plan_submitted) h(s);  // 3.01.11.02
      b.plans_in |= bit(seat);
      s.waiting &= static_cast<uint8_t>(~bit(seat));
      if (!s.waiting) reveal(c);
      return;
    }
    case kKeep: {
      const Faction me = s.faction_at(seat);
      if (a.kind() == ActionKind::Pass) {
        for (uint8_t card : keepable(s)) keep_from_wheels(s, me, card);
      } else {
        for (uint8_t card : a.as<action::KeepCards>().keep) keep_from_wheels(s, me, card);
      }
      end_battle(c);  // the rest is discarded
      return;
    }
    case kTraitors:
      // 2.05.09: the Harkonnen's call in their ally's battle counts as the ally's.
      if (a.kind() == ActionKind::CallTraitor && a.as<action::CallTraitor>().call) b.traitor_calls |= bit(seat_of_side(s, side_of(s, seat)));
      s.waiting &= static_cast<uint8_t>(~bit(seat));
      if (!s.waiting) resolve(c);
      return;
  }
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (ability::owns_step(s.step)) return ability::decisions(s, seat, out);
  const auto& b = s.battle;
  const Faction me = s.faction_at(seat);
  switch (s.step) {
    case kChoose: {
      Decision d{ActionKind::ChooseBattle,
                 "Choose your next battle as the aggressor: a territory and an opponent there (1.07.02)", 0, 0, {}};
      for (const auto& o : battles_of(s, seat))
        d.options.push_back(static_cast<uint16_t>(o.territory | (static_cast<int>(o.opponent) << 8)));
      out.push_back(std::move(d));
      return;
    }
    case kPlans: {
      const Faction opp = faction_of_side(s, 1 - side_of(s, seat));
      const int max = max_dial(s, me, opp, b.territory, b.area);
      Decision d{ActionKind::BattlePlan,
                 "Battle plan in " + territory_name(b.territory) + " against " + std::string(faction_name(opp)) +
                     ": dial a number from 0 to " + std::to_string(max) + ", play a leader or a Cheap Hero" +
                     " and, if you like, a weapon and a defense (1.07.04)" +
                     (s.advanced && !battle_hardened(s, me) ? "; back your dial with up to as much spice (1.13.04)" : "") +
                     (s.advanced && !battle_hardened(s, me) && ally_battle_support(s, me) > 0
                          ? "; your ally may pay up to " + std::to_string(ally_battle_support(s, me)) + " of that spice"
                          : ""),
                 0, max, {}};
      for (uint8_t id : available_leaders(s, me, b.territory)) d.options.push_back(id);
      for (uint8_t card : cheap_heroes_in_hand(s, me)) d.options.push_back(static_cast<uint16_t>(kCheapHeroOption + card));
      ability::narrow_plan_decision(s, seat, d);
      out.push_back(std::move(d));
      skills_behind_decisions(s, me, out);  // Leader Skills: the bluff
      return;
    }
    case kKeep: {
      Decision d{ActionKind::KeepCards, "You won: keep any of these cards; the others are discarded (1.07.06.06)", 0, 0, {}};
      for (uint8_t card : keepable(s)) d.options.push_back(card);
      d.max = static_cast<int>(d.options.size());
      out.push_back(std::move(d));
      out.push_back(Decision{ActionKind::Pass, "Keep every card you may keep", 0, 0, {}});
      return;
    }
    case kTraitors: {
      const auto& opp_plan = b.plan[1 - side_of(s, seat)];
      const bool can = can_call_traitor(s, seat);
      if (opp_plan.leader == kNone8) {  // asked for a Portable Snooper only (core/cards/battle_cards.cpp)
        out.push_back(Decision{ActionKind::CallTraitor, "The plans are revealed: go on", 0, 0, {}});
        return;
      }
      out.push_back(Decision{ActionKind::CallTraitor,
                             "Your opponent revealed " + leader_name(opp_plan.leader) +
                                 (can ? ": you hold that traitor. Call traitor (1.07.06.07) or decline"
                                      : ": go on without calling a traitor"),
                             0, can ? 1 : 0, {}});
      return;
    }
  }
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (ability::owns_step(s.step)) return ability::legal(s, seat, out);
  const auto& b = s.battle;
  const Faction me = s.faction_at(seat);
  switch (s.step) {
    case kChoose:
      for (const auto& o : battles_of(s, seat)) {
        action::ChooseBattle a;
        a.territory = o.territory;
        a.opponent = static_cast<uint8_t>(o.opponent);
        out.push_back(a);
      }
      return;
    case kPlans: {
      const size_t first = out.size();
      const Faction opp = faction_of_side(s, 1 - side_of(s, seat));
      const int max = max_dial(s, me, opp, b.territory, b.area);
      std::vector<std::pair<uint8_t, uint8_t>> leads;  // (leader, cheap hero)
      for (uint8_t id : available_leaders(s, me, b.territory)) leads.push_back({id, kNone8});
      const auto heroes = cheap_heroes_in_hand(s, me);
      if (!heroes.empty()) leads.push_back({kNone8, heroes.front()});
      if (leads.empty()) leads.push_back({kNone8, kNone8});
      std::vector<uint8_t> weapons, defenses;
      const auto& hand = s.of(me).hand;
      for (int i = 0; i < hand.n; ++i) {
        if (fits_weapon_slot(hand.ids[i])) weapons.push_back(hand.ids[i]);
        if (fits_defense_slot(hand.ids[i])) defenses.push_back(hand.ids[i]);
      }
      const bool spiced = s.advanced && !battle_hardened(s, me);
      const int support = spiced ? ally_battle_support(s, me) : 0;  // CHOAM's alliance ability
      auto add = [&](uint8_t leader, uint8_t hero, int dial, uint8_t w, uint8_t d, int boost = 0) {
        action::BattlePlan a;
        a.leader = leader;
        a.cheap_hero = hero;
        a.weapon = w;
        a.defense = d;
        a.dial = static_cast<uint8_t>(dial);
        a.spice = 0;
        a.skill_spice = static_cast<uint8_t>(boost);
        out.push_back(a);
        // The Arrakeen stronghold card's 2 from the bank count (core/cards/stronghold_cards.cpp).
        const int full = std::min<int>(dial_tokens(s, me, opp, b.territory, b.area, dial), s.of(me).spice + stronghold_battle_discount(s, me));
        if (spiced && full > 0) {
          a.spice = static_cast<uint8_t>(full);
          out.push_back(a);
        }
        const int with = std::min<int>(dial_tokens(s, me, opp, b.territory, b.area, dial), s.of(me).spice + support);
        if (support > 0 && with > 0) {  // the ally's spice first
          a.spice = static_cast<uint8_t>(with);
          a.ally_pays = static_cast<uint8_t>(std::min(with, support));
          out.push_back(a);
        }
      };
      for (const auto& [leader, hero] : leads) {
        add(leader, hero, 0, kNone8, kNone8);
        if (max > 0) add(leader, hero, max, kNone8, kNone8);
        if (leader == kNone8 && hero == kNone8) continue;  // 1.07.04.06
        for (uint8_t w : weapons) add(leader, hero, max, w, kNone8);
        for (uint8_t d : defenses) add(leader, hero, max, kNone8, d);
        // One plan with both a weapon and a defense per lead keeps the list small.
        bool both = false;
        for (uint8_t w : weapons)
          for (uint8_t d : defenses)
            if (!both && w != d) {
              add(leader, hero, max, w, d);
              both = true;
            }
      }
      // Leader Skills (core/cards/leader_skills.cpp): the Planetologist's green
      // Special in the weapon slot, the Spice Banker's boost of 1 to 3.
      for (const auto& [leader, hero] : leads) {
        if (leader == kNone8) continue;
        for (int i = 0; i < hand.n; ++i) {
          const uint8_t special = hand.ids[i];
          if (!planetologist_special(s, leader, special)) continue;
          add(leader, hero, max, special, kNone8);
          for (uint8_t d : defenses)
            if (d != special) {
              add(leader, hero, max, special, d);
              break;
            }
        }
        if (skilled_as(s, leader, data::LeaderSkill::SpiceBanker))
          for (int boost = 1; boost <= 3; ++boost) {
            add(leader, hero, 0, kNone8, kNone8, boost);
            if (max > 0) add(leader, hero, max, weapons.empty() ? kNone8 : weapons.front(), defenses.empty() ? kNone8 : defenses.back(), boost);
          }
      }
      // The abilities bind plans (Prescience, Voice) and add the Kwisatz
      // Haderach: add their candidates, keep what the plan check accepts, once.
      ability::plan_candidates(s, seat, out);
      std::vector<Action> kept;
      for (size_t i = first; i < out.size(); ++i)
        if (!check_plan(s, seat, out[i].as<action::BattlePlan>()) && std::find(kept.begin(), kept.end(), out[i]) == kept.end()) kept.push_back(out[i]);
      out.resize(first);
      out.insert(out.end(), kept.begin(), kept.end());
      skills_behind_legal(s, me, out);  // Leader Skills: the bluff
      return;
    }
    case kKeep: {
      const auto cards = keepable(s);  // at most 3: every subset
      for (unsigned mask = 0; mask < (1u << cards.size()); ++mask) {
        action::KeepCards a;
        for (size_t i = 0; i < cards.size(); ++i)
          if ((mask >> i) & 1u) a.keep.push_back(cards[i]);
        out.push_back(a);
      }
      return;
    }
    case kTraitors: {
      action::CallTraitor a;
      a.call = false;
      out.push_back(a);
      if (can_call_traitor(s, seat)) {
        a.call = true;
        out.push_back(a);
      }
      return;
    }
  }
}

}  // namespace

void battle_order_changed(Ctx& c, bool from_start) {
  // go_first: no battle has begun, the seats before the old index had none; go_last by the seat choosing its battle:
  // the seats before it keep their places, the next one takes its turn.
  if (from_start) c.s.battle.aggressor_index = 0;
  c.s.step = kChoose;
  c.s.waiting = 0;
  next_battle(c);
}

bool battle_plans_revealed(const GameState& s) {
  return s.phase == Phase::Battle &&
         (s.step == kTraitors || s.step == ability::kCapture || s.step == kKeep || s.step == ability::kAudit ||
          s.step == ability::kDecipher || s.step == ability::kDiplomatRetreat);
}

// ---- for core/rules/battle_abilities.cpp ----
int battle_side_of(const GameState& s, Seat seat) { return side_of(s, seat); }
std::vector<uint8_t> battle_available_leaders(const GameState& s, Faction me, TerritoryId t) {
  return available_leaders(s, me, t);
}
bool battle_leader_available(const GameState& s, Faction me, uint8_t id, TerritoryId t) {
  return leader_available(s, me, id, t);
}
std::vector<uint8_t> battle_cheap_heroes(const GameState& s, Faction me) { return cheap_heroes_in_hand(s, me); }
int battle_max_dial(const GameState& s, Seat seat) {
  const auto& b = s.battle;
  return max_dial(s, s.faction_at(seat), faction_of_side(s, 1 - side_of(s, seat)), b.territory, b.area);
}
bool battle_fits_weapon_slot(uint8_t card) { return fits_weapon_slot(card); }
bool battle_fits_defense_slot(uint8_t card) { return fits_defense_slot(card); }
bool battle_is_cheap_hero(uint8_t card) { return is_cheap_hero(card); }
void battle_end(Ctx& c) { end_battle(c); }
void battle_kill_leader(GameState& s, uint8_t id) { kill_leader(s, id); }
void battle_resolve(Ctx& c) { resolve(c); }
void battle_losses(Ctx& c, bool winner_killed) { losses(c, winner_killed); }

namespace {
// 1.00.05: the battle's ability steps.
const char* ability_in_use(const GameState& s) {
  switch (s.step) {
    case ability::kPrescience:
    case ability::kPrescienceAnswer: return "the Atreides' Prescience (2.01.08)";
    case ability::kVoice: return "the Bene Gesserit's Voice (2.02.06)";
    case ability::kCapture: return "the Harkonnen's capture of a leader (2.05.10)";
    case ability::kMentatQuestion:
    case ability::kMentatAnswer: return "the Mentat's question (Leader Skills)";
    case ability::kDecipher: return "the Rihani Decipherer's traitor swap (Leader Skills)";
    case ability::kDiplomatRetreat: return "the Diplomat's retreat (Leader Skills)";
    default: return nullptr;
  }
}
}  // namespace

const PhaseRules& battle_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal, ability_in_use};
  return r;
}

}  // namespace mentat::rules
