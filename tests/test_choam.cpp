// CHOAM (CHOAM & Richese, issue 15; core/factions/choam.cpp, docs/factions/choam.md):
// one scenario per ability, each able to fail (outcomes asserted).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "bots/bot.h"
#include "bots/selfplay.h"
#include "events/codec.h"
#include "inspect/projection.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "support/module_game.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;

namespace {

constexpr auto kChoam = Faction::Choam;

// Rules version 4 made the reference's sale timing (choam_sell_timing = end_of_phase) the default: the
// tests of the any-time sale, and those whose CHOAM holds cards across the ends of phases, name any_time.
Rulings sell_any_time(Rulings r = Rulings::defaults()) {
  std::string error;
  REQUIRE(r.set("choam_sell_timing", "any_time", &error));
  return r;
}

// A game with CHOAM's module under ruling choam_sell_timing = any_time (end_of_phase games: reference_game).
GameState choam_game(std::initializer_list<Faction> factions, bool advanced = false, uint64_t seed = 7,
                     Rulings rulings = Rulings::defaults()) {
  return game(factions, advanced, seed, sell_any_time(rulings), data::module_bit(data::Module::ChoamRichese));
}
// A game with CHOAM's module under `rulings` as they are (the default sale timing: end_of_phase).
GameState reference_game(std::initializer_list<Faction> factions, Rulings rulings = Rulings::defaults()) {
  return game(factions, false, 7, rulings, data::module_bit(data::Module::ChoamRichese));
}

// Whether `a` is among f's legal actions when the game waits for f (any-time
// actions are offered to a seat the game waits for).
bool has_action(const GameState& s0, Faction f, const Action& a) {
  GameState s = s0;
  s.waiting = static_cast<uint8_t>(s.waiting | (1u << s.seat_of(f)));
  const auto acts = legal_actions(s, s.seat_of(f));
  return std::find(acts.begin(), acts.end(), a) != acts.end();
}

}  // namespace

TEST_CASE("CHOAM setup: 2 spice, 20 forces in reserve, hand limit 5, no free revival, the Auditor only in the advanced game",
          "[choam]") {
  for (bool advanced : {false, true}) {
    INFO("advanced " << advanced);
    GameState s = choam_game({Faction::Atreides, kChoam, Faction::Fremen}, advanced);
    check_custody(s);
    CHECK(s.of(kChoam).spice == 2);
    CHECK(s.of(kChoam).reserves[0] == 20);
    int on_planet = 0;
    for (int l = 0; l < data::kNumLocations; ++l) on_planet += s.forces_in_location(kChoam, static_cast<LocationId>(l));
    CHECK(on_planet == 0);
    CHECK(rules::hand_limit(s, kChoam) == 5);
    CHECK(data::faction_setup(kChoam).free_revival == 0);
    CHECK(s.leader_in_game(data::kAuditor) == advanced);
    // The Auditor's traitor card is in play exactly when the Auditor is.
    bool dealt = s.traitor_deck.contains(data::kAuditor);
    for (const auto& fs : s.f) dealt = dealt || fs.traitor_offer.contains(data::kAuditor) || fs.traitors.contains(data::kAuditor);
    CHECK(dealt == advanced);
    CHECK(s.leaders[data::kAuditor].holder == (advanced ? static_cast<uint8_t>(kChoam) : kNoFaction));
    // The Richese cache is in the game with the module (custody checked above).
    CHECK(s.richese.cache.n == data::card_set(data::CardSet::Richese).count);
  }
}

TEST_CASE("CHOAM plays end to end: mentat new accepts it with its module, and a game reaches its second turn", "[choam]") {
  plays_with_module(kChoam, Faction::Harkonnen, data::module_bit(data::Module::ChoamRichese));
}

TEST_CASE("CHOAM revival: any number of forces at 1 spice each, a Karama prevention brings back 1.05.01 once", "[choam][revival]") {
  GameState s = choam_game({Faction::Atreides, kChoam});
  play_until(s, Phase::Storm);
  auto& fs = s.of(kChoam);
  fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] - 8);
  fs.tanks[0] = 8;
  set_spice(s, kChoam, 10);
  // Re-enter the phase so CHOAM is asked with forces in the tanks.
  rules::Ctx c{s, nullptr};
  rules::enter_phase(c, Phase::Revival);
  REQUIRE((waiting_for(s) >> s.seat_of(kChoam)) & 1u);
  GameState prevented = s;
  act(s, kChoam, revive(8));
  CHECK(s.of(kChoam).spice == 2);  // 8 x 1
  CHECK(s.of(kChoam).reserves[0] == 20);
  // Prevented: at most 3, at 2 each; the prevention is used up by the answer.
  rules::set_prevented_bit(prevented, static_cast<int>(kChoam), static_cast<int>(rules::Ability::ChoamRevival), true);
  CHECK(rejected(prevented, kChoam, revive(4)).code == RejectCode::IllegalChoice);
  act(prevented, kChoam, revive(3));
  CHECK(prevented.of(kChoam).spice == 4);  // 3 x 2
  CHECK_FALSE(rules::ability_cancelled(prevented, kChoam, rules::Ability::ChoamRevival));
}

TEST_CASE("CHOAM Charity: CHOAM collects 2 per player and pays the claims, a Karama prevention sends them to the bank",
          "[choam][charity]") {
  for (bool prevent : {false, true}) {
    INFO("prevented " << prevent);
    GameState s = choam_game({Faction::Atreides, kChoam, Faction::Harkonnen});
    play_until(s, Phase::Storm);
    set_spice(s, Faction::Atreides, 0);
    set_spice(s, Faction::Harkonnen, 5);
    set_spice(s, kChoam, 1);
    if (prevent) rules::set_prevented_bit(s, static_cast<int>(kChoam), static_cast<int>(rules::Ability::ChoamCharity), true);
    const int64_t bank0 = s.bank;
    rules::Ctx c{s, nullptr};
    rules::enter_phase(c, Phase::Charity);
    REQUIRE(s.phase == Phase::Charity);
    // CHOAM never claims; it collected 2 x 3 players (nothing when prevented).
    CHECK_FALSE((waiting_for(s) >> s.seat_of(kChoam)) & 1u);
    CHECK(s.of(kChoam).spice == (prevent ? 1 : 7));
    CHECK(s.choam.charity_bank == (prevent ? 1 : 0));
    act(s, Faction::Atreides, claim_charity());
    CHECK(s.of(Faction::Atreides).spice == 2);
    CHECK(s.of(kChoam).spice == (prevent ? 1 : 5));  // CHOAM paid the 2
    CHECK(s.bank == bank0 - (prevent ? 2 : 6));
    CHECK_FALSE(rules::ability_cancelled(s, kChoam, rules::Ability::ChoamCharity));  // used up
  }
}

TEST_CASE("CHOAM Charity with the Bene Gesserit: their advanced charity of 2 is paid by CHOAM, doubled by Inflation",
          "[choam][charity]") {
  GameState s = choam_game({Faction::BeneGesserit, kChoam}, true);
  play_until(s, Phase::Storm);
  set_spice(s, Faction::BeneGesserit, 7);
  set_spice(s, kChoam, 0);
  s.choam.inflation = Inflation::Double;
  rules::Ctx c{s, nullptr};
  rules::enter_phase(c, Phase::Charity);
  CHECK(s.of(kChoam).spice == 8);  // 2 x 2 players x 2
  act(s, Faction::BeneGesserit, claim_charity());
  CHECK(s.of(Faction::BeneGesserit).spice == 11);  // 7 + 2 x 2
  CHECK(s.of(kChoam).spice == 4);
}

TEST_CASE("CHOAM sells worthless cards for 2 and duplicates for 3, single cards and weapons are not sold", "[choam][sell]") {
  GameState s = choam_game({Faction::Atreides, kChoam});
  play_until(s, Phase::Bidding);
  empty_hand(s, kChoam);
  set_spice(s, kChoam, 0);
  const uint8_t baliset = give(s, kChoam, data::TreacheryKind::Baliset);
  const uint8_t shield1 = give(s, kChoam, data::TreacheryKind::Shield, 0);
  const uint8_t crysknife = give(s, kChoam, data::TreacheryKind::Crysknife);
  check_custody(s);
  // One shield alone is not a duplicate, a projectile weapon never is.
  CHECK(rejected(s, kChoam, action::ChoamSell{.card = shield1}).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kChoam, action::ChoamSell{.card = crysknife}).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, Faction::Atreides, action::ChoamSell{.card = baliset}).code == RejectCode::IllegalChoice);
  CHECK(has_action(s, kChoam, action::ChoamSell{.card = baliset}));
  act(s, kChoam, action::ChoamSell{.card = baliset});
  CHECK(s.of(kChoam).spice == 2);
  CHECK(s.treachery_discard.top() == baliset);
  const uint8_t shield2 = give(s, kChoam, data::TreacheryKind::Shield, 1);
  act(s, kChoam, action::ChoamSell{.card = shield2});
  CHECK(s.of(kChoam).spice == 5);
  CHECK(s.of(kChoam).hand.contains(shield1));
  CHECK(rejected(s, kChoam, action::ChoamSell{.card = shield1}).code == RejectCode::IllegalChoice);  // no longer a copy
}

TEST_CASE("CHOAM selling: a Karama prevention stops sales until the turn's Mentat Pause", "[choam][sell]") {
  GameState s = choam_game({Faction::Atreides, kChoam});
  play_until(s, Phase::Bidding);
  empty_hand(s, kChoam);
  const uint8_t baliset = give(s, kChoam, data::TreacheryKind::Baliset);
  rules::set_prevented_bit(s, static_cast<int>(kChoam), static_cast<int>(rules::Ability::ChoamDiscarding), true);
  CHECK(rejected(s, kChoam, action::ChoamSell{.card = baliset}).reason.find("Karama") != std::string::npos);
  CHECK_FALSE(has_action(s, kChoam, action::ChoamSell{.card = baliset}));
  play_until(s, Phase::Storm, 2);
  CHECK_FALSE(rules::ability_cancelled(s, kChoam, rules::Ability::ChoamDiscarding));
}

TEST_CASE("CHOAM Inflation: placed in a Mentat Pause, Double then Cancel, then removed, once a game, no bribes while Double",
          "[choam][inflation]") {
  GameState s = choam_game({Faction::Atreides, kChoam, Faction::Harkonnen});
  play_until(s, Phase::MentatPause);
  REQUIRE(s.turn == 1);
  REQUIRE(waiting_for(s) == (1u << s.seat_of(kChoam)));
  CHECK(rejected(s, Faction::Atreides, pass()).code == RejectCode::NotYourDecision);
  CHECK(rejected(s, kChoam, action::ChoamInflation{.side = 3}).code == RejectCode::Malformed);
  act(s, kChoam, action::ChoamInflation{.side = 1});
  CHECK(s.turn == 2);
  CHECK(s.choam.inflation == Inflation::Double);
  // Double: no bribes this turn.
  set_spice(s, Faction::Atreides, 5);
  CHECK(rejected(s, Faction::Atreides, action::Bribe{.to = static_cast<uint8_t>(Faction::Harkonnen), .amount = 1, .note = {}}).reason.find("Inflation") !=
        std::string::npos);
  {  // nor is a Bribe offered as a decision
    GameState w = s;
    w.waiting = static_cast<uint8_t>(w.waiting | rules::bit(w.seat_of(Faction::Atreides)));
    for (const auto& d : decisions(w, w.seat_of(Faction::Atreides))) CHECK(d.kind != ActionKind::Bribe);
  }
  // Double: charity x2.
  set_spice(s, Faction::Atreides, 0);
  set_spice(s, kChoam, 0);
  {
    rules::Ctx c{s, nullptr};
    rules::enter_phase(c, Phase::Charity);
  }
  CHECK(s.of(kChoam).spice == 12);  // 2 x 3 x 2
  act(s, Faction::Atreides, claim_charity());
  CHECK(s.of(Faction::Atreides).spice == 4);
  // The next pause flips it (CHOAM is not asked again: once a game).
  play_until(s, Phase::Storm, 3);
  CHECK(s.choam.inflation == Inflation::Cancel);
  set_spice(s, Faction::Atreides, 5);
  CHECK(validate(s, s.seat_of(Faction::Atreides), action::Bribe{.to = static_cast<uint8_t>(Faction::Harkonnen), .amount = 1, .note = {}}) ==
        std::nullopt);
  // Cancel: no charity at all (nobody asked, CHOAM collects nothing).
  set_spice(s, Faction::Atreides, 0);
  const int choam_before = s.of(kChoam).spice;
  {
    rules::Ctx c{s, nullptr};
    rules::enter_phase(c, Phase::Charity);
  }
  CHECK(s.phase == Phase::Bidding);
  CHECK(s.of(kChoam).spice == choam_before);
  CHECK(s.of(Faction::Atreides).spice == 0);
  play_until(s, Phase::Storm, 4);
  CHECK(s.choam.inflation == Inflation::None);
  CHECK(s.choam.inflation_turn == 1);
}

TEST_CASE("CHOAM Inflation: a Karama prevention is used up by the next Mentat Pause, where CHOAM is not asked", "[choam][inflation]") {
  GameState s = choam_game({Faction::Atreides, kChoam});
  play_until(s, Phase::Bidding);
  rules::set_prevented_bit(s, static_cast<int>(kChoam), static_cast<int>(rules::Ability::ChoamInflation), true);
  play_until(s, Phase::Storm, 2);  // the pause of turn 1 passed without asking CHOAM
  CHECK(s.choam.inflation_turn == 0);
  CHECK_FALSE(rules::ability_cancelled(s, kChoam, rules::Ability::ChoamInflation));
  play_until(s, Phase::MentatPause, 2);
  CHECK(waiting_for(s) == (1u << s.seat_of(kChoam)));  // asked now
}

TEST_CASE("CHOAM views: the Inflation token is public, the base game's view has no CHOAM table", "[choam][views]") {
  GameState s = choam_game({Faction::Atreides, kChoam});
  s.choam.inflation = Inflation::Double;
  const std::string v = inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Atreides)));
  CHECK(v.find("\"inflation\": \"double\"") != std::string::npos);
  GameState base = game({Faction::Atreides, Faction::Harkonnen});
  CHECK(inspect::view_json(base, inspect::Viewer::of(0)).find("\"choam\"") == std::string::npos);
}

TEST_CASE("CHOAM self-play: every profile, in mixed faction sets, basic and advanced: no rejected action, invariants after every event",
          "[choam][bots]") {
  const std::vector<std::vector<Faction>> sets = {
      {kChoam, Faction::Atreides, Faction::Harkonnen},
      {Faction::BeneGesserit, kChoam, Faction::Fremen, Faction::Guild},
      {Faction::Emperor, Faction::Fremen, kChoam, Faction::Atreides, Faction::Harkonnen, Faction::BeneGesserit},
  };
  int sold = 0, inflation = 0;
  selfplay_sets(sets, data::module_bit(data::Module::ChoamRichese), 40, 9, [&](const GameState&, const bots::Step& st) {
    sold += st.action.kind() == ActionKind::ChoamSell;
    inflation += st.action.kind() == ActionKind::ChoamInflation;
  }, 0u, sell_any_time());
  CHECK(sold > 0);
  CHECK(inflation > 0);
}

namespace {

// As scenario::cleared_board, with CHOAM's module: an empty board in the
// Shipment and Movement phase of turn 1, hands emptied, 10 spice each, the
// storm in sector 17.
GameState choam_board(std::initializer_list<Faction> factions, bool advanced) {
  return cleared_board_of(choam_game(factions, advanced));
}

constexpr LocationId kFlat = 70;  // The Great Flat

void take_traitor(GameState& s, LeaderId leader) {
  for (auto& fs : s.f)
    if (fs.traitors.remove(leader)) s.traitor_deck.push(leader);
}

}  // namespace

TEST_CASE("CHOAM advanced: half, rounded down, of the spice others pay in battle, none after a traitor, a Karama prevention skips one payment",
          "[choam][battle]") {
  for (int variant = 0; variant < 3; ++variant) {  // 0 plain, 1 prevented, 2 traitor
    INFO("variant " << variant);
    GameState s = choam_board({Faction::Atreides, Faction::Harkonnen, kChoam}, true);
    place(s, Faction::Atreides, kFlat, 6);
    place(s, Faction::Harkonnen, kFlat, 6);
    set_spice(s, kChoam, 0);
    take_traitor(s, L(Faction::Atreides, 3));
    if (variant == 1) rules::set_prevented_bit(s, static_cast<int>(kChoam), static_cast<int>(rules::Ability::ChoamBattleIncome), true);
    if (variant == 2) give_traitor(s, Faction::Atreides, L(Faction::Harkonnen, 4));
    else take_traitor(s, L(Faction::Harkonnen, 4));
    enter_battle_phase(s);
    no_abilities(s);
    act(s, Faction::Atreides, plan(L(Faction::Atreides, 3), 6, kNone8, kNone8, kNone8, 5));
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 4, kNone8, kNone8, kNone8, 3));
    if (variant == 2) {
      act(s, Faction::Harkonnen, traitor(false));
      act(s, Faction::Atreides, traitor(true));
    } else {
      decline_traitors(s);
    }
    // 5 -> 2 and 3 -> 1; prevented: the first payment gives nothing; traitor: the loser's 3 gives nothing.
    CHECK(s.of(kChoam).spice == (variant == 0 ? 3 : variant == 1 ? 1 : 0));
    CHECK_FALSE(rules::ability_cancelled(s, kChoam, rules::Ability::ChoamBattleIncome));
    check_custody(s);
  }
}

// ---- the worthless-card powers (item 5) ---------------------------------------------

namespace {

// The destinations of CHOAM's legal single-group moves now.
std::set<LocationId> move_destinations(const GameState& s) {
  std::set<LocationId> out;
  for (const auto& a : legal_actions(s, s.seat_of(kChoam)))
    if (const auto* m = a.get_if<action::Move>()) out.insert(m->to);
  return out;
}

// A piece of another territory next to `loc`, out of the storm.
LocationId next_to(const GameState& s, LocationId loc) {
  for (LocationId n : data::neighbours(loc))
    if (data::territory_of(n) != data::territory_of(loc) && !s.in_storm(n) && !data::territory(data::territory_of(n)).storm_protected)
      return n;
  FAIL("no neighbour");
  return kNone8;
}

void enter(GameState& s, Phase p) {
  rules::Ctx c{s, nullptr};
  rules::enter_phase(c, p);
}

}  // namespace

TEST_CASE("CHOAM Baliset: no other faction moves into the territory CHOAM occupies this phase, the card is discarded", "[choam][powers]") {
  for (bool baliset : {false, true}) {
    INFO("Baliset " << baliset);
    GameState s = choam_board({Faction::Atreides, Faction::Harkonnen, kChoam}, false);
    place(s, kChoam, kFlat, 3);
    const LocationId from = next_to(s, kFlat);
    place(s, Faction::Atreides, from, 3);
    const uint8_t card = give(s, kChoam, data::TreacheryKind::Baliset);
    enter(s, Phase::ShipmentMovement);
    REQUIRE(s.shipmove.current == s.seat_of(Faction::Atreides));
    CHECK(rejected(s, kChoam, action::ChoamCard{.card = card, .location = from}).code == RejectCode::IllegalChoice);  // not its territory
    if (baliset) {
      act(s, kChoam, action::ChoamCard{.card = card, .location = kFlat});
      CHECK(s.treachery_discard.top() == card);
      CHECK_FALSE(s.of(kChoam).hand.contains(card));
    }
    act(s, Faction::Atreides, pass());  // no shipment
    const auto mv = move(from, 3, kFlat);
    if (baliset) CHECK(rejected(s, Faction::Atreides, mv).reason.find("Baliset") != std::string::npos);
    else act(s, Faction::Atreides, mv);
  }
}

TEST_CASE("CHOAM Jubba Cloak: the storm destroys no CHOAM forces in that territory this turn", "[choam][powers]") {
  for (bool cloak : {false, true}) {
    INFO("Jubba Cloak " << cloak);
    GameState s = choam_board({Faction::Atreides, Faction::Harkonnen, kChoam}, false);
    // A sand piece the storm (from sector 17) reaches at once.
    LocationId sand = kNone8;
    for (int l = 0; l < data::kNumLocations && sand == kNone8; ++l) {
      const auto& loc = data::location(static_cast<LocationId>(l));
      if (loc.sector == 0 && !data::territory(loc.territory).storm_protected) sand = static_cast<LocationId>(l);
    }
    REQUIRE(sand != kNone8);
    place(s, kChoam, sand, 4);
    const uint8_t card = give(s, kChoam, data::TreacheryKind::JubbaCloak);
    s.turn = 2;
    enter(s, Phase::Storm);
    REQUIRE(s.phase == Phase::Storm);
    if (cloak) act(s, kChoam, action::ChoamCard{.card = card, .location = sand});
    while (s.phase == Phase::Storm && waiting_for(s)) act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), dial(1));
    CHECK(s.forces_at(kChoam, sand) == (cloak ? 4 : 0));
    CHECK(s.of(kChoam).tanks[0] == (cloak ? 0 : 4));
  }
}

TEST_CASE("CHOAM Kulon: one more territory of movement this turn, ruling kulon_ornithopter with the ornithopters", "[choam][powers][rulings]") {
  for (const char* ruling : {"plus_one", "cap_three"}) {
    for (bool orn : {false, true}) {
      INFO(ruling << " ornithopters " << orn);
      GameState s = choam_board({kChoam, Faction::Harkonnen}, false);
      s.rulings = scenario::ruling("kulon_ornithopter", ruling);
      const LocationId from = orn ? data::arrakeen() : kFlat;
      place(s, kChoam, from, 3);
      const uint8_t card = give(s, kChoam, data::TreacheryKind::Kulon);
      enter(s, Phase::ShipmentMovement);
      REQUIRE(s.shipmove.current == s.seat_of(kChoam));
      GameState without = s;
      act(without, kChoam, pass());
      act(s, kChoam, action::ChoamCard{.card = card});
      CHECK(rejected(s, kChoam, action::ChoamCard{.card = card}).code == RejectCode::IllegalChoice);  // discarded
      act(s, kChoam, pass());
      const auto before = move_destinations(without), after = move_destinations(s);
      CHECK(std::includes(after.begin(), after.end(), before.begin(), before.end()));
      const bool more = after.size() > before.size();
      CHECK(more == (!orn || std::string(ruling) == "plus_one"));
    }
  }
}

TEST_CASE("CHOAM La La La: the named faction gets no free revival this turn, a Karama prevention stops the power", "[choam][powers]") {
  for (int variant = 0; variant < 3; ++variant) {  // 0 none, 1 La La La, 2 La La La prevented
    INFO("variant " << variant);
    GameState s = choam_board({Faction::Atreides, Faction::Harkonnen, kChoam}, false);
    auto& at = s.of(Faction::Atreides);
    at.reserves[0] = static_cast<uint8_t>(at.reserves[0] - 2);
    at.tanks[0] = 2;
    const uint8_t card = give(s, kChoam, data::TreacheryKind::LaLaLa);
    enter(s, Phase::Revival);
    REQUIRE(s.phase == Phase::Revival);
    const auto use = action::ChoamCard{.card = card, .faction = static_cast<uint8_t>(Faction::Atreides)};
    CHECK(rejected(s, kChoam, action::ChoamCard{.card = card, .faction = static_cast<uint8_t>(kChoam)}).code == RejectCode::IllegalChoice);
    if (variant == 2) {
      rules::set_prevented_bit(s, static_cast<int>(kChoam), static_cast<int>(rules::Ability::ChoamDiscarding), true);
      CHECK(rejected(s, kChoam, use).reason.find("Karama") != std::string::npos);
    }
    if (variant == 1) act(s, kChoam, use);
    act(s, Faction::Atreides, revive(2));
    CHECK(s.of(Faction::Atreides).spice == (variant == 1 ? 6 : 10));  // 2 x 2 without the free revival of 2
  }
}

TEST_CASE("CHOAM Trip to Gamont: in the Mentat Pause one force back to its reserves, ruling gamont_target", "[choam][powers][rulings]") {
  for (const char* ruling : {"another_faction", "any_faction"}) {
    INFO(ruling);
    GameState s = choam_board({Faction::Atreides, Faction::Harkonnen, kChoam}, false);
    s.rulings = sell_any_time(scenario::ruling("gamont_target", ruling));
    place(s, Faction::Atreides, kFlat, 2);
    place(s, kChoam, kFlat, 2);
    const uint8_t card = give(s, kChoam, data::TreacheryKind::TripToGamont);
    const auto use = action::ChoamCard{.card = card, .faction = static_cast<uint8_t>(Faction::Atreides), .location = kFlat};
    CHECK(rejected(s, kChoam, use).code == RejectCode::WrongPhase);  // only in the Mentat Pause
    enter(s, Phase::MentatPause);
    REQUIRE(s.phase == Phase::MentatPause);
    REQUIRE(waiting_for(s) == (1u << s.seat_of(kChoam)));
    const auto own = action::ChoamCard{.card = card, .faction = static_cast<uint8_t>(kChoam), .location = kFlat};
    if (std::string(ruling) == "another_faction") {
      CHECK(rejected(s, kChoam, own).code == RejectCode::IllegalChoice);
      act(s, kChoam, use);
      CHECK(s.forces_at(Faction::Atreides, kFlat) == 1);
      CHECK(s.of(Faction::Atreides).reserves[0] == 19);
    } else {
      act(s, kChoam, own);
      CHECK(s.forces_at(kChoam, kFlat) == 1);
      CHECK(s.of(kChoam).reserves[0] == 19);
    }
    CHECK(s.treachery_discard.top() == card);
    act(s, kChoam, pass());  // the step ends: the next turn
    CHECK(s.turn == 2);
  }
}

TEST_CASE("CHOAM Trip to Gamont alone keeps CHOAM's Mentat Pause step once the Inflation token is used", "[choam][powers]") {
  GameState s = choam_board({Faction::Atreides, kChoam}, false);
  s.choam.inflation_turn = 1;  // placed already
  s.turn = 2;
  place(s, Faction::Atreides, kFlat, 2);
  enter(s, Phase::MentatPause);
  CHECK(s.turn == 3);  // nothing to ask: the next turn began
  GameState t = choam_board({Faction::Atreides, kChoam}, false);
  t.choam.inflation_turn = 1;
  t.turn = 2;
  place(t, Faction::Atreides, kFlat, 2);
  give(t, kChoam, data::TreacheryKind::TripToGamont);
  enter(t, Phase::MentatPause);
  REQUIRE(t.phase == Phase::MentatPause);
  CHECK(rejected(t, kChoam, action::ChoamInflation{.side = 1}).code == RejectCode::IllegalChoice);
  CHECK(has_action(t, kChoam, pass()));
}

// ---- alliance: the card trade (item 7) -----------------------------------------------

TEST_CASE("CHOAM alliance: one card each way with the ally, faces private, ruling choam_trade_limit", "[choam][alliance][rulings]") {
  for (const char* limit : {"once_per_turn", "unlimited"}) {
    INFO(limit);
    GameState s = choam_game({Faction::Atreides, kChoam, Faction::Harkonnen}, false, 7, scenario::ruling("choam_trade_limit", limit));
    play_until(s, Phase::Bidding);
    empty_hand(s, kChoam);
    empty_hand(s, Faction::Atreides);
    const uint8_t shield = give(s, kChoam, data::TreacheryKind::Shield);
    CHECK(rejected(s, kChoam, action::ChoamTrade{.card = shield}).code == RejectCode::IllegalChoice);  // no ally
    ally(s, kChoam, Faction::Atreides);
    CHECK(rejected(s, kChoam, action::ChoamTrade{.card = shield}).code == RejectCode::IllegalChoice);  // the ally holds no card
    const uint8_t knife = give(s, Faction::Atreides, data::TreacheryKind::Crysknife);
    CHECK(rejected(s, Faction::Harkonnen, action::ChoamTrade{.card = kNone8}).code == RejectCode::IllegalChoice);
    act(s, kChoam, action::ChoamTrade{.card = shield});
    CHECK(s.choam.trade_open == 1);
    // The offered face: CHOAM's only (the ally trades blind).
    const std::string mine = inspect::view_json(s, inspect::Viewer::of(s.seat_of(kChoam)));
    const std::string ally_view = inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Atreides)));
    const std::string other = inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Harkonnen)));
    CHECK(mine.find("\"trade_offer\"") != std::string::npos);
    CHECK(ally_view.find("\"trade_offer\"") == std::string::npos);
    CHECK(other.find("\"trade_offer\"") == std::string::npos);
    CHECK(ally_view.find("\"trade_open\": true") != std::string::npos);
    CHECK(rejected(s, kChoam, action::ChoamSell{.card = shield}).code == RejectCode::IllegalChoice);  // offered: not for sale
    CHECK(has_action(s, Faction::Atreides, action::ChoamTrade{.card = knife}));
    act(s, Faction::Atreides, action::ChoamTrade{.card = knife});
    CHECK(s.of(kChoam).hand.contains(knife));
    CHECK(s.of(Faction::Atreides).hand.contains(shield));
    CHECK(s.choam.trade_open == 0);
    CHECK(s.choam.traded_turn == s.turn);
    // Nobody else learns the faces: the others' views show the hand counts only.
    CHECK(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Harkonnen))).find("Crysknife") == std::string::npos);
    // Again in the same turn.
    const auto again = action::ChoamTrade{.card = knife};
    if (std::string(limit) == "once_per_turn") CHECK(rejected(s, kChoam, again).reason.find("choam_trade_limit") != std::string::npos);
    else act(s, kChoam, again);
  }
}

TEST_CASE("CHOAM alliance: the ally declines, CHOAM withdraws, a stale offer exchanges nothing", "[choam][alliance]") {
  GameState s = choam_game({Faction::Atreides, kChoam});
  play_until(s, Phase::Bidding);
  empty_hand(s, kChoam);
  empty_hand(s, Faction::Atreides);
  ally(s, kChoam, Faction::Atreides);
  const uint8_t baliset = give(s, kChoam, data::TreacheryKind::Baliset);
  const uint8_t snooper = give(s, Faction::Atreides, data::TreacheryKind::Snooper);
  act(s, kChoam, action::ChoamTrade{.card = baliset});
  act(s, Faction::Atreides, action::ChoamTrade{.card = kNone8});  // declines
  CHECK(s.choam.trade_open == 0);
  CHECK(s.choam.trade_declined_turn == s.turn);
  CHECK(s.of(kChoam).hand.contains(baliset));
  act(s, kChoam, action::ChoamTrade{.card = baliset});
  act(s, kChoam, action::ChoamTrade{.card = kNone8});  // withdraws
  CHECK(s.choam.trade_open == 0);
  act(s, kChoam, action::ChoamTrade{.card = baliset});
  // The ally's choices do not depend on CHOAM's hidden hand (verify's projection check).
  CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::of(s.seat_of(Faction::Atreides))).has_value());
  s.of(kChoam).hand.remove(baliset);  // the offered card left CHOAM's hand
  s.treachery_discard.push(baliset);
  CHECK(has_action(s, Faction::Atreides, action::ChoamTrade{.card = snooper}));  // what CHOAM holds is its secret
  act(s, Faction::Atreides, action::ChoamTrade{.card = snooper});
  CHECK(s.of(Faction::Atreides).hand.contains(snooper));  // nothing changed hands
  CHECK_FALSE(s.choam.trade_open);
  CHECK(s.choam.trade_declined_turn == s.turn);
  check_custody(s);
}

TEST_CASE("CHOAM and the Harkonnen Karama power: a whole hand of 5 is taken and given back, no card lost", "[choam][karama]") {
  GameState s = choam_game({Faction::Harkonnen, kChoam, Faction::Atreides}, true);
  play_until(s, Phase::Bidding, 1);
  REQUIRE(s.bidding.current != kNoSeat);
  empty_hand(s, kChoam);
  empty_hand(s, Faction::Harkonnen);
  const uint8_t karama = give(s, Faction::Harkonnen, data::TreacheryKind::Karama);
  for (auto k : {data::TreacheryKind::Chaumas, data::TreacheryKind::SlipTip, data::TreacheryKind::Snooper, data::TreacheryKind::Stunner,
                 data::TreacheryKind::MaulaPistol})
    give(s, kChoam, k);
  REQUIRE(s.of(kChoam).hand.n == 5);
  act(s, Faction::Harkonnen, play(karama, 0, static_cast<uint8_t>(kChoam)));
  CHECK(s.harkonnen.karama_taken.n == 5);
  check_custody(s);
  for (int i = 0; i < 5; ++i) act(s, Faction::Harkonnen, respond(false, s.harkonnen.karama_taken.ids[0]));
  CHECK(s.of(kChoam).hand.n == 5);
  CHECK(s.harkonnen.karama_taken.empty());
  check_custody(s);
}

// ---- alliance: paying for the ally's forces in battle (item 7) ---------------------------

TEST_CASE("CHOAM alliance: CHOAM pays for its ally's battle spice up to its ChoamSupport, and takes no half of it", "[choam][alliance][battle]") {
  GameState s = choam_board({Faction::Atreides, Faction::Harkonnen, kChoam}, true);
  place(s, Faction::Atreides, kFlat, 6);
  place(s, Faction::Harkonnen, kFlat, 6);
  take_traitor(s, L(Faction::Atreides, 3));
  take_traitor(s, L(Faction::Harkonnen, 4));
  CHECK(rejected(s, kChoam, action::ChoamSupport{.battle = 4}).code == RejectCode::IllegalChoice);  // no ally
  ally(s, kChoam, Faction::Atreides);
  act(s, kChoam, action::ChoamSupport{.battle = 4});
  CHECK(s.choam.battle_support == 4);
  set_spice(s, Faction::Atreides, 1);
  enter_battle_phase(s);
  no_abilities(s);
  auto with_ally = plan(L(Faction::Atreides, 3), 6, kNone8, kNone8, kNone8, 5);
  CHECK(rejected(s, Faction::Atreides, with_ally).code == RejectCode::NotEnoughSpice);  // 1 of its own
  with_ally.ally_pays = 5;
  CHECK(rejected(s, Faction::Atreides, with_ally).reason.find("ChoamSupport") != std::string::npos);  // 4 allowed
  with_ally.ally_pays = 4;
  // Offered among the legal plans, CHOAM's spice first.
  const auto acts = legal_actions(s, s.seat_of(Faction::Atreides));
  CHECK(std::find(acts.begin(), acts.end(), Action(with_ally)) != acts.end());
  // The Harkonnen (not CHOAM's ally) may not use it.
  auto other = plan(L(Faction::Harkonnen, 4), 4, kNone8, kNone8, kNone8, 3);
  other.ally_pays = 1;
  CHECK(rejected(s, Faction::Harkonnen, other).code == RejectCode::IllegalChoice);
  act(s, Faction::Atreides, with_ally);
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 4, kNone8, kNone8, kNone8, 3));
  decline_traitors(s);
  // CHOAM paid 4 for its ally; the half of the others' own spice: Harkonnen 3 -> 1, Atreides 1 -> 0 (CHOAM's 4 excluded).
  CHECK(s.of(kChoam).spice == 10 - 4 + 1);
  CHECK(s.of(Faction::Atreides).spice == 0);
  CHECK(s.choam.battle_support == 0);  // used up
  check_custody(s);
}

TEST_CASE("CHOAM alliance: the battle allowance is for that alliance only, and shown to all", "[choam][alliance][views]") {
  GameState s = choam_board({Faction::Atreides, Faction::Harkonnen, kChoam}, true);
  ally(s, kChoam, Faction::Atreides);
  act(s, kChoam, action::ChoamSupport{.battle = 6});
  CHECK(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Harkonnen))).find("\"battle_support\": 6") != std::string::npos);
  // A new alliance (Harkonnen) does not inherit it.
  s.of(Faction::Atreides).ally = kNoFaction;
  ally(s, kChoam, Faction::Harkonnen);
  CHECK(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Harkonnen))).find("\"battle_support\": 0") != std::string::npos);
  place(s, Faction::Harkonnen, kFlat, 6);
  place(s, Faction::Atreides, kFlat, 6);
  take_traitor(s, L(Faction::Atreides, 3));
  take_traitor(s, L(Faction::Harkonnen, 4));
  enter_battle_phase(s);
  no_abilities(s);
  auto p = plan(L(Faction::Harkonnen, 4), 4, kNone8, kNone8, kNone8, 3);
  p.ally_pays = 1;
  CHECK(rejected(s, Faction::Harkonnen, p).reason.find("ChoamSupport") != std::string::npos);
}

// ---- advanced: the special Karama and the Auditor (item 6) --------------------------------

TEST_CASE("CHOAM special Karama: once a game, a Karama and chosen cards discarded for 3 spice each, advanced only", "[choam][karama]") {
  for (bool advanced : {false, true}) {
    INFO("advanced " << advanced);
    GameState s = choam_game({Faction::Atreides, kChoam, Faction::Harkonnen}, advanced);
    play_until(s, Phase::Bidding);
    empty_hand(s, kChoam);
    set_spice(s, kChoam, 0);
    const uint8_t karama = give(s, kChoam, data::TreacheryKind::Karama);
    const uint8_t baliset = give(s, kChoam, data::TreacheryKind::Baliset);
    const uint8_t shield = give(s, kChoam, data::TreacheryKind::Shield);
    const action::ChoamKarama use{.karama = karama, .cards = {baliset, shield}};
    if (!advanced) {
      CHECK(rejected(s, kChoam, use).reason.find("advanced") != std::string::npos);
      CHECK_FALSE(has_action(s, kChoam, use));
      continue;
    }
    CHECK(rejected(s, kChoam, action::ChoamKarama{.karama = baliset, .cards = {shield}}).code == RejectCode::IllegalChoice);  // not a Karama
    CHECK(rejected(s, kChoam, action::ChoamKarama{.karama = karama, .cards = {shield, shield}}).code == RejectCode::IllegalChoice);
    CHECK(rejected(s, Faction::Atreides, use).code == RejectCode::IllegalChoice);
    CHECK(has_action(s, kChoam, use));  // every other card: one of the offered candidates
    act(s, kChoam, use);
    CHECK(s.of(kChoam).spice == 6);
    CHECK(s.of(kChoam).hand.empty());
    CHECK(s.treachery_discard.contains(karama));
    CHECK(s.choam.karama_used == 1);
    check_custody(s);
    const uint8_t karama2 = give_another(s, kChoam, data::TreacheryKind::Karama);
    const uint8_t knife = give(s, kChoam, data::TreacheryKind::Crysknife);
    CHECK(rejected(s, kChoam, action::ChoamKarama{.karama = karama2, .cards = {knife}}).reason.find("once a game") != std::string::npos);
  }
}

namespace {

// CHOAM (the Auditor, strength 2) against the Harkonnen in the Great Flat,
// advanced; the Harkonnen hold a Shield, a Snooper and a Baliset.
GameState audit_battle(int variant) {
  GameState s = choam_board({Faction::Atreides, Faction::Harkonnen, kChoam}, true);
  place(s, kChoam, kFlat, 8);
  place(s, Faction::Harkonnen, kFlat, 3);
  take_traitor(s, data::kAuditor);
  take_traitor(s, L(Faction::Harkonnen, 4));
  give(s, Faction::Harkonnen, data::TreacheryKind::Shield);
  give(s, Faction::Harkonnen, data::TreacheryKind::Snooper);
  give(s, Faction::Harkonnen, data::TreacheryKind::Baliset);
  if (variant == 3) rules::set_prevented_bit(s, static_cast<int>(kChoam), static_cast<int>(rules::Ability::ChoamAudit), true);
  enter_battle_phase(s);
  no_abilities(s);
  return s;
}

}  // namespace

TEST_CASE("CHOAM Auditor: after a battle it fought, CHOAM sees 2 random cards (1 if it died), the opponent may pay to cancel, a Karama prevents one",
          "[choam][auditor]") {
  for (int variant = 0; variant < 4; ++variant) {  // 0 look, 1 pay, 2 the Auditor killed, 3 prevented
    INFO("variant " << variant);
    GameState s = audit_battle(variant);
    const uint8_t weapon = variant == 2 ? give(s, Faction::Harkonnen, data::TreacheryKind::Crysknife) : kNone8;
    act(s, kChoam, plan(data::kAuditor, 8, kNone8, kNone8, kNone8, 8));  // CHOAM wins: no Harkonnen capture first
    act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 0, weapon));
    decline_traitors(s);
    keep_all(s);
    if (variant == 3) {
      CHECK(s.choam.audit_turn == 0);
      CHECK_FALSE(rules::ability_cancelled(s, kChoam, rules::Ability::ChoamAudit));
      continue;
    }
    REQUIRE(s.step == rules::ability::kAudit);
    REQUIRE(waiting(s, Faction::Harkonnen));
    const int n = variant == 2 ? 1 : 2;
    CHECK(s.choam.audit_count == n);
    CHECK(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Atreides))).find("\"audit_pending\": true") != std::string::npos);
    CHECK(rejected(s, kChoam, pass()).code == RejectCode::NotYourDecision);
    if (variant == 1) {
      act(s, Faction::Harkonnen, respond(true));
      CHECK(s.of(Faction::Harkonnen).spice == 10 - 2);
      CHECK(s.of(kChoam).spice == 10 - 8 + 2);
      CHECK(s.choam.audit_turn == 0);
      CHECK(s.choam.audit_cards[0] == kNone8);
      continue;
    }
    act(s, Faction::Harkonnen, pass());
    CHECK(s.choam.audit_turn == s.turn);
    int seen = 0;
    for (uint8_t c : s.choam.audit_cards) {
      if (c == kNone8) continue;
      ++seen;
      CHECK(s.of(Faction::Harkonnen).hand.contains(c));
      CHECK(c != weapon);  // not a card played in the battle
    }
    CHECK(seen == n);
    // The faces: CHOAM's and the Harkonnen's views only.
    const auto card = std::string(data::treachery_card(s.choam.audit_cards[0]).name);
    auto audit_part = [&](Faction f) {
      const std::string v = inspect::view_json(s, inspect::Viewer::of(s.seat_of(f)));
      const size_t at = v.find("\"audit_cards\"");
      return at == std::string::npos ? std::string() : v.substr(at, 200);
    };
    CHECK(audit_part(kChoam).find(card) != std::string::npos);
    CHECK(audit_part(Faction::Harkonnen).find(card) != std::string::npos);
    CHECK(audit_part(Faction::Atreides).find(card) == std::string::npos);
    check_custody(s);
  }
}

TEST_CASE("CHOAM Auditor: never captured by the Harkonnen, revived as if all CHOAM leaders were in the tanks", "[choam][auditor]") {
  GameState s = audit_battle(0);
  // The Harkonnen win; the Auditor is CHOAM's only leader left: nobody to capture.
  for (int i = 0; i < data::kLeadersPerFaction; ++i) {
    auto& l = s.leaders[L(kChoam, i)];
    l.zone = LeaderZone::Tanks;
    l.died_once = 1;
  }
  act(s, kChoam, plan(data::kAuditor, 0));
  act(s, Faction::Harkonnen, plan(L(Faction::Harkonnen, 4), 3, kNone8, kNone8, kNone8, 3));
  decline_traitors(s);
  keep_all(s);
  CHECK(s.battle.winner == 1 + (s.faction_at(s.battle.aggressor) == Faction::Harkonnen ? 0 : 1));
  CHECK(s.step != rules::ability::kCapture);
  CHECK(s.leaders[data::kAuditor].holder == static_cast<uint8_t>(kChoam));
  // Revival: the Auditor in the tanks while other CHOAM leaders are in its pool.
  GameState r = choam_game({Faction::Atreides, kChoam}, true);
  play_until(r, Phase::Storm);
  r.leaders[data::kAuditor].zone = LeaderZone::Tanks;
  r.leaders[data::kAuditor].died_once = 1;
  set_spice(r, kChoam, 10);
  enter(r, Phase::Revival);
  REQUIRE(waiting(r, kChoam));
  act(r, kChoam, revive(0, 0, data::kAuditor));
  CHECK(r.leaders[data::kAuditor].zone == LeaderZone::Pool);
  CHECK(r.of(kChoam).spice == 8);
}

TEST_CASE("CHOAM with a Karama high bid: its Karama cards are promised (3.01.11.04), not sold, traded or spent on the special Karama",
          "[choam][karama][bidding]") {
  GameState s = choam_game({kChoam, Faction::Atreides, Faction::Harkonnen}, true);
  play_until(s, Phase::Bidding, 1);
  REQUIRE(s.step == 0);
  empty_hand(s, kChoam);
  const uint8_t k1 = give(s, kChoam, data::TreacheryKind::Karama, 0);
  const uint8_t k2 = give_another(s, kChoam, data::TreacheryKind::Karama);
  const uint8_t other = give(s, kChoam, data::TreacheryKind::Baliset);
  ally(s, kChoam, Faction::Atreides);
  while (s.bidding.current != s.seat_of(kChoam)) act(s, s.faction_at(s.bidding.current), bid(s.bidding.high_bid + 1));
  act(s, kChoam, action::Bid{.amount = 40, .karama = true, .card = k1});
  REQUIRE(s.bidding.karama_bid);
  CHECK(rejected(s, kChoam, action::ChoamSell{.card = k2}).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kChoam, action::ChoamKarama{.karama = k2, .cards = {other}}).code == RejectCode::IllegalChoice);
  CHECK(rejected(s, kChoam, action::ChoamTrade{.card = k2}).code == RejectCode::IllegalChoice);
  // Its other cards are not promised.
  act(s, kChoam, action::ChoamSell{.card = other});
  check_custody(s);
}

TEST_CASE("CHOAM Karama cancellation (3.01.11.01, karama_windows=all_other_seats): a sale, a worthless-card power and the Inflation token wait in a KaramaCancel window",
          "[choam][karama][rulings]") {
  const Rulings r = ruling("karama_windows", "all_other_seats");
  SECTION("a sale: cancelled, the card stays and nothing is paid; offered again, it is sold") {
    GameState s = choam_game({Faction::Atreides, kChoam}, false, 7, r);
    play_until(s, Phase::Bidding);
    empty_hand(s, kChoam);
    set_spice(s, kChoam, 0);
    const uint8_t baliset = give(s, kChoam, data::TreacheryKind::Baliset);
    const uint8_t karama = give_another(s, Faction::Atreides, data::TreacheryKind::Karama);
    act(s, kChoam, action::ChoamSell{.card = baliset});
    REQUIRE(s.window_depth == 1);
    CHECK(s.windows[0].kind == WindowKind::KaramaCancel);
    CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::ChoamDiscarding));
    CHECK(s.of(kChoam).hand.contains(baliset));  // not yet
    CHECK(waiting(s, Faction::Atreides));
    CHECK(rejected(s, kChoam, action::ChoamSell{.card = baliset}).code != RejectCode::Malformed);  // no second sale while it waits
    act(s, Faction::Atreides, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(s.of(kChoam).hand.contains(baliset));
    CHECK(s.of(kChoam).spice == 0);
    CHECK(s.treachery_discard.top() == karama);
    CHECK(s.cancelled_ability == kNone8);  // an any-time use: nothing to retake
    check_custody(s);
    act(s, kChoam, action::ChoamSell{.card = baliset});  // a new use, asked again
    REQUIRE(s.window_depth == 1);
    act(s, Faction::Atreides, respond(false));
    CHECK(s.window_depth == 0);
    CHECK_FALSE(s.of(kChoam).hand.contains(baliset));
    CHECK(s.of(kChoam).spice == 2);
    check_custody(s);
  }
  SECTION("the Baliset's power: cancelled, the card stays with CHOAM and the territory stays open") {
    GameState s = cleared_board_of(choam_game({Faction::Atreides, kChoam}, false, 7, r));
    place(s, kChoam, kFlat, 3);
    const LocationId from = next_to(s, kFlat);
    place(s, Faction::Atreides, from, 3);
    const uint8_t card = give(s, kChoam, data::TreacheryKind::Baliset);
    const uint8_t karama = give_another(s, Faction::Atreides, data::TreacheryKind::Karama);
    enter(s, Phase::ShipmentMovement);
    REQUIRE(s.shipmove.current == s.seat_of(Faction::Atreides));
    act(s, kChoam, action::ChoamCard{.card = card, .location = kFlat});
    REQUIRE(s.window_depth == 1);
    act(s, Faction::Atreides, respond(true, karama));
    CHECK(s.of(kChoam).hand.contains(card));
    act(s, Faction::Atreides, pass());  // no shipment
    act(s, Faction::Atreides, move(from, 3, kFlat));  // not closed
    CHECK(s.forces_at(Faction::Atreides, kFlat, 0) == 3);
    check_custody(s);
  }
  SECTION("the Inflation token: cancelled, not placed at this pause (CHOAM passes), offered again at the next") {
    for (bool cancel : {false, true}) {
      INFO("cancelled " << cancel);
      GameState s = choam_game({Faction::Atreides, kChoam}, false, 7, r);
      const uint8_t karama = give_another(s, Faction::Atreides, data::TreacheryKind::Karama);
      play_until(s, Phase::MentatPause);
      REQUIRE(s.turn == 1);
      act(s, kChoam, action::ChoamInflation{.side = 1});
      REQUIRE(s.window_depth == 1);
      CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::ChoamInflation));
      CHECK(s.choam.inflation == Inflation::None);  // not yet
      act(s, Faction::Atreides, cancel ? respond(true, karama) : respond(false));
      if (!cancel) {
        CHECK(s.turn == 2);
        CHECK(s.choam.inflation == Inflation::Double);
        continue;
      }
      REQUIRE(s.phase == Phase::MentatPause);
      CHECK(waiting(s, kChoam));
      CHECK(s.choam.inflation == Inflation::None);
      CHECK(rejected(s, kChoam, action::ChoamInflation{.side = 2}).code == RejectCode::IllegalChoice);
      const auto acts = legal_actions(s, s.seat_of(kChoam));
      CHECK(std::none_of(acts.begin(), acts.end(), [](const Action& a) { return a.kind() == ActionKind::ChoamInflation; }));
      act(s, kChoam, pass());
      CHECK(s.turn == 2);
      play_until(s, Phase::MentatPause, 2);
      CHECK(has_action(s, kChoam, action::ChoamInflation{.side = 2}));  // once a game: not spent by the cancelled placement
    }
  }
}

TEST_CASE("CHOAM alliance abilities and the Karama (3.01.11.01): the trade offer and the battle allowance wait in a KaramaCancel window",
          "[choam][alliance][karama][rulings]") {
  GameState s = choam_game({Faction::Atreides, kChoam, Faction::Harkonnen}, false, 7, ruling("karama_windows", "all_other_seats"));
  play_until(s, Phase::Bidding);
  empty_hand(s, kChoam);
  empty_hand(s, Faction::Atreides);
  empty_hand(s, Faction::Harkonnen);
  ally(s, kChoam, Faction::Atreides);
  const uint8_t shield = give(s, kChoam, data::TreacheryKind::Shield);
  give(s, Faction::Atreides, data::TreacheryKind::Crysknife);
  const uint8_t karama = give_another(s, Faction::Harkonnen, data::TreacheryKind::Karama);
  auto everyone_declines = [&]() {
    for (Faction f : {Faction::Atreides, Faction::Harkonnen})
      if (s.window_depth > 0 && waiting(s, f)) act(s, f, respond(false));
  };
  SECTION("the trade: cancelled, no offer is made and the card stays; offered again and let through, it waits for the ally") {
    act(s, kChoam, action::ChoamTrade{.card = shield});
    REQUIRE(s.window_depth == 1);
    CHECK(s.windows[0].kind == WindowKind::KaramaCancel);
    CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::ChoamTrade));
    CHECK(s.choam.trade_open == 0);  // not yet
    CHECK(waiting(s, Faction::Harkonnen));
    // The window names the ability, never the offered card.
    CHECK(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Harkonnen))).find("Shield") == std::string::npos);
    act(s, Faction::Harkonnen, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(s.choam.trade_open == 0);
    CHECK(s.of(kChoam).hand.contains(shield));
    CHECK(s.treachery_discard.top() == karama);
    CHECK(s.cancelled_ability == kNone8);  // an any-time use: nothing to retake, the next offer is asked again
    check_custody(s);
    give_another(s, Faction::Harkonnen, data::TreacheryKind::Karama);
    act(s, kChoam, action::ChoamTrade{.card = shield});
    REQUIRE(s.window_depth == 1);
    everyone_declines();
    CHECK(s.window_depth == 0);
    CHECK(s.choam.trade_open == 1);
    CHECK(s.choam.trade_offer == shield);
    act(s, kChoam, action::ChoamTrade{.card = kNone8});  // withdrawing asks nobody
    CHECK(s.window_depth == 0);
    CHECK(s.choam.trade_open == 0);
  }
  SECTION("the battle allowance: cancelled, it stays as it was; let through, it is set; withdrawing asks nobody") {
    act(s, kChoam, action::ChoamSupport{.battle = 4});
    REQUIRE(s.window_depth == 1);
    CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::ChoamAllySupport));
    CHECK(s.choam.battle_support == 0);
    act(s, Faction::Harkonnen, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(s.choam.battle_support == 0);
    give_another(s, Faction::Harkonnen, data::TreacheryKind::Karama);
    act(s, kChoam, action::ChoamSupport{.battle = 4});
    everyone_declines();
    CHECK(s.window_depth == 0);
    CHECK(s.choam.battle_support == 4);
    act(s, kChoam, action::ChoamSupport{});
    CHECK(s.window_depth == 0);
    CHECK(s.choam.battle_support == 0);
    check_custody(s);
  }
}

TEST_CASE("CHOAM alliance abilities and the Karama (3.01.11.02): a prevention stops the trade offer and the battle allowance until the Mentat Pause",
          "[choam][alliance][karama]") {
  GameState s = choam_board({Faction::Atreides, Faction::Harkonnen, kChoam}, true);
  empty_hand(s, kChoam);
  empty_hand(s, Faction::Atreides);
  ally(s, kChoam, Faction::Atreides);
  const uint8_t shield = give(s, kChoam, data::TreacheryKind::Shield);
  give(s, Faction::Atreides, data::TreacheryKind::Crysknife);
  act(s, kChoam, action::ChoamSupport{.battle = 4});  // set before the prevention
  REQUIRE(s.choam.battle_support == 4);
  for (auto ab : {rules::Ability::ChoamTrade, rules::Ability::ChoamAllySupport})
    rules::set_prevented_bit(s, static_cast<int>(kChoam), static_cast<int>(ab), true);
  CHECK(rejected(s, kChoam, action::ChoamTrade{.card = shield}).reason.find("Karama") != std::string::npos);
  CHECK_FALSE(has_action(s, kChoam, action::ChoamTrade{.card = shield}));
  CHECK(rejected(s, kChoam, action::ChoamSupport{.battle = 6}).reason.find("Karama") != std::string::npos);
  {
    const auto acts = legal_actions(s, s.seat_of(kChoam));
    CHECK(std::none_of(acts.begin(), acts.end(), [](const Action& a) { return a.kind() == ActionKind::ChoamTrade; }));
    CHECK(std::none_of(acts.begin(), acts.end(), [](const Action& a) {
      return a.kind() == ActionKind::ChoamSupport && a.as<action::ChoamSupport>().battle > 0;
    }));
  }
  // The allowance already set cannot be used in a battle while prevented, and every view shows 0 of it.
  for (Seat seat = 0; seat < s.num_seats; ++seat)
    CHECK(inspect::view_json(s, inspect::Viewer::of(seat)).find("\"battle_support\": 0") != std::string::npos);
  place(s, Faction::Atreides, kFlat, 6);
  place(s, Faction::Harkonnen, kFlat, 6);
  take_traitor(s, L(Faction::Atreides, 3));
  take_traitor(s, L(Faction::Harkonnen, 4));
  set_spice(s, Faction::Atreides, 1);
  enter_battle_phase(s);
  no_abilities(s);
  auto p = plan(L(Faction::Atreides, 3), 6, kNone8, kNone8, kNone8, 3);
  p.ally_pays = 2;
  CHECK(rejected(s, Faction::Atreides, p).reason.find("ChoamSupport") != std::string::npos);
  // The Mentat Pause ends the prevention: the trade and the allowance are back.
  play_until(s, Phase::Storm, s.turn + 1);
  CHECK_FALSE(rules::prevented_bit(s, static_cast<int>(kChoam), static_cast<int>(rules::Ability::ChoamTrade)));
  CHECK_FALSE(rules::prevented_bit(s, static_cast<int>(kChoam), static_cast<int>(rules::Ability::ChoamAllySupport)));
  REQUIRE(s.of(kChoam).ally == static_cast<uint8_t>(Faction::Atreides));
  CHECK_FALSE(validate(s, s.seat_of(kChoam), action::ChoamSupport{.battle = 1}).has_value());
  act(s, kChoam, action::ChoamSupport{.battle = 3});
  CHECK(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Harkonnen))).find("\"battle_support\": 3") != std::string::npos);
}

TEST_CASE("CHOAM self-play under karama_windows=all_other_seats: its sales, powers and Inflation wait in KaramaCancel windows, 0 rejected",
          "[choam][bots][karama]") {
  const std::vector<std::vector<Faction>> sets = {
      {kChoam, Faction::Atreides, Faction::Harkonnen, Faction::Richese},
      {Faction::Guild, kChoam, Faction::Fremen, Faction::BeneGesserit, Faction::Emperor},
  };
  int windows = 0, cancelled = 0;
  selfplay_sets(sets, data::module_bit(data::Module::ChoamRichese), 60, 11, [&](const GameState& after, const bots::Step& st) {
    if (after.window_depth > 0 && after.windows[0].kind == WindowKind::KaramaCancel &&
        (after.windows[0].subject == static_cast<uint8_t>(rules::Ability::ChoamDiscarding) ||
         after.windows[0].subject == static_cast<uint8_t>(rules::Ability::ChoamInflation)) &&
        (st.action.kind() == ActionKind::ChoamSell || st.action.kind() == ActionKind::ChoamCard || st.action.kind() == ActionKind::ChoamInflation))
      ++windows;
    if (st.action.kind() == ActionKind::Respond && st.action.as<action::Respond>().accept && after.window_depth == 0 &&
        after.windows[0].kind == WindowKind::KaramaCancel && after.windows[0].cancelled &&
        after.windows[0].subject >= static_cast<uint8_t>(rules::Ability::ChoamInflation) &&
        after.windows[0].subject <= static_cast<uint8_t>(rules::Ability::ChoamDiscarding))
      ++cancelled;
  }, 0b11, sell_any_time(ruling("karama_windows", "all_other_seats")));
  INFO(windows << " windows, " << cancelled << " cancelled");
  CHECK(windows > 0);
}

TEST_CASE("CHOAM Auditor: a brutal CHOAM bot defends against the weapon class the Auditor saw in its opponent's hand", "[choam][auditor][bots]") {
  std::set<uint8_t> defenses;
  for (auto seen : {data::TreacheryKind::Crysknife, data::TreacheryKind::Chaumas}) {
    INFO(static_cast<int>(seen));
    GameState s = choam_board({Faction::Harkonnen, kChoam}, true);
    place(s, kChoam, kFlat, 5);
    place(s, Faction::Harkonnen, kFlat, 5);
    const uint8_t card = give(s, Faction::Harkonnen, seen);
    give(s, Faction::Harkonnen, data::TreacheryKind::Baliset);
    const uint8_t shield = give(s, kChoam, data::TreacheryKind::Shield);
    const uint8_t snooper = give(s, kChoam, data::TreacheryKind::Snooper);
    s.choam.audit_of = static_cast<uint8_t>(Faction::Harkonnen);  // an earlier battle's look
    s.choam.audit_turn = 1;
    s.choam.audit_cards[0] = card;
    check_custody(s);
    enter_battle_phase(s);
    no_abilities(s);
    REQUIRE(waiting(s, kChoam));
    const auto in = bots::make_input(s, s.seat_of(kChoam));
    const Action a = bots::make_bot(bots::Profile::Brutal, 5)->choose(in);
    REQUIRE(bots::is_valid_choice(in, a));
    const auto* p = a.get_if<action::BattlePlan>();
    REQUIRE(p);
    CHECK(p->defense == (seen == data::TreacheryKind::Crysknife ? shield : snooper));
    defenses.insert(p->defense);
  }
  CHECK(defenses.size() == 2);  // the two positions differ only in what the Auditor saw
}

TEST_CASE("CHOAM sale at the end of a phase (ruling choam_sell_timing=end_of_phase): a ChoamSale window before the next phase, each Respond sells one card",
          "[choam][rulings][sell]") {
  const Rulings r = Rulings::defaults();  // end_of_phase, the default since rules version 4
  REQUIRE(r.is(RulingId::ChoamSellTiming, 0));
  for (bool sells : {true, false}) {
    INFO("sells " << sells);
    GameState s = reference_game({Faction::Atreides, kChoam, Faction::Fremen}, r);
    play_until(s, Phase::Storm, 1);
    empty_hand(s, kChoam);
    const uint8_t baliset = give(s, kChoam, data::TreacheryKind::Baliset);
    const uint8_t shield = give(s, kChoam, data::TreacheryKind::Shield);
    const auto early = rejected(s, kChoam, action::ChoamSell{.card = baliset});
    CHECK(early.code == RejectCode::WrongPhase);
    CHECK_THAT(early.reason, Catch::Contains("end of a phase"));
    // The Storm phase ends: the game asks CHOAM before the Spice Blow begins.
    for (int i = 0; i < 200 && s.phase == Phase::Storm && !rules::window_open(s); ++i) play_step(s);
    REQUIRE(rules::window_open(s));
    CHECK(s.phase == Phase::Storm);
    CHECK(waiting_for(s) == (1u << s.seat_of(kChoam)));
    CHECK_THAT(rules::window_description(s), Catch::Contains("end of the"));
    // Every seat's view names the phase about to begin (view choam.sale_before).
    CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Fremen))),
               Catch::Contains("\"sale_before\": \"" + std::string(phase_name(Phase::SpiceBlow)) + "\""));
    CHECK(rejected(s, kChoam, action::Respond{.accept = true, .card = shield}).code == RejectCode::IllegalChoice);  // not a copy
    CHECK(rejected(s, Faction::Atreides, action::Respond{}).code == RejectCode::NotYourDecision);
    const int spice = s.of(kChoam).spice;
    const GameState open = s;
    act(s, kChoam, sells ? action::Respond{.accept = true, .card = baliset} : action::Respond{});
    codec::Event e;  // the log names the sale (face up) or its end
    e.seat = open.seat_of(kChoam);
    e.action = sells ? Action(action::Respond{.accept = true, .card = baliset}) : Action(action::Respond{});
    CHECK_THAT(inspect::summarize_event(e, &open, s, false), Catch::Contains(sells ? "sells Baliset" : "ends its sales"));
    CHECK(s.phase != Phase::Storm);  // the next phase was entered (and ran on while nobody was asked)
    if (!rules::window_open(s)) CHECK_THAT(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Fremen))), !Catch::Contains("sale_before"));
    CHECK(s.of(kChoam).hand.contains(baliset) == !sells);
    CHECK(s.treachery_discard.contains(baliset) == sells);
    if (sells) {
      CHECK(s.of(kChoam).spice >= spice + 2);  // the sale's 2 (and any charity income since)
    } else {  // still holding it: asked again at the end of the Spice Blow phase
      REQUIRE(rules::window_open(s));
      CHECK(s.phase == Phase::SpiceBlow);
      CHECK_THAT(rules::window_description(s), Catch::Contains(std::string(phase_name(Phase::SpiceBlow))));
      CHECK(s.of(kChoam).spice == spice);
    }
    check_custody(s);
  }
  {  // Two cards to sell: the window stays open after the first sale, Respond{} ends it with one kept.
    GameState s = reference_game({Faction::Atreides, kChoam, Faction::Fremen}, r);
    play_until(s, Phase::Storm, 1);
    empty_hand(s, kChoam);
    const uint8_t baliset = give(s, kChoam, data::TreacheryKind::Baliset);
    const uint8_t kulon = give(s, kChoam, data::TreacheryKind::Kulon);
    for (int i = 0; i < 200 && s.phase == Phase::Storm && !rules::window_open(s); ++i) play_step(s);
    REQUIRE(rules::window_open(s));
    act(s, kChoam, action::Respond{.accept = true, .card = baliset});
    REQUIRE(rules::window_open(s));  // still asked: the Kulon may go too
    CHECK(s.phase == Phase::Storm);
    CHECK(waiting_for(s) == (1u << s.seat_of(kChoam)));
    act(s, kChoam, action::Respond{});
    CHECK(s.phase != Phase::Storm);
    CHECK(s.of(kChoam).hand.contains(kulon));
    CHECK(s.treachery_discard.contains(baliset));
    check_custody(s);
  }
  // The other reading (the engine's before rules version 4): a sale at any time, no window at the phase's end.
  GameState s = choam_game({Faction::Atreides, kChoam, Faction::Fremen});
  play_until(s, Phase::Storm, 1);
  const uint8_t baliset = give(s, kChoam, data::TreacheryKind::Baliset);
  for (int i = 0; i < 200 && s.phase == Phase::Storm; ++i) {
    CHECK_FALSE(rules::window_open(s));
    play_step(s);
  }
  CHECK(s.of(kChoam).hand.contains(baliset));
  act(s, kChoam, action::ChoamSell{.card = baliset});
  CHECK(s.treachery_discard.contains(baliset));
}

TEST_CASE("CHOAM self-play under choam_sell_timing=end_of_phase: every profile answers the sale window, no rejected action",
          "[choam][bots][rulings][sell]") {
  const std::vector<std::vector<Faction>> sets = {
      {kChoam, Faction::Atreides, Faction::Harkonnen},
      {Faction::Emperor, Faction::Fremen, kChoam, Faction::Atreides, Faction::Harkonnen, Faction::BeneGesserit},
  };
  int sold = 0;
  selfplay_sets(sets, data::module_bit(data::Module::ChoamRichese), 50, 11, [&](const GameState& after, const bots::Step& st) {
    const auto* a = st.action.get_if<action::Respond>();  // `after`: the state after the step
    if (a && a->accept && st.seat == after.seat_of(kChoam) && a->card < data::kNumAllTreacheryCards &&
        data::treachery_card(a->card).category == data::TreacheryCategory::Worthless && after.treachery_discard.contains(a->card))
      sold += 1;
    CHECK(st.action.kind() != ActionKind::ChoamSell);
  }, 0u, Rulings::defaults());  // end_of_phase, the default
  CHECK(sold > 0);
}

TEST_CASE("CHOAM sale at the end of a phase and the Karama: a sale in the window is cancelled as used, a prevention opens no window",
          "[choam][karama][rulings][sell]") {
  SECTION("cancelled (karama_windows=all_other_seats): the card stays, nothing is paid, CHOAM may end its sales") {
    GameState s = reference_game({Faction::Atreides, kChoam, Faction::Fremen}, ruling("karama_windows", "all_other_seats"));
    play_until(s, Phase::Storm, 1);
    empty_hand(s, kChoam);
    const uint8_t baliset = give(s, kChoam, data::TreacheryKind::Baliset);
    const uint8_t karama = give_another(s, Faction::Atreides, data::TreacheryKind::Karama);
    for (int i = 0; i < 200 && s.phase == Phase::Storm && !rules::window_open(s); ++i) play_step(s);
    REQUIRE(s.window_depth == 1);
    REQUIRE(s.windows[0].kind == WindowKind::ChoamSale);
    const int spice = s.of(kChoam).spice;
    act(s, kChoam, action::Respond{.accept = true, .card = baliset});
    REQUIRE(s.window_depth == 2);  // the sale waits in its KaramaCancel window, above the sale window
    CHECK(s.windows[1].kind == WindowKind::KaramaCancel);
    CHECK(s.windows[1].subject == static_cast<uint8_t>(rules::Ability::ChoamDiscarding));
    act(s, Faction::Atreides, respond(true, karama));
    CHECK(s.of(kChoam).hand.contains(baliset));
    CHECK(s.of(kChoam).spice == spice);
    CHECK(s.treachery_discard.top() == karama);
    check_custody(s);
    if (rules::window_open(s) && waiting(s, kChoam)) act(s, kChoam, action::Respond{});  // ends its sales
    CHECK(s.phase != Phase::Storm);
    CHECK(s.of(kChoam).hand.contains(baliset));
    check_custody(s);
  }
  SECTION("prevented: no sale window at the phase's end until the Mentat Pause") {
    GameState s = reference_game({Faction::Atreides, kChoam, Faction::Fremen});
    play_until(s, Phase::Storm, 1);
    empty_hand(s, kChoam);
    const uint8_t baliset = give(s, kChoam, data::TreacheryKind::Baliset);
    rules::set_prevented_bit(s, static_cast<int>(kChoam), static_cast<int>(rules::Ability::ChoamDiscarding), true);
    for (int i = 0; i < 400 && s.phase != Phase::MentatPause; ++i) {
      if (rules::window_open(s)) CHECK(s.windows[s.window_depth - 1].kind != WindowKind::ChoamSale);
      play_step(s);
    }
    CHECK(s.of(kChoam).hand.contains(baliset));
    // The next turn: asked again at the end of its Storm phase.
    play_until(s, Phase::Storm, 2);
    bool asked = false;
    for (int i = 0; i < 200 && s.phase == Phase::Storm && !asked; ++i) {
      asked = rules::window_open(s) && s.windows[s.window_depth - 1].kind == WindowKind::ChoamSale;
      if (!asked) play_step(s);
    }
    CHECK(asked);
  }
}
