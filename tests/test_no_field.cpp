// The Richese No-Field tokens (CHOAM & Richese, issue 13 item 2;
// core/factions/richese_no_field.cpp, docs/factions/richese.md "No-Field
// tokens"; the contract: ../shared/seeds/RICHESE_NO_FIELD_RULES.md). One
// scenario per rule and ruling of the "Required verification" list, each
// asserting outcomes (forces, spice, token custody, views).
#include <catch2/catch.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "bots/bot.h"
#include "core/factions/richese_no_field.h"
#include "events/codec.h"
#include "events/view_generated.h"
#include "inspect/projection.h"
#include "inspect/render.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "replay/diff.h"
#include "replay/fold.h"
#include "replay/tools.h"
#include "store/room.h"
#include "support/module_game.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;

namespace {

constexpr auto kRichese = Faction::Richese;
constexpr auto kAtreides = Faction::Atreides;
constexpr LocationId kArrakeen = 0;
constexpr LocationId kFlat = 70;          // The Great Flat (sand, sector 14)
constexpr LocationId kCielagoWest = 14;   // Cielago North (West Sector), sector 0
constexpr LocationId kCielagoEast = 16;   // Cielago North (East Sector), sector 2

// Turn 1's Shipment and Movement on an empty board (scenario::cleared_board_of)
// with the Richese in, the module on.
GameState nf_board(std::initializer_list<Faction> factions, Rulings rulings = Rulings::defaults(), bool advanced = false) {
  return cleared_board_of(game(factions, advanced, 7, rulings, data::module_bit(data::Module::ChoamRichese)));
}

int token(uint8_t value) {
  for (int i = 0; i < kNumNoFieldTokens; ++i)
    if (kNoFieldValues[i] == value) return i;
  return -1;
}
TokenZone zone(const GameState& s, uint8_t value) { return s.richese.no_field[token(value)].zone; }

// Lays the token of `value` face down at `loc` (as its shipment would).
void lay(GameState& s, uint8_t value, LocationId loc) {
  s.richese.no_field[token(value)] = NoFieldToken{TokenZone::Board, loc};
  s.forces_at(kRichese, loc, 1) = 1;
  check_custody(s);
}

action::Ship nf_ship(LocationId to, uint8_t value) {
  action::Ship a;
  a.to = to;
  a.no_field = value;
  return a;
}

bool has_action(const GameState& s, Faction f, const Action& a) {
  const auto acts = legal_actions(s, s.seat_of(f));
  return std::find(acts.begin(), acts.end(), a) != acts.end();
}
void enter(GameState& s, Phase p) {
  rules::Ctx c{s, nullptr};
  rules::enter_phase(c, p);
}

const fb::View* view(const std::string& bytes) { return fb::GetView(bytes.data()); }
std::string view_of(const GameState& s, Faction f) { return inspect::build_view(s, inspect::Viewer::of(s.seat_of(f))); }

}  // namespace

TEST_CASE("No-Field: three tokens 0, 3 and 5 in the supply, shipped alone at one force's price, reserves untouched", "[richese][no_field]") {
  GameState s = nf_board({kRichese, kAtreides});
  for (uint8_t v : {0, 3, 5}) CHECK(zone(s, v) == TokenZone::Reserve);
  pass_until_ship_or_move(s, kRichese);
  // One force's price: 1 in a stronghold (here), 2 elsewhere.
  CHECK(rejected(s, kRichese, nf_ship(kArrakeen, 4)).code == RejectCode::Malformed);
  action::Ship mixed = nf_ship(kArrakeen, 5);
  mixed.forces = 2;
  CHECK(rejected(s, kRichese, mixed).code == RejectCode::IllegalChoice);  // the token alone
  act(s, kRichese, nf_ship(kArrakeen, 5));
  CHECK(s.of(kRichese).spice == 9);
  CHECK(s.of(kRichese).reserves[0] == 20);
  CHECK(zone(s, 5) == TokenZone::Board);
  CHECK(s.richese.no_field[token(5)].location == kArrakeen);
  CHECK(s.forces_in_location(kRichese, kArrakeen) == 1);  // one force wherever forces are counted
  CHECK(rules::occupies(s, kRichese, ter(kArrakeen)));
  check_custody(s);
  // What the others see: one concealed presence, never its value or the supply.
  const std::string mine = view_of(s, kRichese), theirs = view_of(s, kAtreides);
  REQUIRE(view(theirs)->richese());
  CHECK(view(theirs)->richese()->no_field_location() == kArrakeen);
  CHECK(view(theirs)->richese()->no_field_value() == -1);
  CHECK(view(theirs)->richese()->no_field_supply() == nullptr);
  CHECK(view(mine)->richese()->no_field_value() == 5);
  REQUIRE(view(mine)->richese()->no_field_supply());
  CHECK(view(mine)->richese()->no_field_supply()->size() == 2);
  check_projections(s);
  // The public log names no value.
  CHECK(inspect::what_changed(s, s, false, nullptr).empty());
}

TEST_CASE("No-Field: a shipment elsewhere costs two, and a sand token collects as one force", "[richese][no_field]") {
  GameState s = nf_board({kRichese, kAtreides});
  pass_until_ship_or_move(s, kRichese);
  act(s, kRichese, nf_ship(kFlat, 0));
  CHECK(s.of(kRichese).spice == 8);
  CHECK(s.forces_in_location(kRichese, kFlat) == 1);
}

TEST_CASE("No-Field: one on the planet, a new shipment reveals it first, and no token twice in a row (ruling no_field_face_up)",
          "[richese][no_field][rulings]") {
  for (const char* reading : {"until_placed", "until_revealed"}) {
    INFO(reading);
    GameState s = nf_board({kRichese, kAtreides}, ruling("no_field_face_up", reading));
    s.of(kRichese).reserves[0] = 4;
    s.of(kRichese).tanks[0] = 16;
    lay(s, 5, kFlat);
    pass_until_ship_or_move(s, kRichese);
    CHECK(rejected(s, kRichese, nf_ship(kArrakeen, 5)).code == RejectCode::IllegalChoice);  // on the planet
    act(s, kRichese, nf_ship(kArrakeen, 3));
    // The 5 was revealed first: capped by the 4 in reserve, at its exact location.
    CHECK(s.forces_at(kRichese, kFlat, 0) == 4);
    CHECK(s.forces_at(kRichese, kFlat, 1) == 0);
    CHECK(s.of(kRichese).reserves[0] == 0);
    CHECK(zone(s, 3) == TokenZone::Board);
    CHECK(zone(s, 5) == TokenZone::Revealed);  // revealed by this shipment: face up (ruling no_field_shipped_reveal)
    check_custody(s);
    // The next shipment: never the 3 (on the planet); the 5 only once placing released it.
    GameState t = s;
    t.of(kRichese).shipped = 0;
    t.richese.no_field[token(3)] = NoFieldToken{TokenZone::Revealed, kNone8};  // the 3 revealed meanwhile
    t.forces_at(kRichese, kArrakeen, 1) = 0;
    t.richese.no_field[token(5)] = NoFieldToken{TokenZone::Reserve, kNone8};
    CHECK(rules::no_field::check_ship(t, kRichese, nf_ship(kFlat, 3)).has_value());
    CHECK_FALSE(rules::no_field::check_ship(t, kRichese, nf_ship(kFlat, 5)).has_value());
  }
}

TEST_CASE("No-Field: the marker a shipment reveals is shown to everyone, even with no reserves to materialise (ruling no_field_shipped_reveal)",
          "[richese][no_field][rulings][projection]") {
  // Issue 48 item 4: with no reserves, the revealed 0 and the revealed 3 become
  // no forces alike; only the token face up tells them apart, in every view.
  for (const char* reading : {"stays_face_up", "returned_unseen"}) {
    INFO(reading);
    const bool shown = std::string(reading) == "stays_face_up";
    std::vector<std::string> rival_views, lines;
    for (uint8_t old : {0, 3}) {
      GameState s = nf_board({kRichese, kAtreides}, ruling("no_field_shipped_reveal", reading));
      s.of(kRichese).tanks[0] = static_cast<uint8_t>(s.of(kRichese).tanks[0] + s.of(kRichese).reserves[0]);
      s.of(kRichese).reserves[0] = 0;
      lay(s, old, kFlat);
      pass_until_ship_or_move(s, kRichese);
      const GameState before = s;
      act(s, kRichese, nf_ship(kArrakeen, 5));
      check_custody(s);
      CHECK(zone(s, 5) == TokenZone::Board);
      CHECK(zone(s, old) == (shown ? TokenZone::Revealed : TokenZone::Reserve));
      CHECK(s.forces_at(kRichese, kFlat, 0) == 0);
      rival_views.push_back(view_of(s, kAtreides));
      const auto changed = inspect::what_changed(before, s, false, nullptr);
      std::string all;
      for (const auto& l : changed) all += l + "\n";
      lines.push_back(all);
    }
    // Shown: the rival's view and the public report name the value revealed.
    CHECK((rival_views[0] != rival_views[1]) == shown);
    CHECK((lines[0] != lines[1]) == shown);
  }
}

TEST_CASE("No-Field: the voluntary reveal before the Battle phase, capped by the reserves, zero included, never twice", "[richese][no_field]") {
  for (int reserves : {0, 2, 20}) {
    INFO(reserves);
    GameState s = nf_board({kRichese, kAtreides});
    s.of(kRichese).tanks[0] = static_cast<uint8_t>(20 - reserves);
    s.of(kRichese).reserves[0] = static_cast<uint8_t>(reserves);
    lay(s, 3, kFlat);
    act(s, kRichese, action::RicheseReveal{});
    CHECK(s.forces_at(kRichese, kFlat, 0) == std::min(3, reserves));
    CHECK(s.forces_at(kRichese, kFlat, 1) == 0);
    CHECK(zone(s, 3) == TokenZone::Revealed);
    CHECK(rules::occupies(s, kRichese, ter(kFlat)) == (reserves > 0));  // a revealed 0 leaves nothing
    check_custody(s);
    CHECK(rejected(s, kRichese, action::RicheseReveal{}).code == RejectCode::IllegalChoice);  // stale: none on the planet
    CHECK(view(view_of(s, kAtreides))->richese()->no_field_face_up() == 3);
  }
  GameState z = nf_board({kRichese, kAtreides});
  lay(z, 0, kFlat);
  act(z, kRichese, action::RicheseReveal{});
  CHECK(z.forces_in_location(kRichese, kFlat) == 0);
  CHECK(z.of(kRichese).reserves[0] == 20);
  // Not in the Battle phase.
  GameState b = nf_board({kRichese, kAtreides});
  lay(b, 5, kFlat);
  place(b, kAtreides, kFlat, 2);
  enter_battle_phase(b);
  REQUIRE(b.phase == Phase::Battle);
  CHECK(rejected(b, kRichese, action::RicheseReveal{}).code == RejectCode::WrongPhase);
}

TEST_CASE("No-Field: it moves as a force, with or without forces, and counts for the occupancy limit", "[richese][no_field]") {
  GameState s = nf_board({kRichese, kAtreides, Faction::Harkonnen});
  lay(s, 5, kFlat);
  place(s, kRichese, kFlat, 2);
  pass_until_ship_or_move(s, kRichese);
  if (s.step == 0) act(s, kRichese, pass());
  act(s, kRichese, move(kFlat, 2, 31, 1));  // to the Funeral Plain, the marker with two forces
  CHECK(s.forces_at(kRichese, 31, 1) == 1);
  CHECK(s.forces_at(kRichese, 31, 0) == 2);
  CHECK(s.richese.no_field[token(5)].location == 31);
  check_custody(s);
  // Occupancy: a marker alone makes a faction in a stronghold.
  GameState o = nf_board({kRichese, kAtreides, Faction::Harkonnen});
  lay(o, 0, kArrakeen);
  place(o, kAtreides, kArrakeen, 1);
  CHECK(rules::occupancy_others(o, Faction::Harkonnen, ter(kArrakeen)) == 2);
}

TEST_CASE("No-Field: the storm reveals and destroys an exposed marker only, at its exact sector", "[richese][no_field]") {
  GameState s = game({kRichese, kAtreides}, false, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
  play_until(s, Phase::Storm, 2);
  REQUIRE(s.phase == Phase::Storm);
  forces_to_reserves(s, kRichese);
  s.storm_sector = 17;
  lay(s, 5, kCielagoWest);                // sector 0: the storm passes
  place(s, kRichese, kCielagoEast, 2);    // sector 2 of the same territory: sheltered
  for (uint8_t d : s.storm_dialers)
    if (d != kNone8 && s.phase == Phase::Storm && ((waiting_for(s) >> d) & 1u)) act(s, s.faction_at(static_cast<Seat>(d)), dial(1));
  REQUIRE(s.storm_sector == 1);
  CHECK(s.forces_in_location(kRichese, kCielagoWest) == 0);
  CHECK(s.forces_at(kRichese, kCielagoEast, 0) == 2);
  CHECK(zone(s, 5) == TokenZone::Revealed);
  CHECK(s.of(kRichese).tanks[0] == 5);  // the five it became
  CHECK(s.of(kRichese).reserves[0] == 13);
  check_custody(s);
}

TEST_CASE("No-Field: a worm (ruling no_field_worm) and the destroyed-token shortfall (ruling no_field_destroyed)", "[richese][no_field][rulings]") {
  for (const char* reading : {"revealed", "ignored"}) {
    INFO(reading);
    GameState s = nf_board({kRichese, kAtreides}, ruling("no_field_worm", reading));
    lay(s, 3, kFlat);
    rules::spice_blow_devour(s, ter(kFlat), false, false);
    if (std::string(reading) == "revealed") {
      CHECK(zone(s, 3) == TokenZone::Revealed);
      CHECK(s.of(kRichese).tanks[0] == 3);
      CHECK(s.forces_in_location(kRichese, kFlat) == 0);
    } else {
      CHECK(zone(s, 3) == TokenZone::Board);
      CHECK(s.forces_at(kRichese, kFlat, 1) == 1);
      CHECK(s.of(kRichese).tanks[0] == 0);
    }
    check_custody(s);
  }
  for (const char* reading : {"capped", "shortfall_from_territory"}) {
    INFO(reading);
    GameState s = nf_board({kRichese, kAtreides}, ruling("no_field_destroyed", reading));
    place(s, kRichese, kCielagoEast, 4);
    s.of(kRichese).tanks[0] = 15;  // 1 left in reserve
    s.of(kRichese).reserves[0] = 1;
    lay(s, 5, kCielagoWest);
    rules::forces_to_tanks(s, kRichese, kCielagoWest, 0, 1);  // an explosion's or the storm's destruction there
    CHECK(zone(s, 5) == TokenZone::Revealed);
    CHECK(s.of(kRichese).reserves[0] == 0);
    if (std::string(reading) == "capped") {
      CHECK(s.of(kRichese).tanks[0] == 16);  // the one in reserve
      CHECK(s.forces_at(kRichese, kCielagoEast, 0) == 4);
    } else {
      CHECK(s.of(kRichese).tanks[0] == 20);  // five in all: four from the rest of the territory
      CHECK(s.forces_at(kRichese, kCielagoEast, 0) == 0);
    }
    check_custody(s);
  }
}

TEST_CASE("No-Field battle: the dial pool (ruling no_field_pool), sealed plans, one reveal, the flag kept at zero", "[richese][no_field][rulings]") {
  for (const char* reading : {"additive", "reserve_cap"}) {
    INFO(reading);
    GameState s = nf_board({kRichese, kAtreides}, ruling("no_field_pool", reading));
    place(s, kRichese, kArrakeen, 2);
    s.of(kRichese).reserves[0] = 3;
    s.of(kRichese).tanks[0] = 15;
    lay(s, 5, kArrakeen);
    place(s, kAtreides, kArrakeen, 4);
    const int reserves = s.of(kRichese).reserves[0];
    enter_battle_phase(s);
    no_abilities(s);
    REQUIRE(s.phase == Phase::Battle);
    const Seat rs = s.seat_of(kRichese);
    const int max = rules::battle_max_dial(s, rs);
    const int pool = 2 + std::min(5, reserves);
    CHECK(max == (std::string(reading) == "additive" ? pool : std::min(pool, reserves)));
    act(s, kRichese, plan(L(kRichese, 0), max));
    CHECK(zone(s, 5) == TokenZone::Board);  // sealed: not yet
    act(s, kAtreides, plan(L(kAtreides, 0), 0));
    CHECK(zone(s, 5) == TokenZone::Revealed);  // revealed once with the plans
    CHECK(s.forces_at(kRichese, kArrakeen, 1) == 0);
    CHECK(s.forces_at(kRichese, kArrakeen, 0) == 2 + std::min(5, reserves));
    CHECK(s.richese.battle.no_field == 1 + (s.battle.aggressor == rs ? 0 : 1));
    check_custody(s);
  }
  // A marker of 0 alone: the battle goes on with leaders and cards.
  GameState z = nf_board({kRichese, kAtreides});
  lay(z, 0, kArrakeen);
  place(z, kAtreides, kArrakeen, 3);
  enter_battle_phase(z);
  no_abilities(z);
  CHECK(rules::battle_max_dial(z, z.seat_of(kRichese)) == 1 - 1 + 0);
  act(z, kRichese, plan(L(kRichese, 0), 0));
  act(z, kAtreides, plan(L(kAtreides, 0), 1));
  CHECK(z.richese.battle.no_field != 0);  // kept after the token left the map
  CHECK(z.forces_in_location(kRichese, kArrakeen) == 0);
  decline_traitors(z);
  keep_all(z);
  check_custody(z);
}

TEST_CASE("No-Field battle: the Atreides may not ask the dial (ruling no_field_prescience)", "[richese][no_field][rulings]") {
  for (const char* reading : {"no_dial", "any_element"}) {
    INFO(reading);
    GameState s = nf_board({kRichese, kAtreides}, ruling("no_field_prescience", reading));
    lay(s, 3, kArrakeen);
    place(s, kAtreides, kArrakeen, 4);
    enter_battle_phase(s);
    REQUIRE(s.step == rules::ability::kPrescience);
    const auto ask_dial = action::Prescience{.element = rules::ability::kDial};
    // The decision advertises what validate accepts (issue 48 item 9: it said 0..3 where 3 was refused).
    const auto ds = decisions(s, s.seat_of(kAtreides));
    const auto d = std::find_if(ds.begin(), ds.end(), [](const Decision& x) { return x.kind == ActionKind::Prescience; });
    REQUIRE(d != ds.end());
    if (std::string(reading) == "no_dial") {
      CHECK(rejected(s, kAtreides, ask_dial).code == RejectCode::IllegalChoice);
      CHECK_FALSE(has_action(s, kAtreides, ask_dial));
      CHECK(d->max == rules::ability::kDefense);
      CHECK(std::find(d->options.begin(), d->options.end(), rules::ability::kDial) == d->options.end());
    } else {
      CHECK(has_action(s, kAtreides, ask_dial));
      CHECK(d->max == rules::ability::kDial);
    }
  }
}

TEST_CASE("No-Field: the ally ships with a token, revealed at once as its own forces (ruling no_field_ally_zero)", "[richese][no_field][rulings]") {
  for (const char* reading : {"allowed", "three_or_five"}) {
    INFO(reading);
    GameState s = nf_board({kAtreides, kRichese}, ruling("no_field_ally_zero", reading));
    ally(s, kAtreides, kRichese);
    pass_until_ship_or_move(s, kAtreides);
    REQUIRE(s.shipmove.current == s.seat_of(kAtreides));
    act(s, kRichese, action::AllyPermission{.no_field = true});  // no_field_ally_permission = richese_allows (the default)
    if (std::string(reading) == "three_or_five") CHECK(rejected(s, kAtreides, nf_ship(kArrakeen, 0)).code == RejectCode::IllegalChoice);
    else CHECK_FALSE(validate(s, s.seat_of(kAtreides), nf_ship(kArrakeen, 0)).has_value());
    act(s, kAtreides, nf_ship(kFlat, 3));
    CHECK(s.forces_at(kAtreides, kFlat, 0) == 3);
    CHECK(s.of(kAtreides).reserves[0] == 17);
    CHECK(s.of(kAtreides).spice == 8);  // one force's price elsewhere
    CHECK(zone(s, 3) == TokenZone::Revealed);  // no hidden allied marker
    CHECK(s.forces_at(kRichese, kFlat, 1) == 0);
    check_custody(s);
  }
  // A Richese marker on the planet is revealed first (by the Richese), and a non-ally never ships one.
  GameState t = nf_board({kAtreides, kRichese, Faction::Harkonnen});
  ally(t, kAtreides, kRichese);
  lay(t, 5, kFlat);
  pass_until_ship_or_move(t, kAtreides);
  CHECK(rejected(t, kAtreides, nf_ship(kArrakeen, 3)).code == RejectCode::IllegalChoice);
  CHECK(rules::no_field::check_ship(t, Faction::Harkonnen, nf_ship(kArrakeen, 3)).has_value());
}

TEST_CASE("No-Field: under ruling no_field_ally_permission=richese_allows the ally ships a token only with the Richese's consent, for that alliance",
          "[richese][no_field][rulings]") {
  const auto harkonnen = Faction::Harkonnen;
  GameState s = nf_board({kAtreides, kRichese, harkonnen}, ruling("no_field_ally_permission", "richese_allows"));
  ally(s, kAtreides, kRichese);
  const auto consent = action::AllyPermission{.no_field = true};
  // The Richese are asked first in this test (their own shipment turn): the consent is offered to them, bots give it.
  {
    GameState r = s;
    pass_until_ship_or_move(r, kRichese);
    const auto acts = legal_actions(r, r.seat_of(kRichese));
    CHECK(std::any_of(acts.begin(), acts.end(), [](const Action& a) {
      return a.is<action::AllyPermission>() && a.as<action::AllyPermission>().no_field;
    }));
    bool prompted = false;
    for (const auto& d : decisions(r, r.seat_of(kRichese)))
      prompted |= d.kind == ActionKind::AllyPermission && d.prompt.find("No-Field") != std::string::npos;
    CHECK(prompted);
    for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
      INFO(bots::profile_name(profile));
      const auto in = bots::make_input(r, r.seat_of(kRichese));
      const Action a = bots::make_bot(profile, 3)->choose(in);
      REQUIRE(bots::is_valid_choice(in, a));
      CHECK((a.is<action::AllyPermission>() && a.as<action::AllyPermission>().no_field));
    }
  }
  pass_until_ship_or_move(s, kAtreides);
  REQUIRE(s.shipmove.current == s.seat_of(kAtreides));
  CHECK_THAT(rejected(s, kAtreides, nf_ship(kFlat, 3)).reason, Catch::Contains("no_field_ally_permission"));
  {
    const auto acts = legal_actions(s, s.seat_of(kAtreides));
    CHECK(std::none_of(acts.begin(), acts.end(), [](const Action& a) { return a.is<action::Ship>() && a.as<action::Ship>().no_field != kNone8; }));
  }
  CHECK(rejected(s, kAtreides, consent).code == RejectCode::IllegalChoice);  // the Richese's consent only
  act(s, kRichese, action::AllyPermission{.shipment = 2, .no_field = true});  // any time, out of turn
  CHECK(s.of(kRichese).permit_ship == 2);
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(harkonnen))), Catch::Contains("\"ally_no_field\": true"));
  {
    GameState w = s;  // withdrawn by the next AllyPermission without it
    act(w, kRichese, action::AllyPermission{.shipment = 2});
    CHECK(rejected(w, kAtreides, nf_ship(kFlat, 3)).code == RejectCode::IllegalChoice);
    CHECK_THAT(inspect::view_json(w, inspect::Viewer::of(w.seat_of(harkonnen))), Catch::Contains("\"ally_no_field\": false"));
  }
  {
    GameState w = s;  // for that alliance only: a new ally of the Richese needs it again
    w.of(kAtreides).ally = kNoFaction;
    w.of(kRichese).ally = kNoFaction;
    ally(w, harkonnen, kRichese);
    CHECK_THAT(rules::no_field::check_ship(w, harkonnen, nf_ship(kFlat, 3))->reason, Catch::Contains("no_field_ally_permission"));
  }
  act(s, kAtreides, nf_ship(kFlat, 3));
  CHECK(s.forces_at(kAtreides, kFlat, 0) == 3);
  CHECK(zone(s, 3) == TokenZone::Revealed);
  check_custody(s);
  // Under not_needed (the default before rules version 7) no consent exists: the field is refused, and the ally ships without one.
  REQUIRE(Rulings::defaults().is(RulingId::NoFieldAllyPermission, 1));  // richese_allows, the seeds' reading, the default since 7
  GameState d = nf_board({kAtreides, kRichese}, ruling("no_field_ally_permission", "not_needed"));
  ally(d, kAtreides, kRichese);
  CHECK_THAT(rejected(d, kRichese, consent).reason, Catch::Contains("needs no permission"));
  pass_until_ship_or_move(d, kAtreides);
  CHECK_FALSE(validate(d, d.seat_of(kAtreides), nf_ship(kFlat, 3)).has_value());
}

TEST_CASE("No-Field self-play under no_field_ally_permission=richese_allows: the Richese consent, allies ship tokens only with it, 0 rejected",
          "[richese][no_field][bots][rulings]") {
  const std::vector<std::vector<Faction>> sets = {
      {kRichese, kAtreides, Faction::Harkonnen, Faction::Emperor},
      {Faction::Guild, kRichese, Faction::Fremen, Faction::BeneGesserit, Faction::Choam},
  };
  int consents = 0, ally_tokens = 0;
  for (uint64_t seed : {40, 50, 60, 70, 80})
    selfplay_sets(sets, data::module_bit(data::Module::ChoamRichese), seed, seed / 10, [&](const GameState& after, const bots::Step& st) {
      const Faction who = after.faction_at(st.seat);
      if (const auto* p = st.action.get_if<action::AllyPermission>(); p && p->no_field) ++consents;
      if (const auto* sh = st.action.get_if<action::Ship>(); sh && sh->no_field != kNone8 && who != kRichese) {
        ++ally_tokens;
        CHECK(after.richese.ally_no_field == static_cast<uint8_t>(who) + 1);  // shipped under the consent
      }
    }, seed == 40 ? 0b01 : 0, ruling("no_field_ally_permission", "richese_allows"));
  INFO(consents << " consents, " << ally_tokens << " allied token shipments");
  CHECK(consents > 0);
  CHECK(ally_tokens > 0);
}

TEST_CASE("No-Field tools: diff names the token's custody and the cache, the SVG board and the log show a concealed marker as one unknown force",
          "[richese][no_field][tools]") {
  auto shipped = [](uint8_t value, GameState* before) {
    GameState s = nf_board({kRichese, kAtreides});
    pass_until_ship_or_move(s, kRichese);
    *before = s;
    act(s, kRichese, nf_ship(kFlat, value));
    return s;
  };
  GameState before5, before3;
  const GameState s5 = shipped(5, &before5), s3 = shipped(3, &before3);
  // mentat diff (the "state" reading): the token's custody, by value.
  const std::string d = replay::diff_to_text(replay::diff_states(before5, s5));
  CHECK_THAT(d, Catch::Contains("No-Field token 5"));
  CHECK_THAT(d, Catch::Contains("no_field_reserve"));
  CHECK_THAT(d, Catch::Contains(std::string("board:") + std::string(data::location(kFlat).name)));
  {  // and the cache: a card leaving it
    GameState c = s5;
    const uint8_t card = c.richese.cache.ids[0];
    c.richese.cache.remove(card);
    c.of(kRichese).hand.push(card);
    CHECK_THAT(replay::diff_to_text(replay::diff_states(s5, c)), Catch::Contains("richese_cache"));
  }
  // The SVG board: one unknown force, the same picture whatever the token's value.
  const auto atreides = inspect::Viewer::of(s5.seat_of(kAtreides));
  const std::string svg = inspect::render_svg(s5, atreides);
  CHECK_THAT(svg, Catch::Contains("class=\"forces no-field\""));
  CHECK_THAT(svg, Catch::Contains("concealed No-Field token (its value unknown)"));
  CHECK(inspect::render_position_layer(s5) == inspect::render_position_layer(s3));
  // The log's lines for the Atreides: the shipment and the token's move name no value.
  const auto lines5 = inspect::what_changed(before5, s5, false), lines3 = inspect::what_changed(before3, s3, false);
  CHECK(lines5 == lines3);
  bool anonymous = false;
  for (const auto& l : lines5) anonymous |= l.find("a No-Field token:") != std::string::npos;
  CHECK(anonymous);
}

TEST_CASE("No-Field: a Karama prevents the shipment (Ability RicheseNoField)", "[richese][no_field][karama]") {
  GameState s = nf_board({kRichese, kAtreides});
  rules::set_prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseNoField), true);
  pass_until_ship_or_move(s, kRichese);
  CHECK(rejected(s, kRichese, nf_ship(kArrakeen, 5)).code == RejectCode::IllegalChoice);
  act(s, kRichese, ship(kArrakeen, 1));  // the shipment step is the prevention's use opportunity
  CHECK_FALSE(rules::prevented_bit(s, static_cast<int>(kRichese), static_cast<int>(rules::Ability::RicheseNoField)));
  CHECK(zone(s, 5) == TokenZone::Reserve);
}

TEST_CASE("No-Field: Trip to Gamont reveals the marker first, then sends one force back (the card is used at 0 too)", "[richese][no_field][choam]") {
  for (uint8_t v : {0, 3}) {
    INFO(int(v));
    GameState s = nf_board({kRichese, kAtreides, Faction::Choam}, ruling("choam_sell_timing", "any_time"));
    lay(s, v, kFlat);
    const uint8_t card = give(s, Faction::Choam, data::TreacheryKind::TripToGamont);
    enter(s, Phase::MentatPause);
    REQUIRE(s.phase == Phase::MentatPause);
    act(s, Faction::Choam, action::ChoamCard{.card = card, .faction = static_cast<uint8_t>(kRichese), .location = kFlat});
    CHECK(zone(s, v) == TokenZone::Revealed);
    CHECK(s.forces_in_location(kRichese, kFlat) == std::max(0, v - 1));
    CHECK(s.of(kRichese).reserves[0] == 20 - std::max(0, v - 1));
    CHECK(s.treachery_discard.top() == card);
    check_custody(s);
  }
}

TEST_CASE("No-Field: projection invariance over every hidden value, before and after the plans seal", "[richese][no_field][projection]") {
  for (uint8_t v : {0, 3, 5}) {
    INFO(int(v));
    GameState s = nf_board({kRichese, kAtreides, Faction::Harkonnen});
    lay(s, v, kArrakeen);
    place(s, kAtreides, kArrakeen, 2);
    check_projections(s);
    enter_battle_phase(s);
    no_abilities(s);
    if (s.phase == Phase::Battle && waiting(s, kRichese)) {
      act(s, kRichese, plan(L(kRichese, 0), 0));
      check_projections(s);
    }
  }
}

TEST_CASE("No-Field: the public report of a token shipment is the same whichever token it is", "[richese][no_field][projection]") {
  // The face-up 3 goes back to the supply as another is placed (ruling
  // no_field_face_up until_placed): its named line and the anonymous one for the
  // shipped token come in an order that does not depend on the shipped value.
  GameState s = nf_board({kRichese, kAtreides});
  s.richese.no_field[token(3)] = NoFieldToken{TokenZone::Revealed, kNone8};
  pass_until_ship_or_move(s, kRichese);
  std::vector<std::vector<std::string>> reports;
  for (uint8_t v : {0, 5}) {
    GameState t = s;
    act(t, kRichese, nf_ship(kArrakeen, v));
    REQUIRE(zone(t, v) == TokenZone::Board);
    reports.push_back(inspect::what_changed(s, t, false, nullptr));
    CHECK(std::none_of(reports.back().begin(), reports.back().end(),
                       [&](const std::string& l) { return l.find("No-Field token " + std::to_string(v)) != std::string::npos; }));
  }
  CHECK(reports[0] == reports[1]);
  CHECK_FALSE(reports[0].empty());
}

TEST_CASE("No-Field: a Karama that cancels the ally's token shipment stops the retake with a token", "[richese][no_field][karama]") {
  GameState s = nf_board({kAtreides, kRichese, Faction::Harkonnen}, ruling("karama_windows", "all_other_seats"));
  ally(s, kAtreides, kRichese);
  const uint8_t karama = give_another(s, Faction::Harkonnen, data::TreacheryKind::Karama);
  pass_until_ship_or_move(s, kAtreides);
  REQUIRE(s.shipmove.current == s.seat_of(kAtreides));
  act(s, kRichese, action::AllyPermission{.no_field = true});  // no_field_ally_permission = richese_allows (the default)
  act(s, kAtreides, nf_ship(kFlat, 3));
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].kind == WindowKind::KaramaCancel);
  CHECK(s.forces_at(kAtreides, kFlat, 0) == 0);  // not yet
  for (Faction f : {kRichese, Faction::Harkonnen})
    if (waiting(s, f)) act(s, f, f == Faction::Harkonnen ? respond(true, karama) : respond(false));
  REQUIRE(s.window_depth == 0);
  CHECK(s.windows[0].cancelled == 1);
  CHECK(zone(s, 3) == TokenZone::Reserve);
  // The retake: without a token (any token), with forces allowed.
  CHECK(rejected(s, kAtreides, nf_ship(kFlat, 5)).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kAtreides, nf_ship(kFlat, 3)).code == RejectCode::IllegalChoice);
  CHECK_FALSE(has_action(s, kAtreides, nf_ship(kFlat, 5)));
  act(s, kAtreides, ship(kFlat, 2));
  CHECK(s.forces_at(kAtreides, kFlat, 0) == 2);
  check_custody(s);
}

TEST_CASE("No-Field battle: the Atreides' Karama look shows the plan without the dial (ruling no_field_prescience)",
          "[richese][no_field][rulings][karama]") {
  for (const char* reading : {"no_dial", "any_element"}) {
    INFO(reading);
    GameState s = nf_board({kRichese, kAtreides}, ruling("no_field_prescience", reading), true);
    lay(s, 3, kArrakeen);
    place(s, kAtreides, kArrakeen, 4);
    const uint8_t karama = give_another(s, kAtreides, data::TreacheryKind::Karama);
    enter_battle_phase(s);
    act(s, kAtreides, play(karama, 0, static_cast<uint8_t>(kRichese)));
    REQUIRE(s.battle.karama_seen != 0);
    no_abilities(s);
    act(s, kRichese, plan(L(kRichese, 0), 2));
    const std::string v = view_of(s, kAtreides);
    const auto* b = view(v)->battle();
    REQUIRE(b);
    const auto* p = s.battle.aggressor == s.seat_of(kRichese) ? b->aggressor_plan() : b->defender_plan();
    REQUIRE(p);
    CHECK(p->leader() != nullptr);  // the rest of the plan is seen
    if (std::string(reading) == "no_dial") {
      CHECK(p->dial_hidden());
      CHECK(p->dial() == 0);
    } else {
      CHECK_FALSE(p->dial_hidden());
      CHECK(p->dial() == 2);
    }
    check_projections(s);
  }
}

TEST_CASE("No-Field with the Ornithopter: the marker is one member of the first group, and revealed there it grants no second move",
          "[richese][no_field][ornithopter]") {
  GameState s = nf_board({kRichese, kAtreides, Faction::Harkonnen});
  lay(s, 5, kFlat);
  place(s, kRichese, kFlat, 3);
  const uint8_t card = from_cache(s, kRichese, data::TreacheryKind::Ornithopter);
  pass_until_ship_or_move(s, kRichese);
  if (s.step == 0) act(s, kRichese, pass());
  REQUIRE(s.step == 2);
  action::Move first = move(kFlat, 1, 31, 1);  // to the Funeral Plain: the marker and one force, the first of two groups
  first.ornithopter = 2;
  act(s, kRichese, first);
  REQUIRE(s.shipmove.orn_to == 31);
  CHECK(s.shipmove.orn_arrived[0] == 1);
  CHECK(s.shipmove.orn_arrived[1] == 1);  // the marker, by identity
  CHECK(rejected(s, kRichese, move(31, 0, kFlat, 1)).code == RejectCode::IllegalChoice);  // not the marker again
  // Revealed at the arrival place while the second group is pending: its forces are arrivals too.
  act(s, kRichese, action::RicheseReveal{});
  const int at = s.forces_at(kRichese, 31, 0);
  CHECK(at == 1 + 5);
  CHECK(s.shipmove.orn_arrived[0] == at);
  CHECK(s.shipmove.orn_arrived[1] == 0);
  CHECK(rejected(s, kRichese, move(31, 1, kFlat)).code == RejectCode::IllegalChoice);
  act(s, kRichese, move(kFlat, 2, 31));  // the second group: the forces left behind
  CHECK(s.forces_at(kRichese, 31, 0) == at + 2);
  CHECK(s.treachery_discard.top() == card);
  check_custody(s);
}

namespace {

// A store in a fresh directory, removed afterwards.
struct NfStore {
  std::filesystem::path dir;
  std::unique_ptr<store::EventStore> st;
  NfStore() {
    static std::atomic<int> n{0};
    dir = std::filesystem::temp_directory_path() / ("mentat-nofield-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    std::filesystem::remove_all(dir);
    store::Options o;
    o.sync = false;
    std::string err;
    st = store::EventStore::open(dir.string(), o, &err);
    REQUIRE(st);
  }
  ~NfStore() {
    st.reset();
    std::filesystem::remove_all(dir);
  }
};

// Stores `s` (a state inside its phase) as the position a game starts from
// (mentat new --position), as an adjudicator sets up a disputed position.
std::string store_position(store::EventStore& st, const GameState& s, const std::string& name) {
  GameSetup g;
  g.seed = s.seed;
  for (Seat x = 0; x < s.num_seats; ++x) g.factions.push_back(s.faction_at(x));
  g.advanced = s.advanced != 0;
  g.max_turns = s.max_turns;
  g.rulings = s.rulings;
  g.modules = s.modules;
  g.start = std::make_shared<const GameState>(s);
  g.resume = true;
  std::string room = name, err;
  REQUIRE(store::create_room(st, g, &room, &err));
  return room;
}

// Submits `a` for `f` at the room's head; returns the version it was stored at.
int64_t submit_as(store::EventStore& st, const std::string& room, Faction f, const Action& a) {
  GameState head;
  std::string err;
  REQUIRE(store::load_state(st, room, -1, &head, &err));
  static int n = 0;
  const auto o = store::submit(st, room, head.seat_of(f), static_cast<int64_t>(head.version), a, "nf-" + std::to_string(n++));
  INFO(o.error);
  REQUIRE(o.ok);
  return o.version;
}

}  // namespace

TEST_CASE("No-Field adjudication: a stored position with a deployed token, forked and rerun under each reading of the pool and destroyed-token rulings",
          "[richese][no_field][rulings][tools]") {
  SECTION("no_field_pool: the Richese dial of 5 (2 forces + the 5 capped by 3 reserves) becomes illegal under reserve_cap") {
    NfStore S;
    GameState s = nf_board({kRichese, kAtreides});  // no_field_pool=additive (the default)
    place(s, kRichese, kArrakeen, 2);
    s.of(kRichese).reserves[0] = 3;
    s.of(kRichese).tanks[0] = 15;
    lay(s, 5, kArrakeen);
    place(s, kAtreides, kArrakeen, 4);
    enter_battle_phase(s);
    no_abilities(s);
    REQUIRE(s.phase == Phase::Battle);
    REQUIRE(rules::battle_max_dial(s, s.seat_of(kRichese)) == 5);
    const std::string room = store_position(*S.st, s, "pool");
    const int64_t richese_plan = submit_as(*S.st, room, kRichese, plan(L(kRichese, 0), 5));
    submit_as(*S.st, room, kAtreides, plan(L(kAtreides, 0), 0));
    GameState head;
    std::string err;
    REQUIRE(store::load_state(*S.st, room, -1, &head, &err));
    CHECK(zone(head, 5) == TokenZone::Revealed);
    CHECK(replay::verify_room(*S.st, room).ok);

    // The fork at the position under the other reading: the dial's limit is the reserves.
    const Rulings other = ruling("no_field_pool", "reserve_cap");
    REQUIRE(store::fork_room(*S.st, room, 0, "pool-cap", &other, &err));
    GameState f;
    REQUIRE(store::load_state(*S.st, "pool-cap", -1, &f, &err));
    CHECK(rules::battle_max_dial(f, f.seat_of(kRichese)) == 3);
    CHECK(zone(f, 5) == TokenZone::Board);
    CHECK(validate(f, f.seat_of(kRichese), plan(L(kRichese, 0), 5)).has_value());
    CHECK(replay::verify_room(*S.st, "pool-cap").ok);

    // rerun: the first divergence is the Richese plan, refused under reserve_cap.
    const auto r = replay::rerun(*S.st, room, other, 0);
    REQUIRE(r.ok);
    CHECK(r.diverged);
    CHECK(r.version == richese_plan);
    CHECK(r.kind == "illegal");
    const auto same = replay::rerun(*S.st, room, s.rulings, 0);
    REQUIRE(same.ok);
    CHECK_FALSE(same.diverged);
  }
  SECTION("no_field_destroyed: the storm over a concealed 5 with 1 in reserve takes the rest of the territory under "
          "shortfall_from_territory") {
    NfStore S;
    GameState s = game({kRichese, kAtreides}, false, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
    play_until(s, Phase::Storm, 2);
    REQUIRE(s.phase == Phase::Storm);
    forces_to_reserves(s, kRichese);
    s.storm_sector = 17;
    s.of(kRichese).reserves[0] = static_cast<uint8_t>(s.of(kRichese).reserves[0] - 4);
    s.forces_at(kRichese, kCielagoEast, 0) = 4;  // sheltered: sector 2, the same territory
    s.of(kRichese).tanks[0] = static_cast<uint8_t>(s.of(kRichese).tanks[0] + s.of(kRichese).reserves[0] - 1);
    s.of(kRichese).reserves[0] = 1;
    lay(s, 5, kCielagoWest);  // sector 0: the storm passes
    const std::string room = store_position(*S.st, s, "storm");
    int64_t last_dial = -1;
    for (uint8_t d : s.storm_dialers)
      if (d != kNone8) last_dial = submit_as(*S.st, room, s.faction_at(static_cast<Seat>(d)), dial(1));
    GameState head;
    std::string err;
    REQUIRE(store::load_state(*S.st, room, -1, &head, &err));
    REQUIRE(head.storm_sector == 1);
    CHECK(zone(head, 5) == TokenZone::Revealed);
    CHECK(head.forces_at(kRichese, kCielagoEast, 0) == 4);  // capped: only the one in reserve is lost
    CHECK(head.of(kRichese).reserves[0] == 0);

    const Rulings other = ruling("no_field_destroyed", "shortfall_from_territory");
    const auto r = replay::rerun(*S.st, room, other, 0);
    REQUIRE(r.ok);
    CHECK(r.diverged);
    CHECK(r.version == last_dial);
    CHECK(r.kind == "state");
    bool forces = false;
    for (const auto& e : r.diff) forces |= e.group == "forces" && e.what.find("Cielago North") != std::string::npos;
    CHECK(forces);
    // Kept as a room, the adjudicator plays the storm again under the other reading.
    int64_t kept = -1;
    REQUIRE(replay::keep_rerun(*S.st, room, other, 0, r, "storm-shortfall", &kept, &err));
    GameState k;
    REQUIRE(store::load_state(*S.st, "storm-shortfall", -1, &k, &err));
    CHECK(k.rulings.is(RulingId::NoFieldDestroyed, 1));
    CHECK(zone(k, 5) == TokenZone::Board);
    REQUIRE(waiting_for(k) != 0);
    submit_as(*S.st, "storm-shortfall", k.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(k)))), dial(1));
    REQUIRE(store::load_state(*S.st, "storm-shortfall", -1, &k, &err));
    CHECK(zone(k, 5) == TokenZone::Revealed);
    CHECK(k.forces_at(kRichese, kCielagoEast, 0) == 0);  // the shortfall: 4 more from the territory
    CHECK(replay::verify_room(*S.st, "storm-shortfall").ok);
  }
}

namespace {

// Richese at their shipment step, the Harkonnen holding a Karama, every other
// seat asked after an ability is used (karama_windows=all_other_seats).
GameState nf_window_position() {
  GameState s = nf_board({kRichese, kAtreides, Faction::Harkonnen}, ruling("karama_windows", "all_other_seats"));
  give_another(s, Faction::Harkonnen, data::TreacheryKind::Karama);
  pass_until_ship_or_move(s, kRichese);
  return s;
}

}  // namespace

// The child of the test below, run as its own process (hidden: only run by name): ships the 5 and is
// killed by SIGKILL as soon as the store acknowledged it, while the KaramaCancel window is open.
TEST_CASE("No-Field child: ship the 5 into a KaramaCancel window, then SIGKILL", "[.nofield_child]") {
  const char* dir = std::getenv("MENTAT_NF_CHILD_DIR");
  if (!dir) return;
  std::string err;
  auto st = store::EventStore::open(dir, {}, &err);  // synced writes: acknowledged means on disk
  REQUIRE(st);
  GameState head;
  REQUIRE(store::load_state(*st, "window", -1, &head, &err));
  // MENTAT_NF_CHILD_GIFT: the Richese give that card to their ally instead (the gift's KaramaCancel window).
  const char* gift = std::getenv("MENTAT_NF_CHILD_GIFT");
  const Action a = gift ? Action(action::RicheseGift{.card = static_cast<uint8_t>(std::atoi(gift))}) : Action(nf_ship(kArrakeen, 5));
  const auto o = store::submit(*st, "window", head.seat_of(kRichese), static_cast<int64_t>(head.version), a, "nf-child");
  REQUIRE(o.ok);
  ::raise(SIGKILL);  // no destructor runs, the database is not closed
}

namespace {
// The store reopened after the child's kill (the write-ahead log recovered): the room's head, checked
// to be bit for bit the state `a` gives `start` in memory (one window open), which is returned.
GameState reopened_as(NfStore& S, const GameState& start, Faction f, const Action& a) {
  std::string err;
  S.st = store::EventStore::open(S.dir.string(), {}, &err);
  REQUIRE(S.st);
  GameState head;
  REQUIRE(store::load_state(*S.st, "window", -1, &head, &err));
  GameState expected = start;
  expected.version = 0;  // a position game starts at version 0
  act(expected, f, a);
  REQUIRE(expected.window_depth == 1);
  CHECK(head.version == 1);
  INFO(replay::diff_to_text(replay::diff_states(expected, head)));
  CHECK((codec::encode_state(head) == codec::encode_state(expected)));
  CHECK(waiting_for(head) == waiting_for(expected));
  return head;
}
// Runs the child above on the store at `dir` (its room "window"); true when it died by SIGKILL.
bool run_killed_child(const std::filesystem::path& dir, const char* gift) {
  setenv("MENTAT_NF_CHILD_DIR", dir.c_str(), 1);
  if (gift) setenv("MENTAT_NF_CHILD_GIFT", gift, 1);
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string(), name = "No-Field child:*";
  char* argv[] = {self.data(), name.data(), nullptr};
  pid_t pid = -1;
  const bool spawned = posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv, environ) == 0;
  int status = 0;
  const bool waited = spawned && ::waitpid(pid, &status, 0) == pid;
  unsetenv("MENTAT_NF_CHILD_DIR");
  unsetenv("MENTAT_NF_CHILD_GIFT");
  return waited && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}
}  // namespace

TEST_CASE("Richese gift: a process killed (kill -9) with the gift's KaramaCancel window open, the room resumes it exactly, gives once and verifies",
          "[richese][alliance][karama][store]") {
  NfStore S;
  GameState start = nf_board({kRichese, kAtreides, Faction::Harkonnen}, ruling("karama_windows", "all_other_seats"));
  ally(start, kRichese, Faction::Harkonnen);
  const uint8_t card = start.richese.cache.ids[0];  // a Richese card, from the cache to the Richese hand
  start.richese.cache.remove(card);
  start.of(kRichese).hand.push(card);
  give_another(start, kAtreides, data::TreacheryKind::Karama);
  check_custody(start);
  store_position(*S.st, start, "window");
  S.st.reset();  // the child opens the store
  REQUIRE(run_killed_child(S.dir, std::to_string(card).c_str()));

  std::string err;
  GameState head = reopened_as(S, start, kRichese, action::RicheseGift{.card = card});
  REQUIRE(head.window_depth == 1);
  CHECK(head.windows[0].kind == WindowKind::KaramaCancel);
  CHECK(head.windows[0].subject == static_cast<uint8_t>(rules::Ability::RicheseGift));
  CHECK(head.of(kRichese).hand.contains(card));  // the pending intent: not given yet
  REQUIRE(replay::verify_room(*S.st, "window").ok);
  for (Faction f : {kAtreides, Faction::Harkonnen}) {  // nobody cancels: it resumes once
    REQUIRE(store::load_state(*S.st, "window", -1, &head, &err));
    if ((waiting_for(head) >> head.seat_of(f)) & 1u) submit_as(*S.st, "window", f, respond(false));
  }
  REQUIRE(store::load_state(*S.st, "window", -1, &head, &err));
  CHECK(head.window_depth == 0);
  CHECK(head.of(Faction::Harkonnen).hand.contains(card));
  CHECK_FALSE(head.of(kRichese).hand.contains(card));
  check_custody(head);
  const auto r = replay::verify_room(*S.st, "window");
  INFO(r.check << ": " << r.detail);
  CHECK(r.ok);
}

TEST_CASE("No-Field: a process killed (kill -9) with the No-Field KaramaCancel window open, the room resumes it exactly and verifies",
          "[richese][no_field][karama][store]") {
  NfStore S;
  const GameState start = nf_window_position();
  REQUIRE(start.shipmove.current == start.seat_of(kRichese));
  store_position(*S.st, start, "window");
  S.st.reset();  // the child opens the store

  REQUIRE(run_killed_child(S.dir, nullptr));

  // Reopened (the write-ahead log recovered): the acknowledged shipment is there, its window open,
  // bit for bit the state the same action gives in memory.
  std::string err;
  GameState head = reopened_as(S, start, kRichese, nf_ship(kArrakeen, 5));
  REQUIRE(head.window_depth == 1);
  CHECK(head.windows[0].kind == WindowKind::KaramaCancel);
  CHECK(zone(head, 5) == TokenZone::Reserve);  // not deployed while the window is open
  REQUIRE(replay::verify_room(*S.st, "window").ok);

  // It resumes once: the Harkonnen cancel with their Karama, the Atreides let it be.
  const uint8_t karama = [&] {
    for (int i = 0; i < head.of(Faction::Harkonnen).hand.n; ++i)
      if (data::treachery_card(head.of(Faction::Harkonnen).hand.ids[i]).kind == data::TreacheryKind::Karama)
        return head.of(Faction::Harkonnen).hand.ids[i];
    return kNone8;
  }();
  REQUIRE(karama != kNone8);
  for (Faction f : {kAtreides, Faction::Harkonnen}) {
    REQUIRE(store::load_state(*S.st, "window", -1, &head, &err));
    if ((waiting_for(head) >> head.seat_of(f)) & 1u) submit_as(*S.st, "window", f, f == Faction::Harkonnen ? respond(true, karama) : respond(false));
  }
  REQUIRE(store::load_state(*S.st, "window", -1, &head, &err));
  CHECK(head.window_depth == 0);
  CHECK(zone(head, 5) == TokenZone::Reserve);
  CHECK(head.treachery_discard.contains(karama));
  CHECK(head.shipmove.current == head.seat_of(kRichese));
  CHECK(rejected(head, kRichese, nf_ship(kArrakeen, 5)).code == RejectCode::IllegalChoice);  // the retake is without a token
  check_custody(head);
  const auto r = replay::verify_room(*S.st, "window");
  INFO(r.check << ": " << r.detail);
  CHECK(r.ok);
}

namespace {

// The Richese at their shipment step in the advanced game with the Guild
// holding a Karama (its 1.14.05 power), the 3 face up (the last revealed).
GameState guild_cancel_board(Rulings r, uint8_t* karama) {
  GameState s = nf_board({kRichese, Faction::Guild, kAtreides}, r, true);
  *karama = give_another(s, Faction::Guild, data::TreacheryKind::Karama);
  s.richese.no_field[token(3)].zone = TokenZone::Revealed;
  set_spice(s, kRichese, 10);
  set_spice(s, Faction::Guild, 5);
  check_custody(s);
  return s;
}

action::PlayCard guild_cancels(uint8_t karama, Faction target) {
  return play(karama, 0, static_cast<uint8_t>(target));
}

}  // namespace

TEST_CASE("No-Field: the Guild's Karama (1.14.05) cancels a token shipment, the token back to the supply still concealed (ruling no_field_guild_cancel)",
          "[richese][no_field][guild][karama][rulings]") {
  uint8_t karama = kNone8;
  SECTION("cancelled (the default): as if never made, the 3 face up again, the spice refunded") {
    GameState s = guild_cancel_board(Rulings::defaults(), &karama);
    pass_until_ship_or_move(s, kRichese);
    REQUIRE(s.shipmove.current == s.seat_of(kRichese));
    const int reserves = s.of(kRichese).reserves[0];
    act(s, kRichese, nf_ship(kArrakeen, 5));  // one force's price, 1, to the Guild (2.06.04)
    CHECK(s.of(kRichese).spice == 9);
    CHECK(s.of(Faction::Guild).spice == 6);
    CHECK(zone(s, 5) == TokenZone::Board);
    CHECK(zone(s, 3) == TokenZone::Reserve);  // released when the 5 was placed (ruling no_field_face_up)
    CHECK(has_action(s, Faction::Guild, guild_cancels(karama, kRichese)));
    act(s, Faction::Guild, guild_cancels(karama, kRichese));
    CHECK(zone(s, 5) == TokenZone::Reserve);
    CHECK(zone(s, 3) == TokenZone::Revealed);
    CHECK(s.forces_in_location(kRichese, kArrakeen) == 0);
    CHECK(s.of(kRichese).reserves[0] == reserves);
    CHECK(s.of(kRichese).spice == 10);
    CHECK(s.of(Faction::Guild).spice == 5);
    CHECK(s.treachery_discard.top() == karama);
    check_custody(s);
    check_projections(s);
  }
  SECTION("cancelled after the Richese revealed it: the forces it became go back to reserves too") {
    GameState s = guild_cancel_board(Rulings::defaults(), &karama);
    pass_until_ship_or_move(s, kRichese);
    const int reserves = s.of(kRichese).reserves[0];
    act(s, kRichese, nf_ship(kArrakeen, 5));
    act(s, kRichese, action::RicheseReveal{});
    REQUIRE(s.forces_at(kRichese, kArrakeen, 0) == 5);
    REQUIRE(zone(s, 5) == TokenZone::Revealed);
    act(s, Faction::Guild, guild_cancels(karama, kRichese));
    CHECK(s.forces_in_location(kRichese, kArrakeen) == 0);
    CHECK(s.of(kRichese).reserves[0] == reserves);
    CHECK(zone(s, 5) == TokenZone::Reserve);
    CHECK(zone(s, 3) == TokenZone::Revealed);
    check_custody(s);
  }
  SECTION("the ally's token shipment: its forces back to its reserves, the token back to the supply") {
    GameState s = guild_cancel_board(Rulings::defaults(), &karama);
    ally(s, kAtreides, kRichese);
    pass_until_ship_or_move(s, kAtreides);
    REQUIRE(s.shipmove.current == s.seat_of(kAtreides));
    act(s, kRichese, action::AllyPermission{.no_field = true});  // no_field_ally_permission = richese_allows (the default)
    const int reserves = s.of(kAtreides).reserves[0], spice = s.of(kAtreides).spice;
    act(s, kAtreides, nf_ship(kFlat, 5));  // revealed at once: five Atreides forces
    REQUIRE(s.forces_at(kAtreides, kFlat, 0) == 5);
    act(s, Faction::Guild, guild_cancels(karama, kAtreides));
    CHECK(s.forces_at(kAtreides, kFlat, 0) == 0);
    CHECK(s.of(kAtreides).reserves[0] == reserves);
    CHECK(s.of(kAtreides).spice == spice);
    CHECK(zone(s, 5) == TokenZone::Reserve);
    CHECK(zone(s, 3) == TokenZone::Revealed);
    check_custody(s);
  }
  SECTION("a token shipment's Smuggler force goes back with it") {
    GameState s = guild_cancel_board(Rulings::defaults(), &karama);
    pass_until_ship_or_move(s, kRichese);
    const int reserves = s.of(kRichese).reserves[0];
    s.richese.shipment.token = 0;  // nothing recorded before the shipment (the turn began)
    act(s, kRichese, nf_ship(kFlat, 0));
    act(s, Faction::Guild, guild_cancels(karama, kRichese));
    CHECK(s.forces_in_location(kRichese, kFlat) == 0);
    CHECK(s.of(kRichese).reserves[0] == reserves);
    CHECK(zone(s, 0) == TokenZone::Reserve);
    check_custody(s);
  }
  SECTION("not_cancellable: the power is refused for a token shipment, not for forces") {
    GameState s = guild_cancel_board(ruling("no_field_guild_cancel", "not_cancellable"), &karama);
    pass_until_ship_or_move(s, kRichese);
    act(s, kRichese, nf_ship(kArrakeen, 5));
    const auto r = rejected(s, Faction::Guild, guild_cancels(karama, kRichese));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("no_field_guild_cancel"));
    CHECK_FALSE(has_action(s, Faction::Guild, guild_cancels(karama, kRichese)));
    CHECK(zone(s, 5) == TokenZone::Board);
  }
  SECTION("karama_windows=all_other_seats: the Guild is asked after a token shipment only when it may cancel it") {
    for (const char* reading : {"cancelled", "not_cancellable"}) {
      INFO(reading);
      GameState s = guild_cancel_board(ruling("no_field_guild_cancel", reading, ruling("karama_windows", "all_other_seats")), &karama);
      pass_until_ship_or_move(s, kRichese);
      act(s, kRichese, nf_ship(kArrakeen, 5));
      while (s.window_depth > 0) act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), respond(false));  // the No-Field ability's window
      CHECK(waiting(s, Faction::Guild) == (std::string(reading) == "cancelled"));
    }
  }
}

TEST_CASE("No-Field: verify reads a Guild-cancelled token shipment as never made, and the shipment made again as the turn's one",
          "[richese][no_field][guild][verify]") {
  NfStore S;
  uint8_t karama = kNone8;
  GameState s = guild_cancel_board(ruling("guild_karama_reship", "yes"), &karama);
  pass_until_ship_or_move(s, kRichese);
  const std::string room = store_position(*S.st, s, "reship");
  submit_as(*S.st, room, kRichese, nf_ship(kArrakeen, 5));
  submit_as(*S.st, room, Faction::Guild, guild_cancels(karama, kRichese));
  submit_as(*S.st, room, kRichese, nf_ship(kArrakeen, 5));  // the same token again: the cancelled shipment never happened
  GameState head;
  std::string err;
  REQUIRE(store::load_state(*S.st, room, -1, &head, &err));
  CHECK(zone(head, 5) == TokenZone::Board);
  CHECK(head.of(kRichese).spice == 9);
  const auto r = replay::verify_room(*S.st, room);
  INFO(r.check << ": " << r.detail);
  CHECK(r.ok);
}

TEST_CASE("No-Field: Guild bots cancel a token shipment that gives the Richese three strongholds, from the board they see", "[richese][no_field][guild][bots]") {
  for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    uint8_t karama = kNone8;
    GameState s = guild_cancel_board(ruling("karama_windows", "all_other_seats"), &karama);
    place(s, kRichese, kArrakeen, 2);
    place(s, kRichese, loc("Carthag"), 2);
    pass_until_ship_or_move(s, kRichese);
    act(s, kRichese, nf_ship(loc("Sietch Tabr"), 0));  // the third stronghold, whatever the token is worth
    while (s.window_depth > 0) act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), respond(false));
    REQUIRE(waiting(s, Faction::Guild));
    const auto in = bots::make_input(s, s.seat_of(Faction::Guild));
    const Action a = bots::make_bot(profile, 3)->choose(in);
    REQUIRE(bots::is_valid_choice(in, a));
    const bool cancels = a == Action(guild_cancels(karama, kRichese));
    if (profile != bots::Profile::Easy)  // easy: a uniformly random legal action
      CHECK(cancels == (profile == bots::Profile::Hard || profile == bots::Profile::Brutal));
    act(s, Faction::Guild, a);
    CHECK((zone(s, 0) == TokenZone::Reserve) == cancels);
    check_custody(s);
  }
}
