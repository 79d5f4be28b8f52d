// Foundation tests: events, determinism, store, custody, views, rulings.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <flatbuffers/flatbuffers.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/engine.h"
#include "events/codec.h"
#include "events/mentat_generated.h"
#include "inspect/custody.h"
#include "inspect/view.h"
#include "replay/fold.h"
#include "store/room.h"
#include "support/random_play.h"

using namespace mentat;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    static std::atomic<int> n{0};
    path = fs::temp_directory_path() / ("mentat-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

GameSetup six(uint64_t seed, bool advanced = false) {
  GameSetup g;
  g.seed = seed;
  g.advanced = advanced;
  g.factions = {Faction::Atreides, Faction::BeneGesserit, Faction::Emperor, Faction::Fremen, Faction::Harkonnen, Faction::Guild};
  return g;
}

codec::Event sample_event() {
  codec::Event e;
  e.version = 17;
  e.seat = 3;
  e.action = action::Move{.from = {Placement{5, 3, 1}, Placement{6, 2, 0}}, .to = 9};
  e.client_action_id = "client-17";
  e.draws = {{DrawKind::DrawTreachery, 12}, {DrawKind::StormMove, 4}};
  e.state_hash = 0x1234567890abcdefULL;
  return e;
}

}  // namespace

TEST_CASE("event round-trips through FlatBuffers", "[events]") {
  auto e = sample_event();
  const std::string bytes = codec::encode_event(e);
  codec::Event d;
  std::string err;
  REQUIRE(codec::decode_event(bytes, &d, &err));
  CHECK(d.version == 17);
  CHECK(d.seat == 3);
  CHECK(d.action == e.action);
  CHECK(d.client_action_id == "client-17");
  CHECK(d.draws == e.draws);
  CHECK(d.state_hash == e.state_hash);
  CHECK(d.engine_version == kEngineVersion);
  CHECK(codec::encode_event(d) == bytes);  // canonical

  codec::Event c;
  c.action = action::CreateGame{};
  c.setup = six(99, true);
  REQUIRE(c.setup.rulings.set("bribe_timing", "immediate", &err));
  codec::Event cd;
  REQUIRE(codec::decode_event(codec::encode_event(c), &cd, &err));
  CHECK(cd.setup.seed == 99);
  CHECK(cd.setup.advanced);
  CHECK(cd.setup.factions == c.setup.factions);
  CHECK(cd.setup.rulings.is(RulingId::BribeTiming, 1));
}

// One action of every kind with every field away from its default: the
// typed actions (core/action.h) map field by field onto their schema tables.
std::vector<Action> one_of_each_kind() {
  Rulings r = Rulings::defaults();
  std::string err;
  REQUIRE(r.set("bribe_timing", "immediate", &err));
  return {action::SelectTraitor{.leader = 7},
          action::Predict{.faction = 2, .turn = 4},
          action::PlaceForces{.placements = {Placement{1, 2, 3}, Placement{4, 5, 6}}},
          action::DialStorm{.value = 3},
          action::Pass{},
          action::ClaimCharity{},
          action::Bid{.amount = 9, .karama = true, .card = 12},
          action::Revive{.forces = 2, .special = 1, .leader = 8},
          action::Ship{.to = 10, .forces = 3, .special = 2, .from = 11, .to_reserves = true, .advisors = true, .ally_pays = 300, .no_field = 5},
          action::Move{.from = {Placement{5, 3, 1}, Placement{6, 2, 0}}, .to = 9, .flip = true},
          action::ProposeAlliance{.with = 3},
          action::AcceptAlliance{.with = 4},
          action::BreakAlliance{},
          action::Bribe{.to = 5, .amount = 700, .note = "for the worm"},
          action::Deal{.with = {1, 2}, .text = "no attack on Arrakeen"},
          action::PlayCard{.card = 20, .target = 3, .value = 17},
          action::Respond{.accept = true, .card = 21},
          action::SendSpiritualAdvisor{.to = 13},
          action::Flip{.location = 14},
          action::GuildTiming{.now = true},
          action::WormRide{.to = 15, .forces = 4, .special = 1},
          action::BattlePlan{.leader = 6, .cheap_hero = 30, .weapon = 1, .defense = 2, .dial = 5, .spice = 3, .kwisatz_haderach = true, .ally_pays = 2, .skill_spice = 3},
          action::ChooseBattle{.territory = 16, .opponent = 5},
          action::CallTraitor{.call = true},
          action::SetRulings{.rulings = r},
          action::Prescience{.element = 2},
          action::PrescienceAnswer{.value = 104},
          action::Voice{.must = true, .kind = 78},
          action::GiveSpice{.to = 3, .amount = 6},
          action::KeepCards{.keep = {4, 9, 22}},
          action::AllyPermission{.shipment = 5, .bids = 2},
          action::ChoamSell{.card = 28},
          action::ChoamInflation{.side = 2},
          action::ChoamCard{.card = 31, .faction = 3, .location = 40},
          action::ChoamTrade{.card = 7},
          action::ChoamSupport{.battle = 9},
          action::ChoamKarama{.karama = 12, .cards = {28, 30}},
          action::RicheseLot{.card = 36, .auction = 3},
          action::RicheseCacheTiming{.first = true},
          action::RicheseBuy{.karama = 35, .card = 40},
          action::RicheseGift{.card = 38},
          action::RicheseReveal{},
          action::AssignSkill{.skill = 5, .leader = 7},
          action::MentatQuestion{.weapon = 14},
          action::MentatAnswer{.card = 19},
          action::DecipherTraitor{.take = 9, .give = 3},
          action::SkillBehind{.leader = 11}};
}

TEST_CASE("every typed action kind round-trips through bytes and JSON, field by field", "[events]") {
  // A value the fold copies per event and legal_actions per candidate: small
  // (the largest alternatives are Move, Deal and Bribe; SetRulings holds its table on the heap; docs/ARCHITECTURE.md).
  CHECK(sizeof(Action) <= 48);
  const auto actions = one_of_each_kind();
  CHECK(static_cast<int>(actions.size()) == kMaxActionKind - 1);  // all but None and CreateGame
  for (const auto& a : actions) {
    INFO(action_kind_name(a.kind()) << " " << codec::action_to_json(a));
    const bool fields = a.kind() != ActionKind::Pass && a.kind() != ActionKind::ClaimCharity && a.kind() != ActionKind::BreakAlliance &&
                        a.kind() != ActionKind::RicheseReveal;
    if (fields) CHECK(a != Action::of_kind(a.kind()));
    CHECK(Action::of_kind(a.kind()).kind() == a.kind());
    codec::Event e;
    e.version = 3;
    e.seat = 1;
    e.action = a;
    const std::string bytes = codec::encode_event(e);
    codec::Event d;
    std::string err;
    REQUIRE(codec::decode_event(bytes, &d, &err));
    CHECK(d.action == a);
    CHECK(codec::encode_event(d) == bytes);
    Action j;
    REQUIRE(codec::parse_action_json(codec::action_to_json(a), &j, nullptr, &err));
    CHECK(j == a);
  }
  // A default-constructed kind carries the schema's defaults (as decoded from an empty table).
  for (int k = 2; k <= kMaxActionKind; ++k) {
    const auto kind = static_cast<ActionKind>(k);
    INFO(action_kind_name(kind));
    Action j;
    std::string err;
    REQUIRE(codec::parse_action_json(R"({"action_type":")" + std::string(action_kind_name(kind)) + R"(","action":{}})", &j, nullptr, &err));
    if (kind == ActionKind::SetRulings) continue;  // decoded rulings are the defaults, a fresh Rulings is zero
    CHECK(j == Action::of_kind(kind));
  }
}

TEST_CASE("the decoder rejects garbage, truncated bytes and unknown union tags", "[events]") {
  std::string err;
  codec::Event d;
  CHECK_FALSE(codec::decode_event("", &d, &err));
  CHECK_FALSE(codec::decode_event("this is not a flatbuffer at all", &d, &err));
  const std::string bytes = codec::encode_event(sample_event());
  for (size_t n = 0; n < bytes.size(); ++n) {
    INFO("prefix of " << n << " bytes");
    // Losing only trailing alignment padding loses no data: then the event
    // must decode to exactly the original. Anything else is rejected.
    if (codec::decode_event(bytes.substr(0, n), &d, &err)) CHECK(codec::encode_event(d) == bytes);
    if (n < bytes.size() - 8) CHECK_FALSE(codec::decode_event(bytes.substr(0, n), &d, &err));
  }
  // A union tag this build does not know: the generated verifier passes it.
  flatbuffers::FlatBufferBuilder b;
  auto table = fb::CreatePass(b).Union();
  auto ev = fb::CreateEvent(b, 1, 0, static_cast<fb::Action>(99), table);
  fb::FinishEventBuffer(b, ev);
  std::string unknown(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
  flatbuffers::Verifier v(b.GetBufferPointer(), b.GetSize());
  CHECK(fb::VerifyEventBuffer(v));  // the library alone would accept it
  CHECK_FALSE(codec::decode_event(unknown, &d, &err));
  CHECK_THAT(err, Catch::Contains("unknown action kind"));
}

TEST_CASE("action JSON is parsed through the schema", "[events]") {
  Action a;
  std::string err;
  REQUIRE(codec::parse_action_json(R"({"action_type":"Bid","action":{"amount":4}})", &a, nullptr, &err));
  CHECK(a.kind() == ActionKind::Bid);
  CHECK(a.as<action::Bid>().amount == 4);
  REQUIRE(codec::parse_action_json(R"({"action_type":"Move","action":{"from":[{"location":3,"forces":2,"special":0}],"to":7}})", &a, nullptr, &err));
  CHECK(a.as<action::Move>().from.size() == 1);
  CHECK(a.as<action::Move>().from[0].forces == 2);
  CHECK(a.as<action::Move>().to == 7);
  CHECK_FALSE(codec::parse_action_json(R"({"action_type":"Bid","action":{"amount":"x"}})", &a, nullptr, &err));
  CHECK_FALSE(codec::parse_action_json(R"({"action_type":"NoSuchThing","action":{}})", &a, nullptr, &err));
  CHECK_FALSE(codec::parse_action_json(R"({"action":{}})", &a, nullptr, &err));
  CHECK_FALSE(codec::parse_action_json("not json", &a, nullptr, &err));
}

TEST_CASE("action kinds 30-32 and the appended Ship and Move fields round-trip through JSON and bytes", "[events]") {
  CHECK(static_cast<int>(ActionKind::GiveSpice) == 30);
  CHECK(static_cast<int>(ActionKind::KeepCards) == 31);
  CHECK(static_cast<int>(ActionKind::AllyPermission) == 32);
  CHECK(action_kind_name(ActionKind::AllyPermission) == "AllyPermission");
  const char* json[] = {
      R"({"action_type":"GiveSpice","action":{"to":"Fremen","amount":3}})",
      R"({"action_type":"KeepCards","action":{"keep":[12,7]}})",
      R"({"action_type":"AllyPermission","action":{"shipment":5,"bids":2}})",
      R"({"action_type":"Ship","action":{"to":0,"forces":5,"ally_pays":2}})",
      R"({"action_type":"Move","action":{"from":[{"location":3,"forces":0,"special":2}],"to":7,"flip":true}})",
  };
  std::vector<Action> parsed;
  for (const char* j : json) {
    Action a;
    std::string err;
    INFO(j << ": " << err);
    REQUIRE(codec::parse_action_json(j, &a, nullptr, &err));
    codec::Event e;
    e.version = 5;
    e.seat = 1;
    e.action = a;
    codec::Event d;
    REQUIRE(codec::decode_event(codec::encode_event(e), &d, &err));
    CHECK(d.action == a);
    parsed.push_back(a);
  }
  CHECK(parsed[0].as<action::GiveSpice>().to == static_cast<uint8_t>(Faction::Fremen));
  CHECK(parsed[0].as<action::GiveSpice>().amount == 3);
  CHECK(parsed[1].as<action::KeepCards>().keep.size() == 2);
  CHECK(parsed[1].as<action::KeepCards>().keep[1] == 7);
  CHECK(parsed[2].as<action::AllyPermission>().shipment == 5);
  CHECK(parsed[2].as<action::AllyPermission>().bids == 2);
  CHECK(parsed[3].as<action::Ship>().ally_pays == 2);
  CHECK(parsed[4].as<action::Move>().flip);
  Action a;
  std::string err;
  CHECK_FALSE(codec::parse_action_json(R"({"action_type":"KeepCards","action":{"keep":[1,2,3,4,5]}})", &a, nullptr, &err));
}

TEST_CASE("the PRNG, bounded draw and shuffle give fixed results", "[determinism]") {
  Rng r = Rng::from_seed(42);
  // Golden values: any change here changes every stored game.
  const uint64_t first = r.next();
  Rng r2 = Rng::from_seed(42);
  CHECK(r2.next() == first);
  Rng a = Rng::from_seed(1);
  uint8_t items[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  a.shuffle(std::span<uint8_t>(items, 10));
  uint8_t again[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  Rng b = Rng::from_seed(1);
  b.shuffle(std::span<uint8_t>(again, 10));
  CHECK(std::equal(items, items + 10, again));
  CHECK_FALSE(std::is_sorted(items, items + 10));
  int counts[6] = {};
  Rng c = Rng::from_seed(5);
  for (int i = 0; i < 60000; ++i) ++counts[c.below(6)];
  for (int k : counts) CHECK((k > 9500 && k < 10500));
  // The reference output of xoshiro256** seeded through splitmix64(0).
  Rng z = Rng::from_seed(0);
  CHECK(z.s[0] == 0xe220a8397b1dcdafULL);
}

TEST_CASE("the canonical state encoding round-trips exactly", "[determinism]") {
  GameState s = create_game(six(11, true), nullptr);
  std::string why;
  REQUIRE(testplay::play(s, 3, 200, nullptr, &why));
  const std::string enc = codec::encode_state(s);
  GameState d;
  std::string err;
  REQUIRE(codec::decode_state(enc, &d, &err));
  CHECK(codec::encode_state(d) == enc);
  CHECK(codec::state_hash(d) == codec::state_hash(s));
  CHECK(std::memcmp(&d.forces, &s.forces, sizeof s.forces) == 0);
  CHECK_FALSE(codec::decode_state(enc.substr(0, enc.size() / 2), &d, &err));
  CHECK_FALSE(codec::decode_state("garbage-garbage-garbage", &d, &err));
  // Rulings are encoded as the ones that differ from their defaults (state
  // format 4): a changed ruling changes the hash and round-trips.
  GameState r = s;
  r.rulings.value[static_cast<int>(RulingId::PassedBidder)] = 1;
  CHECK(codec::state_hash(r) != codec::state_hash(s));
  const std::string renc = codec::encode_state(r);
  REQUIRE(codec::decode_state(renc, &d, &err));
  CHECK(d.rulings == r.rulings);
  CHECK(codec::encode_state(d) == renc);
}

TEST_CASE("same events give the same state hashes, a different seed does not", "[determinism]") {
  auto run = [](uint64_t seed) {
    GameState s = create_game(six(seed), nullptr);
    std::vector<uint64_t> hashes;
    std::string why;
    REQUIRE(testplay::play(s, seed, 400, [&](const GameState& st, const testplay::Step&) { hashes.push_back(codec::state_hash(st)); }, &why));
    return hashes;
  };
  CHECK(run(5) == run(5));
  CHECK(run(5) != run(6));
}

TEST_CASE("custody: every component is in exactly one place", "[custody]") {
  GameState s = create_game(six(3, true), nullptr);
  auto entries = inspect::enumerate_custody(s);
  std::map<std::pair<int, int>, int> seen;
  for (const auto& e : entries) ++seen[{static_cast<int>(e.kind), e.id}];
  CHECK(seen.size() == entries.size());
  CHECK(entries.size() == 33 + 21 + 30 + 30 + 6);  // treachery, spice, traitors, leaders, storm cards
  CHECK_FALSE(inspect::check_invariants(s).has_value());

  GameState dup = s;  // a duplicated card
  dup.treachery_discard.push(dup.treachery_deck.ids[0]);
  auto v = inspect::check_invariants(dup);
  REQUIRE(v.has_value());
  CHECK(v->invariant == "custody");

  GameState lost = s;  // a vanished force
  lost.of(Faction::Atreides).reserves[0] -= 1;
  v = inspect::check_invariants(lost);
  REQUIRE(v.has_value());
  CHECK(v->invariant == "forces");

  GameState minted = s;  // spice from nowhere
  minted.of(Faction::Emperor).spice += 1;
  v = inspect::check_invariants(minted);
  REQUIRE(v.has_value());
  CHECK(v->invariant == "spice");
}

TEST_CASE("random legal play keeps every invariant (property)", "[property]") {
  rc::prop("invariants hold after every event", [](uint32_t seed, uint8_t players, bool advanced) {
    const int n = 2 + players % 5;
    GameState s = create_game(testplay::setup_for(seed, n, advanced), nullptr);
    std::string why;
    std::string broken;
    bool ok = testplay::play(s, seed, 1500, [&](const GameState& st, const testplay::Step&) {
      if (!broken.empty()) return;
      if (auto v = inspect::check_invariants(st)) broken = v->invariant + ": " + v->detail;
    }, &why);
    RC_LOG() << why << broken;
    RC_ASSERT(ok);
    RC_ASSERT(broken.empty());
  });
}

TEST_CASE("views hide what a seat may not know", "[views]") {
  GameState s = create_game(six(21), nullptr);
  const Seat atreides = s.seat_of(Faction::Atreides);
  const std::string mine = inspect::view_json(s, inspect::Viewer::of(atreides));
  const std::string obs = inspect::view_json(s, inspect::Viewer::observer());
  const auto& hark_card = data::treachery_card(s.of(Faction::Harkonnen).hand.ids[0]);
  const auto& own_card = data::treachery_card(s.of(Faction::Atreides).hand.ids[0]);
  CHECK_THAT(mine, Catch::Contains(std::string(own_card.name)));
  CHECK_THAT(obs, !Catch::Contains("\"hand\""));
  CHECK_THAT(obs, !Catch::Contains("\"traitor_offer\""));
  CHECK_THAT(mine, !Catch::Contains("\"treachery_deck\""));
  CHECK_THAT(inspect::view_json(s, inspect::Viewer::state()), Catch::Contains("\"treachery_deck\""));
  (void)hark_card;

  // Projection invariance: permuting what other seats hide leaves the view alone.
  GameState t = s;
  auto& hk = t.of(Faction::Harkonnen);
  std::swap(hk.hand.ids[0], t.treachery_deck.ids[0]);
  std::swap(hk.traitors.ids[0], t.traitor_deck.ids[0]);
  t.of(Faction::Emperor).spice = static_cast<uint16_t>(t.of(Faction::Emperor).spice + 3);
  t.bank -= 3;
  REQUIRE_FALSE(inspect::check_invariants(t).has_value());
  CHECK(inspect::view_json(t, inspect::Viewer::of(atreides)) == mine);
  CHECK(inspect::view_json(t, inspect::Viewer::observer()) == obs);
  CHECK(inspect::view_json(t, inspect::Viewer::of(s.seat_of(Faction::Harkonnen))) !=
        inspect::view_json(s, inspect::Viewer::of(s.seat_of(Faction::Harkonnen))));
}

// The store contract (append, idempotency, snapshots, verify, forks, secrets):
// tests/store_contract.inc, run on each backend.

TEST_CASE("a damaged database fails to open with a clear error", "[store]") {
  TempDir dir;
  std::string err;
  {
    auto st = store::EventStore::open(dir.path.string(), {}, &err);
    REQUIRE(st);
    std::string room = "d";
    REQUIRE(store::create_room(*st, six(1), &room, &err));
  }
  for (const auto& entry : fs::directory_iterator(dir.path)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("MANIFEST", 0) == 0) {
      std::ofstream f(entry.path(), std::ios::binary | std::ios::trunc);
      f << "garbage garbage garbage";
    }
  }
  auto st = store::EventStore::open(dir.path.string(), {}, &err);
  CHECK_FALSE(st);
  CHECK_THAT(err, Catch::Contains("cannot open the store"));
}

TEST_CASE("every ruling is documented in docs/RULINGS.md", "[rulings]") {
  std::ifstream f(std::string(MENTAT_SOURCE_DIR) + "/docs/RULINGS.md");
  REQUIRE(f.good());
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  for (const auto& info : ruling_registry()) {
    INFO(info.key);
    CHECK_THAT(text, Catch::Contains("`" + std::string(info.key) + "`"));
    for (auto v : info.values) CHECK_THAT(text, Catch::Contains("`" + std::string(v) + "`"));
  }
  Rulings r = Rulings::defaults();
  std::string err;
  CHECK_FALSE(r.set("no_such_ruling", "x", &err));
  CHECK_FALSE(r.set("bribe_timing", "whenever", &err));
  CHECK_THAT(err, Catch::Contains("mentat_pause"));
}
