#include "replay/tools.h"

#include <charconv>
#include <algorithm>
#include <cctype>
#include <memory>
#include <variant>

#include "core/engine.h"
#include "events/codec.h"
#include "store/room.h"

namespace mentat::replay {

namespace {

using Value = std::variant<int64_t, std::string>;
using Fn = std::function<Value(const GameState&)>;

class Parser {
 public:
  explicit Parser(const std::string& t) : t_(t) {}

  bool parse(Fn* out, std::string* error) {
    *out = expr();
    skip();
    if (err_.empty() && i_ != t_.size()) err_ = "unexpected '" + t_.substr(i_) + "'";
    if (!err_.empty()) {
      *error = "predicate: " + err_;
      return false;
    }
    return true;
  }

 private:
  void skip() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  bool eat(const std::string& tok) {
    skip();
    if (t_.compare(i_, tok.size(), tok) == 0) {
      i_ += tok.size();
      return true;
    }
    return false;
  }
  Fn fail(const std::string& m) {
    if (err_.empty()) err_ = m;
    i_ = t_.size();  // stop here
    return [](const GameState&) { return Value{int64_t{0}}; };
  }

  Fn expr() {
    Fn l = conj();
    while (eat("||")) {
      Fn r = conj();
      l = [l, r](const GameState& s) { return Value{int64_t{truthy(l(s)) || truthy(r(s))}}; };
    }
    return l;
  }
  Fn conj() {
    Fn l = cmp();
    while (eat("&&")) {
      Fn r = cmp();
      l = [l, r](const GameState& s) { return Value{int64_t{truthy(l(s)) && truthy(r(s))}}; };
    }
    return l;
  }
  static bool truthy(const Value& v) {
    if (auto* i = std::get_if<int64_t>(&v)) return *i != 0;
    return !std::get<std::string>(v).empty();
  }
  Fn cmp() {
    Fn l = atom();
    static const char* ops[] = {"==", "!=", "<=", ">=", "<", ">"};
    for (const char* op : ops) {
      if (!eat(op)) continue;
      Fn r = atom();
      std::string o = op;
      return [l, r, o](const GameState& s) {
        Value a = l(s), b = r(s);
        int c;
        if (a.index() != b.index()) return Value{int64_t{o == "!="}};
        if (a.index() == 0) {
          auto x = std::get<int64_t>(a), y = std::get<int64_t>(b);
          c = x < y ? -1 : x > y ? 1 : 0;
        } else {
          c = std::get<std::string>(a).compare(std::get<std::string>(b));
          c = c < 0 ? -1 : c > 0 ? 1 : 0;
        }
        bool res = o == "==" ? c == 0 : o == "!=" ? c != 0 : o == "<" ? c < 0 : o == "<=" ? c <= 0 : o == ">" ? c > 0 : c >= 0;
        return Value{int64_t{res}};
      };
    }
    return l;
  }
  std::string ident() {
    skip();
    size_t b = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_')) ++i_;
    return t_.substr(b, i_ - b);
  }
  bool string_lit(std::string* out) {
    skip();
    if (i_ >= t_.size() || t_[i_] != '"') return false;
    size_t e = t_.find('"', i_ + 1);
    if (e == std::string::npos) return false;
    *out = t_.substr(i_ + 1, e - i_ - 1);
    i_ = e + 1;
    return true;
  }
  // A condition is bounded (kMaxTerms values, kMaxNesting parentheses): its
  // parse and its evaluation recurse at most that deep.
  static constexpr int kMaxTerms = 256, kMaxNesting = 32;
  Fn atom() {
    skip();
    if (++terms_ > kMaxTerms) return fail("the condition has more than " + std::to_string(kMaxTerms) + " values");
    if (eat("(")) {
      if (++nesting_ > kMaxNesting) return fail("the condition nests more than " + std::to_string(kMaxNesting) + " parentheses");
      Fn e = expr();
      --nesting_;
      if (!eat(")")) return fail("missing ')'");
      return e;
    }
    std::string lit;
    if (string_lit(&lit)) return [lit](const GameState&) { return Value{lit}; };
    if (i_ < t_.size() && (std::isdigit(static_cast<unsigned char>(t_[i_])) || t_[i_] == '-')) {
      size_t b = i_++;
      while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) ++i_;
      int64_t v = 0;
      const char* first = t_.data() + b;
      const auto [end, ec] = std::from_chars(first, t_.data() + i_, v);
      if (ec != std::errc() || end != t_.data() + i_) return fail("'" + t_.substr(b, i_ - b) + "' is not a number that fits in 64 bits");
      return [v](const GameState&) { return Value{v}; };
    }
    std::string id = ident();
    if (id.empty()) return fail("expected a value at '" + t_.substr(i_) + "'");
    if (id == "turn") return [](const GameState& s) { return Value{int64_t{s.turn}}; };
    if (id == "version") return [](const GameState& s) { return Value{static_cast<int64_t>(s.version)}; };
    if (id == "storm") return [](const GameState& s) { return Value{int64_t{s.storm_sector}}; };
    if (id == "bank") return [](const GameState& s) { return Value{s.bank}; };
    if (id == "phase") return [](const GameState& s) { return Value{std::string(phase_name(s.phase))}; };
    if (!eat("(")) return fail("unknown name '" + id + "'");
    if (id == "board_spice") {
      std::string name;
      if (!string_lit(&name) || !eat(")")) return fail("board_spice takes a location name in quotes");
      auto l = data::find_location(name);
      if (!l) return fail("unknown location \"" + name + "\"");
      LocationId loc = *l;
      return [loc](const GameState& s) { return Value{int64_t{s.spice_on_board[loc]}}; };
    }
    std::string fname = ident();
    Faction f;
    if (!parse_faction(fname, &f)) return fail("unknown faction '" + fname + "'");
    std::optional<LocationId> where;
    if (eat(",")) {
      std::string name;
      if (!string_lit(&name)) return fail("expected a location name in quotes");
      where = data::find_location(name);
      if (!where) return fail("unknown location \"" + name + "\"");
    }
    if (!eat(")")) return fail("missing ')' after " + id);
    const int fi = static_cast<int>(f);
    if (id == "spice") return [fi](const GameState& s) { return Value{int64_t{s.f[fi].spice}}; };
    if (id == "bribes") return [fi](const GameState& s) { return Value{int64_t{s.f[fi].bribes}}; };
    if (id == "reserves") return [fi](const GameState& s) { return Value{int64_t{s.f[fi].reserves[0] + s.f[fi].reserves[1]}}; };
    if (id == "tanks") return [fi](const GameState& s) { return Value{int64_t{s.f[fi].tanks[0] + s.f[fi].tanks[1]}}; };
    if (id == "hand") return [fi](const GameState& s) { return Value{int64_t{s.f[fi].hand.n}}; };
    if (id == "ally") return [fi](const GameState& s) { return Value{int64_t{s.f[fi].ally != kNoFaction}}; };
    if (id == "winner") return [fi](const GameState& s) { return Value{int64_t{(s.winners >> fi) & 1}}; };
    if (id == "forces") {
      if (where) {
        LocationId loc = *where;
        return [f, loc](const GameState& s) { return Value{int64_t{s.forces_in_location(f, loc)}}; };
      }
      return [f](const GameState& s) {
        int64_t n = 0;
        for (int l = 0; l < data::kNumLocations; ++l) n += s.forces_in_location(f, static_cast<LocationId>(l));
        return Value{n};
      };
    }
    return fail("unknown function '" + id + "'");
  }

  std::string t_;
  size_t i_ = 0;
  std::string err_;
  int terms_ = 0, nesting_ = 0;
};

class ParsedPredicate : public Predicate {
 public:
  explicit ParsedPredicate(Fn f) : f_(std::move(f)) {}
  bool eval(const GameState& s) const override {
    Value v = f_(s);
    if (auto* i = std::get_if<int64_t>(&v)) return *i != 0;
    return !std::get<std::string>(v).empty();
  }

 private:
  Fn f_;
};

}  // namespace

std::unique_ptr<Predicate> Predicate::parse(const std::string& text, std::string* error) {
  Parser p(text);
  Fn f;
  if (!p.parse(&f, error)) return nullptr;
  return std::make_unique<ParsedPredicate>(std::move(f));
}

BisectResult bisect(int64_t head, const StateLoader& load, const std::function<bool(const GameState&)>& holds) {
  BisectResult r;
  auto test = [&](int64_t v, bool* out) {
    GameState s;
    ++r.loads;
    if (!load(v, &s, &r.error)) return false;
    *out = holds(s);
    return true;
  };
  bool at_head = false;
  if (!test(head, &at_head)) return r;
  if (!at_head) return r;  // never true
  int64_t lo = -1, hi = head;  // invariant: holds(hi), !holds(lo) (lo = -1 means "before the game")
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    bool h = false;
    if (!test(mid, &h)) return r;
    if (h) hi = mid;
    else lo = mid;
  }
  r.found = true;
  r.version = hi;
  return r;
}

RerunReport rerun(store::EventStore& store, const std::string& room, const Rulings& rulings, int64_t from) {
  RerunReport r;
  auto m = store.meta(room, &r.error);
  if (!m) {
    if (r.error.empty()) r.error = "no room " + room;
    return r;
  }
  if (from < 0 || from > m->head) {
    r.error = "room " + room + " has no version " + std::to_string(from);
    return r;
  }
  GameState orig, alt;
  bool stop = false;
  bool scanned = store.scan_events(room, 0, m->head, [&](int64_t v, const std::string& bytes) {
    codec::Event e;
    if (!codec::decode_event(bytes, &e, &r.error)) {
      r.error = "room " + room + " version " + std::to_string(v) + ": " + r.error;
      return false;
    }
    if (v == 0) {
      orig = create_game(e.setup, nullptr);
      GameSetup g = e.setup;
      if (from == 0) {
        g.rulings = rulings;
        if (g.start) {  // a described position carries its rulings in its state (GameSetup's contract: equal)
          auto start = std::make_shared<GameState>(*g.start);
          start->rulings = rulings;
          g.start = std::move(start);
        }
      }
      alt = create_game(g, nullptr);
    } else {
      apply(orig, e.seat, e.action, nullptr);
      if (v == from) alt.rulings = rulings;  // the other reading holds from this event on
      if (v >= from) {
        if (auto rej = validate(alt, e.seat, e.action)) {
          r.diverged = true;
          r.version = v;
          r.kind = "illegal";
          r.detail = std::string(action_kind_name(e.action.kind())) + " by seat " + std::to_string(e.seat) +
                     " is not legal under the other ruling: " + rej->reason;
          stop = true;
          return false;
        }
      }
      apply(alt, e.seat, e.action, nullptr);
    }
    ++r.checked;
    if (v >= from && encode_without_rulings(alt, orig) != codec::encode_state(orig)) {
      r.diverged = true;
      r.version = v;
      r.kind = "state";
      GameState shown = alt;
      shown.rulings = orig.rulings;  // the ruling itself is not news
      r.diff = diff_states(orig, shown);
      r.detail = "the position differs after this event (" + std::to_string(r.diff.size()) + " differences)";
      stop = true;
      return false;
    }
    return true;
  }, &r.error);
  r.ok = scanned || stop;
  return r;
}

bool keep_rerun(store::EventStore& store, const std::string& room, const Rulings& rulings, int64_t from,
                const RerunReport& report, const std::string& new_room, int64_t* head, std::string* error) {
  auto m = store.meta(room, error);
  if (!m) {
    if (error->empty()) *error = "no room " + room;
    return false;
  }
  const int64_t fork_at = from == 0 ? 0 : from - 1;
  const int64_t keep_at = report.diverged ? std::max<int64_t>(fork_at, report.version - 1) : m->head;
  if (!store::fork_room(store, room, fork_at, new_room, &rulings, error)) return false;
  auto nm = store.meta(new_room, error);
  if (!nm) return false;
  int64_t h = nm->head;
  std::string copy_err;
  const bool copied = keep_at <= fork_at || store.scan_events(room, fork_at + 1, keep_at, [&](int64_t, const std::string& bytes) {
    codec::Event e;
    if (!codec::decode_event(bytes, &e, &copy_err)) return false;
    auto o = store::submit(store, new_room, e.seat, h, e.action, e.client_action_id);
    if (!o.ok) {
      copy_err = o.rejection ? o.rejection->reason : o.error;
      return false;
    }
    h = o.version;
    return true;
  }, &copy_err);
  if (head) *head = h;
  if (!copied) {
    *error = "keeping the rerun as " + new_room + " stopped at its version " + std::to_string(h) + ": " + copy_err;
    return false;
  }
  return true;
}

}  // namespace mentat::replay
