// Scenario tests of the faction abilities in the Battle phase
// (core/rules/battle_abilities.cpp): 2.01.08/09 Prescience, 2.02.06/07 Voice,
// 2.01.10-15 Kwisatz Haderach, 2.05.09 Harkonnen traitors in the ally's
// battle, 2.05.10-13 captured leaders.
//
// Positions are built as in tests/test_rules_battle.cpp: a game is played to
// turn 1's Shipment and Movement, the board is emptied, the storm is put in
// sector 17 (seat 0 is then the first player), forces and cards are placed
// and the Battle phase is entered with rules::enter_phase.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/rules/battle_abilities.h"
#include "core/rules/rules.h"
#include "events/codec.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;

namespace {

namespace ab = rules::ability;
using data::TreacheryKind;
constexpr uint8_t kChooseStep = 0, kPlanStep = 1, kTraitorStep = 2;
const LocationId kFlat = 70;  // The Great Flat (sector 14)

void to_tanks(GameState& s, LeaderId id) {
  auto& l = s.leaders[id];
  l.zone = LeaderZone::Tanks;
  l.died_once = 1;
  l.holder = static_cast<uint8_t>(data::leader(id).faction);
}

void enter_battle(GameState& s) { enter_battle_phase(s); }

uint8_t only(const GameState& s, Faction f) { return static_cast<uint8_t>(1u << s.seat_of(f)); }

Action prescience(int element) {
  action::Prescience a;
  a.element = static_cast<uint8_t>(element);
  return a;
}
Action answer(int value) {
  action::PrescienceAnswer a;
  a.value = static_cast<uint8_t>(value);
  return a;
}
Action voice(bool must, int kind) {
  action::Voice a;
  a.must = must;
  a.kind = static_cast<uint8_t>(kind);
  return a;
}
int named(TreacheryKind k) { return ab::kNamed + static_cast<int>(k); }

std::vector<Action> plans_of(const GameState& s, Faction f) { return legal_actions(s, s.seat_of(f)); }
// The battle plans among f's legal actions.
std::vector<action::BattlePlan> battle_plans(const GameState& s, Faction f) {
  std::vector<action::BattlePlan> out;
  for (const auto& a : legal_actions(s, s.seat_of(f)))
    if (const auto* p = a.get_if<action::BattlePlan>()) out.push_back(*p);
  return out;
}

// Declines every traitor call asked; the winner keeps every card it may.
void no_traitors(GameState& s) {
  decline_traitors(s);
  keep_all(s);
}

}  // namespace

// ---- 2.01.08 / 2.01.09 Prescience -------------------------------------------------------------

TEST_CASE("2.01.08 Prescience: asked before the plans, the answer binds the plan", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t knife = give(s, Faction::Harkonnen, TreacheryKind::Crysknife);
  const uint8_t chaumas = give(s, Faction::Harkonnen, TreacheryKind::Chaumas);
  const uint8_t snoop = give(s, Faction::Harkonnen, TreacheryKind::Snooper);
  const uint8_t las = give(s, Faction::Atreides, TreacheryKind::Lasgun);
  enter_battle(s);
  REQUIRE(s.step == ab::kPrescience);
  CHECK(waiting_for(s) == only(s, Faction::Atreides));
  check_legal_strict(s);
  CHECK(plans_of(s, Faction::Atreides).size() == 5);  // four elements and Pass
  CHECK(rejected(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 1)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, Faction::Harkonnen, prescience(ab::kWeapon)).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, Faction::Atreides, prescience(4)).code == RejectCode::Malformed);

  act(s, Faction::Atreides, prescience(ab::kWeapon));
  REQUIRE(s.step == ab::kPrescienceAnswer);
  CHECK(waiting_for(s) == only(s, Faction::Harkonnen));
  CHECK(s.atreides.battle.prescience == 1 + ab::kWeapon);
  check_legal_strict(s);
  CHECK(plans_of(s, Faction::Harkonnen).size() == 3);  // none, Crysknife, Chaumas
  auto r = rejected(s, Faction::Harkonnen, answer(snoop));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("1.07.04.07"));
  CHECK(rejected(s, Faction::Harkonnen, answer(las)).code == RejectCode::IllegalChoice);  // not in its hand
  CHECK(rejected(s, Faction::Atreides, answer(knife)).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 1, knife)).code == RejectCode::WrongPhase);

  act(s, Faction::Harkonnen, answer(knife));
  REQUIRE(s.step == kPlanStep);
  CHECK(s.atreides.battle.prescience_answered == 1);
  CHECK(s.atreides.battle.prescience_value == knife);
  CHECK(waiting(s, Faction::Atreides));
  CHECK(waiting(s, Faction::Harkonnen));
  check_legal_strict(s);
  for (const auto& a : battle_plans(s, Faction::Harkonnen)) CHECK(a.weapon == knife);
  CHECK_THAT(decisions(s, seat(s, Faction::Harkonnen))[0].prompt, Catch::Contains("Crysknife"));
  r = rejected(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2, chaumas));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("2.01.08"));
  CHECK(rejected(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2)).code == RejectCode::IllegalChoice);
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2, knife, snoop));
  act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 5, las));
  no_traitors(s);
  // Jessica killed by the Crysknife, Feyd by the Lasgun: 5 against 2, the Atreides win.
  CHECK(s.phase != Phase::Battle);
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
  CHECK(s.leaders[L(Faction::Harkonnen, 0)].zone == LeaderZone::Tanks);
}

TEST_CASE("2.01.08 Prescience answers: an element not played, the leader, the dial, declining", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t knife = give(s, Faction::Harkonnen, TreacheryKind::Crysknife);
  const uint8_t hero = give(s, Faction::Harkonnen, TreacheryKind::CheapHero);
  const uint8_t feyd = L(Faction::Harkonnen, 0);
  enter_battle(s);
  SECTION("weapon: not played, then no weapon may be played") {
    act(s, Faction::Atreides, prescience(ab::kWeapon));
    act(s, Faction::Harkonnen, answer(ab::kNotPlayed));
    CHECK(s.atreides.battle.prescience_value == ab::kNotPlayed);
    auto r = rejected(s, Faction::Harkonnen, plan(feyd, 1, knife));
    CHECK_THAT(r.reason, Catch::Contains("no weapon"));
    check_legal_strict(s);
    for (const auto& a : battle_plans(s, Faction::Harkonnen)) CHECK(a.weapon == kNone8);
    act(s, Faction::Harkonnen, plan(feyd, 1));
  }
  SECTION("leader: a leader or the Cheap Hero, never none while one is available") {
    act(s, Faction::Atreides, prescience(ab::kLeader));
    auto r = rejected(s, Faction::Harkonnen, answer(ab::kNotPlayed));
    CHECK_THAT(r.reason, Catch::Contains("1.07.04.05"));
    CHECK(rejected(s, Faction::Harkonnen, answer(L(Faction::Atreides, 0))).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Harkonnen, answer(ab::kHeroOffset + knife)).code == RejectCode::IllegalChoice);
    CHECK(plans_of(s, Faction::Harkonnen).size() == 6);  // five leaders and the Cheap Hero
    check_legal_strict(s);
    act(s, Faction::Harkonnen, answer(ab::kHeroOffset + hero));
    CHECK(rejected(s, Faction::Harkonnen, plan(feyd, 1)).code == RejectCode::IllegalChoice);
    CHECK(decisions(s, seat(s, Faction::Harkonnen))[0].options == std::vector<uint16_t>{uint16_t(ab::kHeroOffset + hero)});
    check_legal_strict(s);
    act(s, Faction::Harkonnen, plan(kNone8, 1, knife, kNone8, hero));
  }
  SECTION("dial: a number 0..forces, binding") {
    act(s, Faction::Atreides, prescience(ab::kDial));
    CHECK(rejected(s, Faction::Harkonnen, answer(ab::kNotPlayed)).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Harkonnen, answer(6)).code == RejectCode::IllegalChoice);
    CHECK(decisions(s, seat(s, Faction::Harkonnen))[0].options.size() == 6);
    act(s, Faction::Harkonnen, answer(3));
    const auto d = decisions(s, seat(s, Faction::Harkonnen))[0];
    CHECK(d.min == 3);
    CHECK(d.max == 3);
    CHECK(rejected(s, Faction::Harkonnen, plan(feyd, 4)).code == RejectCode::IllegalChoice);
    check_legal_strict(s);
    for (const auto& a : battle_plans(s, Faction::Harkonnen)) CHECK(a.dial == 3);
    act(s, Faction::Harkonnen, plan(feyd, 3));
    // The Atreides' own plan is free.
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 0), 5));
  }
  SECTION("the Atreides may decline") {
    act(s, Faction::Atreides, pass());
    CHECK(s.step == kPlanStep);
    CHECK(s.atreides.battle.prescience == 0);
    act(s, Faction::Harkonnen, plan(feyd, 4, knife));
  }
}

TEST_CASE("2.01.09 Prescience in the ally's battle, none when neither the Atreides nor their ally fights", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  place(s, Faction::Emperor, kFlat, 4);
  place(s, Faction::Harkonnen, kFlat, 4);
  place(s, Faction::Atreides, loc("Sietch Tabr"), 2);
  SECTION("the Atreides' ally fights: the Atreides ask its opponent") {
    ally(s, Faction::Atreides, Faction::Emperor);
    enter_battle(s);
    REQUIRE(s.step == ab::kPrescience);
    CHECK(waiting_for(s) == only(s, Faction::Atreides));
    act(s, Faction::Atreides, prescience(ab::kDial));
    CHECK(waiting_for(s) == only(s, Faction::Harkonnen));
    act(s, Faction::Harkonnen, answer(2));
    REQUIRE(s.step == kPlanStep);
    CHECK(rejected(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 4)).code == RejectCode::IllegalChoice);
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2));
    act(s, Faction::Emperor, plan(L(Faction::Emperor, 0), 4));
    CHECK_FALSE(waiting(s, Faction::Atreides));  // not in the battle: no traitor call for them
    no_traitors(s);
    CHECK(s.phase != Phase::Battle);
  }
  SECTION("no alliance: straight to the plans") {
    enter_battle(s);
    CHECK(s.step == kPlanStep);
    CHECK(s.atreides.battle.prescience == 0);
  }
}

// ---- 2.02.06 / 2.02.07 Voice -------------------------------------------------------------------

TEST_CASE("2.02.06 Voice: play or do not play a kind, as well as the opponent is able", "[battle]") {
  GameState s = cleared_board({Faction::BeneGesserit, Faction::Harkonnen});
  place(s, Faction::BeneGesserit, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t chaumas = give(s, Faction::Harkonnen, TreacheryKind::Chaumas);
  const uint8_t knife = give(s, Faction::Harkonnen, TreacheryKind::Crysknife);
  const uint8_t baliset = give(s, Faction::Harkonnen, TreacheryKind::Baliset);
  const uint8_t feyd = L(Faction::Harkonnen, 0);
  enter_battle(s);
  REQUIRE(s.step == ab::kVoice);
  CHECK(waiting_for(s) == only(s, Faction::BeneGesserit));
  check_legal_strict(s);
  CHECK(plans_of(s, Faction::BeneGesserit).size() == 15);  // 7 kinds x must/must not, and Pass
  CHECK(rejected(s, Faction::BeneGesserit, voice(true, 6)).code == RejectCode::Malformed);
  CHECK(rejected(s, Faction::BeneGesserit, voice(true, named(TreacheryKind::Baliset))).code == RejectCode::Malformed);
  CHECK(rejected(s, Faction::Harkonnen, voice(true, ab::kPoisonWeapon)).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, Faction::Harkonnen, plan(feyd, 1)).code == RejectCode::WrongPhase);

  SECTION("must play a poison weapon: it holds one") {
    act(s, Faction::BeneGesserit, voice(true, ab::kPoisonWeapon));
    REQUIRE(s.step == kPlanStep);
    CHECK(s.bene_gesserit.battle.voice == 1 + ab::kPoisonWeapon);
    CHECK(s.bene_gesserit.battle.voice_must == 1);
    auto r = rejected(s, Faction::Harkonnen, plan(feyd, 2));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("2.02.06"));
    CHECK(rejected(s, Faction::Harkonnen, plan(feyd, 2, knife)).code == RejectCode::IllegalChoice);
    check_legal_strict(s);
    for (const auto& a : battle_plans(s, Faction::Harkonnen)) CHECK(a.weapon == chaumas);
    act(s, Faction::Harkonnen, plan(feyd, 2, chaumas));
  }
  SECTION("must not play a projectile weapon") {
    act(s, Faction::BeneGesserit, voice(false, ab::kProjectileWeapon));
    CHECK_THAT(rejected(s, Faction::Harkonnen, plan(feyd, 2, knife)).reason, Catch::Contains("2.02.06"));
    check_legal_strict(s);
    act(s, Faction::Harkonnen, plan(feyd, 2, chaumas, baliset));
  }
  SECTION("must play a worthless card: in either slot") {
    act(s, Faction::BeneGesserit, voice(true, ab::kWorthless));
    CHECK(rejected(s, Faction::Harkonnen, plan(feyd, 2, knife)).code == RejectCode::IllegalChoice);
    check_legal_strict(s);
    act(s, Faction::Harkonnen, plan(feyd, 2, knife, baliset));
  }
  SECTION("must play a poison defense it does not hold: nothing is required") {
    act(s, Faction::BeneGesserit, voice(true, ab::kPoisonDefense));
    check_legal_strict(s);
    act(s, Faction::Harkonnen, plan(feyd, 2, knife));
  }
  SECTION("must not play a Lasgun (a special weapon by name)") {
    const uint8_t las = give(s, Faction::Harkonnen, TreacheryKind::Lasgun);
    act(s, Faction::BeneGesserit, voice(false, named(TreacheryKind::Lasgun)));
    CHECK(rejected(s, Faction::Harkonnen, plan(feyd, 2, las)).code == RejectCode::IllegalChoice);
    check_legal_strict(s);
    act(s, Faction::Harkonnen, plan(feyd, 2, knife));
  }
  SECTION("the Bene Gesserit may decline") {
    act(s, Faction::BeneGesserit, pass());
    CHECK(s.step == kPlanStep);
    CHECK(s.bene_gesserit.battle.voice == 0);
  }
}

TEST_CASE("2.02.06 Voice and Cheap Heroes: must play one instead of a leader, must not lifts 1.07.04.05", "[battle]") {
  GameState s = cleared_board({Faction::BeneGesserit, Faction::Harkonnen});
  place(s, Faction::BeneGesserit, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t hero = give(s, Faction::Harkonnen, TreacheryKind::CheapHero);
  const uint8_t knife = give(s, Faction::Harkonnen, TreacheryKind::Crysknife);
  SECTION("must play a Cheap Hero") {
    enter_battle(s);
    act(s, Faction::BeneGesserit, voice(true, ab::kCheapHero));
    CHECK_THAT(rejected(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2)).reason, Catch::Contains("2.02.06"));
    CHECK(decisions(s, seat(s, Faction::Harkonnen))[0].options == std::vector<uint16_t>{uint16_t(100 + hero)});
    check_legal_strict(s);
    act(s, Faction::Harkonnen, plan(kNone8, 2, knife, kNone8, hero));
  }
  SECTION("must not play a Cheap Hero, and no leader is available") {
    for (int i = 0; i < data::kLeadersPerFaction; ++i) to_tanks(s, L(Faction::Harkonnen, i));
    enter_battle(s);
    act(s, Faction::BeneGesserit, voice(false, ab::kCheapHero));
    CHECK_THAT(rejected(s, Faction::Harkonnen, plan(kNone8, 2, kNone8, kNone8, hero)).reason, Catch::Contains("2.02.06"));
    CHECK_THAT(rejected(s, Faction::Harkonnen, plan(kNone8, 2, knife)).reason, Catch::Contains("1.07.04.06"));
    CHECK(decisions(s, seat(s, Faction::Harkonnen))[0].options.empty());
    check_legal_strict(s);
    act(s, Faction::Harkonnen, plan(kNone8, 2));
  }
}

TEST_CASE("2.01.08 + 2.02.07 the Prescience answer binds first, the Voice in the ally's battle is obeyed as far as possible",
          "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::BeneGesserit, Faction::Harkonnen});
  ally(s, Faction::Atreides, Faction::BeneGesserit);
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t chaumas = give(s, Faction::Harkonnen, TreacheryKind::Chaumas);
  const uint8_t knife = give(s, Faction::Harkonnen, TreacheryKind::Crysknife);
  const uint8_t hero = give(s, Faction::Harkonnen, TreacheryKind::CheapHero);
  SECTION("no weapon revealed, then commanded to play a poison weapon") {
    enter_battle(s);
    act(s, Faction::Atreides, prescience(ab::kWeapon));
    act(s, Faction::Harkonnen, answer(ab::kNotPlayed));
    REQUIRE(s.step == ab::kVoice);
    CHECK(waiting_for(s) == only(s, Faction::BeneGesserit));  // 2.02.07: the ally's battle
    act(s, Faction::BeneGesserit, voice(true, ab::kPoisonWeapon));
    CHECK_THAT(rejected(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2, chaumas)).reason, Catch::Contains("2.01.08"));
    check_legal_strict(s);
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2));
  }
  SECTION("a weapon revealed that only the Cheap Hero can carry; the Voice forbids Cheap Heroes") {
    for (int i = 0; i < data::kLeadersPerFaction; ++i) to_tanks(s, L(Faction::Harkonnen, i));
    enter_battle(s);
    act(s, Faction::Atreides, prescience(ab::kWeapon));
    act(s, Faction::Harkonnen, answer(knife));
    act(s, Faction::BeneGesserit, voice(false, ab::kCheapHero));
    CHECK(rejected(s, Faction::Harkonnen, plan(kNone8, 2)).code == RejectCode::IllegalChoice);
    check_legal_strict(s);
    act(s, Faction::Harkonnen, plan(kNone8, 2, knife, kNone8, hero));
  }
}

// ---- 2.01.10-15 Kwisatz Haderach -------------------------------------------------------------------

TEST_CASE("2.01.10 Atreides force losses in battles are counted (advanced)", "[battle]") {
  for (bool advanced : {false, true}) {
    GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen}, advanced);
    place(s, Faction::Atreides, kFlat, 8);
    place(s, Faction::Harkonnen, kFlat, 3);
    enter_battle(s);
    no_abilities(s);
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 4), 0));                             // Yueh 1
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 1, kNone8, kNone8, kNone8, advanced ? 1 : 0));  // Feyd 6 + 1
    no_traitors(s);
    CHECK(s.of(Faction::Atreides).tanks[0] == 8);
    CHECK(s.atreides.kh.losses == (advanced ? 8 : 0));
  }
}

TEST_CASE("2.01.10 2.01.11 the Kwisatz Haderach: active from 7 losses, +2, one territory per turn", "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen}, true);
  const LocationId tabr = loc("Sietch Tabr");
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  place(s, Faction::Atreides, tabr, 2);
  place(s, Faction::Harkonnen, tabr, 2);
  enter_battle(s);
  REQUIRE(s.step == kChooseStep);
  act(s, Faction::Atreides, choose(ter(kFlat), Faction::Harkonnen));
  no_abilities(s);
  const uint8_t yueh = L(Faction::Atreides, 4);
  const action::BattlePlan with_kh = plan(yueh, 2, kNone8, kNone8, kNone8, 2, true);
  auto r = rejected(s, Faction::Atreides, with_kh);
  CHECK_THAT(r.reason, Catch::Contains("2.01.10"));
  CHECK(rejected(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 3, kNone8, kNone8, kNone8, 0, true)).code ==
        RejectCode::IllegalChoice);
  s.atreides.kh.losses = 7;
  check_legal_strict(s);
  const auto acts = battle_plans(s, Faction::Atreides);
  CHECK(std::any_of(acts.begin(), acts.end(), [](const action::BattlePlan& a) { return a.kwisatz_haderach; }));
  CHECK_THAT(decisions(s, seat(s, Faction::Atreides))[0].prompt, Catch::Contains("Kwisatz Haderach"));
  act(s, Faction::Atreides, with_kh);                                                         // 2 + Yueh 1 + 2 = 5
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 3, kNone8, kNone8, kNone8, 3));   // 3 + Kudu 1 = 4
  CHECK(s.battle.plan[0].kwisatz_haderach == 1);
  no_traitors(s);
  CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);  // without the +2 the Atreides would have lost
  CHECK(s.forces_at(Faction::Atreides, kFlat) == 3);
  CHECK(s.atreides.kh.used_turn == s.turn);
  CHECK(s.atreides.kh.used_territory == ter(kFlat));
  CHECK(s.atreides.kh.losses == 9);
  // The other battle, in Sietch Tabr: not the same territory.
  REQUIRE(s.phase == Phase::Battle);
  no_abilities(s);
  REQUIRE(s.battle.territory == ter(tabr));
  r = rejected(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 1, kNone8, kNone8, kNone8, 0, true));
  CHECK_THAT(r.reason, Catch::Contains("one territory per turn"));
  check_legal_strict(s);
  for (const auto& a : battle_plans(s, Faction::Atreides)) CHECK_FALSE(a.kwisatz_haderach);
}

TEST_CASE("2.01.11 2.01.12 2.01.13 2.01.14 2.01.15 the Kwisatz Haderach: no +2 for a killed leader, loyal, killed only by lasgun/shield, revived like a leader",
          "[battle]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen}, true);
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  s.atreides.kh.losses = 7;
  const uint8_t jessica = L(Faction::Atreides, 0), yueh = L(Faction::Atreides, 4);
  const uint8_t feyd = L(Faction::Harkonnen, 0), kudu = L(Faction::Harkonnen, 4);
  SECTION("2.01.11 the leader is killed: no +2, the token survives") {
    const uint8_t knife = give(s, Faction::Harkonnen, TreacheryKind::Crysknife);
    enter_battle(s);
    no_abilities(s);
    act(s, Faction::Atreides, plan(yueh, 3, kNone8, kNone8, kNone8, 3, true));        // 3 (+1 +2 lost)
    act(s, Faction::Harkonnen, plan(kudu, 3, knife, kNone8, kNone8, 3));               // 3 + 1 = 4
    no_traitors(s);
    CHECK(s.leaders[yueh].zone == LeaderZone::Tanks);
    CHECK(s.forces_at(Faction::Atreides, kFlat) == 0);
    CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 2);
    CHECK(s.atreides.kh.dead == 0);
  }
  SECTION("2.01.12 a leader with the Kwisatz Haderach cannot turn traitor") {
    give_traitor(s, Faction::Harkonnen, jessica);
    enter_battle(s);
    no_abilities(s);
    act(s, Faction::Atreides, plan(jessica, 1, kNone8, kNone8, kNone8, 1, true));
    act(s, Faction::Harkonnen, plan(feyd, 1, kNone8, kNone8, kNone8, 1));
    REQUIRE(s.step == kTraitorStep);
    CHECK(waiting_for(s) == only(s, Faction::Atreides));  // facing Feyd; nobody may call Jessica
    CHECK(rejected(s, Faction::Harkonnen, traitor(true)).code == RejectCode::NotYourDecision);
    act(s, Faction::Atreides, traitor(false));
    CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);  // 1 + 5 + 2 = 8 beats 7
    CHECK(s.leaders[jessica].zone == LeaderZone::Pool);
  }
  SECTION("2.01.13 a lasgun/shield explosion kills it; 2.01.14 revived like a leader") {
    const uint8_t las = give(s, Faction::Atreides, TreacheryKind::Lasgun);
    const uint8_t sh = give(s, Faction::Harkonnen, TreacheryKind::Shield);
    enter_battle(s);
    no_abilities(s);
    act(s, Faction::Atreides, plan(jessica, 1, las, kNone8, kNone8, 0, true));
    act(s, Faction::Harkonnen, plan(feyd, 1, kNone8, sh));
    no_traitors(s);
    CHECK(s.atreides.kh.dead == 1);
    CHECK(s.leaders[jessica].zone == LeaderZone::Tanks);
    // 2.01.14: revived as the leader revival once every other leader has died once or is unavailable.
    CHECK(ab::kh_unrevivable(s, Faction::Atreides).has_value());
    for (int i = 1; i < data::kLeadersPerFaction; ++i) s.leaders[L(Faction::Atreides, i)].died_once = 1;
    CHECK_FALSE(ab::kh_unrevivable(s, Faction::Atreides).has_value());
    rules::Ctx c{s, nullptr};
    rules::enter_phase(c, Phase::Revival);
    REQUIRE(s.phase == Phase::Revival);
    REQUIRE(waiting(s, Faction::Atreides));
    const auto ds = decisions(s, seat(s, Faction::Atreides));
    REQUIRE_FALSE(ds.empty());
    CHECK(std::find(ds[0].options.begin(), ds[0].options.end(), ab::kKwisatzHaderachToken) != ds[0].options.end());
    CHECK(std::find(ds[0].options.begin(), ds[0].options.end(), jessica) != ds[0].options.end());  // 2.01.15
    check_legal_strict(s);
    CHECK(rejected(s, Faction::Harkonnen, revive(0, 0, ab::kKwisatzHaderachToken)).code == RejectCode::IllegalChoice);
    const int spice = s.of(Faction::Atreides).spice;
    act(s, Faction::Atreides, revive(0, 0, ab::kKwisatzHaderachToken));
    CHECK(s.atreides.kh.dead == 0);
    CHECK(s.of(Faction::Atreides).spice == spice - ab::kKwisatzHaderachStrength);
    CHECK(s.of(Faction::Atreides).leader_revived_turn == s.turn);
  }
}

// ---- 2.05.09 - 2.05.13 Harkonnen ---------------------------------------------------------------------

TEST_CASE("2.05.09 the Harkonnen call traitor in their ally's battle, it counts as the ally's", "[battle]") {
  GameState s = cleared_board({Faction::Fremen, Faction::Harkonnen, Faction::Emperor});
  ally(s, Faction::Harkonnen, Faction::Emperor);
  place(s, Faction::Fremen, kFlat, 4);
  place(s, Faction::Emperor, kFlat, 4);
  const uint8_t stilgar = L(Faction::Fremen, 0), bashar = L(Faction::Emperor, 4);
  give_traitor(s, Faction::Harkonnen, stilgar);
  enter_battle(s);
  REQUIRE(s.step == kPlanStep);
  act(s, Faction::Fremen, plan(stilgar, 3));
  act(s, Faction::Emperor, plan(bashar, 1));
  REQUIRE(s.step == kTraitorStep);
  CHECK(waiting(s, Faction::Harkonnen));
  CHECK(waiting(s, Faction::Emperor));
  CHECK(waiting(s, Faction::Fremen));
  check_legal_strict(s);
  const auto harkonnen = plans_of(s, Faction::Harkonnen);  // + AllyPermission (1.10.02.06)
  CHECK(std::count_if(harkonnen.begin(), harkonnen.end(), [](const Action& a) { return a.kind() == ActionKind::CallTraitor; }) == 2);
  CHECK(rejected(s, Faction::Emperor, traitor(true)).code == RejectCode::IllegalChoice);
  act(s, Faction::Emperor, traitor(false));
  act(s, Faction::Fremen, traitor(false));
  act(s, Faction::Harkonnen, traitor(true));
  // 1.07.06.07.01 as if the Emperor had called it.
  CHECK(s.forces_at(Faction::Emperor, kFlat) == 4);
  CHECK(s.forces_at(Faction::Fremen, kFlat) == 0);
  CHECK(s.leaders[stilgar].zone == LeaderZone::Tanks);
  CHECK(s.of(Faction::Emperor).spice == 17);
  CHECK(s.of(Faction::Harkonnen).spice == 10);
  CHECK(s.phase != Phase::Battle);
}

TEST_CASE("2.05.10 2.05.10.02 2.05.10.03 captured leaders: after a win the Harkonnen kill or capture a random leader of the loser", "[battle]") {
  GameState s = cleared_board({Faction::Harkonnen, Faction::Emperor}, true);
  place(s, Faction::Harkonnen, kFlat, 4);
  place(s, Faction::Emperor, kFlat, 4);
  enter_battle(s);
  REQUIRE(s.step == kPlanStep);
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2, kNone8, kNone8, kNone8, 2));  // 2 + 6
  act(s, Faction::Emperor, plan(L(Faction::Emperor, 4), 1, kNone8, kNone8, kNone8, 1));      // 1 + 2
  act(s, Faction::Emperor, traitor(false));
  // The last answer resolves the battle and draws the leader: the draw is recorded.
  DrawLog draws;
  const Seat h = seat(s, Faction::Harkonnen);
  REQUIRE_FALSE(validate(s, h, traitor(false)).has_value());
  apply(s, h, traitor(false), &draws);
  check_custody(s);
  REQUIRE(s.step == ab::kCapture);
  CHECK(waiting_for(s) == only(s, Faction::Harkonnen));
  REQUIRE(draws.size() == 1);
  CHECK(draws[0].kind == DrawKind::Random);
  CHECK(draws[0].value < 5);  // Bashar on the battlefield and the four in the pool
  REQUIRE(s.harkonnen.battle.captive > 0);
  const uint8_t id = static_cast<uint8_t>(s.harkonnen.battle.captive - 1);
  CHECK(data::leader(id).faction == Faction::Emperor);
  CHECK(rules::battle_plans_revealed(s));
  check_legal_strict(s);
  CHECK(rejected(s, Faction::Emperor, respond(true)).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, Faction::Harkonnen, traitor(false)).code == RejectCode::WrongPhase);
  const int spice = s.of(Faction::Harkonnen).spice;
  SECTION("capture") {
    act(s, Faction::Harkonnen, respond(true));
    CHECK(s.phase != Phase::Battle);
    CHECK(s.leaders[id].holder == static_cast<uint8_t>(Faction::Harkonnen));
    CHECK(s.leaders[id].zone == LeaderZone::Pool);
  }
  SECTION("kill") {
    act(s, Faction::Harkonnen, respond(false));
    CHECK(s.leaders[id].zone == LeaderZone::TanksFaceDown);
    CHECK(s.leaders[id].holder == static_cast<uint8_t>(Faction::Emperor));
    CHECK(s.leaders[id].died_once == 1);
    CHECK(s.of(Faction::Harkonnen).spice == spice + 2);
  }
  SECTION("neither") {
    act(s, Faction::Harkonnen, pass());
    CHECK(s.leaders[id].holder == static_cast<uint8_t>(Faction::Emperor));
    CHECK(s.leaders[id].zone == LeaderZone::Pool);
    CHECK(s.of(Faction::Harkonnen).spice == spice);
  }
}

TEST_CASE("2.05.10.01 no capture in the basic game, nor of leaders used elsewhere this turn", "[battle]") {
  SECTION("basic game") {
    GameState s = cleared_board({Faction::Harkonnen, Faction::Emperor});
    place(s, Faction::Harkonnen, kFlat, 4);
    place(s, Faction::Emperor, kFlat, 4);
    enter_battle(s);
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2));
    act(s, Faction::Emperor, plan(L(Faction::Emperor, 4), 1));
    no_traitors(s);
    CHECK(s.phase != Phase::Battle);
    CHECK(s.harkonnen.battle.captive == 0);
  }
  SECTION("the loser's only leader alive fought in another territory") {
    GameState s = cleared_board({Faction::Harkonnen, Faction::Emperor}, true);
    place(s, Faction::Harkonnen, kFlat, 4);
    place(s, Faction::Emperor, kFlat, 4);
    for (int i = 0; i < 4; ++i) to_tanks(s, L(Faction::Emperor, i));
    const uint8_t hero = give(s, Faction::Emperor, TreacheryKind::CheapHero);
    enter_battle(s);
    auto& bashar = s.leaders[L(Faction::Emperor, 4)];
    bashar.zone = LeaderZone::Battlefield;
    bashar.aux = ter(loc("Sietch Tabr"));
    bashar.used_in_territory = bashar.aux;
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 2, kNone8, kNone8, kNone8, 2));
    act(s, Faction::Emperor, plan(kNone8, 1, kNone8, kNone8, hero));
    no_traitors(s);
    CHECK(s.phase != Phase::Battle);
    CHECK(bashar.holder == static_cast<uint8_t>(Faction::Emperor));
  }
}

TEST_CASE("2.05.10.03 a captured leader fights for the Harkonnen, then goes back, 2.05.12 2.05.13 it may be called traitor",
          "[battle]") {
  GameState s = cleared_board({Faction::Harkonnen, Faction::Emperor, Faction::Fremen}, true);
  const uint8_t fenring = L(Faction::Emperor, 0), jamis = L(Faction::Fremen, 4);
  s.leaders[fenring].holder = static_cast<uint8_t>(Faction::Harkonnen);  // captured earlier
  place(s, Faction::Harkonnen, kFlat, 4);
  place(s, Faction::Fremen, kFlat, 4);
  SECTION("used and not killed: back to the Emperor's pool") {
    enter_battle(s);
    REQUIRE(s.step == kPlanStep);
    const auto ds = decisions(s, seat(s, Faction::Harkonnen));
    CHECK(std::find(ds[0].options.begin(), ds[0].options.end(), fenring) != ds[0].options.end());
    act(s, Faction::Harkonnen, plan(fenring, 2, kNone8, kNone8, kNone8, 2));  // 2 + 6
    act(s, Faction::Fremen, plan(jamis, 1));                                   // 1 + 2
    no_traitors(s);
    REQUIRE(s.step == ab::kCapture);  // the Harkonnen won
    CHECK(s.leaders[fenring].holder == static_cast<uint8_t>(Faction::Emperor));
    CHECK(s.leaders[fenring].zone == LeaderZone::Pool);
    act(s, Faction::Harkonnen, pass());
    CHECK(s.phase != Phase::Battle);
  }
  SECTION("2.05.13 the Fremen hold its traitor card") {
    give_traitor(s, Faction::Fremen, fenring);
    enter_battle(s);
    act(s, Faction::Harkonnen, plan(fenring, 2, kNone8, kNone8, kNone8, 2));
    act(s, Faction::Fremen, plan(jamis, 1));
    act(s, Faction::Harkonnen, traitor(false));
    act(s, Faction::Fremen, traitor(true));
    CHECK(s.leaders[fenring].zone == LeaderZone::Tanks);
    CHECK(s.leaders[fenring].holder == static_cast<uint8_t>(Faction::Emperor));  // 2.05.12
    CHECK(s.forces_at(Faction::Harkonnen, kFlat) == 0);
    CHECK(s.of(Faction::Fremen).spice == 16);
  }
}

TEST_CASE("2.05.11 prison break: when all Harkonnen leaders are dead the captured leaders go back", "[battle]") {
  GameState s = cleared_board({Faction::Harkonnen, Faction::Emperor, Faction::Fremen}, true);
  const uint8_t fenring = L(Faction::Emperor, 0), feyd = L(Faction::Harkonnen, 0);
  s.leaders[fenring].holder = static_cast<uint8_t>(Faction::Harkonnen);
  for (int i = 1; i < data::kLeadersPerFaction; ++i) to_tanks(s, L(Faction::Harkonnen, i));
  place(s, Faction::Harkonnen, kFlat, 3);
  place(s, Faction::Fremen, kFlat, 5);
  const uint8_t knife = give(s, Faction::Fremen, TreacheryKind::Crysknife);
  enter_battle(s);
  act(s, Faction::Harkonnen, plan(feyd, 0));
  act(s, Faction::Fremen, plan(L(Faction::Fremen, 0), 5, knife));
  no_traitors(s);
  CHECK(s.leaders[feyd].zone == LeaderZone::Tanks);
  CHECK(s.leaders[fenring].holder == static_cast<uint8_t>(Faction::Emperor));
  CHECK(s.leaders[fenring].zone == LeaderZone::Pool);
}

// ---- the whole phase ----------------------------------------------------------------------------------

TEST_CASE("battle abilities: random legal play keeps custody and every decision legal", "[battle]") {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    GameState s = cleared_board({Faction::Atreides, Faction::BeneGesserit, Faction::Harkonnen, Faction::Emperor}, seed % 2 == 0);
    if (seed % 3 == 0) {
      ally(s, Faction::Atreides, Faction::BeneGesserit);
      ally(s, Faction::Harkonnen, Faction::Emperor);
    } else if (seed % 3 == 1) {
      ally(s, Faction::Atreides, Faction::Emperor);
    }
    s.atreides.kh.losses = seed % 4 == 0 ? 7 : 0;
    s.leaders[L(Faction::Emperor, 1)].holder = static_cast<uint8_t>(Faction::Harkonnen);
    place(s, Faction::Atreides, kFlat, 4);
    place(s, Faction::BeneGesserit, kFlat, 3);
    place(s, Faction::Harkonnen, kFlat, 3);
    place(s, Faction::Emperor, kFlat, 2, 1);
    place(s, Faction::Atreides, loc("Sietch Tabr"), 3);
    place(s, Faction::Harkonnen, loc("Sietch Tabr"), 3);
    give(s, Faction::Atreides, TreacheryKind::Lasgun);
    give(s, Faction::Harkonnen, TreacheryKind::Shield);
    give(s, Faction::Harkonnen, TreacheryKind::Chaumas);
    give(s, Faction::Emperor, TreacheryKind::CheapHero);
    give(s, Faction::Emperor, TreacheryKind::Baliset);
    give(s, Faction::BeneGesserit, TreacheryKind::Snooper);
    give(s, Faction::BeneGesserit, TreacheryKind::Crysknife);
    for (auto l : {L(Faction::Atreides, 0), L(Faction::Emperor, 2), L(Faction::BeneGesserit, 1)})
      give_traitor(s, Faction::Harkonnen, l);
    enter_battle(s);
    Rng rng = Rng::from_seed(seed);
    int steps = 0;
    for (; steps < 300 && s.phase == Phase::Battle; ++steps) {
      check_legal_strict(s);
      const uint8_t w = waiting_for(s);
      REQUIRE(w != 0);
      const Seat who = static_cast<Seat>(__builtin_ctz(w));
      const auto acts = legal_actions(s, who);
      REQUIRE_FALSE(acts.empty());
      act(s, s.faction_at(who), acts[rng.below(static_cast<uint32_t>(acts.size()))]);
    }
    CHECK(s.phase != Phase::Battle);
    for (const auto& l : s.leaders) CHECK(l.zone != LeaderZone::Battlefield);
  }
}

TEST_CASE("battle abilities: Prescience, PrescienceAnswer and Voice round-trip through events and JSON", "[battle]") {
  for (const Action& a : {prescience(ab::kDefense), answer(ab::kNotPlayed), answer(7), voice(true, ab::kWorthless),
                          voice(false, named(TreacheryKind::Lasgun))}) {
    codec::Event e;
    e.version = 3;
    e.seat = 1;
    e.action = a;
    codec::Event back;
    std::string error;
    REQUIRE(codec::decode_event(codec::encode_event(e), &back, &error));
    CHECK(back.action == a);
    std::string json;
    REQUIRE(codec::event_to_json(codec::encode_event(e), &json, &error));
    CHECK_THAT(json, Catch::Contains(std::string(action_kind_name(a.kind()))));
  }
  Action a;
  std::string err;
  REQUIRE(codec::parse_action_json(R"({"action_type":"Voice","action":{"must":true,"kind":78}})", &a, nullptr, &err));
  CHECK(a == voice(true, 78));
  REQUIRE(codec::parse_action_json(R"({"action_type":"PrescienceAnswer","action":{}})", &a, nullptr, &err));
  CHECK(a == answer(255));
  REQUIRE(codec::parse_action_json(R"({"action_type":"Prescience","action":{"element":3}})", &a, nullptr, &err));
  CHECK(a == prescience(3));
}

// ---- rulings voice_vs_cheap_hero and capture_after_traitor_win ---------------------------------

TEST_CASE("2.02.06 ruling voice_vs_cheap_hero=obligation_stands: with no leader the Cheap Hero is still played", "[battle][rulings]") {
  GameState s = cleared_board({Faction::BeneGesserit, Faction::Harkonnen});
  std::string err;
  REQUIRE(s.rulings.set("voice_vs_cheap_hero", "obligation_stands", &err));
  place(s, Faction::BeneGesserit, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  const uint8_t hero = give(s, Faction::Harkonnen, TreacheryKind::CheapHero);
  for (int i = 0; i < data::kLeadersPerFaction; ++i) to_tanks(s, L(Faction::Harkonnen, i));
  enter_battle(s);
  act(s, Faction::BeneGesserit, voice(false, ab::kCheapHero));
  CHECK_THAT(rejected(s, Faction::Harkonnen, plan(kNone8, 2)).reason, Catch::Contains("1.07.04.05"));
  CHECK(decisions(s, seat(s, Faction::Harkonnen))[0].options == std::vector<uint16_t>{uint16_t(100 + hero)});
  check_legal_strict(s);
  act(s, Faction::Harkonnen, plan(kNone8, 2, kNone8, kNone8, hero));
}

TEST_CASE("2.05.10.01 ruling capture_after_traitor_win: a traitor win takes a captive only under capture", "[battle][rulings]") {
  GameState s = cleared_board({Faction::Harkonnen, Faction::Emperor}, true);
  place(s, Faction::Harkonnen, kFlat, 4);
  place(s, Faction::Emperor, kFlat, 4);
  const uint8_t bashar = L(Faction::Emperor, 4);
  give_traitor(s, Faction::Harkonnen, bashar);
  std::string err;
  const bool capture = GENERATE(true, false);
  if (!capture) REQUIRE(s.rulings.set("capture_after_traitor_win", "no_capture", &err));
  enter_battle(s);
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 1));
  act(s, Faction::Emperor, plan(bashar, 2));
  act(s, Faction::Emperor, traitor(false));
  act(s, Faction::Harkonnen, traitor(true));
  if (capture) {
    CHECK(s.step == ab::kCapture);
    CHECK(s.harkonnen.battle.captive > 0);
  } else {
    CHECK(s.harkonnen.battle.captive == 0);
    CHECK(s.phase != Phase::Battle);
  }
}

TEST_CASE("1.00.05 3.05 while Prescience is used, other seats' bribes and deals wait until it is complete", "[battle][deals]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  ally(s, Faction::Emperor, Faction::Harkonnen);
  enter_battle(s);
  REQUIRE(s.step == ab::kPrescience);
  const Action bribe = action::Bribe{.to = static_cast<uint8_t>(Faction::Atreides), .amount = 1};
  const Action deal = action::Deal{.text = "no Voice on my leader"};
  const Action gift = action::GiveSpice{.to = static_cast<uint8_t>(Faction::Harkonnen), .amount = 1};
  // Prescience being chosen, then answered: everything else waits.
  for (int step = 0; step < 2; ++step) {
    INFO("step " << int(s.step));
    auto r = rejected(s, Faction::Emperor, bribe);
    CHECK(r.code == RejectCode::WrongPhase);
    CHECK_THAT(r.reason, Catch::Contains("1.00.05") && Catch::Contains("Prescience"));
    CHECK(rejected(s, Faction::Harkonnen, deal).code == RejectCode::WrongPhase);
    CHECK(rejected(s, Faction::Atreides, deal).code == RejectCode::WrongPhase);
    CHECK(rejected(s, Faction::Emperor, gift).code == RejectCode::WrongPhase);
    for (Seat x = 0; x < s.num_seats; ++x)
      for (const auto& a : legal_actions(s, x)) CHECK_FALSE(rules::is_anytime(a.kind()));
    if (step == 0) act(s, Faction::Atreides, prescience(ab::kDial));
    REQUIRE(s.step == (step == 0 ? ab::kPrescienceAnswer : ab::kPrescienceAnswer));
    if (step == 1) act(s, Faction::Harkonnen, answer(3));
  }
  // The ability is complete: the plans are made, bribes and deals are back.
  REQUIRE(s.step == kPlanStep);
  const int e0 = s.of(Faction::Emperor).spice;
  act(s, Faction::Emperor, bribe);
  act(s, Faction::Harkonnen, deal);
  act(s, Faction::Emperor, gift);
  CHECK(s.of(Faction::Emperor).spice == e0 - 2);
  CHECK(s.of(Faction::Atreides).bribes == 1);
}

TEST_CASE("ruling ability_step_deals=open (games of rules version 2): bribes, deals and gifts go on while Prescience is used", "[battle][deals][rulings]") {
  GameState s = cleared_board({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  s.rulings.value[static_cast<int>(RulingId::AbilityStepDeals)] = 1;  // open
  place(s, Faction::Atreides, kFlat, 5);
  place(s, Faction::Harkonnen, kFlat, 5);
  ally(s, Faction::Emperor, Faction::Harkonnen);
  enter_battle(s);
  REQUIRE(s.step == ab::kPrescience);
  const int e0 = s.of(Faction::Emperor).spice;
  act(s, Faction::Emperor, action::Bribe{.to = static_cast<uint8_t>(Faction::Atreides), .amount = 1});
  act(s, Faction::Harkonnen, action::Deal{.text = "no Voice on my leader"});
  act(s, Faction::Emperor, action::GiveSpice{.to = static_cast<uint8_t>(Faction::Harkonnen), .amount = 1});
  CHECK(s.step == ab::kPrescience);  // the ability step is still the one waited on
  CHECK(s.of(Faction::Emperor).spice == e0 - 2);
  CHECK(s.of(Faction::Atreides).bribes == 1);
}
