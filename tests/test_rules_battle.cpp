// Scenario tests of the Battle phase (1.07), advanced spice dialing
// (1.13.04-05), the treachery cards used in battle (3.01) and the faction
// abilities that change battles (2.03.08/09, 2.04.18, 2.04.21, 2.02.12).
//
// Positions are built directly: a game is played (passing) to the Shipment
// and Movement phase of turn 1, the board is emptied (forces to reserves,
// spice to the bank, hands to the discard pile), the storm is put in sector 17
// (seat 0 is then the first player), forces and cards are placed, and the
// Battle phase is entered with rules::enter_phase.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/rules/rules.h"
#include "support/random_play.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;

namespace {

constexpr uint8_t kChooseStep = 0, kPlanStep = 1, kTraitorStep = 2, kKeepStep = 7;

void take_traitor(GameState& s, LeaderId leader) {
  for (auto& fs : s.f)
    if (fs.traitors.remove(leader)) s.traitor_deck.push(leader);
}

void enter_battle(GameState& s) {
  enter_battle_phase(s);
  no_abilities(s);
}

const LocationId kFlat = 70;  // The Great Flat (sector 14)

// Both sides decline the traitor call when asked; the winner then keeps every
// card it may; the next battle's abilities are passed.
void no_traitors(GameState& s) {
  decline_traitors(s);
  keep_all(s);
  no_abilities(s);
}

Action keep(std::initializer_list<uint8_t> cards) {
  action::KeepCards a;
  for (uint8_t c : cards) a.keep.push_back(c);
  return a;
}

}  // namespace

// ---- 1.07.01 battle determination ----------------------------------------------------

TEST_CASE("1.07.01 two factions in one territory battle, 1.07.02 the first player is the aggressor", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 4);
  REQUIRE(first_player(s) == s.seat_of(Faction::Atreides));
  enter_battle(s);
  REQUIRE(s.phase == Phase::Battle);
  CHECK(s.step == kPlanStep);  // one battle only: no ChooseBattle
  CHECK(s.battle.territory == ter(kFlat));
  CHECK(s.battle.aggressor == s.seat_of(Faction::Atreides));
  CHECK(s.battle.defender == s.seat_of(Faction::Harkonnen));
  CHECK(waiting(s, Faction::Atreides));
  CHECK(waiting(s, Faction::Harkonnen));
  check_legal_strict(s);
}

TEST_CASE("1.07.01 no battle where only one faction is, the phase ends at once", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, loc("Sietch Tabr"), 4);
  enter_battle(s);
  CHECK(s.phase != Phase::Battle);
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 5);
  CHECK(s.forces_at(Faction::Harkonnen, loc("Sietch Tabr")) == 4);
}

TEST_CASE("1.07.01.03 neutral zone: no battle in the Polar Sink", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, data::polar_sink(), 5);
  place(s, Faction::Harkonnen, data::polar_sink(), 4);
  enter_battle(s);
  CHECK(s.phase != Phase::Battle);
  CHECK(s.forces_at(Faction::Atreides, data::polar_sink()) == 5);
  CHECK(s.forces_at(Faction::Harkonnen, data::polar_sink()) == 4);
}

TEST_CASE("1.07.01.01 forces separated by a sector in storm do not battle", "[battle]") {
  const LocationId west = loc("Cielago North (West Sector)"), center = loc("Cielago North (Center Sector)"),
                   east = loc("Cielago North (East Sector)");
  SECTION("storm between them: no battle, both stay") {
    GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
    s.storm_sector = data::location(center).sector;
    place(s, Faction::Atreides, west, 3);
    place(s, Faction::Harkonnen, east, 3);
    enter_battle(s);
    CHECK(s.phase != Phase::Battle);
    CHECK(s.forces_at(Faction::Atreides, west) == 3);
    CHECK(s.forces_at(Faction::Harkonnen, east) == 3);
  }
  SECTION("no storm in the territory: they battle across its sectors") {
    GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
    place(s, Faction::Atreides, west, 3);
    place(s, Faction::Harkonnen, east, 3);
    enter_battle(s);
    CHECK(s.phase == Phase::Battle);
    CHECK(s.battle.territory == ter(west));
  }
  SECTION("1.01.04 one side in the storm, the other not: no battle") {
    GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
    s.storm_sector = data::location(center).sector;
    place(s, Faction::Atreides, center, 3);
    place(s, Faction::Harkonnen, east, 3);
    enter_battle(s);
    CHECK(s.phase != Phase::Battle);
  }
}

TEST_CASE("1.07.01.02 battling blind: same sector under storm still battles (ruling battle_under_storm)", "[battle]") {
  const LocationId center = loc("Cielago North (Center Sector)");
  SECTION("default ruling: battle") {
    GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
    s.storm_sector = data::location(center).sector;
    place(s, Faction::Atreides, center, 3);
    place(s, Faction::Harkonnen, center, 2);
    enter_battle(s);
    CHECK(s.phase == Phase::Battle);
    CHECK(s.battle.territory == ter(center));
  }
  SECTION("no_battle ruling") {
    Rulings r = Rulings::defaults();
    std::string err;
    REQUIRE(r.set("battle_under_storm", "no_battle", &err));
    GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen}, false, r);
    s.storm_sector = data::location(center).sector;
    place(s, Faction::Atreides, center, 3);
    place(s, Faction::Harkonnen, center, 2);
    enter_battle(s);
    CHECK(s.phase != Phase::Battle);
    CHECK(s.forces_at(Faction::Atreides, center) == 3);
  }
}

TEST_CASE("2.02.12 advanced Bene Gesserit advisors do not battle", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::BeneGesserit}, true);
  place(s, Faction::Atreides, kFlat, 3);
  place(s, Faction::BeneGesserit, kFlat, 0, 2);  // advisors
  enter_battle(s);
  CHECK(s.phase != Phase::Battle);
  CHECK(s.forces_at(Faction::BeneGesserit, kFlat, 1) == 2);
}

// ---- 1.07.02 / 1.07.03 aggressor and order ----------------------------------------------

TEST_CASE("1.07.02 the aggressor chooses the order of its battles", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  const LocationId tabr = loc("Sietch Tabr");
  place(s, Faction::Atreides, kFlat, 2);
  place(s, Faction::Harkonnen, kFlat, 2);
  place(s, Faction::Atreides, tabr, 2);
  place(s, Faction::Harkonnen, tabr, 2);
  enter_battle(s);
  REQUIRE(s.step == kChooseStep);
  CHECK(waiting(s, Faction::Atreides));
  CHECK_FALSE(waiting(s, Faction::Harkonnen));
  check_legal_strict(s);
  CHECK(decisions(s, seat(s, Faction::Atreides))[0].options.size() == 2);
  CHECK(rejected(s, Faction::Harkonnen, choose(ter(tabr), Faction::Atreides)).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, Faction::Atreides, choose(ter(loc("Arrakeen")), Faction::Harkonnen)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 1)).code == RejectCode::WrongPhase);
  act(s, Faction::Atreides, choose(ter(tabr), Faction::Harkonnen));
  no_abilities(s);
  CHECK(s.step == kPlanStep);
  CHECK(s.battle.territory == ter(tabr));
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 2));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 0));
  no_traitors(s);
  // Jessica 5 + 2 = 7 beats Feyd 6 + 0: the Harkonnen lose their 2 in Sietch Tabr.
  CHECK(s.forces_at(Faction::Harkonnen, tabr) == 0);
  CHECK(s.forces_at(Faction::Atreides, tabr) == 0);  // dialed 2
  // The remaining battle starts without a choice.
  REQUIRE(s.phase == Phase::Battle);
  CHECK(s.step == kPlanStep);
  CHECK(s.battle.territory == ter(kFlat));
}

TEST_CASE("1.07.03 three factions in a territory: the aggressor picks whom to battle first, then the next", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  REQUIRE(storm_order(s)[0] == s.seat_of(Faction::Atreides));
  place(s, Faction::Atreides, kFlat, 6);
  place(s, Faction::Harkonnen, kFlat, 3);
  place(s, Faction::Emperor, kFlat, 3);
  enter_battle(s);
  REQUIRE(s.step == kChooseStep);
  CHECK(waiting_for(s) == (1u << s.seat_of(Faction::Atreides)));
  act(s, Faction::Atreides, choose(ter(kFlat), Faction::Emperor));
  no_abilities(s);
  CHECK(s.battle.defender == s.seat_of(Faction::Emperor));
  CHECK_FALSE(waiting(s, Faction::Harkonnen));
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 1));  // Jessica 5 + 1
  act(s, Faction::Emperor, plan(L(Faction::Emperor, 2), 2));    // Burseg 3 + 2
  no_traitors(s);
  CHECK(s.forces_in_territory(Faction::Emperor, ter(kFlat)) == 0);
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 5);
  // Atreides still has forces there: its battle against the Harkonnen follows.
  REQUIRE(s.phase == Phase::Battle);
  CHECK(s.step == kPlanStep);
  CHECK(s.battle.aggressor == s.seat_of(Faction::Atreides));
  CHECK(s.battle.defender == s.seat_of(Faction::Harkonnen));
  // 1.07.04.04 Jessica survived in this territory and may fight here again.
  CHECK(s.leaders[L(Faction::Atreides, 0)].zone == LeaderZone::Battlefield);
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 0));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 3));  // Feyd 6 + 3 = 9 > 5
  no_traitors(s);
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 0);
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);  // dialed all 3
  CHECK(s.phase != Phase::Battle);
}

// ---- 1.07.04 battle plans ------------------------------------------------------------------

TEST_CASE("1.07.04 battle plan rejections", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 4);
  const uint8_t knife = give(s, Faction::Atreides, data::TreacheryKind::Crysknife);
  const uint8_t karama = give(s, Faction::Atreides, data::TreacheryKind::Karama);
  const uint8_t snooper = give(s, Faction::Harkonnen, data::TreacheryKind::Snooper);
  enter_battle(s);
  REQUIRE(s.step == kPlanStep);
  const uint8_t jessica = L(Faction::Atreides, 0);

  SECTION("1.07.04.02 dial above the forces in the territory") {
    auto r = rejected(s, Faction::Atreides, plan(jessica, 6));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("at most 5"));
    act(s, Faction::Atreides, plan(jessica, 5));
  }
  SECTION("1.07.04.05 a leader must be played when one is available") {
    auto r = rejected(s, Faction::Atreides, plan(kNone8, 2));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("1.07.04.05"));
  }
  SECTION("a leader that is not the player's") {
    CHECK(rejected(s, Faction::Atreides, plan(L(Faction::Harkonnen, 0), 2)).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Atreides, plan(77, 2)).code == RejectCode::Malformed);
  }
  SECTION("a card not in hand") {
    auto r = rejected(s, Faction::Atreides, plan(jessica, 2, kNone8, snooper));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("not in your hand"));
  }
  SECTION("1.07.04.07 slots by category") {
    CHECK(rejected(s, Faction::Atreides, plan(jessica, 2, karama)).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Atreides, plan(jessica, 2, kNone8, knife)).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2, snooper)).code == RejectCode::IllegalChoice);
  }
  SECTION("1.07.04.03 a leader or a Cheap Hero, not both") {
    const uint8_t hero = give(s, Faction::Atreides, data::TreacheryKind::CheapHero);
    CHECK(rejected(s, Faction::Atreides, plan(jessica, 2, kNone8, kNone8, hero)).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Atreides, plan(kNone8, 2, kNone8, kNone8, knife)).code == RejectCode::IllegalChoice);
    act(s, Faction::Atreides, plan(kNone8, 2, knife, kNone8, hero));  // Cheap Hero in lieu of a leader
  }
  SECTION("1.13.04 no spice dialing in the basic game; Kwisatz Haderach not active") {
    CHECK(rejected(s, Faction::Atreides, plan(jessica, 2, kNone8, kNone8, kNone8, 1)).code == RejectCode::IllegalChoice);
    action::BattlePlan kh = plan(jessica, 2);
    kh.kwisatz_haderach = true;
    CHECK(rejected(s, Faction::Atreides, kh).code == RejectCode::IllegalChoice);
  }
  SECTION("a plan is submitted once; other actions are refused") {
    act(s, Faction::Atreides, plan(jessica, 2));
    CHECK_FALSE(waiting(s, Faction::Atreides));
    CHECK(rejected(s, Faction::Atreides, plan(jessica, 3)).code == RejectCode::NotYourDecision);
    CHECK(rejected(s, Faction::Harkonnen, pass()).code == RejectCode::WrongPhase);
    CHECK(rejected(s, Faction::Harkonnen, traitor(false)).code == RejectCode::WrongPhase);
    // 1.07.04 the plan is secret: the opponent is still asked, nothing is revealed.
    CHECK(s.step == kPlanStep);
    CHECK(s.battle.wheels.empty());
    CHECK(s.of(Faction::Atreides).hand.contains(knife));
  }
}

TEST_CASE("1.07.04.04 a leader that fought in another territory this phase may not fight", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  const LocationId tabr = loc("Sietch Tabr");
  place(s, Faction::Atreides, kFlat, 3);
  place(s, Faction::Harkonnen, kFlat, 1);
  place(s, Faction::Atreides, tabr, 3);
  place(s, Faction::Harkonnen, tabr, 1);
  enter_battle(s);
  act(s, Faction::Atreides, choose(ter(kFlat), Faction::Harkonnen));
  no_abilities(s);
  const uint8_t jessica = L(Faction::Atreides, 0);
  act(s, Faction::Atreides, plan(jessica, 1));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 0));
  no_traitors(s);
  REQUIRE(s.step == kPlanStep);
  REQUIRE(s.battle.territory == ter(tabr));
  CHECK(s.leaders[jessica].zone == LeaderZone::Battlefield);
  CHECK(s.leaders[jessica].aux == ter(kFlat));
  auto r = rejected(s, Faction::Atreides, plan(jessica, 1));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("1.07.04.04"));
  const auto ds = phase_decisions(s, seat(s, Faction::Atreides));
  REQUIRE(ds.size() == 1);
  CHECK(std::find(ds[0].options.begin(), ds[0].options.end(), jessica) == ds[0].options.end());
  CHECK(ds[0].options.size() == 4);
  check_legal_strict(s);
  // 1.07.04.04: Umman Kudu (Harkonnen) survived in The Great Flat as well.
  CHECK(rejected(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 1)).code == RejectCode::IllegalChoice);
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 1), 1));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 3), 1));
  no_traitors(s);
  // 1.07.07 leader return after the last battle; used_in_territory cleared.
  CHECK(s.phase != Phase::Battle);
  for (int i = 0; i < data::kNumLeaders; ++i) {
    CHECK(s.leaders[i].zone != LeaderZone::Battlefield);
    CHECK(s.leaders[i].used_in_territory == kNone8);
  }
  CHECK(s.leaders[jessica].zone == LeaderZone::Pool);
  CHECK(s.leaders[jessica].aux == kNone8);
}

TEST_CASE("1.07.04.05 no leader available: a Cheap Hero must be played, 1.07.04.06 with neither, no cards", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 3);
  place(s, Faction::Harkonnen, kFlat, 3);
  for (int i = 0; i < data::kLeadersPerFaction; ++i) {
    auto& l = s.leaders[L(Faction::Atreides, i)];
    l.zone = LeaderZone::Tanks;
    l.died_once = 1;
  }
  const uint8_t knife = give(s, Faction::Atreides, data::TreacheryKind::Crysknife);
  SECTION("with a Cheap Hero") {
    const uint8_t hero = give(s, Faction::Atreides, data::TreacheryKind::CheapHeroine);
    enter_battle(s);
    CHECK(rejected(s, Faction::Atreides, plan(kNone8, 1)).code == RejectCode::IllegalChoice);
    const auto ds = phase_decisions(s, seat(s, Faction::Atreides));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].options == std::vector<uint16_t>{static_cast<uint16_t>(100 + hero)});
    check_legal_strict(s);
    act(s, Faction::Atreides, plan(kNone8, 3, knife, kNone8, hero));
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 1));  // Umman Kudu 1 + 1: killed by the Crysknife
    no_traitors(s);
    // The Atreides won (3 against 1; Kudu killed): they keep the Crysknife, the Cheap Heroine is discarded.
    CHECK(s.of(Faction::Atreides).hand.contains(knife));
    CHECK(s.treachery_discard.contains(hero));
    CHECK(s.leaders[L(Faction::Harkonnen, 4)].zone == LeaderZone::Tanks);
    CHECK(s.of(Faction::Atreides).spice == 11);  // 1.07.06.03 Kudu's strength
  }
  SECTION("with nothing") {
    enter_battle(s);
    auto r = rejected(s, Faction::Atreides, plan(kNone8, 1, knife));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("1.07.04.06"));
    check_legal_strict(s);
    for (const auto& a : legal_actions(s, seat(s, Faction::Atreides))) {
      CHECK(a.as<action::BattlePlan>().weapon == kNone8);
      CHECK(a.as<action::BattlePlan>().defense == kNone8);
    }
    act(s, Faction::Atreides, plan(kNone8, 3));
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 1));  // 1 + 1 = 2 < 3
    // No leader on the Atreides wheel: the Harkonnen are not asked about traitors.
    CHECK_FALSE(waiting(s, Faction::Harkonnen));
    no_traitors(s);
    CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
    CHECK(s.forces_at(Faction::Atreides, kFlat) == 0);
  }
}

// ---- 1.07.05 / 1.07.06 resolution -------------------------------------------------------------

TEST_CASE("1.07.06 the higher total wins: 1.07.06.05 the loser loses all, 1.07.06.06 the winner its dial", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 6);
  enter_battle(s);
  const uint8_t feyd = L(Faction::Harkonnen, 0), duncan = L(Faction::Atreides, 3);
  act(s, Faction::Harkonnen, plan(feyd, 2));      // 2 + 6 = 8
  act(s, Faction::Atreides, plan(duncan, 5));     // 5 + 2 = 7
  // 1.07.05 revealed; 1.01.02 the battle wheels were used by both.
  CHECK(s.step == kTraitorStep);
  CHECK(s.last_wheels[0] == static_cast<uint8_t>(s.seat_of(Faction::Atreides)));
  CHECK(s.last_wheels[1] == static_cast<uint8_t>(s.seat_of(Faction::Harkonnen)));
  check_legal_strict(s);
  no_traitors(s);
  CHECK(s.of(Faction::Atreides).tanks[0] == 5);
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 0);
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 4);
  CHECK(s.of(Faction::Harkonnen).tanks[0] == 2);
  CHECK(s.of(Faction::Atreides).spice == 10);
  CHECK(s.of(Faction::Harkonnen).spice == 10);  // no leader killed
  // 1.07.06.04 / 1.07.07 both leaders survived and are back in the pools.
  CHECK(s.leaders[feyd].zone == LeaderZone::Pool);
  CHECK(s.leaders[duncan].zone == LeaderZone::Pool);
  CHECK(s.phase != Phase::Battle);
  // 1.01.02: the next storm is dialed by the two who used the wheels.
  CHECK(s.storm_dialers[0] == s.last_wheels[0]);
  CHECK(s.storm_dialers[1] == s.last_wheels[1]);
}

TEST_CASE("1.07.06.01 no ties: the aggressor wins a tie", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  enter_battle(s);
  REQUIRE(s.battle.aggressor == s.seat_of(Faction::Atreides));
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 2), 2));   // Gurney 4 + 2 = 6
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 1), 2)); // Rabban 4 + 2 = 6
  no_traitors(s);
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 3);
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
}

TEST_CASE("1.07.06.02 an unprotected leader is killed and its strength does not count, 1.07.06.03 spice to the winner", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t knife = give(s, Faction::Atreides, data::TreacheryKind::Crysknife);
  enter_battle(s);
  const uint8_t jessica = L(Faction::Atreides, 0), feyd = L(Faction::Harkonnen, 0);
  act(s, Faction::Atreides, plan(jessica, 1, knife));  // 1 + 5 = 6
  act(s, Faction::Harkonnen, plan(feyd, 4));           // 4 (+ 6 killed) = 4
  no_traitors(s);
  CHECK(s.leaders[feyd].zone == LeaderZone::Tanks);
  CHECK(s.leaders[feyd].died_once == 1);
  CHECK(s.of(Faction::Atreides).spice == 16);  // Feyd's 6
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 4);
  CHECK(s.of(Faction::Atreides).hand.contains(knife));  // 3.01.05 kept by the winner
  CHECK(s.leaders[jessica].zone == LeaderZone::Pool);     // after 1.07.07
}

TEST_CASE("1.07.06.03 both leaders killed: the winner receives both strengths, its own included", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t knife = give(s, Faction::Atreides, data::TreacheryKind::Crysknife);
  const uint8_t gom = give(s, Faction::Harkonnen, data::TreacheryKind::GomJabbar);
  enter_battle(s);
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 2, knife));  // Jessica (5) dies: 2
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 3, gom));  // Feyd (6) dies: 3
  no_traitors(s);
  CHECK(s.leaders[L(Faction::Atreides, 0)].zone == LeaderZone::Tanks);
  CHECK(s.leaders[L(Faction::Harkonnen, 0)].zone == LeaderZone::Tanks);
  CHECK(s.of(Faction::Harkonnen).spice == 21);  // 10 + 5 + 6
  CHECK(s.of(Faction::Atreides).spice == 10);
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 2);
  CHECK(s.treachery_discard.contains(knife));                 // loser's card
  CHECK(s.of(Faction::Harkonnen).hand.contains(gom));         // winner keeps its weapon
}

TEST_CASE("1.07.06.02 defenses: Shield stops a projectile weapon, Snooper a poison weapon, not the other", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  SECTION("Shield against a projectile") {
    const uint8_t stunner = give(s, Faction::Atreides, data::TreacheryKind::Stunner);
    const uint8_t sh = give(s, Faction::Harkonnen, data::TreacheryKind::Shield);
    enter_battle(s);
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 3, stunner));  // 3 + 2 = 5
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 1), 2, kNone8, sh));  // 2 + 4 = 6
    no_traitors(s);
    CHECK(s.leaders[L(Faction::Harkonnen, 1)].zone == LeaderZone::Pool);
    CHECK(s.forces_at(Faction::Atreides, kFlat) == 0);
    CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 3);
    CHECK(s.treachery_discard.contains(stunner));
    CHECK(s.of(Faction::Harkonnen).hand.contains(sh));  // 3.01.16 kept by the winner
  }
  SECTION("Shield does not stop poison") {
    const uint8_t chaumas = give(s, Faction::Atreides, data::TreacheryKind::Chaumas);
    const uint8_t sh = give(s, Faction::Harkonnen, data::TreacheryKind::Shield);
    enter_battle(s);
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 3, chaumas));        // 3 + 2 = 5
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 1), 2, kNone8, sh));   // 2 (Rabban killed)
    no_traitors(s);
    CHECK(s.leaders[L(Faction::Harkonnen, 1)].zone == LeaderZone::Tanks);
    CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
    CHECK(s.forces_at(Faction::Atreides, kFlat) == 2);
    CHECK(s.treachery_discard.contains(sh));
    CHECK(s.of(Faction::Atreides).spice == 14);
  }
  SECTION("Snooper against poison (3.01.06 Ellaca Drug is poison)") {
    const uint8_t ellaca = give(s, Faction::Atreides, data::TreacheryKind::EllacaDrug);
    const uint8_t snoop = give(s, Faction::Harkonnen, data::TreacheryKind::Snooper);
    enter_battle(s);
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 3, ellaca));
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 1), 2, kNone8, snoop));
    no_traitors(s);
    CHECK(s.leaders[L(Faction::Harkonnen, 1)].zone == LeaderZone::Pool);
    CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 3);
    CHECK(s.of(Faction::Harkonnen).hand.contains(snoop));
  }
}

TEST_CASE("3.01.14 Lasgun and Shield in one battle: everything in the territory is lost", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 4);
  place(s, Faction::Emperor, kFlat, 2, 1);
  transfer_spice(s, bank(), board(kFlat), 6);
  const uint8_t las = give(s, Faction::Atreides, data::TreacheryKind::Lasgun);
  const uint8_t sh = give(s, Faction::Harkonnen, data::TreacheryKind::Shield);
  const int64_t bank_before = s.bank;
  enter_battle(s);
  act(s, Faction::Atreides, choose(ter(kFlat), Faction::Harkonnen));
  no_abilities(s);
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 5, las));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 0, kNone8, sh));
  no_traitors(s);
  CHECK(s.forces_in_territory(Faction::Atreides, ter(kFlat)) == 0);
  CHECK(s.forces_in_territory(Faction::Harkonnen, ter(kFlat)) == 0);
  CHECK(s.forces_in_territory(Faction::Emperor, ter(kFlat)) == 0);
  CHECK(s.of(Faction::Emperor).tanks[0] == 2);
  CHECK(s.of(Faction::Emperor).tanks[1] == 1);
  CHECK(s.of(Faction::Atreides).tanks[0] == 5);
  CHECK(s.spice_on_board[kFlat] == 0);
  CHECK(s.bank == bank_before + 6);
  CHECK(s.of(Faction::Atreides).spice == 10);  // no spice for leaders
  CHECK(s.of(Faction::Harkonnen).spice == 10);
  CHECK(s.leaders[L(Faction::Atreides, 0)].zone == LeaderZone::Tanks);
  CHECK(s.leaders[L(Faction::Harkonnen, 0)].zone == LeaderZone::Tanks);
  CHECK(s.treachery_discard.contains(las));
  CHECK(s.treachery_discard.contains(sh));
  CHECK(s.phase != Phase::Battle);  // nobody is left to battle the Emperor
}

TEST_CASE("3.01.14 Lasgun without a Shield: no defense, kept by the winner", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t las = give(s, Faction::Atreides, data::TreacheryKind::Lasgun);
  const uint8_t snoop = give(s, Faction::Harkonnen, data::TreacheryKind::Snooper);
  enter_battle(s);
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 4), 1, las));               // 1 + 1 = 2
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 1, kNone8, snoop));  // 1 (Feyd killed)
  no_traitors(s);
  CHECK(s.leaders[L(Faction::Harkonnen, 0)].zone == LeaderZone::Tanks);
  CHECK(s.of(Faction::Atreides).hand.contains(las));
  CHECK(s.treachery_discard.contains(snoop));
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 4);
}

namespace {

// The Atreides (Cheap Hero, Baliset, Shield) and the Harkonnen (Kulon,
// Snooper), 5 forces each in the Great Flat, the battle entered.
struct CardsBattle {
  GameState s;
  uint8_t hero, baliset, sh, kulon, snoop;
};
CardsBattle cards_battle() {
  CardsBattle c{cleared_board({Faction::Atreides, Faction::Harkonnen}), 0, 0, 0, 0, 0};
  GameState& s = c.s;
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  c.hero = give(s, Faction::Atreides, data::TreacheryKind::CheapHero);
  c.baliset = give(s, Faction::Atreides, data::TreacheryKind::Baliset);
  c.sh = give(s, Faction::Atreides, data::TreacheryKind::Shield);
  c.kulon = give(s, Faction::Harkonnen, data::TreacheryKind::Kulon);
  c.snoop = give(s, Faction::Harkonnen, data::TreacheryKind::Snooper);
  enter_battle(s);
  return c;
}

}  // namespace

TEST_CASE("1.07.06.05/06 cards: the loser discards all, the winner keeps weapon and defense, discards worthless and Cheap Hero", "[battle]") {
  auto [s, hero, baliset, sh, kulon, snoop] = cards_battle();
  act(s, Faction::Atreides, plan(kNone8, 5, baliset, sh, hero));               // 5
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 3, kulon, snoop)); // 3 + 1 = 4
  // 1.07.05 revealed: the cards are on the wheels.
  CHECK(s.battle.wheels.n == 5);
  CHECK_FALSE(s.of(Faction::Atreides).hand.contains(sh));
  // The Atreides played a Cheap Hero: the Harkonnen are not asked; the Atreides are (Kudu).
  CHECK(waiting(s, Faction::Atreides));
  CHECK_FALSE(waiting(s, Faction::Harkonnen));
  no_traitors(s);
  CHECK(s.of(Faction::Atreides).hand.contains(sh));
  CHECK(s.treachery_discard.contains(baliset));
  CHECK(s.treachery_discard.contains(hero));
  CHECK(s.treachery_discard.contains(kulon));
  CHECK(s.treachery_discard.contains(snoop));
  CHECK(s.of(Faction::Atreides).hand.n == 1);
  CHECK(s.of(Faction::Harkonnen).hand.n == 0);
  CHECK(s.battle.wheels.empty());
}

TEST_CASE("1.05.04 a leader killed again goes to the tanks face down", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  s.leaders[L(Faction::Harkonnen, 0)].died_once = 1;  // revived once already
  const uint8_t knife = give(s, Faction::Atreides, data::TreacheryKind::Crysknife);
  enter_battle(s);
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 1, knife));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 1));
  no_traitors(s);
  CHECK(s.leaders[L(Faction::Harkonnen, 0)].zone == LeaderZone::TanksFaceDown);
}

// ---- 1.07.06.07 traitors -------------------------------------------------------------------------

TEST_CASE("1.07.06.07 traitor: every seat facing a leader is asked, the caller wins and loses nothing", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t jessica = L(Faction::Atreides, 0), piter = L(Faction::Harkonnen, 2);
  give_traitor(s, Faction::Atreides, piter);
  take_traitor(s, jessica);
  const uint8_t knife = give(s, Faction::Harkonnen, data::TreacheryKind::Crysknife);
  enter_battle(s);
  act(s, Faction::Atreides, plan(jessica, 4));                 // 4 (+5, but killed) = 4
  act(s, Faction::Harkonnen, plan(piter, 5, knife));            // 5 + 3 = 8
  REQUIRE(s.step == kTraitorStep);
  // Both are asked, holder or not (asking only the holder would tell).
  CHECK(waiting(s, Faction::Atreides));
  CHECK(waiting(s, Faction::Harkonnen));
  check_legal_strict(s);
  CHECK(rejected(s, Faction::Harkonnen, traitor(true)).code == RejectCode::IllegalChoice);
  CHECK(legal_actions(s, seat(s, Faction::Harkonnen)).size() == 1);
  CHECK(legal_actions(s, seat(s, Faction::Atreides)).size() == 2);
  act(s, Faction::Harkonnen, pass());  // Pass declines too
  CHECK(s.step == kTraitorStep);
  act(s, Faction::Atreides, traitor(true));
  // 1.07.06.07.01: the Atreides win, lose nothing, Jessica back in the pool, Piter to the tanks, 3 spice.
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 5);
  CHECK(s.of(Faction::Atreides).tanks[0] == 0);
  CHECK(s.leaders[jessica].zone == LeaderZone::Pool);
  CHECK(s.leaders[piter].zone == LeaderZone::Tanks);
  CHECK(s.of(Faction::Atreides).spice == 13);
  // 1.07.06.07.02: the Harkonnen lose all their forces and their cards.
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
  CHECK(s.of(Faction::Harkonnen).tanks[0] == 5);
  CHECK(s.treachery_discard.contains(knife));
  CHECK(s.phase != Phase::Battle);
}

TEST_CASE("1.07.06.07.01 the traitor caller's leader may fight again this phase, even in another territory", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  const LocationId tabr = loc("Sietch Tabr");
  place(s, Faction::Atreides, kFlat, 2);
  place(s, Faction::Harkonnen, kFlat, 2);
  place(s, Faction::Atreides, tabr, 2);
  place(s, Faction::Harkonnen, tabr, 2);
  const uint8_t jessica = L(Faction::Atreides, 0), piter = L(Faction::Harkonnen, 2);
  give_traitor(s, Faction::Atreides, piter);
  take_traitor(s, jessica);
  enter_battle(s);
  act(s, Faction::Atreides, choose(ter(kFlat), Faction::Harkonnen));
  no_abilities(s);
  act(s, Faction::Atreides, plan(jessica, 0));
  act(s, Faction::Harkonnen, plan(piter, 2));
  act(s, Faction::Harkonnen, traitor(false));
  act(s, Faction::Atreides, traitor(true));
  REQUIRE(s.battle.territory == ter(tabr));
  no_abilities(s);
  CHECK(s.leaders[jessica].used_in_territory == kNone8);
  act(s, Faction::Atreides, plan(jessica, 1));
}

TEST_CASE("1.07.06.07 nobody is asked about traitors when no leader disc is revealed", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t h1 = give(s, Faction::Atreides, data::TreacheryKind::CheapHero);
  const uint8_t h2 = give(s, Faction::Harkonnen, data::TreacheryKind::CheapHero, 1);
  enter_battle(s);
  act(s, Faction::Atreides, plan(kNone8, 2, kNone8, kNone8, h1));
  act(s, Faction::Harkonnen, plan(kNone8, 3, kNone8, kNone8, h2));
  CHECK(s.phase != Phase::Battle);  // resolved at once
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 0);
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 2);
  CHECK(s.treachery_discard.contains(h1));
  CHECK(s.treachery_discard.contains(h2));
}

TEST_CASE("1.07.06.07.03 two traitors: both lose forces, cards and leaders, no spice", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t jessica = L(Faction::Atreides, 0), piter = L(Faction::Harkonnen, 2);
  give_traitor(s, Faction::Atreides, piter);
  give_traitor(s, Faction::Harkonnen, jessica);
  const uint8_t sh = give(s, Faction::Atreides, data::TreacheryKind::Shield);
  enter_battle(s);
  act(s, Faction::Atreides, plan(jessica, 2, kNone8, sh));
  act(s, Faction::Harkonnen, plan(piter, 3));
  act(s, Faction::Atreides, traitor(true));
  act(s, Faction::Harkonnen, traitor(true));
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 0);
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
  CHECK(s.leaders[jessica].zone == LeaderZone::Tanks);
  CHECK(s.leaders[piter].zone == LeaderZone::Tanks);
  CHECK(s.of(Faction::Atreides).spice == 10);
  CHECK(s.of(Faction::Harkonnen).spice == 10);
  CHECK(s.treachery_discard.contains(sh));
}

// ---- advanced: spice dialing and elite forces ------------------------------------------------------

TEST_CASE("1.13.04 spice dialing: unspiced forces count half, spice goes to the bank", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen}, true);
  place(s, Faction::Atreides, kFlat, 6);
  place(s, Faction::Harkonnen, kFlat, 6);
  set_spice(s, Faction::Atreides, 5);
  set_spice(s, Faction::Harkonnen, 5);
  enter_battle(s);
  CHECK(rejected(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 2, kNone8, kNone8, kNone8, 3)).code ==
        RejectCode::IllegalChoice);  // more spice than forces dialed
  CHECK(rejected(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 6, kNone8, kNone8, kNone8, 6)).code ==
        RejectCode::NotEnoughSpice);
  check_legal_strict(s);
  const int64_t bank_before = s.bank;
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 6, kNone8, kNone8, kNone8, 1));   // 1 + 5/2 = 3.5, + 2 = 5.5
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 4, kNone8, kNone8, kNone8, 4)); // 4 + 1 = 5
  no_traitors(s);
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 0);  // winner dialed 6
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
  CHECK(s.of(Faction::Atreides).spice == 4);
  CHECK(s.of(Faction::Harkonnen).spice == 1);
  CHECK(s.bank == bank_before + 5);
}

TEST_CASE("1.13.05 the traitor caller keeps its dialed spice, the other side pays", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen}, true);
  place(s, Faction::Atreides, kFlat, 6);
  place(s, Faction::Harkonnen, kFlat, 6);
  give_traitor(s, Faction::Atreides, L(Faction::Harkonnen, 4));
  take_traitor(s, L(Faction::Atreides, 3));
  enter_battle(s);
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 4, kNone8, kNone8, kNone8, 4));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 3, kNone8, kNone8, kNone8, 3));
  act(s, Faction::Harkonnen, traitor(false));
  act(s, Faction::Atreides, traitor(true));
  CHECK(s.of(Faction::Atreides).spice == 11);  // keeps 10, + Kudu's 1
  CHECK(s.of(Faction::Harkonnen).spice == 7);
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 6);
}

TEST_CASE("2.04.21 Fremen battle hardened, 2.04.18 Fedaykin and 2.03.08/09 Sardaukar in battle", "[battle]") {
  GameState s = cleared_board({Faction::Fremen, Faction::Emperor, Faction::Atreides}, true);
  const LocationId tabr = loc("Sietch Tabr");
  place(s, Faction::Fremen, kFlat, 2, 2);   // 2 + 2 x 2 = 6
  place(s, Faction::Emperor, kFlat, 1, 2);  // Sardaukar against Fremen: 1 + 2 = 3
  place(s, Faction::Emperor, tabr, 1, 2);   // against the Atreides: 1 + 4 = 5
  place(s, Faction::Atreides, tabr, 2);
  set_spice(s, Faction::Fremen, 10);
  REQUIRE(storm_order(s)[0] == s.seat_of(Faction::Fremen));
  enter_battle(s);
  REQUIRE(s.battle.territory == ter(kFlat));
  CHECK(decisions(s, seat(s, Faction::Fremen))[0].max == 6);
  CHECK(decisions(s, seat(s, Faction::Emperor))[0].max == 3);
  CHECK(rejected(s, Faction::Fremen, plan(L(Faction::Fremen, 4), 6, kNone8, kNone8, kNone8, 1)).code ==
        RejectCode::IllegalChoice);
  check_legal_strict(s);
  act(s, Faction::Fremen, plan(L(Faction::Fremen, 4), 3));   // 3 at full strength + Jamis 2 = 5
  act(s, Faction::Emperor, plan(L(Faction::Emperor, 4), 3, kNone8, kNone8, kNone8, 0));  // 1.5 + Bashar 2 = 3.5
  no_traitors(s);
  // Fremen win and lose 3 units: 1 regular and 1 Fedaykin (worth 2), exactly 3 (ruling winner_losses).
  CHECK(s.forces_at(Faction::Fremen, kFlat, 0) == 1);
  CHECK(s.forces_at(Faction::Fremen, kFlat, 1) == 1);
  CHECK(s.forces_in_territory(Faction::Emperor, ter(kFlat)) == 0);
  CHECK(s.of(Faction::Emperor).tanks[1] == 2);
  // Next: the Emperor against the Atreides in Sietch Tabr, Sardaukar worth 2.
  REQUIRE(s.phase == Phase::Battle);
  REQUIRE(s.battle.territory == ter(tabr));
  CHECK(s.battle.aggressor == s.seat_of(Faction::Emperor));
  CHECK(decisions(s, seat(s, Faction::Emperor))[0].max == 5);
  act(s, Faction::Emperor, plan(L(Faction::Emperor, 0), 4, kNone8, kNone8, kNone8, 4));  // 4 + 6 = 10
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 2, kNone8, kNone8, kNone8, 2));  // 2 + 5 = 7
  no_traitors(s);
  // The Emperor loses 4 units: 2 Sardaukar, exactly 4; its regular force stays (ruling winner_losses).
  CHECK(s.forces_at(Faction::Emperor, tabr, 0) == 1);
  CHECK(s.forces_at(Faction::Emperor, tabr, 1) == 0);
  CHECK(s.forces_at(Faction::Atreides, tabr) == 0);
}

// 1.07.06.06 with 2.03.08 / 2.04.18: the winner loses forces worth its dial,
// elites worth two "in taking losses" (ruling winner_losses).
TEST_CASE("1.07.06.06 ruling winner_losses: the winner's elite forces make up its dial", "[battle][rulings]") {
  const LocationId carthag = loc("Carthag");
  const uint8_t bashar = L(Faction::Emperor, 4), duncan = L(Faction::Atreides, 3), jamis = L(Faction::Fremen, 4);  // strength 2
  const Rulings legacy = ruling("winner_losses", "regulars_first");
  // `w` (the aggressor, `regs` forces and `els` elites at `at`) fights `l` (1 force), both advanced; `w` wins.
  auto fight = [](Faction w, Faction l, const Rulings& r, LocationId at, int regs, int els, const action::BattlePlan& wp,
                  const action::BattlePlan& lp) {
    GameState s = cleared_board({w, l}, true, r);
    place(s, w, at, regs, els);
    place(s, l, at, 1);
    set_spice(s, w, 5);
    REQUIRE(storm_order(s)[0] == s.seat_of(w));
    enter_battle(s);
    REQUIRE(s.step == kPlanStep);
    act(s, w, wp);
    act(s, l, lp);
    no_traitors(s);
    REQUIRE(s.forces_at(l, at) == 0);
    return s;
  };
  // Issue 48: the Emperor, 5 forces and 4 Sardaukar in Carthag, no spice, dials 10 (5 at half + 2) and wins.
  SECTION("default least_worth: 4 forces and 3 Sardaukar, exactly 10") {
    const GameState s = fight(Faction::Emperor, Faction::Atreides, Rulings::defaults(), carthag, 5, 4, plan(bashar, 10), plan(duncan, 1));
    CHECK(s.forces_at(Faction::Emperor, carthag, 0) == 1);
    CHECK(s.forces_at(Faction::Emperor, carthag, 1) == 1);
    CHECK(s.of(Faction::Emperor).tanks[0] == 4);
    CHECK(s.of(Faction::Emperor).tanks[1] == 3);
  }
  SECTION("regulars_first (rules version 6 and before): 5 forces and 3 Sardaukar, worth 11") {
    const GameState s = fight(Faction::Emperor, Faction::Atreides, legacy, carthag, 5, 4, plan(bashar, 10), plan(duncan, 1));
    CHECK(s.forces_at(Faction::Emperor, carthag, 0) == 0);
    CHECK(s.forces_at(Faction::Emperor, carthag, 1) == 1);
    CHECK(s.of(Faction::Emperor).tanks[0] == 5);
    CHECK(s.of(Faction::Emperor).tanks[1] == 3);
  }
  SECTION("equal worths keep the elites: a dial of 4 loses 4 forces, not 2 Sardaukar") {
    const GameState s = fight(Faction::Emperor, Faction::Atreides, Rulings::defaults(), carthag, 5, 4, plan(bashar, 4), plan(duncan, 1));
    CHECK(s.forces_at(Faction::Emperor, carthag, 0) == 1);
    CHECK(s.forces_at(Faction::Emperor, carthag, 1) == 4);
  }
  SECTION("only elites remain for an odd dial: one over it") {
    const GameState s = fight(Faction::Emperor, Faction::Atreides, Rulings::defaults(), carthag, 0, 4, plan(bashar, 3), plan(duncan, 1));
    CHECK(s.forces_at(Faction::Emperor, carthag, 1) == 2);  // 2 Sardaukar (worth 4) for a dial of 3
  }
  SECTION("2.04.18 Fedaykin: a dial of 3 with 2 forces and 2 Fedaykin loses 1 of each") {
    for (const bool old : {false, true}) {
      INFO("regulars_first " << old);
      // Battle hardened: 3 + Jamis 2 against 0.5 + Duncan 2.
      const GameState s = fight(Faction::Fremen, Faction::Atreides, old ? legacy : Rulings::defaults(), kFlat, 2, 2, plan(jamis, 3),
                                plan(duncan, 1));
      CHECK(s.forces_at(Faction::Fremen, kFlat, 0) == (old ? 0 : 1));  // regulars_first: 2 forces and 1 Fedaykin, worth 4
      CHECK(s.forces_at(Faction::Fremen, kFlat, 1) == 1);
    }
  }
  SECTION("2.03.09 Sardaukar against the Fremen count one in losses too") {
    for (const bool old : {false, true}) {
      INFO("regulars_first " << old);
      // 1 + 1 at half + Fenring 6 (no spice) against 1 + Jamis 2.
      const GameState s = fight(Faction::Emperor, Faction::Fremen, old ? legacy : Rulings::defaults(), kFlat, 1, 2,
                                plan(L(Faction::Emperor, 0), 2), plan(jamis, 1));
      CHECK(s.forces_at(Faction::Emperor, kFlat, 0) == 0);  // a dial of 2: the force and one Sardaukar
      CHECK(s.forces_at(Faction::Emperor, kFlat, 1) == 1);
    }
  }
  SECTION("spice_dialing_elite=per_token: the Sardaukar the spice supported are among the losses") {
    for (const bool per_token : {false, true}) {
      INFO("per_token " << per_token);
      // A dial of 4 with 2 spice: per_token supports 2 Sardaukar (4 units), per_unit 2 units.
      const GameState s = fight(Faction::Emperor, Faction::Atreides, per_token ? ruling("spice_dialing_elite", "per_token") : Rulings::defaults(),
                                carthag, 5, 4, plan(bashar, 4, kNone8, kNone8, kNone8, 2), plan(duncan, 1));
      CHECK(s.forces_at(Faction::Emperor, carthag, 0) == (per_token ? 5 : 1));
      CHECK(s.forces_at(Faction::Emperor, carthag, 1) == (per_token ? 2 : 4));
    }
  }
}

TEST_CASE("2.03.08 basic game: Sardaukar count as one force", "[battle]") {
  GameState s = cleared_board({Faction::Emperor, Faction::Atreides});
  place(s, Faction::Emperor, kFlat, 1, 2);
  place(s, Faction::Atreides, kFlat, 2);
  enter_battle(s);
  CHECK(decisions(s, seat(s, Faction::Emperor))[0].max == 3);
  CHECK(rejected(s, Faction::Emperor, plan(L(Faction::Emperor, 0), 4)).code == RejectCode::IllegalChoice);
}

// ---- whole phase ---------------------------------------------------------------------------------------

TEST_CASE("1.07 random legal battle plans keep custody through a crowded battle phase", "[battle]") {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen, Faction::Emperor, Faction::Fremen}, seed % 2 == 0);
    place(s, Faction::Atreides, kFlat, 4);
    place(s, Faction::Harkonnen, kFlat, 3);
    place(s, Faction::Emperor, kFlat, 2, 1);
    place(s, Faction::Fremen, kFlat, 2, 1);
    place(s, Faction::Atreides, loc("Sietch Tabr"), 3);
    place(s, Faction::Fremen, loc("Sietch Tabr"), 3);
    give(s, Faction::Atreides, data::TreacheryKind::Lasgun);
    give(s, Faction::Harkonnen, data::TreacheryKind::Shield);
    give(s, Faction::Emperor, data::TreacheryKind::CheapHero);
    give(s, Faction::Fremen, data::TreacheryKind::Chaumas);
    give(s, Faction::Fremen, data::TreacheryKind::Snooper);
    enter_battle(s);
    Rng rng = Rng::from_seed(seed);
    for (int i = 0; i < 200 && s.phase == Phase::Battle; ++i) {
      check_legal_strict(s);
      const uint8_t w = waiting_for(s);
      REQUIRE(w != 0);
      const Seat who = static_cast<Seat>(__builtin_ctz(w));
      const auto acts = legal_actions(s, who);
      act(s, s.faction_at(who), acts[rng.below(static_cast<uint32_t>(acts.size()))]);
    }
    CHECK(s.phase != Phase::Battle);
    for (const auto& l : s.leaders) CHECK(l.zone != LeaderZone::Battlefield);
  }
}

TEST_CASE("1.07 random legal play through whole games fights battles and keeps every invariant", "[battle]") {
  int plans = 0, reveals = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    GameState s = create_game(testplay::setup_for(seed, 3 + static_cast<int>(seed % 4), seed % 2 == 1), nullptr);
    std::string why, broken;
    const bool ok = testplay::play(s, seed, 2500, [&](const GameState& st, const testplay::Step& step) {
      if (step.action.kind() == ActionKind::BattlePlan) ++plans;
      if (step.action.kind() == ActionKind::CallTraitor) ++reveals;
      if (broken.empty())
        if (auto v = inspect::check_invariants(st)) broken = v->invariant + ": " + v->detail;
    }, &why);
    INFO("seed " << seed << ": " << why << broken);
    CHECK(ok);
    CHECK(broken.empty());
  }
  CHECK(plans > 0);
  CHECK(reveals > 0);
}

// ---- rulings ----------------------------------------------------------------------------------------------

TEST_CASE("1.13.04 ruling spice_dialing_elite=per_token", "[battle][rulings]") {
  // The Emperor dials 4 with 2 Sardaukar (worth 2 each against the Atreides)
  // and 2 spice; the Atreides dial 4 of their 6 forces with 3 spice.
  auto setup = [](GameState& s) {
    place(s, Faction::Emperor, kFlat, 0, 2);
    place(s, Faction::Atreides, kFlat, 6);
    REQUIRE(storm_order(s)[0] == s.seat_of(Faction::Emperor));
    enter_battle(s);
    REQUIRE(s.step == kPlanStep);
  };
  const uint8_t bashar = L(Faction::Emperor, 4), duncan = L(Faction::Atreides, 3);  // both strength 2
  SECTION("default per_unit: 2 spice support 2 units: 2 + 1 + 2 = 5 < 3.5 + 2") {
    GameState s = cleared_board({Faction::Emperor, Faction::Atreides}, true);
    setup(s);
    act(s, Faction::Emperor, plan(bashar, 4, kNone8, kNone8, kNone8, 2));
    act(s, Faction::Atreides, plan(duncan, 4, kNone8, kNone8, kNone8, 3));
    no_traitors(s);
    CHECK(s.forces_in_territory(Faction::Emperor, ter(kFlat)) == 0);
    CHECK(s.forces_at(Faction::Atreides, kFlat) == 2);
  }
  SECTION("per_token: 2 spice support both Sardaukar: 4 + 2 = 6 > 3.5 + 2") {
    GameState s = cleared_board({Faction::Emperor, Faction::Atreides}, true, ruling("spice_dialing_elite", "per_token"));
    setup(s);
    check_legal_strict(s);
    auto r = rejected(s, Faction::Emperor, plan(bashar, 4, kNone8, kNone8, kNone8, 3));  // only 2 tokens dialed
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("token") != std::string::npos);
    const int64_t bank_before = s.bank;
    act(s, Faction::Emperor, plan(bashar, 4, kNone8, kNone8, kNone8, 2));
    act(s, Faction::Atreides, plan(duncan, 4, kNone8, kNone8, kNone8, 3));
    no_traitors(s);
    CHECK(s.forces_at(Faction::Atreides, kFlat) == 0);
    CHECK(s.of(Faction::Atreides).tanks[0] == 6);
    CHECK(s.of(Faction::Emperor).tanks[1] == 2);  // the winner loses its 4 units: both Sardaukar
    CHECK(s.bank == bank_before + 5);
  }
}

TEST_CASE("3.01.06 ruling ellaca_drug_defense=projectile", "[battle][rulings]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen}, false, ruling("ellaca_drug_defense", "projectile"));
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t rabban = L(Faction::Harkonnen, 1);
  SECTION("a Snooper does not stop it") {
    const uint8_t ellaca = give(s, Faction::Atreides, data::TreacheryKind::EllacaDrug);
    const uint8_t snoop = give(s, Faction::Harkonnen, data::TreacheryKind::Snooper);
    enter_battle(s);
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 3, ellaca));            // 3 + 2 = 5
    act(s, Faction::Harkonnen, plan(rabban, 2, kNone8, snoop));                      // 2 (Rabban killed)
    no_traitors(s);
    CHECK(s.leaders[rabban].zone == LeaderZone::Tanks);
    CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
    CHECK(s.of(Faction::Atreides).hand.contains(ellaca));
  }
  SECTION("a Shield stops it") {
    const uint8_t ellaca = give(s, Faction::Atreides, data::TreacheryKind::EllacaDrug);
    const uint8_t sh = give(s, Faction::Harkonnen, data::TreacheryKind::Shield);
    enter_battle(s);
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 3, ellaca));            // 3 + 2 = 5
    act(s, Faction::Harkonnen, plan(rabban, 2, kNone8, sh));                         // 2 + 4 = 6
    no_traitors(s);
    CHECK(s.leaders[rabban].zone == LeaderZone::Pool);
    CHECK(s.forces_at(Faction::Atreides, kFlat) == 0);
    CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 3);
    CHECK(s.treachery_discard.contains(ellaca));
  }
}

TEST_CASE("1.07.06.05 ruling battle_losses_scope=whole_territory", "[battle][rulings]") {
  const LocationId west = loc("Cielago North (West Sector)"), center = loc("Cielago North (Center Sector)"),
                   east = loc("Cielago North (East Sector)");
  // The Atreides have forces on both sides of the storm; they lose the battle in the west.
  auto fight = [&](GameState& s) {
    s.storm_sector = data::location(center).sector;
    place(s, Faction::Atreides, west, 3);
    place(s, Faction::Atreides, east, 2);
    place(s, Faction::Harkonnen, west, 3);
    enter_battle(s);
    REQUIRE(s.phase == Phase::Battle);
    REQUIRE(s.battle.territory == ter(west));
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 4), 0));   // Yueh 1
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 1)); // Feyd 6 + 1
    no_traitors(s);
    CHECK(s.forces_at(Faction::Atreides, west) == 0);
    CHECK(s.forces_at(Faction::Harkonnen, west) == 2);
  };
  SECTION("default battle_area: the forces beyond the storm remain") {
    GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
    fight(s);
    CHECK(s.forces_at(Faction::Atreides, east) == 2);
    CHECK(s.of(Faction::Atreides).tanks[0] == 3);
  }
  SECTION("whole_territory: the loser loses every force in the territory") {
    GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen}, false, ruling("battle_losses_scope", "whole_territory"));
    fight(s);
    CHECK(s.forces_at(Faction::Atreides, east) == 0);
    CHECK(s.of(Faction::Atreides).tanks[0] == 5);
  }
}

TEST_CASE("1.07.03 ruling aggressor_order=finish_territory", "[battle][rulings]") {
  const LocationId tabr = loc("Sietch Tabr");
  // The Atreides (first) have battles against three factions in The Great
  // Flat and one in Sietch Tabr; they begin in The Great Flat.
  auto first_battle = [&](GameState& s) {
    place(s, Faction::Atreides, kFlat, 6);
    place(s, Faction::Harkonnen, kFlat, 2);
    place(s, Faction::Emperor, kFlat, 2);
    place(s, Faction::Guild, kFlat, 2);
    place(s, Faction::Atreides, tabr, 2);
    place(s, Faction::Harkonnen, tabr, 2);
    REQUIRE(storm_order(s)[0] == s.seat_of(Faction::Atreides));
    enter_battle(s);
    REQUIRE(s.step == kChooseStep);
    CHECK(decisions(s, seat(s, Faction::Atreides))[0].options.size() == 4);
    act(s, Faction::Atreides, choose(ter(kFlat), Faction::Emperor));
    no_abilities(s);  // 2.01.08 Prescience declined
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 1));  // Jessica 5 + 1
    act(s, Faction::Emperor, plan(L(Faction::Emperor, 2), 0));    // Burseg 3
    no_traitors(s);
    REQUIRE(s.phase == Phase::Battle);
    REQUIRE(s.step == kChooseStep);
    CHECK(s.forces_at(Faction::Atreides, kFlat) == 5);
  };
  const std::initializer_list<Faction> four = {Faction::Atreides, Faction::Harkonnen, Faction::Emperor, Faction::Guild};
  SECTION("default free: the aggressor may go to Sietch Tabr now") {
    GameState s = cleared_board(four);
    first_battle(s);
    CHECK(decisions(s, seat(s, Faction::Atreides))[0].options.size() == 3);
    act(s, Faction::Atreides, choose(ter(tabr), Faction::Harkonnen));
    CHECK(s.battle.territory == ter(tabr));
  }
  SECTION("finish_territory: the battles left in The Great Flat come first") {
    GameState s = cleared_board(four, false, ruling("aggressor_order", "finish_territory"));
    first_battle(s);
    check_legal_strict(s);
    CHECK(decisions(s, seat(s, Faction::Atreides))[0].options.size() == 2);
    auto r = rejected(s, Faction::Atreides, choose(ter(tabr), Faction::Harkonnen));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("1.07.03") != std::string::npos);
    act(s, Faction::Atreides, choose(ter(kFlat), Faction::Guild));
    no_abilities(s);  // 2.01.08 Prescience declined
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 1));  // Jessica again, 5 + 1
    act(s, Faction::Guild, plan(L(Faction::Guild, 4), 0));        // Guild Rep. 1
    no_traitors(s);
    // One battle left in The Great Flat: it starts without a choice.
    REQUIRE(s.phase == Phase::Battle);
    CHECK(s.step == kPlanStep);
    CHECK(s.battle.territory == ter(kFlat));
    CHECK(s.battle.defender == s.seat_of(Faction::Harkonnen));
  }
}

// ---- 1.07.06.06 the winner keeps or discards its cards (KeepCards) ---------------------------

TEST_CASE("1.07.06.06 the winner chooses which of its cards to keep, the rest is discarded", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t knife = give(s, Faction::Atreides, data::TreacheryKind::Crysknife);
  const uint8_t sh = give(s, Faction::Atreides, data::TreacheryKind::Shield);
  const uint8_t snoop = give(s, Faction::Harkonnen, data::TreacheryKind::Snooper);
  enter_battle(s);
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 5, knife, sh));       // 5 + 2 = 7
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 3, kNone8, snoop));  // Rabban killed: 3
  decline_traitors(s);
  // The resolution ran (the loser's cards are gone) and the winner is asked.
  REQUIRE(s.phase == Phase::Battle);
  REQUIRE(s.step == kKeepStep);
  CHECK(s.treachery_discard.contains(snoop));
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
  CHECK(waiting(s, Faction::Atreides));
  CHECK_FALSE(waiting(s, Faction::Harkonnen));
  CHECK(rules::battle_plans_revealed(s));
  check_legal_strict(s);
  const auto ds = decisions(s, seat(s, Faction::Atreides));
  REQUIRE_FALSE(ds.empty());
  CHECK(ds[0].kind == ActionKind::KeepCards);
  CHECK(ds[0].options == std::vector<uint16_t>{knife, sh});
  CHECK(legal_actions(s, seat(s, Faction::Atreides)).size() == 4);  // keep none, either, both
  act(s, Faction::Atreides, keep({knife}));
  CHECK(s.of(Faction::Atreides).hand.contains(knife));
  CHECK_FALSE(s.of(Faction::Atreides).hand.contains(sh));
  CHECK(s.treachery_discard.contains(sh));
  CHECK(s.battle.wheels.empty());
  CHECK(s.phase != Phase::Battle);  // the phase went on after the only battle
}

TEST_CASE("1.07.06.06 KeepCards: keeping nothing discards all, Pass keeps all", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t knife = give(s, Faction::Atreides, data::TreacheryKind::Crysknife);
  const uint8_t sh = give(s, Faction::Atreides, data::TreacheryKind::Shield);
  enter_battle(s);
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 5, knife, sh));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 1));
  decline_traitors(s);
  REQUIRE(s.step == kKeepStep);
  SECTION("keep none") {
    act(s, Faction::Atreides, keep({}));
    CHECK(s.treachery_discard.contains(knife));
    CHECK(s.treachery_discard.contains(sh));
    CHECK(s.of(Faction::Atreides).hand.n == 0);
  }
  SECTION("Pass") {
    act(s, Faction::Atreides, pass());
    CHECK(s.of(Faction::Atreides).hand.contains(knife));
    CHECK(s.of(Faction::Atreides).hand.contains(sh));
  }
}

TEST_CASE("1.07.06.06 KeepCards rejections: the loser, worthless cards, a Cheap Hero, other cards", "[battle]") {
  auto [s, hero, baliset, sh, kulon, other] = cards_battle();
  act(s, Faction::Atreides, plan(kNone8, 5, baliset, sh, hero));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 3, kulon));
  decline_traitors(s);
  REQUIRE(s.step == kKeepStep);
  // Only the Shield may be kept.
  CHECK(decisions(s, seat(s, Faction::Atreides))[0].options == std::vector<uint16_t>{sh});
  CHECK(legal_actions(s, seat(s, Faction::Atreides)).size() == 2);
  CHECK(rejected(s, Faction::Harkonnen, keep({})).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, Faction::Harkonnen, pass()).code == RejectCode::NotYourDecision);
  const auto worthless = rejected(s, Faction::Atreides, keep({sh, baliset}));
  CHECK(worthless.code == RejectCode::IllegalChoice);
  CHECK_THAT(worthless.reason, Catch::Contains("3.01.01"));
  const auto cheap = rejected(s, Faction::Atreides, keep({hero}));
  CHECK(cheap.code == RejectCode::IllegalChoice);
  CHECK_THAT(cheap.reason, Catch::Contains("3.01.04"));
  CHECK(rejected(s, Faction::Atreides, keep({kulon})).code == RejectCode::IllegalChoice);  // the loser's, discarded
  CHECK(rejected(s, Faction::Atreides, keep({other})).code == RejectCode::IllegalChoice);  // never played
  CHECK(rejected(s, Faction::Atreides, keep({sh, sh})).code == RejectCode::Malformed);
  CHECK(rejected(s, Faction::Atreides, plan(kNone8, 1)).code == RejectCode::WrongPhase);
  act(s, Faction::Atreides, keep({sh}));
  CHECK(s.of(Faction::Atreides).hand.contains(sh));
  CHECK(s.treachery_discard.contains(baliset));
  CHECK(s.treachery_discard.contains(hero));
}

TEST_CASE("1.07.06.06 nothing the winner may keep: no KeepCards step", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t hero = give(s, Faction::Atreides, data::TreacheryKind::CheapHero);
  const uint8_t baliset = give(s, Faction::Atreides, data::TreacheryKind::Baliset);
  enter_battle(s);
  act(s, Faction::Atreides, plan(kNone8, 5, baliset, kNone8, hero));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 1));
  decline_traitors(s);
  CHECK(s.phase != Phase::Battle);
  CHECK(s.treachery_discard.contains(baliset));
  CHECK(s.treachery_discard.contains(hero));
}

TEST_CASE("1.07.06.07.01 a traitor win: the winner may keep its Cheap Hero", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t feyd = L(Faction::Harkonnen, 0), jessica = L(Faction::Atreides, 0);
  give_traitor(s, Faction::Atreides, feyd);
  take_traitor(s, jessica);
  const uint8_t hero = give(s, Faction::Atreides, data::TreacheryKind::CheapHero);
  enter_battle(s);
  act(s, Faction::Atreides, plan(kNone8, 1, kNone8, kNone8, hero));
  act(s, Faction::Harkonnen, plan(feyd, 5));
  act(s, Faction::Atreides, traitor(true));
  REQUIRE(s.step == kKeepStep);
  CHECK(decisions(s, seat(s, Faction::Atreides))[0].options == std::vector<uint16_t>{hero});
  act(s, Faction::Atreides, keep({hero}));
  CHECK(s.of(Faction::Atreides).hand.contains(hero));
}

TEST_CASE("1.07.06.06 ruling winner_worthless=may_keep", "[battle][rulings]") {
  Rulings r = Rulings::defaults();
  REQUIRE(r.set("winner_worthless", "may_keep", nullptr));
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen}, false, r);
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t baliset = give(s, Faction::Atreides, data::TreacheryKind::Baliset);
  const uint8_t hero = give(s, Faction::Atreides, data::TreacheryKind::CheapHero);
  enter_battle(s);
  act(s, Faction::Atreides, plan(kNone8, 5, baliset, kNone8, hero));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 1));
  decline_traitors(s);
  REQUIRE(s.step == kKeepStep);
  CHECK(decisions(s, seat(s, Faction::Atreides))[0].options == std::vector<uint16_t>{baliset});
  CHECK(rejected(s, Faction::Atreides, keep({hero})).code == RejectCode::IllegalChoice);  // still discarded after use
  act(s, Faction::Atreides, keep({baliset}));
  CHECK(s.of(Faction::Atreides).hand.contains(baliset));
  CHECK(s.treachery_discard.contains(hero));
}

TEST_CASE("3.01.11.02 2.04.18 2.04.21 2.03.08 prevented elites count one and the Fremen dial spice in their next battle", "[battle][karama]") {
  GameState s = cleared_board({Faction::Fremen, Faction::Emperor, Faction::Atreides}, true);
  const LocationId tabr = loc("Sietch Tabr");
  place(s, Faction::Fremen, kFlat, 2, 2);
  place(s, Faction::Emperor, kFlat, 1, 2);
  place(s, Faction::Emperor, tabr, 1, 2);
  place(s, Faction::Atreides, tabr, 2);
  set_spice(s, Faction::Fremen, 10);
  auto prevent_ability = [&](Faction f, rules::Ability ab) { s.prevented[static_cast<int>(f)] |= 1u << static_cast<int>(ab); };
  prevent_ability(Faction::Fremen, rules::Ability::FremenFedaykin);
  prevent_ability(Faction::Fremen, rules::Ability::FremenBattleHardened);
  prevent_ability(Faction::Emperor, rules::Ability::EmperorSardaukar);
  REQUIRE(storm_order(s)[0] == s.seat_of(Faction::Fremen));
  enter_battle(s);
  REQUIRE(s.battle.territory == ter(kFlat));
  CHECK(s.prevented[static_cast<int>(Faction::Fremen)] == 0);  // both used up by this battle
  // Against the Fremen the Sardaukar count one anyway: the prevention waits.
  CHECK(s.prevented[static_cast<int>(Faction::Emperor)] != 0);
  CHECK(decisions(s, seat(s, Faction::Fremen))[0].max == 4);  // 2 + 2 Fedaykin at one
  CHECK(rejected(s, Faction::Fremen, plan(L(Faction::Fremen, 4), 5)).code == RejectCode::IllegalChoice);
  check_legal(s);
  act(s, Faction::Fremen, plan(L(Faction::Fremen, 4), 4, kNone8, kNone8, kNone8, 4));  // spice allowed: 4 + Jamis 2 = 6
  act(s, Faction::Emperor, plan(L(Faction::Emperor, 4), 3, kNone8, kNone8, kNone8, 0));  // 1.5 + 2
  no_traitors(s);
  CHECK(s.of(Faction::Fremen).spice == 6);
  // The Fremen lose 4 units: 2 regular and both Fedaykin (worth one each).
  CHECK(s.forces_at(Faction::Fremen, kFlat, 0) == 0);
  CHECK(s.forces_at(Faction::Fremen, kFlat, 1) == 0);
  // Next: the Emperor against the Atreides; the Sardaukar prevention is used up here.
  REQUIRE(s.phase == Phase::Battle);
  REQUIRE(s.battle.territory == ter(tabr));
  CHECK(s.prevented[static_cast<int>(Faction::Emperor)] == 0);
  CHECK(decisions(s, seat(s, Faction::Emperor))[0].max == 3);  // 1 + 2 Sardaukar at one
}

// 3.01.11.02 played in the battle being fought (ruling karama_battle_prevention).
TEST_CASE("3.01.11.02 ruling karama_battle_prevention: a Karama against the Sardaukar in the current battle", "[battle][karama][rulings]") {
  auto battle = [](const Rulings& r) {
    GameState s = cleared_board({Faction::Emperor, Faction::Atreides}, true, r);
    place(s, Faction::Emperor, kFlat, 1, 2);  // 1 + 2 x 2 = 5
    place(s, Faction::Atreides, kFlat, 2);
    enter_battle(s);
    REQUIRE(s.step == kPlanStep);  // a battle alone in its phase: it began with the phase
    REQUIRE(decisions(s, seat(s, Faction::Emperor))[0].max == 5);
    return s;
  };
  const auto prevent_sardaukar = [](GameState& s) {
    const uint8_t karama = give(s, Faction::Atreides, data::TreacheryKind::Karama);
    act(s, Faction::Atreides, action::PlayCard{karama, static_cast<uint8_t>(Faction::Emperor),
                                               static_cast<uint8_t>(rules::kKaramaPrevent | static_cast<uint8_t>(rules::Ability::EmperorSardaukar))});
  };
  const auto emperor = static_cast<int>(Faction::Emperor);
  SECTION("default current_battle: before the Emperor's plan is in, this battle counts the Sardaukar one") {
    GameState s = battle(Rulings::defaults());
    prevent_sardaukar(s);
    CHECK(s.prevented[emperor] == 0);  // used up by this battle
    CHECK(decisions(s, seat(s, Faction::Emperor))[0].max == 3);
    CHECK(rejected(s, Faction::Emperor, plan(L(Faction::Emperor, 4), 4)).code == RejectCode::IllegalChoice);
    check_legal_strict(s);
  }
  SECTION("current_battle: once the Emperor's plan is in, the prevention waits for the next battle") {
    GameState s = battle(Rulings::defaults());
    act(s, Faction::Emperor, plan(L(Faction::Emperor, 4), 5));
    prevent_sardaukar(s);
    CHECK(s.prevented[emperor] != 0);
    CHECK(s.battle.karama_elite_off == 0);
  }
  SECTION("next_battle (rules version 6 and before): the prevention waits for the next battle") {
    GameState s = battle(ruling("karama_battle_prevention", "next_battle"));
    prevent_sardaukar(s);
    CHECK(s.prevented[emperor] != 0);
    CHECK(decisions(s, seat(s, Faction::Emperor))[0].max == 5);
  }
}
