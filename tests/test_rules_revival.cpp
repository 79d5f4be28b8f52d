// Scenario tests of the Revival phase (1.05) and the faction abilities that
// change it (2.03.07, 2.03.10/11, 2.04.11, 2.04.19/20).
#include <catch2/catch.hpp>

#include <functional>

#include "core/rules/rules.h"
#include "events/codec.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;

namespace {

// adjusted_at(Phase::Revival, ...): the storm dials are 0, so s.storm_sector stays where `adjust` put it.
GameState at_revival(std::initializer_list<Faction> factions, const std::function<void(GameState&)>& adjust,
                     bool advanced = false, Rulings rulings = Rulings::defaults()) {
  return adjusted_at(Phase::Revival, factions, adjust, advanced, rulings);
}

void to_tanks(GameState& s, Faction f, int regular, int special = 0) {
  auto& fs = s.of(f);
  REQUIRE(fs.reserves[0] >= regular);
  REQUIRE(fs.reserves[1] >= special);
  fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] - regular);
  fs.reserves[1] = static_cast<uint8_t>(fs.reserves[1] - special);
  fs.tanks[0] = static_cast<uint8_t>(fs.tanks[0] + regular);
  fs.tanks[1] = static_cast<uint8_t>(fs.tanks[1] + special);
}

// All five leaders of `f` killed once and in the tanks face up.
void all_leaders_dead(GameState& s, Faction f) {
  for (int i = 0; i < data::kLeadersPerFaction; ++i) {
    auto& l = s.leaders[data::leader_id(f, i)];
    l.zone = LeaderZone::Tanks;
    l.died_once = 1;
  }
}

}  // namespace

TEST_CASE("1.05.01.02 free revival costs nothing and 1.05.02 revived forces go to reserves", "[revival]") {
  GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) {
    to_tanks(g, Faction::Atreides, 5);
    set_spice(g, Faction::Atreides, 10);
  });
  REQUIRE(s.phase == Phase::Revival);
  const int64_t bank_before = s.bank;
  const int reserves_before = s.of(Faction::Atreides).reserves[0];
  act(s, Faction::Atreides, revive(2));  // Atreides free revival: 2 (2.01.04)
  CHECK(s.of(Faction::Atreides).spice == 10);
  CHECK(s.bank == bank_before);
  CHECK(s.of(Faction::Atreides).tanks[0] == 3);
  CHECK(s.of(Faction::Atreides).reserves[0] == reserves_before + 2);
}

TEST_CASE("1.05.01.03 paid revival costs 2 spice per force beyond the free ones, 1.05.01.04 to the bank", "[revival]") {
  GameState s = at_revival({Faction::Atreides, Faction::Guild}, [](GameState& g) {
    to_tanks(g, Faction::Atreides, 5);
    set_spice(g, Faction::Atreides, 10);
  });
  const int64_t bank_before = s.bank;
  const int guild_before = s.of(Faction::Guild).spice;
  act(s, Faction::Atreides, revive(3));
  CHECK(s.of(Faction::Atreides).spice == 8);
  CHECK(s.bank == bank_before + 2);
  CHECK(s.of(Faction::Guild).spice == guild_before);  // revival spice never goes to the Guild
  CHECK(s.of(Faction::Atreides).tanks[0] == 2);
}

TEST_CASE("1.05.01 at most 3 forces are revived per turn", "[revival]") {
  GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) { to_tanks(g, Faction::Atreides, 6); });
  auto r = rejected(s, Faction::Atreides, revive(4));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK(r.reason.find("at most 3") != std::string::npos);
}

TEST_CASE("1.05.01.03 paid revival needs the spice", "[revival]") {
  GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) {
    to_tanks(g, Faction::Harkonnen, 5);
    set_spice(g, Faction::Harkonnen, 1);
  });
  CHECK(rejected(s, Faction::Harkonnen, revive(3)).code == RejectCode::NotEnoughSpice);
  act(s, Faction::Harkonnen, revive(2));  // the two free ones are still possible
  CHECK(s.of(Faction::Harkonnen).spice == 1);
  CHECK(s.of(Faction::Harkonnen).tanks[0] == 3);
}

TEST_CASE("1.05.00 every seat that can revive decides at once, once, then the phase ends", "[revival]") {
  GameState s = at_revival({Faction::Atreides, Faction::Harkonnen, Faction::Emperor}, [](GameState& g) {
    to_tanks(g, Faction::Atreides, 2);
    to_tanks(g, Faction::Emperor, 1);
  });
  REQUIRE(s.phase == Phase::Revival);
  CHECK(waiting(s, Faction::Atreides));
  CHECK(waiting(s, Faction::Emperor));
  CHECK_FALSE(waiting(s, Faction::Harkonnen));  // nothing in the tanks
  CHECK(rejected(s, Faction::Harkonnen, revive(1)).code == RejectCode::NotYourDecision);
  // Any order: the later seat in storm order may answer first.
  act(s, Faction::Emperor, revive(1));
  CHECK_FALSE(waiting(s, Faction::Emperor));
  CHECK(rejected(s, Faction::Emperor, revive(1)).code == RejectCode::NotYourDecision);
  CHECK(s.phase == Phase::Revival);
  act(s, Faction::Atreides, pass());
  CHECK(s.phase != Phase::Revival);
  CHECK(s.of(Faction::Atreides).tanks[0] == 2);
  CHECK(s.of(Faction::Emperor).tanks[0] == 0);
}

TEST_CASE("1.05.00 the phase is skipped when nobody can revive anything", "[revival]") {
  GameState s = game({Faction::Atreides, Faction::Harkonnen});
  play_until(s, Phase::ShipmentMovement, 1);
  CHECK(s.of(Faction::Atreides).revived == 0);
  CHECK(s.turn == 1);
}

TEST_CASE("2.03.10 Sardaukar count as one force in revival", "[revival]") {
  GameState s = at_revival({Faction::Emperor, Faction::Harkonnen}, [](GameState& g) {
    to_tanks(g, Faction::Emperor, 2, 2);
    set_spice(g, Faction::Emperor, 10);
  });
  act(s, Faction::Emperor, revive(2, 1));  // 3 forces, 1 free: 4 spice
  CHECK(s.of(Faction::Emperor).spice == 6);
  CHECK(s.of(Faction::Emperor).tanks[0] == 0);
  CHECK(s.of(Faction::Emperor).tanks[1] == 1);
  CHECK(s.of(Faction::Emperor).reserves[1] == 4);
}

TEST_CASE("2.03.11 only one Sardaukar is revived per turn (advanced)", "[revival]") {
  auto adjust = [](GameState& g) {
    to_tanks(g, Faction::Emperor, 0, 3);
    set_spice(g, Faction::Emperor, 10);
  };
  SECTION("advanced") {
    GameState s = at_revival({Faction::Emperor, Faction::Harkonnen}, adjust, true);
    auto r = rejected(s, Faction::Emperor, revive(0, 2));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("Sardaukar") != std::string::npos);
    act(s, Faction::Emperor, revive(0, 1));
    CHECK(s.of(Faction::Emperor).special_revived_turn == s.turn);
    CHECK(s.of(Faction::Emperor).tanks[1] == 2);
  }
  SECTION("basic: no training limit") {
    GameState s = at_revival({Faction::Emperor, Faction::Harkonnen}, adjust, false);
    act(s, Faction::Emperor, revive(0, 3));
    CHECK(s.of(Faction::Emperor).tanks[1] == 0);
    CHECK(s.of(Faction::Emperor).spice == 6);
  }
}

TEST_CASE("2.04.19 Fedaykin count as one force and 2.04.20 only one per turn (advanced)", "[revival]") {
  GameState s = at_revival({Faction::Fremen, Faction::Harkonnen}, [](GameState& g) {
    to_tanks(g, Faction::Fremen, 2, 2);
  }, true);
  CHECK(rejected(s, Faction::Fremen, revive(1, 2)).code == RejectCode::IllegalChoice);
  act(s, Faction::Fremen, revive(2, 1));  // 3 forces, all free (2.04.04)
  CHECK(s.of(Faction::Fremen).spice == data::faction_setup(Faction::Fremen).starting_spice);
  CHECK(s.of(Faction::Fremen).tanks[1] == 1);
  CHECK(s.of(Faction::Fremen).tanks[0] == 0);
}

TEST_CASE("2.04.11 1.10.02.08 the Fremen's ally has a free revival of 3", "[revival]") {
  GameState s = at_revival({Faction::Atreides, Faction::Fremen}, [](GameState& g) {
    to_tanks(g, Faction::Atreides, 5);
    set_spice(g, Faction::Atreides, 10);
    ally(g, Faction::Atreides, Faction::Fremen);
  });
  act(s, Faction::Atreides, revive(3));
  CHECK(s.of(Faction::Atreides).spice == 10);
  CHECK(s.of(Faction::Atreides).tanks[0] == 2);
}

TEST_CASE("2.03.07 the Emperor pays for up to 3 extra forces of its ally", "[revival]") {
  auto adjust = [](GameState& g) {
    to_tanks(g, Faction::Atreides, 8);
    set_spice(g, Faction::Atreides, 10);
    set_spice(g, Faction::Emperor, 10);
    ally(g, Faction::Atreides, Faction::Emperor);
  };
  SECTION("the extra forces are paid by the Emperor") {
    GameState s = at_revival({Faction::Atreides, Faction::Emperor}, adjust);
    const int64_t bank_before = s.bank;
    act(s, Faction::Atreides, revive(5));
    CHECK(s.of(Faction::Atreides).spice == 8);  // 3 normal, 2 free
    CHECK(s.of(Faction::Emperor).spice == 6);   // 2 extra at 2 each
    CHECK(s.bank == bank_before + 6);
    CHECK(s.of(Faction::Atreides).tanks[0] == 3);
  }
  SECTION("no more than 3 extra") {
    GameState s = at_revival({Faction::Atreides, Faction::Emperor}, adjust);
    CHECK(rejected(s, Faction::Atreides, revive(7)).code == RejectCode::IllegalChoice);
    act(s, Faction::Atreides, revive(6));
    CHECK(s.of(Faction::Emperor).spice == 4);
  }
  SECTION("the Emperor must have the spice") {
    GameState s = at_revival({Faction::Atreides, Faction::Emperor}, [&](GameState& g) {
      adjust(g);
      set_spice(g, Faction::Emperor, 3);
    });
    CHECK(rejected(s, Faction::Atreides, revive(5)).code == RejectCode::NotEnoughSpice);
  }
  SECTION("without the Emperor as ally the limit is 3") {
    GameState s = at_revival({Faction::Atreides, Faction::Emperor}, [&](GameState& g) {
      adjust(g);
      g.of(Faction::Atreides).ally = kNoFaction;
      g.of(Faction::Emperor).ally = kNoFaction;
    });
    CHECK(rejected(s, Faction::Atreides, revive(4)).code == RejectCode::IllegalChoice);
  }
}

TEST_CASE("1.05.03 a leader is revived for its strength, paid to the bank, into the leader pool", "[revival]") {
  GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) {
    all_leaders_dead(g, Faction::Atreides);
    set_spice(g, Faction::Atreides, 10);
  });
  REQUIRE(waiting(s, Faction::Atreides));
  const LeaderId id = data::leader_id(Faction::Atreides, 0);
  const int strength = data::leader(id).strength;
  const int64_t bank_before = s.bank;
  act(s, Faction::Atreides, revive(0, 0, id));
  CHECK(s.of(Faction::Atreides).spice == 10 - strength);
  CHECK(s.bank == bank_before + strength);
  CHECK(s.leaders[id].zone == LeaderZone::Pool);
  CHECK(s.leaders[id].holder == static_cast<uint8_t>(Faction::Atreides));
  CHECK(s.of(Faction::Atreides).leader_revived_turn == s.turn);
}

TEST_CASE("1.05.03.02 a leader revival needs its strength in spice", "[revival]") {
  GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [](GameState& g) {
    all_leaders_dead(g, Faction::Atreides);
    to_tanks(g, Faction::Atreides, 1);
    set_spice(g, Faction::Atreides, 0);
  });
  const LeaderId strongest = data::leader_id(Faction::Atreides, 0);
  REQUIRE(data::leader(strongest).strength > 0);
  CHECK(rejected(s, Faction::Atreides, revive(0, 0, strongest)).code == RejectCode::NotEnoughSpice);
  act(s, Faction::Atreides, revive(1));
}

TEST_CASE("1.05.03 leaders are revived only with no active leader or all died once, one per turn", "[revival]") {
  const LeaderId dead = data::leader_id(Faction::Atreides, 4);
  SECTION("an active leader that never died blocks leader revival") {
    GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [&](GameState& g) {
      g.leaders[dead].zone = LeaderZone::Tanks;
      g.leaders[dead].died_once = 1;
      to_tanks(g, Faction::Atreides, 1);
    });
    auto r = rejected(s, Faction::Atreides, revive(0, 0, dead));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("1.05.03") != std::string::npos);
  }
  SECTION("allowed once every leader has died at least once") {
    GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [&](GameState& g) {
      for (int i = 0; i < 5; ++i) g.leaders[data::leader_id(Faction::Atreides, i)].died_once = 1;
      g.leaders[dead].zone = LeaderZone::Tanks;
    });
    REQUIRE(waiting(s, Faction::Atreides));
    act(s, Faction::Atreides, revive(0, 0, dead));
    CHECK(s.leaders[dead].zone == LeaderZone::Pool);
  }
  SECTION("one leader per turn") {
    GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [&](GameState& g) {
      all_leaders_dead(g, Faction::Atreides);
      to_tanks(g, Faction::Atreides, 1);
    });
    s.of(Faction::Atreides).leader_revived_turn = s.turn;  // e.g. after a Tleilaxu Ghola
    CHECK(rejected(s, Faction::Atreides, revive(0, 0, dead)).code == RejectCode::IllegalChoice);
  }
  SECTION("only your own leaders") {
    GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [&](GameState& g) {
      all_leaders_dead(g, Faction::Atreides);
      all_leaders_dead(g, Faction::Harkonnen);
    });
    CHECK(rejected(s, Faction::Atreides, revive(0, 0, data::leader_id(Faction::Harkonnen, 0))).code == RejectCode::IllegalChoice);
  }
}

TEST_CASE("1.05.04 a leader killed again stays face down until the others are face down too", "[revival]") {
  const LeaderId again = data::leader_id(Faction::Atreides, 0);
  const LeaderId other = data::leader_id(Faction::Atreides, 1);
  SECTION("blocked while another leader is face up in the tanks") {
    GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [&](GameState& g) {
      all_leaders_dead(g, Faction::Atreides);
      g.leaders[again].zone = LeaderZone::TanksFaceDown;
    });
    auto r = rejected(s, Faction::Atreides, revive(0, 0, again));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("1.05.04") != std::string::npos);
    act(s, Faction::Atreides, revive(0, 0, other));
  }
  SECTION("allowed when every other leader is face down") {
    GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [&](GameState& g) {
      all_leaders_dead(g, Faction::Atreides);
      for (int i = 0; i < 5; ++i) g.leaders[data::leader_id(Faction::Atreides, i)].zone = LeaderZone::TanksFaceDown;
    });
    act(s, Faction::Atreides, revive(0, 0, again));
    CHECK(s.leaders[again].zone == LeaderZone::Pool);
  }
}

TEST_CASE("1.05 rejections: kinds, counts, empty revivals", "[revival]") {
  GameState s = at_revival({Faction::Emperor, Faction::Harkonnen}, [](GameState& g) { to_tanks(g, Faction::Emperor, 2, 1); });
  CHECK(rejected(s, Faction::Emperor, revive(3)).code == RejectCode::IllegalChoice);     // only 2 regular there
  CHECK(rejected(s, Faction::Emperor, revive(0, 2)).code == RejectCode::IllegalChoice);  // only 1 Sardaukar there
  CHECK(rejected(s, Faction::Emperor, revive(0)).code == RejectCode::Malformed);
  CHECK(rejected(s, Faction::Emperor, ship(data::arrakeen(), 1)).code == RejectCode::WrongPhase);
  CHECK(rejected(s, Faction::Emperor, revive(0, 0, 200)).code == RejectCode::IllegalChoice);
}

TEST_CASE("1.05 decisions and legal actions: every legal action is accepted, Pass included", "[revival]") {
  GameState s = at_revival({Faction::Atreides, Faction::Emperor, Faction::Fremen}, [](GameState& g) {
    to_tanks(g, Faction::Atreides, 4);
    all_leaders_dead(g, Faction::Atreides);
    to_tanks(g, Faction::Emperor, 2, 2);
    to_tanks(g, Faction::Fremen, 1, 1);
  }, true);
  for (Faction f : {Faction::Atreides, Faction::Emperor, Faction::Fremen}) {
    const Seat seat = s.seat_of(f);
    REQUIRE(waiting(s, f));
    auto ds = phase_decisions(s, seat);
    REQUIRE(ds.size() == 2);
    CHECK(ds[0].kind == ActionKind::Revive);
    CHECK(ds[1].kind == ActionKind::Pass);
    auto acts = legal_actions(s, seat);
    bool has_pass = false;
    for (const auto& a : acts) {
      INFO(faction_name(f) << " " << codec::action_to_json(a));
      CHECK_FALSE(validate(s, seat, a).has_value());
      has_pass |= a.kind() == ActionKind::Pass;
    }
    CHECK(has_pass);
  }
  // Atreides: 5 leader options in the decision.
  CHECK(decisions(s, s.seat_of(Faction::Atreides))[0].options.size() == 5);
  CHECK(decisions(s, s.seat_of(Faction::Atreides))[0].max == 3);
  CHECK(decisions(s, s.seat_of(Faction::Emperor))[0].max == 3);  // 2 regular + 1 Sardaukar
}

// ---- rulings ---------------------------------------------------------------------

TEST_CASE("1.05.04 ruling face_down_leader_revival=no_face_up_in_tanks", "[revival][rulings]") {
  const LeaderId again = data::leader_id(Faction::Atreides, 0);
  const LeaderId other = data::leader_id(Faction::Atreides, 1);
  // Every leader died once; Jessica was killed again; the others were revived
  // and are alive in the pool, none waits face up in the tanks.
  auto adjust = [&](GameState& g) {
    all_leaders_dead(g, Faction::Atreides);
    for (int i = 1; i < 5; ++i) g.leaders[data::leader_id(Faction::Atreides, i)].zone = LeaderZone::Pool;
    g.leaders[again].zone = LeaderZone::TanksFaceDown;
    to_tanks(g, Faction::Atreides, 1);
    set_spice(g, Faction::Atreides, 10);
  };
  SECTION("default all_others_face_down: the living leaders block the revival") {
    GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, adjust);
    REQUIRE(waiting(s, Faction::Atreides));
    auto r = rejected(s, Faction::Atreides, revive(0, 0, again));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("1.05.04") != std::string::npos);
  }
  SECTION("no_face_up_in_tanks: revivable, none of the others is face up in the tanks") {
    GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, adjust, false,
                             ruling("face_down_leader_revival", "no_face_up_in_tanks"));
    REQUIRE(waiting(s, Faction::Atreides));
    act(s, Faction::Atreides, revive(0, 0, again));
    CHECK(s.leaders[again].zone == LeaderZone::Pool);
    CHECK(s.of(Faction::Atreides).spice == 10 - data::leader(again).strength);
  }
  SECTION("no_face_up_in_tanks: still blocked while another leader is face up in the tanks") {
    GameState s = at_revival({Faction::Atreides, Faction::Harkonnen}, [&](GameState& g) {
      adjust(g);
      g.leaders[other].zone = LeaderZone::Tanks;
    }, false, ruling("face_down_leader_revival", "no_face_up_in_tanks"));
    auto r = rejected(s, Faction::Atreides, revive(0, 0, again));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK(r.reason.find("1.05.04") != std::string::npos);
    act(s, Faction::Atreides, revive(0, 0, other));
  }
}

TEST_CASE("2.04.11 ruling fremen_ally_revival=fremen_decides", "[revival][rulings]") {
  auto adjust = [](GameState& g) {
    to_tanks(g, Faction::Atreides, 5);
    set_spice(g, Faction::Atreides, 10);
    ally(g, Faction::Atreides, Faction::Fremen);
  };
  const Rulings decides = ruling("fremen_ally_revival", "fremen_decides");
  SECTION("the Fremen are asked first, alone; declining leaves the ally its own free revival") {
    GameState s = at_revival({Faction::Atreides, Faction::Fremen}, adjust, false, decides);
    REQUIRE(s.phase == Phase::Revival);
    CHECK(waiting_for(s) == (1u << s.seat_of(Faction::Fremen)));
    CHECK(rejected(s, Faction::Atreides, revive(3)).code == RejectCode::NotYourDecision);
    CHECK(rejected(s, Faction::Fremen, pass()).code == RejectCode::WrongPhase);
    auto ds = decisions(s, s.seat_of(Faction::Fremen));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].kind == ActionKind::Respond);
    CHECK(legal_actions(s, s.seat_of(Faction::Fremen)).size() == 2);
    act(s, Faction::Fremen, respond(false));
    REQUIRE(waiting(s, Faction::Atreides));
    act(s, Faction::Atreides, revive(3));  // 2 free (2.01.04), the third costs 2
    CHECK(s.of(Faction::Atreides).spice == 8);
    CHECK(s.of(Faction::Atreides).tanks[0] == 2);
  }
  SECTION("granting gives the ally 3 free this turn") {
    GameState s = at_revival({Faction::Atreides, Faction::Fremen}, adjust, false, decides);
    act(s, Faction::Fremen, respond(true));
    act(s, Faction::Atreides, revive(3));
    CHECK(s.of(Faction::Atreides).spice == 10);
    CHECK(s.of(Faction::Atreides).tanks[0] == 2);
  }
  SECTION("not asked when the ally has nothing in the tanks") {
    GameState s = at_revival({Faction::Atreides, Faction::Fremen}, [](GameState& g) {
      ally(g, Faction::Atreides, Faction::Fremen);
      to_tanks(g, Faction::Fremen, 1);
    }, false, decides);
    REQUIRE(s.phase == Phase::Revival);
    CHECK_FALSE(waiting(s, Faction::Atreides));
    CHECK(waiting(s, Faction::Fremen));
    act(s, Faction::Fremen, revive(1));
    CHECK(s.phase != Phase::Revival);
  }
}

namespace {
void prevent_ability(GameState& g, Faction f, rules::Ability ab) {
  g.prevented[static_cast<int>(f)] |= 1u << static_cast<int>(ab);  // as a Karama does (3.01.11.02, cards.cpp)
}
bool is_prevented(const GameState& g, Faction f, rules::Ability ab) {
  return (g.prevented[static_cast<int>(f)] >> static_cast<int>(ab)) & 1u;
}
}  // namespace

TEST_CASE("3.01.11.02 2.04.11 a prevented ally revival: the ally's own free revival this turn, then 3 again", "[revival][karama]") {
  GameState s = at_revival({Faction::Atreides, Faction::Fremen}, [](GameState& g) {
    to_tanks(g, Faction::Atreides, 5);
    set_spice(g, Faction::Atreides, 10);
    ally(g, Faction::Atreides, Faction::Fremen);
    prevent_ability(g, Faction::Fremen, rules::Ability::FremenAllyRevival);
  });
  CHECK_FALSE(is_prevented(s, Faction::Fremen, rules::Ability::FremenAllyRevival));  // used up as the phase began
  act(s, Faction::Atreides, revive(3));
  const int own_free = data::faction_setup(Faction::Atreides).free_revival;
  CHECK(s.of(Faction::Atreides).spice == 10 - 2 * (3 - own_free));
  play_until(s, Phase::Revival, 2);
  const int spice = s.of(Faction::Atreides).spice;
  REQUIRE(s.of(Faction::Atreides).tanks[0] == 2);
  act(s, Faction::Atreides, revive(2));
  CHECK(s.of(Faction::Atreides).spice == spice);  // 2.04.11 is back
}

TEST_CASE("3.01.11.02 2.03.07 a prevented Emperor payment for the ally's revival: at most 3, then extra again", "[revival][karama]") {
  GameState s = at_revival({Faction::Atreides, Faction::Emperor}, [](GameState& g) {
    to_tanks(g, Faction::Atreides, 8);
    set_spice(g, Faction::Atreides, 20);
    set_spice(g, Faction::Emperor, 10);
    ally(g, Faction::Atreides, Faction::Emperor);
    prevent_ability(g, Faction::Emperor, rules::Ability::EmperorAllyRevival);
  });
  auto r = rejected(s, Faction::Atreides, revive(5));
  CHECK(r.code == RejectCode::IllegalChoice);
  CHECK_THAT(r.reason, Catch::Contains("3.01.11.02"));
  act(s, Faction::Atreides, revive(3));
  CHECK(s.of(Faction::Emperor).spice == 10);
  CHECK_FALSE(is_prevented(s, Faction::Emperor, rules::Ability::EmperorAllyRevival));
  play_until(s, Phase::Revival, 2);
  const int emperor = s.of(Faction::Emperor).spice;
  act(s, Faction::Atreides, revive(5));  // 2.03.07 is back
  CHECK(s.of(Faction::Emperor).spice == emperor - 4);
}

TEST_CASE("3.01.11.01 2.03.07 karama_windows=all_other_seats: the Emperor's payment for his ally's extra forces waits in a window, cancelled, at most 3",
          "[revival][karama][rulings]") {
  uint8_t karama = kNone8;
  GameState s = at_revival({Faction::Atreides, Faction::Emperor, Faction::Harkonnen}, [&](GameState& g) {
    to_tanks(g, Faction::Atreides, 8);
    set_spice(g, Faction::Atreides, 20);
    set_spice(g, Faction::Emperor, 10);
    ally(g, Faction::Atreides, Faction::Emperor);
    karama = give_another(g, Faction::Harkonnen, data::TreacheryKind::Karama);
  }, false, ruling("karama_windows", "all_other_seats"));
  act(s, Faction::Atreides, revive(5));
  REQUIRE(s.window_depth == 1);
  CHECK(s.windows[0].subject == static_cast<uint8_t>(rules::Ability::EmperorAllyRevival));
  CHECK(s.of(Faction::Atreides).tanks[0] == 8);  // not revived yet
  SECTION("cancelled") {
    act(s, Faction::Harkonnen, respond(true, karama));
    CHECK(s.window_depth == 0);
    CHECK(waiting(s, Faction::Atreides));
    auto r = rejected(s, Faction::Atreides, revive(5));
    CHECK(r.code == RejectCode::IllegalChoice);
    CHECK_THAT(r.reason, Catch::Contains("3.01.11.01"));
    act(s, Faction::Atreides, revive(3));
    CHECK(s.of(Faction::Atreides).tanks[0] == 5);
    CHECK(s.of(Faction::Emperor).spice == 10);
    CHECK(s.cancelled_ability == kNone8);
  }
  SECTION("let through") {
    while (s.window_depth > 0) {
      const Seat who = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
      act(s, s.faction_at(who), respond(false));
    }
    CHECK(s.of(Faction::Atreides).tanks[0] == 3);
    CHECK(s.of(Faction::Emperor).spice == 6);  // 2 forces beyond 3, 2 spice each (2.03.07)
  }
}
