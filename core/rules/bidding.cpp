// 1.04 Bidding.
//
//  * 1.04.01/1.04.10 hand counts are public (every view shows them).
//  * 1.04.02/2.05.07 hand limits (hand_limit), 1.04.03 full hands are
//    ineligible: never asked, and their bids are rejected.
//  * 1.04.04 one card per eligible bidder is dealt from the treachery deck
//    into s.bidding.row (ids[0] first dealt, auctioned first). A sold card
//    leaves the row for the buyer's hand, so the card up for bid is always
//    row.ids[0] (bidding.index stays 0); its ordinal is dealt - row.n + 1.
//  * 1.04.05-1.04.06 the first eligible seat in storm order opens (>= 1 or
//    pass); bidding goes on to the right (next in storm order), skipping
//    ineligible seats and seats that passed on this card, until the top
//    bidder is the only one left (ruling passed_bidder: a pass is final for
//    the card, or a raise asks again every seat that passed before it).
//    1.04.06.04 no bid above one's spice.
//  * 1.04.06.03/2.03.04/2.03.05 the buyer pays the Emperor (the bank when the
//    Emperor buys, and for any share the Emperor pays himself).
//  * 2.05.08 the Harkonnen draw a free extra card when buying, unless their
//    hand is at its limit after the purchase.
//    Ruling emperor_ally_payment: when the Emperor buys, his ally's share
//    goes to the bank (default) or to the Emperor.
//  * 1.04.07 next card: first eligible seat to the right of the previous
//    opener (ruling next_opener_basis: the first seat asked, or the first
//    seat that bid). 1.04.08 end when the row is empty. 1.04.09 a card passed
//    by all: the rest of the row goes back on top of the deck (ruling
//    bought_in_order: first dealt on top, or last dealt on top).
//  * 3.01.11.04 Bid{karama}: bid beyond one's spice; the card is then bought
//    without paying and the Karama card discarded (Bid.card names the card
//    spent; 255 lets the engine choose). Ruling karama_bid_scope: any Karama
//    bid is free, or only one above the spice one may bid (a Karama bid
//    within it is an ordinary bid). Ruling bg_worthless_karama (1.14.06,
//    2.02.22): the Bene Gesserit may use a worthless card as a Karama in the
//    advanced game only, always, or never.
//  * 1.10.02.05 (partial, ruling ally_bid_support): an ally's spice counts
//    towards the bid limit and covers whatever the buyer cannot pay; the ally
//    is not asked (automatic), allies do not help at all (off), or the ally
//    helps up to the allowance it set with AllyPermission{bids} (permission;
//    each payment uses the allowance up, core/rules/deals.cpp). Ruling
//    ally_bid_payer: the buyer pays first and the ally the rest
//    (buyer_first), or the ally's backing first (ally_first).
//  * 2.01.05 can_see_card_up_for_bid: the Atreides (not their ally: 2.01.09
//    only extends Prescience in battle).
//  * The Richese lots (CHOAM & Richese; core/factions/richese.cpp through the
//    hook bidding_step): the Black Market before the deal, the cache lot
//    before or after the dealt cards; each lot counts among the round's
//    cards (the deal is that many fewer: lots). While GameState::step != 0
//    the Richese step owns the phase's actions.
// 1.14.04 (Harkonnen Karama power: take a hand) is played in this phase
// through core/rules/cards.cpp. 3.01.11.02 prevention (cards.cpp) of the
// automatic abilities: 2.01.05 the Atreides do not see the next card that
// comes up for bid (BiddingState::atreides_blind); 2.03.04 the next purchase
// paid with spice that would pay the Emperor pays the bank; 2.05.08 the
// Harkonnen's next purchase that would bring a free card brings none. No
// KaramaCancel window for these (3.01.11.01 is not implemented for them).
#include <algorithm>

#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

constexpr int kMaxBid = 255;  // Bid.amount is a ubyte in events/mentat.fbs

using data::TreacheryCategory;
using data::TreacheryKind;

// Ruling values (core/rulings.cpp).
constexpr uint8_t kLastDealtOnTop = 1;     // BoughtInOrder
constexpr uint8_t kAllyBidOff = 1;         // AllyBidSupport
constexpr uint8_t kAllyBidPermission = 2;  // AllyBidSupport
constexpr uint8_t kPayEmperor = 1;         // EmperorAllyPayment
constexpr uint8_t kOnlyAboveSpice = 1;     // KaramaBidScope
constexpr uint8_t kFirstBidder = 1;        // NextOpenerBasis
constexpr uint8_t kAskedAfterRaise = 1;    // PassedBidder

// ---- helpers ----------------------------------------------------------------

bool eligible_seat(const GameState& s, Seat seat) { return !hand_full(s, s.faction_at(seat)); }

uint8_t eligible_mask(const GameState& s) {
  uint8_t m = 0;
  for (Seat seat = 0; seat < s.num_seats; ++seat)
    if (eligible_seat(s, seat)) m |= bit(seat);
  return m;
}

// The faction's ally if it is in the game, else kNoFaction.
uint8_t ally_of(const GameState& s, Faction f) {
  const uint8_t a = s.of(f).ally;
  if (a >= kNumFactions || !s.has(static_cast<Faction>(a))) return kNoFaction;
  return a;
}

// 1.10.02.05 (ruling ally_bid_support): the ally whose spice backs f's bids, or kNoFaction.
uint8_t supporting_ally(const GameState& s, Faction f) {
  return s.rulings.is(RulingId::AllyBidSupport, kAllyBidOff) ? kNoFaction : ally_of(s, f);
}

// 1.10.02.05: how much of the supporting ally's spice may back a bid.
int ally_share(const GameState& s, Faction ally) {
  const int spice = s.of(ally).spice;
  return s.rulings.is(RulingId::AllyBidSupport, kAllyBidPermission) ? std::min<int>(spice, s.of(ally).permit_bids) : spice;
}

// 1.04.06.04 + 1.10.02.05: own spice plus the ally's, capped at the encodable bid.
int bid_limit_of(const GameState& s, Faction f) {
  int limit = s.of(f).spice;
  const uint8_t a = supporting_ally(s, f);
  if (a != kNoFaction) limit += ally_share(s, static_cast<Faction>(a));
  return std::min(limit, kMaxBid);
}

// 2.03.04: the faction in the game that receives card payments, or kNoFaction.
uint8_t card_payee(const GameState& s) {
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (faction_rules(static_cast<Faction>(fi)).receives_card_payments != Ability::None && s.has(static_cast<Faction>(fi)))
      return static_cast<uint8_t>(fi);
  return kNoFaction;
}

// The card spent on a Karama purchase: the Bene Gesserit spend a worthless
// card before a real Karama (which has more uses); kNone8 when none is held.
uint8_t karama_card_for(const GameState& s, Faction f) {
  const auto& hand = s.of(f).hand;
  uint8_t real = kNone8, worthless = kNone8;
  for (int i = 0; i < hand.n; ++i) {
    const uint8_t id = hand.ids[i];
    if (!counts_as_karama(s, f, id)) continue;
    if (data::treachery_card(id).kind == TreacheryKind::Karama) {
      if (real == kNone8) real = id;
    } else if (worthless == kNone8) {
      worthless = id;
    }
  }
  return worthless != kNone8 ? worthless : real;
}

int position_in(const std::vector<Seat>& order, Seat seat) {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] == seat) return static_cast<int>(i);
  return 0;
}

// ---- flow -------------------------------------------------------------------

// The faction (in the game) with lots of its own (the Richese), or null.
const FactionRules::BiddingStep* lot_steps(const GameState& s) {
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto& st = faction_rules(static_cast<Faction>(fi)).bidding_step; st.begins && s.has(static_cast<Faction>(fi))) return &st;
  return nullptr;
}

void finish(Ctx& c) {
  clear_bidding_scratch(c.s);
  c.s.step = 0;
  enter_phase(c, Phase::Revival);
}

// The dealt cards are done (sold, bought-in, or nobody can bid): a lot of a
// faction's may follow, else the phase ends.
void row_over(Ctx& c) {
  auto& b = c.s.bidding;  // the last card's bidding is over (a lot may follow)
  b.high_bid = 0;
  b.high_bidder = b.current = kNoSeat;
  b.passed = 0;
  b.karama_bid = 0;
  b.karama_card = kNone8;
  if (const auto* st = lot_steps(c.s); st && st->row_done && st->row_done(c)) return;
  finish(c);
}

// 1.04.09: the cards left in the row go back on top of the deck so that the
// first dealt of them is the top card again (ruling bought_in_order
// first_dealt_on_top), or one by one in the order dealt, the last dealt
// ending on top (last_dealt_on_top).
void return_row_to_deck(GameState& s) {
  auto& row = s.bidding.row;
  if (s.rulings.is(RulingId::BoughtInOrder, kLastDealtOnTop)) {
    for (int i = 0; i < row.n; ++i) s.treachery_deck.push(row.ids[i]);
  } else {
    for (int i = row.n - 1; i >= 0; --i) s.treachery_deck.push(row.ids[i]);
  }
  row.clear();
}

// Puts row.ids[0] up for bid. `first`: the first card of the phase (1.04.06),
// else 1.04.07 (first eligible to the right of the previous opener).
void open_card(Ctx& c, bool first) {
  auto& s = c.s;
  auto& b = s.bidding;
  if (b.row.empty()) {  // 1.04.08
    row_over(c);
    return;
  }
  b.index = 0;
  b.high_bid = 0;
  b.high_bidder = kNoSeat;
  b.passed = 0;
  b.karama_bid = 0;
  b.karama_card = kNone8;
  b.eligible = eligible_mask(s);
  const auto order = order_from_first(s);
  const int n = static_cast<int>(order.size());
  const int start = first ? 0 : position_in(order, b.opener) + 1;
  Seat opener = kNoSeat;
  for (int k = 0; k < n && opener == kNoSeat; ++k) {
    const Seat seat = order[(start + k) % n];
    if (has_bit(b.eligible, seat)) opener = seat;
  }
  if (opener == kNoSeat) {
    // Nobody can bid any more (hands filled up): the rest is not auctioned.
    return_row_to_deck(s);
    row_over(c);
    return;
  }
  b.opener = b.current = opener;
  s.waiting = bit(opener);
  // 2.01.05 / 3.01.11.02: a prevented look is this card's (the next card up for bid).
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto h = faction_rules(static_cast<Faction>(fi)).card_up_for_bid;
    if (h && s.has(static_cast<Faction>(fi))) h(s);
  }
}

// 1.10.02.05 ALLIES: allies may help each other by paying some or all the
// cost of each other's Treachery Card bids. Of `amount`, what the buyer's
// spice and what its supporting ally's backing pay (ruling ally_bid_payer):
// buyer_first, the buyer what it holds and the ally the rest; ally_first, the
// ally what its backing allows (its spice, or the allowance under
// ally_bid_support=permission) and the buyer the rest.
constexpr uint8_t kAllyFirst = 1;  // AllyBidPayer
struct BidShares {
  int own = 0, ally = 0;
};
BidShares bid_shares(const GameState& s, Faction buyer, uint8_t ally, int amount) {
  const int share = ally == kNoFaction ? 0 : ally_share(s, static_cast<Faction>(ally));
  BidShares out;
  if (s.rulings.is(RulingId::AllyBidPayer, kAllyFirst)) {
    out.ally = std::clamp(amount, 0, share);
    out.own = std::min<int>(amount - out.ally, s.of(buyer).spice);
  } else {
    out.own = std::min<int>(amount, s.of(buyer).spice);
    out.ally = std::clamp(amount - out.own, 0, share);
  }
  return out;
}

// 1.04.06.03, 2.03.04, 2.03.05, 1.10.02.05: the payee is the faction whose
// hook receives_card_payments names its ability (the Emperor), else the bank.
// 3.01.11.02: a prevented 2.03.04 sends the next payment the Emperor would
// receive (a purchase paid with spice) to the bank, 1.04.06.03.
// A faction's lot (`lot_seller`, not the buyer): the buyer's spice goes to the
// seller; an ally's share too, unless the ally is the seller (then 2.03.04).
void pay_for_card(GameState& s, Faction buyer, int amount, uint8_t lot_seller = kNoFaction) {
  const uint8_t a = supporting_ally(s, buyer);
  const BidShares shares = bid_shares(s, buyer, a, amount);
  if (lot_seller != kNoFaction && lot_seller != static_cast<uint8_t>(buyer)) {
    const int own = shares.own;
    if (own > 0) transfer_spice(s, shield(buyer), shield(static_cast<Faction>(lot_seller)), own);
    if (a == kNoFaction) return;
    const auto ally = static_cast<Faction>(a);
    const int part = shares.ally;
    if (part <= 0) return;
    if (s.rulings.is(RulingId::AllyBidSupport, kAllyBidPermission))
      s.of(ally).permit_bids = static_cast<uint16_t>(s.of(ally).permit_bids - part);
    if (a != lot_seller) {
      transfer_spice(s, shield(ally), shield(static_cast<Faction>(lot_seller)), part);
      return;
    }
    const uint8_t payee = card_payee(s);  // the lot_seller's own spice never pays itself: the Emperor, or the bank
    const bool to_emperor = payee != kNoFaction && payee != a;
    transfer_spice(s, shield(ally), to_emperor ? shield(static_cast<Faction>(payee)) : bank(), part);
    return;
  }
  const uint8_t payee = card_payee(s);
  const bool emperor_in = payee != kNoFaction;
  const auto emperor = static_cast<Faction>(payee);  // used only when emperor_in
  const Ability payment = emperor_in ? faction_rules(emperor).receives_card_payments : Ability::None;
  const bool buyer_is_emperor = static_cast<uint8_t>(buyer) == payee;
  const bool prevented = emperor_in && amount > 0 && ability_cancelled(s, emperor, payment);
  const bool to_emperor = emperor_in && !buyer_is_emperor && !prevented;
  const SpiceAccount seller = to_emperor ? shield(emperor) : bank();
  const int own = shares.own;
  bool paid_emperor = emperor_in && !buyer_is_emperor && own > 0;  // 2.03.04 was used
  if (own > 0) transfer_spice(s, shield(buyer), seller, own);
  int rest = amount - own;
  if (rest > 0 && a != kNoFaction) {
    const auto ally = static_cast<Faction>(a);
    const int part = shares.ally;
    if (s.rulings.is(RulingId::AllyBidSupport, kAllyBidPermission))
      s.of(ally).permit_bids = static_cast<uint16_t>(s.of(ally).permit_bids - part);
    // The Emperor's own spice never pays the Emperor (2.03.05 fair market).
    // Ruling emperor_ally_payment: the ally's share of the Emperor's own
    // purchase goes to the bank (1.04.06.03) or to the Emperor (2.03.04).
    const bool ally_is_emperor = a == payee;
    SpiceAccount to = ally_is_emperor ? bank() : seller;
    if (!ally_is_emperor && !buyer_is_emperor && emperor_in && part > 0) paid_emperor = true;
    if (buyer_is_emperor && s.rulings.is(RulingId::EmperorAllyPayment, kPayEmperor) && part > 0) {
      paid_emperor = true;
      if (!prevented) to = shield(emperor);
    }
    if (part > 0) transfer_spice(s, shield(ally), to, part);
    rest -= part;
  }
  if (prevented && paid_emperor) consume_prevention(s, emperor, payment);
  // rest > 0 only if spice left the buyer and ally between the bid and the
  // sale (a bribe); they pay what they have.
}

void sell(Ctx& c) {
  auto& s = c.s;
  auto& b = s.bidding;
  const Faction buyer = s.faction_at(b.high_bidder);
  auto& hand = s.of(buyer).hand;
  const uint8_t card = b.row.ids[0];
  b.row.remove(card);
  // The card the buyer named (still in hand), else the automatic choice.
  uint8_t karama = kNone8;
  if (b.karama_bid)
    karama = (b.karama_card != kNone8 && hand.contains(b.karama_card)) ? b.karama_card : karama_card_for(s, buyer);
  if (karama != kNone8) {
    // 3.01.11.04: bought without paying; the Karama is discarded.
    hand.remove(karama);
    to_treachery_discard(s, karama, buyer);
  } else {
    pay_for_card(s, buyer, b.high_bid);
  }
  // Ruling karama_automatic_use = next_occasion: any sale is 2.03.04's occasion.
  if (const uint8_t payee = card_payee(s); prevention_at_next_occasion(s) && payee != kNoFaction)
    consume_prevention(s, static_cast<Faction>(payee), faction_rules(static_cast<Faction>(payee)).receives_card_payments);
  hand.push(card);
  if (const auto h = faction_rules(buyer).bought_card) h(c);  // 2.05.08
  open_card(c, false);
}

// After a bid or a pass by the current seat: the next seat to the right still
// in the bidding, the sale, or 1.04.09.
void advance(Ctx& c) {
  auto& s = c.s;
  auto& b = s.bidding;
  const auto order = order_from_first(s);
  const int n = static_cast<int>(order.size());
  const int at = position_in(order, b.current);
  Seat next = kNoSeat;
  for (int k = 1; k <= n && next == kNoSeat; ++k) {
    const Seat seat = order[(at + k) % n];
    if (has_bit(b.eligible, seat) && !has_bit(b.passed, seat)) next = seat;
  }
  if (next == kNoSeat) {
    // 1.04.09 BOUGHT-IN: everyone passed on this card.
    s.waiting = 0;
    return_row_to_deck(s);
    row_over(c);
    return;
  }
  if (next == b.high_bidder) {
    s.waiting = 0;
    sell(c);
    return;
  }
  b.current = next;
  s.waiting = bit(next);
}

// 1.04.04: one card per eligible bidder, face down in a row, fewer by the
// lots of a faction's that count among the round's cards (the Richese).
void deal(Ctx& c) {
  auto& s = c.s;
  s.step = 0;
  const auto* st = lot_steps(s);
  const int eligible = popcount8(eligible_mask(s)) - (st && st->lots ? st->lots(s) : 0);
  for (int i = 0; i < eligible; ++i) {
    const uint8_t card = draw_treachery(c);
    if (card == kNone8) break;
    s.bidding.row.push(card);
  }
  s.bidding.dealt = s.bidding.row.n;
  if (st && st->first_lot && st->first_lot(c)) return;
  open_card(c, true);
}

// ---- phase interface ----------------------------------------------------------

void enter(Ctx& c) {
  auto& s = c.s;
  clear_bidding_scratch(s);
  s.waiting = 0;
  s.step = 0;
  raise(s, PhaseBegins{Phase::Bidding});  // the owners' phase start (core/rules/owners.h)
  // 1.04.01 declaration: hand counts are public in every view.
  if (const auto* st = lot_steps(s); st && st->begins(c)) return;  // the Black Market, the cache lot's timing
  deal(c);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (s.step != 0) {
    const auto* st = lot_steps(s);
    if (!st) return reject(RejectCode::WrongPhase, "no card is up for bid");
    return st->validate(s, seat, a);
  }
  if (a.kind() != ActionKind::Bid && a.kind() != ActionKind::Pass)
    return reject(RejectCode::WrongPhase, "the bidding phase takes only Bid or Pass");
  const auto& b = s.bidding;
  const Faction me = s.faction_at(seat);
  if (!has_bit(s.waiting, seat) || b.current != seat) {
    if (a.kind() == ActionKind::Bid && hand_full(s, me))
      return reject(RejectCode::IllegalChoice, "your hand is full (" + std::to_string(s.of(me).hand.n) +
                                                   " cards): a full hand may not bid (1.04.03)");
    if (has_bit(b.passed, seat))
      return reject(RejectCode::NotYourDecision, "you passed on this card and are out of its bidding (1.04.06.02)");
    if (b.current != kNoSeat)
      return reject(RejectCode::NotYourDecision,
                    "it is " + std::string(faction_name(s.faction_at(b.current))) + "'s turn to bid");
    return reject(RejectCode::NotYourDecision, "no card is up for bid");
  }
  if (a.kind() == ActionKind::Pass) return std::nullopt;
  const auto& bid = a.as<action::Bid>();
  if (hand_full(s, me))  // filled since the card came up (a gift): only a pass
    return reject(RejectCode::IllegalChoice, "your hand is full: a full hand may not bid (1.04.03); pass");
  if (bid.amount == 0) return reject(RejectCode::IllegalChoice, "a bid must be 1 spice or more; pass instead (1.04.06.02)");
  if (bid.amount <= b.high_bid)
    return reject(RejectCode::IllegalChoice, "a bid must raise the high bid of " + std::to_string(b.high_bid) + " spice");
  if (bid.card != kNone8 && !bid.karama)
    return reject(RejectCode::Malformed, "a card is named only in a Karama bid (3.01.11.04)");
  if (bid.karama) {
    if (bid.card != kNone8) {
      if (bid.card >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "unknown treachery card");
      const std::string name(data::treachery_card(bid.card).name);
      if (!s.of(me).hand.contains(bid.card)) return reject(RejectCode::IllegalChoice, name + " is not in your hand");
      if (!counts_as_karama(s, me, bid.card))
        return reject(RejectCode::IllegalChoice,
                      name + " is not a Karama card (3.01.11.04" +
                          (faction_rules(me).worthless_as_karama ? std::string(
                                                             "; a worthless card counts only as the ruling "
                                                             "bg_worthless_karama allows)")
                                                       : std::string(")")));
      return std::nullopt;
    }
    if (karama_card_for(s, me) == kNone8)
      return reject(RejectCode::IllegalChoice, "a Karama bid needs a Karama card in your hand (3.01.11.04)");
    return std::nullopt;
  }
  const int limit = bid_limit_of(s, me);
  if (bid.amount > limit) {
    const bool allied = supporting_ally(s, me) != kNoFaction;
    return reject(RejectCode::NotEnoughSpice,
                  "you may not bid more than the " + std::to_string(limit) + " spice you " +
                      (allied ? "and your ally hold" : "hold") + " (1.04.06.04)");
  }
  return std::nullopt;
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  auto& b = s.bidding;
  if (s.step != 0) {
    lot_steps(s)->apply(c, seat, a);
    return;
  }
  if (a.kind() == ActionKind::Pass) {
    b.passed |= bit(seat);
  } else {
    // Ruling next_opener_basis first_bidder: the first bid opens the bidding (1.04.07).
    if (b.high_bidder == kNoSeat && s.rulings.is(RulingId::NextOpenerBasis, kFirstBidder)) b.opener = seat;
    // Ruling karama_bid_scope only_above_spice: a Karama bid within what one
    // may bid in spice is an ordinary bid (paid, the Karama kept).
    const auto& bid = a.as<action::Bid>();
    bool karama = bid.karama;
    if (karama && s.rulings.is(RulingId::KaramaBidScope, kOnlyAboveSpice) && bid.amount <= bid_limit_of(s, s.faction_at(seat)))
      karama = false;
    b.high_bid = bid.amount;
    b.high_bidder = seat;
    // Ruling passed_bidder asked_after_raise: the passes were on the old bid.
    if (s.rulings.is(RulingId::PassedBidder, kAskedAfterRaise)) b.passed = 0;
    b.karama_bid = karama ? 1 : 0;
    b.karama_card = karama ? bid.card : kNone8;
  }
  advance(c);
}

// The lowest Karama bid worth offering: under karama_bid_scope
// only_above_spice a Karama counts only above the spice one may bid.
int karama_min(const GameState& s, Faction me) {
  const int min = s.bidding.high_bid + 1;
  if (s.rulings.is(RulingId::KaramaBidScope, kOnlyAboveSpice)) return std::max(min, bid_limit_of(s, me) + 1);
  return min;
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  const auto& b = s.bidding;
  if (s.step != 0) {
    if (const auto* st = lot_steps(s)) st->decisions(s, seat, out);
    return;
  }
  if (!has_bit(s.waiting, seat) || b.current != seat || b.row.empty()) return;
  const Faction me = s.faction_at(seat);
  const std::string card = "card " + std::to_string(b.dealt - b.row.n + 1) + " of " + std::to_string(b.dealt);
  if (hand_full(s, me)) {  // filled since the card came up: only a pass (1.04.03)
    out.push_back(Decision{ActionKind::Pass, "Pass on " + card + " (your hand is full)", 0, 0, {}});
    return;
  }
  const int min = b.high_bid + 1;
  const int max = bid_limit_of(s, me);
  if (min <= max)
    out.push_back(Decision{ActionKind::Bid,
                           "Bid on " + card + ": from " + std::to_string(min) + " to " + std::to_string(max) + " spice, or pass",
                           min, max, {}});
  const int kmin = karama_min(s, me);
  if (kmin <= kMaxBid && karama_card_for(s, me) != kNone8)
    out.push_back(Decision{ActionKind::Bid,
                           "Bid on " + card + " with a Karama: " + std::to_string(kmin) +
                               " spice or more; if you win, you discard the Karama and pay nothing",
                           kmin, kMaxBid, {}});
  out.push_back(Decision{ActionKind::Pass, "Pass on " + card, 0, 0, {}});
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  const auto& b = s.bidding;
  if (s.step != 0) {
    if (const auto* st = lot_steps(s)) st->legal(s, seat, out);
    return;
  }
  if (!has_bit(s.waiting, seat) || b.current != seat || b.row.empty()) return;
  const Faction me = s.faction_at(seat);
  if (hand_full(s, me)) {  // filled since the card came up: only a pass (1.04.03)
    out.push_back(action::Pass{});
    return;
  }
  const int min = b.high_bid + 1;
  const int max = bid_limit_of(s, me);
  auto add = [&](int amount, bool karama) {
    action::Bid a;
    a.amount = static_cast<uint8_t>(amount);
    a.karama = karama;
    for (const auto& o : out)
      if (o == a) return;
    out.push_back(a);
  };
  if (min <= max) {
    add(min, false);
    if (min + 1 <= max) add(min + 1, false);
    add(max, false);
  }
  const int kmin = karama_min(s, me);
  if (kmin <= kMaxBid && karama_card_for(s, me) != kNone8) {
    add(kmin, true);
    if (max + 1 > kmin && max + 1 <= kMaxBid) add(max + 1, true);  // beyond one's spice
  }
  action::Pass pass;
  out.push_back(pass);
}

}  // namespace

uint8_t current_lot_card(const GameState& s) {
  if (s.phase != Phase::Bidding) return kNone8;
  if (s.step != 0) {
    const auto* st = lot_steps(s);
    return st && st->lot_card ? st->lot_card(s) : kNone8;
  }
  return s.bidding.row.empty() ? kNone8 : s.bidding.row.ids[0];
}

// 2.01.05 (hook sees_card_up_for_bid): the Atreides may look at the card up for bid.
bool can_see_card_up_for_bid(const GameState& s, Faction f) {
  const auto h = faction_rules(f).sees_card_up_for_bid;
  return h && s.has(f) && current_lot_card(s) != kNone8 && h(s);
}

void bidding_deal(Ctx& c) { deal(c); }

// A lot after the dealt cards finds the row empty: open_card ends the phase
// through row_over (the faction's row_done has nothing more).
void bidding_lot_done(Ctx& c) {
  auto& s = c.s;
  s.step = 0;
  s.waiting = 0;
  s.bidding.high_bid = 0;
  s.bidding.high_bidder = s.bidding.current = kNoSeat;
  s.bidding.passed = 0;
  open_card(c, s.bidding.opener == kNoSeat);
}

bool lot_promises(const GameState& s, Seat seat, uint8_t card) {
  if (s.phase != Phase::Bidding || s.step == 0) return false;
  const auto* st = lot_steps(s);
  return st && st->promised && st->promised(s, seat, card);
}

bool lots_sold(const GameState& s) { return lot_steps(s) != nullptr; }

int bid_limit(const GameState& s, Faction f) { return bid_limit_of(s, f); }

std::optional<std::string> spending_breaks_bid(const GameState& s, Faction f, int amount) {
  if (s.phase != Phase::Bidding || amount <= 0) return std::nullopt;
  const auto* st = s.step != 0 ? lot_steps(s) : nullptr;
  for (Seat x = 0; x < s.num_seats; ++x) {
    const Faction xf = s.faction_at(x);
    int pledge = s.bidding.high_bidder == x && !s.bidding.karama_bid ? s.bidding.high_bid : 0;
    if (st && st->pledged) pledge = std::max(pledge, st->pledged(s, x));
    const uint8_t backer = supporting_ally(s, xf);
    // An ally's sealed bid (a silent lot): its amount is hidden from f, so f's spice stays as long as it is in,
    // whatever the amount (a refusal that depended on it would tell f the bid).
    const bool backs = !s.rulings.is(RulingId::AllyBidSupport, kAllyBidPermission) || s.of(f).permit_bids > 0;
    if (xf != f && backer == static_cast<uint8_t>(f) && backs && st && st->sealed && st->sealed(s, x))
      return std::string("your ally's sealed bid is in: your spice may back it until the lot is sold (1.10.02.05)");
    if (pledge == 0 || (xf != f && backer != static_cast<uint8_t>(f))) continue;  // f's spice does not pay x's bid
    // What x may pay with f's spice `amount` lower.
    const int own = s.of(xf).spice - (xf == f ? amount : 0);
    int share = 0;
    if (backer != kNoFaction) {
      const auto a = static_cast<Faction>(backer);
      const int sp = s.of(a).spice - (a == f ? amount : 0);
      share = s.rulings.is(RulingId::AllyBidSupport, kAllyBidPermission) ? std::min<int>(sp, s.of(a).permit_bids) : sp;
    }
    if (own + share < pledge)
      return xf == f ? "your spice is promised to your bid of " + std::to_string(pledge) + " spice"
                     : "your spice backs your ally's bid of " + std::to_string(pledge) + " spice (1.10.02.05)";
  }
  return std::nullopt;
}
void pay_for_lot(GameState& s, Faction buyer, int amount, Faction seller) { pay_for_card(s, buyer, amount, static_cast<uint8_t>(seller)); }

const PhaseRules& bidding_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
