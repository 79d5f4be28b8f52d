// 1.11 secrecy: each seat's view (inspect/view.cpp) holds its own hidden
// information and, of the other seats, only what the rules make public.
#include <catch2/catch.hpp>

#include <string>

#include "inspect/view.h"
#include "support/mini_json.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;

namespace {

const mini_json::Value* faction_entry(const mini_json::Value& view, Faction f) {
  const auto& fs = view["factions"];
  for (std::size_t i = 0; i < fs.size(); ++i)
    if (fs[i]["faction"].str() == faction_key(f)) return &fs[i];
  return nullptr;
}

// A field the view leaves out (optional fields print as null).
bool absent(const mini_json::Value& v, const char* key) {
  const auto* f = v.find(key);
  return f == nullptr || f->is_null();
}

}  // namespace

TEST_CASE("1.11.00 1.11.01 1.11.02 a seat's view: its own hand, traitors, prediction and spice, of the others only counts",
          "[views][secrecy]") {
  GameState s = game({Faction::Atreides, Faction::BeneGesserit, Faction::Emperor, Faction::Fremen, Faction::Harkonnen,
                      Faction::Guild},
                     false, 21);
  play_until(s, Phase::Bidding);
  // 2.01.07 Wormsign and 2.04.05 the storm deck: set them so that both exist.
  s.atreides.wormsign_turn = s.turn;
  s.atreides.wormsign_card = s.spice_deck.top();
  if (!s.fremen.storm_card) s.fremen.storm_card = 3;
  for (Seat x = 0; x < s.num_seats; ++x) {
    const Faction me = s.faction_at(x);
    INFO("viewer " << faction_name(me));
    const auto view = mini_json::parse(inspect::view_json(s, inspect::Viewer::of(x)));
    for (Seat y = 0; y < s.num_seats; ++y) {
      const Faction f = s.faction_at(y);
      INFO("faction " << faction_name(f));
      const auto* e = faction_entry(view, f);
      REQUIRE(e != nullptr);
      const auto& fs = s.of(f);
      REQUIRE(fs.hand.n > 0);
      REQUIRE(fs.spice > 0);
      // 1.11.02: how many cards each faction holds is known to all.
      CHECK((*e)["hand_count"].as_int() == fs.hand.n);
      if (f == me) {
        CHECK((*e)["hand"].size() == fs.hand.n);
        CHECK((*e)["traitors"].size() == fs.traitors.n);
        CHECK((*e)["spice"].as_int() == fs.spice);  // 1.11.01: behind one's own shield
        if (f == Faction::BeneGesserit) CHECK((*e)["prediction_faction"].is_string());
      } else {
        CHECK(absent(*e, "hand"));
        CHECK(absent(*e, "traitors"));
        CHECK(absent(*e, "traitor_offer"));
        CHECK(absent(*e, "spice"));  // 1.11.01: others' spice is behind their shields
        CHECK(absent(*e, "prediction_faction"));
        CHECK(absent(*e, "prediction_turn"));
      }
      CHECK_FALSE(absent(*e, "reserves"));  // public: reserves, forces, tanks
    }
    // Decks: counts only; the next storm card to the Fremen, the Wormsign card to the Atreides.
    CHECK(absent(view, "treachery_deck"));
    CHECK(absent(view, "spice_deck"));
    CHECK(view["treachery_deck_count"].as_int() == s.treachery_deck.n);
    CHECK(view["spice_deck_count"].as_int() == s.spice_deck.n);
    CHECK(absent(view, "storm_card") == (me != Faction::Fremen));
    CHECK(absent(view, "wormsign") == (me != Faction::Atreides));
  }
  // The observer sees no hand, spice, traitor, prediction, storm card or wormsign at all.
  const auto obs = mini_json::parse(inspect::view_json(s, inspect::Viewer::observer()));
  for (Seat y = 0; y < s.num_seats; ++y) {
    const auto* e = faction_entry(obs, s.faction_at(y));
    REQUIRE(e != nullptr);
    CHECK(absent(*e, "hand"));
    CHECK(absent(*e, "spice"));
    CHECK(absent(*e, "traitors"));
    CHECK(absent(*e, "prediction_faction"));
    CHECK((*e)["hand_count"].as_int() == s.of(s.faction_at(y)).hand.n);
  }
  CHECK(absent(obs, "storm_card"));
  CHECK(absent(obs, "wormsign"));
}

TEST_CASE("1.11.00 1.10.02.03 allies see each other's spice and permissions, not each other's hands or traitors",
          "[views][secrecy]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor}, false, 21);
  play_until(s, Phase::Bidding);
  ally(s, Faction::Atreides, Faction::Harkonnen);
  const auto view = mini_json::parse(inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Atreides))));
  const auto* h = faction_entry(view, Faction::Harkonnen);
  const auto* e = faction_entry(view, Faction::Emperor);
  REQUIRE(h != nullptr);
  REQUIRE(e != nullptr);
  CHECK((*h)["spice"].as_int() == s.of(Faction::Harkonnen).spice);
  CHECK(absent(*h, "hand"));
  CHECK(absent(*h, "traitors"));
  CHECK(absent(*e, "spice"));
}
