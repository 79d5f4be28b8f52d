// Semuta Drug (CHOAM & Richese, a Richese card; docs/cards/richese-cards.md;
// the face, as both public programs read it: reference
// richese_treachery_cards "Semuta Drug").
//
// "Take a treachery card into your hand right after another player discards
// it (choose if several are discarded together); discard after use."
//
// What an action discarded: every discard goes through to_treachery_discard
// (rules.h), which, in a game with the CHOAM & Richese module, records the
// card and the faction that discarded it in GameState::recent_discard_*.
// The record is cleared as the next action begins (begin_action) unless the
// Semuta window below is being answered.
//
// Ruling semuta_timing (reference: the face says "right after"; the engine
// must make that moment a decision somebody can take):
//  * `window` (default): when an action ends (end_action) having discarded a
//    card, a SemutaTake window asks every seat that may hold the Semuta Drug
//    by public information (cards in hand, the Semuta Drug neither in the
//    listed discard pile nor in the played-card zone nor removed from the
//    game, a Richese card out of the cache) and for which a card discarded by
//    another faction is still on the listed pile. Whoever holds it answers
//    Respond{accept = true, card = the card taken}; everybody else (and a
//    holder who lets it pass) answers Respond{accept = false}. The first
//    acceptance takes the card and closes the window; when every asked seat
//    declined, it closes and the game resumes exactly where it was (the
//    window stack restores the interrupted decision). Asking only the
//    holder would tell every seat who holds it, so the asked seats follow
//    from public facts only, as for a Karama window.
//  * `next_action` (treachery.online: any card of its RecentlyDiscarded, the
//    cards the last event discarded): PlayCard{card = Semuta Drug, target =
//    the card taken} at any time until the next action is accepted; no
//    window opens.
// Either way the card taken leaves the discard pile for the hand and the
// Semuta Drug is discarded on top (the hand's size does not change, so a
// full hand may take). A card of one's own discarding is never taken, nor one
// below a Nullentropy Box's shuffled rest (no longer the card discarded), nor
// one that left the pile meanwhile (the deck reshuffled). A window that cannot
// open (the stack of kMaxWindows full) lets the moment pass: named in the docs.
#include <algorithm>

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"

namespace mentat::rules {
namespace {

using data::TreacheryKind;

constexpr uint8_t kNextAction = 1;  // RulingId::SemutaTiming

bool is_semuta(uint8_t card) { return card < data::kNumAllTreacheryCards && data::treachery_card(card).kind == TreacheryKind::SemutaDrug; }

bool listed_in_discard(const GameState& s, uint8_t card) {
  for (int i = s.treachery_discard_hidden; i < s.treachery_discard.n; ++i)
    if (s.treachery_discard.ids[i] == card) return true;
  return false;
}

// The Semuta Drug card of this game, or kNone8.
uint8_t semuta_card(const GameState& s) {
  const int id = data::first_card_of_kind_in_game(s.modules, static_cast<int>(TreacheryKind::SemutaDrug));
  return id < 0 ? kNone8 : static_cast<uint8_t>(id);
}

// A card `f` may take: discarded by another faction in the recorded action, still listed on the pile.
bool takeable(const GameState& s, Faction f, uint8_t card) {
  if (is_semuta(card) || !listed_in_discard(s, card)) return false;
  for (int i = 0; i < s.recent_discard_n; ++i)
    if (s.recent_discard[i] == card && s.recent_discard_by[i] != static_cast<uint8_t>(f) && s.recent_discard_by[i] != kNoFaction)
      return true;
  return false;
}

std::vector<uint8_t> takeable_cards(const GameState& s, Faction f) {
  std::vector<uint8_t> out;
  for (int i = 0; i < s.recent_discard_n; ++i)
    if (takeable(s, f, s.recent_discard[i]) && std::find(out.begin(), out.end(), s.recent_discard[i]) == out.end())
      out.push_back(s.recent_discard[i]);
  return out;
}

// The seats the window asks (public facts only).
uint8_t askable(const GameState& s) {
  if (!card_may_be_held(s, TreacheryKind::SemutaDrug)) return 0;
  uint8_t m = 0;
  for (Seat x = 0; x < s.num_seats; ++x) {
    const Faction f = s.faction_at(x);
    if (s.of(f).hand.n > 0 && !takeable_cards(s, f).empty()) m = static_cast<uint8_t>(m | bit(x));
  }
  return m;
}

void clear_record(GameState& s) {
  s.recent_discard_n = 0;
  for (int i = 0; i < kMaxRecentDiscards; ++i) {
    s.recent_discard[i] = kNone8;
    s.recent_discard_by[i] = kNoFaction;
  }
}

void take(GameState& s, Faction me, uint8_t semuta, uint8_t card) {
  auto& hand = s.of(me).hand;
  if (!hand.remove(semuta)) return;
  if (s.treachery_discard.remove(card)) hand.push(card);
  s.treachery_discard.push(semuta);  // discarded after use (the record is cleared: nothing follows from it)
}

std::string card_list(const std::vector<uint8_t>& cards) {
  std::string out;
  for (size_t i = 0; i < cards.size(); ++i) out += (i ? ", " : "") + std::string(data::treachery_card(cards[i]).name);
  return out;
}

// ---- PlayCard (ruling semuta_timing = next_action) ----

std::optional<Rejection> check(const GameState& s, Seat seat, const action::PlayCard& a) {
  if (!s.rulings.is(RulingId::SemutaTiming, kNextAction))
    return reject(RejectCode::WrongPhase,
                  "the Semuta Drug is used in the window that opens right after another player discards (Respond accept=true, "
                  "card = the card taken; ruling semuta_timing = window)");
  const Faction me = s.faction_at(seat);
  if (a.target >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "name the card you take (target: a card id on the discard pile)");
  if (!takeable(s, me, a.target))
    return reject(RejectCode::IllegalChoice, "the Semuta Drug takes a card another player discarded with the last action, still on the discard pile");
  return std::nullopt;
}

void apply(Ctx& c, Seat seat, const action::PlayCard& a) { take(c.s, c.s.faction_at(seat), a.card, a.target); }

void candidates(const GameState& s, Seat seat, const action::PlayCard& base, std::vector<Action>& out) {
  for (uint8_t card : takeable_cards(s, s.faction_at(seat))) {
    action::PlayCard p = base;
    p.target = card;
    out.push_back(p);
  }
}

std::string prompt(const GameState&, Seat) {
  return "Play the Semuta Drug: take a card another player has just discarded; the Semuta Drug is discarded";
}

// ---- the window (WindowKind::SemutaTake) ----

std::string what(const GameState& s, const Window&) {
  std::vector<uint8_t> all;
  for (int i = 0; i < s.recent_discard_n; ++i)
    if (listed_in_discard(s, s.recent_discard[i]) && !is_semuta(s.recent_discard[i]) &&
        std::find(all.begin(), all.end(), s.recent_discard[i]) == all.end())
      all.push_back(s.recent_discard[i]);
  return "Cards just discarded (" + card_list(all) + "): a player holding the Semuta Drug may take one";
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const action::Respond& a, const Window&) {
  if (!a.accept) return std::nullopt;
  const Faction me = s.faction_at(seat);
  const uint8_t semuta = semuta_card(s);
  if (semuta == kNone8 || !s.of(me).hand.contains(semuta)) return reject(RejectCode::IllegalChoice, "you hold no Semuta Drug: answer accept=false");
  if (auto why = card_committed(s, seat, semuta)) return reject(RejectCode::IllegalChoice, *why);
  if (a.card >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "name the card you take (Respond.card)");
  if (!takeable(s, me, a.card))
    return reject(RejectCode::IllegalChoice, "the Semuta Drug takes one of the cards another player has just discarded");
  return std::nullopt;
}

bool apply_answer(Ctx& c, Seat seat, const action::Respond& a, Window& w) {
  if (a.accept) {
    take(c.s, c.s.faction_at(seat), semuta_card(c.s), a.card);
    return true;
  }
  return (w.answered & w.asked) == w.asked;
}

void decisions(const GameState& s, Seat seat, const Window& w, std::vector<Decision>& out) {
  const Faction me = s.faction_at(seat);
  const uint8_t semuta = semuta_card(s);
  Decision d{ActionKind::Respond, what(s, w) + ": let them pass, or take one with your Semuta Drug", 0, 1, {}};
  if (semuta != kNone8 && s.of(me).hand.contains(semuta) && !card_committed(s, seat, semuta))
    for (uint8_t card : takeable_cards(s, me)) d.options.push_back(card);
  if (d.options.empty()) d.max = 0;  // without the card only accept=false (this seat's own view)
  out.push_back(d);
}

void legal(const GameState& s, Seat seat, const Window& w, std::vector<Action>& out) {
  out.push_back(action::Respond{});
  std::vector<Decision> ds;
  decisions(s, seat, w, ds);
  for (auto o : ds[0].options) out.push_back(action::Respond{.accept = true, .card = static_cast<uint8_t>(o)});
}

void closed(Ctx& c, const Window&) { clear_record(c.s); }

}  // namespace

void to_treachery_discard(GameState& s, uint8_t card, Faction by) {
  s.treachery_discard.push(card);
  if (!s.uses(data::Module::ChoamRichese) || s.recent_discard_n >= kMaxRecentDiscards) return;
  s.recent_discard[s.recent_discard_n] = card;
  s.recent_discard_by[s.recent_discard_n] = static_cast<uint8_t>(by);
  ++s.recent_discard_n;
}

void semuta_begin_action(GameState& s) {
  if (s.recent_discard_n == 0) return;
  if (s.window_depth > 0 && s.windows[s.window_depth - 1].kind == WindowKind::SemutaTake) return;  // being answered
  clear_record(s);
}

void semuta_end_action(Ctx& c) {
  auto& s = c.s;
  if (s.recent_discard_n == 0 || s.rulings.is(RulingId::SemutaTiming, kNextAction)) return;
  if (s.window_depth > 0 && s.windows[s.window_depth - 1].kind == WindowKind::SemutaTake) return;  // being answered
  const uint8_t asked = s.phase == Phase::GameOver ? 0 : askable(s);
  if (asked == 0) {
    clear_record(s);
    return;
  }
  Window w;
  w.kind = WindowKind::SemutaTake;
  w.owner = kNoSeat;
  w.asked = asked;
  if (!open_window(s, w)) clear_record(s);  // the window stack is full: the moment passes
}

const CardRules kSemutaDrugRules{TreacheryKind::SemutaDrug, check, apply, candidates, prompt,
                                 {WindowKind::SemutaTake, what, validate, apply_answer, decisions, legal, closed}};

}  // namespace mentat::rules
