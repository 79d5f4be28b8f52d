// Scenario tests of the Spice Blow phase (1.02), the advanced double spice
// blow (1.13.02-1.13.03) and the Fremen abilities that act in it (2.04.07,
// 2.04.10, 2.04.15).
//
// Each scenario stops in the Storm phase of turn 1 (waiting for the storm
// dials), sets the turn, stacks the spice deck and the discard piles (every
// card moved between piles), places forces (from reserves) and spice (from
// the bank), then dials the storm: the spice blow runs inside that apply.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/rules/rules.h"
#include "support/scenario.h"

using namespace scenario;

namespace {

// Spice card ids (core/data/components.cpp).
constexpr uint8_t kBrokenLand = 0;        // Broken Land (West Sector), 8
constexpr uint8_t kCielagoNorth = 1;      // Cielago North (East Sector), 8
constexpr uint8_t kFuneralPlain = 3;      // Funeral Plain, 6
constexpr uint8_t kHabbanyaErg = 4;       // Habbanya Erg (West Sector), 8
constexpr uint8_t kHabbanyaRidge = 5;     // Habbanya Ridge Flat (East Sector), 10
constexpr uint8_t kRedChasm = 8;          // Red Chasm, 8
constexpr uint8_t kGreatFlat = 12;        // The Great Flat, 10
constexpr uint8_t kWorm1 = 15, kWorm2 = 16, kWorm3 = 17;

void put_spice(GameState& s, LocationId l, int n) { transfer_spice(s, bank(), board(l), n); }

// The storm phase of turn 1, waiting for the dials; `turn` replaces the turn
// number (2: the storm dials are 1..3). The storm starts at sector 4 so that
// dials of 1 and 1 end it on sector 6 (Red Chasm), far from the scenarios.
GameState at_storm(std::initializer_list<Faction> factions, bool advanced = false, int turn = 2,
                   Rulings rulings = Rulings::defaults()) {
  GameState s = game(factions, advanced, 7, rulings);
  play_until(s, Phase::Storm);
  REQUIRE(s.turn == 1);
  s.turn = static_cast<uint8_t>(turn);
  if (turn > 1) s.storm_sector = 4;
  return s;
}

// Dials the storm (both dialers), which runs the spice blow.
void blow(GameState& s, int d1 = 1, int d2 = 1) {
  REQUIRE(s.phase == Phase::Storm);
  const Seat a = static_cast<Seat>(s.storm_dialers[0]), b = static_cast<Seat>(s.storm_dialers[1]);
  act(s, s.faction_at(a), dial(d1));
  act(s, s.faction_at(b), dial(d2));
}

uint8_t bit_of(const GameState& s, Faction f) { return static_cast<uint8_t>(1u << s.seat_of(f)); }

Action worm_to(LocationId l) {
  action::WormRide a;
  a.to = l;
  return a;
}

const auto kBasic = {Faction::Atreides, Faction::BeneGesserit, Faction::Harkonnen};
const auto kWithFremen = {Faction::Atreides, Faction::BeneGesserit, Faction::Fremen, Faction::Harkonnen};

}  // namespace

TEST_CASE("1.02.01 1.02.04 territory card: spice from the bank onto its location, card discarded", "[spice_blow]") {
  GameState s = at_storm(kBasic);
  stack_spice_deck(s, {kBrokenLand});
  const int deck_before = s.spice_deck.n;
  const int64_t bank_before = s.bank;
  const LocationId bl = loc("Broken Land (West Sector)");
  blow(s);
  CHECK(s.storm_sector == 6);
  CHECK(s.spice_on_board[bl] == 8);
  CHECK(s.bank == bank_before - 8);
  CHECK(s.spice_deck.n == deck_before - 1);
  REQUIRE(s.spice_discard[0].n == 1);
  CHECK(s.spice_discard[0].top() == kBrokenLand);
  CHECK(s.spice_discard[1].n == 0);  // basic game: one pile
  // 1.02.06: no Shai-Hulud, no Nexus.
  CHECK(s.phase == Phase::Charity);
  CHECK(s.nexus_pending == 0);
}

TEST_CASE("1.02.04 territory card in storm: no spice is placed", "[spice_blow]") {
  GameState s = at_storm(kBasic);
  stack_spice_deck(s, {kRedChasm});
  const int64_t bank_before = s.bank;
  blow(s);
  REQUIRE(s.storm_sector == 6);
  CHECK(s.in_storm(loc("Red Chasm")));
  CHECK(s.spice_on_board[loc("Red Chasm")] == 0);
  CHECK(s.bank == bank_before);
  CHECK(s.spice_discard[0].top() == kRedChasm);  // discarded all the same
  CHECK(s.phase == Phase::Charity);
}

TEST_CASE("1.02.05 Shai-Hulud devours spice and forces in the territory of the topmost territory card", "[spice_blow]") {
  GameState s = at_storm(kBasic);
  const LocationId ble = loc("Broken Land (East Sector)"), blw = loc("Broken Land (West Sector)");
  const LocationId fp = loc("Funeral Plain");
  discard_spice_onto(s, 0, {kGreatFlat, kBrokenLand});  // Broken Land is the topmost territory card
  put_spice(s, ble, 5);
  put_spice(s, blw, 3);
  place(s, Faction::Atreides, ble, 3);
  place(s, Faction::Harkonnen, blw, 2);
  place(s, Faction::BeneGesserit, fp, 4);  // where the next territory card blows: untouched
  const LocationId gf = loc("The Great Flat");
  place(s, Faction::Harkonnen, gf, 1);  // under an older territory card: untouched
  stack_spice_deck(s, {kWorm1, kFuneralPlain});
  const int64_t bank_before = s.bank;
  blow(s);
  CHECK(s.spice_on_board[ble] == 0);
  CHECK(s.spice_on_board[blw] == 0);
  CHECK(s.forces_in_location(Faction::Atreides, ble) == 0);
  CHECK(s.forces_in_location(Faction::Harkonnen, blw) == 0);
  CHECK(s.of(Faction::Atreides).tanks[0] == 3);
  CHECK(s.of(Faction::Harkonnen).tanks[0] == 2);
  CHECK(s.forces_in_location(Faction::Harkonnen, gf) == 1);
  CHECK(s.forces_in_location(Faction::BeneGesserit, fp) == 4);
  // Continued to a territory card, which blew normally.
  CHECK(s.spice_on_board[fp] == 6);
  CHECK(s.bank == bank_before + 8 - 6);
  const auto& a = s.spice_discard[0];
  REQUIRE(a.n == 4);
  CHECK(a.ids[2] == kWorm1);
  CHECK(a.ids[3] == kFuneralPlain);
  // 1.02.06: a Nexus follows.
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("1.02.05 several Shai-Hulud in a row: revealing continues until a territory card", "[spice_blow]") {
  GameState s = at_storm(kBasic);
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)");
  place(s, Faction::Atreides, blw, 2, 0);
  stack_spice_deck(s, {kWorm1, kWorm2, kWorm3, kHabbanyaErg});
  const int deck_before = s.spice_deck.n;
  blow(s);
  CHECK(s.spice_deck.n == deck_before - 4);
  const auto& a = s.spice_discard[0];
  REQUIRE(a.n == 5);
  CHECK(a.ids[1] == kWorm1);
  CHECK(a.ids[2] == kWorm2);
  CHECK(a.ids[3] == kWorm3);
  CHECK(a.top() == kHabbanyaErg);
  CHECK(s.of(Faction::Atreides).tanks[0] == 2);
  CHECK(s.spice_on_board[loc("Habbanya Erg (West Sector)")] == 8);
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("1.02.05 Shai-Hulud with no territory card in the discard pile devours nothing", "[spice_blow]") {
  GameState s = at_storm(kBasic);
  const LocationId blw = loc("Broken Land (West Sector)");
  place(s, Faction::Atreides, blw, 2);
  stack_spice_deck(s, {kWorm1, kFuneralPlain});
  blow(s);
  CHECK(s.forces_in_location(Faction::Atreides, blw) == 2);
  CHECK(s.spice_discard[0].n == 2);
  CHECK(s.spice_on_board[loc("Funeral Plain")] == 6);
  CHECK(s.phase == Phase::Nexus);  // the worm still causes a Nexus (1.02.06)
}

TEST_CASE("1.02.02 1.02.03 turn 1: Shai-Hulud set aside and shuffled back, no Nexus", "[spice_blow]") {
  GameState s = at_storm(kBasic, false, 1);
  stack_spice_deck(s, {kWorm1, kWorm2, kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)");
  blow(s, 0, 0);
  CHECK(s.storm_sector == 0);
  REQUIRE(s.spice_discard[0].n == 1);
  CHECK(s.spice_discard[0].top() == kBrokenLand);
  CHECK(s.spice_on_board[blw] == 8);
  CHECK(s.spice_set_aside.n == 0);
  CHECK(s.spice_deck.n == data::kNumSpiceCards - 1);
  CHECK(s.spice_deck.contains(kWorm1));
  CHECK(s.spice_deck.contains(kWorm2));
  CHECK(s.nexus_pending == 0);
  CHECK(s.phase == Phase::Charity);
}

TEST_CASE("1.02.02 turn 1 Shai-Hulud devour nothing", "[spice_blow]") {
  GameState s = at_storm(kBasic, false, 1);
  // Even with a territory card already discarded (impossible in play, but it
  // shows the worm is ignored rather than resolved).
  discard_spice_onto(s, 0, {kFuneralPlain});
  const LocationId fp = loc("Funeral Plain");
  place(s, Faction::Atreides, fp, 3);
  stack_spice_deck(s, {kWorm1, kBrokenLand});
  blow(s, 0, 0);
  CHECK(s.forces_in_location(Faction::Atreides, fp) == 3);
  CHECK(s.phase == Phase::Charity);
}

TEST_CASE("1.02.01 empty deck: the discard pile is reshuffled into the deck (basic game)", "[spice_blow]") {
  GameState s = at_storm(kBasic);
  // Deck: only a Shai-Hulud; the discard pile holds every other card, Broken
  // Land on top.
  std::vector<uint8_t> rest;
  for (uint8_t id = 0; id < data::kNumSpiceCards; ++id)
    if (id != kWorm1 && id != kBrokenLand) rest.push_back(id);
  rest.push_back(kBrokenLand);
  discard_spice_onto(s, 0, rest);
  REQUIRE(s.spice_deck.n == 1);
  const LocationId blw = loc("Broken Land (West Sector)");
  place(s, Faction::Harkonnen, blw, 4);
  blow(s);
  // The worm devoured under Broken Land, then the deck ran out and every
  // discarded card went back into the deck.
  CHECK(s.of(Faction::Harkonnen).tanks[0] == 4);
  const auto& a = s.spice_discard[0];
  REQUIRE(a.n >= 1);
  CHECK_FALSE(data::spice_card(a.top()).shai_hulud);
  for (int i = 0; i + 1 < a.n; ++i) CHECK(data::spice_card(a.ids[i]).shai_hulud);
  CHECK(s.spice_deck.n == data::kNumSpiceCards - a.n);
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("1.13.02 double spice blow: pile A then pile B", "[spice_blow]") {
  GameState s = at_storm(kBasic, true);
  stack_spice_deck(s, {kBrokenLand, kFuneralPlain});
  const int64_t bank_before = s.bank;
  blow(s);
  REQUIRE(s.spice_discard[0].n == 1);
  REQUIRE(s.spice_discard[1].n == 1);
  CHECK(s.spice_discard[0].top() == kBrokenLand);
  CHECK(s.spice_discard[1].top() == kFuneralPlain);
  CHECK(s.spice_on_board[loc("Broken Land (West Sector)")] == 8);
  CHECK(s.spice_on_board[loc("Funeral Plain")] == 6);
  CHECK(s.bank == bank_before - 14);
  CHECK(s.phase == Phase::Charity);
}

TEST_CASE("1.13.02 a Shai-Hulud in pile B devours under pile B's topmost territory card", "[spice_blow]") {
  GameState s = at_storm(kBasic, true);
  discard_spice_onto(s, 0, {kBrokenLand});
  discard_spice_onto(s, 1, {kFuneralPlain});
  const LocationId blw = loc("Broken Land (West Sector)"), fp = loc("Funeral Plain");
  place(s, Faction::Atreides, blw, 3);
  place(s, Faction::Harkonnen, fp, 2);
  put_spice(s, fp, 4);
  stack_spice_deck(s, {kHabbanyaErg, kWorm1, kHabbanyaRidge});
  blow(s);
  CHECK(s.forces_in_location(Faction::Atreides, blw) == 3);  // pile A had no worm
  CHECK(s.forces_in_location(Faction::Harkonnen, fp) == 0);
  CHECK(s.of(Faction::Harkonnen).tanks[0] == 2);
  CHECK(s.spice_on_board[fp] == 0);
  const auto& b = s.spice_discard[1];
  REQUIRE(b.n == 3);
  CHECK(b.ids[1] == kWorm1);
  CHECK(b.top() == kHabbanyaRidge);
  CHECK(s.spice_discard[0].top() == kHabbanyaErg);
  CHECK(s.spice_on_board[loc("Habbanya Ridge Flat (East Sector)")] == 10);
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("1.13.02 a Shai-Hulud in pile A devours under pile A's topmost territory card", "[spice_blow]") {
  GameState s = at_storm(kBasic, true);
  discard_spice_onto(s, 0, {kBrokenLand});
  discard_spice_onto(s, 1, {kFuneralPlain});
  const LocationId blw = loc("Broken Land (West Sector)"), fp = loc("Funeral Plain");
  place(s, Faction::Atreides, blw, 3);
  place(s, Faction::Harkonnen, fp, 2);
  stack_spice_deck(s, {kWorm1, kHabbanyaErg, kHabbanyaRidge});
  blow(s);
  CHECK(s.forces_in_location(Faction::Atreides, blw) == 0);
  CHECK(s.of(Faction::Atreides).tanks[0] == 3);
  CHECK(s.forces_in_location(Faction::Harkonnen, fp) == 2);
  CHECK(s.spice_discard[0].n == 3);
  CHECK(s.spice_discard[1].top() == kHabbanyaRidge);
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("1.13.03 reshuffle: pile A keeps its topmost territory card, pile B goes back whole", "[spice_blow]") {
  GameState s = at_storm(kBasic, true);
  // Deck: one Shai-Hulud. Pile A: ..., Cielago North, Broken Land (top).
  // Pile B: everything else.
  discard_spice_onto(s, 0, {kRedChasm, kWorm2, kCielagoNorth, kBrokenLand});
  std::vector<uint8_t> rest;
  for (uint8_t id = 0; id < data::kNumSpiceCards; ++id)
    if (!s.spice_discard[0].contains(id) && id != kWorm1) rest.push_back(id);
  discard_spice_onto(s, 1, rest);
  REQUIRE(s.spice_deck.n == 1);
  blow(s);
  const auto& a = s.spice_discard[0];
  const auto& b = s.spice_discard[1];
  // Pile A: Broken Land and the worm on it stayed; the cards under it were
  // shuffled in; then the blow continued to a territory card.
  REQUIRE(a.n >= 3);
  CHECK(a.ids[0] == kBrokenLand);
  CHECK(a.ids[1] == kWorm1);
  CHECK_FALSE(data::spice_card(a.top()).shai_hulud);
  for (int i = 2; i + 1 < a.n; ++i) CHECK(data::spice_card(a.ids[i]).shai_hulud);
  // Pile B holds only this phase's cards.
  REQUIRE(b.n >= 1);
  CHECK_FALSE(data::spice_card(b.top()).shai_hulud);
  for (int i = 0; i + 1 < b.n; ++i) CHECK(data::spice_card(b.ids[i]).shai_hulud);
  CHECK(s.spice_deck.n + a.n + b.n == data::kNumSpiceCards);
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("2.04.07 Fremen forces are not devoured", "[spice_blow]") {
  GameState s = at_storm(kWithFremen);
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)");
  place(s, Faction::Fremen, blw, 4, 1);
  place(s, Faction::Atreides, blw, 2);
  put_spice(s, blw, 5);
  stack_spice_deck(s, {kWorm1, kFuneralPlain});
  blow(s);
  CHECK(s.forces_at(Faction::Fremen, blw, 0) == 4);
  CHECK(s.forces_at(Faction::Fremen, blw, 1) == 1);
  CHECK(s.of(Faction::Fremen).tanks[0] == 0);
  CHECK(s.forces_in_location(Faction::Atreides, blw) == 0);
  CHECK(s.spice_on_board[blw] == 0);  // the spice is devoured all the same
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("2.04.10 1.10.02.08 the Fremen protect their ally from the sandworm", "[spice_blow]") {
  GameState s = at_storm(kWithFremen);
  ally(s, Faction::Fremen, Faction::Atreides);
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)"), ble = loc("Broken Land (East Sector)");
  place(s, Faction::Atreides, blw, 3);
  place(s, Faction::Harkonnen, ble, 2);
  stack_spice_deck(s, {kWorm1, kFuneralPlain});
  blow(s);
  // The blow waits for the Fremen's answer.
  REQUIRE(s.phase == Phase::SpiceBlow);
  REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
  check_legal(s);
  auto ds = decisions(s, seat(s, Faction::Fremen));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].kind == ActionKind::Respond);
  CHECK(s.spice_on_board[loc("Funeral Plain")] == 0);  // not yet revealed

  SECTION("protected") {
    act(s, Faction::Fremen, respond(true));
    CHECK(s.forces_in_location(Faction::Atreides, blw) == 3);
    CHECK(s.forces_in_location(Faction::Harkonnen, ble) == 0);  // not the ally: devoured
    CHECK(s.of(Faction::Harkonnen).tanks[0] == 2);
  }
  SECTION("not protected") {
    act(s, Faction::Fremen, respond(false));
    CHECK(s.forces_in_location(Faction::Atreides, blw) == 0);
    CHECK(s.of(Faction::Atreides).tanks[0] == 3);
    CHECK(s.forces_in_location(Faction::Harkonnen, ble) == 0);
  }
  CHECK(s.spice_on_board[loc("Funeral Plain")] == 6);
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("2.04.10 no question when the Fremen's ally has no forces where the worm appears", "[spice_blow]") {
  GameState s = at_storm(kWithFremen);
  ally(s, Faction::Fremen, Faction::Atreides);
  discard_spice_onto(s, 0, {kBrokenLand});
  place(s, Faction::Harkonnen, loc("Broken Land (West Sector)"), 2);
  stack_spice_deck(s, {kWorm1, kFuneralPlain});
  blow(s);
  CHECK(s.phase == Phase::Nexus);
  CHECK(s.of(Faction::Harkonnen).tanks[0] == 2);
}

TEST_CASE("2.04.10 rejections while the Fremen decide", "[spice_blow]") {
  GameState s = at_storm(kWithFremen);
  ally(s, Faction::Fremen, Faction::Atreides);
  discard_spice_onto(s, 0, {kBrokenLand});
  place(s, Faction::Atreides, loc("Broken Land (West Sector)"), 3);
  stack_spice_deck(s, {kWorm1, kFuneralPlain});
  blow(s);
  REQUIRE(s.phase == Phase::SpiceBlow);
  CHECK(rejected(s, Faction::Atreides, respond(true)).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, Faction::Fremen, pass()).code == RejectCode::WrongPhase);
  CHECK(rejected(s, Faction::Fremen, worm_to(loc("The Great Flat"))).code == RejectCode::WrongPhase);
}

TEST_CASE("2.04.15 the Fremen place the additional sandworms (advanced)", "[spice_blow]") {
  GameState s = at_storm(kWithFremen, true);
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)"), gf = loc("The Great Flat");
  place(s, Faction::Atreides, blw, 2);
  place(s, Faction::Harkonnen, gf, 3);
  place(s, Faction::Fremen, gf, 2);
  put_spice(s, gf, 4);
  stack_spice_deck(s, {kWorm1, kWorm2, kFuneralPlain, kHabbanyaErg});
  blow(s);
  // The first worm appeared under Broken Land; the second waits for the Fremen.
  CHECK(s.of(Faction::Atreides).tanks[0] == 2);
  REQUIRE(s.phase == Phase::SpiceBlow);
  REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
  check_legal(s);

  SECTION("placed in a sand territory") {
    act(s, Faction::Fremen, worm_to(gf));
    CHECK(s.forces_in_location(Faction::Harkonnen, gf) == 0);
    CHECK(s.of(Faction::Harkonnen).tanks[0] == 3);
    CHECK(s.forces_in_location(Faction::Fremen, gf) == 2);
    CHECK(s.spice_on_board[gf] == 0);
  }
  SECTION("pass: it appears where the cards say") {
    act(s, Faction::Fremen, pass());
    CHECK(s.forces_in_location(Faction::Harkonnen, gf) == 3);
    CHECK(s.spice_on_board[gf] == 4);
  }
  CHECK(s.spice_discard[0].top() == kFuneralPlain);
  CHECK(s.spice_discard[1].top() == kHabbanyaErg);
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("2.04.15 the first sandworm is not placed by the Fremen, nor in the basic game", "[spice_blow]") {
  const bool advanced = GENERATE(false, true);
  GameState s = at_storm(kWithFremen, advanced);
  discard_spice_onto(s, 0, {kBrokenLand});
  stack_spice_deck(s, {kWorm1, kFuneralPlain, kHabbanyaErg});
  blow(s);
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("2.04.15 rejections: only sand territories, only the Fremen", "[spice_blow]") {
  GameState s = at_storm(kWithFremen, true);
  discard_spice_onto(s, 0, {kBrokenLand});
  stack_spice_deck(s, {kWorm1, kWorm2, kFuneralPlain, kHabbanyaErg});
  blow(s);
  REQUIRE(s.phase == Phase::SpiceBlow);
  auto r = rejected(s, Faction::Fremen, worm_to(loc("Sietch Tabr")));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Fremen, worm_to(loc("Pasty Mesa (North Sector)"))).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Fremen, worm_to(200)).code == RejectCode::Malformed);
  CHECK(rejected(s, Faction::Fremen, dial(1)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, Faction::Harkonnen, worm_to(loc("The Great Flat"))).code == RejectCode::NotYourDecision);
  // The Imperial Basin is sand (protected from the storm, not from worms).
  CHECK_FALSE(validate(s, seat(s, Faction::Fremen), worm_to(loc("Imperial Basin (Center Sector)"))).has_value());
}

// ---- rulings (docs/RULINGS.md) -----------------------------------------------

TEST_CASE("1.13.03 ruling spice_reshuffle_basic=keep_top_territory", "[spice_blow][rulings]") {
  GameState s = at_storm(kBasic, false, 2, ruling("spice_reshuffle_basic", "keep_top_territory"));
  // As in the basic reshuffle test: the deck holds one Shai-Hulud, the
  // discard pile every other card with Broken Land on top.
  std::vector<uint8_t> rest;
  for (uint8_t id = 0; id < data::kNumSpiceCards; ++id)
    if (id != kWorm1 && id != kBrokenLand) rest.push_back(id);
  rest.push_back(kBrokenLand);
  discard_spice_onto(s, 0, rest);
  REQUIRE(s.spice_deck.n == 1);
  const LocationId blw = loc("Broken Land (West Sector)");
  place(s, Faction::Harkonnen, blw, 4);
  blow(s);
  CHECK(s.of(Faction::Harkonnen).tanks[0] == 4);
  // Broken Land and the worm on it stayed (the default reshuffles them too);
  // the blow continued to a territory card.
  const auto& a = s.spice_discard[0];
  REQUIRE(a.n >= 3);
  CHECK(a.ids[0] == kBrokenLand);
  CHECK(a.ids[1] == kWorm1);
  CHECK_FALSE(data::spice_card(a.top()).shai_hulud);
  for (int i = 2; i + 1 < a.n; ++i) CHECK(data::spice_card(a.ids[i]).shai_hulud);
  CHECK(s.spice_discard[1].n == 0);
  CHECK(s.spice_deck.n + a.n == data::kNumSpiceCards);
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("2.04.15 ruling fremen_extra_worms=per_pile", "[spice_blow][rulings]") {
  GameState s = at_storm(kWithFremen, true, 2, ruling("fremen_extra_worms", "per_pile"));
  discard_spice_onto(s, 0, {kBrokenLand});
  discard_spice_onto(s, 1, {kGreatFlat});
  const LocationId blw = loc("Broken Land (West Sector)"), gf = loc("The Great Flat");
  place(s, Faction::Atreides, blw, 2);
  place(s, Faction::Harkonnen, gf, 3);
  SECTION("the first worm of pile B appears where the cards say, unasked") {
    // Per phase (the default) this worm is the second: the Fremen would place it.
    stack_spice_deck(s, {kWorm1, kFuneralPlain, kWorm2, kHabbanyaErg});
    blow(s);
    CHECK(s.of(Faction::Atreides).tanks[0] == 2);
    CHECK(s.forces_in_location(Faction::Harkonnen, gf) == 0);
    CHECK(s.of(Faction::Harkonnen).tanks[0] == 3);
    CHECK(s.spice_discard[1].top() == kHabbanyaErg);
    CHECK(s.phase == Phase::Nexus);
  }
  SECTION("the second worm of one pile is placed by the Fremen") {
    stack_spice_deck(s, {kWorm1, kWorm2, kFuneralPlain, kHabbanyaErg});
    blow(s);
    REQUIRE(s.phase == Phase::SpiceBlow);
    REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
    check_legal(s);
    act(s, Faction::Fremen, pass());
    CHECK(s.phase == Phase::Nexus);
  }
}

TEST_CASE("1.13.02.02 ruling repeated_worm=only_first", "[spice_blow][rulings]") {
  GameState s = at_storm(kWithFremen, false, 2, ruling("repeated_worm", "only_first"));
  ally(s, Faction::Fremen, Faction::Atreides);
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)");
  place(s, Faction::Atreides, blw, 3);
  place(s, Faction::Fremen, blw, 2);
  stack_spice_deck(s, {kWorm1, kWorm2, kFuneralPlain});
  blow(s);
  // The first worm: the Fremen are asked about their ally (2.04.10).
  REQUIRE(s.phase == Phase::SpiceBlow);
  REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
  act(s, Faction::Fremen, respond(true));
  // The second is only discarded: no second question (the default asks
  // again), no second ride.
  CHECK(s.phase == Phase::Nexus);
  CHECK(s.forces_in_location(Faction::Atreides, blw) == 3);
  CHECK(s.fremen.blow.n_rides == 1);
  const auto& a = s.spice_discard[0];
  REQUIRE(a.n == 4);
  CHECK(a.ids[1] == kWorm1);
  CHECK(a.ids[2] == kWorm2);
  CHECK(a.top() == kFuneralPlain);
}

TEST_CASE("1.02.05 default repeated_worm=devours_again: each worm of a run is a ride", "[spice_blow][rulings]") {
  GameState s = at_storm(kWithFremen);
  discard_spice_onto(s, 0, {kBrokenLand});
  place(s, Faction::Fremen, loc("Broken Land (West Sector)"), 2);
  stack_spice_deck(s, {kWorm1, kWorm2, kFuneralPlain});
  blow(s);
  CHECK(s.phase == Phase::Nexus);
  CHECK(s.fremen.blow.n_rides == 2);
}

TEST_CASE("1.13.02.02 ruling repeated_worm=only_first with the Fremen passing on an additional worm", "[spice_blow][rulings]") {
  GameState s = at_storm(kWithFremen, true, 2, ruling("repeated_worm", "only_first"));
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)");
  place(s, Faction::Fremen, blw, 2);
  stack_spice_deck(s, {kWorm1, kWorm2, kFuneralPlain, kHabbanyaErg});
  blow(s);
  REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
  const auto ds = decisions(s, seat(s, Faction::Fremen));
  bool told = false;
  for (const auto& d : ds)
    if (d.kind == ActionKind::Pass) told = d.prompt.find("only discarded") != std::string::npos;
  CHECK(told);
  act(s, Faction::Fremen, pass());
  CHECK(s.phase == Phase::Nexus);
  CHECK(s.fremen.blow.n_rides == 1);
}

TEST_CASE("2.04.10 ruling fremen_ally_protection=always", "[spice_blow][rulings]") {
  GameState s = at_storm(kWithFremen, false, 2, ruling("fremen_ally_protection", "always"));
  ally(s, Faction::Fremen, Faction::Atreides);
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)"), ble = loc("Broken Land (East Sector)");
  place(s, Faction::Atreides, blw, 3);
  place(s, Faction::Harkonnen, ble, 2);
  stack_spice_deck(s, {kWorm1, kFuneralPlain});
  blow(s);
  // Nobody is asked (the default waits for the Fremen); the ally is protected.
  CHECK(s.phase == Phase::Nexus);
  CHECK(s.forces_in_location(Faction::Atreides, blw) == 3);
  CHECK(s.of(Faction::Atreides).tanks[0] == 0);
  CHECK(s.forces_in_location(Faction::Harkonnen, ble) == 0);
  CHECK(s.of(Faction::Harkonnen).tanks[0] == 2);
}

TEST_CASE("2.04.15 ruling placed_worm_spice=forces_only", "[spice_blow][rulings]") {
  GameState s = at_storm(kWithFremen, true, 2, ruling("placed_worm_spice", "forces_only"));
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)"), gf = loc("The Great Flat");
  put_spice(s, blw, 5);
  place(s, Faction::Harkonnen, gf, 3);
  put_spice(s, gf, 4);
  stack_spice_deck(s, {kWorm1, kWorm2, kFuneralPlain, kHabbanyaErg});
  SECTION("the placed worm devours the forces and leaves the spice") {
    blow(s);
    // The first worm appeared where the cards say: a normal worm, spice gone.
    CHECK(s.spice_on_board[blw] == 0);
    REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
    act(s, Faction::Fremen, worm_to(gf));
    CHECK(s.forces_in_location(Faction::Harkonnen, gf) == 0);
    CHECK(s.of(Faction::Harkonnen).tanks[0] == 3);
    CHECK(s.spice_on_board[gf] == 4);
    CHECK(s.phase == Phase::Nexus);
  }
  SECTION("after the Fremen's answer about their ally too") {
    ally(s, Faction::Fremen, Faction::Atreides);
    place(s, Faction::Atreides, gf, 2);
    blow(s);
    REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
    act(s, Faction::Fremen, worm_to(gf));
    REQUIRE(s.phase == Phase::SpiceBlow);
    REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
    check_legal(s);
    act(s, Faction::Fremen, respond(false));
    CHECK(s.of(Faction::Atreides).tanks[0] == 2);
    CHECK(s.of(Faction::Harkonnen).tanks[0] == 3);
    CHECK(s.spice_on_board[gf] == 4);
    CHECK(s.phase == Phase::Nexus);
  }
}

namespace {
void prevent_ability(GameState& g, Faction f, rules::Ability ab) {
  g.prevented[static_cast<int>(f)] |= 1u << static_cast<int>(ab);  // as a Karama does (3.01.11.02, cards.cpp)
}
bool is_prevented(const GameState& g, Faction f, rules::Ability ab) {
  return (g.prevented[static_cast<int>(f)] >> static_cast<int>(ab)) & 1u;
}
}  // namespace

TEST_CASE("3.01.11.02 2.04.07 prevented: the next worm that finds Fremen forces devours them", "[spice_blow][karama]") {
  GameState s = at_storm(kWithFremen);
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)");
  prevent_ability(s, Faction::Fremen, rules::Ability::FremenShaiHulud);
  place(s, Faction::Atreides, blw, 2);
  stack_spice_deck(s, {kWorm1, kFuneralPlain});
  SECTION("no Fremen forces there: the prevention waits") {
    blow(s);
    CHECK(s.forces_in_location(Faction::Atreides, blw) == 0);
    CHECK(is_prevented(s, Faction::Fremen, rules::Ability::FremenShaiHulud));
  }
  SECTION("Fremen forces there: devoured, the prevention is used up") {
    place(s, Faction::Fremen, blw, 4, 1);
    const int tanks = s.of(Faction::Fremen).tanks[0];
    blow(s);
    CHECK(s.forces_in_location(Faction::Fremen, blw) == 0);
    CHECK(s.of(Faction::Fremen).tanks[0] == tanks + 4);
    CHECK(s.of(Faction::Fremen).tanks[1] == 1);
    CHECK_FALSE(is_prevented(s, Faction::Fremen, rules::Ability::FremenShaiHulud));
  }
}

TEST_CASE("3.01.11.02 2.04.10 prevented: the Fremen are not asked, their ally is devoured", "[spice_blow][karama]") {
  GameState s = at_storm(kWithFremen);
  ally(s, Faction::Fremen, Faction::Atreides);
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)");
  place(s, Faction::Atreides, blw, 3);
  prevent_ability(s, Faction::Fremen, rules::Ability::FremenAllyProtection);
  stack_spice_deck(s, {kWorm1, kFuneralPlain});
  blow(s);
  CHECK(s.forces_in_location(Faction::Atreides, blw) == 0);
  CHECK(s.of(Faction::Atreides).tanks[0] == 3);
  CHECK_FALSE(is_prevented(s, Faction::Fremen, rules::Ability::FremenAllyProtection));
  CHECK(s.phase == Phase::Nexus);
}

TEST_CASE("3.01.11.01 2.04.15 karama_windows=all_other_seats: the Fremen's worm placement waits in a window, cancelled, it appears where the cards say",
          "[spice_blow][karama][rulings]") {
  GameState s = at_storm(kWithFremen, true, 2, ruling("karama_windows", "all_other_seats"));
  discard_spice_onto(s, 0, {kBrokenLand});
  const LocationId blw = loc("Broken Land (West Sector)"), gf = loc("The Great Flat");
  place(s, Faction::Atreides, blw, 2);
  place(s, Faction::Harkonnen, gf, 3);
  put_spice(s, gf, 4);
  const uint8_t karama = give_another(s, Faction::Atreides, data::TreacheryKind::Karama);
  stack_spice_deck(s, {kWorm1, kWorm2, kFuneralPlain, kHabbanyaErg});
  blow(s);
  REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
  act(s, Faction::Fremen, worm_to(gf));
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::FremenWormPlacement));
  CHECK((waiting_for(s) & bit_of(s, Faction::Atreides)) != 0);
  CHECK((waiting_for(s) & bit_of(s, Faction::Fremen)) == 0);
  CHECK(s.forces_in_location(Faction::Harkonnen, gf) == 3);  // not placed yet
  SECTION("cancelled") {
    act(s, Faction::Atreides, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(waiting_for(s) == bit_of(s, Faction::Fremen));
    CHECK_THAT(rejected(s, Faction::Fremen, worm_to(gf)).reason, Catch::Contains("3.01.11.01"));
    check_legal(s);
    act(s, Faction::Fremen, pass());
    CHECK(s.forces_in_location(Faction::Harkonnen, gf) == 3);
    CHECK(s.spice_on_board[gf] == 4);
  }
  SECTION("let through") {
    while (s.window_depth > 0) {
      const Seat who = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
      act(s, s.faction_at(who), respond(false));
    }
    CHECK(s.forces_in_location(Faction::Harkonnen, gf) == 0);
    CHECK(s.of(Faction::Harkonnen).tanks[0] == 3);
  }
}
