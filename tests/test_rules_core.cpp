// Scenario tests: setup (0.xx), storm (1.01), CHOAM Charity (1.03), spice
// collection (1.08), Mentat Pause (1.09), deals and bribes (1.12).
#include <catch2/catch.hpp>

#include "core/rules/rules.h"
#include "inspect/projection.h"
#include "inspect/view.h"
#include "support/scenario.h"

using namespace scenario;

namespace {
const std::initializer_list<Faction> kSix = {Faction::Atreides, Faction::BeneGesserit, Faction::Emperor,
                                              Faction::Fremen, Faction::Harkonnen, Faction::Guild};

Action predict(Faction f, int turn) {
  action::Predict a;
  a.faction = static_cast<uint8_t>(f);
  a.turn = static_cast<uint8_t>(turn);
  return a;
}
Action select_traitor(uint8_t leader) {
  action::SelectTraitor a;
  a.leader = leader;
  return a;
}
// Moves n regular forces of f from reserves to loc.
void put(GameState& s, Faction f, LocationId loc, int n) {
  s.of(f).reserves[0] = static_cast<uint8_t>(s.of(f).reserves[0] - n);
  s.forces_at(f, loc, 0) = static_cast<uint8_t>(s.forces_at(f, loc, 0) + n);
}
}  // namespace

TEST_CASE("0.04 0.05 0.06 0.11 0.12 0.13 0.14 0.15 2.01.01 2.01.02 2.02.01 2.02.02 2.03.01 2.03.02 2.04.01 2.05.01 2.05.02 2.05.03 2.05.04 2.05.06 2.06.01 2.06.02 setup: spice, forces, traitors dealt, starting cards", "[setup]") {
  GameState s = game(kSix);
  CHECK(s.phase == Phase::Setup);
  CHECK(s.of(Faction::Atreides).spice == 10);
  CHECK(s.of(Faction::BeneGesserit).spice == 5);
  CHECK(s.of(Faction::Fremen).spice == 3);
  CHECK(s.of(Faction::Guild).spice == 5);
  CHECK(s.forces_at(Faction::Atreides, loc("Arrakeen")) == 10);
  CHECK(s.forces_at(Faction::Harkonnen, loc("Carthag")) == 10);
  CHECK(s.forces_at(Faction::Guild, loc("Tuek's Sietch")) == 5);
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Polar Sink")) == 1);  // 2.02.02 basic
  CHECK(s.of(Faction::Emperor).reserves[0] == 15);
  CHECK(s.of(Faction::Emperor).reserves[1] == 5);
  for (auto f : kSix) {
    if (f == Faction::Harkonnen) {
      CHECK(s.of(f).traitors.n == 4);  // 2.05.03 keeps all four
      CHECK(s.of(f).traitor_offer.n == 0);
      CHECK(s.of(f).hand.n == 2);  // 2.05.04 mystery card
    } else {
      CHECK(s.of(f).traitor_offer.n == 4);
      CHECK(s.of(f).hand.n == 1);
    }
  }
  CHECK(s.traitor_deck.n == 30 - 24);
  CHECK(s.treachery_deck.n == 33 - 7);
}

TEST_CASE("2.02.03 prediction comes first and rejects the Bene Gesserit themselves", "[setup]") {
  GameState s = game(kSix);
  CHECK(waiting_for(s) == rules::bit(seat(s, Faction::BeneGesserit)));
  CHECK(rejected(s, Faction::BeneGesserit, predict(Faction::BeneGesserit, 3)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::BeneGesserit, predict(Faction::Atreides, 11)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, predict(Faction::Fremen, 3)).code == RejectCode::NotYourDecision);
  act(s, Faction::BeneGesserit, predict(Faction::Fremen, 4));
  CHECK(s.of(Faction::BeneGesserit).prediction_faction == static_cast<uint8_t>(Faction::Fremen));
  CHECK(s.of(Faction::BeneGesserit).prediction_turn == 4);
  CHECK(s.step == static_cast<uint8_t>(SetupStep::Traitors));
}

TEST_CASE("0.11 traitor selection keeps one and sets the rest aside", "[setup]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen});
  REQUIRE(s.step == static_cast<uint8_t>(SetupStep::Traitors));
  CHECK(waiting_for(s) == rules::bit(seat(s, Faction::Atreides)));  // Harkonnen has nothing to choose
  const auto offer = s.of(Faction::Atreides).traitor_offer;
  uint8_t not_offered = 0;
  while (offer.contains(not_offered)) ++not_offered;
  CHECK(rejected(s, Faction::Atreides, select_traitor(not_offered)).code == RejectCode::IllegalChoice);
  act(s, Faction::Atreides, select_traitor(offer.ids[2]));
  CHECK(s.of(Faction::Atreides).traitors.n == 1);
  CHECK(s.of(Faction::Atreides).traitors.ids[0] == offer.ids[2]);
  CHECK(s.of(Faction::Atreides).traitors_discarded.n == 3);
  CHECK(s.phase == Phase::Storm);  // no Fremen, no BG: setup is over
  CHECK(s.turn == 1);
}

TEST_CASE("2.04.02 Fremen place exactly 10 forces in their three territories", "[setup]") {
  GameState s = game({Faction::Fremen, Faction::Harkonnen});
  act(s, Faction::Fremen, select_traitor(s.of(Faction::Fremen).traitor_offer.ids[0]));
  REQUIRE(s.step == static_cast<uint8_t>(SetupStep::FremenPlacement));
  action::PlaceForces bad;
  bad.placements = {Placement{loc("Sietch Tabr"), 9, 0}};
  CHECK(rejected(s, Faction::Fremen, bad).code == RejectCode::IllegalChoice);
  action::PlaceForces wrong_place = bad;
  wrong_place.placements[0] = Placement{loc("Carthag"), 10, 0};
  CHECK(rejected(s, Faction::Fremen, wrong_place).code == RejectCode::IllegalChoice);
  action::PlaceForces good;
  good.placements = {Placement{loc("Sietch Tabr"), 6, 1}, Placement{loc("False Wall West (Middle Sector)"), 3, 0}};
  act(s, Faction::Fremen, good);
  CHECK(s.forces_at(Faction::Fremen, loc("Sietch Tabr"), 0) == 6);
  CHECK(s.forces_at(Faction::Fremen, loc("Sietch Tabr"), 1) == 1);
  CHECK(s.of(Faction::Fremen).reserves[0] == 8);
  CHECK(s.of(Faction::Fremen).reserves[1] == 2);
  CHECK(s.phase == Phase::Storm);
}

TEST_CASE("2.02.08 advanced Bene Gesserit place an advisor, a fighter when alone", "[setup]") {
  GameState s = game({Faction::BeneGesserit, Faction::Atreides}, true);
  act(s, Faction::BeneGesserit, predict(Faction::Atreides, 2));
  act(s, Faction::BeneGesserit, select_traitor(s.of(Faction::BeneGesserit).traitor_offer.ids[0]));
  act(s, Faction::Atreides, select_traitor(s.of(Faction::Atreides).traitor_offer.ids[0]));
  REQUIRE(s.step == static_cast<uint8_t>(SetupStep::BgPlacement));
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Polar Sink")) == 0);
  action::PlaceForces a;
  a.placements = {Placement{loc("Arrakeen"), 1, 0}};
  act(s, Faction::BeneGesserit, a);
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Arrakeen"), 1) == 1);  // an advisor beside the Atreides
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Arrakeen"), 0) == 0);
}

TEST_CASE("0.16 first storm: two dials 0..20 move the storm from the Storm Start", "[storm]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  play_until(s, Phase::Storm, 1);
  // Dialers: the markers on either side of sector 0: seat 0 and the last seat.
  CHECK(waiting_for(s) == (rules::bit(0) | rules::bit(2)));
  CHECK(rejected(s, Faction::Atreides, dial(21)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Harkonnen, dial(3)).code == RejectCode::NotYourDecision);
  act(s, Faction::Atreides, dial(20));
  CHECK(s.storm_sector == 0);  // nothing moves until both dials are in
  act(s, Faction::Emperor, dial(5));
  CHECK(s.storm_sector == (25 % 18));
  CHECK(s.phase != Phase::Storm);
}

TEST_CASE("1.01.03 the storm destroys forces and spice in sand, not on rock or in Imperial Basin", "[storm]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen});
  play_until(s, Phase::Storm, 1);
  // Sector 1 sand (Meridian East), sector 2 rock? use known pieces in sectors 1..3.
  const auto sand1 = loc("Cielago South (West Sector)");   // sector 1, sand
  const auto sand3 = loc("Harg Pass (West Sector)");        // sector 3, sand
  const auto rock3 = loc("False Wall South (West Sector)"); // sector 3, rock
  const auto sand5 = loc("South Mesa (North Sector)");      // sector 5, beyond the storm
  put(s, Faction::Atreides, sand1, 2);
  put(s, Faction::Atreides, sand3, 1);
  put(s, Faction::Harkonnen, rock3, 4);
  put(s, Faction::Harkonnen, sand5, 3);
  transfer_spice(s, bank(), board(sand3), 6);
  transfer_spice(s, bank(), board(sand5), 4);
  act(s, Faction::Atreides, dial(1));
  act(s, Faction::Harkonnen, dial(2));  // storm 0 -> 3
  CHECK(s.storm_sector == 3);
  CHECK(s.forces_at(Faction::Atreides, sand1) == 0);
  CHECK(s.forces_at(Faction::Atreides, sand3) == 0);
  CHECK(s.of(Faction::Atreides).tanks[0] == 3);
  CHECK(s.forces_at(Faction::Harkonnen, rock3) == 4);
  CHECK(s.forces_at(Faction::Harkonnen, sand5) == 3);
  CHECK(s.spice_on_board[sand3] == 0);
  CHECK(s.spice_on_board[sand5] == 4);
}

TEST_CASE("1.01.02 later storms are dialed 1..3 by the two players who last used the battle wheels", "[storm]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  play_until(s, Phase::Storm, 2);
  // Nobody used the wheels yet: the markers nearest the storm (first and last in storm order).
  const auto order = storm_order(s);
  CHECK(waiting_for(s) == (rules::bit(order.front()) | rules::bit(order.back())));
  CHECK(rejected(s, s.faction_at(order.front()), dial(0)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, s.faction_at(order.front()), dial(4)).code == RejectCode::IllegalChoice);
  const int before = s.storm_sector;
  act(s, s.faction_at(order.front()), dial(3));
  act(s, s.faction_at(order.back()), dial(2));
  CHECK(s.storm_sector == (before + 5) % 18);
}

TEST_CASE("0.10 1.01.00 1.01.01 first player: the marker the storm next approaches", "[storm]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});  // markers at 0, 6, 12
  s.storm_sector = 4;
  CHECK(first_player(s) == 1);
  s.storm_sector = 13;
  CHECK(first_player(s) == 0);
  s.storm_sector = 6;  // on seat 1's marker: the next one is approached (ruling storm_on_marker)
  CHECK(first_player(s) == 2);
  s.rulings.value[static_cast<int>(RulingId::StormOnMarker)] = 1;
  CHECK(first_player(s) == 1);
}

TEST_CASE("2.04.13 / 2.04.16 advanced Fremen: storm deck and half losses", "[storm]") {
  GameState s = game({Faction::Fremen, Faction::Harkonnen}, true);
  CHECK(s.fremen.storm_deck.n == 6);
  play_until(s, Phase::Storm, 1);
  act(s, Faction::Fremen, dial(0));
  act(s, Faction::Harkonnen, dial(0));
  // After the first storm the Fremen hold a face-down storm card for turn 2.
  CHECK(s.fremen.storm_card >= 1);
  CHECK(s.fremen.storm_card <= 6);
  CHECK(s.fremen.storm_deck.n == 5);
  const int card = s.fremen.storm_card, before = s.storm_sector;
  while (s.turn < 2) play_step(s);
  // Turn 2's storm moved by the card, without dials; a new card was drawn.
  CHECK(s.storm_sector == (before + card) % 18);
  CHECK(s.fremen.storm_card >= 1);
  CHECK(s.fremen.storm_deck.n == 5);

  GameState h = game({Faction::Fremen, Faction::Harkonnen}, true);
  play_until(h, Phase::Storm, 1);
  const auto sand1 = loc("Cielago South (West Sector)");
  h.of(Faction::Fremen).reserves[0] = static_cast<uint8_t>(h.of(Faction::Fremen).reserves[0] - 5);
  h.forces_at(Faction::Fremen, sand1) = 5;
  act(h, Faction::Fremen, dial(1));
  act(h, Faction::Harkonnen, dial(1));
  CHECK(h.forces_at(Faction::Fremen, sand1) == 2);  // half of 5, rounded up, destroyed
  CHECK(h.of(Faction::Fremen).tanks[0] == 3);
}

TEST_CASE("1.03 CHOAM Charity: 0 or 1 spice brought to 2, once a turn, 2.02.09 Bene Gesserit always 2", "[charity]") {
  GameState s = game({Faction::Atreides, Faction::BeneGesserit, Faction::Fremen});
  play_until(s, Phase::Charity, 1);
  // Arrange: Atreides 1 spice, Fremen 5, BG 5.
  transfer_spice(s, shield(Faction::Atreides), bank(), s.of(Faction::Atreides).spice - 1);
  transfer_spice(s, bank(), shield(Faction::Fremen), 5 - s.of(Faction::Fremen).spice);
  transfer_spice(s, bank(), shield(Faction::BeneGesserit), 5 - s.of(Faction::BeneGesserit).spice);
  GameState c = s;
  rules::Ctx ctx{c, nullptr};
  rules::enter_phase(ctx, Phase::Charity);
  CHECK(waiting_for(c) == (rules::bit(seat(c, Faction::Atreides)) | rules::bit(seat(c, Faction::BeneGesserit))));
  CHECK(rejected(c, Faction::Fremen, claim_charity()).code == RejectCode::NotYourDecision);
  act(c, Faction::Atreides, claim_charity());
  CHECK(c.of(Faction::Atreides).spice == 2);
  CHECK(rejected(c, Faction::Atreides, claim_charity()).code == RejectCode::NotYourDecision);  // 1.03.02
  act(c, Faction::BeneGesserit, claim_charity());
  CHECK(c.of(Faction::BeneGesserit).spice == 7);
  CHECK(c.phase != Phase::Charity);
}

TEST_CASE("1.08 spice collection: 2 per force, 3 with Arrakeen or Carthag, 1.08.03 the rest stays", "[collection]") {
  GameState s = game({Faction::Atreides, Faction::Fremen});
  play_until(s, Phase::Storm, 1);
  s.storm_sector = 0;
  const auto flat = loc("The Great Flat");  // sector 14
  const auto basin = loc("Hagga Basin (West Sector)");
  put(s, Faction::Atreides, flat, 2);       // Atreides hold Arrakeen: 3 per force
  transfer_spice(s, bank(), board(flat), 10);
  s.of(Faction::Fremen).reserves[0] = static_cast<uint8_t>(s.of(Faction::Fremen).reserves[0] - 3);
  s.forces_at(Faction::Fremen, basin) = 3;  // 2 per force, only 4 there
  transfer_spice(s, bank(), board(basin), 4);
  const int a0 = s.of(Faction::Atreides).spice, f0 = s.of(Faction::Fremen).spice;
  rules::Ctx ctx{s, nullptr};
  rules::enter_phase(ctx, Phase::SpiceCollection);
  CHECK(s.of(Faction::Atreides).spice == a0 + 6);
  CHECK(s.spice_on_board[flat] == 4);
  CHECK(s.of(Faction::Fremen).spice == f0 + 4);
  CHECK(s.spice_on_board[basin] == 0);
  CHECK_FALSE(inspect::check_invariants(s).has_value());
}

TEST_CASE("1.13.01 advanced increased spice flow", "[collection]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Guild}, true);
  play_until(s, Phase::Storm, 1);
  const int a0 = s.of(Faction::Atreides).spice, h0 = s.of(Faction::Harkonnen).spice, g0 = s.of(Faction::Guild).spice;
  rules::Ctx ctx{s, nullptr};
  rules::enter_phase(ctx, Phase::SpiceCollection);
  CHECK(s.of(Faction::Atreides).spice == a0 + 2);   // Arrakeen
  CHECK(s.of(Faction::Harkonnen).spice == h0 + 2);  // Carthag
  CHECK(s.of(Faction::Guild).spice == g0 + 1);      // Tuek's Sietch
}

TEST_CASE("1.09.00 1.09.02 1.09.02.01 1.09.02.02 1.09.03 1.09.04 2.02.03 stronghold victory: three alone, prediction wins alone", "[mentat pause]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::BeneGesserit});
  play_until(s, Phase::Storm, 1);
  s.turn = 3;
  put(s, Faction::Atreides, loc("Sietch Tabr"), 1);  // with Arrakeen: 2 strongholds
  {
    GameState t = s;  // 2 strongholds: the war continues
    rules::Ctx ctx{t, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(t.phase == Phase::Storm);
    CHECK(t.turn == 4);
  }
  put(s, Faction::Atreides, loc("Habbanya Sietch"), 1);
  {
    GameState t = s;
    t.of(Faction::BeneGesserit).prediction_faction = static_cast<uint8_t>(Faction::Harkonnen);
    t.of(Faction::BeneGesserit).prediction_turn = 3;
    rules::Ctx ctx{t, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(t.phase == Phase::GameOver);
    CHECK(t.winners == (1u << static_cast<int>(Faction::Atreides)));
  }
  {
    GameState t = s;  // the BG predicted the Atreides on this turn
    t.of(Faction::BeneGesserit).prediction_faction = static_cast<uint8_t>(Faction::Atreides);
    t.of(Faction::BeneGesserit).prediction_turn = 3;
    rules::Ctx ctx{t, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(t.winners == (1u << static_cast<int>(Faction::BeneGesserit)));
  }
  {
    GameState t = s;  // contested: Harkonnen also in Habbanya Sietch
    put(t, Faction::Harkonnen, loc("Habbanya Sietch"), 1);
    rules::Ctx ctx{t, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(t.phase == Phase::Storm);
    GameState u = s;  // ... unless the ruling counts shared strongholds
    put(u, Faction::Harkonnen, loc("Habbanya Sietch"), 1);
    u.rulings.value[static_cast<int>(RulingId::ContestedStrongholdCounts)] = 1;
    rules::Ctx ctx2{u, nullptr};
    rules::enter_phase(ctx2, Phase::MentatPause);
    CHECK(u.phase == Phase::GameOver);
  }
}

TEST_CASE("1.09.05 2.06.08 2.06.11 game end: Guild default, most strongholds, Fremen without Guild", "[mentat pause]") {
  {
    GameState s = game({Faction::Atreides, Faction::Guild});
    play_until(s, Phase::Storm, 1);
    s.turn = s.max_turns;
    rules::Ctx ctx{s, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(s.winners == (1u << static_cast<int>(Faction::Guild)));
  }
  {
    GameState s = game({Faction::Atreides, Faction::Harkonnen});
    play_until(s, Phase::Storm, 1);
    s.turn = s.max_turns;
    put(s, Faction::Atreides, loc("Sietch Tabr"), 1);  // Atreides 2 strongholds, Harkonnen 1
    rules::Ctx ctx{s, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(s.winners == (1u << static_cast<int>(Faction::Atreides)));
  }
  {
    GameState s = game({Faction::Fremen, Faction::Atreides});
    play_until(s, Phase::Storm, 1);
    s.turn = s.max_turns;
    rules::Ctx ctx{s, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(s.winners == (1u << static_cast<int>(Faction::Fremen)));  // no Guild: the Fremen win
  }
}

TEST_CASE("0.00 1.12 1.09.01 bribes: to the front of the shield, collected at the Mentat Pause", "[deals]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen});
  action::Bribe b;
  b.to = static_cast<uint8_t>(Faction::Harkonnen);
  b.amount = 3;
  CHECK(rejected(s, Faction::Atreides, b).code == RejectCode::WrongPhase);  // not during setup
  play_until(s, Phase::Storm, 1);
  const int a0 = s.of(Faction::Atreides).spice, h0 = s.of(Faction::Harkonnen).spice;
  act(s, Faction::Atreides, b);
  CHECK(s.of(Faction::Atreides).spice == a0 - 3);
  CHECK(s.of(Faction::Harkonnen).bribes == 3);
  CHECK(s.of(Faction::Harkonnen).spice == h0);
  b.amount = 200;
  CHECK(rejected(s, Faction::Atreides, b).code == RejectCode::NotEnoughSpice);
  rules::Ctx ctx{s, nullptr};
  rules::enter_phase(ctx, Phase::MentatPause);
  CHECK(s.of(Faction::Harkonnen).bribes == 0);
  CHECK(s.of(Faction::Harkonnen).spice == h0 + 3);
  action::Deal d;
  d.text = "";
  CHECK(rejected(s, Faction::Atreides, d).code == RejectCode::Malformed);
}

TEST_CASE("2.03.06 1.10.02.04 the Emperor gives spice to his ally at any time, behind the ally's shield, no other ally may", "[deals]") {
  GameState s = game({Faction::Emperor, Faction::Harkonnen, Faction::Atreides});
  action::GiveSpice g;
  g.to = static_cast<uint8_t>(Faction::Harkonnen);
  g.amount = 4;
  CHECK(rejected(s, Faction::Emperor, g).code == RejectCode::WrongPhase);  // not during setup
  play_until(s, Phase::Storm, 1);
  // No ally yet.
  CHECK(rejected(s, Faction::Emperor, g).code == RejectCode::IllegalChoice);
  s.of(Faction::Emperor).ally = static_cast<uint8_t>(Faction::Harkonnen);
  s.of(Faction::Harkonnen).ally = static_cast<uint8_t>(Faction::Emperor);
  const int e0 = s.of(Faction::Emperor).spice, h0 = s.of(Faction::Harkonnen).spice;
  // Out of turn: the Emperor is not the seat the game waits for (or is; either way accepted).
  act(s, Faction::Emperor, g);
  CHECK(s.of(Faction::Emperor).spice == e0 - 4);
  CHECK(s.of(Faction::Harkonnen).spice == h0 + 4);  // behind the shield at once, not a bribe
  CHECK(s.of(Faction::Harkonnen).bribes == 0);
  // The ally may not give back (1.10.02.04), nor bribe the Emperor.
  action::GiveSpice back = g;
  back.to = static_cast<uint8_t>(Faction::Emperor);
  const auto r = rejected(s, Faction::Harkonnen, back);
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("1.10.02.04"));
  // Only to the ally; at least 1; no more than he holds.
  action::GiveSpice other = g;
  other.to = static_cast<uint8_t>(Faction::Atreides);
  CHECK(rejected(s, Faction::Emperor, other).code == RejectCode::IllegalChoice);
  g.amount = 0;
  CHECK(rejected(s, Faction::Emperor, g).code == RejectCode::Malformed);
  g.amount = static_cast<uint16_t>(s.of(Faction::Emperor).spice + 1);
  CHECK(rejected(s, Faction::Emperor, g).code == RejectCode::NotEnoughSpice);
  // A seat not waited for may give, but only waited-for seats are offered it.
  const Seat emp = s.seat_of(Faction::Emperor);
  const bool emp_waited = (waiting_for(s) >> emp) & 1u;
  bool offered = false;
  for (const auto& a : legal_actions(s, emp)) {
    if (a.kind() != ActionKind::GiveSpice) continue;
    offered = true;
    CHECK_FALSE(validate(s, emp, a).has_value());
  }
  CHECK(offered == emp_waited);
  // A response window pauses everything, gifts too (1.00.05).
  s.windows[0].kind = WindowKind::Truthtrance;
  s.window_depth = 1;
  g.amount = 1;
  CHECK(rejected(s, Faction::Emperor, g).code == RejectCode::WrongPhase);
}

TEST_CASE("1.10.02.05 1.10.02.06 AllyPermission: only with an ally, bids only under ruling ally_bid_support=permission", "[deals]") {
  GameState s = game({Faction::Emperor, Faction::Harkonnen});
  play_until(s, Phase::Storm, 1);
  action::AllyPermission p;
  p.shipment = 5;
  CHECK(rejected(s, Faction::Harkonnen, p).code == RejectCode::IllegalChoice);  // no ally
  s.of(Faction::Emperor).ally = static_cast<uint8_t>(Faction::Harkonnen);
  s.of(Faction::Harkonnen).ally = static_cast<uint8_t>(Faction::Emperor);
  act(s, Faction::Harkonnen, p);
  CHECK(s.of(Faction::Harkonnen).permit_ship == 5);
  p.bids = 3;
  const auto r = rejected(s, Faction::Harkonnen, p);
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("ally_bid_support"));
  // The permission is known to the allies only.
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Emperor))), Catch::Contains("\"ally_permission_shipment\": 5"));
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::observer()), Catch::Contains("\"ally_permission_shipment\": null"));
}

TEST_CASE("2.04.09 2.04.09.01 2.04.09.02 2.04.09.03 2.04.12 Fremen special victory with the Guild in the game", "[mentat pause]") {
  GameState s = game({Faction::Fremen, Faction::Guild, Faction::Atreides});
  play_until(s, Phase::Storm, 1);
  s.turn = s.max_turns;
  s.of(Faction::Fremen).ally = static_cast<uint8_t>(Faction::Atreides);
  s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Fremen);
  {
    GameState t = s;  // Sietch Tabr and Habbanya Sietch empty or Fremen, Tuek's Sietch only the Guild
    rules::Ctx ctx{t, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(t.winners == ((1u << static_cast<int>(Faction::Fremen)) | (1u << static_cast<int>(Faction::Atreides))));
  }
  {
    GameState t = s;  // the Atreides in Tuek's Sietch spoil it: the Guild wins
    put(t, Faction::Atreides, loc("Tuek's Sietch"), 1);
    rules::Ctx ctx{t, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(t.winners == (1u << static_cast<int>(Faction::Guild)));
  }
  {
    GameState t = s;  // another faction in Habbanya Sietch spoils it too
    put(t, Faction::Guild, loc("Habbanya Sietch"), 1);
    rules::Ctx ctx{t, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(t.winners == (1u << static_cast<int>(Faction::Guild)));
  }
}

TEST_CASE("2.01.04 2.02.04 2.03.03 2.04.04 2.05.05 2.06.03 free revival per faction", "[revival]") {
  GameState s = game(kSix);
  play_until(s, Phase::Storm, 1);
  const std::pair<Faction, int> free[] = {{Faction::Atreides, 2}, {Faction::BeneGesserit, 1}, {Faction::Emperor, 1},
                                          {Faction::Fremen, 3}, {Faction::Harkonnen, 2}, {Faction::Guild, 1}};
  for (auto [f, n] : free) {
    CHECK(data::faction_setup(f).free_revival == n);
    s.of(f).reserves[0] = static_cast<uint8_t>(s.of(f).reserves[0] - 3);
    s.of(f).tanks[0] = static_cast<uint8_t>(s.of(f).tanks[0] + 3);
  }
  rules::Ctx ctx{s, nullptr};
  rules::enter_phase(ctx, Phase::Revival);
  for (auto [f, n] : free) {
    const int spice = s.of(f).spice;
    act(s, f, revive(n));
    CHECK(s.of(f).tanks[0] == 3 - n);
    CHECK(s.of(f).spice == spice);  // free
  }
}

TEST_CASE("1.10.02 1.10.02.01 1.10.02.02 allies win together with 4 strongholds, a stronghold both hold counts once", "[mentat pause]") {
  // Atreides start in Arrakeen, Harkonnen in Carthag; the Emperor has no forces on the board.
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  play_until(s, Phase::Storm, 1);
  s.turn = 3;
  s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Harkonnen);
  s.of(Faction::Harkonnen).ally = static_cast<uint8_t>(Faction::Atreides);
  const auto mentat_pause = [](GameState t) {
    rules::Ctx ctx{t, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    return t;
  };
  put(s, Faction::Atreides, loc("Sietch Tabr"), 1);
  put(s, Faction::Harkonnen, loc("Arrakeen"), 1);  // shares Arrakeen with its ally: not contested
  {
    // Arrakeen, Carthag, Sietch Tabr: 3 strongholds are not enough for an alliance (1.10.02.02),
    // and Arrakeen, held by both, counts once (1.10.02.01).
    const GameState t = mentat_pause(s);
    CHECK(t.phase == Phase::Storm);
    CHECK(t.winners == 0);
  }
  put(s, Faction::Harkonnen, loc("Habbanya Sietch"), 1);
  {
    const GameState t = mentat_pause(s);  // 4 together: both win
    CHECK(t.phase == Phase::GameOver);
    CHECK(t.winners == ((1u << static_cast<int>(Faction::Atreides)) | (1u << static_cast<int>(Faction::Harkonnen))));
  }
  {
    GameState u = s;  // the Emperor in Habbanya Sietch contests it: 3 again
    put(u, Faction::Emperor, loc("Habbanya Sietch"), 1);
    const GameState t = mentat_pause(u);
    CHECK(t.phase == Phase::Storm);
  }
  {
    GameState u = s;  // without the alliance the Harkonnen hold 3 alone (Arrakeen is contested) and win alone
    u.of(Faction::Atreides).ally = kNoFaction;
    u.of(Faction::Harkonnen).ally = kNoFaction;
    put(u, Faction::Harkonnen, loc("Tuek's Sietch"), 1);
    const GameState t = mentat_pause(u);
    CHECK(t.winners == (1u << static_cast<int>(Faction::Harkonnen)));
  }
}

TEST_CASE("1.12.00 1.12.01 1.12.02 1.12.03 1.12.05 deals between anyone change nothing, spice bribes only between non-allies, in front of the shield, never in the Mentat Pause",
          "[deals]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  play_until(s, Phase::Storm, 1);
  s.of(Faction::Atreides).ally = static_cast<uint8_t>(Faction::Harkonnen);
  s.of(Faction::Harkonnen).ally = static_cast<uint8_t>(Faction::Atreides);
  // 1.12.00 / 1.12.01: allies may make deals (recorded text, nothing moves).
  action::Deal d;
  d.text = "the Harkonnen will not attack Arrakeen this turn";
  d.with = {static_cast<uint8_t>(Faction::Harkonnen)};
  const GameState before = s;
  act(s, Faction::Atreides, d);
  for (auto f : {Faction::Atreides, Faction::Harkonnen, Faction::Emperor}) {
    CHECK(s.of(f).spice == before.of(f).spice);
    CHECK(s.of(f).bribes == before.of(f).bribes);
    CHECK(s.of(f).hand.n == before.of(f).hand.n);
    CHECK(s.of(f).reserves[0] == before.of(f).reserves[0]);
  }
  CHECK(s.phase == before.phase);
  CHECK(s.waiting == before.waiting);
  // 1.12.01: spice in a deal is a bribe, which allies may not make.
  action::Bribe b;
  b.to = static_cast<uint8_t>(Faction::Harkonnen);
  b.amount = 2;
  auto r = rejected(s, Faction::Atreides, b);
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("1.10.02.04"));
  // 1.12.00 / 1.12.02 / 1.12.03: a non-ally may be bribed, with spice only, put in front of its shield (public).
  b.to = static_cast<uint8_t>(Faction::Emperor);
  const int emperor = s.of(Faction::Emperor).spice;
  act(s, Faction::Atreides, b);
  CHECK(s.of(Faction::Emperor).bribes == 2);
  CHECK(s.of(Faction::Emperor).spice == emperor);
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::observer()), Catch::Contains("\"bribes\": 2"));
  // 1.12.05: none in the Mentat Pause (collected there, 1.09.01).
  GameState m = s;
  m.phase = Phase::MentatPause;
  CHECK(rejected(m, Faction::Atreides, b).code == RejectCode::WrongPhase);
  CHECK(rejected(m, Faction::Harkonnen, b).code == RejectCode::WrongPhase);
}

TEST_CASE("3.01.11.02 2.04.16 prevented: the next storm that catches Fremen forces destroys them all", "[storm][karama]") {
  GameState h = game({Faction::Fremen, Faction::Harkonnen}, true);
  play_until(h, Phase::Storm, 1);
  const auto sand1 = loc("Cielago South (West Sector)");
  h.of(Faction::Fremen).reserves[0] = static_cast<uint8_t>(h.of(Faction::Fremen).reserves[0] - 5);
  h.forces_at(Faction::Fremen, sand1) = 5;
  h.prevented[static_cast<int>(Faction::Fremen)] |= 1u << static_cast<int>(rules::Ability::FremenStormLosses);
  act(h, Faction::Fremen, dial(1));
  act(h, Faction::Harkonnen, dial(1));
  CHECK(h.forces_at(Faction::Fremen, sand1) == 0);
  CHECK(h.of(Faction::Fremen).tanks[0] == 5);
  CHECK(h.prevented[static_cast<int>(Faction::Fremen)] == 0);
}

TEST_CASE("3.01.11.02 2.04.14 prevented: the Fremen do not see the next storm card, then see again", "[storm][karama][views]") {
  GameState s = game({Faction::Fremen, Faction::Harkonnen}, true);
  play_until(s, Phase::Storm, 1);
  s.prevented[static_cast<int>(Faction::Fremen)] |= 1u << static_cast<int>(rules::Ability::FremenStormCard);
  act(s, Faction::Fremen, dial(0));
  act(s, Faction::Harkonnen, dial(0));
  REQUIRE(s.fremen.storm_card >= 1);
  CHECK(s.fremen.storm_card_hidden == 1);
  CHECK(s.prevented[static_cast<int>(Faction::Fremen)] == 0);
  const std::string hidden = "\"storm_card\": null";
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Fremen))), Catch::Contains(hidden));
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::observer()), Catch::Contains(hidden));
  for (Seat x = 0; x < s.num_seats; ++x) CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::of(x)).has_value());
  while (s.turn < 2) play_step(s);  // turn 2's storm moves by the card and the next card is drawn
  CHECK(s.fremen.storm_card_hidden == 0);
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Fremen))), !Catch::Contains(hidden));
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Harkonnen))), Catch::Contains(hidden));
}

TEST_CASE("1.12.04 0.00 ruling deal_timing: deals and bribes during the first storm only under storm_phase", "[deals][rulings]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  play_until(s, Phase::Storm, 1);
  REQUIRE(s.turn == 1);
  action::Deal d;
  d.text = "no attack on Arrakeen";
  d.with = {static_cast<uint8_t>(Faction::Harkonnen)};
  action::Bribe b;
  b.to = static_cast<uint8_t>(Faction::Emperor);
  b.amount = 1;
  SECTION("storm_phase (default): accepted while the first storm is dialed") {
    CHECK_FALSE(validate(s, s.seat_of(Faction::Atreides), d).has_value());
    CHECK_FALSE(validate(s, s.seat_of(Faction::Atreides), b).has_value());
  }
  SECTION("after_first_storm: refused until the storm is placed, then accepted") {
    std::string err;
    REQUIRE(s.rulings.set("deal_timing", "after_first_storm", &err));
    auto r = rejected(s, Faction::Atreides, d);
    CHECK(r.code == RejectCode::WrongPhase);
    CHECK_THAT(r.reason, Catch::Contains("1.12.04"));
    CHECK(rejected(s, Faction::Atreides, b).code == RejectCode::WrongPhase);
    play_until(s, Phase::Bidding, 1);
    act(s, Faction::Atreides, d);
    act(s, Faction::Atreides, b);
    CHECK(s.of(Faction::Emperor).bribes == 1);
  }
}

TEST_CASE("1.09.05 2.04.12 ruling fremen_default_win: the Fremen default win without the Guild, with or without their ally", "[mentat pause][rulings]") {
  GameState s = game({Faction::Fremen, Faction::Atreides, Faction::Harkonnen});
  play_until(s, Phase::Storm, 1);
  s.turn = s.max_turns;
  ally(s, Faction::Fremen, Faction::Atreides);
  const FactionMask fremen = 1u << static_cast<int>(Faction::Fremen);
  const FactionMask atreides = 1u << static_cast<int>(Faction::Atreides);
  SECTION("with_ally (default): the ally wins with the Fremen") {
    rules::Ctx ctx{s, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(s.phase == Phase::GameOver);
    CHECK(s.winners == (fremen | atreides));
  }
  SECTION("alone: only the Fremen win (2.04.12 shares only the special victory)") {
    std::string err;
    REQUIRE(s.rulings.set("fremen_default_win", "alone", &err));
    rules::Ctx ctx{s, nullptr};
    rules::enter_phase(ctx, Phase::MentatPause);
    CHECK(s.phase == Phase::GameOver);
    CHECK(s.winners == fremen);
  }
}

TEST_CASE("2.04.09 2.04.12 ruling fremen_default_win=alone: the special victory with the Guild stays shared", "[mentat pause][rulings]") {
  GameState s = game({Faction::Fremen, Faction::Atreides, Faction::Guild});
  play_until(s, Phase::Storm, 1);
  s.turn = s.max_turns;
  ally(s, Faction::Fremen, Faction::Atreides);
  // 2.04.09.03: no Atreides in Tuek's Sietch (only the Guild's starting forces there).
  REQUIRE(s.forces_at(Faction::Atreides, loc("Tuek's Sietch")) == 0);
  std::string err;
  REQUIRE(s.rulings.set("fremen_default_win", "alone", &err));
  rules::Ctx ctx{s, nullptr};
  rules::enter_phase(ctx, Phase::MentatPause);
  CHECK(s.phase == Phase::GameOver);
  CHECK(s.winners == ((1u << static_cast<int>(Faction::Fremen)) | (1u << static_cast<int>(Faction::Atreides))));
}
