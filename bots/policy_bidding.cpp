// The bots' policies (bots/brain.h) for the Bidding and Revival phases: a
// bid on the card up (spice or Karama, 1.04, 3.01.11.04; the Harkonnen's
// Karama power, 1.14.04), Truthtrance (3.01.22), the Richese auctions (the
// Black Market and the cache lot: what is sold and how, the bids on them,
// the special Karama purchase; CHOAM & Richese), and the revival (1.05; the
// Emperor's Karama power, 1.14.02; the Tleilaxu Ghola, 3.01.20).
// docs/BOTS.md's table gives each policy per profile.
#include "bots/brain.h"

namespace mentat::bots::detail {

// ---- bidding (1.04) -------------------------------------------------------------------

size_t Brain::bid() {
  // 1.14.04 the Harkonnen Karama power (hard, brutal): take the hand of the
  // enemy holding the most cards (at least four) and give back as many of
  // the worst cards.
  if (hard() && me() == Faction::Harkonnen) {
    const size_t h = best<action::PlayCard>(
        [&](const action::PlayCard& a) {
          // value 0: the power (128 buys Guild rates, 64 + ability prevents one).
          if (!karama_like(a.card) || a.value != 0 || a.target >= kNumFactions) return kNeg;
          const auto f = static_cast<Faction>(a.target);
          if (f == me() || k_.is_ally(f)) return kNeg;
          const int n = k_.fac[a.target].hand_count;
          return 1.5 * n - karama_keep(a.card);
        },
        1.5);
    if (h != npos) return h;
  }
  if (size_t t = truthtrance(); t != npos) return t;
  if (!has_kind(ActionKind::Bid)) return fallback();
  double value = k_.bid_card != kNone8 ? card_value(k_.bid_card) : unknown_card_value();
  if (!hard()) value = k_.hand.empty() ? 5 : 3;
  if (me() == Faction::Harkonnen) value += 1.5;  // 2.05.06 a bonus card with each one bought
  if (static_cast<int>(k_.hand.size()) >= hand_limit_of(me()) - 1) value -= 1.5;
  if (hard() && k_.turn >= k_.max_turns - 1) value -= 1;
  const int budget = spice() - reserve();
  // The cheapest winning bid in spice if the card is worth it.
  const size_t i = best<action::Bid>(
      [&](const action::Bid& a) {
        if (a.karama) return kNeg;
        if (a.amount > budget || a.amount > value) return kNeg;
        return value - a.amount;
      },
      0.0);
  // 3.01.11.04 a Karama bid (the card is bought without paying, the Karama
  // discarded): when the card is worth more than the Karama kept and more
  // than the best spice bid gives. The highest Karama bid offered (beyond
  // one's spice where possible), so that it is hard to outbid, but never
  // above kKaramaBidCap: two Karama holders would otherwise outbid each
  // other for free up to the largest bid.
  constexpr int kKaramaBidCap = 12;
  const uint8_t kc = cheapest_karama();
  if (kc != kNone8) {
    const double spice_net = i == npos ? 0.0 : value - legal_[i].as<action::Bid>().amount;
    const double karama_net = value - karama_keep(kc);
    if (karama_net > 0 && karama_net > spice_net + 0.5) {
      const size_t kb = best<action::Bid>([&](const action::Bid& a) {
        return a.karama && a.amount <= kKaramaBidCap ? static_cast<double>(a.amount) : kNeg;
      });
      if (kb != npos) return kb;
    }
  }
  return or_fallback(i);
}

// ---- Truthtrance (3.01.22) ------------------------------------------------------------

// The engine offers two questions to each other faction: "do you hold a
// Karama?" and a free-form one (which bots never ask: they could not read the
// answer's meaning). Medium and up ask the Karama question in the Bidding
// phase when the hand is nearly full (the card frees a slot for a purchase),
// of the enemy with the most cards; hard and brutal also when the card up for
// bid is one they know they want. The answer is public (the view's
// truthtrance); no policy reads it yet (a bot keeps no memory between
// decisions, and the engine offers no question about traitors or weapons).
size_t Brain::truthtrance() {
  const int limit = hand_limit_of(me());
  const bool nearly_full = static_cast<int>(k_.hand.size()) >= limit - 1;
  const bool wanted = hard() && k_.bid_card != kNone8 && card_value(k_.bid_card) >= 6;
  if (!nearly_full && !wanted) return npos;
  return best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (a.card >= data::kNumTreacheryCards || kind(a.card) != TreacheryKind::Truthtrance) return kNeg;
        if ((a.value >> 4) != 1) return kNeg;  // the Karama question only
        const auto f = static_cast<Faction>(a.value & 15);
        if (k_.is_ally(f)) return kNeg;
        return static_cast<double>(k_.fac[static_cast<int>(f)].hand_count);
      },
      0.5);
}

// ---- the Richese auctions (CHOAM & Richese; docs/BOTS.md, docs/factions/richese.md) ---

// The Black Market (a card of its hand up for bid): medium passes; hard and
// brutal sell their least useful card when it is worth less than an unseen
// card, by silent auction (the buyers do not see it). The cache lot: medium
// the first cache card once around to the right; hard and brutal the cache
// card the others would value most (a Karama, else any), silently with four
// or more players (each bids blind once) and else once around.
size_t Brain::richese_lot() {
  const DecisionInfo* d = decision(ActionKind::RicheseLot);
  const bool market = d && d->topic == Topic::BlackMarket;
  if (!d) return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::Pass; }));
  if (market) {
    if (!hard()) return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::Pass; }));
    const size_t i = best<action::RicheseLot>([&](const action::RicheseLot& a) {
      if (a.auction != 3) return kNeg;
      const double v = card_value(a.card);
      return v < unknown_card_value() - 0.5 ? 10.0 - v : kNeg;
    });
    return i != npos ? i : or_fallback(find([](const Action& a) { return a.kind() == ActionKind::Pass; }));
  }
  const int players = k_.num_seats;
  return or_fallback(best<action::RicheseLot>([&](const action::RicheseLot& a) {
    if (!hard()) return a.auction == 1 ? 100.0 - a.card : kNeg;
    const bool silent = players >= 4;
    if ((a.auction == 3) != silent || (!silent && a.auction != 1)) return kNeg;
    return a.card < data::kNumAllTreacheryCards && data::treachery_card(a.card).kind == data::TreacheryKind::Karama ? 2.0 : 1.0;
  }));
}

// First (the others still hold their spice): medium and brutal; hard last.
size_t Brain::richese_timing() {
  const bool first = p_ != Profile::Hard;
  return or_fallback(find_kind<action::RicheseCacheTiming>([first](const action::RicheseCacheTiming& a) { return a.first == first; }));
}

// A bid on a Richese lot: the Richese pass on their own lot (their spice would
// go to the Emperor or the bank). Once around and normal: the cheapest bid
// up to the card's worth (medium: 3); silent: one blind bid of about two
// thirds of its worth (hard and brutal), 2 (medium), within the budget.
size_t Brain::richese_bid() {
  auto pass = [&] { return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::Pass; })); };
  if (me() == Faction::Richese || !has_kind(ActionKind::Bid)) return pass();
  double value = k_.bid_card != kNone8 ? card_value(k_.bid_card) : unknown_card_value();
  if (!hard()) value = 3;
  if (static_cast<int>(k_.hand.size()) >= hand_limit_of(me()) - 1) value -= 1.5;
  const int budget = spice() - reserve();
  if (k_.richese_auction == 3) {
    const int want = std::min(budget, hard() ? static_cast<int>(value * 2 / 3) : 2);
    if (want <= 0) return pass();
    return or_fallback(best<action::Bid>([&](const action::Bid& a) { return a.karama || a.amount > want ? kNeg : 1.0 * a.amount; }));
  }
  const size_t i = best<action::Bid>([&](const action::Bid& a) {
    if (a.karama || a.amount > budget || a.amount > value) return kNeg;
    return value - a.amount;
  }, 0.0);
  return i != npos ? i : pass();
}

// The special Karama purchase: hard and brutal buy the cache's Karama (or,
// failing that, any card in the last two turns) when the spice above the
// reserve pays for it; medium in the last turn only.
size_t Brain::richese_buy() {
  const bool late = k_.turn >= k_.max_turns - (hard() ? 1 : 0);
  if (spice() - 3 < (hard() ? reserve() : 0)) return npos;
  return best<action::RicheseBuy>([&](const action::RicheseBuy& a) {
    const bool karama = a.card < data::kNumAllTreacheryCards && data::treachery_card(a.card).kind == data::TreacheryKind::Karama;
    if (hard() && karama) return 2.0;
    return late ? 1.0 : kNeg;
  }, 0.0);
}

// ---- revival (1.05) -------------------------------------------------------------------

size_t Brain::revive() {
  const DecisionInfo* d = decision(ActionKind::Revive);
  int free = data::faction_setup(me()).free_revival;
  if (d && d->amount >= 0) free = d->amount;
  int pool_leaders = 0;
  for (int l = 0; l < data::kNumLeaders; ++l)
    if (data::leader(static_cast<LeaderId>(l)).faction == me() && k_.leaders[l].known && k_.leaders[l].zone == LeaderZone::Pool &&
        k_.leaders[l].holder == static_cast<uint8_t>(me()))
      ++pool_leaders;
  const int sp = spice();
  const int keep = reserve();
  auto score = [&](const action::Revive& a) -> double {
    const int n = a.forces + a.special;
    double cost = 2.0 * std::max(0, n - free);
    double v = std::min(n, free) * 2.5 + std::max(0, n - free) * (hard() && sp > 12 ? 2.4 : 1.0) + a.special * 1.0;
    if (a.leader < data::kNumLeaders) {
      const int str = data::leader(a.leader).strength;
      cost += str;
      v += str * (pool_leaders <= 1 ? 1.8 : pool_leaders <= 2 ? 1.1 : 0.5);
    }
    if (cost > 0 && sp - cost < keep) return kNeg;
    return v - cost;
  };
  size_t i = best<action::Revive>(score, 0.0);
  const int tanks = k_.mine().tanks[0] + k_.mine().tanks[1];
  // 1.14.02 the Emperor's Karama power (hard, brutal; once per game): a
  // leader or up to three forces free, when worth more than the card kept.
  if (hard() && me() == Faction::Emperor) {
    const size_t e = best<action::PlayCard>(
        [&](const action::PlayCard& a) {
          // Not Guild rates (128) nor a prevention (64 + ability, 3.01.11.02).
          if (!karama_like(a.card) || (a.value & (kKaramaGuildRatesBit | kKaramaPreventBit))) return kNeg;
          double v;
          if (a.target < data::kNumLeaders) {
            v = data::leader(a.target).strength * (pool_leaders <= 1 ? 1.8 : 0.8) + (pool_leaders <= 1 ? 3.0 : 0.0);
          } else {
            const int n = (a.value & 15) + (a.value >> 4);
            v = 2.0 * n + (a.value >> 4) * 1.5;  // 2 spice a force saved; Sardaukar are worth more
          }
          return v - karama_keep(a.card);
        },
        2.0);
    if (e != npos) return e;
  }
  // A Tleilaxu Ghola (3.01.20) when many forces or a needed leader are in the
  // tanks (medium: only a leader when none is left in its pool).
  const size_t g = best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (a.card >= data::kNumTreacheryCards || kind(a.card) != TreacheryKind::TleilaxuGhola) return kNeg;
        if (!hard()) return a.target < data::kNumLeaders && pool_leaders == 0 ? 5.0 + data::leader(a.target).strength : kNeg;
        if (a.target < data::kNumLeaders) return pool_leaders <= 1 ? 6.0 + data::leader(a.target).strength : kNeg;
        const int n = (a.value & 15) + (a.value >> 4);
        return tanks >= 6 ? n * 1.5 : kNeg;
      },
      4.0);
  if (g != npos) return g;
  return or_fallback(i);
}

}  // namespace mentat::bots::detail
