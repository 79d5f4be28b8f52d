// Who may see each field of the state (core/state_fields.inc, field_sights):
// every field visit_fields() visits is declared, and the projection check
// (inspect/projection.cpp) permutes each field declared hidden, so that a
// view leaking it is caught (issue 48 item 8).
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/action.h"
#include "inspect/projection.h"
#include "support/scenario.h"

using namespace mentat;
using scenario::game;

namespace {

// GameState's size ties the declaration to the struct: a member added to it
// changes the size, and this fails until visit_fields() visits the member
// and field_sights declares who may see it (then update the size here). A new
// ruling grows Rulings::value (kNumRulings) and may change it too: 4472 with 79.
static_assert(sizeof(GameState) == 4472, "a GameState member was added or removed: visit it in core/state_fields.inc, "
                                         "declare who may see it there (field_sights), then update this size");

// The names visit_fields() visits, once each in visiting order; with
// `only`, the values of that field instead (every element, as text).
struct Collect {
  std::vector<std::string> names;
  std::string only, values;
  void note(const char* name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
  }
  template <class T>
  void operator()(const char* name, int index, const T& value) {
    note(name);
    if (only != name) return;
    if constexpr (std::is_enum_v<T>) values += std::to_string(static_cast<int64_t>(value)) + ",";
    else values += std::to_string(value) + ",";
  }
  template <int N>
  void pile(const char* name, int index, const Pile<N>& p) {
    note(name);
    if (only != name) return;
    for (int i = 0; i < p.n; ++i) values += std::to_string(p.ids[i]) + ",";
    values += ";";
  }
  void rulings(const char* name, const Rulings&) { note(name); }
};

std::vector<std::string> visited(const GameState& s) {
  Collect c;
  visit_fields(s, c);
  return c.names;
}
std::string values_of(const GameState& s, const std::string& field) {
  Collect c;
  c.only = field;
  visit_fields(s, c);
  return c.values;
}

constexpr data::ModuleSet kAllModules = data::module_bit(data::Module::ChoamRichese) | data::module_bit(data::Module::LeaderSkills) |
                                        data::module_bit(data::Module::StrongholdCards);

// A game whose encoding visits every field: every module, CHOAM and the
// Richese at the table, and the ruling that encodes richese.ally_no_field.
GameState every_section() {
  Rulings r = Rulings::defaults();
  std::string error;
  REQUIRE(r.set("no_field_ally_permission", "richese_allows", &error));
  return game({Faction::Atreides, Faction::BeneGesserit, Faction::Choam, Faction::Richese}, true, 7, r, kAllModules);
}

// A view that shows `field` to every viewer beside the real view.
inspect::ViewFn leaking(const std::string& field) {
  return [field](const GameState& s, inspect::Viewer who) { return inspect::build_view(s, who) + "|" + values_of(s, field); };
}

// A card of f's hand (dealt from the deck if it holds none).
uint8_t card_of(GameState& s, Faction f) {
  if (s.of(f).hand.empty()) s.of(f).hand.push(s.treachery_deck.pop());
  return s.of(f).hand.ids[0];
}

}  // namespace

TEST_CASE("state fields: every field visit_fields visits declares who may see it, in the same order", "[state][projection]") {
  const auto names = visited(every_section());
  std::vector<std::string> declared;
  for (const auto& d : field_sights::kAll) declared.emplace_back(d.name);
  CHECK(names == declared);
  for (const auto& n : names) {
    INFO(n);
    CHECK(field_sight(n) != nullptr);
  }
  // The base game visits a subset of them (the module sections are left out).
  for (const auto& n : visited(game({Faction::Atreides, Faction::Harkonnen}))) CHECK(field_sight(n) != nullptr);
  CHECK(field_sight("no.such.field") == nullptr);
}

// Each field the projection check did not permute before issue 48: a state
// where it holds a value, a seat it is hidden from and one that may see it.
// A view leaking the field is caught for the first (so removing the field's
// permutation, or declaring it public, fails here) and not for the second
// (the permutation follows the declaration), and the real views hold.
TEST_CASE("projection: every newly declared hidden field is permuted, so a view leaking it is caught", "[state][projection][views]") {
  struct Case {
    std::string field;
    std::function<void(GameState&)> set;
    Faction blind, sees;  // sees == blind: no seat checked as seeing it (none may, or the other side's plan is hidden from it)
  };
  constexpr auto A = Faction::Atreides, BG = Faction::BeneGesserit, C = Faction::Choam, R = Faction::Richese;
  auto plan = [](GameState& s) {  // the Atreides (aggressor) against CHOAM (defender), plans not yet revealed
    s.phase = Phase::Battle;
    s.step = 1;  // BattleStep kPlans (core/rules/battle.cpp)
    s.battle.territory = 0;
    s.battle.aggressor = s.seat_of(Faction::Atreides);
    s.battle.defender = s.seat_of(Faction::Choam);
    s.battle.plans_in = static_cast<uint8_t>(1u << s.battle.aggressor);
    auto& p = s.battle.plan[0];
    p.leader = data::leader_id(Faction::Atreides, 0);
    p.cheap_hero = kNone8;
    p.weapon = card_of(s, Faction::Atreides);
    p.defense = kNone8;
    p.dial = 2;
    p.kwisatz_haderach = 0;
    p.ally_pays = 0;
  };
  auto pending_gift = [](GameState& s) {  // the Richese gift waiting in a Karama window
    s.window_depth = 1;
    auto& w = s.windows[0];
    w.kind = WindowKind::KaramaCancel;
    w.owner = s.seat_of(Faction::Richese);
    w.subject = static_cast<uint8_t>(rules::Ability::RicheseGift);
    w.act_kind = static_cast<uint8_t>(ActionKind::RicheseGift);
    w.act_to = card_of(s, Faction::Richese);
  };
  const std::vector<Case> cases = {
      {"seed", [](GameState&) {}, A, A},
      {"bidding.row",  // the cards dealt after the one up for bid (the Atreides see that one: 2.01.05)
       [](GameState& s) {
         s.phase = Phase::Bidding;
         s.step = 0;
         for (int i = 0; i < 3; ++i) s.bidding.row.push(s.treachery_deck.pop());
         s.bidding.dealt = 3;
       },
       A, A},
      {"rng", [](GameState&) {}, A, A},
      {"f.prediction_faction", [](GameState& s) { s.of(Faction::BeneGesserit).prediction_faction = static_cast<uint8_t>(Faction::Atreides); }, A, BG},
      {"battle.plan.leader", plan, R, A},
      {"battle.plan.cheap_hero", [&](GameState& s) { plan(s); s.battle.plan[0].cheap_hero = card_of(s, Faction::Atreides); }, R, A},
      {"battle.plan.weapon", plan, R, A},
      {"battle.plan.defense", [&](GameState& s) { plan(s); s.battle.plan[0].defense = card_of(s, Faction::Atreides); }, BG, A},
      {"battle.plan.kwisatz_haderach", [&](GameState& s) { plan(s); s.battle.plan[0].kwisatz_haderach = 1; }, C, C},
      {"battle.plan.ally_pays", [&](GameState& s) { plan(s); s.battle.plan[0].ally_pays = 1; }, R, R},
      {"choam.trade_offer", [](GameState& s) { s.choam.trade_offer = card_of(s, Faction::Choam); }, A, C},
      {"choam.audit_cards",
       [](GameState& s) {
         s.choam.audit_of = static_cast<uint8_t>(Faction::Atreides);
         s.choam.audit_turn = 1;
         s.choam.audit_cards[0] = card_of(s, Faction::Atreides);
       },
       R, A},
      {"richese.gift_card", [](GameState& s) { s.richese.gift_card = card_of(s, Faction::Richese); }, A, R},
      {"window.act_to", pending_gift, A, R},
      {"window.act_from", pending_gift, A, R},
      {"window.act_forces", pending_gift, A, R},
      {"window.act_special", pending_gift, A, R},
      {"window.act_flags", pending_gift, A, R},
      {"window.act_value", pending_gift, A, R},
      {"window.act_amount2", pending_gift, A, R},
  };
  for (const auto& k : cases) {
    INFO(k.field);
    REQUIRE(field_sight(k.field) != nullptr);
    CHECK(field_sight(k.field)->sight != Sight::Public);
    GameState s = every_section();
    k.set(s);
    const auto blind = inspect::Viewer::of(s.seat_of(k.blind));
    CHECK(inspect::check_projection(s, blind, leaking(k.field)).has_value());
    CHECK(inspect::check_projection(s, inspect::Viewer::observer(), leaking(k.field)).has_value());
    if (k.sees != k.blind) CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::of(s.seat_of(k.sees)), leaking(k.field)).has_value());
    for (Seat x = 0; x < s.num_seats; ++x) CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::of(x)).has_value());
    CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::observer()).has_value());
  }
}
