// The bots' policies (bots/brain.h) for the CHOAM & Richese expansion,
// outside the auctions (those are in policy_bidding.cpp): CHOAM's Inflation
// token, sales, worthless-card powers, card trade, battle support, special
// Karama and the Auditor's look; the Richese's No-Field consent to the ally,
// card gift, No-Field reveal and what a No-Field shipment is worth; and the
// Richese cards (core/cards/: Distrans, the Nullentropy Box, the Portable
// Snooper, Residual Poison, the Juice of Sapho, the Semuta Drug).
// docs/BOTS.md, docs/factions/choam.md and docs/factions/richese.md give each
// policy per profile.
#include "bots/brain.h"

namespace mentat::bots::detail {

// ---- CHOAM (CHOAM & Richese; docs/BOTS.md, docs/factions/choam.md) -------------------------------

// The Inflation token (Mentat Pause): medium doubles the next charity (its
// income is 2 a player); hard and brutal double it too unless CHOAM is rich
// enough to deny everyone their charity (Cancel).
size_t Brain::choam_inflation() {
  const int side = hard() && spice() >= 12 ? 2 : 1;
  return or_fallback(find_kind<action::ChoamInflation>([side](const action::ChoamInflation& a) { return a.side == side; }));
}

// Selling: medium sells every card it may (worthless for 2, a copy for 3);
// hard and brutal keep one worthless card to discard in a battle plan while
// the hand is small, and keep the second copy of a defense while poor in cards.
double Brain::sell_value(uint8_t card) const {
  if (card >= data::kNumAllTreacheryCards) return -1.0;
  int worthless = 0;
  for (uint8_t c : k_.hand) worthless += data::treachery_card(c).category == data::TreacheryCategory::Worthless;
  const auto cat = data::treachery_card(card).category;
  const auto kind = data::treachery_card(card).kind;
  // Medium keeps Kulon and La La La for their powers, hard+ every power card while the hand is not full.
  const bool power = kind == data::TreacheryKind::Kulon || kind == data::TreacheryKind::LaLaLa;
  if (cat == data::TreacheryCategory::Worthless && (power || hard()) && static_cast<int>(k_.hand.size()) < 4) return -1.0;
  if (cat == data::TreacheryCategory::Worthless) return hard() && worthless == 1 && k_.hand.size() <= 2 ? -1.0 : 2.0;
  if (hard() && data::is_defense(cat) && k_.hand.size() <= 2) return -1.0;
  return 3.0;
}

size_t Brain::choam_sell() {
  return best<action::ChoamSell>([&](const action::ChoamSell& a) { return sell_value(a.card); }, 0.0);
}

// The end-of-phase sale window (ruling choam_sell_timing = end_of_phase):
// the same choice as choam_sell, one card a Respond; Respond{} ends it.
size_t Brain::choam_sale_window() {
  const size_t i = best<action::Respond>([&](const action::Respond& a) { return a.accept ? sell_value(a.card) : 0.5; });
  return i == npos ? 0 : i;
}

// The worthless-card powers. Medium: La La La on the faction with the largest
// free revival, Kulon whenever it is offered. Hard and brutal: La La La only on
// a faction with forces in the tanks; Kulon when CHOAM has forces on the
// board; Baliset on a stronghold CHOAM holds; Jubba Cloak on its largest
// group in a sand territory; Trip to Gamont on an enemy alone in a stronghold
// with a single force (it frees the stronghold), else on the largest enemy stack.
size_t Brain::choam_card() {
  return best<action::ChoamCard>([&](const action::ChoamCard& a) {
    if (a.card >= data::kNumAllTreacheryCards) return -1.0;
    const auto kind = data::treachery_card(a.card).kind;
    const Faction f = a.faction < kNumFactions ? static_cast<Faction>(a.faction) : me();
    switch (kind) {
      case data::TreacheryKind::LaLaLa: {
        if (a.faction >= kNumFactions || k_.is_ally(f)) return -1.0;
        const int free = data::faction_setup(f).free_revival;
        if (hard() && k_.fac[a.faction].tanks[0] + k_.fac[a.faction].tanks[1] == 0) return -1.0;
        return free > 0 ? 1.0 + free : -1.0;
      }
      case data::TreacheryKind::Kulon: return !hard() || k_.forces_on_board(me()) > 0 ? 1.0 : -1.0;
      case data::TreacheryKind::Baliset:
        if (!hard() || a.location >= data::kNumLocations) return -1.0;
        return data::territory(data::territory_of(a.location)).kind == data::TerritoryKind::Stronghold ? 1.0 : -1.0;
      case data::TreacheryKind::JubbaCloak: {
        if (!hard() || a.location >= data::kNumLocations) return -1.0;
        const TerritoryId t = data::territory_of(a.location);
        if (data::territory(t).storm_protected) return -1.0;
        return 0.5 + k_.forces_in_territory(me(), t);
      }
      case data::TreacheryKind::TripToGamont: {
        if (!hard() || a.location >= data::kNumLocations || f == me() || k_.is_ally(f)) return -1.0;
        const TerritoryId t = data::territory_of(a.location);
        const bool stronghold = data::territory(t).kind == data::TerritoryKind::Stronghold;
        if (stronghold && k_.forces_in_territory(f, t) == 1) return 10.0;
        return 0.5 + 0.1 * k_.forces_in_territory(f, t);
      }
      default: return -1.0;
    }
  }, 0.0);
}

// The card trade. CHOAM offers its least useful card once a turn (not again
// in a turn an offer was declined); hard and brutal only a card worth less
// than an unseen one. The ally answers with its least useful card (medium),
// hard and brutal decline when every card it holds is worth more than an
// unseen card. CHOAM never withdraws.
size_t Brain::choam_trade() {
  if (me() == Faction::Choam) {
    if (k_.choam_trade_open || k_.choam_traded_turn == k_.turn || k_.choam_declined_turn == k_.turn) return npos;
    return best<action::ChoamTrade>([&](const action::ChoamTrade& a) {
      if (a.card >= data::kNumAllTreacheryCards) return -1.0;
      const double v = card_value(a.card);
      if (hard() && v >= unknown_card_value()) return -1.0;
      return 100.0 - v;
    }, 0.0);
  }
  if (!k_.choam_trade_open) return npos;
  size_t i = best<action::ChoamTrade>([&](const action::ChoamTrade& a) {
    if (a.card >= data::kNumAllTreacheryCards) return -1.0;
    const double v = card_value(a.card);
    if (hard() && v > unknown_card_value() + 1) return -1.0;
    return 100.0 - v;
  }, 0.0);
  if (i == npos) i = find_kind<action::ChoamTrade>([](const action::ChoamTrade& a) { return a.card == kNone8; });
  return i;
}

// Paying for the ally's forces in battle (ChoamSupport; only the advanced
// game dials spice): medium lets the ally use up to 3 of its spice above its
// reserve, hard half of it, brutal two thirds; in the basic game nothing.
// Changed when 3 short or 4 too high (or to withdraw it), as AllyPermission.
size_t Brain::choam_support() {
  if (k_.ally() >= kNumFactions) return npos;
  const size_t i = find([](const Action& a) { return a.kind() == ActionKind::ChoamSupport; });
  if (i == npos) return npos;
  const int free = std::max(0, spice() - reserve());
  const int want = !k_.advanced ? 0 : !hard() ? std::min(3, free) : brutal() ? (2 * free) / 3 : free / 2;
  const int cur = k_.choam_support;
  const bool withdraw = want == 0 && cur > 0;
  if (!withdraw && want < cur + 3 && want > cur - 4) return npos;
  amend_ = true;
  amend_amount_ = static_cast<uint16_t>(want);
  amend_amount2_ = 0;
  return i;
}

// The special Karama (once a game, 3 spice a card): medium in the last turn,
// with every other card; hard and brutal in the last turn too, or earlier
// with two or more worthless cards (3 each instead of the 2 a sale brings)
// when the hand is full.
size_t Brain::choam_karama() {
  const bool last = k_.turn >= k_.max_turns;
  const bool full = static_cast<int>(k_.hand.size()) >= hand_limit_of(me());
  return best<action::ChoamKarama>([&](const action::ChoamKarama& a) {
    int worthless = 0;
    for (uint8_t c : a.cards) worthless += c < data::kNumAllTreacheryCards && is_worthless(c);
    if (last) return 1.0 * a.cards.size();
    if (hard() && full && worthless >= 2 && worthless == static_cast<int>(a.cards.size())) return 1.0 * worthless;
    return -1.0;
  }, 0.0);
}

// The Auditor's look: medium lets CHOAM look; hard pays to cancel it when
// its hand holds a real weapon or defense and the spice is above its
// reserve; brutal whenever it can spare the spice above its reserve.
size_t Brain::choam_audit() {
  bool secret = false;
  for (uint8_t c : k_.hand) secret |= c < data::kNumAllTreacheryCards && (is_real_weapon(c) || is_real_defense(c));
  const size_t pay = find_kind<action::Respond>([](const action::Respond& r) { return r.accept; });
  const size_t let = find([](const Action& a) { return a.kind() == ActionKind::Pass; });
  const bool spare = spice() - 2 >= reserve();
  if (pay != npos && hard() && spare && (secret || brutal())) return pay;
  return let != npos ? let : or_fallback(npos);
}

// ---- Richese (CHOAM & Richese; docs/BOTS.md, docs/factions/richese.md) ----------------

// Ruling no_field_ally_permission = richese_allows: every profile's Richese
// lets its ally ship with a No-Field token (an AllyPermission with no_field,
// its allowances as they stand) as soon as it is asked while allied, and
// never withdraws it (a token shipment costs the Richese nothing).
size_t Brain::richese_permit() {
  if (me() != Faction::Richese || k_.ally() >= kNumFactions || k_.richese_ally_no_field) return npos;
  return find([](const Action& a) {
    const auto* p = a.get_if<action::AllyPermission>();
    return p && p->no_field;
  });
}

// The gift: a Richese card to the ally when the Richese hand is full (medium),
// or one short of full (hard and brutal), the least useful first.
size_t Brain::richese_gift() {
  if (static_cast<int>(k_.hand.size()) < hand_limit_of(me()) - (hard() ? 1 : 0)) return npos;
  return best<action::RicheseGift>([&](const action::RicheseGift& a) { return 10.0 - card_value(a.card); }, 0.0);
}

// The voluntary No-Field reveal (own view: the marker's value): when the
// marker sits on spice and would collect more as forces (every profile), or,
// hard and brutal, when the ally has no shipment yet and the marker is worth
// little (the ally may then ship a token itself).
size_t Brain::richese_reveal() {
  const uint8_t loc = k_.no_field_location;
  if (loc >= data::kNumLocations || k_.no_field_value < 0) return npos;
  const int forces = std::min<int>(k_.no_field_value, k_.mine().reserves[0]);
  if (k_.phase == Phase::ShipmentMovement && k_.spice_on_board[loc] > 2 && forces > 1) return find_kind<action::RicheseReveal>([](const auto&) { return true; });
  return npos;
}

// A No-Field shipment in forces: the Richese's own counts as the forces it
// may become (at least the one it stands for); the ally's as the forces it
// becomes at once.
int Brain::token_forces(const action::Ship& a) const {
  const int res = k_.mine().reserves[0] + k_.mine().reserves[1];
  if (me() == Faction::Richese) return std::max(1, std::min<int>(a.no_field, k_.mine().reserves[0]));
  return std::min<int>(a.no_field, res);
}

// ---- the Richese cards (core/cards/): Distrans, the Nullentropy Box -------------------

// From this seat's view only (its hand, its spice, the public discard pile and
// hand sizes). The Box: when the public discard pile holds a card worth more
// than the Box and its fee (medium 6, hard and brutal 5), the hand has room
// and 2 spice stay spare. Distrans: with a full hand, the worst card (worth at
// most 1) to the enemy with the most cards whose hand is not full (it fills a
// slot it could buy with, and frees two of this seat's).
size_t Brain::richese_cards() {
  // Portable Snooper after the reveal (offered only then): when the
  // opponent's revealed weapon is poison, or a Mirror Weapon copying this
  // plan's poison weapon.
  if (k_.phase == Phase::Battle && (my_side() == 0 || my_side() == 1)) {
    const PlanInfo& o = k_.plan[1 - my_side()];
    const PlanInfo& mine = k_.plan[my_side()];
    const bool poison = (o.has_weapon && o.weapon_card != kNone8 && weapon_class(category(o.weapon_card)) == 2) ||
                        (o.weapon_card != kNone8 && is_mirror(o.weapon_card) && mine.weapon_card != kNone8 &&
                         weapon_class(category(mine.weapon_card)) == 2);
    const size_t i = best<action::PlayCard>(
        [&](const action::PlayCard& a) { return poison && kind(a.card) == TreacheryKind::PortableSnooper ? 1.0 : kNeg; }, 0.0);
    if (i != npos) return i;
  }
  // Residual Poison (offered only in this seat's battle, before the reveal): at once.
  if (k_.phase == Phase::Battle) {
    const size_t i = best<action::PlayCard>(
        [&](const action::PlayCard& a) { return kind(a.card) == TreacheryKind::ResidualPoison ? 1.0 : kNeg; }, 0.0);
    if (i != npos) return i;
  }
  // The Juice of Sapho (PlayCard.value 1 aggressor, 3 go_last; core/cards/juice_of_sapho.cpp), offered
  // only when it would act: the defender of the battle being fought becomes its aggressor (it wins a
  // tie); at its own shipment turn, before acting, a seat goes last (it sees every other shipment).
  {
    const bool defending = k_.phase == Phase::Battle && k_.defender >= 0 && k_.seat == k_.defender;
    const bool my_ship_turn = k_.phase == Phase::ShipmentMovement && has_kind(ActionKind::Ship);
    const size_t i = best<action::PlayCard>(
        [&](const action::PlayCard& a) {
          if (kind(a.card) != TreacheryKind::JuiceOfSapho) return kNeg;
          if (a.value == 1 && defending) return 1.0;
          if (a.value == 3 && my_ship_turn) return 1.0;
          return kNeg;
        },
        0.0);
    if (i != npos) return i;
  }
  // The Semuta Drug (ruling semuta_timing = next_action: offered until the next action): a card worth more than 2.
  {
    const size_t i = best<action::PlayCard>(
        [&](const action::PlayCard& a) { return kind(a.card) == TreacheryKind::SemutaDrug ? card_value(a.target) - 2.0 : kNeg; }, 0.0);
    if (i != npos) return i;
  }
  const int limit = hand_limit_of(me());
  const double want = hard() ? 5.0 : 6.0;
  double best_in_pile = 0;
  for (uint8_t c : k_.discard)
    if (c < data::kNumAllTreacheryCards && kind(c) != TreacheryKind::NullentropyBox) best_in_pile = std::max(best_in_pile, card_value(c));
  const bool room = static_cast<int>(k_.hand.size()) < limit;
  if (room && best_in_pile >= want && spice() >= 2 + std::min(2, reserve())) {
    const size_t i = best<action::PlayCard>(
        [&](const action::PlayCard& a) { return kind(a.card) == TreacheryKind::NullentropyBox ? best_in_pile : kNeg; }, 0.0);
    if (i != npos) return i;
  }
  if (static_cast<int>(k_.hand.size()) < limit) return npos;
  return best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (kind(a.card) != TreacheryKind::Distrans || a.target >= kNumFactions || a.value == a.card) return kNeg;
        const auto f = static_cast<Faction>(a.target);
        if (k_.is_ally(f) || card_value(a.value) > 1) return kNeg;
        return 10.0 + k_.fac[a.target].hand_count - card_value(a.value);
      },
      0.0);
}

// The Nullentropy Box's search: the most valuable eligible card.
size_t Brain::discard_search() {
  return or_fallback(best<action::Respond>([&](const action::Respond& a) { return a.card == kNone8 ? kNeg : card_value(a.card); }));
}

}  // namespace mentat::bots::detail
