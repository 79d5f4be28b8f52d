// The Advanced Stronghold Cards (CHOAM & Richese, module stronghold_cards;
// docs/cards/stronghold-cards.md; reference choam-richese.json
// advanced_stronghold_cards). One card per stronghold, face up: public.
//
// Who holds them (holders_change, on the game event TurnEnds: the Mentat
// Pause ends and the game goes on): the one faction occupying the
// stronghold then holds its card; a stronghold with no occupant or several
// (allies included) gives its card back to the stronghold. So no card is held
// during turn 1, and a card is held for the whole next turn whatever happens
// to the stronghold meanwhile (both programs: the ownership is decided at the
// end of the Mentat Pause).
//
// A card acts only in a battle in its stronghold, for its holder when the
// holder fights it (battle.cpp asks):
//  * Arrakeen (stronghold_battle_discount): of the spice its holder pays for
//    its forces in the battle (1.13.04, advanced), 2 is paid by the bank: the
//    plan may back its dial with up to 2 more than the holder's spice; the
//    bank pays first, then the ally's part (CHOAM's alliance support) and the
//    holder the rest; the bank's part still counts as paid (the advanced
//    CHOAM's half of it too, as DuneBot reads it).
//  * Carthag (defense_counts_as_snooper): when its holder plays no poison
//    weapon (the card played: a Mirror Weapon is none, even copying one, as
//    treachery.online reads "HasPoison") and plays a defense, that defense
//    also counts as a Snooper (it stops poison).
//  * Habbanya Sietch (stronghold_tie_side): its holder wins a tie, despite
//    the storm order; against the Juice of Sapho, ruling habbanya_juice
//    (battle.cpp tie_side).
//  * Sietch Tabr (battle_decided, on the game event BattleDecided): its holder, winning the
//    battle, collects from the bank the opponent's dial (its value in the
//    battle, rounded down).
//  * Tuek's Sietch (battle_decided): its holder collects 2
//    spice from the bank for each worthless card its plan played (weapon and
//    defense slots), whatever the outcome.
// The Hidden Mobile Stronghold's card (id 5) belongs to Ixians & Tleilaxu: not
// in play.
#include "core/cards/card_rules.h"
#include "core/rules/owners.h"

namespace mentat::rules {
namespace {

constexpr int kArrakeenCard = 0, kCarthagCard = 1, kHabbanyaCard = 2, kTabrCard = 3, kTueksCard = 4;
constexpr int kCardsInSet = 5;  // the CHOAM & Richese set (the HMS card, id 5, is not)

TerritoryId card_territory(int card) {
  static const TerritoryId t[kCardsInSet] = {
      *data::find_territory("Arrakeen"), *data::find_territory("Carthag"), *data::find_territory("Habbanya Sietch"),
      *data::find_territory("Sietch Tabr"), *data::find_territory("Tuek's Sietch")};
  return t[card];
}

// The side (0 aggressor, 1 defender) of the battle being fought that holds
// `card` in its stronghold, or -1.
int holder_side(const GameState& s, int card) {
  const auto& b = s.battle;
  if (!s.uses(data::Module::StrongholdCards) || s.phase != Phase::Battle || b.territory != card_territory(card)) return -1;
  if (b.aggressor < 0 || b.defender < 0) return -1;
  const uint8_t h = s.stronghold_cards.holder[card];
  if (h == s.seat_faction[b.aggressor]) return 0;
  if (h == s.seat_faction[b.defender]) return 1;
  return -1;
}

Faction side_faction(const GameState& s, int side) { return s.faction_at(side == 0 ? s.battle.aggressor : s.battle.defender); }


}  // namespace

namespace {
// Game event TurnEnds: the holders for the next turn.
void holders_change(GameState& s, const TurnEnds&) {
  for (int c = 0; c < kCardsInSet; ++c) {
    uint8_t only = kNoFaction;
    int occupants = 0;
    for (Seat seat = 0; seat < s.num_seats; ++seat) {
      const Faction f = s.faction_at(seat);
      if (!occupies(s, f, card_territory(c))) continue;
      ++occupants;
      only = static_cast<uint8_t>(f);
    }
    s.stronghold_cards.holder[c] = occupants == 1 ? only : kNoFaction;
  }
}
}  // namespace

int stronghold_battle_discount(const GameState& s, Faction f) {
  const int side = holder_side(s, kArrakeenCard);
  return side >= 0 && side_faction(s, side) == f ? 2 : 0;
}

bool defense_counts_as_snooper(const GameState& s, Faction f, const BattlePlanState& played) {
  const int side = holder_side(s, kCarthagCard);
  if (side < 0 || side_faction(s, side) != f) return false;
  if (is_category(played.weapon, data::TreacheryCategory::WeaponPoison)) return false;
  return is_category(played.defense, data::TreacheryCategory::DefenseProjectile) ||
         is_category(played.defense, data::TreacheryCategory::DefensePoison);
}

int stronghold_tie_side(const GameState& s) { return holder_side(s, kHabbanyaCard); }

namespace {
// Game event BattleDecided: Tuek's Sietch pays 2 per worthless card its holder
// played; Sietch Tabr pays its winning holder the loser's dial (half units in).
void battle_decided(GameState& s, const BattleDecided& e) {
  const int winner = e.winner;
  const BattlePlanState* plans = e.plans;
  const int loser_dial2 = e.loser_dial2;
  if (const int side = holder_side(s, kTueksCard); side >= 0) {
    int worthless = 0;
    for (const uint8_t card : {plans[side].weapon, plans[side].defense})
      worthless += is_category(card, data::TreacheryCategory::Worthless) ? 1 : 0;
    if (worthless > 0) transfer_spice(s, bank(), shield(side_faction(s, side)), 2 * worthless);
  }
  if (const int side = holder_side(s, kTabrCard); side >= 0 && side == winner && loser_dial2 >= 2)
    transfer_spice(s, bank(), shield(side_faction(s, side)), loser_dial2 / 2);
}
}  // namespace

namespace {
bool stronghold_cards_in_game(const GameState& s) { return s.uses(data::Module::StrongholdCards); }
constexpr Subscription kSubscriptions[] = {on<TurnEnds, holders_change>(), on<BattleDecided, battle_decided>()};
}  // namespace
constinit const Owner kStrongholdCardsOwner{"stronghold_cards", OwnerKind::StrongholdCard, stronghold_cards_in_game, kSubscriptions, {}};

}  // namespace mentat::rules
