// Ornithopter (CHOAM & Richese, a Richese card; docs/cards/richese-cards.md;
// the contract: ../shared/seeds/RICHESE_ORNITHOPTER_ENGINE_AUDIT.md).
//
// Played with the holder's movement in its own Shipment and Movement turn, as
// Move.ornithopter on the turn's first Move (one of two modes, not both):
//  * 1: that one group moves up to three territories (not three more; no
//    stronghold needed; CHOAM's Kulon adds one under ruling
//    kulon_ornithopter, as for ornithopters). Storm, occupancy, the ally and
//    destinations are unchanged (check_move). A group with advisors may not:
//    advisors never use ornithopters (2.02.12). The card is discarded as the
//    move applies.
//  * 2: this group moves with its normal range, and one more group may move
//    afterwards, with its normal range: the card goes to the public
//    played-card zone (GameState::treachery_played) and ShipMoveState
//    records where the first group went and how many forces of each kind
//    arrived with it (orn_to, orn_arrived): those never move again (a
//    concealed No-Field marker moved with it is one of them, by its slot).
//    Other forces at that place or elsewhere may form the second group. The
//    card is discarded once, when the second group has moved or when the
//    turn ends without it (end_turn calls ornithopter_turn_ends).
// An illegal route spends nothing (check_move before any effect).
// Ruling ornithopter_hajr: `first_move_only` (default, the seeds' bounded
// reading) plays the card with the turn's first Move only and not in a turn
// with Hajr (Hajr is refused while the second group is pending too);
// `any_move` (treachery.online) lets it go with any Move the turn still has,
// Hajr's included, and Hajr's extra movement and the second group add up
// (after_move takes the second group first, then Hajr's).
// Ruling ornithopter_advisors: `two_groups_only` (the default before rules
// version 7) refuses advisors the one-group mode (its range is an
// ornithopter's); `neither` (the seeds' boundary, the default since) refuses a
// group with advisors both modes, the second group included.
// It is a card, not a faction ability: no Karama window of its own. When a
// Karama window opens over its move (a Fremen group's two territories in
// mode 2), the card goes to the played-card zone as the move is declared
// (ornithopter_declared, from cards.cpp karama_window); a cancelled move
// gives it back to the hand (ornithopter_declaration_cancelled), and nothing
// is spent.
#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"

namespace mentat::rules {

using data::TreacheryKind;

namespace {
constexpr uint8_t kAnyMove = 1;  // RulingId::OrnithopterHajr
constexpr uint8_t kNeither = 1;  // RulingId::OrnithopterAdvisors

uint8_t ornithopter_in_hand(const GameState& s, Faction f) {
  const auto& h = s.of(f).hand;
  for (int i = 0; i < h.n; ++i)
    if (h.ids[i] < data::kNumAllTreacheryCards && data::treachery_card(h.ids[i]).kind == TreacheryKind::Ornithopter) return h.ids[i];
  return kNone8;
}
// The Ornithopter in the played-card zone, or kNone8.
uint8_t ornithopter_played(const GameState& s) {
  for (int i = 0; i < s.treachery_played.n; ++i) {
    const uint8_t c = s.treachery_played.ids[i];
    if (c < data::kNumAllTreacheryCards && data::treachery_card(c).kind == TreacheryKind::Ornithopter) return c;
  }
  return kNone8;
}
}  // namespace

std::optional<Rejection> ornithopter_check(const GameState& s, Faction me, const action::Move& a, bool advisors, int* range) {
  if (a.ornithopter == 0) {
    if (s.shipmove.orn_to == kNone8) return std::nullopt;
    if (advisors && s.rulings.is(RulingId::OrnithopterAdvisors, kNeither))
      return reject(RejectCode::IllegalChoice,
                    "advisors never use ornithopters (2.02.12), the Ornithopter card's second group neither (ruling ornithopter_advisors)");
    // The second group: not the forces that arrived with the first.
    for (int i = 0; i < a.from.size(); ++i) {
      const auto& p = a.from[i];
      if (p.location != s.shipmove.orn_to) continue;
      if (p.forces > s.forces_at(me, p.location, 0) - s.shipmove.orn_arrived[0] ||
          p.special > s.forces_at(me, p.location, 1) - s.shipmove.orn_arrived[1])
        return reject(RejectCode::IllegalChoice,
                      "the forces that arrived with the Ornithopter's first group do not move again: the second group is another group");
    }
    return std::nullopt;
  }
  if (a.ornithopter > 2) return reject(RejectCode::Malformed, "Move.ornithopter is 1 (one group, three territories) or 2 (two groups)");
  if (ornithopter_in_hand(s, me) == kNone8) return reject(RejectCode::IllegalChoice, "you hold no Ornithopter card");
  if (auto why = card_committed(s, s.seat_of(me), ornithopter_in_hand(s, me))) return reject(RejectCode::IllegalChoice, *why);
  if (s.shipmove.orn_to != kNone8) return reject(RejectCode::IllegalChoice, "the Ornithopter's second group is moving: this Move is that group");
  if (!s.rulings.is(RulingId::OrnithopterHajr, kAnyMove)) {
    if (s.of(me).moved)
      return reject(RejectCode::IllegalChoice, "the Ornithopter is played with the turn's first movement (ruling ornithopter_hajr)");
    if (s.shipmove.hajr)
      return reject(RejectCode::IllegalChoice, "Hajr is in play this turn: no Ornithopter with Hajr (ruling ornithopter_hajr)");
  }
  if (advisors && (a.ornithopter == 1 || s.rulings.is(RulingId::OrnithopterAdvisors, kNeither)))
    return reject(RejectCode::IllegalChoice, a.ornithopter == 1 ? "advisors never use ornithopters (2.02.12)"
                                                                : "advisors never use ornithopters (2.02.12), the Ornithopter card's two groups neither "
                                                                  "(ruling ornithopter_advisors)");
  if (a.ornithopter == 1) {
    *range = modify(s, MovementRangeQuery{me, RangeBasis::OrnithopterCard, false}, 3);  // e.g. CHOAM's Kulon (ruling kulon_ornithopter)
  }
  return std::nullopt;
}

void ornithopter_moved(GameState& s, Faction me, const action::Move& a, const uint8_t before_at_to[2]) {
  if (a.ornithopter == 0) {
    if (s.shipmove.orn_to == kNone8) return;
    ornithopter_turn_ends(s);  // the second group moved: the card's use ends
    return;
  }
  uint8_t card = ornithopter_in_hand(s, me);
  if (card != kNone8) {
    s.of(me).hand.remove(card);
  } else {  // declared before a Karama window over the move (ornithopter_declared): in the played-card zone already
    card = ornithopter_played(s);
    if (card == kNone8) return;
    s.treachery_played.remove(card);
  }
  if (a.ornithopter == 1) {
    to_treachery_discard(s, card, me);
    return;
  }
  s.treachery_played.push(card);
  s.shipmove.orn_to = a.to;
  for (int k = 0; k < 2; ++k) s.shipmove.orn_arrived[k] = static_cast<uint8_t>(s.forces_at(me, a.to, k) - before_at_to[k]);
}

void ornithopter_declared(GameState& s, Faction me) {
  const uint8_t card = ornithopter_in_hand(s, me);
  if (card == kNone8 || !s.of(me).hand.remove(card)) return;
  s.treachery_played.push(card);
}

void ornithopter_marker_revealed(GameState& s, Faction f, LocationId loc, int forces) {
  auto& m = s.shipmove;
  if (m.orn_to == kNone8 || m.orn_to != loc || m.orn_arrived[1] == 0) return;
  if (m.current < 0 || m.current >= s.num_seats || s.faction_at(m.current) != f) return;
  m.orn_arrived[1] = static_cast<uint8_t>(m.orn_arrived[1] - 1);  // the marker counted as one special force
  m.orn_arrived[0] = static_cast<uint8_t>(m.orn_arrived[0] + forces);
}

void ornithopter_declaration_cancelled(GameState& s, Faction me) {
  const uint8_t card = ornithopter_played(s);
  if (card == kNone8 || s.shipmove.orn_to != kNone8 || !s.treachery_played.remove(card)) return;
  s.of(me).hand.push(card);
}

bool ornithopter_second_group(const GameState& s) { return s.shipmove.orn_to != kNone8; }

bool ornithopter_usable(const GameState& s, Faction me) {
  const bool any_move = s.rulings.is(RulingId::OrnithopterHajr, kAnyMove);
  return ornithopter_in_hand(s, me) != kNone8 && (any_move || (!s.of(me).moved && !s.shipmove.hajr)) && s.shipmove.orn_to == kNone8 &&
         !card_committed(s, s.seat_of(me), ornithopter_in_hand(s, me));
}

void ornithopter_turn_ends(GameState& s) {
  for (int i = 0; i < s.treachery_played.n; ++i) {
    const uint8_t c = s.treachery_played.ids[i];
    if (c < data::kNumAllTreacheryCards && data::treachery_card(c).kind == TreacheryKind::Ornithopter) {
      s.treachery_played.remove(c);
      const Seat mover = s.shipmove.current;  // the card's user: the turn's faction
      to_treachery_discard(s, c, mover >= 0 && mover < s.num_seats ? s.faction_at(mover) : static_cast<Faction>(kNoFaction));
      break;
    }
  }
  s.shipmove.orn_to = kNone8;
  s.shipmove.orn_arrived[0] = s.shipmove.orn_arrived[1] = 0;
}

}  // namespace mentat::rules
