// The bots' policies (bots/brain.h) for the battle itself: the battle the
// aggressor chooses (1.07.01), the battle plan (1.07.04: medium's all-or-
// nothing rule, hard's point estimate of the opponent, brutal's expected
// outcome over the opponent's possible plans, and the exact answer to a plan
// seen by the Atreides' Karama, 1.14.01) and the winner's cards
// (1.07.06.06). What abilities add to a plan (stronghold cards, leader
// skills) is in policy_battle_abilities.cpp. docs/BOTS.md's table gives each
// policy per profile.
#include <algorithm>
#include <cmath>
#include <vector>

#include "bots/brain.h"

namespace mentat::bots::detail {

// ---- battle ----------------------------------------------------------------------------

size_t Brain::choose_battle() {
  if (!hard()) return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::ChooseBattle; }));
  const size_t i = best<action::ChooseBattle>([&](const action::ChooseBattle& a) {
    const auto opp = static_cast<Faction>(a.opponent);
    return static_cast<double>(k_.strength_in(me(), a.territory, opp) - k_.strength_in(opp, a.territory, me()));
  });
  if (i == npos) return fallback();
  // 3.01.11.02: first prevent the opponent's battle ability when that is worth the Karama.
  const auto& battle = legal_[i].as<action::ChooseBattle>();
  if (const size_t p = karama_prevent_battle(static_cast<Faction>(battle.opponent), battle.territory); p != npos) return p;
  return i;
}

std::vector<uint8_t> Brain::opponent_leaders(Faction opp) const {
  std::vector<uint8_t> out;
  for (int l = 0; l < data::kNumLeaders; ++l) {
    const auto& L = k_.leaders[l];
    if (!L.known || L.holder != static_cast<uint8_t>(opp)) continue;
    if (L.zone == LeaderZone::Pool || L.zone == LeaderZone::Battlefield) out.push_back(static_cast<uint8_t>(l));
  }
  return out;
}

double Brain::territory_value(TerritoryId t) const {
  double v = is_stronghold(t) ? 10 + stronghold_card_worth(t) : 2;
  const auto& ter = data::territory(t);
  for (int i = 0; i < ter.num_locations; ++i) v += 0.5 * k_.spice_on_board[ter.first_location + i];
  return v;
}

// Hard: a point estimate of the opponent (all its forces dialed, its
// strongest leader, a weapon when it holds cards).
double Brain::plan_value_simple(const action::BattlePlan& a) const {
  const Faction opp = opponent();
  const TerritoryId t = k_.battle_territory;
  if (t >= data::kNumTerritories) return 0;
  const int my_forces = k_.forces_in_territory(me(), t);
  const int opp_forces = k_.forces_in_territory(opp, t);
  double opp_units = k_.strength_in(opp, t, me());
  if (k_.advanced && opp != Faction::Fremen) opp_units *= 0.75;
  const auto leaders = opponent_leaders(opp);
  double opp_leader = 0;
  int traitors = 0;
  for (auto l : leaders) {
    opp_leader = std::max<double>(opp_leader, data::leader(l).strength + opponent_skill_bonus(opp, l));
    if (std::find(k_.traitors.begin(), k_.traitors.end(), l) != k_.traitors.end()) ++traitors;
  }
  const double p_traitor = leaders.empty() ? 0.0 : static_cast<double>(traitors) / leaders.size();
  const int opp_hand = k_.fac[static_cast<int>(opp)].hand_count;
  const double p_weapon = std::min(0.85, 0.3 * opp_hand);

  double mine = (k_.advanced && me() != Faction::Fremen && a.spice == 0) ? a.dial * 0.5 : a.dial;
  double leader = leader_strength(a);
  if (a.kwisatz_haderach) leader += 2;  // the Kwisatz Haderach
  const bool weapon = a.weapon != kNone8 && is_real_weapon(a.weapon);
  const bool defense = a.defense != kNone8 && is_real_defense(a.defense);
  // Carthag's card: a defense that also stops poison stops most weapons.
  const double p_my_leader_dies = (a.leader < data::kNumLeaders) ? p_weapon * (defense ? (defense_stops_poison(a) ? 0.15 : 0.45) : 1.0) : 0.0;
  // A Mirror Weapon kills only when the opponent plays a weapon.
  const double p_opp_leader_dies = weapon ? 0.6 : is_mirror(a.weapon) ? 0.6 * p_weapon : 0.0;
  const double my_total = mine + leader * (1 - p_my_leader_dies) - bureaucrat_penalty(opp);
  const double opp_total = opp_units + opp_leader * (1 - p_opp_leader_dies);
  // A tie goes to the aggressor, or to the holder of Habbanya Sietch's card there.
  const int habbanya = battle_card(card_strongholds().habbanya);
  const double margin = my_total - opp_total + (habbanya ? 0.25 * habbanya : my_side() == 0 ? 0.25 : -0.25);
  double p_win = 1.0 / (1.0 + std::exp(-margin * 0.9));
  p_win = p_traitor + (1 - p_traitor) * p_win;
  int cards = (a.weapon != kNone8) + (a.defense != kNone8) + (a.cheap_hero != kNone8);
  int worthless = (a.weapon != kNone8 && is_worthless(a.weapon)) + (a.defense != kNone8 && is_worthless(a.defense));
  // Sietch Tabr's card: the winner collects the opponent's dial (about its strength there, less when it saves forces).
  const double tabr = battle_card(card_strongholds().tabr) == 1 ? 0.5 * opp_units : 0.0;
  const double win = territory_value(t) + 0.5 * opp_forces - 0.6 * a.dial + tabr;
  const double lose = -0.6 * my_forces - 2.0 * (cards - worthless) + 0.5 * worthless;
  const double base = a.leader < data::kNumLeaders ? data::leader(a.leader).strength : 0;  // what its death costs
  return p_win * win + (1 - p_win) * lose - p_my_leader_dies * (base + 1) - own_battle_spice(a);
}

// Brutal: the expected outcome over the opponent's possible plans: each of
// its available leaders, its weapon and defense classes (from the cards this
// seat has not seen), and a full or empty dial.
double Brain::plan_value_expected(const action::BattlePlan& a) const {
  const Faction opp = opponent();
  const TerritoryId t = k_.battle_territory;
  if (t >= data::kNumTerritories) return 0;
  const int my_forces = k_.forces_in_territory(me(), t);
  const int opp_forces = k_.forces_in_territory(opp, t);
  const int opp_max = k_.strength_in(opp, t, me());
  const bool opp_spiced = k_.advanced && opp != Faction::Fremen;
  // Unknown cards by class.
  const auto pool = unknown_pool();
  double wc[4] = {0, 0, 0, 0}, dc[3] = {0, 0, 0};
  int unknown = 0;
  for (size_t c = 0; c < pool.size(); ++c) {
    if (!pool[c]) continue;
    ++unknown;
    wc[weapon_class(category(static_cast<uint8_t>(c)))] += 1;
    dc[defense_class(category(static_cast<uint8_t>(c)))] += 1;
  }
  const int h = k_.fac[static_cast<int>(opp)].hand_count;
  auto p_any = [&](double count) { return unknown ? 1.0 - std::pow(1.0 - count / unknown, h) : 0.0; };
  const double pw_any = p_any(wc[1] + wc[2] + wc[3]);
  const double pd_any = p_any(dc[1] + dc[2]);
  double pw[4], pd[3];
  const double wsum = std::max(1.0, wc[1] + wc[2] + wc[3]), dsum = std::max(1.0, dc[1] + dc[2]);
  pw[0] = 1 - pw_any;
  for (int i = 1; i < 4; ++i) pw[i] = pw_any * wc[i] / wsum;
  pd[0] = 1 - pd_any;
  for (int i = 1; i < 3; ++i) pd[i] = pd_any * dc[i] / dsum;

  // A card known to be in the opponent's hand raises its class's weight to 0.6.
  auto held = [](double* p, int n, int c) {
    if (c <= 0 || p[c] >= 0.6) return;
    const double rest = 1.0 - p[c];
    for (int i = 0; i < n; ++i) p[i] = i == c ? 0.6 : (rest > 0 ? p[i] * 0.4 / rest : 0.0);
  };
  // The Mentat's question: the opponent showed the weapon asked about, so it holds one.
  if (k_.mentat_answered && k_.mentat_asker == me() && k_.mentat_shown < data::kNumAllTreacheryCards &&
      k_.mentat_weapon < data::kNumAllTreacheryCards && kind(k_.mentat_shown) == kind(k_.mentat_weapon))
    held(pw, 4, weapon_class(category(k_.mentat_shown)));
  // CHOAM's Auditor saw these cards in this opponent's hand: still there unless discarded since.
  if (me() == Faction::Choam && k_.choam_audit_of == static_cast<uint8_t>(opp))
    for (const uint8_t c : k_.choam_audit_cards)
      if (c < data::kNumAllTreacheryCards && std::find(k_.discard.begin(), k_.discard.end(), c) == k_.discard.end()) {
        held(pw, 4, weapon_class(category(c)));
        held(pd, 3, defense_class(category(c)));
      }
  auto leaders = opponent_leaders(opp);
  if (leaders.empty()) leaders.push_back(kNone8);
  // 2.01.08 Prescience: the opponent's committed answer, when this seat asked for it.
  int known_dial = -1;
  const bool asked = me() == Faction::Atreides || k_.is_ally(Faction::Atreides);
  if (asked && k_.prescience_element >= 0 && k_.prescience_value >= 0) {
    const int v = k_.prescience_value;
    switch (k_.prescience_element) {
      case 0: leaders.assign(1, v < data::kNumLeaders ? static_cast<uint8_t>(v) : kNone8); break;
      case 1: {
        const int c = v < data::kNumAllTreacheryCards ? weapon_class(category(static_cast<uint8_t>(v))) : 0;
        for (int i = 0; i < 4; ++i) pw[i] = i == c ? 1.0 : 0.0;
        break;
      }
      case 2: {
        const int c = v < data::kNumAllTreacheryCards ? defense_class(category(static_cast<uint8_t>(v))) : 0;
        for (int i = 0; i < 3; ++i) pd[i] = i == c ? 1.0 : 0.0;
        break;
      }
      case 3: known_dial = v; break;
    }
  }

  const int my_w_card = a.weapon != kNone8 ? weapon_class(category(a.weapon)) : 0;
  const int my_d = a.defense != kNone8 ? defense_class(category(a.defense)) : 0;
  const bool my_leader = a.leader < data::kNumLeaders;
  const double my_str = my_leader ? leader_strength(a) : 0;
  const int my_base = my_leader ? data::leader(a.leader).strength : 0;  // what its death costs
  const int kh = a.kwisatz_haderach ? 2 : 0;
  const double my_units2 = (k_.advanced && me() != Faction::Fremen && a.spice == 0) ? a.dial : 2.0 * a.dial;
  const int cards = (a.weapon != kNone8) + (a.defense != kNone8) + (a.cheap_hero != kNone8);
  const int worthless = (a.weapon != kNone8 && is_worthless(a.weapon)) + (a.defense != kNone8 && is_worthless(a.defense));
  const double tv = territory_value(t);
  const bool aggressor = my_side() == 0;
  const bool lasgun_shield_me = my_w_card == 3 || my_d == 1;
  const int habbanya = battle_card(card_strongholds().habbanya);   // a tie goes to its holder there
  const bool tie_mine = habbanya ? habbanya == 1 : aggressor;
  const bool tabr = battle_card(card_strongholds().tabr) == 1;     // the winner collects the opponent's dial
  const bool carthag = defense_stops_poison(a);          // the defense also stops poison

  double ev = 0;
  for (auto ol : leaders) {
    const double pl = 1.0 / leaders.size();
    const bool traitor = ol != kNone8 && std::find(k_.traitors.begin(), k_.traitors.end(), ol) != k_.traitors.end();
    if (traitor) {
      ev += pl * (tv + 0.6 * opp_forces + (ol != kNone8 ? data::leader(ol).strength : 0));
      continue;
    }
    const int o_str = ol != kNone8 ? data::leader(ol).strength : 0;
    const double o_skill = ol != kNone8 ? opponent_skill_bonus(opp, ol) : 0.0;  // Leader Skills (its view)
    const double bureau2 = ol != kNone8 ? 2.0 * bureaucrat_penalty(opp, ol) : 0.0;
    for (int w = 0; w < 4; ++w)
      for (int d = 0; d < 3; ++d)
        for (int full = 0; full < 2; ++full) {
          const double p_dial = known_dial >= 0 ? (full ? 1.0 : 0.0) : (full ? 0.7 : 0.3);
          const double p = pl * pw[w] * pd[d] * p_dial;
          if (p < 1e-6) continue;
          double v;
          const int my_w = is_mirror(a.weapon) ? w : my_w_card;  // a Mirror Weapon copies the opponent's
          // 3.01.14 Lasgun and Shield: everything in the territory is lost.
          if ((w == 3 && my_d == 1) || (my_w == 3 && d == 1) || (w == 3 && lasgun_shield_me && my_w == 3)) {
            v = -0.6 * my_forces + 0.5 * opp_forces - (my_leader ? my_str + 1 : 0) - 2.0 * (cards - worthless);
            ev += p * v;
            continue;
          }
          const bool my_dead = my_leader && kills(w, my_d) && !(carthag && w == 2);
          const bool opp_dead = ol != kNone8 && kills(my_w, d);
          const int dial = known_dial >= 0 ? known_dial : opp_max;
          double opp_units2 = full ? (opp_spiced ? 1.5 * dial : 2.0 * dial) : 0.0;
          const double mine = my_units2 + (my_leader && !my_dead ? 2.0 * (my_str + kh) : 0.0) - bureau2;
          const double theirs = opp_units2 + (ol != kNone8 && !opp_dead ? 2.0 * (o_str + o_skill) : 0.0);
          const bool win = tie_mine ? mine >= theirs : mine > theirs;
          if (win) {
            v = tv + 0.5 * opp_forces - 0.6 * a.dial + (opp_dead ? o_str : 0) + (my_dead ? my_base : 0) + (tabr && full ? dial : 0);
          } else {
            v = -0.6 * my_forces - 2.0 * (cards - worthless) + 0.5 * worthless;
          }
          if (my_dead) v -= my_base + 1;
          ev += p * v;
        }
  }
  return ev - own_battle_spice(a);
}

size_t Brain::battle_plan() {
  if (!hard()) {
    // Medium: commit (best leader, full dial, weapon and defense) when it looks
    // winnable on forces alone, else spend as little as possible.
    const Faction opp = opponent();
    const TerritoryId t = k_.battle_territory;
    const DecisionInfo* d = decision(ActionKind::BattlePlan);
    const int my_max = d ? d->max : 0;
    const int opp_est = t < data::kNumTerritories ? k_.strength_in(opp, t, me()) : 0;
    int best_leader = 0;
    for (const auto& x : legal_)
      if (const auto* a = x.get_if<action::BattlePlan>(); a && a->leader < data::kNumLeaders)
        best_leader = std::max<int>(best_leader, data::leader(a->leader).strength);
    const bool commit = my_max + best_leader >= opp_est + 2;
    return or_fallback(best<action::BattlePlan>([&](const action::BattlePlan& a) {
      const double leader = leader_strength(a);
      const int cards = (a.weapon != kNone8) + (a.defense != kNone8);
      if (commit) return a.dial * 10.0 + leader * 3 + cards * 2 + (a.spice > 0 ? 1 : 0) - (a.kwisatz_haderach ? 0 : 0.5);
      return -a.dial * 10.0 - leader * 3 - cards * 2 - own_battle_spice(a);
    }));
  }
  // 1.14.01: look at the opponent's plan first when it is worth a Karama.
  if (size_t i = atreides_karama(); i != npos) return i;
  // A plan seen before committing one's own (only by 1.14.01): answer it.
  if (const PlanInfo& o = k_.plan[1 - my_side()]; o.known)
    return or_fallback(best<action::BattlePlan>([&](const action::BattlePlan& a) { return plan_value_known(a, o); }));
  if (brutal()) return or_fallback(best<action::BattlePlan>([&](const action::BattlePlan& a) { return plan_value_expected(a); }));
  return or_fallback(best<action::BattlePlan>([&](const action::BattlePlan& a) { return plan_value_simple(a); }));
}

// ---- battle: a plan seen by the Atreides' Karama (1.14.01) ----------------------------

// The outcome of this plan against the opponent's committed plan (hard,
// brutal): the battle resolved as the rules do (weapons, defenses, Lasgun and
// Shield, dialed spice, the aggressor winning ties, a traitor this seat holds).
double Brain::plan_value_known(const action::BattlePlan& a, const PlanInfo& o) const {
  const Faction opp = opponent();
  const TerritoryId t = k_.battle_territory;
  if (t >= data::kNumTerritories) return 0;
  const int my_forces = k_.forces_in_territory(me(), t);
  const int opp_forces = k_.forces_in_territory(opp, t);
  const double tv = territory_value(t);
  const int cards = (a.weapon != kNone8) + (a.defense != kNone8) + (a.cheap_hero != kNone8);
  const int worthless = (a.weapon != kNone8 && is_worthless(a.weapon)) + (a.defense != kNone8 && is_worthless(a.defense));
  const bool my_leader = a.leader < data::kNumLeaders;
  const double my_str = my_leader ? leader_strength(a) : 0;
  // A traitor in the opponent's plan wins outright: spend nothing.
  if (o.leader < data::kNumLeaders && std::find(k_.traitors.begin(), k_.traitors.end(), o.leader) != k_.traitors.end())
    return tv + 0.5 * opp_forces - 0.6 * a.dial - 1.0 * cards - own_battle_spice(a) - 0.1 * my_str;
  const int o_w = o.weapon_card != kNone8 ? weapon_class(category(o.weapon_card)) : 0;
  const int my_w = is_mirror(a.weapon) ? o_w : a.weapon != kNone8 ? weapon_class(category(a.weapon)) : 0;  // a Mirror copies it
  const int my_d = a.defense != kNone8 ? defense_class(category(a.defense)) : 0;
  const int o_d = o.defense_card != kNone8 ? defense_class(category(o.defense_card)) : 0;
  if ((o_w == 3 && my_d == 1) || (my_w == 3 && o_d == 1))  // 3.01.14: everything in the territory is lost
    return -0.6 * my_forces + 0.5 * opp_forces - (my_leader ? my_str + 1 : 0) - 2.0 * (cards - worthless) - own_battle_spice(a);
  const bool o_leader = o.leader < data::kNumLeaders;
  const int o_str = o_leader ? data::leader(o.leader).strength : 0;
  const bool my_dead = my_leader && kills(o_w, my_d);
  const bool opp_dead = o_leader && kills(my_w, o_d);
  auto units = [&](Faction f, int dial, int paid) {
    if (!k_.advanced || f == Faction::Fremen) return static_cast<double>(dial);
    const int full = std::min(dial, paid);
    return full + 0.5 * (dial - full);
  };
  const double mine = units(me(), a.dial, a.spice) + (my_leader && !my_dead ? my_str + (a.kwisatz_haderach ? 2 : 0) : 0);
  // A dial not shown (ruling no_field_prescience): assume the most it may be.
  const int o_dial = o.dial_hidden ? opp_forces : o.dial;
  const double theirs = units(opp, o_dial, o.spice) + (o_leader && !opp_dead ? o_str : 0);
  const bool win = my_side() == 0 ? mine >= theirs : mine > theirs;
  double v;
  if (win)
    v = tv + 0.5 * opp_forces - 0.6 * a.dial + (opp_dead ? o_str : 0) + (my_dead ? my_str : 0);
  else
    v = -0.6 * my_forces - 2.0 * (cards - worthless) + 0.5 * worthless - 0.01 * a.dial;
  if (my_dead) v -= my_str + 1;
  return v - own_battle_spice(a);
}

// ---- battle: the winner's cards (1.07.06.06) ---------------------------------------

// Medium keeps every card but worthless ones (a Bene Gesserit worthless card
// that serves as a Karama is kept). Hard and brutal weigh each card against
// the hand (card_value) and discard a card worth less than 3 when keeping it
// would fill the hand (a free slot buys a card in the next bidding).
size_t Brain::keep_cards() {
  const int limit = hand_limit_of(me());
  auto keep_value = [&](uint8_t c) -> double {
    if (c >= data::kNumAllTreacheryCards) return 0;
    if (karama_like(c)) return karama_keep(c);
    if (is_worthless(c)) return -0.5;
    return hard() ? card_value(c) : 1.0;
  };
  return or_fallback(best<action::KeepCards>([&](const action::KeepCards& a) {
    double v = 0;
    double lowest = 1e9;
    for (int i = 0; i < a.keep.size(); ++i) {
      const double kv = keep_value(a.keep[i]);
      v += kv;
      lowest = std::min(lowest, kv);
    }
    if (hard() && a.keep.size() > 0 && static_cast<int>(k_.hand.size()) + a.keep.size() >= limit && lowest < 3) v -= 3;
    return v;
  }));
}

}  // namespace mentat::bots::detail
