// The owner table, game events and modifiers (core/rules/owners.h): the table
// is well formed, each answer composes in its documented order, and the
// owners moved out of the phases answer there and nowhere else.
#include <catch2/catch.hpp>

#include <set>
#include <utility>
#include <string>

#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "bots/selfplay.h"
#include "support/scenario.h"

using namespace mentat;
using namespace mentat::rules;
using namespace scenario;
using data::LeaderSkill;

namespace {

// `k` in front of `leader` and of no other leader. Only the skill a modifier
// or an event reads is set: these tests never check custody.
void set_skill(GameState& s, LeaderId leader, LeaderSkill k) {
  for (auto& a : s.skills.assigned) a = 0;
  s.skills.assigned[leader] = static_cast<uint8_t>(static_cast<int>(k) + 1);
}

int cost(const GameState& s, Faction f, int printed) { return modify(s, ShipmentCostQuery{f, 0, printed, printed}, printed); }
int range(const GameState& s, Faction f, int base, RangeBasis basis = RangeBasis::Ordinary, bool skill = true) {
  return modify(s, MovementRangeQuery{f, basis, skill}, base);
}

}  // namespace

TEST_CASE("owners: one table, unique keys, every faction with abilities an owner of its own", "[owners]") {
  std::set<std::string> keys;
  int factions = 0;
  for (const Owner* o : owners()) {
    INFO(o->key);
    CHECK(keys.insert(std::string(o->key)).second);
    CHECK(o->in_game != nullptr);
    for (char ch : o->key) CHECK(((ch >= 'a' && ch <= 'z') || ch == '_'));
    for (const auto& sub : o->subscriptions) {
      CHECK(sub.kind < EventKind::kCount);
      CHECK(sub.handle != nullptr);
    }
    for (const auto& a : o->modifiers) {
      CHECK(a.what < Modifier::kCount);
      CHECK(a.answer != nullptr);
    }
    if (o->kind == OwnerKind::Faction) ++factions;
  }
  // The faction owners are seated exactly when their faction is.
  const GameState s = game({Faction::Guild, Faction::Fremen, Faction::Atreides});
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto f = static_cast<Faction>(fi);
    if (faction_rules(f).abilities.empty()) continue;
    INFO(faction_name(f));
    int owners_of_f = 0;
    for (const Owner* o : owners())
      if (o->kind == OwnerKind::Faction && o->key == faction_key(f)) {
        ++owners_of_f;
        CHECK(o->in_game(s) == s.has(f));
      }
    CHECK(owners_of_f == 1);
  }
  CHECK(factions == 8);
}

TEST_CASE("owners: a shipment's cost, the Guild's half price and a Karama's Guild rates halve once", "[owners][shipment]") {
  GameState s = game({Faction::Guild, Faction::Atreides, Faction::Harkonnen});
  CHECK(cost(s, Faction::Atreides, 10) == 10);  // 1.06.03.01 printed
  CHECK(cost(s, Faction::Guild, 10) == 5);      // 2.06.06
  CHECK(cost(s, Faction::Guild, 3) == 2);       // rounded up
  ally(s, Faction::Guild, Faction::Atreides);
  CHECK(cost(s, Faction::Atreides, 7) == 4);  // 2.06.09 the ally
  CHECK(cost(s, Faction::Harkonnen, 7) == 7);
  s.karama_shipment = static_cast<uint8_t>(Faction::Harkonnen);  // 3.01.11.03
  CHECK(cost(s, Faction::Harkonnen, 7) == 4);
  s.karama_shipment = static_cast<uint8_t>(Faction::Atreides);  // both: halved once, never a quarter
  CHECK(cost(s, Faction::Atreides, 8) == 4);
  // 3.01.11.02: a prevented half price is the printed price.
  s.karama_shipment = kNoFaction;
  set_prevented_bit(s, static_cast<int>(Faction::Guild), static_cast<int>(Ability::GuildHalfPrice), true);
  CHECK(cost(s, Faction::Guild, 6) == 6);
  // No Guild seated: nobody halves.
  const GameState t = game({Faction::Atreides, Faction::Harkonnen});
  CHECK(cost(t, Faction::Atreides, 6) == 6);
}

TEST_CASE("owners: movement range, the faction's range before a skill's band before Kulon", "[owners][movement]") {
  const auto skills = data::module_bit(data::Module::LeaderSkills) | data::module_bit(data::Module::ChoamRichese);
  GameState s = game({Faction::Fremen, Faction::Choam, Faction::Atreides}, false, 7, Rulings::defaults(), skills);
  CHECK(range(s, Faction::Fremen, 1) == 2);   // 2.04.06
  CHECK(range(s, Faction::Fremen, 3) == 3);   // ornithopters: three all the same
  CHECK(range(s, Faction::Atreides, 1) == 1);
  CHECK(range(s, Faction::Fremen, 1, RangeBasis::PassiveGroup) == 1);
  set_prevented_bit(s, static_cast<int>(Faction::Fremen), static_cast<int>(Ability::FremenMovement), true);
  CHECK(range(s, Faction::Fremen, 1) == 1);  // 3.01.11.02
  set_prevented_bit(s, static_cast<int>(Faction::Fremen), static_cast<int>(Ability::FremenMovement), false);

  // The Planetologist in front of the Fremen: 2 then +1 = 3 (order 0 before
  // order 1; the other way round the +1 would vanish under the 2).
  set_skill(s, data::leader_id(Faction::Fremen, 0), LeaderSkill::Planetologist);
  CHECK(range(s, Faction::Fremen, 1) == 3);
  CHECK(range(s, Faction::Fremen, 1, RangeBasis::Ordinary, false) == 2);  // a gather's group (ruling planetologist_exclusive)
  CHECK(range(s, Faction::Fremen, 3, RangeBasis::OrnithopterCard) == 3);  // never for the card's group

  // Kulon after every other rule: CHOAM with the Planetologist and ornithopters.
  set_skill(s, data::leader_id(Faction::Choam, 0), LeaderSkill::Planetologist);
  s.choam.kulon_turn = s.turn;
  CHECK(range(s, Faction::Choam, 1) == 3);  // 1, +1 skill, +1 Kulon
  CHECK(range(s, Faction::Choam, 1, RangeBasis::PassiveGroup) == 2);  // no Kulon for a passive group
  // Ruling kulon_ornithopter = card_cap_three (default): the card's group keeps its 3, every normal range gains one.
  CHECK(range(s, Faction::Choam, 3, RangeBasis::OrnithopterCard) == 3);
  CHECK(range(s, Faction::Choam, 3) == 4);
  GameState u = game({Faction::Fremen, Faction::Choam, Faction::Atreides}, false, 7, ruling("kulon_ornithopter", "cap_three"), skills);
  u.choam.kulon_turn = u.turn;
  CHECK(range(u, Faction::Choam, 3, RangeBasis::OrnithopterCard) == 3);
  CHECK(range(u, Faction::Choam, 3) == 3);
  CHECK(range(u, Faction::Choam, 1) == 2);
  GameState v = game({Faction::Fremen, Faction::Choam, Faction::Atreides}, false, 7, ruling("kulon_ornithopter", "plus_one"), skills);
  v.choam.kulon_turn = v.turn;
  CHECK(range(v, Faction::Choam, 3, RangeBasis::OrnithopterCard) == 4);
  CHECK(range(v, Faction::Choam, 3) == 4);
}

TEST_CASE("owners: spice moved is an event the Spice Banker and the Bureaucrat hear, and nobody without the module", "[owners][events]") {
  const auto skills = data::module_bit(data::Module::LeaderSkills);
  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor}, false, 7, Rulings::defaults(), skills);
  set_skill(s, data::leader_id(Faction::Atreides, 0), LeaderSkill::SpiceBanker);
  set_spice(s, Faction::Harkonnen, 20);
  s.skills.banked = 0;
  s.skills.banked_mark = 0xFFFF;
  transfer_spice(s, shield(Faction::Harkonnen), bank(), 3);
  CHECK(s.skills.banked == 0);  // under 4
  transfer_spice(s, shield(Faction::Harkonnen), bank(), 4);
  CHECK(s.skills.banked == 1);
  transfer_spice(s, shield(Faction::Harkonnen), bank(), 5);
  CHECK(s.skills.banked == 1);  // once a phase

  set_skill(s, data::leader_id(Faction::Atreides, 0), LeaderSkill::Bureaucrat);
  s.skills.bureau_stage = 0;
  transfer_spice(s, shield(Faction::Harkonnen), shield(Faction::Emperor), 6);
  CHECK(s.skills.bureau_stage == 1);  // recorded for its window
  CHECK(s.skills.bureau_amount == 6);

  GameState t = game({Faction::Atreides, Faction::Harkonnen, Faction::Emperor});
  const auto before = t.skills.banked;
  set_spice(t, Faction::Harkonnen, 20);
  transfer_spice(t, shield(Faction::Harkonnen), bank(), 5);
  transfer_spice(t, shield(Faction::Harkonnen), shield(Faction::Emperor), 6);
  CHECK(t.skills.banked == before);
  CHECK(t.skills.bureau_stage == 0);
}

TEST_CASE("owners: free revival, the Fremen's grant before La La La, and CHOAM's own revival", "[owners][revival]") {
  const auto choam = data::module_bit(data::Module::ChoamRichese);
  GameState s = game({Faction::Fremen, Faction::Choam, Faction::Atreides, Faction::Harkonnen}, false, 7, Rulings::defaults(), choam);
  auto free_of = [&](Faction f) { return modify(s, FreeRevivalQuery{f}, data::faction_setup(f).free_revival); };
  CHECK(free_of(Faction::Atreides) == 2);  // 1.05.01.02 the player sheet
  ally(s, Faction::Fremen, Faction::Atreides);
  CHECK(free_of(Faction::Atreides) == 3);  // 2.04.11 (ruling fremen_ally_revival = always)
  CHECK(free_of(Faction::Harkonnen) == 2);
  s.choam.lalala_turn = s.turn;
  s.choam.lalala_faction = static_cast<uint8_t>(Faction::Atreides);
  CHECK(free_of(Faction::Atreides) == 0);  // La La La after the grant (order 1 after order 0)
  CHECK(free_of(Faction::Harkonnen) == 2);

  CHECK(modify(s, RevivalLimitQuery{Faction::Choam}, 3) == 20);
  CHECK(modify(s, RevivalCostQuery{Faction::Choam}, 2) == 1);
  CHECK(modify(s, RevivalLimitQuery{Faction::Atreides}, 3) == 3);
  CHECK(modify(s, RevivalCostQuery{Faction::Harkonnen}, 2) == 2);
  set_prevented_bit(s, static_cast<int>(Faction::Choam), static_cast<int>(Ability::ChoamRevival), true);  // 3.01.11.02
  CHECK(modify(s, RevivalLimitQuery{Faction::Choam}, 3) == 3);
  CHECK(modify(s, RevivalCostQuery{Faction::Choam}, 2) == 2);
}

TEST_CASE("owners: an elite's worth, the faction's own before a Karama that prevented it", "[owners][battle]") {
  GameState s = game({Faction::Emperor, Faction::Fremen, Faction::Atreides}, true);
  auto worth = [&](Faction f, Faction opp) { return modify(s, EliteWorthQuery{f, opp}, 1); };
  CHECK(worth(Faction::Emperor, Faction::Atreides) == 2);  // 2.03.08
  CHECK(worth(Faction::Emperor, Faction::Fremen) == 1);    // 2.03.09
  CHECK(worth(Faction::Fremen, Faction::Emperor) == 2);    // 2.04.18
  CHECK(worth(Faction::Atreides, Faction::Emperor) == 1);  // nobody answers for a faction without elites
  s.battle.karama_elite_off = faction_bit(Faction::Fremen);  // 3.01.11.02: order 1 after order 0
  CHECK(worth(Faction::Fremen, Faction::Emperor) == 1);
  CHECK(worth(Faction::Emperor, Faction::Atreides) == 2);
}

namespace {

// The forces of every faction as the force events tell them (ForcesMoved,
// ForcesFlipped), kept from nothing: every force of a game is set up, moved,
// destroyed and revived through move_forces / flip_forces, or the ledger and
// the state part.
struct ForceLedger {
  int board[kNumFactions][data::kNumLocations][2] = {};
  int reserves[kNumFactions][2] = {};
  int tanks[kNumFactions][2] = {};
  bool dead[data::kNumLeaders] = {};  // LeaderDied / LeaderRevived
  int ally[kNumFactions] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};  // AllianceChanged
  int alliances = 0;
  long events = 0;
  int arrivals_from_other_territories = 0, deaths = 0;

  int* counts(Faction f, ForcePlace p) {
    const int fi = static_cast<int>(f);
    switch (p.zone) {
      case ForceZone::Board: return board[fi][p.loc];
      case ForceZone::Reserves: return reserves[fi];
      case ForceZone::Tanks: return tanks[fi];
      case ForceZone::Supply: return nullptr;
    }
    return nullptr;
  }
  void on(EventKind kind, const void* e) {
    ++events;
    if (kind == EventKind::ForcesMoved) {
      const auto& m = *static_cast<const ForcesMoved*>(e);
      if (int* c = counts(m.faction, m.from)) {
        c[0] -= m.regular;
        c[1] -= m.special;
      }
      int reg = m.regular, spec = m.special;
      if (m.as == ArriveAs::Regular) reg += std::exchange(spec, 0);
      if (m.as == ArriveAs::Special) spec += std::exchange(reg, 0);
      if (int* c = counts(m.faction, m.to)) {
        c[0] += reg;
        c[1] += spec;
      }
      if (m.to.on_board() && (!m.from.on_board() || data::territory_of(m.from.loc) != data::territory_of(m.to.loc)))
        ++arrivals_from_other_territories;
    } else if (kind == EventKind::LeaderDied) {
      dead[static_cast<const LeaderDied*>(e)->leader] = true;
      ++deaths;
    } else if (kind == EventKind::AllianceChanged) {
      const auto& a = *static_cast<const AllianceChanged*>(e);
      ally[static_cast<int>(a.a)] = a.formed ? static_cast<int>(a.b) : -1;
      ally[static_cast<int>(a.b)] = a.formed ? static_cast<int>(a.a) : -1;
      alliances += a.formed;
    } else if (kind == EventKind::LeaderRevived) {
      dead[static_cast<const LeaderRevived*>(e)->leader] = false;
    } else if (kind == EventKind::ForcesFlipped) {
      const auto& f = *static_cast<const ForcesFlipped*>(e);
      board[static_cast<int>(f.faction)][f.loc][f.from_kind] -= f.n;
      board[static_cast<int>(f.faction)][f.loc][1 - f.from_kind] += f.n;
    }
  }
  // The first place where the ledger and the state differ, or "".
  std::string differs(const GameState& s) const {
    for (int fi = 0; fi < kNumFactions; ++fi) {
      const auto& fs = s.f[fi];
      for (int k = 0; k < 2; ++k) {
        if (reserves[fi][k] != fs.reserves[k]) return std::string(faction_key(static_cast<Faction>(fi))) + " reserves";
        if (tanks[fi][k] != fs.tanks[k]) return std::string(faction_key(static_cast<Faction>(fi))) + " tanks";
        for (int l = 0; l < data::kNumLocations; ++l)
          if (board[fi][l][k] != s.forces[fi][l][k])
            return std::string(faction_key(static_cast<Faction>(fi))) + " at location " + std::to_string(l);
      }
    }
    for (int fi = 0; fi < kNumFactions; ++fi)
      if (ally[fi] != (s.f[fi].ally == kNoFaction ? -1 : s.f[fi].ally)) return std::string(faction_key(static_cast<Faction>(fi))) + "'s ally";
    for (int l = 0; l < data::kNumLeaders; ++l) {
      const auto z = s.leaders[l].zone;
      if (dead[l] != (z == LeaderZone::Tanks || z == LeaderZone::TanksFaceDown)) return "leader " + std::to_string(l);
    }
    return "";
  }
};

}  // namespace

// Issue 46 item 1: every path that changes where forces are, every leader's
// death and revival and every alliance made or broken raises its game event. Whole games with every faction and module, basic and advanced; after
// every action the ledger kept from the events alone equals the state.
TEST_CASE("owners: force, leader and alliance events raised on every path keep a ledger equal to the state", "[owners][events]") {
  ForceLedger ledger;
  set_event_tap([](void* ctx, EventKind kind, const void* e) { static_cast<ForceLedger*>(ctx)->on(kind, e); }, &ledger);
  struct Untap {
    ~Untap() { set_event_tap(nullptr, nullptr); }
  } untap;
  const auto modules = static_cast<data::ModuleSet>(data::module_bit(data::Module::ChoamRichese) | data::module_bit(data::Module::LeaderSkills) |
                                                    data::module_bit(data::Module::StrongholdCards));
  int checked = 0, mismatches = 0, deaths_before = 0, alliances_before = 0;
  const std::vector<std::vector<Faction>> sets = {
      {Faction::BeneGesserit, Faction::Fremen, Faction::Richese, Faction::Guild, Faction::Emperor, Faction::Choam},
      {Faction::Atreides, Faction::Harkonnen, Faction::Fremen, Faction::BeneGesserit, Faction::Richese},
  };
  for (size_t i = 0; i < sets.size(); ++i)
    for (bool advanced : {false, true}) {
      bots::GameSpec spec;
      spec.setup.seed = 101 + i;
      spec.setup.factions = sets[i];
      spec.setup.advanced = advanced;
      spec.setup.modules = modules;
      spec.bot_seed = 7 + i;
      for (size_t k = 0; k < sets[i].size(); ++k) spec.profiles.push_back(static_cast<bots::Profile>((k + i) % bots::kNumProfiles));
      deaths_before += ledger.deaths;
      alliances_before += ledger.alliances;
      ledger = ForceLedger{};  // a new game starts from nothing: its setup raises its own events
      const auto r = bots::play_in_memory(spec, [&](const GameState& after, const bots::Step& st) {
        ++checked;
        if (const std::string where = ledger.differs(after); !where.empty() && mismatches++ < 3) {
          INFO("after " << action_kind_name(st.action.kind()) << " at version " << after.version << ": " << where);
          CHECK(where.empty());
        }
      });
      INFO(r.error);
      CHECK(r.ok);
    }
  CHECK(mismatches == 0);
  CHECK(checked > 1000);
  CHECK(ledger.arrivals_from_other_territories > 0);
  CHECK(ledger.deaths + deaths_before > 0);
  CHECK(ledger.alliances + alliances_before > 0);
}
