// The faction hook table (core/factions/faction_rules.h): one entry per
// faction id, each the constant defined in the faction's own file; factions
// without implemented abilities get kNoFactionRules.
#include "core/factions/faction_rules.h"

namespace mentat::rules {

const FactionRules kNoFactionRules{};

namespace {

constexpr std::array<const FactionRules*, kNumFactions> make_table() {
  std::array<const FactionRules*, kNumFactions> t{};
  for (auto& e : t) e = &kNoFactionRules;
  t[static_cast<int>(Faction::Atreides)] = &kAtreidesRules;
  t[static_cast<int>(Faction::BeneGesserit)] = &kBeneGesseritRules;
  t[static_cast<int>(Faction::Emperor)] = &kEmperorRules;
  t[static_cast<int>(Faction::Fremen)] = &kFremenRules;
  t[static_cast<int>(Faction::Harkonnen)] = &kHarkonnenRules;
  t[static_cast<int>(Faction::Guild)] = &kGuildRules;
  t[static_cast<int>(Faction::Choam)] = &kChoamRules;
  t[static_cast<int>(Faction::Richese)] = &kRicheseRules;
  return t;
}

}  // namespace

// Constant-initialised: no dynamic initialisation order to worry about.
constinit const std::array<const FactionRules*, kNumFactions> kFactionTable = make_table();

namespace {
// The faction in the game that keeps `what`, or null.
const FactionRules* keeper(const GameState& s, Secret what) {
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto& r = *kFactionTable[fi];
    if ((r.keeps_secrets >> static_cast<int>(what)) & 1u && r.reveals && s.has(static_cast<Faction>(fi))) return &r;
  }
  return nullptr;
}
}  // namespace

const FactionRules::BattleStep* faction_battle_step(const GameState& s, uint8_t step) {
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto& st = kFactionTable[fi]->battle_step;
    if (st.first && step >= st.first && step <= st.last && s.has(static_cast<Faction>(fi))) return &st;
  }
  return nullptr;
}

const FactionRules::ResponseWindow* faction_window(const GameState& s, WindowKind k) {
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto& w = kFactionTable[fi]->response_window;
    if (w.kind == k && k != WindowKind::None && s.has(static_cast<Faction>(fi))) return &w;
  }
  return nullptr;
}

const AbilityInfo* ability_info(Ability a) {
  // Indexed once from the factions' rows (FactionRules::abilities).
  static const std::array<const AbilityInfo*, kNumAbilities> kIndex = [] {
    std::array<const AbilityInfo*, kNumAbilities> t{};
    for (const FactionRules* r : kFactionTable)
      for (const AbilityInfo& i : r->abilities) t[static_cast<int>(i.id)] = &i;
    return t;
  }();
  const auto i = static_cast<unsigned>(a);
  return i < kIndex.size() ? kIndex[i] : nullptr;
}

bool secret_kept(const GameState& s, Secret what) { return keeper(s, what) != nullptr; }

bool sees_secret(const GameState& s, Faction viewer, Secret what, int side) {
  const FactionRules* r = keeper(s, what);
  return r && r->reveals(s, viewer, what, side);
}

}  // namespace mentat::rules
