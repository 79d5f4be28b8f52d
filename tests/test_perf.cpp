// The fast paths of docs/PERFORMANCE.md against what they replace: board
// sets and distances against the neighbour lists, the filtered shipment and
// movement enumerations against brute force through validate(), the
// in-memory submit path against store::submit, the read-only store, the
// reused view builder, the bots' trusted view and the store without its log.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <filesystem>
#include <thread>

#include "core/engine.h"
#include "bots/bot.h"
#include "events/codec.h"
#include "events/view_generated.h"
#include "core/rules/move_reach.h"
#include "inspect/custody.h"
#include "inspect/projection.h"
#include "inspect/view.h"
#include "store/room.h"
#include "support/random_play.h"

using namespace mentat;
namespace fs = std::filesystem;

namespace {

struct PerfTempDir {
  fs::path path;
  PerfTempDir() {
    static std::atomic<int> n{0};
    path = fs::temp_directory_path() / ("mentat-perf-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~PerfTempDir() { fs::remove_all(path); }
};

// Reference: 0-1 breadth-first search over data::neighbours().
std::array<int, data::kNumLocations> reference_crossings(LocationId src) {
  std::array<int, data::kNumLocations> dist;
  dist.fill(1000);
  std::deque<LocationId> q{src};
  dist[src] = 0;
  while (!q.empty()) {
    const LocationId u = q.front();
    q.pop_front();
    for (LocationId v : data::neighbours(u)) {
      const int w = data::territory_of(v) != data::territory_of(u) ? 1 : 0;
      if (dist[u] + w >= dist[v]) continue;
      dist[v] = dist[u] + w;
      if (w == 0) q.push_front(v);
      else q.push_back(v);
    }
  }
  return dist;
}

bool contains(const std::vector<Action>& v, const Action& a) { return std::find(v.begin(), v.end(), a) != v.end(); }

}  // namespace

TEST_CASE("board location sets and crossing distances agree with the neighbour lists", "[data][board]") {
  int sectors_total = 0;
  for (int i = 0; i < data::kNumLocations; ++i) {
    const auto a = static_cast<LocationId>(i);
    const auto ref = reference_crossings(a);
    data::LocationSet nb, same, other;
    for (LocationId b : data::neighbours(a)) {
      nb.set(b);
      (data::territory_of(b) == data::territory_of(a) ? same : other).set(b);
    }
    CHECK(data::neighbour_set(a) == nb);
    CHECK(data::same_territory_neighbours(a) == same);
    CHECK(data::other_territory_neighbours(a) == other);
    CHECK(data::territory_pieces(data::territory_of(a)).test(a));
    for (int j = 0; j < data::kNumLocations; ++j) {
      const auto b = static_cast<LocationId>(j);
      CHECK(data::crossing_distance(a, b) == ref[j]);
      CHECK(data::are_neighbours(a, b) == nb.test(b));
    }
    const int sector = data::location(a).sector;
    for (int s = 0; s < data::kNumSectors; ++s) CHECK(data::sector_pieces(s).test(a) == (s == sector));
  }
  for (int s = 0; s < data::kNumSectors; ++s) data::sector_pieces(s).for_each([&](LocationId) { ++sectors_total; });
  CHECK(sectors_total == data::kNumLocations - 1);  // every piece but the Polar Sink
  CHECK_FALSE(data::are_neighbours(data::arrakeen(), static_cast<LocationId>(data::kNumLocations)));
  // Known distances: a stronghold to itself, across one boundary, and farther.
  CHECK(data::crossing_distance(data::arrakeen(), data::arrakeen()) == 0);
  CHECK(data::crossing_distance(data::polar_sink(), data::sietch_tabr()) >= 2);
}

TEST_CASE("1.06 legal actions list every single-force shipment and movement that validates", "[shipment]") {
  int move_states = 0, ship_states = 0, moves_seen = 0, ships_seen = 0;
  for (uint64_t seed : {11u, 12u, 13u}) {
    GameState s = create_game(testplay::setup_for(seed, 6, seed != 12), nullptr);
    std::vector<GameState> positions;
    std::string why;
    REQUIRE(testplay::play(s, seed, 100000, [&](const GameState& st, const testplay::Step&) {
      // Outside response windows (there the cards' rules answer, core/rules/cards.cpp).
      if (st.phase == Phase::ShipmentMovement && waiting_for(st) != 0 && st.window_depth == 0) positions.push_back(st);
    }, &why));
    for (const GameState& p : positions) {
      for (Seat seat = 0; seat < p.num_seats; ++seat) {
        if (!((waiting_for(p) >> seat) & 1u)) continue;
        const Faction me = p.faction_at(seat);
        const auto legal = legal_actions(p, seat);
        bool any_move_legal = false, any_ship_legal = false;
        for (const auto& a : legal) {
          any_move_legal = any_move_legal || a.kind() == ActionKind::Move;
          any_ship_legal = any_ship_legal || a.kind() == ActionKind::Ship;
        }
        // Movement: one force (regular first) from any piece to any location.
        int ok_moves = 0;
        for (int from = 0; from < data::kNumLocations; ++from) {
          const auto l = static_cast<LocationId>(from);
          const int reg = p.forces_at(me, l, 0), spec = p.forces_at(me, l, 1);
          if (reg + spec == 0) continue;
          for (int to = 0; to < data::kNumLocations; ++to) {
            action::Move a;
            a.to = static_cast<LocationId>(to);
            a.from = {Placement{l, static_cast<uint8_t>(reg ? 1 : 0), static_cast<uint8_t>(reg ? 0 : 1)}};
            if (validate(p, seat, a)) continue;
            ++ok_moves;
            CHECK(contains(legal, a));
          }
        }
        if (ok_moves) ++move_states;
        moves_seen += ok_moves;
        CHECK(any_move_legal == (ok_moves > 0));
        // Shipment from reserves: one force (regular first) to any location.
        const auto& fs = p.of(me);
        int ok_ships = 0;
        if (fs.reserves[0] + fs.reserves[1] > 0) {
          for (int to = 0; to < data::kNumLocations; ++to) {
            action::Ship a;
            a.to = static_cast<LocationId>(to);
            a.forces = static_cast<uint8_t>(fs.reserves[0] ? 1 : 0);
            a.special = static_cast<uint8_t>(fs.reserves[0] ? 0 : 1);
            if (validate(p, seat, a)) continue;
            ++ok_ships;
            CHECK(contains(legal, a));
          }
        }
        if (ok_ships) ++ship_states;
        ships_seen += ok_ships;
        if (ok_ships) CHECK(any_ship_legal);
      }
    }
  }
  // The games did reach both kinds of decision.
  CHECK(move_states > 10);
  CHECK(ship_states > 10);
  CHECK(moves_seen > 0);
  CHECK(ships_seen > 0);
}

TEST_CASE("store: submit_loaded stores the same events as submit", "[store]") {
  PerfTempDir dir;
  std::string err;
  store::Options o;
  o.sync = false;
  auto st = store::EventStore::open(dir.path.string(), o, &err);
  REQUIRE(st);
  const GameSetup setup = testplay::setup_for(21, 6, true);
  std::string ra = "reload", rb = "loaded";
  REQUIRE(store::create_room(*st, setup, &ra, &err));
  REQUIRE(store::create_room(*st, setup, &rb, &err));
  GameState head;
  REQUIRE(store::load_state(*st, rb, -1, &head, &err));
  Rng rng = Rng::from_seed(21);
  int events = 0;
  while (waiting_for(head) != 0 && events < 400) {
    Seat seat = 0;
    while (!((waiting_for(head) >> seat) & 1u)) ++seat;
    const auto legal = legal_actions(head, seat);
    REQUIRE_FALSE(legal.empty());
    const Action a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
    const std::string id = "a" + std::to_string(head.version + 1);
    const int64_t expected = static_cast<int64_t>(head.version);
    auto x = store::submit(*st, ra, seat, expected, a, id);
    auto y = store::submit_loaded(*st, rb, head, seat, a, id);
    REQUIRE(x.ok);
    REQUIRE(y.ok);
    REQUIRE(x.version == y.version);
    REQUIRE(static_cast<int64_t>(head.version) == y.version);
    CHECK(x.event.state_hash == y.event.state_hash);
    CHECK(y.event.state_hash == codec::state_hash(head));
    std::string bx, by;
    REQUIRE(st->read_event(ra, x.version, &bx, &err));
    REQUIRE(st->read_event(rb, y.version, &by, &err));
    CHECK(bx == by);
    ++events;
  }
  CHECK(events > 64);  // past the first snapshot
  GameState reloaded;
  REQUIRE(store::load_state(*st, rb, -1, &reloaded, &err));
  CHECK(codec::state_hash(reloaded) == codec::state_hash(head));
  // A stale head answers a conflict and stores nothing; a rejection leaves the head as it was.
  GameState stale;
  REQUIRE(store::load_state(*st, rb, 0, &stale, &err));
  action::Pass pass;
  auto c = store::submit_loaded(*st, rb, stale, 0, pass, "stale");
  CHECK_FALSE(c.ok);
  CHECK(c.conflict);
  CHECK(c.version == static_cast<int64_t>(head.version));
  CHECK(stale.version == 0);
  CHECK(st->meta(rb, &err)->head == static_cast<int64_t>(head.version));
  if (waiting_for(head) != 0) {
    const uint64_t before = codec::state_hash(head);
    action::None bad;
    auto r = store::submit_loaded(*st, rb, head, 0, bad, "bad");
    CHECK(r.rejection.has_value());
    CHECK(codec::state_hash(head) == before);
  }
}

TEST_CASE("store: a read-only open reads every event, writes nothing and refuses appends", "[store]") {
  PerfTempDir dir;
  std::string err;
  const auto path = dir.path / "db";
  {
    auto st = store::EventStore::open(path.string(), {}, &err);
    REQUIRE(st);
    for (int i = 0; i < 5; ++i) REQUIRE(st->append("r", i - 1, "event" + std::to_string(i), "").status == store::AppendStatus::Ok);
  }
  std::vector<std::string> before;
  for (const auto& e : fs::directory_iterator(path)) before.push_back(e.path().filename().string());
  std::sort(before.begin(), before.end());
  store::Options ro;
  ro.read_only = true;
  ro.create_if_missing = false;
  {
    auto st = store::EventStore::open(path.string(), ro, &err);
    REQUIRE(st);
    std::vector<std::string> seen;
    REQUIRE(st->scan_events("r", 0, INT64_MAX, [&](int64_t, const std::string& b) {
      seen.push_back(b);
      return true;
    }, &err));
    REQUIRE(seen.size() == 5);
    CHECK(seen[4] == "event4");
    auto r = st->append("r", 4, "event5", "");
    CHECK(r.status == store::AppendStatus::Error);
    CHECK(st->meta("r", &err)->head == 4);
  }
  std::vector<std::string> after;
  for (const auto& e : fs::directory_iterator(path)) after.push_back(e.path().filename().string());
  std::sort(after.begin(), after.end());
  CHECK(after == before);
  // A missing store is not created.
  auto none = store::EventStore::open((dir.path / "missing").string(), ro, &err);
  CHECK_FALSE(none);
  CHECK_FALSE(fs::exists(dir.path / "missing"));
}

TEST_CASE("custody: the check names the place a duplicated component is found again", "[custody]") {
  GameState s = create_game(testplay::setup_for(5, 6, true), nullptr);
  const auto entries = inspect::enumerate_custody(s);
  const Faction f = s.faction_at(0);
  const std::string hand = "hand:" + std::string(faction_key(f));
  CHECK(std::count_if(entries.begin(), entries.end(), [&](const auto& e) { return e.zone == hand; }) == s.of(f).hand.n);
  CHECK(std::count_if(entries.begin(), entries.end(), [](const auto& e) { return e.zone == "treachery_deck"; }) ==
        s.treachery_deck.n);
  GameState dup = s;
  dup.treachery_discard.push(dup.treachery_deck.ids[0]);
  auto v = inspect::check_invariants(dup);
  REQUIRE(v.has_value());
  CHECK(v->invariant == "custody");
  CHECK_THAT(v->detail, Catch::Contains("again in treachery_discard"));
  GameState dup_hand = s;
  dup_hand.of(f).hand.push(s.treachery_deck.ids[0]);
  v = inspect::check_invariants(dup_hand);
  REQUIRE(v.has_value());
  CHECK_THAT(v->detail, Catch::Contains("again in " + hand));
}

TEST_CASE("1.06 move_reach lists the origins and destinations of legal_actions' movements", "[shipment][options]") {
  // inspect/options.cpp labels each Move origin with the destinations of the
  // single-origin movements legal_actions lists; rules::move_reach computes
  // that set without listing whole territories and flips.
  int states = 0, pairs = 0;
  for (uint64_t seed : {21u, 22u, 23u, 24u}) {
    GameState s = create_game(testplay::setup_for(seed, 6, seed != 22), nullptr);
    std::string why;
    REQUIRE(testplay::play(s, seed, 100000, [&](const GameState& st, const testplay::Step&) {
      if (st.phase != Phase::ShipmentMovement) return;
      for (Seat seat = 0; seat < st.num_seats; ++seat) {
        std::vector<uint16_t> want, got;
        for (const auto& a : legal_actions(st, seat))
          if (const auto* m = a.get_if<action::Move>(); m && m->from.size() == 1)
            want.push_back(static_cast<uint16_t>(m->from[0].location << 8 | m->to));
        rules::move_reach(st, seat, got);
        std::sort(want.begin(), want.end());
        want.erase(std::unique(want.begin(), want.end()), want.end());
        std::sort(got.begin(), got.end());
        got.erase(std::unique(got.begin(), got.end()), got.end());
        CHECK(got == want);
        if (!want.empty()) ++states;
        pairs += static_cast<int>(want.size());
      }
    }, &why));
  }
  CHECK(states > 20);
  CHECK(pairs > 100);
}

TEST_CASE("views: blocks copied between viewers and events give the bytes of a fresh builder", "[views]") {
  // build_view copies a front block (public lists, factions, decisions) a
  // viewer had at an earlier view when its key and the blocks before it are
  // the same. Build every viewer's view and its permuted copy at every event
  // (as the projection check does) and compare some with a fresh thread's.
  for (uint64_t seed : {41u, 42u}) {
    GameState s = create_game(testplay::setup_for(seed, 6, true), nullptr);
    int compared = 0;
    std::string why;
    REQUIRE(testplay::play(s, seed, 600, [&](const GameState& st, const testplay::Step&) {
      std::vector<inspect::Viewer> who = {inspect::Viewer::observer(), inspect::Viewer::state()};
      for (Seat x = 0; x < st.num_seats; ++x) who.push_back(inspect::Viewer::of(x));
      std::vector<std::string> here;
      std::vector<GameState> permuted;
      for (const auto& w : who) {
        permuted.push_back(inspect::permute_hidden(st, w));
        here.push_back(inspect::build_view(st, w));
        here.push_back(inspect::build_view(permuted.back(), w));
      }
      if (st.version % 5 != 0) return;
      std::vector<std::string> fresh;
      std::thread t([&] {
        for (size_t i = 0; i < who.size(); ++i) {  // the permuted copy first: the other order
          const std::string p = inspect::build_view(permuted[i], who[i]);
          fresh.push_back(inspect::build_view(st, who[i]));
          fresh.push_back(p);
        }
      });
      t.join();
      REQUIRE(here == fresh);
      ++compared;
    }, &why));
    CHECK(compared > 50);
  }
}

TEST_CASE("views: a copied block never hides a change the viewer is shown", "[views][projection]") {
  // Each change below is shown to the viewer, so its view (built right after
  // the unchanged one, with every block's copy at hand) must differ; and the
  // projection check must report a leak when the change is passed off as
  // hidden information.
  GameState s = create_game(testplay::setup_for(43, 6, true), nullptr);
  std::string why;
  REQUIRE(testplay::play(s, 43, 150, [](const GameState&, const testplay::Step&) {}, &why));
  REQUIRE(waiting_for(s) != 0);
  const Seat me = 1;
  const Faction mine = s.faction_at(me), other = s.faction_at(2);
  std::vector<std::pair<const char*, std::function<void(GameState&)>>> changes = {
      {"another faction's reserves", [&](GameState& t) { t.of(other).reserves[0] ^= 1; }},
      {"another faction's forces", [&](GameState& t) { t.forces[static_cast<int>(other)][data::polar_sink()][0] ^= 1; }},
      {"spice on the board", [&](GameState& t) { t.spice_on_board[data::arrakeen()] ^= 2; }},
      {"the treachery discard", [&](GameState& t) { t.treachery_discard.n = static_cast<uint8_t>(t.treachery_discard.n ? 0 : 1); }},
      {"its own spice", [&](GameState& t) { t.of(mine).spice ^= 1; }},
      {"its own forces", [&](GameState& t) { t.forces[static_cast<int>(mine)][data::polar_sink()][0] ^= 1; }},
  };
  for (const auto& [what, change] : changes) {
    INFO(what);
    GameState t = s;
    change(t);
    for (const auto who : {inspect::Viewer::of(me), inspect::Viewer::observer()}) {
      if (who.kind == inspect::Viewer::Observer && std::string(what).rfind("its own spice", 0) == 0) continue;  // hidden from it
      const std::string before = inspect::build_view(s, who);
      CHECK(inspect::build_view(t, who) != before);
      CHECK(inspect::build_view(s, who) == before);
      const auto leak = inspect::check_projection(s, who, [&](const GameState& u, inspect::Viewer w) {
        // The permuted copy (not s itself) is shown with the change.
        if (&u == &s) return inspect::build_view(u, w);
        GameState v = u;
        change(v);
        return inspect::build_view(v, w);
      });
      CHECK(leak.has_value());
    }
  }
}

TEST_CASE("views: the builder reused by a thread gives the bytes of a fresh builder", "[views]") {
  // build_view keeps one FlatBufferBuilder per thread; a new thread starts
  // with a fresh one. Interleave the state view (the largest) with seat and
  // observer views along a random game and compare with a fresh thread's.
  GameState s = create_game(testplay::setup_for(31, 6, true), nullptr);
  Rng rng = Rng::from_seed(31);
  int compared = 0;
  for (int i = 0; i < 300 && waiting_for(s) != 0; ++i) {
    if (i % 7 == 0) {
      std::vector<inspect::Viewer> who = {inspect::Viewer::state(), inspect::Viewer::observer()};
      for (Seat x = 0; x < s.num_seats; ++x) who.push_back(inspect::Viewer::of(x));
      std::vector<std::string> here, fresh;
      for (const auto& w : who) here.push_back(inspect::build_view(s, w));
      for (const auto& w : who) {
        std::thread t([&] { fresh.push_back(inspect::build_view(s, w)); });
        t.join();
      }
      REQUIRE(here == fresh);
      ++compared;
    }
    Seat seat = 0;
    while (!((waiting_for(s) >> seat) & 1u)) ++seat;
    const auto legal = legal_actions(s, seat);
    REQUIRE_FALSE(legal.empty());
    apply(s, seat, legal[rng.below(static_cast<uint32_t>(legal.size()))], nullptr);
  }
  CHECK(compared > 10);
}

TEST_CASE("views: the rulings block reused between views follows the game's rulings", "[views]") {
  // build_view copies the rulings list it built last when the rulings are the
  // same; a game with other rulings must show its own, and going back gives
  // the first bytes again.
  GameState s = create_game(testplay::setup_for(33, 6, true), nullptr);
  GameState other = s;
  const auto& info = ruling_info(RulingId::DealTiming);
  REQUIRE(info.values.size() >= 2);
  other.rulings.value[static_cast<int>(RulingId::DealTiming)] = static_cast<uint8_t>((s.rulings.get(RulingId::DealTiming) + 1) % info.values.size());
  auto value_of = [&](const std::string& bytes) {
    const fb::View* v = fb::GetView(bytes.data());
    REQUIRE(v->rulings() != nullptr);
    REQUIRE(v->rulings()->size() == ruling_registry().size());
    for (const auto* r : *v->rulings())
      if (r->id()->string_view() == info.key) return std::string(r->value()->string_view());
    return std::string("missing");
  };
  for (const auto who : {inspect::Viewer::observer(), inspect::Viewer::of(2), inspect::Viewer::state()}) {
    const std::string first = inspect::build_view(s, who);
    const std::string changed = inspect::build_view(other, who);
    CHECK(value_of(first) == std::string(info.values[s.rulings.get(RulingId::DealTiming)]));
    CHECK(value_of(changed) == std::string(info.values[other.rulings.get(RulingId::DealTiming)]));
    CHECK(first != changed);
    CHECK(inspect::build_view(s, who) == first);
    // Every view is a valid buffer (the copied block and the strings shared within a view).
    flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(changed.data()), changed.size());
    CHECK(fb::VerifyViewBuffer(verifier));
  }
}

TEST_CASE("bots: make_input's view is trusted only while it holds its own bytes", "[bots][views]") {
  GameState s = create_game(testplay::setup_for(32, 4, true), nullptr);
  const Seat seat = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
  const bots::ViewInput in = bots::make_input(s, seat);
  REQUIRE(in.trusted == in.view_bytes.data());
  const fb::View* v = in.view();
  REQUIRE(v != nullptr);
  CHECK(reinterpret_cast<const char*>(v) >= in.view_bytes.data());
  CHECK(v->version() == s.version);
  // A copy holds other bytes: verified, and the same view.
  bots::ViewInput copy = in;
  REQUIRE(copy.view() != nullptr);
  CHECK(copy.view()->version() == s.version);
  // Bytes that are not a View: verified and refused, in a copy or by hand.
  copy.view_bytes = std::string(copy.view_bytes.size(), '\x01');
  CHECK(copy.view() == nullptr);
  bots::ViewInput hand;
  hand.seat = seat;
  hand.view_bytes = "not a view";
  CHECK(hand.view() == nullptr);
  // Edited in place with `trusted` reset (the header's rule): verified again.
  bots::ViewInput edited = bots::make_input(s, seat);
  edited.trusted = nullptr;
  std::fill(edited.view_bytes.begin(), edited.view_bytes.end(), '\xff');
  CHECK(edited.view() == nullptr);
}

TEST_CASE("store: without the write-ahead log, appends are read back and survive a close and reopen", "[store]") {
  PerfTempDir dir;
  std::string err;
  const auto path = (dir.path / "db").string();
  store::Options o;
  o.sync = false;
  o.wal = false;
  {
    auto st = store::EventStore::open(path, o, &err);
    REQUIRE(st);
    for (int i = 0; i < 50; ++i)
      REQUIRE(st->append("r", i - 1, "event" + std::to_string(i), "id" + std::to_string(i)).status == store::AppendStatus::Ok);
    CHECK(st->meta("r", &err)->head == 49);
    CHECK(st->append("r", 49, "again", "id7").status == store::AppendStatus::Duplicate);
    CHECK(st->append("r", 10, "late", "").status == store::AppendStatus::Conflict);
  }
  // Closing flushes the memtable: a reader sees every event.
  store::Options ro;
  ro.read_only = true;
  ro.create_if_missing = false;
  auto st = store::EventStore::open(path, ro, &err);
  REQUIRE(st);
  std::vector<std::string> seen;
  REQUIRE(st->scan_events("r", 0, INT64_MAX, [&](int64_t, const std::string& b) {
    seen.push_back(b);
    return true;
  }, &err));
  REQUIRE(seen.size() == 50);
  CHECK(seen[49] == "event49");
  CHECK(st->find_action("r", "id7", &err) == std::optional<int64_t>(7));
  CHECK_FALSE(st->find_action("r", "id50", &err).has_value());
  // With sync on, `wal` = false is ignored (RocksDB refuses synced writes without a log).
  store::Options synced;
  synced.wal = false;
  auto w = store::EventStore::open((dir.path / "db2").string(), synced, &err);
  REQUIRE(w);
  CHECK(w->append("q", -1, "e0", "").status == store::AppendStatus::Ok);
}
