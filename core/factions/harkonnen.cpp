// The Harkonnen's abilities (2.05) that the phases reach through the hook
// table (core/factions/faction_rules.h). Still in their phase files: 2.05.02
// traitors at setup (setup.cpp), 2.05.09-13 traitors and capture
// (battle_abilities.cpp), 1.14.04 Karama (cards.cpp); docs/ARCHITECTURE.md.
#include "core/factions/faction_rules.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Harkonnen;

// 2.05.08 TOP CARD: with each card bought, the Harkonnen take the top card
// of the deck too while their hand has room. 3.01.11.02: a prevented one is
// this purchase's (no extra card; at the hand limit only under ruling
// karama_automatic_use = next_occasion).
void bought_card(Ctx& c) {
  auto& s = c.s;
  auto& hand = s.of(kMe).hand;
  if (hand.n < hand_limit(s, kMe)) {
    if (ability_cancelled(s, kMe, Ability::HarkonnenTopCard)) {
      consume_prevention(s, kMe, Ability::HarkonnenTopCard);
    } else {
      const uint8_t extra = draw_treachery(c);
      if (extra != kNone8) hand.push(extra);
    }
  } else if (prevention_at_next_occasion(s)) {
    consume_prevention(s, kMe, Ability::HarkonnenTopCard);  // a purchase at the hand limit
  }
}

// ---- 1.14.04 Karama power: take another faction's whole hand, give as many back ----

std::string fname(Faction f) { return std::string(faction_name(f)); }

std::optional<Rejection> karama_check(const GameState& s, Faction me, const Action& a) {
  if (s.phase != Phase::Bidding)
    return reject(RejectCode::WrongPhase, "the Harkonnen Karama power is used during the Bidding phase (1.14.04)");
  if (a.to >= kNumFactions || !s.has(static_cast<Faction>(a.to)))
    return reject(RejectCode::Malformed, "name the faction whose hand you take (target)");
  const auto target = static_cast<Faction>(a.to);
  if (target == me) return reject(RejectCode::IllegalChoice, "take another player's hand (1.14.04)");
  if (s.of(target).hand.n == 0) return reject(RejectCode::IllegalChoice, fname(target) + " hold no treachery cards");
  if (!s.karama_taken.empty()) return reject(RejectCode::IllegalChoice, "a hand taken by Karama is still being given back");
  return std::nullopt;
}

// The cards go to GameState::karama_taken; the KaramaGiveBack window
// (cards.cpp) asks the Harkonnen which cards to give back.
void karama_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  auto& theirs = s.of(static_cast<Faction>(a.to)).hand;
  int k = 0;
  while (!theirs.empty()) {
    s.karama_taken.push(theirs.pop());
    ++k;
  }
  Window w;
  w.kind = WindowKind::KaramaGiveBack;
  w.owner = seat;
  w.asked = bit(seat);
  w.subject = static_cast<uint8_t>(k);
  w.target = a.to;
  open_window(s, w);
}

void karama_candidates(const GameState&, Faction, const Action& base, std::vector<Action>& out) {
  target_candidates(base, out);
}

constexpr FactionRules make() {
  FactionRules r;
  r.bought_card = bought_card;
  r.karama_power = {karama_check, karama_apply, karama_candidates,
                    ", or take the whole hand of a faction (target) and give as many cards back (1.14.04)"};
  return r;
}

}  // namespace

constinit const FactionRules kHarkonnenRules = make();

}  // namespace mentat::rules
