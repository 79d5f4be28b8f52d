// Protocol apart from display (issue 46 item 5): a decision carries what a
// program needs as typed fields (Decision::topic, window, owner, ability,
// amount, place in core/engine.h; DecisionAbout in events/view.fbs), and the
// bots read those, never the prompt, which is a sentence for a player.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "bots/bot.h"
#include "bots/knowledge.h"
#include "core/engine.h"
#include "core/data/components.h"
#include "core/rules/rules.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "support/random_play.h"
#include "support/scenario.h"

namespace fs = std::filesystem;
using namespace mentat;

namespace {

// The source with its comments and string literals blanked.
std::string code_only(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
      out.push_back('\n');
    } else if (text.compare(i, 2, "/*") == 0) {
      const size_t end = text.find("*/", i + 2);
      i = end == std::string::npos ? text.size() : end + 1;
    } else if (text[i] == '"') {
      out.push_back('"');
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      out.push_back('"');
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("decision protocol: the bots read no prompt and no window description", "[protocol]") {
  int files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(MENTAT_SOURCE_DIR) / "bots")) {
    if (e.path().extension() != ".cpp" && e.path().extension() != ".h") continue;
    ++files;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string code = code_only(ss.str());
    INFO(e.path().filename().string());
    // `prompt` (the decision's sentence) and the view's `window()` text are for people.
    CHECK_FALSE(std::regex_search(code, std::regex(R"(\bprompt\b)")));
    CHECK_FALSE(std::regex_search(code, std::regex(R"(v->window\(\))")));
  }
  CHECK(files >= 6);
}

// The web client (web/js) decides from the same typed fields: a decision's
// kind, options, choices and `about`, a legal action's `action` and `karama`
// (GET /rooms/{id}/legal). A prompt or a label is shown, never matched: no
// regular expression tests one, and no string method (includes, indexOf,
// slice, startsWith, split, ...) is called on one.
TEST_CASE("decision protocol: the web client reads no prompt and no label", "[protocol]") {
  // A string method called on .prompt / .label (through an `|| ''` fallback too).
  const std::regex method(
      R"(\.(prompt|label)\b\s*(\|\|\s*(''|""|``)\s*\)?)?\s*\??\.\s*(test|includes|indexOf|lastIndexOf|slice|substring|substr|startsWith|endsWith|match|matchAll|search|split|replace|replaceAll|charAt|trim|toLowerCase|toUpperCase)\s*\()");
  // A prompt or a label given to a regular expression or a search.
  const std::regex searched(
      R"(\.(test|exec|match|matchAll|search|includes|indexOf|startsWith|endsWith)\(\s*\(?\s*[\w$.\[\]]*\.(prompt|label)\b)");
  int files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(MENTAT_SOURCE_DIR) / "web" / "js")) {
    if (e.path().extension() != ".js") continue;
    ++files;
    std::ifstream in(e.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (const auto c = line.find("//"); c != std::string::npos && line.find("://") != c - 1) line.erase(c);  // a comment, not a URL
      INFO(e.path().filename().string() << ":" << n << ": " << line);
      CHECK_FALSE(std::regex_search(line, method));
      CHECK_FALSE(std::regex_search(line, searched));
    }
  }
  CHECK(files >= 5);
  // The patterns catch the reads they forbid.
  for (const char* bad : {"/ally_pays/.test(d.prompt || '')", "/: /.test(a.label)", "a.label.indexOf(': ')", "a.label.includes(name.name)",
                          "(d.prompt || '').includes('x')", "x.startsWith(a.label)"}) {
    INFO(bad);
    CHECK((std::regex_search(std::string(bad), method) || std::regex_search(std::string(bad), searched)));
  }
  for (const char* fine : {"el('div', { class: 'prompt' }, d.prompt || d.kind)", "el('option', { value: i }, a.label)", "el('label', {}, 'to ')"}) {
    INFO(fine);
    CHECK_FALSE((std::regex_search(std::string(fine), method) || std::regex_search(std::string(fine), searched)));
  }
}

// The legal listing's `karama` (inspect::karama_use_key): which Karama use a
// PlayCard is, from the card and the value's bits (core/rules/rules.h).
TEST_CASE("decision protocol: a legal PlayCard names its Karama use as a key", "[protocol]") {
  using K = data::TreacheryKind;
  auto first = [](K kind) {
    for (int id = 0; id < data::kNumAllTreacheryCards; ++id)
      if (data::treachery_card(static_cast<TreacheryId>(id)).kind == kind) return static_cast<TreacheryId>(id);
    FAIL("no card of that kind");
    return TreacheryId{0};
  };
  const TreacheryId karama = first(K::Karama), baliset = first(K::Baliset), lasgun = first(K::Lasgun);
  auto play = [](TreacheryId card, uint8_t value, uint8_t target = kNone8) { return Action(action::PlayCard{card, target, value}); };
  const auto prevent = static_cast<uint8_t>(rules::kKaramaPrevent | static_cast<uint8_t>(rules::Ability::BgVoice));
  CHECK(inspect::karama_use_key(play(karama, rules::kKaramaGuildRates)) == "guild_rates");
  CHECK(inspect::karama_use_key(play(karama, prevent, static_cast<uint8_t>(Faction::BeneGesserit))) == "prevent");
  CHECK(inspect::karama_use_key(play(karama, 0)) == "power");
  CHECK(inspect::karama_use_key(play(karama, rules::kKaramaProtectAlly)) == "power");
  // A worthless card the Bene Gesserit play as a Karama: Guild rates and prevention only (2.02.05).
  CHECK(inspect::karama_use_key(play(baliset, rules::kKaramaGuildRates)) == "guild_rates");
  CHECK(inspect::karama_use_key(play(baliset, prevent, 1)) == "prevent");
  CHECK(inspect::karama_use_key(play(baliset, 0)).empty());
  // Other cards and actions spend no Karama, whatever the value's bits (a Truthtrance's question is value >> 4).
  CHECK(inspect::karama_use_key(play(lasgun, 0x50)).empty());
  CHECK(inspect::karama_use_key(Action(action::Pass{})).empty());
  // The words shown beside the key.
  CHECK(inspect::karama_use(play(karama, rules::kKaramaGuildRates)) == "this turn's shipment at Guild rates");
  CHECK_THAT(inspect::karama_use(play(karama, prevent, static_cast<uint8_t>(Faction::BeneGesserit))), Catch::StartsWith("prevents "));
}

TEST_CASE("decision protocol: every topic has a key, keys are unique, and the view carries the typed fields", "[protocol]") {
  std::set<std::string> keys;
  for (int t = 1; t < kNumTopics; ++t) {
    const auto k = std::string(topic_key(static_cast<Topic>(t)));
    INFO(t);
    CHECK_FALSE(k.empty());
    CHECK(keys.insert(k).second);
  }
  CHECK(topic_key(Topic::None).empty());
  std::set<std::string> windows;
  for (int w = 1; w <= static_cast<int>(WindowKind::SkillRevival); ++w) {
    const auto k = std::string(window_kind_key(static_cast<WindowKind>(w)));
    CHECK_FALSE(k.empty());
    CHECK(windows.insert(k).second);
  }
}

// Over random games with every module and the Karama windows open: each
// decision asked inside a response window names that window and its owner
// (and, a Karama window, the ability); a Revive names the free revivals; each
// topic sits on its decision's kind; and the seat's view gives the bots the
// same typed fields.
TEST_CASE("decision protocol: windows, topics and amounts are stamped on the decisions, and reach the bots through the view",
          "[protocol]") {
  const std::map<Topic, std::set<ActionKind>> kinds = {
      {Topic::RicheseLot, {ActionKind::RicheseLot, ActionKind::Pass}},
      {Topic::BlackMarket, {ActionKind::RicheseLot}},
      {Topic::LotNobodyBid, {ActionKind::Respond}},
      {Topic::GuildKaramaCancel, {ActionKind::Pass}},
      {Topic::SkillDraw, {ActionKind::Respond}},
      {Topic::GrantAllyRevival, {ActionKind::Respond}},
      {Topic::ProtectAllyFromWorm, {ActionKind::Respond}},
      {Topic::WormAppears, {ActionKind::Pass}},
      {Topic::HarkonnenCapture, {ActionKind::Respond}},
      {Topic::PrescienceLeader, {ActionKind::PrescienceAnswer}},
      {Topic::PrescienceWeapon, {ActionKind::PrescienceAnswer}},
      {Topic::PrescienceDefense, {ActionKind::PrescienceAnswer}},
      {Topic::PrescienceDial, {ActionKind::PrescienceAnswer}},
      {Topic::Intrusion, {ActionKind::Flip}},
      {Topic::HalfPriceShipment, {ActionKind::Ship}},
  };
  std::set<Topic> topics_seen;
  std::set<WindowKind> windows_seen;
  int revives = 0, checked = 0;
  const data::ModuleSet all = data::module_bit(data::Module::ChoamRichese) | data::module_bit(data::Module::LeaderSkills) |
                              data::module_bit(data::Module::StrongholdCards);
  const std::vector<std::vector<Faction>> lineups = {
      {Faction::Atreides, Faction::Fremen, Faction::Harkonnen, Faction::Guild, Faction::BeneGesserit, Faction::Richese},
      {Faction::Emperor, Faction::Choam, Faction::Fremen, Faction::Guild, Faction::Atreides, Faction::Harkonnen},
  };
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    GameSetup g;
    g.seed = seed;
    g.advanced = seed % 2 == 0;
    g.max_turns = 4;
    g.factions = lineups[seed % lineups.size()];
    g.modules = all;
    g.rulings = scenario::ruling("karama_windows", "all_other_seats");
    GameState s = create_game(g, nullptr);
    std::string why;
    const bool played = testplay::play(
        s, seed * 31, 4000,
        [&](const GameState& st, const testplay::Step&) {
          for (Seat seat = 0; seat < st.num_seats; ++seat) {
            const auto ds = decisions(st, seat);
            if (ds.empty()) continue;
            for (const auto& d : ds) {
              INFO("version " << st.version << " seat " << static_cast<int>(seat) << " kind " << action_kind_name(d.kind) << ": " << d.prompt);
              if (rules::window_open(st) && d.kind == ActionKind::Respond) {
                const Window& w = st.windows[st.window_depth - 1];
                CHECK(d.window == w.kind);
                const bool owned = w.owner >= 0 && w.owner < st.num_seats;  // the Semuta Drug's window has no owner
                CHECK(d.owner == (owned ? static_cast<uint8_t>(st.faction_at(w.owner)) : kNoFaction));
                if (w.kind == WindowKind::KaramaCancel) CHECK(d.ability == w.subject);
                windows_seen.insert(w.kind);
              } else if (!rules::window_open(st)) {
                CHECK(d.window == WindowKind::None);
              }
              if (d.kind == ActionKind::Revive) {
                CHECK(d.amount >= 0);
                ++revives;
              }
              if (d.topic != Topic::None) {
                topics_seen.insert(d.topic);
                CHECK(kinds.at(d.topic).count(d.kind) == 1);
              }
              if (d.topic == Topic::WormAppears) CHECK(d.place < data::kNumTerritories);
            }
            // The bots' reading of the seat's view: the same typed fields, in order.
            const bots::Knowledge k = bots::read_knowledge(bots::make_input(st, seat));
            REQUIRE(k.decisions.size() == ds.size());
            for (size_t i = 0; i < ds.size(); ++i) {
              CHECK(k.decisions[i].topic == ds[i].topic);
              CHECK(k.decisions[i].window == ds[i].window);
              CHECK(k.decisions[i].owner == ds[i].owner);
              CHECK(k.decisions[i].amount == ds[i].amount);
              CHECK(k.decisions[i].place == (ds[i].place < data::kNumTerritories ? ds[i].place : -1));
              if (ds[i].ability) CHECK(k.decisions[i].ability == rules::ability_info(static_cast<rules::Ability>(ds[i].ability))->name);
              ++checked;
            }
          }
        },
        &why);
    INFO(why);
    REQUIRE(played);
  }
  INFO("topics seen: " << topics_seen.size() << ", windows seen: " << windows_seen.size());
  CHECK(revives > 0);
  CHECK(checked > 1000);
  CHECK(windows_seen.count(WindowKind::KaramaCancel) == 1);
  CHECK(topics_seen.size() >= 10);
}
