// Scenario tests of the treachery cards played outside the battle wheel
// (3.01.07, 3.01.09, 3.01.20, 3.01.22, 3.01.23), the Karama card (3.01.11),
// the faction Karama powers (1.14) and the Karama response windows
// (3.01.11.01, 1.00.04, 1.00.05): core/rules/cards.cpp.
#include <catch2/catch.hpp>

#include "core/rules/rules.h"
#include "inspect/projection.h"
#include "inspect/view.h"
#include "support/random_play.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;
using data::TreacheryKind;

namespace {

constexpr uint8_t kShipStep = 0, kMoveStep = 2;

// Sends n of f's reserves (kind 0 regular, 1 special) to the tanks.
void to_tanks(GameState& s, Faction f, int n, int kind = 0) {
  auto& fs = s.of(f);
  REQUIRE(fs.reserves[kind] >= n);
  fs.reserves[kind] = static_cast<uint8_t>(fs.reserves[kind] - n);
  fs.tanks[kind] = static_cast<uint8_t>(fs.tanks[kind] + n);
}

int ask(rules::Question q, Faction asked) { return static_cast<int>(q) << 4 | static_cast<int>(asked); }

bool offered(const GameState& s, Faction f, uint8_t card) {
  bool d = false, l = false;
  for (const auto& x : decisions(s, s.seat_of(f)))
    if (x.kind == ActionKind::PlayCard && !x.options.empty() && x.options[0] == card) d = true;
  for (const auto& a : legal_actions(s, s.seat_of(f)))
    if (a.kind() == ActionKind::PlayCard && a.as<action::PlayCard>().card == card) l = true;
  CHECK(d == l);
  return d;
}

// The Storm phase of turn 2, both seats dialing (two players).
GameState at_storm_2(std::initializer_list<Faction> factions, bool advanced = false, Rulings r = Rulings::defaults()) {
  GameState s = game(factions, advanced, 7, r);
  play_until(s, Phase::Storm, 2);
  REQUIRE(s.waiting != 0);
  return s;
}

GameState at_shipment(std::initializer_list<Faction> factions, bool advanced = false, Rulings r = Rulings::defaults()) {
  GameState s = game(factions, advanced, 7, r);
  play_until(s, Phase::ShipmentMovement, 1);
  return s;
}

void dial_both(GameState& s, int a, int b) {
  const Seat d0 = static_cast<Seat>(s.storm_dialers[0]), d1 = static_cast<Seat>(s.storm_dialers[1]);
  act(s, s.faction_at(d0), dial(a));
  act(s, s.faction_at(d1), dial(b));
}

}  // namespace

TEST_CASE("3.01.23 Weather Control moves the storm 0 to 10 sectors instead of the dials", "[cards]") {
  GameState s = at_storm_2({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  const Faction holder = Faction::Emperor;
  const uint8_t wc = give_another(s, holder, TreacheryKind::WeatherControl);
  const int from = s.storm_sector;
  INFO("dialers " << int(s.storm_dialers[0]) << " " << int(s.storm_dialers[1]));
  // Offered to its holder while the dials are pending, waited for or not.
  CHECK(offered(s, holder, wc));
  check_legal(s);
  SECTION("seven sectors") {
    act(s, holder, play(wc, 7));
    CHECK(s.treachery_discard.top() == wc);
    CHECK_FALSE(s.of(holder).hand.contains(wc));
    CHECK(s.storm_override == 7);
    dial_both(s, 1, 1);
    CHECK(s.storm_sector == (from + 7) % 18);
    CHECK(s.storm_override == kNone8);
  }
  SECTION("0: the storm does not move") {
    act(s, holder, play(wc, 0));
    dial_both(s, 3, 3);
    CHECK(s.storm_sector == from);
  }
  SECTION("rejections") {
    CHECK(rejected(s, holder, play(wc, 11)).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Atreides, play(wc, 3)).code == RejectCode::IllegalChoice);  // not in hand
    dial_both(s, 1, 1);
    REQUIRE(s.phase != Phase::Storm);
    auto r = rejected(s, holder, play(wc, 3));
    CHECK(r.code == RejectCode::WrongPhase);
    CHECK(r.reason.find("3.01.23") != std::string::npos);
    CHECK_FALSE(offered(s, holder, wc));
  }
}

TEST_CASE("3.01.23 3.01.07 storm cards are not played on the first turn", "[cards]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen});
  play_until(s, Phase::Storm, 1);
  const uint8_t wc = give_another(s, Faction::Atreides, TreacheryKind::WeatherControl);
  const uint8_t fa = give_another(s, Faction::Atreides, TreacheryKind::FamilyAtomics);
  CHECK(rejected(s, Faction::Atreides, play(wc, 2)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, Faction::Atreides, play(fa)).code == RejectCode::WrongPhase);
  CHECK_FALSE(offered(s, Faction::Atreides, wc));
}

TEST_CASE("3.01.07 Family Atomics destroys the forces on the Shield Wall and strips the cities of their protection", "[cards]") {
  GameState s = at_storm_2({Faction::Atreides, Faction::Harkonnen});
  const uint8_t fa = give_another(s, Faction::Atreides, TreacheryKind::FamilyAtomics);
  const LocationId wall_s = loc("Shield Wall (South Sector)"), wall_n = loc("Shield Wall (North Sector)");
  const LocationId hole = loc("Hole In The Rock"), gara = loc("Gara Kulon");
  place(s, Faction::Harkonnen, wall_s, 2);
  place(s, Faction::Harkonnen, wall_n, 1);
  s.storm_sector = 6;  // dials 1 + 1: over 7, onto 8 (not Arrakeen, sector 9)
  SECTION("no forces near the Wall: rejected") {
    auto r = rejected(s, Faction::Atreides, play(fa));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("3.01.07") != std::string::npos);
    CHECK_FALSE(offered(s, Faction::Atreides, fa));
  }
  SECTION("storm between the forces and the Wall: rejected") {
    place(s, Faction::Atreides, gara, 1);
    s.storm_sector = 7;  // Gara Kulon and the Wall's south sector are in storm
    CHECK(rejected(s, Faction::Atreides, play(fa)).code == RejectCode::IllegalChoice);
  }
  SECTION("from an adjacent territory") {
    place(s, Faction::Atreides, hole, 1);
    CHECK(offered(s, Faction::Atreides, fa));
    const int tanks = s.of(Faction::Harkonnen).tanks[0];
    act(s, Faction::Atreides, play(fa));
    CHECK(s.shield_wall_destroyed == 1);
    CHECK(s.forces_in_location(Faction::Harkonnen, wall_s) == 0);
    CHECK(s.forces_in_location(Faction::Harkonnen, wall_n) == 0);
    CHECK(s.of(Faction::Harkonnen).tanks[0] == tanks + 3);
    CHECK(s.treachery_set_aside.contains(fa));  // set aside, not discarded
    CHECK_FALSE(s.treachery_discard.contains(fa));
    // Arrakeen has lost its protection: a storm onto sector 9 destroys the Atreides there.
    s.storm_sector = 7;
    REQUIRE(s.forces_in_location(Faction::Atreides, data::arrakeen()) > 0);
    dial_both(s, 1, 1);
    CHECK(s.forces_in_location(Faction::Atreides, data::arrakeen()) == 0);
  }
  SECTION("without Family Atomics the same storm spares Arrakeen") {
    s.storm_sector = 7;
    const int before = s.forces_in_location(Faction::Atreides, data::arrakeen());
    dial_both(s, 1, 1);
    CHECK(s.forces_in_location(Faction::Atreides, data::arrakeen()) == before);
  }
}

TEST_CASE("3.01.09 Hajr gives one more force movement in the player's own turn", "[cards]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen});
  const uint8_t hajr = give_another(s, Faction::Atreides, TreacheryKind::Hajr);
  const Seat me = s.seat_of(Faction::Atreides);
  pass_until_ship_or_move(s, Faction::Harkonnen);
  // Not the Atreides' turn: Hajr is rejected and not offered.
  CHECK(rejected(s, Faction::Atreides, play(hajr)).code == RejectCode::NotYourDecision);
  CHECK_FALSE(offered(s, Faction::Atreides, hajr));
  GameState t = at_shipment({Faction::Atreides, Faction::Harkonnen});
  give_another(t, Faction::Atreides, TreacheryKind::Hajr);
  pass_until_ship_or_move(t, Faction::Atreides);
  REQUIRE(t.step == kShipStep);
  CHECK(offered(t, Faction::Atreides, hajr));
  act(t, Faction::Atreides, play(hajr));
  CHECK(t.shipmove.hajr == 1);
  CHECK(t.treachery_discard.top() == hajr);
  act(t, Faction::Atreides, pass());  // no shipment
  REQUIRE(t.step == kMoveStep);
  auto first_move = [&](const GameState& st) {
    for (const auto& a : legal_actions(st, me))
      if (a.kind() == ActionKind::Move) return a;
    FAIL("no move");
    return Action{};
  };
  act(t, Faction::Atreides, first_move(t));
  // Still the Atreides' movement: the Hajr move.
  CHECK(t.shipmove.current == me);
  CHECK(t.step == kMoveStep);
  CHECK(t.shipmove.hajr == 0);
  act(t, Faction::Atreides, first_move(t));
  CHECK(((t.shipmove.done >> me) & 1u) == 1u);
  // Outside the phase.
  GameState u = game({Faction::Atreides, Faction::Harkonnen});
  play_until(u, Phase::Bidding, 1);
  const uint8_t h2 = give_another(u, Faction::Atreides, TreacheryKind::Hajr);
  CHECK(rejected(u, Faction::Atreides, play(h2)).code == RejectCode::WrongPhase);
}

TEST_CASE("3.01.20 Tleilaxu Ghola revives a leader or up to 5 forces for free, at any time", "[cards]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor}, true);
  play_until(s, Phase::Bidding, 1);
  const uint8_t ghola = give_another(s, Faction::Emperor, TreacheryKind::TleilaxuGhola);
  to_tanks(s, Faction::Emperor, 6);
  to_tanks(s, Faction::Emperor, 2, 1);
  const LeaderId leader = data::leader_id(Faction::Emperor, 0);
  s.leaders[leader].zone = LeaderZone::TanksFaceDown;
  const int spice = s.of(Faction::Emperor).spice;
  // Offered though the Emperor may not be the seat to bid.
  CHECK(offered(s, Faction::Emperor, ghola));
  check_legal(s);
  SECTION("rejections") {
    CHECK(rejected(s, Faction::Emperor, play(ghola, 6)).code == RejectCode::IllegalChoice);             // more than 5
    CHECK(rejected(s, Faction::Emperor, play(ghola, 1 | 3 << 4)).code == RejectCode::IllegalChoice);    // 3 Sardaukar: 2 in the tanks
    CHECK(rejected(s, Faction::Emperor, play(ghola, 1, leader)).code == RejectCode::Malformed);         // both
    CHECK(rejected(s, Faction::Emperor, play(ghola, 0)).code == RejectCode::Malformed);                 // nothing
    CHECK(rejected(s, Faction::Emperor, play(ghola, 0, data::leader_id(Faction::Atreides, 0))).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Emperor, play(ghola, 0, data::leader_id(Faction::Emperor, 1))).code == RejectCode::IllegalChoice);  // in the pool
  }
  SECTION("five forces, two of them Sardaukar (no one-a-turn limit for the card)") {
    act(s, Faction::Emperor, play(ghola, 3 | 2 << 4));
    CHECK(s.of(Faction::Emperor).tanks[0] == 3);
    CHECK(s.of(Faction::Emperor).tanks[1] == 0);
    CHECK(s.of(Faction::Emperor).spice == spice);
    CHECK(s.treachery_discard.top() == ghola);
  }
  SECTION("a face-down leader, whatever 1.05.03/1.05.04 say") {
    act(s, Faction::Emperor, play(ghola, 0, leader));
    CHECK(s.leaders[leader].zone == LeaderZone::Pool);
    CHECK(s.leaders[leader].holder == static_cast<uint8_t>(Faction::Emperor));
    CHECK(s.of(Faction::Emperor).spice == spice);
  }
  SECTION("not during the setup") {
    GameState t = game({Faction::Atreides, Faction::Harkonnen});
    REQUIRE(t.phase == Phase::Setup);
    const uint8_t g = give_another(t, Faction::Atreides, TreacheryKind::TleilaxuGhola);
    CHECK(rejected(t, Faction::Atreides, play(g, 1)).code == RejectCode::WrongPhase);
  }
}

TEST_CASE("3.01.20 the Ghola's revival comes on top of the normal revival", "[cards]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen});
  play_until(s, Phase::Bidding, 1);
  to_tanks(s, Faction::Atreides, 8);
  const uint8_t ghola = give_another(s, Faction::Atreides, TreacheryKind::TleilaxuGhola);
  play_until(s, Phase::Revival, 1);
  act(s, Faction::Atreides, play(ghola, 5));
  act(s, Faction::Atreides, revive(2));  // 2 free (2.01.04)
  CHECK(s.of(Faction::Atreides).tanks[0] == 1);
}

TEST_CASE("3.01.22 Truthtrance: the engine answers what the state answers", "[cards]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::BeneGesserit});
  play_until(s, Phase::Bidding, 1);
  const uint8_t tt = give_another(s, Faction::Atreides, TreacheryKind::Truthtrance);
  using Q = rules::Question;
  SECTION("does the Harkonnen hold a Karama?") {
    give_another(s, Faction::Harkonnen, TreacheryKind::Karama);
    act(s, Faction::Atreides, play(tt, ask(Q::HoldsCard, Faction::Harkonnen), static_cast<uint8_t>(TreacheryKind::Karama)));
    CHECK(s.truthtrance.answer == 1);
    CHECK(s.truthtrance.asker == static_cast<uint8_t>(Faction::Atreides));
    CHECK(s.truthtrance.asked == static_cast<uint8_t>(Faction::Harkonnen));
    CHECK(s.truthtrance.turn == 1);
    CHECK(s.treachery_discard.top() == tt);
    CHECK(s.window_depth == 0);
  }
  SECTION("is this leader one of your traitors?") {
    const uint8_t traitor = s.of(Faction::Harkonnen).traitors.ids[0];
    act(s, Faction::Atreides, play(tt, ask(Q::IsTraitor, Faction::Harkonnen), traitor));
    CHECK(s.truthtrance.answer == 1);
  }
  SECTION("do you hold at least N spice?") {
    set_spice(s, Faction::Harkonnen, 9);
    act(s, Faction::Atreides, play(tt, ask(Q::SpiceAtLeast, Faction::Harkonnen), 10));
    CHECK(s.truthtrance.answer == 0);
  }
  SECTION("the Bene Gesserit prediction") {
    const uint8_t turn = s.of(Faction::BeneGesserit).prediction_turn;
    act(s, Faction::Atreides, play(tt, ask(Q::PredictedTurn, Faction::BeneGesserit), turn));
    CHECK(s.truthtrance.answer == 1);
  }
  SECTION("rejections") {
    CHECK(rejected(s, Faction::Atreides, play(tt, ask(Q::SpiceAtLeast, Faction::Atreides), 1)).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Atreides, play(tt, ask(Q::SpiceAtLeast, Faction::Fremen), 1)).code == RejectCode::Malformed);
    CHECK(rejected(s, Faction::Atreides, play(tt, ask(Q::PredictedTurn, Faction::Harkonnen), 1)).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Atreides, play(tt, ask(Q::HoldsCard, Faction::Harkonnen), 40)).code == RejectCode::Malformed);
    CHECK(rejected(s, Faction::Atreides, play(tt, 7 << 4 | 4)).code == RejectCode::Malformed);
  }
}

TEST_CASE("3.01.22 1.00.05 Truthtrance free-form question: the game pauses until the asked seat answers", "[cards]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  play_until(s, Phase::Bidding, 1);
  const uint8_t tt = give_another(s, Faction::Atreides, TreacheryKind::Truthtrance);
  const uint8_t waiting = s.waiting;
  act(s, Faction::Atreides, play(tt, ask(rules::Question::FreeForm, Faction::Emperor)));
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].kind == WindowKind::Truthtrance);
  CHECK(waiting_for(s) == rules::bit(s.seat_of(Faction::Emperor)));
  CHECK(s.truthtrance.answer == kNone8);
  // Everything else waits (1.00.05): bids, bribes, cards.
  const Seat bidder = s.bidding.current;
  CHECK(rejected(s, s.faction_at(bidder), bid(1)).code == RejectCode::WrongPhase);
  action::Bribe bribe;
  bribe.to = static_cast<uint8_t>(Faction::Emperor);
  bribe.amount = 1;
  CHECK(rejected(s, Faction::Harkonnen, bribe).code == RejectCode::WrongPhase);
  CHECK(rejected(s, Faction::Harkonnen, respond(true)).code == RejectCode::NotYourDecision);
  const auto ds = decisions(s, s.seat_of(Faction::Emperor));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].kind == ActionKind::Respond);
  check_legal(s);
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::observer()), Catch::Contains("\"window\""));
  act(s, Faction::Emperor, respond(true));
  CHECK(s.truthtrance.answer == 1);
  const std::string obs = inspect::view_json(s, inspect::Viewer::observer());  // asked and answered publicly
  CHECK_THAT(obs, Catch::Contains("\"truthtrance\""));
  CHECK_THAT(obs, Catch::Contains("\"answer\": true"));
  CHECK(s.window_depth == 0);
  CHECK(s.waiting == waiting);  // the bidding resumes where it was
}

TEST_CASE("3.01.11.03 a Karama buys the shipment at Guild rates, paid to the bank", "[cards]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild});
  const uint8_t karama = give_another(s, Faction::Atreides, TreacheryKind::Karama);
  set_spice(s, Faction::Atreides, 10);
  pass_until_ship_or_move(s, Faction::Atreides);
  REQUIRE(s.step == kShipStep);
  CHECK(offered(s, Faction::Atreides, karama));
  act(s, Faction::Atreides, play(karama, rules::kKaramaGuildRates));
  const int guild = s.of(Faction::Guild).spice;
  const int64_t bank_before = s.bank;
  act(s, Faction::Atreides, ship(data::polar_sink(), 5));  // 10 at full price
  CHECK(s.of(Faction::Atreides).spice == 5);
  CHECK(s.of(Faction::Guild).spice == guild);  // not to the Guild (2.06.04)
  CHECK(s.bank == bank_before + 5);
  CHECK(s.treachery_discard.top() == karama);
  CHECK(rejected(s, Faction::Guild, play(karama, rules::kKaramaGuildRates)).code == RejectCode::IllegalChoice);  // gone
}

TEST_CASE("3.01.11.01 1.00.04 karama_windows=all_other_seats: a Karama cancels the Guild's half price, the Guild ships again without it",
          "[cards][rulings]") {
  GameState s = at_shipment({Faction::Guild, Faction::Atreides, Faction::Harkonnen}, false, ruling("karama_windows", "all_other_seats"));
  const uint8_t karama = give_another(s, Faction::Atreides, TreacheryKind::Karama);
  set_spice(s, Faction::Guild, 10);
  pass_until_ship_or_move(s, Faction::Guild);
  REQUIRE(s.step == kShipStep);
  const Seat guild = s.seat_of(Faction::Guild);
  const LocationId sink = data::polar_sink();
  act(s, Faction::Guild, ship(sink, 4));  // 8 at full price, 4 at half
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].kind == WindowKind::KaramaCancel);
  CHECK(s.forces_at(Faction::Guild, sink) == 0);  // not shipped yet
  CHECK(s.of(Faction::Guild).spice == 10);
  const uint8_t asked = rules::bit(s.seat_of(Faction::Atreides)) | rules::bit(s.seat_of(Faction::Harkonnen));
  CHECK(waiting_for(s) == asked);
  CHECK(rejected(s, Faction::Guild, ship(sink, 4)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, Faction::Harkonnen, respond(true, karama)).code == RejectCode::IllegalChoice);  // not its card
  CHECK(rejected(s, Faction::Atreides, respond(true)).code == RejectCode::Malformed);
  check_legal(s);
  SECTION("cancelled: the Guild decides again and pays full price") {
    act(s, Faction::Harkonnen, respond(false));
    act(s, Faction::Atreides, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(s.windows[0].cancelled == 1);  // the record stays
    CHECK(s.treachery_discard.top() == karama);
    CHECK(s.waiting == rules::bit(guild));
    CHECK(s.step == kShipStep);
    CHECK(s.forces_at(Faction::Guild, sink) == 0);
    const int64_t bank_before = s.bank;
    act(s, Faction::Guild, ship(sink, 4));
    CHECK(s.window_depth == 0);  // no half price, nothing to cancel
    CHECK(s.forces_at(Faction::Guild, sink) == 4);
    CHECK(s.of(Faction::Guild).spice == 2);
    CHECK(s.bank == bank_before + 8);
  }
  SECTION("cancelled: the Guild may also not ship at all") {
    act(s, Faction::Atreides, respond(true, karama));
    act(s, Faction::Guild, pass());
    CHECK(s.step == kMoveStep);
  }
  SECTION("nobody cancels: the shipment goes through at half price") {
    act(s, Faction::Atreides, respond(false));
    CHECK(s.window_depth == 1);
    act(s, Faction::Harkonnen, respond(false));
    CHECK(s.window_depth == 0);
    CHECK(s.windows[0].cancelled == 0);
    CHECK(s.forces_at(Faction::Guild, sink) == 4);
    CHECK(s.of(Faction::Guild).spice == 6);
    CHECK(s.step == kMoveStep);
    CHECK(s.waiting == rules::bit(guild));
  }
}

TEST_CASE("3.01.11.01 1.10.02.06 the Guild ally's half-price shipment paid partly by its ally survives the Karama window",
          "[cards][rulings]") {
  GameState s = at_shipment({Faction::Guild, Faction::Atreides, Faction::Harkonnen}, false, ruling("karama_windows", "all_other_seats"));
  set_spice(s, Faction::Guild, 2);
  set_spice(s, Faction::Harkonnen, 10);
  // The Guild ships at half price (the window's subject) and its ally, the Harkonnen, pays part.
  s.of(Faction::Harkonnen).ally = static_cast<uint8_t>(Faction::Guild);
  s.of(Faction::Guild).ally = static_cast<uint8_t>(Faction::Harkonnen);
  action::AllyPermission p;
  p.shipment = 3;
  act(s, Faction::Harkonnen, p);
  pass_until_ship_or_move(s, Faction::Guild);
  REQUIRE(s.step == kShipStep);
  action::Ship a{.to = data::polar_sink(), .forces = 8, .ally_pays = 3};  // 8 at half price: 2 own + 3 allowed are not enough
  CHECK(rejected(s, Faction::Guild, a).code == RejectCode::NotEnoughSpice);
  a = action::Ship{.to = data::polar_sink(), .forces = 2, .ally_pays = 1};  // 2 at half price: the ally pays 1, the Guild 1
  act(s, Faction::Guild, a);
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].act_amount2 == 1);
  act(s, Faction::Atreides, respond(false));
  act(s, Faction::Harkonnen, respond(false));
  CHECK(s.window_depth == 0);
  CHECK(s.forces_at(Faction::Guild, data::polar_sink()) == 2);
  CHECK(s.of(Faction::Harkonnen).spice == 9);  // the replayed shipment kept the ally's share
  CHECK(s.of(Faction::Guild).spice == 1);
  CHECK(s.of(Faction::Harkonnen).permit_ship == 2);
}

TEST_CASE("3.01.11.01 default karama_windows=none: the half price applies without a window", "[cards][rulings]") {
  GameState s = at_shipment({Faction::Guild, Faction::Atreides});
  give_another(s, Faction::Atreides, TreacheryKind::Karama);
  set_spice(s, Faction::Guild, 10);
  pass_until_ship_or_move(s, Faction::Guild);
  act(s, Faction::Guild, ship(data::polar_sink(), 4));
  CHECK(s.window_depth == 0);
  CHECK(s.of(Faction::Guild).spice == 6);
}

TEST_CASE("1.14.02 Emperor Karama power: up to 3 forces or a leader revived free in the Revival phase", "[cards]") {
  GameState s = game({Faction::Emperor, Faction::Atreides}, true);
  play_until(s, Phase::Bidding, 1);
  to_tanks(s, Faction::Emperor, 5);
  to_tanks(s, Faction::Emperor, 2, 1);
  const uint8_t karama = give_another(s, Faction::Emperor, TreacheryKind::Karama);
  CHECK(rejected(s, Faction::Emperor, play(karama, 3)).code == RejectCode::WrongPhase);
  play_until(s, Phase::Revival, 1);
  const int spice = s.of(Faction::Emperor).spice;
  CHECK(offered(s, Faction::Emperor, karama));
  CHECK(rejected(s, Faction::Emperor, play(karama, 4)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Emperor, play(karama, 2 << 4)).code == RejectCode::IllegalChoice);  // 2.03.11
  act(s, Faction::Emperor, play(karama, 2 | 1 << 4));
  CHECK(s.of(Faction::Emperor).tanks[0] == 3);
  CHECK(s.of(Faction::Emperor).tanks[1] == 1);
  CHECK(s.of(Faction::Emperor).spice == spice);
  CHECK(s.of(Faction::Emperor).karama_power_used == 1);
  CHECK(s.treachery_discard.top() == karama);
  // Once per game.
  const uint8_t k2 = give_another(s, Faction::Emperor, TreacheryKind::Karama);
  auto r = rejected(s, Faction::Emperor, play(k2, 1));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK(r.reason.find("1.14.00") != std::string::npos);
  // The normal revival is still there; the second Sardaukar waits (2.03.11).
  CHECK(rejected(s, Faction::Emperor, revive(0, 1)).code == RejectCode::IllegalChoice);
  act(s, Faction::Emperor, revive(1));
}

TEST_CASE("1.14.04 Harkonnen Karama power: take a hand, give as many cards back", "[cards]") {
  GameState s = game({Faction::Harkonnen, Faction::Atreides, Faction::Emperor}, true);
  play_until(s, Phase::Bidding, 1);
  REQUIRE(s.bidding.current != kNoSeat);
  const uint8_t karama = give_another(s, Faction::Harkonnen, TreacheryKind::Karama);
  give_another(s, Faction::Atreides, TreacheryKind::Lasgun);
  const int mine = s.of(Faction::Harkonnen).hand.n - 1;
  const int theirs = s.of(Faction::Atreides).hand.n;
  REQUIRE(theirs == 2);
  const uint8_t waiting = s.waiting;
  CHECK(rejected(s, Faction::Harkonnen, play(karama, 0, static_cast<uint8_t>(Faction::Harkonnen))).code == RejectCode::IllegalChoice);
  act(s, Faction::Harkonnen, play(karama, 0, static_cast<uint8_t>(Faction::Atreides)));
  CHECK(s.of(Faction::Harkonnen).karama_power_used == 1);
  CHECK(s.treachery_discard.top() == karama);
  CHECK(s.of(Faction::Atreides).hand.n == 0);
  CHECK(s.harkonnen.karama_taken.n == theirs);
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].kind == WindowKind::KaramaGiveBack);
  CHECK(waiting_for(s) == rules::bit(s.seat_of(Faction::Harkonnen)));
  const auto ds = decisions(s, s.seat_of(Faction::Harkonnen));
  REQUIRE(ds.size() == 1);
  CHECK(static_cast<int>(ds[0].options.size()) == mine + theirs);
  check_legal(s);
  // One of their own cards and one of the taken cards go back.
  const uint8_t own = s.of(Faction::Harkonnen).hand.ids[0];
  const uint8_t taken = s.harkonnen.karama_taken.ids[0];
  CHECK(rejected(s, Faction::Harkonnen, respond(false, karama)).code == RejectCode::IllegalChoice);  // discarded
  act(s, Faction::Harkonnen, respond(false, own));
  CHECK(s.window_depth == 1);
  act(s, Faction::Harkonnen, respond(false, taken));
  CHECK(s.window_depth == 0);
  CHECK(s.harkonnen.karama_taken.empty());
  CHECK(s.of(Faction::Atreides).hand.n == theirs);
  CHECK(s.of(Faction::Atreides).hand.contains(own));
  CHECK(s.of(Faction::Atreides).hand.contains(taken));
  CHECK(s.of(Faction::Harkonnen).hand.n == mine);
  CHECK(s.waiting == waiting);
}

TEST_CASE("1.13.06 1.14 faction Karama powers: advanced only, each in its own phase", "[cards]") {
  SECTION("basic game") {
    GameState s = game({Faction::Harkonnen, Faction::Atreides});
    play_until(s, Phase::Bidding, 1);
    const uint8_t karama = give_another(s, Faction::Harkonnen, TreacheryKind::Karama);
    auto r = rejected(s, Faction::Harkonnen, play(karama, 0, static_cast<uint8_t>(Faction::Atreides)));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("1.13.06") != std::string::npos);
  }
  SECTION("advanced: Atreides, Bene Gesserit") {
    GameState s = game({Faction::Atreides, Faction::BeneGesserit}, true);
    play_until(s, Phase::Bidding, 1);
    const uint8_t k = give_another(s, Faction::Atreides, TreacheryKind::Karama);
    auto r = rejected(s, Faction::Atreides, play(k));
    CHECK(r.code == RejectCode::WrongPhase);  // the Battle phase
    CHECK(r.reason.find("1.14.01") != std::string::npos);
    const uint8_t k2 = give_another(s, Faction::BeneGesserit, TreacheryKind::Karama);
    CHECK(rejected(s, Faction::BeneGesserit, play(k2)).reason.find("1.14.06") != std::string::npos);
  }
  SECTION("a weapon is not played this way") {
    GameState s = game({Faction::Atreides, Faction::Harkonnen});
    play_until(s, Phase::Bidding, 1);
    const uint8_t lasgun = give_another(s, Faction::Atreides, TreacheryKind::Lasgun);
    auto r = rejected(s, Faction::Atreides, play(lasgun));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("battle plan") != std::string::npos);
    CHECK(rejected(s, Faction::Atreides, play(60)).code == RejectCode::Malformed);
  }
}

TEST_CASE("1.14.06 2.02.22 Bene Gesserit worthless card as a Karama: cancels in a window (advanced)", "[cards][rulings]") {
  GameState s = at_shipment({Faction::Guild, Faction::BeneGesserit}, true, ruling("karama_windows", "all_other_seats"));
  const uint8_t baliset = give_another(s, Faction::BeneGesserit, TreacheryKind::Baliset);
  set_spice(s, Faction::Guild, 10);
  for (int i = 0; i < 60 && !(s.phase == Phase::ShipmentMovement && s.shipmove.current == s.seat_of(Faction::Guild) && s.step == kShipStep &&
                              waiting_for(s) == rules::bit(s.seat_of(Faction::Guild)));
       ++i) {
    const Seat who = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
    Action a = pass();
    if (s.step == 3) a = action::GuildTiming{.now = true};  // the Guild goes now (2.06.12)
    if (s.window_depth > 0) a = respond(false);             // ... and nobody cancels that (3.01.11.01)
    act(s, s.faction_at(who), a);
  }
  REQUIRE(s.step == kShipStep);
  act(s, Faction::Guild, ship(data::polar_sink(), 4));
  REQUIRE(s.window_depth == 1);
  act(s, Faction::BeneGesserit, respond(true, baliset));
  CHECK(s.windows[0].cancelled == 1);
  CHECK(s.treachery_discard.top() == baliset);
}

TEST_CASE("cards and Karama windows in random games: invariants hold, every game ends (karama_windows=all_other_seats)", "[cards][rulings]") {
  int played = 0, windows = 0;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    GameSetup g = testplay::setup_for(seed * 31 + 5, 2 + static_cast<int>(seed % 5), seed % 2 == 0);
    g.rulings = ruling("karama_windows", "all_other_seats");
    GameState s = create_game(g, nullptr);
    std::string why, broken;
    const bool ok = testplay::play(s, seed, 20000, [&](const GameState& st, const testplay::Step& step) {
      if (step.action.kind() == ActionKind::PlayCard) ++played;
      if (st.window_depth > 0 && st.windows[st.window_depth - 1].kind == WindowKind::KaramaCancel) ++windows;
      if (!broken.empty()) return;
      if (step.action.kind() == ActionKind::PlayCard || st.window_depth > 0)  // views and decisions leak no hand
        for (Seat x = 0; x < st.num_seats && broken.empty(); ++x)
          if (auto p = inspect::check_projection(st, inspect::Viewer::of(x))) broken = "version " + std::to_string(st.version) + ": " + *p;
      if (auto v = inspect::check_invariants(st)) broken = "version " + std::to_string(st.version) + ": " + v->invariant + ": " + v->detail;
    }, &why);
    INFO("seed " << seed << ": " << why << broken);
    CHECK(ok);
    CHECK(broken.empty());
    CHECK(s.phase == Phase::GameOver);
  }
  CHECK(played > 0);
  CHECK(windows > 0);
}

// ---- rulings on card and Karama revivals, Family Atomics -------------------------------------

TEST_CASE("3.01.20 ruling ghola_elite_limit: the Ghola revives one Sardaukar a turn only under one_per_turn", "[cards][rulings]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor}, true);
  play_until(s, Phase::Bidding, 1);
  const uint8_t ghola = give_another(s, Faction::Emperor, TreacheryKind::TleilaxuGhola);
  to_tanks(s, Faction::Emperor, 3);
  to_tanks(s, Faction::Emperor, 2, 1);
  std::string err;
  SECTION("no_limit (default): two Sardaukar at once") {
    act(s, Faction::Emperor, play(ghola, 1 | 2 << 4));
    CHECK(s.of(Faction::Emperor).tanks[1] == 0);
  }
  SECTION("one_per_turn: two Sardaukar rejected, one accepted, then the normal revival has none left") {
    REQUIRE(s.rulings.set("ghola_elite_limit", "one_per_turn", &err));
    const auto r = rejected(s, Faction::Emperor, play(ghola, 1 | 2 << 4));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("Sardaukar") != std::string::npos);
    act(s, Faction::Emperor, play(ghola, 1 | 1 << 4));
    CHECK(s.of(Faction::Emperor).tanks[1] == 1);
    CHECK(s.of(Faction::Emperor).special_revived_turn == s.turn);
  }
}

TEST_CASE("1.14.02 ruling emperor_karama_elite_limit=no_limit: the Karama power revives two Sardaukar", "[cards][rulings]") {
  GameState s = game({Faction::Emperor, Faction::Atreides}, true);
  play_until(s, Phase::Bidding, 1);
  to_tanks(s, Faction::Emperor, 2);
  to_tanks(s, Faction::Emperor, 2, 1);
  const uint8_t karama = give_another(s, Faction::Emperor, TreacheryKind::Karama);
  std::string err;
  REQUIRE(s.rulings.set("emperor_karama_elite_limit", "no_limit", &err));
  play_until(s, Phase::Revival, 1);
  act(s, Faction::Emperor, play(karama, 1 | 2 << 4));
  CHECK(s.of(Faction::Emperor).tanks[1] == 0);
  CHECK(s.of(Faction::Emperor).tanks[0] == 1);
  // The power did not use up the turn's one Sardaukar revival.
  CHECK(s.of(Faction::Emperor).special_revived_turn != s.turn);
}

TEST_CASE("3.01.07 ruling family_atomics_advisors: advisors next to the Shield Wall qualify only under advisors_count",
          "[cards][rulings]") {
  GameState s = at_storm_2({Faction::BeneGesserit, Faction::Harkonnen}, true);
  const uint8_t fa = give_another(s, Faction::BeneGesserit, TreacheryKind::FamilyAtomics);
  // Only Bene Gesserit advisors (kind 1 in the advanced game) in Hole In The Rock, next to the Wall.
  auto& bg = s.of(Faction::BeneGesserit);
  for (int l = 0; l < data::kNumLocations; ++l)
    for (int k = 0; k < 2; ++k) {
      uint8_t& n = s.forces_at(Faction::BeneGesserit, static_cast<LocationId>(l), k);
      bg.reserves[0] = static_cast<uint8_t>(bg.reserves[0] + n);
      n = 0;
    }
  REQUIRE(bg.reserves[0] >= 2);
  bg.reserves[0] = static_cast<uint8_t>(bg.reserves[0] - 2);
  s.forces_at(Faction::BeneGesserit, loc("Hole In The Rock"), 1) = 2;
  s.storm_sector = 6;
  REQUIRE_FALSE(inspect::check_invariants(s).has_value());
  std::string err;
  SECTION("fighters_only (default)") {
    CHECK(rejected(s, Faction::BeneGesserit, play(fa)).code == RejectCode::IllegalChoice);
    CHECK_FALSE(offered(s, Faction::BeneGesserit, fa));
  }
  SECTION("advisors_count") {
    REQUIRE(s.rulings.set("family_atomics_advisors", "advisors_count", &err));
    CHECK(offered(s, Faction::BeneGesserit, fa));
    act(s, Faction::BeneGesserit, play(fa));
    CHECK(s.shield_wall_destroyed == 1);
  }
}

TEST_CASE("1.14.06 2.02.22 3.01.11.03 the Bene Gesserit buy a shipment at Guild rates with a worthless card (advanced only)", "[cards]") {
  for (const bool advanced : {true, false}) {
    INFO((advanced ? "advanced" : "basic"));
    GameState s = at_shipment({Faction::BeneGesserit, Faction::Guild}, advanced);
    const uint8_t baliset = give_another(s, Faction::BeneGesserit, TreacheryKind::Baliset);
    set_spice(s, Faction::BeneGesserit, 10);
    pass_until_ship_or_move(s, Faction::BeneGesserit);
    REQUIRE(s.step == kShipStep);
    CHECK(offered(s, Faction::BeneGesserit, baliset) == advanced);
    if (!advanced) {  // basic game: a worthless card is only a worthless card
      CHECK(rejected(s, Faction::BeneGesserit, play(baliset, rules::kKaramaGuildRates)).code == RejectCode::IllegalChoice);
      continue;
    }
    act(s, Faction::BeneGesserit, play(baliset, rules::kKaramaGuildRates));
    const int guild = s.of(Faction::Guild).spice;
    act(s, Faction::BeneGesserit, ship(loc("Polar Sink"), 5));  // 10 at full price
    CHECK(s.of(Faction::BeneGesserit).spice == 5);
    CHECK(s.of(Faction::Guild).spice == guild);
    CHECK(s.treachery_discard.top() == baliset);
  }
}
