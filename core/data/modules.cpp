// The module table. See modules.h for the contract.
#include "core/data/modules.h"

namespace mentat::data {
namespace {

using F = Faction;
using M = Module;

constexpr ModuleInfo kModules[kNumModules] = {
  {M::ChoamRichese, "choam_richese", "CHOAM & Richese", static_cast<FactionMask>(faction_bit(F::Choam) | faction_bit(F::Richese)),
   static_cast<int8_t>(CardSet::Richese), CardPlace::RicheseCache, true},  // CHOAM and the Richese playable
  {M::LeaderSkills, "leader_skills", "Leader Skills (CHOAM & Richese)", 0, -1, CardPlace::TreacheryDeck, true},
  {M::StrongholdCards, "stronghold_cards", "Advanced Stronghold Cards (CHOAM & Richese)", 0, -1, CardPlace::TreacheryDeck, true},
  {M::IxiansTleilaxu, "ixians_tleilaxu", "Ixians & Tleilaxu", static_cast<FactionMask>(faction_bit(F::Ixians) | faction_bit(F::Tleilaxu)),
   static_cast<int8_t>(CardSet::IxiansTleilaxu), CardPlace::TreacheryDeck, false},
  {M::EcazMoritani, "ecaz_moritani", "Ecaz & Moritani", static_cast<FactionMask>(faction_bit(F::Ecaz) | faction_bit(F::Moritani)),
   static_cast<int8_t>(CardSet::EcazMoritani), CardPlace::TreacheryDeck, false},
  {M::Homeworlds, "homeworlds", "Homeworlds", 0, -1, CardPlace::TreacheryDeck, false},
  {M::Discovery, "discovery", "Discovery", 0, -1, CardPlace::TreacheryDeck, false},
};

constexpr bool modules_in_order() {
  for (int i = 0; i < kNumModules; ++i)
    if (static_cast<int>(kModules[i].module) != i) return false;
  return true;
}
static_assert(modules_in_order());

constexpr char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

constexpr FactionMask kBaseFactions = (1u << kNumBaseFactions) - 1;

std::string implemented_factions() {
  std::string out;
  for (int i = 0; i < kNumFactions; ++i) {
    if (!faction_rules_implemented(static_cast<Faction>(i))) continue;
    if (!out.empty()) out += ", ";
    out += faction_key(static_cast<Faction>(i));
  }
  return out;
}

std::string implemented_modules() {
  std::string out;
  for (const ModuleInfo& m : kModules) {
    if (!m.implemented) continue;
    if (!out.empty()) out += ", ";
    out += m.key;
  }
  return out.empty() ? "none yet" : out;
}

}  // namespace

const ModuleInfo& module_info(Module m) { return kModules[static_cast<int>(m)]; }

bool parse_module(std::string_view key, Module* out) {
  for (const ModuleInfo& m : kModules) {
    if (iequals(key, m.key)) {
      if (out != nullptr) *out = m.module;
      return true;
    }
  }
  return false;
}

std::string unknown_module_error(std::string_view key) {
  std::string known;
  for (const ModuleInfo& info : kModules) known += (known.empty() ? "" : ", ") + std::string(info.key);
  return "unknown module '" + std::string(key) + "' (modules: " + known + ")";
}

bool parse_module_list(std::string_view list, ModuleSet* out, std::string* error) {
  ModuleSet set = 0;
  while (!list.empty()) {
    const auto comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) continue;
    Module m;
    if (!parse_module(item, &m)) {
      *error = unknown_module_error(item);
      return false;
    }
    set = static_cast<ModuleSet>(set | module_bit(m));
  }
  *out = set;
  return true;
}

std::string module_list(ModuleSet set) {
  std::string out;
  for (const ModuleInfo& m : kModules) {
    if (!(set & module_bit(m.module))) continue;
    if (!out.empty()) out += ",";
    out += m.key;
  }
  return out;
}

FactionMask factions_allowed(ModuleSet modules) {
  FactionMask mask = kBaseFactions;
  for (const ModuleInfo& m : kModules)
    if (modules & module_bit(m.module)) mask = static_cast<FactionMask>(mask | m.factions);
  return mask;
}

ModuleSet modules_seating(Faction f) {
  ModuleSet set = 0;
  for (const ModuleInfo& m : kModules)
    if (m.factions & faction_bit(f)) set = static_cast<ModuleSet>(set | module_bit(m.module));
  return set;
}

bool faction_rules_implemented(Faction f) {
  return static_cast<int>(f) < kNumBaseFactions || f == Faction::Choam || f == Faction::Richese;
}

uint8_t card_sets_in(ModuleSet modules, CardPlace place) {
  uint8_t sets = place == CardPlace::TreacheryDeck ? uint8_t{1} << static_cast<int>(CardSet::Base) : uint8_t{0};
  for (const ModuleInfo& m : kModules)
    if ((modules & module_bit(m.module)) && m.card_set >= 0 && m.card_place == place)
      sets = static_cast<uint8_t>(sets | (1u << m.card_set));
  return sets;
}

uint8_t card_sets_in_game(ModuleSet modules) {
  return static_cast<uint8_t>(card_sets_in(modules, CardPlace::TreacheryDeck) | card_sets_in(modules, CardPlace::RicheseCache));
}

int first_card_of_kind_in_game(ModuleSet modules, int kind) {
  if (kind < 0 || kind >= kNumAllTreacheryKinds) return -1;
  const uint8_t sets = card_sets_in_game(modules);
  for (int id = 0; id < kNumAllTreacheryCards; ++id) {
    const auto& c = treachery_card(static_cast<uint8_t>(id));
    if (static_cast<int>(c.kind) == kind && ((sets >> static_cast<int>(c.set)) & 1u)) return id;
  }
  return -1;
}

std::optional<std::string> check_factions_and_modules(const std::vector<Faction>& factions, ModuleSet modules) {
  if (modules & ~kAllModules) return std::string("unknown module id");
  for (const ModuleInfo& m : kModules) {
    if ((modules & module_bit(m.module)) && !m.implemented)
      return "module " + std::string(m.key) + " (" + std::string(m.name) +
             ") is not implemented in this release; implemented modules: " + implemented_modules();
  }
  const FactionMask allowed = factions_allowed(modules);
  for (Faction f : factions) {
    if (static_cast<int>(f) >= kNumFactions) return std::string("unknown faction");
    if (!faction_rules_implemented(f))
      return "faction " + std::string(faction_key(f)) + " (" + std::string(faction_name(f)) +
             ") is not implemented in this release; playable factions: " + implemented_factions();
    if (!(allowed & faction_bit(f))) {
      std::string needs;  // the module(s) that seat it, by key and name
      for (const ModuleInfo& m : kModules)
        if (modules_seating(f) & module_bit(m.module))
          needs += (needs.empty() ? "" : " or ") + std::string(m.key) + " (" + std::string(m.name) + ")";
      return "faction " + std::string(faction_key(f)) + " needs the module " + needs + ", which this game does not use";
    }
  }
  return std::nullopt;
}

}  // namespace mentat::data
