// The Richese cards (CHOAM & Richese, issue 14; core/cards/, docs/cards/richese-cards.md):
// Distrans, the Nullentropy Box, Mirror Weapon and Portable Snooper. One
// scenario per rule and ruling, each asserting outcomes (custody, spice,
// leaders, what each seat sees).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "bots/bot.h"
#include "core/rules/battle_abilities.h"
#include "core/rules/shipment_movement.h"
#include "events/codec.h"
#include "events/position.h"
#include "events/view_generated.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "support/module_game.h"
#include "support/run_command.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;
using data::TreacheryKind;

namespace {

constexpr auto kRichese = Faction::Richese;
constexpr auto kAtreides = Faction::Atreides;
constexpr auto kHarkonnen = Faction::Harkonnen;
constexpr LocationId kArrakeen = 0;

GameState cards_game(std::initializer_list<Faction> factions, Rulings rulings = Rulings::defaults()) {
  GameState s = game(factions, false, 7, rulings, data::module_bit(data::Module::ChoamRichese));
  play_until(s, Phase::Storm, 1);
  return s;
}
uint8_t fa(Faction f) { return static_cast<uint8_t>(f); }

// The public and the actor's own summary of `a` applied to `s` (s is advanced).
std::pair<std::string, std::string> summaries(GameState& s, Faction f, const Action& a) {
  const GameState before = s;
  act(s, f, a);
  codec::Event e;
  e.version = s.version;
  e.seat = before.seat_of(f);
  e.action = a;
  return {inspect::summarize_event(e, &before, s, false), inspect::summarize_event(e, &before, s, true)};
}

std::vector<uint16_t> respond_options(const GameState& s, Faction f) {
  for (const auto& d : decisions(s, s.seat_of(f)))
    if (d.kind == ActionKind::Respond) return d.options;
  return {};
}

// Moves `n` base cards from the deck to the discard pile; returns them.
std::vector<uint8_t> to_discard(GameState& s, int n) {
  std::vector<uint8_t> out;
  for (int i = 0; i < n; ++i) {
    const uint8_t c = s.treachery_deck.pop();
    s.treachery_discard.push(c);
    out.push_back(c);
  }
  return out;
}

}  // namespace

// ---- Distrans ----------------------------------------------------------------------------

TEST_CASE("Distrans: a card of the hand to another player, hand to hand, Distrans discarded once", "[richese_cards][distrans]") {
  GameState s = cards_game({kAtreides, kRichese, kHarkonnen});
  const uint8_t d = from_cache(s, kAtreides, TreacheryKind::Distrans);
  REQUIRE(s.of(kAtreides).hand.n >= 2);
  const uint8_t given = s.of(kAtreides).hand.ids[0];
  REQUIRE(given != d);
  const int harkonnen_n = s.of(kHarkonnen).hand.n, discard_n = s.treachery_discard.n;
  CHECK(rejected(s, kAtreides, play(d, given, fa(kAtreides))).code == RejectCode::IllegalChoice);  // another player
  CHECK(rejected(s, kAtreides, play(d, given, kNone8)).code == RejectCode::Malformed);
  CHECK(rejected(s, kAtreides, play(d, 200, fa(kHarkonnen))).code == RejectCode::Malformed);
  const uint8_t not_mine = s.of(kHarkonnen).hand.ids[0];
  CHECK(rejected(s, kAtreides, play(d, not_mine, fa(kHarkonnen))).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kAtreides, play(d, d, fa(kHarkonnen))).code == RejectCode::IllegalChoice);  // ruling distrans_self
  const auto [pub, own] = summaries(s, kAtreides, play(d, given, fa(kHarkonnen)));
  CHECK(s.of(kHarkonnen).hand.contains(given));
  CHECK(s.of(kHarkonnen).hand.n == harkonnen_n + 1);
  CHECK_FALSE(s.of(kAtreides).hand.contains(given));
  CHECK_FALSE(s.of(kAtreides).hand.contains(d));
  CHECK(s.treachery_discard.n == discard_n + 1);
  CHECK(s.treachery_discard.top() == d);
  CHECK_FALSE(s.treachery_discard.contains(given));
  check_custody(s);
  check_projections(s);
  // The given face is the two players' secret: the public line says "a card".
  const std::string face(data::treachery_card(given).name);
  CHECK_THAT(pub, Catch::Contains("gives a card to Harkonnen"));
  CHECK_THAT(pub, !Catch::Contains(face));
  CHECK_THAT(own, Catch::Contains(face));
}

TEST_CASE("Distrans: the public changes list the given card after the named ones, base card or Richese card alike",
          "[richese_cards][distrans][secrecy]") {
  // The changes are diffed in card-id order: were the anonymous line left in
  // its place, it would come before or after "Distrans" by the given card's
  // id, telling a base card (ids below the Richese set) from a Richese one.
  for (const bool richese_card : {false, true}) {
    GameState s = cards_game({kAtreides, kRichese, kHarkonnen});
    const uint8_t d = from_cache(s, kAtreides, TreacheryKind::Distrans);
    const uint8_t given = richese_card ? from_cache(s, kAtreides, TreacheryKind::Karama) : s.of(kAtreides).hand.ids[0];
    REQUIRE((given != d && s.of(kAtreides).hand.contains(given)));
    CHECK((given >= data::kNumTreacheryCards) == richese_card);
    const GameState before = s;
    act(s, kAtreides, play(d, given, fa(kHarkonnen)));
    const auto lines = inspect::what_changed(before, s, false, nullptr);
    int named = -1, anon = -1;
    for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
      if (lines[i].rfind("Distrans", 0) == 0) named = i;
      if (lines[i].rfind("a treachery card", 0) == 0) anon = i;
      CHECK_THAT(lines[i], !Catch::Contains(std::string(data::treachery_card(given).name) + ":"));
    }
    INFO("richese card given: " << richese_card);
    REQUIRE(named >= 0);
    REQUIRE(anon >= 0);
    CHECK(anon > named);
  }
}

TEST_CASE("Distrans: never to a full hand, nor a committed card, and itself only under ruling distrans_self", "[richese_cards][distrans][rulings]") {
  GameState s = cards_game({kAtreides, kRichese, kHarkonnen});
  const uint8_t d = from_cache(s, kAtreides, TreacheryKind::Distrans);
  auto& h = s.of(kRichese).hand;
  while (h.n < rules::hand_limit(s, kRichese)) h.push(s.treachery_deck.pop());
  const uint8_t given = s.of(kAtreides).hand.ids[0];
  CHECK(rejected(s, kAtreides, play(d, given, fa(kRichese))).code == RejectCode::IllegalChoice);
  // distrans_self = given: Distrans changes hands and is not discarded.
  GameState t = cards_game({kAtreides, kRichese, kHarkonnen}, ruling("distrans_self", "given"));
  const uint8_t d2 = from_cache(t, kAtreides, TreacheryKind::Distrans);
  const int discard_n = t.treachery_discard.n;
  act(t, kAtreides, play(d2, d2, fa(kHarkonnen)));
  CHECK(t.of(kHarkonnen).hand.contains(d2));
  CHECK_FALSE(t.of(kAtreides).hand.contains(d2));
  CHECK(t.treachery_discard.n == discard_n);
  check_custody(t);
}

TEST_CASE("Distrans: other than during a bid (ruling distrans_span)", "[richese_cards][distrans][rulings][bidding]") {
  for (const char* reading : {"lot", "no_standing_bid"}) {
    INFO(reading);
    GameState s = game({kAtreides, kRichese, kHarkonnen}, false, 7, ruling("distrans_span", reading),
                       data::module_bit(data::Module::ChoamRichese));
    play_until(s, Phase::Bidding, 1);
    const uint8_t d = from_cache(s, kAtreides, TreacheryKind::Distrans);
    const uint8_t given = s.of(kAtreides).hand.ids[0];
    REQUIRE(s.step != 0);  // the Richese decide when their cache lot comes: a faction's step, no lot offered yet
    CHECK(rules::current_lot_card(s) == kNone8);
    {  // between lots: allowed under both readings (the seeds' "between lots when no bid is pending")
      GameState t = s;
      act(t, kAtreides, play(d, given, fa(kHarkonnen)));
      CHECK(t.of(kHarkonnen).hand.contains(given));
      CHECK(t.treachery_discard.top() == d);
    }
    act(s, kRichese, action::RicheseCacheTiming{.first = false});
    REQUIRE(s.step == 0);
    REQUIRE(s.bidding.high_bidder == kNoSeat);  // a card is up for bid, nobody has bid yet
    if (std::string(reading) == "lot") {
      CHECK(rejected(s, kAtreides, play(d, given, fa(kHarkonnen))).code == RejectCode::WrongPhase);
    } else {
      CHECK_FALSE(validate(s, s.seat_of(kAtreides), play(d, given, fa(kHarkonnen))).has_value());
      // Once a bid stands: refused.
      const Faction bidder = s.faction_at(s.bidding.current);
      set_spice(s, bidder, 10);
      act(s, bidder, bid(1));
      CHECK(rejected(s, kAtreides, play(d, given, fa(kHarkonnen))).code == RejectCode::WrongPhase);
    }
  }
}

// ---- Nullentropy Box ---------------------------------------------------------------------

namespace {
// The Atreides hold the Nullentropy Box and 5 spice; four cards on the discard pile (*pile).
GameState box_game(uint8_t* box, std::vector<uint8_t>* pile) {
  GameState s = cards_game({kAtreides, kRichese, kHarkonnen});
  *box = from_cache(s, kAtreides, TreacheryKind::NullentropyBox);
  const auto p = to_discard(s, 4);
  pile->assign(p.begin(), p.end());
  set_spice(s, kAtreides, 5);
  return s;
}
}  // namespace

TEST_CASE("Nullentropy Box: one fee to the bank, a private search that pauses the game, the card taken, one shuffle, the Box on top",
          "[richese_cards][box]") {
  uint8_t box = kNone8;
  std::vector<uint8_t> pile;
  GameState s = box_game(&box, &pile);
  const int64_t bank = s.bank;
  const int emperor_free = s.of(kHarkonnen).spice;
  act(s, kAtreides, play(box));
  CHECK(s.of(kAtreides).spice == 3);
  CHECK(s.bank == bank + 2);
  CHECK(s.of(kHarkonnen).spice == emperor_free);
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].kind == WindowKind::DiscardSearch);
  CHECK(waiting_for(s) == rules::bit(s.seat_of(kAtreides)));
  CHECK(s.of(kAtreides).hand.contains(box));  // the window's subject until the choice
  // Nothing else happens meanwhile, and nobody else is offered the faces.
  CHECK(validate(s, s.seat_of(kHarkonnen), pass()).has_value());
  CHECK(legal_actions(s, s.seat_of(kHarkonnen)).empty());
  CHECK(respond_options(s, kHarkonnen).empty());
  auto options = respond_options(s, kAtreides);
  std::sort(options.begin(), options.end());
  std::vector<uint16_t> expect(pile.begin(), pile.end());
  for (int i = 0; i < s.treachery_discard.n; ++i)
    if (std::find(expect.begin(), expect.end(), s.treachery_discard.ids[i]) == expect.end()) expect.push_back(s.treachery_discard.ids[i]);
  std::sort(expect.begin(), expect.end());
  CHECK(options == expect);
  check_projections(s);
  // The retry of the play is refused (no second fee); a bad answer changes nothing.
  CHECK(rejected(s, kAtreides, play(box)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, kAtreides, respond(false)).code == RejectCode::Malformed);
  const uint8_t in_deck = s.treachery_deck.top();
  CHECK(rejected(s, kAtreides, respond(true, in_deck)).code == RejectCode::IllegalChoice);
  const int discard_n = s.treachery_discard.n;
  const uint8_t taken = pile[1];
  {  // one shuffle, drawn from the game's random stream and recorded in the event's draws
    GameState t = s;
    DrawLog draws;
    apply(t, t.seat_of(kAtreides), respond(true, taken), &draws);
    int cards = 0;  // a shuffle records each card's new position
    for (const auto& d : draws) cards += d.kind == DrawKind::ShuffleTreachery ? 1 : 0;
    CHECK(cards == discard_n - 1);  // one shuffle of the rest: every card but the one taken (the Box goes on top after)
    CHECK(t.rng != s.rng);
  }
  const auto [pub, own] = summaries(s, kAtreides, respond(true, taken));
  // The Box was discarded: a possible Semuta Drug holder may take it (core/cards/semuta_drug.cpp).
  REQUIRE(s.window_depth <= 1);
  if (s.window_depth == 1) CHECK(s.windows[0].kind == WindowKind::SemutaTake);
  let_semuta_pass(s);
  CHECK(s.window_depth == 0);
  CHECK(s.of(kAtreides).hand.contains(taken));
  CHECK_FALSE(s.of(kAtreides).hand.contains(box));
  CHECK(s.treachery_discard.n == discard_n);  // one out, the Box in
  CHECK(s.treachery_discard.top() == box);
  CHECK_FALSE(s.treachery_discard.contains(taken));
  CHECK(s.of(kAtreides).spice == 3);  // once
  check_custody(s);
  const std::string face(data::treachery_card(taken).name);
  CHECK_THAT(pub, Catch::Contains("takes a card"));
  CHECK_THAT(pub, !Catch::Contains(face));
  CHECK_THAT(own, Catch::Contains(face));
  // Below the Box the shuffled rest is listed to no seat (what is missing
  // would name the card taken): its number only; the state view lists it.
  auto discard_shown = [&](inspect::Viewer who) {
    const std::string v = inspect::build_view(s, who);
    const auto* fv = fb::GetView(v.data());
    std::vector<int> ids;
    if (fv->treachery_discard())
      for (const auto* c : *fv->treachery_discard()) ids.push_back(c->id());
    return std::make_pair(ids, static_cast<int>(fv->treachery_discard_hidden()));
  };
  for (Faction f : {kAtreides, kHarkonnen, kRichese}) {
    const auto [ids, hidden] = discard_shown(inspect::Viewer::of(s.seat_of(f)));
    CHECK(ids == std::vector<int>{box});
    CHECK(hidden == discard_n - 1);
  }
  CHECK(discard_shown(inspect::Viewer::state()).first.size() == static_cast<size_t>(discard_n));
  CHECK(discard_shown(inspect::Viewer::state()).second == 0);
  check_projections(s);  // the rest's faces and order permuted: no view changes
  // A card discarded later is public above them; the pile becoming the deck ends it.
  const uint8_t later = s.treachery_deck.pop();
  s.treachery_discard.push(later);
  CHECK(discard_shown(inspect::Viewer::of(s.seat_of(kHarkonnen))).first == std::vector<int>{box, later});
  while (!s.treachery_deck.empty()) s.treachery_discard.push(s.treachery_deck.pop());
  rules::Ctx c{s, nullptr};
  const uint8_t drawn = rules::draw_treachery(c);
  CHECK(drawn != kNone8);
  CHECK(s.treachery_discard.empty());
  CHECK(s.treachery_discard_hidden == 0);
}

TEST_CASE("Nullentropy Box: 2 spice, a card to take, and a full hand only under ruling box_full_hand", "[richese_cards][box][rulings]") {
  for (const char* reading : {"free_slot", "exchange"}) {
    INFO(reading);
    GameState s = cards_game({kAtreides, kRichese}, ruling("box_full_hand", reading));
    const uint8_t box = from_cache(s, kAtreides, TreacheryKind::NullentropyBox);
    empty_hand(s, kRichese);  // the discard pile holds cards now
    set_spice(s, kAtreides, 1);
    CHECK(rejected(s, kAtreides, play(box)).code == RejectCode::IllegalChoice);
    set_spice(s, kAtreides, 2);
    GameState empty = s;
    while (!empty.treachery_discard.empty()) empty.treachery_deck.push(empty.treachery_discard.pop());
    CHECK(rejected(empty, kAtreides, play(box)).code == RejectCode::IllegalChoice);  // nothing to take
    auto& h = s.of(kAtreides).hand;
    while (h.n < rules::hand_limit(s, kAtreides)) h.push(s.treachery_deck.pop());
    if (std::string(reading) == "free_slot") {
      CHECK(rejected(s, kAtreides, play(box)).code == RejectCode::IllegalChoice);
    } else {
      act(s, kAtreides, play(box));
      act(s, kAtreides, respond(true, static_cast<uint8_t>(respond_options(s, kAtreides).front())));
      CHECK(s.of(kAtreides).hand.n == rules::hand_limit(s, kAtreides));
      CHECK(s.of(kAtreides).spice == 0);
      check_custody(s);
    }
  }
}

TEST_CASE("Nullentropy Box: its fee never comes from spice a standing bid needs (a high bid, a sealed silent bid, the backing ally)",
          "[richese_cards][box][bidding]") {
  auto bidding_game = [] {
    GameState s = game({kAtreides, kRichese, kHarkonnen}, false, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
    play_until(s, Phase::Bidding, 1);
    return s;
  };
  SECTION("the regular auction: the high bidder keeps its bid's spice") {
    GameState s = bidding_game();
    const uint8_t box = from_cache(s, kAtreides, TreacheryKind::NullentropyBox);
    to_discard(s, 2);
    act(s, kRichese, action::RicheseCacheTiming{.first = false});
    REQUIRE(s.step == 0);
    for (Faction f : {kRichese, kHarkonnen}) set_spice(s, f, 10);
    for (int b = 1; s.faction_at(s.bidding.current) != kAtreides; ++b) act(s, s.faction_at(s.bidding.current), bid(b));
    set_spice(s, kAtreides, 5);
    act(s, kAtreides, bid(4));
    REQUIRE(s.bidding.high_bidder == s.seat_of(kAtreides));
    const GameState before = s;
    const auto r = rejected(s, kAtreides, play(box));
    CHECK(r.code == RejectCode::NotEnoughSpice);
    CHECK_THAT(r.reason, Catch::Contains("bid of 4"));
    CHECK(s.of(kAtreides).spice == 5);
    CHECK(s.window_depth == before.window_depth);
    set_spice(s, kAtreides, 6);  // 6 - 2 still pays the 4
    CHECK_FALSE(validate(s, s.seat_of(kAtreides), play(box)).has_value());
    // With an ally backing the bid (1.10.02.05): what both may pay counts.
    s.of(kAtreides).ally = fa(kHarkonnen);
    s.of(kHarkonnen).ally = fa(kAtreides);
    set_spice(s, kAtreides, 3);
    set_spice(s, kHarkonnen, 3);
    CHECK_FALSE(validate(s, s.seat_of(kAtreides), play(box)).has_value());  // 1 + 3 pays the 4
    set_spice(s, kAtreides, 2);
    CHECK(rejected(s, kAtreides, play(box)).code == RejectCode::NotEnoughSpice);  // 0 + 3 does not
  }
  SECTION("a Richese silent lot: a sealed bid binds the same way, and Distrans waits for the lot") {
    GameState s = bidding_game();
    const uint8_t box = from_cache(s, kAtreides, TreacheryKind::NullentropyBox);
    const uint8_t distrans = from_cache(s, kHarkonnen, TreacheryKind::Distrans);
    to_discard(s, 2);
    act(s, kRichese, action::RicheseCacheTiming{.first = true});
    REQUIRE(rules::current_lot_card(s) == kNone8);  // the cache card not offered yet: Distrans may be played
    CHECK_FALSE(validate(s, s.seat_of(kHarkonnen), play(distrans, s.of(kHarkonnen).hand.ids[0], fa(kAtreides))).has_value());
    uint8_t card = kNone8;
    for (int i = 0; i < s.richese.cache.n; ++i)
      if (data::treachery_card(s.richese.cache.ids[i]).kind == TreacheryKind::Karama) card = s.richese.cache.ids[i];
    REQUIRE(card != kNone8);
    act(s, kRichese, action::RicheseLot{.card = card, .auction = 3});
    REQUIRE(rules::current_lot_card(s) == card);
    CHECK(rejected(s, kHarkonnen, play(distrans, s.of(kHarkonnen).hand.ids[0], fa(kAtreides))).code == RejectCode::WrongPhase);
    set_spice(s, kAtreides, 5);
    act(s, kAtreides, bid(4));
    CHECK(rejected(s, kAtreides, play(box)).code == RejectCode::NotEnoughSpice);
    CHECK(s.of(kAtreides).spice == 5);
  }
}

TEST_CASE("Nullentropy Box in a stored room: the search survives a new process, charges once and verifies", "[richese_cards][box][store]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("mentat-box-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path pos = dir / "pos.json";
  // The Atreides hold the Nullentropy Box (id 37); the discard pile: Baliset (0), Crysknife (5), Lasgun (14 or so).
  std::ofstream(pos) << R"({"seats": ["Atreides", "Harkonnen", "Richese"], "seed": 7, "turn": 2, "phase": "Storm", "storm_sector": 3,
    "modules": ["ChoamRichese"],
    "factions": [
      {"faction": "Atreides", "spice": 10, "forces": [{"place": "Arrakeen", "forces": 10}], "hand": [37], "traitors": ["Feyd Rautha"]},
      {"faction": "Harkonnen", "spice": 8, "forces": [{"place": "Carthag", "forces": 10}], "hand": [7], "traitors": ["Lady Jessica"]},
      {"faction": "Richese", "spice": 5, "traitors": ["Duncan Idaho"]}],
    "treachery_discard": [0, 5, 12],
    "shuffle": true})";
  const std::string data = "--data " + (dir / "store").string();
  auto r = testrun::run_mentat(data + " new --position " + pos.string() + " --room box1");
  INFO(r.out);
  REQUIRE(r.code == 0);
  r = testrun::run_mentat(data + " act box1 '{\"action_type\":\"PlayCard\",\"action\":{\"card\":37}}' --seat atreides --expect head");
  INFO(r.out);
  REQUIRE(r.code == 0);
  // A new process (as after a kill -9): the search is pending, the fee paid once, the retry refused.
  r = testrun::run_mentat(data + " act box1 '{\"action_type\":\"PlayCard\",\"action\":{\"card\":37}}' --seat atreides --expect head");
  CHECK(r.code != 0);
  r = testrun::run_mentat(data + " actions box1 --seat atreides");
  CHECK_THAT(r.out, Catch::Contains("Respond"));
  CHECK_THAT(r.out, Catch::Contains("searches the treachery discard pile"));
  r = testrun::run_mentat(data + " actions box1 --seat harkonnen");
  CHECK_THAT(r.out, !Catch::Contains("Crysknife"));
  r = testrun::run_mentat(data + " act box1 '{\"action_type\":\"Respond\",\"action\":{\"accept\":true,\"card\":5}}' --seat atreides --expect head");
  INFO(r.out);
  REQUIRE(r.code == 0);
  r = testrun::run_mentat(data + " show box1 --json");
  INFO(r.out);
  r = testrun::run_mentat(data + " verify box1");
  INFO(r.out);
  CHECK(r.code == 0);
  fs::remove_all(dir);
}

// ---- Mirror Weapon, Portable Snooper -------------------------------------------------------

namespace {
// Atreides and Harkonnen in Arrakeen, the battle plans next.
// The Atreides and the Harkonnen, 5 forces each in Arrakeen, empty hands (the Richese in the game), before the Battle phase.
GameState arrakeen_board() {
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen, kRichese}, false, 7, Rulings::defaults(),
                                      data::module_bit(data::Module::ChoamRichese)));
  for (Faction f : {kAtreides, kHarkonnen}) empty_hand(s, f);
  place(s, kAtreides, kArrakeen, 5);
  place(s, kHarkonnen, kArrakeen, 5);
  return s;
}
// Enters the Battle phase of arrakeen_board(): the Atreides ask the Harkonnen's weapon with Prescience (2.01.08).
void battle_asking_weapon(GameState& s) {
  enter_battle_phase(s);
  REQUIRE(s.step == rules::ability::kPrescience);
  action::Prescience ask;
  ask.element = rules::ability::kWeapon;
  act(s, kAtreides, ask);
}
GameState battle_of(std::initializer_list<std::pair<Faction, TreacheryKind>> cards, std::vector<uint8_t>* ids) {
  GameState s = arrakeen_board();
  for (const auto& [f, k] : cards)
    ids->push_back(k == TreacheryKind::MirrorWeapon || k == TreacheryKind::PortableSnooper ? from_cache(s, f, k) : give_another(s, f, k));
  enter_battle_phase(s);
  no_abilities(s);
  return s;
}
}  // namespace

TEST_CASE("Mirror Weapon: a copy of the opponent's weapon, stopped by the defense that stops it, nothing against no weapon",
          "[richese_cards][mirror][battle]") {
  SECTION("against a Crysknife without a projectile defense: both leaders die") {
    std::vector<uint8_t> c;
    GameState s = battle_of({{kAtreides, TreacheryKind::MirrorWeapon}, {kHarkonnen, TreacheryKind::Crysknife}}, &c);
    act(s, kAtreides, plan(L(kAtreides, 0), 1, c[0]));
    act(s, kHarkonnen, plan(L(kHarkonnen, 0), 1, c[1]));
    decline_traitors(s);
    CHECK(dead(s, L(kAtreides, 0)));
    CHECK(dead(s, L(kHarkonnen, 0)));
  }
  SECTION("against a Crysknife and a Shield: the copy is stopped") {
    std::vector<uint8_t> c;
    GameState s = battle_of({{kAtreides, TreacheryKind::MirrorWeapon}, {kHarkonnen, TreacheryKind::Crysknife}, {kHarkonnen, TreacheryKind::Shield}}, &c);
    act(s, kAtreides, plan(L(kAtreides, 0), 1, c[0]));
    act(s, kHarkonnen, plan(L(kHarkonnen, 0), 1, c[1], c[2]));
    decline_traitors(s);
    CHECK(dead(s, L(kAtreides, 0)));
    CHECK_FALSE(dead(s, L(kHarkonnen, 0)));
  }
  SECTION("against no weapon: nothing") {
    std::vector<uint8_t> c;
    GameState s = battle_of({{kAtreides, TreacheryKind::MirrorWeapon}, {kHarkonnen, TreacheryKind::Shield}}, &c);
    act(s, kAtreides, plan(L(kAtreides, 0), 1, c[0]));
    act(s, kHarkonnen, plan(L(kHarkonnen, 0), 1, kNone8, c[1]));
    decline_traitors(s);
    CHECK_FALSE(dead(s, L(kHarkonnen, 0)));
    CHECK_FALSE(dead(s, L(kAtreides, 0)));
  }
  SECTION("against a Lasgun with a Shield in the battle: the explosion") {
    std::vector<uint8_t> c;
    GameState s = battle_of({{kAtreides, TreacheryKind::MirrorWeapon}, {kAtreides, TreacheryKind::Shield}, {kHarkonnen, TreacheryKind::Lasgun}}, &c);
    act(s, kAtreides, plan(L(kAtreides, 0), 1, c[0], c[1]));
    act(s, kHarkonnen, plan(L(kHarkonnen, 0), 1, c[2]));
    decline_traitors(s);
    CHECK(s.forces_in_location(kAtreides, kArrakeen) == 0);
    CHECK(s.forces_in_location(kHarkonnen, kArrakeen) == 0);
    CHECK(dead(s, L(kAtreides, 0)));
    CHECK(dead(s, L(kHarkonnen, 0)));
    check_custody(s);
  }
}

TEST_CASE("Mirror Weapon and Portable Snooper are discarded after use, even by the winner", "[richese_cards][mirror][snooper][battle]") {
  std::vector<uint8_t> c;
  GameState s = battle_of({{kAtreides, TreacheryKind::MirrorWeapon}, {kAtreides, TreacheryKind::PortableSnooper},
                           {kHarkonnen, TreacheryKind::Chaumas}}, &c);
  act(s, kAtreides, plan(L(kAtreides, 0), 5, c[0], c[1]));
  act(s, kHarkonnen, plan(L(kHarkonnen, 4), 0, c[2]));
  decline_traitors(s);
  // The Snooper stopped the Chaumas; the Mirror copied it and killed the Harkonnen leader.
  CHECK_FALSE(dead(s, L(kAtreides, 0)));
  CHECK(dead(s, L(kHarkonnen, 4)));
  keep_all(s);
  CHECK(s.treachery_discard.contains(c[0]));
  CHECK(s.treachery_discard.contains(c[1]));
  CHECK_FALSE(s.of(kAtreides).hand.contains(c[0]));
  check_custody(s);
}

TEST_CASE("Stone Burner: its owner kills both leaders or neither, both count 0, the undialled forces decide, no other weapon acts",
          "[richese_cards][stone_burner][battle]") {
  for (bool kill : {true, false}) {
    INFO("kill " << kill);
    std::vector<uint8_t> c;
    GameState s = battle_of({{kAtreides, TreacheryKind::Crysknife}, {kHarkonnen, TreacheryKind::Crysknife}}, &c);
    const uint8_t stone = from_cache(s, kAtreides, TreacheryKind::StoneBurner);
    CHECK(rejected(s, kAtreides, play(stone)).code == RejectCode::IllegalChoice);  // a battle card
    // The Atreides dial 4 (one force left undialled), the Harkonnen 1 (four left): the Harkonnen win on forces.
    act(s, kAtreides, plan(L(kAtreides, 0), 4, stone));
    act(s, kHarkonnen, plan(L(kHarkonnen, 0), 1, c[1]));
    decline_traitors(s);
    REQUIRE(s.window_depth == 1);
    CHECK(s.windows[0].kind == WindowKind::StoneBurner);
    CHECK(waiting_for(s) == rules::bit(s.seat_of(kAtreides)));
    CHECK(validate(s, s.seat_of(kHarkonnen), pass()).has_value());
    check_projections(s);
    act(s, kAtreides, respond(kill));
    CHECK(s.window_depth == 0);
    CHECK(dead(s, L(kAtreides, 0)) == kill);  // the Crysknife did nothing to it
    CHECK(dead(s, L(kHarkonnen, 0)) == kill);
    CHECK(s.forces_in_location(kAtreides, kArrakeen) == 0);  // the loser
    CHECK(s.forces_in_location(kHarkonnen, kArrakeen) == 4);  // the winner lost its dial
    keep_all(s);
    CHECK(s.treachery_discard.contains(stone));
    check_custody(s);
  }
}

// ---- bots ----------------------------------------------------------------------------------

TEST_CASE("Bots: the Box when the public pile holds a card worth it, the best card taken, Distrans a worst card from a full hand",
          "[richese_cards][bots]") {
  for (int p = 0; p < bots::kNumProfiles; ++p) {
    const auto profile = static_cast<bots::Profile>(p);
    INFO(bots::profile_name(profile));
    GameState s = cards_game({kAtreides, kRichese, kHarkonnen});
    empty_hand(s, kAtreides);
    const uint8_t box = from_cache(s, kAtreides, TreacheryKind::NullentropyBox);
    const uint8_t lasgun = give(s, kHarkonnen, TreacheryKind::Lasgun);
    s.of(kHarkonnen).hand.remove(lasgun);
    s.treachery_discard.push(lasgun);
    give(s, kRichese, TreacheryKind::Baliset);
    s.treachery_discard.push(s.of(kRichese).hand.pop());
    set_spice(s, kAtreides, 10);
    check_custody(s);
    const Seat at = s.seat_of(kAtreides);
    auto bot = bots::make_bot(profile, 3);
    const Action a = bot->choose(bots::make_input(s, at));
    CHECK_FALSE(validate(s, at, a).has_value());
    if (profile == bots::Profile::Easy) continue;  // a random legal action
    REQUIRE(a.kind() == ActionKind::PlayCard);
    CHECK(a.as<action::PlayCard>().card == box);
    act(s, kAtreides, a);
    const Action pick = bot->choose(bots::make_input(s, at));
    REQUIRE(pick.kind() == ActionKind::Respond);
    CHECK(pick.as<action::Respond>().card == lasgun);
    act(s, kAtreides, pick);
    CHECK(s.of(kAtreides).hand.contains(lasgun));
    // Distrans from a full hand: the worst card to the enemy with the most cards, never the ally.
    GameState t = cards_game({kAtreides, kRichese, kHarkonnen});
    empty_hand(t, kAtreides);
    const uint8_t d = from_cache(t, kAtreides, TreacheryKind::Distrans);
    const uint8_t junk = give(t, kAtreides, TreacheryKind::Baliset);
    give(t, kAtreides, TreacheryKind::Lasgun);
    give(t, kAtreides, TreacheryKind::Shield);
    REQUIRE(t.of(kAtreides).hand.n == rules::hand_limit(t, kAtreides));
    ally(t, kAtreides, kRichese);
    const Action g = bot->choose(bots::make_input(t, t.seat_of(kAtreides)));
    REQUIRE(g.kind() == ActionKind::PlayCard);
    CHECK(g.as<action::PlayCard>().card == d);
    CHECK(g.as<action::PlayCard>().value == junk);
    CHECK(g.as<action::PlayCard>().target == fa(kHarkonnen));
  }
}

TEST_CASE("Portable Snooper added after the reveal to a plan without a defense, the traitor step waiting on public information only",
          "[richese_cards][snooper][battle]") {
  std::vector<uint8_t> c;
  GameState s = battle_of({{kAtreides, TreacheryKind::PortableSnooper}, {kHarkonnen, TreacheryKind::Chaumas}, {kAtreides, TreacheryKind::Baliset}}, &c);
  const uint8_t snooper = c[0];
  CHECK(rejected(s, kAtreides, play(snooper)).code == RejectCode::WrongPhase);  // before the plans: in the plan only
  act(s, kAtreides, plan(L(kAtreides, 0), 3));
  act(s, kHarkonnen, plan(L(kHarkonnen, 4), 1, c[1]));
  REQUIRE(rules::battle_plans_revealed(s));
  // The step waits for the Atreides whether or not they hold it: the same seats with the card in the cache.
  {
    std::vector<uint8_t> c2;
    GameState t = battle_of({{kHarkonnen, TreacheryKind::Chaumas}, {kAtreides, TreacheryKind::Baliset}, {kAtreides, TreacheryKind::Shield}}, &c2);
    act(t, kAtreides, plan(L(kAtreides, 0), 3));
    act(t, kHarkonnen, plan(L(kHarkonnen, 4), 1, c2[0]));
    CHECK(waiting_for(t) == waiting_for(s));
  }
  CHECK(waiting(s, kAtreides));
  // The Harkonnen plan has a weapon and no defense, but no Snooper: they may not.
  CHECK(rejected(s, kHarkonnen, play(snooper)).code == RejectCode::IllegalChoice);
  const auto acts = legal_actions(s, s.seat_of(kAtreides));
  CHECK(std::find(acts.begin(), acts.end(), Action(play(snooper))) != acts.end());
  act(s, kAtreides, play(snooper));
  CHECK(s.battle.wheels.contains(snooper));
  CHECK(s.battle.plan[s.battle.aggressor == s.seat_of(kAtreides) ? 0 : 1].defense == snooper);
  CHECK(rejected(s, kAtreides, play(snooper)).code != RejectCode::WrongPhase);  // not twice (not in hand)
  check_custody(s);
  decline_traitors(s);
  CHECK_FALSE(dead(s, L(kAtreides, 0)));  // the Chaumas stopped
  keep_all(s);
  CHECK(s.treachery_discard.contains(snooper));
  check_custody(s);
}

TEST_CASE("Bots add a Portable Snooper after the reveal only against a poison weapon", "[richese_cards][snooper][bots]") {
  for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    for (auto weapon : {TreacheryKind::Chaumas, TreacheryKind::Crysknife}) {
      std::vector<uint8_t> c;
      GameState s = battle_of({{kAtreides, TreacheryKind::PortableSnooper}, {kHarkonnen, weapon}}, &c);
      act(s, kAtreides, plan(L(kAtreides, 0), 3));
      act(s, kHarkonnen, plan(L(kHarkonnen, 4), 1, c[1]));
      const Action a = bots::make_bot(profile, 1)->choose(bots::make_input(s, s.seat_of(kAtreides)));
      const bool plays = a.kind() == ActionKind::PlayCard && a.as<action::PlayCard>().card == c[0];
      CHECK(plays == (weapon == TreacheryKind::Chaumas));
    }
  }
}

// ---- Residual Poison -------------------------------------------------------------------

TEST_CASE("Residual Poison: a random available leader of the opponent to the tanks, no spice, before its plan (ruling residual_poison_timing)",
          "[richese_cards][residual][battle][rulings]") {
  for (const char* reading : {"before_plans", "until_reveal"}) {
    INFO(reading);
    GameState s = cleared_board_of(game({kAtreides, kHarkonnen, kRichese}, false, 7, ruling("residual_poison_timing", reading),
                                        data::module_bit(data::Module::ChoamRichese)));
    place(s, kAtreides, kArrakeen, 5);
    place(s, kHarkonnen, kArrakeen, 5);
    const uint8_t rp = from_cache(s, kAtreides, TreacheryKind::ResidualPoison);
    CHECK(rejected(s, kAtreides, play(rp)).code == RejectCode::WrongPhase);  // no battle yet
    enter_battle_phase(s);
    no_abilities(s);
    CHECK(rejected(s, kRichese, play(rp)).code == RejectCode::IllegalChoice);  // not its card
    int alive = 0;
    for (int i = 0; i < 5; ++i) alive += !dead(s, L(kHarkonnen, i));
    const int spice_a = s.of(kAtreides).spice, spice_h = s.of(kHarkonnen).spice;
    GameState t = s;  // for the second reading's revocation below
    act(s, kAtreides, play(rp));
    int after = 0;
    for (int i = 0; i < 5; ++i) after += !dead(s, L(kHarkonnen, i));
    CHECK(after == alive - 1);
    CHECK(s.of(kAtreides).spice == spice_a);
    CHECK(s.of(kHarkonnen).spice == spice_h);
    CHECK(s.treachery_discard.top() == rp);
    check_custody(s);
    // The opponent's plan in first.
    for (int i = 1; i < 5; ++i) rules::battle_kill_leader(t, L(kHarkonnen, i));  // one leader left: the draw is forced
    act(t, kHarkonnen, plan(L(kHarkonnen, 0), 2));
    if (std::string(reading) == "before_plans") {
      CHECK(rejected(t, kAtreides, play(rp)).code == RejectCode::WrongPhase);
    } else {
      act(t, kAtreides, play(rp));
      CHECK(dead(t, L(kHarkonnen, 0)));
      CHECK(waiting(t, kHarkonnen));  // the plan naming it is revoked: plan again
      CHECK_FALSE((t.battle.plans_in >> t.seat_of(kHarkonnen)) & 1u);
      CHECK(rejected(t, kAtreides, play(rp)).code == RejectCode::IllegalChoice);  // gone from the hand
      check_custody(t);
    }
  }
}

TEST_CASE("Residual Poison is refused when the opponent has no leader that could fight", "[richese_cards][residual][battle]") {
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen, kRichese}, false, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese)));
  place(s, kAtreides, kArrakeen, 5);
  place(s, kHarkonnen, kArrakeen, 5);
  const uint8_t rp = from_cache(s, kAtreides, TreacheryKind::ResidualPoison);
  for (int i = 0; i < 5; ++i) rules::battle_kill_leader(s, L(kHarkonnen, i));
  enter_battle_phase(s);
  no_abilities(s);
  REQUIRE(s.phase == Phase::Battle);
  REQUIRE(s.battle.aggressor >= 0);
  CHECK(rejected(s, kAtreides, play(rp)).code == RejectCode::IllegalChoice);
}

TEST_CASE("Bots play Residual Poison in their battle before the opponent's plan", "[richese_cards][residual][bots]") {
  for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    GameState s = cleared_board_of(game({kAtreides, kHarkonnen, kRichese}, false, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese)));
    place(s, kAtreides, kArrakeen, 5);
    place(s, kHarkonnen, kArrakeen, 5);
    const uint8_t rp = from_cache(s, kAtreides, TreacheryKind::ResidualPoison);
    enter_battle_phase(s);
    no_abilities(s);
    const Action a = bots::make_bot(profile, 1)->choose(bots::make_input(s, s.seat_of(kAtreides)));
    REQUIRE(a.kind() == ActionKind::PlayCard);
    CHECK(a.as<action::PlayCard>().card == rp);
  }
}

// ---- Ornithopter -----------------------------------------------------------------------

namespace {
constexpr LocationId kFlat = 70;  // The Great Flat
// The Atreides' movement step of turn 1 on an empty board, holding the Ornithopter, 5 forces on The Great Flat
// (no ornithopters of their own: nothing in Arrakeen or Carthag).
GameState orn_board(uint8_t* card) {
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen, kRichese}, false, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese)));
  place(s, kAtreides, kFlat, 5);
  *card = from_cache(s, kAtreides, TreacheryKind::Ornithopter);
  pass_until_ship_or_move(s, kAtreides);
  if (s.step == 0) act(s, kAtreides, pass());  // no shipment
  REQUIRE(s.step == 2);
  REQUIRE(waiting(s, kAtreides));
  return s;
}
action::Move orn_move(LocationId from, int n, LocationId to, uint8_t mode) {
  action::Move m = move(from, n, to);
  m.ornithopter = mode;
  return m;
}
// A destination at `d` territory crossings from `from` that the storm and occupancy leave open to a 3-range group.
LocationId at_distance(const GameState& s, LocationId from, int d) {
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto to = static_cast<LocationId>(l);
    if (data::crossing_distance(from, to) != d || s.in_storm(to) || data::territory(data::territory_of(to)).stronghold) continue;
    if (d <= 3 && rules::ship::check_move(s, kAtreides, orn_move(from, 1, to, 1))) continue;
    return to;
  }
  FAIL("no destination at that distance");
  return kNone8;
}
}  // namespace

TEST_CASE("Ornithopter one group: up to three territories without ornithopters, the card discarded once, an illegal route spends nothing",
          "[richese_cards][ornithopter]") {
  uint8_t card = kNone8;
  GameState s = orn_board(&card);
  const LocationId three = at_distance(s, kFlat, 3), four = at_distance(s, kFlat, 4);
  CHECK(rejected(s, kAtreides, move(kFlat, 2, three)).code == RejectCode::IllegalChoice);  // range 1 without the card
  CHECK(rejected(s, kAtreides, orn_move(kFlat, 2, four, 1)).code == RejectCode::IllegalChoice);  // three, not more
  CHECK(s.of(kAtreides).hand.contains(card));
  CHECK(rejected(s, kAtreides, play(card)).code == RejectCode::IllegalChoice);  // played with the movement, not alone
  const auto acts = legal_actions(s, s.seat_of(kAtreides));
  CHECK(std::any_of(acts.begin(), acts.end(), [&](const Action& a) {
    return a.kind() == ActionKind::Move && a.as<action::Move>().ornithopter == 1 && a.as<action::Move>().to == three;
  }));
  const int discard_n = s.treachery_discard.n;
  act(s, kAtreides, orn_move(kFlat, 2, three, 1));
  CHECK(s.forces_at(kAtreides, three, 0) == 2);
  CHECK(s.forces_at(kAtreides, kFlat, 0) == 3);
  CHECK_FALSE(s.of(kAtreides).hand.contains(card));
  CHECK(s.treachery_discard.n == discard_n + 1);
  CHECK(s.treachery_discard.top() == card);
  CHECK(s.treachery_played.empty());
  CHECK(s.shipmove.orn_to == kNone8);
  CHECK_FALSE((waiting(s, kAtreides) && s.shipmove.current == s.seat_of(kAtreides)));  // one movement: the turn is over
  check_custody(s);
}

TEST_CASE("Ornithopter two groups: normal range each, the first group's arrivals never move again, same-origin subsets allowed",
          "[richese_cards][ornithopter]") {
  uint8_t card = kNone8;
  GameState s = orn_board(&card);
  const LocationId next = at_distance(s, kFlat, 1);
  CHECK(rejected(s, kAtreides, orn_move(kFlat, 2, at_distance(s, kFlat, 3), 2)).code == RejectCode::IllegalChoice);  // normal range
  act(s, kAtreides, orn_move(kFlat, 2, next, 2));
  CHECK(s.forces_at(kAtreides, next, 0) == 2);
  CHECK(s.treachery_played.contains(card));  // public, in play
  CHECK_FALSE(s.of(kAtreides).hand.contains(card));
  CHECK_FALSE(s.treachery_discard.contains(card));
  CHECK(s.shipmove.orn_to == next);
  REQUIRE(waiting(s, kAtreides));  // the second group
  check_custody(s);
  {  // public: the card in play and where its first group went
    const std::string v = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kHarkonnen)));
    const auto* fv = fb::GetView(v.data());
    CHECK(fv->ornithopter_to() == next);
    REQUIRE(fv->treachery_played());
    CHECK(fv->treachery_played()->size() == 1);
    check_projections(s);
  }
  // The persisted state keeps the entitlement (a restart resumes it).
  GameState back;
  std::string err;
  REQUIRE(codec::decode_state(codec::encode_state(s), &back, &err));
  CHECK(back.shipmove.orn_to == next);
  CHECK(back.shipmove.orn_arrived[0] == 2);
  CHECK(back.treachery_played.contains(card));
  // Not the arrivals: moving them on is refused; the rest of the first origin may go.
  CHECK(rejected(s, kAtreides, move(next, 1, kFlat)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kAtreides, orn_move(kFlat, 1, next, 2)).code == RejectCode::IllegalChoice);  // one card use
  act(s, kAtreides, move(kFlat, 3, next));
  CHECK(s.forces_at(kAtreides, next, 0) == 5);
  CHECK(s.treachery_discard.top() == card);
  CHECK(s.treachery_played.empty());
  CHECK(s.shipmove.orn_to == kNone8);
  check_custody(s);
}

TEST_CASE("Ornithopter two groups: a turn that ends without the second group discards the card once", "[richese_cards][ornithopter]") {
  uint8_t card = kNone8;
  GameState s = orn_board(&card);
  act(s, kAtreides, orn_move(kFlat, 2, at_distance(s, kFlat, 1), 2));
  REQUIRE(s.treachery_played.contains(card));
  act(s, kAtreides, pass());
  CHECK(s.treachery_played.empty());
  CHECK(s.treachery_discard.top() == card);
  CHECK(s.shipmove.orn_to == kNone8);
  check_custody(s);
}

TEST_CASE("Ornithopter: not with Hajr in the same turn, nor after a movement", "[richese_cards][ornithopter]") {
  uint8_t card = kNone8;
  GameState s = orn_board(&card);
  const LocationId three = at_distance(s, kFlat, 3), one = at_distance(s, kFlat, 1);
  const uint8_t hajr = give(s, kAtreides, TreacheryKind::Hajr);
  act(s, kAtreides, play(hajr));
  CHECK(rejected(s, kAtreides, orn_move(kFlat, 1, three, 1)).code == RejectCode::IllegalChoice);
  act(s, kAtreides, move(kFlat, 1, one));
  CHECK(rejected(s, kAtreides, orn_move(kFlat, 1, one, 2)).code == RejectCode::IllegalChoice);
  CHECK(s.of(kAtreides).hand.contains(card));
}

TEST_CASE("Bots choose the Stone Burner's kill only against a stronger leader", "[richese_cards][stone_burner][bots]") {
  for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    for (int opp_leader : {0, 4}) {  // the Harkonnen's strongest (Feyd, 6) or weakest (1); the Atreides' Gurney (4)
      INFO(bots::profile_name(profile) << " opponent leader " << opp_leader);
      std::vector<uint8_t> c;
      GameState s = battle_of({}, &c);
      const uint8_t stone = from_cache(s, kAtreides, TreacheryKind::StoneBurner);
      act(s, kAtreides, plan(L(kAtreides, 2), 1, stone));
      act(s, kHarkonnen, plan(L(kHarkonnen, opp_leader), 1));
      decline_traitors(s);
      REQUIRE(s.window_depth == 1);
      const Action a = bots::make_bot(profile, 1)->choose(bots::make_input(s, s.seat_of(kAtreides)));
      REQUIRE(a.kind() == ActionKind::Respond);
      CHECK(a.as<action::Respond>().accept == (opp_leader == 0));
    }
  }
}

TEST_CASE("Distrans never gives a card of a submitted battle plan", "[richese_cards][distrans][battle]") {
  std::vector<uint8_t> c;
  GameState s = battle_of({{kAtreides, TreacheryKind::Crysknife}, {kAtreides, TreacheryKind::Baliset}}, &c);
  const uint8_t d = data::card_set(data::CardSet::Richese).first;  // Distrans: wherever the cache lot of turn 1 sent it
  REQUIRE(data::treachery_card(d).kind == TreacheryKind::Distrans);
  bool found = s.richese.cache.remove(d) || s.treachery_discard.remove(d);
  for (auto& fs : s.f) found = found || fs.hand.remove(d);
  REQUIRE(found);
  s.of(kAtreides).hand.push(d);
  check_custody(s);
  act(s, kAtreides, plan(L(kAtreides, 0), 1, c[0]));
  REQUIRE_FALSE(rules::battle_plans_revealed(s));
  const auto r = rejected(s, kAtreides, play(d, c[0], fa(kRichese)));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("battle plan"));
  act(s, kAtreides, play(d, c[1], fa(kRichese)));  // another card may go
  CHECK(s.of(kRichese).hand.contains(c[1]));
  check_custody(s);
}

// ---- Prescience, Voice and the views name the Richese battle cards -----------------------

TEST_CASE("Prescience may be answered with a Richese weapon, and the revealed plan names it in every view",
          "[richese_cards][mirror][battle][prescience]") {
  namespace ab = rules::ability;
  GameState s = arrakeen_board();
  const uint8_t mirror = from_cache(s, kHarkonnen, TreacheryKind::MirrorWeapon);
  const uint8_t knife = give_another(s, kAtreides, TreacheryKind::Crysknife);
  battle_asking_weapon(s);
  REQUIRE(s.step == ab::kPrescienceAnswer);
  bool offered = false;
  for (const auto& a : legal_actions(s, s.seat_of(kHarkonnen)))
    if (const auto* p = a.get_if<action::PrescienceAnswer>()) offered |= p->value == mirror;
  CHECK(offered);
  action::PrescienceAnswer answer;
  answer.value = mirror;
  act(s, kHarkonnen, answer);
  CHECK(s.atreides.battle.prescience_value == mirror);
  CHECK(rejected(s, kHarkonnen, plan(L(kHarkonnen, 0), 1)).code == RejectCode::IllegalChoice);  // bound to it
  act(s, kHarkonnen, plan(L(kHarkonnen, 0), 1, mirror));
  act(s, kAtreides, plan(L(kAtreides, 0), 1, knife));
  REQUIRE(rules::battle_plans_revealed(s));
  for (Faction f : {kAtreides, kHarkonnen, kRichese}) {
    const std::string v = inspect::build_view(s, inspect::Viewer::of(s.seat_of(f)));
    const auto* fv = fb::GetView(v.data());
    REQUIRE(fv->battle());
    const auto* hp = s.battle.aggressor == s.seat_of(kHarkonnen) ? fv->battle()->aggressor_plan() : fv->battle()->defender_plan();
    REQUIRE(hp);
    REQUIRE(hp->weapon());
    CHECK(hp->weapon()->str() == "Mirror Weapon");
  }
  // The bots read it from their views (the name maps to the card) and decide.
  for (Seat x = 0; x < s.num_seats; ++x)
    if ((waiting_for(s) >> x) & 1u)
      for (auto profile : {bots::Profile::Easy, bots::Profile::Brutal}) {
        const Action a = bots::make_bot(profile, 1)->choose(bots::make_input(s, x));
        CHECK_FALSE(validate(s, x, a).has_value());
      }
  decline_traitors(s);
  CHECK(dead(s, L(kAtreides, 0)));
  CHECK(dead(s, L(kHarkonnen, 0)));
}

TEST_CASE("The Voice may name a Richese special weapon, only in games with the Richese cards",
          "[richese_cards][mirror][battle][voice]") {
  namespace ab = rules::ability;
  const int mirror_kind = ab::kNamed + static_cast<int>(TreacheryKind::MirrorWeapon);
  auto voice = [](bool must, int kind) {
    action::Voice a;
    a.must = must;
    a.kind = static_cast<uint8_t>(kind);
    return Action(a);
  };
  SECTION("base game: unknown") {
    GameState s = cleared_board({Faction::BeneGesserit, kHarkonnen});
    place(s, Faction::BeneGesserit, kArrakeen, 5);
    place(s, kHarkonnen, kArrakeen, 5);
    enter_battle_phase(s);
    REQUIRE(s.step == ab::kVoice);
    CHECK(rejected(s, Faction::BeneGesserit, voice(true, mirror_kind)).code == RejectCode::Malformed);
  }
  SECTION("with the Richese cards: a must-play the opponent obeys") {
    GameState s = cleared_board_of(game({Faction::BeneGesserit, kHarkonnen, kRichese}, false, 7, Rulings::defaults(),
                                        data::module_bit(data::Module::ChoamRichese)));
    for (Faction f : {Faction::BeneGesserit, kHarkonnen}) empty_hand(s, f);
    place(s, Faction::BeneGesserit, kArrakeen, 5);
    place(s, kHarkonnen, kArrakeen, 5);
    const uint8_t mirror = from_cache(s, kHarkonnen, TreacheryKind::MirrorWeapon);
    enter_battle_phase(s);
    REQUIRE(s.step == ab::kVoice);
    bool offered = false;
    for (const auto& a : legal_actions(s, s.seat_of(Faction::BeneGesserit)))
      if (const auto* v = a.get_if<action::Voice>()) offered |= v->kind == mirror_kind;
    CHECK(offered);
    act(s, Faction::BeneGesserit, voice(true, mirror_kind));
    const auto r = rejected(s, kHarkonnen, plan(L(kHarkonnen, 0), 1));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("Mirror Weapon"));
    act(s, kHarkonnen, plan(L(kHarkonnen, 0), 1, mirror));
  }
}

TEST_CASE("Distrans never gives a card the Prescience answer binds, one the Voice commands, or one CHOAM offered in trade",
          "[richese_cards][distrans][battle][choam]") {
  namespace ab = rules::ability;
  auto battle_game = [](Faction first) {
    GameState s = cleared_board_of(game({first, kHarkonnen, kRichese}, false, 7, Rulings::defaults(),
                                        data::module_bit(data::Module::ChoamRichese)));
    for (Faction f : {first, kHarkonnen}) empty_hand(s, f);
    place(s, first, kArrakeen, 5);
    place(s, kHarkonnen, kArrakeen, 5);
    return s;
  };
  SECTION("the Prescience answer") {
    GameState s = battle_game(kAtreides);
    const uint8_t d = from_cache(s, kHarkonnen, TreacheryKind::Distrans);
    const uint8_t knife = give_another(s, kHarkonnen, TreacheryKind::Crysknife);
    const uint8_t shield = give_another(s, kHarkonnen, TreacheryKind::Shield);
    enter_battle_phase(s);
    REQUIRE(s.step == ab::kPrescience);
    act(s, kAtreides, action::Prescience{.element = ab::kWeapon});
    act(s, kHarkonnen, action::PrescienceAnswer{.value = knife});
    const auto r = rejected(s, kHarkonnen, play(d, knife, fa(kRichese)));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("Prescience"));
    CHECK(s.of(kHarkonnen).hand.contains(knife));
    act(s, kHarkonnen, play(d, shield, fa(kRichese)));  // an unbound card goes
    CHECK(s.of(kRichese).hand.contains(shield));
  }
  SECTION("the Voice") {
    GameState s = battle_game(Faction::BeneGesserit);
    const uint8_t d = from_cache(s, kHarkonnen, TreacheryKind::Distrans);
    const uint8_t chaumas = give_another(s, kHarkonnen, TreacheryKind::Chaumas);
    enter_battle_phase(s);
    REQUIRE(s.step == ab::kVoice);
    act(s, Faction::BeneGesserit, action::Voice{.must = true, .kind = ab::kPoisonWeapon});
    const auto r = rejected(s, kHarkonnen, play(d, chaumas, fa(kRichese)));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("Voice"));
  }
  SECTION("CHOAM's trade offer") {
    GameState s = game({Faction::Choam, kAtreides, kRichese}, false, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
    play_until(s, Phase::ShipmentMovement, 1);
    empty_hand(s, Faction::Choam);
    const uint8_t d = from_cache(s, Faction::Choam, TreacheryKind::Distrans);
    const uint8_t shield = give_another(s, Faction::Choam, TreacheryKind::Shield);
    ally(s, Faction::Choam, kAtreides);
    if (s.of(kAtreides).hand.empty()) give_another(s, kAtreides, TreacheryKind::Crysknife);
    act(s, Faction::Choam, action::ChoamTrade{.card = shield});
    REQUIRE(s.choam.trade_open == 1);
    const auto r = rejected(s, Faction::Choam, play(d, shield, fa(kRichese)));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("trade"));
  }
}

// ---- Semuta Drug -----------------------------------------------------------------------

namespace {
action::PlayCard spice_question(uint8_t card, Faction asked) {
  return action::PlayCard{.card = card, .target = 1, .value = static_cast<uint8_t>(3 << 4 | fa(asked))};  // "do you hold 1 spice?"
}
}  // namespace

TEST_CASE("Semuta Drug: right after another player discards, every possible holder is asked, the holder takes the card",
          "[richese_cards][semuta]") {
  GameState s = cards_game({kRichese, kAtreides, kHarkonnen});
  const uint8_t semuta = from_cache(s, kHarkonnen, TreacheryKind::SemutaDrug);
  const uint8_t tt = give_another(s, kAtreides, TreacheryKind::Truthtrance);
  const uint8_t waiting_before = s.waiting;
  act(s, kAtreides, spice_question(tt, kHarkonnen));
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].kind == WindowKind::SemutaTake);
  // Asked: the seats with cards for which another's card was discarded; never the discarder.
  const uint8_t asked = rules::bit(s.seat_of(kRichese)) | rules::bit(s.seat_of(kHarkonnen));
  CHECK(waiting_for(s) == asked);
  CHECK(respond_options(s, kRichese).empty());
  CHECK(respond_options(s, kHarkonnen) == std::vector<uint16_t>{tt});
  CHECK(rejected(s, kRichese, respond(true, tt)).code == RejectCode::IllegalChoice);  // no Semuta Drug in that hand
  CHECK(rejected(s, kAtreides, respond(false)).code == RejectCode::NotYourDecision);
  SECTION("taken") {
    act(s, kRichese, respond(false));
    act(s, kHarkonnen, respond(true, tt));
    CHECK(s.window_depth == 0);
    CHECK(s.waiting == waiting_before);
    CHECK(s.of(kHarkonnen).hand.contains(tt));
    CHECK_FALSE(s.of(kHarkonnen).hand.contains(semuta));
    CHECK(s.treachery_discard.n > 0);
    CHECK(s.treachery_discard.ids[s.treachery_discard.n - 1] == semuta);  // discarded on top
    CHECK_FALSE(s.treachery_discard.contains(tt));
    CHECK(s.recent_discard_n == 0);
    check_projections(s);
  }
  SECTION("let pass by everyone") {
    act(s, kHarkonnen, respond(false));
    act(s, kRichese, respond(false));
    CHECK(s.window_depth == 0);
    CHECK(s.waiting == waiting_before);
    CHECK(s.treachery_discard.contains(tt));
    CHECK(s.of(kHarkonnen).hand.contains(semuta));
    CHECK(s.recent_discard_n == 0);
  }
}

TEST_CASE("Semuta Drug in a stored room: the window survives a new process, the card is taken once and the room verifies",
          "[richese_cards][semuta][store]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("mentat-semuta-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  int tt = -1, semuta = -1;
  for (int id = 0; id < data::kNumAllTreacheryCards; ++id) {
    const auto kind = data::treachery_card(static_cast<uint8_t>(id)).kind;
    if (kind == TreacheryKind::Truthtrance && tt < 0) tt = id;
    if (kind == TreacheryKind::SemutaDrug) semuta = id;
  }
  REQUIRE(tt >= 0);
  REQUIRE(semuta >= 0);
  const fs::path pos = dir / "pos.json";
  std::ofstream(pos) << R"({"seats": ["Atreides", "Harkonnen", "Richese"], "seed": 7, "turn": 2, "phase": "Storm", "storm_sector": 3,
    "modules": ["ChoamRichese"],
    "factions": [
      {"faction": "Atreides", "spice": 10, "forces": [{"place": "Arrakeen", "forces": 10}], "hand": [)" << tt << R"(], "traitors": ["Feyd Rautha"]},
      {"faction": "Harkonnen", "spice": 8, "forces": [{"place": "Carthag", "forces": 10}], "hand": [)" << semuta << R"(], "traitors": ["Lady Jessica"]},
      {"faction": "Richese", "spice": 5, "traitors": ["Duncan Idaho"]}],
    "shuffle": true})";
  const std::string data = "--data " + (dir / "store").string();
  auto r = testrun::run_mentat(data + " new --position " + pos.string() + " --room sem1");
  INFO(r.out);
  REQUIRE(r.code == 0);
  const std::string ask = " act sem1 '{\"action_type\":\"PlayCard\",\"action\":{\"card\":" + std::to_string(tt) +
                          ",\"value\":{\"ask\":\"harkonnen\",\"question\":\"holds_card\"},\"target\":0}}' --seat atreides --expect head";
  r = testrun::run_mentat(data + ask);
  INFO(r.out);
  REQUIRE(r.code == 0);
  // A new process (as after a kill -9): the window is pending for the Harkonnen only (Richese hold no card).
  r = testrun::run_mentat(data + " actions sem1 --seat harkonnen");
  CHECK_THAT(r.out, Catch::Contains("Semuta Drug"));
  CHECK_THAT(r.out, Catch::Contains("Respond"));
  r = testrun::run_mentat(data + ask);  // the Truthtrance is discarded: not played twice
  CHECK(r.code != 0);
  const std::string take = " act sem1 '{\"action_type\":\"Respond\",\"action\":{\"accept\":true,\"card\":" + std::to_string(tt) +
                           "}}' --seat harkonnen --expect head";
  r = testrun::run_mentat(data + take);
  INFO(r.out);
  REQUIRE(r.code == 0);
  // The card taken left the face-up pile: the public report names it.
  r = testrun::run_mentat(data + " log sem1");
  CHECK_THAT(r.out, Catch::Contains("Truthtrance #" + std::to_string(tt) + ": treachery_discard -> hand:harkonnen"));
  r = testrun::run_mentat(data + take);  // the window is closed: refused, nothing changes
  CHECK(r.code != 0);
  r = testrun::run_mentat(data + " show sem1");
  INFO(r.out);
  CHECK(r.code == 0);
  r = testrun::run_mentat(data + " verify sem1");
  INFO(r.out);
  CHECK(r.code == 0);
  fs::remove_all(dir);
}

TEST_CASE("Semuta Drug: who is asked follows from public facts only, not from who holds it", "[richese_cards][semuta][privacy]") {
  GameState holder = cards_game({kRichese, kAtreides, kHarkonnen});
  GameState other = holder;
  from_cache(holder, kHarkonnen, TreacheryKind::SemutaDrug);
  from_cache(other, kHarkonnen, TreacheryKind::MirrorWeapon);  // the Semuta Drug still in the cache
  const uint8_t tt = give_another(holder, kAtreides, TreacheryKind::Truthtrance);
  REQUIRE(give_another(other, kAtreides, TreacheryKind::Truthtrance) == tt);
  act(holder, kAtreides, spice_question(tt, kHarkonnen));
  act(other, kAtreides, spice_question(tt, kHarkonnen));
  REQUIRE(holder.window_depth == 1);
  REQUIRE(other.window_depth == 1);
  CHECK(waiting_for(holder) == waiting_for(other));
  CHECK(respond_options(other, kHarkonnen).empty());
  // Before any Richese card has left the cache nobody can hold it: no window.
  GameState none = cards_game({kRichese, kAtreides, kHarkonnen});
  act(none, kAtreides, spice_question(give_another(none, kAtreides, TreacheryKind::Truthtrance), kHarkonnen));
  CHECK(none.window_depth == 0);
}

TEST_CASE("Semuta Drug: never one's own discard, and no record in a game without the Richese cards", "[richese_cards][semuta]") {
  GameState s = cards_game({kRichese, kAtreides, kHarkonnen});
  from_cache(s, kAtreides, TreacheryKind::SemutaDrug);
  const uint8_t tt = give_another(s, kAtreides, TreacheryKind::Truthtrance);
  act(s, kAtreides, spice_question(tt, kHarkonnen));
  if (s.window_depth == 1) CHECK_FALSE(rules::has_bit(waiting_for(s), s.seat_of(kAtreides)));
  CHECK(respond_options(s, kAtreides).empty());
  GameState base = game({kAtreides, kHarkonnen, Faction::Emperor});
  play_until(base, Phase::Storm, 1);
  const uint8_t tt2 = give_another(base, kAtreides, TreacheryKind::Truthtrance);
  act(base, kAtreides, spice_question(tt2, kHarkonnen));
  CHECK(base.recent_discard_n == 0);
  CHECK(base.window_depth == 0);
}

TEST_CASE("Semuta Drug: ruling semuta_timing = next_action, a play until the next action and no window",
          "[richese_cards][semuta][rulings]") {
  Rulings r = Rulings::defaults();
  r.value[static_cast<int>(RulingId::SemutaTiming)] = 1;
  GameState s = cards_game({kRichese, kAtreides, kHarkonnen}, r);
  const uint8_t semuta = from_cache(s, kHarkonnen, TreacheryKind::SemutaDrug);
  const uint8_t tt = give_another(s, kAtreides, TreacheryKind::Truthtrance);
  act(s, kAtreides, spice_question(tt, kHarkonnen));
  CHECK(s.window_depth == 0);
  const action::PlayCard take{.card = semuta, .target = tt};
  SECTION("at once") {
    act(s, kHarkonnen, take);
    CHECK(s.of(kHarkonnen).hand.contains(tt));
    CHECK(s.treachery_discard.ids[s.treachery_discard.n - 1] == semuta);
  }
  SECTION("too late after another action") {
    const uint8_t tt2 = give(s, kRichese, TreacheryKind::Truthtrance, 1);  // the other Truthtrance
    REQUIRE(tt2 != tt);
    act(s, kRichese, spice_question(tt2, kAtreides));
    CHECK(rejected(s, kHarkonnen, take).code == RejectCode::IllegalChoice);
    act(s, kHarkonnen, action::PlayCard{.card = semuta, .target = tt2});  // the new discard may be taken
    CHECK(s.of(kHarkonnen).hand.contains(tt2));
  }
  Rulings d = Rulings::defaults();
  GameState w = cards_game({kRichese, kAtreides, kHarkonnen}, d);
  const uint8_t semuta_w = from_cache(w, kHarkonnen, TreacheryKind::SemutaDrug);
  CHECK(rejected(w, kHarkonnen, action::PlayCard{.card = semuta_w, .target = tt}).code == RejectCode::WrongPhase);
}

// ---- Juice of Sapho ----------------------------------------------------------------------
namespace {
std::string juice_in_view(const GameState& s, Faction f, std::string* who) {
  const std::string v = inspect::build_view(s, inspect::Viewer::of(s.seat_of(f)));
  const auto* fv = fb::GetView(v.data());
  if (who) *who = fv->juice_faction() ? fv->juice_faction()->str() : "";
  return fv->juice() ? fv->juice()->str() : "";
}
// Passes the current seat's shipment and movement.
void pass_ship_turn(GameState& s) {
  const Seat x = s.shipmove.current;
  while (s.phase == Phase::ShipmentMovement && s.shipmove.current == x) act(s, s.faction_at(x), pass());
}
}  // namespace

TEST_CASE("Juice of Sapho as the aggressor: the defender wins a tie, the card discarded once, public in every view",
          "[richese_cards][juice][battle]") {
  for (bool juice : {false, true}) {
    INFO(juice);
    std::vector<uint8_t> c;
    GameState s = battle_of({}, &c);
    const Faction agg = s.faction_at(s.battle.aggressor), def = s.faction_at(s.battle.defender);
    const int sa = data::leader(L(agg, 0)).strength, sd = data::leader(L(def, 0)).strength;
    // Equal totals: dial_a + sa == dial_d + sd, both dials in 0..5.
    const int dial_a = std::max(0, sd - sa), dial_d = dial_a + sa - sd;
    REQUIRE(dial_a <= 5);
    REQUIRE(dial_d <= 5);
    if (juice) {
      const uint8_t j = from_cache(s, def, TreacheryKind::JuiceOfSapho);
      CHECK(rejected(s, agg, play(j, rules::kJuiceAggressor)).code == RejectCode::IllegalChoice);  // not in its hand
      CHECK(rejected(s, kRichese, play(j, rules::kJuiceAggressor)).code == RejectCode::IllegalChoice);
      act(s, def, play(j, rules::kJuiceAggressor));
      CHECK(s.treachery_discard.top() == j);
      CHECK_FALSE(s.of(def).hand.contains(j));
      let_semuta_pass(s);
      std::string who;
      for (Faction f : {kAtreides, kHarkonnen, kRichese}) {
        CHECK(juice_in_view(s, f, &who) == "aggressor");
        CHECK(who == faction_key(def));
      }
      {  // back in hand (as a Semuta Drug could bring it): not twice in one phase
        GameState t = s;
        REQUIRE(t.treachery_discard.remove(j));
        t.of(def).hand.push(j);
        CHECK(rejected(t, def, play(j, rules::kJuiceAggressor)).code == RejectCode::IllegalChoice);
      }
      check_custody(s);
    }
    act(s, agg, plan(L(agg, 0), dial_a));
    act(s, def, plan(L(def, 0), dial_d));
    decline_traitors(s);
    const Faction loser = juice ? agg : def;
    const Faction winner = juice ? def : agg;
    CHECK(s.forces_in_location(loser, kArrakeen) == 0);
    CHECK(s.forces_in_location(winner, kArrakeen) > 0);
    check_custody(s);
  }
}

TEST_CASE("Juice of Sapho in Shipment and Movement: go last at one's own untouched turn, go first before anyone acts",
          "[richese_cards][juice][shipment]") {
  SECTION("go_last: the turn passes on, the player ships after everyone else") {
    GameState s = cards_game({kAtreides, kHarkonnen, kRichese});
    play_until(s, Phase::ShipmentMovement, 1);
    let_semuta_pass(s);
    REQUIRE(s.phase == Phase::ShipmentMovement);
    const Seat first = s.shipmove.current;
    const Faction j = s.faction_at(first);
    const uint8_t card = from_cache(s, j, TreacheryKind::JuiceOfSapho);
    act(s, j, play(card, rules::kJuiceLast));
    let_semuta_pass(s);
    CHECK(s.shipmove.current != first);
    CHECK(storm_order(s).back() == first);
    CHECK(juice_in_view(s, kAtreides, nullptr) == "last");
    int others = 0;
    while (s.phase == Phase::ShipmentMovement && s.shipmove.current != first) {
      pass_ship_turn(s);
      ++others;
    }
    CHECK(others == 2);
    REQUIRE(s.phase == Phase::ShipmentMovement);
    CHECK(s.shipmove.done == static_cast<uint8_t>(((1u << s.num_seats) - 1) & ~rules::bit(first)));
    pass_ship_turn(s);
    CHECK(s.phase != Phase::ShipmentMovement);
    check_custody(s);
  }
  SECTION("go_first: the first turn is handed over; refused once someone has shipped or moved") {
    GameState s = cards_game({kAtreides, kHarkonnen, kRichese});
    play_until(s, Phase::ShipmentMovement, 1);
    let_semuta_pass(s);
    const auto order = storm_order(s);
    const Seat first = order[0], third = order[2];
    const Faction j = s.faction_at(third);
    const uint8_t card = from_cache(s, j, TreacheryKind::JuiceOfSapho);
    {
      GameState t = s;
      pass_ship_turn(t);  // the first seat's turn is over: too late
      CHECK(rejected(t, j, play(card, rules::kJuiceFirst)).code == RejectCode::WrongPhase);
    }
    act(s, j, play(card, rules::kJuiceFirst));
    let_semuta_pass(s);
    CHECK(s.shipmove.current == third);
    CHECK(waiting(s, j));
    pass_ship_turn(s);
    CHECK(s.shipmove.current == first);  // then storm order
  }
}

TEST_CASE("Juice of Sapho in Bidding: go first opens the first card before any bid, refused once one is made",
          "[richese_cards][juice][bidding]") {
  GameState s = game({kAtreides, kRichese, kHarkonnen}, false, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
  play_until(s, Phase::Bidding, 1);
  act(s, kRichese, action::RicheseCacheTiming{.first = false});
  REQUIRE(s.step == 0);
  const Seat opener = s.bidding.current;
  Seat other = kNoSeat;
  for (Seat x : storm_order(s))
    if (x != opener && rules::has_bit(s.bidding.eligible, x)) other = x;
  REQUIRE(other != kNoSeat);
  const Faction j = s.faction_at(other);
  const uint8_t card = from_cache(s, j, TreacheryKind::JuiceOfSapho);
  {
    GameState t = s;
    act(t, t.faction_at(opener), pass());
    CHECK(rejected(t, j, play(card, rules::kJuiceFirst)).code == RejectCode::WrongPhase);
  }
  act(s, j, play(card, rules::kJuiceFirst));
  let_semuta_pass(s);
  CHECK(s.bidding.current == other);
  CHECK(s.bidding.opener == other);
  CHECK(storm_order(s).front() == other);
  CHECK(waiting(s, j));
  check_custody(s);
}

TEST_CASE("Juice of Sapho: refused in the Battle phase once its first battle began, and by the current aggressor going last",
          "[richese_cards][juice][battle]") {
  std::vector<uint8_t> c;
  GameState s = battle_of({}, &c);
  const Faction agg = s.faction_at(s.battle.aggressor), def = s.faction_at(s.battle.defender);
  const uint8_t ja = from_cache(s, agg, TreacheryKind::JuiceOfSapho);
  CHECK(rejected(s, agg, play(ja, rules::kJuiceFirst)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, agg, play(ja, rules::kJuiceLast)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, agg, play(ja, rules::kJuiceAggressor)).code == RejectCode::IllegalChoice);
  CHECK(s.of(agg).hand.contains(ja));
  (void)def;
}

TEST_CASE("Bots play the Juice of Sapho as the defender of a battle, and to ship last at their own turn",
          "[richese_cards][juice][bots]") {
  // Easy plays a uniformly random legal action (bots/bot.h): the others.
  for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    {
      std::vector<uint8_t> c;
      GameState s = battle_of({}, &c);
      const Faction def = s.faction_at(s.battle.defender);
      const uint8_t j = from_cache(s, def, TreacheryKind::JuiceOfSapho);
      const Action a = bots::make_bot(profile, 1)->choose(bots::make_input(s, s.battle.defender));
      REQUIRE(a.kind() == ActionKind::PlayCard);
      CHECK(a.as<action::PlayCard>().card == j);
      CHECK(a.as<action::PlayCard>().value == rules::kJuiceAggressor);
    }
    {
      GameState s = cards_game({kAtreides, kHarkonnen, kRichese});
      play_until(s, Phase::ShipmentMovement, 1);
      let_semuta_pass(s);
      const Seat x = s.shipmove.current;
      const uint8_t j = from_cache(s, s.faction_at(x), TreacheryKind::JuiceOfSapho);
      const Action a = bots::make_bot(profile, 1)->choose(bots::make_input(s, x));
      REQUIRE(a.kind() == ActionKind::PlayCard);
      CHECK(a.as<action::PlayCard>().card == j);
      CHECK(a.as<action::PlayCard>().value == rules::kJuiceLast);
    }
  }
}

// ---- the rulings of the Ornithopter and the Juice of Sapho, and the Juice's first battle ----

TEST_CASE("Ornithopter with Hajr and after a first movement: ruling ornithopter_hajr = any_move, the extra movements add up",
          "[richese_cards][ornithopter][rulings]") {
  uint8_t card = kNone8;
  GameState s = orn_board(&card);
  REQUIRE(s.rulings.set("ornithopter_hajr", "any_move", nullptr));
  const LocationId one = at_distance(s, kFlat, 1);
  const uint8_t hajr = give(s, kAtreides, TreacheryKind::Hajr);
  act(s, kAtreides, play(hajr));
  act(s, kAtreides, move(kFlat, 1, one));  // the turn's first movement, without the card
  REQUIRE(waiting(s, kAtreides));          // Hajr's movement
  act(s, kAtreides, orn_move(kFlat, 2, one, 2));  // the card with Hajr's movement: one more group
  CHECK(s.treachery_played.contains(card));
  REQUIRE(waiting(s, kAtreides));
  CHECK(rejected(s, kAtreides, move(one, 2, kFlat)).code == RejectCode::IllegalChoice);  // the arrivals of the card's first group
  act(s, kAtreides, move(kFlat, 2, one));  // the second group
  CHECK(s.forces_at(kAtreides, one, 0) == 5);
  CHECK(s.treachery_discard.top() == card);
  CHECK_FALSE((waiting(s, kAtreides) && s.shipmove.current == s.seat_of(kAtreides)));  // three movements: the turn is over
  check_custody(s);

  SECTION("the second group first, then Hajr's movement (which may move any group)") {
    GameState t = orn_board(&card);
    REQUIRE(t.rulings.set("ornithopter_hajr", "any_move", nullptr));
    const uint8_t h = give(t, kAtreides, TreacheryKind::Hajr);
    act(t, kAtreides, orn_move(kFlat, 2, one, 2));
    act(t, kAtreides, play(h));  // Hajr after the card's declaration
    act(t, kAtreides, move(kFlat, 1, one));  // the second group: Hajr's movement is still to come
    REQUIRE(waiting(t, kAtreides));
    CHECK(t.shipmove.current == t.seat_of(kAtreides));
    act(t, kAtreides, move(one, 3, kFlat));  // Hajr's: the same forces may move again
    CHECK(t.forces_at(kAtreides, kFlat, 0) == 5);
    check_custody(t);
  }
  SECTION("first_move_only (the default): Hajr is refused while the card's second group is pending") {
    GameState t = orn_board(&card);
    const uint8_t h = give(t, kAtreides, TreacheryKind::Hajr);
    act(t, kAtreides, orn_move(kFlat, 2, one, 2));
    CHECK(rejected(t, kAtreides, play(h)).code == RejectCode::IllegalChoice);
    CHECK(t.of(kAtreides).hand.contains(h));
  }
}

TEST_CASE("Ornithopter with advisors: the one-group mode refused, the two-group mode by ruling ornithopter_advisors",
          "[richese_cards][ornithopter][rulings]") {
  for (bool neither : {false, true}) {
    INFO(neither);
    Rulings r = Rulings::defaults();
    REQUIRE(r.is(RulingId::OrnithopterAdvisors, 1));  // neither, the default since rules version 7
    if (!neither) REQUIRE(r.set("ornithopter_advisors", "two_groups_only", nullptr));
    GameState s = cleared_board_of(game({kAtreides, Faction::BeneGesserit, kRichese}, true, 7, r, data::module_bit(data::Module::ChoamRichese)));
    place(s, Faction::BeneGesserit, kFlat, 0, 3);  // three advisors, not alone (they would flip, 2.02.16)
    place(s, kAtreides, kFlat, 1);
    place(s, Faction::BeneGesserit, kArrakeen, 2);  // fighters elsewhere
    const uint8_t card = from_cache(s, Faction::BeneGesserit, TreacheryKind::Ornithopter);
    pass_until_ship_or_move(s, Faction::BeneGesserit);
    while (s.step != 2 && waiting(s, Faction::BeneGesserit)) act(s, Faction::BeneGesserit, pass());
    REQUIRE(s.step == 2);
    REQUIRE(waiting(s, Faction::BeneGesserit));
    const LocationId one = [&] {
      for (int l = 0; l < data::kNumLocations; ++l) {
        const auto to = static_cast<LocationId>(l);
        if (data::crossing_distance(kFlat, to) == 1 && !s.in_storm(to) && !data::territory(data::territory_of(to)).stronghold) return to;
      }
      return kNone8;
    }();
    REQUIRE(one != kNone8);
    action::Move m1 = orn_move(kFlat, 0, one, 1);
    m1.from[0].special = 3;
    CHECK(rejected(s, Faction::BeneGesserit, m1).code == RejectCode::IllegalChoice);  // advisors never use ornithopters
    action::Move m2 = m1;
    m2.ornithopter = 2;
    if (neither) {
      CHECK(rejected(s, Faction::BeneGesserit, m2).code == RejectCode::IllegalChoice);
      CHECK(s.of(Faction::BeneGesserit).hand.contains(card));
    } else {
      act(s, Faction::BeneGesserit, m2);
      CHECK(s.treachery_played.contains(card));
      CHECK(s.forces_at(Faction::BeneGesserit, one, 0) + s.forces_at(Faction::BeneGesserit, one, 1) == 3);  // alone there: they flip (2.02.16)
      CHECK(s.forces_at(Faction::BeneGesserit, kFlat, 1) == 0);
    }
    check_custody(s);
  }
}

TEST_CASE("Juice of Sapho as the aggressor after the reveal: allowed until resolved, refused under ruling juice_aggressor_timing = before_reveal",
          "[richese_cards][juice][battle][rulings]") {
  for (bool before_reveal : {false, true}) {
    INFO(before_reveal);
    std::vector<uint8_t> c;
    GameState s = battle_of({}, &c);
    if (before_reveal) REQUIRE(s.rulings.set("juice_aggressor_timing", "before_reveal", nullptr));
    const Faction agg = s.faction_at(s.battle.aggressor), def = s.faction_at(s.battle.defender);
    const uint8_t j = from_cache(s, def, TreacheryKind::JuiceOfSapho);
    act(s, agg, plan(L(agg, 0), 1));
    act(s, def, plan(L(def, 0), 1));
    REQUIRE(rules::battle_plans_revealed(s));
    if (before_reveal) {
      CHECK(rejected(s, def, play(j, rules::kJuiceAggressor)).code == RejectCode::WrongPhase);
      CHECK(s.of(def).hand.contains(j));
    } else {
      act(s, def, play(j, rules::kJuiceAggressor));
      CHECK(s.treachery_discard.top() == j);
      CHECK(rules::juice_tie_side(s) == 1);
    }
    check_custody(s);
  }
}

namespace {
// Two battles, the storm order x0, x1, x2: x0-x1 in Arrakeen and, with `same`, x0-x1 in Carthag too (x0 the aggressor of
// both), else x1-x2 there. Seat order[to] (-1: none) gets the Richese card `kind` from the cache. The Battle phase is
// entered without confirming a waiting first battle.
GameState two_battles(bool same, int to, TreacheryKind kind) {
  const LocationId carthag = *data::find_location("Carthag");
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen, kRichese}, false, 7, Rulings::defaults(),
                                      data::module_bit(data::Module::ChoamRichese)));
  const auto order = rules::order_from_first(s);
  place(s, s.faction_at(order[0]), kArrakeen, 3);
  place(s, s.faction_at(order[1]), kArrakeen, 3);
  place(s, s.faction_at(order[1]), carthag, 3);
  place(s, s.faction_at(same ? order[0] : order[2]), carthag, 3);
  if (to >= 0) from_cache(s, s.faction_at(order[to]), kind);
  enter_battle_phase(s, false);
  return s;
}
}  // namespace

TEST_CASE("Juice of Sapho in the Battle phase: a single first battle waits for its aggressor while the card may be out, go first takes over",
          "[richese_cards][juice][battle]") {
  const LocationId carthag = *data::find_location("Carthag");
  // Two battles: x0 and x1 in Arrakeen, x1 and x2 in Carthag (x0, x1, x2 the storm order): x0 is the first aggressor with one battle.
  auto setup = [&](int richese_card) {  // 0: none out of the cache, 1: the Juice to x2, 2: another Richese card to x2
    return two_battles(false, richese_card == 0 ? -1 : 2, richese_card == 1 ? TreacheryKind::JuiceOfSapho : TreacheryKind::MirrorWeapon);
  };
  {
    GameState s = setup(0);  // every Richese card in the cache: nobody can hold the Juice, the battle begins
    CHECK(s.battle.territory == data::territory_of(kArrakeen));
  }
  for (int which : {1, 2}) {  // the same wait whether x2 holds the Juice or another card: public facts only
    INFO(which);
    GameState s = setup(which);
    const auto order = rules::order_from_first(s);
    CHECK(s.step == 0);
    CHECK(s.battle.territory == kNone8);
    CHECK(s.waiting == rules::bit(order[0]));
    check_projections(s);
    if (which == 2) {
      act(s, s.faction_at(order[0]), choose(data::territory_of(kArrakeen), s.faction_at(order[1])));
      CHECK(s.battle.territory == data::territory_of(kArrakeen));
      CHECK(s.battle.aggressor == order[0]);
      continue;
    }
    const Faction j = s.faction_at(order[2]);
    const uint8_t card = s.of(j).hand.ids[0];
    act(s, j, play(card, rules::kJuiceFirst));
    let_semuta_pass(s);
    CHECK(rules::order_from_first(s).front() == order[2]);
    CHECK(s.battle.territory == data::territory_of(carthag));  // its one battle begins at once: nothing left to wait for
    CHECK(s.battle.aggressor == order[2]);
    CHECK(s.treachery_discard.top() == card);
    check_custody(s);
  }
}

TEST_CASE("Juice of Sapho with the Guild: go last comes after the Guild's held turn", "[richese_cards][juice][shipment]") {
  GameState s = game({kAtreides, Faction::Guild, kRichese}, true, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
  play_until(s, Phase::ShipmentMovement, 1);
  let_semuta_pass(s);
  REQUIRE(s.phase == Phase::ShipmentMovement);
  REQUIRE(s.step == 3);  // the Guild is asked whether it goes now
  const auto order = storm_order(s);
  Seat j = kNoSeat, other = kNoSeat;  // the two non-Guild seats: j the first of them in storm order
  for (Seat x : order)
    if (s.faction_at(x) != Faction::Guild) (j == kNoSeat ? j : other) = x;
  const uint8_t card = from_cache(s, s.faction_at(j), TreacheryKind::JuiceOfSapho);
  // The Guild's timing is a step of its own (ruling ability_step_deals): the card waits for j's own untouched turn.
  CHECK(rejected(s, s.faction_at(j), play(card, rules::kJuiceLast)).code != RejectCode::Malformed);
  std::vector<Seat> turns;
  bool played = false;
  for (int guard = 0; s.phase == Phase::ShipmentMovement && guard < 40; ++guard) {
    if (s.step == 3) {  // the Guild waits every time it is asked
      act(s, Faction::Guild, pass());
      continue;
    }
    const Seat x = s.shipmove.current;
    if (x == j && !played) {
      act(s, s.faction_at(j), play(card, rules::kJuiceLast));
      let_semuta_pass(s);
      played = true;
      CHECK(s.shipmove.current != j);
      continue;
    }
    if (turns.empty() || turns.back() != x) turns.push_back(x);
    act(s, s.faction_at(x), pass());
  }
  CHECK(played);
  const std::vector<Seat> expected = {other, s.seat_of(Faction::Guild), j};
  CHECK(turns == expected);
  check_custody(s);
}

TEST_CASE("Ornithopter under a Karama window over its move: played as declared, back in hand when the move is cancelled",
          "[richese_cards][ornithopter][karama]") {
  GameState s = game({Faction::Fremen, kAtreides, kRichese}, false, 7, ruling("karama_windows", "all_other_seats"),
                     data::module_bit(data::Module::ChoamRichese));
  play_until(s, Phase::ShipmentMovement, 1);
  const uint8_t karama = give(s, kAtreides, TreacheryKind::Karama);
  const uint8_t card = from_cache(s, Faction::Fremen, TreacheryKind::Ornithopter);
  for (int i = 0; i < 80; ++i) {
    if (s.shipmove.current == s.seat_of(Faction::Fremen) && s.step == 2 && waiting(s, Faction::Fremen)) break;
    if (let_semuta_pass(s)) continue;
    act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), pass());
  }
  REQUIRE(s.step == 2);
  REQUIRE(waiting(s, Faction::Fremen));
  // A move of two territories (the Fremen's ability: its Karama window), with the card's two-group mode.
  GameState one = s;
  one.prevented[static_cast<int>(Faction::Fremen)] |= 1u << static_cast<int>(rules::Ability::FremenMovement);
  std::optional<action::Move> two;
  for (const auto& a : legal_actions(s, s.seat_of(Faction::Fremen))) {
    if (a.kind() != ActionKind::Move || a.as<action::Move>().ornithopter != 2) continue;
    const auto& m = a.as<action::Move>();  // forces left behind for a second group
    if (m.from.size() != 1 || m.from[0].forces + m.from[0].special >= s.forces_at(Faction::Fremen, m.from[0].location)) continue;
    if (!validate(s, s.seat_of(Faction::Fremen), a) && validate(one, one.seat_of(Faction::Fremen), a)) {
      two = a.as<action::Move>();
      break;
    }
  }
  REQUIRE(two.has_value());
  act(s, Faction::Fremen, *two);
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].kind == WindowKind::KaramaCancel);
  CHECK(s.treachery_played.contains(card));  // public from its declaration
  CHECK_FALSE(s.of(Faction::Fremen).hand.contains(card));
  check_custody(s);
  check_projections(s);
  SECTION("let through: the first group moves, the card stays in play for the second") {
    while (s.window_depth == 1) act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), respond(false));
    CHECK(s.shipmove.orn_to == two->to);
    CHECK(s.treachery_played.contains(card));
    REQUIRE(waiting(s, Faction::Fremen));
    act(s, Faction::Fremen, pass());  // no second group: the card is discarded once
    CHECK(s.treachery_discard.top() == card);
    CHECK(s.treachery_played.empty());
    check_custody(s);
  }
  SECTION("cancelled: nothing spent, the card back in the hand") {
    act(s, kAtreides, respond(true, karama));
    let_semuta_pass(s);
    CHECK(s.window_depth == 0);
    CHECK(s.of(Faction::Fremen).hand.contains(card));
    CHECK(s.treachery_played.empty());
    CHECK(s.shipmove.orn_to == kNone8);
    CHECK(waiting(s, Faction::Fremen));
    check_custody(s);
  }
}

TEST_CASE("Ornithopter in a stored room: between the two groups a new process resumes the second group, the card discarded once",
          "[richese_cards][ornithopter][store]") {
  namespace fs = std::filesystem;
  uint8_t card = kNone8;
  const GameState s = orn_board(&card);
  const LocationId next = at_distance(s, kFlat, 1);
  std::string json, err;
  REQUIRE(position::to_json(s, true, false, &json, &err));
  const fs::path dir = fs::temp_directory_path() / ("mentat-orn-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path pos = dir / "pos.json";
  std::ofstream(pos) << json;
  const std::string data = "--data " + (dir / "store").string();
  auto r = testrun::run_mentat(data + " new --position " + pos.string() + " --room orn1");
  INFO(r.out);
  REQUIRE(r.code == 0);
  const std::string first = " act orn1 '{\"action_type\":\"Move\",\"action\":{\"from\":[{\"location\":\"The Great Flat\",\"forces\":2}],\"to\":" +
                            std::to_string(next) + ",\"ornithopter\":2}}' --seat atreides --expect head";
  r = testrun::run_mentat(data + first);
  INFO(r.out);
  REQUIRE(r.code == 0);
  // A new process: the second group is pending, the arrivals are kept apart, the card is in play.
  r = testrun::run_mentat(data + first);  // the card's use is under way: not a second declaration
  CHECK(r.code != 0);
  const std::string back = " act orn1 '{\"action_type\":\"Move\",\"action\":{\"from\":[{\"location\":" + std::to_string(next) +
                           ",\"forces\":1}],\"to\":\"The Great Flat\"}}' --seat atreides --expect head";
  r = testrun::run_mentat(data + back);  // an arrival of the first group: refused, nothing changes
  CHECK(r.code != 0);
  const std::string second = " act orn1 '{\"action_type\":\"Move\",\"action\":{\"from\":[{\"location\":\"The Great Flat\",\"forces\":3}],\"to\":" +
                             std::to_string(next) + "}}' --seat atreides --expect head";
  r = testrun::run_mentat(data + second);
  INFO(r.out);
  REQUIRE(r.code == 0);
  r = testrun::run_mentat(data + " log orn1");
  INFO(r.out);
  CHECK_THAT(r.out, Catch::Contains("Ornithopter #" + std::to_string(card) + ": played -> treachery_discard"));
  CHECK(r.out.find("treachery_discard") == r.out.rfind("treachery_discard"));  // discarded once
  r = testrun::run_mentat(data + " verify orn1");
  INFO(r.out);
  CHECK(r.code == 0);
  fs::remove_all(dir);
}

TEST_CASE("Bots take a card with the Semuta Drug only when it is worth more than the Drug", "[richese_cards][semuta][bots]") {
  for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    {  // a weapon the loser of a battle discards: taken
      std::vector<uint8_t> c;
      GameState s = battle_of({{kHarkonnen, TreacheryKind::Crysknife}}, &c);
      from_cache(s, kRichese, TreacheryKind::SemutaDrug);
      act(s, kAtreides, plan(L(kAtreides, 0), 5));
      act(s, kHarkonnen, plan(L(kHarkonnen, 4), 0, c[0]));  // its weakest leader (1): the Harkonnen lose, the Crysknife discarded
      decline_traitors(s);
      keep_all(s);
      REQUIRE(s.window_depth > 0);
      REQUIRE(s.windows[s.window_depth - 1].kind == WindowKind::SemutaTake);
      REQUIRE(waiting(s, kRichese));
      const Action a = bots::make_bot(profile, 3)->choose(bots::make_input(s, s.seat_of(kRichese)));
      REQUIRE(a.kind() == ActionKind::Respond);
      CHECK(a.as<action::Respond>().accept);
      CHECK(a.as<action::Respond>().card == c[0]);
    }
    {  // a Truthtrance (worth 2 to the bots): let pass
      GameState s = cards_game({kRichese, kAtreides, kHarkonnen});
      from_cache(s, kHarkonnen, TreacheryKind::SemutaDrug);
      const uint8_t tt = give_another(s, kAtreides, TreacheryKind::Truthtrance);
      act(s, kAtreides, spice_question(tt, kHarkonnen));
      REQUIRE(waiting(s, kHarkonnen));
      const Action a = bots::make_bot(profile, 3)->choose(bots::make_input(s, s.seat_of(kHarkonnen)));
      REQUIRE(a.kind() == ActionKind::Respond);
      CHECK_FALSE(a.as<action::Respond>().accept);
    }
  }
}

TEST_CASE("Ornithopter with CHOAM's Kulon: four territories under ruling kulon_ornithopter = plus_one, three under cap_three and card_cap_three",
          "[richese_cards][ornithopter][choam][rulings]") {
  for (const char* reading : {"plus_one", "cap_three", "card_cap_three"}) {
    INFO(reading);
    const bool cap = std::string(reading) != "plus_one";
    Rulings r = ruling("kulon_ornithopter", reading);
    GameState s = cleared_board_of(game({Faction::Choam, kHarkonnen, kRichese}, false, 7, r, data::module_bit(data::Module::ChoamRichese)));
    place(s, Faction::Choam, kFlat, 3);
    const uint8_t card = from_cache(s, Faction::Choam, TreacheryKind::Ornithopter);
    const uint8_t kulon = give(s, Faction::Choam, TreacheryKind::Kulon);
    pass_until_ship_or_move(s, Faction::Choam);
    if (s.step == 0) act(s, Faction::Choam, pass());
    REQUIRE(s.step == 2);
    REQUIRE(waiting(s, Faction::Choam));
    act(s, Faction::Choam, action::ChoamCard{.card = kulon});
    LocationId four = kNone8;
    for (int l = 0; l < data::kNumLocations && four == kNone8; ++l) {
      const auto to = static_cast<LocationId>(l);
      if (data::crossing_distance(kFlat, to) != 4 || s.in_storm(to) || data::territory(data::territory_of(to)).stronghold) continue;
      GameState t = s;
      t.rulings = ruling("kulon_ornithopter", "plus_one");  // a route of four exists
      if (!rules::ship::check_move(t, Faction::Choam, orn_move(kFlat, 1, to, 1))) four = to;
    }
    REQUIRE(four != kNone8);
    if (cap) {
      CHECK(rejected(s, Faction::Choam, orn_move(kFlat, 1, four, 1)).code == RejectCode::IllegalChoice);
    } else {
      act(s, Faction::Choam, orn_move(kFlat, 1, four, 1));
      CHECK(s.forces_at(Faction::Choam, four, 0) == 1);
      CHECK(s.treachery_discard.contains(card));
    }
    check_custody(s);
  }
}

TEST_CASE("The Richese Karama cannot cancel another faction's special Karama power: no window is offered over the Harkonnen's",
          "[richese_cards][karama]") {
  GameState s = game({kHarkonnen, kAtreides, kRichese}, true, 7, ruling("karama_windows", "all_other_seats"),
                     data::module_bit(data::Module::ChoamRichese));
  play_until(s, Phase::Bidding, 1);
  const uint8_t karama = give_another(s, kHarkonnen, TreacheryKind::Karama);
  give_another(s, kAtreides, TreacheryKind::Lasgun);
  const uint8_t richese_karama = from_cache(s, kRichese, TreacheryKind::Karama);
  REQUIRE(data::treachery_card(richese_karama).set == data::CardSet::Richese);
  act(s, kHarkonnen, play(karama, 0, static_cast<uint8_t>(kAtreides)));
  CHECK(s.of(kHarkonnen).karama_power_used == 1);
  bool give_back = false;
  for (int i = 0; i < s.window_depth; ++i) {
    CHECK(s.windows[i].kind != WindowKind::KaramaCancel);  // the power is not an ability a Karama reaches
    give_back |= s.windows[i].kind == WindowKind::KaramaGiveBack;
  }
  CHECK(give_back);
  CHECK(s.of(kRichese).hand.contains(richese_karama));
  check_custody(s);
}

TEST_CASE("Ornithopter two groups: an intrusion answered between the groups keeps the second group, arrivals merged into a stack stay apart",
          "[richese_cards][ornithopter]") {
  GameState s = cleared_board_of(game({kAtreides, Faction::BeneGesserit, kRichese}, true, 7, Rulings::defaults(),
                                      data::module_bit(data::Module::ChoamRichese)));
  place(s, kAtreides, kFlat, 5);
  LocationId next = kNone8;
  for (int l = 0; l < data::kNumLocations && next == kNone8; ++l) {
    const auto to = static_cast<LocationId>(l);
    if (data::crossing_distance(kFlat, to) == 1 && !s.in_storm(to) && !data::territory(data::territory_of(to)).stronghold) next = to;
  }
  REQUIRE(next != kNone8);
  place(s, kAtreides, next, 2);               // a stack already there
  place(s, Faction::BeneGesserit, next, 1);   // Bene Gesserit fighters: an intrusion (2.02.15)
  const uint8_t card = from_cache(s, kAtreides, TreacheryKind::Ornithopter);
  pass_until_ship_or_move(s, kAtreides);
  if (s.step == 0) act(s, kAtreides, pass());
  for (int i = 0; i < 6 && !(s.step == 2 && waiting(s, kAtreides)); ++i)  // the Bene Gesserit's own questions after a shipment pass
    act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), pass());
  REQUIRE(s.step == 2);
  REQUIRE(waiting(s, kAtreides));
  act(s, kAtreides, orn_move(kFlat, 2, next, 2));
  REQUIRE(s.shipmove.orn_to == next);
  CHECK(s.shipmove.orn_arrived[0] == 2);
  REQUIRE(waiting(s, Faction::BeneGesserit));  // the intrusion question first
  act(s, Faction::BeneGesserit, pass());
  REQUIRE(waiting(s, kAtreides));  // the second group's entitlement survived the response
  CHECK(s.shipmove.current == s.seat_of(kAtreides));
  CHECK(s.treachery_played.contains(card));
  CHECK(s.forces_at(kAtreides, next, 0) == 4);
  CHECK(rejected(s, kAtreides, move(next, 3, kFlat)).code == RejectCode::IllegalChoice);  // 3 > the 2 that were there before
  act(s, kAtreides, move(next, 2, kFlat));  // the old stack may be the second group
  CHECK(s.forces_at(kAtreides, next, 0) == 2);
  CHECK(s.forces_at(kAtreides, kFlat, 0) == 5);
  CHECK(s.treachery_discard.top() == card);
  check_custody(s);
}

TEST_CASE("Ornithopter one group: the storm still stops it", "[richese_cards][ornithopter]") {
  uint8_t card = kNone8;
  GameState s = orn_board(&card);
  LocationId stormy = kNone8;  // a place within three territories under the storm (sector 17)
  for (int l = 0; l < data::kNumLocations && stormy == kNone8; ++l) {
    const auto to = static_cast<LocationId>(l);
    if (data::crossing_distance(kFlat, to) <= 3 && s.in_storm(to)) stormy = to;
  }
  if (stormy == kNone8) {
    SUCCEED("no place under the storm within three territories of The Great Flat");
    return;
  }
  CHECK(rejected(s, kAtreides, orn_move(kFlat, 1, stormy, 1)).code == RejectCode::Storm);
  CHECK(s.of(kAtreides).hand.contains(card));
}

TEST_CASE("Bots fly the Ornithopter's one group to an empty stronghold beyond their normal range", "[richese_cards][ornithopter][bots]") {
  for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    uint8_t card = kNone8;
    GameState s = orn_board(&card);  // five forces on The Great Flat, no ornithopters of their own, every stronghold empty
    const Action a = bots::make_bot(profile, 3)->choose(bots::make_input(s, s.seat_of(kAtreides)));
    REQUIRE(a.kind() == ActionKind::Move);
    const auto& m = a.as<action::Move>();
    CHECK(m.ornithopter == 1);
    CHECK(data::crossing_distance(kFlat, m.to) > 1);  // beyond the range without the card
    CHECK(data::territory(data::territory_of(m.to)).stronghold);
    CHECK_FALSE(validate(s, s.seat_of(kAtreides), a).has_value());
    {  // without the card: no such flight
      GameState t = s;
      REQUIRE(t.of(kAtreides).hand.remove(card));
      t.treachery_discard.push(card);
      const Action b = bots::make_bot(profile, 3)->choose(bots::make_input(t, t.seat_of(kAtreides)));
      if (b.kind() == ActionKind::Move) {
        CHECK(b.as<action::Move>().ornithopter == 0);
        CHECK(data::crossing_distance(kFlat, b.as<action::Move>().to) <= 1);
      }
    }
  }
}

TEST_CASE("Bots plan the Mirror Weapon against an opponent that may hold a weapon, and hard and brutal keep it against an empty hand",
          "[richese_cards][mirror][bots]") {
  for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    for (bool opp_cards : {true, false}) {
      INFO(opp_cards);
      std::vector<uint8_t> c;
      GameState s = opp_cards ? battle_of({{kAtreides, TreacheryKind::MirrorWeapon}, {kHarkonnen, TreacheryKind::Crysknife}}, &c)
                              : battle_of({{kAtreides, TreacheryKind::MirrorWeapon}}, &c);
      const Action a = bots::make_bot(profile, 3)->choose(bots::make_input(s, s.seat_of(kAtreides)));
      REQUIRE(a.kind() == ActionKind::BattlePlan);
      CHECK_FALSE(validate(s, s.seat_of(kAtreides), a).has_value());
      const bool mirror = a.as<action::BattlePlan>().weapon == c[0];
      if (opp_cards) CHECK(mirror);  // (the Crysknife is not in the bot's view: only that the Harkonnen hold a card)
      else if (profile != bots::Profile::Medium) CHECK_FALSE(mirror);  // nothing to copy: an empty hand holds no weapon
    }
  }
}

TEST_CASE("Juice of Sapho in the Battle phase after its first battle: no go first, no second wait, the aggressor choice ends with its battle",
          "[richese_cards][juice][battle]") {
  const LocationId carthag = *data::find_location("Carthag");
  auto setup = [&](bool same, int juice_to) { return two_battles(same, juice_to, TreacheryKind::JuiceOfSapho); };
  auto fight = [&](GameState& s) {
    no_abilities(s);
    const Faction a = s.faction_at(s.battle.aggressor), d = s.faction_at(s.battle.defender);
    act(s, a, plan(L(a, 0), 3));
    act(s, d, plan(L(d, 1), 0));
    decline_traitors(s);
    keep_all(s);
    let_semuta_pass(s);
  };
  SECTION("the second aggressor's single battle begins at once, and go first is refused") {
    GameState s = setup(false, 2);
    const auto order = rules::order_from_first(s);
    REQUIRE(s.battle.territory == kNone8);  // the first battle waits for its confirmation
    act(s, s.faction_at(order[0]), choose(data::territory_of(kArrakeen), s.faction_at(order[1])));
    fight(s);
    REQUIRE(s.phase == Phase::Battle);
    CHECK(s.battle.fought == 2);  // battles begun this phase: kept across the first one's end
    CHECK(s.battle.territory == data::territory_of(carthag));  // no wait: the phase's first battle is over
    CHECK(s.battle.aggressor == order[1]);
    const Faction j = s.faction_at(order[2]);
    CHECK(rejected(s, j, play(s.of(j).hand.ids[0], rules::kJuiceFirst)).code == RejectCode::WrongPhase);
  }
  SECTION("the defender's aggressor choice counts for its battle only") {
    GameState s = setup(true, 1);
    const auto order = rules::order_from_first(s);
    REQUIRE(s.step == 0);
    REQUIRE(s.waiting == rules::bit(order[0]));  // two battles to choose from
    act(s, s.faction_at(order[0]), choose(data::territory_of(kArrakeen), s.faction_at(order[1])));
    const Faction d = s.faction_at(order[1]);
    no_abilities(s);
    act(s, d, play(s.of(d).hand.ids[0], rules::kJuiceAggressor));
    let_semuta_pass(s);
    CHECK(rules::juice_tie_side(s) == 1);
    fight(s);
    REQUIRE(s.phase == Phase::Battle);
    REQUIRE(s.battle.territory == data::territory_of(carthag));
    CHECK(rules::juice_tie_side(s) == 0);  // not in the next battle
  }
  SECTION("the aggressor choosing its battle may go last: the next seat takes its turn") {
    GameState s = setup(true, 0);
    const auto order = rules::order_from_first(s);
    REQUIRE(s.waiting == rules::bit(order[0]));
    const Faction j = s.faction_at(order[0]);
    act(s, j, play(s.of(j).hand.ids[0], rules::kJuiceLast));
    let_semuta_pass(s);
    CHECK(rules::order_from_first(s).back() == order[0]);
    CHECK(s.battle.aggressor != order[0]);  // order[1] fights x0 in both territories as the aggressor now
    CHECK(s.battle.aggressor == order[1]);
    check_custody(s);
  }
}

TEST_CASE("Nullentropy Box searched again (the Semuta Drug took it back): the new searcher sees the hidden rest, nobody else does",
          "[richese_cards][box][projection]") {
  uint8_t box = kNone8;
  std::vector<uint8_t> pile;
  GameState s = box_game(&box, &pile);
  set_spice(s, kHarkonnen, 5);
  act(s, kAtreides, play(box));
  act(s, kAtreides, respond(true, pile[0]));
  let_semuta_pass(s);
  REQUIRE(s.treachery_discard_hidden > 0);
  REQUIRE(s.treachery_discard.top() == box);
  // The Harkonnen get the Box (as a Semuta Drug would take it) and search: the hidden rest is among their options.
  REQUIRE(s.treachery_discard.remove(box));
  s.of(kHarkonnen).hand.push(box);
  const uint8_t hidden_card = s.treachery_discard.ids[0];
  act(s, kHarkonnen, play(box));
  REQUIRE(s.window_depth > 0);
  const auto options = respond_options(s, kHarkonnen);
  CHECK(std::find(options.begin(), options.end(), hidden_card) != options.end());
  CHECK(respond_options(s, kAtreides).empty());
  check_projections(s);  // the searcher's view may show the rest; the others' may not
  check_custody(s);
}

TEST_CASE("Residual Poison after a Prescience answer: a plan left without a leader keeps no binding to the answered card",
          "[richese_cards][residual][prescience][battle]") {
  namespace ab = rules::ability;
  GameState s = arrakeen_board();
  for (int i = 1; i < 5; ++i) s.leaders[L(kHarkonnen, i)].zone = LeaderZone::Tanks;  // one Harkonnen leader left
  const uint8_t knife = give_another(s, kHarkonnen, TreacheryKind::Crysknife);
  const uint8_t poison = from_cache(s, kAtreides, TreacheryKind::ResidualPoison);
  battle_asking_weapon(s);
  action::PrescienceAnswer answer;
  answer.value = knife;
  act(s, kHarkonnen, answer);
  CHECK(rejected(s, kHarkonnen, plan(L(kHarkonnen, 0), 1)).code == RejectCode::IllegalChoice);  // bound to the Crysknife
  act(s, kAtreides, play(poison));
  let_semuta_pass(s);
  CHECK(s.leaders[L(kHarkonnen, 0)].zone == LeaderZone::Tanks);
  // No leader, no Cheap Hero: no card may be played (1.07.04.06), so the answer binds nothing; a plan exists.
  CHECK_FALSE(legal_actions(s, s.seat_of(kHarkonnen)).empty());
  act(s, kHarkonnen, plan(kNone8, 2));
  check_custody(s);
}
