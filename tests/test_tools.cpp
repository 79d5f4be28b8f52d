// Adjudication tools: fork, rerun, diff, bisect, verify, render.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/engine.h"
#include "events/codec.h"
#include "inspect/custody.h"
#include "inspect/projection.h"
#include "inspect/render.h"
#include "replay/diff.h"
#include "replay/fold.h"
#include "replay/progress.h"
#include "replay/tools.h"
#include "store/room.h"

using namespace mentat;
namespace fs = std::filesystem;

namespace {

struct Store {
  fs::path dir;
  std::unique_ptr<store::EventStore> st;
  Store() {
    static std::atomic<int> n{0};
    dir = fs::temp_directory_path() / ("mentat-tools-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(dir);
    std::string err;
    st = store::EventStore::open(dir.string(), {}, &err);
    REQUIRE(st);
  }
  ~Store() {
    st.reset();
    fs::remove_all(dir);
  }
};

// Plays `n` random legal actions in `room` through the store.
void play(store::EventStore& st, const std::string& room, uint64_t seed, int n) {
  Rng rng = Rng::from_seed(seed);
  std::string err;
  for (int i = 0; i < n; ++i) {
    GameState s;
    REQUIRE(store::load_state(st, room, -1, &s, &err));
    if (!waiting_for(s)) return;
    Seat who = static_cast<Seat>(__builtin_ctz(waiting_for(s)));
    auto acts = legal_actions(s, who);
    REQUIRE_FALSE(acts.empty());
    auto o = store::submit(st, room, who, static_cast<int64_t>(s.version), acts[rng.below(static_cast<uint32_t>(acts.size()))],
                           room + "-" + std::to_string(seed) + "-" + std::to_string(i));
    REQUIRE(o.ok);
  }
}

GameSetup three(uint64_t seed) {
  GameSetup g;
  g.seed = seed;
  g.factions = {Faction::Atreides, Faction::Harkonnen, Faction::Emperor};
  return g;
}

}  // namespace

TEST_CASE("fork shares the parent's prefix without copying it, forks of forks", "[tools]") {
  Store S;
  std::string err, room = "p";
  REQUIRE(store::create_room(*S.st, three(3), &room, &err));
  play(*S.st, room, 3, 40);
  const int64_t head = S.st->meta(room, &err)->head;
  REQUIRE(store::fork_room(*S.st, "p", 20, "f1", nullptr, &err));
  auto m = S.st->meta("f1", &err);
  REQUIRE(m);
  CHECK(m->parent == "p");
  CHECK(m->parent_version == 20);
  CHECK(m->head == 20);
  // The fork's first 21 events are the parent's, read through the parent.
  std::string a, b;
  REQUIRE(S.st->read_event("f1", 7, &a, &err));
  REQUIRE(S.st->read_event("p", 7, &b, &err));
  CHECK(a == b);
  // Not copied: overwriting the parent's event is seen through the fork.
  codec::Event e;
  REQUIRE(codec::decode_event(b, &e, &err));
  e.client_action_id = "changed";
  REQUIRE(S.st->debug_overwrite_event("p", 7, codec::encode_event(e), &err));
  REQUIRE(S.st->read_event("f1", 7, &a, &err));
  codec::Event seen;
  REQUIRE(codec::decode_event(a, &seen, &err));
  CHECK(seen.client_action_id == "changed");
  e.client_action_id = b.empty() ? "" : codec::Event{}.client_action_id;
  REQUIRE(S.st->debug_overwrite_event("p", 7, b, &err));

  // The fork continues independently; the parent never changes.
  play(*S.st, "f1", 99, 10);
  CHECK(S.st->meta("f1", &err)->head == 30);
  CHECK(S.st->meta("p", &err)->head == head);
  GameState pf, ff;
  REQUIRE(store::load_state(*S.st, "p", 20, &pf, &err));
  REQUIRE(store::load_state(*S.st, "f1", 20, &ff, &err));
  CHECK(codec::encode_state(pf) == codec::encode_state(ff));
  // A fork of a fork.
  REQUIRE(store::fork_room(*S.st, "f1", 25, "f2", nullptr, &err));
  play(*S.st, "f2", 5, 5);
  GameState f1_25, f2_25;
  REQUIRE(store::load_state(*S.st, "f1", 25, &f1_25, &err));
  REQUIRE(store::load_state(*S.st, "f2", 25, &f2_25, &err));
  CHECK(codec::encode_state(f1_25) == codec::encode_state(f2_25));
  CHECK(replay::verify_room(*S.st, "f2").ok);
  CHECK_FALSE(store::fork_room(*S.st, "p", head + 5, "f3", nullptr, &err));
  CHECK_FALSE(store::fork_room(*S.st, "p", 3, "f1", nullptr, &err));  // exists
}

TEST_CASE("fork with another ruling records it as the fork's first event", "[tools]") {
  Store S;
  std::string err, room = "r";
  REQUIRE(store::create_room(*S.st, three(4), &room, &err));
  play(*S.st, room, 4, 30);
  Rulings other = Rulings::defaults();
  REQUIRE(other.set("bribe_timing", "immediate", &err));
  REQUIRE(store::fork_room(*S.st, "r", 10, "r2", &other, &err));
  GameState s;
  REQUIRE(store::load_state(*S.st, "r2", -1, &s, &err));
  CHECK(s.version == 11);
  CHECK(s.rulings.is(RulingId::BribeTiming, 1));
  GameState parent;
  REQUIRE(store::load_state(*S.st, "r", 11, &parent, &err));
  CHECK(parent.rulings.is(RulingId::BribeTiming, 0));
  CHECK(replay::verify_room(*S.st, "r2").ok);
  // Players cannot change rulings.
  action::SetRulings a;
  a.rulings = other;
  CHECK(validate(s, 0, a).has_value());
}

TEST_CASE("rerun finds a planted divergence at the right version", "[tools]") {
  Store S;
  std::string err, room = "b";
  REQUIRE(store::create_room(*S.st, three(5), &room, &err));
  // Play into the storm of turn 1, then plant a bribe: under bribe_timing=immediate
  // the spice lands behind the shield instead of in front of it.
  GameState s;
  for (int i = 0; i < 50; ++i) {
    REQUIRE(store::load_state(*S.st, room, -1, &s, &err));
    if (s.phase != Phase::Setup) break;
    play(*S.st, room, 10 + i, 1);
  }
  REQUIRE(store::load_state(*S.st, room, -1, &s, &err));
  REQUIRE(s.phase != Phase::Setup);
  action::Bribe bribe;
  bribe.to = static_cast<uint8_t>(Faction::Harkonnen);
  bribe.amount = 2;
  auto o = store::submit(*S.st, room, s.seat_of(Faction::Atreides), static_cast<int64_t>(s.version), bribe, "bribe");
  REQUIRE(o.ok);
  const int64_t planted = o.version;
  play(*S.st, room, 77, 20);

  Rulings alt = s.rulings;
  REQUIRE(alt.set("bribe_timing", "immediate", &err));
  auto r = replay::rerun(*S.st, room, alt, 0);
  REQUIRE(r.ok);
  CHECK(r.diverged);
  CHECK(r.version == planted);
  CHECK(r.kind == "state");
  bool saw_bribe = false;
  for (const auto& d : r.diff) saw_bribe |= d.group == "spice" && d.what.find("harkonnen") != std::string::npos;
  CHECK(saw_bribe);
  // Under the same rulings nothing diverges.
  auto same = replay::rerun(*S.st, room, s.rulings, 0);
  REQUIRE(same.ok);
  CHECK_FALSE(same.diverged);

  // rerun --keep: a room at the position just before the divergence, under the other ruling.
  int64_t kept = -1;
  REQUIRE(replay::keep_rerun(*S.st, room, alt, 0, r, "b-kept", &kept, &err));
  CHECK(kept == planted);  // the creation, the SetRulings event, then versions 1..planted-1
  GameState k, before;
  REQUIRE(store::load_state(*S.st, "b-kept", -1, &k, &err));
  REQUIRE(store::load_state(*S.st, room, planted - 1, &before, &err));
  CHECK(k.rulings.is(RulingId::BribeTiming, 1));
  CHECK(k.phase == before.phase);
  CHECK(k.turn == before.turn);
  for (int f = 0; f < kNumFactions; ++f) CHECK(k.f[f].spice == before.f[f].spice);
  CHECK(replay::verify_room(*S.st, "b-kept").ok);
  // The adjudicator plays on from there: the bribe now lands behind the shield at once.
  const int hark = k.of(Faction::Harkonnen).spice;
  auto o2 = store::submit(*S.st, "b-kept", k.seat_of(Faction::Atreides), kept, bribe, "bribe-kept");
  REQUIRE(o2.ok);
  REQUIRE(store::load_state(*S.st, "b-kept", -1, &k, &err));
  CHECK(k.of(Faction::Harkonnen).spice == hark + 2);
  // Nothing diverged: the whole game is kept.
  int64_t all = -1;
  REQUIRE(replay::keep_rerun(*S.st, room, s.rulings, 0, same, "b-all", &all, &err));
  CHECK(all == S.st->meta(room, &err)->head + 1);
  CHECK(replay::verify_room(*S.st, "b-all").ok);
  // A name already taken is refused.
  CHECK_FALSE(replay::keep_rerun(*S.st, room, alt, 0, r, "b-kept", &all, &err));
}

TEST_CASE("diff reports custody moves, forces, spice and rulings", "[tools]") {
  GameSetup g = three(6);
  GameState a = create_game(g, nullptr);
  GameState b = a;
  CHECK(replay::diff_states(a, b).empty());
  const uint8_t card = b.of(Faction::Atreides).hand.ids[0];
  b.of(Faction::Atreides).hand.remove(card);
  b.treachery_discard.push(card);
  b.forces_at(Faction::Harkonnen, data::carthag()) -= 2;
  b.of(Faction::Harkonnen).tanks[0] += 2;
  transfer_spice(b, shield(Faction::Emperor), bank(), 3);
  b.rulings.value[static_cast<int>(RulingId::BribeTiming)] = 1;
  auto d = replay::diff_states(a, b);
  auto has = [&](const std::string& group, const std::string& what_part, const std::string& before, const std::string& after) {
    for (const auto& e : d)
      if (e.group == group && e.what.find(what_part) != std::string::npos && e.before == before && e.after == after) return true;
    return false;
  };
  CHECK(has("custody", data::treachery_card(card).name.data(), "hand:atreides", "treachery_discard"));
  CHECK(has("forces", "harkonnen forces in Carthag", "10", "8"));
  CHECK(has("forces", "harkonnen forces in the tanks", "0", "2"));
  CHECK(has("spice", "behind emperor's shield", "10", "7"));
  CHECK(has("rulings", "bribe_timing", "mentat_pause", "immediate"));
  const std::string json = replay::diff_to_json(d);
  CHECK_THAT(json, Catch::Contains("\"group\": \"custody\""));
  CHECK_THAT(json, Catch::Contains("\"equal\": false"));
}

TEST_CASE("bisect finds a planted invariant break in O(log n) loads", "[tools]") {
  GameState base = create_game(three(8), nullptr);
  const int64_t head = 1000, planted = 613;
  int loads = 0;
  auto loader = [&](int64_t v, GameState* out, std::string*) {
    ++loads;
    *out = base;
    out->version = static_cast<uint64_t>(v);
    if (v >= planted) out->treachery_discard.push(out->treachery_deck.ids[0]);  // a duplicated card
    return true;
  };
  auto r = replay::bisect(head, loader, [](const GameState& s) {
    auto v = inspect::check_invariants(s);
    return v && v->invariant == "custody";
  });
  CHECK(r.found);
  CHECK(r.version == planted);
  CHECK(r.loads <= 12);  // ceil(log2(1001)) + 1
  auto never = replay::bisect(head, [&](int64_t v, GameState* out, std::string*) { *out = base; out->version = static_cast<uint64_t>(v); return true; },
                              [](const GameState& s) { return inspect::check_invariants(s).has_value(); });
  CHECK_FALSE(never.found);
  std::string err;
  auto p = replay::Predicate::parse(R"(turn >= 2 && spice(atreides) > 3 || phase == "Battle")", &err);
  REQUIRE(p);
  GameState t = base;
  t.turn = 2;
  CHECK(p->eval(t));
  t.turn = 1;
  CHECK_FALSE(p->eval(t));
  CHECK_FALSE(replay::Predicate::parse("spice(nobody) > 1", &err));
  CHECK_THAT(err, Catch::Contains("unknown faction"));
  CHECK_FALSE(replay::Predicate::parse("turn >", &err));
}

TEST_CASE("verify catches a leaked hidden value and a duplicated client action id", "[tools]") {
  Store S;
  std::string err, room = "v";
  REQUIRE(store::create_room(*S.st, three(9), &room, &err));
  play(*S.st, room, 9, 30);
  CHECK(replay::verify_room(*S.st, room).ok);
  // A view that leaks the Harkonnen hand to everyone.
  replay::VerifyOptions leaky;
  leaky.view = [](const GameState& s, inspect::Viewer who) {
    std::string v = inspect::view_json(s, who);
    for (int i = 0; i < s.of(Faction::Harkonnen).hand.n; ++i) v += std::to_string(s.of(Faction::Harkonnen).hand.ids[i]);
    return v;
  };
  auto r = replay::verify_room(*S.st, room, {}, leaky);
  CHECK_FALSE(r.ok);
  CHECK(r.check == "projection");
  CHECK(r.first_bad == 0);
  // Projection also holds for the real view after every event (already checked above).
  // A client action id applied twice (planted by rewriting event 12's id).
  std::string b5, b12;
  REQUIRE(S.st->read_event(room, 5, &b5, &err));
  REQUIRE(S.st->read_event(room, 12, &b12, &err));
  codec::Event e5, e12;
  REQUIRE(codec::decode_event(b5, &e5, &err));
  REQUIRE(codec::decode_event(b12, &e12, &err));
  e12.client_action_id = e5.client_action_id;
  REQUIRE(S.st->debug_overwrite_event(room, 12, codec::encode_event(e12), &err));
  r = replay::verify_room(*S.st, room);
  CHECK_FALSE(r.ok);
  CHECK(r.first_bad == 12);
  CHECK(r.check == "once");
}

TEST_CASE("verify catches a duplicated card in a stored snapshot", "[tools]") {
  Store S;
  std::string err, room = "dup";
  REQUIRE(store::create_room(*S.st, three(11), &room, &err));
  play(*S.st, room, 11, store::kSnapshotEvery + 5);
  REQUIRE(S.st->meta(room, &err)->head > store::kSnapshotEvery);
  CHECK(replay::verify_room(*S.st, room).ok);
  GameState s;
  REQUIRE(store::load_state(*S.st, room, store::kSnapshotEvery, &s, &err));
  s.treachery_discard.push(s.treachery_deck.ids[0]);  // one card in two places
  REQUIRE(S.st->debug_put_snapshot(room, store::kSnapshotEvery, codec::encode_state(s), &err));
  auto r = replay::verify_room(*S.st, room);
  CHECK_FALSE(r.ok);
  CHECK(r.first_bad == store::kSnapshotEvery);
  CHECK(r.check == "custody");
  CHECK_THAT(r.detail, Catch::Contains("more than one place"));
  // Loading refuses the bad snapshot too (its hash is not the event's).
  GameState loaded;
  CHECK_FALSE(store::load_state(*S.st, room, -1, &loaded, &err));
}

TEST_CASE("render draws the board, storm, forces and the seat's private panel", "[tools]") {
  GameState s = create_game(three(10), nullptr);
  const std::string svg = inspect::render_svg(s, inspect::Viewer::of(s.seat_of(Faction::Atreides)));
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK_THAT(svg, Catch::Contains("id=\"storm\""));
  CHECK_THAT(svg, Catch::Contains("Atreides: 10 forces (0 special) in Arrakeen"));
  CHECK_THAT(svg, Catch::Contains(std::string(data::treachery_card(s.of(Faction::Atreides).hand.ids[0]).name)));
  const std::string obs = inspect::render_svg(s, inspect::Viewer::observer());
  CHECK_THAT(obs, !Catch::Contains("id=\"panel\""));
  int pieces = 0;
  for (size_t p = svg.find("class=\"piece\""); p != std::string::npos; p = svg.find("class=\"piece\"", p + 1)) ++pieces;
  CHECK(pieces == data::kNumLocations - 1);  // every piece but the Polar Sink (drawn as the centre)
  // Labels, player markers and each faction's public counts.
  CHECK_THAT(obs, Catch::Contains(">Sietch Tabr</text>"));
  int markers = 0;
  for (size_t p = obs.find("class=\"marker\""); p != std::string::npos; p = obs.find("class=\"marker\"", p + 1)) ++markers;
  CHECK(markers == s.num_seats);
  CHECK_THAT(obs, Catch::Contains("Atreides: reserves 10+0, tanks 0+0, 1 card"));
  CHECK_THAT(obs, !Catch::Contains("id=\"winners\""));
  // Readable at 100 %: no text smaller than 9 units (of the 800-unit board), force counts 13, strongholds 13.
  for (size_t p = svg.find("font-size=\""); p != std::string::npos; p = svg.find("font-size=\"", p + 1)) {
    INFO(svg.substr(p, 40));
    CHECK(std::stod(svg.substr(p + 11, 4)) >= 9);
  }
  CHECK_THAT(obs, Catch::Contains("font-size=\"13\" font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\">10</text>"));  // Arrakeen's 10
  CHECK_THAT(obs, Catch::Contains("font-size=\"13\" text-anchor=\"middle\" fill=\"#3e2723\" fill-opacity=\"0.8\" pointer-events=\"none\" font-weight=\"bold\">Arrakeen</text>"));
  s.winners = 1u << static_cast<int>(Faction::Atreides);
  s.victory_kind = 1;
  CHECK_THAT(inspect::render_svg(s, inspect::Viewer::observer()), Catch::Contains("Winners: Atreides (stronghold victory)"));
}

TEST_CASE("verify's projection check on view bytes catches a hidden value inside a view", "[tools][projection]") {
  Store S;
  std::string err, room = "leak";
  REQUIRE(store::create_room(*S.st, three(11), &room, &err));
  play(*S.st, room, 11, 40);
  REQUIRE(replay::verify_room(*S.st, room).ok);  // the real views (bytes) hold
  // Every seat is given the Harkonnen's own view: its hand and traitors leak to the others.
  replay::VerifyOptions seats;
  seats.view = [](const GameState& s, inspect::Viewer who) {
    return inspect::build_view(s, who.kind == inspect::Viewer::SeatView ? inspect::Viewer::of(s.seat_of(Faction::Harkonnen)) : who);
  };
  auto r = replay::verify_room(*S.st, room, {}, seats);
  CHECK_FALSE(r.ok);
  CHECK(r.check == "projection");
  CHECK_THAT(r.detail, Catch::Contains("seat"));
  // The observer is given the whole state.
  replay::VerifyOptions observer;
  observer.view = [](const GameState& s, inspect::Viewer who) {
    return inspect::build_view(s, who.kind == inspect::Viewer::Observer ? inspect::Viewer::state() : who);
  };
  r = replay::verify_room(*S.st, room, {}, observer);
  CHECK_FALSE(r.ok);
  CHECK(r.check == "projection");
  CHECK_THAT(r.detail, Catch::Contains("observer"));
  // One hidden number (the Atreides' spice behind the shield) in every view.
  replay::VerifyOptions spice;
  spice.view = [](const GameState& s, inspect::Viewer who) {
    return inspect::build_view(s, who) + std::to_string(s.of(Faction::Atreides).spice);
  };
  r = replay::verify_room(*S.st, room, {}, spice);
  CHECK_FALSE(r.ok);
  CHECK(r.check == "projection");
}

TEST_CASE("verify progress: a status line on a terminal, one summary line otherwise", "[tools]") {
  for (bool tty : {false, true}) {
    std::FILE* f = std::tmpfile();
    REQUIRE(f);
    {
      replay::VerifyProgress p(2, 600, f, tty);
      p.at(256, 299);
      p.room_done(300);
      CHECK_THAT(p.status(), Catch::Contains("1/2 rooms") && Catch::Contains("events/s") && Catch::Contains("ETA"));
      p.at(256, 299);
      p.room_done(300);
      p.finish();
    }
    std::rewind(f);
    std::string text;
    char buf[512];
    while (size_t n = std::fread(buf, 1, sizeof buf, f)) text.append(buf, n);
    std::fclose(f);
    INFO(text);
    CHECK_THAT(text, Catch::Contains("verified 2 room(s), 600 events in "));
    CHECK(std::count(text.begin(), text.end(), '\n') == 1);
    if (!tty) CHECK(text.rfind("verified", 0) == 0);
  }
}
