#include "replay/diff.h"

#include <algorithm>

#include <flatbuffers/flatbuffers.h>
#include <fmt/format.h>

#include "core/engine.h"
#include "events/codec.h"
#include "events/view_generated.h"
#include "inspect/custody.h"

namespace mentat::replay {

namespace {

// Visits the fields of state `a` in canonical order and compares each with
// the same field of `b` (found at the same offset: both are GameStates);
// only a field that differs is named and formatted.
struct Compare {
  const GameState& a;
  const GameState& b;
  std::vector<DiffEntry>& d;
  bool (*covered)(const std::string&);

  template <class T>
  const T& other(const T& x) const {
    return *reinterpret_cast<const T*>(reinterpret_cast<const char*>(&b) +
                                       (reinterpret_cast<const char*>(&x) - reinterpret_cast<const char*>(&a)));
  }
  static std::string name_of(const char* name, int idx) {
    return idx < 0 ? std::string(name) : fmt::format("{}[{}]", name, idx);
  }
  template <class T>
  static std::string text(const T& x) {
    if constexpr (std::is_enum_v<T>) return std::to_string(static_cast<int64_t>(static_cast<std::underlying_type_t<T>>(x)));
    else return std::to_string(static_cast<int64_t>(x));
  }
  template <int N>
  static std::string pile_text(const Pile<N>& p) {
    std::string ids;
    for (int i = 0; i < p.n; ++i) ids += (i ? "," : "") + std::to_string(p.ids[i]);
    return "[" + ids + "]";
  }
  template <class T>
  void operator()(const char* name, int idx, const T& x) {
    const T& y = other(x);
    if (x == y) return;
    std::string n = name_of(name, idx);
    if (!covered(n)) d.push_back({"other", std::move(n), text(x), text(y)});
  }
  void rulings(const char*, const Rulings&) {}  // compared by key above
  template <int N>
  void pile(const char* name, int idx, const Pile<N>& p) {
    const Pile<N>& q = other(p);
    if (p.n == q.n && std::equal(p.ids, p.ids + p.n, q.ids)) return;
    std::string n = name_of(name, idx);
    if (!covered(n)) d.push_back({"other", std::move(n), pile_text(p), pile_text(q)});
  }
};

bool covered(const std::string& name) {
  static const char* prefixes[] = {"forces[", "f.spice", "f.bribes", "spice_on_board", "bank", "f.reserves", "f.tanks",
                                   "leader.", "f.hand", "f.traitor", "treachery_", "spice_deck", "spice_discard",
                                   "spice_set_aside", "traitor_deck", "storm_deck", "storm_card", "bidding.row",
                                   "rulings", "turn", "phase", "step", "waiting", "storm_sector", "version", "rng"};
  for (const char* p : prefixes)
    if (name.rfind(p, 0) == 0) return true;
  return false;
}

std::string fkey(int f) { return std::string(faction_key(static_cast<Faction>(f))); }

}  // namespace

std::vector<DiffEntry> diff_states(const GameState& a, const GameState& b) {
  std::vector<DiffEntry> d;
  // Phase and pending decisions.
  if (a.turn != b.turn) d.push_back({"phase", "turn", std::to_string(a.turn), std::to_string(b.turn)});
  if (a.phase != b.phase || a.step != b.step)
    d.push_back({"phase", "phase", fmt::format("{} (step {})", phase_name(a.phase), a.step),
                 fmt::format("{} (step {})", phase_name(b.phase), b.step)});
  auto seats = [](const GameState& s) {
    std::string out;
    for (Seat x = 0; x < s.num_seats; ++x)
      if ((waiting_for(s) >> x) & 1u) out += (out.empty() ? "" : ",") + std::string(faction_key(s.faction_at(x)));
    return out.empty() ? std::string("nobody") : out;
  };
  if (seats(a) != seats(b)) d.push_back({"phase", "waiting for", seats(a), seats(b)});
  if (a.storm_sector != b.storm_sector)
    d.push_back({"phase", "storm sector", std::to_string(a.storm_sector), std::to_string(b.storm_sector)});
  // Custody moves (leaders in their own group).
  // Each component's zones ("+"-joined in enumeration order), sorted by
  // (kind, id): two sorted lists merged, no maps.
  using Zones = std::vector<std::pair<std::pair<int, int>, std::string>>;
  auto zones = [](const GameState& s) {
    Zones z;
    for (auto& e : inspect::enumerate_custody(s)) z.push_back({{static_cast<int>(e.kind), e.id}, std::move(e.zone)});
    std::stable_sort(z.begin(), z.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    Zones out;
    for (auto& e : z) {
      if (!out.empty() && out.back().first == e.first) out.back().second += "+" + e.second;
      else out.push_back(std::move(e));
    }
    return out;
  };
  const Zones za = zones(a), zb = zones(b);
  for (size_t i = 0, j = 0; i < za.size() || j < zb.size();) {
    std::pair<int, int> k;
    std::string x = "nowhere", y = "nowhere";
    if (j >= zb.size() || (i < za.size() && za[i].first < zb[j].first)) {
      k = za[i].first;
      x = za[i++].second;
    } else if (i >= za.size() || zb[j].first < za[i].first) {
      k = zb[j].first;
      y = zb[j++].second;
    } else {
      k = za[i].first;
      x = za[i++].second;
      y = zb[j++].second;
    }
    if (x == y) continue;
    const auto kind = static_cast<inspect::Component>(k.first);
    d.push_back({kind == inspect::Component::Leader ? "leaders" : "custody",
                 inspect::component_label(kind, static_cast<uint8_t>(k.second)), x, y});
  }
  // Forces.
  for (int f = 0; f < kNumFactions; ++f) {
    if (!a.f[f].in_game && !b.f[f].in_game) continue;
    for (int l = 0; l < data::kNumLocations; ++l)
      for (int k = 0; k < 2; ++k)
        if (a.forces[f][l][k] != b.forces[f][l][k])
          d.push_back({"forces", fmt::format("{} {} in {}", fkey(f), k ? "special" : "forces", data::location(static_cast<LocationId>(l)).name),
                       std::to_string(a.forces[f][l][k]), std::to_string(b.forces[f][l][k])});
    for (int k = 0; k < 2; ++k) {
      if (a.f[f].reserves[k] != b.f[f].reserves[k])
        d.push_back({"forces", fmt::format("{} {} in reserves", fkey(f), k ? "special" : "forces"), std::to_string(a.f[f].reserves[k]), std::to_string(b.f[f].reserves[k])});
      if (a.f[f].tanks[k] != b.f[f].tanks[k])
        d.push_back({"forces", fmt::format("{} {} in the tanks", fkey(f), k ? "special" : "forces"), std::to_string(a.f[f].tanks[k]), std::to_string(b.f[f].tanks[k])});
    }
  }
  // Spice.
  for (int f = 0; f < kNumFactions; ++f) {
    if (a.f[f].spice != b.f[f].spice) d.push_back({"spice", fmt::format("behind {}'s shield", fkey(f)), std::to_string(a.f[f].spice), std::to_string(b.f[f].spice)});
    if (a.f[f].bribes != b.f[f].bribes) d.push_back({"spice", fmt::format("in front of {}'s shield", fkey(f)), std::to_string(a.f[f].bribes), std::to_string(b.f[f].bribes)});
  }
  for (int l = 0; l < data::kNumLocations; ++l)
    if (a.spice_on_board[l] != b.spice_on_board[l])
      d.push_back({"spice", fmt::format("on {}", data::location(static_cast<LocationId>(l)).name), std::to_string(a.spice_on_board[l]), std::to_string(b.spice_on_board[l])});
  if (a.bank != b.bank) d.push_back({"spice", "bank", std::to_string(a.bank), std::to_string(b.bank)});
  // Rulings.
  for (const auto& info : ruling_registry())
    if (a.rulings.get(info.id) != b.rulings.get(info.id))
      d.push_back({"rulings", std::string(info.key), std::string(info.values[a.rulings.get(info.id)]), std::string(info.values[b.rulings.get(info.id)])});
  // Everything else, by canonical field name.
  Compare cmp{a, b, d, covered};
  visit_fields(a, cmp);
  // Deck order (same cards, other order) is not a custody move but still a difference.
  auto order = [&](const char* what, const auto& pa, const auto& pb) {
    if (pa.n == pb.n && std::equal(pa.ids, pa.ids + pa.n, pb.ids)) return;
    d.push_back({"other", fmt::format("order of {}", what), fmt::format("{} cards", pa.n), fmt::format("{} cards", pb.n)});
  };
  order("treachery_deck", a.treachery_deck, b.treachery_deck);
  order("spice_deck", a.spice_deck, b.spice_deck);
  if (a.rng != b.rng) d.push_back({"other", "random stream", "", "differs"});
  return d;
}

std::string diff_to_text(const std::vector<DiffEntry>& d) {
  if (d.empty()) return "positions are equal\n";
  std::string out;
  std::string group;
  for (const auto& e : d) {
    if (e.group != group) {
      group = e.group;
      out += group + ":\n";
    }
    out += fmt::format("  {}: {} -> {}\n", e.what, e.before, e.after);
  }
  return out;
}

std::string diff_to_json(const std::vector<DiffEntry>& d) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<fb::DiffEntryView>> v;
  for (const auto& e : d)
    v.push_back(fb::CreateDiffEntryView(b, b.CreateString(e.group), b.CreateString(e.what), b.CreateString(e.before), b.CreateString(e.after)));
  auto entries = b.CreateVector(v);
  fb::DiffViewBuilder db(b);
  db.add_equal(d.empty());
  db.add_entries(entries);
  b.Finish(db.Finish());
  std::string json, err;
  codec::table_to_json("DiffView", std::string_view(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize()), &json, &err);
  return json;
}

std::string encode_without_rulings(const GameState& s, const GameState& like) {
  GameState t = s;
  t.rulings = like.rulings;
  return codec::encode_state(t);
}

}  // namespace mentat::replay
