// verify's once-only checks read the history itself, not the state's flags
// (issue 12 item 5): replay::OnceOnly.
#include <catch2/catch.hpp>

#include "core/rules/rules.h"
#include "replay/fold.h"
#include "support/scenario.h"

using namespace mentat;
using scenario::game;

namespace {

codec::Event play_karama(Seat seat, uint8_t card, uint8_t value, uint8_t target) {
  codec::Event e;
  e.version = 1;
  e.seat = seat;
  e.action = action::PlayCard{.card = card, .target = target, .value = value};
  return e;
}

uint8_t a_karama() {
  for (int id = 0; id < data::kNumTreacheryCards; ++id)
    if (data::treachery_card(static_cast<TreacheryId>(id)).kind == data::TreacheryKind::Karama) return static_cast<uint8_t>(id);
  return kNone8;
}

}  // namespace

TEST_CASE("once-only: a faction Karama power used twice is found from the history, whatever the flags say", "[verify][once]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen}, true);
  const uint8_t k = a_karama();
  REQUIRE(k != kNone8);
  s.of(Faction::Atreides).karama_power_used = 0;  // the flag says nothing: the history decides
  replay::OnceOnly once;
  const Seat atreides = s.seat_of(Faction::Atreides);
  CHECK_FALSE(once.check(s, play_karama(atreides, k, 0, static_cast<uint8_t>(Faction::Harkonnen))).has_value());
  // Guild rates and prevention are not the once-per-game power (3.01.11.02/03).
  CHECK_FALSE(once.check(s, play_karama(atreides, k, rules::kKaramaGuildRates, kNone8)).has_value());
  CHECK_FALSE(once.check(s, play_karama(atreides, k, rules::kKaramaPrevent | 1, 4)).has_value());
  // The other faction's first use is fine; the Atreides' second is not.
  CHECK_FALSE(once.check(s, play_karama(s.seat_of(Faction::Harkonnen), k, 0, 0)).has_value());
  auto twice = once.check(s, play_karama(atreides, k, 0, static_cast<uint8_t>(Faction::Harkonnen)));
  REQUIRE(twice.has_value());
  CHECK_THAT(*twice, Catch::Contains("Atreides once-per-game Karama power"));
}

TEST_CASE("once-only: the basic game has no faction Karama power to count", "[verify][once]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen}, false);
  replay::OnceOnly once;
  const uint8_t k = a_karama();
  CHECK_FALSE(once.check(s, play_karama(0, k, 0, 1)).has_value());
  CHECK_FALSE(once.check(s, play_karama(0, k, 0, 1)).has_value());
}

TEST_CASE("once-only: a shuffle drawing a card twice is found", "[verify][once]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen});
  replay::OnceOnly once;
  codec::Event e;
  e.draws = {{DrawKind::ShuffleSpice, 3}, {DrawKind::ShuffleSpice, 7}, {DrawKind::ShuffleSpice, 2}};
  CHECK_FALSE(once.check(s, e).has_value());
  e.draws.push_back({DrawKind::ShuffleSpice, 7});
  auto bad = once.check(s, e);
  REQUIRE(bad.has_value());
  CHECK_THAT(*bad, Catch::Contains("same card twice"));
  // Two different piles shuffled in one event are separate shuffles.
  e.draws = {{DrawKind::ShuffleTreachery, 3}, {DrawKind::ShuffleSpice, 3}, {DrawKind::ShuffleTraitors, 3}};
  CHECK_FALSE(once.check(s, e).has_value());
}

TEST_CASE("once-only: a second shipment or paid revival of a faction in one turn is found from the history", "[verify][once]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen});
  s.turn = 2;
  s.of(Faction::Atreides).shipped = 0;  // the flags say nothing: the history decides
  replay::OnceOnly once;
  const Seat atreides = s.seat_of(Faction::Atreides), harkonnen = s.seat_of(Faction::Harkonnen);
  auto act = [](Seat seat, ActionKind k) {
    codec::Event e;
    e.version = 1;
    e.seat = seat;
    e.action = Action::of_kind(k);
    return e;
  };
  CHECK_FALSE(once.check(s, act(atreides, ActionKind::Ship)).has_value());
  CHECK_FALSE(once.check(s, act(harkonnen, ActionKind::Ship)).has_value());
  CHECK_FALSE(once.check(s, act(atreides, ActionKind::Revive)).has_value());
  CHECK_FALSE(once.check(s, act(atreides, ActionKind::Move)).has_value());
  auto twice = once.check(s, act(atreides, ActionKind::Ship));
  REQUIRE(twice.has_value());
  CHECK_THAT(*twice, Catch::Contains("Atreides ship a second time in turn 2"));
  auto revived = once.check(s, act(atreides, ActionKind::Revive));
  REQUIRE(revived.has_value());
  CHECK_THAT(*revived, Catch::Contains("second revival"));
  // 1.00.04: a Karama cancelled the ability of the first shipment (nothing
  // was applied): the faction retakes its shipment without it.
  s.cancelled_ability = 3;
  s.cancelled_faction = static_cast<uint8_t>(Faction::Atreides);
  CHECK_FALSE(once.check(s, act(atreides, ActionKind::Ship)).has_value());
  s.cancelled_ability = kNone8;
  s.cancelled_faction = kNoFaction;
  // A new turn: each may ship and revive again.
  s.turn = 3;
  CHECK_FALSE(once.check(s, act(atreides, ActionKind::Ship)).has_value());
  CHECK_FALSE(once.check(s, act(atreides, ActionKind::Revive)).has_value());
}

TEST_CASE("once-only: the expansions' once-per-game powers (CHOAM's special Karama and Inflation, the Richese purchase) from the history",
          "[verify][once]") {
  GameState s = game({Faction::Choam, Faction::Richese}, true, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
  s.choam.karama_used = s.richese.karama_used = 0;  // the flags say nothing: the history decides
  const Action powers[] = {action::ChoamKarama{.karama = 12, .cards = {28}}, action::ChoamInflation{.side = 1},
                           action::RicheseBuy{.karama = 13, .card = 40}};
  for (const auto& a : powers) {
    INFO(action_kind_name(a.kind()));
    replay::OnceOnly once;
    codec::Event e;
    e.seat = 0;
    e.action = a;
    CHECK_FALSE(once.check(s, e).has_value());
    e.action = action::Pass{};
    CHECK_FALSE(once.check(s, e).has_value());
    e.action = a;
    auto twice = once.check(s, e);
    REQUIRE(twice.has_value());
    CHECK_THAT(*twice, Catch::Contains("second time"));
  }
}

TEST_CASE("once-only: a No-Field token shipped twice in a row is found from the history (a cancelled one forgotten)", "[verify][once][no_field]") {
  GameState s = game({Faction::Richese, Faction::Atreides}, false, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
  auto ship = [&](uint8_t v) {
    codec::Event e;
    e.version = 1;
    e.seat = s.seat_of(Faction::Richese);
    action::Ship a;
    a.to = 0;
    a.no_field = v;
    e.action = a;
    return e;
  };
  auto turn = [&](int n) {  // one shipment a turn (1.06.02 is checked too)
    GameState t = s;
    t.turn = static_cast<uint8_t>(n);
    return t;
  };
  replay::OnceOnly once;
  CHECK_FALSE(once.check(turn(1), ship(5)).has_value());
  CHECK_FALSE(once.check(turn(2), ship(3)).has_value());
  CHECK(once.check(turn(3), ship(3)).has_value());  // the same token again
  replay::OnceOnly again;
  CHECK_FALSE(again.check(turn(1), ship(5)).has_value());
  CHECK_FALSE(again.check(turn(2), ship(3)).has_value());
  GameState cancelled = turn(2);  // a Karama cancelled that shipment of the 3: it never happened
  cancelled.cancelled_ability = static_cast<uint8_t>(rules::Ability::RicheseNoField);
  cancelled.cancelled_faction = static_cast<uint8_t>(Faction::Richese);
  codec::Event pass;
  pass.version = 2;
  pass.seat = s.seat_of(Faction::Richese);
  pass.action = action::Pass{};
  CHECK_FALSE(again.check(cancelled, pass).has_value());
  CHECK_FALSE(again.check(turn(3), ship(3)).has_value());
  CHECK(again.check(turn(4), ship(3)).has_value());
}

TEST_CASE("once-only: a token shipment retaken after a Karama cancelled another of its abilities is one shipment", "[verify][once][no_field]") {
  GameState s = game({Faction::Richese, Faction::Guild}, false, 7, Rulings::defaults(), data::module_bit(data::Module::ChoamRichese));
  auto ship = [&](uint8_t v) {
    codec::Event e;
    e.version = 1;
    e.seat = s.seat_of(Faction::Richese);
    action::Ship a;
    a.to = 0;
    a.no_field = v;
    e.action = a;
    return e;
  };
  auto turn = [&](int n, bool cancelled) {
    GameState t = s;
    t.turn = static_cast<uint8_t>(n);
    if (cancelled) {  // e.g. the Guild's half price for its ally was cancelled: the shipment applied nothing
      t.cancelled_ability = static_cast<uint8_t>(rules::Ability::GuildHalfPrice);
      t.cancelled_faction = static_cast<uint8_t>(Faction::Richese);
    }
    return t;
  };
  codec::Event respond;
  respond.version = 2;
  respond.seat = s.seat_of(Faction::Guild);
  respond.action = action::Pass{};
  replay::OnceOnly once;
  CHECK_FALSE(once.check(turn(1, false), ship(5)).has_value());
  CHECK_FALSE(once.check(turn(2, false), ship(3)).has_value());
  CHECK_FALSE(once.check(turn(2, true), respond).has_value());  // the cancellation stands for two events
  CHECK_FALSE(once.check(turn(2, true), respond).has_value());
  CHECK_FALSE(once.check(turn(2, true), ship(3)).has_value());  // the retake, the same token
  CHECK_FALSE(once.check(turn(2, true), respond).has_value());  // still standing: the retake is not forgotten
  CHECK(once.check(turn(3, false), ship(3)).has_value());
}

TEST_CASE("once-only: a shipment the Guild's Karama cancelled (1.14.05) and made again is the turn's one shipment", "[verify][once]") {
  GameState s = game({Faction::Atreides, Faction::Guild}, true);
  s.turn = 2;
  s.phase = Phase::ShipmentMovement;
  const Seat atreides = s.seat_of(Faction::Atreides), guild = s.seat_of(Faction::Guild);
  codec::Event ship;
  ship.version = 1;
  ship.seat = atreides;
  ship.action = action::Ship{};
  const uint8_t k = a_karama();
  replay::OnceOnly once;
  CHECK_FALSE(once.check(s, ship).has_value());
  CHECK_FALSE(once.check(s, play_karama(guild, k, 0, static_cast<uint8_t>(Faction::Atreides))).has_value());
  CHECK_FALSE(once.check(s, ship).has_value());  // ruling guild_karama_reship=yes: shipped again
  CHECK(once.check(s, ship).has_value());         // but not a third time
}
