// Richese (CHOAM & Richese, issue 13; core/factions/richese.cpp, docs/factions/richese.md):
// one scenario per ability and ruling, each able to fail (outcomes asserted).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "bots/selfplay.h"
#include "events/view_generated.h"
#include "inspect/projection.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "support/module_game.h"
#include "support/run_command.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;

namespace {

constexpr auto kRichese = Faction::Richese;
constexpr uint8_t kMarket = 1, kTiming = 2, kCacheLot = 3, kAuction = 4, kUnsold = 5;  // richese.cpp's steps

GameState richese_game(std::initializer_list<Faction> factions, bool advanced = false, Rulings rulings = Rulings::defaults(),
                       uint64_t seed = 7) {
  return game(factions, advanced, seed, rulings, data::module_bit(data::Module::ChoamRichese));
}

// Plays the default choices (scenario::play_until) up to the Bidding phase of `turn`.
GameState at_bidding(std::initializer_list<Faction> factions, bool advanced = false, Rulings rulings = Rulings::defaults(),
                     int turn = 1) {
  GameState s = richese_game(factions, advanced, rulings);
  play_until(s, Phase::Bidding, turn);
  return s;
}

uint8_t cache_card(const GameState& s, data::TreacheryKind kind) {
  for (int i = 0; i < s.richese.cache.n; ++i)
    if (data::treachery_card(s.richese.cache.ids[i]).kind == kind) return s.richese.cache.ids[i];
  FAIL("no such card in the cache");
  return kNone8;
}

action::RicheseLot lot(uint8_t card, int auction) { return action::RicheseLot{.card = card, .auction = static_cast<uint8_t>(auction)}; }

// The view of `f` (or of the state) as a FlatBuffers table.
std::string view_of(const GameState& s, Faction f) { return inspect::build_view(s, inspect::Viewer::of(s.seat_of(f))); }
const fb::View* as_view(const std::string& bytes) { return fb::GetView(bytes.data()); }

}  // namespace

TEST_CASE("Richese setup: 5 spice, 20 forces in reserve, hand limit 4, free revival 2, the cache of ten cards secret but its count",
          "[richese]") {
  GameState s = richese_game({Faction::Atreides, kRichese, Faction::Fremen});
  check_custody(s);
  CHECK(s.of(kRichese).spice == 5);
  CHECK(s.of(kRichese).reserves[0] == 20);
  CHECK(rules::hand_limit(s, kRichese) == 4);
  CHECK(data::faction_setup(kRichese).free_revival == 2);
  REQUIRE(s.richese.cache.n == 10);
  const auto mine = view_of(s, kRichese), theirs = view_of(s, Faction::Atreides);
  REQUIRE(as_view(mine)->richese());
  REQUIRE(as_view(theirs)->richese());
  CHECK(as_view(mine)->richese()->cache()->size() == 10);
  CHECK(as_view(theirs)->richese()->cache() == nullptr);
  CHECK(as_view(theirs)->richese()->cache_count() == 10);
  check_projections(s);
}

TEST_CASE("Richese plays end to end: mentat new accepts the Richese with their module, and a game reaches its second turn", "[richese]") {
  plays_with_module(kRichese, Faction::Harkonnen, data::module_bit(data::Module::ChoamRichese));
}

TEST_CASE("Richese cache lot: announced first, one card fewer dealt, once around from the seat after Richese with Richese last, paid to Richese",
          "[richese][bidding]") {
  for (int direction : {1, 2}) {
    INFO("auction " << direction);
    GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, kRichese, Faction::Fremen});
    REQUIRE(s.step == kTiming);
    CHECK(waiting(s, kRichese));
    const int deck = s.treachery_deck.n;
    const int eligible = 4;  // no hand is full at the first Bidding phase
    act(s, kRichese, action::RicheseCacheTiming{.first = true});
    CHECK(s.bidding.dealt == eligible - 1);
    CHECK(deck - s.treachery_deck.n == eligible - 1);
    REQUIRE(s.step == kCacheLot);
    CHECK(rejected(s, kRichese, pass()).code == RejectCode::IllegalChoice);  // announced: it is sold
    const uint8_t card = cache_card(s, data::TreacheryKind::StoneBurner);
    CHECK(rejected(s, kRichese, lot(card, 0)).code == RejectCode::IllegalChoice);  // never by normal bidding
    act(s, kRichese, lot(card, direction));
    REQUIRE(s.step == kAuction);
    // The cache lot is named face up: every seat sees it.
    const auto v = view_of(s, Faction::Atreides);
    REQUIRE(as_view(v)->bidding());
    REQUIRE(as_view(v)->bidding()->current_card());
    CHECK(as_view(v)->bidding()->current_card()->id() == card);
    CHECK(as_view(v)->bidding()->richese_lot());
    // Turn order: from the seat after Richese (storm order, or against it), Richese last.
    const auto order = rules::order_from_first(s);
    const int n = static_cast<int>(order.size());
    int r = 0;
    for (int i = 0; i < n; ++i)
      if (order[i] == s.seat_of(kRichese)) r = i;
    std::vector<Seat> turns;
    for (int k = 1; k <= n; ++k) turns.push_back(order[((direction == 1 ? r + k : r - k) % n + n) % n]);
    REQUIRE(turns.back() == s.seat_of(kRichese));
    set_spice(s, s.faction_at(turns[0]), 10);
    set_spice(s, s.faction_at(turns[1]), 10);
    for (int i = 0; i + 1 < n; ++i) CHECK_FALSE(waiting(s, s.faction_at(turns[i + 1])));
    REQUIRE(waiting(s, s.faction_at(turns[0])));
    CHECK(rejected(s, s.faction_at(turns[0]), bid(1, true)).code == RejectCode::IllegalChoice);  // no Karama bids
    act(s, s.faction_at(turns[0]), bid(2));
    REQUIRE(waiting(s, s.faction_at(turns[1])));
    act(s, s.faction_at(turns[1]), bid(3));
    act(s, s.faction_at(turns[2]), pass());
    const Faction winner = s.faction_at(turns[1]);
    const int richese_before = s.of(kRichese).spice, winner_before = s.of(winner).spice;
    act(s, kRichese, pass());  // Richese last: the lot is sold
    CHECK(s.of(winner).hand.contains(card));
    CHECK_FALSE(s.richese.cache.contains(card));
    CHECK(s.of(kRichese).spice == richese_before + 3);
    CHECK(s.of(winner).spice == winner_before - 3);
    CHECK(s.richese.bidding.cache_done == 1);
    CHECK(s.step == 0);  // the dealt cards follow
    CHECK(s.bidding.row.n == eligible - 1);
    check_custody(s);
  }
}

TEST_CASE("Richese cache lot last: after the dealt cards, the phase ends after it", "[richese][bidding]") {
  GameState s = at_bidding({Faction::Atreides, kRichese});
  act(s, kRichese, action::RicheseCacheTiming{.first = false});
  CHECK(s.bidding.dealt == 1);
  CHECK(s.step == 0);
  // Everyone passes on the dealt card: bought in, then the cache lot.
  for (int i = 0; i < 4 && s.step == 0 && s.phase == Phase::Bidding; ++i)
    act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), pass());
  REQUIRE(s.step == kCacheLot);
  const uint8_t card = cache_card(s, data::TreacheryKind::MirrorWeapon);
  act(s, kRichese, lot(card, 1));
  act(s, Faction::Atreides, bid(1));
  act(s, kRichese, pass());
  CHECK(s.of(Faction::Atreides).hand.contains(card));
  CHECK(s.phase != Phase::Bidding);  // the lot after the dealt cards ends the phase
}

TEST_CASE("Richese silent auction: one secret bid each, hidden from the others, the highest wins, ties to the first in storm order",
          "[richese][bidding][views]") {
  GameState s = at_bidding({Faction::Atreides, Faction::Harkonnen, kRichese});
  act(s, kRichese, action::RicheseCacheTiming{.first = true});
  const uint8_t card = cache_card(s, data::TreacheryKind::Karama);
  act(s, kRichese, lot(card, 3));
  REQUIRE(s.step == kAuction);
  CHECK(waiting_for(s) == s.bidding.eligible);  // everyone at once
  for (auto f : {Faction::Atreides, Faction::Harkonnen}) set_spice(s, f, 10);
  act(s, Faction::Atreides, bid(4));
  // The bid is the Atreides' secret until all are in: the others' views do not change with it.
  check_projections(s);
  const auto hv = view_of(s, Faction::Harkonnen), av = view_of(s, Faction::Atreides);
  CHECK_FALSE(as_view(hv)->richese()->silent_bid().has_value());
  REQUIRE(as_view(av)->richese()->silent_bid().has_value());
  CHECK(*as_view(av)->richese()->silent_bid() == 4);
  CHECK(as_view(hv)->richese()->silent_bids_in()->size() == 1);
  // The replay's one-line summary hides the amount too.
  codec::Event e;
  e.seat = s.seat_of(Faction::Harkonnen);
  e.action = bid(4);
  GameState after = s;
  CHECK(inspect::summarize_event(e, &s, after, false).find("4") == std::string::npos);
  act(s, Faction::Harkonnen, bid(4));  // a tie
  act(s, kRichese, pass());            // Pass: a bid of 0
  // The first of the tied seats in storm order wins.
  Faction first = Faction::Atreides;
  for (Seat x : rules::order_from_first(s))
    if (s.faction_at(x) == Faction::Atreides || s.faction_at(x) == Faction::Harkonnen) {
      first = s.faction_at(x);
      break;
    }
  CHECK(s.of(first).hand.contains(card));
  CHECK(s.of(first).spice == 6);
  check_custody(s);
}

TEST_CASE("Richese unsold cache card: kept free, removed from the game, or removed when the hand is full", "[richese][bidding]") {
  for (int variant = 0; variant < 3; ++variant) {  // 0 keep, 1 remove, 2 full hand
    INFO("variant " << variant);
    GameState s = at_bidding({Faction::Atreides, kRichese});
    act(s, kRichese, action::RicheseCacheTiming{.first = true});
    const uint8_t card = cache_card(s, data::TreacheryKind::Distrans);
    if (variant == 2)
      while (!rules::hand_full(s, kRichese)) s.of(kRichese).hand.push(s.treachery_deck.pop());
    act(s, kRichese, lot(card, 1));
    act(s, Faction::Atreides, pass());
    if (variant < 2) {
      act(s, kRichese, pass());
      REQUIRE(s.step == kUnsold);
      act(s, kRichese, respond(variant == 0));
    }
    CHECK(s.of(kRichese).hand.contains(card) == (variant == 0));
    CHECK(s.richese.removed.contains(card) == (variant != 0));
    CHECK_FALSE(s.richese.cache.contains(card));
    check_custody(s);
  }
}

TEST_CASE("Richese buying its own lot pays the Emperor (the bank without him)", "[richese][bidding]") {
  for (bool emperor : {true, false}) {
    INFO("emperor " << emperor);
    GameState s = emperor ? at_bidding({Faction::Emperor, kRichese}) : at_bidding({Faction::Atreides, kRichese});
    const Faction other = emperor ? Faction::Emperor : Faction::Atreides;
    act(s, kRichese, action::RicheseCacheTiming{.first = true});
    act(s, kRichese, lot(cache_card(s, data::TreacheryKind::SemutaDrug), 1));
    act(s, other, pass());
    const int other_before = s.of(other).spice, bank_before = s.bank;
    set_spice(s, kRichese, 5);
    const int bank_set = s.bank;
    act(s, kRichese, bid(2));
    CHECK(s.of(kRichese).spice == 3);
    if (emperor) {
      CHECK(s.of(other).spice == other_before + 2);
      CHECK(s.bank == bank_set);
    } else {
      CHECK(s.of(other).spice == other_before);
      CHECK(s.bank == bank_set + 2);
    }
    (void)bank_before;
  }
}

TEST_CASE("Richese Black Market: advanced (ruling richese_black_market), a card of its hand first, sold: one card fewer dealt, unsold: kept",
          "[richese][bidding][rulings]") {
  GameState basic = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen});
  CHECK(basic.step == kTiming);  // basic game: no Black Market
  GameState every = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen}, false, ruling("richese_black_market", "every_game"));
  CHECK(every.step == kMarket);
  for (bool sold : {true, false}) {
    INFO("sold " << sold);
    GameState s = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen}, true);
    REQUIRE(s.step == kMarket);
    REQUIRE(s.of(kRichese).hand.n > 0);
    const uint8_t card = s.of(kRichese).hand.ids[0];
    act(s, kRichese, lot(card, 3));  // silently
    REQUIRE(s.step == kAuction);
    // The Black Market card: the Richese (and the Atreides, 2.01.05) see it; the Harkonnen do not.
    const auto hv = view_of(s, Faction::Harkonnen), av = view_of(s, Faction::Atreides), rv = view_of(s, kRichese);
    CHECK(as_view(hv)->bidding()->current_card() == nullptr);
    REQUIRE(as_view(av)->bidding()->current_card());
    CHECK(as_view(rv)->bidding()->current_card()->id() == card);
    check_projections(s);
    // It is not the Richese's to give while it is up for bid.
    set_spice(s, Faction::Harkonnen, 10);
    act(s, Faction::Atreides, pass());
    act(s, Faction::Harkonnen, sold ? bid(3) : pass());
    act(s, kRichese, pass());
    CHECK(s.of(Faction::Harkonnen).hand.contains(card) == sold);
    CHECK(s.of(kRichese).hand.contains(card) == !sold);
    REQUIRE(s.step == kTiming);
    int eligible = 0;
    for (Seat x = 0; x < s.num_seats; ++x) eligible += !rules::hand_full(s, s.faction_at(x));
    act(s, kRichese, action::RicheseCacheTiming{.first = false});
    CHECK(s.bidding.dealt == eligible - 1 - (sold ? 1 : 0));
    check_custody(s);
  }
}

TEST_CASE("Richese Karama prevention: no cache lot (a full deal) and no Black Market, each used up once", "[richese][karama]") {
  GameState s = richese_game({Faction::Atreides, kRichese, Faction::Harkonnen}, true);
  play_until(s, Phase::Storm, 1);
  rules::set_prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseCache), true);
  rules::set_prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseBlackMarket), true);
  play_until(s, Phase::Bidding, 1);
  CHECK(s.step == 0);  // neither step
  CHECK(s.richese.bidding.cache_timing == 3);
  CHECK(s.bidding.dealt == 3);  // the full deal
  CHECK_FALSE(rules::prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseCache)));
  CHECK_FALSE(rules::prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseBlackMarket)));
  play_until(s, Phase::Bidding, 2);
  CHECK(s.step == kMarket);  // back the next turn
}

TEST_CASE("Richese Karama cancellation: the cache lot announced may be cancelled, Richese then passes and nothing is sold",
          "[richese][karama]") {
  GameState s = at_bidding({Faction::Atreides, kRichese}, false, ruling("karama_windows", "all_other_seats"));
  act(s, kRichese, action::RicheseCacheTiming{.first = true});
  const uint8_t karama = give(s, Faction::Atreides, data::TreacheryKind::Karama);
  const uint8_t card = cache_card(s, data::TreacheryKind::Ornithopter);
  act(s, kRichese, lot(card, 1));
  REQUIRE(rules::window_open(s));
  act(s, Faction::Atreides, respond(true, karama));
  CHECK_FALSE(rules::window_open(s));
  REQUIRE(s.step == kCacheLot);
  CHECK(rejected(s, kRichese, lot(card, 1)).code == RejectCode::IllegalChoice);
  act(s, kRichese, pass());
  CHECK(s.richese.cache.contains(card));
  CHECK(s.step == 0);
  CHECK(s.treachery_discard.contains(karama));
  check_custody(s);
}

TEST_CASE("Richese special Karama purchase: advanced, once a game, a Karama and 3 spice for a cache card, payee and full-hand rulings",
          "[richese][karama][rulings]") {
  for (int variant = 0; variant < 3; ++variant) {  // 0 defaults (the Emperor is paid), 1 richese_buy_payee=bank, 2 full hand allowed
    INFO("variant " << variant);
    Rulings r = variant == 1 ? ruling("richese_buy_payee", "bank") : variant == 2 ? ruling("richese_buy_full_hand", "allowed") : Rulings::defaults();
    GameState s = richese_game({Faction::Emperor, kRichese}, true, r);
    play_until(s, Phase::Storm, 1);
    empty_hand(s, kRichese);
    const uint8_t karama = give(s, kRichese, data::TreacheryKind::Karama);
    set_spice(s, kRichese, 5);
    const int emperor = s.of(Faction::Emperor).spice, bank = s.bank;
    const uint8_t card = cache_card(s, data::TreacheryKind::NullentropyBox);
    const action::RicheseBuy buy{.karama = karama, .card = card};
    if (variant != 1) {  // a full hand: refused under free_slot, allowed under allowed
      GameState full = s;
      while (!rules::hand_full(full, kRichese)) full.of(kRichese).hand.push(full.treachery_deck.pop());
      if (variant == 2) act(full, kRichese, buy);
      else CHECK(rejected(full, kRichese, buy).code == RejectCode::IllegalChoice);
    }
    act(s, kRichese, buy);
    CHECK(s.of(kRichese).hand.contains(card));
    CHECK_FALSE(s.of(kRichese).hand.contains(karama));
    CHECK(s.treachery_discard.contains(karama));
    CHECK(s.of(kRichese).spice == 2);
    if (variant == 1) {
      CHECK(s.bank == bank + 3);
      CHECK(s.of(Faction::Emperor).spice == emperor);
    } else {
      CHECK(s.of(Faction::Emperor).spice == emperor + 3);
    }
    CHECK(s.richese.karama_used == 1);
    // The choice is secret: the Emperor's view does not change with which card it was.
    check_projections(s);
    let_semuta_pass(s);  // the Karama discarded, a cache card out: a possible Semuta Drug holder is asked
    const uint8_t k2 = give(s, kRichese, data::TreacheryKind::Karama);
    set_spice(s, kRichese, 5);
    CHECK(rejected(s, kRichese, action::RicheseBuy{.karama = k2, .card = s.richese.cache.ids[0]}).code == RejectCode::IllegalChoice);  // once
    check_custody(s);
  }
  GameState basic = richese_game({Faction::Emperor, kRichese}, false);
  play_until(basic, Phase::Storm, 1);
  const uint8_t k = give(basic, kRichese, data::TreacheryKind::Karama);
  CHECK(rejected(basic, kRichese, action::RicheseBuy{.karama = k, .card = basic.richese.cache.ids[0]}).code == RejectCode::IllegalChoice);
}

TEST_CASE("Richese gift: a Richese card to the ally, not a full hand, not another card, the face private", "[richese][alliance]") {
  GameState s = richese_game({Faction::Atreides, kRichese, Faction::Harkonnen});
  play_until(s, Phase::Storm, 1);
  empty_hand(s, kRichese);
  const uint8_t card = from_cache(s, kRichese, data::TreacheryKind::JuiceOfSapho);
  const uint8_t base = give(s, kRichese, data::TreacheryKind::Lasgun);
  const action::RicheseGift gift{.card = card};
  CHECK(rejected(s, kRichese, gift).code == RejectCode::IllegalChoice);  // no ally
  ally(s, kRichese, Faction::Harkonnen);
  CHECK(rejected(s, kRichese, action::RicheseGift{.card = base}).code == RejectCode::IllegalChoice);  // a base card
  CHECK(rejected(s, Faction::Harkonnen, gift).code == RejectCode::IllegalChoice);                    // only the Richese give
  // Each Richese action sent by another seat is refused with its own sentence.
  CHECK(rejected(s, Faction::Harkonnen, gift).reason == "only the Richese give a card as the Richese gift (CHOAM & Richese)");
  CHECK(rejected(s, Faction::Harkonnen, action::RicheseReveal{}).reason == "only the Richese reveal a No-Field token (CHOAM & Richese)");
  CHECK(rejected(s, Faction::Atreides, action::RicheseBuy{.karama = 0, .card = card}).reason ==
        "only the Richese buy from the Richese cache (CHOAM & Richese)");
  GameState full = s;
  while (!rules::hand_full(full, Faction::Harkonnen)) full.of(Faction::Harkonnen).hand.push(full.treachery_deck.pop());
  CHECK(rejected(full, kRichese, gift).code == RejectCode::IllegalChoice);
  act(s, kRichese, gift);
  CHECK(s.of(Faction::Harkonnen).hand.contains(card));
  CHECK_FALSE(s.of(kRichese).hand.contains(card));
  codec::Event e;
  e.seat = s.seat_of(kRichese);
  e.action = gift;
  CHECK(inspect::summarize_event(e, &s, s, false).find("Juice") == std::string::npos);
  check_projections(s);
  check_custody(s);
}

TEST_CASE("Richese gift during the Bidding phase: allowed, or not under ruling richese_gift_timing", "[richese][alliance][rulings]") {
  for (bool any_time : {true, false}) {
    INFO("any_time " << any_time);
    GameState s = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen}, false,
                             any_time ? Rulings::defaults() : ruling("richese_gift_timing", "not_during_bidding"));
    ally(s, kRichese, Faction::Harkonnen);
    const uint8_t card = from_cache(s, kRichese, data::TreacheryKind::Distrans);
    const action::RicheseGift gift{.card = card};
    if (any_time) {
      act(s, kRichese, gift);
      CHECK(s.of(Faction::Harkonnen).hand.contains(card));
    } else {
      CHECK(rejected(s, kRichese, gift).code == RejectCode::WrongPhase);
      CHECK(s.of(kRichese).hand.contains(card));
    }
  }
}

TEST_CASE("Richese gift: a Karama cancels it and the card stays, ruling richese_gift_retry, the resumed intent gives exactly once",
          "[richese][alliance][karama][rulings]") {
  for (bool retry : {true, false}) {
    INFO("retry " << retry);
    Rulings r = ruling("karama_windows", "all_other_seats");
    if (!retry) r = ruling("richese_gift_retry", "not_this_phase", r);
    GameState s = richese_game({Faction::Atreides, kRichese, Faction::Harkonnen}, false, r);
    play_until(s, Phase::Storm, 1);
    empty_hand(s, kRichese);
    ally(s, kRichese, Faction::Harkonnen);
    const uint8_t card = from_cache(s, kRichese, data::TreacheryKind::PortableSnooper);
    const uint8_t karama = give(s, Faction::Atreides, data::TreacheryKind::Karama);
    const GameState before = s;
    act(s, kRichese, action::RicheseGift{.card = card});
    REQUIRE(rules::window_open(s));  // the pending intent: the card is still the Richese's
    CHECK(s.of(kRichese).hand.contains(card));
    CHECK(rejected(s, kRichese, action::RicheseGift{.card = card}).code == RejectCode::WrongPhase);
    act(s, Faction::Atreides, respond(true, karama));
    let_semuta_pass(s);  // the Karama was discarded
    CHECK_FALSE(rules::window_open(s));
    CHECK(s.of(kRichese).hand.contains(card));
    CHECK_FALSE(s.of(Faction::Harkonnen).hand.contains(card));
    if (retry) {
      act(s, kRichese, action::RicheseGift{.card = card});  // a fresh offer, a fresh window
      REQUIRE(rules::window_open(s));
      while (rules::window_open(s)) act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), respond(false));
      CHECK(s.of(Faction::Harkonnen).hand.contains(card));
      CHECK_FALSE(s.of(kRichese).hand.contains(card));
    } else {
      CHECK(rejected(s, kRichese, action::RicheseGift{.card = card}).code == RejectCode::IllegalChoice);
    }
    check_custody(s);
    // Nobody cancels: the intent resumes and gives the card once; the interrupted decision is back.
    GameState t = before;
    act(t, kRichese, action::RicheseGift{.card = card});
    const uint8_t saved = t.windows[0].saved_waiting;
    while (rules::window_open(t)) act(t, t.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(t)))), respond(false));
    CHECK(t.of(Faction::Harkonnen).hand.contains(card));
    CHECK(waiting_for(t) == saved);
    check_custody(t);
  }
}

TEST_CASE("Richese gift: the ally's last free slot is kept for the card it is winning, a hand filled in an auction only passes",
          "[richese][alliance][bidding]") {
  GameState s = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen});
  ally(s, kRichese, Faction::Harkonnen);
  act(s, kRichese, action::RicheseCacheTiming{.first = false});
  REQUIRE(s.step == 0);
  const uint8_t card = from_cache(s, kRichese, data::TreacheryKind::StoneBurner);
  // The Harkonnen one short of full, and the high bidder.
  auto& h = s.of(Faction::Harkonnen).hand;
  while (h.n < rules::hand_limit(s, Faction::Harkonnen) - 1) h.push(s.treachery_deck.pop());
  set_spice(s, Faction::Harkonnen, 10);
  const int free_hand = h.n;
  s.bidding.high_bidder = s.seat_of(Faction::Harkonnen);  // position: the Harkonnen hold the high bid
  s.bidding.high_bid = 1;
  CHECK(rejected(s, kRichese, action::RicheseGift{.card = card}).code == RejectCode::IllegalChoice);
  s.bidding.high_bidder = kNoSeat;  // without the winning bid the last slot is free to give
  s.bidding.high_bid = 0;
  act(s, kRichese, action::RicheseGift{.card = card});
  REQUIRE(rules::hand_full(s, Faction::Harkonnen));
  CHECK(h.n == free_hand + 1);
  // A hand filled during the auction may only pass.
  if (s.bidding.current == s.seat_of(Faction::Harkonnen)) {
    CHECK(rejected(s, Faction::Harkonnen, bid(s.bidding.high_bid + 1)).code == RejectCode::IllegalChoice);
    const auto acts = legal_actions(s, s.seat_of(Faction::Harkonnen));
    REQUIRE(acts.size() == 1);
    CHECK(acts[0].kind() == ActionKind::Pass);
  }
  check_custody(s);
}

TEST_CASE("Richese gift reservations: a card of the sealed Richese battle plan, the Richese answer to Prescience and the Black Market card up for bid stay",
          "[richese][alliance][battle][reservations]") {
  auto battle_game = [](Faction opponent, Faction partner) {
    GameState s = cleared_board_of(richese_game({opponent, kRichese, partner}));
    for (Faction f : {opponent, kRichese}) empty_hand(s, f);
    place(s, opponent, loc("Arrakeen"), 5);
    place(s, kRichese, loc("Arrakeen"), 5);
    ally(s, kRichese, partner);
    return s;
  };
  SECTION("the sealed battle plan (1.07.04)") {
    GameState s = battle_game(Faction::Harkonnen, Faction::Emperor);
    const uint8_t mirror = from_cache(s, kRichese, data::TreacheryKind::MirrorWeapon);
    const uint8_t snooper = from_cache(s, kRichese, data::TreacheryKind::PortableSnooper);
    to_plans(s);
    REQUIRE(waiting(s, kRichese));
    GameState before = s;  // before the plan is in, the card may go
    act(before, kRichese, action::RicheseGift{.card = mirror});
    CHECK(before.of(Faction::Emperor).hand.contains(mirror));
    act(s, kRichese, plan(L(kRichese, 0), 2, mirror));
    REQUIRE(rules::has_bit(s.battle.plans_in, s.seat_of(kRichese)));
    const auto r = rejected(s, kRichese, action::RicheseGift{.card = mirror});
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("part of the Richese battle plan"));
    CHECK(s.of(kRichese).hand.contains(mirror));
    act(s, kRichese, action::RicheseGift{.card = snooper});  // a card outside the plan goes
    CHECK(s.of(Faction::Emperor).hand.contains(snooper));
    check_custody(s);
  }
  SECTION("the Prescience answer (2.01.08)") {
    GameState s = battle_game(Faction::Atreides, Faction::Harkonnen);
    const uint8_t mirror = from_cache(s, kRichese, data::TreacheryKind::MirrorWeapon);
    const uint8_t snooper = from_cache(s, kRichese, data::TreacheryKind::PortableSnooper);
    enter_battle_phase(s);
    REQUIRE(s.step == rules::ability::kPrescience);
    act(s, Faction::Atreides, action::Prescience{.element = rules::ability::kWeapon});
    act(s, kRichese, action::PrescienceAnswer{.value = mirror});
    REQUIRE(s.step != rules::ability::kPrescience);  // the ability is complete: gifts are open again (1.00.05)
    const auto r = rejected(s, kRichese, action::RicheseGift{.card = mirror});
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("answer to Prescience"));
    CHECK(s.of(kRichese).hand.contains(mirror));
    CHECK_FALSE(s.of(Faction::Harkonnen).hand.contains(mirror));
    act(s, kRichese, action::RicheseGift{.card = snooper});  // an unbound card goes
    CHECK(s.of(Faction::Harkonnen).hand.contains(snooper));
    check_custody(s);
  }
  SECTION("the Black Market card up for bid") {
    GameState s = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen}, true);
    REQUIRE(s.step == kMarket);
    ally(s, kRichese, Faction::Harkonnen);
    empty_hand(s, kRichese);
    const uint8_t card = from_cache(s, kRichese, data::TreacheryKind::NullentropyBox);
    act(s, kRichese, lot(card, 3));
    REQUIRE(s.step == kAuction);
    const auto r = rejected(s, kRichese, action::RicheseGift{.card = card});
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("Black Market"));
    CHECK(s.of(kRichese).hand.contains(card));
    check_custody(s);
  }
}

TEST_CASE("Richese gift: an intent made obsolete while its Karama window is open (the alliance ended, the ally's hand full, the card gone) moves nothing",
          "[richese][alliance][karama][reservations]") {
  enum Change { kAllianceEnded, kHandFull, kCardGone };
  for (Change change : {kAllianceEnded, kHandFull, kCardGone}) {
    INFO("change " << static_cast<int>(change));
    GameState s = richese_game({Faction::Atreides, kRichese, Faction::Harkonnen}, false, ruling("karama_windows", "all_other_seats"));
    play_until(s, Phase::Storm, 1);
    empty_hand(s, kRichese);
    const uint8_t no_ally = s.of(kRichese).ally;
    ally(s, kRichese, Faction::Harkonnen);
    const uint8_t card = from_cache(s, kRichese, data::TreacheryKind::Ornithopter);
    act(s, kRichese, action::RicheseGift{.card = card});
    REQUIRE(rules::window_open(s));
    // The position changes under the pending intent (no action does this while the
    // window is open: the intent must still check, 3.01.11.01 resumes what was asked).
    switch (change) {
      case kAllianceEnded:
        s.of(kRichese).ally = no_ally;
        s.of(Faction::Harkonnen).ally = no_ally;
        break;
      case kHandFull:
        while (!rules::hand_full(s, Faction::Harkonnen)) s.of(Faction::Harkonnen).hand.push(s.treachery_deck.pop());
        break;
      case kCardGone:
        s.of(kRichese).hand.remove(card);
        s.treachery_discard.push(card);
        break;
    }
    const GameState changed = s;
    while (rules::window_open(s)) act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), respond(false));
    CHECK_FALSE(s.of(Faction::Harkonnen).hand.contains(card));
    CHECK(s.of(Faction::Harkonnen).hand.n == changed.of(Faction::Harkonnen).hand.n);
    CHECK(s.of(kRichese).hand.n == changed.of(kRichese).hand.n);
    CHECK(s.of(kRichese).hand.contains(card) == (change != kCardGone));
    CHECK(s.treachery_discard.contains(card) == (change == kCardGone));
    check_custody(s);
  }
}

TEST_CASE("Richese self-play: every profile, in mixed faction sets, basic and advanced: no rejected action, checks after every event",
          "[richese][bots]") {
  const std::vector<std::vector<Faction>> sets = {
      {kRichese, Faction::Atreides, Faction::Harkonnen},
      {Faction::BeneGesserit, kRichese, Faction::Fremen, Faction::Guild},
      {Faction::Emperor, Faction::Fremen, kRichese, Faction::Atreides, Faction::Choam, Faction::Harkonnen},
  };
  int market = 0, cache = 0, timing = 0;
  // The per-seat view checks after every event for the first set (they are slow).
  selfplay_sets(sets, data::module_bit(data::Module::ChoamRichese), 60, 19, [&](const GameState&, const bots::Step& st) {
    // A base card is always a Black Market lot (a Richese card in hand may be one too: counted as cache).
    if (const auto* l = st.action.get_if<action::RicheseLot>()) (l->card < data::kNumTreacheryCards ? market : cache) += 1;
    timing += st.action.kind() == ActionKind::RicheseCacheTiming;
  }, 1u);
  // Every Karama window asked (lots and gifts may be cancelled), the view checks on the second set.
  selfplay_sets(sets, data::module_bit(data::Module::ChoamRichese), 70, 29, [&](const GameState&, const bots::Step&) {}, 2u,
                ruling("karama_windows", "all_other_seats"));
  CHECK(market > 0);
  CHECK(cache > 0);
  CHECK(timing > 0);
}

TEST_CASE("Richese in Tuek's Sietch spoil the Fremen special victory (2.04.09), elsewhere they do not", "[richese][mentat pause]") {
  for (bool in_tuek : {false, true}) {
    INFO("in Tuek's Sietch " << in_tuek);
    GameState s = richese_game({Faction::Fremen, Faction::Guild, kRichese});
    play_until(s, Phase::Storm, 1);
    s.turn = s.max_turns;
    place(s, kRichese, in_tuek ? loc("Tuek's Sietch") : loc("The Great Flat"), 1);
    rules::Ctx ctx{s, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(s.winners == (in_tuek ? faction_bit(Faction::Guild) : faction_bit(Faction::Fremen)));
  }
}

TEST_CASE("Richese Black Market: a card that left the Richese hand during its auction is neither sold nor paid for", "[richese][bidding]") {
  GameState s = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen}, true);
  REQUIRE(s.step == kMarket);
  const uint8_t card = s.of(kRichese).hand.ids[0];
  act(s, kRichese, lot(card, 3));
  set_spice(s, Faction::Harkonnen, 10);
  act(s, Faction::Atreides, pass());
  act(s, Faction::Harkonnen, bid(3));
  // Position: the card goes to the discard pile (as a Richese play of it would).
  s.of(kRichese).hand.remove(card);
  s.treachery_discard.push(card);
  const int richese = s.of(kRichese).spice;
  act(s, kRichese, pass());
  CHECK(s.of(Faction::Harkonnen).spice == 10);
  CHECK(s.of(kRichese).spice == richese);
  CHECK_FALSE(s.of(Faction::Harkonnen).hand.contains(card));
  CHECK(s.step == kTiming);
  check_custody(s);
}

TEST_CASE("The Richese Karama is a Karama like the base ones: it cancels, prevents and buys, and the Juice of Sapho waits for a turn order",
          "[richese][karama]") {
  const auto karama = data::TreacheryKind::Karama;
  // Cancel: the cache lot as it is announced.
  {
    GameState s = at_bidding({Faction::Atreides, kRichese}, false, ruling("karama_windows", "all_other_seats"));
    act(s, kRichese, action::RicheseCacheTiming{.first = true});
    const uint8_t rk = from_cache(s, Faction::Atreides, karama);
    REQUIRE(rk >= data::kNumTreacheryCards);
    act(s, kRichese, lot(cache_card(s, data::TreacheryKind::Ornithopter), 1));
    REQUIRE(rules::window_open(s));
    act(s, Faction::Atreides, respond(true, rk));
    CHECK(s.treachery_discard.contains(rk));
    CHECK(s.step == kCacheLot);
  }
  // Prevent: the Richese cache lot of the next Bidding phase.
  {
    GameState s = richese_game({Faction::Atreides, kRichese});
    play_until(s, Phase::Storm, 1);
    const uint8_t rk = from_cache(s, Faction::Atreides, karama);
    act(s, Faction::Atreides,
        play(rk, rules::kKaramaPrevent | static_cast<int>(rules::Ability::RicheseCache), static_cast<uint8_t>(kRichese)));
    CHECK(rules::prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseCache)));
    CHECK(s.treachery_discard.contains(rk));
  }
  // Buy: a Karama bid on a dealt card naming the Richese Karama; with both base Karamas gone a hand may still hold one.
  {
    GameState s = at_bidding({Faction::Atreides, kRichese});
    act(s, kRichese, action::RicheseCacheTiming{.first = false});
    REQUIRE(s.step == 0);
    const uint8_t rk = from_cache(s, Faction::Atreides, karama);
    for (int id = 0; id < data::kNumTreacheryCards; ++id) {  // both base Karamas to the discard pile
      if (data::treachery_card(static_cast<TreacheryId>(id)).kind != karama) continue;
      bool moved = s.treachery_deck.remove(static_cast<uint8_t>(id)) || s.bidding.row.remove(static_cast<uint8_t>(id));
      for (auto& fs : s.f) moved = moved || fs.hand.remove(static_cast<uint8_t>(id));
      if (moved) s.treachery_discard.push(static_cast<uint8_t>(id));
    }
    check_custody(s);
    CHECK(rules::may_hold_karama(s, Faction::Atreides));
    while (s.bidding.current != s.seat_of(Faction::Atreides)) act(s, s.faction_at(s.bidding.current), pass());
    const uint8_t up = s.bidding.row.ids[0];
    act(s, Faction::Atreides, action::Bid{.amount = 20, .karama = true, .card = rk});
    if (s.step == 0 && waiting(s, kRichese)) act(s, kRichese, pass());
    CHECK(s.of(Faction::Atreides).hand.contains(up));
    CHECK(s.treachery_discard.contains(rk));
    check_custody(s);
  }
  // The last Richese card to get its effect, the Juice of Sapho, is refused outside a turn order it can change.
  {
    GameState s = richese_game({Faction::Atreides, kRichese});
    play_until(s, Phase::Storm, 1);
    const uint8_t juice = from_cache(s, Faction::Atreides, data::TreacheryKind::JuiceOfSapho);
    CHECK(rejected(s, Faction::Atreides, play(juice)).code == RejectCode::Malformed);  // no choice named
    const auto r = rejected(s, Faction::Atreides, play(juice, rules::kJuiceLast));
    CHECK(r.code == RejectCode::WrongPhase);
    CHECK_THAT(r.reason, Catch::Contains("Bidding, Shipment and Movement, or Battle"));
    CHECK(s.of(Faction::Atreides).hand.contains(juice));
  }
}

TEST_CASE("Richese pending gift in a stored room: each command a new process, the window survives, resumes once and verifies",
          "[richese][alliance][store]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("mentat-richese-gift-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // A described position (docs/CLI.md "Positions"): the Richese allied with the Harkonnen hold Mirror Weapon
  // (id 36), the Atreides a Karama; the cache is filled with the Richese cards found nowhere else.
  const fs::path pos = dir / "pos.json";
  std::ofstream(pos) << R"({"seats": ["Atreides", "Harkonnen", "Richese"], "seed": 7, "turn": 2, "phase": "Storm", "storm_sector": 3,
    "modules": ["ChoamRichese"], "rulings": [{"id": "karama_windows", "value": "all_other_seats"}],
    "factions": [
      {"faction": "Atreides", "spice": 10, "forces": [{"place": "Arrakeen", "forces": 10}], "hand": [12], "traitors": ["Feyd Rautha"]},
      {"faction": "Harkonnen", "spice": 8, "forces": [{"place": "Carthag", "forces": 10}], "hand": [7], "traitors": ["Lady Jessica"],
       "ally": "Richese"},
      {"faction": "Richese", "spice": 5, "hand": [36], "traitors": ["Duncan Idaho"], "ally": "Harkonnen"}],
    "shuffle": true})";
  const std::string data = "--data " + (dir / "store").string();
  auto r = testrun::run_mentat(data + " new --position " + pos.string() + " --room gift1");
  INFO(r.out);
  REQUIRE(r.code == 0);
  r = testrun::run_mentat(data + " act gift1 '{\"action_type\":\"RicheseGift\",\"action\":{\"card\":\"Mirror Weapon\"}}' --seat richese --expect head");
  INFO(r.out);
  REQUIRE(r.code == 0);
  // A new process (as after a kill -9): the pending intent is there, the card still the Richese's.
  r = testrun::run_mentat(data + " actions gift1 --seat atreides");
  CHECK_THAT(r.out, Catch::Contains("Respond"));
  CHECK_THAT(r.out, Catch::Contains("giving the ally a Richese card"));
  r = testrun::run_mentat(data + " show gift1");
  CHECK_THAT(r.out, Catch::Contains("Mirror Weapon"));
  for (const char* seat : {"atreides", "harkonnen"}) {
    r = testrun::run_mentat(data + " act gift1 '{\"action_type\":\"Respond\",\"action\":{\"accept\":false}}' --seat " + seat + " --expect head");
    INFO(r.out);
    REQUIRE(r.code == 0);
  }
  CHECK_THAT(r.out, Catch::Contains("hand:richese -> hand:harkonnen"));
  r = testrun::run_mentat(data + " verify gift1");
  INFO(r.out);
  CHECK(r.code == 0);
  // Once: a second offer of the card is refused (it is the Harkonnen's now).
  r = testrun::run_mentat(data + " act gift1 '{\"action_type\":\"RicheseGift\",\"action\":{\"card\":\"Mirror Weapon\"}}' --seat richese --expect head");
  CHECK(r.code != 0);
  fs::remove_all(dir);
}

// Regressions found by review (each a sequence that went wrong before its fix).
TEST_CASE("Richese review regressions: secret silent bids, pledged Karamas, a stale Karama-bid flag, preventions at the Richese steps",
          "[richese][bidding][karama]") {
  SECTION("the gift's slot check reads no secret silent bid") {
    for (int amount : {0, 3}) {
      INFO("the ally's silent bid " << amount);
      GameState s = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen});
      ally(s, kRichese, Faction::Harkonnen);
      act(s, kRichese, action::RicheseCacheTiming{.first = true});
      from_cache(s, kRichese, data::TreacheryKind::Distrans);
      auto& h = s.of(Faction::Harkonnen).hand;
      while (h.n < rules::hand_limit(s, Faction::Harkonnen) - 1) h.push(s.treachery_deck.pop());
      act(s, kRichese, lot(cache_card(s, data::TreacheryKind::StoneBurner), 3));
      set_spice(s, Faction::Harkonnen, 10);
      act(s, Faction::Harkonnen, amount ? Action(bid(amount)) : pass());
      check_projections(s);  // the Richese's decisions (the gift) do not change with the ally's secret amount
      const auto acts = legal_actions(s, s.seat_of(kRichese));
      CHECK(std::none_of(acts.begin(), acts.end(), [](const Action& a) { return a.kind() == ActionKind::RicheseGift; }));
    }
  }
  SECTION("the Black Market card is not CHOAM's trade answer while it is up for bid") {
    GameState s = at_bidding({Faction::Choam, kRichese, Faction::Harkonnen}, true);
    ally(s, kRichese, Faction::Choam);
    REQUIRE(s.step == kMarket);
    const uint8_t card = s.of(kRichese).hand.ids[0];
    REQUIRE(s.of(Faction::Choam).hand.n > 0);
    act(s, kRichese, lot(card, 3));
    act(s, Faction::Choam, action::ChoamTrade{.card = s.of(Faction::Choam).hand.ids[0]});
    CHECK(rejected(s, kRichese, action::ChoamTrade{.card = card}).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, kRichese, play(card)).code == RejectCode::IllegalChoice);  // nor played
  }
  SECTION("a Karama pledged to a Karama bid buys nothing else") {
    GameState s = at_bidding({Faction::Atreides, kRichese}, true);
    if (s.step == kMarket) act(s, kRichese, pass());
    act(s, kRichese, action::RicheseCacheTiming{.first = false});
    REQUIRE(s.step == 0);
    const uint8_t k = give(s, kRichese, data::TreacheryKind::Karama);
    set_spice(s, kRichese, 5);
    while (s.bidding.current != s.seat_of(kRichese)) act(s, s.faction_at(s.bidding.current), bid(s.bidding.high_bid + 1));
    act(s, kRichese, action::Bid{.amount = 30, .karama = true, .card = k});
    REQUIRE(s.bidding.karama_bid);
    CHECK(rejected(s, kRichese, action::RicheseBuy{.karama = k, .card = s.richese.cache.ids[0]}).code == RejectCode::IllegalChoice);
  }
  SECTION("the last dealt card's Karama bid leaves no flag on the cache lot") {
    GameState s = at_bidding({Faction::Emperor, kRichese});
    act(s, kRichese, action::RicheseCacheTiming{.first = false});
    REQUIRE(s.bidding.dealt == 1);
    const uint8_t k = give(s, Faction::Emperor, data::TreacheryKind::Karama);
    while (s.bidding.current != s.seat_of(Faction::Emperor)) act(s, s.faction_at(s.bidding.current), pass());
    act(s, Faction::Emperor, action::Bid{.amount = 5, .karama = true, .card = k});
    if (s.step == 0) act(s, kRichese, pass());
    REQUIRE(s.step == kCacheLot);
    CHECK(s.bidding.karama_bid == 0);
    CHECK(s.bidding.high_bidder == kNoSeat);
  }
  SECTION("a prevention played at the Black Market step is used up by the pass it forces; at the timing step: a full deal") {
    GameState s = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen}, true);
    REQUIRE(s.step == kMarket);
    rules::set_prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseBlackMarket), true);
    act(s, kRichese, pass());
    CHECK_FALSE(rules::prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseBlackMarket)));
    REQUIRE(s.step == kTiming);
    rules::set_prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseCache), true);
    act(s, kRichese, action::RicheseCacheTiming{.first = true});
    CHECK(s.richese.bidding.cache_timing == 3);
    CHECK(s.bidding.dealt == 3);
    CHECK_FALSE(rules::prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseCache)));
  }
  SECTION("a prevented Atreides look applies to the Black Market card") {
    GameState s = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen}, true);
    REQUIRE(s.step == kMarket);
    rules::set_prevented_bit(s, static_cast<int>(Faction::Atreides), static_cast<int>(rules::Ability::AtreidesBidding), true);
    act(s, kRichese, lot(s.of(kRichese).hand.ids[0], 3));
    CHECK(as_view(view_of(s, Faction::Atreides))->bidding()->current_card() == nullptr);
    CHECK_FALSE(rules::prevented_bit(s, static_cast<int>(Faction::Atreides), static_cast<int>(rules::Ability::AtreidesBidding)));
    check_projections(s);
  }
  SECTION("the last cache card is kept for the announced cache lot") {
    GameState s = at_bidding({Faction::Atreides, kRichese}, true);
    if (s.step == kMarket) act(s, kRichese, pass());
    act(s, kRichese, action::RicheseCacheTiming{.first = false});
    while (s.richese.cache.n > 1) s.richese.removed.push(s.richese.cache.pop());
    const uint8_t k = give(s, kRichese, data::TreacheryKind::Karama);
    set_spice(s, kRichese, 5);
    CHECK(rejected(s, kRichese, action::RicheseBuy{.karama = k, .card = s.richese.cache.ids[0]}).code == RejectCode::IllegalChoice);
  }
}

TEST_CASE("Richese second review regressions: the Black Market card promised only in the Richese hand, an emptied cache, the Richese Karama's count",
          "[richese][bidding][karama]") {
  SECTION("a Black Market card taken by another seat is that seat's to play (nothing about it shows)") {
    GameState s = at_bidding({Faction::Atreides, kRichese, Faction::Harkonnen}, true);
    REQUIRE(s.step == kMarket);
    empty_hand(s, kRichese);
    const uint8_t k = give(s, kRichese, data::TreacheryKind::Karama);
    act(s, kRichese, lot(k, 3));
    CHECK_THAT(rejected(s, kRichese, play(k, rules::kKaramaGuildRates)).reason, Catch::Contains("up for bid"));  // the seller's: promised
    s.of(kRichese).hand.remove(k);  // position: another seat holds it now (as after the Harkonnen Karama power)
    s.of(Faction::Harkonnen).hand.push(k);
    check_projections(s);  // the Harkonnen's decisions do not depend on which card is the lot
  }
  SECTION("the cache emptied before the timing step: no cache lot, a full deal") {
    GameState s = at_bidding({Faction::Atreides, kRichese}, true);
    if (s.step == kMarket) act(s, kRichese, pass());
    REQUIRE(s.step == kTiming);
    while (!s.richese.cache.empty()) s.richese.removed.push(s.richese.cache.pop());
    act(s, kRichese, action::RicheseCacheTiming{.first = true});
    CHECK(s.richese.bidding.cache_timing == 3);
    CHECK(s.bidding.dealt == 2);
  }
  SECTION("the Richese Karama counts as possibly held only with the Richese seated") {
    GameState s = richese_game({Faction::Choam, Faction::Atreides});
    play_until(s, Phase::Storm, 1);
    for (int id = 0; id < data::kNumTreacheryCards; ++id) {  // both base Karamas to the discard pile
      if (data::treachery_card(static_cast<TreacheryId>(id)).kind != data::TreacheryKind::Karama) continue;
      bool moved = s.treachery_deck.remove(static_cast<uint8_t>(id));
      for (auto& fs : s.f) moved = moved || fs.hand.remove(static_cast<uint8_t>(id));
      if (moved) s.treachery_discard.push(static_cast<uint8_t>(id));
    }
    REQUIRE(s.of(Faction::Atreides).hand.n > 0);
    CHECK_FALSE(rules::may_hold_karama(s, Faction::Atreides));  // the cache is never sold without the Richese
  }
}

TEST_CASE("Richese silent auction: the ally's sealed bid freezes the Richese spice it may back, whatever its amount (no leak)",
          "[richese][bidding][views][privacy]") {
  for (int amount : {0, 3, 9}) {
    INFO(amount);
    GameState s = at_bidding({Faction::Atreides, Faction::Guild, kRichese}, true);
    ally(s, kRichese, Faction::Guild);
    if (validate(s, s.seat_of(kRichese), action::RicheseCacheTiming{.first = true})) act(s, kRichese, pass());  // no Black Market
    act(s, kRichese, action::RicheseCacheTiming{.first = true});
    const uint8_t card = cache_card(s, data::TreacheryKind::Ornithopter);
    act(s, kRichese, lot(card, 3));
    REQUIRE(s.step == kAuction);
    set_spice(s, kRichese, 10);
    set_spice(s, Faction::Guild, 2);
    const uint8_t karama = give_another(s, kRichese, data::TreacheryKind::Karama);
    const auto buy = action::RicheseBuy{.karama = karama, .card = cache_card(s, data::TreacheryKind::Distrans)};
    CHECK_FALSE(validate(s, s.seat_of(kRichese), buy).has_value());  // before the ally's bid: allowed
    act(s, Faction::Guild, amount == 0 ? Action(pass()) : Action(bid(amount)));
    // Refused whatever the Guild bid (0, within its own spice, or needing the Richese spice): nothing tells the amount.
    const auto why = validate(s, s.seat_of(kRichese), buy);
    REQUIRE(why.has_value());
    CHECK_THAT(why->reason, Catch::Contains("sealed bid"));
    check_projections(s);
  }
}
