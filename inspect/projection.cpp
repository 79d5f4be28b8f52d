#include "inspect/projection.h"
#include "inspect/view_bytes.h"

#include <algorithm>

#include "core/factions/faction_rules.h"
#include "core/rules/rules.h"

namespace mentat::inspect {

namespace {
template <int N>
void reverse_pile(Pile<N>& p) {
  std::reverse(p.ids, p.ids + p.n);
}
// Swaps each card of `hand` with one from `deck` (same count, other identities).
template <int A, int B>
void swap_with(Pile<A>& hand, Pile<B>& deck) {
  for (int i = 0; i < hand.n && i < deck.n; ++i) std::swap(hand.ids[i], deck.ids[deck.n - 1 - i]);
}
}  // namespace

GameState permute_hidden(const GameState& s, Viewer viewer) {
  GameState t = s;
  if (viewer.kind == Viewer::State) return t;
  const bool seat = viewer.kind == Viewer::SeatView;
  const Faction me = seat ? s.faction_at(viewer.seat) : Faction::Atreides;
  reverse_pile(t.treachery_deck);
  // Richese (core/factions/richese.cpp): which Richese cards are in the
  // cache and which in hands hidden from this viewer (the special purchase
  // is secret), the cache's order, a Black Market card up for bid, and the
  // other seats' silent bids. Before the hands are swapped with the deck.
  if (!(seat && me == Faction::Richese)) {
    reverse_pile(t.richese.cache);
    int k = 0;
    for (int fi = 0; fi < kNumFactions; ++fi) {
      if (!t.has(static_cast<Faction>(fi)) || (seat && static_cast<Faction>(fi) == me)) continue;
      auto& hand = t.f[fi].hand;
      for (int i = 0; i < hand.n && k < t.richese.cache.n; ++i)
        if (data::treachery_card(hand.ids[i]).set == data::CardSet::Richese) std::swap(hand.ids[i], t.richese.cache.ids[k++]);
    }
    auto& lot = t.richese.bidding;
    if (lot.lot == LotKind::BlackMarket && lot.lot_card < data::kNumAllTreacheryCards && !(seat && rules::can_see_card_up_for_bid(s, me)))
      lot.lot_card = static_cast<uint8_t>((lot.lot_card + 1) % data::kNumTreacheryCards);
  }
  for (Seat x = 0; x < s.num_seats; ++x)
    if (!(seat && x == viewer.seat) && s.richese.bidding.lot != LotKind::None && s.richese.bidding.auction == AuctionKind::Silent)
      t.richese.bidding.silent_bid[x] = static_cast<uint8_t>(t.richese.bidding.silent_bid[x] ^ 1);
  // The shuffled rest below a Nullentropy Box (core/state.h): its order, and
  // which cards it holds (swapped with the deck's: the card the searcher took
  // is one of them or in its hand). Before the hands are swapped with the deck.
  // The searcher of an open Nullentropy Box search sees the whole pile, that rest included.
  bool searching = false;
  for (int i = 0; i < s.window_depth; ++i)
    searching |= seat && s.windows[i].kind == WindowKind::DiscardSearch && s.windows[i].owner == viewer.seat;
  if (const int hidden = t.treachery_discard_hidden; hidden > 0 && !searching) {
    std::reverse(t.treachery_discard.ids, t.treachery_discard.ids + hidden);
    for (int i = 0; i < hidden && i < t.treachery_deck.n; i += 2) std::swap(t.treachery_discard.ids[i], t.treachery_deck.ids[i]);
  }
  reverse_pile(t.spice_deck);
  reverse_pile(t.traitor_deck);
  reverse_pile(t.fremen.storm_deck);
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto f = static_cast<Faction>(fi);
    if (!t.has(f) || (seat && f == me)) continue;
    auto& fs = t.of(f);
    swap_with(fs.hand, t.treachery_deck);
    swap_with(fs.traitors, t.traitor_deck);
    swap_with(fs.traitor_offer, t.traitor_deck);
    swap_with(fs.traitors_discarded, t.traitor_deck);
    const bool ally = seat && s.of(me).ally == static_cast<uint8_t>(fi);  // allies see each other's spice
    if (t.bank >= 7 && !ally) {
      fs.spice = static_cast<uint16_t>(fs.spice + 7);
      t.bank -= 7;
    }
    if (fs.prediction_turn) {
      fs.prediction_turn = static_cast<uint8_t>(fs.prediction_turn % s.max_turns + 1);
    }
    fs.storm_dial = static_cast<uint8_t>(fs.storm_dial ^ 1);
    if (!ally) {  // 1.10.02.05/06 permissions: between the allies
      fs.permit_ship = static_cast<uint16_t>(fs.permit_ship ^ 1);
      fs.permit_bids = static_cast<uint16_t>(fs.permit_bids ^ 1);
    }
  }
  // Module sections (core/state.h): the face-down leader skill cards (the
  // deck's order, other factions' dealt cards and face-down assigned cards)
  // and the values of face-down No-Field tokens; the check holds the views
  // (the leader_skills list, skill_hand) to them.
  reverse_pile(t.skills.deck);
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (!(seat && static_cast<Faction>(fi) == me)) swap_with(t.skills.hand[fi], t.skills.deck);
  for (int l = 0; l < data::kNumLeaders; ++l) {
    if (!t.skills.assigned[l] || !t.skills.face_down[l] || t.skills.deck.empty()) continue;
    if (seat && data::leader(static_cast<LeaderId>(l)).faction == me) continue;
    std::swap(t.skills.assigned[l], t.skills.deck.ids[t.skills.deck.n - 1]);
    t.skills.assigned[l] = static_cast<uint8_t>(t.skills.assigned[l] + 1);  // pile ids are 0-based, assigned is 1 + id
    t.skills.deck.ids[t.skills.deck.n - 1] = static_cast<uint8_t>(t.skills.deck.ids[t.skills.deck.n - 1] - 1);
  }
  if (!(seat && static_cast<uint8_t>(me) == t.skills.rihani_faction))  // the Rihani Decipherer's look
    for (auto& l : t.skills.rihani_seen)
      if (l < data::kNumLeaders) l = static_cast<uint8_t>((l + 1) % data::kNumLeaders);
  if (t.skills.mentat_shown < data::kNumAllTreacheryCards && t.skills.mentat_faction < kNumFactions) {  // the card the Mentat was shown
    const auto asker = static_cast<Faction>(t.skills.mentat_faction);
    const Seat other = s.faction_at(s.battle.aggressor) == asker ? s.battle.defender : s.battle.aggressor;
    if (!(seat && (me == asker || (other >= 0 && me == s.faction_at(other)))))
      t.skills.mentat_shown = static_cast<uint8_t>((t.skills.mentat_shown + 1) % data::kNumAllTreacheryCards);
  }
  if (!(seat && me == Faction::Richese)) {  // which value each face-down token has
    int down[kNumNoFieldTokens], n = 0;
    for (int i = 0; i < kNumNoFieldTokens; ++i)
      if (t.richese.no_field[i].zone != TokenZone::Revealed) down[n++] = i;
    for (int k = 0; k + 1 < n; ++k) std::swap(t.richese.no_field[down[k]], t.richese.no_field[down[k + 1]]);
  }
  // 2.01.07 the card the Atreides saw on the spice deck.
  if (!(seat && rules::sees_secret(s, me, rules::Secret::Wormsign)) && t.atreides.wormsign_card < data::kNumSpiceCards)
    t.atreides.wormsign_card = static_cast<uint8_t>((t.atreides.wormsign_card + 1) % data::kNumSpiceCards);
  if (!(seat && rules::sees_secret(s, me, rules::Secret::StormCard)) && t.fremen.storm_card)  // 2.04.14
    t.fremen.storm_card = static_cast<uint8_t>(t.fremen.storm_card % 6 + 1);
  // The battle plans of the other side, before they are revealed.
  if (s.phase == Phase::Battle && !rules::battle_plans_revealed(s))
    for (int i = 0; i < 2; ++i) {
      const Seat side = i == 0 ? s.battle.aggressor : s.battle.defender;
      if (side < 0 || (seat && side == viewer.seat)) continue;
      if (seat && rules::sees_secret(s, me, rules::Secret::KaramaPlan, i)) continue;  // 1.14.01
      t.battle.plan[i].dial = static_cast<uint8_t>(t.battle.plan[i].dial ^ 1);
      t.battle.plan[i].spice = static_cast<uint8_t>(t.battle.plan[i].spice ^ 1);
      t.battle.plan[i].skill_spice = static_cast<uint8_t>(t.battle.plan[i].skill_spice ^ 1);  // the Spice Banker's boost
    }
  // The prescience answer, for seats that are neither the Atreides side nor the answering side.
  if (s.phase == Phase::Battle && !rules::battle_plans_revealed(s) && s.atreides.battle.prescience_answered && seat) {
    const bool entitled = rules::sees_secret(s, me, rules::Secret::PrescienceAnswer) ||  // 2.01.08/09
                          viewer.seat == s.battle.aggressor || viewer.seat == s.battle.defender;
    if (!entitled) t.atreides.battle.prescience_value = static_cast<uint8_t>(t.atreides.battle.prescience_value ^ 1);
  } else if (s.phase == Phase::Battle && !rules::battle_plans_revealed(s) && s.atreides.battle.prescience_answered && !seat) {
    t.atreides.battle.prescience_value = static_cast<uint8_t>(t.atreides.battle.prescience_value ^ 1);
  }
  // The Kwisatz Haderach loss count belongs to the Atreides.
  if (!(seat && rules::sees_secret(s, me, rules::Secret::KwisatzHaderachLosses))) t.atreides.kh.losses = static_cast<uint8_t>(t.atreides.kh.losses ^ 1);
  // The card up for bid, unless this seat may look at it.
  if (s.phase == Phase::Bidding && s.step == 0 && t.bidding.index < t.bidding.row.n && !t.treachery_deck.empty() &&
      !(seat && rules::can_see_card_up_for_bid(s, me)))
    std::swap(t.bidding.row.ids[t.bidding.index], t.treachery_deck.ids[0]);
  return t;
}

std::optional<std::string> check_projection(const GameState& s, Viewer viewer, const ViewFn& view) {
  if (viewer.kind == Viewer::State) return std::nullopt;
  const GameState t = permute_hidden(s, viewer);
  using Fn = std::string (*)(const GameState&, Viewer);
  const Fn* fn = view.target<Fn>();
  const bool same = fn && *fn == &build_view ? same_view(s, t, viewer) : view(s, viewer) == view(t, viewer);
  if (same) return std::nullopt;
  return viewer.kind == Viewer::Observer ? std::string("the observer's view changes with hidden information")
                                         : "seat " + std::to_string(viewer.seat) + "'s view changes with information hidden from it";
}

}  // namespace mentat::inspect
