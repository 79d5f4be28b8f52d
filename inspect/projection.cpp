#include "inspect/projection.h"
#include "inspect/view_bytes.h"

#include <algorithm>
#include <string_view>

#include "core/action.h"
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
// Another id of the same range in place of `id`, unless it names none.
uint8_t next_id(uint8_t id, int range) { return id < range ? static_cast<uint8_t>((id + 1) % range) : id; }

// The declaration of `field` (core/state_fields.inc), found as the program
// compiles: a name not declared there does not compile.
consteval const FieldSight& sight(std::string_view field) { return *field_sight(field); }

// The state as it is, its copy being permuted, and the viewer.
struct Ctx {
  const GameState& s;
  GameState& t;
  Viewer viewer;
  bool seat;
  Faction me;

  // Whether the viewer may see `field` (of faction `fa`, for a per-faction
  // field) by its declaration in core/state_fields.inc. A Rule field's
  // permutation decides for itself.
  bool sees(const FieldSight& d, int fa = kNoFaction) const {
    const uint8_t owner = d.owner != kNoFaction ? d.owner : static_cast<uint8_t>(fa);
    switch (d.sight) {
      case Sight::Public: return true;
      case Sight::Nobody: return false;
      case Sight::Owner: return seat && static_cast<uint8_t>(me) == owner;
      case Sight::OwnerAlly: return seat && (static_cast<uint8_t>(me) == owner || s.of(me).ally == owner);
      case Sight::Rule: return false;
    }
    return false;
  }
  // Whether the viewer is the faction a Rule field names as its owner (it sees more by the rule).
  bool is_owner(const FieldSight& d) const { return seat && static_cast<uint8_t>(me) == d.owner; }
  // Calls fn(faction state of t, faction index) for each faction in the game whose `field` the viewer may not see.
  template <class Fn>
  void each_hidden_faction(const FieldSight& field, Fn fn) const {
    for (int fi = 0; fi < kNumFactions; ++fi)
      if (t.has(static_cast<Faction>(fi)) && !sees(field, fi)) fn(t.f[fi], fi);
  }
};

// Which value each face-down No-Field token has: the face-down tokens trade
// places (their zone and location alike), the face-up one keeps its own.
template <class M>
void rotate_face_down_tokens(Ctx& c, M NoFieldToken::*member, const FieldSight& field) {
  if (c.sees(field)) return;
  int down[kNumNoFieldTokens], n = 0;
  for (int i = 0; i < kNumNoFieldTokens; ++i)
    if (c.s.richese.no_field[i].zone != TokenZone::Revealed) down[n++] = i;
  for (int k = 0; k + 1 < n; ++k) std::swap(c.t.richese.no_field[down[k]].*member, c.t.richese.no_field[down[k + 1]].*member);
}

// 1.07.05 the battle plan of side i, hidden from this viewer: not yet
// revealed, not its own side's and not seen by a Karama (1.14.01).
bool plan_hidden(const Ctx& c, int i) {
  const GameState& s = c.s;
  if (s.phase != Phase::Battle || rules::battle_plans_revealed(s)) return false;
  const Seat side = i == 0 ? s.battle.aggressor : s.battle.defender;
  if (side < 0 || (c.seat && side == c.viewer.seat)) return false;
  return !(c.seat && rules::sees_secret(s, c.me, rules::Secret::KaramaPlan, i));
}
template <class Fn>
void each_hidden_plan(Ctx& c, Fn fn) {
  for (int i = 0; i < 2; ++i)
    if (plan_hidden(c, i)) fn(c.t.battle.plan[i]);
}

// A KaramaCancel window's pending action when it is a secret one (a battle
// plan, the Richese gift, CHOAM's trade offer; core/rules/cards.cpp
// keep_pending): its owner's alone (no view shows a pending action).
template <class Fn>
void each_secret_pending(Ctx& c, Fn fn) {
  for (int i = 0; i < kMaxWindows; ++i) {
    const Window& w = c.s.windows[i];
    const auto kind = static_cast<ActionKind>(w.act_kind);
    const bool secret = kind == ActionKind::BattlePlan || kind == ActionKind::RicheseGift || kind == ActionKind::ChoamTrade;
    if (w.kind == WindowKind::KaramaCancel && secret && !(c.seat && w.owner == c.viewer.seat)) fn(c.t.windows[i]);
  }
}

// The card up for bid: the seats that may look at it (2.01.05).
bool sees_card_up_for_bid(const Ctx& c) { return c.seat && rules::can_see_card_up_for_bid(c.s, c.me); }

using Permute = void (*)(Ctx&);
struct Permutation {
  std::string_view field;  // a field core/state_fields.inc declares hidden from some viewer
  Permute apply;           // changes its value in c.t where c.viewer may not see it
};

// One permutation per hidden field, applied in this order (an earlier one
// may rely on what a later one changes: the Richese cards are taken from
// the hands before the hands trade cards with the deck).
constexpr Permutation kPermutations[] = {
    {"seed", [](Ctx& c) { c.t.seed ^= 1; }},
    {"rng", [](Ctx& c) { c.t.rng.s[0] ^= 1; }},
    {"treachery_deck", [](Ctx& c) { reverse_pile(c.t.treachery_deck); }},
    // Richese (core/factions/richese.cpp): which Richese cards are in the
    // cache and which in hands hidden from this viewer (the special purchase
    // is secret), and the cache's order.
    {"richese.cache",
     [](Ctx& c) {
       if (c.sees(sight("richese.cache"))) return;
       auto& cache = c.t.richese.cache;
       reverse_pile(cache);
       int k = 0;
       c.each_hidden_faction(sight("f.hand"), [&](FactionState& fs, int) {
         for (int i = 0; i < fs.hand.n && k < cache.n; ++i)
           if (data::treachery_card(fs.hand.ids[i]).set == data::CardSet::Richese) std::swap(fs.hand.ids[i], cache.ids[k++]);
       });
     }},
    {"richese.bidding.lot_card",  // a Black Market card up for bid
     [](Ctx& c) {
       auto& lot = c.t.richese.bidding;
       if (!c.is_owner(sight("richese.bidding.lot_card")) && lot.lot == LotKind::BlackMarket && lot.lot_card < data::kNumAllTreacheryCards &&
           !sees_card_up_for_bid(c))
         lot.lot_card = next_id(lot.lot_card, data::kNumTreacheryCards);
     }},
    {"richese.bidding.silent_bid",  // the other seats' silent bids
     [](Ctx& c) {
       const auto& b = c.s.richese.bidding;
       if (b.lot == LotKind::None || b.auction != AuctionKind::Silent) return;
       for (Seat x = 0; x < c.s.num_seats; ++x)
         if (!(c.seat && x == c.viewer.seat)) c.t.richese.bidding.silent_bid[x] ^= 1;
     }},
    // The shuffled rest below a Nullentropy Box (core/state.h): its order, and
    // which cards it holds (swapped with the deck's: the card the searcher took
    // is one of them or in its hand). Before the hands trade cards with the deck.
    // The searcher of an open Nullentropy Box search sees the whole pile, that rest included.
    {"treachery_discard",
     [](Ctx& c) {
       bool searching = false;
       for (int i = 0; i < c.s.window_depth; ++i)
         searching |= c.seat && c.s.windows[i].kind == WindowKind::DiscardSearch && c.s.windows[i].owner == c.viewer.seat;
       auto& t = c.t;
       if (const int hidden = t.treachery_discard_hidden; hidden > 0 && !searching) {
         std::reverse(t.treachery_discard.ids, t.treachery_discard.ids + hidden);
         for (int i = 0; i < hidden && i < t.treachery_deck.n; i += 2) std::swap(t.treachery_discard.ids[i], t.treachery_deck.ids[i]);
       }
     }},
    {"spice_deck", [](Ctx& c) { reverse_pile(c.t.spice_deck); }},
    {"traitor_deck", [](Ctx& c) { reverse_pile(c.t.traitor_deck); }},
    {"storm_deck", [](Ctx& c) { reverse_pile(c.t.fremen.storm_deck); }},
    // Behind the other shields: cards trade places with the decks' (same counts, other identities).
    {"f.hand", [](Ctx& c) { c.each_hidden_faction(sight("f.hand"), [&](FactionState& fs, int) { swap_with(fs.hand, c.t.treachery_deck); }); }},
    {"f.traitors", [](Ctx& c) { c.each_hidden_faction(sight("f.traitors"), [&](FactionState& fs, int) { swap_with(fs.traitors, c.t.traitor_deck); }); }},
    {"f.traitor_offer",
     [](Ctx& c) { c.each_hidden_faction(sight("f.traitor_offer"), [&](FactionState& fs, int) { swap_with(fs.traitor_offer, c.t.traitor_deck); }); }},
    {"f.traitors_discarded",
     [](Ctx& c) { c.each_hidden_faction(sight("f.traitors_discarded"), [&](FactionState& fs, int) { swap_with(fs.traitors_discarded, c.t.traitor_deck); }); }},
    {"f.spice",  // spice behind the shield, from the bank (the bank's total is public)
     [](Ctx& c) {
       c.each_hidden_faction(sight("f.spice"), [&](FactionState& fs, int) {
         if (c.t.bank < 7) return;
         fs.spice = static_cast<uint16_t>(fs.spice + 7);
         c.t.bank -= 7;
       });
     }},
    {"f.prediction_faction",
     [](Ctx& c) {
       c.each_hidden_faction(sight("f.prediction_faction"), [](FactionState& fs, int) { fs.prediction_faction = next_id(fs.prediction_faction, kNumFactions); });
     }},
    {"f.prediction_turn",
     [](Ctx& c) {
       c.each_hidden_faction(sight("f.prediction_turn"), [&](FactionState& fs, int) {
         if (fs.prediction_turn) fs.prediction_turn = static_cast<uint8_t>(fs.prediction_turn % c.s.max_turns + 1);
       });
     }},
    {"f.storm_dial", [](Ctx& c) { c.each_hidden_faction(sight("f.storm_dial"), [](FactionState& fs, int) { fs.storm_dial ^= 1; }); }},
    {"f.permit_ship", [](Ctx& c) { c.each_hidden_faction(sight("f.permit_ship"), [](FactionState& fs, int) { fs.permit_ship ^= 1; }); }},
    {"f.permit_bids", [](Ctx& c) { c.each_hidden_faction(sight("f.permit_bids"), [](FactionState& fs, int) { fs.permit_bids ^= 1; }); }},
    // Leader skills: the deck's order, other factions' dealt cards and face-down assigned cards.
    {"skills.deck", [](Ctx& c) { reverse_pile(c.t.skills.deck); }},
    {"skills.hand",
     [](Ctx& c) {
       for (int fi = 0; fi < kNumFactions; ++fi)
         if (!c.sees(sight("skills.hand"), fi)) swap_with(c.t.skills.hand[fi], c.t.skills.deck);
     }},
    {"skills.assigned",
     [](Ctx& c) {
       auto& sk = c.t.skills;
       for (int l = 0; l < data::kNumLeaders; ++l) {
         if (!sk.assigned[l] || !sk.face_down[l] || sk.deck.empty()) continue;
         if (c.seat && data::leader(static_cast<LeaderId>(l)).faction == c.me) continue;
         std::swap(sk.assigned[l], sk.deck.ids[sk.deck.n - 1]);
         sk.assigned[l] = static_cast<uint8_t>(sk.assigned[l] + 1);  // pile ids are 0-based, assigned is 1 + id
         sk.deck.ids[sk.deck.n - 1] = static_cast<uint8_t>(sk.deck.ids[sk.deck.n - 1] - 1);
       }
     }},
    {"skills.rihani_seen",  // the Rihani Decipherer's look
     [](Ctx& c) {
       if (c.seat && static_cast<uint8_t>(c.me) == c.t.skills.rihani_faction) return;
       for (auto& l : c.t.skills.rihani_seen) l = next_id(l, data::kNumLeaders);
     }},
    {"skills.mentat_shown",  // the card the Mentat was shown: its asker and the side that showed it
     [](Ctx& c) {
       const auto& s = c.s;
       if (s.skills.mentat_shown >= data::kNumAllTreacheryCards || s.skills.mentat_faction >= kNumFactions) return;
       const auto asker = static_cast<Faction>(s.skills.mentat_faction);
       const Seat other = s.faction_at(s.battle.aggressor) == asker ? s.battle.defender : s.battle.aggressor;
       if (!(c.seat && (c.me == asker || (other >= 0 && c.me == s.faction_at(other)))))
         c.t.skills.mentat_shown = next_id(c.t.skills.mentat_shown, data::kNumAllTreacheryCards);
     }},
    {"richese.no_field.zone", [](Ctx& c) { rotate_face_down_tokens(c, &NoFieldToken::zone, sight("richese.no_field.zone")); }},
    {"richese.no_field.location", [](Ctx& c) { rotate_face_down_tokens(c, &NoFieldToken::location, sight("richese.no_field.location")); }},
    {"wormsign_card",  // 2.01.07 the card the Atreides saw on the spice deck
     [](Ctx& c) {
       if (!(c.seat && rules::sees_secret(c.s, c.me, rules::Secret::Wormsign)))
         c.t.atreides.wormsign_card = next_id(c.t.atreides.wormsign_card, data::kNumSpiceCards);
     }},
    {"storm_card",  // 2.04.14
     [](Ctx& c) {
       if (!(c.seat && rules::sees_secret(c.s, c.me, rules::Secret::StormCard)) && c.t.fremen.storm_card)
         c.t.fremen.storm_card = static_cast<uint8_t>(c.t.fremen.storm_card % 6 + 1);
     }},
    // The battle plans of the other side, before they are revealed.
    {"battle.plan.leader", [](Ctx& c) { each_hidden_plan(c, [](BattlePlanState& p) { p.leader = next_id(p.leader, data::kNumLeaders); }); }},
    {"battle.plan.cheap_hero",
     [](Ctx& c) { each_hidden_plan(c, [](BattlePlanState& p) { p.cheap_hero = next_id(p.cheap_hero, data::kNumAllTreacheryCards); }); }},
    {"battle.plan.weapon", [](Ctx& c) { each_hidden_plan(c, [](BattlePlanState& p) { p.weapon = next_id(p.weapon, data::kNumAllTreacheryCards); }); }},
    {"battle.plan.defense", [](Ctx& c) { each_hidden_plan(c, [](BattlePlanState& p) { p.defense = next_id(p.defense, data::kNumAllTreacheryCards); }); }},
    {"battle.plan.dial", [](Ctx& c) { each_hidden_plan(c, [](BattlePlanState& p) { p.dial ^= 1; }); }},
    {"battle.plan.spice", [](Ctx& c) { each_hidden_plan(c, [](BattlePlanState& p) { p.spice ^= 1; }); }},
    {"battle.plan.kwisatz_haderach", [](Ctx& c) { each_hidden_plan(c, [](BattlePlanState& p) { p.kwisatz_haderach ^= 1; }); }},
    {"battle.plan.ally_pays", [](Ctx& c) { each_hidden_plan(c, [](BattlePlanState& p) { p.ally_pays ^= 1; }); }},
    {"battle.plan.skill_spice", [](Ctx& c) { each_hidden_plan(c, [](BattlePlanState& p) { p.skill_spice ^= 1; }); }},  // the Spice Banker's boost
    // The prescience answer, for seats that are neither the Atreides side nor the answering side.
    {"battle.prescience_value",
     [](Ctx& c) {
       const auto& s = c.s;
       if (s.phase != Phase::Battle || rules::battle_plans_revealed(s) || !s.atreides.battle.prescience_answered) return;
       const bool entitled = c.seat && (rules::sees_secret(s, c.me, rules::Secret::PrescienceAnswer) ||  // 2.01.08/09
                                        c.viewer.seat == s.battle.aggressor || c.viewer.seat == s.battle.defender);
       if (!entitled) c.t.atreides.battle.prescience_value ^= 1;
     }},
    {"kh.losses",  // the Kwisatz Haderach loss count belongs to the Atreides
     [](Ctx& c) {
       if (!(c.seat && rules::sees_secret(c.s, c.me, rules::Secret::KwisatzHaderachLosses))) c.t.atreides.kh.losses ^= 1;
     }},
    {"bidding.row",  // the card up for bid, unless this seat may look at it, and the cards dealt face down after it
     [](Ctx& c) {
       auto& t = c.t;
       auto& row = t.bidding.row;
       if (c.s.phase == Phase::Bidding && c.s.step == 0 && t.bidding.index < row.n && !t.treachery_deck.empty() && !sees_card_up_for_bid(c))
         std::swap(row.ids[t.bidding.index], t.treachery_deck.ids[0]);
       for (int i = t.bidding.index + 1; i < row.n && i < t.treachery_deck.n; ++i) std::swap(row.ids[i], t.treachery_deck.ids[i]);
     }},
    // CHOAM (core/factions/choam.cpp): the card offered in a trade, and the Auditor's look.
    {"choam.trade_offer",
     [](Ctx& c) {
       if (!c.sees(sight("choam.trade_offer"))) c.t.choam.trade_offer = next_id(c.t.choam.trade_offer, data::kNumAllTreacheryCards);
     }},
    {"choam.audit_cards",
     [](Ctx& c) {
       if (c.is_owner(sight("choam.audit_cards")) || (c.seat && static_cast<uint8_t>(c.me) == c.s.choam.audit_of)) return;
       for (auto& card : c.t.choam.audit_cards) card = next_id(card, data::kNumAllTreacheryCards);
     }},
    {"richese.gift_card",
     [](Ctx& c) {
       if (!c.sees(sight("richese.gift_card"))) c.t.richese.gift_card = next_id(c.t.richese.gift_card, data::kNumAllTreacheryCards);
     }},
    {"window.act_to", [](Ctx& c) { each_secret_pending(c, [](Window& w) { w.act_to ^= 1; }); }},
    {"window.act_from", [](Ctx& c) { each_secret_pending(c, [](Window& w) { w.act_from ^= 1; }); }},
    {"window.act_forces", [](Ctx& c) { each_secret_pending(c, [](Window& w) { w.act_forces ^= 1; }); }},
    {"window.act_special", [](Ctx& c) { each_secret_pending(c, [](Window& w) { w.act_special ^= 1; }); }},
    {"window.act_flags", [](Ctx& c) { each_secret_pending(c, [](Window& w) { w.act_flags ^= 1; }); }},
    {"window.act_value", [](Ctx& c) { each_secret_pending(c, [](Window& w) { w.act_value ^= 1; }); }},
    {"window.act_amount2", [](Ctx& c) { each_secret_pending(c, [](Window& w) { w.act_amount2 ^= 1; }); }},
};

// Every field declared hidden from some viewer has exactly one permutation,
// and every permutation is of such a field: a hidden field added to
// core/state_fields.inc without one does not compile.
constexpr bool permutations_match_declarations() {
  for (const auto& d : field_sights::kAll) {
    int n = 0;
    for (const auto& p : kPermutations) n += p.field == d.name;
    if (n != (d.sight == Sight::Public ? 0 : 1)) return false;
  }
  for (const auto& p : kPermutations)
    if (field_sight(p.field) == nullptr || field_sight(p.field)->sight == Sight::Public) return false;
  return true;
}
static_assert(permutations_match_declarations(),
              "every field core/state_fields.inc declares hidden needs one permutation in kPermutations, and only those");
}  // namespace

GameState permute_hidden(const GameState& s, Viewer viewer) {
  GameState t = s;
  if (viewer.kind == Viewer::State) return t;
  const bool seat = viewer.kind == Viewer::SeatView;
  Ctx c{s, t, viewer, seat, seat ? s.faction_at(viewer.seat) : Faction::Atreides};
  for (const auto& p : kPermutations) p.apply(c);
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
