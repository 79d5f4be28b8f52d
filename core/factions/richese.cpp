// Richese (CHOAM & Richese, module choam_richese; issue 13; docs/factions/richese.md):
// the faction's abilities that the phases reach through the hook table
// (core/factions/faction_rules.h). Facts: ../shared/reference/choam-richese.json
// factions.Richese (the project's own tables: core/data/components.cpp); the
// founding documents: ../shared/seeds/RICHESE_ACQUISITION_RULES.md §1-2,
// RICHESE_GIFT_ENGINE_AUDIT.md.
//
//  * Setup (data): 5 spice, 20 forces in reserve, free revival 2, hand limit
//    4; the cache of the ten Richese cards (RicheseState::cache, secret from
//    the other seats: only its count is public).
//  * The Bidding phase's Richese steps (hook bidding_step; GameState::step):
//      kMarket (advanced, or ruling richese_black_market every_game): Richese
//        puts a card of its hand up as the round's first card (RicheseLot,
//        any auction kind) or passes. Sold, the round deals one card fewer;
//        unsold, Richese keeps it. Karama-preventable (RicheseBlackMarket).
//      kTiming: while the cache holds a card, Richese announces whether its
//        cache lot comes before or after the dealt cards (RicheseCacheTiming);
//        the round deals one card fewer. Karama-preventable (RicheseCache: no
//        cache lot this round, the deal is full).
//      kCacheLot: Richese names the cache card and the auction (RicheseLot,
//        once around either way, or silent).
//      kAuction: the lot's auction. Normal (Black Market only) as 1.04.06;
//        once around: one turn each from the seat after Richese (storm order
//        or against it), Richese last; silent: every eligible seat bids once
//        in secret (Pass = 0), the highest wins, ties to the first in storm
//        order. No Karama bids (RP-cache-karama-bid). Paid to Richese; when
//        Richese buys its own lot, to the Emperor (else the bank) like any
//        purchase (RP-richese-buys-own-card; bidding.cpp pay_for_lot).
//      kUnsold: nobody bid on the cache lot: Richese keeps it free (Respond
//        accept) or removes it from the game (RicheseState::removed); with a
//        full hand it is removed (RP-unsold-cache-card).
//    A lot announced (RicheseLot) is the use of the ability marked ✷: under
//    ruling karama_windows = all_other_seats the others may cancel it with a
//    Karama (3.01.11.01); Richese then passes (no such lot this round).
//  * Advanced, the special Karama purchase (RicheseBuy, any time, once a
//    game; no Karama cancels it): Richese discards a Karama and pays 3 spice
//    (ruling richese_buy_payee) for the cache card it names; no auction, no
//    Harkonnen bonus; ruling richese_buy_full_hand.
//  * Alliance, the gift (RicheseGift, any time; ruling richese_gift_timing):
//    a Richese card from Richese's hand to its ally whose hand is not full;
//    never a card already promised (a submitted battle plan, a Prescience
//    answer, the Black Market lot). The gift is an ability marked ✷: a
//    KaramaCancel window (cards.cpp) holds it as a pending intent; cancelled,
//    the card stays with Richese (ruling richese_gift_retry: offered again or
//    not in the same phase); an intent made obsolete while it waited (the
//    alliance broken, the ally's hand full, the card gone) ends without a
//    transfer. A prevention (RicheseGift) stops gifts until the Mentat Pause.
//  * Richese is excluded from the Fremen special victory's Tuek's Sietch
//    clause (core/factions/fremen.cpp).
#include <algorithm>
#include <string>

#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/factions/richese_no_field.h"
#include "core/rules/battle_abilities.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Richese;
constexpr int kBuyPrice = 3;

// GameState::step values of the Bidding phase's Richese steps (0: bidding.cpp's own).
constexpr uint8_t kMarket = 1, kTiming = 2, kCacheLot = 3, kAuction = 4, kUnsold = 5;

// Ruling values (core/rulings.cpp).
constexpr uint8_t kEveryGame = 1;        // RicheseBlackMarket
constexpr uint8_t kBuyToBank = 1;        // RicheseBuyPayee
constexpr uint8_t kBuyFullHandOk = 1;    // RicheseBuyFullHand
constexpr uint8_t kNotDuringBidding = 1; // RicheseGiftTiming
constexpr uint8_t kNoRetry = 1;          // RicheseGiftRetry
constexpr uint8_t kAskedAfterRaise = 1;  // PassedBidder

bool is_me(const GameState& s, Seat seat) { return seat >= 0 && seat < s.num_seats && s.faction_at(seat) == kMe; }
Seat my_seat(const GameState& s) { return s.seat_of(kMe); }
std::string card_name(uint8_t card) { return std::string(data::treachery_card(card).name); }
bool richese_card(uint8_t card) {
  const auto& set = data::card_set(data::CardSet::Richese);
  return card >= set.first && card < set.first + set.count;
}
bool eligible(const GameState& s, Seat seat) { return !hand_full(s, s.faction_at(seat)); }
uint8_t eligible_seats(const GameState& s) {
  uint8_t m = 0;
  for (Seat x = 0; x < s.num_seats; ++x)
    if (eligible(s, x)) m |= bit(x);
  return m;
}
RicheseState::Bidding& rb(GameState& s) { return s.richese.bidding; }
const RicheseState::Bidding& rb(const GameState& s) { return s.richese.bidding; }

// ---- the Bidding phase's steps ------------------------------------------------

bool market_offered(const GameState& s) {
  return (s.advanced || s.rulings.is(RulingId::RicheseBlackMarket, kEveryGame)) && s.of(kMe).hand.n > 0;
}

// The cache lot's timing step: true when it is up (step and waiting set).
bool timing_up(GameState& s) {
  if (s.richese.cache.n > 0) {
    if (!ability_cancelled(s, kMe, Ability::RicheseCache)) {
      s.step = kTiming;
      s.waiting = bit(my_seat(s));
      return true;
    }
    consume_prevention(s, kMe, Ability::RicheseCache);  // 3.01.11.02: this round is its use opportunity
  }
  rb(s).cache_timing = 3;
  return false;
}
void timing_or_deal(Ctx& c) {
  if (!timing_up(c.s)) bidding_deal(c);
}

bool begins(Ctx& c) {
  auto& s = c.s;
  if (market_offered(s)) {
    if (ability_cancelled(s, kMe, Ability::RicheseBlackMarket)) {
      consume_prevention(s, kMe, Ability::RicheseBlackMarket);
    } else if ((eligible_seats(s) & ~bit(my_seat(s))) != 0) {
      s.step = kMarket;
      s.waiting = bit(my_seat(s));
      return true;
    }
  }
  return timing_up(s);
}

int lots(const GameState& s) {
  const auto& b = rb(s);
  return (b.cache_timing == 1 || b.cache_timing == 2 ? 1 : 0) + b.market_sold;
}

// The cache lot comes up now (kCacheLot), unless nobody could buy it.
bool cache_lot_up(Ctx& c, bool after_row) {
  auto& s = c.s;
  auto& b = rb(s);
  if (s.richese.cache.n == 0 || eligible_seats(s) == 0) {
    b.cache_done = 1;
    return false;
  }
  b.after_row = after_row ? 1 : 0;
  s.step = kCacheLot;
  s.waiting = bit(my_seat(s));
  return true;
}

bool first_lot(Ctx& c) { return rb(c.s).cache_timing == 1 && !rb(c.s).cache_done && cache_lot_up(c, false); }
bool row_done(Ctx& c) { return rb(c.s).cache_timing == 2 && !rb(c.s).cache_done && cache_lot_up(c, true); }

// The Black Market card is promised while it is up for bid, in the Richese hand only.
bool promised(const GameState& s, Seat seat, uint8_t card) {
  return s.step == kAuction && rb(s).lot == LotKind::BlackMarket && rb(s).lot_card == card && seat == my_seat(s);
}

int pledged(const GameState& s, Seat seat) {
  const auto& b = rb(s);
  return s.step == kAuction && b.lot != LotKind::None && b.auction == AuctionKind::Silent && has_bit(b.turns, seat) ? b.silent_bid[seat] : 0;
}

bool sealed(const GameState& s, Seat seat) {
  const auto& b = rb(s);
  return s.step == kAuction && b.lot != LotKind::None && b.auction == AuctionKind::Silent && has_bit(b.turns, seat);
}

uint8_t lot_card(const GameState& s) {
  return (s.step == kAuction || s.step == kUnsold) && rb(s).lot != LotKind::None ? rb(s).lot_card : kNone8;
}

// The seats of a once-around auction in turn order: from the seat after
// Richese (storm order, or against it), Richese last.
std::vector<Seat> once_around(const GameState& s) {
  const auto order = order_from_first(s);
  const int n = static_cast<int>(order.size());
  int r = 0;
  for (int i = 0; i < n; ++i)
    if (order[i] == my_seat(s)) r = i;
  const bool right = rb(s).auction == AuctionKind::OnceAroundRight;
  std::vector<Seat> out;
  for (int k = 1; k <= n; ++k) out.push_back(order[((right ? r + k : r - k) % n + n) % n]);
  return out;
}

// The next seat to bid in a normal or once-around auction (kNoSeat: the auction is over).
Seat next_bidder(const GameState& s) {
  const auto& b = s.bidding;
  if (rb(s).auction == AuctionKind::Normal) {
    const auto order = order_from_first(s);
    const int n = static_cast<int>(order.size());
    int at = -1;
    for (int i = 0; i < n; ++i)
      if (order[i] == b.current) at = i;
    for (int k = at < 0 ? 0 : 1; k <= n; ++k) {
      const Seat x = order[((at < 0 ? 0 : at) + k) % n];
      if (has_bit(b.eligible, x) && !has_bit(b.passed, x) && x != b.high_bidder) return x;
      if (x == b.high_bidder) {
        // Everyone else has passed since the high bid: sold.
        bool other = false;
        for (Seat y : order) other = other || (y != x && has_bit(b.eligible, y) && !has_bit(b.passed, y));
        if (!other) return kNoSeat;
      }
    }
    return kNoSeat;
  }
  for (Seat x : once_around(s))
    if (has_bit(b.eligible, x) && !has_bit(rb(s).turns, x)) return x;
  return kNoSeat;
}

void lot_over(Ctx& c) {
  auto& s = c.s;
  const LotKind kind = rb(s).lot;
  rb(s).lot = LotKind::None;
  rb(s).lot_card = kNone8;
  rb(s).turns = 0;
  for (auto& x : rb(s).silent_bid) x = 0;
  s.bidding.high_bid = 0;
  s.bidding.high_bidder = s.bidding.current = kNoSeat;
  s.bidding.passed = 0;
  s.waiting = 0;
  if (kind == LotKind::BlackMarket) {
    timing_or_deal(c);
    return;
  }
  rb(s).cache_done = 1;
  bidding_lot_done(c);
}

void sell(Ctx& c, Seat buyer_seat, int amount) {
  auto& s = c.s;
  const Faction buyer = s.faction_at(buyer_seat);
  const uint8_t card = rb(s).lot_card;
  if (rb(s).lot == LotKind::BlackMarket && !s.of(kMe).hand.contains(card)) {
    // The card left the Richese hand during its auction (the Harkonnen Karama
    // power took the hand, or Richese played it): nothing to sell, nothing paid.
    lot_over(c);
    return;
  }
  if (rb(s).lot == LotKind::BlackMarket) {
    s.of(kMe).hand.remove(card);
    rb(s).market_sold = 1;
  } else {
    s.richese.cache.remove(card);
  }
  pay_for_lot(s, buyer, amount, kMe);
  s.of(buyer).hand.push(card);
  if (const auto h = faction_rules(buyer).bought_card) h(c);  // 2.05.08
  lot_over(c);
}

// The auction is over: sold to the high bidder, or unsold.
void auction_over(Ctx& c) {
  auto& s = c.s;
  auto& b = s.bidding;
  if (rb(s).auction == AuctionKind::Silent) {  // the highest bid; ties: first in storm order
    int best = 0;
    Seat winner = kNoSeat;
    for (Seat x : order_from_first(s))
      if (has_bit(b.eligible, x) && rb(s).silent_bid[x] > best) {
        best = rb(s).silent_bid[x];
        winner = x;
      }
    b.high_bid = static_cast<uint8_t>(best);
    b.high_bidder = winner;
  }
  if (b.high_bidder != kNoSeat && b.high_bid > 0) {
    sell(c, b.high_bidder, b.high_bid);
    return;
  }
  if (rb(s).lot == LotKind::BlackMarket) {  // unsold: Richese keeps it; the round's count is unchanged
    lot_over(c);
    return;
  }
  if (hand_full(s, kMe)) {  // no room to keep it: removed from the game
    s.richese.cache.remove(rb(s).lot_card);
    s.richese.removed.push(rb(s).lot_card);
    lot_over(c);
    return;
  }
  s.step = kUnsold;
  s.waiting = bit(my_seat(s));
}

void start_auction(Ctx& c, LotKind kind, uint8_t card, uint8_t auction) {
  auto& s = c.s;
  auto& b = s.bidding;
  rb(s).lot = kind;
  rb(s).lot_card = card;
  rb(s).auction = static_cast<AuctionKind>(auction);
  rb(s).turns = 0;
  for (auto& x : rb(s).silent_bid) x = 0;
  b.high_bid = 0;
  b.high_bidder = kNoSeat;
  b.current = kNoSeat;
  b.passed = 0;
  b.karama_bid = 0;
  b.karama_card = kNone8;
  b.eligible = eligible_seats(s);
  s.step = kAuction;
  // 2.01.05 / 3.01.11.02: a Black Market card is a card up for bid (a prevented
  // look is this one's); a cache lot is face up for everyone (nothing to see).
  if (kind == LotKind::BlackMarket)
    for (int fi = 0; fi < kNumFactions; ++fi)
      if (const auto h = faction_rules(static_cast<Faction>(fi)).card_up_for_bid; h && s.has(static_cast<Faction>(fi))) h(s);
  if (rb(s).auction == AuctionKind::Silent) {
    s.waiting = b.eligible;
    return;
  }
  b.current = next_bidder(s);
  if (b.current == kNoSeat) {
    auction_over(c);
    return;
  }
  s.waiting = bit(b.current);
}

// The Black Market card is up for bid (Richese keeps it in hand until sold).
bool market_lot(const GameState& s, uint8_t card) {
  return s.phase == Phase::Bidding && rb(s).lot == LotKind::BlackMarket && rb(s).lot_card == card;
}

std::optional<Rejection> check_bid(const GameState& s, Seat seat, const action::Bid& bid) {
  const auto& b = s.bidding;
  if (bid.karama)
    return reject(RejectCode::IllegalChoice, "a Karama neither bids on nor buys a Richese lot (CHOAM & Richese, RP-cache-karama-bid)");
  if (hand_full(s, s.faction_at(seat)))  // filled since the lot came up (a gift): only a pass
    return reject(RejectCode::IllegalChoice, "your hand is full: a full hand may not bid (1.04.03); pass");
  const int limit = bid_limit(s, s.faction_at(seat));
  if (bid.amount > limit)
    return reject(RejectCode::NotEnoughSpice, "you may bid at most " + std::to_string(limit) + " spice (1.04.06.04)");
  if (rb(s).auction == AuctionKind::Silent) return std::nullopt;
  if (bid.amount <= b.high_bid)
    return reject(RejectCode::IllegalChoice, "bid more than the high bid of " + std::to_string(b.high_bid) + " (1.04.06.02)");
  return std::nullopt;
}

std::optional<Rejection> step_validate(const GameState& s, Seat seat, const Action& a) {
  const uint8_t step = s.step;
  if (!has_bit(s.waiting, seat)) {
    if (step == kAuction) return reject(RejectCode::NotYourDecision, "another seat bids on the Richese lot now");
    return reject(RejectCode::NotYourDecision, "the Richese are deciding on their lot (CHOAM & Richese)");
  }
  switch (step) {
    case kMarket:
    case kCacheLot: {
      const Ability ab = step == kMarket ? Ability::RicheseBlackMarket : Ability::RicheseCache;
      if (a.kind() == ActionKind::Pass) {
        if (step == kCacheLot && !ability_cancelled(s, kMe, ab))
          return reject(RejectCode::IllegalChoice, "the cache lot was announced: name the cache card and the auction (RicheseLot)");
        return std::nullopt;
      }
      const auto* lot = a.get_if<action::RicheseLot>();
      if (!lot) return reject(RejectCode::WrongPhase, step == kMarket ? "the Black Market: put a card up (RicheseLot) or Pass"
                                                                      : "the cache lot: name the card and the auction (RicheseLot)");
      if (auto why = ability_blocked(s, kMe, ab)) return reject(RejectCode::IllegalChoice, *why + ": Pass");
      if (lot->auction > 3) return reject(RejectCode::Malformed, "auction: 0 normal, 1 once around right, 2 once around left, 3 silent");
      if (step == kMarket) {
        if (lot->card >= data::kNumAllTreacheryCards || !s.of(kMe).hand.contains(lot->card))
          return reject(RejectCode::IllegalChoice, "the Black Market sells a card from the Richese hand");
        return std::nullopt;
      }
      if (lot->auction == 0)
        return reject(RejectCode::IllegalChoice, "a cache card is sold once around (1 right, 2 left) or silently (3), not by normal bidding");
      if (lot->card >= data::kNumAllTreacheryCards || !s.richese.cache.contains(lot->card))
        return reject(RejectCode::IllegalChoice, "the cache lot is a card of the Richese cache");
      return std::nullopt;
    }
    case kTiming:
      if (a.kind() != ActionKind::RicheseCacheTiming)
        return reject(RejectCode::WrongPhase, "the Richese announce whether their cache card is sold first or last (RicheseCacheTiming)");
      return std::nullopt;
    case kAuction:
      if (a.kind() == ActionKind::Pass) return std::nullopt;
      if (const auto* bid = a.get_if<action::Bid>()) return check_bid(s, seat, *bid);
      return reject(RejectCode::WrongPhase, "a Richese lot is up for bid: Bid or Pass");
    case kUnsold:
      if (a.kind() != ActionKind::Respond)
        return reject(RejectCode::WrongPhase, "nobody bid on the cache card: keep it free (Respond accept) or remove it from the game");
      return std::nullopt;
  }
  return reject(RejectCode::WrongPhase, "no Richese lot is up");
}

void step_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  auto& b = s.bidding;
  switch (s.step) {
    case kMarket:
    case kCacheLot: {
      const bool market = s.step == kMarket;
      const auto* lot = a.get_if<action::RicheseLot>();
      if (!lot) {  // Pass: no Black Market; or the cancelled cache lot
        s.waiting = 0;
        if (market) {
          // 3.01.11.02: a prevention played at this step is used up by it.
          if (ability_cancelled(s, kMe, Ability::RicheseBlackMarket)) consume_prevention(s, kMe, Ability::RicheseBlackMarket);
          timing_or_deal(c);
        } else {
          if (ability_cancelled(s, kMe, Ability::RicheseCache)) consume_prevention(s, kMe, Ability::RicheseCache);
          s.step = 0;
          rb(s).cache_done = 1;
          bidding_lot_done(c);
        }
        return;
      }
      // 3.01.11.01: the lot is the ability's use; the others may cancel it.
      if (karama_window(c, seat, market ? Ability::RicheseBlackMarket : Ability::RicheseCache, a)) return;
      start_auction(c, market ? LotKind::BlackMarket : LotKind::Cache, lot->card, lot->auction);
      return;
    }
    case kTiming:
      rb(s).cache_timing = a.as<action::RicheseCacheTiming>().first ? 1 : 2;
      if (s.richese.cache.empty()) rb(s).cache_timing = 3;  // emptied meanwhile (the special purchase): a full deal
      if (ability_cancelled(s, kMe, Ability::RicheseCache)) {  // 3.01.11.02: prevented at this step: no cache lot, a full deal
        consume_prevention(s, kMe, Ability::RicheseCache);
        rb(s).cache_timing = 3;
      }
      s.waiting = 0;
      bidding_deal(c);
      return;
    case kAuction: {
      const auto* bid = a.get_if<action::Bid>();
      if (rb(s).auction == AuctionKind::Silent) {
        rb(s).silent_bid[seat] = bid ? bid->amount : 0;
        rb(s).turns |= bit(seat);
        s.waiting &= static_cast<uint8_t>(~bit(seat));
        if (s.waiting == 0) auction_over(c);
        return;
      }
      rb(s).turns |= bit(seat);
      if (bid) {
        b.high_bid = bid->amount;
        b.high_bidder = seat;
        if (rb(s).auction == AuctionKind::Normal && s.rulings.is(RulingId::PassedBidder, kAskedAfterRaise)) b.passed = 0;
      } else {
        b.passed |= bit(seat);
      }
      b.current = seat;
      const Seat next = next_bidder(s);
      if (next == kNoSeat) {
        s.waiting = 0;
        auction_over(c);
        return;
      }
      b.current = next;
      s.waiting = bit(next);
      return;
    }
    case kUnsold: {
      const auto* r = a.get_if<action::Respond>();
      const uint8_t card = rb(s).lot_card;
      s.richese.cache.remove(card);
      if (r && r->accept) {
        s.of(kMe).hand.push(card);
      } else {
        s.richese.removed.push(card);
      }
      lot_over(c);
      return;
    }
  }
  (void)seat;
}

void step_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const auto& b = s.bidding;
  switch (s.step) {
    case kMarket: {
      Decision d{ActionKind::RicheseLot,
                 "Black Market: put a card from your hand up for bid as the round's first card, in a normal auction, once "
                 "around to the right, once around to the left, or silent",
                 0, 3, {}};
      d.topic = Topic::BlackMarket;
      for (int i = 0; i < s.of(kMe).hand.n; ++i) d.options.push_back(s.of(kMe).hand.ids[i]);
      if (!ability_blocked(s, kMe, Ability::RicheseBlackMarket)) out.push_back(std::move(d));
      out.push_back(Decision{ActionKind::Pass, "No Black Market this round", 0, 0, {}});
      return;
    }
    case kTiming:
      out.push_back(Decision{ActionKind::RicheseCacheTiming, "Sell your cache card before the dealt cards, or after them", 0, 1, {}});
      return;
    case kCacheLot: {
      if (ability_blocked(s, kMe, Ability::RicheseCache)) {
        out.push_back(Decision{ActionKind::Pass, "A Karama cancelled the cache lot: pass", 0, 0, {}, Topic::RicheseLot});
        return;
      }
      Decision d{ActionKind::RicheseLot, "Cache lot: name the cache card and its auction: once around to the right, once around to the left, or silent",
                 1, 3, {}};
      d.topic = Topic::RicheseLot;
      for (int i = 0; i < s.richese.cache.n; ++i) d.options.push_back(s.richese.cache.ids[i]);
      out.push_back(std::move(d));
      return;
    }
    case kAuction: {
      const int max = hand_full(s, s.faction_at(seat)) ? -1 : bid_limit(s, s.faction_at(seat));
      const bool silent = rb(s).auction == AuctionKind::Silent;
      const int min = silent ? 0 : b.high_bid + 1;
      const std::string what = rb(s).lot == LotKind::BlackMarket ? "the Black Market card" : "the cache card " + card_name(rb(s).lot_card);
      if (min <= max)
        out.push_back(Decision{ActionKind::Bid, silent ? "Silent bid on " + what + " (one secret bid; ties go to the first in storm order)"
                                                       : "Bid on " + what + " (no Karama bids)",
                               min, max, {}});
      out.push_back(Decision{ActionKind::Pass, silent ? "Bid nothing" : "Pass", 0, 0, {}});
      return;
    }
    case kUnsold:
      out.push_back(Decision{ActionKind::Respond, "Nobody bid on " + card_name(rb(s).lot_card) +
                                                      ": keep it for free, or remove it from the game",
                             0, 1, {}, Topic::LotNobodyBid});
      return;
  }
}

void step_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const auto& b = s.bidding;
  switch (s.step) {
    case kMarket:
      out.push_back(action::Pass{});
      if (ability_blocked(s, kMe, Ability::RicheseBlackMarket)) return;
      for (int i = 0; i < s.of(kMe).hand.n; ++i)
        for (uint8_t k = 0; k <= 3; ++k) out.push_back(action::RicheseLot{.card = s.of(kMe).hand.ids[i], .auction = k});
      return;
    case kTiming:
      out.push_back(action::RicheseCacheTiming{.first = true});
      out.push_back(action::RicheseCacheTiming{.first = false});
      return;
    case kCacheLot:
      if (ability_blocked(s, kMe, Ability::RicheseCache)) {
        out.push_back(action::Pass{});
        return;
      }
      for (int i = 0; i < s.richese.cache.n; ++i)
        for (uint8_t k = 1; k <= 3; ++k) out.push_back(action::RicheseLot{.card = s.richese.cache.ids[i], .auction = k});
      return;
    case kAuction: {  // a few amounts (as bidding.cpp): silent 1..12 and all one may; open the next three and all
      out.push_back(action::Pass{});
      if (hand_full(s, s.faction_at(seat))) return;
      const int max = std::min(255, bid_limit(s, s.faction_at(seat)));
      const bool silent = rb(s).auction == AuctionKind::Silent;
      const int min = silent ? 1 : b.high_bid + 1;
      const int top = silent ? 12 : min + 2;
      for (int v = min; v <= max && v <= top; ++v) out.push_back(action::Bid{.amount = static_cast<uint8_t>(v)});
      if (max > top && max >= min) out.push_back(action::Bid{.amount = static_cast<uint8_t>(max)});
      return;
    }
    case kUnsold:
      out.push_back(action::Respond{.accept = true});
      out.push_back(action::Respond{.accept = false});
      return;
  }
}

// ---- any time: the special Karama purchase, the gift ---------------------------

bool owns(ActionKind k) { return k == ActionKind::RicheseBuy || k == ActionKind::RicheseGift || k == ActionKind::RicheseReveal; }

// The faction paid for a purchased treachery card (2.03.04: the Emperor), or kNoFaction.
uint8_t card_payee(const GameState& s) {
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (faction_rules(static_cast<Faction>(fi)).receives_card_payments != Ability::None && s.has(static_cast<Faction>(fi)))
      return static_cast<uint8_t>(fi);
  return kNoFaction;
}

// 3.01.11.04: the Richese high bid was made with a Karama (their Karama cards stay in hand until the sale).
bool karama_pledged(const GameState& s) {
  return s.phase == Phase::Bidding && s.bidding.karama_bid && s.bidding.high_bidder == my_seat(s) && current_lot_card(s) != kNone8;
}

std::optional<Rejection> buy_validate(const GameState& s, const action::RicheseBuy& a) {
  if (!s.advanced) return reject(RejectCode::IllegalChoice, "the Richese special Karama purchase is an advanced rule");
  if (s.richese.karama_used) return reject(RejectCode::IllegalChoice, "the Richese have used their special Karama purchase (once a game)");
  const auto& hand = s.of(kMe).hand;
  if (a.karama >= data::kNumAllTreacheryCards || !hand.contains(a.karama) ||
      data::treachery_card(a.karama).kind != data::TreacheryKind::Karama)
    return reject(RejectCode::IllegalChoice, "the special purchase discards a Karama card from the Richese hand (karama)");
  if (market_lot(s, a.karama)) return reject(RejectCode::IllegalChoice, "that Karama is up for bid on the Black Market");
  if (auto why = card_committed(s, my_seat(s), a.karama)) return reject(RejectCode::IllegalChoice, *why);  // e.g. a Planetologist's plan
  if (karama_pledged(s))
    return reject(RejectCode::IllegalChoice, "your high bid was made with a Karama: your Karama cards stay in hand until the card is sold (3.01.11.04)");
  if (a.card >= data::kNumAllTreacheryCards || !s.richese.cache.contains(a.card))
    return reject(RejectCode::IllegalChoice, "name a card of the Richese cache (card)");
  if (current_lot_card(s) == a.card) return reject(RejectCode::IllegalChoice, "that cache card is up for bid now");
  if (s.phase == Phase::Bidding && (rb(s).cache_timing == 1 || rb(s).cache_timing == 2) && !rb(s).cache_done && s.richese.cache.n == 1)
    return reject(RejectCode::IllegalChoice, "the last cache card is this round's announced cache lot");
  if (s.of(kMe).spice < kBuyPrice) return reject(RejectCode::NotEnoughSpice, "the special purchase costs 3 spice");
  if (auto why = spending_breaks_bid(s, kMe, kBuyPrice)) return reject(RejectCode::NotEnoughSpice, *why);
  if (!s.rulings.is(RulingId::RicheseBuyFullHand, kBuyFullHandOk) && hand.n >= hand_limit(s, kMe))
    return reject(RejectCode::IllegalChoice, "the special purchase needs a free hand slot (ruling richese_buy_full_hand)");
  return std::nullopt;
}

void buy_apply(GameState& s, const action::RicheseBuy& a) {
  auto& hand = s.of(kMe).hand;
  hand.remove(a.karama);
  to_treachery_discard(s, a.karama, kMe);
  s.richese.cache.remove(a.card);
  hand.push(a.card);
  SpiceAccount to = bank();
  const uint8_t payee = card_payee(s);
  if (payee != kNoFaction && !s.rulings.is(RulingId::RicheseBuyPayee, kBuyToBank)) {
    const auto emperor = static_cast<Faction>(payee);
    const Ability payment = faction_rules(emperor).receives_card_payments;
    if (ability_cancelled(s, emperor, payment)) {
      consume_prevention(s, emperor, payment);  // 3.01.11.02: this payment is its use opportunity
    } else {
      to = shield(emperor);
    }
  }
  transfer_spice(s, shield(kMe), to, kBuyPrice);
  s.richese.karama_used = 1;
}

// A card of Richese's already promised elsewhere (the gift's reservations).
std::optional<std::string> reserved(const GameState& s, uint8_t card) {
  const Seat me = my_seat(s);
  if (s.phase == Phase::Battle) {
    for (int i = 0; i < 2; ++i) {
      if ((i == 0 ? s.battle.aggressor : s.battle.defender) != me) continue;
      const auto& p = s.battle.plan[i];
      if (has_bit(s.battle.plans_in, me) && (p.weapon == card || p.defense == card || p.cheap_hero == card))
        return card_name(card) + " is part of the Richese battle plan (1.07.04)";
    }
    // 2.01.08: the Prescience answer binds the card it named.
    const auto& pr = s.atreides.battle;
    const uint8_t v = pr.prescience_value;  // 1 + element: 1 leader (100 + a Cheap Hero), 2 weapon, 3 defense
    if (s.has(Faction::Atreides) && pr.prescience && pr.prescience_answered && battle_target_of(s, Faction::Atreides) == me &&
        ((pr.prescience == 1 && v == 100 + card) || ((pr.prescience == 2 || pr.prescience == 3) && v == card)))
      return card_name(card) + " is the Richese answer to Prescience (2.01.08)";
  }
  if (market_lot(s, card)) return card_name(card) + " is up for bid on the Black Market";
  if (karama_pledged(s) && data::treachery_card(card).kind == data::TreacheryKind::Karama)
    return "your high bid was made with a Karama: your Karama cards stay in hand until the card is sold (3.01.11.04)";
  return std::nullopt;
}

// Seat x may hold a winning bid on the card up for bid (it needs a free slot
// for it), by public information only: the high bidder; in a silent auction
// every seat whose secret bid is in (its amount is secret: a bid of 0 too).
bool winning(const GameState& s, Seat x) {
  if (s.phase != Phase::Bidding || current_lot_card(s) == kNone8) return false;
  if (s.step == kAuction && rb(s).auction == AuctionKind::Silent) return has_bit(rb(s).turns, x);
  return s.bidding.high_bidder == x;
}

std::optional<Rejection> gift_validate(const GameState& s, const action::RicheseGift& a) {
  const uint8_t ally = ally_in_game(s, kMe);
  if (ally == kNoFaction) return reject(RejectCode::IllegalChoice, "the Richese give cards only to their ally, and they have none");
  if (a.card >= data::kNumAllTreacheryCards || !s.of(kMe).hand.contains(a.card) || !richese_card(a.card))
    return reject(RejectCode::IllegalChoice, "the gift is a Richese card from the Richese hand (CHOAM & Richese)");
  if (hand_full(s, static_cast<Faction>(ally))) return reject(RejectCode::IllegalChoice, "the ally's hand is full");
  if (winning(s, s.seat_of(static_cast<Faction>(ally))) && s.f[ally].hand.n + 2 > hand_limit(s, static_cast<Faction>(ally)))
    return reject(RejectCode::IllegalChoice, "the ally's last free slot is kept for the card it is winning in the auction");
  if (auto why = reserved(s, a.card)) return reject(RejectCode::IllegalChoice, *why);
  if (s.phase == Phase::Bidding && s.rulings.is(RulingId::RicheseGiftTiming, kNotDuringBidding))
    return reject(RejectCode::WrongPhase, "no gifts during the Bidding phase (ruling richese_gift_timing)");
  if (prevented_bit(s, static_cast<int>(kMe), static_cast<int>(Ability::RicheseGift)))
    return reject(RejectCode::IllegalChoice, "a Karama prevents the Richese gift until the Mentat Pause (3.01.11.02)");
  const auto& r = s.richese;
  if (s.rulings.is(RulingId::RicheseGiftRetry, kNoRetry) && r.gift_card == a.card && r.gift_turn == s.turn &&
      r.gift_phase == static_cast<uint8_t>(s.phase))
    return reject(RejectCode::IllegalChoice, "a Karama cancelled this gift: not again this phase (ruling richese_gift_retry)");
  return std::nullopt;
}

void gift_apply(Ctx& c, Seat seat, const action::RicheseGift& a) {
  auto& s = c.s;
  // The declaration is recorded (ruling richese_gift_retry reads it: a cancelled
  // gift leaves the card with Richese).
  s.richese.gift_card = a.card;
  s.richese.gift_turn = static_cast<uint8_t>(s.turn);
  s.richese.gift_phase = static_cast<uint8_t>(s.phase);
  if (karama_window(c, seat, Ability::RicheseGift, a)) return;  // 3.01.11.01: the pending intent waits
  // Resumed (or never asked): an intent made obsolete meanwhile ends without a transfer.
  const uint8_t ally = ally_in_game(s, kMe);
  if (ally == kNoFaction || !s.of(kMe).hand.contains(a.card) || hand_full(s, static_cast<Faction>(ally))) return;
  s.of(kMe).hand.remove(a.card);
  s.f[ally].hand.push(a.card);
  s.richese.gift_card = kNone8;  // given: nothing to retry
}

std::optional<Rejection> anytime_validate(const GameState& s, Seat seat, const Action& a) {
  if (!is_me(s, seat)) {
    const char* what = a.kind() == ActionKind::RicheseBuy      ? "buy from the Richese cache"
                       : a.kind() == ActionKind::RicheseReveal ? "reveal a No-Field token"
                                                               : "give a card as the Richese gift";
    return reject(RejectCode::IllegalChoice, std::string("only the Richese ") + what + " (CHOAM & Richese)");
  }
  if (const auto* buy = a.get_if<action::RicheseBuy>()) return buy_validate(s, *buy);
  if (a.kind() == ActionKind::RicheseReveal) return no_field_reveal_validate(s);
  return gift_validate(s, a.as<action::RicheseGift>());
}

void anytime_apply(Ctx& c, Seat seat, const Action& a) {
  if (const auto* buy = a.get_if<action::RicheseBuy>()) {
    buy_apply(c.s, *buy);
    return;
  }
  if (a.kind() == ActionKind::RicheseReveal) {
    no_field_reveal_apply(c.s);
    return;
  }
  gift_apply(c, seat, a.as<action::RicheseGift>());
}

uint8_t a_karama(const GameState& s) {
  const auto& hand = s.of(kMe).hand;
  for (int i = 0; i < hand.n; ++i)
    if (data::treachery_card(hand.ids[i]).kind == data::TreacheryKind::Karama && !market_lot(s, hand.ids[i])) return hand.ids[i];
  return kNone8;
}

void anytime_candidates(const GameState& s, std::vector<Action>& out) {
  if (const uint8_t k = a_karama(s); k != kNone8)
    for (int i = 0; i < s.richese.cache.n; ++i) out.push_back(action::RicheseBuy{.karama = k, .card = s.richese.cache.ids[i]});
  for (int i = 0; i < s.of(kMe).hand.n; ++i)
    if (richese_card(s.of(kMe).hand.ids[i])) out.push_back(action::RicheseGift{.card = s.of(kMe).hand.ids[i]});
}

void anytime_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!is_me(s, seat)) return;
  std::vector<Action> all;
  anytime_candidates(s, all);
  Decision buy{ActionKind::RicheseBuy, "Special Karama purchase, once a game: discard a Karama and pay 3 spice for a cache card",
               0, 0, {}};
  Decision gift{ActionKind::RicheseGift, "Give your ally a Richese card", 0, 0, {}};
  for (const auto& a : all) {
    if (const auto* b = a.get_if<action::RicheseBuy>()) {
      if (!buy_validate(s, *b)) buy.options.push_back(b->card);
    } else if (!gift_validate(s, a.as<action::RicheseGift>())) {
      gift.options.push_back(a.as<action::RicheseGift>().card);
    }
  }
  if (!buy.options.empty()) out.push_back(std::move(buy));
  if (!no_field_reveal_validate(s))
    out.push_back(Decision{ActionKind::RicheseReveal, "Reveal your No-Field token: it becomes that many of your forces from reserves where it is", 0, 0, {}});
  if (!gift.options.empty()) out.push_back(std::move(gift));
}

void anytime_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!is_me(s, seat)) return;
  std::vector<Action> all;
  anytime_candidates(s, all);
  for (const auto& a : all)
    if (!anytime_validate(s, seat, a)) out.push_back(a);
  if (!no_field_reveal_validate(s)) out.push_back(action::RicheseReveal{});
}

// 3.01.11.02: a prevented gift waits for the turn's end (the Mentat Pause).
bool pause_begins(GameState& s) {
  if (prevented_bit(s, static_cast<int>(kMe), static_cast<int>(Ability::RicheseGift))) consume_prevention(s, kMe, Ability::RicheseGift);
  return false;
}

// 3.01.11: the Richese abilities marked ✷ (a Karama prevents or cancels them).
constexpr AbilityInfo kAbilities[] = {
    {Ability::RicheseCache, kMe, "Richese cache", "auctioning a card of the Richese cache", ActionKind::RicheseLot},
    {Ability::RicheseBlackMarket, kMe, "Richese advanced", "the Black Market (a card of the Richese hand sold first)", ActionKind::RicheseLot},
    {Ability::RicheseGift, kMe, "Richese alliance", "giving the ally a Richese card", ActionKind::RicheseGift},
    {Ability::RicheseNoField, kMe, "Richese No-Field", "shipping with a No-Field token", ActionKind::Ship},
};

constexpr FactionRules make() {
  FactionRules r;
  r.abilities = kAbilities;
  r.bidding_step = {begins, lots, first_lot, row_done, step_validate, step_apply, step_decisions, step_legal, lot_card, promised, pledged, sealed};
  r.anytime = {owns, anytime_validate, anytime_apply, anytime_decisions, anytime_legal};
  r.mentat_pause_step = {pause_begins, nullptr, nullptr, nullptr, nullptr, ""};
  r.force_token = {no_field::check_ship, no_field::ship,         Ability::RicheseNoField, no_field::destroyed,
                   no_field::reveal,     no_field::moved,        no_field::max_dial,      no_field::plans_revealed,
                   no_field::dial_hidden, no_field::worm_ignores,  no_field::check_cancel,  no_field::cancelled,
                   no_field::check_permit, no_field::permit, no_field::permits};
  r.ship_turn_begins = no_field::turn_begins;  // 1.14.05: no token shipment to cancel yet
  return r;
}

}  // namespace

constinit const FactionRules kRicheseRules = make();

// The faction's entry in the owner table (core/rules/owners.h): no game
// events or modifiers yet; its abilities are reached through kRules' hooks.
constinit const Owner kRicheseOwner{"richese", OwnerKind::Faction, faction_seated<Faction::Richese>, {}, {}};

}  // namespace mentat::rules
