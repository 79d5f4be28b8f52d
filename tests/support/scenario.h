// Compact scenario building for rules tests.
//
//   GameState s = scenario::game({Faction::Atreides, Faction::Harkonnen});
//   scenario::play_until(s, Phase::Bidding);          // default choices
//   scenario::act(s, Faction::Atreides, scenario::bid(3));
//   auto r = scenario::rejected(s, Faction::Harkonnen, scenario::bid(99));
//
// act() REQUIREs that validate accepts the action, then applies it and checks
// the custody invariants, so every scenario also checks custody.
//
// The position-building helpers below (set_spice, place, give, cleared_board,
// stack_spice_deck, ...) edit a GameState directly, without events; they are
// shared by the tests/test_rules_*.cpp files, so a change here changes every
// scenario that uses them. Header-only, single-threaded test code.
#pragma once

#include <catch2/catch.hpp>

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/engine.h"
#include "core/rules/battle_abilities.h"
#include "core/rules/rules.h"
#include "inspect/custody.h"

namespace scenario {

using namespace mentat;

inline GameState game(std::initializer_list<Faction> factions, bool advanced = false, uint64_t seed = 7,
                      Rulings rulings = Rulings::defaults(), data::ModuleSet modules = 0) {
  GameSetup g;
  g.seed = seed;
  g.factions = factions;
  g.advanced = advanced;
  g.rulings = rulings;
  g.modules = modules;
  REQUIRE_FALSE(check_setup(g).has_value());
  return create_game(g, nullptr);
}

inline Seat seat(const GameState& s, Faction f) { return s.seat_of(f); }

inline void act(GameState& s, Faction f, const Action& a) {
  auto rej = validate(s, s.seat_of(f), a);
  INFO("action " << action_kind_name(a.kind()) << " by " << faction_name(f) << " rejected: " << (rej ? rej->reason : ""));
  REQUIRE_FALSE(rej.has_value());
  apply(s, s.seat_of(f), a, nullptr);
  auto v = inspect::check_invariants(s);
  INFO("invariant " << (v ? v->invariant + ": " + v->detail : ""));
  REQUIRE_FALSE(v.has_value());
}

inline Rejection rejected(const GameState& s, Faction f, const Action& a) {
  auto rej = validate(s, s.seat_of(f), a);
  REQUIRE(rej.has_value());
  return *rej;
}

// Plays one default action (see play_until).
inline void play_step(GameState& s) {
  uint8_t w = waiting_for(s);
  REQUIRE(w != 0);
  Seat who = static_cast<Seat>(__builtin_ctz(w));
  auto acts = legal_actions(s, who);
  REQUIRE_FALSE(acts.empty());
  Action chosen = acts.front();
  for (const auto& a : acts)
    if (a.kind() == ActionKind::Pass) chosen = a;
  act(s, s.faction_at(who), chosen);
}

// Plays the first legal action of the lowest waiting seat (preferring Pass
// where offered) until the game reaches `phase` (of `turn`, when > 0).
inline void play_until(GameState& s, Phase phase, int turn = 0, int max_steps = 5000) {
  for (int i = 0; i < max_steps; ++i) {
    if (s.phase == phase && (turn == 0 || s.turn == turn)) return;
    if (s.phase == Phase::GameOver) break;
    play_step(s);
  }
  FAIL("did not reach phase " << phase_name(phase));
}

inline Action make(ActionKind k) { return Action::of_kind(k); }
inline Action pass() { return action::Pass{}; }
inline action::DialStorm dial(int v) { return action::DialStorm{.value = static_cast<uint8_t>(v)}; }
inline action::Bid bid(int amount, bool karama = false) { return action::Bid{.amount = static_cast<uint8_t>(amount), .karama = karama}; }
inline Action claim_charity() { return action::ClaimCharity{}; }
inline action::Ship ship(LocationId to, int forces, int special = 0) {
  return action::Ship{.to = to, .forces = static_cast<uint8_t>(forces), .special = static_cast<uint8_t>(special)};
}
inline action::Move move(LocationId from, int forces, LocationId to, int special = 0) {
  return action::Move{.from = {Placement{from, static_cast<uint8_t>(forces), static_cast<uint8_t>(special)}}, .to = to};
}
inline action::Revive revive(int forces, int special = 0, uint8_t leader = kNone8) {
  return action::Revive{.forces = static_cast<uint8_t>(forces), .special = static_cast<uint8_t>(special), .leader = leader};
}
inline action::PlayCard play(uint8_t card, int value = 0, uint8_t target = kNone8) {
  return action::PlayCard{.card = card, .target = target, .value = static_cast<uint8_t>(value)};
}
inline action::Respond respond(bool accept, uint8_t card = kNone8) { return action::Respond{.accept = accept, .card = card}; }

// ---- Position building ------------------------------------------------------
// These edit the state directly (no events); check_custody() verifies the
// result still satisfies the custody invariants.

inline void check_custody(const GameState& s) {
  auto v = inspect::check_invariants(s);
  INFO("invariant " << (v ? v->invariant + ": " + v->detail : ""));
  REQUIRE_FALSE(v.has_value());
}

// `r` with one ruling set by names (the others as in `r`).
inline Rulings ruling(const char* key, const char* value, Rulings r = Rulings::defaults()) {
  std::string err;
  const bool ok = r.set(key, value, &err);
  INFO(err);
  REQUIRE(ok);
  return r;
}

// Moves spice between f's shield and the bank until f holds `amount`.
inline void set_spice(GameState& s, Faction f, int amount) {
  const int have = s.of(f).spice;
  if (have > amount) transfer_spice(s, shield(f), bank(), have - amount);
  if (have < amount) transfer_spice(s, bank(), shield(f), amount - have);
}

inline void ally(GameState& s, Faction a, Faction b) {
  s.of(a).ally = static_cast<uint8_t>(b);
  s.of(b).ally = static_cast<uint8_t>(a);
}

// Puts forces from reserves on the board (special: Fedaykin/Sardaukar, or for
// the Bene Gesserit advisors, taken from their regular reserves).
inline void place(GameState& s, Faction f, LocationId l, int regular, int special = 0) {
  auto& fs = s.of(f);
  const int spec_from = f == Faction::BeneGesserit ? 0 : 1;
  REQUIRE(fs.reserves[0] >= regular);
  fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] - regular);
  REQUIRE(fs.reserves[spec_from] >= special);
  fs.reserves[spec_from] = static_cast<uint8_t>(fs.reserves[spec_from] - special);
  s.forces_at(f, l, 0) = static_cast<uint8_t>(s.forces_at(f, l, 0) + regular);
  s.forces_at(f, l, 1) = static_cast<uint8_t>(s.forces_at(f, l, 1) + special);
}

// Moves the nth card of `kind` (from the deck, the discard pile, the bidding
// row or any hand) into f's hand; returns its id.
inline uint8_t give(GameState& s, Faction f, data::TreacheryKind kind, int nth = 0) {
  for (int id = 0; id < data::kNumTreacheryCards; ++id) {
    if (data::treachery_card(static_cast<uint8_t>(id)).kind != kind) continue;
    if (nth-- > 0) continue;
    const auto c = static_cast<uint8_t>(id);
    bool found = s.treachery_deck.remove(c) || s.treachery_discard.remove(c) || s.bidding.row.remove(c);
    for (auto& fs : s.f) found = found || fs.hand.remove(c);
    REQUIRE(found);
    s.of(f).hand.push(c);
    return c;
  }
  FAIL("no such card");
  return kNone8;
}

// Moves a card of `kind` that f does not hold yet into f's hand; returns its id.
inline uint8_t give_another(GameState& s, Faction f, data::TreacheryKind kind) {
  for (int id = 0; id < data::kNumTreacheryCards; ++id) {
    const auto card = static_cast<uint8_t>(id);
    if (data::treachery_card(card).kind != kind || s.of(f).hand.contains(card)) continue;
    bool found = s.treachery_deck.remove(card) || s.treachery_discard.remove(card) || s.bidding.row.remove(card);
    for (int o = 0; o < kNumFactions && !found; ++o) found = s.f[o].hand.remove(card);
    REQUIRE(found);
    s.of(f).hand.push(card);
    return card;
  }
  FAIL("no card of that kind left");
  return kNone8;
}

// Makes f hold the traitor card of `leader` (and nobody else).
inline void give_traitor(GameState& s, Faction f, LeaderId leader) {
  s.traitor_deck.remove(leader);
  for (auto& fs : s.f) {
    fs.traitors.remove(leader);
    fs.traitor_offer.remove(leader);
    fs.traitors_discarded.remove(leader);
  }
  auto& t = s.of(f).traitors;
  if (t.n == 4) s.traitor_deck.push(t.pop());
  t.push(leader);
}

// The factions of the game, in faction order.
inline std::vector<Faction> factions_in(const GameState& s) {
  std::vector<Faction> out;
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (s.has(static_cast<Faction>(fi))) out.push_back(static_cast<Faction>(fi));
  return out;
}

// Takes all of f's forces off the board into its reserves (Bene Gesserit
// advisors become regular reserves).
inline void forces_to_reserves(GameState& s, Faction f) {
  auto& fs = s.of(f);
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto at = static_cast<LocationId>(l);
    const int reg = s.forces_at(f, at, 0), spec = s.forces_at(f, at, 1);
    s.forces_at(f, at, 0) = 0;
    s.forces_at(f, at, 1) = 0;
    fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] + reg);
    if (f == Faction::BeneGesserit) fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] + spec);
    else fs.reserves[1] = static_cast<uint8_t>(fs.reserves[1] + spec);
  }
}

// A game at turn 1's Shipment and Movement phase with an empty board: forces
// back to reserves, spice to the bank, hands to the discard pile, 10 spice
// each, no alliance, the storm in sector 17 (seat 0 is the first player).
// `s` (a new game, e.g. with modules) played to that phase and cleared so.
inline GameState cleared_board_of(GameState s) {
  play_until(s, Phase::ShipmentMovement);
  for (const Faction f : factions_in(s)) {
    auto& fs = s.of(f);
    forces_to_reserves(s, f);
    while (!fs.hand.empty()) s.treachery_discard.push(fs.hand.pop());
    set_spice(s, f, 10);
    fs.ally = kNoFaction;
  }
  for (int l = 0; l < data::kNumLocations; ++l)
    if (s.spice_on_board[l]) transfer_spice(s, board(static_cast<LocationId>(l)), bank(), s.spice_on_board[l]);
  s.storm_sector = 17;
  check_custody(s);
  return s;
}

inline GameState cleared_board(std::initializer_list<Faction> factions, bool advanced = false,
                               Rulings rulings = Rulings::defaults()) {
  return cleared_board_of(game(factions, advanced, 7, rulings));
}

// Removes a spice card from the deck, a discard pile or the set-aside cards.
inline void take_spice_card(GameState& s, uint8_t id) {
  if (s.spice_deck.remove(id) || s.spice_discard[0].remove(id) || s.spice_discard[1].remove(id) ||
      s.spice_set_aside.remove(id))
    return;
  FAIL("spice card " << int(id) << " is nowhere");
}

// Puts spice cards on top of the deck so that they are revealed in this order.
inline void stack_spice_deck(GameState& s, std::vector<uint8_t> reveal_order) {
  for (auto id : reveal_order) take_spice_card(s, id);
  for (auto it = reveal_order.rbegin(); it != reveal_order.rend(); ++it) s.spice_deck.push(*it);
}

// Puts spice cards on a discard pile (0: A, 1: B), the last one on top.
inline void discard_spice_onto(GameState& s, int pile, std::vector<uint8_t> ids) {
  for (auto id : ids) {
    take_spice_card(s, id);
    s.spice_discard[pile].push(id);
  }
}

// The decisions of the step the seat is asked (decisions() lists them first),
// without the card plays and the anytime offers that follow them (3.01 cards,
// 1.12 Bribe, 2.03.06 GiveSpice, ally permissions: core/rules/cards.cpp,
// core/rules/deals.cpp).
inline std::vector<Decision> phase_decisions(const GameState& s, Seat seat) {
  auto ds = decisions(s, seat);
  auto anytime = [](ActionKind k) {
    return k == ActionKind::PlayCard || k == ActionKind::Bribe || k == ActionKind::GiveSpice ||
           k == ActionKind::AllyPermission;
  };
  while (!ds.empty() && anytime(ds.back().kind)) ds.pop_back();
  return ds;
}

// Every legal action of every seat validates, and every waited-for seat has a
// decision and a legal action.
inline void check_legal(const GameState& s) {
  for (Seat x = 0; x < s.num_seats; ++x) {
    auto acts = legal_actions(s, x);
    if ((waiting_for(s) >> x) & 1u) {
      CHECK_FALSE(decisions(s, x).empty());
      CHECK_FALSE(acts.empty());
    }
    for (const auto& a : acts) {
      auto rej = validate(s, x, a);
      INFO(action_kind_name(a.kind()) << " by seat " << int(x) << " rejected: " << (rej ? rej->reason : ""));
      CHECK_FALSE(rej.has_value());
    }
  }
}

// check_legal, and seats not waited for have neither decisions nor actions.
inline void check_legal_strict(const GameState& s) {
  check_legal(s);
  for (Seat x = 0; x < s.num_seats; ++x)
    if (!((waiting_for(s) >> x) & 1u)) {
      CHECK(legal_actions(s, x).empty());
      CHECK(decisions(s, x).empty());
    }
}

// Plays to the Storm phase of turn 1, lets `adjust` change the position, then
// plays (default choices: storm dials 0, passes) to `phase`.
inline GameState adjusted_at(Phase phase, std::initializer_list<Faction> factions,
                             const std::function<void(GameState&)>& adjust, bool advanced = false,
                             Rulings rulings = Rulings::defaults()) {
  GameState s = game(factions, advanced, 7, rulings);
  play_until(s, Phase::Storm, 1);
  adjust(s);
  play_until(s, phase);
  return s;
}

// Shipment and Movement: passes every decision until `f` is asked to ship, or
// to move when it has nothing to ship (steps 0 and 2 of shipment_movement.cpp).
inline void pass_until_ship_or_move(GameState& s, Faction f) {
  constexpr uint8_t kShipStep = 0, kMoveStep = 2;
  for (int i = 0; i < 50; ++i) {
    REQUIRE(s.phase == Phase::ShipmentMovement);
    if (s.shipmove.current == s.seat_of(f) && (s.step == kShipStep || s.step == kMoveStep) &&
        ((waiting_for(s) >> s.seat_of(f)) & 1u))
      return;
    const Seat who = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
    act(s, s.faction_at(who), pass());
  }
  FAIL("never reached " << faction_name(f));
}

// ---- Battle -----------------------------------------------------------------

inline LeaderId L(Faction f, int i) { return data::leader_id(f, i); }
inline TerritoryId ter(LocationId l) { return data::territory_of(l); }
inline bool waiting(const GameState& s, Faction f) { return (waiting_for(s) >> s.seat_of(f)) & 1u; }

inline action::BattlePlan plan(uint8_t leader, int dial, uint8_t weapon = kNone8, uint8_t defense = kNone8,
                   uint8_t cheap = kNone8, int spice = 0, bool kh = false) {
  return action::BattlePlan{.leader = leader,
                         .cheap_hero = cheap,
                         .weapon = weapon,
                         .defense = defense,
                         .dial = static_cast<uint8_t>(dial),
                         .spice = static_cast<uint8_t>(spice),
                         .kwisatz_haderach = kh};
}
inline action::ChooseBattle choose(TerritoryId t, Faction opp) { return action::ChooseBattle{.territory = t, .opponent = static_cast<uint8_t>(opp)}; }
inline action::CallTraitor traitor(bool call) { return action::CallTraitor{.call = call}; }

// Enters the Battle phase of the position built (rules::enter_phase) and
// checks custody. With `confirm` (the default), a single first
// battle that waits for its aggressor's ChooseBattle only because a Juice of
// Sapho could still go first (rules::juice_may_go_first) is confirmed, so the
// battle is under way as in a game without the card.
inline void enter_battle_phase(GameState& s, bool confirm = true) {
  rules::Ctx c{s, nullptr};
  rules::enter_phase(c, Phase::Battle);
  check_custody(s);
  if (!confirm || s.phase != Phase::Battle || s.step != 0 || s.battle.aggressor < 0 || !rules::juice_may_go_first(s)) return;
  const Seat x = s.battle.aggressor;
  if (!rules::has_bit(s.waiting, x)) return;
  const auto acts = legal_actions(s, x);
  if (acts.size() != 1 || !acts[0].is<action::ChooseBattle>()) return;
  act(s, s.faction_at(x), acts[0]);
}

// Passes Prescience (2.01.08) and Voice (2.02.06) while they are asked, so
// that the battle plans come next.
inline void no_abilities(GameState& s) {
  while (s.phase == Phase::Battle &&
         (s.step == rules::ability::kPrescience || s.step == rules::ability::kVoice || s.step == rules::ability::kMentatQuestion))
    act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), pass());
}

// Declines every traitor call asked (battle step 2); stops at the winner's
// KeepCards step.
inline void decline_traitors(GameState& s) {
  constexpr uint8_t kTraitorStep = 2;
  for (Seat x = 0; x < s.num_seats; ++x)
    if (s.phase == Phase::Battle && s.step == kTraitorStep && ((waiting_for(s) >> x) & 1u))
      act(s, s.faction_at(x), traitor(false));
}

// 1.07.06.06: at the KeepCards step (battle step 7) the winner keeps every
// card it may (Pass).
inline void keep_all(GameState& s) {
  constexpr uint8_t kKeepStep = 7;
  if (s.phase == Phase::Battle && s.step == kKeepStep)
    act(s, s.faction_at(static_cast<Seat>(__builtin_ctz(waiting_for(s)))), pass());
}

// The Battle phase entered, its abilities passed: the plans of the first battle next.
inline void to_plans(GameState& s) {
  enter_battle_phase(s);
  no_abilities(s);
  REQUIRE(s.phase == Phase::Battle);
  REQUIRE(s.battle.territory < data::kNumTerritories);
}
// The Atreides' plan, then the Harkonnen's, no traitor called.
inline void fight(GameState& s, const action::BattlePlan& atreides, const action::BattlePlan& harkonnen) {
  act(s, Faction::Atreides, atreides);
  act(s, Faction::Harkonnen, harkonnen);
  decline_traitors(s);
}
inline bool dead(const GameState& s, LeaderId l) { return s.leaders[l].zone == LeaderZone::Tanks || s.leaders[l].zone == LeaderZone::TanksFaceDown; }

inline LocationId loc(const char* name) {
  auto l = data::find_location(name);
  REQUIRE(l.has_value());
  return *l;
}

}  // namespace scenario
