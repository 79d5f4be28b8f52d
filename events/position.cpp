// Described positions (events/position.h): Position table <-> GameState.
#include "events/position.h"

#include <flatbuffers/flatbuffers.h>
#include <flatbuffers/idl.h>
#include <fmt/format.h>

#include <limits>
#include <map>
#include <set>
#include <type_traits>

#include "core/creation.h"
#include "events/mentat_generated.h"
#include "events/names.h"
#include "events/schema_text.h"

namespace mentat::position {

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

// Fields the sections of a Position describe; PositionField names any other.
bool covered(std::string_view name) {
  static const std::set<std::string_view> kCovered = {
      "seed", "num_seats", "seat_faction", "advanced", "max_turns", "modules", "rulings", "rng", "version", "turn",
      "phase", "step", "waiting", "storm_sector", "spice_on_board", "forces", "bank", "f.in_game", "f.seat",
      "f.spice", "f.bribes", "f.reserves", "f.tanks", "f.hand", "f.traitors", "f.traitors_discarded", "f.ally",
      "leader.zone", "leader.holder", "leader.aux", "leader.died_once", "treachery_deck", "treachery_discard",
      "spice_deck", "spice_discard_a", "spice_discard_b", "traitor_deck"};
  return kCovered.count(name) != 0;
}

// 2.04.13 the advanced Fremen storm deck when a position does not give it:
// the six cards but the one dealt face down (storm_card).
void default_storm_deck(GameState& s) {
  s.fremen.storm_deck.clear();
  if (!(s.advanced && s.has(Faction::Fremen))) return;
  for (uint8_t v = 1; v <= 6; ++v)
    if (v != s.fremen.storm_card) s.fremen.storm_deck.push(v);
}

std::string_view zone_key(LeaderZone z) {
  switch (z) {
    case LeaderZone::Pool: return "pool";
    case LeaderZone::Tanks: return "tanks";
    case LeaderZone::TanksFaceDown: return "tanks_face_down";
    case LeaderZone::Battlefield: return "battlefield";
  }
  return "pool";
}

// ---- state -> table ----------------------------------------------------------

// Emits every field of `s` that is not covered and differs from `base` (found
// at the same offset of the other GameState).
struct Differ {
  const GameState& s;
  const GameState& base;
  FlatBufferBuilder& b;
  std::vector<Offset<fb::PositionField>> out;

  template <class T>
  const T& other(const T& x) const {
    return *reinterpret_cast<const T*>(reinterpret_cast<const char*>(&base) +
                                       (reinterpret_cast<const char*>(&x) - reinterpret_cast<const char*>(&s)));
  }
  template <class T>
  void operator()(const char* name, int idx, const T& x) {
    if (x == other(x) || covered(name)) return;
    int64_t v;
    if constexpr (std::is_enum_v<T>) v = static_cast<int64_t>(static_cast<std::underlying_type_t<T>>(x));
    else v = static_cast<int64_t>(x);
    out.push_back(fb::CreatePositionField(b, b.CreateString(name), idx, v));
  }
  void rulings(const char*, const Rulings&) {}  // the position's own rulings section
  template <int N>
  void pile(const char* name, int idx, const Pile<N>& p) {
    const Pile<N>& q = other(p);
    if ((p.n == q.n && std::equal(p.ids, p.ids + p.n, q.ids)) || covered(name)) return;
    out.push_back(fb::CreatePositionField(b, b.CreateString(name), idx, 0, b.CreateVector(p.ids, p.n)));
  }
};

template <int N>
Offset<flatbuffers::Vector<uint8_t>> ids(FlatBufferBuilder& b, const Pile<N>& p) {
  return b.CreateVector(p.ids, p.n);
}
template <int N>
Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> leader_names(FlatBufferBuilder& b, const Pile<N>& p) {
  std::vector<Offset<flatbuffers::String>> v;
  for (int i = 0; i < p.n; ++i) v.push_back(b.CreateString(data::leader(p.ids[i]).name));
  return b.CreateVector(v);
}

// ---- table -> state ----------------------------------------------------------

struct Reader {
  std::string* error;
  const GameState* seated = nullptr;  // once the seats are known: leaders must be of seated factions
  bool fail(const std::string& where, const std::string& why) {
    *error = where + ": " + why;
    return false;
  }
  std::optional<LocationId> location(const std::string& where, const flatbuffers::String* text) {
    if (!text) return fail(where, "no place given"), std::nullopt;
    std::string why;
    if (auto id = names::find_location(text->string_view(), &why)) return id;
    fail(where, why);
    return std::nullopt;
  }
  std::optional<LeaderId> leader(const std::string& where, const flatbuffers::String* text) {
    if (!text) return fail(where, "no leader given"), std::nullopt;
    std::string why;
    if (auto id = names::find_leader(text->string_view(), &why)) {
      const Faction f = data::leader(*id).faction;
      if (seated && static_cast<int>(f) < kNumFactions && !seated->has(f))
        return fail(where, fmt::format("{} is a leader of the {}, who are not seated", data::leader(*id).name, faction_name(f))),
               std::nullopt;
      return id;
    }
    fail(where, why);
    return std::nullopt;
  }
  template <int N>
  bool card_pile(const std::string& where, const flatbuffers::Vector<uint8_t>* v, int limit, Pile<N>& p) {
    p.clear();
    if (!v) return true;
    if (static_cast<int>(v->size()) > N) return fail(where, fmt::format("{} cards, more than the {} it can hold", v->size(), N));
    for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) {
      if (v->Get(i) >= limit) return fail(fmt::format("{}[{}]", where, i), fmt::format("no card {}", v->Get(i)));
      p.push(v->Get(i));
    }
    return true;
  }
  template <int N>
  bool leader_pile(const std::string& where, const flatbuffers::Vector<Offset<flatbuffers::String>>* v, Pile<N>& p) {
    p.clear();
    if (!v) return true;
    if (static_cast<int>(v->size()) > N) return fail(where, fmt::format("{} cards, more than the {} it can hold", v->size(), N));
    for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) {
      auto id = leader(fmt::format("{}[{}]", where, i), v->Get(i));
      if (!id) return false;
      p.push(*id);
    }
    return true;
  }
};

// Sets the fields a PositionField list names; refuses unknown or covered names
// and values out of the field's range.
struct Setter {
  std::map<std::pair<std::string, int>, std::pair<const fb::PositionField*, size_t>> want;
  std::set<size_t> used;
  std::string error;

  template <class T>
  void operator()(const char* name, int idx, T& x) {
    auto it = want.find({name, idx});
    if (it == want.end() || !error.empty()) return;
    used.insert(it->second.second);
    const int64_t v = it->second.first->value();
    using U = typename std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::type_identity<T>>::type;
    if constexpr (sizeof(U) < 8) {
      if (v < static_cast<int64_t>(std::numeric_limits<U>::min()) || v > static_cast<int64_t>(std::numeric_limits<U>::max())) {
        error = fmt::format("fields[{}] ({}): {} is out of range", it->second.second, name, v);
        return;
      }
    }
    x = static_cast<T>(static_cast<U>(v));
  }
  void rulings(const char*, Rulings&) {}  // the position's own rulings section
  template <int N>
  void pile(const char* name, int idx, Pile<N>& p) {
    auto it = want.find({name, idx});
    if (it == want.end() || !error.empty()) return;
    used.insert(it->second.second);
    const auto* v = it->second.first->ids();
    p.clear();
    if (v && static_cast<int>(v->size()) > N) {
      error = fmt::format("fields[{}] ({}): {} ids, more than the {} it can hold", it->second.second, name, v->size(), N);
      return;
    }
    if (v)
      for (auto id : *v) p.push(id);
  }
};

}  // namespace

uint32_t build(FlatBufferBuilder& b, const GameState& s, bool resume, bool shuffle) {
  std::vector<fb::Faction> seats;
  for (int i = 0; i < s.num_seats; ++i) seats.push_back(static_cast<fb::Faction>(s.seat_faction[i]));
  std::vector<Offset<fb::RulingChoice>> rulings;
  for (const auto& info : ruling_registry())
    rulings.push_back(fb::CreateRulingChoice(b, b.CreateString(info.key), b.CreateString(info.values[s.rulings.get(info.id)])));
  std::vector<fb::Module> modules;
  for (int m = 0; m < data::kNumModules; ++m)
    if (s.uses(static_cast<data::Module>(m))) modules.push_back(static_cast<fb::Module>(m));
  std::vector<Offset<fb::PositionSpice>> spice;
  for (int l = 0; l < data::kNumLocations; ++l)
    if (s.spice_on_board[l])
      spice.push_back(fb::CreatePositionSpice(b, b.CreateString(data::location(static_cast<LocationId>(l)).name), s.spice_on_board[l]));
  std::vector<Offset<fb::PositionFaction>> factions;
  for (int seat = 0; seat < s.num_seats; ++seat) {
    const Faction f = s.faction_at(seat);
    const auto& fs = s.of(f);
    std::vector<Offset<fb::PositionForces>> forces;
    for (int l = 0; l < data::kNumLocations; ++l) {
      const auto loc = static_cast<LocationId>(l);
      if (s.forces_at(f, loc, 0) || s.forces_at(f, loc, 1))
        forces.push_back(fb::CreatePositionForces(b, b.CreateString(data::location(loc).name), s.forces_at(f, loc, 0),
                                                  s.forces_at(f, loc, 1)));
    }
    factions.push_back(fb::CreatePositionFaction(b, static_cast<fb::Faction>(f), fs.spice, fs.bribes, b.CreateVector(forces),
                                                 fs.reserves[0], fs.reserves[1], fs.tanks[0], fs.tanks[1], ids(b, fs.hand),
                                                 leader_names(b, fs.traitors), leader_names(b, fs.traitors_discarded),
                                                 static_cast<fb::Faction>(fs.ally)));
  }
  std::vector<Offset<fb::PositionLeader>> leaders;
  for (int id = 0; id < data::kNumLeaders; ++id) {
    const auto& l = s.leaders[id];
    const uint8_t own = static_cast<uint8_t>(data::leader(static_cast<LeaderId>(id)).faction);
    if (l.zone == LeaderZone::Pool && l.holder == own && !l.died_once && l.aux == kNone8) continue;
    const bool battlefield = l.zone == LeaderZone::Battlefield && l.aux < data::kNumTerritories;
    leaders.push_back(fb::CreatePositionLeader(
        b, b.CreateString(data::leader(static_cast<LeaderId>(id)).name), b.CreateString(zone_key(l.zone)),
        l.holder == own ? fb::Faction::None : static_cast<fb::Faction>(l.holder),
        battlefield ? b.CreateString(data::territory(static_cast<TerritoryId>(l.aux)).name) : 0, l.died_once != 0));
  }
  // Every other field that differs from what read() fills in when it is not
  // given: a fresh state with the leaders' own holders and the default storm
  // deck.
  GameState base;
  for (int i = 0; i < kNumFactions; ++i) base.f[i].in_game = s.f[i].in_game;
  base.advanced = s.advanced;
  for (int id = 0; id < data::kNumLeaders; ++id)  // as creation_state: the basic game's Auditor has no holder
    base.leaders[id].holder = base.leader_in_game(static_cast<LeaderId>(id)) || !base.has(data::leader(static_cast<LeaderId>(id)).faction)
                                  ? static_cast<uint8_t>(data::leader(static_cast<LeaderId>(id)).faction)
                                  : kNoFaction;
  base.fremen.storm_card = s.fremen.storm_card;
  default_storm_deck(base);  // the deck read() fills in for this storm card ...
  base.fremen.storm_card = 0;  // ... which itself is printed when dealt
  std::vector<fb::Faction> waiting;
  if (resume)
    for (int seat = 0; seat < s.num_seats; ++seat)
      if ((s.waiting >> seat) & 1u) waiting.push_back(static_cast<fb::Faction>(s.seat_faction[seat]));
  Differ d{s, base, b, {}};
  visit_fields(s, d);
  std::vector<uint64_t> rng(s.rng.s, s.rng.s + 4);
  return fb::CreatePosition(b, b.CreateVector(seats), s.advanced != 0, s.max_turns, b.CreateVector(rulings),
                            modules.empty() ? 0 : b.CreateVector(modules), s.seed, s.turn, static_cast<fb::Phase>(s.phase),
                            resume ? static_cast<int16_t>(s.step) : int16_t{-1}, resume ? b.CreateVector(waiting) : 0,
                            static_cast<uint8_t>(s.storm_sector), s.bank, b.CreateVector(spice), b.CreateVector(factions),
                            b.CreateVector(leaders), ids(b, s.treachery_deck), ids(b, s.treachery_discard), ids(b, s.spice_deck),
                            ids(b, s.spice_discard[0]), ids(b, s.spice_discard[1]), leader_names(b, s.traitor_deck), shuffle,
                            b.CreateVector(rng), b.CreateVector(d.out))
      .o;
}

bool read(const void* table, GameSetup* out, std::string* error) {
  const auto* p = static_cast<const fb::Position*>(table);
  Reader r{error};
  GameSetup g;
  g.seed = p->seed();
  if (!p->seats() || p->seats()->size() == 0) return r.fail("seats", "no seats given (the factions in seat order)");
  for (auto f : *p->seats()) {
    if (static_cast<int>(f) >= kNumFactions) return r.fail("seats", "unknown faction");
    g.factions.push_back(static_cast<Faction>(f));
  }
  g.advanced = p->advanced();
  g.max_turns = p->max_turns();
  g.rulings = Rulings::defaults();
  if (p->rulings())
    for (flatbuffers::uoffset_t i = 0; i < p->rulings()->size(); ++i) {
      const auto* rc = p->rulings()->Get(i);
      std::string why;
      if (!rc->id() || !rc->value()) return r.fail(fmt::format("rulings[{}]", i), "a ruling needs an id and a value");
      if (!g.rulings.set(rc->id()->string_view(), rc->value()->string_view(), &why)) return r.fail(fmt::format("rulings[{}]", i), why);
    }
  if (p->modules())
    for (auto m : *p->modules()) {
      if (static_cast<int>(m) >= data::kNumModules) return r.fail("modules", "unknown module");
      g.modules = static_cast<data::ModuleSet>(g.modules | data::module_bit(static_cast<data::Module>(m)));
    }
  if (auto why = check_setup(g)) return r.fail("seats", *why);

  auto st = std::make_shared<GameState>(creation_state(g));
  GameState& s = *st;
  r.seated = &s;
  s.turn = p->turn();
  if (static_cast<int>(p->phase()) > static_cast<int>(Phase::GameOver)) return r.fail("phase", "unknown phase");
  s.phase = static_cast<Phase>(p->phase());
  const bool resume = p->step() >= 0;
  if (p->step() > 255) return r.fail("step", fmt::format("{} is not a sub-step (0..255, or -1: the phase begins)", p->step()));
  if (auto why = check_start(s, resume))
    return r.fail(s.phase == Phase::Setup || s.phase == Phase::Nexus || s.phase == Phase::GameOver ? "phase" : "turn", *why);
  uint8_t waiting = 0;
  if (p->waiting()) {
    if (!resume) return r.fail("waiting", "only a state inside its phase (a step) says whom it waits for");
    for (flatbuffers::uoffset_t i = 0; i < p->waiting()->size(); ++i) {
      const auto f = static_cast<Faction>(p->waiting()->Get(i));
      if (static_cast<int>(f) >= kNumFactions || !s.has(f)) return r.fail(fmt::format("waiting[{}]", i), "not a seated faction");
      waiting = static_cast<uint8_t>(waiting | (1u << s.seat_of(f)));
    }
  }
  if (p->storm_sector() >= data::kNumSectors) return r.fail("storm_sector", fmt::format("sectors are 0..{}", data::kNumSectors - 1));
  s.storm_sector = static_cast<int8_t>(p->storm_sector());
  if (p->spice())
    for (flatbuffers::uoffset_t i = 0; i < p->spice()->size(); ++i) {
      const auto* e = p->spice()->Get(i);
      auto loc = r.location(fmt::format("spice[{}].place", i), e->place());
      if (!loc) return false;
      s.spice_on_board[*loc] = static_cast<uint16_t>(s.spice_on_board[*loc] + e->amount());
    }
  FactionMask described = 0;
  if (p->factions())
    for (flatbuffers::uoffset_t i = 0; i < p->factions()->size(); ++i) {
      const auto* e = p->factions()->Get(i);
      const std::string at = fmt::format("factions[{}]", i);
      const auto f = static_cast<Faction>(e->faction());
      if (static_cast<int>(f) >= kNumFactions || !s.has(f)) return r.fail(at + ".faction", "not a seated faction");
      if (described & faction_bit(f)) return r.fail(at + ".faction", fmt::format("{} is described twice", faction_name(f)));
      described = static_cast<FactionMask>(described | faction_bit(f));
      auto& fs = s.of(f);
      fs.spice = e->spice();
      fs.bribes = e->bribes();
      int board[2] = {0, 0};
      if (e->forces())
        for (flatbuffers::uoffset_t j = 0; j < e->forces()->size(); ++j) {
          const auto* fo = e->forces()->Get(j);
          auto loc = r.location(fmt::format("{}.forces[{}].place", at, j), fo->place());
          if (!loc) return false;
          if (s.forces_at(f, *loc, 0) + fo->forces() > 255 || s.forces_at(f, *loc, 1) + fo->special() > 255)
            return r.fail(fmt::format("{}.forces[{}]", at, j), "too many forces");
          s.forces_at(f, *loc, 0) = static_cast<uint8_t>(s.forces_at(f, *loc, 0) + fo->forces());
          s.forces_at(f, *loc, 1) = static_cast<uint8_t>(s.forces_at(f, *loc, 1) + fo->special());
          board[0] += fo->forces();
          board[1] += fo->special();
        }
      fs.tanks[0] = e->tanks();
      fs.tanks[1] = e->tanks_special();
      // Reserves not given: what is not on the board or in the tanks. A
      // faction without special forces (the Bene Gesserit: advisors) counts
      // its board "special" among its regular forces.
      const auto& fsetup = data::faction_setup(f);
      const int special_total = fsetup.special_forces, regular_total = fsetup.forces_total - fsetup.special_forces;
      const int regular_out = board[0] + (special_total ? 0 : board[1]) + fs.tanks[0];
      const int special_out = (special_total ? board[1] : 0) + fs.tanks[1];
      const int res[2] = {e->reserves() >= 0 ? e->reserves() : regular_total - regular_out,
                          e->reserves_special() >= 0 ? e->reserves_special() : special_total - special_out};
      for (int k = 0; k < 2; ++k) {
        if (res[k] < 0)
          return r.fail(at, fmt::format("{} has {} {}forces on the board and in the tanks, more than its {}", faction_name(f),
                                        k ? special_out : regular_out, k ? "special " : "", k ? special_total : regular_total));
        if (res[k] > 255) return r.fail(at + (k ? ".reserves_special" : ".reserves"), "too many forces");
        fs.reserves[k] = static_cast<uint8_t>(res[k]);
      }
      if (!r.card_pile(at + ".hand", e->hand(), data::kNumAllTreacheryCards, fs.hand)) return false;
      if (fs.hand.n > fsetup.hand_limit)
        return r.fail(at + ".hand", fmt::format("{} cards, more than the {}' hand limit of {}", fs.hand.n, faction_name(f), fsetup.hand_limit));
      if (!r.leader_pile(at + ".traitors", e->traitors(), fs.traitors)) return false;
      if (!r.leader_pile(at + ".traitors_discarded", e->traitors_discarded(), fs.traitors_discarded)) return false;
      const auto ally = static_cast<uint8_t>(e->ally());
      if (ally != kNoFaction && (ally >= kNumFactions || !s.has(static_cast<Faction>(ally)) || ally == static_cast<uint8_t>(f)))
        return r.fail(at + ".ally", "not another seated faction");
      fs.ally = ally;
    }
  for (int seat = 0; seat < s.num_seats; ++seat) {  // a seated faction not described: all 20 in reserves
    const Faction f = s.faction_at(seat);
    if (described & faction_bit(f)) continue;
    const auto& fsetup = data::faction_setup(f);
    s.of(f).reserves[0] = static_cast<uint8_t>(fsetup.forces_total - fsetup.special_forces);
    s.of(f).reserves[1] = fsetup.special_forces;
  }
  for (int seat = 0; seat < s.num_seats; ++seat) {  // alliances go both ways
    const auto& fs = s.of(s.faction_at(seat));
    if (fs.ally != kNoFaction && s.f[fs.ally].ally != static_cast<uint8_t>(s.faction_at(seat)))
      return r.fail("factions", fmt::format("{} is allied with {}, but not the other way round", faction_name(s.faction_at(seat)),
                                            faction_name(static_cast<Faction>(fs.ally))));
  }
  if (p->leaders())
    for (flatbuffers::uoffset_t i = 0; i < p->leaders()->size(); ++i) {
      const auto* e = p->leaders()->Get(i);
      const std::string at = fmt::format("leaders[{}]", i);
      auto id = r.leader(at + ".leader", e->leader());
      if (!id) return false;
      auto& l = s.leaders[*id];
      const std::string_view zone = e->zone() ? e->zone()->string_view() : "pool";
      if (zone == "pool") l.zone = LeaderZone::Pool;
      else if (zone == "tanks") l.zone = LeaderZone::Tanks;
      else if (zone == "tanks_face_down") l.zone = LeaderZone::TanksFaceDown;
      else if (zone == "battlefield") l.zone = LeaderZone::Battlefield;
      else return r.fail(at + ".zone", fmt::format("'{}' is not pool, tanks, tanks_face_down or battlefield", zone));
      const auto holder = static_cast<uint8_t>(e->holder());
      if (holder != kNoFaction) {
        if (holder >= kNumFactions || !s.has(static_cast<Faction>(holder))) return r.fail(at + ".holder", "not a seated faction");
        l.holder = holder;
      }
      if (l.zone == LeaderZone::Battlefield) {
        if (!e->territory()) return r.fail(at + ".territory", "a leader on the battlefield needs its territory");
        std::string why;
        auto t = names::find_territory(e->territory()->string_view(), &why);
        if (!t) return r.fail(at + ".territory", why);
        l.aux = *t;
      } else if (e->territory()) {
        return r.fail(at + ".territory", "only a leader on the battlefield has a territory");
      }
      // In the tanks it has died (1.05.03 counts it).
      l.died_once = e->died_once() || l.zone == LeaderZone::Tanks || l.zone == LeaderZone::TanksFaceDown ? 1 : 0;
    }
  if (!r.card_pile("treachery_deck", p->treachery_deck(), data::kNumAllTreacheryCards, s.treachery_deck) ||
      !r.card_pile("treachery_discard", p->treachery_discard(), data::kNumAllTreacheryCards, s.treachery_discard) ||
      !r.card_pile("spice_deck", p->spice_deck(), data::kNumSpiceCards, s.spice_deck) ||
      !r.card_pile("spice_discard_a", p->spice_discard_a(), data::kNumSpiceCards, s.spice_discard[0]) ||
      !r.card_pile("spice_discard_b", p->spice_discard_b(), data::kNumSpiceCards, s.spice_discard[1]) ||
      !r.leader_pile("traitor_deck", p->traitor_deck(), s.traitor_deck))
    return false;
  if (p->rng()) {
    if (p->rng()->size() != 4) return r.fail("rng", "the random stream has four words");
    for (int i = 0; i < 4; ++i) s.rng.s[i] = p->rng()->Get(static_cast<flatbuffers::uoffset_t>(i));
    if (!s.rng.s[0] && !s.rng.s[1] && !s.rng.s[2] && !s.rng.s[3]) return r.fail("rng", "the random stream cannot be all zeros");
  }
  bool storm_deck_given = false;
  if (p->fields()) {
    Setter set;
    for (flatbuffers::uoffset_t i = 0; i < p->fields()->size(); ++i) {
      const auto* e = p->fields()->Get(i);
      const std::string name = e->name() ? e->name()->str() : "";
      if (covered(name))
        return r.fail(fmt::format("fields[{}]", i), fmt::format("{} is described by its own section of the position", name));
      if (!set.want.emplace(std::make_pair(name, e->index()), std::make_pair(e, static_cast<size_t>(i))).second)
        return r.fail(fmt::format("fields[{}]", i), fmt::format("{}[{}] is given twice", name, e->index()));
    }
    visit_fields(s, set);
    if (!set.error.empty()) return r.fail("fields", set.error);
    storm_deck_given = set.want.count({"storm_deck", -1}) != 0;
    for (const auto& [key, e] : set.want)
      if (!set.used.count(e.second))
        return r.fail(fmt::format("fields[{}]", e.second),
                      key.second < 0 ? fmt::format("the state has no field {}", key.first)
                                     : fmt::format("the state has no field {}[{}]", key.first, key.second));
  }
  // Decks not given: every component of the kind that is nowhere else, in
  // id order (with `shuffle`, create_game shuffles them). The Richese cache
  // (CHOAM & Richese) likewise, when the fields leave it empty: the cache
  // sets' cards in no hand, pile or zone.
  // Fills an empty `target` with the cards of `sets` that are in no hand,
  // pile or zone (the target and the other place of this kind included).
  auto fill = [&s](auto& target, uint8_t sets) {
    bool elsewhere[data::kNumAllTreacheryCards] = {};
    auto mark = [&](const auto& pile) {
      for (int i = 0; i < pile.n; ++i)
        if (pile.ids[i] < data::kNumAllTreacheryCards) elsewhere[pile.ids[i]] = true;
    };
    for (const auto& fs : s.f) mark(fs.hand);
    mark(s.treachery_discard);
    mark(s.bidding.row);
    mark(s.battle.wheels);
    mark(s.treachery_set_aside);
    mark(s.harkonnen.karama_taken);
    mark(s.treachery_played);
    mark(s.richese.cache);
    mark(s.richese.removed);
    mark(s.treachery_deck);
    for (int i = 0; i < data::kNumAllTreacheryCards; ++i)
      if (((sets >> static_cast<int>(data::treachery_card(static_cast<TreacheryId>(i)).set)) & 1u) && !elsewhere[i])
        target.push(static_cast<uint8_t>(i));
  };
  const uint8_t cache_sets = data::card_sets_in(s.modules, data::CardPlace::RicheseCache);
  if (cache_sets && s.richese.cache.empty()) fill(s.richese.cache, cache_sets);
  if (!p->treachery_deck()) fill(s.treachery_deck, data::card_sets_in(s.modules, data::CardPlace::TreacheryDeck));
  if (!p->spice_deck()) {
    bool elsewhere[data::kNumSpiceCards] = {};
    for (const auto* pile : {&s.spice_discard[0], &s.spice_discard[1], &s.spice_set_aside})
      for (int i = 0; i < pile->n; ++i)
        if (pile->ids[i] < data::kNumSpiceCards) elsewhere[pile->ids[i]] = true;
    for (int i = 0; i < data::kNumSpiceCards; ++i)
      if (!elsewhere[i]) s.spice_deck.push(static_cast<uint8_t>(i));
  }
  if (!p->traitor_deck()) {
    bool elsewhere[data::kNumLeaders] = {};
    for (const auto& fs : s.f)
      for (const auto* pile : {&fs.traitors, &fs.traitor_offer, &fs.traitors_discarded})
        for (int i = 0; i < pile->n; ++i)
          if (pile->ids[i] < data::kNumLeaders) elsewhere[pile->ids[i]] = true;
    for (int l = 0; l < data::kNumLeaders; ++l)
      if (s.leader_in_game(static_cast<LeaderId>(l)) && !elsewhere[l]) s.traitor_deck.push(static_cast<uint8_t>(l));
  }
  // 2.04.13 the advanced Fremen storm deck, unless the fields give it.
  if (!storm_deck_given) default_storm_deck(s);
  // The bank: what the table does not hold, unless given (then it must balance).
  int64_t held = 0;
  for (const auto& fs : s.f) held += fs.spice + fs.bribes;
  for (auto v : s.spice_on_board) held += v;
  s.bank = p->bank() >= 0 ? p->bank() : kSpiceTotal - held;
  s.phase = static_cast<Phase>(p->phase());  // a field may not move the start
  s.turn = p->turn();
  s.step = resume ? static_cast<uint8_t>(p->step()) : 0;
  s.waiting = waiting;
  s.version = 0;
  g.start = std::move(st);
  g.resume = resume;
  g.shuffle_decks = p->shuffle();
  *out = std::move(g);
  return true;
}

namespace {

flatbuffers::IDLOptions json_options() {
  flatbuffers::IDLOptions opts;
  opts.strict_json = true;
  opts.indent_step = 2;
  return opts;
}

}  // namespace

bool from_json(std::string_view json, GameSetup* out, std::string* error) {
  flatbuffers::Parser parser(json_options());
  if (!parser.Parse(codec::schema::kEventSchema) || !parser.SetRootType("Position")) {
    *error = "internal: the event schema does not parse: " + parser.error_;
    return false;
  }
  const std::string text(json);
  if (!parser.ParseJson(text.c_str())) {
    *error = "invalid position JSON: " + parser.error_;
    return false;
  }
  const uint8_t* buf = parser.builder_.GetBufferPointer();
  flatbuffers::Verifier verifier(buf, parser.builder_.GetSize());
  if (!verifier.VerifyBuffer<fb::Position>(nullptr)) {
    *error = "invalid position JSON: the result failed verification";
    return false;
  }
  return read(flatbuffers::GetRoot<fb::Position>(buf), out, error);
}

bool to_json(const GameState& start, bool resume, bool shuffle, std::string* out, std::string* error) {
  FlatBufferBuilder b;
  b.Finish(Offset<fb::Position>(build(b, start, resume, shuffle)));
  flatbuffers::Parser parser(json_options());
  if (!parser.Parse(codec::schema::kEventSchema) || !parser.SetRootType("Position")) {
    *error = "internal: the event schema does not parse: " + parser.error_;
    return false;
  }
  out->clear();
  if (!flatbuffers::GenerateText(parser, b.GetBufferPointer(), out)) {
    *error = "internal: the position does not print";
    return false;
  }
  return true;
}

}  // namespace mentat::position
