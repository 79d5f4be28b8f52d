// The engine dispatcher: routes validate/apply/decisions to the phase that
// owns the current position. Rules themselves live in core/rules/.
#include "core/engine.h"

#include <algorithm>
#include <array>

#include "core/creation.h"
#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/rules.h"

namespace mentat {

std::string_view topic_key(Topic t) {
  static constexpr std::string_view kKeys[kNumTopics] = {
      "",           "richese_lot",        "black_market",       "lot_nobody_bid",   "guild_karama_cancel", "skill_draw",
      "grant_ally_revival", "protect_ally_from_worm", "worm_appears", "harkonnen_capture", "prescience_leader",
      "prescience_weapon",  "prescience_defense",     "prescience_dial", "intrusion",    "half_price_shipment"};
  const auto i = static_cast<size_t>(t);
  return i < std::size(kKeys) ? kKeys[i] : std::string_view();
}

std::string_view window_kind_key(WindowKind w) {
  switch (w) {
    case WindowKind::None: return "";
    case WindowKind::KaramaCancel: return "karama_cancel";
    case WindowKind::Truthtrance: return "truthtrance";
    case WindowKind::KaramaGiveBack: return "karama_give_back";
    case WindowKind::DiscardSearch: return "discard_search";
    case WindowKind::StoneBurner: return "stone_burner";
    case WindowKind::SemutaTake: return "semuta_take";
    case WindowKind::Bureaucracy: return "bureaucracy";
    case WindowKind::ChoamSale: return "choam_sale";
    case WindowKind::SkillRevival: return "skill_revival";
  }
  return "";
}

std::string_view action_kind_name(ActionKind k) {
  static constexpr std::array<std::string_view, kMaxActionKind + 1> names = {
      "None", "CreateGame", "SelectTraitor", "Predict", "PlaceForces", "DialStorm",
      "Pass", "ClaimCharity", "Bid", "Revive", "Ship", "Move", "ProposeAlliance",
      "AcceptAlliance", "BreakAlliance", "Bribe", "Deal", "PlayCard", "Respond",
      "SendSpiritualAdvisor", "Flip", "GuildTiming", "WormRide", "BattlePlan", "ChooseBattle",
      "CallTraitor", "SetRulings", "Prescience", "PrescienceAnswer", "Voice", "GiveSpice", "KeepCards",
      "AllyPermission", "ChoamSell", "ChoamInflation", "ChoamCard", "ChoamTrade", "ChoamSupport", "ChoamKarama",
      "RicheseLot", "RicheseCacheTiming", "RicheseBuy", "RicheseGift", "RicheseReveal", "AssignSkill",
      "MentatQuestion", "MentatAnswer", "DecipherTraitor", "SkillBehind"};
  auto i = static_cast<size_t>(k);
  return i < names.size() ? names[i] : "Unknown";
}

namespace {
template <size_t... I>
Action action_of_index(size_t k, std::index_sequence<I...>) {
  Action out;
  ((k == I ? (out = Action(std::variant_alternative_t<I, ActionVariant>{}), true) : false) || ...);
  return out;
}
}  // namespace

Action Action::of_kind(ActionKind k) {
  return action_of_index(static_cast<size_t>(k), std::make_index_sequence<kMaxActionKind + 1>{});
}

std::string_view reject_code_name(RejectCode c) {
  switch (c) {
    case RejectCode::Malformed: return "malformed";
    case RejectCode::NotYourDecision: return "not_your_decision";
    case RejectCode::WrongPhase: return "wrong_phase";
    case RejectCode::IllegalChoice: return "illegal_choice";
    case RejectCode::NotEnoughSpice: return "not_enough_spice";
    case RejectCode::Storm: return "storm";
    case RejectCode::Occupancy: return "occupancy";
    case RejectCode::GameOver: return "game_over";
  }
  return "unknown";
}

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::Setup: return "Setup";
    case Phase::Storm: return "Storm";
    case Phase::SpiceBlow: return "Spice Blow";
    case Phase::Nexus: return "Nexus";
    case Phase::Charity: return "CHOAM Charity";
    case Phase::Bidding: return "Bidding";
    case Phase::Revival: return "Revival";
    case Phase::ShipmentMovement: return "Shipment and Movement";
    case Phase::Battle: return "Battle";
    case Phase::SpiceCollection: return "Spice Collection";
    case Phase::MentatPause: return "Mentat Pause";
    case Phase::GameOver: return "Game Over";
  }
  return "?";
}

std::optional<std::string> check_setup(const GameSetup& setup) {
  if (setup.factions.size() < 2 || setup.factions.size() > kMaxSeats)
    return "a game needs 2 to 6 factions, got " + std::to_string(setup.factions.size());
  FactionMask seen = 0;
  for (Faction f : setup.factions) {
    auto i = static_cast<int>(f);
    if (i < 0 || i >= kNumFactions) return std::string("unknown faction");
    if (seen & faction_bit(f)) return "faction " + std::string(faction_name(f)) + " appears twice";
    seen = static_cast<FactionMask>(seen | faction_bit(f));
  }
  if (auto why = data::check_factions_and_modules(setup.factions, setup.modules)) return why;
  if (setup.max_turns < 1 || setup.max_turns > kMaxGameTurns)
    return "max_turns must be 1.." + std::to_string(kMaxGameTurns) + ", got " + std::to_string(setup.max_turns);
  for (int i = 0; i < kNumRulings; ++i) {
    const auto& info = ruling_info(static_cast<RulingId>(i));
    if (setup.rulings.value[i] >= info.values.size())
      return "ruling " + std::string(info.key) + " has an out-of-range value";
  }
  return std::nullopt;
}

namespace {
thread_local PhaseStartWatch* g_watch = nullptr;
}  // namespace

PhaseStartWatch::PhaseStartWatch(std::function<void(const GameState&)> fn) : fn_(std::move(fn)), outer_(g_watch) {
  g_watch = this;
}
PhaseStartWatch::~PhaseStartWatch() { g_watch = outer_; }
void notify_phase_start(const GameState& s) {
  if (g_watch) g_watch->fn_(s);
}

std::optional<std::string> check_start(const GameState& start, bool resume) {
  if (static_cast<int>(start.phase) > static_cast<int>(Phase::GameOver)) return std::string("unknown phase");
  if (start.phase == Phase::GameOver) return "a position cannot start after the game is over";
  if (start.phase == Phase::Setup) {
    if (!resume)
      return "a position cannot begin at the Setup (its steps make the position): begin at the Storm phase of turn 1, "
             "give a state inside the Setup (its step), or use `mentat new` without --position";
    if (start.turn != 0) return "turn must be 0 in the Setup, got " + std::to_string(start.turn);
    return std::nullopt;
  }
  if (start.phase == Phase::Nexus && !resume)
    return "a position cannot begin at a Nexus (it opens inside the Spice Blow phase, 1.02.06): begin at the Spice Blow, "
           "or give a state inside the Nexus (its step)";
  if (start.turn < 1 || start.turn > start.max_turns)
    return "turn must be 1.." + std::to_string(start.max_turns) + ", got " + std::to_string(start.turn);
  return std::nullopt;
}

GameState creation_state(const GameSetup& setup) {
  GameState s;
  s.seed = setup.seed;
  s.rng = Rng::from_seed(setup.seed);
  s.num_seats = static_cast<uint8_t>(setup.factions.size());
  s.advanced = setup.advanced ? 1 : 0;
  s.max_turns = setup.max_turns;
  s.rulings = setup.rulings;
  s.modules = setup.modules;
  for (size_t i = 0; i < setup.factions.size(); ++i) {
    s.seat_faction[i] = static_cast<uint8_t>(setup.factions[i]);
    auto& fs = s.of(setup.factions[i]);
    fs.in_game = 1;
    fs.seat = static_cast<Seat>(i);
  }
  for (int i = 0; i < data::kNumLeaders; ++i) {  // a leader not in this game (the basic game's Auditor) has no holder
    s.leaders[i].holder = s.leader_in_game(static_cast<LeaderId>(i)) || !s.has(data::leader(static_cast<LeaderId>(i)).faction)
                              ? static_cast<uint8_t>(data::leader(static_cast<LeaderId>(i)).faction)
                              : kNoFaction;
  }
  return s;
}

GameState create_game(const GameSetup& setup, DrawLog* draws) {
  if (setup.start) {  // a described position: as it is, or its phase begins now
    GameState s = *setup.start;
    s.version = 0;
    if (!setup.resume) {
      s.step = 0;
      s.waiting = 0;
    }
    rules::Ctx c{s, draws};
    if (setup.shuffle_decks) {
      rules::shuffle_pile(c, s.treachery_deck, DrawKind::ShuffleTreachery);
      rules::shuffle_pile(c, s.spice_deck, DrawKind::ShuffleSpice);
      rules::shuffle_pile(c, s.traitor_deck, DrawKind::ShuffleTraitors);
      if (s.fremen.storm_deck.n > 1) rules::shuffle_pile(c, s.fremen.storm_deck, DrawKind::ShuffleStormDeck);
    }
    if (!setup.resume) rules::enter_phase(c, s.phase);
    return s;
  }
  GameState s = creation_state(setup);
  rules::Ctx c{s, draws};
  rules::setup_rules().enter(c);
  return s;
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (const auto* set = a.get_if<action::SetRulings>()) {
    // Adjudication, not play: the room layer only lets a fork's first own event through.
    if (seat != kNoSeat) return Rejection{RejectCode::NotYourDecision, "only an adjudicator's fork may change the rulings"};
    for (int i = 0; i < kNumRulings; ++i)
      if (set->rulings->value[i] >= ruling_info(static_cast<RulingId>(i)).values.size())
        return Rejection{RejectCode::Malformed, "a ruling value is out of range"};
    return std::nullopt;
  }
  if (seat < 0 || seat >= s.num_seats)
    return Rejection{RejectCode::Malformed, "seat " + std::to_string(seat) + " is not in this game"};
  if (s.phase == Phase::GameOver) return Rejection{RejectCode::GameOver, "the game is over"};
  if (a.kind() == ActionKind::None || a.kind() == ActionKind::CreateGame)
    return Rejection{RejectCode::Malformed, "this action cannot be submitted to a running game"};
  if (rules::is_card_action(s, a)) return rules::validate_card(s, seat, a);  // cards, response windows
  if (rules::is_anytime(a.kind())) return rules::validate_anytime(s, seat, a);
  return rules::phase_rules(s.phase).validate(s, seat, a);
}

void apply(GameState& s, Seat seat, const Action& a, DrawLog* draws) { apply(s, seat, a, draws, nullptr); }

void apply(GameState& s, Seat seat, const Action& a, DrawLog* draws, ApplyNotes* notes) {
  rules::Ctx c{s, draws, notes};
  rules::semuta_begin_action(s);  // what the previous action discarded is no longer "just discarded"
  rules::skills_begin_action(s);  // the Bureaucrat's record of this action's payments (core/cards/leader_skills.cpp)
  if (const auto* set = a.get_if<action::SetRulings>()) {
    s.rulings = *set->rulings;
  } else if (rules::is_card_action(s, a)) {
    rules::apply_card(c, seat, a);
  } else if (rules::is_anytime(a.kind())) {
    rules::apply_anytime(c, seat, a);
  } else {
    rules::phase_rules(s.phase).apply(c, seat, a);
  }
  rules::semuta_end_action(c);  // a card just discarded: the Semuta Drug's window (core/cards/semuta_drug.cpp)
  rules::skills_end_action(c, a);  // a payment between two others: the Bureaucrat's window
  ++s.version;
}

uint8_t waiting_for(const GameState& s) { return s.phase == Phase::GameOver ? 0 : s.waiting; }

std::vector<Decision> decisions(const GameState& s, Seat seat) {
  std::vector<Decision> out;
  if (seat < 0 || seat >= s.num_seats || s.phase == Phase::GameOver) return out;
  if (!rules::window_open(s)) rules::phase_rules(s.phase).decisions(s, seat, out);
  rules::card_decisions(s, seat, out);
  rules::anytime_decisions(s, seat, out);
  return out;
}

std::vector<Action> legal_actions(const GameState& s, Seat seat) {
  std::vector<Action> out;
  if (seat < 0 || seat >= s.num_seats || s.phase == Phase::GameOver) return out;
  if (!rules::window_open(s)) rules::phase_rules(s.phase).legal(s, seat, out);
  rules::card_legal(s, seat, out);
  rules::anytime_legal(s, seat, out);
  return out;
}

std::vector<Seat> storm_order(const GameState& s) { return rules::order_from_first(s); }

Seat first_player(const GameState& s) {
  auto o = rules::order_from_first(s);
  return o.empty() ? kNoSeat : o.front();
}

namespace rules {

const PhaseRules& phase_rules(Phase p) {
  switch (p) {
    case Phase::Setup: return setup_rules();
    case Phase::Storm: return storm_rules();
    case Phase::SpiceBlow: return spice_blow_rules();
    case Phase::Nexus: return nexus_rules();
    case Phase::Charity: return charity_rules();
    case Phase::Bidding: return bidding_rules();
    case Phase::Revival: return revival_rules();
    case Phase::ShipmentMovement: return shipment_movement_rules();
    case Phase::Battle: return battle_rules();
    case Phase::SpiceCollection: return collection_rules();
    case Phase::MentatPause:
    case Phase::GameOver: return mentat_pause_rules();
  }
  return mentat_pause_rules();
}

void enter_phase(Ctx& c, Phase next) {
  // The end of the phase: a faction may act first (hook phase_ends; its
  // window's `closed` enters `next` with begin_phase).
  if (c.s.phase != Phase::Setup && c.s.phase != next && !window_open(c.s))
    for (int fi = 0; fi < kNumFactions; ++fi) {
      const auto h = faction_rules(static_cast<Faction>(fi)).phase_ends;
      if (h && c.s.has(static_cast<Faction>(fi)) && h(c, next)) return;
    }
  begin_phase(c, next);
}

void begin_phase(Ctx& c, Phase next) {
  c.s.phase = next;
  c.s.step = 0;
  c.s.waiting = 0;
  notify_phase_start(c.s);
  phase_rules(next).enter(c);
}

}  // namespace rules
}  // namespace mentat
