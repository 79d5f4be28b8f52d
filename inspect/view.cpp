#include "inspect/view.h"
#include "inspect/view_bytes.h"

#include <flatbuffers/flatbuffers.h>

#include <array>
#include <cstring>
#include <type_traits>

#include "core/engine.h"
#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/rules.h"
#include "events/codec.h"
#include "events/json_text.h"
#include "events/view_generated.h"
#include "inspect/options_view.h"

namespace mentat::inspect {

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

std::string_view zone_name(LeaderZone z) {
  switch (z) {
    case LeaderZone::Pool: return "pool";
    case LeaderZone::Tanks: return "tanks";
    case LeaderZone::TanksFaceDown: return "tanks_face_down";
    case LeaderZone::Battlefield: return "battlefield";
  }
  return "?";
}

// Strings that recur within one view (faction keys, zones, locations, card
// names) are written once per view and shared by offset: the JSON is the
// same, the buffer smaller and cheaper to build. Which copy is shared
// depends only on the order of the view's contents, so the bytes stay a
// function of the contents (equal views, equal bytes).
struct Interned {
  Interned(FlatBufferBuilder& builder, int viewer_cache) : b(builder), viewer(viewer_cache) {}
  FlatBufferBuilder& b;
  int viewer = 0;  // which of the per-viewer block caches to use (viewer_slot)
  // The strings written so far, by kind and id (zero: not yet).
  struct Slots {
    Offset<flatbuffers::String> faction[kNumFactions], zone[4], location[data::kNumLocations],
        card[data::kNumAllTreacheryCards], leader[data::kNumLeaders], spice[data::kNumSpiceCards];
  };
  Slots own;
  // A copied block's slots (front_block), read in only when a string is
  // needed or a block is saved: consecutive copied blocks copy no slots.
  const Slots* pending = nullptr;
  Slots& cur() {
    if (pending) {
      own = *pending;
      pending = nullptr;
    }
    return own;
  }
  void save(Slots& to) { to = cur(); }
  void load(const Slots& from) { pending = &from; }
  // `text` is called only for the first use of slot i.
  template <size_t N, class Text>
  Offset<flatbuffers::String> get(Offset<flatbuffers::String> (&slot)[N], size_t i, Text text) {
    if (i >= N) return b.CreateString(text());
    if (!slot[i].o) slot[i] = b.CreateString(text());
    return slot[i];
  }
  Offset<flatbuffers::String> of(Faction f) { return get(cur().faction, static_cast<size_t>(f), [f] { return faction_key(f); }); }
  Offset<flatbuffers::String> of(LeaderZone z) { return get(cur().zone, static_cast<size_t>(z), [z] { return zone_name(z); }); }
  Offset<flatbuffers::String> of(LocationId l) { return get(cur().location, l, [l] { return data::location(l).name; }); }
  Offset<flatbuffers::String> card_name(uint8_t id) { return get(cur().card, id, [id] { return data::treachery_card(id).name; }); }
  Offset<flatbuffers::String> leader_name(LeaderId id) { return get(cur().leader, id, [id] { return data::leader(id).name; }); }
  Offset<flatbuffers::String> spice_name(uint8_t id) { return get(cur().spice, id, [id] { return data::spice_card_name(id); }); }
};

// The rulings list, written first into the cleared builder: its bytes and
// offset depend only on the game's rulings, so they are built once per
// thread and copied (the same bytes as building them: nothing before them
// in the buffer). Rulings are not hidden from anyone; the projection check
// still compares these bytes like any others.
// The blocks written at the front of a view (rulings, then the public lists
// below) are each kept per thread and copied when the buffer before them is
// the same and so are their inputs. `chain` names what the buffer holds so
// far: each block's copy is valid only behind the same chain.
thread_local uint64_t chain = 0;
thread_local uint64_t chain_counter = 0;
uint64_t new_chain() { return ++chain_counter; }

Offset<flatbuffers::Vector<Offset<fb::RulingView>>> rulings_first(FlatBufferBuilder& b, const Rulings& r) {
  struct Cache {
    bool valid = false;
    Rulings key;
    std::string bytes;
    flatbuffers::uoffset_t offset = 0;
  };
  thread_local Cache cache;
  thread_local uint64_t generation = 0;
  if (cache.valid && cache.key == r) {
    b.PushBytes(reinterpret_cast<const uint8_t*>(cache.bytes.data()), cache.bytes.size());
    b.TrackMinAlign(sizeof(flatbuffers::uoffset_t));  // the strictest alignment inside the block
    chain = generation;
    return Offset<flatbuffers::Vector<Offset<fb::RulingView>>>(cache.offset);
  }
  std::vector<Offset<fb::RulingView>> v;
  v.reserve(ruling_registry().size());
  for (const auto& info : ruling_registry())
    v.push_back(fb::CreateRulingView(b, b.CreateString(info.key), b.CreateString(info.values[r.get(info.id)])));
  const auto out = b.CreateVector(v);
  generation = chain = new_chain();
  cache.valid = true;
  cache.key = r;
  cache.bytes.assign(reinterpret_cast<const char*>(b.GetCurrentBufferPointer()), b.GetSize());
  cache.offset = out.o;
  return out;
}

// What the leaders list shows, and all it is built from (with the static
// leader data): for each leader, whether the viewer sees it, its zone and
// its holder. Pool and tanks are public; face-down leaders only to their own
// faction (1.05.05).
struct LeaderShown {
  uint8_t shown = 0, zone = 0, holder = 0;
  bool operator==(const LeaderShown&) const = default;
};
using LeadersKey = std::array<LeaderShown, data::kNumLeaders>;

template <class Mine>
LeadersKey leaders_key(const GameState& s, Mine mine) {
  static const auto faction_of = [] {
    std::array<Faction, data::kNumLeaders> t{};
    for (int l = 0; l < data::kNumLeaders; ++l) t[l] = data::leader(static_cast<LeaderId>(l)).faction;
    return t;
  }();
  LeadersKey k{};
  for (int l = 0; l < data::kNumLeaders; ++l) {
    const Faction f = faction_of[l];
    if (!s.has(f)) continue;
    const auto& ls = s.leaders[l];
    if (ls.zone == LeaderZone::TanksFaceDown && !mine(f)) continue;
    k[l] = {1, static_cast<uint8_t>(ls.zone), ls.holder};
  }
  return k;
}

Offset<flatbuffers::Vector<Offset<fb::LeaderView>>> build_leaders(Interned& strs, const LeadersKey& k) {
  auto& b = strs.b;
  Offset<fb::LeaderView> v[data::kNumLeaders];
  size_t n = 0;
  for (int l = 0; l < data::kNumLeaders; ++l) {
    if (!k[l].shown) continue;
    const auto& L = data::leader(static_cast<LeaderId>(l));
    v[n++] = fb::CreateLeaderView(b, strs.leader_name(static_cast<LeaderId>(l)), strs.of(L.faction), L.strength,
                                  strs.of(static_cast<LeaderZone>(k[l].zone)),
                                  k[l].holder < kNumFactions ? strs.of(static_cast<Faction>(k[l].holder)) : 0,
                                  static_cast<uint8_t>(l));
  }
  return b.CreateVector(v, n);
}

// A block written at the front of the view, right after the blocks before
// it: its bytes (and the strings it interns) depend only on those blocks and
// its key, so a thread keeps the last one per block and copies it (the same
// bytes as building it). `build` must read nothing but `key` (and static
// data): the key holds everything the block is built from, hidden or not, so
// the projection check still compares what building would have written.
// Key: a trivially copyable struct without padding, compared as bytes, or
// a type with ==.
// `Slot` tells the blocks apart; each has one cache per viewer (the state,
// the observer, each seat), so a viewer's block is copied again at the next
// event when what it shows that viewer did not change.
constexpr int kViewerSlots = 2 + kMaxSeats;
// (Which cache a view uses changes only how often it hits: a copy is taken
// only behind the same chain, at the same size and for the same key.)
int viewer_slot(Viewer who) {
  if (who.kind == Viewer::SeatView && who.seat >= 0 && who.seat < kMaxSeats) return 2 + who.seat;
  return who.kind == Viewer::State ? 0 : 1;
}

template <class Key>
bool same_key(const Key& a, const Key& b) {
  if constexpr (std::has_unique_object_representations_v<Key>) return std::memcmp(&a, &b, sizeof a) == 0;
  else return a == b;
}
template <class Key>
void set_key(Key& to, const Key& from) {
  if constexpr (std::has_unique_object_representations_v<Key>) std::memcpy(&to, &from, sizeof to);
  else to = from;
}

template <int Slot, class T, class Key, class Build>
Offset<T> front_block(Interned& strs, const Key& key, Build build) {
  struct Cache {
    bool valid = false;
    uint64_t after = 0, generation = 0;
    flatbuffers::uoffset_t start = 0;  // the buffer's size before the block
    Key key;
    std::string bytes;
    flatbuffers::uoffset_t offset = 0;
    Interned::Slots slots;
  };
  thread_local Cache caches[kViewerSlots];
  auto& cache = caches[strs.viewer];
  auto& b = strs.b;
  const auto start = b.GetSize();
  if (cache.valid && cache.after == chain && cache.start == start && same_key(cache.key, key)) {
    b.PushBytes(reinterpret_cast<const uint8_t*>(cache.bytes.data()), cache.bytes.size());
    b.TrackMinAlign(sizeof(flatbuffers::uoffset_t));  // the strictest alignment inside the block
    strs.load(cache.slots);
    chain = cache.generation;
    return Offset<T>(cache.offset);
  }
  const Offset<T> out = build(strs, key);
  cache.valid = true;
  cache.after = chain;
  cache.start = start;
  set_key(cache.key, key);
  cache.bytes.assign(reinterpret_cast<const char*>(b.GetCurrentBufferPointer()), b.GetSize() - start);
  cache.offset = out.o;
  strs.save(cache.slots);
  cache.generation = chain = new_chain();
  return out;
}

// A pile's cards as a key (the slots past its count zeroed).
template <int N>
struct PileKey {
  uint8_t n = 0;
  uint8_t ids[N] = {};
  PileKey() = default;
  explicit PileKey(const Pile<N>& p) : n(p.n) { std::memcpy(ids, p.ids, p.n); }
  Pile<N> pile() const {
    Pile<N> p;
    p.n = n;
    std::memcpy(p.ids, ids, n);
    return p;
  }
};

struct SpiceKey {
  uint16_t amount[data::kNumLocations];
};

// Offsets are gathered on the stack (piles are bounded by N): no vector per list.
template <int N>
Offset<flatbuffers::Vector<Offset<fb::CardView>>> cards(Interned& in, const Pile<N>& p) {
  auto& b = in.b;
  Offset<fb::CardView> v[N > 0 ? N : 1];
  for (int i = 0; i < p.n; ++i) v[i] = fb::CreateCardView(b, p.ids[i], in.card_name(p.ids[i]));
  return b.CreateVector(v, static_cast<size_t>(p.n));
}

template <int N>
Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> leader_names(Interned& in, const Pile<N>& p) {
  auto& b = in.b;
  Offset<flatbuffers::String> v[N > 0 ? N : 1];
  for (int i = 0; i < p.n; ++i) v[i] = in.leader_name(p.ids[i]);
  return b.CreateVector(v, static_cast<size_t>(p.n));
}

template <int N>
Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> spice_names(Interned& in, const Pile<N>& p) {
  auto& b = in.b;
  Offset<flatbuffers::String> v[N > 0 ? N : 1];
  for (int i = 0; i < p.n; ++i) v[i] = in.spice_name(p.ids[i]);
  return b.CreateVector(v, static_cast<size_t>(p.n));
}

// A fixed-capacity list of offsets on the stack.
template <class T, size_t Cap>
struct OffsetList {
  Offset<T> v[Cap];
  size_t n = 0;
  void push_back(Offset<T> o) { v[n++] = o; }
  Offset<flatbuffers::Vector<Offset<T>>> create(FlatBufferBuilder& b) const { return b.CreateVector(v, n); }
};


// What each faction's entry shows the viewer, and all it is built from
// (with static data): what is not shown is left zero, so the key, like the
// entry, is the same for every state the viewer cannot tell apart.
struct FactionShown {
  uint32_t prevented = 0, prevented_hi = 0;  // 3.01.11.02 (public)
  uint16_t spice = 0, bribes = 0, permit_ship = 0, permit_bids = 0;
  uint8_t faction = 0, mine = 0, show_spice = 0, show_permits = 0, show_dial = 0, storm_dial = 0, hand_count = 0,
          ally = kNoFaction;
  uint8_t reserves[2] = {}, tanks[2] = {};
  uint8_t charity_claimed = 0, shipped = 0, moved = 0, karama_power_used = 0, prediction_faction = kNoFaction,
          prediction_turn = 0, pad[2] = {};
  uint8_t forces[data::kNumLocations][2] = {};
  PileKey<kMaxHand> hand;
  PileKey<4> traitors, offer;
  uint8_t pad2[1] = {};
};
struct FactionsKey {
  FactionShown seat[kMaxSeats];
  uint32_t n = 0;
};

FactionsKey factions_key(const GameState& s, Viewer who) {
  FactionsKey k;
  const bool all = who.kind == Viewer::State;
  const Faction me = who.kind == Viewer::SeatView ? s.faction_at(who.seat) : Faction::Atreides;
  k.n = s.num_seats;
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const Faction f = s.faction_at(seat);
    const auto& fs = s.of(f);
    auto& e = k.seat[seat];
    const bool mine = all || (who.kind == Viewer::SeatView && f == me);
    // Allies may share anything (1.10.02.03) and an ally's spice can pay for
    // bids and shipments (1.10.02.05-06): allies see each other's spice.
    const bool my_ally = who.kind == Viewer::SeatView && s.of(me).ally == static_cast<uint8_t>(f);
    e.faction = static_cast<uint8_t>(f);
    e.mine = mine;
    e.prevented = s.prevented[static_cast<int>(f)];
    e.prevented_hi = s.prevented_hi[static_cast<int>(f)];
    e.show_spice = mine || my_ally;
    if (e.show_spice) e.spice = fs.spice;
    e.show_permits = (mine || my_ally) && fs.ally != kNoFaction;  // 1.10.02.03: between the allies
    if (e.show_permits) {
      e.permit_ship = fs.permit_ship;
      e.permit_bids = fs.permit_bids;
    }
    if (mine) {
      e.hand = PileKey(fs.hand);
      e.traitors = PileKey(fs.traitors);
      e.offer = PileKey(fs.traitor_offer);
      e.prediction_faction = fs.prediction_faction;
      e.prediction_turn = fs.prediction_turn;
      e.show_dial = s.phase == Phase::Storm;
      if (e.show_dial) e.storm_dial = fs.storm_dial;
    }
    e.bribes = fs.bribes;
    e.hand_count = fs.hand.n;
    std::memcpy(e.reserves, fs.reserves, sizeof e.reserves);
    std::memcpy(e.tanks, fs.tanks, sizeof e.tanks);
    e.ally = fs.ally;
    e.charity_claimed = fs.charity_turn == s.turn && s.turn > 0;
    e.shipped = fs.shipped;
    e.moved = fs.moved;
    e.karama_power_used = fs.karama_power_used;
    std::memcpy(e.forces, s.forces[static_cast<int>(f)], sizeof e.forces);
  }
  return k;
}

// The factions list (one entry per seat, in seat order).
Offset<flatbuffers::Vector<Offset<fb::FactionView>>> build_factions(Interned& strs, const FactionsKey& k) {
  auto& b = strs.b;
  OffsetList<fb::FactionView, kMaxSeats> factions;
  for (uint32_t seat = 0; seat < k.n; ++seat) {
    const auto& e = k.seat[seat];
    const auto f = static_cast<Faction>(e.faction);
    OffsetList<fb::ForcesView, data::kNumLocations> forces;
    const uint8_t* row = &e.forces[0][0];  // [location][kind], contiguous
    for (int l = 0; l < data::kNumLocations; ++l) {
      if (l + 4 <= data::kNumLocations && l % 4 == 0) {  // skip four empty locations at once
        uint64_t word;
        std::memcpy(&word, row + 2 * l, sizeof word);
        if (word == 0) {
          l += 3;
          continue;
        }
      }
      if (e.forces[l][0] + e.forces[l][1] == 0) continue;
      const auto loc = static_cast<LocationId>(l);
      forces.push_back(fb::CreateForcesView(b, strs.of(loc), data::location(loc).sector, e.forces[l][0], e.forces[l][1], loc));
    }
    auto name = strs.of(f);
    auto fv_forces = forces.create(b);
    auto ally = e.ally != kNoFaction ? strs.of(static_cast<Faction>(e.ally)) : 0;
    Offset<flatbuffers::Vector<Offset<fb::CardView>>> hand = 0;
    Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> traitors = 0, offer = 0;
    Offset<flatbuffers::Vector<uint8_t>> traitor_ids = 0, offer_ids = 0;
    Offset<flatbuffers::String> pred = 0;
    if (e.mine) {
      hand = cards(strs, e.hand.pile());
      traitors = leader_names(strs, e.traitors.pile());
      offer = leader_names(strs, e.offer.pile());
      traitor_ids = b.CreateVector(e.traitors.ids, e.traitors.n);
      offer_ids = b.CreateVector(e.offer.ids, e.offer.n);
      if (e.prediction_faction != kNoFaction) pred = strs.of(static_cast<Faction>(e.prediction_faction));
    }
    OffsetList<flatbuffers::String, rules::kNumAbilities> prevented;  // 3.01.11.02 (public)
    const uint64_t bits = e.prevented | (uint64_t{e.prevented_hi} << 32);
    for (int i = 0; i < rules::kNumAbilities && bits; ++i) {
      if (!((bits >> i) & 1u)) continue;
      if (const auto* info = rules::ability_info(static_cast<rules::Ability>(i)))
        prevented.push_back(b.CreateString(std::string(info->rule) + " " + info->name));
    }
    const auto fv_prevented = prevented.n ? prevented.create(b) : 0;
    fb::FactionViewBuilder fv(b);
    fv.add_faction(name);
    fv.add_seat(static_cast<int8_t>(seat));
    if (e.mine) {
      fv.add_spice(e.spice);
      fv.add_hand(hand);
      fv.add_traitors(traitors);
      fv.add_traitor_offer(offer);
      fv.add_traitor_ids(traitor_ids);
      fv.add_traitor_offer_ids(offer_ids);
      if (pred.o) fv.add_prediction_faction(pred);
      if (e.prediction_turn) fv.add_prediction_turn(e.prediction_turn);
      if (e.show_dial) fv.add_storm_dial(e.storm_dial);
    }
    if (!e.mine && e.show_spice) fv.add_spice(e.spice);
    if (e.show_permits) {
      fv.add_ally_permission_shipment(e.permit_ship);
      fv.add_ally_permission_bids(e.permit_bids);
    }
    fv.add_bribes(e.bribes);
    fv.add_hand_count(e.hand_count);
    fv.add_reserves(e.reserves[0]);
    fv.add_reserves_special(e.reserves[1]);
    fv.add_tanks(e.tanks[0]);
    fv.add_tanks_special(e.tanks[1]);
    fv.add_forces(fv_forces);
    if (ally.o) fv.add_ally(ally);
    fv.add_charity_claimed(e.charity_claimed);
    fv.add_shipped(e.shipped);
    fv.add_moved(e.moved);
    fv.add_karama_power_used(e.karama_power_used);
    if (prevented.n) fv.add_karama_prevented(fv_prevented);
    factions.push_back(fv.Finish());
  }
  return factions.create(b);
}
// A seat's decisions and what labelling them reads (options_view.h).
struct DecisionsKey {
  std::vector<Decision> ds;
  LabelInputs in;
  bool operator==(const DecisionsKey& o) const {
    if (ds.size() != o.ds.size() || !(in == o.in)) return false;
    for (size_t i = 0; i < ds.size(); ++i) {
      const auto &a = ds[i], &b = o.ds[i];
      if (a.kind != b.kind || a.min != b.min || a.max != b.max || a.options != b.options || a.prompt != b.prompt) return false;
    }
    return true;
  }
};

}  // namespace

namespace {

// The view in the thread's builder (valid until the thread's next view).
std::string_view build_in_place(const GameState& s, Viewer who) {
  // One builder per thread, cleared and reused: its buffer keeps its size
  // between views (Clear() resets the contents; the bytes built are the same
  // as with a fresh builder). Vtables are not shared between tables: the
  // search for an equal one was a sixth of a view's cost (verify builds
  // fourteen views per event), at the price of some bytes per table.
  thread_local FlatBufferBuilder b = [] {
    FlatBufferBuilder fresh(16384);
    fresh.DedupVtables(false);
    return fresh;
  }();
  b.Clear();
  const auto v_rulings = rulings_first(b, s.rulings);
  Interned strs{b, viewer_slot(who)};
  const bool all = who.kind == Viewer::State;
  const Faction me = who.kind == Viewer::SeatView ? s.faction_at(who.seat) : Faction::Atreides;
  auto mine = [&](Faction f) { return all || (who.kind == Viewer::SeatView && f == me); };
  // The public lists first (each copied when unchanged; see front_block).
  using LeaderVec = flatbuffers::Vector<Offset<fb::LeaderView>>;
  using CardVec = flatbuffers::Vector<Offset<fb::CardView>>;
  using NameVec = flatbuffers::Vector<Offset<flatbuffers::String>>;
  using SpiceVec = flatbuffers::Vector<Offset<fb::SpiceView>>;
  using FactionVec = flatbuffers::Vector<Offset<fb::FactionView>>;
  using DecisionVec = flatbuffers::Vector<Offset<fb::DecisionView>>;
  const auto v_leaders = front_block<1, LeaderVec>(strs, leaders_key(s, mine), build_leaders);
  // The discard pile above the Nullentropy Box's shuffled rest (all of it for "state").
  const int tdiscard_hidden = all ? 0 : s.treachery_discard_hidden;
  auto tdiscard_shown = s.treachery_discard;
  if (tdiscard_hidden > 0) {
    tdiscard_shown.n = static_cast<uint8_t>(s.treachery_discard.n - tdiscard_hidden);
    std::memmove(tdiscard_shown.ids, s.treachery_discard.ids + tdiscard_hidden, tdiscard_shown.n);
  }
  const auto v_tdiscard = front_block<2, CardVec>(
      strs, PileKey(tdiscard_shown), [](Interned& in, const auto& k) { return cards(in, k.pile()); });
  const auto spice_pile = [](Interned& in, const auto& k) { return spice_names(in, k.pile()); };
  const auto v_sa = front_block<3, NameVec>(strs, PileKey(s.spice_discard[0]), spice_pile);
  const auto v_sb = front_block<4, NameVec>(strs, PileKey(s.spice_discard[1]), spice_pile);
  const auto v_aside = front_block<5, CardVec>(strs, PileKey(s.treachery_set_aside),
                                                        [](Interned& in, const auto& k) { return cards(in, k.pile()); });
  SpiceKey spice_key;
  std::memcpy(spice_key.amount, s.spice_on_board, sizeof spice_key.amount);
  const auto v_spice = front_block<6, SpiceVec>(strs, spice_key, [](Interned& in, const SpiceKey& k) {
    OffsetList<fb::SpiceView, data::kNumLocations> spice;
    for (int l = 0; l < data::kNumLocations; ++l)
      if (k.amount[l])
        spice.push_back(fb::CreateSpiceView(in.b, in.of(static_cast<LocationId>(l)), k.amount[l], static_cast<uint8_t>(l)));
    return spice.create(in.b);
  });

  const auto v_factions = front_block<7, FactionVec>(strs, factions_key(s, who), build_factions);
  // A seat's decisions with what labelling them reads (the observer's list is empty).
  DecisionsKey dk;
  if (who.kind == Viewer::SeatView) {
    dk.ds = decisions(s, who.seat);
    dk.in = label_inputs(s, who.seat, dk.ds);
  }
  const auto v_decs = front_block<8, DecisionVec>(strs, dk, [](Interned& in, const DecisionsKey& k) {
    std::vector<Offset<fb::DecisionView>> decs;
    decs.reserve(k.ds.size());
    for (const auto& d : k.ds) decs.push_back(build_decision_view(in.b, k.in, d));
    return in.b.CreateVector(decs);
  });

  Offset<fb::BiddingView> bidding = 0;
  const auto& rlot = s.richese.bidding;
  if (s.phase == Phase::Bidding && s.step != 0 && rlot.lot != LotKind::None && rules::current_lot_card(s) < data::kNumAllTreacheryCards) {
    // A Richese lot (core/factions/richese.cpp): the cache card is named face up.
    Offset<fb::CardView> current = 0;
    const uint8_t card = rlot.lot_card;
    if (all || rlot.lot == LotKind::Cache ||
        (who.kind == Viewer::SeatView && (me == Faction::Richese || rules::can_see_card_up_for_bid(s, me))))
      current = fb::CreateCardView(b, card, strs.card_name(card));
    bidding = fb::CreateBiddingView(b, s.bidding.dealt, 0, current, s.bidding.high_bid, s.bidding.high_bidder, s.bidding.current, true);
  } else if (s.phase == Phase::Bidding && s.step == 0 && s.bidding.row.n > 0 && s.bidding.index < s.bidding.row.n) {
    Offset<fb::CardView> current = 0;
    const uint8_t card = s.bidding.row.ids[s.bidding.index];
    if (all || (who.kind == Viewer::SeatView && rules::can_see_card_up_for_bid(s, me)))
      current = fb::CreateCardView(b, card, strs.card_name(card));
    // Sold cards leave the row: the card up for bid is number dealt - left + 1.
    bidding = fb::CreateBiddingView(b, s.bidding.dealt, static_cast<uint8_t>(s.bidding.dealt - s.bidding.row.n + s.bidding.index + 1), current,
                                    s.bidding.high_bid, s.bidding.high_bidder, s.bidding.current);
  }

  Offset<fb::BattleView> battle = 0;
  if (s.phase == Phase::Battle && s.battle.territory < data::kNumTerritories && s.battle.aggressor >= 0) {
    const bool revealed = rules::battle_plans_revealed(s);
    const Seat sides[2] = {s.battle.aggressor, s.battle.defender};
    Offset<fb::PlanView> plans[2] = {0, 0};
    auto card_name = [&](uint8_t id) {
      return id < data::kNumAllTreacheryCards ? strs.card_name(id) : Offset<flatbuffers::String>(0);
    };
    for (int i = 0; i < 2; ++i) {
      const bool in = (s.battle.plans_in >> sides[i]) & 1u;
      const bool own = who.kind == Viewer::SeatView && who.seat == sides[i];
      // 1.14.01: the Atreides' Karama shows them this side's whole plan.
      const bool karama = who.kind == Viewer::SeatView && rules::sees_secret(s, me, rules::Secret::KaramaPlan, i);
      if (!in || !(all || revealed || own || karama)) continue;
      const auto& p = s.battle.plan[i];
      auto leader = p.leader < data::kNumLeaders ? strs.leader_name(p.leader) : Offset<flatbuffers::String>(0);
      auto hero = card_name(p.cheap_hero);
      auto weapon = card_name(p.weapon);
      auto defense = card_name(p.defense);
      fb::PlanViewBuilder pb(b);
      if (leader.o) pb.add_leader(leader);
      if (hero.o) pb.add_cheap_hero(hero);
      if (weapon.o) pb.add_weapon(weapon);
      if (defense.o) pb.add_defense(defense);
      // Ruling no_field_prescience (no_dial): the Karama look does not show a No-Field battle's dial either.
      const auto hidden = rules::faction_rules(s.faction_at(sides[i])).force_token.dial_hidden;
      const bool hide_dial = karama && !(all || revealed || own) && hidden && hidden(s, i);
      if (hide_dial) pb.add_dial_hidden(true);
      else pb.add_dial(p.dial);
      pb.add_spice(p.spice);
      pb.add_kwisatz_haderach(p.kwisatz_haderach);
      if (p.ally_pays) pb.add_ally_pays(p.ally_pays);
      if (p.skill_spice) pb.add_skill_spice(p.skill_spice);
      plans[i] = pb.Finish();
    }
    int8_t in[kMaxSeats];
    size_t n_in = 0;
    for (Seat x = 0; x < s.num_seats && x < kMaxSeats; ++x)
      if ((s.battle.plans_in >> x) & 1u) in[n_in++] = x;
    static const char* kElements[] = {"leader", "weapon", "defense", "dial"};
    auto element = s.atreides.battle.prescience >= 1 && s.atreides.battle.prescience <= 4 ? b.CreateString(kElements[s.atreides.battle.prescience - 1])
                                                                          : Offset<flatbuffers::String>(0);
    auto territory = b.CreateString(data::territory(s.battle.territory).name);
    auto in_v = b.CreateVector(in, n_in);
    auto wheels = cards(strs, s.battle.wheels);
    // The answer: the Atreides, their ally and the answering seat; everyone after the reveal.
    bool sees_answer = all || revealed;
    if (who.kind == Viewer::SeatView && rules::secret_kept(s, rules::Secret::PrescienceAnswer)) {
      sees_answer |= rules::sees_secret(s, me, rules::Secret::PrescienceAnswer) ||  // 2.01.08/09: the Atreides and their ally
                     who.seat == s.battle.aggressor || who.seat == s.battle.defender;
      // The answering seat is the Atreides side's opponent; both battling seats qualify only
      // when one of them is the Atreides side, which the element being asked implies.
    }
    fb::BattleViewBuilder bb(b);
    bb.add_territory(territory);
    bb.add_aggressor(s.battle.aggressor);
    bb.add_defender(s.battle.defender);
    bb.add_plans_in(in_v);
    if (plans[0].o) bb.add_aggressor_plan(plans[0]);
    if (plans[1].o) bb.add_defender_plan(plans[1]);
    bb.add_wheels(wheels);
    if (element.o) bb.add_prescience_element(element);
    bb.add_prescience_answered(s.atreides.battle.prescience_answered);
    if (s.atreides.battle.prescience_answered && sees_answer) bb.add_prescience_value(s.atreides.battle.prescience_value);
    if (s.bene_gesserit.battle.voice) bb.add_voice_kind(static_cast<uint8_t>(s.bene_gesserit.battle.voice - 1));
    bb.add_voice_must(s.bene_gesserit.battle.voice_must);
    battle = bb.Finish();
  }


  OffsetList<flatbuffers::String, kNumFactions> winners;
  for (int i = 0; i < kNumFactions; ++i)
    if ((s.winners >> i) & 1u) winners.push_back(strs.of(static_cast<Faction>(i)));
  const std::vector<Seat> order = s.phase != Phase::Setup ? storm_order(s) : std::vector<Seat>{};
  int8_t waiting[kMaxSeats];
  size_t n_waiting = 0;
  const uint8_t waiting_mask = waiting_for(s);
  for (Seat x = 0; x < s.num_seats && x < kMaxSeats; ++x)
    if ((waiting_mask >> x) & 1u) waiting[n_waiting++] = x;

  const std::string_view viewer_name = all ? std::string_view("state") : who.kind == Viewer::Observer ? std::string_view("observer") : faction_key(me);
  auto v_viewer = b.CreateString(viewer_name);
  auto v_phase = b.CreateString(phase_name(s.phase));
  auto v_order = b.CreateVector(order);
  auto v_waiting = b.CreateVector(waiting, n_waiting);
  auto v_tdeck = all ? cards(strs, s.treachery_deck) : 0;
  auto v_played = s.treachery_played.empty() ? 0 : cards(strs, s.treachery_played);
  Offset<flatbuffers::String> v_juice = 0, v_juice_faction = 0;  // the Juice of Sapho, public
  for (const uint8_t mode : {rules::kJuiceAggressor, rules::kJuiceFirst, rules::kJuiceLast}) {
    const Seat j = rules::juice_seat(s, mode);
    if (j == kNoSeat || (mode == rules::kJuiceAggressor && s.phase == Phase::Battle && s.battle.territory >= data::kNumTerritories)) continue;
    v_juice = b.CreateString(mode == rules::kJuiceAggressor ? "aggressor" : mode == rules::kJuiceFirst ? "first" : "last");
    v_juice_faction = strs.of(s.faction_at(j));
  }
  auto v_orn_arrived = s.shipmove.orn_to == kNone8 ? 0 : b.CreateVector(s.shipmove.orn_arrived, 2);
  Offset<flatbuffers::Vector<Offset<fb::StrongholdCardView>>> v_scards = 0;  // public
  if (s.uses(data::Module::StrongholdCards)) {
    std::vector<Offset<fb::StrongholdCardView>> cs;
    for (int i = 0; i < 5; ++i) {  // the CHOAM & Richese set (the Hidden Mobile Stronghold's card is not in play)
      const uint8_t h = s.stronghold_cards.holder[i];
      cs.push_back(fb::CreateStrongholdCardView(b, b.CreateString(data::stronghold_card_name(static_cast<uint8_t>(i))),
                                                h < kNumFactions ? strs.of(static_cast<Faction>(h)) : 0));
    }
    v_scards = b.CreateVector(cs);
  }
  // Leader Skills (core/cards/leader_skills.cpp): a face-down card only for its owner.
  Offset<flatbuffers::Vector<Offset<fb::LeaderSkillView>>> v_skills = 0;
  Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> v_skill_hand = 0;
  Offset<flatbuffers::Vector<uint8_t>> v_skill_hand_ids = 0;
  Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> v_rihani = 0;
  Offset<fb::MentatQuestionView> v_mentat = 0;
  Offset<fb::BureaucracyView> v_bureau = 0;
  if (s.uses(data::Module::LeaderSkills)) {
    std::vector<Offset<fb::LeaderSkillView>> ls;
    for (int l = 0; l < data::kNumLeaders; ++l) {
      if (!s.skills.assigned[l]) continue;
      const auto id = static_cast<LeaderId>(l);
      const Faction owner = data::leader(id).faction;
      const bool shown = all || !s.skills.face_down[l] || (who.kind == Viewer::SeatView && owner == me);
      const uint8_t skill = static_cast<uint8_t>(s.skills.assigned[l] - 1);
      const bool front = !s.skills.face_down[l] && rules::skill_in_front(s, owner, static_cast<data::LeaderSkill>(skill));
      auto name = strs.leader_name(id);
      auto fac = strs.of(owner);
      auto sk = shown ? b.CreateString(data::leader_skill_name(skill)) : b.CreateString("");
      fb::LeaderSkillViewBuilder lb(b);
      lb.add_leader(name);
      lb.add_leader_id(id);
      lb.add_faction(fac);
      lb.add_skill(sk);
      if (shown) lb.add_skill_id(skill);
      lb.add_face_down(s.skills.face_down[l] != 0);
      lb.add_front(front);
      lb.add_behind(s.skills.behind[static_cast<int>(owner)] == l + 1);
      ls.push_back(lb.Finish());
    }
    v_skills = b.CreateVector(ls);
    if (who.kind == Viewer::SeatView && s.skills.rihani_faction == static_cast<uint8_t>(me)) {  // the Rihani Decipherer's look
      std::vector<Offset<flatbuffers::String>> seen;
      for (const uint8_t l : s.skills.rihani_seen)
        if (l < data::kNumLeaders) seen.push_back(strs.leader_name(l));
      v_rihani = b.CreateVector(seen);
    }
    if (s.skills.mentat_faction < kNumFactions && s.skills.mentat_asked != kNone8 && s.phase == Phase::Battle) {  // the Mentat's question
      const auto asker = static_cast<Faction>(s.skills.mentat_faction);
      const Seat other = s.faction_at(s.battle.aggressor) == asker ? s.battle.defender : s.battle.aggressor;
      const Faction asked = s.faction_at(other);
      const bool sees = all || (who.kind == Viewer::SeatView && (me == asker || me == asked));
      auto fa = strs.of(asker);
      auto fo = strs.of(asked);
      auto w = b.CreateString(data::treachery_card(s.skills.mentat_asked).name);
      auto sh = b.CreateString(sees && s.skills.mentat_shown != kNone8 ? data::treachery_card(s.skills.mentat_shown).name : "");
      fb::MentatQuestionViewBuilder mb(b);
      mb.add_asker(fa);
      mb.add_asked(fo);
      mb.add_weapon(w);
      mb.add_weapon_id(s.skills.mentat_asked);
      mb.add_answered(s.skills.mentat_answered != 0);
      mb.add_shown(sh);
      if (sees && s.skills.mentat_shown != kNone8) mb.add_shown_id(s.skills.mentat_shown);
      v_mentat = mb.Finish();
    }
    if (s.skills.bureau_stage == 3 && s.skills.bureau_payer < kNumFactions && s.skills.bureau_receiver < kNumFactions) {  // the Bureaucrat's window
      auto fp = strs.of(static_cast<Faction>(s.skills.bureau_payer));
      auto fr = strs.of(static_cast<Faction>(s.skills.bureau_receiver));
      v_bureau = fb::CreateBureaucracyView(b, fp, fr, s.skills.bureau_amount);
    }
    if (who.kind == Viewer::SeatView && !s.skills.hand[static_cast<int>(me)].empty()) {  // the seat's own dealt cards
      const auto& hand = s.skills.hand[static_cast<int>(me)];
      std::vector<Offset<flatbuffers::String>> names;
      for (int i = 0; i < hand.n; ++i) names.push_back(b.CreateString(data::leader_skill_name(hand.ids[i])));
      v_skill_hand = b.CreateVector(names);
      v_skill_hand_ids = b.CreateVector(hand.ids, static_cast<size_t>(hand.n));
    }
  }
  auto v_sdeck = all ? spice_names(strs, s.spice_deck) : 0;
  auto v_winners = winners.create(b);
  Offset<fb::TruthtranceView> v_tt = 0;  // 3.01.22, public
  if (s.truthtrance.asker < kNumFactions) {
    const auto& t = s.truthtrance;
    auto asker = strs.of(static_cast<Faction>(t.asker));
    auto asked = strs.of(static_cast<Faction>(t.asked));
    fb::TruthtranceViewBuilder tb(b);
    tb.add_asker(asker);
    tb.add_asked(asked);
    tb.add_question(t.question);
    tb.add_subject(t.subject);
    if (t.answer != kNone8) tb.add_answer(t.answer != 0);
    tb.add_turn(t.turn);
    v_tt = tb.Finish();
  }
  auto v_window = rules::window_open(s) ? b.CreateString(rules::window_description(s)) : 0;
  const Window* cancel = rules::window_open(s) && s.windows[s.window_depth - 1].kind == WindowKind::KaramaCancel ? &s.windows[s.window_depth - 1] : nullptr;
  auto v_cancel_faction = cancel ? b.CreateString(faction_key(s.faction_at(cancel->owner))) : 0;
  // 2.01.07 Wormsign: the card the Atreides looked at, theirs to know until the turn ends.
  const bool wormsign = s.atreides.wormsign_turn == s.turn && s.atreides.wormsign_card < data::kNumSpiceCards &&
                        rules::secret_kept(s, rules::Secret::Wormsign) &&
                        (all || (who.kind == Viewer::SeatView && rules::sees_secret(s, me, rules::Secret::Wormsign)));
  auto v_wormsign = wormsign ? strs.spice_name(s.atreides.wormsign_card) : 0;
  Offset<fb::ChoamView> v_choam = 0;  // CHOAM (CHOAM & Richese): public, but the card offered in a trade
  if (s.uses(data::Module::ChoamRichese) && s.has(Faction::Choam)) {
    const auto& ch = s.choam;
    auto inflation = b.CreateString(ch.inflation == Inflation::Double ? "double" : ch.inflation == Inflation::Cancel ? "cancel" : "");
    Offset<fb::CardView> offer = 0;
    if (ch.trade_offer < data::kNumAllTreacheryCards && (all || (who.kind == Viewer::SeatView && me == Faction::Choam)))
      offer = fb::CreateCardView(b, ch.trade_offer, strs.card_name(ch.trade_offer));
    const bool audited_sees = all || (who.kind == Viewer::SeatView && (me == Faction::Choam || static_cast<uint8_t>(me) == ch.audit_of));
    Offset<flatbuffers::Vector<Offset<fb::CardView>>> audit_cards = 0;
    if (audited_sees && ch.audit_turn != 0) {
      std::vector<Offset<fb::CardView>> seen;
      for (uint8_t card : ch.audit_cards)
        if (card < data::kNumAllTreacheryCards) seen.push_back(fb::CreateCardView(b, card, strs.card_name(card)));
      audit_cards = b.CreateVector(seen);
    }
    // What CHOAM's ally may use now: the allowance set for this alliance, 0
    // while a Karama prevents it (3.01.11.02; hook ally_battle_support).
    const auto usable = rules::faction_rules(Faction::Choam).ally_battle_support;
    const uint16_t support = usable ? static_cast<uint16_t>(usable(s)) : 0;
    const Window* sale = rules::window_open(s) && s.windows[s.window_depth - 1].kind == WindowKind::ChoamSale ? &s.windows[s.window_depth - 1] : nullptr;
    auto sale_before = sale ? b.CreateString(phase_name(static_cast<Phase>(sale->subject))) : 0;
    v_choam = fb::CreateChoamView(b, inflation, ch.inflation_turn, ch.charity_bank != 0, ch.trade_open != 0, offer, ch.traded_turn,
                                  ch.trade_declined_turn, support, ch.karama_used != 0, ch.audit_stage == 1,
                                  ch.audit_of < kNumFactions ? strs.of(static_cast<Faction>(ch.audit_of)) : 0, ch.audit_turn, audit_cards,
                                  sale_before);
  }
  Offset<fb::RicheseView> v_richese = 0;  // Richese (CHOAM & Richese): public, but the cache and the silent bids
  if (s.uses(data::Module::ChoamRichese) && s.has(Faction::Richese)) {
    const auto& r = s.richese;
    const bool mine = all || (who.kind == Viewer::SeatView && me == Faction::Richese);
    auto cards = [&](const auto& pile) {
      std::vector<Offset<fb::CardView>> out;
      for (int i = 0; i < pile.n; ++i) out.push_back(fb::CreateCardView(b, pile.ids[i], strs.card_name(pile.ids[i])));
      return b.CreateVector(out);
    };
    auto v_cache = mine ? cards(r.cache) : 0;
    auto v_removed = cards(r.removed);
    static constexpr const char* kTiming[] = {"", "first", "last", "none"};
    static constexpr const char* kLot[] = {"", "cache", "black_market"};
    static constexpr const char* kAuction[] = {"normal", "once_around_right", "once_around_left", "silent"};
    const bool up = s.phase == Phase::Bidding && r.bidding.lot != LotKind::None;
    auto v_timing = b.CreateString(s.phase == Phase::Bidding && r.bidding.cache_timing < 4 ? kTiming[r.bidding.cache_timing] : "");
    auto v_lot = b.CreateString(up && static_cast<int>(r.bidding.lot) < 3 ? kLot[static_cast<int>(r.bidding.lot)] : "");
    auto v_auction = b.CreateString(up ? kAuction[static_cast<int>(r.bidding.auction) & 3] : "");
    const bool silent = up && r.bidding.auction == AuctionKind::Silent;
    std::vector<int8_t> in;
    for (Seat x = 0; x < s.num_seats; ++x)
      if (silent && rules::has_bit(r.bidding.turns, x)) in.push_back(x);
    auto v_in = b.CreateVector(in);
    int8_t nf_board = -1, nf_up = -1;
    std::vector<uint8_t> supply;
    for (int i = 0; i < kNumNoFieldTokens; ++i) {
      if (r.no_field[i].zone == TokenZone::Board) nf_board = static_cast<int8_t>(i);
      if (r.no_field[i].zone == TokenZone::Revealed) nf_up = static_cast<int8_t>(i);
      if (r.no_field[i].zone == TokenZone::Reserve) supply.push_back(kNoFieldValues[i]);
    }
    std::sort(supply.begin(), supply.end());
    auto v_supply = mine ? b.CreateVector(supply) : 0;
    const bool nf_battle = s.phase == Phase::Battle && r.battle.no_field != 0;
    auto v_nf_battle = b.CreateString(nf_battle ? (r.battle.no_field == 1 ? "aggressor" : "defender") : "");
    fb::RicheseViewBuilder rv(b);
    rv.add_no_field_location(nf_board >= 0 ? r.no_field[nf_board].location : kNone8);
    rv.add_no_field_face_up(nf_up >= 0 ? kNoFieldValues[nf_up] : -1);
    if (mine) rv.add_no_field_value(nf_board >= 0 ? kNoFieldValues[nf_board] : -1);
    if (v_supply.o) rv.add_no_field_supply(v_supply);
    rv.add_battle_no_field(v_nf_battle);
    if (nf_battle) rv.add_battle_no_field_forces(r.battle.revealed);
    rv.add_cache_count(r.cache.n);
    if (rules::faction_rules(Faction::Richese).force_token.permits(s)) rv.add_ally_no_field(true);
    if (v_cache.o) rv.add_cache(v_cache);
    rv.add_removed(v_removed);
    rv.add_karama_used(r.karama_used != 0);
    rv.add_cache_timing(v_timing);
    rv.add_lot(v_lot);
    rv.add_auction(v_auction);
    rv.add_silent_bids_in(v_in);
    if (silent && who.kind == Viewer::SeatView && rules::has_bit(r.bidding.turns, who.seat)) rv.add_silent_bid(r.bidding.silent_bid[who.seat]);
    v_richese = rv.Finish();
  }
  fb::ViewBuilder vb(b);
  vb.add_viewer(v_viewer);
  vb.add_version(s.version);
  vb.add_turn(s.turn);
  vb.add_max_turns(s.max_turns);
  vb.add_advanced(s.advanced);
  vb.add_phase(v_phase);
  vb.add_storm_sector(s.storm_sector);
  vb.add_storm_order(v_order);
  vb.add_waiting_for(v_waiting);
  vb.add_factions(v_factions);
  vb.add_spice_on_board(v_spice);
  vb.add_leaders(v_leaders);
  vb.add_treachery_deck_count(s.treachery_deck.n);
  if (all) vb.add_treachery_deck(v_tdeck);
  vb.add_treachery_discard(v_tdiscard);
  vb.add_spice_deck_count(s.spice_deck.n);
  if (all) vb.add_spice_deck(v_sdeck);
  vb.add_spice_discard_a(v_sa);
  vb.add_spice_discard_b(v_sb);
  vb.add_traitor_deck_count(s.traitor_deck.n);
  const bool sees_storm = all || (who.kind == Viewer::SeatView && rules::sees_secret(s, me, rules::Secret::StormCard));  // 2.04.14
  if (sees_storm && s.fremen.storm_card) vb.add_storm_card(s.fremen.storm_card);
  if (bidding.o) vb.add_bidding(bidding);
  if (battle.o) vb.add_battle(battle);
  vb.add_decisions(v_decs);
  vb.add_winners(v_winners);
  vb.add_rulings(v_rulings);
  vb.add_shield_wall_destroyed(s.shield_wall_destroyed);
  if (rules::secret_kept(s, rules::Secret::KwisatzHaderachLosses) &&
      (all || (who.kind == Viewer::SeatView && rules::sees_secret(s, me, rules::Secret::KwisatzHaderachLosses))))
    vb.add_kwisatz_haderach_losses(s.atreides.kh.losses);
  vb.add_kwisatz_haderach_dead(s.atreides.kh.dead);
  if (v_tt.o) vb.add_truthtrance(v_tt);
  vb.add_treachery_set_aside(v_aside);
  if (s.storm_override != kNone8) vb.add_storm_override(s.storm_override);
  if (v_window.o) vb.add_window(v_window);
  if (cancel) {
    vb.add_cancel_ability(cancel->subject);
    vb.add_cancel_faction(v_cancel_faction);
  }
  if (v_wormsign.o) vb.add_wormsign(v_wormsign);
  if (v_choam.o) vb.add_choam(v_choam);
  if (v_richese.o) vb.add_richese(v_richese);
  if (v_played.o) vb.add_treachery_played(v_played);
  if (v_juice.o) {
    vb.add_juice(v_juice);
    vb.add_juice_faction(v_juice_faction);
  }
  if (tdiscard_hidden > 0) vb.add_treachery_discard_hidden(static_cast<uint8_t>(tdiscard_hidden));
  if (v_scards.o) vb.add_stronghold_cards(v_scards);
  if (v_skills.o) {
    vb.add_leader_skills(v_skills);
    vb.add_skill_deck(s.skills.deck.n);
    vb.add_skill_banked(s.skills.banked);
  }
  if (v_rihani.o) vb.add_skill_traitors_seen(v_rihani);
  if (v_mentat.o) vb.add_mentat_question(v_mentat);
  if (s.uses(data::Module::LeaderSkills) && s.skills.rihani_swap) vb.add_skill_decipher_pending(true);
  if (v_bureau.o) vb.add_skill_bureaucracy(v_bureau);
  if (v_skill_hand.o) {
    vb.add_skill_hand(v_skill_hand);
    vb.add_skill_hand_ids(v_skill_hand_ids);
  }
  if (s.shipmove.orn_to != kNone8) {
    vb.add_ornithopter_to(s.shipmove.orn_to);
    vb.add_ornithopter_arrived(v_orn_arrived);
  }
  fb::FinishViewBuffer(b, vb.Finish());
  return std::string_view(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

}  // namespace

std::string build_view(const GameState& s, Viewer who) { return std::string(build_in_place(s, who)); }

bool same_view(const GameState& a, const GameState& b, Viewer who) {
  thread_local std::string first;  // keeps its capacity between calls
  first.assign(build_in_place(a, who));
  return build_in_place(b, who) == first;
}

std::string view_json(const GameState& s, Viewer who) {
  std::string json, error;
  if (!codec::view_to_json(build_view(s, who), &json, &error)) return "{\"error\":" + codec::json_quote(error) + "}";
  return json;
}

}  // namespace mentat::inspect
