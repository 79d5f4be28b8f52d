// Nullentropy Box (CHOAM & Richese, a Richese card; docs/cards/richese-cards.md;
// the contract: ../shared/seeds/RICHESE_ACQUISITION_RULES.md §4).
//
// PlayCard{card = Box}, at any time after setup (no window open, no ability
// in use as a step): the holder pays 2 spice to the bank (not the Emperor: a
// card's fee, not a purchase; no Harkonnen bonus) and a DiscardSearch window
// opens, asking that seat only. While it is open nothing else happens (the
// window stack accepts only its answer), so the pile it searches cannot
// change under it; the window is part of the state, so a refresh, a retry of
// the same answer (a stale version) or a server restart resumes it without a
// second fee. The answer Respond{accept = true, card = X} names a card of the
// treachery discard pile other than a Nullentropy Box: X goes to the hand, the
// rest of the pile is shuffled once with the game's Rng (the order recorded
// in the event's draws, ShuffleTreachery), then the Box is discarded on top.
// The Box stays in its holder's hand until then (it is the window's subject,
// never playable or given meanwhile).
//
// Needs: 2 spice that no standing bid needs (rules::spending_breaks_bid: a
// high bidder, or its backing ally, keeps what the bid will cost), a card to take (an empty pile, or one of Boxes only, is
// rejected before paying: the seeds and treachery.online agree), and, under
// ruling box_full_hand = free_slot (the seeds' guard), a hand that is not
// full with the Box in it; `exchange` (treachery.online) allows a full hand:
// the Box leaves as the card comes.
//
// Private: the options (the eligible faces) are in the searcher's decisions
// only; the answer names the card only to the searcher (inspect/report.cpp);
// the rest of the pile, shuffled, becomes GameState::treachery_discard_hidden
// cards that no seat's view lists (views show their number; the cards
// discarded afterwards, the Box first, lie above them, public): were the pile
// still listed, the card taken would follow from what is missing. The faces
// and order below the Box are permuted by the projection check.
#include <algorithm>

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"

namespace mentat::rules {
namespace {

using data::TreacheryKind;

constexpr int kFee = 2;
constexpr uint8_t kExchange = 1;  // RulingId::BoxFullHand

bool eligible(uint8_t card) { return card < data::kNumAllTreacheryCards && data::treachery_card(card).kind != TreacheryKind::NullentropyBox; }

bool any_eligible(const GameState& s) {
  for (int i = 0; i < s.treachery_discard.n; ++i)
    if (eligible(s.treachery_discard.ids[i])) return true;
  return false;
}

std::optional<Rejection> check(const GameState& s, Seat seat, const action::PlayCard&) {
  const Faction me = s.faction_at(seat);
  if (s.of(me).spice < kFee) return reject(RejectCode::IllegalChoice, "the Nullentropy Box costs 2 spice, paid to the bank");
  if (auto why = spending_breaks_bid(s, me, kFee)) return reject(RejectCode::NotEnoughSpice, *why + ": the Nullentropy Box's 2 spice may not come from it");
  if (!any_eligible(s))
    return reject(RejectCode::IllegalChoice, "the treachery discard pile holds no card the Nullentropy Box may take");
  if (hand_full(s, me) && !s.rulings.is(RulingId::BoxFullHand, kExchange))
    return reject(RejectCode::IllegalChoice, "your hand is full: the Nullentropy Box needs room for the card it takes (ruling box_full_hand)");
  return std::nullopt;
}

void apply(Ctx& c, Seat seat, const action::PlayCard& a) {
  auto& s = c.s;
  transfer_spice(s, shield(s.faction_at(seat)), bank(), kFee);
  Window w;
  w.kind = WindowKind::DiscardSearch;
  w.owner = seat;
  w.asked = bit(seat);
  w.subject = a.card;  // the Box, still in hand
  open_window(s, w);
}

void candidates(const GameState&, Seat, const action::PlayCard& base, std::vector<Action>& out) { out.push_back(base); }

std::string prompt(const GameState&, Seat) {
  return "Play the Nullentropy Box: pay 2 spice to the bank, then take a card of your choice (not a Nullentropy Box) from "
         "the treachery discard pile; the rest is shuffled and the Box discarded on top";
}

// ---- the search (WindowKind::DiscardSearch) ----

std::string what(const GameState& s, const Window& w) {
  return std::string(faction_name(s.faction_at(w.owner))) + " searches the treachery discard pile (Nullentropy Box)";
}

std::optional<Rejection> validate(const GameState& s, Seat, const action::Respond& a, const Window&) {
  if (!a.accept || a.card == kNone8)
    return reject(RejectCode::Malformed, "name the card you take from the discard pile (Respond accept=true, card)");
  if (a.card >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "unknown treachery card");
  if (!s.treachery_discard.contains(a.card)) return reject(RejectCode::IllegalChoice, "that card is not in the treachery discard pile");
  if (!eligible(a.card)) return reject(RejectCode::IllegalChoice, "the Nullentropy Box does not take a Nullentropy Box");
  return std::nullopt;
}

bool apply_answer(Ctx& c, Seat seat, const action::Respond& a, Window& w) {
  auto& s = c.s;
  auto& hand = s.of(s.faction_at(seat)).hand;
  const bool box_in_hand = hand.remove(w.subject);  // the Box leaves first (ruling box_full_hand = exchange)
  if (s.treachery_discard.remove(a.card)) hand.push(a.card);
  shuffle_pile(c, s.treachery_discard, DrawKind::ShuffleTreachery);
  s.treachery_discard_hidden = static_cast<uint8_t>(s.treachery_discard.n);
  if (box_in_hand) to_treachery_discard(s, w.subject, s.faction_at(seat));  // on top
  return true;
}

void decisions(const GameState& s, Seat, const Window& w, std::vector<Decision>& out) {
  Decision d{ActionKind::Respond, what(s, w) + ": take one of these cards", 1, 1, {}};
  for (int i = 0; i < s.treachery_discard.n; ++i)
    if (eligible(s.treachery_discard.ids[i]) &&
        std::find(d.options.begin(), d.options.end(), s.treachery_discard.ids[i]) == d.options.end())
      d.options.push_back(s.treachery_discard.ids[i]);
  out.push_back(d);
}

void legal(const GameState& s, Seat seat, const Window& w, std::vector<Action>& out) {
  std::vector<Decision> ds;
  decisions(s, seat, w, ds);
  for (auto o : ds[0].options) out.push_back(action::Respond{.accept = true, .card = static_cast<uint8_t>(o)});
}

}  // namespace

const CardRules kNullentropyBoxRules{TreacheryKind::NullentropyBox, check, apply, candidates, prompt,
                                     {WindowKind::DiscardSearch, what, validate, apply_answer, decisions, legal}};

}  // namespace mentat::rules
