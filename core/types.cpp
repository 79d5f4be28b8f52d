#include "core/types.h"

#include <cstddef>

namespace mentat {
namespace {

struct FactionNames {
  std::string_view name;
  std::string_view key;
};

constexpr FactionNames kFactionNames[kNumFactions] = {
  {"Atreides", "atreides"},
  {"Bene Gesserit", "bene_gesserit"},
  {"Emperor", "emperor"},
  {"Fremen", "fremen"},
  {"Harkonnen", "harkonnen"},
  {"Spacing Guild", "spacing_guild"},
  {"Ixians", "ixians"},
  {"Tleilaxu", "tleilaxu"},
  {"CHOAM", "choam"},
  {"Richese", "richese"},
  {"Ecaz", "ecaz"},
  {"Moritani", "moritani"},
};

constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

}  // namespace

std::string_view faction_name(Faction f) {
  const auto i = static_cast<std::size_t>(f);
  return i < kNumFactions ? kFactionNames[i].name : std::string_view("?");
}

std::string_view faction_key(Faction f) {
  const auto i = static_cast<std::size_t>(f);
  return i < kNumFactions ? kFactionNames[i].key : std::string_view("?");
}

bool parse_faction(std::string_view text, Faction* out) {
  for (int i = 0; i < kNumFactions; ++i) {
    if (iequals(text, kFactionNames[i].name) || iequals(text, kFactionNames[i].key)) {
      if (out != nullptr) *out = static_cast<Faction>(i);
      return true;
    }
  }
  // The enum spells the Spacing Guild "Guild"; accept that short form too.
  if (iequals(text, "guild")) {
    if (out != nullptr) *out = Faction::Guild;
    return true;
  }
  return false;
}

}  // namespace mentat
