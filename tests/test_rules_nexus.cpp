// Scenario tests of the Nexus (1.02.06, 1.10.01) and of 2.04.08 Beast of
// Burden (the Fremen ride the sandworm upon conclusion of the Nexus).
//
// Each scenario stops in the Storm phase of turn 1, makes it turn 2, puts a
// territory card on the spice discard pile and a Shai-Hulud then a territory
// card on top of the deck, and dials the storm: the spice blow runs and a
// Nexus follows.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/scenario.h"

using namespace scenario;

namespace {

constexpr uint8_t kBrokenLand = 0;   // Broken Land (West Sector)
constexpr uint8_t kFuneralPlain = 3;
constexpr uint8_t kHabbanyaErg = 4;
constexpr uint8_t kWorm1 = 15, kWorm2 = 16;

uint8_t bit_of(const GameState& s, Faction f) { return static_cast<uint8_t>(1u << s.seat_of(f)); }
uint8_t all_seats(const GameState& s) { return static_cast<uint8_t>((1u << s.num_seats) - 1); }

// Turn 2, storm phase, storm at sector 4 (dials 1+1 end it on sector 6);
// Broken Land is the topmost territory card of pile A and the deck reveals
// a Shai-Hulud then Funeral Plain. `prepare` may place forces first.
template <class F>
GameState to_nexus(std::initializer_list<Faction> factions, F prepare, bool advanced = false,
                   Rulings rulings = Rulings::defaults()) {
  GameState s = game(factions, advanced, 7, rulings);
  play_until(s, Phase::Storm);
  s.turn = 2;
  s.storm_sector = 4;
  discard_spice_onto(s, 0, {kBrokenLand});
  stack_spice_deck(s, {kWorm1, kFuneralPlain, kHabbanyaErg});
  prepare(s);
  act(s, s.faction_at(static_cast<Seat>(s.storm_dialers[0])), dial(1));
  act(s, s.faction_at(static_cast<Seat>(s.storm_dialers[1])), dial(1));
  return s;
}
GameState to_nexus(std::initializer_list<Faction> factions) {
  return to_nexus(factions, [](GameState&) {});
}

Action propose(Faction f) {
  action::ProposeAlliance a;
  a.with = static_cast<uint8_t>(f);
  return a;
}
Action accept(Faction f) {
  action::AcceptAlliance a;
  a.with = static_cast<uint8_t>(f);
  return a;
}
Action break_alliance() { return make(ActionKind::BreakAlliance); }
Action ride(LocationId to, int forces = 0, int special = 0) {
  action::WormRide a;
  a.to = to;
  a.forces = static_cast<uint8_t>(forces);
  a.special = static_cast<uint8_t>(special);
  return a;
}

void all_pass(GameState& s) {
  for (Seat x = 0; x < s.num_seats; ++x)
    if ((waiting_for(s) >> x) & 1u) act(s, s.faction_at(x), pass());
}

const auto kFour = {Faction::Atreides, Faction::BeneGesserit, Faction::Emperor, Faction::Harkonnen};
const auto kWithFremen = {Faction::Atreides, Faction::BeneGesserit, Faction::Fremen, Faction::Harkonnen};

}  // namespace

TEST_CASE("1.02.06 1.10.01 a Nexus asks every seat, then CHOAM Charity follows", "[nexus]") {
  GameState s = to_nexus(kFour);
  REQUIRE(s.phase == Phase::Nexus);
  CHECK(s.nexus_pending == 0);
  CHECK(waiting_for(s) == all_seats(s));
  check_legal(s);
  act(s, Faction::Atreides, pass());
  CHECK(waiting_for(s) == (all_seats(s) & ~bit_of(s, Faction::Atreides)));
  CHECK(rejected(s, Faction::Atreides, pass()).code == RejectCode::NotYourDecision);
  act(s, Faction::BeneGesserit, pass());
  act(s, Faction::Emperor, pass());
  CHECK(s.phase == Phase::Nexus);
  act(s, Faction::Harkonnen, pass());
  CHECK(s.phase == Phase::Charity);  // 1.10.01.07
}

TEST_CASE("1.10.01.02 proposing and accepting forms an alliance, made public", "[nexus]") {
  GameState s = to_nexus(kFour);
  act(s, Faction::Atreides, propose(Faction::Harkonnen));
  CHECK(s.of(Faction::Atreides).proposal == static_cast<uint8_t>(Faction::Harkonnen));
  CHECK(s.of(Faction::Atreides).ally == kNoFaction);
  check_legal(s);
  auto ds = decisions(s, seat(s, Faction::Harkonnen));
  bool offered = false;
  for (const auto& d : ds)
    if (d.kind == ActionKind::AcceptAlliance)
      for (auto o : d.options) offered |= o == static_cast<uint16_t>(Faction::Atreides);
  CHECK(offered);
  act(s, Faction::Harkonnen, accept(Faction::Atreides));
  CHECK(s.of(Faction::Atreides).ally == static_cast<uint8_t>(Faction::Harkonnen));
  CHECK(s.of(Faction::Harkonnen).ally == static_cast<uint8_t>(Faction::Atreides));
  CHECK(s.of(Faction::Atreides).proposal == kNoFaction);
  // Both stay asked until they pass.
  CHECK(waiting_for(s) == all_seats(s));
  all_pass(s);
  CHECK(s.phase == Phase::Charity);
  CHECK(s.of(Faction::Atreides).ally == static_cast<uint8_t>(Faction::Harkonnen));
}

TEST_CASE("1.10.01.02 accepting needs a proposal from that faction", "[nexus]") {
  GameState s = to_nexus(kFour);
  auto r = rejected(s, Faction::Harkonnen, accept(Faction::Atreides));
  CHECK(r.code == RejectCode::IllegalChoice);
  act(s, Faction::Atreides, propose(Faction::Emperor));
  CHECK(rejected(s, Faction::Harkonnen, accept(Faction::Atreides)).code == RejectCode::IllegalChoice);
  // A new proposal replaces the previous one.
  act(s, Faction::Atreides, propose(Faction::Harkonnen));
  CHECK(rejected(s, Faction::Emperor, accept(Faction::Atreides)).code == RejectCode::IllegalChoice);
  act(s, Faction::Harkonnen, accept(Faction::Atreides));
  CHECK(s.of(Faction::Harkonnen).ally == static_cast<uint8_t>(Faction::Atreides));
}

TEST_CASE("1.10.01.04 1.10.01.05 no alliance of three, one alliance per player", "[nexus]") {
  GameState s = to_nexus(kFour);
  act(s, Faction::Atreides, propose(Faction::Harkonnen));
  act(s, Faction::Emperor, propose(Faction::Harkonnen));
  act(s, Faction::Harkonnen, accept(Faction::Atreides));
  // Harkonnen is allied: the Emperor's offer can no longer be accepted.
  CHECK(rejected(s, Faction::Harkonnen, accept(Faction::Emperor)).code == RejectCode::IllegalChoice);
  // Nobody may propose to an allied player, nor may an allied player propose.
  CHECK(rejected(s, Faction::BeneGesserit, propose(Faction::Atreides)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, propose(Faction::BeneGesserit)).code == RejectCode::IllegalChoice);
  // Several alliances may form in one Nexus.
  act(s, Faction::BeneGesserit, propose(Faction::Emperor));
  act(s, Faction::Emperor, accept(Faction::BeneGesserit));
  CHECK(s.of(Faction::Emperor).ally == static_cast<uint8_t>(Faction::BeneGesserit));
  check_legal(s);
}

TEST_CASE("1.10.01.06 breaking an alliance clears both sides", "[nexus]") {
  GameState t = to_nexus(kFour, [](GameState& x) { ally(x, Faction::Atreides, Faction::Harkonnen); });
  REQUIRE(t.phase == Phase::Nexus);
  CHECK(rejected(t, Faction::Emperor, break_alliance()).code == RejectCode::IllegalChoice);
  act(t, Faction::Harkonnen, pass());
  act(t, Faction::Atreides, break_alliance());
  CHECK(t.of(Faction::Atreides).ally == kNoFaction);
  CHECK(t.of(Faction::Harkonnen).ally == kNoFaction);
  // The former ally is asked again.
  CHECK((waiting_for(t) & bit_of(t, Faction::Harkonnen)) != 0);
  check_legal(t);
  // Both may ally elsewhere in this Nexus (neither has allied in it yet).
  act(t, Faction::Harkonnen, propose(Faction::Emperor));
  act(t, Faction::Emperor, accept(Faction::Harkonnen));
  CHECK(t.of(Faction::Harkonnen).ally == static_cast<uint8_t>(Faction::Emperor));
}

TEST_CASE("1.10.02.06 an ally's AllyPermission ends with the alliance, and a new alliance starts without", "[nexus]") {
  GameState t = to_nexus(kFour, [](GameState& x) { ally(x, Faction::Atreides, Faction::Harkonnen); });
  REQUIRE(t.phase == Phase::Nexus);
  action::AllyPermission p;
  p.shipment = 4;
  act(t, Faction::Harkonnen, p);
  act(t, Faction::Atreides, p);
  CHECK(t.of(Faction::Harkonnen).permit_ship == 4);
  act(t, Faction::Harkonnen, pass());
  act(t, Faction::Atreides, break_alliance());
  CHECK(t.of(Faction::Harkonnen).permit_ship == 0);
  CHECK(t.of(Faction::Atreides).permit_ship == 0);
  CHECK(rejected(t, Faction::Harkonnen, p).code == RejectCode::IllegalChoice);  // no ally now
  act(t, Faction::Harkonnen, propose(Faction::Emperor));
  act(t, Faction::Emperor, accept(Faction::Harkonnen));
  CHECK(t.of(Faction::Harkonnen).permit_ship == 0);
  CHECK(t.of(Faction::Emperor).permit_ship == 0);
}

TEST_CASE("1.10.01.02 a player may ally once per Nexus", "[nexus]") {
  GameState s = to_nexus(kFour);
  act(s, Faction::Atreides, propose(Faction::Harkonnen));
  act(s, Faction::Harkonnen, accept(Faction::Atreides));
  act(s, Faction::Atreides, break_alliance());
  auto r = rejected(s, Faction::Atreides, propose(Faction::Emperor));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK(r.reason.find("once") != std::string::npos);
  CHECK(rejected(s, Faction::Emperor, propose(Faction::Harkonnen)).code == RejectCode::IllegalChoice);
}

TEST_CASE("1.10.01 a proposal re-opens the decision of a seat that passed, one proposal per faction", "[nexus]") {
  GameState s = to_nexus(kFour);
  act(s, Faction::Harkonnen, pass());
  CHECK((waiting_for(s) & bit_of(s, Faction::Harkonnen)) == 0);
  act(s, Faction::Atreides, propose(Faction::Harkonnen));
  CHECK((waiting_for(s) & bit_of(s, Faction::Harkonnen)) != 0);
  // Proposing twice to the same faction in one Nexus is refused (it would
  // let two seats keep the Nexus open for ever).
  act(s, Faction::Atreides, propose(Faction::Emperor));
  CHECK(rejected(s, Faction::Atreides, propose(Faction::Harkonnen)).code == RejectCode::IllegalChoice);
  // The proposal outlives the proposer's pass.
  act(s, Faction::Atreides, pass());
  act(s, Faction::Emperor, accept(Faction::Atreides));
  CHECK(s.of(Faction::Atreides).ally == static_cast<uint8_t>(Faction::Emperor));
}

TEST_CASE("1.10.01 Nexus rejections", "[nexus]") {
  GameState s = to_nexus(kFour);
  CHECK(rejected(s, Faction::Atreides, propose(Faction::Atreides)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, propose(Faction::Fremen)).code == RejectCode::Malformed);
  Action junk = action::ProposeAlliance{.with = 99};
  CHECK(rejected(s, Faction::Atreides, junk).code == RejectCode::Malformed);
  CHECK(rejected(s, Faction::Atreides, claim_charity()).code == RejectCode::WrongPhase);
  CHECK(rejected(s, Faction::Atreides, ride(loc("The Great Flat"))).code == RejectCode::WrongPhase);
}

TEST_CASE("1.10.01.07 a Nexus always ends, whatever the seats choose", "[nexus]") {
  // Every seat always takes the first non-pass legal action it has.
  GameState s = to_nexus(kFour);
  int steps = 0;
  while (s.phase == Phase::Nexus && steps < 200) {
    const uint8_t w = waiting_for(s);
    const Seat who = static_cast<Seat>(__builtin_ctz(w));
    auto acts = legal_actions(s, who);
    REQUIRE_FALSE(acts.empty());
    Action chosen = acts.back();
    for (const auto& a : acts)
      if (a.kind() != ActionKind::Pass) {
        chosen = a;
        break;
      }
    act(s, s.faction_at(who), chosen);
    ++steps;
  }
  CHECK(s.phase == Phase::Charity);
  CHECK(steps < 200);
}

TEST_CASE("1.02.03 no Nexus on turn 1", "[nexus]") {
  GameState s = game(kFour);
  play_until(s, Phase::Storm);
  stack_spice_deck(s, {kWorm1, kWorm2, kFuneralPlain});
  act(s, s.faction_at(static_cast<Seat>(s.storm_dialers[0])), dial(0));
  act(s, s.faction_at(static_cast<Seat>(s.storm_dialers[1])), dial(0));
  CHECK(s.phase == Phase::Charity);
  CHECK(s.nexus_pending == 0);
}

TEST_CASE("2.04.08 Beast of Burden: the Fremen ride the worm upon conclusion of the Nexus", "[nexus]") {
  const LocationId ble = loc("Broken Land (East Sector)"), blw = loc("Broken Land (West Sector)");
  const LocationId gf = loc("The Great Flat");
  GameState s = to_nexus(kWithFremen, [&](GameState& x) {
    place(x, Faction::Fremen, ble, 2);
    place(x, Faction::Fremen, blw, 3, 1);
  });
  REQUIRE(s.phase == Phase::Nexus);
  all_pass(s);
  // The alliances are done; the Fremen may ride.
  REQUIRE(s.phase == Phase::Nexus);
  REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
  check_legal(s);

  SECTION("all the forces ride") {
    act(s, Faction::Fremen, ride(gf));
    CHECK(s.forces_at(Faction::Fremen, gf, 0) == 5);
    CHECK(s.forces_at(Faction::Fremen, gf, 1) == 1);
    CHECK(s.forces_in_territory(Faction::Fremen, data::territory_of(blw)) == 0);
  }
  SECTION("some of the forces ride") {
    act(s, Faction::Fremen, ride(gf, 3, 0));
    CHECK(s.forces_at(Faction::Fremen, gf, 0) == 3);
    CHECK(s.forces_in_territory(Faction::Fremen, data::territory_of(blw)) == 3);
  }
  SECTION("they stay") {
    act(s, Faction::Fremen, pass());
    CHECK(s.forces_in_territory(Faction::Fremen, data::territory_of(blw)) == 6);
  }
  CHECK(s.phase == Phase::Charity);
}

TEST_CASE("2.04.08 forces in the storm do not ride", "[nexus]") {
  const LocationId ble = loc("Broken Land (East Sector)"), blw = loc("Broken Land (West Sector)");
  const LocationId gf = loc("The Great Flat");
  GameState s = to_nexus(kWithFremen, [&](GameState& x) {
    place(x, Faction::Fremen, ble, 2);
    place(x, Faction::Fremen, blw, 3);
  });
  s.storm_sector = 11;  // over Broken Land (West Sector)
  all_pass(s);
  REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
  CHECK(rejected(s, Faction::Fremen, ride(gf, 3)).code == RejectCode::IllegalChoice);
  act(s, Faction::Fremen, ride(gf));
  CHECK(s.forces_in_location(Faction::Fremen, gf) == 2);
  CHECK(s.forces_in_location(Faction::Fremen, blw) == 3);
  CHECK(s.phase == Phase::Charity);
}

TEST_CASE("2.04.08 worm ride rejections: ally, storm, occupancy, same territory", "[nexus]") {
  const LocationId blw = loc("Broken Land (West Sector)");
  GameState s = to_nexus(kWithFremen, [&](GameState& x) {
    place(x, Faction::Fremen, blw, 3);
    ally(x, Faction::Fremen, Faction::Atreides);
    // Tuek's Sietch: Harkonnen and the Bene Gesserit there.
    place(x, Faction::Harkonnen, loc("Tuek's Sietch"), 1);
    place(x, Faction::BeneGesserit, loc("Tuek's Sietch"), 1);
  });
  all_pass(s);
  REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
  CHECK(rejected(s, Faction::Fremen, ride(loc("Arrakeen"))).code == RejectCode::IllegalChoice);  // the ally is there
  CHECK(rejected(s, Faction::Fremen, ride(loc("Red Chasm"))).code == RejectCode::Storm);         // storm on sector 6
  CHECK(rejected(s, Faction::Fremen, ride(loc("Tuek's Sietch"))).code == RejectCode::Occupancy);
  CHECK(rejected(s, Faction::Fremen, ride(loc("Broken Land (East Sector)"))).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Fremen, ride(loc("The Great Flat"), 4)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Fremen, ride(250)).code == RejectCode::Malformed);
  CHECK(rejected(s, Faction::Atreides, pass()).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, Faction::Fremen, propose(Faction::Harkonnen)).code == RejectCode::WrongPhase);
  // Into a stronghold with one other faction: allowed.
  CHECK_FALSE(validate(s, seat(s, Faction::Fremen), ride(loc("Carthag"))).has_value());
}

TEST_CASE("2.04.08 no ride without Fremen forces where the worm appeared", "[nexus]") {
  GameState s = to_nexus(kWithFremen);
  all_pass(s);
  CHECK(s.phase == Phase::Charity);
}

TEST_CASE("2.04.08 a ride for each worm: the Fremen may ride again", "[nexus]") {
  const LocationId blw = loc("Broken Land (West Sector)"), gf = loc("The Great Flat");
  GameState s = game(kWithFremen);
  play_until(s, Phase::Storm);
  s.turn = 2;
  s.storm_sector = 4;
  discard_spice_onto(s, 0, {kBrokenLand});
  stack_spice_deck(s, {kWorm1, kWorm2, kFuneralPlain});
  place(s, Faction::Fremen, blw, 4);
  act(s, s.faction_at(static_cast<Seat>(s.storm_dialers[0])), dial(1));
  act(s, s.faction_at(static_cast<Seat>(s.storm_dialers[1])), dial(1));
  REQUIRE(s.phase == Phase::Nexus);
  all_pass(s);
  REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
  act(s, Faction::Fremen, ride(gf, 1));
  REQUIRE(s.phase == Phase::Nexus);  // the second worm: ride again
  REQUIRE(waiting_for(s) == bit_of(s, Faction::Fremen));
  act(s, Faction::Fremen, ride(gf, 2));
  CHECK(s.forces_in_location(Faction::Fremen, gf) == 3);
  CHECK(s.forces_in_location(Faction::Fremen, blw) == 1);
  CHECK(s.phase == Phase::Charity);
}

// ---- rulings (docs/RULINGS.md) -----------------------------------------------

TEST_CASE("1.10.01.07 ruling nexus_reopen=never", "[nexus][rulings]") {
  Rulings never = Rulings::defaults();
  std::string err;
  REQUIRE(never.set("nexus_reopen", "never", &err));

  SECTION("a seat that passed receives no proposal") {
    GameState s = to_nexus(kFour, [](GameState&) {}, false, never);
    REQUIRE(s.phase == Phase::Nexus);
    act(s, Faction::Harkonnen, pass());
    // The default re-opens Harkonnen's decision; here the proposal is refused.
    auto r = rejected(s, Faction::Atreides, propose(Faction::Harkonnen));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("passed") != std::string::npos);
    for (const auto& d : decisions(s, seat(s, Faction::Atreides)))
      if (d.kind == ActionKind::ProposeAlliance)
        for (auto o : d.options) CHECK(o != static_cast<uint16_t>(Faction::Harkonnen));
    check_legal(s);
    // A seat still deciding may be proposed to, and may accept.
    act(s, Faction::Atreides, propose(Faction::Emperor));
    act(s, Faction::Atreides, pass());
    act(s, Faction::Emperor, accept(Faction::Atreides));
    CHECK(s.of(Faction::Emperor).ally == static_cast<uint8_t>(Faction::Atreides));
    CHECK((waiting_for(s) & bit_of(s, Faction::Atreides)) == 0);  // not re-opened by the acceptance
    all_pass(s);
    CHECK(s.phase == Phase::Charity);
  }
  SECTION("a broken alliance does not re-open the former ally's decision") {
    GameState t = to_nexus(kFour, [](GameState& x) { ally(x, Faction::Atreides, Faction::Harkonnen); }, false,
                           never);
    act(t, Faction::Harkonnen, pass());
    act(t, Faction::Atreides, break_alliance());
    CHECK(t.of(Faction::Harkonnen).ally == kNoFaction);
    CHECK((waiting_for(t) & bit_of(t, Faction::Harkonnen)) == 0);
    all_pass(t);
    CHECK(t.phase == Phase::Charity);
    CHECK(t.of(Faction::Harkonnen).ally == kNoFaction);
  }
}
