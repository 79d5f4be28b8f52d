// Scenario tests of the Bidding phase (1.04) and the abilities it references:
// 2.01.05 (Atreides), 2.03.04/2.03.05 (Emperor), 2.05.07/2.05.08
// (Harkonnen), 3.01.11.04 (Karama), 1.14.06 (Bene Gesserit worthless as
// Karama, advanced), 1.10.02.05 (allies pay for each other's cards).
//
// Each scenario reaches the bidding phase with scenario::play_until, puts the
// dealt row back on top of the deck, adjusts hands and spice (every card
// moved between piles, spice moved from/to the bank) and deals again by
// re-entering the phase, so dealing itself is under test.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/rules/rules.h"
#include "events/codec.h"
#include "inspect/projection.h"
#include "support/scenario.h"

using namespace scenario;

namespace {

using data::TreacheryCategory;
using data::TreacheryKind;

// Removes a treachery card from wherever it is (each card is in one pile).
void take_card(GameState& s, uint8_t id) {
  if (s.treachery_deck.remove(id) || s.treachery_discard.remove(id) || s.bidding.row.remove(id)) return;
  for (auto& fs : s.f)
    if (fs.hand.remove(id)) return;
  FAIL("card " << int(id) << " is nowhere");
}

void give(GameState& s, Faction f, uint8_t id) {
  take_card(s, id);
  s.of(f).hand.push(id);
}

uint8_t card_of_kind(TreacheryKind k, int copy = 0) {
  for (int i = 0; i < data::kNumTreacheryCards; ++i)
    if (data::treachery_card(static_cast<uint8_t>(i)).kind == k && copy-- == 0) return static_cast<uint8_t>(i);
  FAIL("no such card");
  return kNone8;
}

bool plain_card(uint8_t id) {
  const auto& c = data::treachery_card(id);
  return c.kind != TreacheryKind::Karama && c.category != TreacheryCategory::Worthless;
}

// Discards the whole hand, then gives `n` plain cards (no Karama, no
// worthless card) taken from the bottom of the deck.
void set_hand(GameState& s, Faction f, int n) {
  auto& hand = s.of(f).hand;
  while (!hand.empty()) s.treachery_discard.push(hand.pop());
  for (int i = 0; i < s.treachery_deck.n && hand.n < n;) {
    const uint8_t id = s.treachery_deck.ids[i];
    if (plain_card(id)) {
      give(s, f, id);
    } else {
      ++i;
    }
  }
  REQUIRE(hand.n == n);
}

// Reaches the bidding phase and undoes the deal (row back on top of the deck).
GameState at_bidding(std::initializer_list<Faction> factions, bool advanced = false,
                     Rulings rulings = Rulings::defaults()) {
  GameState s = game(factions, advanced, 7, rulings);
  play_until(s, Phase::Bidding);
  REQUIRE(s.phase == Phase::Bidding);
  auto& row = s.bidding.row;
  for (int i = row.n - 1; i >= 0; --i) s.treachery_deck.push(row.ids[i]);
  s.bidding = BiddingState{};
  s.waiting = 0;
  // Plain hands for everyone, so no Karama is held by accident.
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto f = static_cast<Faction>(fi);
    if (s.has(f)) set_hand(s, f, s.of(f).hand.n);
  }
  return s;
}

// Deals the row again (1.04.04) with the adjusted hands.
void start(GameState& s) {
  rules::Ctx c{s, nullptr};
  rules::enter_phase(c, Phase::Bidding);
  auto v = inspect::check_invariants(s);
  INFO("invariant " << (v ? v->invariant + ": " + v->detail : ""));
  REQUIRE_FALSE(v.has_value());
}

Faction fac(const GameState& s, Seat seat) { return s.faction_at(seat); }

// The seat to bid, checking that exactly that seat is waited for.
Seat to_bid(const GameState& s) {
  REQUIRE(s.phase == Phase::Bidding);
  REQUIRE(s.bidding.current != kNoSeat);
  REQUIRE(s.waiting == rules::bit(s.bidding.current));
  return s.bidding.current;
}

// The next card to be drawn from the treachery deck (kNone8 if empty).
uint8_t deck_top(const GameState& s, int depth = 0) {
  return s.treachery_deck.n > depth ? s.treachery_deck.ids[s.treachery_deck.n - 1 - depth] : kNone8;
}

}  // namespace

TEST_CASE("1.04.04 one card per eligible bidder is dealt face down from the top of the deck", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor, Faction::Guild});
  set_hand(s, Faction::Guild, 4);  // full: not eligible (1.04.03)
  const int deck_before = s.treachery_deck.n;
  const uint8_t c0 = deck_top(s, 0), c1 = deck_top(s, 1), c2 = deck_top(s, 2);
  start(s);
  REQUIRE(s.bidding.row.n == 3);
  REQUIRE(s.bidding.dealt == 3);
  CHECK(s.bidding.row.ids[0] == c0);
  CHECK(s.bidding.row.ids[1] == c1);
  CHECK(s.bidding.row.ids[2] == c2);
  CHECK(s.treachery_deck.n == deck_before - 3);
  CHECK(s.bidding.index == 0);
  CHECK(s.bidding.high_bid == 0);
  CHECK(s.bidding.high_bidder == kNoSeat);
}

TEST_CASE("1.04.02 2.05.07 hand limits: 4 cards, 8 for the Harkonnen", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  CHECK(rules::hand_limit(s, Faction::Atreides) == 4);
  CHECK(rules::hand_limit(s, Faction::Emperor) == 4);
  CHECK(rules::hand_limit(s, Faction::Harkonnen) == 8);
  set_hand(s, Faction::Atreides, 4);
  set_hand(s, Faction::Emperor, 4);

  SECTION("a Harkonnen with 7 cards is eligible; the purchase makes 8 and no extra card (2.05.08)") {
    set_hand(s, Faction::Harkonnen, 7);
    set_spice(s, Faction::Harkonnen, 10);
    start(s);
    REQUIRE(s.bidding.row.n == 1);  // one eligible bidder
    const uint8_t card = s.bidding.row.ids[0];
    const uint8_t next = deck_top(s);
    REQUIRE(to_bid(s) == seat(s, Faction::Harkonnen));
    act(s, Faction::Harkonnen, bid(1));
    // The only eligible bidder: sold at once, and the phase is over.
    CHECK(s.phase != Phase::Bidding);
    CHECK(s.of(Faction::Harkonnen).hand.n == 8);
    CHECK(s.of(Faction::Harkonnen).hand.contains(card));
    CHECK(deck_top(s) == next);  // no free card drawn
  }
  SECTION("a Harkonnen with 8 cards is not eligible: nothing is dealt") {
    set_hand(s, Faction::Harkonnen, 8);
    const int deck_before = s.treachery_deck.n;
    start(s);
    CHECK(s.phase != Phase::Bidding);
    CHECK(s.treachery_deck.n == deck_before);
    CHECK(s.of(Faction::Harkonnen).hand.n == 8);
  }
}

TEST_CASE("1.04.03 a full hand is not eligible: never asked, and its bids are rejected", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor, Faction::Guild});
  const auto o = storm_order(s);
  const Faction full = fac(s, o[0]);
  set_hand(s, full, rules::hand_limit(s, full));
  for (Seat x : o) set_spice(s, fac(s, x), 5);
  start(s);
  REQUIRE(s.bidding.row.n == 3);
  CHECK(to_bid(s) == o[1]);  // 1.04.06: the first player is skipped
  auto r = rejected(s, full, bid(1));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK(r.reason.find("full") != std::string::npos);
  for (const auto& d : decisions(s, o[0])) CHECK(d.kind == ActionKind::PlayCard);  // only cards (core/rules/cards.cpp)
  for (const auto& a : legal_actions(s, o[0])) CHECK(a.kind() == ActionKind::PlayCard);
  // o[1] bids, o[2] and o[3] pass: sold without asking the full hand.
  const uint8_t card = s.bidding.row.ids[0];
  act(s, fac(s, o[1]), bid(1));
  REQUIRE(to_bid(s) == o[2]);
  act(s, fac(s, o[2]), pass());
  REQUIRE(to_bid(s) == o[3]);
  act(s, fac(s, o[3]), pass());
  CHECK(s.of(fac(s, o[1])).hand.contains(card));
  CHECK(s.bidding.row.n == 2);
  CHECK(to_bid(s) == o[2]);  // 1.04.07: right of the previous opener o[1]
}

TEST_CASE("1.04.01 hand counts are declared: dealing does not change them", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen});
  set_hand(s, Faction::Atreides, 3);
  set_hand(s, Faction::Harkonnen, 5);
  start(s);
  // The row is face down and belongs to nobody; hands are unchanged.
  CHECK(s.of(Faction::Atreides).hand.n == 3);
  CHECK(s.of(Faction::Harkonnen).hand.n == 5);
  CHECK(s.bidding.row.n == 2);
}

TEST_CASE("1.04.06 the first eligible player in storm order opens", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor, Faction::Guild});
  const auto o = storm_order(s);
  SECTION("the first player is eligible") {
    start(s);
    CHECK(to_bid(s) == o[0]);
    CHECK(s.bidding.opener == o[0]);
  }
  SECTION("the first two are full: the next to the right opens") {
    set_hand(s, fac(s, o[0]), rules::hand_limit(s, fac(s, o[0])));
    set_hand(s, fac(s, o[1]), rules::hand_limit(s, fac(s, o[1])));
    start(s);
    CHECK(s.bidding.row.n == 2);
    CHECK(to_bid(s) == o[2]);
    CHECK(s.bidding.opener == o[2]);
  }
}

TEST_CASE("1.04.06.02 the opening bid is 1 or more and bidding proceeds to the right", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor, Faction::Guild});
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  start(s);
  REQUIRE(to_bid(s) == o[0]);
  auto r0 = rejected(s, fac(s, o[0]), bid(0));
  CHECK(r0.code == RejectCode::IllegalChoice);
  act(s, fac(s, o[0]), bid(2));
  CHECK(to_bid(s) == o[1]);
  CHECK(s.bidding.high_bid == 2);
  CHECK(s.bidding.high_bidder == o[0]);
  // A raise must be above the high bid.
  auto r1 = rejected(s, fac(s, o[1]), bid(2));
  CHECK(r1.code == RejectCode::IllegalChoice);
  CHECK(r1.reason.find("raise") != std::string::npos);
  act(s, fac(s, o[1]), bid(3));
  CHECK(to_bid(s) == o[2]);
  act(s, fac(s, o[2]), pass());
  CHECK(to_bid(s) == o[3]);
  // A player who passed is out for this card.
  auto r2 = rejected(s, fac(s, o[2]), bid(5));
  CHECK(r2.code == RejectCode::NotYourDecision);
  CHECK(r2.reason.find("passed") != std::string::npos);
  act(s, fac(s, o[3]), pass());
  CHECK(to_bid(s) == o[0]);
  const uint8_t card = s.bidding.row.ids[0];
  const int hand_before = s.of(fac(s, o[1])).hand.n;
  act(s, fac(s, o[0]), pass());
  // o[2] passed, so o[1] (top bidder, everyone else out) buys.
  CHECK(s.of(fac(s, o[1])).hand.contains(card));
  CHECK(s.of(fac(s, o[1])).hand.n == hand_before + (fac(s, o[1]) == Faction::Harkonnen ? 2 : 1));
  CHECK(s.bidding.row.n == 3);
}

TEST_CASE("1.04.06.03 the top bidder pays the Spice Bank and takes the card", "[bidding]") {
  // No Emperor: payment goes to the bank.
  GameState s = at_bidding({Faction::Atreides, Faction::Guild, Faction::Fremen, Faction::BeneGesserit});
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  start(s);
  REQUIRE(s.bidding.row.n == 4);
  const uint8_t card = s.bidding.row.ids[0];
  const Faction buyer = fac(s, o[0]);
  const int hand_before = s.of(buyer).hand.n;
  const int64_t bank_before = s.bank;
  act(s, buyer, bid(4));
  for (int i = 1; i < 4; ++i) act(s, fac(s, o[i]), pass());
  CHECK(s.of(buyer).spice == 6);
  CHECK(s.bank == bank_before + 4);
  for (int i = 1; i < 4; ++i) CHECK(s.of(fac(s, o[i])).spice == 10);
  CHECK(s.of(buyer).hand.n == hand_before + 1);
  CHECK(s.of(buyer).hand.contains(card));
  CHECK_FALSE(s.bidding.row.contains(card));
  CHECK(s.bidding.row.n == 3);
  CHECK(s.bidding.high_bid == 0);
  CHECK(s.bidding.high_bidder == kNoSeat);
}

TEST_CASE("2.03.04 another faction's payment goes to the Emperor", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild, Faction::Fremen});
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  start(s);
  REQUIRE(s.bidding.row.n == 4);
  const int64_t bank_before = s.bank;
  const uint8_t card = s.bidding.row.ids[0];
  // Everyone passes until the Atreides' turn, who bids 7; the rest pass.
  Seat who = to_bid(s);
  while (fac(s, who) != Faction::Atreides) {
    act(s, fac(s, who), pass());
    who = to_bid(s);
  }
  act(s, Faction::Atreides, bid(7));
  while (s.bidding.row.n == 4) act(s, fac(s, to_bid(s)), pass());
  CHECK(s.of(Faction::Atreides).hand.contains(card));
  CHECK(s.of(Faction::Atreides).spice == 3);
  CHECK(s.of(Faction::Emperor).spice == 17);
  CHECK(s.bank == bank_before);
}

TEST_CASE("2.03.04 the Emperor's own purchase is paid to the bank", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild, Faction::Fremen});
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  start(s);
  const int64_t bank_before = s.bank;
  const uint8_t card = s.bidding.row.ids[0];
  Seat who = to_bid(s);
  while (fac(s, who) != Faction::Emperor) {
    act(s, fac(s, who), pass());
    who = to_bid(s);
  }
  act(s, Faction::Emperor, bid(6));
  while (s.bidding.row.n == 4) act(s, fac(s, to_bid(s)), pass());
  CHECK(s.of(Faction::Emperor).hand.contains(card));
  CHECK(s.of(Faction::Emperor).spice == 4);
  CHECK(s.bank == bank_before + 6);
}

TEST_CASE("1.04.06.04 a player may not bid more spice than they have", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  const auto o = storm_order(s);
  set_spice(s, fac(s, o[0]), 3);
  start(s);
  REQUIRE(to_bid(s) == o[0]);
  auto r = rejected(s, fac(s, o[0]), bid(4));
  CHECK(r.code == RejectCode::NotEnoughSpice);
  CHECK(r.reason.find("3 spice") != std::string::npos);
  auto ds = decisions(s, o[0]);
  REQUIRE_FALSE(ds.empty());
  CHECK(ds[0].kind == ActionKind::Bid);
  CHECK(ds[0].min == 1);
  CHECK(ds[0].max == 3);
  act(s, fac(s, o[0]), bid(3));
  CHECK(s.bidding.high_bid == 3);

  SECTION("with no spice only passing is offered") {
    GameState t = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
    const auto ot = storm_order(t);
    set_spice(t, fac(t, ot[0]), 0);
    start(t);
    auto la = legal_actions(t, ot[0]);
    REQUIRE(la.size() == 1);
    CHECK(la[0].kind() == ActionKind::Pass);
    CHECK(rejected(t, fac(t, ot[0]), bid(1)).code == RejectCode::NotEnoughSpice);
  }
}

TEST_CASE("1.04 rejections: out of turn and actions of other phases", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  start(s);
  REQUIRE(to_bid(s) == o[0]);
  auto r = rejected(s, fac(s, o[1]), bid(1));
  CHECK(r.code == RejectCode::NotYourDecision);
  CHECK(r.reason.find("turn") != std::string::npos);
  CHECK(rejected(s, fac(s, o[2]), pass()).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, fac(s, o[0]), claim_charity()).code == RejectCode::WrongPhase);
  CHECK(rejected(s, fac(s, o[0]), dial(1)).code == RejectCode::WrongPhase);
  // A bid is a ubyte in the schema: 256 cannot be stored, and the action
  // request carrying it is refused before it reaches the engine.
  {
    Action a;
    std::string err;
    CHECK_FALSE(codec::parse_action_json(R"({"action_type":"Bid","action":{"amount":256}})", &a, nullptr, &err));
    CHECK_FALSE(err.empty());
    CHECK(codec::parse_action_json(R"({"action_type":"Bid","action":{"amount":255}})", &a, nullptr, &err));
  }
  CHECK(decisions(s, o[1]).empty());
  CHECK(legal_actions(s, o[1]).empty());
}

TEST_CASE("1.04.07 the next card is opened to the right of the previous opener", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor, Faction::Guild});
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);

  SECTION("not to the right of the buyer") {
    start(s);
    REQUIRE(to_bid(s) == o[0]);
    act(s, fac(s, o[0]), pass());
    act(s, fac(s, o[1]), pass());
    act(s, fac(s, o[2]), bid(1));
    act(s, fac(s, o[3]), pass());
    REQUIRE(s.bidding.row.n == 3);  // sold to o[2]
    CHECK(to_bid(s) == o[1]);
    CHECK(s.bidding.opener == o[1]);
  }
  SECTION("skipping a player whose purchase filled their hand") {
    const Faction f1 = fac(s, o[1]);
    set_hand(s, f1, rules::hand_limit(s, f1) - 1);
    start(s);
    REQUIRE(s.bidding.row.n == 4);
    act(s, fac(s, o[0]), pass());
    act(s, f1, bid(2));
    act(s, fac(s, o[2]), pass());
    act(s, fac(s, o[3]), pass());
    REQUIRE(s.bidding.row.n == 3);
    CHECK(rules::hand_full(s, f1));
    CHECK(to_bid(s) == o[2]);
    CHECK_FALSE(rules::has_bit(s.bidding.eligible, o[1]));
    // The full hand is skipped in the bidding too.
    act(s, fac(s, o[2]), bid(1));
    CHECK(to_bid(s) == o[3]);
    act(s, fac(s, o[3]), pass());
    CHECK(to_bid(s) == o[0]);
    const uint8_t card = s.bidding.row.ids[0];
    act(s, fac(s, o[0]), pass());
    CHECK(s.bidding.row.n == 2);  // sold to o[2]: o[1] was not asked
    CHECK(s.of(fac(s, o[2])).hand.contains(card));
  }
}

TEST_CASE("1.04.08 bidding ends when every card has been auctioned", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor});
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  start(s);
  REQUIRE(s.bidding.row.n == 2);
  const uint8_t c0 = s.bidding.row.ids[0], c1 = s.bidding.row.ids[1];
  act(s, fac(s, o[0]), bid(1));
  act(s, fac(s, o[1]), pass());
  REQUIRE(s.phase == Phase::Bidding);
  REQUIRE(to_bid(s) == o[1]);  // 1.04.07
  act(s, fac(s, o[1]), bid(2));
  act(s, fac(s, o[0]), pass());
  CHECK(s.phase != Phase::Bidding);
  CHECK(s.bidding.row.n == 0);
  CHECK(s.of(fac(s, o[0])).hand.contains(c0));
  CHECK(s.of(fac(s, o[1])).hand.contains(c1));
}

TEST_CASE("1.04.09 a card passed by everyone returns the rest of the row to the top of the deck", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Guild, Faction::Fremen, Faction::BeneGesserit});
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  start(s);
  REQUIRE(s.bidding.row.n == 4);
  const uint8_t c0 = s.bidding.row.ids[0], c1 = s.bidding.row.ids[1], c2 = s.bidding.row.ids[2],
                c3 = s.bidding.row.ids[3];
  const int deck_before = s.treachery_deck.n;
  SECTION("after one sale") {
    act(s, fac(s, o[0]), bid(1));
    for (int i = 1; i < 4; ++i) act(s, fac(s, o[i]), pass());
    REQUIRE(s.of(fac(s, o[0])).hand.contains(c0));
    REQUIRE(to_bid(s) == o[1]);
    for (int i = 1; i < 4; ++i) act(s, fac(s, o[i]), pass());
    CHECK(to_bid(s) == o[0]);
    for (int i = 1; i < 4; ++i) CHECK(s.of(fac(s, o[i])).spice == 10);
    act(s, fac(s, o[0]), pass());
    CHECK(s.phase != Phase::Bidding);
    CHECK(s.bidding.row.n == 0);
    REQUIRE(s.treachery_deck.n == deck_before + 3);
    CHECK(deck_top(s, 0) == c1);
    CHECK(deck_top(s, 1) == c2);
    CHECK(deck_top(s, 2) == c3);
  }
  SECTION("on the first card") {
    for (int i = 0; i < 4; ++i) act(s, fac(s, o[i]), pass());
    CHECK(s.phase != Phase::Bidding);
    REQUIRE(s.treachery_deck.n == deck_before + 4);
    CHECK(deck_top(s, 0) == c0);
    CHECK(deck_top(s, 1) == c1);
    CHECK(deck_top(s, 2) == c2);
    CHECK(deck_top(s, 3) == c3);
  }
}

TEST_CASE("2.05.08 the Harkonnen draw an extra card for free when buying", "[bidding]") {
  GameState s = at_bidding({Faction::Harkonnen, Faction::Atreides, Faction::Emperor});
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  set_hand(s, Faction::Harkonnen, 2);
  start(s);
  REQUIRE(s.bidding.row.n == 3);
  const uint8_t card = s.bidding.row.ids[0];
  const uint8_t extra = deck_top(s);
  Seat who = to_bid(s);
  while (fac(s, who) != Faction::Harkonnen) {
    act(s, fac(s, who), pass());
    who = to_bid(s);
  }
  act(s, Faction::Harkonnen, bid(5));
  while (s.bidding.row.n == 3) act(s, fac(s, to_bid(s)), pass());
  const auto& hand = s.of(Faction::Harkonnen).hand;
  CHECK(hand.n == 4);
  CHECK(hand.contains(card));
  CHECK(hand.contains(extra));
  CHECK(s.of(Faction::Harkonnen).spice == 5);
  CHECK(s.of(Faction::Emperor).spice == 15);  // 2.03.04: paid for one card only
}

TEST_CASE("3.01.11.04 a Karama bid goes beyond one's spice and buys the card without paying", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild});
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  set_spice(s, Faction::Atreides, 2);
  const uint8_t karama = card_of_kind(TreacheryKind::Karama);
  set_hand(s, Faction::Atreides, 1);
  give(s, Faction::Atreides, karama);
  start(s);
  REQUIRE(s.bidding.row.n == 3);
  const uint8_t card = s.bidding.row.ids[0];
  // Before the Atreides: the first bids 1 (and stays in), the others pass.
  Seat who = to_bid(s);
  while (fac(s, who) != Faction::Atreides) {
    act(s, fac(s, who), s.bidding.high_bidder == kNoSeat ? bid(1) : pass());
    who = to_bid(s);
  }
  // The Karama bid is offered, beyond the spice held.
  bool offered = false;
  for (const auto& a : legal_actions(s, who))
    if (a.kind() == ActionKind::Bid && a.as<action::Bid>().karama && a.as<action::Bid>().amount > 2) offered = true;
  CHECK(offered);
  CHECK(rejected(s, Faction::Atreides, bid(5)).code == RejectCode::NotEnoughSpice);

  SECTION("the Karama bid wins") {
    const int64_t bank_before = s.bank;
    act(s, Faction::Atreides, bid(5, true));
    CHECK(s.bidding.karama_bid == 1);
    while (s.bidding.row.n == 3) act(s, fac(s, to_bid(s)), pass());
    const auto& hand = s.of(Faction::Atreides).hand;
    CHECK(hand.contains(card));
    CHECK_FALSE(hand.contains(karama));
    CHECK(hand.n == 2);
    CHECK(s.treachery_discard.top() == karama);
    CHECK(s.of(Faction::Atreides).spice == 2);
    CHECK(s.of(Faction::Emperor).spice == 10);
    CHECK(s.bank == bank_before);
  }
  SECTION("outbid, the Karama stays in hand") {
    act(s, Faction::Atreides, bid(5, true));
    Seat other = to_bid(s);
    const Faction rival = fac(s, other);
    act(s, rival, bid(6));
    while (to_bid(s) != seat(s, Faction::Atreides)) act(s, fac(s, to_bid(s)), pass());
    CHECK(s.bidding.karama_bid == 0);
    act(s, Faction::Atreides, pass());
    while (s.bidding.row.n == 3) act(s, fac(s, to_bid(s)), pass());
    CHECK(s.of(rival).hand.contains(card));
    CHECK(s.of(Faction::Atreides).hand.contains(karama));
    if (rival == Faction::Emperor) {
      CHECK(s.of(Faction::Emperor).spice == 4);
    } else {
      CHECK(s.of(rival).spice == 4);
      CHECK(s.of(Faction::Emperor).spice == 16);
    }
  }
}

TEST_CASE("3.01.11.04 a Karama bid without a Karama card is rejected", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor});
  const auto o = storm_order(s);
  start(s);
  auto r = rejected(s, fac(s, o[0]), bid(50, true));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK(r.reason.find("Karama") != std::string::npos);
  for (const auto& a : legal_actions(s, o[0])) CHECK_FALSE((a.is<action::Bid>() && a.as<action::Bid>().karama));
}

TEST_CASE("1.14.06 the Bene Gesserit may bid with a worthless card as a Karama (advanced only)", "[bidding]") {
  const uint8_t baliset = card_of_kind(TreacheryKind::Baliset);
  SECTION("advanced game") {
    GameState s = at_bidding({Faction::BeneGesserit, Faction::Atreides, Faction::Guild}, true);
    for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
    set_spice(s, Faction::BeneGesserit, 1);
    set_hand(s, Faction::BeneGesserit, 0);
    give(s, Faction::BeneGesserit, baliset);
    start(s);
    REQUIRE(s.bidding.row.n == 3);
    const uint8_t card = s.bidding.row.ids[0];
    while (to_bid(s) != seat(s, Faction::BeneGesserit)) act(s, fac(s, to_bid(s)), pass());
    act(s, Faction::BeneGesserit, bid(9, true));
    while (s.bidding.row.n == 3) act(s, fac(s, to_bid(s)), pass());
    CHECK(s.of(Faction::BeneGesserit).hand.contains(card));
    CHECK_FALSE(s.of(Faction::BeneGesserit).hand.contains(baliset));
    CHECK(s.treachery_discard.top() == baliset);
    CHECK(s.of(Faction::BeneGesserit).spice == 1);
  }
  SECTION("basic game") {
    GameState s = at_bidding({Faction::BeneGesserit, Faction::Atreides, Faction::Guild});
    set_hand(s, Faction::BeneGesserit, 0);
    give(s, Faction::BeneGesserit, baliset);
    start(s);
    while (to_bid(s) != seat(s, Faction::BeneGesserit)) act(s, fac(s, to_bid(s)), pass());
    CHECK(rejected(s, Faction::BeneGesserit, bid(9, true)).code == RejectCode::IllegalChoice);
  }
  SECTION("not for another faction") {
    GameState s = at_bidding({Faction::BeneGesserit, Faction::Atreides, Faction::Guild}, true);
    set_hand(s, Faction::Atreides, 0);
    give(s, Faction::Atreides, baliset);
    start(s);
    while (to_bid(s) != seat(s, Faction::Atreides)) act(s, fac(s, to_bid(s)), pass());
    CHECK(rejected(s, Faction::Atreides, bid(9, true)).code == RejectCode::IllegalChoice);
  }
}

TEST_CASE("1.10.02.05 an ally's spice counts toward the bid and pays the shortfall", "[bidding]") {
  SECTION("ally is not the Emperor: all paid to the Emperor") {
    GameState s = at_bidding({Faction::Atreides, Faction::Fremen, Faction::Emperor});
    s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Fremen);
    s.of(Faction::Fremen).ally = static_cast<uint8_t>(Faction::Atreides);
    set_spice(s, Faction::Atreides, 3);
    set_spice(s, Faction::Fremen, 5);
    set_spice(s, Faction::Emperor, 10);
    start(s);
    REQUIRE(s.bidding.row.n == 3);
    const uint8_t card = s.bidding.row.ids[0];
    while (to_bid(s) != seat(s, Faction::Atreides)) act(s, fac(s, to_bid(s)), pass());
    auto r = rejected(s, Faction::Atreides, bid(9));
    CHECK(r.code == RejectCode::NotEnoughSpice);
    CHECK(r.reason.find("8 spice") != std::string::npos);
    const int64_t bank_before = s.bank;
    act(s, Faction::Atreides, bid(8));
    while (s.bidding.row.n == 3) act(s, fac(s, to_bid(s)), pass());
    CHECK(s.of(Faction::Atreides).hand.contains(card));
    CHECK(s.of(Faction::Atreides).spice == 0);
    CHECK(s.of(Faction::Fremen).spice == 0);
    CHECK(s.of(Faction::Emperor).spice == 18);
    CHECK(s.bank == bank_before);
  }
  SECTION("the buyer pays first, the ally only the rest") {
    GameState s = at_bidding({Faction::Atreides, Faction::Fremen, Faction::Guild});
    s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Fremen);
    s.of(Faction::Fremen).ally = static_cast<uint8_t>(Faction::Atreides);
    set_spice(s, Faction::Atreides, 3);
    set_spice(s, Faction::Fremen, 5);
    start(s);
    while (to_bid(s) != seat(s, Faction::Atreides)) act(s, fac(s, to_bid(s)), pass());
    const int64_t bank_before = s.bank;
    act(s, Faction::Atreides, bid(4));
    while (s.bidding.row.n == 3) act(s, fac(s, to_bid(s)), pass());
    CHECK(s.of(Faction::Atreides).spice == 0);
    CHECK(s.of(Faction::Fremen).spice == 4);
    CHECK(s.bank == bank_before + 4);
  }
  SECTION("ally is the Emperor: the Emperor's share goes to the bank (2.03.05)") {
    GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild});
    s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Emperor);
    s.of(Faction::Emperor).ally = static_cast<uint8_t>(Faction::Atreides);
    set_spice(s, Faction::Atreides, 3);
    set_spice(s, Faction::Emperor, 5);
    start(s);
    while (to_bid(s) != seat(s, Faction::Atreides)) act(s, fac(s, to_bid(s)), pass());
    const int64_t bank_before = s.bank;
    act(s, Faction::Atreides, bid(6));
    while (s.bidding.row.n == 3) act(s, fac(s, to_bid(s)), pass());
    CHECK(s.of(Faction::Atreides).spice == 0);
    CHECK(s.of(Faction::Emperor).spice == 5);  // +3 from the Atreides, -3 paid to the bank
    CHECK(s.bank == bank_before + 3);
  }
}

TEST_CASE("2.01.05 the Atreides may look at the card up for bid, their ally may not", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Fremen, Faction::Emperor});
  s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Fremen);
  s.of(Faction::Fremen).ally = static_cast<uint8_t>(Faction::Atreides);
  start(s);
  REQUIRE(s.bidding.row.n == 3);
  CHECK(rules::can_see_card_up_for_bid(s, Faction::Atreides));
  CHECK_FALSE(rules::can_see_card_up_for_bid(s, Faction::Fremen));
  CHECK_FALSE(rules::can_see_card_up_for_bid(s, Faction::Emperor));
  // Still true for the next card, false once bidding is over.
  for (int i = 0; i < 3; ++i) act(s, fac(s, to_bid(s)), pass());
  CHECK(s.phase != Phase::Bidding);
  CHECK_FALSE(rules::can_see_card_up_for_bid(s, Faction::Atreides));

  GameState t = at_bidding({Faction::Harkonnen, Faction::Emperor});
  start(t);
  CHECK_FALSE(rules::can_see_card_up_for_bid(t, Faction::Atreides));  // not in the game
}

TEST_CASE("1.04 decisions and legal actions: only the seat to bid, every legal action validates", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor, Faction::Guild, Faction::Fremen,
                            Faction::BeneGesserit});
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 6);
  give(s, Faction::Guild, card_of_kind(TreacheryKind::Karama));
  start(s);
  REQUIRE(s.bidding.row.n == 6);
  int steps = 0;
  while (s.phase == Phase::Bidding && steps < 200) {
    const Seat cur = to_bid(s);
    for (Seat x = 0; x < s.num_seats; ++x) {
      if (x == cur) continue;
      for (const auto& d : decisions(s, x)) CHECK(d.kind == ActionKind::PlayCard);  // only cards (core/rules/cards.cpp)
      for (const auto& a : legal_actions(s, x)) CHECK(a.kind() == ActionKind::PlayCard);
    }
    auto ds = phase_decisions(s, cur);  // card plays and anytime offers come after the phase's
    REQUIRE_FALSE(ds.empty());
    CHECK(ds.back().kind == ActionKind::Pass);
    auto la = legal_actions(s, cur);
    while (!la.empty() && la.back().kind() == ActionKind::PlayCard) la.pop_back();
    REQUIRE_FALSE(la.empty());
    for (const auto& a : la) {
      auto r = validate(s, cur, a);
      INFO(codec::action_to_json(a) << ": "
                                    << (r ? r->reason : std::string()));
      CHECK_FALSE(r.has_value());
    }
    // Take the cheapest bid the first time round, else pass.
    Action chosen = la.back();
    if (s.bidding.high_bidder == kNoSeat) chosen = la.front();
    act(s, fac(s, cur), chosen);
    ++steps;
  }
  CHECK(s.phase != Phase::Bidding);
}

TEST_CASE("1.04.03 nobody eligible: no card is dealt and the phase ends", "[bidding]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor});
  set_hand(s, Faction::Atreides, 4);
  set_hand(s, Faction::Emperor, 4);
  const int deck_before = s.treachery_deck.n;
  start(s);
  CHECK(s.phase != Phase::Bidding);
  CHECK(s.treachery_deck.n == deck_before);
  CHECK(s.bidding.row.n == 0);
}

// ---- rulings (docs/RULINGS.md) -----------------------------------------------

namespace {

// A Karama bid naming the card to spend (Bid.card).
Action karama_bid(int amount, uint8_t card) {
  return action::Bid{.amount = static_cast<uint8_t>(amount), .karama = true, .card = card};
}

// Everyone before `f` passes.
void pass_until(GameState& s, Faction f) {
  while (to_bid(s) != seat(s, f)) act(s, fac(s, to_bid(s)), pass());
}

// Before `f`: the first asked bids 1 (and stays in), the others pass; so the
// card is not sold at once when `f` bids, whatever `f`'s place in the order.
void reach_with_rival(GameState& s, Faction f) {
  while (to_bid(s) != seat(s, f)) act(s, fac(s, to_bid(s)), s.bidding.high_bidder == kNoSeat ? bid(1) : pass());
}

// The others pass until the card up for bid is sold (the row shrinks).
void sell_current(GameState& s) {
  const int n = s.bidding.row.n;
  while (s.phase == Phase::Bidding && s.bidding.row.n == n) act(s, fac(s, to_bid(s)), pass());
}

}  // namespace

TEST_CASE("1.04.09 ruling bought_in_order=last_dealt_on_top", "[bidding][rulings]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Guild, Faction::Fremen, Faction::BeneGesserit}, false,
                           ruling("bought_in_order", "last_dealt_on_top"));
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  start(s);
  REQUIRE(s.bidding.row.n == 4);
  const uint8_t c0 = s.bidding.row.ids[0], c1 = s.bidding.row.ids[1], c2 = s.bidding.row.ids[2],
                c3 = s.bidding.row.ids[3];
  const int deck_before = s.treachery_deck.n;
  SECTION("on the first card: put back in the order dealt, the last dealt on top") {
    for (int i = 0; i < 4; ++i) act(s, fac(s, o[i]), pass());
    CHECK(s.phase != Phase::Bidding);
    REQUIRE(s.treachery_deck.n == deck_before + 4);
    CHECK(deck_top(s, 0) == c3);
    CHECK(deck_top(s, 1) == c2);
    CHECK(deck_top(s, 2) == c1);
    CHECK(deck_top(s, 3) == c0);
  }
  SECTION("after one sale") {
    act(s, fac(s, o[0]), bid(1));
    for (int i = 1; i < 4; ++i) act(s, fac(s, o[i]), pass());
    REQUIRE(s.of(fac(s, o[0])).hand.contains(c0));
    for (int i = 1; i < 4; ++i) act(s, fac(s, o[i]), pass());
    act(s, fac(s, o[0]), pass());
    CHECK(s.phase != Phase::Bidding);
    REQUIRE(s.treachery_deck.n == deck_before + 3);
    CHECK(deck_top(s, 0) == c3);
    CHECK(deck_top(s, 1) == c2);
    CHECK(deck_top(s, 2) == c1);
  }
}

TEST_CASE("2.02.22 ruling bg_worthless_karama=always", "[bidding][rulings]") {
  // Basic game: the default (advanced_only) rejects this bid.
  const uint8_t baliset = card_of_kind(TreacheryKind::Baliset);
  GameState s = at_bidding({Faction::BeneGesserit, Faction::Atreides, Faction::Guild}, false,
                           ruling("bg_worthless_karama", "always"));
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
  set_spice(s, Faction::BeneGesserit, 1);
  set_hand(s, Faction::BeneGesserit, 0);
  give(s, Faction::BeneGesserit, baliset);
  start(s);
  REQUIRE(s.bidding.row.n == 3);
  const uint8_t card = s.bidding.row.ids[0];
  pass_until(s, Faction::BeneGesserit);
  bool offered = false;
  for (const auto& a : legal_actions(s, seat(s, Faction::BeneGesserit))) offered |= a.kind() == ActionKind::Bid && a.as<action::Bid>().karama;
  CHECK(offered);
  act(s, Faction::BeneGesserit, bid(9, true));
  sell_current(s);
  CHECK(s.of(Faction::BeneGesserit).hand.contains(card));
  CHECK_FALSE(s.of(Faction::BeneGesserit).hand.contains(baliset));
  CHECK(s.treachery_discard.top() == baliset);
  CHECK(s.of(Faction::BeneGesserit).spice == 1);
}

TEST_CASE("1.14.06 ruling bg_worthless_karama=never", "[bidding][rulings]") {
  // Advanced game: the default (advanced_only) accepts a worthless card.
  const uint8_t baliset = card_of_kind(TreacheryKind::Baliset);
  const uint8_t karama = card_of_kind(TreacheryKind::Karama);
  GameState s = at_bidding({Faction::BeneGesserit, Faction::Atreides, Faction::Guild}, true,
                           ruling("bg_worthless_karama", "never"));
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
  set_spice(s, Faction::BeneGesserit, 1);
  set_hand(s, Faction::BeneGesserit, 0);
  give(s, Faction::BeneGesserit, baliset);
  SECTION("a worthless card alone: no Karama bid") {
    start(s);
    pass_until(s, Faction::BeneGesserit);
    CHECK(rejected(s, Faction::BeneGesserit, bid(9, true)).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::BeneGesserit, karama_bid(9, baliset)).code == RejectCode::IllegalChoice);
    for (const auto& a : legal_actions(s, seat(s, Faction::BeneGesserit)))
      if (a.kind() == ActionKind::Bid) CHECK_FALSE(a.as<action::Bid>().karama);
  }
  SECTION("with a real Karama too: the Karama is spent, not the worthless card") {
    give(s, Faction::BeneGesserit, karama);
    start(s);
    const uint8_t card = s.bidding.row.ids[0];
    pass_until(s, Faction::BeneGesserit);
    act(s, Faction::BeneGesserit, bid(9, true));
    sell_current(s);
    const auto& hand = s.of(Faction::BeneGesserit).hand;
    CHECK(hand.contains(card));
    CHECK(hand.contains(baliset));
    CHECK_FALSE(hand.contains(karama));
    CHECK(s.treachery_discard.top() == karama);
  }
}

TEST_CASE("1.10.02.05 ruling ally_bid_support=off", "[bidding][rulings]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Fremen, Faction::Emperor}, false,
                           ruling("ally_bid_support", "off"));
  s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Fremen);
  s.of(Faction::Fremen).ally = static_cast<uint8_t>(Faction::Atreides);
  set_spice(s, Faction::Atreides, 3);
  set_spice(s, Faction::Fremen, 5);
  set_spice(s, Faction::Emperor, 10);
  start(s);
  REQUIRE(s.bidding.row.n == 3);
  const uint8_t card = s.bidding.row.ids[0];
  pass_until(s, Faction::Atreides);
  // The ally's 5 spice do not count: the limit is the Atreides' own 3.
  auto r = rejected(s, Faction::Atreides, bid(4));
  CHECK(r.code == RejectCode::NotEnoughSpice);
  CHECK(r.reason.find("3 spice you hold") != std::string::npos);
  auto ds = decisions(s, seat(s, Faction::Atreides));
  REQUIRE_FALSE(ds.empty());
  CHECK(ds[0].kind == ActionKind::Bid);
  CHECK(ds[0].max == 3);
  act(s, Faction::Atreides, bid(3));
  sell_current(s);
  CHECK(s.of(Faction::Atreides).hand.contains(card));
  CHECK(s.of(Faction::Atreides).spice == 0);
  CHECK(s.of(Faction::Fremen).spice == 5);
  CHECK(s.of(Faction::Emperor).spice == 13);
}

TEST_CASE("1.10.02.05 ruling ally_bid_support=permission: the ally's spice backs bids up to its AllyPermission", "[bidding][rulings]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Fremen, Faction::Emperor}, false,
                           ruling("ally_bid_support", "permission"));
  s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Fremen);
  s.of(Faction::Fremen).ally = static_cast<uint8_t>(Faction::Atreides);
  set_spice(s, Faction::Atreides, 3);
  set_spice(s, Faction::Fremen, 5);
  set_spice(s, Faction::Emperor, 10);
  start(s);
  REQUIRE(s.bidding.row.n == 3);
  const uint8_t card = s.bidding.row.ids[0];
  pass_until(s, Faction::Atreides);
  // No permission yet: the limit is the Atreides' own 3.
  CHECK(rejected(s, Faction::Atreides, bid(4)).code == RejectCode::NotEnoughSpice);
  // The Fremen allow 2 for bids, out of turn.
  action::AllyPermission p;
  p.bids = 2;
  act(s, Faction::Fremen, p);
  CHECK(s.of(Faction::Fremen).permit_bids == 2);
  CHECK(rejected(s, Faction::Atreides, bid(6)).code == RejectCode::NotEnoughSpice);
  auto ds = decisions(s, seat(s, Faction::Atreides));
  REQUIRE_FALSE(ds.empty());
  CHECK(ds[0].max == 5);
  act(s, Faction::Atreides, bid(5));
  sell_current(s);
  CHECK(s.of(Faction::Atreides).hand.contains(card));
  CHECK(s.of(Faction::Atreides).spice == 0);
  CHECK(s.of(Faction::Fremen).spice == 3);
  CHECK(s.of(Faction::Fremen).permit_bids == 0);  // used up
  CHECK(s.of(Faction::Emperor).spice == 15);
}

TEST_CASE("1.10.02.05 ruling ally_bid_payer: who pays first when the ally backs the bid", "[bidding][rulings]") {
  // The Atreides (3 spice) buy for 4 with the Fremen's backing (5 spice; under permission, an allowance of 2).
  auto buy_for_4 = [](const Rulings& r) {
    GameState s = at_bidding({Faction::Atreides, Faction::Fremen, Faction::Guild}, false, r);
    s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Fremen);
    s.of(Faction::Fremen).ally = static_cast<uint8_t>(Faction::Atreides);
    set_spice(s, Faction::Atreides, 3);
    set_spice(s, Faction::Fremen, 5);
    start(s);
    pass_until(s, Faction::Atreides);
    if (s.rulings.is(RulingId::AllyBidSupport, 2)) act(s, Faction::Fremen, action::AllyPermission{.bids = 2});
    const int64_t bank_before = s.bank;
    act(s, Faction::Atreides, bid(4));
    sell_current(s);
    CHECK(s.bank == bank_before + 4);  // no Emperor: all to the bank
    return s;
  };
  SECTION("default buyer_first: the buyer's 3, the ally the rest (1)") {
    REQUIRE(Rulings::defaults().is(RulingId::AllyBidPayer, 0));
    const GameState s = buy_for_4(Rulings::defaults());
    CHECK(s.of(Faction::Atreides).spice == 0);
    CHECK(s.of(Faction::Fremen).spice == 4);
  }
  SECTION("ally_first: the ally's backing pays all 4, the buyer keeps its 3") {
    const GameState s = buy_for_4(ruling("ally_bid_payer", "ally_first"));
    CHECK(s.of(Faction::Atreides).spice == 3);
    CHECK(s.of(Faction::Fremen).spice == 1);
  }
  SECTION("ally_first with ally_bid_support=permission: the allowance first, then the buyer") {
    const GameState s = buy_for_4(ruling("ally_bid_support", "permission", ruling("ally_bid_payer", "ally_first")));
    CHECK(s.of(Faction::Fremen).spice == 3);  // its allowance of 2, used up
    CHECK(s.of(Faction::Fremen).permit_bids == 0);
    CHECK(s.of(Faction::Atreides).spice == 1);
  }
}

TEST_CASE("2.03.04 ruling emperor_ally_payment=emperor", "[bidding][rulings]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild}, false,
                           ruling("emperor_ally_payment", "emperor"));
  s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Emperor);
  s.of(Faction::Emperor).ally = static_cast<uint8_t>(Faction::Atreides);
  set_spice(s, Faction::Emperor, 3);
  set_spice(s, Faction::Atreides, 5);
  start(s);
  const uint8_t card = s.bidding.row.ids[0];
  pass_until(s, Faction::Emperor);
  const int64_t bank_before = s.bank;
  act(s, Faction::Emperor, bid(6));
  sell_current(s);
  CHECK(s.of(Faction::Emperor).hand.contains(card));
  // The Emperor's own 3 go to the bank (2.03.05); the ally's 3 to the Emperor.
  CHECK(s.of(Faction::Atreides).spice == 2);
  CHECK(s.of(Faction::Emperor).spice == 3);
  CHECK(s.bank == bank_before + 3);
}

TEST_CASE("2.03.04 default emperor_ally_payment=bank: the ally's share of the Emperor's purchase goes to the bank",
          "[bidding][rulings]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild});
  s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Emperor);
  s.of(Faction::Emperor).ally = static_cast<uint8_t>(Faction::Atreides);
  set_spice(s, Faction::Emperor, 3);
  set_spice(s, Faction::Atreides, 5);
  start(s);
  pass_until(s, Faction::Emperor);
  const int64_t bank_before = s.bank;
  act(s, Faction::Emperor, bid(6));
  sell_current(s);
  CHECK(s.of(Faction::Atreides).spice == 2);
  CHECK(s.of(Faction::Emperor).spice == 0);
  CHECK(s.bank == bank_before + 6);
}

TEST_CASE("3.01.11.04 ruling karama_bid_scope=only_above_spice", "[bidding][rulings]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild}, false,
                           ruling("karama_bid_scope", "only_above_spice"));
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
  set_spice(s, Faction::Atreides, 5);
  const uint8_t karama = card_of_kind(TreacheryKind::Karama);
  set_hand(s, Faction::Atreides, 1);
  give(s, Faction::Atreides, karama);
  start(s);
  REQUIRE(s.bidding.row.n == 3);
  const uint8_t card = s.bidding.row.ids[0];
  reach_with_rival(s, Faction::Atreides);
  // Karama bids are offered only above the 5 spice held.
  const Seat me = seat(s, Faction::Atreides);
  bool karama_offered = false;
  for (const auto& d : decisions(s, me))
    if (d.kind == ActionKind::Bid && d.prompt.find("Karama") != std::string::npos) {
      karama_offered = true;
      CHECK(d.min == 6);
    }
  CHECK(karama_offered);
  for (const auto& a : legal_actions(s, me))
    if (a.kind() == ActionKind::Bid && a.as<action::Bid>().karama) CHECK(a.as<action::Bid>().amount > 5);
  const int emperor_before = s.of(Faction::Emperor).spice;

  SECTION("a Karama bid within one's spice is an ordinary bid: paid, the Karama kept") {
    act(s, Faction::Atreides, bid(3, true));
    CHECK(s.bidding.karama_bid == 0);
    sell_current(s);
    const auto& hand = s.of(Faction::Atreides).hand;
    CHECK(hand.contains(card));
    CHECK(hand.contains(karama));
    CHECK(s.of(Faction::Atreides).spice == 2);
    CHECK(s.of(Faction::Emperor).spice == emperor_before + 3);
  }
  SECTION("a Karama bid above one's spice buys the card free") {
    act(s, Faction::Atreides, bid(8, true));
    CHECK(s.bidding.karama_bid == 1);
    sell_current(s);
    const auto& hand = s.of(Faction::Atreides).hand;
    CHECK(hand.contains(card));
    CHECK_FALSE(hand.contains(karama));
    CHECK(s.treachery_discard.top() == karama);
    CHECK(s.of(Faction::Atreides).spice == 5);
    CHECK(s.of(Faction::Emperor).spice == emperor_before);
  }
}

TEST_CASE("3.01.11.04 default karama_bid_scope=any_amount_free: a Karama bid within one's spice is free too",
          "[bidding][rulings]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild});
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
  set_spice(s, Faction::Atreides, 5);
  const uint8_t karama = card_of_kind(TreacheryKind::Karama);
  set_hand(s, Faction::Atreides, 1);
  give(s, Faction::Atreides, karama);
  start(s);
  const uint8_t card = s.bidding.row.ids[0];
  reach_with_rival(s, Faction::Atreides);
  act(s, Faction::Atreides, bid(3, true));
  CHECK(s.bidding.karama_bid == 1);
  sell_current(s);
  CHECK(s.of(Faction::Atreides).hand.contains(card));
  CHECK_FALSE(s.of(Faction::Atreides).hand.contains(karama));
  CHECK(s.of(Faction::Atreides).spice == 5);
}

TEST_CASE("1.04.07 ruling next_opener_basis=first_bidder", "[bidding][rulings]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Emperor, Faction::Guild}, false,
                           ruling("next_opener_basis", "first_bidder"));
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  start(s);
  REQUIRE(to_bid(s) == o[0]);
  // o[0] opens by passing; o[2] is the first to bid and buys.
  act(s, fac(s, o[0]), pass());
  act(s, fac(s, o[1]), pass());
  act(s, fac(s, o[2]), bid(1));
  CHECK(s.bidding.opener == o[2]);
  act(s, fac(s, o[3]), pass());
  REQUIRE(s.bidding.row.n == 3);
  // Default (first_asked): o[1], to the right of o[0]. Here: right of o[2].
  CHECK(to_bid(s) == o[3]);
  CHECK(s.bidding.opener == o[3]);
  // The next card: o[3] asked first, o[0] bids first, o[1] outbids and buys.
  act(s, fac(s, o[3]), pass());
  act(s, fac(s, o[0]), bid(1));
  act(s, fac(s, o[1]), bid(2));
  act(s, fac(s, o[2]), pass());
  act(s, fac(s, o[0]), pass());
  REQUIRE(s.bidding.row.n == 2);
  CHECK(to_bid(s) == o[1]);  // right of the first bidder o[0]
}

TEST_CASE("3.01.11.04 Bid.card names the card spent as the Karama", "[bidding]") {
  const uint8_t baliset = card_of_kind(TreacheryKind::Baliset);
  const uint8_t karama = card_of_kind(TreacheryKind::Karama, 0);
  const uint8_t other_karama = card_of_kind(TreacheryKind::Karama, 1);
  GameState s = at_bidding({Faction::BeneGesserit, Faction::Atreides, Faction::Guild}, true);
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
  set_spice(s, Faction::BeneGesserit, 1);
  set_hand(s, Faction::BeneGesserit, 1);
  const uint8_t plain = s.of(Faction::BeneGesserit).hand.ids[0];
  give(s, Faction::BeneGesserit, karama);
  give(s, Faction::BeneGesserit, baliset);
  start(s);
  REQUIRE(s.bidding.row.n == 3);
  const uint8_t card = s.bidding.row.ids[0];
  reach_with_rival(s, Faction::BeneGesserit);

  SECTION("rejections") {
    auto r1 = rejected(s, Faction::BeneGesserit, karama_bid(9, plain));
    CHECK(r1.code == RejectCode::IllegalChoice);
    CHECK(r1.reason.find("not a Karama") != std::string::npos);
    auto r2 = rejected(s, Faction::BeneGesserit, karama_bid(9, other_karama));
    CHECK(r2.code == RejectCode::IllegalChoice);
    CHECK(r2.reason.find("not in your hand") != std::string::npos);
    CHECK(rejected(s, Faction::BeneGesserit, karama_bid(9, 200)).code == RejectCode::Malformed);
    action::Bid named_plain_bid = bid(5);
    named_plain_bid.card = karama;
    CHECK(rejected(s, Faction::BeneGesserit, named_plain_bid).code == RejectCode::Malformed);
  }
  SECTION("255: the automatic choice spends the worthless card first") {
    act(s, Faction::BeneGesserit, karama_bid(9, kNone8));
    sell_current(s);
    CHECK(s.of(Faction::BeneGesserit).hand.contains(karama));
    CHECK_FALSE(s.of(Faction::BeneGesserit).hand.contains(baliset));
  }
  SECTION("naming the Karama spends it and keeps the worthless card") {
    act(s, Faction::BeneGesserit, karama_bid(9, karama));
    CHECK(s.bidding.karama_card == karama);
    sell_current(s);
    const auto& hand = s.of(Faction::BeneGesserit).hand;
    CHECK(hand.contains(card));
    CHECK(hand.contains(baliset));
    CHECK_FALSE(hand.contains(karama));
    CHECK(s.treachery_discard.top() == karama);
    CHECK(s.of(Faction::BeneGesserit).spice == 1);
  }
  SECTION("naming the worthless card spends it") {
    act(s, Faction::BeneGesserit, karama_bid(9, baliset));
    sell_current(s);
    CHECK(s.of(Faction::BeneGesserit).hand.contains(karama));
    CHECK(s.treachery_discard.top() == baliset);
  }
  SECTION("outbid: nothing is spent, and the next card starts with no named card") {
    act(s, Faction::BeneGesserit, karama_bid(9, karama));
    act(s, fac(s, to_bid(s)), bid(10));
    while (s.bidding.row.n == 3) act(s, fac(s, to_bid(s)), pass());
    CHECK(s.of(Faction::BeneGesserit).hand.contains(karama));
    CHECK(s.of(Faction::BeneGesserit).hand.contains(baliset));
    CHECK(s.bidding.karama_card == kNone8);
  }
}

TEST_CASE("3.01.11.04 Bid.card: a worthless card is no Karama in the basic game (bg_worthless_karama default)",
          "[bidding]") {
  const uint8_t baliset = card_of_kind(TreacheryKind::Baliset);
  const uint8_t karama = card_of_kind(TreacheryKind::Karama);
  GameState s = at_bidding({Faction::BeneGesserit, Faction::Atreides, Faction::Guild});
  set_hand(s, Faction::BeneGesserit, 0);
  give(s, Faction::BeneGesserit, baliset);
  give(s, Faction::BeneGesserit, karama);
  start(s);
  pass_until(s, Faction::BeneGesserit);
  auto r = rejected(s, Faction::BeneGesserit, karama_bid(9, baliset));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK(r.reason.find("bg_worthless_karama") != std::string::npos);
  CHECK_FALSE(validate(s, seat(s, Faction::BeneGesserit), karama_bid(9, karama)).has_value());
}

TEST_CASE("Bid.card round-trips through the event codec and the action JSON", "[bidding][events]") {
  codec::Event e;
  e.version = 5;
  e.seat = 1;
  e.action = karama_bid(7, 12);
  std::string err;
  codec::Event d;
  REQUIRE(codec::decode_event(codec::encode_event(e), &d, &err));
  CHECK(d.action.kind() == ActionKind::Bid);
  CHECK(d.action.as<action::Bid>().amount == 7);
  CHECK(d.action.as<action::Bid>().karama);
  CHECK(d.action.as<action::Bid>().card == 12);
  e.action = bid(3);
  REQUIRE(codec::decode_event(codec::encode_event(e), &d, &err));
  CHECK(d.action.as<action::Bid>().card == kNone8);
  Action a;
  REQUIRE(codec::parse_action_json(R"({"action_type":"Bid","action":{"amount":4,"karama":true,"card":12}})", &a,
                                   nullptr, &err));
  CHECK(a.as<action::Bid>().card == 12);
  CHECK(a.as<action::Bid>().karama);
  REQUIRE(codec::parse_action_json(R"({"action_type":"Bid","action":{"amount":4}})", &a, nullptr, &err));
  CHECK(a.as<action::Bid>().card == kNone8);
}

// ---- 3.01.11.02: a Karama prevents the next use of an automatic ability ----

namespace {

Action prevent_play(uint8_t karama, rules::Ability ab, Faction target) {
  action::PlayCard a;
  a.card = karama;
  a.value = static_cast<uint8_t>(rules::kKaramaPrevent | static_cast<int>(ab));
  a.target = static_cast<uint8_t>(target);
  return a;
}

// The card up for bid goes to `buyer` for `amount` (every other seat passes).
void buy(GameState& s, Faction buyer, int amount) {
  const int n = s.bidding.row.n;
  const uint8_t card = s.bidding.row.ids[0];
  while (s.phase == Phase::Bidding && s.bidding.row.n == n) {
    const Seat who = to_bid(s);
    if (fac(s, who) == buyer && s.bidding.high_bidder != who) act(s, buyer, bid(amount));
    else act(s, fac(s, who), pass());
  }
  REQUIRE(s.of(buyer).hand.contains(card));
}

}  // namespace

TEST_CASE("3.01.11.02 2.03.04 a prevented payment for treachery goes to the bank, the next one to the Emperor again", "[bidding][karama]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild, Faction::Fremen});
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
  const uint8_t karama = card_of_kind(TreacheryKind::Karama);
  give(s, Faction::Guild, karama);
  CHECK(rejected(s, Faction::Guild, prevent_play(karama, rules::Ability::EmperorPayment, Faction::Atreides)).code ==
        RejectCode::IllegalChoice);  // the Atreides do not have it
  act(s, Faction::Guild, prevent_play(karama, rules::Ability::EmperorPayment, Faction::Emperor));
  CHECK(s.prevented[static_cast<int>(Faction::Emperor)] != 0);
  start(s);
  const int64_t bank0 = s.bank;
  buy(s, Faction::Atreides, 7);
  CHECK(s.of(Faction::Atreides).spice == 3);
  CHECK(s.of(Faction::Emperor).spice == 10);  // 1.04.06.03: to the bank
  CHECK(s.bank == bank0 + 7);
  CHECK(s.prevented[static_cast<int>(Faction::Emperor)] == 0);  // consumed
  buy(s, Faction::Fremen, 2);
  CHECK(s.of(Faction::Emperor).spice == 12);  // 2.03.04 is back
  CHECK(s.bank == bank0 + 7);
}

TEST_CASE("3.01.11.02 2.03.04 the Emperor's own purchase and a Karama bid do not use up the prevention", "[bidding][karama]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild});
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
  const uint8_t karama = card_of_kind(TreacheryKind::Karama);
  give(s, Faction::Guild, karama);
  act(s, Faction::Guild, prevent_play(karama, rules::Ability::EmperorPayment, Faction::Emperor));
  start(s);
  buy(s, Faction::Emperor, 3);  // paid to the bank anyway: 2.03.04 is not used
  CHECK(s.of(Faction::Emperor).spice == 7);
  CHECK(s.prevented[static_cast<int>(Faction::Emperor)] != 0);
  buy(s, Faction::Guild, 4);
  CHECK(s.of(Faction::Emperor).spice == 7);
  CHECK(s.prevented[static_cast<int>(Faction::Emperor)] == 0);
}

TEST_CASE("3.01.11.02 2.05.08 a prevented top card: no free card with the next purchase, then the ability is back", "[bidding][karama]") {
  GameState s = at_bidding({Faction::Harkonnen, Faction::Atreides, Faction::Emperor});
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
  set_hand(s, Faction::Harkonnen, 1);
  const uint8_t karama = card_of_kind(TreacheryKind::Karama);
  give(s, Faction::Atreides, karama);
  act(s, Faction::Atreides, prevent_play(karama, rules::Ability::HarkonnenTopCard, Faction::Harkonnen));
  start(s);
  const auto& hand = s.of(Faction::Harkonnen).hand;
  const uint8_t top = deck_top(s);
  buy(s, Faction::Harkonnen, 2);
  CHECK(hand.n == 2);  // the card bought only
  CHECK_FALSE(hand.contains(top));
  CHECK(deck_top(s) == top);
  CHECK(s.prevented[static_cast<int>(Faction::Harkonnen)] == 0);
  buy(s, Faction::Harkonnen, 1);
  CHECK(hand.n == 4);  // 2.05.08 again: the card and the top card
  CHECK(hand.contains(top));
}

TEST_CASE("3.01.11.02 2.01.05 a prevented look: the Atreides do not see the next card up for bid, then see again", "[bidding][karama][views]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Fremen, Faction::Emperor});
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
  const uint8_t karama = card_of_kind(TreacheryKind::Karama);
  give(s, Faction::Fremen, karama);
  act(s, Faction::Fremen, prevent_play(karama, rules::Ability::AtreidesBidding, Faction::Atreides));
  start(s);
  CHECK_FALSE(rules::can_see_card_up_for_bid(s, Faction::Atreides));
  CHECK(s.atreides.bidding.blind == 1);
  CHECK(s.prevented[static_cast<int>(Faction::Atreides)] == 0);
  for (Seat x = 0; x < s.num_seats; ++x) CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::of(x)).has_value());
  buy(s, Faction::Emperor, 1);
  CHECK(rules::can_see_card_up_for_bid(s, Faction::Atreides));  // the next card
  // Played while a card is up for bid (already seen): it is the next card's.
  const uint8_t k2 = card_of_kind(TreacheryKind::Karama, 1);
  give(s, Faction::Emperor, k2);
  act(s, Faction::Emperor, prevent_play(k2, rules::Ability::AtreidesBidding, Faction::Atreides));
  CHECK(rules::can_see_card_up_for_bid(s, Faction::Atreides));
  buy(s, Faction::Fremen, 1);
  CHECK_FALSE(rules::can_see_card_up_for_bid(s, Faction::Atreides));
}

TEST_CASE("3.01.11.02 2.03.04 2.05.08 ruling karama_automatic_use=next_occasion: the next sale uses the prevention up", "[bidding][karama]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Emperor, Faction::Guild, Faction::Harkonnen}, false,
                           ruling("karama_automatic_use", "next_occasion"));
  for (Seat x : storm_order(s)) set_spice(s, fac(s, x), 10);
  set_hand(s, Faction::Harkonnen, 7);  // a purchase fills the hand: no free card either way
  const uint8_t karama = card_of_kind(TreacheryKind::Karama);
  const uint8_t k2 = card_of_kind(TreacheryKind::Karama, 1);
  give(s, Faction::Guild, karama);
  give(s, Faction::Atreides, k2);
  act(s, Faction::Guild, prevent_play(karama, rules::Ability::EmperorPayment, Faction::Emperor));
  act(s, Faction::Atreides, prevent_play(k2, rules::Ability::HarkonnenTopCard, Faction::Harkonnen));
  start(s);
  buy(s, Faction::Harkonnen, 3);  // the Emperor's first occasion: paid to the bank
  CHECK(s.of(Faction::Emperor).spice == 10);
  CHECK(s.of(Faction::Harkonnen).hand.n == 8);
  CHECK(s.prevented[static_cast<int>(Faction::Emperor)] == 0);
  CHECK(s.prevented[static_cast<int>(Faction::Harkonnen)] == 0);  // used up although it changed nothing
}

TEST_CASE("1.04.06.02 ruling passed_bidder: a seat that passed is out for the card, or asked again after a raise", "[bidding][rulings]") {
  const bool again = GENERATE(false, true);
  INFO((again ? "asked_after_raise" : "out_for_card (default)"));
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, Faction::Fremen, Faction::Guild}, false,
                           again ? ruling("passed_bidder", "asked_after_raise") : Rulings::defaults());
  const auto o = storm_order(s);
  for (Seat x : o) set_spice(s, fac(s, x), 10);
  for (Seat x : o) set_hand(s, fac(s, x), 1);
  start(s);
  REQUIRE(to_bid(s) == o[0]);
  const uint8_t card = s.bidding.row.ids[0];
  act(s, fac(s, o[0]), bid(1));
  act(s, fac(s, o[1]), pass());
  act(s, fac(s, o[2]), bid(2));  // a raise after o[1] passed
  act(s, fac(s, o[3]), pass());
  REQUIRE(to_bid(s) == o[0]);
  act(s, fac(s, o[0]), pass());
  if (!again) {
    // o[1]'s pass stands: o[2] is the top bidder and everyone else is out.
    CHECK(s.of(fac(s, o[2])).hand.contains(card));
    CHECK(s.of(fac(s, o[2])).spice == 8);
  } else {
    // o[1] passed on 1 spice, not on 2: it is asked again and may raise.
    REQUIRE(to_bid(s) == o[1]);
    CHECK_FALSE(s.of(fac(s, o[2])).hand.contains(card));
    act(s, fac(s, o[1]), bid(3));
    act(s, fac(s, o[2]), pass());
    act(s, fac(s, o[3]), pass());
    REQUIRE(to_bid(s) == o[0]);
    act(s, fac(s, o[0]), pass());
    // All others passed on the top bid: o[1] buys.
    CHECK(s.of(fac(s, o[1])).hand.contains(card));
    CHECK(s.of(fac(s, o[1])).spice == 7);
  }
  // Either way, a card nobody bids on is bought in (1.04.09) after one round.
  REQUIRE(s.phase == Phase::Bidding);
  const int row_left = s.bidding.row.n;
  REQUIRE(row_left == 3);
  for (int k = 0; k < 4; ++k) act(s, fac(s, to_bid(s)), pass());
  CHECK(s.phase != Phase::Bidding);
  CHECK(s.bidding.row.n == 0);
}
