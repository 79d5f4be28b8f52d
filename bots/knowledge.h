// What a bot knows, decoded from its seat's View FlatBuffer into ids and
// counts (names in the view are mapped back to the static component tables).
// Internal to bots/.
//
// Contract: read_knowledge() reads only the View; fields the view does not
// give (others' hands, others' spice, face-down leaders) stay "unknown"
// (-1, kNone8 or known=false). Pure; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bots/bot.h"
#include "core/data/board.h"
#include "core/data/components.h"
#include "core/state.h"

namespace mentat::bots {

struct FactionInfo {
  bool present = false;
  Seat seat = kNoSeat;
  int spice = -1;  // -1: hidden (others', unless allied)
  int bribes = 0;
  int hand_count = 0;
  int reserves[2] = {0, 0};
  int tanks[2] = {0, 0};
  uint8_t ally = kNoFaction;
  bool shipped = false, moved = false;
  // 1.10.02.05/06 the allowance this faction gives its ally (-1: not shown:
  // the view lists it for the viewer and its ally only).
  int permit_ship = -1, permit_bids = -1;
};

struct LeaderInfo {
  bool known = false;  // listed in the view (face-down leaders of others are not)
  LeaderZone zone = LeaderZone::Pool;
  uint8_t holder = kNoFaction;
};

struct PlanInfo {
  bool known = false;
  uint8_t leader = kNone8;                 // leader id
  bool cheap_hero = false;
  data::TreacheryKind weapon{}, defense{};
  bool has_weapon = false, has_defense = false;
  uint8_t weapon_card = kNone8, defense_card = kNone8;  // a card id of that name (same kind and category)
  int dial = 0, spice = 0;
  bool dial_hidden = false;  // not shown (a No-Field battle seen by Karama, ruling no_field_prescience)
};

// A decision as the seat's view gives it: the typed fields only (the prompt
// is a sentence for people; bots never read it).
struct DecisionInfo {
  ActionKind kind = ActionKind::None;
  int min = 0, max = 0;
  std::vector<uint16_t> options;
  Topic topic = Topic::None;
  WindowKind window = WindowKind::None;
  uint8_t owner = kNoFaction;
  std::string ability;  // the ability at stake in a Karama window (its name)
  int amount = -1;
  int place = -1;       // a territory id
};

struct Knowledge {
  Seat seat = kNoSeat;
  Faction me = Faction::Atreides;
  uint64_t version = 0;
  int turn = 0, max_turns = 10;
  bool advanced = false;
  Phase phase = Phase::Setup;
  int storm_sector = 0;
  int num_seats = 0;
  std::vector<Seat> storm_order;
  Faction seat_faction[kMaxSeats] = {};
  FactionInfo fac[kNumFactions];
  uint8_t forces[kNumFactions][data::kNumLocations][2] = {};
  uint16_t spice_on_board[data::kNumLocations] = {};
  LeaderInfo leaders[data::kNumLeaders];
  std::vector<uint8_t> hand;      // my treachery card ids
  std::vector<uint8_t> traitors;  // my traitor leader ids
  std::vector<uint8_t> traitor_offer;
  std::vector<uint8_t> discard;   // treachery discard pile ids
  int treachery_deck_count = 0;
  // Bidding (1.04).
  bool bidding = false;
  uint8_t bid_card = kNone8;  // the card up for bid, when this seat may look at it
  int high_bid = 0;
  Seat high_bidder = kNoSeat;
  int card_number = 0, cards_up = 0;
  // Battle (1.07).
  bool battle = false;
  TerritoryId battle_territory = kNone8;
  Seat aggressor = kNoSeat, defender = kNoSeat;
  PlanInfo plan[2];  // [0] aggressor, [1] defender (known: its own, after the reveal, or by 1.14.01)
  bool plan_in[2] = {false, false};  // the side's plan is committed (public)
  int prescience_element = -1;  // 2.01.08: 0 leader, 1 weapon, 2 defense, 3 dial (-1: none)
  int prescience_value = -1;    // the committed answer, when this seat may see it (-1: unknown)
  int voice_kind = -1;          // 2.02.06 the command of this battle (-1: none)
  std::vector<DecisionInfo> decisions;
  // Public extras.
  bool shield_wall_destroyed = false;
  int storm_override = -1;      // 3.01.23 Weather Control this phase (-1: none)
  // An open KaramaCancel window (3.01.11.01): the ability a Respond
  // accept=true cancels (rules::Ability id) and the faction using it.
  uint8_t cancel_ability = kNone8;
  uint8_t cancel_faction = kNoFaction;
  // 2.01.07 Wormsign: the spice card the Atreides saw on top of the spice
  // deck this turn (kNone8: none shown, or not the Atreides).
  uint8_t wormsign = kNone8;
  // CHOAM (CHOAM & Richese): the card trade with its ally (public).
  bool choam_trade_open = false;
  int choam_traded_turn = 0, choam_declined_turn = 0;
  int choam_support = 0;             // spice of CHOAM's its ally may use in battle (public)
  bool choam_audit_pending = false;  // the audited faction decides on the Auditor's look (public)
  // The Auditor's last look: whom it audited (public) and the cards it saw
  // (CHOAM's and the audited faction's view only; empty otherwise).
  uint8_t choam_audit_of = kNoFaction;
  int choam_audit_turn = 0;
  std::vector<uint8_t> choam_audit_cards;
  // Richese (CHOAM & Richese): the lot up for bid (0 none, 1 cache, 2 Black
  // Market) and its auction (0 normal, 1/2 once around, 3 silent), public;
  // the cache's cards (the Richese seat only); the special purchase used.
  int richese_lot = 0, richese_auction = 0;
  int richese_cache_count = 0;
  std::vector<uint8_t> richese_cache;
  bool richese_karama_used = false;
  // The No-Field tokens: the concealed marker's location (public, kNone8:
  // none), the face-up value (public, -1: none), the marker's value (the
  // Richese seat only, -1: unknown or none).
  uint8_t no_field_location = kNone8;
  int no_field_face_up = -1, no_field_value = -1;
  bool richese_ally_no_field = false;  // the Richese let their ally ship with a No-Field token (view richese.ally_no_field)
  // Leader Skills: the skill card (0..13) under each leader, -1 none or face
  // down to this seat; front: its front band works now; my dealt cards.
  uint8_t skill1[data::kNumLeaders] = {};  // 1 + the skill id, 0: none known
  bool skill_front[data::kNumLeaders] = {};
  std::vector<uint8_t> skill_hand;
  // The Mentat's question in this battle: the weapon asked (kNone8: none),
  // the asker, and the card shown (this seat's knowledge: kNone8 unknown).
  uint8_t mentat_weapon = kNone8, mentat_shown = kNone8;
  Faction mentat_asker = Faction::Atreides;
  bool mentat_answered = false;
  // The Bureaucrat's window: the faction paid (kNoFaction: no window open).
  uint8_t bureau_receiver = kNoFaction;
  int skill_of(uint8_t leader) const { return leader < data::kNumLeaders ? skill1[leader] - 1 : -1; }
  // A leader of f has skill k in front of the shield.
  bool skill_in_front(Faction f, data::LeaderSkill k) const;
  std::vector<uint8_t> spice_discard_a;  // spice card ids, top last
  std::vector<std::pair<std::string_view, std::string_view>> rulings;  // key, value (the rulings registry's names: static)
  struct Truthtrance {
    bool known = false;
    uint8_t asker = kNoFaction, asked = kNoFaction;
    int question = -1, subject = -1, answer = -1, turn = 0;
  } truthtrance;  // 3.01.22 the last question and its answer (public)

  // The value of ruling `key` ("" when the view does not list it).
  std::string ruling(std::string_view key) const;
  // 1.14.06 / 2.02.22: may this faction's worthless cards serve as a Karama here?
  bool worthless_is_karama() const;

  const FactionInfo& mine() const { return fac[static_cast<int>(me)]; }
  bool has(Faction f) const { return fac[static_cast<int>(f)].present; }
  uint8_t ally() const { return mine().ally; }
  bool is_ally(Faction f) const { return ally() == static_cast<uint8_t>(f); }
  // Fighters (the advanced Bene Gesserit's advisors excluded).
  int fighters(Faction f, LocationId l) const;
  int fighters_in_territory(Faction f, TerritoryId t) const;
  int forces_in_territory(Faction f, TerritoryId t) const;  // advisors included
  bool occupies(Faction f, TerritoryId t) const { return fighters_in_territory(f, t) > 0; }
  // Other factions (not me, not my ally) with fighters in t.
  int enemies_in(TerritoryId t) const;
  int enemy_fighters_in(TerritoryId t) const;
  bool in_storm(LocationId l) const;
  // Battle strength of f's fighters in t (elites worth 2 where they count 2).
  int strength_in(Faction f, TerritoryId t, Faction against) const;
  // Strongholds f controls alone (no other faction but its ally occupies them).
  int strongholds_controlled(Faction f) const;
  // The Advanced Stronghold Cards (module stronghold_cards; view stronghold_cards, public): each card's
  // stronghold and holder (kNoFaction: none); empty without the module.
  std::vector<std::pair<TerritoryId, uint8_t>> stronghold_cards;
  uint8_t stronghold_card_holder(TerritoryId t) const {
    for (const auto& [where, holder] : stronghold_cards)
      if (where == t) return holder;
    return kNoFaction;
  }
  bool controls(Faction f, TerritoryId t) const;
  int forces_on_board(Faction f) const;
};

Knowledge read_knowledge(const ViewInput& in);

// Static lookups from the names the view uses.
LocationId location_by_name(std::string_view name);  // kNone8 if unknown
uint8_t leader_by_name(std::string_view name);       // kNone8 if unknown
bool treachery_kind_by_name(std::string_view name, data::TreacheryKind* out);
uint8_t spice_card_by_name(std::string_view name);   // kNone8 if unknown (a Shai-Hulud name: the first)

}  // namespace mentat::bots
