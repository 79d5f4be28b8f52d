// Scenario tests of the faction Karama powers 1.14.01 (Atreides), 1.14.03
// (Fremen) and 1.14.05 (Spacing Guild), and of 3.01.11.02 (a Karama prevents
// the next use of a faction ability marked ✷): core/rules/cards.cpp with
// shipment_movement.cpp, spice_blow.cpp and battle_abilities.cpp.
#include <catch2/catch.hpp>

#include "core/rules/battle_abilities.h"
#include "core/rules/rules.h"
#include "inspect/projection.h"
#include "inspect/view.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;
using data::TreacheryKind;

namespace {

constexpr uint8_t kShipStep = 0, kMoveStep = 2, kGuildTimingStep = 3, kGuildKaramaStep = 6;
constexpr uint8_t kFremenKaramaStep = 4;  // spice_blow.cpp

void empty_hand(GameState& s, Faction f) {
  while (!s.of(f).hand.empty()) s.treachery_deck.push(s.of(f).hand.pop());
}

uint8_t fa(Faction f) { return static_cast<uint8_t>(f); }
int prevent(rules::Ability a) { return rules::kKaramaPrevent | static_cast<int>(a); }
bool waits(const GameState& s, Faction f) { return (waiting_for(s) >> s.seat_of(f)) & 1u; }

bool legal_has(const GameState& s, Faction f, const Action& want) {
  for (const auto& a : legal_actions(s, s.seat_of(f)))
    if (a == want) return true;
  return false;
}

// Passes (the Guild waits at its timing step) until `f` is asked to ship.
void pass_until_ship(GameState& s, Faction f) {
  for (int i = 0; i < 60; ++i) {
    REQUIRE(s.phase == Phase::ShipmentMovement);
    if (s.shipmove.current == s.seat_of(f) && s.step == kShipStep && waits(s, f)) return;
    const Seat who = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
    Action a = pass();
    if (s.step == kGuildTimingStep && s.faction_at(who) == Faction::Guild && f == Faction::Guild) {
      a = action::GuildTiming{.now = true};
    }
    act(s, s.faction_at(who), a);
  }
  FAIL("never reached " << faction_name(f));
}

GameState at_shipment(std::initializer_list<Faction> factions, bool advanced, Rulings r = Rulings::defaults()) {
  GameState s = game(factions, advanced, 7, r);
  play_until(s, Phase::ShipmentMovement, 1);
  return s;
}

}  // namespace

// ---- 1.14.05 Spacing Guild -------------------------------------------------------------------

TEST_CASE("1.14.05 Guild Karama power (karama_windows=none): cancels a shipment at the shipper's movement step, forces and spice come back",
          "[cards][karama]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild}, true);
  const LocationId arrakeen = loc("Arrakeen");
  const uint8_t karama = give_another(s, Faction::Guild, TreacheryKind::Karama);
  set_spice(s, Faction::Atreides, 10);
  set_spice(s, Faction::Guild, 5);
  pass_until_ship(s, Faction::Atreides);
  const int reserves = s.of(Faction::Atreides).reserves[0];
  const int on_board = s.forces_at(Faction::Atreides, arrakeen);
  // Nothing to cancel before the shipment.
  CHECK(rejected(s, Faction::Guild, play(karama, 0, fa(Faction::Atreides))).code == RejectCode::IllegalChoice);
  act(s, Faction::Atreides, ship(arrakeen, 3));  // 3 spice, to the Guild (2.06.04)
  REQUIRE(s.step == kMoveStep);
  CHECK(s.of(Faction::Guild).spice == 8);
  CHECK(s.shipmove.last_to == arrakeen);
  CHECK(legal_has(s, Faction::Guild, play(karama, 0, fa(Faction::Atreides))));
  check_legal(s);
  auto r = rejected(s, Faction::Guild, play(karama, 0, fa(Faction::Guild)));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("1.14.05"));

  SECTION("cancelled: no reshipment (ruling guild_karama_reship=no)") {
    act(s, Faction::Guild, play(karama, 0, fa(Faction::Atreides)));
    CHECK(s.of(Faction::Guild).karama_power_used == 1);
    CHECK(s.treachery_discard.top() == karama);
    CHECK(s.of(Faction::Atreides).reserves[0] == reserves);
    CHECK(s.forces_at(Faction::Atreides, arrakeen) == on_board);
    CHECK(s.of(Faction::Atreides).spice == 10);
    CHECK(s.of(Faction::Guild).spice == 5);
    CHECK(s.step == kMoveStep);
    CHECK(waits(s, Faction::Atreides));
    CHECK(rejected(s, Faction::Atreides, ship(arrakeen, 3)).code == RejectCode::WrongPhase);
    // Once per game.
    const uint8_t k2 = give_another(s, Faction::Guild, TreacheryKind::Karama);
    CHECK_THAT(rejected(s, Faction::Guild, play(k2, 0, fa(Faction::Atreides))).reason, Catch::Contains("1.14.00"));
  }
  SECTION("after the shipper moved it is too late") {
    act(s, Faction::Atreides, pass());
    CHECK(rejected(s, Faction::Guild, play(karama, 0, fa(Faction::Atreides))).code == RejectCode::IllegalChoice);
  }
}

TEST_CASE("1.14.05 ruling guild_karama_reship=yes: the shipper ships again after the cancellation", "[cards][karama][rulings]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild}, true, ruling("guild_karama_reship", "yes"));
  const LocationId arrakeen = loc("Arrakeen");
  const uint8_t karama = give_another(s, Faction::Guild, TreacheryKind::Karama);
  set_spice(s, Faction::Atreides, 10);
  pass_until_ship(s, Faction::Atreides);
  act(s, Faction::Atreides, ship(arrakeen, 3));
  act(s, Faction::Guild, play(karama, 0, fa(Faction::Atreides)));
  CHECK(s.step == kShipStep);
  CHECK(waits(s, Faction::Atreides));
  CHECK(s.of(Faction::Atreides).spice == 10);
  act(s, Faction::Atreides, ship(arrakeen, 2));
  CHECK(s.of(Faction::Atreides).spice == 8);
  CHECK(s.step == kMoveStep);
}

TEST_CASE("1.14.05 karama_windows=all_other_seats: the Guild is asked after each shipment from reserves, on public information only",
          "[cards][karama][rulings]") {
  const Rulings r = ruling("karama_windows", "all_other_seats");
  GameState s = at_shipment({Faction::Atreides, Faction::Guild}, true, r);
  const LocationId arrakeen = loc("Arrakeen");
  set_spice(s, Faction::Atreides, 10);
  SECTION("the Guild holds a Karama and cancels") {
    const uint8_t karama = give_another(s, Faction::Guild, TreacheryKind::Karama);
    pass_until_ship(s, Faction::Atreides);
    act(s, Faction::Atreides, ship(arrakeen, 3));
    REQUIRE(s.step == kGuildKaramaStep);
    CHECK(waiting_for(s) == rules::bit(s.seat_of(Faction::Guild)));
    CHECK(s.forces_at(Faction::Atreides, arrakeen) >= 3);  // announced and made, still cancellable
    check_legal(s);
    CHECK(legal_has(s, Faction::Guild, play(karama, 0, fa(Faction::Atreides))));
    CHECK(rejected(s, Faction::Atreides, make(ActionKind::Move)).code == RejectCode::NotYourDecision);
    CHECK(rejected(s, Faction::Guild, ship(arrakeen, 1)).code == RejectCode::WrongPhase);
    act(s, Faction::Guild, play(karama, 0, fa(Faction::Atreides)));
    CHECK(s.step == kMoveStep);
    CHECK(s.of(Faction::Atreides).spice == 10);
  }
  SECTION("the Guild holds no Karama: asked all the same (nothing leaks), it passes") {
    empty_hand(s, Faction::Guild);
    give_another(s, Faction::Guild, TreacheryKind::Lasgun);
    pass_until_ship(s, Faction::Atreides);
    act(s, Faction::Atreides, ship(arrakeen, 3));
    REQUIRE(s.step == kGuildKaramaStep);
    REQUIRE(legal_actions(s, s.seat_of(Faction::Guild)).size() == 1);
    act(s, Faction::Guild, pass());
    CHECK(s.step == kMoveStep);
    CHECK(s.of(Faction::Atreides).spice == 7);
    for (Seat x = 0; x < s.num_seats; ++x) CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::of(x)).has_value());
  }
  SECTION("the Guild holds no card at all: not asked") {
    empty_hand(s, Faction::Guild);
    pass_until_ship(s, Faction::Atreides);
    act(s, Faction::Atreides, ship(arrakeen, 3));
    CHECK(s.step == kMoveStep);
  }
  SECTION("basic game: no Guild Karama power, no question") {
    GameState b = at_shipment({Faction::Atreides, Faction::Guild}, false, r);
    const uint8_t karama = give_another(b, Faction::Guild, TreacheryKind::Karama);
    pass_until_ship(b, Faction::Atreides);
    act(b, Faction::Atreides, ship(arrakeen, 1));
    CHECK(b.step == kMoveStep);
    CHECK_THAT(rejected(b, Faction::Guild, play(karama, 0, fa(Faction::Atreides))).reason, Catch::Contains("1.13.06"));
  }
}

// ---- 1.14.03 Fremen ----------------------------------------------------------------------------

TEST_CASE("1.14.03 Fremen Karama sandworm (karama_windows=all_other_seats): asked at the end of the blow, devours, causes a Nexus",
          "[cards][karama][rulings]") {
  GameState s = game({Faction::Fremen, Faction::Atreides}, true, 7, ruling("karama_windows", "all_other_seats"));
  const uint8_t karama = give_another(s, Faction::Fremen, TreacheryKind::Karama);
  const LocationId plain = loc("Funeral Plain");
  // Not on turn 1.
  play_until(s, Phase::Bidding, 1);
  CHECK(rejected(s, Faction::Fremen, play(karama, 0, plain)).code == RejectCode::WrongPhase);
  // The advanced Fremen storm card moves the storm unasked: the turn-2 blow is the next stop.
  for (int i = 0; i < 400 && !(s.phase == Phase::SpiceBlow && s.step == kFremenKaramaStep); ++i) {
    REQUIRE(s.turn <= 2);
    play_step(s);
  }
  REQUIRE(s.phase == Phase::SpiceBlow);
  REQUIRE(s.step == kFremenKaramaStep);
  CHECK(s.turn == 2);
  CHECK(waiting_for(s) == rules::bit(s.seat_of(Faction::Fremen)));
  check_legal(s);
  CHECK(legal_has(s, Faction::Fremen, play(karama, rules::kKaramaProtectAlly, plain)));
  CHECK(rejected(s, Faction::Fremen, play(karama, 0, loc("Arrakeen"))).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, pass()).code == RejectCode::NotYourDecision);
  if (s.of(Faction::Atreides).reserves[0] >= 4) place(s, Faction::Atreides, plain, 4);
  const int atreides_there = s.forces_at(Faction::Atreides, plain);
  REQUIRE(atreides_there > 0);
  const int tanks = s.of(Faction::Atreides).tanks[0];
  SECTION("placed: devours, Nexus") {
    act(s, Faction::Fremen, play(karama, 0, plain));
    CHECK(s.of(Faction::Fremen).karama_power_used == 1);
    CHECK(s.treachery_discard.top() == karama);
    CHECK(s.forces_at(Faction::Atreides, plain) == 0);
    CHECK(s.of(Faction::Atreides).tanks[0] == tanks + atreides_there);
    CHECK(s.phase == Phase::Nexus);
  }
  SECTION("passed: the phase goes on, not asked again this turn") {
    act(s, Faction::Fremen, pass());
    CHECK(s.phase != Phase::SpiceBlow);
    CHECK(s.forces_at(Faction::Atreides, plain) == atreides_there);
  }
}

TEST_CASE("1.14.03 default karama_windows=none: nobody is asked in the blow, the worm may be placed during a Nexus", "[cards][karama]") {
  GameState s = game({Faction::Fremen, Faction::Atreides}, true, 7);
  const uint8_t karama = give_another(s, Faction::Fremen, TreacheryKind::Karama);
  play_until(s, Phase::Bidding, 1);
  bool nexus = false;
  for (int i = 0; i < 400 && !(s.phase == Phase::Bidding && s.turn == 2); ++i) {
    CHECK_FALSE((s.phase == Phase::SpiceBlow && s.step == kFremenKaramaStep));
    if (s.phase == Phase::Nexus && s.waiting) {
      nexus = true;
      act(s, Faction::Fremen, play(karama, 0, loc("Funeral Plain")));
      CHECK(s.of(Faction::Fremen).karama_power_used == 1);
      CHECK(s.phase == Phase::Nexus);
      break;
    }
    play_step(s);
  }
  if (!nexus) {
    REQUIRE(s.phase == Phase::Bidding);
    auto r = rejected(s, Faction::Fremen, play(karama, 0, loc("Funeral Plain")));
    CHECK(r.code == RejectCode::WrongPhase);
    CHECK_THAT(r.reason, Catch::Contains("1.14.03"));
  }
}

// ---- 1.14.01 Atreides --------------------------------------------------------------------------

namespace {
const LocationId kFlat = 70;  // The Great Flat

// Turn 1 shipment, board cleared, both factions in The Great Flat, Battle phase entered.
GameState battle_position(std::initializer_list<Faction> factions, Faction a, Faction b, Rulings r = Rulings::defaults()) {
  GameState s = game(factions, true, 7, r);
  play_until(s, Phase::ShipmentMovement);
  for (const Faction f : factions_in(s)) {
    forces_to_reserves(s, f);
    empty_hand(s, f);
    s.of(f).ally = kNoFaction;
  }
  s.storm_sector = 17;
  place(s, a, kFlat, 5);
  place(s, b, kFlat, 5);
  return s;
}
void enter_battle(GameState& s) {
  rules::Ctx c{s, nullptr};
  rules::enter_phase(c, Phase::Battle);
}
}  // namespace

TEST_CASE("1.14.01 Atreides Karama power: sees the whole battle plan of one side, only the Atreides", "[cards][karama][battle]") {
  GameState s = battle_position({Faction::Atreides, Faction::Harkonnen, Faction::Emperor}, Faction::Harkonnen, Faction::Emperor);
  const uint8_t karama = give_another(s, Faction::Atreides, TreacheryKind::Karama);
  CHECK(rejected(s, Faction::Atreides, play(karama, 0, fa(Faction::Harkonnen))).code == RejectCode::WrongPhase);
  enter_battle(s);
  REQUIRE(s.phase == Phase::Battle);
  // The aggressor picks the battle first (one option) or the plans step is reached.
  for (int i = 0; i < 5 && s.step != 1; ++i) play_step(s);
  REQUIRE(s.step == 1);
  check_legal(s);
  CHECK(rejected(s, Faction::Atreides, play(karama, 0, fa(Faction::Atreides))).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, play(karama, 0, fa(Faction::Fremen))).code == RejectCode::IllegalChoice);
  act(s, Faction::Atreides, play(karama, 0, fa(Faction::Emperor)));
  CHECK(s.of(Faction::Atreides).karama_power_used == 1);
  const int side = s.seat_of(Faction::Emperor) == s.battle.aggressor ? 0 : 1;
  CHECK(s.battle.karama_seen == side + 1);
  // The Emperor's plan, once in, is in the Atreides view only.
  const Seat emp = s.seat_of(Faction::Emperor);
  std::vector<Action> plans;
  for (const auto& a : legal_actions(s, emp))
    if (a.kind() == ActionKind::BattlePlan) plans.push_back(a);
  REQUIRE_FALSE(plans.empty());
  act(s, Faction::Emperor, plans.front());
  const auto atreides_view = inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Atreides)));
  const auto harkonnen_view = inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Harkonnen)));
  const char* key = side == 0 ? "aggressor_plan" : "defender_plan";
  CHECK_THAT(atreides_view, Catch::Contains(key));
  CHECK_THAT(harkonnen_view, !Catch::Contains(key));
  for (Seat x = 0; x < s.num_seats; ++x) CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::of(x)).has_value());
  const uint8_t k2 = give_another(s, Faction::Atreides, TreacheryKind::Karama);
  CHECK(rejected(s, Faction::Atreides, play(k2, 0, fa(Faction::Harkonnen))).code == RejectCode::IllegalChoice);
}

// ---- 3.01.11.02 prevention ---------------------------------------------------------------------

TEST_CASE("3.01.11.02 1.00.02 a Karama prevents the Guild's next half-price shipment, then the ability is back", "[cards][karama]") {
  GameState s = at_shipment({Faction::Guild, Faction::Atreides}, false);
  const uint8_t karama = give_another(s, Faction::Atreides, TreacheryKind::Karama);
  set_spice(s, Faction::Guild, 20);
  const int64_t bank0 = s.bank;
  (void)bank0;
  // Rejections: own ability, a faction without it, unknown ability.
  CHECK(rejected(s, Faction::Atreides, play(karama, prevent(rules::Ability::AtreidesPrescience), fa(Faction::Atreides))).code ==
        RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, play(karama, prevent(rules::Ability::FremenMovement), fa(Faction::Guild))).code ==
        RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, play(karama, rules::kKaramaPrevent | 60, fa(Faction::Guild))).code == RejectCode::Malformed);
  CHECK(legal_has(s, Faction::Atreides, play(karama, prevent(rules::Ability::GuildHalfPrice), fa(Faction::Guild))));
  const std::string half_price = std::string(rules::ability_info(rules::Ability::GuildHalfPrice)->rule) + " " +
                                 rules::ability_info(rules::Ability::GuildHalfPrice)->name;
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::observer()), !Catch::Contains("karama_prevented"));
  act(s, Faction::Atreides, play(karama, prevent(rules::Ability::GuildHalfPrice), fa(Faction::Guild)));
  CHECK(s.treachery_discard.top() == karama);
  // The prevention is public: every seat and observers see it waiting (views).
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::observer()), Catch::Contains(half_price));
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Guild))), Catch::Contains("karama_prevented"));
  const uint8_t k2 = give_another(s, Faction::Atreides, TreacheryKind::Karama);
  CHECK(rejected(s, Faction::Atreides, play(k2, prevent(rules::Ability::GuildHalfPrice), fa(Faction::Guild))).code ==
        RejectCode::IllegalChoice);  // already prevented
  pass_until_ship(s, Faction::Guild);
  // Cross-shipping is not prevented; the half price is: 4 forces to the Polar Sink cost 8.
  act(s, Faction::Guild, ship(data::polar_sink(), 4));
  CHECK(s.of(Faction::Guild).spice == 12);
  CHECK(s.prevented[static_cast<int>(Faction::Guild)] == 0);  // consumed
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::observer()), !Catch::Contains("karama_prevented"));
}

TEST_CASE("3.01.11.02 a prevented cross-shipment is rejected with its reason, the plain shipment stays legal", "[cards][karama]") {
  GameState s = at_shipment({Faction::Guild, Faction::Atreides}, false);
  const uint8_t karama = give_another(s, Faction::Atreides, TreacheryKind::Karama);
  set_spice(s, Faction::Guild, 20);
  act(s, Faction::Atreides, play(karama, prevent(rules::Ability::GuildCrossShip), fa(Faction::Guild)));
  pass_until_ship(s, Faction::Guild);
  LocationId from = kNone8;
  for (int l = 0; l < data::kNumLocations && from == kNone8; ++l)
    if (s.forces_at(Faction::Guild, static_cast<LocationId>(l)) > 0 && !s.in_storm(static_cast<LocationId>(l))) from = static_cast<LocationId>(l);
  REQUIRE(from != kNone8);
  action::Ship cross = ship(data::polar_sink(), 1);
  cross.from = from;
  auto r = rejected(s, Faction::Guild, cross);
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("3.01.11.02"));
  for (const auto& a : legal_actions(s, s.seat_of(Faction::Guild))) CHECK((a.kind() != ActionKind::Ship || a.as<action::Ship>().from == kNone8 || a.as<action::Ship>().to_reserves));
  act(s, Faction::Guild, ship(data::polar_sink(), 1));
  CHECK(s.prevented[static_cast<int>(Faction::Guild)] == 0);
}

TEST_CASE("3.01.11.02 a prevented Voice is rejected and offered only as Pass, then consumed", "[cards][karama][battle]") {
  GameState s = battle_position({Faction::BeneGesserit, Faction::Harkonnen}, Faction::BeneGesserit, Faction::Harkonnen);
  const uint8_t karama = give_another(s, Faction::Harkonnen, TreacheryKind::Karama);
  act(s, Faction::Harkonnen, play(karama, prevent(rules::Ability::BgVoice), fa(Faction::BeneGesserit)));
  enter_battle(s);
  for (int i = 0; i < 5 && s.step != rules::ability::kVoice; ++i) play_step(s);
  REQUIRE(s.step == rules::ability::kVoice);
  action::Voice v;
  v.must = true;
  v.kind = rules::ability::kPoisonWeapon;
  auto r = rejected(s, Faction::BeneGesserit, v);
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("3.01.11.02"));
  const auto acts = legal_actions(s, s.seat_of(Faction::BeneGesserit));
  REQUIRE(acts.size() == 1);
  CHECK(acts[0].kind() == ActionKind::Pass);
  act(s, Faction::BeneGesserit, pass());
  CHECK(s.prevented[static_cast<int>(Faction::BeneGesserit)] == 0);
}

TEST_CASE("3.01.11.02 a prevented Fremen movement goes one territory", "[cards][karama]") {
  GameState s = at_shipment({Faction::Fremen, Faction::Atreides}, false);
  const uint8_t karama = give_another(s, Faction::Atreides, TreacheryKind::Karama);
  act(s, Faction::Atreides, play(karama, prevent(rules::Ability::FremenMovement), fa(Faction::Fremen)));
  for (int i = 0; i < 60; ++i) {
    if (s.shipmove.current == s.seat_of(Faction::Fremen) && s.step == kMoveStep && waits(s, Faction::Fremen)) break;
    act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), pass());
  }
  REQUIRE(s.step == kMoveStep);
  const auto ds = decisions(s, s.seat_of(Faction::Fremen));
  REQUIRE_FALSE(ds.empty());
  CHECK_THAT(ds[0].prompt, Catch::Contains("range 1"));
  act(s, Faction::Fremen, pass());
  CHECK(s.prevented[static_cast<int>(Faction::Fremen)] == 0);
}

// ---- 3.01.11.01 / 1.00.04 windows on the other ✷ abilities (karama_windows=all_other_seats) ----

TEST_CASE("3.01.11.01 1.00.04 karama_windows=all_other_seats: a Karama cancels the Voice as it is used, the Bene Gesserit retake the step without it",
          "[cards][karama][rulings][battle]") {
  GameState s = battle_position({Faction::BeneGesserit, Faction::Harkonnen}, Faction::BeneGesserit, Faction::Harkonnen,
                                ruling("karama_windows", "all_other_seats"));
  const uint8_t karama = give_another(s, Faction::Harkonnen, TreacheryKind::Karama);
  give_another(s, Faction::BeneGesserit, TreacheryKind::Baliset);
  enter_battle(s);
  for (int i = 0; i < 5 && s.step != rules::ability::kVoice; ++i) play_step(s);
  REQUIRE(s.step == rules::ability::kVoice);
  action::Voice v;
  v.must = true;
  v.kind = rules::ability::kPoisonWeapon;
  act(s, Faction::BeneGesserit, v);
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::BgVoice));
  CHECK(waiting_for(s) == rules::bit(s.seat_of(Faction::Harkonnen)));
  CHECK(s.bene_gesserit.battle.voice == 0);  // not applied yet
  SECTION("cancelled") {
    action::Respond r;
    r.accept = true;
    r.card = karama;
    act(s, Faction::Harkonnen, r);
    CHECK(s.window_depth == 0);
    CHECK(s.step == rules::ability::kVoice);
    CHECK(waiting_for(s) == rules::bit(s.seat_of(Faction::BeneGesserit)));
    CHECK_THAT(rejected(s, Faction::BeneGesserit, v).reason, Catch::Contains("3.01.11.01"));
    act(s, Faction::BeneGesserit, pass());
    CHECK(s.bene_gesserit.battle.voice == 0);
    CHECK(s.cancelled_ability == kNone8);
  }
  SECTION("let through") {
    act(s, Faction::Harkonnen, make(ActionKind::Respond));
    CHECK(s.window_depth == 0);
    CHECK(s.bene_gesserit.battle.voice == 1 + rules::ability::kPoisonWeapon);
    CHECK(s.bene_gesserit.battle.voice_must == 1);
  }
}

TEST_CASE("3.01.11.01 default karama_windows=none: the Voice and cross-shipping open no window", "[cards][karama][rulings]") {
  GameState s = battle_position({Faction::BeneGesserit, Faction::Harkonnen}, Faction::BeneGesserit, Faction::Harkonnen);
  give_another(s, Faction::Harkonnen, TreacheryKind::Karama);
  enter_battle(s);
  for (int i = 0; i < 5 && s.step != rules::ability::kVoice; ++i) play_step(s);
  REQUIRE(s.step == rules::ability::kVoice);
  action::Voice v;
  v.kind = rules::ability::kPoisonWeapon;
  act(s, Faction::BeneGesserit, v);
  CHECK(s.window_depth == 0);
  CHECK(s.bene_gesserit.battle.voice == 1 + rules::ability::kPoisonWeapon);
}

TEST_CASE("3.01.11.01 karama_windows=all_other_seats: the Guild's cross-shipment at half price asks twice, in ability order",
          "[cards][karama][rulings]") {
  GameState s = at_shipment({Faction::Guild, Faction::Atreides}, false, ruling("karama_windows", "all_other_seats"));
  give_another(s, Faction::Atreides, TreacheryKind::Karama);
  set_spice(s, Faction::Guild, 20);
  pass_until_ship(s, Faction::Guild);
  LocationId from = kNone8;
  for (int l = 0; l < data::kNumLocations && from == kNone8; ++l)
    if (s.forces_at(Faction::Guild, static_cast<LocationId>(l)) > 0 && !s.in_storm(static_cast<LocationId>(l))) from = static_cast<LocationId>(l);
  REQUIRE(from != kNone8);
  action::Ship cross = ship(data::polar_sink(), 2);
  cross.from = from;
  act(s, Faction::Guild, cross);
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::GuildHalfPrice));
  act(s, Faction::Atreides, make(ActionKind::Respond));
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::GuildCrossShip));
  act(s, Faction::Atreides, make(ActionKind::Respond));
  CHECK(s.window_depth == 0);
  CHECK(s.forces_at(Faction::Guild, data::polar_sink()) == 2);
  CHECK(s.of(Faction::Guild).spice == 18);  // 4 at full price, 2 at half
}

TEST_CASE("3.01.11.02 the ability table: each prevented ability names its faction and rule", "[cards][karama]") {
  for (int ab = 1; ab < rules::kNumAbilities; ++ab) {
    const rules::AbilityInfo* info = rules::ability_info(static_cast<rules::Ability>(ab));
    REQUIRE(info != nullptr);
    CHECK(static_cast<int>(info->id) == ab);
    if (static_cast<int>(info->faction) < kNumBaseFactions) CHECK(std::string(info->rule).rfind("2.0", 0) == 0);
    else CHECK_FALSE(std::string(info->rule).empty());  // a module faction's (CHOAM): its rule's name
  }
  CHECK(rules::ability_info(rules::Ability::None) == nullptr);
  // Offered against the factions in the game only.
  GameState s = at_shipment({Faction::Guild, Faction::Atreides}, false);
  const uint8_t karama = give_another(s, Faction::Atreides, TreacheryKind::Karama);
  CHECK(legal_has(s, Faction::Atreides, play(karama, prevent(rules::Ability::GuildOffPlanet), fa(Faction::Guild))));
  CHECK_FALSE(legal_has(s, Faction::Atreides, play(karama, prevent(rules::Ability::BgVoice), fa(Faction::BeneGesserit))));
  CHECK(rejected(s, Faction::Atreides, play(karama, prevent(rules::Ability::BgVoice), fa(Faction::BeneGesserit))).code == RejectCode::Malformed);
}

TEST_CASE("3.01.11.02 a prevented Kwisatz Haderach: the plan with it is rejected, the plan without it stands", "[cards][karama][battle]") {
  GameState s = battle_position({Faction::Atreides, Faction::Harkonnen}, Faction::Atreides, Faction::Harkonnen);
  s.atreides.kh.losses = 7;
  const uint8_t karama = give_another(s, Faction::Harkonnen, TreacheryKind::Karama);
  act(s, Faction::Harkonnen, play(karama, prevent(rules::Ability::KwisatzHaderach), fa(Faction::Atreides)));
  enter_battle(s);
  for (int i = 0; i < 8 && s.step != 1; ++i) play_step(s);
  REQUIRE(s.step == 1);
  Action with_kh;
  bool found = false;
  for (const auto& a : legal_actions(s, s.seat_of(Faction::Atreides))) {
    CHECK_FALSE((a.kind() == ActionKind::BattlePlan && a.as<action::BattlePlan>().kwisatz_haderach));
    if (a.kind() == ActionKind::BattlePlan && a.as<action::BattlePlan>().leader != kNone8 && !found) {
      with_kh = a;
      found = true;
    }
  }
  REQUIRE(found);
  Action without = with_kh;
  with_kh.as<action::BattlePlan>().kwisatz_haderach = true;
  auto r = rejected(s, Faction::Atreides, with_kh);
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("3.01.11.02"));
  act(s, Faction::Atreides, without);
  CHECK(s.prevented[static_cast<int>(Faction::Atreides)] == 0);
}

TEST_CASE("3.01.11.02 3.01.11.01 spiritual advisors: prevented, no advisor step, or cancelled in a window, only Pass is left",
          "[cards][karama][rulings]") {
  const LocationId arrakeen = loc("Arrakeen");
  SECTION("prevented") {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, false);
    const uint8_t karama = give_another(s, Faction::Atreides, TreacheryKind::Karama);
    set_spice(s, Faction::Atreides, 10);
    act(s, Faction::Atreides, play(karama, prevent(rules::Ability::BgSpiritualAdvisor), fa(Faction::BeneGesserit)));
    pass_until_ship(s, Faction::Atreides);
    act(s, Faction::Atreides, ship(arrakeen, 2));
    CHECK(s.step == kMoveStep);
    CHECK(waits(s, Faction::Atreides));
    CHECK(s.prevented[static_cast<int>(Faction::BeneGesserit)] == 0);
  }
  SECTION("not prevented: the Bene Gesserit are asked") {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, false);
    set_spice(s, Faction::Atreides, 10);
    pass_until_ship(s, Faction::Atreides);
    act(s, Faction::Atreides, ship(arrakeen, 2));
    CHECK(s.step == 1);  // kAdvisor
    CHECK(waits(s, Faction::BeneGesserit));
  }
  SECTION("cancelled in a window (karama_windows=all_other_seats)") {
    GameState s = at_shipment({Faction::Atreides, Faction::BeneGesserit}, false, ruling("karama_windows", "all_other_seats"));
    const uint8_t karama = give_another(s, Faction::Atreides, TreacheryKind::Karama);
    set_spice(s, Faction::Atreides, 10);
    pass_until_ship(s, Faction::Atreides);
    act(s, Faction::Atreides, ship(arrakeen, 2));
    REQUIRE(s.step == 1);
    const int reserves = s.of(Faction::BeneGesserit).reserves[0];
    action::SendSpiritualAdvisor send;
    send.to = data::polar_sink();
    act(s, Faction::BeneGesserit, send);
    REQUIRE(s.window_depth == 1);
    CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::BgSpiritualAdvisor));
    action::Respond r;
    r.accept = true;
    r.card = karama;
    act(s, Faction::Atreides, r);
    CHECK(s.window_depth == 0);
    CHECK(s.step == 1);
    CHECK(s.of(Faction::BeneGesserit).reserves[0] == reserves);
    CHECK_THAT(rejected(s, Faction::BeneGesserit, send).reason, Catch::Contains("3.01.11.01"));
    const auto acts = legal_actions(s, s.seat_of(Faction::BeneGesserit));
    REQUIRE(acts.size() == 1);
    CHECK(acts[0].kind() == ActionKind::Pass);
    act(s, Faction::BeneGesserit, pass());
    CHECK(s.step == kMoveStep);
    CHECK(s.cancelled_ability == kNone8);
  }
}

// ---- 3.01.11.02 automatic abilities (no action of their own) -----------------------------------

TEST_CASE("3.01.11.02 2.06.04 a prevented payment for shipment goes to the bank, the next shipment pays the Guild again", "[cards][karama]") {
  GameState s = at_shipment({Faction::Guild, Faction::Atreides, Faction::Emperor}, false);
  const uint8_t karama = give(s, Faction::Atreides, TreacheryKind::Karama);
  set_spice(s, Faction::Guild, 5);
  set_spice(s, Faction::Atreides, 10);
  set_spice(s, Faction::Emperor, 10);
  CHECK(legal_has(s, Faction::Atreides, play(karama, prevent(rules::Ability::GuildPayment), fa(Faction::Guild))));
  act(s, Faction::Atreides, play(karama, prevent(rules::Ability::GuildPayment), fa(Faction::Guild)));
  // The two shippers in storm order.
  std::vector<Faction> shippers;
  for (Seat x : rules::order_from_first(s))
    if (s.faction_at(x) != Faction::Guild) shippers.push_back(s.faction_at(x));
  REQUIRE(shippers.size() == 2);
  const int64_t bank0 = s.bank;
  pass_until_ship(s, shippers[0]);
  act(s, shippers[0], ship(data::polar_sink(), 1));  // 2 spice
  CHECK(s.of(shippers[0]).spice == 8);
  CHECK(s.of(Faction::Guild).spice == 5);  // 1.06.03.02: to the bank
  CHECK(s.bank == bank0 + 2);
  CHECK(s.prevented[static_cast<int>(Faction::Guild)] == 0);
  pass_until_ship(s, shippers[1]);
  act(s, shippers[1], ship(data::polar_sink(), 1));
  CHECK(s.of(Faction::Guild).spice == 7);  // 2.06.04 is back
  CHECK(s.bank == bank0 + 2);
}

TEST_CASE("3.01.11.02 2.06.04 1.14.05 a shipment paid to the bank under prevention is refunded from the bank", "[cards][karama]") {
  GameState s = at_shipment({Faction::Atreides, Faction::Guild, Faction::Emperor}, true);
  const LocationId arrakeen = loc("Arrakeen");
  const uint8_t k1 = give(s, Faction::Emperor, TreacheryKind::Karama);
  set_spice(s, Faction::Atreides, 10);
  set_spice(s, Faction::Guild, 5);
  act(s, Faction::Emperor, play(k1, prevent(rules::Ability::GuildPayment), fa(Faction::Guild)));
  const uint8_t k2 = give(s, Faction::Guild, TreacheryKind::Karama);
  pass_until_ship(s, Faction::Atreides);
  const int64_t bank0 = s.bank;
  act(s, Faction::Atreides, ship(arrakeen, 3));
  REQUIRE(s.step == kMoveStep);
  CHECK(s.bank == bank0 + 3);
  CHECK(s.of(Faction::Guild).spice == 5);
  act(s, Faction::Guild, play(k2, 0, fa(Faction::Atreides)));  // 1.14.05
  CHECK(s.of(Faction::Atreides).spice == 10);
  CHECK(s.of(Faction::Guild).spice == 5);
  CHECK(s.bank == bank0);
}

TEST_CASE("3.01.11.02 2.01.07 a prevented wormsign: no look at the next Shipment and Movement, the one after has it", "[cards][karama][views]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Fremen}, true, 7);
  play_until(s, Phase::Storm, 1);
  const uint8_t karama = give(s, Faction::Harkonnen, TreacheryKind::Karama);
  act(s, Faction::Harkonnen, play(karama, prevent(rules::Ability::AtreidesWormsign), fa(Faction::Atreides)));
  play_until(s, Phase::ShipmentMovement, 1);
  CHECK(s.atreides.wormsign_turn == 0);
  CHECK(s.prevented[static_cast<int>(Faction::Atreides)] == 0);
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Atreides))), !Catch::Contains("\"wormsign\":"));
  play_until(s, Phase::ShipmentMovement, 2);
  CHECK(s.atreides.wormsign_turn == 2);
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Atreides))), Catch::Contains("\"wormsign\""));
}

TEST_CASE("3.01.11.02 2.02.09 a prevented charity follows 1.03 where it matters, then the Bene Gesserit always receive 2 again", "[cards][karama][charity]") {
  GameState s = game({Faction::Atreides, Faction::BeneGesserit, Faction::Fremen});
  play_until(s, Phase::Charity, 1);
  const uint8_t karama = give(s, Faction::Atreides, TreacheryKind::Karama);
  act(s, Faction::Atreides, play(karama, prevent(rules::Ability::BgCharity), fa(Faction::BeneGesserit)));
  auto enter_charity = [](GameState& g) {
    rules::Ctx ctx{g, nullptr};
    rules::enter_phase(ctx, Phase::Charity);
  };
  SECTION("5 spice: not asked, the prevention is used up") {
    GameState c = s;
    set_spice(c, Faction::BeneGesserit, 5);
    enter_charity(c);
    CHECK_FALSE((c.phase == Phase::Charity && waits(c, Faction::BeneGesserit)));
    CHECK(c.prevented[static_cast<int>(Faction::BeneGesserit)] == 0);
  }
  SECTION("1 spice: brought to 2 (not 3), used up") {
    GameState c = s;
    set_spice(c, Faction::BeneGesserit, 1);
    enter_charity(c);
    REQUIRE(waits(c, Faction::BeneGesserit));
    CHECK(rejected(c, Faction::Fremen, claim_charity()).code == RejectCode::NotYourDecision);
    act(c, Faction::BeneGesserit, claim_charity());
    CHECK(c.of(Faction::BeneGesserit).spice == 2);
    CHECK(c.prevented[static_cast<int>(Faction::BeneGesserit)] == 0);
  }
  SECTION("0 spice: both rules give 2, the prevention waits") {
    GameState c = s;
    set_spice(c, Faction::BeneGesserit, 0);
    enter_charity(c);
    act(c, Faction::BeneGesserit, claim_charity());
    CHECK(c.of(Faction::BeneGesserit).spice == 2);
    CHECK(c.prevented[static_cast<int>(Faction::BeneGesserit)] != 0);
  }
  SECTION("not prevented: at least 2 whatever they hold") {
    GameState c = s;
    c.prevented[static_cast<int>(Faction::BeneGesserit)] = 0;
    set_spice(c, Faction::BeneGesserit, 5);
    enter_charity(c);
    act(c, Faction::BeneGesserit, claim_charity());
    CHECK(c.of(Faction::BeneGesserit).spice == 7);
  }
}

TEST_CASE("3.01.11.02 2.02.09 ruling karama_automatic_use=next_occasion: a claim at 0 spice uses the prevention up", "[cards][karama][charity]") {
  GameState s = game({Faction::Atreides, Faction::BeneGesserit, Faction::Fremen}, false, 7,
                     ruling("karama_automatic_use", "next_occasion"));
  play_until(s, Phase::Charity, 1);
  const uint8_t karama = give(s, Faction::Atreides, TreacheryKind::Karama);
  act(s, Faction::Atreides, play(karama, prevent(rules::Ability::BgCharity), fa(Faction::BeneGesserit)));
  set_spice(s, Faction::BeneGesserit, 0);
  rules::Ctx ctx{s, nullptr};
  rules::enter_phase(ctx, Phase::Charity);
  act(s, Faction::BeneGesserit, claim_charity());
  CHECK(s.of(Faction::BeneGesserit).spice == 2);
  CHECK(s.prevented[static_cast<int>(Faction::BeneGesserit)] == 0);  // (changes_outcome keeps it: see above)
}

TEST_CASE("3.01.11.01 2.04.06 karama_windows=all_other_seats: the Fremen two-territory move waits in a window with all its placements",
          "[cards][karama][rulings]") {
  GameState s = at_shipment({Faction::Fremen, Faction::Atreides}, false, ruling("karama_windows", "all_other_seats"));
  const uint8_t karama = give(s, Faction::Atreides, TreacheryKind::Karama);
  for (int i = 0; i < 60; ++i) {
    if (s.shipmove.current == s.seat_of(Faction::Fremen) && s.step == kMoveStep && waits(s, Faction::Fremen)) break;
    act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), pass());
  }
  REQUIRE(s.step == kMoveStep);
  // A legal move that needs two territories: rejected once the ability is prevented.
  GameState one = s;
  one.prevented[static_cast<int>(Faction::Fremen)] |= 1u << static_cast<int>(rules::Ability::FremenMovement);
  Action two;
  bool found = false;
  for (const auto& a : legal_actions(s, s.seat_of(Faction::Fremen)))
    if (a.kind() == ActionKind::Move && !validate(s, s.seat_of(Faction::Fremen), a) && validate(one, one.seat_of(Faction::Fremen), a)) {
      two = a;
      found = true;
      break;
    }
  REQUIRE(found);
  int moving = 0;
  const auto& two_move = two.as<action::Move>();
  for (const auto& p : two_move.from) moving += p.forces + p.special;
  const int at_target = s.forces_at(Faction::Fremen, two_move.to);
  act(s, Faction::Fremen, two);
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::FremenMovement));
  CHECK(waiting_for(s) == rules::bit(s.seat_of(Faction::Atreides)));
  CHECK(s.forces_at(Faction::Fremen, two_move.to) == at_target);  // not moved yet
  CHECK(s.pending_move_n == two_move.from.size());
  check_legal(s);
  SECTION("let through: the move is made as announced") {
    act(s, Faction::Atreides, make(ActionKind::Respond));
    CHECK(s.window_depth == 0);
    CHECK(s.forces_at(Faction::Fremen, two_move.to) == at_target + moving);
  }
  SECTION("cancelled: the Fremen retake the movement one territory at most") {
    action::Respond r;
    r.accept = true;
    r.card = karama;
    act(s, Faction::Atreides, r);
    CHECK(s.window_depth == 0);
    CHECK(s.step == kMoveStep);
    CHECK(waits(s, Faction::Fremen));
    CHECK(s.forces_at(Faction::Fremen, two_move.to) == at_target);
    CHECK_THAT(rejected(s, Faction::Fremen, two).reason, Catch::Contains("3.01.11.01"));
    act(s, Faction::Fremen, pass());
    CHECK(s.cancelled_ability == kNone8);
  }
}

TEST_CASE("3.01.11.01 2.05.10 karama_windows=all_other_seats: the Harkonnen's kill or capture waits in a window, cancelled, neither",
          "[cards][karama][rulings][battle]") {
  GameState s = battle_position({Faction::Harkonnen, Faction::Emperor}, Faction::Harkonnen, Faction::Emperor, ruling("karama_windows", "all_other_seats"));
  const uint8_t karama = give_another(s, Faction::Emperor, TreacheryKind::Karama);
  enter_battle(s);
  REQUIRE(s.step == 1);  // plans
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 0), 5));
  act(s, Faction::Emperor, plan(L(Faction::Emperor, 4), 0));
  for (int i = 0; i < 4 && s.step != rules::ability::kCapture && s.phase == Phase::Battle; ++i)
    act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), traitor(false));
  REQUIRE(s.step == rules::ability::kCapture);
  const uint8_t id = static_cast<uint8_t>(s.harkonnen.battle.captive - 1);
  const int spice = s.of(Faction::Harkonnen).spice;
  act(s, Faction::Harkonnen, respond(false));  // kill
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::HarkonnenCapture));
  CHECK(waiting_for(s) == rules::bit(s.seat_of(Faction::Emperor)));
  SECTION("cancelled") {
    act(s, Faction::Emperor, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(s.step == rules::ability::kCapture);
    CHECK_THAT(rejected(s, Faction::Harkonnen, respond(true)).reason, Catch::Contains("3.01.11.01"));
    act(s, Faction::Harkonnen, pass());
    CHECK(s.leaders[id].zone == LeaderZone::Pool);
    CHECK(s.leaders[id].holder == fa(Faction::Emperor));
    CHECK(s.of(Faction::Harkonnen).spice == spice);
  }
  SECTION("let through") {
    act(s, Faction::Emperor, respond(false));
    CHECK(s.leaders[id].zone == LeaderZone::TanksFaceDown);
    CHECK(s.of(Faction::Harkonnen).spice == spice + 2);
  }
}

TEST_CASE("3.01.11.01 2.01.11 karama_windows: none, no window, all_other_seats, a Karama may cancel the Kwisatz Haderach as the plan is submitted",
          "[cards][karama][rulings][battle]") {
  for (const char* reading : {"none", "all_other_seats"}) {
    GameState s = battle_position({Faction::Atreides, Faction::Harkonnen}, Faction::Atreides, Faction::Harkonnen,
                                  ruling("karama_windows", reading));
    s.atreides.kh.losses = 7;
    const uint8_t karama = give_another(s, Faction::Harkonnen, TreacheryKind::Karama);
    enter_battle(s);
    for (int i = 0; i < 12 && s.step != 1; ++i) play_step(s);  // Prescience (and its window) aside
    REQUIRE(s.step == 1);
    action::BattlePlan with_kh;
    bool found = false;
    for (const auto& a : legal_actions(s, s.seat_of(Faction::Atreides)))
      if (const auto* p = a.get_if<action::BattlePlan>(); p && p->kwisatz_haderach && !found) {
        with_kh = *p;
        found = true;
      }
    REQUIRE(found);
    act(s, Faction::Atreides, with_kh);
    const int side = s.battle.aggressor == s.seat_of(Faction::Atreides) ? 0 : 1;
    if (std::string(reading) == "none") {
      CHECK(s.window_depth == 0);
      CHECK(s.battle.plan[side].kwisatz_haderach == 1);
      continue;
    }
    REQUIRE(s.window_depth == 1);
    CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::KwisatzHaderach));
    CHECK_THAT(rules::window_description(s), Catch::Contains("Kwisatz Haderach"));
    CHECK_FALSE(rules::has_bit(s.battle.plans_in, s.seat_of(Faction::Atreides)));
    act(s, Faction::Harkonnen, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(waits(s, Faction::Atreides));
    CHECK_THAT(rejected(s, Faction::Atreides, with_kh).reason, Catch::Contains("3.01.11.01"));
    action::BattlePlan without = with_kh;
    without.kwisatz_haderach = false;
    act(s, Faction::Atreides, without);
    CHECK(s.battle.plan[side].kwisatz_haderach == 0);
    CHECK(s.battle.plan[side].leader == with_kh.leader);
  }
}

TEST_CASE("3.01.11.01 2.06.12 karama_windows=all_other_seats: the Guild's turn out of order waits in a window, cancelled, storm order for the phase",
          "[cards][karama][rulings]") {
  GameState s = at_shipment({Faction::Guild, Faction::Atreides, Faction::Harkonnen}, true, ruling("karama_windows", "all_other_seats"));
  const uint8_t karama = give_another(s, Faction::Atreides, TreacheryKind::Karama);
  set_spice(s, Faction::Guild, 20);
  for (int i = 0; i < 10 && !(s.step == kGuildTimingStep && waits(s, Faction::Guild)); ++i) play_step(s);
  REQUIRE(s.step == kGuildTimingStep);
  const Seat before = s.shipmove.current;
  act(s, Faction::Guild, action::GuildTiming{.now = true});
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::GuildTiming));
  CHECK(waits(s, Faction::Atreides));
  SECTION("cancelled") {
    act(s, Faction::Atreides, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(s.step == kGuildTimingStep);
    CHECK_THAT(rejected(s, Faction::Guild, action::GuildTiming{.now = true}).reason, Catch::Contains("3.01.11.01"));
    CHECK_FALSE(legal_has(s, Faction::Guild, action::GuildTiming{.now = true}));
    act(s, Faction::Guild, pass());
    CHECK(s.guild.shipmove.timing_off == 1);  // storm order for the rest of the phase
    CHECK(s.step != kGuildTimingStep);
    CHECK(s.cancelled_ability == kNone8);
  }
  SECTION("let through") {
    while (s.window_depth > 0) act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), respond(false));
    CHECK(s.shipmove.current == s.seat_of(Faction::Guild));
    CHECK(s.shipmove.current != before);
  }
}
