// Leader Skills (module leader_skills; core/cards/leader_skills.cpp;
// docs/cards/leader-skills.md; the Planetologist's contract:
// ../shared/seeds/PLANETOLOGIST_RULES.md).
#include <catch2/catch.hpp>

#include <optional>
#include <set>
#include <string>

#include "bots/bot.h"
#include "core/cards/card_rules.h"
#include "core/rules/owners.h"
#include "core/rules/shipment_movement.h"
#include "events/codec.h"
#include "events/names.h"
#include "events/view_generated.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "support/module_game.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;
using data::LeaderSkill;
using data::TreacheryKind;

namespace {

constexpr auto kAtreides = Faction::Atreides;
constexpr auto kHarkonnen = Faction::Harkonnen;

data::ModuleSet skills_module() { return data::module_bit(data::Module::LeaderSkills); }

// Every skill card back in the deck, then `k` under `leader` (face up).
void set_skill(GameState& s, LeaderId leader, LeaderSkill k) {
  for (int l = 0; l < data::kNumLeaders; ++l)
    if (s.skills.assigned[l]) {
      s.skills.deck.push(static_cast<uint8_t>(s.skills.assigned[l] - 1));
      s.skills.assigned[l] = 0;
      s.skills.face_down[l] = 0;
    }
  REQUIRE(s.skills.deck.remove(static_cast<uint8_t>(k)));
  s.skills.assigned[leader] = static_cast<uint8_t>(static_cast<int>(k) + 1);
}
void clear_skills(GameState& s) {
  for (int l = 0; l < data::kNumLeaders; ++l)
    if (s.skills.assigned[l]) {
      s.skills.deck.push(static_cast<uint8_t>(s.skills.assigned[l] - 1));
      s.skills.assigned[l] = 0;
    }
}

// The Atreides (the aggressor: seat 0, the storm at 17) and the Harkonnen, 5
// forces each in the Great Flat, empty hands, no skill card assigned yet.
GameState skill_battle(Rulings r = Rulings::defaults(), bool advanced = false, const char* where = "The Great Flat") {
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen}, advanced, 7, r, skills_module()));
  clear_skills(s);
  place(s, kAtreides, loc(where), 5);
  place(s, kHarkonnen, loc(where), 5);
  return s;
}
// The battle's winner, read from the forces: the loser lost all of its own.
Faction winner_in(const GameState& s, const char* where) {
  const bool a = s.forces_in_location(kAtreides, loc(where)) > 0, h = s.forces_in_location(kHarkonnen, loc(where)) > 0;
  REQUIRE(a != h);
  return a ? kAtreides : kHarkonnen;
}

// Whether f's KeepCards choices offer `card`.
bool may_keep(const GameState& s, Faction f, uint8_t card) {
  for (const auto& a : legal_actions(s, s.seat_of(f)))
    if (const auto* k = a.get_if<action::KeepCards>())
      for (const uint8_t id : k->keep)
        if (id == card) return true;
  return false;
}

const LeaderId kDuncan = L(kAtreides, 3);   // strength 2
const LeaderId kThufir = L(kAtreides, 1);   // 5
const LeaderId kRabban = L(kHarkonnen, 1);  // 4
const LeaderId kPiter = L(kHarkonnen, 2);   // 3

}  // namespace

TEST_CASE("Leader Skills: two cards dealt to each faction, one assigned face down to a leader, face up once all have chosen",
          "[leader_skills][setup]") {
  GameState s = game({kAtreides, kHarkonnen, Faction::Fremen}, false, 7, Rulings::defaults(), skills_module());
  REQUIRE(s.phase == Phase::Setup);
  for (Faction f : {kAtreides, kHarkonnen, Faction::Fremen}) CHECK(s.skills.hand[static_cast<int>(f)].n == 2);
  CHECK(s.skills.deck.n == data::kNumLeaderSkills - 6);
  check_custody(s);
  // The Harkonnen keep all their traitors (2.05.03) but still wait for their skill.
  CHECK(waiting(s, kHarkonnen));
  const uint8_t mine = s.skills.hand[static_cast<int>(kAtreides)].ids[0];
  const uint8_t other = s.skills.hand[static_cast<int>(kAtreides)].ids[1];
  const uint8_t theirs = s.skills.hand[static_cast<int>(kHarkonnen)].ids[0];
  CHECK(rejected(s, kAtreides, action::AssignSkill{.skill = theirs, .leader = kThufir}).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kAtreides, action::AssignSkill{.skill = mine, .leader = kRabban}).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kAtreides, action::AssignSkill{.skill = 14, .leader = kThufir}).code == RejectCode::Malformed);
  act(s, kAtreides, action::AssignSkill{.skill = mine, .leader = kThufir});
  CHECK(s.skills.assigned[kThufir] == mine + 1);
  CHECK(s.skills.face_down[kThufir] == 1);
  CHECK(s.skills.hand[static_cast<int>(kAtreides)].empty());
  CHECK(s.skills.deck.contains(other));  // the other card back to the deck
  CHECK(waiting(s, kAtreides));          // its traitor still to keep
  CHECK(rejected(s, kAtreides, action::AssignSkill{.skill = other, .leader = kDuncan}).code == RejectCode::NotYourDecision);
  check_custody(s);
  check_projections(s);  // the face-down card and the dealt ones are hidden values
  // Face down: the Atreides see it, the Harkonnen do not.
  auto skill_seen = [&](Faction viewer) {
    const std::string v = inspect::build_view(s, inspect::Viewer::of(s.seat_of(viewer)));
    const auto* ls = fb::GetView(v.data())->leader_skills();
    REQUIRE(ls);
    for (const auto* e : *ls)
      if (e->leader_id() == kThufir) return e->skill()->str();
    return std::string("none");
  };
  CHECK(skill_seen(kAtreides) == std::string(data::leader_skill_name(mine)));
  CHECK(skill_seen(kHarkonnen).empty());
  {
    const std::string v = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kHarkonnen)));
    const auto* hand = fb::GetView(v.data())->skill_hand();
    REQUIRE(hand);
    CHECK(hand->size() == 2);  // its own dealt cards
    const std::string va = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kAtreides)));
    CHECK_FALSE(fb::GetView(va.data())->skill_hand());
  }
  // Everyone else assigns (the first legal choice); then the cards are face up and the deck shuffled.
  while (s.phase == Phase::Setup && s.step == static_cast<uint8_t>(SetupStep::Traitors)) play_step(s);
  int assigned = 0;
  for (int l = 0; l < data::kNumLeaders; ++l) {
    assigned += s.skills.assigned[l] != 0;
    CHECK(s.skills.face_down[l] == 0);
  }
  CHECK(assigned == 3);
  CHECK(s.skills.deck.n == data::kNumLeaderSkills - 3);
  CHECK(skill_seen(kHarkonnen) == std::string(data::leader_skill_name(mine)));
  check_custody(s);
  // Without the module nothing is dealt.
  GameState base = game({kAtreides, kHarkonnen}, false, 7);
  CHECK(base.skills.deck.empty());
  CHECK(base.skills.hand[0].empty());
}

TEST_CASE("Leader Skills: the Auditor never holds a skill", "[leader_skills][setup]") {
  GameState s = game({Faction::Choam, kAtreides}, true, 7, Rulings::defaults(),
                     static_cast<data::ModuleSet>(skills_module() | data::module_bit(data::Module::ChoamRichese)));
  const uint8_t k = s.skills.hand[static_cast<int>(Faction::Choam)].ids[0];
  CHECK(rejected(s, Faction::Choam, action::AssignSkill{.skill = k, .leader = data::kAuditor}).code == RejectCode::IllegalChoice);
  for (const auto& a : legal_actions(s, s.seat_of(Faction::Choam)))
    if (const auto* as = a.get_if<action::AssignSkill>()) CHECK(as->leader != data::kAuditor);
}

TEST_CASE("Leader Skills: a skilled leader's card goes back to the deck when it dies", "[leader_skills][custody]") {
  GameState s = skill_battle();
  set_skill(s, kDuncan, LeaderSkill::Mentat);
  const uint8_t knife = give(s, kHarkonnen, TreacheryKind::Crysknife);
  to_plans(s);
  fight(s, plan(kDuncan, 0), plan(kRabban, 0, knife));
  keep_all(s);
  CHECK(dead(s, kDuncan));
  CHECK(s.skills.assigned[kDuncan] == 0);
  CHECK(s.skills.deck.contains(static_cast<uint8_t>(LeaderSkill::Mentat)));
  check_custody(s);
}

TEST_CASE("Leader Skills: +3 to the skilled leader, +1 to another while it is in front, nothing when killed",
          "[leader_skills][battle]") {
  struct Case {
    LeaderSkill skill;
    TreacheryKind card;
    bool weapon;  // the card goes in the weapon slot (else the defense slot)
  };
  const Case cases[] = {{LeaderSkill::SwordmasterOfGinaz, TreacheryKind::Crysknife, true},
                        {LeaderSkill::MasterOfAssassins, TreacheryKind::Chaumas, true},
                        {LeaderSkill::PranaBinduAdept, TreacheryKind::Shield, false},
                        {LeaderSkill::KillerMedic, TreacheryKind::Snooper, false},
                        {LeaderSkill::Warmaster, TreacheryKind::Baliset, true}};
  for (const auto& c : cases) {
    INFO(data::leader_skill_name(static_cast<uint8_t>(c.skill)));
    // Duncan (2) plays the card against a defense stopping any weapon; the skill on `holder` (or none).
    auto duncan_wins = [&](LeaderId holder, LeaderId opponent) {
      GameState s = skill_battle();
      if (holder != kNone8) set_skill(s, holder, c.skill);
      const uint8_t card = give(s, kAtreides, c.card);
      const uint8_t stop = give(s, kHarkonnen, c.card == TreacheryKind::Chaumas ? TreacheryKind::Snooper : TreacheryKind::Shield, 1);
      to_plans(s);
      fight(s, c.weapon ? plan(kDuncan, 0, card) : plan(kDuncan, 0, kNone8, card), plan(opponent, 0, kNone8, stop));
      keep_all(s);
      check_custody(s);
      return winner_in(s, "The Great Flat") == kAtreides;
    };
    // Against Rabban (4): +3 wins, nothing loses.
    CHECK_FALSE(duncan_wins(kNone8, kRabban));
    CHECK(duncan_wins(kDuncan, kRabban));
    // The skilled Thufir in front: Duncan gets +1 (3 against Piter's 3: the aggressor wins the tie).
    CHECK_FALSE(duncan_wins(kNone8, kPiter));
    CHECK(duncan_wins(kThufir, kPiter));
  }
  // Killed: the skilled leader's bonus is lost with its strength.
  GameState s = skill_battle();
  set_skill(s, kThufir, LeaderSkill::PranaBinduAdept);
  const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);
  const uint8_t poison = give(s, kHarkonnen, TreacheryKind::Chaumas);
  to_plans(s);
  fight(s, plan(kThufir, 0, kNone8, shield), plan(L(kHarkonnen, 4), 0, poison));  // Umman Kudu (1)
  keep_all(s);
  CHECK(dead(s, kThufir));
  CHECK(winner_in(s, "The Great Flat") == kHarkonnen);
}

TEST_CASE("Leader Skills: Mentat +2, Spice Banker + the spice paid", "[leader_skills][battle]") {
  for (bool skilled : {false, true}) {
    GameState s = skill_battle();
    if (skilled) set_skill(s, kDuncan, LeaderSkill::Mentat);
    to_plans(s);
    fight(s, plan(kDuncan, 0), plan(kPiter, 0));  // 2 (+2) against 3
    CHECK(winner_in(s, "The Great Flat") == (skilled ? kAtreides : kHarkonnen));
  }
  GameState s = skill_battle();
  set_skill(s, kDuncan, LeaderSkill::SpiceBanker);
  set_spice(s, kAtreides, 2);
  to_plans(s);
  auto boosted = [](int n) {
    auto p = plan(kDuncan, 0);
    p.skill_spice = static_cast<uint8_t>(n);
    return p;
  };
  CHECK(rejected(s, kAtreides, boosted(4)).code == RejectCode::IllegalChoice);    // 1 to 3
  CHECK(rejected(s, kAtreides, boosted(3)).code == RejectCode::NotEnoughSpice);   // 2 held
  auto other = plan(kThufir, 0);
  other.skill_spice = 1;
  CHECK(rejected(s, kAtreides, other).code == RejectCode::IllegalChoice);  // only the Spice Banker's leader
  const int64_t bank = s.bank;
  fight(s, boosted(2), plan(kRabban, 0));  // 2 + 2 against 4: the aggressor wins the tie
  CHECK(winner_in(s, "The Great Flat") == kAtreides);
  CHECK(s.of(kAtreides).spice == 0);
  CHECK(s.bank == bank + 2);
  check_custody(s);
}

TEST_CASE("Leader Skills: ruling skill_stacking, a captured skilled leader's bonus with the captor's own in front",
          "[leader_skills][battle][ruling]") {
  for (const char* reading : {"every_bonus", "first_bonus"}) {
    INFO(reading);
    GameState s = skill_battle(ruling("skill_stacking", reading));
    // The Harkonnen hold Duncan (Atreides, Mentat) captured, their own Rabban is the Swordmaster in front.
    s.leaders[kDuncan].holder = static_cast<uint8_t>(kHarkonnen);
    REQUIRE(s.skills.deck.remove(static_cast<uint8_t>(LeaderSkill::Mentat)));
    REQUIRE(s.skills.deck.remove(static_cast<uint8_t>(LeaderSkill::SwordmasterOfGinaz)));
    s.skills.assigned[kDuncan] = static_cast<uint8_t>(LeaderSkill::Mentat) + 1;
    s.skills.assigned[kRabban] = static_cast<uint8_t>(LeaderSkill::SwordmasterOfGinaz) + 1;
    // The Atreides no longer have the Mentat's front band, the captor never has it.
    CHECK_FALSE(rules::skill_in_front(s, kAtreides, LeaderSkill::Mentat));
    CHECK_FALSE(rules::skill_in_front(s, kHarkonnen, LeaderSkill::Mentat));
    CHECK(rules::skill_in_front(s, kHarkonnen, LeaderSkill::SwordmasterOfGinaz));
    const uint8_t knife = give(s, kHarkonnen, TreacheryKind::Crysknife);
    const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);
    to_plans(s);
    // Gurney (4) against the captured Duncan: 2 + Mentat 2, + Swordmaster 1 (in front) with every_bonus.
    fight(s, plan(L(kAtreides, 2), 0, kNone8, shield), plan(kDuncan, 0, knife));
    keep_all(s);
    const bool every = std::string(reading) == "every_bonus";
    CHECK(winner_in(s, "The Great Flat") == (every ? kHarkonnen : kAtreides));  // 4 against 5, or 4 against 4 (the aggressor's tie)
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: the Planetologist's green Special in place of a weapon, +2 when it survives, discarded in every outcome",
          "[leader_skills][battle][planetologist]") {
  const LeaderId kGurney = L(kAtreides, 2);  // 4
  // A Karama in the weapon slot: not a weapon (Rabban lives), +2: 4 + 2 beats Feyd's 6 as the aggressor's tie.
  for (bool skilled : {false, true}) {
    GameState s = skill_battle();
    if (skilled) set_skill(s, kGurney, LeaderSkill::Planetologist);
    const uint8_t karama = give(s, kAtreides, TreacheryKind::Karama);
    to_plans(s);
    if (!skilled) {
      CHECK(rejected(s, kAtreides, plan(kGurney, 0, karama)).code == RejectCode::IllegalChoice);
      continue;
    }
    // Another leader cannot place it.
    CHECK(rejected(s, kAtreides, plan(kDuncan, 0, karama)).code == RejectCode::IllegalChoice);
    bool offered = false;
    for (const auto& a : legal_actions(s, s.seat_of(kAtreides)))
      if (const auto* p = a.get_if<action::BattlePlan>(); p && p->weapon == karama) offered = offered || p->leader == kGurney;
    CHECK(offered);
    fight(s, plan(kGurney, 0, karama), plan(L(kHarkonnen, 0), 0));
    CHECK(winner_in(s, "The Great Flat") == kAtreides);
    CHECK_FALSE(dead(s, L(kHarkonnen, 0)));  // the Karama killed nobody
    // Ordinary win: no choice to keep it, discarded.
    CHECK(s.treachery_discard.contains(karama));
    CHECK_FALSE(s.of(kAtreides).hand.contains(karama));
    check_custody(s);
  }
  // Gurney the Planetologist, the Atreides and the Harkonnen 5 forces each.
  auto planetologist_board = [&] {
    GameState s = skill_battle();
    set_skill(s, kGurney, LeaderSkill::Planetologist);
    return s;
  };
  // Killed: no +2 (and no strength); the Special is discarded with the loser's plan.
  {
    GameState s = planetologist_board();
    const uint8_t atomics = give(s, kAtreides, TreacheryKind::FamilyAtomics);
    const uint8_t knife = give(s, kHarkonnen, TreacheryKind::Crysknife);
    to_plans(s);
    fight(s, plan(kGurney, 0, atomics), plan(L(kHarkonnen, 4), 0, knife));  // Umman Kudu (1)
    keep_all(s);
    CHECK(dead(s, kGurney));
    CHECK(winner_in(s, "The Great Flat") == kHarkonnen);
    CHECK(s.treachery_discard.contains(atomics));
    CHECK_FALSE(s.shield_wall_destroyed);  // its own effect is not used
    check_custody(s);
  }
  // The owner wins by traitor: the Special is still discarded (the seeds' card-specific row).
  {
    GameState s = planetologist_board();
    const uint8_t hajr = give(s, kAtreides, TreacheryKind::Hajr);
    const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);
    give_traitor(s, kAtreides, kRabban);
    to_plans(s);
    act(s, kAtreides, plan(kGurney, 0, hajr, shield));
    act(s, kHarkonnen, plan(kRabban, 0));
    act(s, kAtreides, traitor(true));
    decline_traitors(s);
    REQUIRE(s.battle.winner == 1);
    // May keep the Shield, not the Hajr.
    CHECK(s.step == 7);
    CHECK(may_keep(s, kAtreides, shield));
    CHECK_FALSE(may_keep(s, kAtreides, hajr));
    keep_all(s);
    CHECK(s.treachery_discard.contains(hajr));
    CHECK(s.of(kAtreides).hand.contains(shield));
    check_custody(s);
  }
  // The Planetologist revealed as the opponent's traitor: discarded with the loser's plan.
  {
    GameState s = planetologist_board();
    const uint8_t weather = give(s, kAtreides, TreacheryKind::WeatherControl);
    give_traitor(s, kHarkonnen, kGurney);
    to_plans(s);
    act(s, kAtreides, plan(kGurney, 0, weather));
    act(s, kHarkonnen, plan(kRabban, 0));
    act(s, kHarkonnen, traitor(true));
    decline_traitors(s);
    keep_all(s);
    CHECK(dead(s, kGurney));
    CHECK(s.treachery_discard.contains(weather));
    CHECK(s.skills.deck.contains(static_cast<uint8_t>(LeaderSkill::Planetologist)));  // its skill back to the deck
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: ruling planetologist_cheap_hero", "[leader_skills][battle][planetologist][ruling]") {
  for (const char* reading : {"excluded", "allowed"}) {
    INFO(reading);
    GameState s = skill_battle(ruling("planetologist_cheap_hero", reading));
    const LeaderId kGurney = L(kAtreides, 2);
    set_skill(s, kGurney, LeaderSkill::Planetologist);
    const uint8_t hero = give(s, kAtreides, TreacheryKind::CheapHero);
    to_plans(s);
    const auto r = validate(s, s.seat_of(kAtreides), Action(plan(kGurney, 0, hero)));
    CHECK(r.has_value() == (std::string(reading) == "excluded"));
  }
}

TEST_CASE("Leader Skills: a Karama window opens before the Fremen move only beyond the Planetologist's range (ruling movement_ability_window)",
          "[leader_skills][movement][planetologist][karama][rulings]") {
  // Issue 48 item 3: with the Planetologist in front the Fremen reach 2 without
  // 2.04.06 (1 + 1) and 3 with it; only a three-territory move uses 2.04.06.
  for (const char* reading : {"beyond_other_range", "beyond_one"}) {
    INFO(reading);
    Rulings r = ruling("karama_windows", "all_other_seats", ruling("movement_ability_window", reading));
    GameState s = cleared_board_of(game({Faction::Fremen, kAtreides}, false, 7, r, skills_module()));
    clear_skills(s);
    set_skill(s, data::leader_id(Faction::Fremen, 0), LeaderSkill::Planetologist);
    give(s, kAtreides, TreacheryKind::Karama);
    place(s, Faction::Fremen, loc("The Great Flat"), 3);
    s.storm_sector = 9;  // away from the Great Flat's neighbourhood
    pass_until_ship_or_move(s, Faction::Fremen);
    if (s.step == 0) act(s, Faction::Fremen, pass());
    REQUIRE(s.step == 2);
    const Seat fremen = s.seat_of(Faction::Fremen);
    GameState no_fremen_range = s, no_range = s;  // 2.04.06 prevented; and the skill gone too
    no_fremen_range.prevented[static_cast<int>(Faction::Fremen)] |= 1u << static_cast<int>(rules::Ability::FremenMovement);
    no_range.prevented[static_cast<int>(Faction::Fremen)] |= 1u << static_cast<int>(rules::Ability::FremenMovement);
    clear_skills(no_range);
    std::optional<Action> two, three;
    for (const auto& a : legal_actions(s, fremen)) {
      if (a.kind() != ActionKind::Move || validate(s, fremen, a)) continue;
      const bool in_two = !validate(no_fremen_range, fremen, a), in_one = !validate(no_range, fremen, a);
      if (in_two && !in_one && !two) two = a;
      if (!in_two && !three) three = a;
    }
    REQUIRE(two);
    REQUIRE(three);
    GameState t = s;
    act(t, Faction::Fremen, *two);
    CHECK(t.window_depth == (std::string(reading) == "beyond_one" ? 1 : 0));  // reachable without 2.04.06: no window
    GameState u = s;
    act(u, Faction::Fremen, *three);
    REQUIRE(u.window_depth == 1);
    CHECK(u.windows[0].subject == static_cast<uint8_t>(rules::Ability::FremenMovement));
  }
}

TEST_CASE("Leader Skills: the Planetologist's +1 movement range, at most 3", "[leader_skills][movement][planetologist]") {
  // From the Great Flat (no ornithopters): every destination of range 1 stays legal, and some only the +1 reaches.
  int reach[2] = {0, 0};
  std::vector<bool> ok[2];
  for (bool skilled : {false, true}) {
    GameState s = cleared_board_of(game({kAtreides, kHarkonnen}, false, 7, Rulings::defaults(), skills_module()));
    clear_skills(s);
    if (skilled) set_skill(s, kThufir, LeaderSkill::Planetologist);
    place(s, kAtreides, loc("The Great Flat"), 3);
    s.storm_sector = 9;  // away from the Great Flat's neighbourhood
    pass_until_ship_or_move(s, kAtreides);
    if (s.step == 0) act(s, kAtreides, pass());  // no shipment: the movement next
    REQUIRE(s.step == 2);
    for (int l = 0; l < data::kNumLocations; ++l) {
      const bool legal = !validate(s, s.seat_of(kAtreides), Action(move(loc("The Great Flat"), 3, static_cast<LocationId>(l)))).has_value();
      ok[skilled].push_back(legal);
      reach[skilled] += legal;
    }
  }
  CHECK(reach[1] > reach[0]);
  for (int l = 0; l < data::kNumLocations; ++l)
    if (ok[0][static_cast<size_t>(l)]) CHECK(ok[1][static_cast<size_t>(l)]);
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen}, false, 7, Rulings::defaults(), skills_module()));
  clear_skills(s);
  set_skill(s, kThufir, LeaderSkill::Planetologist);
  CHECK(rules::modify(s, rules::MovementRangeQuery{kAtreides}, 1) == 2);
  CHECK(rules::modify(s, rules::MovementRangeQuery{kAtreides}, 2) == 3);  // the Fremen
  CHECK(rules::modify(s, rules::MovementRangeQuery{kAtreides}, 3) == 3);  // ornithopters: never 4
  CHECK(rules::modify(s, rules::MovementRangeQuery{kHarkonnen}, 1) == 1);
}

TEST_CASE("Leader Skills: the Bureaucrat, the opponent less 1 per stronghold it occupies", "[leader_skills][battle]") {
  for (bool skilled : {false, true}) {
    GameState s = skill_battle();
    if (skilled) set_skill(s, kThufir, LeaderSkill::Bureaucrat);
    place(s, kHarkonnen, loc("Carthag"), 2);
    place(s, kHarkonnen, loc("Arrakeen"), 1);
    to_plans(s);
    // Thufir (5) against Feyd (6) less 2 strongholds.
    fight(s, plan(kThufir, 0), plan(L(kHarkonnen, 0), 0));
    keep_all(s);
    CHECK(winner_in(s, "The Great Flat") == (skilled ? kAtreides : kHarkonnen));
  }
}

TEST_CASE("Leader Skills: Smuggler, one more force into an empty territory, and its strength in spice from the battle",
          "[leader_skills][shipment][battle]") {
  for (bool skilled : {false, true}) {
    GameState s = cleared_board_of(game({kAtreides, kHarkonnen}, false, 7, Rulings::defaults(), skills_module()));
    clear_skills(s);
    if (skilled) set_skill(s, kThufir, LeaderSkill::Smuggler);
    pass_until_ship_or_move(s, kAtreides);
    const int reserves = s.of(kAtreides).reserves[0];
    act(s, kAtreides, ship(loc("The Great Flat"), 2));
    CHECK(s.forces_in_location(kAtreides, loc("The Great Flat")) == (skilled ? 3 : 2));
    CHECK(s.of(kAtreides).reserves[0] == reserves - (skilled ? 3 : 2));
    CHECK(s.of(kAtreides).spice == 10 - 4);  // 2 each off the strongholds; the extra force is free
    check_custody(s);
  }
  {  // Not into a territory where forces are.
    GameState s = cleared_board_of(game({kAtreides, kHarkonnen}, false, 7, Rulings::defaults(), skills_module()));
    clear_skills(s);
    set_skill(s, kThufir, LeaderSkill::Smuggler);
    place(s, kHarkonnen, loc("The Great Flat"), 1);
    pass_until_ship_or_move(s, kAtreides);
    act(s, kAtreides, ship(loc("The Great Flat"), 2));
    CHECK(s.forces_in_location(kAtreides, loc("The Great Flat")) == 2);
  }
  // In battle: the surviving Smuggler collects its strength (5) of the spice there.
  GameState s = skill_battle();
  set_skill(s, kThufir, LeaderSkill::Smuggler);
  transfer_spice(s, bank(), board(loc("The Great Flat")), 8);
  const uint8_t shield = give(s, kHarkonnen, TreacheryKind::Shield);  // a card to keep: the battle waits (no collection yet)
  to_plans(s);
  const int before = s.of(kAtreides).spice;
  fight(s, plan(kThufir, 0), plan(L(kHarkonnen, 0), 0, kNone8, shield));  // 5 against 6: loses, survives
  REQUIRE(s.phase == Phase::Battle);
  CHECK(s.of(kAtreides).spice == before + 5);
  CHECK(s.spice_on_board[loc("The Great Flat")] == 3);
  check_custody(s);
}

TEST_CASE("Leader Skills: the Sandmaster's winner adds 3 spice where spice is", "[leader_skills][battle]") {
  for (bool spice : {false, true}) {
    GameState s = skill_battle();
    set_skill(s, kThufir, LeaderSkill::Sandmaster);
    if (spice) transfer_spice(s, bank(), board(loc("The Great Flat")), 2);
    const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);  // a card to keep: the battle waits (no collection yet)
    to_plans(s);
    fight(s, plan(kThufir, 0, kNone8, shield), plan(kRabban, 0));
    REQUIRE(s.phase == Phase::Battle);
    CHECK(s.spice_on_board[loc("The Great Flat")] == (spice ? 5 : 0));
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: the Suk Graduate saves the winner's forces", "[leader_skills][battle]") {
  // The Atreides win dialling 4 of 5: the battle band keeps 1 there and sends 2 to the reserves, the front band 1.
  for (int band = 0; band < 3; ++band) {
    INFO(band);
    GameState s = skill_battle();
    if (band == 1) set_skill(s, kThufir, LeaderSkill::SukGraduate);  // in the plan
    if (band == 2) set_skill(s, kDuncan, LeaderSkill::SukGraduate);  // in front
    to_plans(s);
    const int reserves = s.of(kAtreides).reserves[0];
    fight(s, plan(kThufir, 4), plan(kRabban, 0));
    keep_all(s);
    const int left = s.forces_in_location(kAtreides, loc("The Great Flat"));
    const int tanks = s.of(kAtreides).tanks[0];
    CHECK(left == (band == 1 ? 2 : 1));
    CHECK(tanks == (band == 0 ? 4 : band == 1 ? 1 : 3));
    CHECK(s.of(kAtreides).reserves[0] == reserves + (band == 1 ? 2 : band == 2 ? 1 : 0));
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: the Spice Banker's owner gains 1 when another pays 4 to the bank, once a phase, in the Mentat Pause",
          "[leader_skills][spice]") {
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen}, false, 7, Rulings::defaults(), skills_module()));
  clear_skills(s);
  set_skill(s, kThufir, LeaderSkill::SpiceBanker);
  set_spice(s, kHarkonnen, 20);
  transfer_spice(s, shield(kHarkonnen), bank(), 3);  // under 4: nothing
  CHECK(s.skills.banked == 0);
  transfer_spice(s, shield(kHarkonnen), bank(), 4);
  CHECK(s.skills.banked == 1);
  transfer_spice(s, shield(kHarkonnen), bank(), 5);  // once this phase
  transfer_spice(s, shield(kAtreides), bank(), 5);   // its own payment never
  CHECK(s.skills.banked == 1);
  const int before = s.of(kAtreides).spice;
  rules::Ctx c{s, nullptr};
  rules::enter_phase(c, Phase::MentatPause);
  CHECK(s.of(kAtreides).spice == before + 1);
  CHECK(s.skills.banked == 0);
  check_custody(s);
}

TEST_CASE("Leader Skills: the Harkonnen's kill of a captured skilled leader returns its card", "[leader_skills][custody]") {
  GameState s = skill_battle(Rulings::defaults(), true);
  set_skill(s, L(kAtreides, 0), LeaderSkill::Warmaster);
  rules::leader_to_tanks(s, L(kAtreides, 0), true);  // the Harkonnen kill (2.05.10.02): face down, game event LeaderDied
  CHECK(s.skills.assigned[L(kAtreides, 0)] == 0);
  CHECK(s.skills.deck.contains(static_cast<uint8_t>(LeaderSkill::Warmaster)));
  check_custody(s);
}

TEST_CASE("Leader Skills: self-play with the module, every profile, ends with 0 rejected actions and every check after every event",
          "[leader_skills][selfplay]") {
  int assigned = 0, boosted = 0, specials = 0, gathers = 0, questions = 0, answers = 0, swaps = 0, decipher_steps = 0, bureaucracies = 0, revival_assigned = 0;
  int retreat_steps = 0, retreats = 0;
  bool at_retreat = false;
  uint16_t bureau_mark = 0;
  const auto modules = static_cast<data::ModuleSet>(skills_module() | data::module_bit(data::Module::ChoamRichese) |
                                                    data::module_bit(data::Module::StrongholdCards));
  selfplay_sets({{kAtreides, kHarkonnen, Faction::Fremen, Faction::Guild},
                 {Faction::Richese, Faction::Choam, Faction::Emperor, Faction::BeneGesserit, kHarkonnen, kAtreides}},
                modules, 51, 61,
                [&](const GameState& s, const bots::Step& st) {
                  if (st.action.is<action::AssignSkill>()) {  // at setup (the last one moves on to the turn-1 storm), or a revival's
                    if (s.turn <= 1 && (s.phase == Phase::Setup || s.phase == Phase::Storm)) ++assigned;
                    else ++revival_assigned;
                  }
                  questions += st.action.is<action::MentatQuestion>();
                  answers += st.action.is<action::MentatAnswer>();
                  swaps += st.action.is<action::DecipherTraitor>();
                  bureaucracies += s.skills.bureau_mark != 0 && s.skills.bureau_mark != bureau_mark;  // a use of the band
                  bureau_mark = s.skills.bureau_mark;
                  decipher_steps += s.phase == Phase::Battle && s.step == rules::ability::kDecipher;
                  retreats += at_retreat && st.action.is<action::Move>();  // the step's answer (a Move, or Pass)
                  at_retreat = s.phase == Phase::Battle && s.step == rules::ability::kDiplomatRetreat;
                  retreat_steps += at_retreat;
                  if (const auto* m = st.action.get_if<action::Move>())
                    for (int i = 1; i < m->from.size(); ++i)
                      if (data::territory_of(m->from[i].location) != data::territory_of(m->from[0].location)) {
                        ++gathers;
                        break;
                      }
                  if (const auto* p = st.action.get_if<action::BattlePlan>()) {
                    boosted += p->skill_spice > 0;
                    specials += p->weapon != kNone8 && rules::planetologist_special(s, p->leader, p->weapon);
                  }
                },
                0b11);
  CHECK(assigned == 2 * (4 + 6));  // every faction, basic and advanced
  WARN("boosted " << boosted << " specials " << specials << " gathers " << gathers << " Mentat questions " << questions << " answers "
                   << answers << " Decipherer swaps " << swaps << " of " << decipher_steps
                   << " Bureaucrat uses " << bureaucracies << " skills assigned at a revival " << revival_assigned
                   << " Diplomat retreats " << retreats << " of " << retreat_steps);
  CHECK(answers <= questions);
}

TEST_CASE("Leader Skills: bots assign a skill, boost a Spice Banker and play a Planetologist's Special, from their own view",
          "[leader_skills][bots]") {
  for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    const bool easy = profile == bots::Profile::Easy;
    {  // Setup: a legal assignment (the better skill for the thinking profiles).
      GameState s = game({kAtreides, kHarkonnen}, false, 7, Rulings::defaults(), skills_module());
      auto& hand = s.skills.hand[static_cast<int>(kAtreides)];
      while (!hand.empty()) s.skills.deck.push(hand.pop());
      for (LeaderSkill k : {LeaderSkill::Diplomat, LeaderSkill::SwordmasterOfGinaz}) {
        REQUIRE(s.skills.deck.remove(static_cast<uint8_t>(k)));
        hand.push(static_cast<uint8_t>(k));
      }
      const auto in = bots::make_input(s, s.seat_of(kAtreides));
      const Action a = bots::make_bot(profile, 5)->choose(in);
      REQUIRE(bots::is_valid_choice(in, a));
      if (const auto* as = a.get_if<action::AssignSkill>(); as && !easy) CHECK(as->skill == static_cast<uint8_t>(LeaderSkill::SwordmasterOfGinaz));
    }
    // Battle: Duncan, the only leader left, is the Spice Banker (or the Planetologist holding a Weather Control) against Piter.
    for (LeaderSkill k : {LeaderSkill::SpiceBanker, LeaderSkill::Planetologist}) {
      INFO(data::leader_skill_name(static_cast<uint8_t>(k)));
      GameState s = cleared_board_of(game({kAtreides, kHarkonnen}, false, 7, Rulings::defaults(), skills_module()));
      clear_skills(s);
      set_skill(s, kDuncan, k);
      for (int i = 0; i < 5; ++i) {
        if (L(kAtreides, i) != kDuncan) s.leaders[L(kAtreides, i)].zone = LeaderZone::Tanks;
        if (L(kHarkonnen, i) != kPiter) s.leaders[L(kHarkonnen, i)].zone = LeaderZone::Tanks;  // Piter (3) is theirs: the +2 decides
      }
      place(s, kAtreides, loc("Tuek's Sietch"), 1);  // a stronghold worth fighting for
      place(s, kHarkonnen, loc("Tuek's Sietch"), 1);
      const uint8_t karama = k == LeaderSkill::Planetologist ? give(s, kAtreides, TreacheryKind::WeatherControl) : kNone8;
      to_plans(s);
      const auto in = bots::make_input(s, s.seat_of(kAtreides));
      const Action a = bots::make_bot(profile, 5)->choose(in);
      REQUIRE(bots::is_valid_choice(in, a));
      const auto* p = a.get_if<action::BattlePlan>();
      REQUIRE(p);
      if (easy) continue;
      if (k == LeaderSkill::SpiceBanker) CHECK(p->skill_spice > 0);
      else CHECK(p->weapon == karama);
    }
  }
}

TEST_CASE("Leader Skills: the Smuggler beside a concealed No-Field, the extra force a real force, not the token's value",
          "[leader_skills][shipment][richese][no_field]") {
  const auto modules = static_cast<data::ModuleSet>(skills_module() | data::module_bit(data::Module::ChoamRichese));
  GameState s = cleared_board_of(game({Faction::Richese, kAtreides}, false, 7, Rulings::defaults(), modules));
  clear_skills(s);
  set_skill(s, L(Faction::Richese, 0), LeaderSkill::Smuggler);
  pass_until_ship_or_move(s, Faction::Richese);
  const int reserves = s.of(Faction::Richese).reserves[0];
  action::Ship a;
  a.to = loc("The Great Flat");
  a.no_field = 3;  // the token alone, at one force's price
  act(s, Faction::Richese, a);
  CHECK(s.forces_at(Faction::Richese, loc("The Great Flat"), 0) == 1);  // the smuggled force
  CHECK(s.forces_at(Faction::Richese, loc("The Great Flat"), 1) == 1);  // the marker
  CHECK(s.of(Faction::Richese).reserves[0] == reserves - 1);
  int on_board = -1;
  for (int i = 0; i < kNumNoFieldTokens; ++i)
    if (s.richese.no_field[i].zone == TokenZone::Board) on_board = kNoFieldValues[i];
  CHECK(on_board == 3);  // its value unchanged
  check_custody(s);
  check_projections(s);
}

namespace {
// Two locations of two other territories one crossing from `to` (and one two crossings away), outside the storm.
struct GatherSites {
  LocationId a = kNone8, b = kNone8, far = kNone8;
};
GatherSites gather_sites(const GameState& s, LocationId to) {
  GatherSites g;
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto x = static_cast<LocationId>(l);
    if (s.in_storm(x) || data::territory(data::territory_of(x)).stronghold || data::territory_of(x) == data::territory_of(to)) continue;
    const int d = data::crossing_distance(x, to);
    if (d == 1 && g.a == kNone8) g.a = x;
    else if (d == 1 && g.b == kNone8 && data::territory_of(x) != data::territory_of(g.a)) g.b = x;
    else if (d == 2 && g.far == kNone8) g.far = x;
  }
  return g;
}
GameState gather_board(Faction f, Faction other, Rulings r = Rulings::defaults(), data::ModuleSet extra = 0) {
  GameState s = cleared_board_of(game({f, other}, false, 7, r, static_cast<data::ModuleSet>(skills_module() | extra)));
  clear_skills(s);
  s.storm_sector = 9;
  return s;
}
// A Move of regular forces from several places to `to`.
action::Move move_from(std::initializer_list<std::pair<LocationId, int>> from, LocationId to) {
  action::Move m;
  m.to = to;
  for (const auto& [l, n] : from) m.from.push_back(Placement{l, static_cast<uint8_t>(n), 0});
  return m;
}
void to_movement(GameState& s, Faction f) {
  pass_until_ship_or_move(s, f);
  if (s.step == 0) act(s, f, pass());
  const auto ds = phase_decisions(s, s.seat_of(f));
  INFO((ds.empty() ? std::string("none") : ds[0].prompt));
  REQUIRE(s.step == 2);
}
}  // namespace

TEST_CASE("Leader Skills: the Planetologist gathers two territories' groups to one destination in one movement",
          "[leader_skills][movement][planetologist]") {
  const LocationId to = loc("The Great Flat");
  for (bool skilled : {false, true}) {
    INFO(skilled);
    GameState s = gather_board(kAtreides, kHarkonnen);
    if (skilled) set_skill(s, kThufir, LeaderSkill::Planetologist);
    const auto g = gather_sites(s, to);
    REQUIRE(g.a != kNone8);
    REQUIRE(g.b != kNone8);
    place(s, kAtreides, g.a, 2);
    place(s, kAtreides, g.b, 3);
    to_movement(s, kAtreides);
    const action::Move m = move_from({{g.a, 2}, {g.b, 3}}, to);
    if (!skilled) {
      CHECK(rejected(s, kAtreides, m).code == RejectCode::IllegalChoice);
      continue;
    }
    bool offered = false;
    for (const auto& x : legal_actions(s, s.seat_of(kAtreides)))
      if (const auto* mv = x.get_if<action::Move>(); mv && mv->from.size() == 2 && mv->to == to) offered = true;
    CHECK(offered);
    act(s, kAtreides, m);
    CHECK(s.forces_in_location(kAtreides, to) == 5);
    CHECK(s.forces_in_location(kAtreides, g.a) == 0);
    CHECK(s.forces_in_location(kAtreides, g.b) == 0);
    // One movement: the Atreides' turn is over (no second movement asked).
    CHECK_FALSE((s.phase == Phase::ShipmentMovement && s.shipmove.current == s.seat_of(kAtreides) && waiting(s, kAtreides)));
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: ruling planetologist_exclusive, the gather's groups with their ordinary range or with the +1 too",
          "[leader_skills][movement][planetologist][ruling]") {
  const LocationId to = loc("The Great Flat");
  for (const char* reading : {"one_alternative", "both"}) {
    INFO(reading);
    GameState s = gather_board(kAtreides, kHarkonnen, ruling("planetologist_exclusive", reading));
    set_skill(s, kThufir, LeaderSkill::Planetologist);
    const auto g = gather_sites(s, to);
    REQUIRE(g.far != kNone8);
    place(s, kAtreides, g.a, 1);
    place(s, kAtreides, g.far, 1);
    to_movement(s, kAtreides);
    const action::Move m = move_from({{g.a, 1}, {g.far, 1}}, to);
    CHECK(validate(s, s.seat_of(kAtreides), Action(m)).has_value() == (std::string(reading) == "one_alternative"));
    // Alone, the far group takes the +1 under both readings.
    const action::Move alone = move_from({{g.far, 1}}, to);
    CHECK_FALSE(validate(s, s.seat_of(kAtreides), Action(alone)).has_value());
  }
  // Three territories: never.
  GameState s = gather_board(kAtreides, kHarkonnen);
  set_skill(s, kThufir, LeaderSkill::Planetologist);
  const auto g = gather_sites(s, to);
  LocationId third = kNone8;
  for (int l = 0; l < data::kNumLocations && third == kNone8; ++l) {
    const auto x = static_cast<LocationId>(l);
    const auto t = data::territory_of(x);
    if (!s.in_storm(x) && !data::territory(t).stronghold && data::crossing_distance(x, to) == 1 && t != data::territory_of(g.a) &&
        t != data::territory_of(g.b))
      third = x;
  }
  REQUIRE(third != kNone8);
  for (LocationId x : {g.a, g.b, third}) place(s, kAtreides, x, 1);
  to_movement(s, kAtreides);
  const action::Move m = move_from({{g.a, 1}, {g.b, 1}, {third, 1}}, to);
  CHECK(rejected(s, kAtreides, m).code == RejectCode::IllegalChoice);
}

TEST_CASE("Leader Skills: the Planetologist's gather with a concealed No-Field as one origin, the marker still concealed",
          "[leader_skills][movement][planetologist][richese][no_field]") {
  const LocationId to = loc("The Great Flat");
  GameState s = gather_board(Faction::Richese, kAtreides, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
  set_skill(s, L(Faction::Richese, 0), LeaderSkill::Planetologist);
  const auto g = gather_sites(s, to);
  int five = -1;
  for (int i = 0; i < kNumNoFieldTokens; ++i)
    if (kNoFieldValues[i] == 5) five = i;
  REQUIRE(five >= 0);
  s.richese.no_field[five] = NoFieldToken{TokenZone::Board, g.a};
  s.forces_at(Faction::Richese, g.a, 1) = 1;
  place(s, Faction::Richese, g.b, 2);
  check_custody(s);
  to_movement(s, Faction::Richese);
  action::Move m;
  m.to = to;
  m.from = {Placement{g.a, 0, 1}, Placement{g.b, 2, 0}};
  act(s, Faction::Richese, m);
  CHECK(s.richese.no_field[five].zone == TokenZone::Board);
  CHECK(s.richese.no_field[five].location == to);
  CHECK(s.forces_at(Faction::Richese, to, 1) == 1);
  CHECK(s.forces_at(Faction::Richese, to, 0) == 2);
  check_custody(s);
  check_projections(s);
}

namespace {
// A third location one crossing from `to`, in a territory neither of g's nor `to`'s, outside the storm.
LocationId third_site(const GameState& s, const GatherSites& g, LocationId to) {
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto x = static_cast<LocationId>(l);
    const auto t = data::territory_of(x);
    if (!s.in_storm(x) && !data::territory(t).stronghold && data::crossing_distance(x, to) == 1 && t != data::territory_of(g.a) &&
        t != data::territory_of(g.b) && t != data::territory_of(to))
      return x;
  }
  return kNone8;
}
// Origins `d` crossings from `to`, whose single force the Ornithopter's three reach (storm and occupancy included), in
// distinct territories.
std::vector<LocationId> flight_origins(const GameState& s, Faction f, LocationId to, int d) {
  std::vector<LocationId> out;
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto x = static_cast<LocationId>(l);
    const auto t = data::territory_of(x);
    if (s.in_storm(x) || data::territory(t).stronghold || data::crossing_distance(x, to) != d) continue;
    if (std::any_of(out.begin(), out.end(), [&](LocationId y) { return data::territory_of(y) == t; })) continue;
    GameState probe = s;
    place(probe, f, x, 1);
    action::Move m = move_from({{x, 1}}, to);
    m.ornithopter = 1;
    if (d <= 3 && rules::ship::check_move(probe, f, m)) continue;
    out.push_back(x);
  }
  return out;
}
}  // namespace

TEST_CASE("Leader Skills: the Planetologist's gather with the Ornithopter card, both groups up to three territories in one card movement",
          "[leader_skills][movement][planetologist][ornithopter]") {
  const LocationId to = loc("The Great Flat");
  GameState s = gather_board(kAtreides, kHarkonnen, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
  set_skill(s, kThufir, LeaderSkill::Planetologist);
  const uint8_t card = from_cache(s, kAtreides, TreacheryKind::Ornithopter);
  const auto three = flight_origins(s, kAtreides, to, 3);
  const auto four = flight_origins(s, kAtreides, to, 4);
  REQUIRE(three.size() >= 2);
  REQUIRE_FALSE(four.empty());
  place(s, kAtreides, three[0], 2);
  place(s, kAtreides, three[1], 3);
  place(s, kAtreides, four[0], 1);
  to_movement(s, kAtreides);
  action::Move m = move_from({{three[0], 2}, {three[1], 3}}, to);
  CHECK(rejected(s, kAtreides, m).code == RejectCode::IllegalChoice);  // without the card: each group its range (1)
  action::Move farther = move_from({{three[0], 2}, {four[0], 1}}, to);
  farther.ornithopter = 1;
  CHECK(rejected(s, kAtreides, farther).code == RejectCode::IllegalChoice);  // three, never four
  action::Move alone = move_from({{four[0], 1}}, to);
  alone.ornithopter = 1;
  CHECK(rejected(s, kAtreides, alone).code == RejectCode::IllegalChoice);  // the +1 makes no four either
  m.ornithopter = 1;
  bool offered = false;
  for (const auto& x : legal_actions(s, s.seat_of(kAtreides)))
    if (const auto* mv = x.get_if<action::Move>(); mv && mv->from.size() == 2 && mv->to == to && mv->ornithopter == 1) offered = true;
  CHECK(offered);
  for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    const auto in = bots::make_input(s, s.seat_of(kAtreides));
    CHECK(bots::is_valid_choice(in, bots::make_bot(profile, 3)->choose(in)));
  }
  const int discards = s.treachery_discard.n;
  act(s, kAtreides, m);
  CHECK(s.forces_in_location(kAtreides, to) == 5);
  CHECK(s.forces_in_location(kAtreides, three[0]) == 0);
  CHECK(s.forces_in_location(kAtreides, three[1]) == 0);
  CHECK_FALSE(s.of(kAtreides).hand.contains(card));
  CHECK(s.treachery_discard.n == discards + 1);  // discarded once
  CHECK(s.treachery_discard.top() == card);
  CHECK(s.treachery_played.empty());
  // One card movement: the turn is over.
  CHECK_FALSE((s.phase == Phase::ShipmentMovement && s.shipmove.current == s.seat_of(kAtreides) && waiting(s, kAtreides)));
  check_custody(s);
}

TEST_CASE("Leader Skills: the Planetologist's gather with the Ornithopter card is offered when one group needs the card's three, and offered once",
          "[leader_skills][movement][planetologist][ornithopter]") {
  // One group one territory away, the other two: the gather's groups move with their ordinary range (1), so the
  // far group needs the card's three; the engine accepts that gather and lists it, and lists no Move twice.
  const LocationId to = loc("The Great Flat");
  GameState s = gather_board(kAtreides, kHarkonnen, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
  set_skill(s, kThufir, LeaderSkill::Planetologist);
  from_cache(s, kAtreides, TreacheryKind::Ornithopter);
  const auto g = gather_sites(s, to);
  REQUIRE(g.far != kNone8);
  place(s, kAtreides, g.a, 2);
  place(s, kAtreides, g.far, 3);
  to_movement(s, kAtreides);
  action::Move m = move_from({{g.a, 2}, {g.far, 3}}, to);
  m.ornithopter = 1;
  REQUIRE_FALSE(validate(s, s.seat_of(kAtreides), Action(m)).has_value());
  const auto acts = legal_actions(s, s.seat_of(kAtreides));
  CHECK(std::any_of(acts.begin(), acts.end(), [&](const Action& x) {
    const auto* mv = x.get_if<action::Move>();
    return mv && mv->to == to && mv->ornithopter == 1 && mv->from.size() == 2;
  }));
  std::set<std::string> seen;
  int twice = 0;
  for (const auto& x : acts) twice += !seen.insert(codec::action_to_json(x)).second;
  CHECK(twice == 0);
}

TEST_CASE("Leader Skills: the Planetologist's gather with the Ornithopter's two groups, each gather one of the two movements",
          "[leader_skills][movement][planetologist][ornithopter]") {
  const LocationId to = loc("The Great Flat");
  GameState s = gather_board(kAtreides, kHarkonnen, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
  set_skill(s, kThufir, LeaderSkill::Planetologist);
  const uint8_t card = from_cache(s, kAtreides, TreacheryKind::Ornithopter);
  const auto g = gather_sites(s, to);
  const LocationId c = third_site(s, g, to);
  REQUIRE(c != kNone8);
  place(s, kAtreides, g.a, 3);
  place(s, kAtreides, g.b, 2);
  place(s, kAtreides, c, 1);
  to_movement(s, kAtreides);
  action::Move first = move_from({{g.a, 2}, {g.b, 2}}, to);
  first.ornithopter = 2;
  act(s, kAtreides, first);
  CHECK(s.forces_in_location(kAtreides, to) == 4);
  CHECK(s.treachery_played.contains(card));  // in play until the second movement
  REQUIRE(waiting(s, kAtreides));
  CHECK(s.shipmove.orn_to == to);
  {  // Passing now abandons the second movement: the card is discarded then.
    GameState t = s;
    act(t, kAtreides, pass());
    CHECK(t.treachery_played.empty());
    CHECK(t.treachery_discard.top() == card);
    CHECK(t.shipmove.orn_to == kNone8);
    check_custody(t);
  }
  // The first gather's arrivals do not move again; the residual force of an origin and a third territory may, as a gather.
  CHECK(rejected(s, kAtreides, move_from({{to, 1}, {c, 1}}, g.a)).code == RejectCode::IllegalChoice);
  act(s, kAtreides, move_from({{g.a, 1}, {c, 1}}, to));
  CHECK(s.forces_in_location(kAtreides, to) == 6);
  CHECK(s.forces_in_location(kAtreides, g.a) == 0);
  CHECK(s.forces_in_location(kAtreides, c) == 0);
  CHECK(s.treachery_played.empty());
  CHECK(s.treachery_discard.top() == card);
  CHECK(s.shipmove.orn_to == kNone8);
  CHECK_FALSE((s.phase == Phase::ShipmentMovement && s.shipmove.current == s.seat_of(kAtreides) && waiting(s, kAtreides)));
  check_custody(s);
}

TEST_CASE("Leader Skills: with the Ornithopter's two groups, each movement of the Planetologist's owner has its +1 (at most 3)",
          "[leader_skills][movement][planetologist][ornithopter]") {
  // The flight table's two-groups row: both movements use the normal range, each with the +1: two territories here.
  const LocationId to = loc("The Great Flat");
  for (bool skilled : {false, true}) {
    INFO(skilled);
    GameState s = gather_board(kAtreides, kHarkonnen, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
    if (skilled) set_skill(s, kThufir, LeaderSkill::Planetologist);
    from_cache(s, kAtreides, TreacheryKind::Ornithopter);
    const auto g = gather_sites(s, to);
    REQUIRE(g.far != kNone8);
    place(s, kAtreides, g.far, 4);
    to_movement(s, kAtreides);
    action::Move first = move_from({{g.far, 2}}, to);  // two territories
    first.ornithopter = 2;
    if (!skilled) {
      CHECK(rejected(s, kAtreides, first).code == RejectCode::IllegalChoice);  // the normal range is 1
      continue;
    }
    act(s, kAtreides, first);
    REQUIRE(waiting(s, kAtreides));
    act(s, kAtreides, move_from({{g.far, 2}}, to));  // the second group: the +1 again
    CHECK(s.forces_in_location(kAtreides, to) == 4);
    CHECK(s.shipmove.orn_to == kNone8);
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: a Fremen gather whose group needs the two-territory movement waits in its Karama window before either group moves",
          "[leader_skills][movement][planetologist][fremen][karama]") {
  const LocationId to = loc("The Great Flat");
  GameState s = gather_board(Faction::Fremen, kAtreides, ruling("karama_windows", "all_other_seats"));
  set_skill(s, L(Faction::Fremen, 0), LeaderSkill::Planetologist);
  const uint8_t karama = give_another(s, kAtreides, TreacheryKind::Karama);
  const auto g = gather_sites(s, to);
  REQUIRE(g.far != kNone8);
  place(s, Faction::Fremen, g.a, 2);
  place(s, Faction::Fremen, g.far, 2);
  to_movement(s, Faction::Fremen);
  const action::Move m = move_from({{g.a, 2}, {g.far, 2}}, to);
  act(s, Faction::Fremen, m);
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::FremenMovement));
  CHECK(s.forces_in_location(Faction::Fremen, g.a) == 2);  // neither group moved yet
  CHECK(s.forces_in_location(Faction::Fremen, g.far) == 2);
  SECTION("cancelled: the far group may not use the two territories, the near group may still move") {
    act(s, kAtreides, respond(true, karama));
    REQUIRE(waiting(s, Faction::Fremen));
    CHECK(rejected(s, Faction::Fremen, m).code == RejectCode::IllegalChoice);
    act(s, Faction::Fremen, move_from({{g.a, 2}}, to));
    CHECK(s.forces_in_location(Faction::Fremen, to) == 2);
    CHECK(s.forces_in_location(Faction::Fremen, g.far) == 2);
    check_custody(s);
  }
  SECTION("let through: both arrive") {
    act(s, kAtreides, respond(false));
    CHECK(s.forces_in_location(Faction::Fremen, to) == 4);
    check_custody(s);
  }
}

namespace {
constexpr Faction kBG = Faction::BeneGesserit;
// The advanced Bene Gesserit's movement step, its first leader the Planetologist, advisors in g.a, fighters in g.b.
struct BgGather {
  GameState s;
  GatherSites g;
  LocationId to = kNone8;
};
BgGather bg_gather(bool enemy_there, Rulings r = Rulings::defaults(), data::ModuleSet extra = 0) {
  BgGather b;
  b.to = loc("The Great Flat");
  b.s = cleared_board_of(game({kBG, kHarkonnen}, true, 7, r, static_cast<data::ModuleSet>(skills_module() | extra)));
  clear_skills(b.s);
  b.s.storm_sector = 9;
  set_skill(b.s, L(kBG, 0), LeaderSkill::Planetologist);
  b.g = gather_sites(b.s, b.to);
  place(b.s, kBG, b.g.a, 0, 2);  // advisors, beside a Harkonnen force (never alone: 2.02.21)
  place(b.s, kHarkonnen, b.g.a, 1);
  place(b.s, kBG, b.g.b, 2);     // fighters
  if (enemy_there) place(b.s, kHarkonnen, b.to, 1);
  return b;
}
action::Move mixed(const BgGather& b, bool flip) {
  action::Move m;
  m.to = b.to;
  m.from = {Placement{b.g.a, 0, 2}, Placement{b.g.b, 2, 0}};
  m.flip = flip;
  return m;
}
}  // namespace

TEST_CASE("Leader Skills: the Planetologist's gather of advisors and fighters arrives in one stance, where another faction is by taking up arms",
          "[leader_skills][movement][planetologist][bene_gesserit]") {
  SECTION("another faction there, no Bene Gesserit: the mixed gather must take up arms, and arrives as fighters") {
    BgGather b = bg_gather(true);
    to_movement(b.s, kBG);
    CHECK_THAT(rejected(b.s, kBG, mixed(b, false)).reason, Catch::Contains("take up arms"));
    bool offered = false;
    for (const auto& x : legal_actions(b.s, b.s.seat_of(kBG)))
      if (const auto* mv = x.get_if<action::Move>(); mv && mv->from.size() == 2 && mv->to == b.to && mv->flip) offered = true;
    CHECK(offered);
    for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
      INFO(bots::profile_name(profile));
      const auto in = bots::make_input(b.s, b.s.seat_of(kBG));
      CHECK(bots::is_valid_choice(in, bots::make_bot(profile, 3)->choose(in)));  // from the view; the mixed gather among the candidates
    }
    act(b.s, kBG, mixed(b, true));
    CHECK(b.s.forces_at(kBG, b.to, 0) == 4);
    CHECK(b.s.forces_at(kBG, b.to, 1) == 0);
    check_custody(b.s);
  }
  SECTION("advisors of two territories stay advisors there, or take up arms together") {
    for (bool flip : {false, true}) {
      INFO(flip);
      BgGather b = bg_gather(true);
      const LocationId c = third_site(b.s, b.g, b.to);
      REQUIRE(c != kNone8);
      place(b.s, kBG, c, 0, 1);
      place(b.s, kHarkonnen, c, 1);
      to_movement(b.s, kBG);
      action::Move m;
      m.to = b.to;
      m.from = {Placement{b.g.a, 0, 2}, Placement{c, 0, 1}};
      m.flip = flip;
      act(b.s, kBG, m);
      CHECK(b.s.forces_at(kBG, b.to, flip ? 0 : 1) == 3);
      CHECK(b.s.forces_at(kBG, b.to, flip ? 1 : 0) == 0);
    }
  }
  SECTION("fighters arrive, no flip to ask for: joining fighters already there (2.02.20), or into an empty destination (2.02.14)") {
    for (const bool fighters_there : {true, false}) {
      INFO("a Harkonnen force and a BG fighter already there: " << fighters_there);
      BgGather b = bg_gather(fighters_there);
      if (fighters_there) place(b.s, kBG, b.to, 1);
      to_movement(b.s, kBG);
      CHECK(rejected(b.s, kBG, mixed(b, true)).code == RejectCode::IllegalChoice);
      act(b.s, kBG, mixed(b, false));
      CHECK(b.s.forces_at(kBG, b.to, 0) == (fighters_there ? 5 : 4));
      CHECK(b.s.forces_at(kBG, b.to, 1) == 0);
    }
  }
  SECTION("under planetologist_exclusive = both the advisors' group moves two") {
    BgGather b = bg_gather(true, ruling("planetologist_exclusive", "both"));
    REQUIRE(b.g.far != kNone8);
    place(b.s, kBG, b.g.far, 0, 1);
    place(b.s, kHarkonnen, b.g.far, 1);
    to_movement(b.s, kBG);
    action::Move m;
    m.to = b.to;
    m.from = {Placement{b.g.far, 0, 1}, Placement{b.g.b, 2, 0}};
    m.flip = true;
    act(b.s, kBG, m);
    CHECK(b.s.forces_at(kBG, b.to, 0) == 3);
  }
  SECTION("advisors never fly with the Ornithopter's one group (2.02.12), a gather neither") {
    for (const bool two_groups : {true, false}) {
      BgGather b = bg_gather(true, two_groups ? ruling("ornithopter_advisors", "two_groups_only") : Rulings::defaults(),
                             data::module_bit(data::Module::ChoamRichese));
      from_cache(b.s, kBG, TreacheryKind::Ornithopter);
      to_movement(b.s, kBG);
      action::Move m = mixed(b, true);
      m.ornithopter = 1;
      CHECK_THAT(rejected(b.s, kBG, m).reason, Catch::Contains("2.02.12"));
      m.ornithopter = 2;  // the two-groups mode takes advisors under ornithopter_advisors = two_groups_only, not the default neither
      CHECK(validate(b.s, b.s.seat_of(kBG), Action(m)).has_value() == !two_groups);
    }
  }
  SECTION("advisors already there: the fighters join them as advisors (2.02.20)") {
    BgGather b = bg_gather(true);
    place(b.s, kBG, b.to, 0, 1);
    to_movement(b.s, kBG);
    act(b.s, kBG, mixed(b, false));
    CHECK(b.s.forces_at(kBG, b.to, 1) == 5);
    CHECK(b.s.forces_at(kBG, b.to, 0) == 0);
  }
  SECTION("the advisors' group moves as advisors do: one territory (2.02.12)") {
    BgGather b = bg_gather(true);
    REQUIRE(b.g.far != kNone8);
    place(b.s, kBG, b.g.far, 0, 1);
    place(b.s, kHarkonnen, b.g.far, 1);
    to_movement(b.s, kBG);
    action::Move m;
    m.to = b.to;
    m.from = {Placement{b.g.far, 0, 1}, Placement{b.g.b, 2, 0}};
    m.flip = true;
    CHECK(rejected(b.s, kBG, m).code == RejectCode::IllegalChoice);
  }
}

TEST_CASE("Leader Skills: the mixed gather's Take Up Arms waits in a Karama window before either group moves, cancelled, a move without it is left",
          "[leader_skills][movement][planetologist][bene_gesserit][karama]") {
  BgGather b = bg_gather(true, ruling("karama_windows", "all_other_seats"));
  const uint8_t karama = give_another(b.s, kHarkonnen, TreacheryKind::Karama);
  to_movement(b.s, kBG);
  act(b.s, kBG, mixed(b, true));
  REQUIRE(b.s.window_depth == 1);
  CHECK(b.s.windows[0].subject == static_cast<uint8_t>(rules::Ability::BgTakeUpArms));
  CHECK(b.s.forces_at(kBG, b.g.a, 1) == 2);  // neither group moved yet
  CHECK(b.s.forces_at(kBG, b.g.b, 0) == 2);
  SECTION("cancelled") {
    act(b.s, kHarkonnen, respond(true, karama));
    CHECK(b.s.window_depth == 0);
    REQUIRE(waiting(b.s, kBG));
    CHECK(b.s.forces_at(kBG, b.g.a, 1) == 2);  // nothing moved, nothing spent
    CHECK(b.s.forces_at(kBG, b.g.b, 0) == 2);
    CHECK(rejected(b.s, kBG, mixed(b, true)).code == RejectCode::IllegalChoice);
    CHECK(rejected(b.s, kBG, mixed(b, false)).code == RejectCode::IllegalChoice);
    act(b.s, kBG, move_from({{b.g.b, 2}}, b.to));  // a legal replacement without the flip
    CHECK(b.s.forces_at(kBG, b.to, 0) == 2);
    check_custody(b.s);
  }
  SECTION("let through") {
    act(b.s, kHarkonnen, respond(false));
    CHECK(b.s.window_depth == 0);
    CHECK(b.s.forces_at(kBG, b.to, 0) == 4);
    CHECK(b.s.forces_at(kBG, b.g.a, 1) == 0);
  }
}

TEST_CASE("Leader Skills: ruling planetologist_no_field, a concealed marker moves with the band as one force, or without it and in no gather",
          "[leader_skills][movement][planetologist][richese][no_field][ruling]") {
  const LocationId to = loc("The Great Flat");
  for (const char* reading : {"as_one_force", "forces_only"}) {
    INFO(reading);
    const bool band = std::string(reading) == "as_one_force";
    GameState s = gather_board(Faction::Richese, kAtreides, ruling("planetologist_no_field", reading),
                               data::module_bit(data::Module::ChoamRichese));
    set_skill(s, L(Faction::Richese, 0), LeaderSkill::Planetologist);
    const auto g = gather_sites(s, to);
    REQUIRE(g.far != kNone8);
    int five = -1;
    for (int i = 0; i < kNumNoFieldTokens; ++i)
      if (kNoFieldValues[i] == 5) five = i;
    REQUIRE(five >= 0);
    s.richese.no_field[five] = NoFieldToken{TokenZone::Board, g.far};  // two territories from `to`
    s.forces_at(Faction::Richese, g.far, 1) = 1;
    place(s, Faction::Richese, g.b, 2);
    check_custody(s);
    to_movement(s, Faction::Richese);
    action::Move alone;  // the marker alone, two territories: the +1 or not
    alone.to = to;
    alone.from = {Placement{g.far, 0, 1}};
    CHECK(validate(s, s.seat_of(Faction::Richese), Action(alone)).has_value() == !band);
    if (band) {
      act(s, Faction::Richese, alone);
      CHECK(s.richese.no_field[five].location == to);
    } else {
      CHECK_THAT(rejected(s, Faction::Richese, alone).reason, Catch::Contains("you may move 1"));
    }
    check_custody(s);
  }
  // The gather: the marker as one origin, or none.
  for (const char* reading : {"as_one_force", "forces_only"}) {
    INFO(reading);
    GameState s = gather_board(Faction::Richese, kAtreides, ruling("planetologist_no_field", reading),
                               data::module_bit(data::Module::ChoamRichese));
    set_skill(s, L(Faction::Richese, 0), LeaderSkill::Planetologist);
    const auto g = gather_sites(s, to);
    int five = -1;
    for (int i = 0; i < kNumNoFieldTokens; ++i)
      if (kNoFieldValues[i] == 5) five = i;
    s.richese.no_field[five] = NoFieldToken{TokenZone::Board, g.a};
    s.forces_at(Faction::Richese, g.a, 1) = 1;
    place(s, Faction::Richese, g.b, 2);
    to_movement(s, Faction::Richese);
    action::Move m;
    m.to = to;
    m.from = {Placement{g.a, 0, 1}, Placement{g.b, 2, 0}};
    if (std::string(reading) == "forces_only") {
      CHECK_THAT(rejected(s, Faction::Richese, m).reason, Catch::Contains("planetologist_no_field"));
      act(s, Faction::Richese, move_from({{g.b, 2}}, to));  // the forces alone still move
    } else {
      act(s, Faction::Richese, m);
      CHECK(s.forces_at(Faction::Richese, to, 1) == 1);
    }
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: ruling planetologist_ornithopter, the gather flies with the card as one card movement, or never",
          "[leader_skills][movement][planetologist][ornithopter][ruling]") {
  const LocationId to = loc("The Great Flat");
  for (const char* reading : {"one_card_movement", "one_group"}) {
    INFO(reading);
    const bool flies = std::string(reading) == "one_card_movement";
    GameState s = gather_board(kAtreides, kHarkonnen, ruling("planetologist_ornithopter", reading),
                               data::module_bit(data::Module::ChoamRichese));
    set_skill(s, kThufir, LeaderSkill::Planetologist);
    from_cache(s, kAtreides, TreacheryKind::Ornithopter);
    const auto g = gather_sites(s, to);
    place(s, kAtreides, g.a, 2);
    place(s, kAtreides, g.b, 2);
    to_movement(s, kAtreides);
    for (uint8_t mode : {1, 2}) {
      action::Move m = move_from({{g.a, 2}, {g.b, 2}}, to);
      m.ornithopter = mode;
      INFO(int(mode));
      if (mode == 1) CHECK(validate(s, s.seat_of(kAtreides), Action(m)).has_value() == !flies);  // both within three
      if (mode == 2) CHECK(validate(s, s.seat_of(kAtreides), Action(m)).has_value() == !flies);  // both within their range
    }
    // The card's one group, and the gather without the card, under both readings.
    action::Move one = move_from({{g.a, 2}}, to);
    one.ornithopter = 1;
    CHECK_FALSE(validate(s, s.seat_of(kAtreides), Action(one)).has_value());
    CHECK_FALSE(validate(s, s.seat_of(kAtreides), Action(move_from({{g.a, 2}, {g.b, 2}}, to))).has_value());
    // The second group of the two-groups mode: a gather only when the gather flies.
    action::Move first = move_from({{g.a, 1}}, to);
    first.ornithopter = 2;
    act(s, kAtreides, first);
    const LocationId c = third_site(s, g, to);
    REQUIRE(c != kNone8);
    const action::Move second = move_from({{g.a, 1}, {g.b, 2}}, to);
    CHECK(validate(s, s.seat_of(kAtreides), Action(second)).has_value() == !flies);
    if (!flies) CHECK_THAT(rejected(s, kAtreides, second).reason, Catch::Contains("planetologist_ornithopter"));
  }
}

TEST_CASE("Leader Skills: ruling planetologist_mixed_gather, advisors and fighters into another faction's territory take up arms, or are refused",
          "[leader_skills][movement][planetologist][bene_gesserit][ruling]") {
  for (const char* reading : {"take_up_arms", "refused"}) {
    INFO(reading);
    const bool arms = std::string(reading) == "take_up_arms";
    {
      BgGather b = bg_gather(true, ruling("planetologist_mixed_gather", reading));
      to_movement(b.s, kBG);
      CHECK(validate(b.s, b.s.seat_of(kBG), Action(mixed(b, true))).has_value() == !arms);
      if (!arms) CHECK_THAT(rejected(b.s, kBG, mixed(b, true)).reason, Catch::Contains("planetologist_mixed_gather"));
      CHECK(validate(b.s, b.s.seat_of(kBG), Action(mixed(b, false))).has_value());  // never as it stands
    }
    {  // settled under both: an empty destination (2.02.14)
      BgGather b = bg_gather(false, ruling("planetologist_mixed_gather", reading));
      to_movement(b.s, kBG);
      act(b.s, kBG, mixed(b, false));
      CHECK(b.s.forces_at(kBG, b.to, 0) == 4);
    }
    {  // and a Bene Gesserit group there (2.02.20)
      BgGather b = bg_gather(true, ruling("planetologist_mixed_gather", reading));
      place(b.s, kBG, b.to, 0, 1);
      to_movement(b.s, kBG);
      act(b.s, kBG, mixed(b, false));
      CHECK(b.s.forces_at(kBG, b.to, 1) == 5);
    }
  }
}

TEST_CASE("Leader Skills: bots may gather with the Planetologist, medium when both groups are worth moving to one place",
          "[leader_skills][bots][planetologist]") {
  const LocationId to = loc("The Great Flat");
  for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    GameState s = gather_board(kAtreides, kHarkonnen);
    for (const TerritoryId t : data::strongholds())  // every stronghold held: the spice is the place to go
      place(s, kHarkonnen, data::territory(t).first_location, 4);
    set_skill(s, kThufir, LeaderSkill::Planetologist);
    const auto g = gather_sites(s, to);
    place(s, kAtreides, g.a, 3);
    place(s, kAtreides, g.b, 3);
    transfer_spice(s, bank(), board(to), 12);
    to_movement(s, kAtreides);
    const auto in = bots::make_input(s, s.seat_of(kAtreides));
    const Action a = bots::make_bot(profile, 5)->choose(in);
    REQUIRE(bots::is_valid_choice(in, a));
    const auto* m = a.get_if<action::Move>();
    // Medium's rules take the gather; hard and brutal weigh the whole board (here they attack a stronghold), easy is random.
    if (profile != bots::Profile::Medium) continue;
    REQUIRE(m);
    INFO("moves " << m->from.size() << " groups to " << int(m->to));
    CHECK(m->from.size() == 2);
    CHECK(m->to == to);
  }
}

TEST_CASE("Leader Skills: the Diplomat in front, a worthless card counts as the opponent's defense, then is discarded",
          "[leader_skills][battle]") {
  for (bool front : {false, true}) {
    INFO(front);
    GameState s = skill_battle(ruling("winner_worthless", "may_keep"));
    if (front) set_skill(s, kThufir, LeaderSkill::Diplomat);
    const uint8_t baliset = give(s, kAtreides, TreacheryKind::Baliset);
    const uint8_t knife = give(s, kHarkonnen, TreacheryKind::Crysknife);
    const uint8_t shield = give(s, kHarkonnen, TreacheryKind::Shield);
    to_plans(s);
    // Duncan with the Baliset and 4 dialled against Rabban's Crysknife and Shield (4 alone wins the aggressor's tie).
    fight(s, plan(kDuncan, 4, baliset), plan(kRabban, 0, knife, shield));
    CHECK(dead(s, kDuncan) == !front);  // the Shield counted as the Atreides' own stops the Crysknife
    CHECK(winner_in(s, "The Great Flat") == kAtreides);
    if (front) {
      // The winner may keep worthless cards (ruling), not the one the Diplomat used.
      CHECK_FALSE(may_keep(s, kAtreides, baliset));
    }
    keep_all(s);
    CHECK(s.treachery_discard.contains(baliset) == front);
    check_custody(s);
  }
}

namespace {
// The Atreides lose a battle in The Great Flat with Duncan alive (2 + 1 against 4 + 1).
GameState diplomat_lost(bool skilled) {
  GameState s = skill_battle();
  if (skilled) set_skill(s, kDuncan, LeaderSkill::Diplomat);
  to_plans(s);
  fight(s, plan(kDuncan, 1), plan(kRabban, 1));
  return s;
}
// The Atreides' forces outside The Great Flat, each checked to be next to it and not in a stronghold.
int retreated(const GameState& s) {
  int elsewhere = 0;
  for (int l = 0; l < data::kNumLocations; ++l) {
    const int n = s.forces_in_location(kAtreides, static_cast<LocationId>(l));
    if (n == 0) continue;
    elsewhere += n;
    CHECK(data::crossing_distance(static_cast<LocationId>(l), loc("The Great Flat")) == 1);
    CHECK_FALSE(data::territory(data::territory_of(static_cast<LocationId>(l))).stronghold);
  }
  return elsewhere;
}
}  // namespace

TEST_CASE("Leader Skills: the Diplomat losing, its owner may retreat undialled forces up to its strength to an adjacent empty territory",
          "[leader_skills][battle]") {
  for (bool skilled : {false, true}) {
    INFO(skilled);
    GameState s = diplomat_lost(skilled);
    if (skilled) {
      // The losses wait for the Atreides' choice: a Move to one of the offered destinations, or Pass.
      REQUIRE(s.step == rules::ability::kDiplomatRetreat);
      REQUIRE(waiting_for(s) == rules::bit(seat(s, kAtreides)));
      CHECK(s.forces_in_location(kAtreides, loc("The Great Flat")) == 5);
      const auto ds = phase_decisions(s, seat(s, kAtreides));
      REQUIRE(ds.size() == 2);
      REQUIRE(ds[0].kind == ActionKind::Move);
      CHECK(ds[0].max == 2);  // Duncan's strength; 4 undialled forces
      REQUIRE_FALSE(ds[0].options.empty());
      CHECK(ds[1].kind == ActionKind::Pass);
      action::Move m;
      m.to = static_cast<LocationId>(ds[0].options.front());
      m.from.push_back(Placement{loc("The Great Flat"), 2, 0});
      act(s, kAtreides, m);
    }
    keep_all(s);
    REQUIRE_FALSE(dead(s, kDuncan));
    CHECK(s.forces_in_location(kAtreides, loc("The Great Flat")) == 0);
    CHECK(s.of(kAtreides).tanks[0] == (skilled ? 3 : 5));
    CHECK(s.of(kHarkonnen).tanks[0] == 1);  // the winner's losses follow the retreat
    CHECK(retreated(s) == (skilled ? 2 : 0));
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: the Diplomat's retreat rejects too many forces, a stronghold or occupied or far destination, another seat, and Pass loses all",
          "[leader_skills][battle]") {
  GameState s = diplomat_lost(true);
  REQUIRE(s.step == rules::ability::kDiplomatRetreat);
  const auto ds = phase_decisions(s, seat(s, kAtreides));
  REQUIRE_FALSE(ds.empty());
  const auto to = static_cast<LocationId>(ds[0].options.front());
  auto retreat = [&](LocationId dest, int n) {
    action::Move m;
    m.to = dest;
    m.from.push_back(Placement{loc("The Great Flat"), static_cast<uint8_t>(n), 0});
    return m;
  };
  CHECK(rejected(s, kAtreides, retreat(to, 3)).code == RejectCode::IllegalChoice);  // 3 > Duncan's strength
  CHECK(rejected(s, kAtreides, retreat(to, 0)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kHarkonnen, retreat(to, 1)).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, kAtreides, action::BattlePlan{}).code == RejectCode::WrongPhase);
  // Every location that is not offered is rejected: strongholds, far ones, occupied ones, the storm's.
  int checked = 0;
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto x = static_cast<LocationId>(l);
    if (std::find(ds[0].options.begin(), ds[0].options.end(), l) != ds[0].options.end()) continue;
    CHECK(rejected(s, kAtreides, retreat(x, 1)).code == RejectCode::IllegalChoice);
    ++checked;
  }
  CHECK(checked > 0);
  // An occupied neighbour stops being a destination.
  GameState occupied = s;
  place(occupied, kHarkonnen, to, 1);
  CHECK(rejected(occupied, kAtreides, retreat(to, 1)).code == RejectCode::IllegalChoice);
  // Forces from elsewhere are not the battle's.
  GameState outside = s;
  place(outside, kAtreides, loc("Arrakeen"), 2);
  action::Move far = retreat(to, 1);
  far.from[0].location = loc("Arrakeen");
  CHECK(rejected(outside, kAtreides, far).code == RejectCode::IllegalChoice);
  // Pass: the battle's forces are all lost.
  act(s, kAtreides, pass());
  keep_all(s);
  CHECK(s.of(kAtreides).tanks[0] == 5);
  CHECK(retreated(s) == 0);
  check_custody(s);
}

TEST_CASE("Leader Skills: after the Diplomat's retreat the winner's Suk Graduate saves forces only when its leader survived",
          "[leader_skills][battle]") {
  for (bool kill_winner : {false, true}) {
    INFO(kill_winner);
    GameState s = skill_battle();
    set_skill(s, kDuncan, LeaderSkill::Diplomat);
    REQUIRE(s.skills.deck.remove(static_cast<uint8_t>(LeaderSkill::SukGraduate)));  // a second skill (set_skill keeps one)
    s.skills.assigned[kRabban] = static_cast<uint8_t>(static_cast<int>(LeaderSkill::SukGraduate) + 1);
    const uint8_t knife = give(s, kAtreides, TreacheryKind::Crysknife);
    to_plans(s);
    // 2 + 1 against 4 + 4 (or 0 + 4, Rabban killed): the Atreides lose, Duncan lives.
    fight(s, plan(kDuncan, 1, kill_winner ? knife : kNone8), plan(kRabban, 4));
    REQUIRE(s.step == rules::ability::kDiplomatRetreat);
    act(s, kAtreides, pass());
    keep_all(s);
    CHECK(dead(s, kRabban) == kill_winner);
    CHECK(s.of(kAtreides).tanks[0] == 5);
    // The Harkonnen dialled 4 of 5: the Suk Graduate keeps 1 there and sends 2 to the reserves, unless Rabban died.
    CHECK(s.forces_in_location(kHarkonnen, loc("The Great Flat")) == (kill_winner ? 1 : 2));
    CHECK(s.of(kHarkonnen).tanks[0] == (kill_winner ? 4 : 1));
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: bots answer the Diplomat's retreat from their view, the thinking profiles saving all they may where the spice is",
          "[leader_skills][bots][battle]") {
  for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    GameState s = diplomat_lost(true);
    REQUIRE(s.step == rules::ability::kDiplomatRetreat);
    const auto ds = phase_decisions(s, seat(s, kAtreides));
    REQUIRE(ds[0].options.size() >= 2);
    const auto rich = static_cast<LocationId>(ds[0].options.back());  // spice there: the better destination
    transfer_spice(s, bank(), board(rich), 4);
    const auto in = bots::make_input(s, s.seat_of(kAtreides));
    const Action a = bots::make_bot(profile, 5)->choose(in);
    REQUIRE(bots::is_valid_choice(in, a));
    if (profile == bots::Profile::Easy) continue;
    const auto* m = a.get_if<action::Move>();
    REQUIRE(m);
    CHECK(m->to == rich);
    int n = 0;
    for (const auto& p : m->from) n += p.forces + p.special;
    CHECK(n == 2);
  }
}

TEST_CASE("Leader Skills: the Sandmaster in front collects 1 spice from each spice territory its movement enters",
          "[leader_skills][movement]") {
  for (bool skilled : {false, true}) {
    INFO(skilled);
    GameState s = gather_board(kAtreides, kHarkonnen);
    if (skilled) set_skill(s, kThufir, LeaderSkill::Sandmaster);
    const LocationId from = loc("Carthag");  // a city: ornithopters, range 3 (the storm is over Arrakeen)
    place(s, kAtreides, from, 3);
    // A destination two crossings away, through a sand territory between (both outside the storm).
    LocationId mid = kNone8, to = kNone8;
    for (int m = 0; m < data::kNumLocations && to == kNone8; ++m) {
      const auto x = static_cast<LocationId>(m);
      if (s.in_storm(x) || data::territory(data::territory_of(x)).stronghold || data::crossing_distance(from, x) != 1) continue;
      for (int d = 0; d < data::kNumLocations; ++d) {
        const auto y = static_cast<LocationId>(d);
        if (s.in_storm(y) || data::territory(data::territory_of(y)).stronghold || data::crossing_distance(from, y) != 2 ||
            data::crossing_distance(x, y) != 1 || data::territory_of(y) == data::territory_of(x))
          continue;
        mid = x;
        to = y;
        break;
      }
    }
    REQUIRE(to != kNone8);
    transfer_spice(s, bank(), board(mid), 3);
    transfer_spice(s, bank(), board(to), 2);
    to_movement(s, kAtreides);
    const int spice = s.of(kAtreides).spice;
    act(s, kAtreides, move(from, 3, to));
    // The phase ends and the Spice Collection takes what is left at the destination (2 each force: all of it).
    REQUIRE(s.phase != Phase::ShipmentMovement);
    CHECK(s.spice_on_board[mid] == (skilled ? 2 : 3));  // passed through: 1 taken
    CHECK(s.spice_on_board[to] == 0);
    CHECK(s.of(kAtreides).spice == spice + (skilled ? 3 : 2));  // 1 + 1 on the way, then the collection's 1 (or 2)
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: a Planetologist killed in a battle its side wins still discards its Special", "[leader_skills][battle][planetologist]") {
  GameState s = skill_battle();
  const LeaderId kGurney = L(kAtreides, 2);
  set_skill(s, kGurney, LeaderSkill::Planetologist);
  const uint8_t karama = give(s, kAtreides, TreacheryKind::Karama);
  const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);  // a card the winner may keep: the keep step comes
  const uint8_t knife = give(s, kHarkonnen, TreacheryKind::Crysknife);
  to_plans(s);
  // Gurney with the Karama and 5 dialled, no defense against the knife: it dies, the 5 win against Umman Kudu (1).
  fight(s, plan(kGurney, 5, karama), plan(L(kHarkonnen, 4), 0, knife));
  CHECK(dead(s, kGurney));
  (void)shield;
  keep_all(s);
  CHECK(s.treachery_discard.contains(karama));
  CHECK_FALSE(s.of(kAtreides).hand.contains(karama));
  check_custody(s);
}

TEST_CASE("Leader Skills: the Suk Graduate saves forces, not dial units (elite forces worth 2)", "[leader_skills][battle]") {
  for (bool in_plan : {false, true}) {
    INFO(in_plan);
    GameState s = cleared_board_of(game({Faction::Emperor, kHarkonnen}, true, 7, Rulings::defaults(), skills_module()));
    clear_skills(s);
    const LeaderId fenring = L(Faction::Emperor, 0), aramsham = L(Faction::Emperor, 1);
    set_skill(s, in_plan ? fenring : aramsham, LeaderSkill::SukGraduate);
    place(s, Faction::Emperor, loc("The Great Flat"), 0, 3);  // three Sardaukar
    place(s, kHarkonnen, loc("The Great Flat"), 2);
    to_plans(s);
    const int reserves = s.of(Faction::Emperor).reserves[1];
    act(s, Faction::Emperor, plan(fenring, 6, kNone8, kNone8, kNone8, 3));  // all three dialled (6 units)
    act(s, kHarkonnen, plan(L(kHarkonnen, 4), 0));
    decline_traitors(s);
    keep_all(s);
    const int left = s.forces_at(Faction::Emperor, loc("The Great Flat"), 1);
    CHECK(left == (in_plan ? 1 : 0));
    CHECK(s.of(Faction::Emperor).reserves[1] == reserves + (in_plan ? 2 : 1));
    CHECK(s.of(Faction::Emperor).tanks[1] == (in_plan ? 0 : 2));
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: the Spice Banker adds only the spice it still pays at the resolution", "[leader_skills][battle]") {
  for (bool bribed : {false, true}) {
    INFO(bribed);
    GameState s = skill_battle();
    set_skill(s, kThufir, LeaderSkill::SpiceBanker);
    set_spice(s, kAtreides, 3);
    to_plans(s);
    auto p = plan(kThufir, 0);
    p.skill_spice = 3;
    act(s, kAtreides, p);
    if (bribed) act(s, kAtreides, action::Bribe{.to = static_cast<uint8_t>(kHarkonnen), .amount = 3});
    act(s, kHarkonnen, plan(L(kHarkonnen, 0), 0));  // Feyd (6)
    decline_traitors(s);
    keep_all(s);
    CHECK(winner_in(s, "The Great Flat") == (bribed ? kHarkonnen : kAtreides));  // 5 + 3 against 6, or 5 alone
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: the Karama of a sealed Planetologist plan is not spent on the Richese special purchase",
          "[leader_skills][battle][planetologist][richese]") {
  const auto modules = static_cast<data::ModuleSet>(skills_module() | data::module_bit(data::Module::ChoamRichese));
  GameState s = cleared_board_of(game({Faction::Richese, kHarkonnen}, true, 7, Rulings::defaults(), modules));
  clear_skills(s);
  const LeaderId planetologist = L(Faction::Richese, 0);
  set_skill(s, planetologist, LeaderSkill::Planetologist);
  place(s, Faction::Richese, loc("The Great Flat"), 3);
  place(s, kHarkonnen, loc("The Great Flat"), 3);
  const uint8_t karama = give(s, Faction::Richese, TreacheryKind::Karama);
  to_plans(s);
  act(s, Faction::Richese, plan(planetologist, 0, karama));
  REQUIRE(s.richese.cache.n > 0);
  const auto buy = action::RicheseBuy{.karama = karama, .card = s.richese.cache.ids[0]};
  CHECK(validate(s, s.seat_of(Faction::Richese), Action(buy)).has_value());
}

TEST_CASE("Leader Skills: the Rihani Decipherer in front, winning, looks at 2 random traitor cards, seen by its owner only",
          "[leader_skills][battle]") {
  GameState s = skill_battle();
  set_skill(s, kThufir, LeaderSkill::RihaniDecipherer);
  const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);  // a card to keep: the battle waits
  to_plans(s);
  REQUIRE(s.traitor_deck.n >= 2);
  fight(s, plan(kDuncan, 0, kNone8, shield), plan(L(kHarkonnen, 4), 0));  // Duncan (2) beats Umman Kudu (1)
  REQUIRE(s.phase == Phase::Battle);
  CHECK(s.skills.rihani_faction == static_cast<uint8_t>(kAtreides));
  for (const uint8_t l : s.skills.rihani_seen) {
    REQUIRE(l < data::kNumLeaders);
    CHECK(s.traitor_deck.contains(l));  // cards of the deck: nobody holds them
  }
  CHECK(s.skills.rihani_seen[0] != s.skills.rihani_seen[1]);
  const std::string mine = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kAtreides)));
  const std::string theirs = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kHarkonnen)));
  REQUIRE(fb::GetView(mine.data())->skill_traitors_seen());
  CHECK(fb::GetView(mine.data())->skill_traitors_seen()->size() == 2);
  CHECK_FALSE(fb::GetView(theirs.data())->skill_traitors_seen());
  check_projections(s);
  check_custody(s);
  // Losing: no look.
  GameState lost = skill_battle();
  set_skill(lost, kThufir, LeaderSkill::RihaniDecipherer);
  to_plans(lost);
  fight(lost, plan(kDuncan, 0), plan(L(kHarkonnen, 0), 0));
  CHECK(lost.skills.rihani_faction == kNoFaction);
}

namespace {
// The Battle phase entered, Prescience and Voice passed: stops at the Mentat's question if it is asked.
void to_question(GameState& s) {
  enter_battle_phase(s);
  while (s.phase == Phase::Battle && (s.step == rules::ability::kPrescience || s.step == rules::ability::kVoice))
    act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), pass());
  REQUIRE(s.phase == Phase::Battle);
}
const fb::MentatQuestionView* question_seen(const std::string& v) { return fb::GetView(v.data())->mentat_question(); }
}  // namespace

TEST_CASE("Leader Skills: the Mentat in front asks about one weapon before the plans, the opponent shows it, or a card of its choice",
          "[leader_skills][battle][mentat]") {
  GameState s = skill_battle();
  set_skill(s, kThufir, LeaderSkill::Mentat);  // in front: Duncan fights
  const uint8_t knife = give(s, kHarkonnen, TreacheryKind::Crysknife);
  const uint8_t shield = give(s, kHarkonnen, TreacheryKind::Shield);
  to_question(s);
  REQUIRE(s.step == rules::ability::kMentatQuestion);
  CHECK(waiting_for(s) == rules::bit(s.seat_of(kAtreides)));
  // Nothing else is decided meanwhile; only the Mentat's owner asks; only a weapon of the game's card sets.
  CHECK(rejected(s, kHarkonnen, plan(kRabban, 0)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, kHarkonnen, action::MentatQuestion{.weapon = knife}).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, kAtreides, action::MentatQuestion{.weapon = shield}).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kAtreides, action::MentatQuestion{.weapon = 250}).code == RejectCode::IllegalChoice);
  bool offers_knife = false;
  for (const auto& a : legal_actions(s, s.seat_of(kAtreides)))
    if (const auto* q = a.get_if<action::MentatQuestion>()) {
      const auto& tc = data::treachery_card(q->weapon);
      CHECK((data::is_weapon(tc.category) || tc.category == data::TreacheryCategory::WeaponSpecial));
      CHECK(tc.set == data::CardSet::Base);  // no Richese card set in this game
      offers_knife = offers_knife || tc.kind == TreacheryKind::Crysknife;
    }
  CHECK(offers_knife);
  // Asking by any copy of the kind: the Harkonnen hold a Crysknife and must show it.
  const uint8_t other_knife = static_cast<uint8_t>(knife == 0 ? 1 : 0);
  const uint8_t asked = data::treachery_card(other_knife).kind == TreacheryKind::Crysknife ? other_knife : knife;
  act(s, kAtreides, action::MentatQuestion{.weapon = asked});
  REQUIRE(s.step == rules::ability::kMentatAnswer);
  CHECK(waiting_for(s) == rules::bit(s.seat_of(kHarkonnen)));
  const auto r = rejected(s, kHarkonnen, action::MentatAnswer{.card = shield});
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK(r.reason.find("Crysknife") != std::string::npos);
  CHECK(rejected(s, kAtreides, action::MentatAnswer{.card = knife}).code == RejectCode::NotYourDecision);
  for (const auto& a : legal_actions(s, s.seat_of(kHarkonnen))) CHECK(a == Action(action::MentatAnswer{.card = knife}));
  {  // While unanswered, everyone sees the question, nobody a card.
    const auto v = inspect::build_view(s, inspect::Viewer::observer());
    REQUIRE(question_seen(v));
    CHECK(question_seen(v)->weapon()->str() == "Crysknife");
    CHECK_FALSE(question_seen(v)->answered());
  }
  const int held = s.of(kHarkonnen).hand.n;
  act(s, kHarkonnen, action::MentatAnswer{.card = knife});
  // Shown, not given: the plans follow, the card still in the Harkonnen's hand.
  CHECK(s.step != rules::ability::kMentatAnswer);
  CHECK_FALSE(validate(s, s.seat_of(kHarkonnen), Action(plan(kRabban, 0))).has_value());
  CHECK(s.of(kHarkonnen).hand.n == held);
  CHECK(s.of(kHarkonnen).hand.contains(knife));
  const auto mine = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kAtreides)));
  const auto obs = inspect::build_view(s, inspect::Viewer::observer());
  REQUIRE(question_seen(mine));
  CHECK(question_seen(mine)->answered());
  CHECK(question_seen(mine)->shown()->str() == "Crysknife");
  CHECK(question_seen(mine)->shown_id() == knife);
  REQUIRE(question_seen(obs));
  CHECK(question_seen(obs)->answered());
  CHECK(question_seen(obs)->shown()->str().empty());
  CHECK(question_seen(obs)->shown_id() == 255);
  check_projections(s);
  check_custody(s);
}

TEST_CASE("Leader Skills: the Mentat's question without the weapon asked, with an empty hand, passed, or no Mentat in front",
          "[leader_skills][battle][mentat]") {
  SECTION("no card of the kind asked: any card of the hand, the opponent's choice") {
    GameState s = skill_battle();
    set_skill(s, kThufir, LeaderSkill::Mentat);
    const uint8_t shield = give(s, kHarkonnen, TreacheryKind::Shield);
    const uint8_t snooper = give(s, kHarkonnen, TreacheryKind::Snooper);
    to_question(s);
    REQUIRE(s.step == rules::ability::kMentatQuestion);
    act(s, kAtreides, action::MentatQuestion{.weapon = give(s, kAtreides, TreacheryKind::Lasgun)});
    REQUIRE(s.step == rules::ability::kMentatAnswer);
    int offered = 0;
    for (const auto& a : legal_actions(s, s.seat_of(kHarkonnen))) {
      const auto* m = a.get_if<action::MentatAnswer>();
      REQUIRE(m);
      CHECK((m->card == shield || m->card == snooper));
      ++offered;
    }
    CHECK(offered == 2);
    CHECK(rejected(s, kHarkonnen, action::MentatAnswer{.card = kNone8}).code == RejectCode::IllegalChoice);
    act(s, kHarkonnen, action::MentatAnswer{.card = snooper});
    CHECK(s.skills.mentat_shown == snooper);
    const auto mine = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kAtreides)));
    REQUIRE(question_seen(mine));
    CHECK(question_seen(mine)->shown()->str() == "Snooper");
    check_projections(s);
  }
  SECTION("an empty hand: answered at once, nothing shown") {
    GameState s = skill_battle();
    set_skill(s, kThufir, LeaderSkill::Mentat);
    const uint8_t lasgun = give(s, kAtreides, TreacheryKind::Lasgun);
    to_question(s);
    act(s, kAtreides, action::MentatQuestion{.weapon = lasgun});
    CHECK(s.step != rules::ability::kMentatAnswer);
    CHECK(s.skills.mentat_answered == 1);
    CHECK(s.skills.mentat_shown == kNone8);
    fight(s, plan(kDuncan, 0), plan(kRabban, 0));
    CHECK(winner_in(s, "The Great Flat") == kHarkonnen);
  }
  SECTION("passed: no question, the plans") {
    GameState s = skill_battle();
    set_skill(s, kThufir, LeaderSkill::Mentat);
    give(s, kHarkonnen, TreacheryKind::Crysknife);
    to_question(s);
    act(s, kAtreides, pass());
    CHECK(s.skills.mentat_asked == kNone8);
    CHECK_FALSE(question_seen(inspect::build_view(s, inspect::Viewer::observer())));
    fight(s, plan(kDuncan, 0), plan(kRabban, 0));
    CHECK(winner_in(s, "The Great Flat") == kHarkonnen);
  }
  SECTION("no Mentat in front: no question") {
    GameState s = skill_battle();
    to_question(s);
    CHECK(s.step != rules::ability::kMentatQuestion);
  }
}

TEST_CASE("Leader Skills: the Rihani Decipherer winning in battle keeps one of 2 traitor cards drawn for an unrevealed one of its own",
          "[leader_skills][battle][rihani]") {
  const LeaderId kUmman = L(kHarkonnen, 4);  // strength 1
  const LeaderId kFeyd = L(kHarkonnen, 0);
  auto won = [&](GameState& s) {
    set_skill(s, kDuncan, LeaderSkill::RihaniDecipherer);
    while (!s.of(kAtreides).traitors.empty()) s.traitor_deck.push(s.of(kAtreides).traitors.pop());
    give_traitor(s, kAtreides, kFeyd);
    const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);
    to_plans(s);
    fight(s, plan(kDuncan, 0, kNone8, shield), plan(kUmman, 0));  // Duncan (2) beats Umman Kudu (1)
    keep_all(s);
  };
  SECTION("the swap: one drawn card kept, the unrevealed one given back, seen by its owner only") {
    GameState s = skill_battle();
    won(s);
    REQUIRE(s.phase == Phase::Battle);
    REQUIRE(s.step == rules::ability::kDecipher);
    CHECK(waiting_for(s) == rules::bit(s.seat_of(kAtreides)));
    const uint8_t a = s.skills.rihani_seen[0], b = s.skills.rihani_seen[1];
    REQUIRE(a < data::kNumLeaders);
    REQUIRE(b < data::kNumLeaders);
    CHECK((s.traitor_deck.contains(a) && s.traitor_deck.contains(b)));  // drawn, still the deck's until kept
    const auto mine = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kAtreides)));
    const auto theirs = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kHarkonnen)));
    CHECK(fb::GetView(theirs.data())->skill_decipher_pending());
    REQUIRE(fb::GetView(mine.data())->skill_traitors_seen());
    CHECK(fb::GetView(mine.data())->skill_traitors_seen()->size() == 2);
    CHECK_FALSE(fb::GetView(theirs.data())->skill_traitors_seen());
    check_projections(s);
    // Only a drawn card, only for an unrevealed traitor card of its own; only the winner decides.
    uint8_t not_drawn = 0;
    while (not_drawn == a || not_drawn == b || !s.traitor_deck.contains(not_drawn)) ++not_drawn;
    CHECK(rejected(s, kAtreides, action::DecipherTraitor{.take = not_drawn, .give = kFeyd}).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, kAtreides, action::DecipherTraitor{.take = a, .give = b}).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, kHarkonnen, action::DecipherTraitor{.take = a, .give = kFeyd}).code == RejectCode::NotYourDecision);
    CHECK(rejected(s, kAtreides, plan(kDuncan, 0)).code == RejectCode::WrongPhase);
    int offered = 0;
    for (const auto& x : legal_actions(s, s.seat_of(kAtreides)))
      if (const auto* d = x.get_if<action::DecipherTraitor>()) {
        CHECK((d->take == a || d->take == b));
        CHECK(d->give == kFeyd);
        ++offered;
      }
    CHECK(offered == 2);
    const int deck = s.traitor_deck.n;
    act(s, kAtreides, action::DecipherTraitor{.take = b, .give = kFeyd});
    CHECK(s.step != rules::ability::kDecipher);
    CHECK(s.of(kAtreides).traitors.contains(b));
    CHECK_FALSE(s.of(kAtreides).traitors.contains(kFeyd));
    CHECK(s.traitor_deck.contains(kFeyd));
    CHECK(s.traitor_deck.contains(a));
    CHECK_FALSE(s.traitor_deck.contains(b));
    CHECK(s.traitor_deck.n == deck);
    CHECK(s.skills.rihani_swap == 0);
    check_custody(s);
  }
  SECTION("Pass keeps the traitor cards held") {
    GameState s = skill_battle();
    won(s);
    REQUIRE(s.step == rules::ability::kDecipher);
    act(s, kAtreides, pass());
    CHECK(s.of(kAtreides).traitors.n == 1);
    CHECK(s.of(kAtreides).traitors.contains(kFeyd));
    CHECK(s.skills.rihani_swap == 0);
    check_custody(s);
  }
  SECTION("a traitor card a battle revealed is not unused: nothing to give back, no swap") {
    GameState s = skill_battle();
    set_skill(s, kDuncan, LeaderSkill::RihaniDecipherer);
    while (!s.of(kAtreides).traitors.empty()) s.traitor_deck.push(s.of(kAtreides).traitors.pop());
    give_traitor(s, kAtreides, kUmman);
    const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);
    to_plans(s);
    act(s, kAtreides, plan(kDuncan, 0, kNone8, shield));
    act(s, kHarkonnen, plan(kUmman, 0));
    for (Seat x = 0; x < s.num_seats; ++x)  // the Atreides call Umman Kudu, their traitor
      if (s.phase == Phase::Battle && s.step == 2 && ((waiting_for(s) >> x) & 1u)) act(s, s.faction_at(x), traitor(s.faction_at(x) == kAtreides));
    keep_all(s);
    CHECK((s.skills.traitors_revealed >> kUmman) & 1u);
    CHECK(s.step != rules::ability::kDecipher);
    CHECK(s.skills.rihani_swap == 0);
    CHECK(s.of(kAtreides).traitors.contains(kUmman));
    check_custody(s);
  }
  SECTION("the Decipherer killed: no band") {
    GameState s = skill_battle();
    set_skill(s, kDuncan, LeaderSkill::RihaniDecipherer);
    give_traitor(s, kAtreides, kFeyd);
    const uint8_t snooper = give(s, kAtreides, TreacheryKind::Snooper);  // no defense against a knife
    const uint8_t knife = give(s, kHarkonnen, TreacheryKind::Crysknife);
    to_plans(s);
    fight(s, plan(kDuncan, 5, kNone8, snooper), plan(kUmman, 0, knife));  // Duncan dies, the Atreides win on the dial
    keep_all(s);
    CHECK(dead(s, kDuncan));
    CHECK(s.step != rules::ability::kDecipher);
    CHECK(s.skills.rihani_faction == kNoFaction);
  }
}

TEST_CASE("Leader Skills: bots ask the Mentat's question, answer it and swap a Decipherer's traitor card, from their own view",
          "[leader_skills][bots][mentat][rihani]") {
  for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    const bool easy = profile == bots::Profile::Easy;
    {  // The question: a weapon (never Pass for the thinking profiles), then the answer the rules allow.
      GameState s = skill_battle();
      set_skill(s, kThufir, LeaderSkill::Mentat);
      const uint8_t knife = give(s, kHarkonnen, TreacheryKind::Crysknife);
      give(s, kHarkonnen, TreacheryKind::Shield);
      give(s, kAtreides, TreacheryKind::Shield);  // its own defense covers projectiles: a poison asked rather
      to_question(s);
      REQUIRE(s.step == rules::ability::kMentatQuestion);
      const auto in = bots::make_input(s, s.seat_of(kAtreides));
      const Action a = bots::make_bot(profile, 5)->choose(in);
      REQUIRE(bots::is_valid_choice(in, a));
      if (!easy) {
        const auto* q = a.get_if<action::MentatQuestion>();
        REQUIRE(q);
        const auto cat = data::treachery_card(q->weapon).category;
        if (profile == bots::Profile::Brutal) CHECK(data::treachery_card(q->weapon).kind == TreacheryKind::Lasgun);
        else CHECK(cat == data::TreacheryCategory::WeaponPoison);
      }
      act(s, kAtreides, action::MentatQuestion{.weapon = knife});
      const auto in2 = bots::make_input(s, s.seat_of(kHarkonnen));
      const Action answer = bots::make_bot(profile, 5)->choose(in2);
      REQUIRE(bots::is_valid_choice(in2, answer));
      CHECK(answer == Action(action::MentatAnswer{.card = knife}));  // the only answer allowed
      act(s, kHarkonnen, answer);
      // The shown knife is in the asker's view: its plan follows (a legal one).
      const auto in3 = bots::make_input(s, s.seat_of(kAtreides));
      REQUIRE(bots::is_valid_choice(in3, bots::make_bot(profile, 5)->choose(in3)));
    }
    {  // The swap: Feyd's card (6) held, Piter's (3) and Umman Kudu's (1) drawn: keep Feyd's.
      // With Iakin Nefud's (2) held instead, and Piter's and Feyd's drawn: swap for Feyd's.
      for (bool strong : {true, false}) {
        GameState s = skill_battle();
        set_skill(s, kDuncan, LeaderSkill::RihaniDecipherer);
        while (!s.of(kAtreides).traitors.empty()) s.traitor_deck.push(s.of(kAtreides).traitors.pop());
        const LeaderId held = strong ? L(kHarkonnen, 0) : L(kHarkonnen, 3);
        give_traitor(s, kAtreides, held);
        const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);
        to_plans(s);
        fight(s, plan(kDuncan, 0, kNone8, shield), plan(L(kHarkonnen, 4), 0));
        keep_all(s);
        REQUIRE(s.step == rules::ability::kDecipher);
        s.skills.rihani_seen[0] = L(kHarkonnen, 2);  // the two drawn, set for the test
        s.skills.rihani_seen[1] = strong ? L(kHarkonnen, 4) : L(kHarkonnen, 0);
        for (const uint8_t l : s.skills.rihani_seen)  // in the deck, nobody's card
          if (!s.traitor_deck.contains(l)) {
            for (auto& fs : s.f) fs.traitors.remove(l) || fs.traitors_discarded.remove(l) || fs.traitor_offer.remove(l);
            s.traitor_deck.push(l);
          }
        check_custody(s);
        const auto in = bots::make_input(s, s.seat_of(kAtreides));
        const Action a = bots::make_bot(profile, 5)->choose(in);
        REQUIRE(bots::is_valid_choice(in, a));
        if (easy) continue;
        if (strong) CHECK(a.kind() == ActionKind::Pass);
        else {
          const auto* d = a.get_if<action::DecipherTraitor>();
          REQUIRE(d);
          CHECK(d->give == held);
          CHECK(d->take == L(kHarkonnen, 0));
        }
      }
    }
  }
}

TEST_CASE("Leader Skills: a brutal bot shown a weapon by the Mentat's answer defends against that weapon's class",
          "[leader_skills][bots][mentat]") {
  for (TreacheryKind shown : {TreacheryKind::Crysknife, TreacheryKind::Chaumas}) {
    INFO(static_cast<int>(shown));
    GameState s = skill_battle();
    set_skill(s, kThufir, LeaderSkill::Mentat);
    const uint8_t card = give(s, kHarkonnen, shown);
    const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);
    const uint8_t snooper = give(s, kAtreides, TreacheryKind::Snooper);
    to_question(s);
    act(s, kAtreides, action::MentatQuestion{.weapon = card});
    act(s, kHarkonnen, action::MentatAnswer{.card = card});
    const auto in = bots::make_input(s, s.seat_of(kAtreides));
    const Action a = bots::make_bot(bots::Profile::Brutal, 5)->choose(in);
    REQUIRE(bots::is_valid_choice(in, a));
    const auto* p = a.get_if<action::BattlePlan>();
    REQUIRE(p);
    CHECK(p->defense == (shown == TreacheryKind::Crysknife ? shield : snooper));
  }
}

TEST_CASE("Leader Skills: the Mentat's and the Decipherer's actions take card and leader names (docs/cards/leader-skills.md)",
          "[leader_skills][controls]") {
  GameState s = skill_battle();
  const uint8_t shield = give(s, kHarkonnen, TreacheryKind::Shield, 2);  // not the lowest id of the Shields
  auto parsed = [&](const char* json, Faction f) {
    std::string resolved, err;
    const bool ok = names::resolve_action_json(json, names::Context{&s, s.seat_of(f)}, &resolved, &err);
    INFO(json << ": " << err);
    REQUIRE(ok);
    Action a;
    REQUIRE(codec::parse_action_json(resolved, &a, nullptr, &err));
    return a;
  };
  const auto q = parsed(R"({"action_type": "MentatQuestion", "action": {"weapon": "Lasgun"}})", kAtreides);
  REQUIRE(q.is<action::MentatQuestion>());
  CHECK(data::treachery_card(q.as<action::MentatQuestion>().weapon).kind == TreacheryKind::Lasgun);
  // A question names a kind: any copy, none held.
  const auto k = parsed(R"({"action_type": "MentatQuestion", "action": {"weapon": "Shield"}})", kAtreides);
  CHECK(data::treachery_card(k.as<action::MentatQuestion>().weapon).kind == TreacheryKind::Shield);
  // An answer names the seat's own copy.
  const auto m = parsed(R"({"action_type": "MentatAnswer", "action": {"card": "Shield"}})", kHarkonnen);
  REQUIRE(m.is<action::MentatAnswer>());
  CHECK(m.as<action::MentatAnswer>().card == shield);
  const auto d = parsed(R"({"action_type": "DecipherTraitor", "action": {"take": "Piter de Vries", "give": "Umman Kudu"}})", kAtreides);
  REQUIRE(d.is<action::DecipherTraitor>());
  CHECK(d.as<action::DecipherTraitor>().take == kPiter);
  CHECK(d.as<action::DecipherTraitor>().give == L(kHarkonnen, 4));
  const auto b = parsed(R"({"action_type": "SkillBehind", "action": {"leader": "Thufir Hawat"}})", kAtreides);
  REQUIRE(b.is<action::SkillBehind>());
  CHECK(b.as<action::SkillBehind>().leader == kThufir);
}

namespace {
// The Atreides, the Harkonnen (their Bureaucrat in front), the Guild and the
// Emperor on a cleared board, at the Atreides' shipment; 20 spice each.
GameState bureaucrat_game(bool advanced = false) {
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen, Faction::Guild, Faction::Emperor}, advanced, 7, Rulings::defaults(), skills_module()));
  clear_skills(s);
  set_skill(s, kRabban, LeaderSkill::Bureaucrat);
  for (Faction f : {kAtreides, kHarkonnen, Faction::Guild, Faction::Emperor}) set_spice(s, f, 20);
  pass_until_ship_or_move(s, kAtreides);
  return s;
}
bool bureaucracy_open(const GameState& s) { return s.window_depth > 0 && s.windows[s.window_depth - 1].kind == WindowKind::Bureaucracy; }
}  // namespace

TEST_CASE("Leader Skills: the Bureaucrat in front forces 2 of a payment of 5 or more between two others to the bank, once a phase",
          "[leader_skills][bureaucrat]") {
  SECTION("accepted: 2 of the Guild's income to the bank, then not again in the phase") {
    GameState s = bureaucrat_game();
    const int64_t bank = s.bank;
    act(s, kAtreides, ship(loc("Arrakeen"), 5));  // 5 spice to the Guild (2.06.04)
    REQUIRE(bureaucracy_open(s));
    CHECK(waiting_for(s) == rules::bit(s.seat_of(kHarkonnen)));
    CHECK(s.of(Faction::Guild).spice == 25);
    // Only the Bureaucrat's owner answers; nothing else meanwhile.
    CHECK(rejected(s, kAtreides, pass()).code == RejectCode::WrongPhase);
    CHECK(rejected(s, kHarkonnen, respond(true, 3)).code == RejectCode::Malformed);
    const auto v = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kAtreides)));
    REQUIRE(fb::GetView(v.data())->skill_bureaucracy());
    CHECK(fb::GetView(v.data())->skill_bureaucracy()->amount() == 5);
    check_projections(s);
    act(s, kHarkonnen, respond(true));
    CHECK_FALSE(bureaucracy_open(s));
    CHECK(s.of(Faction::Guild).spice == 23);
    CHECK(s.bank == bank + 2);
    CHECK(s.of(kAtreides).spice == 15);
    check_custody(s);
    // The game goes on where it was: the Atreides move.
    CHECK(waiting_for(s) == rules::bit(s.seat_of(kAtreides)));
    act(s, kAtreides, pass());
    pass_until_ship_or_move(s, Faction::Emperor);
    act(s, Faction::Emperor, ship(loc("Carthag"), 6));  // a second payment of the phase: the band is used
    CHECK_FALSE(bureaucracy_open(s));
    CHECK(s.of(Faction::Guild).spice == 29);
  }
  SECTION("declined: nothing taken, asked again at the next payment of the phase") {
    GameState s = bureaucrat_game();
    act(s, kAtreides, ship(loc("Arrakeen"), 5));
    REQUIRE(bureaucracy_open(s));
    act(s, kHarkonnen, respond(false));
    CHECK(s.of(Faction::Guild).spice == 25);
    act(s, kAtreides, pass());
    pass_until_ship_or_move(s, Faction::Emperor);
    act(s, Faction::Emperor, ship(loc("Carthag"), 6));
    REQUIRE(bureaucracy_open(s));
    act(s, kHarkonnen, respond(true));
    CHECK(s.of(Faction::Guild).spice == 31 - 2);
  }
  SECTION("not a payment the band sees: 4 spice, its owner's own, a gift") {
    GameState s = bureaucrat_game();
    act(s, kAtreides, ship(loc("Arrakeen"), 4));
    CHECK_FALSE(bureaucracy_open(s));
    ally(s, Faction::Emperor, kAtreides);
    act(s, Faction::Emperor, action::GiveSpice{.to = static_cast<uint8_t>(kAtreides), .amount = 6});  // 2.03.06: a gift, no payment
    CHECK_FALSE(bureaucracy_open(s));
    CHECK(s.of(kAtreides).spice == 16 + 6);
  }
  SECTION("its owner's own payment: no window") {
    GameState s = bureaucrat_game();
    set_skill(s, kThufir, LeaderSkill::Bureaucrat);  // the Atreides' now
    act(s, kAtreides, ship(loc("Arrakeen"), 5));
    CHECK_FALSE(bureaucracy_open(s));
    CHECK(s.of(Faction::Guild).spice == 25);
  }
  SECTION("no Bureaucrat in front (dead): no window") {
    GameState s = bureaucrat_game();
    s.leaders[kRabban].zone = LeaderZone::Tanks;
    act(s, kAtreides, ship(loc("Arrakeen"), 5));
    CHECK_FALSE(bureaucracy_open(s));
  }
}

TEST_CASE("Leader Skills: the Bureaucrat's 2 come back from the bank when the Guild cancels the shipment (1.14.05)",
          "[leader_skills][bureaucrat][karama]") {
  GameState s = bureaucrat_game(true);  // the Guild's Karama power: an advanced rule
  const uint8_t karama = give_another(s, Faction::Guild, TreacheryKind::Karama);
  set_spice(s, Faction::Guild, 0);
  const int64_t bank = s.bank;
  act(s, kAtreides, ship(loc("Arrakeen"), 5));
  REQUIRE(bureaucracy_open(s));
  act(s, kHarkonnen, respond(true));
  CHECK(s.of(Faction::Guild).spice == 3);
  // The Guild cancels: the Atreides get back all 5 (3 from the Guild, the Bureaucrat's 2 from the bank).
  act(s, Faction::Guild, play(karama, 0, static_cast<uint8_t>(kAtreides)));
  CHECK(s.of(kAtreides).spice == 20);
  CHECK(s.of(Faction::Guild).spice == 0);
  CHECK(s.bank == bank);
  CHECK_FALSE(bureaucracy_open(s));
  check_custody(s);
}

TEST_CASE("Leader Skills: bots answer the Bureaucrat's window from their view, never against their ally", "[leader_skills][bots][bureaucrat]") {
  for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    for (bool allied : {false, true}) {
      GameState s = bureaucrat_game();
      if (allied) ally(s, kHarkonnen, Faction::Guild);
      act(s, kAtreides, ship(loc("Arrakeen"), 5));
      REQUIRE(bureaucracy_open(s));
      const auto in = bots::make_input(s, s.seat_of(kHarkonnen));
      const Action a = bots::make_bot(profile, 5)->choose(in);
      REQUIRE(bots::is_valid_choice(in, a));
      REQUIRE(a.is<action::Respond>());
      if (profile != bots::Profile::Easy) CHECK(a.as<action::Respond>().accept == !allied);
    }
  }
}

namespace {
// The Atreides and the Harkonnen in the turn-1 Revival phase, no skill assigned,
// Duncan in the tanks (every Atreides leader has died once), 20 spice each;
// `adjust` changes the position first.
GameState at_revival(const std::function<void(GameState&)>& adjust) {
  GameState s = game({kAtreides, kHarkonnen}, false, 7, Rulings::defaults(), skills_module());
  play_until(s, Phase::Storm, 1);
  clear_skills(s);
  s.leaders[kDuncan].zone = LeaderZone::Tanks;
  for (int i = 0; i < 5; ++i) s.leaders[L(kAtreides, i)].died_once = 1;  // 1.05.03: every leader has died once
  for (Faction f : {kAtreides, kHarkonnen}) set_spice(s, f, 20);
  adjust(s);
  play_until(s, Phase::Revival);
  REQUIRE(s.phase == Phase::Revival);
  return s;
}
}  // namespace

TEST_CASE("Leader Skills: a faction without a skilled leader reviving a leader may draw two skill cards and assigns one to it",
          "[leader_skills][revival]") {
  GameState s = at_revival([](GameState&) {});
  const int deck = s.skills.deck.n;
  act(s, kAtreides, revive(0, 0, kDuncan));
  auto& hand = s.skills.hand[static_cast<int>(kAtreides)];
  // First the choice (the rule's "may"): draw, or no skill.
  CHECK(hand.empty());
  CHECK(s.skills.deck.n == deck);
  CHECK(waiting(s, kAtreides));
  CHECK(rejected(s, kAtreides, revive(1)).code == RejectCode::WrongPhase);
  {
    const auto acts = legal_actions(s, s.seat_of(kAtreides));
    REQUIRE(acts.size() == 2);
    CHECK(std::count_if(acts.begin(), acts.end(), [](const Action& a) { return a.is<action::Respond>() && a.as<action::Respond>().accept; }) == 1);
    CHECK(std::count_if(acts.begin(), acts.end(), [](const Action& a) { return a.is<action::Pass>(); }) == 1);
    for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {  // a skill is worth having
      const auto in = bots::make_input(s, s.seat_of(kAtreides));
      const Action a = bots::make_bot(profile, 2)->choose(in);
      REQUIRE(bots::is_valid_choice(in, a));
      CHECK((a.is<action::Respond>() && a.as<action::Respond>().accept));
    }
  }
  SECTION("declined: no skill, the deck untouched, the revival done") {
    act(s, kAtreides, pass());
    CHECK(hand.empty());
    CHECK(s.skills.deck.n == deck);
    CHECK(s.skills.assigned[kDuncan] == 0);
    CHECK(s.skills.revival_leader1[static_cast<int>(kAtreides)] == 0);
    CHECK_FALSE((s.phase == Phase::Revival && waiting(s, kAtreides)));
    check_custody(s);
    return;
  }
  act(s, kAtreides, respond(true));
  REQUIRE(hand.n == 2);
  CHECK(s.skills.deck.n == deck - 2);
  CHECK(waiting(s, kAtreides));  // its revival is not done
  CHECK(rejected(s, kAtreides, revive(1)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, kAtreides, action::AssignSkill{.skill = hand.ids[0], .leader = kThufir}).code == RejectCode::IllegalChoice);
  uint8_t other = 0;
  while (hand.contains(other)) ++other;
  CHECK(rejected(s, kAtreides, action::AssignSkill{.skill = other, .leader = kDuncan}).code == RejectCode::IllegalChoice);
  for (const auto& a : legal_actions(s, s.seat_of(kAtreides))) {
    const auto* as = a.get_if<action::AssignSkill>();
    REQUIRE(as);
    CHECK(as->leader == kDuncan);
  }
  check_projections(s);  // the two cards are the Atreides' secret
  {
    const auto theirs = inspect::build_view(s, inspect::Viewer::of(s.seat_of(kHarkonnen)));
    CHECK_FALSE(fb::GetView(theirs.data())->skill_hand());
  }
  check_custody(s);
  const uint8_t k = hand.ids[1];
  act(s, kAtreides, action::AssignSkill{.skill = k, .leader = kDuncan});
  CHECK(s.skills.assigned[kDuncan] == k + 1);
  CHECK(s.skills.face_down[kDuncan] == 0);
  CHECK(hand.empty());
  CHECK(s.skills.deck.n == deck - 1);
  CHECK_FALSE((s.phase == Phase::Revival && waiting(s, kAtreides)));
  check_custody(s);

  SECTION("not with a skilled leader of its own, in its pool or captured") {
    for (bool captured : {false, true}) {
      GameState t = at_revival([&](GameState& x) {
        set_skill(x, kThufir, LeaderSkill::Warmaster);
        if (captured) x.leaders[kThufir].holder = static_cast<uint8_t>(kHarkonnen);
      });
      act(t, kAtreides, revive(0, 0, kDuncan));
      CHECK(t.skills.hand[static_cast<int>(kAtreides)].empty());
      CHECK(t.skills.assigned[kDuncan] == 0);
      CHECK_FALSE((t.phase == Phase::Revival && waiting(t, kAtreides)));
    }
  }
}

namespace {
// Turn 1's Bidding, no skills assigned, Duncan in the tanks and a Tleilaxu Ghola in the Atreides hand.
GameState ghola_ready(uint8_t& ghola, bool module = true) {
  GameState s = game({kAtreides, kHarkonnen}, false, 7, Rulings::defaults(), module ? skills_module() : data::ModuleSet{});
  play_until(s, Phase::Bidding, 1);
  if (module) clear_skills(s);
  s.leaders[kDuncan].zone = LeaderZone::Tanks;
  ghola = give_another(s, kAtreides, TreacheryKind::TleilaxuGhola);
  return s;
}
}  // namespace

TEST_CASE("Leader Skills: a leader revived by the Tleilaxu Ghola may draw two skill cards at once, in a window, and the game resumes where it was",
          "[leader_skills][revival][cards]") {
  uint8_t ghola = kNone8;
  GameState s = ghola_ready(ghola);
  const uint8_t before = waiting_for(s);
  const int deck = s.skills.deck.n;
  auto& hand = s.skills.hand[static_cast<int>(kAtreides)];
  act(s, kAtreides, play(ghola, 0, kDuncan));
  REQUIRE(s.leaders[kDuncan].zone == LeaderZone::Pool);
  // The offer interrupts the Bidding: only the Atreides answer, Respond (draw) or not.
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].kind == WindowKind::SkillRevival);
  CHECK(waiting_for(s) == rules::bit(seat(s, kAtreides)));
  CHECK(hand.empty());
  CHECK(rejected(s, kHarkonnen, respond(true)).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, kAtreides, action::Bid{.amount = 1}).code == RejectCode::WrongPhase);
  CHECK(rejected(s, kAtreides, respond(true, 3)).code == RejectCode::Malformed);
  {
    const auto acts = legal_actions(s, s.seat_of(kAtreides));
    REQUIRE(acts.size() == 2);
    for (const auto& a : acts) CHECK(a.is<action::Respond>());
    for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
      const auto in = bots::make_input(s, s.seat_of(kAtreides));
      const Action a = bots::make_bot(profile, 2)->choose(in);
      REQUIRE(bots::is_valid_choice(in, a));
      if (profile != bots::Profile::Easy) CHECK((a.is<action::Respond>() && a.as<action::Respond>().accept));
    }
  }
  SECTION("declined: no skill, the deck untouched, the Bidding resumes") {
    act(s, kAtreides, respond(false));
    CHECK(s.window_depth == 0);
    CHECK(hand.empty());
    CHECK(s.skills.deck.n == deck);
    CHECK(s.skills.assigned[kDuncan] == 0);
    CHECK(s.skills.revival_leader1[static_cast<int>(kAtreides)] == 0);
    CHECK(waiting_for(s) == before);
    check_custody(s);
    return;
  }
  act(s, kAtreides, respond(true));
  REQUIRE(hand.n == 2);
  CHECK(s.skills.deck.n == deck - 2);
  REQUIRE(s.window_depth == 1);
  CHECK(waiting_for(s) == rules::bit(seat(s, kAtreides)));
  CHECK(rejected(s, kAtreides, respond(true)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, kAtreides, action::AssignSkill{.skill = hand.ids[0], .leader = kThufir}).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kHarkonnen, action::AssignSkill{.skill = hand.ids[0], .leader = kDuncan}).code == RejectCode::NotYourDecision);
  uint8_t other = 0;
  while (hand.contains(other)) ++other;
  CHECK(rejected(s, kAtreides, action::AssignSkill{.skill = other, .leader = kDuncan}).code == RejectCode::IllegalChoice);
  const auto acts = legal_actions(s, s.seat_of(kAtreides));
  REQUIRE(acts.size() == 2);
  for (const auto& a : acts) {
    const auto* as = a.get_if<action::AssignSkill>();
    REQUIRE(as);
    CHECK(as->leader == kDuncan);
  }
  for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    const auto in = bots::make_input(s, s.seat_of(kAtreides));
    const Action a = bots::make_bot(profile, 2)->choose(in);
    REQUIRE(bots::is_valid_choice(in, a));
    CHECK(a.is<action::AssignSkill>());
  }
  check_projections(s);  // the two cards are the Atreides' secret
  check_custody(s);
  const uint8_t k = hand.ids[1];
  const GameState open = s;
  act(s, kAtreides, action::AssignSkill{.skill = k, .leader = kDuncan});
  CHECK(s.skills.assigned[kDuncan] == k + 1);
  CHECK(s.skills.face_down[kDuncan] == 0);
  CHECK(hand.empty());
  CHECK(s.skills.deck.n == deck - 1);
  CHECK(s.window_depth == 0);
  {  // the log shows the skill to everyone: it is face up at once
    codec::Event e;
    e.seat = open.seat_of(kAtreides);
    e.action = action::AssignSkill{.skill = k, .leader = kDuncan};
    CHECK_THAT(inspect::summarize_event(e, &open, s, false), Catch::Contains(std::string(data::leader_skill_name(k)) + " (face up)"));
  }
  CHECK(waiting_for(s) == before);  // the Bidding goes on exactly where the card was played
  CHECK(s.phase == Phase::Bidding);
  check_custody(s);
}

TEST_CASE("Leader Skills: no skill offer for a Ghola's leader with a skilled leader of its own, or without the module",
          "[leader_skills][revival][cards]") {
  for (bool module : {true, false}) {
    INFO(module);
    uint8_t ghola = kNone8;
    GameState s = ghola_ready(ghola, module);
    if (module) set_skill(s, kThufir, LeaderSkill::Warmaster);
    const uint8_t before = waiting_for(s);
    act(s, kAtreides, play(ghola, 0, kDuncan));
    CHECK(s.leaders[kDuncan].zone == LeaderZone::Pool);
    CHECK(s.window_depth == 0);
    CHECK(s.skills.hand[static_cast<int>(kAtreides)].empty());
    CHECK(s.skills.assigned[kDuncan] == 0);
    CHECK(waiting_for(s) == before);
  }
}

TEST_CASE("Leader Skills: a leader revived by the Emperor's Karama power is offered a skill too, and the Revival phase resumes", "[leader_skills][revival][karama]") {
  GameState s = game({Faction::Emperor, kAtreides}, true, 7, Rulings::defaults(), skills_module());
  play_until(s, Phase::Bidding, 1);
  clear_skills(s);
  const LeaderId dead = L(Faction::Emperor, 0);
  s.leaders[dead].zone = LeaderZone::Tanks;
  auto& emperor = s.of(Faction::Emperor);  // two forces in the tanks: the phase asks the Emperor
  emperor.reserves[0] = static_cast<uint8_t>(emperor.reserves[0] - 2);
  emperor.tanks[0] = static_cast<uint8_t>(emperor.tanks[0] + 2);
  const uint8_t karama = give_another(s, Faction::Emperor, TreacheryKind::Karama);
  play_until(s, Phase::Revival, 1);
  const uint8_t before = waiting_for(s);
  const int deck = s.skills.deck.n;
  act(s, Faction::Emperor, play(karama, 0, dead));
  REQUIRE(s.leaders[dead].zone == LeaderZone::Pool);
  CHECK(s.of(Faction::Emperor).karama_power_used == 1);
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].kind == WindowKind::SkillRevival);
  CHECK(waiting_for(s) == rules::bit(seat(s, Faction::Emperor)));
  act(s, Faction::Emperor, respond(true));
  const auto& hand = s.skills.hand[static_cast<int>(Faction::Emperor)];
  REQUIRE(hand.n == 2);
  const uint8_t k = hand.ids[0];
  act(s, Faction::Emperor, action::AssignSkill{.skill = k, .leader = dead});
  CHECK(s.skills.assigned[dead] == k + 1);
  CHECK(s.skills.face_down[dead] == 0);
  CHECK(s.skills.deck.n == deck - 1);
  CHECK(s.window_depth == 0);
  CHECK(s.phase == Phase::Revival);
  CHECK(waiting_for(s) == before);
  check_custody(s);
}

TEST_CASE("Leader Skills: bots count the opponent's face-up skill in its leader's strength", "[leader_skills][bots]") {
  // Brutal's dial follows its expected totals; in this position hard's is the most it can (a loss costs every
  // force there anyway: the test below shows its plan changing elsewhere) and medium counts forces only.
  for (auto profile : {bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    auto dial_against = [&](bool skilled) {
      GameState s = skill_battle(Rulings::defaults(), false, "Tuek's Sietch");  // a stronghold worth fighting for
      for (int i = 0; i < 5; ++i)
        if (L(kHarkonnen, i) != kPiter) s.leaders[L(kHarkonnen, i)].zone = LeaderZone::Tanks;  // Piter (3) is their only leader
      if (skilled) set_skill(s, kPiter, LeaderSkill::Mentat);                              // face up: 3 + 2
      place(s, kAtreides, loc("Tuek's Sietch"), 7);  // 12 against 2: how much to dial is a choice
      s.forces_at(kHarkonnen, loc("Tuek's Sietch"), 0) = 2;
      s.of(kHarkonnen).reserves[0] = static_cast<uint8_t>(s.of(kHarkonnen).reserves[0] + 3);
      to_plans(s);
      const auto in = bots::make_input(s, s.seat_of(kAtreides));
      const Action a = bots::make_bot(profile, 5)->choose(in);
      REQUIRE(bots::is_valid_choice(in, a));
      REQUIRE(a.is<action::BattlePlan>());
      return static_cast<int>(a.as<action::BattlePlan>().dial);
    };
    const int without = dial_against(false), with = dial_against(true);
    INFO("dial " << without << " against Piter, " << with << " against Piter the Mentat");
    CHECK(with > without);
  }
}

TEST_CASE("Leader Skills: hard's plan changes with the opponent's face-up skill (its win estimate counts it)", "[leader_skills][bots]") {
  // 10 of its forces against 2 and Piter (3) on open sand: against a plain Piter hard spends nothing (a
  // likely win as it reckons); against Piter the Mentat (3 + 2, face up) it dials to win.
  auto plan_against = [&](bool skilled) {
    GameState s = skill_battle(Rulings::defaults(), false, "The Great Flat");
    for (int i = 0; i < 5; ++i)
      if (L(kHarkonnen, i) != kPiter) s.leaders[L(kHarkonnen, i)].zone = LeaderZone::Tanks;  // Piter is their only leader
    if (skilled) set_skill(s, kPiter, LeaderSkill::Mentat);
    place(s, kAtreides, loc("The Great Flat"), 10);
    s.forces_at(kHarkonnen, loc("The Great Flat"), 0) = 2;
    s.of(kHarkonnen).reserves[0] = static_cast<uint8_t>(s.of(kHarkonnen).reserves[0] + 3);
    to_plans(s);
    const auto in = bots::make_input(s, s.seat_of(kAtreides));
    const Action a = bots::make_bot(bots::Profile::Hard, 5)->choose(in);
    REQUIRE(bots::is_valid_choice(in, a));
    REQUIRE(a.is<action::BattlePlan>());
    return a.as<action::BattlePlan>();
  };
  const auto without = plan_against(false), with = plan_against(true);
  INFO("dial " << int(without.dial) << " against Piter, " << int(with.dial) << " against Piter the Mentat");
  CHECK(with.dial > without.dial);
}

TEST_CASE("Leader Skills: ruling bureaucrat_choam_income, CHOAM's half of a battle's spice is a payment the Bureaucrat may tax, or not",
          "[leader_skills][bureaucrat][choam][rulings]") {
  for (const char* reading : {"not_a_payment", "paid_by_the_battler"}) {
    INFO(reading);
    const bool taxed = std::string(reading) == "paid_by_the_battler";
    const auto modules = static_cast<data::ModuleSet>(data::module_bit(data::Module::ChoamRichese) | data::module_bit(data::Module::LeaderSkills));
    GameState s = cleared_board_of(
        game({kAtreides, kHarkonnen, Faction::Choam, Faction::Emperor}, true, 7, scenario::ruling("bureaucrat_choam_income", reading), modules));
    clear_skills(s);
    set_skill(s, L(Faction::Emperor, 0), LeaderSkill::Bureaucrat);  // in front of the Emperor's shield
    place(s, kAtreides, loc("The Great Flat"), 12);
    place(s, kHarkonnen, loc("The Great Flat"), 12);
    for (Faction f : {kAtreides, kHarkonnen, Faction::Choam, Faction::Emperor}) set_spice(s, f, 20);
    to_plans(s);
    act(s, kAtreides, plan(kThufir, 10, kNone8, kNone8, kNone8, 10));  // 10 spice paid: CHOAM takes 5 from the bank
    act(s, kHarkonnen, plan(L(kHarkonnen, 0), 1));
    decline_traitors(s);
    if (!taxed) {
      CHECK_FALSE(bureaucracy_open(s));
      CHECK(s.of(Faction::Choam).spice == 25);
      continue;
    }
    REQUIRE(bureaucracy_open(s));
    CHECK(waiting_for(s) == rules::bit(s.seat_of(Faction::Emperor)));
    const auto v = inspect::build_view(s, inspect::Viewer::of(s.seat_of(Faction::Emperor)));
    REQUIRE(fb::GetView(v.data())->skill_bureaucracy());
    CHECK(fb::GetView(v.data())->skill_bureaucracy()->amount() == 5);
    CHECK(fb::GetView(v.data())->skill_bureaucracy()->payer()->str() == "atreides");
    act(s, Faction::Emperor, respond(true));
    CHECK_FALSE(bureaucracy_open(s));
    CHECK(s.of(Faction::Choam).spice == 23);
    check_custody(s);
  }
}

TEST_CASE("Leader Skills: the bluff, a skilled leader's card moved behind the shield before the plan stops its front band for that battle",
          "[leader_skills][battle]") {
  // Thufir the Warmaster in front gives Duncan (2) +1 with a worthless card: 3 against Piter's 3, the aggressor wins.
  auto duncan_wins = [&](bool bluff) {
    GameState s = skill_battle();
    set_skill(s, kThufir, LeaderSkill::Warmaster);
    const uint8_t card = give(s, kAtreides, TreacheryKind::Baliset);
    const uint8_t stop = give(s, kHarkonnen, TreacheryKind::Shield, 1);
    to_plans(s);
    const auto behind = action::SkillBehind{.leader = kThufir};
    {
      const auto acts = legal_actions(s, s.seat_of(kAtreides));
      CHECK(std::find(acts.begin(), acts.end(), Action(behind)) != acts.end());
      bool decided = false;
      for (const auto& d : decisions(s, s.seat_of(kAtreides))) decided |= d.kind == ActionKind::SkillBehind;
      CHECK(decided);
      for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {  // they never bluff
        const auto in = bots::make_input(s, s.seat_of(kAtreides));
        const Action a = bots::make_bot(profile, 2)->choose(in);
        REQUIRE(bots::is_valid_choice(in, a));
        CHECK(a.is<action::BattlePlan>());
      }
    }
    CHECK(rejected(s, kHarkonnen, behind).code == RejectCode::IllegalChoice);  // not their leader
    CHECK(rejected(s, kAtreides, action::SkillBehind{.leader = kDuncan}).code == RejectCode::IllegalChoice);  // no skill card
    CHECK(rejected(s, kAtreides, action::SkillBehind{.leader = 200}).code == RejectCode::Malformed);
    if (bluff) {
      const GameState open = s;
      act(s, kAtreides, behind);
      CHECK(waiting(s, kAtreides));  // its plan is still to come
      CHECK_FALSE(rules::skill_in_front(s, kAtreides, LeaderSkill::Warmaster));
      CHECK(rejected(s, kAtreides, behind).code == RejectCode::IllegalChoice);  // once
      const std::string v = inspect::view_json(s, inspect::Viewer::of(s.seat_of(kHarkonnen)));
      CHECK_THAT(v, Catch::Contains("\"behind\": true"));
      codec::Event e;
      e.seat = open.seat_of(kAtreides);
      e.action = behind;
      CHECK_THAT(inspect::summarize_event(e, &open, s, false), Catch::Contains("moves Thufir Hawat's skill card (Warmaster) behind its shield"));
    }
    fight(s, plan(kDuncan, 0, card), plan(kPiter, 0, kNone8, stop));
    keep_all(s);
    CHECK(validate(s, s.seat_of(kAtreides), behind).has_value());  // no plan step now
    CHECK(rules::skill_in_front(s, kAtreides, LeaderSkill::Warmaster));  // back in front once the battle is over
    CHECK(s.skills.behind[static_cast<int>(kAtreides)] == 0);
    check_custody(s);
    return winner_in(s, "The Great Flat") == kAtreides;
  };
  CHECK(duncan_wins(false));
  CHECK_FALSE(duncan_wins(true));
  // Without the module: no such step.
  GameState base = cleared_board_of(game({kAtreides, kHarkonnen}, false, 7));
  place(base, kAtreides, loc("The Great Flat"), 5);
  place(base, kHarkonnen, loc("The Great Flat"), 5);
  to_plans(base);
  CHECK(rejected(base, kAtreides, action::SkillBehind{.leader = kThufir}).code == RejectCode::IllegalChoice);
}

TEST_CASE("Leader Skills: self-play under the other readings of the Planetologist's compositions ends with 0 rejected actions",
          "[leader_skills][selfplay][ruling]") {
  // planetologist_no_field = forces_only, planetologist_ornithopter = one_group, planetologist_mixed_gather = refused,
  // planetologist_exclusive = both: the bots' gathers stay legal under each (the Richese, the Bene Gesserit and the
  // Ornithopter in play).
  Rulings r = Rulings::defaults();
  r = ruling("planetologist_no_field", "forces_only", r);
  r = ruling("planetologist_ornithopter", "one_group", r);
  r = ruling("planetologist_mixed_gather", "refused", r);
  r = ruling("planetologist_exclusive", "both", r);
  int gathers = 0;
  const auto modules = static_cast<data::ModuleSet>(skills_module() | data::module_bit(data::Module::ChoamRichese));
  selfplay_sets({{Faction::Richese, Faction::BeneGesserit, kAtreides, Faction::Fremen, kHarkonnen, Faction::Choam}}, modules, 71, 81,
                [&](const GameState&, const bots::Step& st) {
                  if (const auto* m = st.action.get_if<action::Move>())
                    for (int i = 1; i < m->from.size(); ++i)
                      if (data::territory_of(m->from[i].location) != data::territory_of(m->from[0].location)) {
                        ++gathers;
                        break;
                      }
                },
                0b1, r);
  WARN("gathers " << gathers);
}
