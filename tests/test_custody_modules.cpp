// Custody of the components the game modules add (issue 12 item 5): the
// played-card zone, the Richese cache, No-Field tokens, leader skill cards
// and Advanced Stronghold Cards (core/state.h "module sections"). Their
// rules come with issues 13-16, so these states are built here by hand.
#include <catch2/catch.hpp>

#include "events/codec.h"
#include "inspect/custody.h"
#include "inspect/projection.h"
#include "support/scenario.h"

using namespace mentat;
using scenario::game;

namespace {

constexpr data::ModuleSet kCRModules = data::module_bit(data::Module::ChoamRichese) | data::module_bit(data::Module::LeaderSkills) |
                                       data::module_bit(data::Module::StrongholdCards);

// A base game given the three CHOAM & Richese modules: the cache holds the
// Richese cards, the skill deck all 14, every stronghold card by its stronghold.
GameState with_modules() {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Fremen});
  s.modules = kCRModules;
  const uint8_t cache = data::card_sets_in(s.modules, data::CardPlace::RicheseCache);
  for (int id = 0; id < data::kNumAllTreacheryCards; ++id)
    if ((cache >> static_cast<int>(data::treachery_card(static_cast<TreacheryId>(id)).set)) & 1u) s.richese.cache.push(static_cast<uint8_t>(id));
  for (int k = 0; k < data::kNumLeaderSkills; ++k) s.skills.deck.push(static_cast<uint8_t>(k));
  return s;
}

std::string broken(const GameState& s) {
  auto v = inspect::check_invariants(s);
  return v ? v->invariant : std::string();
}

int count(const std::vector<inspect::CustodyEntry>& es, inspect::Component k) {
  int n = 0;
  for (const auto& e : es) n += e.kind == k;
  return n;
}

}  // namespace

TEST_CASE("custody: module components are enumerated and each is in one place", "[custody][modules]") {
  GameState s = with_modules();
  REQUIRE(s.richese.cache.n == kRicheseCacheSize);
  CHECK(broken(s).empty());
  const auto es = inspect::enumerate_custody(s);
  CHECK(count(es, inspect::Component::NoFieldToken) == kNumNoFieldTokens);
  CHECK(count(es, inspect::Component::LeaderSkill) == data::kNumLeaderSkills);
  CHECK(count(es, inspect::Component::StrongholdCard) == data::kNumStrongholdCards);
  int cached = 0;
  for (const auto& e : es) cached += e.zone == "richese_cache";
  CHECK(cached == kRicheseCacheSize);

  // Skills dealt, assigned face down, discarded; a stronghold card held; a
  // card whose effect is resolving in the played zone: still each once.
  s.skills.hand[static_cast<int>(Faction::Atreides)].push(s.skills.deck.pop());
  const uint8_t sk = s.skills.deck.pop();
  s.skills.assigned[data::leader_id(Faction::Harkonnen, 0)] = static_cast<uint8_t>(sk + 1);
  s.skills.face_down[data::leader_id(Faction::Harkonnen, 0)] = 1;
  s.skills.discard.push(s.skills.deck.pop());
  s.stronghold_cards.holder[1] = static_cast<uint8_t>(Faction::Harkonnen);
  auto& hand = s.of(Faction::Atreides).hand;
  REQUIRE(hand.n > 0);
  const uint8_t played = hand.ids[0];
  hand.remove(played);
  s.treachery_played.push(played);
  CHECK(broken(s).empty());
  bool in_played = false;
  for (const auto& e : inspect::enumerate_custody(s))
    if (e.kind == inspect::Component::Treachery && e.id == played) in_played = e.zone == "played";
  CHECK(in_played);

  // The module sections are in the canonical encoding: a round trip keeps them.
  GameState back;
  std::string err;
  REQUIRE(codec::decode_state(codec::encode_state(s), &back, &err));
  CHECK(codec::state_hash(back) == codec::state_hash(s));
  CHECK(back.skills.assigned[data::leader_id(Faction::Harkonnen, 0)] == sk + 1);
  CHECK(back.stronghold_cards.holder[1] == static_cast<uint8_t>(Faction::Harkonnen));
  CHECK(back.treachery_played.contains(played));
}

TEST_CASE("custody: a base game's encoding has no module section", "[custody][modules][determinism]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen});
  const auto base = codec::encode_state(s);
  GameState t = s;
  t.modules = kCRModules;  // the same state with modules encodes their sections
  CHECK(codec::encode_state(t).size() > base.size());
}

TEST_CASE("custody: each module invariant fails on a broken state", "[custody][modules]") {
  const GameState ok = with_modules();
  REQUIRE(broken(ok).empty());

  SECTION("a played card still in a hand") {
    GameState s = ok;
    s.treachery_played.push(s.of(Faction::Atreides).hand.ids[0]);
    CHECK(broken(s) == "custody");
  }
  SECTION("a card in the played zone of a base game") {
    GameState s = game({Faction::Atreides, Faction::Harkonnen});
    const uint8_t c = s.treachery_deck.pop();
    s.treachery_played.push(c);
    CHECK(broken(s) == "module");
  }
  SECTION("a Richese cache card missing") {
    GameState s = ok;
    s.richese.cache.pop();
    CHECK(broken(s) == "custody");
  }
  SECTION("a base card in the Richese cache") {
    GameState s = ok;
    s.richese.cache.pop();
    s.richese.cache.push(s.treachery_deck.pop());
    CHECK(broken(s) == "module");
  }
  SECTION("a No-Field token on the board at no location") {
    GameState s = ok;
    s.richese.no_field[1].zone = TokenZone::Board;
    CHECK(broken(s) == "no_field");
  }
  SECTION("a No-Field token in play without the Richese") {
    GameState s = ok;
    s.richese.no_field[1] = {TokenZone::Board, 3};
    CHECK(broken(s) == "no_field");
  }
  SECTION("two No-Field tokens face up") {
    GameState s = ok;
    s.richese.no_field[0].zone = TokenZone::Revealed;
    s.richese.no_field[2].zone = TokenZone::Revealed;
    CHECK(broken(s) == "no_field");
  }
  SECTION("a No-Field token in play without CHOAM & Richese") {
    GameState s = game({Faction::Atreides, Faction::Harkonnen});
    s.richese.no_field[0].zone = TokenZone::Revealed;
    CHECK(broken(s) == "module");
  }
  SECTION("a skill card both in the deck and under a leader") {
    GameState s = ok;
    s.skills.assigned[data::leader_id(Faction::Atreides, 1)] = static_cast<uint8_t>(s.skills.deck.ids[0] + 1);
    CHECK(broken(s) == "custody");
  }
  SECTION("a skill card nowhere") {
    GameState s = ok;
    s.skills.deck.pop();
    CHECK(broken(s) == "custody");
  }
  SECTION("a skill card under a leader of a faction not in the game") {
    GameState s = ok;
    s.skills.assigned[data::leader_id(Faction::Emperor, 0)] = static_cast<uint8_t>(s.skills.deck.pop() + 1);
    CHECK(broken(s) == "skills");
  }
  SECTION("skill cards dealt to a faction not in the game") {
    GameState s = ok;
    s.skills.hand[static_cast<int>(Faction::Guild)].push(s.skills.deck.pop());
    CHECK(broken(s) == "skills");
  }
  SECTION("skill cards without the leader_skills module") {
    GameState s = game({Faction::Atreides, Faction::Harkonnen});
    s.skills.discard.push(0);
    CHECK(broken(s) == "module");
  }
  SECTION("a stronghold card held by a faction not in the game") {
    GameState s = ok;
    s.stronghold_cards.holder[0] = static_cast<uint8_t>(Faction::Emperor);
    CHECK(broken(s) == "stronghold_cards");
  }
  SECTION("a stronghold card held without the stronghold_cards module") {
    GameState s = game({Faction::Atreides, Faction::Harkonnen});
    s.stronghold_cards.holder[0] = static_cast<uint8_t>(Faction::Atreides);
    CHECK(broken(s) == "module");
  }
}

TEST_CASE("projection: face-down skill cards and No-Field values are permuted, and no view changes", "[custody][modules][views]") {
  GameState s = with_modules();
  s.skills.hand[static_cast<int>(Faction::Harkonnen)].push(s.skills.deck.pop());
  const LeaderId l = data::leader_id(Faction::Fremen, 2);
  s.skills.assigned[l] = static_cast<uint8_t>(s.skills.deck.pop() + 1);
  s.skills.face_down[l] = 1;
  REQUIRE(broken(s).empty());
  const Seat atreides = s.seat_of(Faction::Atreides);
  const GameState t = inspect::permute_hidden(s, inspect::Viewer::of(atreides));
  CHECK(broken(t).empty());  // a permutation, not a loss
  CHECK(t.skills.deck.ids[0] != s.skills.deck.ids[0]);
  CHECK(t.skills.hand[static_cast<int>(Faction::Harkonnen)].ids[0] != s.skills.hand[static_cast<int>(Faction::Harkonnen)].ids[0]);
  CHECK(t.skills.assigned[l] != s.skills.assigned[l]);
  // Token 0 (value 0) face down on the board, token 1 (value 3) face down in
  // reserve, token 2 face up: the two face-down values trade places.
  GameState u = s;
  u.richese.no_field[0] = {TokenZone::Board, 5};
  u.richese.no_field[1] = {TokenZone::Reserve, kNone8};
  u.richese.no_field[2] = {TokenZone::Revealed, kNone8};  // face up: not permuted
  const GameState pu = inspect::permute_hidden(u, inspect::Viewer::of(atreides));
  CHECK(pu.richese.no_field[1].zone == TokenZone::Board);
  CHECK(pu.richese.no_field[1].location == 5);
  CHECK(pu.richese.no_field[0].zone == TokenZone::Reserve);
  CHECK(pu.richese.no_field[2].zone == TokenZone::Revealed);  // the face-up token keeps its place
  for (Seat x = 0; x < s.num_seats; ++x) CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::of(x)).has_value());
  CHECK_FALSE(inspect::check_projection(s, inspect::Viewer::observer()).has_value());
}
