// The Harkonnen's abilities (2.05) that the phases reach through the hook
// table (core/factions/faction_rules.h); 2.05.02-04 at setup are the
// faction's data (traitors kept, starting cards: core/data) that setup.cpp
// reads; docs/ARCHITECTURE.md.
//
// 2.05.09: the traitor step also asks the Harkonnen when their ally fights
// (battle.cpp credits the call to the ally's side). Advanced 2.05.10-13:
// after a battle the Harkonnen won (by traitor too, unless ruling
// capture_after_traitor_win = no_capture), one of the loser's leaders that
// could still fight in this territory (1.07.04.04: pool leaders not used
// elsewhere this turn, and its leader of this battle if it survived) is drawn
// at random (Ctx::rand_below, recorded); battle sub-step kCapture: the
// Harkonnen answer Respond{accept=true} CAPTURE (into their pool,
// LeaderState.holder), Respond{accept=false} KILL (face down to the tanks, 2
// spice from the bank) or Pass (neither: "you may"). A captured leader the
// Harkonnen used in a battle and that was not killed goes back to the pool of
// its faction (the only player that can have had it) after that battle,
// unless the Harkonnen won it by a traitor (1.07.06.07.01). 2.05.11 when all
// five Harkonnen leaders are in the tanks, every captured leader goes back at
// once (checked after each battle). 2.05.12 killed captured leaders go to
// their own faction's tanks (kill_leader). 2.05.13 a captured leader can be
// called traitor like any leader.
#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/battle_abilities.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Harkonnen;
constexpr int kCaptureKillSpice = 2;  // 2.05.10.02

Faction owner(uint8_t leader) { return data::leader(leader).faction; }

// ---- 2.05.09 traitors in the ally's battle ----

uint8_t battle_traitor_askers(const GameState& s, int side) {
  const Faction f = battle_faction_of_side(s, side);
  return f != kMe && s.of(kMe).ally == static_cast<uint8_t>(f) ? bit(s.seat_of(kMe)) : 0;
}

// ---- 2.05.10-11 captured leaders ----

bool captured(const GameState& s, uint8_t id) {
  return id < data::kNumLeaders && s.leaders[id].holder == static_cast<uint8_t>(kMe) && owner(id) != kMe;
}

// 2.05.10.03 / 2.05.11: a captured leader back to the pool of the player who last had it.
void return_captive(GameState& s, uint8_t id) {
  auto& l = s.leaders[id];
  l.holder = static_cast<uint8_t>(owner(id));
  l.zone = LeaderZone::Pool;
  l.aux = kNone8;  // used_in_territory stays: 1.07.04.04 holds for the phase
}

void prison_break(GameState& s) {  // 2.05.11
  for (int i = 0; i < data::kLeadersPerFaction; ++i)
    if (leader_alive(s.leaders[data::leader_id(kMe, i)])) return;
  for (int id = 0; id < data::kNumLeaders; ++id)
    if (captured(s, static_cast<uint8_t>(id)) && leader_alive(s.leaders[id])) return_captive(s, static_cast<uint8_t>(id));
}

bool after_battle(Ctx& c) {
  auto& s = c.s;
  auto& b = s.battle;
  for (int i = 0; i < 2; ++i) {
    // 2.05.10.03 a captured leader used in this battle and not killed goes back.
    const uint8_t id = b.plan[i].leader;
    if (battle_faction_of_side(s, i) == kMe && id != kNone8 && captured(s, id) && leader_alive(s.leaders[id]) &&
        !battle_traitor_win(s, i))
      return_captive(s, id);
  }
  // 2.05.10.01 the Harkonnen won: draw one of the loser's active leaders.
  // Ruling capture_after_traitor_win = no_capture: a traitor win takes no captive.
  if (s.advanced && b.winner && battle_faction_of_side(s, b.winner - 1) == kMe &&
      !(s.rulings.is(RulingId::CaptureAfterTraitorWin, 1) && battle_traitor_win(s, b.winner - 1))) {
    const Faction loser = battle_faction_of_side(s, 2 - b.winner);
    std::vector<uint8_t> pool;
    for (int id = 0; id < data::kNumLeaders; ++id)
      if (battle_leader_available(s, loser, static_cast<uint8_t>(id), b.territory) && data::capturable(static_cast<LeaderId>(id)))
        pool.push_back(static_cast<uint8_t>(id));
    if (!pool.empty()) {
      const uint8_t id = pool[c.rand_below(static_cast<uint32_t>(pool.size()), DrawKind::Random)];
      s.harkonnen.battle.captive = static_cast<uint8_t>(id + 1);
      s.step = ability::kCapture;
      s.waiting = bit(s.seat_of(kMe));
      return true;
    }
  }
  return false;
}

// Battle sub-step kCapture.
std::optional<Rejection> capture_validate(const GameState& s, Seat seat, const Action& a) {
  const bool asked = has_bit(s.waiting, seat);
  if (a.kind() != ActionKind::Respond && a.kind() != ActionKind::Pass)
    return reject(RejectCode::WrongPhase, "the Harkonnen decide the fate of a captured leader: the phase takes Respond (or Pass) now");
  if (!asked) return reject(RejectCode::NotYourDecision, "the Harkonnen decide whether to kill or capture the leader (2.05.10)");
  if (a.kind() == ActionKind::Respond)
    if (auto why = ability_blocked(s, kMe, Ability::HarkonnenCapture)) return reject(RejectCode::IllegalChoice, *why);
  return std::nullopt;
}

void capture_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  // 3.01.11.01: a Karama may cancel the kill or the capture as it is chosen (cards.cpp; ruling karama_windows).
  if (a.kind() == ActionKind::Respond && karama_window(c, seat, Ability::HarkonnenCapture, a)) return;
  consume_prevention(s, kMe, Ability::HarkonnenCapture);  // 3.01.11.02: its use opportunity
  const auto id = static_cast<uint8_t>(s.harkonnen.battle.captive - 1);
  auto& l = s.leaders[id];
  const auto* answer = a.get_if<action::Respond>();
  if (answer && answer->accept) {  // 2.05.10.03 CAPTURE
    l.holder = static_cast<uint8_t>(kMe);
    l.zone = LeaderZone::Pool;
    l.aux = kNone8;
  } else if (answer) {  // 2.05.10.02 KILL
    leader_to_tanks(s, id, true);
    transfer_spice(s, bank(), shield(kMe), kCaptureKillSpice);
  }
  s.waiting = 0;
  (void)seat;
  battle_end(c);
}

void capture_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const auto id = static_cast<uint8_t>(s.harkonnen.battle.captive - 1);
  if (auto why = ability_blocked(s, kMe, Ability::HarkonnenCapture)) {
    out.push_back(Decision{ActionKind::Pass, "Neither kill nor capture: " + *why, 0, 0, {}});
    return;
  }
  out.push_back(Decision{ActionKind::Respond,
                         "Captured leaders (2.05.10): " + std::string(data::leader(id).name) + " of " +
                             std::string(faction_name(owner(id))) +
                             " was drawn: capture it into your leader pool, or kill it (face down to the "
                             "Tleilaxu Tanks, for 2 spice)",
                         0, 1, {}, Topic::HarkonnenCapture});
  out.push_back(Decision{ActionKind::Pass, "Neither kill nor capture", 0, 0, {}});
}

void capture_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  for (bool accept : {true, false}) {
    if (ability_cancelled(s, kMe, Ability::HarkonnenCapture)) break;  // 3.01.11.02
    out.push_back(action::Respond{.accept = accept});
  }
  out.push_back(action::Pass{});
}

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
  if (a.as<action::PlayCard>().target >= kNumFactions || !s.has(static_cast<Faction>(a.as<action::PlayCard>().target)))
    return reject(RejectCode::Malformed, "name the faction whose hand you take (target)");
  const auto target = static_cast<Faction>(a.as<action::PlayCard>().target);
  if (target == me) return reject(RejectCode::IllegalChoice, "take another player's hand (1.14.04)");
  if (s.of(target).hand.n == 0) return reject(RejectCode::IllegalChoice, fname(target) + " hold no treachery cards");
  if (!s.harkonnen.karama_taken.empty()) return reject(RejectCode::IllegalChoice, "a hand taken by Karama is still being given back");
  return std::nullopt;
}

// The cards go to HarkonnenState::karama_taken; the KaramaGiveBack window
// (cards.cpp) asks the Harkonnen which cards to give back.
void karama_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  auto& theirs = s.of(static_cast<Faction>(a.as<action::PlayCard>().target)).hand;
  int k = 0;
  while (!theirs.empty()) {
    s.harkonnen.karama_taken.push(theirs.pop());
    ++k;
  }
  Window w;
  w.kind = WindowKind::KaramaGiveBack;
  w.owner = seat;
  w.asked = bit(seat);
  w.subject = static_cast<uint8_t>(k);
  w.target = a.as<action::PlayCard>().target;
  open_window(s, w);
}

void karama_candidates(const GameState&, Faction, const Action& base, std::vector<Action>& out) {
  target_candidates(base, out);
}

// ---- the KaramaGiveBack window (hook response_window; cards.cpp runs it) ----
// Window::target: the faction whose hand was taken; Window::subject: cards
// still to give back. Each Respond{card} gives one, from the Harkonnen's
// own hand or the taken cards; the last one returns the rest to the
// Harkonnen's hand.

std::string give_back_what(const GameState& s, const Window& w) {
  return "the Harkonnen give " + fname(static_cast<Faction>(w.target)) + " " + std::to_string(w.subject) +
         " more card(s) for the hand they took (1.14.04)";
}

std::optional<Rejection> give_back_validate(const GameState& s, Seat seat, const action::Respond& answer, const Window&) {
  if (answer.card >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "name the card to give back (Respond.card)");
  if (!s.of(s.faction_at(seat)).hand.contains(answer.card) && !s.harkonnen.karama_taken.contains(answer.card))
    return reject(RejectCode::IllegalChoice, std::string(data::treachery_card(answer.card).name) + " is not in your hand");
  return std::nullopt;
}

bool give_back_apply(Ctx& c, Seat seat, const action::Respond& answer, Window& w) {
  auto& s = c.s;
  const Faction me = s.faction_at(seat);
  if (!s.of(me).hand.remove(answer.card)) s.harkonnen.karama_taken.remove(answer.card);
  s.of(static_cast<Faction>(w.target)).hand.push(answer.card);
  if (--w.subject > 0) {
    s.waiting = bit(seat);
    return false;
  }
  while (!s.harkonnen.karama_taken.empty()) s.of(me).hand.push(s.harkonnen.karama_taken.pop());
  return true;
}

void give_back_decisions(const GameState& s, Seat seat, const Window& w, std::vector<Decision>& out) {
  const Faction me = s.faction_at(seat);
  Decision d{ActionKind::Respond, "Give " + fname(static_cast<Faction>(w.target)) + " one card back (" +
                                      std::to_string(w.subject) + " still to give, 1.14.04)", 0, 0, {}};
  for (int i = 0; i < s.of(me).hand.n; ++i) d.options.push_back(s.of(me).hand.ids[i]);
  for (int i = 0; i < s.harkonnen.karama_taken.n; ++i) d.options.push_back(s.harkonnen.karama_taken.ids[i]);
  out.push_back(d);
}

void give_back_legal(const GameState& s, Seat seat, const Window& w, std::vector<Action>& out) {
  std::vector<Decision> ds;
  give_back_decisions(s, seat, w, ds);
  action::Respond a;
  for (const auto& d : ds)
    for (auto o : d.options) {
      a.card = static_cast<uint8_t>(o);
      out.push_back(a);
    }
}

// 3.01.11: this faction's abilities marked ✷ (a Karama cancels or prevents
// them): their rules and the action each changes (ActionKind::Pass: an
// automatic ability, prevented only). ability_info() reads them.
constexpr AbilityInfo kAbilities[] = {
    {Ability::HarkonnenCapture, kMe, "2.05.10.01", "capturing leaders", ActionKind::Respond},
    {Ability::HarkonnenTopCard, kMe, "2.05.08", "the top card", ActionKind::Pass},
};

constexpr FactionRules make() {
  FactionRules r;
  r.abilities = kAbilities;
  r.bought_card = bought_card;
  r.battle_traitor_askers = battle_traitor_askers;
  r.after_battle = after_battle;
  r.battle_step = {ability::kCapture, ability::kCapture, nullptr, capture_validate, capture_apply, capture_decisions, capture_legal};
  r.battle_ends = prison_break;
  r.karama_power = {karama_check, karama_apply, karama_candidates,
                    ", or take the whole hand of a faction and give as many cards back (1.14.04)"};
  r.response_window = {WindowKind::KaramaGiveBack, give_back_what, give_back_validate, give_back_apply,
                       give_back_decisions, give_back_legal};
  return r;
}

}  // namespace

constinit const FactionRules kHarkonnenRules = make();

// The faction's entry in the owner table (core/rules/owners.h): no game
// events or modifiers yet; its abilities are reached through kRules' hooks.
constinit const Owner kHarkonnenOwner{"harkonnen", OwnerKind::Faction, faction_seated<Faction::Harkonnen>, {}, {}};

}  // namespace mentat::rules
