// The Advanced Stronghold Cards (module stronghold_cards;
// core/cards/stronghold_cards.cpp; docs/cards/stronghold-cards.md).
#include <catch2/catch.hpp>

#include <string>

#include "bots/bot.h"
#include "events/view_generated.h"
#include "inspect/view.h"
#include "support/module_game.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;
using data::TreacheryKind;

namespace {

constexpr auto kAtreides = Faction::Atreides;
constexpr auto kHarkonnen = Faction::Harkonnen;
constexpr int kArrakeenCard = 0, kCarthagCard = 1, kHabbanyaCard = 2, kTabrCard = 3, kTueksCard = 4;

const char* const kStronghold[5] = {"Arrakeen", "Carthag", "Habbanya Sietch", "Sietch Tabr", "Tuek's Sietch"};

data::ModuleSet modules(bool richese = false) {
  return static_cast<data::ModuleSet>(data::module_bit(data::Module::StrongholdCards) |
                                      (richese ? data::module_bit(data::Module::ChoamRichese) : 0));
}

// The Atreides (the aggressor: seat 0, the storm at 17) and the Harkonnen, 5 forces each in the card's
// stronghold, empty hands; `holder` holds that stronghold's card; the battle plans next.
GameState battle_in(int card, Faction holder, bool advanced = false, Rulings r = Rulings::defaults(), bool richese = false) {
  std::initializer_list<Faction> two = {kAtreides, kHarkonnen};
  std::initializer_list<Faction> three = {kAtreides, kHarkonnen, Faction::Richese};
  GameState s = cleared_board_of(game(richese ? three : two, advanced, 7, r, modules(richese)));
  const LocationId l = loc(kStronghold[card]);
  place(s, kAtreides, l, 5);
  place(s, kHarkonnen, l, 5);
  s.stronghold_cards.holder[card] = static_cast<uint8_t>(holder);
  return s;
}
int strength(Faction f, int i) { return data::leader(L(f, i)).strength; }

}  // namespace

TEST_CASE("Stronghold cards: the one occupant at the end of the Mentat Pause holds the card, none while shared or empty",
          "[stronghold_cards]") {
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen, Faction::Fremen}, false, 7, Rulings::defaults(), modules()));
  for (int c = 0; c < 5; ++c) CHECK(s.stronghold_cards.holder[c] == kNoFaction);  // turn 1: nobody yet
  place(s, kAtreides, loc("Arrakeen"), 3);
  place(s, kAtreides, loc("Carthag"), 2);
  place(s, kHarkonnen, loc("Carthag"), 2);
  place(s, kHarkonnen, loc("Tuek's Sietch"), 1);
  rules::Ctx c{s, nullptr};
  rules::enter_phase(c, Phase::MentatPause);
  REQUIRE(s.turn == 2);
  CHECK(s.stronghold_cards.holder[kArrakeenCard] == static_cast<uint8_t>(kAtreides));
  CHECK(s.stronghold_cards.holder[kCarthagCard] == kNoFaction);  // shared: back by its stronghold
  CHECK(s.stronghold_cards.holder[kHabbanyaCard] == kNoFaction);
  CHECK(s.stronghold_cards.holder[kTabrCard] == kNoFaction);
  CHECK(s.stronghold_cards.holder[kTueksCard] == static_cast<uint8_t>(kHarkonnen));
  // Public in every view.
  for (Faction f : {kAtreides, kHarkonnen, Faction::Fremen}) {
    const std::string v = inspect::build_view(s, inspect::Viewer::of(s.seat_of(f)));
    const auto* cards = fb::GetView(v.data())->stronghold_cards();
    REQUIRE(cards);
    REQUIRE(cards->size() == 5);
    CHECK(cards->Get(0)->card()->str() == "Arrakeen");
    REQUIRE(cards->Get(0)->holder());
    CHECK(cards->Get(0)->holder()->str() == "atreides");
    CHECK_FALSE(cards->Get(1)->holder());
  }
  check_projections(s);
  // Without the module: no card changes hands.
  GameState base = cleared_board_of(game({kAtreides, kHarkonnen}, false, 7));
  place(base, kAtreides, loc("Arrakeen"), 3);
  rules::Ctx cb{base, nullptr};
  rules::enter_phase(cb, Phase::MentatPause);
  CHECK(base.stronghold_cards.holder[kArrakeenCard] == kNoFaction);
}

TEST_CASE("Stronghold cards: Arrakeen, the bank pays 2 of its holder's battle spice there", "[stronghold_cards][battle]") {
  for (bool held : {false, true}) {
    INFO(held);
    GameState s = battle_in(kArrakeenCard, held ? kAtreides : static_cast<Faction>(kNoFaction), true);
    set_spice(s, kAtreides, 2);
    const uint8_t kept = give(s, kAtreides, TreacheryKind::Shield);  // a card to keep: the battle waits at KeepCards
    to_plans(s);
    const auto four = plan(L(kAtreides, 0), 4, kNone8, kept, kNone8, 4);
    if (!held) {
      CHECK(rejected(s, kAtreides, four).code == RejectCode::NotEnoughSpice);
      continue;
    }
    CHECK(rejected(s, kAtreides, plan(L(kAtreides, 0), 5, kNone8, kept, kNone8, 5)).code == RejectCode::NotEnoughSpice);
    // The plans offered include the bank's 2 (the Atreides hold 2).
    bool offered = false;
    for (const auto& a : legal_actions(s, s.seat_of(kAtreides)))
      if (const auto* p = a.get_if<action::BattlePlan>(); p && p->spice == 4) offered = true;
    CHECK(offered);
    const int64_t bank = s.bank;
    act(s, kAtreides, four);
    act(s, kHarkonnen, plan(L(kHarkonnen, 0), 0));
    decline_traitors(s);
    REQUIRE(s.phase == Phase::Battle);
    CHECK(s.of(kAtreides).spice == 0);  // 2 paid by the Atreides, 2 by the bank
    CHECK(s.bank == bank + 2);
    // Four forces at full strength: 4 + the leader against the Harkonnen's leader alone.
    CHECK(s.forces_in_location(kHarkonnen, loc("Arrakeen")) == 0);
    check_custody(s);
  }
}

namespace {
// The Atreides (holding `card`'s stronghold card) with `mine` forces against the Harkonnen's `theirs` in
// its stronghold, the plans next.
GameState holder_battle(int card, int mine, int theirs, bool advanced) {
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen}, advanced, 7, Rulings::defaults(), modules()));
  place(s, kAtreides, loc(kStronghold[card]), mine);
  place(s, kHarkonnen, loc(kStronghold[card]), theirs);
  s.stronghold_cards.holder[card] = static_cast<uint8_t>(kAtreides);
  return s;
}
// The plans hard and brutal choose for the Atreides, from their view.
std::vector<action::BattlePlan> hard_and_brutal_plans(const GameState& s) {
  std::vector<action::BattlePlan> out;
  for (auto profile : {bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    const auto in = bots::make_input(s, s.seat_of(kAtreides));
    const Action a = bots::make_bot(profile, 5)->choose(in);
    REQUIRE(bots::is_valid_choice(in, a));
    REQUIRE(a.is<action::BattlePlan>());
    out.push_back(a.as<action::BattlePlan>());
  }
  return out;
}
}  // namespace

TEST_CASE("Stronghold cards: bots count the bank's 2 of the Arrakeen card as free, from their view", "[stronghold_cards][bots]") {
  // The holder, with no spice of its own, 10 forces against 3 in an advanced battle in Arrakeen: the 2 the
  // bank pays give two forces their full strength at no cost, and hard and brutal dial them (counted as
  // their own cost, the 2 were not worth it in a battle this safe).
  GameState s = holder_battle(kArrakeenCard, 10, 3, true);
  set_spice(s, kAtreides, 0);
  to_plans(s);
  for (const auto& p : hard_and_brutal_plans(s)) CHECK(p.spice == 2);
}

TEST_CASE("Stronghold cards: bots play worthless cards in Tuek's Sietch when they hold its card (2 spice each)", "[stronghold_cards][bots]") {
  // 8 forces against 3: were the card's income not counted, brutal would keep its worthless cards out of a
  // battle this safe; each one played is 2 spice from the bank, and hard and brutal play one.
  GameState s = holder_battle(kTueksCard, 8, 3, false);
  give(s, kAtreides, TreacheryKind::Baliset);
  give(s, kAtreides, TreacheryKind::Kulon);
  to_plans(s);
  for (const auto& p : hard_and_brutal_plans(s)) {
    int worthless = 0;
    for (uint8_t c : {p.weapon, p.defense})
      worthless += c != kNone8 && data::treachery_card(c).category == data::TreacheryCategory::Worthless;
    CHECK(worthless >= 1);
  }
}

TEST_CASE("Stronghold cards: Carthag, its holder's defense also counts as a Snooper unless it plays a poison weapon",
          "[stronghold_cards][battle]") {
  // 0: held, a Shield; 1: not held; 2: held, but a poison weapon of its own; 3: held, a Mirror Weapon (no poison weapon played,
  // though it copies the Chaumas)
  for (int variant : {0, 1, 2, 3}) {
    INFO(variant);
    const bool mirror = variant == 3;
    GameState s = battle_in(kCarthagCard, variant == 1 ? static_cast<Faction>(kNoFaction) : kAtreides, false, Rulings::defaults(), mirror);
    const uint8_t shield = give(s, kAtreides, TreacheryKind::Shield);
    const uint8_t poison = give(s, kHarkonnen, TreacheryKind::Chaumas);
    const uint8_t own = variant == 2 ? give(s, kAtreides, TreacheryKind::GomJabbar)
                        : mirror     ? from_cache(s, kAtreides, TreacheryKind::MirrorWeapon)
                                     : kNone8;
    to_plans(s);
    fight(s, plan(L(kAtreides, 0), 1, own, shield), plan(L(kHarkonnen, 0), 1, poison));
    CHECK(dead(s, L(kAtreides, 0)) == (variant == 1 || variant == 2));
    if (mirror) CHECK(dead(s, L(kHarkonnen, 0)));  // the copy of the Chaumas kills
    check_custody(s);
  }
}

TEST_CASE("Stronghold cards: Habbanya Sietch, its holder wins a tie there, against the Juice by ruling habbanya_juice",
          "[stronghold_cards][battle][juice][rulings]") {
  // Equal totals: the Atreides' leader 0 and dial a, the Harkonnen's leader 0 and dial d.
  const int sa = strength(kAtreides, 0), sd = strength(kHarkonnen, 0);
  const int dial_a = std::max(0, sd - sa), dial_d = dial_a + sa - sd;
  auto tie = [&](GameState& s) {
    fight(s, plan(L(kAtreides, 0), dial_a), plan(L(kHarkonnen, 0), dial_d));
  };
  const LocationId h = loc("Habbanya Sietch");
  {  // without a holder the aggressor wins the tie; the defender holding the card wins it
    GameState s = battle_in(kHabbanyaCard, static_cast<Faction>(kNoFaction));
    to_plans(s);
    tie(s);
    CHECK(s.forces_in_location(kHarkonnen, h) == 0);
    GameState t = battle_in(kHabbanyaCard, kHarkonnen);
    to_plans(t);
    tie(t);
    CHECK(t.forces_in_location(kAtreides, h) == 0);
    CHECK(t.forces_in_location(kHarkonnen, h) > 0);
  }
  for (bool defender_juice : {false, true}) {  // the aggressor holds the card, the defender plays the Juice of Sapho
    INFO(defender_juice);
    Rulings r = Rulings::defaults();
    if (defender_juice) REQUIRE(r.set("habbanya_juice", "defender_juice", nullptr));
    GameState s = battle_in(kHabbanyaCard, kAtreides, false, r, true);
    to_plans(s);
    const uint8_t juice = from_cache(s, kHarkonnen, TreacheryKind::JuiceOfSapho);
    act(s, kHarkonnen, play(juice, rules::kJuiceAggressor));
    let_semuta_pass(s);
    tie(s);
    const Faction loser = defender_juice ? kAtreides : kHarkonnen;
    CHECK(s.forces_in_location(loser, h) == 0);
    check_custody(s);
  }
}

TEST_CASE("Stronghold cards: Sietch Tabr, its holder winning there collects the opponent's dial", "[stronghold_cards][battle]") {
  for (bool held : {false, true}) {
    INFO(held);
    GameState s = battle_in(kTabrCard, held ? kAtreides : static_cast<Faction>(kNoFaction));
    to_plans(s);
    const int spice = s.of(kAtreides).spice;
    fight(s, plan(L(kAtreides, 0), 5), plan(L(kHarkonnen, 1), 3));
    REQUIRE(s.forces_in_location(kHarkonnen, loc("Sietch Tabr")) == 0);  // the Atreides won
    CHECK(s.of(kAtreides).spice == spice + (held ? 3 : 0));
    check_custody(s);
  }
}

TEST_CASE("Stronghold cards: Tuek's Sietch, 2 spice for each worthless card its holder plays there, win or lose",
          "[stronghold_cards][battle]") {
  for (bool held : {false, true}) {
    INFO(held);
    GameState s = battle_in(kTueksCard, held ? kAtreides : static_cast<Faction>(kNoFaction));
    const uint8_t w1 = give(s, kAtreides, TreacheryKind::Baliset);
    const uint8_t w2 = give(s, kAtreides, TreacheryKind::JubbaCloak);
    to_plans(s);
    const int spice = s.of(kAtreides).spice;
    fight(s, plan(L(kAtreides, 0), 0, w1, w2), plan(L(kHarkonnen, 0), 5));
    REQUIRE(s.forces_in_location(kAtreides, loc("Tuek's Sietch")) == 0);  // the Atreides lost
    CHECK(s.of(kAtreides).spice == spice + (held ? 4 : 0));
    check_custody(s);
  }
}

TEST_CASE("Stronghold cards: mentat new accepts the module, and self-play games with it run to their end",
          "[stronghold_cards][bots]") {
  CHECK_FALSE(data::check_factions_and_modules({kAtreides, kHarkonnen}, modules()).has_value());
  CHECK(data::module_info(data::Module::StrongholdCards).implemented);
  int ever_held = 0;
  for (auto profile : {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
    INFO(bots::profile_name(profile));
    GameState s = game({kAtreides, kHarkonnen, Faction::Fremen, Faction::Emperor}, true, 11, Rulings::defaults(), modules());
    for (int i = 0; i < 20000 && s.phase != Phase::GameOver; ++i) {
      const uint8_t w = waiting_for(s);
      REQUIRE(w != 0);
      const Seat x = static_cast<Seat>(__builtin_ctz(w));
      const Action a = bots::make_bot(profile, 5 + i)->choose(bots::make_input(s, x));
      act(s, s.faction_at(x), a);
    }
    check_custody(s);
    int held = 0;
    for (int c = 0; c < 5; ++c) held += s.stronghold_cards.holder[c] != kNoFaction ? 1 : 0;
    INFO("phase " << static_cast<int>(s.phase) << " step " << static_cast<int>(s.step) << " turn " << static_cast<int>(s.turn));
    CHECK(s.phase == Phase::GameOver);
    ever_held += held;
  }
  CHECK(ever_held > 0);  // the cards changed hands in these games
}

TEST_CASE("Stronghold cards: bots ship for the card worth most to them, Tuek's Sietch with worthless cards in hand, else Sietch Tabr",
          "[stronghold_cards][bots]") {
  // The Harkonnen hold Arrakeen, Carthag and Habbanya Sietch in force; Sietch Tabr and Tuek's Sietch are empty. With two
  // worthless cards in hand, Tuek's card (2 spice for each played there) is worth more than Sietch Tabr's (the
  // opponent's dial); without them, less. Medium, hard and brutal ship where the card is worth more, from their view.
  for (bool worthless : {false, true}) {
    GameState s = cleared_board_of(game({kAtreides, kHarkonnen}, false, 7, Rulings::defaults(), modules()));
    for (const char* t : {"Arrakeen", "Carthag", "Habbanya Sietch"}) place(s, kHarkonnen, loc(t), 6);
    if (worthless) {
      give(s, kAtreides, TreacheryKind::Baliset);
      give(s, kAtreides, TreacheryKind::Kulon);
    }
    pass_until_ship_or_move(s, kAtreides);
    REQUIRE(s.step == 0);
    for (auto profile : {bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal}) {
      INFO(bots::profile_name(profile) << (worthless ? " with worthless cards" : " without"));
      const auto in = bots::make_input(s, s.seat_of(kAtreides));
      const Action a = bots::make_bot(profile, 5)->choose(in);
      REQUIRE(bots::is_valid_choice(in, a));
      REQUIRE(a.is<action::Ship>());
      CHECK(data::territory(data::territory_of(a.as<action::Ship>().to)).name == std::string(worthless ? "Tuek's Sietch" : "Sietch Tabr"));
    }
  }
}

namespace {
// An advanced battle of the Atreides (the aggressor) and the Harkonnen in `card`'s stronghold, `atreides` and
// `harkonnen` forces; `holder` (or nobody) holds the card; `shield`: the bot holds a Shield and its opponent a
// Chaumas. The plan `profile` chooses for `bot`, from its view.
action::BattlePlan card_plan(int card, int atreides, int harkonnen, Faction bot, bool held, bool shield, bots::Profile profile) {
  GameState s = cleared_board_of(game({kAtreides, kHarkonnen}, true, 7, Rulings::defaults(), modules()));
  place(s, kAtreides, loc(kStronghold[card]), atreides);
  place(s, kHarkonnen, loc(kStronghold[card]), harkonnen);
  const Faction other = bot == kAtreides ? kHarkonnen : kAtreides;
  if (shield) {
    give(s, bot, TreacheryKind::Shield);
    give(s, other, TreacheryKind::Chaumas);
  }
  if (held) s.stronghold_cards.holder[card] = static_cast<uint8_t>(bot);
  to_plans(s);
  const auto in = bots::make_input(s, s.seat_of(bot));
  const Action a = bots::make_bot(profile, 5)->choose(in);
  REQUIRE(bots::is_valid_choice(in, a));
  REQUIRE(a.is<action::BattlePlan>());
  return a.as<action::BattlePlan>();
}
}  // namespace

TEST_CASE("Stronghold cards: bots fight for a tie in Habbanya Sietch when they hold its card, as the defender", "[stronghold_cards][bots]") {
  // The Harkonnen defend; a tie is theirs only with the card. Outnumbered (3 against 6 for hard, 5 against 6 for
  // brutal), they give the battle up without it and fight for the tie with it.
  for (bool held : {false, true}) {
    INFO(held);
    CHECK((card_plan(kHabbanyaCard, 6, 3, kHarkonnen, held, false, bots::Profile::Hard).dial > 0) == held);
    CHECK((card_plan(kHabbanyaCard, 6, 5, kHarkonnen, held, false, bots::Profile::Brutal).dial > 0) == held);
  }
}

TEST_CASE("Stronghold cards: hard and brutal fight in Carthag behind a Shield that stops poison when they hold the card", "[stronghold_cards][bots]") {
  // The Harkonnen defend, 6 against 6, a Shield in hand: without the card hard gives the battle up; with it the
  // Shield also stops poison and hard fights behind it.
  for (bool held : {false, true}) {
    INFO(held);
    const auto p = card_plan(kCarthagCard, 6, 6, kHarkonnen, held, true, bots::Profile::Hard);
    CHECK((p.dial == 6) == held);
    CHECK((p.defense != kNone8 && data::treachery_card(p.defense).kind == TreacheryKind::Shield) == held);
    // Brutal attacking 2 against 4 behind the Shield: its leader safer with the card, it pays for full strength.
    CHECK((card_plan(kCarthagCard, 2, 4, kAtreides, held, true, bots::Profile::Brutal).spice > 0) == held);
  }
}

TEST_CASE("Stronghold cards: hard and brutal pay for full strength in Sietch Tabr when it holds the card (the opponent's dial is its prize)",
          "[stronghold_cards][bots]") {
  for (bool held : {false, true}) {
    INFO(held);
    CHECK((card_plan(kTabrCard, 6, 6, kAtreides, held, true, bots::Profile::Brutal).spice > 0) == held);
    CHECK((card_plan(kTabrCard, 4, 4, kHarkonnen, held, true, bots::Profile::Hard).spice > 0) == held);  // hard, defending
  }
}
