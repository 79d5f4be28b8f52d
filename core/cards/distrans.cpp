// Distrans (CHOAM & Richese, a Richese card; docs/cards/richese-cards.md).
//
// PlayCard{card = Distrans, target = the receiving faction, value = the card
// given}: at any time after setup except during a bid, the holder gives one
// card of its hand to another player whose hand is not full; the given card
// goes from hand to hand (never through the discard pile), Distrans is
// discarded. No fee, no recipient's consent, not a faction ability (a Karama
// cancels nothing here). The given card may not be committed (a battle plan's
// card, a Black Market lot, a Karama high bid's cards: cards.cpp committed()).
//
// Rulings (core/rulings.h):
//  * distrans_span (reference RP-distrans-during-bidding): `lot` (the seeds'
//    bounded policy) — no Distrans while a lot is unresolved in the Bidding
//    phase: a card up for bid, or a faction's lot (the Richese cache lot, the
//    Black Market) from its offer to its payment; between lots it may be
//    played (the next dealt card is up for bid at once, so in practice at a
//    faction's step before its lot is offered, e.g. the Richese choosing
//    their cache lot's timing, and once the round's cards are sold); `no_standing_bid`
//    (treachery.online) — in the regular auction only while no bid stands on
//    the card up for bid, never during a faction's lot. A recipient whose
//    hand the gift fills only passes (bidding.cpp, 1.04.03).
//  * distrans_self: Distrans as the given card: `rejected` (both programs and
//    the seeds: one physical card cannot be given and discarded), or `given`
//    (the card goes to the recipient and is not discarded).
//
// The given card's face is the giver's and the recipient's secret: reports
// name it to the giver only (inspect/report.cpp), the custody diff says "a
// treachery card: hand:X -> hand:Y".
#include "core/cards/card_rules.h"

namespace mentat::rules {
namespace {

using data::TreacheryKind;

constexpr uint8_t kSpanLot = 0;       // RulingId::DistransSpan
constexpr uint8_t kSelfGiven = 1;     // RulingId::DistransSelf

std::string name_of(uint8_t card) { return std::string(data::treachery_card(card).name); }

// "Other than during a bid" under ruling distrans_span.
std::optional<std::string> during_a_bid(const GameState& s) {
  if (s.phase != Phase::Bidding) return std::nullopt;
  // No card up for bid: between lots (a faction's step before its lot is
  // offered: the Richese choosing the cache lot's timing, card or auction,
  // or the Black Market card), or once the round's cards are sold.
  if (current_lot_card(s) == kNone8) return std::nullopt;
  if (s.step != 0)  // a faction's lot (the Richese cache lot, the Black Market) from its offer to its payment: never
    return "a lot is being auctioned: Distrans is played other than during a bid (ruling distrans_span)";
  if (s.rulings.is(RulingId::DistransSpan, kSpanLot))
    return "a card is up for bid: Distrans waits until its auction ends (ruling distrans_span = lot)";
  if (s.bidding.high_bidder != kNoSeat)
    return "a bid stands on the card up for bid: Distrans is played other than during a bid (ruling distrans_span = no_standing_bid)";
  return std::nullopt;
}

std::optional<Rejection> check(const GameState& s, Seat seat, const action::PlayCard& a) {
  const Faction me = s.faction_at(seat);
  if (a.target >= kNumFactions || !s.has(static_cast<Faction>(a.target)))
    return reject(RejectCode::Malformed, "name the player who receives the card (target: a faction in the game)");
  const auto to = static_cast<Faction>(a.target);
  if (to == me) return reject(RejectCode::IllegalChoice, "Distrans gives a card to another player");
  if (a.value >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "name the card you give (value: a card id in your hand)");
  if (!s.of(me).hand.contains(a.value)) return reject(RejectCode::IllegalChoice, name_of(a.value) + " is not in your hand");
  if (a.value == a.card && !s.rulings.is(RulingId::DistransSelf, kSelfGiven))
    return reject(RejectCode::IllegalChoice, "Distrans is discarded as it is used: give another card (ruling distrans_self)");
  if (auto why = card_committed(s, seat, a.value)) return reject(RejectCode::IllegalChoice, *why);
  if (hand_full(s, to))
    return reject(RejectCode::IllegalChoice, std::string(faction_name(to)) + "'s hand is full: Distrans gives only to a player whose hand is not full");
  if (auto why = during_a_bid(s)) return reject(RejectCode::WrongPhase, *why);
  return std::nullopt;
}

void apply(Ctx& c, Seat seat, const action::PlayCard& a) {
  auto& s = c.s;
  auto& hand = s.of(s.faction_at(seat)).hand;
  const auto to = static_cast<Faction>(a.target);
  if (a.value == a.card) {  // ruling distrans_self = given: the card itself changes hands
    if (hand.remove(a.card)) s.of(to).hand.push(a.card);
    return;
  }
  if (hand.remove(a.value)) s.of(to).hand.push(a.value);
  if (hand.remove(a.card)) to_treachery_discard(s, a.card, s.faction_at(seat));
}

void candidates(const GameState& s, Seat seat, const action::PlayCard& base, std::vector<Action>& out) {
  const Faction me = s.faction_at(seat);
  const auto& hand = s.of(me).hand;
  for (int f = 0; f < kNumFactions; ++f) {
    if (!s.has(static_cast<Faction>(f)) || static_cast<Faction>(f) == me) continue;
    for (int i = 0; i < hand.n; ++i) {
      action::PlayCard a = base;
      a.target = static_cast<uint8_t>(f);
      a.value = hand.ids[i];
      out.push_back(a);
    }
  }
}

std::string prompt(const GameState&, Seat) {
  return "Play Distrans: give a card of your hand to another player whose hand is not full, "
         "except during a bid; Distrans is discarded";
}

}  // namespace

const CardRules kDistransRules{TreacheryKind::Distrans, check, apply, candidates, prompt, {}};

}  // namespace mentat::rules
