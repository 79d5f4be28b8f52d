// Scenario tests of the Shipment and Movement phase (1.06) and the faction
// abilities that change it (Fremen 2.04.03-06/2.04.17, Guild 2.06.04-12,
// Bene Gesserit 2.02.05/2.02.11-21).
#include <catch2/catch.hpp>

#include <functional>

#include "core/rules/rules.h"
#include "events/codec.h"
#include "inspect/projection.h"
#include "inspect/view.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;

namespace {

constexpr uint8_t kShipStep = 0, kAdvisorStep = 1, kMoveStep = 2, kGuildTimingStep = 3, kWartimeStep = 4, kIntrusionStep = 5;

// adjusted_at(Phase::ShipmentMovement, ...): the storm dials are 0, so s.storm_sector stays where `adjust` put it.
GameState at_shipment(std::initializer_list<Faction> factions, const std::function<void(GameState&)>& adjust,
                      bool advanced = false, Rulings rulings = Rulings::defaults()) {
  return adjusted_at(Phase::ShipmentMovement, factions, adjust, advanced, rulings);
}

Faction current(const GameState& s) { return s.faction_at(s.shipmove.current); }

// Puts forces from reserves on the board.
void place_kind(GameState& s, Faction f, LocationId l, int regular, int kind = 0) {
  auto& fs = s.of(f);
  const int from = (kind == 1 && f != Faction::BeneGesserit) ? 1 : 0;
  REQUIRE(fs.reserves[from] >= regular);
  fs.reserves[from] = static_cast<uint8_t>(fs.reserves[from] - regular);
  s.forces_at(f, l, kind) = static_cast<uint8_t>(s.forces_at(f, l, kind) + regular);
}

Action cross_ship(LocationId from, int forces, LocationId to) {
  action::Ship a = ship(to, forces);
  a.from = from;
  return a;
}
Action ship_home(LocationId from, int forces) {
  action::Ship a = ship(kNone8, forces);
  a.from = from;
  a.to_reserves = true;
  return a;
}
Action advisor(LocationId to) {
  action::SendSpiritualAdvisor a;
  a.to = to;
  return a;
}
Action guild_timing(bool now) {
  action::GuildTiming a;
  a.now = now;
  return a;
}

// Every legal action is accepted and Pass is offered.
void check_legal(const GameState& s, Faction f) {
  const Seat seat = s.seat_of(f);
  auto acts = legal_actions(s, seat);
  bool has_pass = false;
  for (const auto& a : acts) {
    auto r = validate(s, seat, a);
    INFO(codec::action_to_json(a) << ": " << (r ? r->reason : ""));
    CHECK_FALSE(r.has_value());
    has_pass |= a.kind() == ActionKind::Pass;
  }
  CHECK(has_pass);
}

const LocationId kGreatFlat = data::territory(data::the_great_flat()).first_location;

}  // namespace

// ---- shipment ------------------------------------------------------------------

TEST_CASE("1.06.03.01 shipping into a stronghold costs 1 per force, 1.06.03.02 paid to the bank", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) { set_spice(g, Faction::Atreides, 10); });
  pass_until_ship_or_move(s, Faction::Atreides);
  REQUIRE(s.step == kShipStep);
  const int64_t bank_before = s.bank;
  act(s, Faction::Atreides, ship(data::arrakeen(), 5));
  CHECK(s.of(Faction::Atreides).spice == 5);
  CHECK(s.bank == bank_before + 5);
  CHECK(s.forces_at(Faction::Atreides, data::arrakeen()) == 15);
  CHECK(s.of(Faction::Atreides).reserves[0] == 5);
  CHECK(s.of(Faction::Atreides).shipped == 1);
}

TEST_CASE("1.06.03.01 shipping elsewhere costs 2 per force", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) { set_spice(g, Faction::Atreides, 10); });
  pass_until_ship_or_move(s, Faction::Atreides);
  const int64_t bank_before = s.bank;
  act(s, Faction::Atreides, ship(kGreatFlat, 3));
  CHECK(s.of(Faction::Atreides).spice == 4);
  CHECK(s.bank == bank_before + 6);
  CHECK(s.forces_at(Faction::Atreides, kGreatFlat) == 3);
}

TEST_CASE("1.06.03.01 a shipment needs the spice", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) { set_spice(g, Faction::Atreides, 5); });
  pass_until_ship_or_move(s, Faction::Atreides);
  auto r = rejected(s, Faction::Atreides, ship(kGreatFlat, 3));
  CHECK(r.code == RejectCode::NotEnoughSpice);
  act(s, Faction::Atreides, ship(kGreatFlat, 2));
  CHECK(s.of(Faction::Atreides).spice == 1);
}

TEST_CASE("2.06.04 other factions pay shipments to the Guild", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) {
    set_spice(g, Faction::Atreides, 10);
    set_spice(g, Faction::Guild, 5);
  });
  pass_until_ship_or_move(s, Faction::Atreides);
  const int64_t bank_before = s.bank;
  act(s, Faction::Atreides, ship(kGreatFlat, 2));
  CHECK(s.of(Faction::Atreides).spice == 6);
  CHECK(s.of(Faction::Guild).spice == 9);
  CHECK(s.bank == bank_before);
}

TEST_CASE("2.06.06 the Guild ships at half price rounded up, to the bank", "[shipment]") {
  SECTION("into a stronghold: 3 forces cost 2") {
    GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) { set_spice(g, Faction::Guild, 10); });
    pass_until_ship_or_move(s, Faction::Guild);
    const int64_t bank_before = s.bank;
    act(s, Faction::Guild, ship(data::carthag(), 3));
    CHECK(s.of(Faction::Guild).spice == 8);
    CHECK(s.bank == bank_before + 2);
  }
  SECTION("elsewhere: 3 forces cost 3") {
    GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) { set_spice(g, Faction::Guild, 10); });
    pass_until_ship_or_move(s, Faction::Guild);
    act(s, Faction::Guild, ship(kGreatFlat, 3));
    CHECK(s.of(Faction::Guild).spice == 7);
  }
}

TEST_CASE("2.06.09 1.10.02.08 1.00.01 the Guild's ally ships at half price, paying the Guild", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) {
    set_spice(g, Faction::Atreides, 10);
    set_spice(g, Faction::Guild, 0);
    ally(g, Faction::Atreides, Faction::Guild);
  });
  pass_until_ship_or_move(s, Faction::Atreides);
  act(s, Faction::Atreides, ship(kGreatFlat, 3));
  CHECK(s.of(Faction::Atreides).spice == 7);
  CHECK(s.of(Faction::Guild).spice == 3);
}

TEST_CASE("1.06.03.04 no shipment into a sector in storm", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) {
    g.storm_sector = 14;  // The Great Flat, Wind Pass (North Sector)
    set_spice(g, Faction::Atreides, 10);
  });
  pass_until_ship_or_move(s, Faction::Atreides);
  CHECK(rejected(s, Faction::Atreides, ship(kGreatFlat, 1)).code == RejectCode::Storm);
  CHECK(rejected(s, Faction::Atreides, ship(loc("Wind Pass (North Sector)"), 1)).code == RejectCode::Storm);
  // Another sector of a territory partly in storm is fine (1.06.03.03).
  act(s, Faction::Atreides, ship(loc("Wind Pass (South Sector)"), 1));
  CHECK(s.forces_at(Faction::Atreides, loc("Wind Pass (South Sector)")) == 1);
}

TEST_CASE("1.06.03.05 no shipment into a stronghold held by two other factions", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen, Faction::Emperor}, [](GameState& g) {
    place_kind(g, Faction::Harkonnen, data::arrakeen(), 2);
    set_spice(g, Faction::Emperor, 10);
  });
  pass_until_ship_or_move(s, Faction::Emperor);
  auto r = rejected(s, Faction::Emperor, ship(data::arrakeen(), 1));
  CHECK(r.code == RejectCode::Occupancy);
  act(s, Faction::Emperor, ship(data::carthag(), 1));  // one other faction only
  CHECK(s.forces_at(Faction::Emperor, data::carthag()) == 1);
}

TEST_CASE("2.02.12 Bene Gesserit advisors do not count for the occupancy limit (advanced)", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit, Faction::Emperor}, [](GameState& g) {
    // Setup put the advisor wherever the default chose; put one in Arrakeen.
    for (int l = 0; l < data::kNumLocations; ++l) {
      g.of(Faction::BeneGesserit).reserves[0] = static_cast<uint8_t>(g.of(Faction::BeneGesserit).reserves[0] + g.forces_at(Faction::BeneGesserit, l, 0) + g.forces_at(Faction::BeneGesserit, l, 1));
      g.forces_at(Faction::BeneGesserit, l, 0) = g.forces_at(Faction::BeneGesserit, l, 1) = 0;
    }
    place_kind(g, Faction::BeneGesserit, data::arrakeen(), 1, 1);
    set_spice(g, Faction::Emperor, 10);
  }, true);
  pass_until_ship_or_move(s, Faction::Emperor);
  act(s, Faction::Emperor, ship(data::arrakeen(), 2));
  CHECK(s.forces_at(Faction::Emperor, data::arrakeen()) == 2);
}

TEST_CASE("1.06.02 one shipment per turn, then the movement", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) { set_spice(g, Faction::Atreides, 10); });
  pass_until_ship_or_move(s, Faction::Atreides);
  act(s, Faction::Atreides, ship(data::arrakeen(), 1));
  CHECK(s.step == kMoveStep);
  CHECK(current(s) == Faction::Atreides);
  CHECK(rejected(s, Faction::Atreides, ship(data::arrakeen(), 1)).code == RejectCode::WrongPhase);
}

TEST_CASE("1.06.04 only the Guild and its ally ship from the board", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) { set_spice(g, Faction::Atreides, 10); });
  pass_until_ship_or_move(s, Faction::Atreides);
  CHECK(rejected(s, Faction::Atreides, ship_home(data::arrakeen(), 2)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, cross_ship(data::arrakeen(), 2, kGreatFlat)).code == RejectCode::IllegalChoice);
}

TEST_CASE("2.04.03 2.04.05 the Fremen send reserves free to The Great Flat or within two of it", "[shipment]") {
  GameState s = at_shipment({Faction::Fremen, Faction::Guild}, [](GameState& g) {});
  pass_until_ship_or_move(s, Faction::Fremen);
  const int fremen_spice = s.of(Faction::Fremen).spice, guild_spice = s.of(Faction::Guild).spice;
  const int64_t bank_before = s.bank;
  CHECK(rejected(s, Faction::Fremen, ship(data::arrakeen(), 2)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Fremen, ship(loc("Imperial Basin (Center Sector)"), 2)).code == RejectCode::IllegalChoice);
  const int reserves = s.of(Faction::Fremen).reserves[0];
  act(s, Faction::Fremen, ship(loc("Tsimpo (Middle Sector)"), reserves));
  CHECK(s.forces_at(Faction::Fremen, loc("Tsimpo (Middle Sector)")) == reserves);
  CHECK(s.of(Faction::Fremen).spice == fremen_spice);
  CHECK(s.of(Faction::Guild).spice == guild_spice);
  CHECK(s.bank == bank_before);
}

TEST_CASE("2.04.05 the Fremen sending is subject to storm (basic game)", "[shipment]") {
  GameState s = at_shipment({Faction::Fremen, Faction::Atreides}, [](GameState& g) { g.storm_sector = 14; });
  pass_until_ship_or_move(s, Faction::Fremen);
  CHECK(rejected(s, Faction::Fremen, ship(kGreatFlat, 2)).code == RejectCode::Storm);
}

TEST_CASE("2.04.05 the Fremen sending is subject to the occupancy limit", "[shipment]") {
  GameState s = at_shipment({Faction::Fremen, Faction::Atreides, Faction::Harkonnen}, [](GameState& g) {
    place_kind(g, Faction::Atreides, data::sietch_tabr(), 1);
    place_kind(g, Faction::Harkonnen, data::sietch_tabr(), 1);
    // The Fremen start in Sietch Tabr by default; move them to the Polar Sink.
    g.forces_at(Faction::Fremen, data::polar_sink()) = g.forces_at(Faction::Fremen, data::sietch_tabr());
    g.forces_at(Faction::Fremen, data::sietch_tabr()) = 0;
  });
  pass_until_ship_or_move(s, Faction::Fremen);
  CHECK(rejected(s, Faction::Fremen, ship(data::sietch_tabr(), 1)).code == RejectCode::Occupancy);
}

TEST_CASE("2.04.17 storm migration: the Fremen may send into the storm at half loss (advanced)", "[shipment]") {
  GameState s = at_shipment({Faction::Fremen, Faction::Atreides}, [](GameState& g) { g.storm_sector = 14; }, true);
  pass_until_ship_or_move(s, Faction::Fremen);
  const int tanks = s.of(Faction::Fremen).tanks[0];
  act(s, Faction::Fremen, ship(kGreatFlat, 5));
  CHECK(s.forces_at(Faction::Fremen, kGreatFlat) == 2);
  CHECK(s.of(Faction::Fremen).tanks[0] == tanks + 3);
  CHECK(s.fremen.storm_losses_taken[kGreatFlat] == 1);
}

TEST_CASE("2.06.05.02 the Guild cross-ships from one territory to another at its rates", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) { set_spice(g, Faction::Guild, 10); });
  pass_until_ship_or_move(s, Faction::Guild);
  const int64_t bank_before = s.bank;
  act(s, Faction::Guild, cross_ship(data::tueks_sietch(), 5, kGreatFlat));
  CHECK(s.forces_at(Faction::Guild, data::tueks_sietch()) == 0);
  CHECK(s.forces_at(Faction::Guild, kGreatFlat) == 5);
  CHECK(s.of(Faction::Guild).spice == 5);  // 10 / 2
  CHECK(s.bank == bank_before + 5);
}

TEST_CASE("2.06.05.03 2.06.07 the Guild ships back to reserves for 1 spice per 2 forces", "[shipment]") {
  SECTION("5 forces cost 3") {
    GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) { set_spice(g, Faction::Guild, 10); });
    pass_until_ship_or_move(s, Faction::Guild);
    const int reserves = s.of(Faction::Guild).reserves[0];
    const int64_t bank_before = s.bank;
    act(s, Faction::Guild, ship_home(data::tueks_sietch(), 5));
    CHECK(s.of(Faction::Guild).reserves[0] == reserves + 5);
    CHECK(s.forces_at(Faction::Guild, data::tueks_sietch()) == 0);
    CHECK(s.of(Faction::Guild).spice == 7);
    CHECK(s.bank == bank_before + 3);
  }
  SECTION("1.06.03.04 not out of a sector in storm") {
    GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) {
      g.storm_sector = data::location(data::tueks_sietch()).sector;
      set_spice(g, Faction::Guild, 10);
    });
    pass_until_ship_or_move(s, Faction::Guild);
    CHECK(rejected(s, Faction::Guild, ship_home(data::tueks_sietch(), 5)).code == RejectCode::Storm);
    CHECK(rejected(s, Faction::Guild, cross_ship(data::tueks_sietch(), 5, kGreatFlat)).code == RejectCode::Storm);
  }
}

TEST_CASE("2.06.10 the Guild's ally may cross-ship, paying the Guild", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) {
    set_spice(g, Faction::Atreides, 10);
    set_spice(g, Faction::Guild, 0);
    ally(g, Faction::Atreides, Faction::Guild);
  });
  pass_until_ship_or_move(s, Faction::Atreides);
  act(s, Faction::Atreides, cross_ship(data::arrakeen(), 4, kGreatFlat));
  CHECK(s.forces_at(Faction::Atreides, data::arrakeen()) == 6);
  CHECK(s.forces_at(Faction::Atreides, kGreatFlat) == 4);
  CHECK(s.of(Faction::Atreides).spice == 6);
  CHECK(s.of(Faction::Guild).spice == 4);
  // The ally does not get the Guild's shipment back to reserves (2.06.05.03).
}

TEST_CASE("2.06.10 the ally's shipment back to reserves is rejected", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) {
    set_spice(g, Faction::Atreides, 10);
    ally(g, Faction::Atreides, Faction::Guild);
  });
  pass_until_ship_or_move(s, Faction::Atreides);
  CHECK(rejected(s, Faction::Atreides, ship_home(data::arrakeen(), 4)).code == RejectCode::IllegalChoice);
}

TEST_CASE("2.02.05 spiritual advisors: after another faction ships from off-planet the Bene Gesserit may send 1 to the Polar Sink", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) { set_spice(g, Faction::Atreides, 10); });
  pass_until_ship_or_move(s, Faction::Atreides);
  const int bg_reserves = s.of(Faction::BeneGesserit).reserves[0];
  const int in_sink = s.forces_at(Faction::BeneGesserit, data::polar_sink());
  act(s, Faction::Atreides, ship(data::arrakeen(), 1));
  REQUIRE(s.step == kAdvisorStep);
  CHECK(waiting_for(s) == (1u << s.seat_of(Faction::BeneGesserit)));
  CHECK(rejected(s, Faction::Atreides, make(ActionKind::Move)).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, Faction::BeneGesserit, advisor(data::arrakeen())).code == RejectCode::IllegalChoice);  // basic: Polar Sink only
  check_legal(s, Faction::BeneGesserit);
  act(s, Faction::BeneGesserit, advisor(data::polar_sink()));
  CHECK(s.forces_at(Faction::BeneGesserit, data::polar_sink(), 0) == in_sink + 1);
  CHECK(s.of(Faction::BeneGesserit).reserves[0] == bg_reserves - 1);
  CHECK(s.of(Faction::BeneGesserit).spice == data::faction_setup(Faction::BeneGesserit).starting_spice);
  // Back to the shipper's movement.
  CHECK(s.step == kMoveStep);
  CHECK(current(s) == Faction::Atreides);
}

TEST_CASE("2.02.05 spiritual advisors: not after a Fremen sending, a cross-shipment or the BG's own shipment", "[shipment]") {
  SECTION("Fremen send") {
    GameState s = at_shipment({Faction::Fremen, Faction::BeneGesserit}, [](GameState& g) {});
    pass_until_ship_or_move(s, Faction::Fremen);
    act(s, Faction::Fremen, ship(kGreatFlat, 1));
    CHECK(s.step == kMoveStep);
    CHECK(current(s) == Faction::Fremen);
  }
  SECTION("Guild cross-ship") {
    GameState s = at_shipment({Faction::Guild, Faction::BeneGesserit}, [](GameState& g) { set_spice(g, Faction::Guild, 10); });
    pass_until_ship_or_move(s, Faction::Guild);
    act(s, Faction::Guild, cross_ship(data::tueks_sietch(), 1, kGreatFlat));
    CHECK(s.step == kMoveStep);
    CHECK(current(s) == Faction::Guild);
  }
  SECTION("own shipment") {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) { set_spice(g, Faction::BeneGesserit, 10); });
    pass_until_ship_or_move(s, Faction::BeneGesserit);
    act(s, Faction::BeneGesserit, ship(kGreatFlat, 1));
    CHECK(s.step != kAdvisorStep);
  }
}

TEST_CASE("2.02.11 advanced: the spiritual advisor may go as an advisor where the shipment went", "[shipment]") {
  SECTION("no Bene Gesserit fighters there: an advisor") {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) { set_spice(g, Faction::Atreides, 10); }, true);
    pass_until_ship_or_move(s, Faction::Atreides);
    act(s, Faction::Atreides, ship(kGreatFlat, 1));
    REQUIRE(s.step == kAdvisorStep);
    check_legal(s, Faction::BeneGesserit);
    CHECK(rejected(s, Faction::BeneGesserit, advisor(data::arrakeen())).code == RejectCode::IllegalChoice);
    act(s, Faction::BeneGesserit, advisor(kGreatFlat));
    CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 1) == 1);
    CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 0) == 0);
  }
  SECTION("Bene Gesserit fighters already there: Polar Sink only") {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) {
      set_spice(g, Faction::Atreides, 10);
      place_kind(g, Faction::BeneGesserit, kGreatFlat, 1, 0);
    }, true);
    pass_until_ship_or_move(s, Faction::Atreides);
    act(s, Faction::Atreides, ship(kGreatFlat, 1));
    REQUIRE(s.step == kIntrusionStep);  // 2.02.15 first
    act(s, Faction::BeneGesserit, pass());
    REQUIRE(s.step == kAdvisorStep);
    CHECK(rejected(s, Faction::BeneGesserit, advisor(kGreatFlat)).code == RejectCode::IllegalChoice);
    act(s, Faction::BeneGesserit, pass());
    CHECK(s.step == kMoveStep);
  }
  SECTION("after an intrusion flip the fighters are advisors: an advisor may join them") {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) {
      set_spice(g, Faction::Atreides, 10);
      place_kind(g, Faction::BeneGesserit, kGreatFlat, 1, 0);
    }, true);
    pass_until_ship_or_move(s, Faction::Atreides);
    act(s, Faction::Atreides, ship(kGreatFlat, 1));
    REQUIRE(s.step == kIntrusionStep);
    action::Flip flip;
    flip.location = kGreatFlat;
    act(s, Faction::BeneGesserit, flip);
    REQUIRE(s.step == kAdvisorStep);
    act(s, Faction::BeneGesserit, advisor(kGreatFlat));
    CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 1) == 2);
    CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 0) == 0);
    CHECK(s.step == kMoveStep);
  }
}

TEST_CASE("2.02.13 advanced: the Bene Gesserit ship fighters, never where they have advisors", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) {
    set_spice(g, Faction::BeneGesserit, 10);
    place_kind(g, Faction::BeneGesserit, data::carthag(), 1, 1);
    place_kind(g, Faction::Atreides, data::carthag(), 1);
  }, true);
  pass_until_ship_or_move(s, Faction::BeneGesserit);
  CHECK(rejected(s, Faction::BeneGesserit, ship(data::carthag(), 1)).code == RejectCode::IllegalChoice);
  action::Ship as_advisors = ship(kGreatFlat, 1);
  as_advisors.advisors = true;
  CHECK(rejected(s, Faction::BeneGesserit, as_advisors).code == RejectCode::IllegalChoice);
  act(s, Faction::BeneGesserit, ship(kGreatFlat, 1));
  CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 0) == 1);
}

// ---- movement ------------------------------------------------------------------

TEST_CASE("1.06.05.03 without ornithopters a group moves to an adjacent territory", "[shipment]") {
  auto adjust = [](GameState& g) { place_kind(g, Faction::Emperor, kGreatFlat, 5); };
  GameState s = at_shipment({Faction::Emperor, Faction::Harkonnen}, adjust);
  pass_until_ship_or_move(s, Faction::Emperor);
  act(s, Faction::Emperor, pass());  // no shipment
  REQUIRE(s.step == kMoveStep);
  auto r = rejected(s, Faction::Emperor, move(kGreatFlat, 5, data::sietch_tabr()));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK(r.reason.find("2 territories") != std::string::npos);
  act(s, Faction::Emperor, move(kGreatFlat, 3, loc("Funeral Plain")));
  CHECK(s.forces_at(Faction::Emperor, loc("Funeral Plain")) == 3);
  CHECK(s.forces_at(Faction::Emperor, kGreatFlat) == 2);
}

TEST_CASE("1.06.05.04 ornithopters: forces in Arrakeen give any group a move of three", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) { place_kind(g, Faction::Atreides, kGreatFlat, 3); });
  pass_until_ship_or_move(s, Faction::Atreides);
  act(s, Faction::Atreides, pass());
  CHECK(rejected(s, Faction::Atreides, move(kGreatFlat, 3, loc("Rim Wall West"))).code == RejectCode::IllegalChoice);  // 4 away
  act(s, Faction::Atreides, move(kGreatFlat, 3, loc("Imperial Basin (Center Sector)")));                         // 3 away
  CHECK(s.forces_at(Faction::Atreides, loc("Imperial Basin (Center Sector)")) == 3);
}

TEST_CASE("1.06.05.04 RulingId::OrnithopterTiming: forces shipped into Arrakeen in the same turn", "[shipment]") {
  auto adjust = [](GameState& g) {
    place_kind(g, Faction::Emperor, kGreatFlat, 3);
    set_spice(g, Faction::Emperor, 10);
  };
  const LocationId three_away = loc("Imperial Basin (Center Sector)");
  SECTION("start_of_move (default): ornithopters at once") {
    GameState s = at_shipment({Faction::Emperor, Faction::Atreides}, adjust);
    pass_until_ship_or_move(s, Faction::Emperor);
    act(s, Faction::Emperor, ship(data::arrakeen(), 1));
    act(s, Faction::Emperor, move(kGreatFlat, 3, three_away));
    CHECK(s.forces_at(Faction::Emperor, three_away) == 3);
  }
  SECTION("start_of_turn_action: not this turn") {
    Rulings r = Rulings::defaults();
    REQUIRE(r.set("ornithopter_timing", "start_of_turn_action", nullptr));
    GameState s = at_shipment({Faction::Emperor, Faction::Atreides}, adjust, false, r);
    pass_until_ship_or_move(s, Faction::Emperor);
    act(s, Faction::Emperor, ship(data::arrakeen(), 1));
    CHECK(rejected(s, Faction::Emperor, move(kGreatFlat, 3, three_away)).code == RejectCode::IllegalChoice);
    act(s, Faction::Emperor, move(kGreatFlat, 3, loc("Funeral Plain")));
  }
}

TEST_CASE("2.04.06 the Fremen move two territories", "[shipment]") {
  GameState s = at_shipment({Faction::Fremen, Faction::Atreides}, [](GameState& g) {
    place_kind(g, Faction::Fremen, data::sietch_tabr(), 2);
  });
  pass_until_ship_or_move(s, Faction::Fremen);
  act(s, Faction::Fremen, pass());
  REQUIRE(s.step == kMoveStep);
  CHECK(rejected(s, Faction::Fremen, move(data::sietch_tabr(), 2, loc("Arsunt (East Sector)"))).code == RejectCode::IllegalChoice);  // 3
  act(s, Faction::Fremen, move(data::sietch_tabr(), 2, kGreatFlat));                                                           // 2
  CHECK(s.forces_at(Faction::Fremen, kGreatFlat) == 2);
}

TEST_CASE("1.06.05.06 no movement into or out of a sector in storm", "[shipment]") {
  GameState s = at_shipment({Faction::Emperor, Faction::Harkonnen}, [](GameState& g) {
    g.storm_sector = 14;
    place_kind(g, Faction::Emperor, loc("Wind Pass (Far North Sector)"), 2);  // sector 13
    place_kind(g, Faction::Emperor, loc("Funeral Plain"), 2);                  // sector 14
  });
  pass_until_ship_or_move(s, Faction::Emperor);
  act(s, Faction::Emperor, pass());
  CHECK(rejected(s, Faction::Emperor, move(loc("Wind Pass (Far North Sector)"), 2, kGreatFlat)).code == RejectCode::Storm);
  CHECK(rejected(s, Faction::Emperor, move(loc("Funeral Plain"), 2, loc("Bight Of The Cliff (North Sector)"))).code == RejectCode::Storm);
  act(s, Faction::Emperor, move(loc("Wind Pass (Far North Sector)"), 2, loc("Plastic Basin (South Sector)")));
}

TEST_CASE("1.06.05.07 a territory partly in storm may be entered, but not crossed through its stormy sector", "[shipment]") {
  auto adjust = [](GameState& g) {
    g.storm_sector = 12;  // Plastic Basin (Middle Sector), Rock Outcroppings (North), Tsimpo (West), Hagga Basin (West)
    place_kind(g, Faction::Atreides, loc("Broken Land (West Sector)"), 3);  // sector 11; Atreides have ornithopters
  };
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, adjust);
  pass_until_ship_or_move(s, Faction::Atreides);
  act(s, Faction::Atreides, pass());
  const LocationId bl = loc("Broken Land (West Sector)");
  auto r = rejected(s, Faction::Atreides, move(bl, 3, loc("Plastic Basin (South Sector)")));
  CHECK(r.code == RejectCode::Storm);
  CHECK(rejected(s, Faction::Atreides, move(bl, 3, data::sietch_tabr())).code == RejectCode::Storm);
  act(s, Faction::Atreides, move(bl, 3, loc("Plastic Basin (North Sector)")));
  CHECK(s.forces_at(Faction::Atreides, loc("Plastic Basin (North Sector)")) == 3);
}

TEST_CASE("1.06.05.09 no movement into a stronghold held by two other factions", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen, Faction::Emperor}, [](GameState& g) {
    place_kind(g, Faction::Harkonnen, data::arrakeen(), 2);
    place_kind(g, Faction::Emperor, loc("Imperial Basin (Center Sector)"), 3);
  });
  pass_until_ship_or_move(s, Faction::Emperor);
  act(s, Faction::Emperor, pass());
  CHECK(rejected(s, Faction::Emperor, move(loc("Imperial Basin (Center Sector)"), 3, data::arrakeen())).code == RejectCode::Occupancy);
  act(s, Faction::Emperor, move(loc("Imperial Basin (Center Sector)"), 3, data::carthag()));
}

TEST_CASE("1.06.06 the Polar Sink is never in storm", "[shipment]") {
  GameState s = at_shipment({Faction::Emperor, Faction::Harkonnen}, [](GameState& g) {
    g.storm_sector = 13;
    place_kind(g, Faction::Emperor, data::polar_sink(), 2);
  });
  pass_until_ship_or_move(s, Faction::Emperor);
  act(s, Faction::Emperor, pass());
  CHECK_FALSE(s.in_storm(data::polar_sink()));
  CHECK(rejected(s, Faction::Emperor, move(data::polar_sink(), 2, loc("Wind Pass (Far North Sector)"))).code == RejectCode::Storm);
  act(s, Faction::Emperor, move(data::polar_sink(), 2, loc("Wind Pass (North Sector)")));
}

TEST_CASE("1.06.08 repositioning to another sector of the same territory, storm permitting", "[shipment]") {
  SECTION("allowed") {
    GameState s = at_shipment({Faction::Emperor, Faction::Harkonnen}, [](GameState& g) {
      g.storm_sector = 3;
      place_kind(g, Faction::Emperor, loc("Wind Pass (Far North Sector)"), 2);
    });
    pass_until_ship_or_move(s, Faction::Emperor);
    act(s, Faction::Emperor, pass());
    act(s, Faction::Emperor, move(loc("Wind Pass (Far North Sector)"), 2, loc("Wind Pass (Far South Sector)")));
    CHECK(s.forces_at(Faction::Emperor, loc("Wind Pass (Far South Sector)")) == 2);
  }
  SECTION("separated by the storm") {
    GameState s = at_shipment({Faction::Emperor, Faction::Harkonnen}, [](GameState& g) {
      g.storm_sector = 15;
      place_kind(g, Faction::Emperor, loc("Wind Pass (Far North Sector)"), 2);
    });
    pass_until_ship_or_move(s, Faction::Emperor);
    act(s, Faction::Emperor, pass());
    CHECK(rejected(s, Faction::Emperor, move(loc("Wind Pass (Far North Sector)"), 2, loc("Wind Pass (Far South Sector)"))).code == RejectCode::Storm);
    CHECK(rejected(s, Faction::Emperor, move(loc("Wind Pass (Far North Sector)"), 2, loc("Wind Pass (Far North Sector)"))).code == RejectCode::IllegalChoice);
  }
}

TEST_CASE("1.06.05 one group from one territory, its sectors together unless separated by storm", "[shipment]") {
  auto two_pieces = [](int storm) {
    return [storm](GameState& g) {
      g.storm_sector = static_cast<int8_t>(storm);
      place_kind(g, Faction::Emperor, loc("Wind Pass (Far North Sector)"), 2);  // 13
      place_kind(g, Faction::Emperor, loc("Wind Pass (South Sector)"), 2);      // 15
      place_kind(g, Faction::Emperor, loc("Funeral Plain"), 1);
    };
  };
  auto group = [](LocationId to) {
    action::Move a = move(loc("Wind Pass (Far North Sector)"), 2, to);
    a.from.push_back(Placement{loc("Wind Pass (South Sector)"), 2, 0});
    return a;
  };
  SECTION("two sectors of one territory move together") {
    GameState s = at_shipment({Faction::Emperor, Faction::Harkonnen}, two_pieces(3));
    pass_until_ship_or_move(s, Faction::Emperor);
    act(s, Faction::Emperor, pass());
    act(s, Faction::Emperor, group(kGreatFlat));
    CHECK(s.forces_at(Faction::Emperor, kGreatFlat) == 4);
  }
  SECTION("not from two territories") {
    GameState s = at_shipment({Faction::Emperor, Faction::Harkonnen}, two_pieces(3));
    pass_until_ship_or_move(s, Faction::Emperor);
    act(s, Faction::Emperor, pass());
    action::Move a = group(kGreatFlat);
    a.from[1] = Placement{loc("Funeral Plain"), 1, 0};
    CHECK(rejected(s, Faction::Emperor, a).code == RejectCode::IllegalChoice);
  }
  SECTION("not when the storm separates them") {
    GameState s = at_shipment({Faction::Emperor, Faction::Harkonnen}, two_pieces(14));
    pass_until_ship_or_move(s, Faction::Emperor);
    act(s, Faction::Emperor, pass());
    CHECK(rejected(s, Faction::Emperor, group(loc("The Greater Flat"))).code == RejectCode::Storm);
  }
}

TEST_CASE("1.06.05.01 one movement per turn, 1.06.01 storm order, then the Battle phase", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen, Faction::Emperor}, [](GameState& g) {
    set_spice(g, Faction::Emperor, 10);
  });
  const auto order = storm_order(s);
  std::vector<Seat> seen;
  for (int i = 0; i < 20 && s.phase == Phase::ShipmentMovement; ++i) {
    const Seat cur = s.shipmove.current;
    if (seen.empty() || seen.back() != cur) seen.push_back(cur);
    REQUIRE(waiting_for(s) == (1u << cur));
    if (s.faction_at(cur) == Faction::Harkonnen && s.step == kMoveStep) {
      REQUIRE(cur == order.front());
      act(s, Faction::Harkonnen, move(data::carthag(), 1, loc("Imperial Basin (West Sector)")));
      CHECK(s.of(Faction::Harkonnen).moved == 1);
      CHECK(rejected(s, Faction::Harkonnen, move(data::carthag(), 1, loc("Imperial Basin (West Sector)"))).code == RejectCode::NotYourDecision);
      continue;
    }
    act(s, s.faction_at(cur), pass());
  }
  CHECK(seen == order);
  CHECK(s.phase != Phase::ShipmentMovement);
  CHECK(s.forces_at(Faction::Harkonnen, loc("Imperial Basin (West Sector)")) == 1);
}

TEST_CASE("1.06.07 1.10.02.07 at the end of its turn a faction's forces with its ally's go to the tanks, except in the Polar Sink", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) {
    set_spice(g, Faction::Atreides, 10);
    ally(g, Faction::Atreides, Faction::Harkonnen);
    place_kind(g, Faction::Harkonnen, kGreatFlat, 2);
    place_kind(g, Faction::Harkonnen, data::polar_sink(), 1);
    place_kind(g, Faction::Atreides, data::polar_sink(), 1);
  });
  pass_until_ship_or_move(s, Faction::Atreides);
  const int tanks = s.of(Faction::Atreides).tanks[0];
  act(s, Faction::Atreides, ship(kGreatFlat, 3));
  CHECK(s.forces_at(Faction::Atreides, kGreatFlat) == 3);  // not before the end of the turn
  act(s, Faction::Atreides, pass());
  CHECK(s.forces_at(Faction::Atreides, kGreatFlat) == 0);
  CHECK(s.of(Faction::Atreides).tanks[0] == tanks + 3);
  CHECK(s.forces_at(Faction::Harkonnen, kGreatFlat) == 2);
  CHECK(s.forces_at(Faction::Atreides, data::polar_sink()) == 1);
}

TEST_CASE("2.06.12 advanced Guild: ship and move ahead of schedule or in a holding pattern", "[shipment]") {
  auto adjust = [](GameState& g) {
    set_spice(g, Faction::Guild, 10);
    set_spice(g, Faction::Atreides, 10);
  };
  SECTION("the Guild is asked before each other faction's turn; waiting puts it last") {
    GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen, Faction::Guild}, adjust, true);
    REQUIRE(s.step == kGuildTimingStep);
    CHECK(waiting_for(s) == (1u << s.seat_of(Faction::Guild)));
    check_legal(s, Faction::Guild);
    act(s, Faction::Guild, guild_timing(false));
    const Faction first = current(s);
    CHECK(first != Faction::Guild);
    // The first faction passes both actions; the Guild is asked again.
    act(s, first, pass());
    act(s, first, pass());
    REQUIRE(s.step == kGuildTimingStep);
    act(s, Faction::Guild, pass());
    const Faction second = current(s);
    CHECK(second != Faction::Guild);
    CHECK(second != first);
    act(s, second, pass());
    act(s, second, pass());
    // Everybody else is done: the Guild's turn.
    CHECK(current(s) == Faction::Guild);
    CHECK(s.step == kShipStep);
    CHECK(s.guild.shipmove.delayed == 1);
    act(s, Faction::Guild, ship(kGreatFlat, 2));
    act(s, Faction::Guild, pass());
    CHECK(s.phase != Phase::ShipmentMovement);
  }
  SECTION("now: the Guild goes first") {
    GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen, Faction::Guild}, adjust, true);
    REQUIRE(s.step == kGuildTimingStep);
    act(s, Faction::Guild, guild_timing(true));
    CHECK(current(s) == Faction::Guild);
    CHECK(s.step == kShipStep);
    act(s, Faction::Guild, pass());
    act(s, Faction::Guild, pass());
    CHECK(s.step == kShipStep);  // no more Guild questions
    CHECK(current(s) != Faction::Guild);
  }
  SECTION("basic game: no timing question") {
    GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen, Faction::Guild}, adjust, false);
    CHECK(s.step == kShipStep);
  }
}

TEST_CASE("2.02.14 enlistment: advisors moved where nobody is become fighters (advanced)", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) {
    place_kind(g, Faction::BeneGesserit, kGreatFlat, 2, 1);
    place_kind(g, Faction::Atreides, kGreatFlat, 1);
  }, true);
  pass_until_ship_or_move(s, Faction::BeneGesserit);
  if (s.step == kShipStep) act(s, Faction::BeneGesserit, pass());
  act(s, Faction::BeneGesserit, move(kGreatFlat, 0, loc("Funeral Plain"), 2));
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 0) == 2);
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 1) == 0);
}

TEST_CASE("2.02.20 adaptive force: moved forces take the type already in the territory (advanced)", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) {
    place_kind(g, Faction::BeneGesserit, loc("Funeral Plain"), 1, 1);  // advisor with Atreides
    place_kind(g, Faction::Atreides, loc("Funeral Plain"), 1);
    place_kind(g, Faction::BeneGesserit, kGreatFlat, 2, 0);            // fighters alone
  }, true);
  pass_until_ship_or_move(s, Faction::BeneGesserit);
  if (s.step == kShipStep) act(s, Faction::BeneGesserit, pass());
  act(s, Faction::BeneGesserit, move(kGreatFlat, 2, loc("Funeral Plain")));
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 1) == 3);
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 0) == 0);
}

TEST_CASE("2.02.21 advisors left alone flip to fighters (advanced)", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) {
    place_kind(g, Faction::BeneGesserit, loc("Funeral Plain"), 1, 1);
    place_kind(g, Faction::Atreides, loc("Funeral Plain"), 2);
  }, true);
  pass_until_ship_or_move(s, Faction::Atreides);
  if (s.step == kShipStep) act(s, Faction::Atreides, pass());
  act(s, Faction::Atreides, move(loc("Funeral Plain"), 2, kGreatFlat));
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 0) == 1);
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 1) == 0);
}

TEST_CASE("1.06 rejections: wrong kinds, other seats, malformed actions", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) { set_spice(g, Faction::Atreides, 10); });
  pass_until_ship_or_move(s, Faction::Atreides);
  CHECK(rejected(s, Faction::Harkonnen, ship(data::carthag(), 1)).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, Faction::Atreides, revive(1)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, Faction::Atreides, move(data::arrakeen(), 1, loc("Imperial Basin (Center Sector)"))).code == RejectCode::WrongPhase);
  CHECK(rejected(s, Faction::Atreides, ship(data::arrakeen(), 0)).code == RejectCode::Malformed);
  CHECK(rejected(s, Faction::Atreides, ship(200, 1)).code == RejectCode::Malformed);
  CHECK(rejected(s, Faction::Atreides, ship(data::arrakeen(), 11)).code == RejectCode::IllegalChoice);
  act(s, Faction::Atreides, pass());
  CHECK(rejected(s, Faction::Atreides, move(data::arrakeen(), 11, loc("Imperial Basin (Center Sector)"))).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, move(data::arrakeen(), 1, data::arrakeen())).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, make(ActionKind::Move)).code == RejectCode::Malformed);
}

TEST_CASE("1.06 decisions and legal actions: every legal action is accepted, Pass included", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Fremen, Faction::Guild, Faction::BeneGesserit}, [](GameState& g) {
    g.storm_sector = 11;
    set_spice(g, Faction::Guild, 7);
    ally(g, Faction::Atreides, Faction::Guild);
  });
  int checked = 0;
  for (int i = 0; i < 40 && s.phase == Phase::ShipmentMovement; ++i) {
    const Seat who = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
    const Faction f = s.faction_at(who);
    // The allies' standing choice (1.10.02.06 AllyPermission) and the anytime offers come after the phase's own.
    auto ds = phase_decisions(s, who);
    REQUIRE(ds.size() == 2);
    CHECK(ds[1].kind == ActionKind::Pass);
    check_legal(s, f);
    ++checked;
    // Take the last non-pass legal action (usually a large one) to vary the position.
    auto acts = legal_actions(s, who);
    Action chosen = pass();
    for (const auto& a : acts)
      if (a.kind() != ActionKind::Pass && a.kind() != ActionKind::AllyPermission) chosen = a;
    act(s, f, chosen);
  }
  CHECK(checked >= 8);
  CHECK(s.phase != Phase::ShipmentMovement);
}

TEST_CASE("2.02.17 wartime: before shipment and movement the Bene Gesserit may flip advisors to fighters (advanced)", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit, Faction::Harkonnen}, [](GameState& g) {
    g.storm_sector = 3;
    place_kind(g, Faction::Atreides, kGreatFlat, 1);
    place_kind(g, Faction::BeneGesserit, kGreatFlat, 2, 1);
    place_kind(g, Faction::Harkonnen, loc("Funeral Plain"), 1);
    place_kind(g, Faction::BeneGesserit, loc("Funeral Plain"), 1, 1);
    place_kind(g, Faction::Atreides, loc("South Mesa (South Sector)"), 1);   // sector 3: in storm
    place_kind(g, Faction::BeneGesserit, loc("South Mesa (South Sector)"), 1, 1);
    place_kind(g, Faction::Harkonnen, data::arrakeen(), 1);                  // Arrakeen: Atreides and Harkonnen
    place_kind(g, Faction::BeneGesserit, data::arrakeen(), 1, 1);
    g.of(Faction::BeneGesserit).ally = static_cast<uint8_t>(Faction::Harkonnen);
    g.of(Faction::Harkonnen).ally = static_cast<uint8_t>(Faction::BeneGesserit);
  }, true);
  REQUIRE(s.step == kWartimeStep);
  CHECK(waiting_for(s) == (1u << s.seat_of(Faction::BeneGesserit)));
  check_legal(s, Faction::BeneGesserit);
  action::Flip flip;
  flip.location = loc("Funeral Plain");
  CHECK(rejected(s, Faction::BeneGesserit, flip).reason.find("2.02.18") != std::string::npos);  // ally there
  flip.location = loc("South Mesa (South Sector)");
  CHECK(rejected(s, Faction::BeneGesserit, flip).reason.find("2.02.19") != std::string::npos);  // storm
  flip.location = data::arrakeen();
  CHECK(rejected(s, Faction::BeneGesserit, flip).code == RejectCode::IllegalChoice);             // ally there too
  flip.location = kGreatFlat;
  act(s, Faction::BeneGesserit, flip);
  CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 0) == 2);
  CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 1) == 0);
  // Nothing else may flip: the phase goes on to the first turn.
  CHECK(s.step == kShipStep);
}

TEST_CASE("2.02.15 intrusion: when a non-allied faction moves in, the Bene Gesserit may flip fighters to advisors (advanced)", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) {
    place_kind(g, Faction::BeneGesserit, loc("Imperial Basin (East Sector)"), 2, 0);
  }, true);
  pass_until_ship_or_move(s, Faction::Atreides);
  if (s.step == kShipStep) act(s, Faction::Atreides, pass());
  act(s, Faction::Atreides, move(data::arrakeen(), 3, loc("Imperial Basin (Center Sector)")));
  REQUIRE(s.step == kIntrusionStep);
  check_legal(s, Faction::BeneGesserit);
  action::Flip flip;
  flip.location = kGreatFlat;
  CHECK(rejected(s, Faction::BeneGesserit, flip).code == RejectCode::IllegalChoice);
  flip.location = loc("Imperial Basin (East Sector)");
  act(s, Faction::BeneGesserit, flip);
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Imperial Basin (East Sector)"), 1) == 2);
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Imperial Basin (East Sector)"), 0) == 0);
  CHECK(s.forces_at(Faction::Atreides, loc("Imperial Basin (Center Sector)")) == 3);
  CHECK(s.phase != Phase::ShipmentMovement);  // the Atreides were last: the turn and the phase are over
}

// ---- rulings ---------------------------------------------------------------------

namespace {
// Takes the Bene Gesserit's forces off the board (advanced setup placed one somewhere).
void clear_bg(GameState& g) {
  auto& bg = g.of(Faction::BeneGesserit);
  for (int l = 0; l < data::kNumLocations; ++l) {
    bg.reserves[0] = static_cast<uint8_t>(bg.reserves[0] + g.forces_at(Faction::BeneGesserit, l, 0) + g.forces_at(Faction::BeneGesserit, l, 1));
    g.forces_at(Faction::BeneGesserit, l, 0) = g.forces_at(Faction::BeneGesserit, l, 1) = 0;
  }
}
}  // namespace

TEST_CASE("2.06.10 ruling guild_cross_ship_payment=bank", "[shipment][rulings]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) {
    set_spice(g, Faction::Atreides, 10);
    set_spice(g, Faction::Guild, 0);
    ally(g, Faction::Atreides, Faction::Guild);
  }, false, ruling("guild_cross_ship_payment", "bank"));
  pass_until_ship_or_move(s, Faction::Atreides);
  const int64_t bank_before = s.bank;
  act(s, Faction::Atreides, cross_ship(data::arrakeen(), 4, kGreatFlat));
  CHECK(s.forces_at(Faction::Atreides, kGreatFlat) == 4);
  CHECK(s.of(Faction::Atreides).spice == 6);  // half price still (2.06.09)
  CHECK(s.of(Faction::Guild).spice == 0);
  CHECK(s.bank == bank_before + 4);
}

TEST_CASE("2.06.10 ruling guild_cross_ship_payment=bank: shipments onto Dune still pay the Guild", "[shipment][rulings]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) {
    set_spice(g, Faction::Atreides, 10);
    set_spice(g, Faction::Guild, 0);
    ally(g, Faction::Atreides, Faction::Guild);
  }, false, ruling("guild_cross_ship_payment", "bank"));
  pass_until_ship_or_move(s, Faction::Atreides);
  act(s, Faction::Atreides, ship(kGreatFlat, 4));
  CHECK(s.of(Faction::Guild).spice == 4);  // 2.06.04
}

TEST_CASE("2.04.17 ruling fremen_migration_loss=half_rounded_down", "[shipment][rulings]") {
  GameState s = at_shipment({Faction::Fremen, Faction::Atreides}, [](GameState& g) { g.storm_sector = 14; }, true,
                            ruling("fremen_migration_loss", "half_rounded_down"));
  pass_until_ship_or_move(s, Faction::Fremen);
  const int tanks = s.of(Faction::Fremen).tanks[0];
  act(s, Faction::Fremen, ship(kGreatFlat, 5));
  CHECK(s.forces_at(Faction::Fremen, kGreatFlat) == 3);
  CHECK(s.of(Faction::Fremen).tanks[0] == tanks + 2);
  CHECK(s.fremen.storm_losses_taken[kGreatFlat] == 1);
}

TEST_CASE("2.02.12 ruling advisor_occupancy=limit_applies", "[shipment][rulings]") {
  const Rulings limit = ruling("advisor_occupancy", "limit_applies");
  SECTION("advisors count towards another faction's limit") {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit, Faction::Emperor}, [](GameState& g) {
      clear_bg(g);
      place_kind(g, Faction::BeneGesserit, data::arrakeen(), 1, 1);  // an advisor with the Atreides
      set_spice(g, Faction::Emperor, 10);
    }, true, limit);
    pass_until_ship_or_move(s, Faction::Emperor);
    auto r = rejected(s, Faction::Emperor, ship(data::arrakeen(), 2));
    CHECK(r.code == RejectCode::Occupancy);
    act(s, Faction::Emperor, ship(data::carthag(), 2));
  }
  SECTION("advisors may not move into a stronghold held by two other factions") {
    const LocationId basin = loc("Imperial Basin (East Sector)");
    auto adjust = [&](GameState& g) {
      clear_bg(g);
      g.storm_sector = 3;
      place_kind(g, Faction::Harkonnen, data::arrakeen(), 1);  // with the Atreides' 10
      place_kind(g, Faction::BeneGesserit, basin, 2, 1);       // advisors
      place_kind(g, Faction::Emperor, basin, 1);               // occupied: they stay advisors
    };
    GameState d = at_shipment({Faction::Atreides, Faction::BeneGesserit, Faction::Harkonnen, Faction::Emperor}, adjust, true);
    pass_until_ship_or_move(d, Faction::BeneGesserit);
    if (d.step == kShipStep) act(d, Faction::BeneGesserit, pass());
    act(d, Faction::BeneGesserit, move(basin, 0, data::arrakeen(), 2));  // default: advisors ignore the limit
    CHECK(d.forces_at(Faction::BeneGesserit, data::arrakeen(), 1) == 2);

    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit, Faction::Harkonnen, Faction::Emperor}, adjust, true, limit);
    pass_until_ship_or_move(s, Faction::BeneGesserit);
    if (s.step == kShipStep) act(s, Faction::BeneGesserit, pass());
    CHECK(rejected(s, Faction::BeneGesserit, move(basin, 0, data::arrakeen(), 2)).code == RejectCode::Occupancy);
    check_legal(s, Faction::BeneGesserit);
  }
}

TEST_CASE("2.02.17 ruling wartime_occupancy=ignore", "[shipment][rulings]") {
  auto adjust = [](GameState& g) {
    clear_bg(g);
    g.storm_sector = 3;
    place_kind(g, Faction::Atreides, data::carthag(), 1);           // with the Harkonnen's 10
    place_kind(g, Faction::BeneGesserit, data::carthag(), 1, 1);    // an advisor
  };
  action::Flip flip;
  flip.location = data::carthag();
  SECTION("default limit_applies: no wartime flip in a stronghold at the limit") {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit, Faction::Harkonnen}, adjust, true);
    CHECK(s.step != kWartimeStep);
    CHECK(s.forces_at(Faction::BeneGesserit, data::carthag(), 1) == 1);
  }
  SECTION("ignore: the advisors may flip") {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit, Faction::Harkonnen}, adjust, true,
                              ruling("wartime_occupancy", "ignore"));
    REQUIRE(s.step == kWartimeStep);
    check_legal(s, Faction::BeneGesserit);
    act(s, Faction::BeneGesserit, flip);
    CHECK(s.forces_at(Faction::BeneGesserit, data::carthag(), 0) == 1);
    CHECK(s.forces_at(Faction::BeneGesserit, data::carthag(), 1) == 0);
  }
}

// ---- 1.10.02.06 allies pay for each other's shipments ----------------------------------

namespace {
Action permit(int shipment, int bids = 0) {
  action::AllyPermission a;
  a.shipment = static_cast<uint16_t>(shipment);
  a.bids = static_cast<uint16_t>(bids);
  return a;
}
Action ship_paid(LocationId to, int forces, int ally_pays) {
  action::Ship a = ship(to, forces);
  a.ally_pays = static_cast<uint16_t>(ally_pays);
  return a;
}
}  // namespace

TEST_CASE("1.10.02.06 allies pay for each other's shipments, within the paying ally's permission", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) {
    set_spice(g, Faction::Atreides, 1);
    set_spice(g, Faction::Harkonnen, 10);
    ally(g, Faction::Atreides, Faction::Harkonnen);
  });
  pass_until_ship_or_move(s, Faction::Atreides);
  REQUIRE(s.step == kShipStep);
  // Without the Harkonnen's consent their spice pays nothing.
  CHECK(rejected(s, Faction::Atreides, ship_paid(data::arrakeen(), 5, 4)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, ship(data::arrakeen(), 5)).code == RejectCode::NotEnoughSpice);
  // The Harkonnen consent out of turn (a standing permission).
  CHECK_FALSE((waiting_for(s) >> s.seat_of(Faction::Harkonnen)) & 1u);
  act(s, Faction::Harkonnen, permit(6));
  // The legal actions now include the shipment with the ally paying the shortfall.
  bool offered = false;
  for (const auto& a : legal_actions(s, s.seat_of(Faction::Atreides)))
    offered |= a.kind() == ActionKind::Ship && a.as<action::Ship>().to == data::arrakeen() && a.as<action::Ship>().ally_pays == a.as<action::Ship>().forces + a.as<action::Ship>().special - 1;
  CHECK(offered);
  check_legal(s, Faction::Atreides);
  const int64_t bank0 = s.bank;
  act(s, Faction::Atreides, ship_paid(data::arrakeen(), 5, 4));  // 5 spice: 1 own, 4 the ally's
  CHECK(s.of(Faction::Atreides).spice == 0);
  CHECK(s.of(Faction::Harkonnen).spice == 6);
  CHECK(s.bank == bank0 + 5);
  CHECK(s.of(Faction::Harkonnen).permit_ship == 2);  // used up by the payment
  CHECK(s.forces_at(Faction::Atreides, data::arrakeen()) >= 5);
}

TEST_CASE("1.10.02.06 ally payment rejections: no ally, beyond the cost, the permission or the ally's spice", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen, Faction::Fremen}, [](GameState& g) {
    set_spice(g, Faction::Atreides, 0);
    set_spice(g, Faction::Harkonnen, 3);
    set_spice(g, Faction::Fremen, 10);
    ally(g, Faction::Atreides, Faction::Harkonnen);
  });
  act(s, Faction::Harkonnen, permit(20));
  Action f = permit(5);
  CHECK(rejected(s, Faction::Fremen, f).code == RejectCode::IllegalChoice);  // no ally to permit
  pass_until_ship_or_move(s, Faction::Atreides);
  REQUIRE(s.step == kShipStep);
  CHECK(rejected(s, Faction::Atreides, ship_paid(data::arrakeen(), 2, 3)).code == RejectCode::IllegalChoice);   // cost 2
  CHECK(rejected(s, Faction::Atreides, ship_paid(data::arrakeen(), 4, 4)).code == RejectCode::NotEnoughSpice);  // ally holds 3
  CHECK(rejected(s, Faction::Atreides, ship_paid(data::arrakeen(), 4, 3)).code == RejectCode::NotEnoughSpice);  // 1 left to pay
  act(s, Faction::Harkonnen, permit(2));
  CHECK(rejected(s, Faction::Atreides, ship_paid(data::arrakeen(), 3, 3)).code == RejectCode::IllegalChoice);   // allowed 2
  act(s, Faction::Atreides, ship_paid(data::arrakeen(), 2, 2));
  CHECK(s.of(Faction::Harkonnen).spice == 1);
  CHECK(s.of(Faction::Harkonnen).permit_ship == 0);
}

TEST_CASE("1.10.02.06 the ally's share of a shipment onto Dune pays the Guild (2.06.04)", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen, Faction::Guild}, [](GameState& g) {
    set_spice(g, Faction::Atreides, 2);
    set_spice(g, Faction::Harkonnen, 10);
    set_spice(g, Faction::Guild, 0);
    ally(g, Faction::Atreides, Faction::Harkonnen);
  });
  act(s, Faction::Harkonnen, permit(10));
  pass_until_ship_or_move(s, Faction::Atreides);
  REQUIRE(s.step == kShipStep);
  act(s, Faction::Atreides, ship_paid(data::arrakeen(), 5, 3));
  CHECK(s.of(Faction::Guild).spice == 5);
  CHECK(s.of(Faction::Atreides).spice == 0);
  CHECK(s.of(Faction::Harkonnen).spice == 7);
}

TEST_CASE("1.10.02.06 ruling guild_ally_shipment_share: the Guild paying its ally's shipment", "[shipment][rulings]") {
  for (const char* value : {"bank", "guild"}) {
    Rulings r = Rulings::defaults();
    REQUIRE(r.set("guild_ally_shipment_share", value, nullptr));
    GameState s = at_shipment({Faction::Atreides, Faction::Guild}, [](GameState& g) {
      set_spice(g, Faction::Atreides, 2);
      set_spice(g, Faction::Guild, 10);
      ally(g, Faction::Atreides, Faction::Guild);
    }, false, r);
    act(s, Faction::Guild, permit(10));
    pass_until_ship_or_move(s, Faction::Atreides);
    REQUIRE(s.step == kShipStep);
    const int64_t bank0 = s.bank;
    const int guild0 = s.of(Faction::Guild).spice;
    act(s, Faction::Atreides, ship_paid(kGreatFlat, 5, 3));  // 10 at half price: 5, the Guild pays 3
    CHECK(s.of(Faction::Atreides).spice == 0);
    if (std::string(value) == "bank") {
      CHECK(s.of(Faction::Guild).spice == guild0 - 3 + 2);
      CHECK(s.bank == bank0 + 3);
    } else {
      CHECK(s.of(Faction::Guild).spice == guild0 + 2);
      CHECK(s.bank == bank0);
    }
    CHECK(s.of(Faction::Guild).permit_ship == 7);
  }
}

// ---- 2.02.16 Take Up Arms ----------------------------------------------------------------

namespace {
Action flip_move(LocationId from, int advisors, LocationId to) {
  action::Move a = move(from, 0, to, advisors);
  a.flip = true;
  return a;
}
}  // namespace

TEST_CASE("2.02.16 take up arms: advisors moved into an occupied territory may flip to fighters (advanced)", "[shipment]") {
  for (bool flip : {true, false}) {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) {
      g.storm_sector = 3;
      place_kind(g, Faction::BeneGesserit, kGreatFlat, 2, 1);          // advisors
      place_kind(g, Faction::Atreides, loc("Funeral Plain"), 1);       // the territory is occupied
    }, true);
    pass_until_ship_or_move(s, Faction::BeneGesserit);
    if (s.step == kShipStep) act(s, Faction::BeneGesserit, pass());
    REQUIRE(s.step == kMoveStep);
    bool offered = false;
    for (const auto& a : legal_actions(s, s.seat_of(Faction::BeneGesserit))) offered |= a.kind() == ActionKind::Move && a.as<action::Move>().flip;
    CHECK(offered);
    check_legal(s, Faction::BeneGesserit);
    act(s, Faction::BeneGesserit, flip ? flip_move(kGreatFlat, 2, loc("Funeral Plain")) : move(kGreatFlat, 0, loc("Funeral Plain"), 2));
    CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 0) == (flip ? 2 : 0));
    CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 1) == (flip ? 0 : 2));
  }
}

TEST_CASE("2.02.16 take up arms rejections: advisors present, unoccupied, no advisors, ally present", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit, Faction::Harkonnen}, [](GameState& g) {
    g.storm_sector = 3;
    place_kind(g, Faction::BeneGesserit, kGreatFlat, 4, 1);             // advisors
    place_kind(g, Faction::BeneGesserit, loc("Wind Pass (North Sector)"), 1, 0);  // a fighter
    place_kind(g, Faction::Atreides, kGreatFlat, 1);
    place_kind(g, Faction::BeneGesserit, loc("Funeral Plain"), 1, 1);   // advisors already there
    place_kind(g, Faction::Atreides, loc("Funeral Plain"), 1);
    place_kind(g, Faction::Harkonnen, loc("The Greater Flat"), 1);      // occupied by the ally
    ally(g, Faction::BeneGesserit, Faction::Harkonnen);
  }, true);
  pass_until_ship_or_move(s, Faction::BeneGesserit);
  if (s.step == kShipStep) act(s, Faction::BeneGesserit, pass());
  REQUIRE(s.step == kMoveStep);
  const auto r1 = rejected(s, Faction::BeneGesserit, flip_move(kGreatFlat, 1, loc("Funeral Plain")));
  CHECK(r1.code == RejectCode::IllegalChoice);
  CHECK_THAT(r1.reason, Catch::Contains("2.02.16"));
  const auto r2 = rejected(s, Faction::BeneGesserit, flip_move(kGreatFlat, 1, loc("Plastic Basin (South Sector)")));
  CHECK(r2.code == RejectCode::IllegalChoice);  // unoccupied: they become fighters anyway (2.02.14)
  CHECK_THAT(r2.reason, Catch::Contains("2.02.14"));
  const auto r3 = rejected(s, Faction::BeneGesserit, flip_move(kGreatFlat, 1, loc("The Greater Flat")));
  CHECK(r3.code == RejectCode::IllegalChoice);
  CHECK_THAT(r3.reason, Catch::Contains("2.02.18"));
  action::Move fighters = move(loc("Wind Pass (North Sector)"), 1, kGreatFlat);
  fighters.flip = true;
  const auto r4 = rejected(s, Faction::BeneGesserit, fighters);
  CHECK(r4.code == RejectCode::IllegalChoice);
  CHECK_THAT(r4.reason, Catch::Contains("no advisors"));
}

TEST_CASE("2.02.16 take up arms follows the occupancy limit, advisors alone need not (ruling advisor_occupancy default)", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit, Faction::Harkonnen}, [](GameState& g) {
    g.storm_sector = 3;
    place_kind(g, Faction::BeneGesserit, loc("Imperial Basin (Center Sector)"), 2, 1);  // advisors
    place_kind(g, Faction::Atreides, loc("Imperial Basin (Center Sector)"), 1);
    auto& bg = g.of(Faction::BeneGesserit);  // none of the Bene Gesserit's own in Arrakeen
    for (int k = 0; k < 2; ++k) {
      bg.reserves[0] = static_cast<uint8_t>(bg.reserves[0] + g.forces_at(Faction::BeneGesserit, data::arrakeen(), k));
      g.forces_at(Faction::BeneGesserit, data::arrakeen(), k) = 0;
    }
    place_kind(g, Faction::Atreides, data::arrakeen(), 1);  // Arrakeen holds two other factions
    place_kind(g, Faction::Harkonnen, data::arrakeen(), 1);
  }, true);
  pass_until_ship_or_move(s, Faction::BeneGesserit);
  if (s.step == kShipStep) act(s, Faction::BeneGesserit, pass());
  REQUIRE(s.step == kMoveStep);
  const LocationId from = loc("Imperial Basin (Center Sector)");
  const auto r = rejected(s, Faction::BeneGesserit, flip_move(from, 1, data::arrakeen()));
  INFO(r.reason);
  CHECK(r.code == RejectCode::Occupancy);
  const int before = s.forces_at(Faction::BeneGesserit, data::arrakeen(), 1);
  act(s, Faction::BeneGesserit, move(from, 0, data::arrakeen(), 1));
  CHECK(s.forces_at(Faction::BeneGesserit, data::arrakeen(), 1) == before + 1);
}

TEST_CASE("2.02.16 take up arms is advanced only", "[shipment]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) {
    g.storm_sector = 3;
    place_kind(g, Faction::BeneGesserit, kGreatFlat, 2);
    place_kind(g, Faction::Atreides, loc("Funeral Plain"), 1);
  });
  pass_until_ship_or_move(s, Faction::BeneGesserit);
  if (s.step == kShipStep) act(s, Faction::BeneGesserit, pass());
  action::Move a = move(kGreatFlat, 2, loc("Funeral Plain"));
  a.flip = true;
  const auto r = rejected(s, Faction::BeneGesserit, a);
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("advanced"));
}

// ---- 2.01.07 Wormsign ----------------------------------------------------------------------

TEST_CASE("2.01.07 wormsign: from the start of Shipment and Movement the Atreides see the top spice card, nobody else", "[shipment][views]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen, Faction::Fremen}, [](GameState&) {}, true);
  REQUIRE(s.phase == Phase::ShipmentMovement);
  REQUIRE_FALSE(s.spice_deck.empty());
  CHECK(s.atreides.wormsign_turn == s.turn);
  CHECK(s.atreides.wormsign_card == s.spice_deck.top());
  const std::string name = data::spice_card_name(s.spice_deck.top());
  const auto atreides = inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Atreides)));
  CHECK_THAT(atreides, Catch::Contains("\"wormsign\": \"" + name + "\""));
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Harkonnen))), !Catch::Contains("\"wormsign\":"));
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::observer()), !Catch::Contains("\"wormsign\":"));
  for (Seat x = 0; x < s.num_seats; ++x) CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::of(x)).has_value());
  CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::observer()).has_value());
  // Still known later in the phase; gone with the turn (the next Spice Blow changes the deck).
  const Seat first = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
  act(s, s.faction_at(first), pass());
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Atreides))), Catch::Contains("\"wormsign\""));
  play_until(s, Phase::Bidding, 2);
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Atreides))), !Catch::Contains("\"wormsign\":"));
  // The basic game too (2.01.00: 2.01.01 through 2.01.09 are basic abilities).
  GameState b = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState&) {});
  REQUIRE_FALSE(b.advanced);
  CHECK(b.atreides.wormsign_turn == b.turn);
  CHECK(b.atreides.wormsign_card == b.spice_deck.top());
  CHECK_THAT(inspect::view_json(b, inspect::Viewer::of(b.seat_of(Faction::Atreides))),
             Catch::Contains("\"wormsign\": \"" + data::spice_card_name(b.spice_deck.top()) + "\""));
  CHECK_THAT(inspect::view_json(b, inspect::Viewer::of(b.seat_of(Faction::Harkonnen))), !Catch::Contains("\"wormsign\":"));
}

TEST_CASE("2.01.07 ruling wormsign_basic: advanced_only (the engine before rules version 5) gives no look in the basic game, and basic games recorded then read it",
          "[shipment][rulings]") {
  const Rulings legacy = ruling("wormsign_basic", "advanced_only");
  GameState b = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState&) {}, false, legacy);
  CHECK(b.atreides.wormsign_turn == 0);
  CHECK_THAT(inspect::view_json(b, inspect::Viewer::of(b.seat_of(Faction::Atreides))), !Catch::Contains("\"wormsign\":"));
  // The advanced game looks under either reading.
  GameState a = at_shipment({Faction::Atreides, Faction::Harkonnen}, [](GameState&) {}, true, legacy);
  CHECK(a.atreides.wormsign_turn == a.turn);
  // A creation event recorded under rules version 4 that names no value reads advanced_only.
  CHECK(Rulings::defaults_for(4).is(RulingId::WormsignBasic, 1));
  CHECK(Rulings::defaults_for(kRulesVersion).is(RulingId::WormsignBasic, 0));
  CHECK(Rulings::defaults().is(RulingId::WormsignBasic, 0));
}

namespace {
void prevent_ability(GameState& g, Faction f, rules::Ability ab) {
  g.prevented[static_cast<int>(f)] |= 1u << static_cast<int>(ab);  // as a Karama does (3.01.11.02, cards.cpp)
}
bool is_prevented(const GameState& g, Faction f, rules::Ability ab) {
  return (g.prevented[static_cast<int>(f)] >> static_cast<int>(ab)) & 1u;
}
}  // namespace

TEST_CASE("3.01.11.02 2.06.12 prevented: the next Shipment and Movement has no Guild timing, the Guild goes in storm order", "[shipment][karama]") {
  auto adjust = [](GameState& g) {
    set_spice(g, Faction::Guild, 10);
    prevent_ability(g, Faction::Guild, rules::Ability::GuildTiming);
  };
  GameState s = at_shipment({Faction::Atreides, Faction::Harkonnen, Faction::Guild}, adjust, true);
  CHECK(s.step == kShipStep);
  CHECK(s.guild.shipmove.timing_off == 1);
  CHECK_FALSE(is_prevented(s, Faction::Guild, rules::Ability::GuildTiming));
  for (Seat x = 0; x < s.num_seats; ++x)
    for (const auto& a : legal_actions(s, x)) CHECK(a.kind() != ActionKind::GuildTiming);
  // Storm order, the Guild included.
  for (Seat x : rules::order_from_first(s)) {
    REQUIRE(s.phase == Phase::ShipmentMovement);
    CHECK(s.shipmove.current == x);
    act(s, s.faction_at(x), pass());
    if (s.phase == Phase::ShipmentMovement && s.shipmove.current == x) act(s, s.faction_at(x), pass());
  }
  CHECK(s.phase != Phase::ShipmentMovement);
  play_until(s, Phase::ShipmentMovement, 2);
  CHECK(s.step == kGuildTimingStep);  // 2.06.12 is back
}

TEST_CASE("3.01.11.02 2.02.16 prevented take up arms: the flip is rejected, the plain move uses the prevention up", "[shipment][karama]") {
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [](GameState& g) {
    g.storm_sector = 3;
    place_kind(g, Faction::BeneGesserit, kGreatFlat, 2, 1);
    place(g, Faction::Atreides, loc("Funeral Plain"), 1);
    prevent_ability(g, Faction::BeneGesserit, rules::Ability::BgTakeUpArms);
  }, true);
  pass_until_ship_or_move(s, Faction::BeneGesserit);
  if (s.step == kShipStep) act(s, Faction::BeneGesserit, pass());
  REQUIRE(s.step == kMoveStep);
  for (const auto& a : legal_actions(s, s.seat_of(Faction::BeneGesserit))) CHECK_FALSE((a.kind() == ActionKind::Move && a.as<action::Move>().flip));
  auto r = rejected(s, Faction::BeneGesserit, flip_move(kGreatFlat, 2, loc("Funeral Plain")));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("3.01.11.02"));
  check_legal(s, Faction::BeneGesserit);
  act(s, Faction::BeneGesserit, move(kGreatFlat, 0, loc("Funeral Plain"), 2));
  CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 1) == 2);
  CHECK_FALSE(is_prevented(s, Faction::BeneGesserit, rules::Ability::BgTakeUpArms));
}

// ---- 3.01.11.01 cancel windows for the Bene Gesserit's flips ----------------------------

namespace {
Rulings windows() { return ruling("karama_windows", "all_other_seats"); }
}  // namespace

TEST_CASE("3.01.11.01 2.02.16 karama_windows=all_other_seats: Take Up Arms waits in a window, cancelled, the move is retaken without the flip",
          "[shipment][karama][rulings]") {
  uint8_t karama = kNone8;
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [&](GameState& g) {
    g.storm_sector = 3;
    place_kind(g, Faction::BeneGesserit, kGreatFlat, 2, 1);
    place(g, Faction::Atreides, loc("Funeral Plain"), 1);
    karama = give_another(g, Faction::Atreides, data::TreacheryKind::Karama);
  }, true, windows());
  pass_until_ship_or_move(s, Faction::BeneGesserit);
  if (s.step == kShipStep) act(s, Faction::BeneGesserit, pass());
  REQUIRE(s.step == kMoveStep);
  act(s, Faction::BeneGesserit, flip_move(kGreatFlat, 2, loc("Funeral Plain")));
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::BgTakeUpArms));
  CHECK(waiting_for(s) == (1u << s.seat_of(Faction::Atreides)));
  CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 1) == 2);  // not moved yet
  SECTION("cancelled") {
    act(s, Faction::Atreides, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(s.step == kMoveStep);
    CHECK(waiting_for(s) == (1u << s.seat_of(Faction::BeneGesserit)));
    CHECK_THAT(rejected(s, Faction::BeneGesserit, flip_move(kGreatFlat, 2, loc("Funeral Plain"))).reason, Catch::Contains("3.01.11.01"));
    check_legal(s, Faction::BeneGesserit);
    act(s, Faction::BeneGesserit, move(kGreatFlat, 0, loc("Funeral Plain"), 2));
    CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 1) == 2);  // still advisors
    CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 0) == 0);
  }
  SECTION("let through") {
    act(s, Faction::Atreides, respond(false));
    CHECK(s.window_depth == 0);
    CHECK(s.forces_at(Faction::BeneGesserit, loc("Funeral Plain"), 0) == 2);  // fighters
  }
}

TEST_CASE("3.01.11.01 2.02.17 karama_windows=all_other_seats: each Wartime flip waits in a window, cancelled, only Pass is left",
          "[shipment][karama][rulings]") {
  for (const bool asked : {false, true}) {
    uint8_t karama = kNone8;
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [&](GameState& g) {
      g.storm_sector = 3;
      place_kind(g, Faction::Atreides, kGreatFlat, 1);
      place_kind(g, Faction::BeneGesserit, kGreatFlat, 2, 1);
      karama = give_another(g, Faction::Atreides, data::TreacheryKind::Karama);
    }, true, asked ? windows() : Rulings::defaults());
    REQUIRE(s.step == kWartimeStep);
    action::Flip flip;
    flip.location = kGreatFlat;
    act(s, Faction::BeneGesserit, flip);
    if (!asked) {  // default karama_windows=none: no window, the flip is made
      CHECK(s.window_depth == 0);
      CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 0) == 2);
      continue;
    }
    REQUIRE(s.window_depth == 1);
    CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::BgWartime));
    CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 1) == 2);
    act(s, Faction::Atreides, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(s.step == kWartimeStep);
    CHECK_THAT(rejected(s, Faction::BeneGesserit, flip).reason, Catch::Contains("3.01.11.01"));
    const auto ds = decisions(s, s.seat_of(Faction::BeneGesserit));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].kind == ActionKind::Pass);
    check_legal(s, Faction::BeneGesserit);
    act(s, Faction::BeneGesserit, pass());
    CHECK(s.forces_at(Faction::BeneGesserit, kGreatFlat, 1) == 2);  // still advisors
    CHECK(s.step != kWartimeStep);
    CHECK(s.cancelled_ability == kNone8);
  }
}

TEST_CASE("3.01.11.01 2.02.15 karama_windows=all_other_seats: the Intrusion flip waits in a window, cancelled, the fighters stay",
          "[shipment][karama][rulings]") {
  uint8_t karama = kNone8;
  GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, [&](GameState& g) {
    place_kind(g, Faction::BeneGesserit, loc("Imperial Basin (East Sector)"), 2, 0);
    karama = give_another(g, Faction::Atreides, data::TreacheryKind::Karama);
  }, true, windows());
  pass_until_ship_or_move(s, Faction::Atreides);
  if (s.step == kShipStep) act(s, Faction::Atreides, pass());
  act(s, Faction::Atreides, move(data::arrakeen(), 3, loc("Imperial Basin (Center Sector)")));
  REQUIRE(s.step == kIntrusionStep);
  action::Flip flip;
  flip.location = loc("Imperial Basin (East Sector)");
  act(s, Faction::BeneGesserit, flip);
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::BgIntrusion));
  CHECK(waiting_for(s) == (1u << s.seat_of(Faction::Atreides)));
  SECTION("cancelled") {
    act(s, Faction::Atreides, respond(true, karama));
    CHECK(s.step == kIntrusionStep);
    CHECK_THAT(rejected(s, Faction::BeneGesserit, flip).reason, Catch::Contains("3.01.11.01"));
    check_legal(s, Faction::BeneGesserit);
    act(s, Faction::BeneGesserit, pass());
    CHECK(s.forces_at(Faction::BeneGesserit, loc("Imperial Basin (East Sector)"), 0) == 2);
  }
  SECTION("let through") {
    act(s, Faction::Atreides, respond(false));
    CHECK(s.forces_at(Faction::BeneGesserit, loc("Imperial Basin (East Sector)"), 1) == 2);
  }
}
