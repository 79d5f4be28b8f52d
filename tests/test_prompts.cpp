// Prompts are sentences a player reads (issue 46 item 5, issue 47 item 4).
// Programs read a decision's typed fields (Decision::topic, window, owner,
// ability, amount, place, options, min/max; docs/ARCHITECTURE.md "Decisions:
// typed fields for programs, a sentence for people"), so a prompt and an open
// window's text carry no schema notation: no `Type.field` or `(.field)`, no
// snake_case identifier, no `key=value`, no bracketed counters like
// "[31 draws]", no numeric range like "1..255", no code-like enumeration like
// "0 leader, 1 weapon", no action kind written as code (CallTraitor), no
// action field named as the answer ("(accept)", "(target)", "accept:").
#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/data/modules.h"
#include "core/engine.h"
#include "core/rules/rules.h"
#include "inspect/report.h"
#include "support/random_play.h"
#include "support/scenario.h"

using namespace mentat;

namespace {

struct Pattern {
  const char* name;
  std::regex re;
};

const std::vector<Pattern>& schema_patterns() {
  static const std::vector<Pattern> p = {
      {"Type.field", std::regex(R"(\b[A-Z][A-Za-z]*\.[a-z_]+)")},
      {"(.field)", std::regex(R"(\(\.[A-Za-z_])")},
      {"snake_case identifier", std::regex(R"(\b[A-Za-z0-9]+_[A-Za-z0-9_]+)")},
      {"key=value", std::regex(R"([\w"]\s*=\s*[\w"])")},
      {"bracketed counter", std::regex(R"(\[[^\]]*\])")},
      {"numeric range", std::regex(R"(\d\s*\.\.\s*\d|\.\.\s*\d)")},
      {"code enumeration", std::regex(R"(\b\d+ [A-Za-z][A-Za-z ]*, \d+ [A-Za-z][A-Za-z ]*, \d+ [A-Za-z])")},
      {"side N", std::regex(R"(\bside \d)")},
      {"action kind as code", std::regex(R"(\b[A-Z][a-z]+[A-Z][a-z]+[A-Za-z]*\b)")},
      {"field name in parentheses", std::regex(R"(\((accept|decline|target|value|options|karama|cards|card|take|give|flip|must|first|call|to|from)\b[),;:])")},
      {"field name as a label", std::regex(R"(\b(accept|decline|value|target|options)\s*:)")},
  };
  return p;
}

// The patterns that `text` shows, by name ("" when none).
std::string schema_notation(const std::string& text) {
  std::string found;
  for (const auto& p : schema_patterns())
    if (std::regex_search(text, p.re)) found += (found.empty() ? "" : ", ") + std::string(p.name);
  return found;
}

}  // namespace

TEST_CASE("prompts: the schema patterns catch what they forbid and pass sentences", "[prompts]") {
  for (const char* bad : {"Choose a leader (BattlePlan.leader) or (.cheap_hero)", "Draw a card [31 draws]", "Bid on Lasgun (1..255 spice)",
                          "Prescience: 0 leader, 1 weapon, 2 defense", "Let your ally pay (ally_pays, 1.10.02.06)",
                          "(Respond: accept=true grants it, 2.04.11)", "Use a Karama (value \"guild_rates\", 3.01.11.03)",
                          "Go on (CallTraitor without call, or Pass)", "side 1 Double, side 2 Cancel",
                          "Keep one of the traitor cards drawn (take)", "A sandworm: protect your ally (accept) or not", "accept: CAPTURE it"}) {
    INFO(bad);
    CHECK_FALSE(schema_notation(bad).empty());
  }
  for (const char* fine : {"Bid on Lasgun: at least 3 spice, at most 12, or pass", "Let your ally use your spice for its shipments (1.10.02.06)",
                           "Prescience (2.01.08): make Harkonnen reveal its leader, weapon, defense or number dialed",
                           "Thufir Hawat of Atreides was drawn: capture or kill it (2.05.10)", "Claim CHOAM Charity (+2 spice)",
                           "The Spice Must Flow", "Give spice to your ally, behind their shield, at any time (2.03.06)"}) {
    INFO(fine);
    CHECK(schema_notation(fine).empty());
  }
}

// Random games over every implemented module, both rule sets and varied
// rulings: every distinct prompt and open window text a seat is shown.
TEST_CASE("prompts: decisions and windows read as sentences, without schema names", "[prompts]") {
  std::map<std::string, std::string> shown;   // text -> where first seen
  std::map<std::string, std::string> labels;  // the legal actions' labels (GET /rooms/{id}/legal), likewise
  const data::ModuleSet all = data::module_bit(data::Module::ChoamRichese) | data::module_bit(data::Module::LeaderSkills) |
                              data::module_bit(data::Module::StrongholdCards);
  const std::vector<std::vector<Faction>> lineups = {
      {Faction::Atreides, Faction::Fremen, Faction::Harkonnen, Faction::Guild, Faction::BeneGesserit, Faction::Richese},
      {Faction::Emperor, Faction::Choam, Faction::Fremen, Faction::Guild, Faction::Atreides, Faction::Harkonnen},
      {Faction::Richese, Faction::Choam, Faction::BeneGesserit, Faction::Emperor, Faction::Atreides, Faction::Harkonnen},
      {Faction::Atreides, Faction::Harkonnen, Faction::Emperor, Faction::Fremen, Faction::Guild, Faction::BeneGesserit},
  };
  const std::vector<data::ModuleSet> module_sets = {0, all, data::module_bit(data::Module::ChoamRichese), all};
  int games = 0;
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    GameSetup g;
    g.seed = seed;
    g.advanced = seed % 2 == 0;
    g.max_turns = 5;
    g.factions = lineups[(seed / 2) % lineups.size()];
    g.modules = module_sets[(seed / 2) % module_sets.size()];
    g.rulings = seed % 4 < 2 ? scenario::ruling("karama_windows", "all_other_seats") : Rulings::defaults();
    if (seed > 8) {  // every ruling at a value drawn from the seed
      Rng r = Rng::from_seed(seed * 977);
      for (const auto& info : ruling_registry())
        g.rulings.value[static_cast<int>(info.id)] = static_cast<uint8_t>(r.below(static_cast<uint32_t>(info.values.size())));
    }
    if (check_setup(g)) continue;
    ++games;
    GameState s = create_game(g, nullptr);
    auto look = [&](const GameState& st) {
      const std::string where = "seed " + std::to_string(seed) + " version " + std::to_string(st.version);
      if (rules::window_open(st)) shown.emplace(rules::window_description(st), where + " (window)");
      for (Seat seat = 0; seat < st.num_seats; ++seat)
        for (const auto& d : decisions(st, seat)) shown.emplace(d.prompt, where + " " + std::string(action_kind_name(d.kind)));
      for (Seat seat = 0; seat < st.num_seats; ++seat)
        if ((waiting_for(st) >> seat) & 1u)
          for (const auto& a : legal_actions(st, seat)) labels.emplace(inspect::action_label(st, seat, a), where);
    };
    look(s);
    std::string why;
    const bool played = testplay::play(s, seed * 53, 3000, [&](const GameState& st, const testplay::Step&) { look(st); }, &why);
    INFO(why);
    REQUIRE(played);
  }
  CHECK(games >= 12);
  auto offenders = [](const std::map<std::string, std::string>& texts, int* n) {
    std::string list;
    for (const auto& [text, where] : texts) {
      const auto found = schema_notation(text);
      if (found.empty()) continue;
      ++*n;
      list += "  [" + found + "] " + text + "    (" + where + ")\n";
    }
    return list;
  };
  int bad_prompts = 0, bad_labels = 0;
  const std::string prompt_list = offenders(shown, &bad_prompts);
  const std::string label_list = offenders(labels, &bad_labels);
  INFO(shown.size() << " distinct prompts and window texts; " << bad_prompts << " carry schema notation:\n" << prompt_list);
  INFO(labels.size() << " distinct labels of legal actions; " << bad_labels << " carry schema notation:\n" << label_list);
  CHECK(shown.size() > 100);
  CHECK(labels.size() > 100);
  CHECK(bad_prompts == 0);
  CHECK(bad_labels == 0);
}
