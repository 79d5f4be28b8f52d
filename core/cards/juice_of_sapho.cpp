// Juice of Sapho (CHOAM & Richese, a Richese card; docs/cards/richese-cards.md).
//
// PlayCard{card = Juice of Sapho, value = 1 "aggressor" | 2 "go_first" |
// 3 "go_last"}: the holder chooses one, the card is discarded, and the
// choice is recorded in GameState::juice (public) for the turn and phase it
// was played in (the aggressor choice: for the battle being fought). Once per
// phase (a Semuta Drug may bring the card back: a second play in the same
// phase is refused).
//
//  * aggressor: in the Battle phase, by the defender of the battle being
//    fought, from the battle's start until it is resolved (ruling
//    juice_aggressor_timing: `until_resolved`, both programs; `before_reveal`
//    ends the chance as the plans are revealed); its player is considered the aggressor: it wins a tie
//    (1.07.06.01; battle.cpp asks juice_tie_side). The seats keep their plan
//    slots (`aggressor`/`defender` in the view stay the seats the storm order
//    made), the view's `juice` says who counts as the aggressor.
//  * go_first / go_last: the seat goes first or last in this phase's turn
//    order (rules::order_from_first, common.cpp), "last" even after the
//    Guild's held turn (2.06.12). Where and when:
//      - Bidding: go_first before the phase's first regular auction has had a
//        bid or a pass (the first card up for bid is then opened by the
//        player); go_last at any time in the phase (the rotation of openers
//        and bidders follows the new order; a Richese once-around lot keeps
//        its own order, which starts from Richese).
//      - Shipment and Movement: go_first before anyone has shipped, moved or
//        played Hajr or a Karama this phase (the first turn is handed to the
//        player, the Guild is not asked to go before it); go_last while the
//        player has not had its turn, or at its own turn before acting (the
//        turn passes on).
//      - Battle: go_first while no battle of the phase has begun (an
//        aggressor choosing its first battle: while juice_may_go_first says
//        the card may be out, battle.cpp asks the first aggressor to confirm
//        even a single battle, so that the moment exists for everyone);
//        go_last while the player has not yet been the aggressor (the seat
//        choosing its battle included: the next seat takes its turn).
//      - elsewhere: refused (the Mentat Pause checks victory as it begins,
//        before anyone could play the card: named partial in the docs).
#include "core/cards/card_rules.h"
#include "core/rules/shipment_movement.h"

namespace mentat::rules {
namespace {

using data::TreacheryKind;

constexpr uint8_t kBeforeReveal = 1;  // RulingId::JuiceAggressorTiming

std::optional<Rejection> check_aggressor(const GameState& s, Seat seat) {
  const auto& b = s.battle;
  if (s.phase != Phase::Battle || b.territory >= data::kNumTerritories || b.aggressor < 0 || b.defender < 0 || b.winner != 0)
    return reject(RejectCode::WrongPhase, "Juice of Sapho makes you the aggressor in a battle being fought, before it is resolved");
  if (seat == b.aggressor) return reject(RejectCode::IllegalChoice, "you are the aggressor of this battle already");
  if (seat != b.defender) return reject(RejectCode::IllegalChoice, "Juice of Sapho makes you the aggressor in a battle you fight");
  if (s.rulings.is(RulingId::JuiceAggressorTiming, kBeforeReveal) && battle_plans_revealed(s))
    return reject(RejectCode::WrongPhase,
                  "the plans are revealed: Juice of Sapho makes you the aggressor before the reveal (ruling juice_aggressor_timing)");
  return std::nullopt;
}

// Nothing has happened yet in the Shipment and Movement phase's turns.
bool shipment_untouched(const GameState& s) {
  if (s.shipmove.done != 0 || s.shipmove.hajr != 0 || s.karama_shipment != kNoFaction) return false;
  for (const auto& fs : s.f)
    if (fs.shipped || fs.moved) return false;
  return s.shipmove.current == kNoSeat || s.step == ship::kShip || s.step == ship::kGuildTiming;
}

std::optional<Rejection> check_order(const GameState& s, Seat seat, bool first) {
  const char* what = first ? "go first" : "go last";
  switch (s.phase) {
    case Phase::Bidding: {
      if (!first) return std::nullopt;
      const auto& b = s.bidding;
      const bool none_opened = b.opener == kNoSeat;
      const bool first_untouched = s.step == 0 && b.opener != kNoSeat && b.row.n == b.dealt && b.current == b.opener &&
                                   b.passed == 0 && b.high_bidder == kNoSeat;
      if (!none_opened && !first_untouched)
        return reject(RejectCode::WrongPhase, "Juice of Sapho goes first in the Bidding phase before its first bid or pass");
      if (first_untouched && b.opener == seat) return reject(RejectCode::IllegalChoice, "you open the bidding already");
      return std::nullopt;
    }
    case Phase::ShipmentMovement: {
      if (has_bit(s.shipmove.done, seat)) return reject(RejectCode::IllegalChoice, "you have had your turn this phase");
      if (first) {
        if (!shipment_untouched(s))
          return reject(RejectCode::WrongPhase, "Juice of Sapho goes first in Shipment and Movement before anyone has shipped or moved");
        if (s.shipmove.current == seat) return reject(RejectCode::IllegalChoice, "it is your turn already");
        return std::nullopt;
      }
      if (s.shipmove.current == seat) {
        const bool acted = s.of(s.faction_at(seat)).shipped || s.of(s.faction_at(seat)).moved || s.shipmove.hajr != 0 ||
                           s.karama_shipment == static_cast<uint8_t>(s.faction_at(seat)) || s.step != ship::kShip;
        if (acted) return reject(RejectCode::WrongPhase, "your turn has begun: Juice of Sapho goes last before you act");
      }
      return std::nullopt;
    }
    case Phase::Battle: {
      const auto order = order_from_first(s);
      if (first) {
        if (s.step != 0 || s.battle.fought != 0 || s.battle.territory != kNone8)
          return reject(RejectCode::WrongPhase, "Juice of Sapho goes first in the Battle phase before its first battle begins");
        if (s.battle.aggressor_index < order.size() && order[s.battle.aggressor_index] == seat)
          return reject(RejectCode::IllegalChoice, "you are the first aggressor already");
        return std::nullopt;
      }
      size_t at = 0;
      while (at < order.size() && order[at] != seat) ++at;
      // The seat choosing its battle now may still go last (its turn has not begun, as in Shipment and Movement).
      const bool choosing = s.step == 0 && s.battle.territory == kNone8 && s.battle.aggressor == seat && has_bit(s.waiting, seat);
      if (at < s.battle.aggressor_index || (at == s.battle.aggressor_index && !choosing))
        return reject(RejectCode::IllegalChoice, "you have been the aggressor this phase already: Juice of Sapho goes last before your turn");
      return std::nullopt;
    }
    default: break;
  }
  return reject(RejectCode::WrongPhase,
                std::string("Juice of Sapho lets you ") + what + " in the turn order of Bidding, Shipment and Movement, or Battle");
}

std::optional<Rejection> check(const GameState& s, Seat seat, const action::PlayCard& a) {
  if (a.value < kJuiceAggressor || a.value > kJuiceLast)
    return reject(RejectCode::Malformed, "choose the Juice of Sapho's effect (value \"aggressor\", \"go_first\" or \"go_last\")");
  if (s.juice.mode != 0 && s.juice.turn == s.turn && s.juice.phase == static_cast<uint8_t>(s.phase))
    return reject(RejectCode::IllegalChoice, "a Juice of Sapho is in effect this phase already");
  if (a.value == kJuiceAggressor) return check_aggressor(s, seat);
  return check_order(s, seat, a.value == kJuiceFirst);
}

void apply(Ctx& c, Seat seat, const action::PlayCard& a) {
  auto& s = c.s;
  const Faction me = s.faction_at(seat);
  if (s.of(me).hand.remove(a.card)) to_treachery_discard(s, a.card, me);
  s.juice.seat = static_cast<int8_t>(seat);
  s.juice.mode = a.value;
  s.juice.turn = s.turn;
  s.juice.phase = static_cast<uint8_t>(s.phase);
  s.juice.battle = s.battle.fought;
  if (a.value == kJuiceAggressor) return;
  // The new order takes over where a decision already waits on the old one.
  switch (s.phase) {
    case Phase::Bidding:
      if (a.value == kJuiceFirst && s.bidding.opener != kNoSeat && has_bit(s.bidding.eligible, seat)) {
        s.bidding.opener = s.bidding.current = static_cast<int8_t>(seat);
        s.waiting = bit(seat);
      }
      return;
    case Phase::ShipmentMovement:
      // go_first: the first turn is handed over; go_last at the player's own untouched turn: it passes on.
      if (s.shipmove.current != kNoSeat && (a.value == kJuiceFirst || s.shipmove.current == seat)) ship::advance(c);
      return;
    case Phase::Battle:
      if (a.value == kJuiceFirst) battle_order_changed(c, true);
      else if (s.step == 0 && s.battle.territory == kNone8 && s.battle.aggressor == seat) battle_order_changed(c, false);
      return;
    default: return;
  }
}

void candidates(const GameState&, Seat, const action::PlayCard& base, std::vector<Action>& out) {
  for (uint8_t v = kJuiceAggressor; v <= kJuiceLast; ++v) {
    action::PlayCard a = base;
    a.value = v;
    out.push_back(a);
  }
}

std::string prompt(const GameState&, Seat) {
  return "Play Juice of Sapho: be the aggressor in the battle you defend (you win a tie), or go first "
         "or last (even after the Guild) in this phase's turn order; the card is discarded";
}

}  // namespace

Seat juice_seat(const GameState& s, uint8_t mode) {
  const auto& j = s.juice;
  if (j.mode != mode || j.seat < 0 || j.turn != s.turn || j.phase != static_cast<uint8_t>(s.phase)) return kNoSeat;
  if (mode == kJuiceAggressor && j.battle != s.battle.fought) return kNoSeat;
  return j.seat;
}

bool juice_may_go_first(const GameState& s) {
  if (!s.uses(data::Module::ChoamRichese) || s.phase != Phase::Battle || s.battle.fought != 0) return false;
  if (s.juice.mode != 0 && s.juice.turn == s.turn && s.juice.phase == static_cast<uint8_t>(s.phase)) return false;
  return card_may_be_held(s, TreacheryKind::JuiceOfSapho);
}

int juice_tie_side(const GameState& s) {
  const Seat j = juice_seat(s, kJuiceAggressor);
  return j != kNoSeat && j == s.battle.defender ? 1 : 0;
}

const CardRules kJuiceOfSaphoRules{TreacheryKind::JuiceOfSapho, check, apply, candidates, prompt, {}};

}  // namespace mentat::rules
