// Names in and out (events/names.h).
#include "events/names.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <deque>

#include "core/data/board.h"
#include "core/data/components.h"
#include "core/data/modules.h"
#include "core/rules/rules.h"

namespace mentat::names {
namespace {

// Lower case, letters and digits only: "Tuek's Sietch" -> "tuekssietch".
std::string norm(std::string_view s) {
  std::string out;
  for (unsigned char c : s)
    if (std::isalnum(c)) out.push_back(static_cast<char>(std::tolower(c)));
  return out;
}

// The text with every byte a name never holds shown as \xHH.
std::string shown(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) out.push_back(static_cast<char>(c));
    else out += fmt::format("\\x{:02x}", c);
  }
  return out;
}

// True (with a sentence in *error) when `text` holds a byte no name has: a
// name is printable ASCII (events/names.h).
bool junk(std::string_view text, const char* what, const std::vector<std::string>& candidates, std::string* error);

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// The ids whose normalized name equals `key`; when none does, those whose
// normalized name starts with it (a unique prefix resolves: "old gap east").
template <class NameOf>
std::vector<int> match(std::string_view text, int n, NameOf name_of) {
  const std::string key = norm(text);
  std::vector<int> exact, prefix;
  if (key.empty()) return exact;
  for (int i = 0; i < n; ++i) {
    const std::string nm = norm(name_of(i));
    if (nm == key) exact.push_back(i);
    else if (nm.rfind(key, 0) == 0) prefix.push_back(i);
  }
  return exact.empty() ? prefix : exact;
}

template <class NameOf>
std::vector<std::string> all_names(int n, NameOf name_of) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.emplace_back(name_of(i));
  return out;
}

std::string loc_name_of(int i) { return std::string(data::location(static_cast<LocationId>(i)).name); }
std::string ter_name_of(int i) { return std::string(data::territory(static_cast<TerritoryId>(i)).name); }
std::string leader_name_of(int i) { return std::string(data::leader(static_cast<LeaderId>(i)).name); }
std::string card_name_of(int i) { return std::string(data::treachery_card(static_cast<TreacheryId>(i)).name); }

// The schema's spelling of the Faction enum (events/mentat.fbs).
constexpr const char* kSchemaFaction[kNumFactions] = {"Atreides", "BeneGesserit", "Emperor", "Fremen", "Harkonnen", "Guild",
                                                     "Ixians",   "Tleilaxu",     "Choam",   "Richese", "Ecaz",      "Moritani"};

// ---- which schema fields take which ids ------------------------------------
enum class IdKind { Location, Territory, Leader, Card, CardKind, Faction, Target, Skill };  // CardKind: any copy names the kind

struct FieldKind {
  const char* table;  // the action table; "Placement" for the struct in lists
  const char* field;
  IdKind kind;
};
constexpr FieldKind kFields[] = {
    {"Placement", "location", IdKind::Location},
    {"Ship", "to", IdKind::Location},
    {"Ship", "from", IdKind::Location},
    {"Move", "to", IdKind::Location},
    {"SendSpiritualAdvisor", "to", IdKind::Location},
    {"Flip", "location", IdKind::Location},
    {"WormRide", "to", IdKind::Location},
    {"ChooseBattle", "territory", IdKind::Territory},
    {"SelectTraitor", "leader", IdKind::Leader},
    {"Revive", "leader", IdKind::Leader},
    {"AssignSkill", "leader", IdKind::Leader},
    {"AssignSkill", "skill", IdKind::Skill},
    {"MentatQuestion", "weapon", IdKind::CardKind},
    {"MentatAnswer", "card", IdKind::Card},
    {"DecipherTraitor", "take", IdKind::Leader},
    {"DecipherTraitor", "give", IdKind::Leader},
    {"SkillBehind", "leader", IdKind::Leader},
    {"BattlePlan", "leader", IdKind::Leader},
    {"BattlePlan", "cheap_hero", IdKind::Card},
    {"BattlePlan", "weapon", IdKind::Card},
    {"BattlePlan", "defense", IdKind::Card},
    {"Bid", "card", IdKind::Card},
    {"PlayCard", "card", IdKind::Card},
    {"Respond", "card", IdKind::Card},
    {"KeepCards", "keep", IdKind::Card},
    {"ChoamSell", "card", IdKind::Card},
    {"ChoamCard", "card", IdKind::Card},
    {"ChoamTrade", "card", IdKind::Card},
    {"ChoamCard", "location", IdKind::Location},
    {"ChoamCard", "faction", IdKind::Faction},
    {"ChoamKarama", "karama", IdKind::Card},
    {"ChoamKarama", "cards", IdKind::Card},
    {"RicheseLot", "card", IdKind::Card},
    {"RicheseBuy", "karama", IdKind::Card},
    {"RicheseBuy", "card", IdKind::Card},
    {"RicheseGift", "card", IdKind::Card},
    {"PlayCard", "target", IdKind::Target},
    {"Predict", "faction", IdKind::Faction},
    {"ChooseBattle", "opponent", IdKind::Faction},
    {"ProposeAlliance", "with", IdKind::Faction},
    {"AcceptAlliance", "with", IdKind::Faction},
    {"Bribe", "to", IdKind::Faction},
    {"GiveSpice", "to", IdKind::Faction},
    {"Deal", "with", IdKind::Faction},
};

const FieldKind* field_kind(std::string_view table, std::string_view field) {
  for (const auto& f : kFields)
    if (table == f.table && field == f.field) return &f;
  return nullptr;
}

// ---- a minimal JSON scanner -------------------------------------------------
// Records the spans of string and scalar values, and the objects, that lie
// at most kRecordDepth keys or list levels below the root (every field it
// names sits there), with the keys that lead to them. Bounded work and
// memory per input byte: the scan is iterative-free of copies (a path is a
// few views into the input), recursion stops at kMaxJsonDepth levels (an
// error, reported as such), and values deeper than kRecordDepth are skipped
// without being recorded. Any syntax error stops the scan (the FlatBuffers
// parser reports it).
constexpr int kRecordDepth = 4;

struct Path {
  std::array<std::string_view, kRecordDepth> keys{};  // key text (unescaped); "[]" for list elements
  int n = 0;
  size_t size() const { return static_cast<size_t>(n); }
  std::string_view operator[](size_t k) const { return keys[k]; }
};

struct StringValue {
  size_t begin, end;  // the token (a string's quotes included)
  Path path;
  std::string text;   // unescaped
};

struct ObjectValue {
  size_t close;   // position of its '}'
  size_t open = 0;  // position of its '{'
  Path path;
  std::vector<std::string_view> keys;
};

struct Scanner {
  std::string_view s;
  size_t i = 0;
  int depth = 0;  // open objects and lists
  std::vector<StringValue> strings;
  std::vector<ObjectValue> objects;
  std::vector<StringValue> scalars;  // numbers, true/false/null: raw text
  bool ok = true;
  bool too_deep = false;
  std::deque<std::string> escaped_keys;  // the unescaped text of keys written with escapes (paths view them)
  // The keys from the root to the current value (only the first kRecordDepth
  // are kept: deeper values are never recorded).
  Path path;
  int path_len = 0;  // the real length, which may exceed kRecordDepth

  void push(std::string_view key) {
    if (path_len < kRecordDepth) path.keys[path_len] = key, path.n = path_len + 1;
    ++path_len;
  }
  void pop() {
    --path_len;
    path.n = std::min(path_len, kRecordDepth);
  }
  bool recording() const { return path_len <= kRecordDepth; }

  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  // A string token; its unescaped text into *out when out is not null, its
  // raw contents into *raw when raw is not null.
  bool string(std::string* out, std::string_view* raw = nullptr) {
    if (i >= s.size() || s[i] != '"') return false;
    const size_t start = ++i;
    while (i < s.size() && s[i] != '"') {
      if (s[i] == '\\') {
        if (++i >= s.size()) return false;
        char c = s[i];
        switch (c) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case 'r': c = '\r'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case '"': case '\\': case '/': break;
          case 'u': {
            if (i + 4 >= s.size()) return false;
            uint32_t cp = 0;
            for (int k = 1; k <= 4; ++k) {
              const int h = hex(s[i + k]);
              if (h < 0) return false;
              cp = cp * 16 + static_cast<uint32_t>(h);
            }
            i += 4;
            if (out) {  // as UTF-8 (a lone surrogate too): a name never holds it, and says so
              if (cp < 0x80) out->push_back(static_cast<char>(cp));
              else if (cp < 0x800) out->push_back(static_cast<char>(0xC0 | (cp >> 6))), out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
              else {
                out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
                out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
                out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
              }
            }
            ++i;
            continue;
          }
          default: return false;  // not a JSON escape
        }
        if (out) out->push_back(c);
        ++i;
      } else {
        if (out) out->push_back(s[i]);
        ++i;
      }
    }
    if (i >= s.size()) return false;
    if (raw) *raw = s.substr(start, i - start);
    ++i;
    return true;
  }
  void value() {
    ws();
    if (!ok || i >= s.size()) {
      ok = false;
      return;
    }
    if (s[i] == '{' || s[i] == '[') {
      if (++depth > kMaxJsonDepth) {
        ok = false;
        too_deep = true;
        return;
      }
      if (s[i] == '{') object();
      else list();
      --depth;
    } else if (s[i] == '"') {
      if (!recording()) {
        if (!string(nullptr)) ok = false;
        return;
      }
      StringValue v{i, 0, path, {}};
      if (!string(&v.text)) {
        ok = false;
        return;
      }
      v.end = i;
      strings.push_back(std::move(v));
    } else {
      const size_t b = i;
      while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ':' && s[i] != '"' && s[i] != '{' &&
             s[i] != '[' && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
        ++i;
      if (i == b) {
        ok = false;
        return;
      }
      if (recording()) scalars.push_back(StringValue{b, i, path, std::string(s.substr(b, i - b))});
    }
  }
  void object() {
    const bool rec = recording();
    ObjectValue obj{0, i, path, {}};
    ++i;
    ws();
    if (i < s.size() && s[i] == '}') {
      obj.close = i++;
      if (rec) objects.push_back(std::move(obj));
      return;
    }
    while (ok) {
      ws();
      std::string_view key;
      const size_t key_at = i;
      if (!string(nullptr, &key)) {
        ok = false;
        return;
      }
      if (key.find('\\') != std::string_view::npos && recording()) {  // an escaped key, read as JSON reads it
        const size_t end = i;
        i = key_at;
        std::string& text = escaped_keys.emplace_back();
        string(&text);
        i = end;
        key = text;
      }
      ws();
      if (i >= s.size() || s[i] != ':') {
        ok = false;
        return;
      }
      ++i;
      if (rec) obj.keys.push_back(key);
      push(key);
      value();
      pop();
      ws();
      if (ok && i < s.size() && s[i] == ',') {
        ++i;
        continue;
      }
      if (ok && i < s.size() && s[i] == '}') {
        obj.close = i++;
        if (rec) objects.push_back(std::move(obj));
        return;
      }
      ok = false;
    }
  }
  void list() {
    ++i;
    ws();
    if (i < s.size() && s[i] == ']') {
      ++i;
      return;
    }
    push("[]");
    while (ok) {
      value();
      ws();
      if (ok && i < s.size() && s[i] == ',') {
        ++i;
        continue;
      }
      if (ok && i < s.size() && s[i] == ']') {
        ++i;
        break;
      }
      ok = false;
    }
    pop();
  }
};

bool is_number(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); });
}

// A number of at most six digits (larger ones are out of every range here), or nullopt.
std::optional<int> small_number(std::string_view t) {
  if (!is_number(t) || t.size() > 6) return std::nullopt;
  return std::stoi(std::string(t));
}

std::string quoted_list(const std::vector<std::string>& v) {
  std::string out;
  for (size_t k = 0; k < v.size(); ++k) {
    if (k) out += k + 1 == v.size() ? " or " : ", ";
    out += "'" + v[k] + "'";
  }
  return out;
}

// The cards `ctx.seat` holds or has on the battle wheels.
std::vector<TreacheryId> cards_at_hand(const Context& ctx) {
  std::vector<TreacheryId> out;
  if (!ctx.state || ctx.seat == kNoSeat || ctx.seat >= ctx.state->num_seats) return out;
  const auto& hand = ctx.state->of(ctx.state->faction_at(ctx.seat)).hand;
  for (int k = 0; k < hand.n; ++k) out.push_back(hand.ids[k]);
  const auto& wheels = ctx.state->battle.wheels;
  for (int k = 0; k < wheels.n; ++k) out.push_back(wheels.ids[k]);
  return out;
}

std::optional<int> resolve_card(std::string_view text, const Context& ctx, std::string* error) {
  auto ids = find_cards(text, error);
  if (ids.empty()) return std::nullopt;
  const auto held = cards_at_hand(ctx);
  std::vector<TreacheryId> mine;
  for (auto id : ids)
    if (std::find(held.begin(), held.end(), id) != held.end()) mine.push_back(id);
  if (!mine.empty()) return *std::min_element(mine.begin(), mine.end());
  if (ids.size() == 1) return ids[0];
  std::string list;
  for (auto id : ids) list += (list.empty() ? "" : ", ") + std::to_string(id);
  *error = fmt::format("'{}' names {} cards (ids {}){}", text, ids.size(), list,
                       ctx.state ? " and this seat holds none of them" : ": give the id");
  return std::nullopt;
}

// The replacement JSON token for one string value, or nullopt with *error.
std::optional<std::string> resolve_value(IdKind kind, const std::string& text, const Context& ctx, std::string* error) {
  switch (kind) {
    case IdKind::Location:
      if (auto l = find_location(text, error)) return std::to_string(*l);
      return std::nullopt;
    case IdKind::Territory:
      if (auto t = find_territory(text, error)) return std::to_string(*t);
      return std::nullopt;
    case IdKind::Leader:
      if (auto l = find_leader(text, error)) return std::to_string(*l);
      return std::nullopt;
    case IdKind::Card:
      if (auto c = resolve_card(text, ctx, error)) return std::to_string(*c);
      return std::nullopt;
    case IdKind::CardKind: {  // a card kind (the Mentat's question): the lowest id of its copies
      auto ids = find_cards(text, error);
      if (ids.empty()) return std::nullopt;
      for (auto id : ids)
        if (data::treachery_card(id).kind != data::treachery_card(ids[0]).kind) {
          *error = fmt::format("'{}' names cards of more than one kind: give the card's full name or id", text);
          return std::nullopt;
        }
      return std::to_string(*std::min_element(ids.begin(), ids.end()));
    }
    case IdKind::Faction:
      if (auto f = find_faction(text, error)) return fmt::format("\"{}\"", kSchemaFaction[static_cast<int>(*f)]);
      return std::nullopt;
    case IdKind::Skill: {  // a leader skill card by name ("Planetologist", "suk graduate")
      if (junk(text, "leader skill", {}, error)) return std::nullopt;
      auto ids = match(text, data::kNumLeaderSkills, [](int i) { return std::string(data::leader_skill_name(static_cast<uint8_t>(i))); });
      if (ids.size() == 1) return std::to_string(ids[0]);
      *error = "'" + text + "' is not a leader skill (Bureaucrat, Diplomat, Killer Medic, Master of Assassins, Mentat, Planetologist, "
               "Prana Bindu Adept, Rihani Decipherer, Sandmaster, Smuggler, Spice Banker, Suk Graduate, Swordmaster of Ginaz, Warmaster)";
      return std::nullopt;
    }
    case IdKind::Target: {  // a faction, a leader or a location, whichever the name is
      std::string e1, e2, e3;
      if (junk(text, "faction, leader or location", {}, error)) return std::nullopt;
      if (auto f = find_faction(text, &e1)) return std::to_string(static_cast<int>(*f));
      if (auto l = find_leader(text, &e2)) return std::to_string(*l);
      if (auto l = find_location(text, &e3)) return std::to_string(*l);
      *error = "'" + text + "' is not a faction, leader or location";
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// PlayCard.value in words (the engine packs several choices into one byte,
// core/rules/rules.h): {"ask": FACTION, "question": Q} (Truthtrance: asked +
// 16 x question), {"forces": R, "special": S} (revivals: R + 16 x S),
// "guild_rates" (Karama: 128), {"prevent": ABILITY} (Karama: 64 + ability),
// {"protect_ally": true} (Fremen Karama worm: 1). Returns the number or
// nullopt with *error.
std::optional<int> play_card_value(const Scanner& sc, const ObjectValue* obj, const StringValue* str, std::string* error) {
  static constexpr const char* kQuestions[] = {"free_form", "holds_card", "is_traitor", "spice_at_least", "predicted_faction", "predicted_turn"};
  if (str) {
    if (junk(str->text, "PlayCard.value", {}, error)) return std::nullopt;
    if (norm(str->text) == "guildrates") return 0x80;
    if (norm(str->text) == "aggressor") return 1;  // the Juice of Sapho (core/cards/juice_of_sapho.cpp)
    if (norm(str->text) == "gofirst") return 2;
    if (norm(str->text) == "golast") return 3;
    *error = "PlayCard.value: '" + str->text + "' is not a value (a number, \"guild_rates\", \"aggressor\", \"go_first\", \"go_last\", or an object: see docs/CLI.md)";
    return std::nullopt;
  }
  auto field = [&](const char* key) -> std::optional<std::string> {
    for (const auto* list : {&sc.strings, &sc.scalars})
      for (const auto& v : *list)
        if (v.path.size() == 3 && v.path[0] == "action" && v.path[1] == "value" && v.path[2] == key && v.begin > obj->open && v.end <= obj->close)
          return v.text;
    return std::nullopt;
  };
  auto number = [&](const std::string& t, int max, const char* what) -> std::optional<int> {
    const auto n = small_number(t);
    if (!n || *n > max) {
      *error = fmt::format("PlayCard.value.{}: '{}' is not a number 0..{}", what, shown(t), max);
      return std::nullopt;
    }
    return *n;
  };
  if (auto ask = field("ask")) {
    auto f = find_faction(*ask, error);
    if (!f) return std::nullopt;
    int q = 0;
    if (auto qt = field("question")) {
      if (junk(*qt, "question", {}, error)) return std::nullopt;
      std::vector<std::string> names(std::begin(kQuestions), std::end(kQuestions));
      auto it = std::find_if(names.begin(), names.end(), [&](const std::string& n) { return norm(n) == norm(*qt); });
      if (it != names.end()) q = static_cast<int>(it - names.begin());
      else if (auto n = small_number(*qt); n && *n < 6) q = *n;
      else {
        *error = fmt::format("PlayCard.value.question: no question '{}'{}", *qt, did_you_mean(*qt, names));
        return std::nullopt;
      }
    }
    return static_cast<int>(*f) + 16 * q;
  }
  if (auto ab = field("prevent")) {
    if (junk(*ab, "ability", {}, error)) return std::nullopt;
    std::vector<std::string> names;
    for (int k = 1; k < rules::kNumAbilities; ++k)
      if (const auto* info = rules::ability_info(static_cast<rules::Ability>(k))) {
        if (norm(info->name) == norm(*ab) || small_number(*ab) == k) return 0x40 + k;
        names.emplace_back(info->name);
      }
    *error = fmt::format("PlayCard.value.prevent: no ability '{}'{}", *ab, did_you_mean(*ab, names));
    return std::nullopt;
  }
  if (auto pa = field("protect_ally")) return *pa == "true" ? 1 : 0;
  auto r = field("forces"), sp = field("special");
  if (r || sp) {
    auto rn = number(r.value_or("0"), 15, "forces");
    if (!rn) return std::nullopt;
    auto sn = number(sp.value_or("0"), 15, "special");
    if (!sn) return std::nullopt;
    return *rn + 16 * *sn;
  }
  *error = "PlayCard.value: give a number or one of {\"ask\", \"question\"}, {\"forces\", \"special\"}, \"guild_rates\", "
           "{\"prevent\"}, {\"protect_ally\"} (docs/CLI.md)";
  return std::nullopt;
}

}  // namespace

std::vector<std::string> nearest(std::string_view text, const std::vector<std::string>& candidates) {
  const std::string key = norm(text);
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& c : candidates) {
    const std::string n = norm(c);
    size_t d = edit_distance(key, n);
    if (!key.empty() && n.find(key) != std::string::npos) d = std::min<size_t>(d, 1);
    if (d <= std::max<size_t>(2, key.size() / 3)) scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& [d, c] : scored)
    if (out.size() < 3 && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

std::string did_you_mean(std::string_view text, const std::vector<std::string>& candidates) {
  auto n = nearest(text, candidates);
  return n.empty() ? "" : ", did you mean " + quoted_list(n) + "?";
}

namespace {
bool junk(std::string_view text, const char* what, const std::vector<std::string>& candidates, std::string* error) {
  for (size_t k = 0; k < text.size(); ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (c >= 0x20 && c < 0x7f) continue;
    *error = fmt::format("no {} '{}': a name holds no byte {:#04x} (at {}){}", what, shown(text), c, k, did_you_mean(text, candidates));
    return true;
  }
  return false;
}
}  // namespace

std::optional<LocationId> find_location(std::string_view text, std::string* error) {
  if (junk(text, "location", all_names(data::kNumLocations, loc_name_of), error)) return std::nullopt;
  auto ids = match(text, data::kNumLocations, loc_name_of);
  if (ids.size() == 1) return static_cast<LocationId>(ids[0]);
  // A territory's name stands for its single piece.
  auto ters = match(text, data::kNumTerritories, ter_name_of);
  if (ters.size() == 1) {
    const auto& t = data::territory(static_cast<TerritoryId>(ters[0]));
    if (t.num_locations == 1) return t.first_location;
    std::vector<std::string> pieces;
    for (int k = 0; k < t.num_locations; ++k) pieces.push_back(fmt::format("{} {}", t.first_location + k, loc_name_of(t.first_location + k)));
    *error = fmt::format("'{}' has {} pieces: name one of {}", text, t.num_locations, quoted_list(pieces));
    return std::nullopt;
  }
  if (ids.size() > 1) {
    std::vector<std::string> some;
    for (int id : ids) some.push_back(loc_name_of(id));
    *error = fmt::format("'{}' is ambiguous: {}", text, quoted_list(some));
    return std::nullopt;
  }
  *error = fmt::format("no location '{}'{}", text, did_you_mean(text, all_names(data::kNumLocations, loc_name_of)));
  return std::nullopt;
}

std::optional<TerritoryId> find_territory(std::string_view text, std::string* error) {
  if (junk(text, "territory", all_names(data::kNumTerritories, ter_name_of), error)) return std::nullopt;
  auto ters = match(text, data::kNumTerritories, ter_name_of);
  if (ters.size() == 1) return static_cast<TerritoryId>(ters[0]);
  auto ids = match(text, data::kNumLocations, loc_name_of);
  if (ids.size() == 1) return data::territory_of(static_cast<LocationId>(ids[0]));
  *error = fmt::format("no territory '{}'{}", text, did_you_mean(text, all_names(data::kNumTerritories, ter_name_of)));
  return std::nullopt;
}

std::optional<LeaderId> find_leader(std::string_view text, std::string* error) {
  if (junk(text, "leader", all_names(data::kNumLeaders, leader_name_of), error)) return std::nullopt;
  auto ids = match(text, data::kNumLeaders, leader_name_of);
  if (ids.size() == 1) return static_cast<LeaderId>(ids[0]);
  if (ids.size() > 1) {
    std::vector<std::string> some;
    for (int id : ids) some.push_back(fmt::format("{} {}", id, leader_name_of(id)));
    *error = fmt::format("'{}' is ambiguous: {}", text, quoted_list(some));
    return std::nullopt;
  }
  *error = fmt::format("no leader '{}'{}", text, did_you_mean(text, all_names(data::kNumLeaders, leader_name_of)));
  return std::nullopt;
}

std::optional<Faction> find_faction(std::string_view text, std::string* error) {
  Faction f;
  if (parse_faction(text, &f)) return f;
  const std::string key = norm(text);
  std::vector<std::string> known;
  for (int i = 0; i < kNumFactions; ++i) known.emplace_back(faction_key(static_cast<Faction>(i)));
  if (junk(text, "faction", known, error)) return std::nullopt;
  for (int i = 0; i < kNumFactions; ++i) {
    const auto fi = static_cast<Faction>(i);
    if (key == norm(faction_name(fi)) || key == norm(faction_key(fi))) return fi;
  }
  if (key == "guild") return Faction::Guild;
  *error = fmt::format("no faction '{}'{}", text, did_you_mean(text, known));
  return std::nullopt;
}

std::vector<TreacheryId> find_cards(std::string_view text, std::string* error) {
  std::vector<TreacheryId> out;
  const std::string key = norm(text);
  bool bad = false;
  for (unsigned char c : text) bad |= c < 0x20 || c >= 0x7f;
  for (int i = 0; i < data::kNumAllTreacheryCards && !bad; ++i)  // the base deck and the expansion sets (ids 33..59)
    if (norm(card_name_of(i)) == key) out.push_back(static_cast<TreacheryId>(i));
  if (out.empty()) {
    std::vector<std::string> kinds;
    for (int k = 0; k < data::kNumAllTreacheryKinds; ++k) kinds.emplace_back(data::treachery_kind_name(static_cast<data::TreacheryKind>(k)));
    if (!junk(text, "treachery card", kinds, error)) *error = fmt::format("no treachery card '{}'{}", text, did_you_mean(text, kinds));
  }
  return out;
}

std::string location_name(LocationId id) { return id < data::kNumLocations ? loc_name_of(id) : "?"; }
std::string territory_name(TerritoryId id) { return id < data::kNumTerritories ? ter_name_of(id) : "?"; }
std::string leader_name(LeaderId id) { return id < data::kNumLeaders ? leader_name_of(id) : "?"; }
std::string card_name(TreacheryId id) { return id < data::kNumAllTreacheryCards ? card_name_of(id) : "?"; }

bool resolve_action_json(std::string_view json, const Context& ctx, std::string* out, std::string* error) {
  Scanner sc;
  sc.s = json;
  sc.value();
  *out = std::string(json);
  if (sc.too_deep) {
    *error = fmt::format("the action's JSON nests deeper than {} levels of objects and lists", kMaxJsonDepth);
    return false;
  }
  if (!sc.ok) return true;  // the FlatBuffers parser reports the syntax error
  std::string table;
  for (const auto& v : sc.strings)
    if (v.path.size() == 1 && v.path[0] == "action_type") table = v.text;
  if (table.empty()) return true;
  struct Edit {
    size_t begin, end;
    std::string with;
  };
  std::vector<Edit> edits;
  for (const auto& v : sc.strings) {
    if (v.path.size() < 2 || v.path[0] != "action" || is_number(v.text)) continue;
    // action.F, action.F[] (a list of ids) or action.F[].location (Placement).
    const FieldKind* fk = nullptr;
    std::string field(v.path[1]);
    if (v.path.size() == 2 || (v.path.size() == 3 && v.path[2] == "[]")) fk = field_kind(table, field);
    else if (v.path.size() == 4 && v.path[2] == "[]") fk = field_kind("Placement", v.path[3]), field += "[]." + std::string(v.path[3]);
    if (!fk) continue;
    std::string why;
    auto with = resolve_value(fk->kind, v.text, ctx, &why);
    if (!with) {
      *error = fmt::format("{}.{}: {}", table, field, why);
      return false;
    }
    edits.push_back({v.begin, v.end, *with});
  }
  if (table == "PlayCard") {
    const ObjectValue* obj = nullptr;
    const StringValue* str = nullptr;
    for (const auto& o : sc.objects)
      if (o.path.size() == 2 && o.path[0] == "action" && o.path[1] == "value") obj = &o;
    for (const auto& v : sc.strings)
      if (v.path.size() == 2 && v.path[0] == "action" && v.path[1] == "value") str = &v;
    if (obj || str) {
      auto v = play_card_value(sc, obj, str, error);
      if (!v) return false;
      // Replace the whole value (and drop any name edits inside it).
      const size_t b = obj ? obj->open : str->begin, e = obj ? obj->close + 1 : str->end;
      std::erase_if(edits, [&](const Edit& x) { return x.begin >= b && x.end <= e; });
      edits.push_back({b, e, std::to_string(*v)});
    }
  }
  // A Placement is a FlatBuffers struct, whose JSON must give every field:
  // "forces" and "special" default to 0 here ("location" stays required).
  const bool placements = table == "Move" || table == "PlaceForces";
  for (const auto& o : sc.objects) {
    if (!placements || o.path.size() != 3 || o.path[0] != "action" || o.path[2] != "[]") continue;
    if (o.path[1] != "from" && o.path[1] != "placements") continue;
    std::string add;
    for (const char* f : {"forces", "special"})
      if (std::find(o.keys.begin(), o.keys.end(), f) == o.keys.end()) add += fmt::format("{}\"{}\":0", o.keys.empty() && add.empty() ? "" : ",", f);
    if (!add.empty()) edits.push_back({o.close, o.close, add});
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& x, const Edit& y) { return x.begin < y.begin; });
  for (auto it = edits.rbegin(); it != edits.rend(); ++it) out->replace(it->begin, it->end - it->begin, it->with);
  return true;
}

std::string names_markdown() {
  std::string out;
  out += "### Factions\n\nEvery faction has its id and names; only those whose rules are implemented can sit in a game "
         "(`mentat new` refuses the others).\n\n"
         "| id | key (`--seat`, `--factions`) | name | schema name | playable |\n| --- | --- | --- | --- | --- |\n";
  for (int i = 0; i < kNumFactions; ++i) {
    const auto f = static_cast<Faction>(i);
    out += fmt::format("| {} | `{}` | {} | `{}` | {} |\n", i, faction_key(f), faction_name(f), kSchemaFaction[i],
                       data::faction_rules_implemented(f) ? "yes" : "not yet");
  }
  out += "\n### Locations\n\nA territory's name stands for its piece when it has only one.\n\n"
         "| id | location | territory id | sector |\n| --- | --- | --- | --- |\n";
  for (int i = 0; i < data::kNumLocations; ++i) {
    const auto& l = data::location(static_cast<LocationId>(i));
    out += fmt::format("| {} | {} | {} | {} |\n", i, l.name, l.territory, l.sector == data::kNoSector ? "-" : std::to_string(l.sector));
  }
  out += "\n### Territories\n\n| id | territory | kind | pieces (location ids) |\n| --- | --- | --- | --- |\n";
  constexpr const char* kKind[] = {"sand", "sand (protected)", "rock", "stronghold", "polar sink"};
  for (int i = 0; i < data::kNumTerritories; ++i) {
    const auto& t = data::territory(static_cast<TerritoryId>(i));
    out += fmt::format("| {} | {} | {} | {}..{} |\n", i, t.name, kKind[static_cast<int>(t.kind)], t.first_location,
                       t.first_location + t.num_locations - 1);
  }
  out += "\n### Leaders\n\n| id | leader | faction | strength |\n| --- | --- | --- | --- |\n";
  for (int i = 0; i < data::kNumLeaders; ++i) {
    const auto& l = data::leader(static_cast<LeaderId>(i));
    out += fmt::format("| {} | {} | {} | {} |\n", i, l.name, l.neutral() ? std::string_view("neutral") : faction_name(l.faction), l.strength);
  }
  out += "\n### Treachery cards\n\nA card name in an action means the copy the acting seat holds.\n\n"
         "| id | card | set |\n| --- | --- | --- |\n";
  for (int i = 0; i < data::kNumAllTreacheryCards; ++i) {
    const auto& c = data::treachery_card(static_cast<TreacheryId>(i));
    out += fmt::format("| {} | {} | {} |\n", i, c.name, data::card_set(c.set).key);
  }
  return out;
}

}  // namespace mentat::names
