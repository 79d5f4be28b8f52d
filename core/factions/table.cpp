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
  return t;
}

}  // namespace

// Constant-initialised: no dynamic initialisation order to worry about.
constinit const std::array<const FactionRules*, kNumFactions> kFactionTable = make_table();

}  // namespace mentat::rules
