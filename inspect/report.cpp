#include "inspect/report.h"

#include <cstdlib>
#include <fmt/format.h>

#include "core/cards/card_rules.h"
#include "core/rules/rules.h"
#include "events/codec.h"
#include "events/json_text.h"
#include "replay/diff.h"

namespace mentat::inspect {

namespace {
std::string loc_name(LocationId l) { return l < data::kNumLocations ? std::string(data::location(l).name) : "?"; }
std::string fac(uint8_t f) { return f < kNumFactions ? std::string(faction_name(static_cast<Faction>(f))) : "?"; }
}  // namespace

std::string summarize_event(const codec::Event& e, const GameState* before, const GameState& after, bool show_hidden) {
  const auto& a = e.action;
  std::string who = (before && e.seat >= 0) ? std::string(faction_name(before->faction_at(e.seat))) : "game";
  std::string what;
  // A silent Richese auction: each bid is secret until all are in.
  constexpr uint8_t kRicheseAuctionStep = 4;  // core/factions/richese.cpp kAuction
  const bool silent_bid = !show_hidden && before && before->phase == Phase::Bidding && before->step == kRicheseAuctionStep &&
                          before->richese.bidding.lot != LotKind::None && before->richese.bidding.auction == AuctionKind::Silent;
  auto card = [](uint8_t c) { return c < data::kNumAllTreacheryCards ? std::string(data::treachery_card(c).name) : std::string("a card"); };
  switch (a.kind()) {
    case ActionKind::CreateGame: {
      // The seed decides every future draw: only adjudicators see it.
      what = fmt::format("created: {}{} rules, {} turns, factions", show_hidden ? fmt::format("seed {}, ", e.setup.seed) : "",
                         e.setup.advanced ? "advanced" : "basic", e.setup.max_turns);
      for (auto f : e.setup.factions) what += " " + std::string(faction_name(f));
      if (e.setup.start)  // mentat new --position (events/position.h)
        what += fmt::format("; from a described position: {} of turn {}{}", phase_name(e.setup.start->phase),
                            e.setup.start->turn, e.setup.resume ? fmt::format(", step {}", e.setup.start->step) : ", as it begins");
      break;
    }
    case ActionKind::SelectTraitor: {
      const auto& traitor = a.as<action::SelectTraitor>();
      what = show_hidden ? fmt::format("keeps traitor {}", data::leader(traitor.leader).name) : "selects a traitor";
      break;
    }
    case ActionKind::Predict: {
      const auto& predict = a.as<action::Predict>();
      what = show_hidden ? fmt::format("predicts {} on turn {}", fac(predict.faction), predict.turn) : "makes the prediction";
      break;
    }
    case ActionKind::PlaceForces: {
      const auto& place = a.as<action::PlaceForces>();
      what = "places";
      for (int i = 0; i < place.placements.size(); ++i)
        what += fmt::format(" {}+{} in {}", place.placements[i].forces, place.placements[i].special, loc_name(place.placements[i].location));
      break;
    }
    case ActionKind::DialStorm: {
      const auto& dial = a.as<action::DialStorm>();
      what = show_hidden ? fmt::format("dials {} for the storm", dial.value) : "dials the storm"; break;
    }
    case ActionKind::Pass: what = silent_bid ? "makes its silent bid" : "passes"; break;
    case ActionKind::ClaimCharity: what = "claims CHOAM Charity"; break;
    case ActionKind::Bid: {
      const auto& bid = a.as<action::Bid>();
      what = silent_bid ? "makes its silent bid"  // secret until all are in (core/factions/richese.cpp)
                        : fmt::format("bids {}{}", bid.amount, bid.karama ? " with Karama" : "");
      break;
    }
    case ActionKind::Revive: {
      const auto& revive = a.as<action::Revive>();
      what = fmt::format("revives {} forces, {} special{}", revive.forces, revive.special,
                         revive.leader == 254                                   ? std::string(" and the Kwisatz Haderach")  // 2.01.14
                         : revive.leader != kNone8 && revive.leader < data::kNumLeaders ? fmt::format(" and {}", data::leader(revive.leader).name)
                                                                          : std::string());
      break;
    }
    case ActionKind::Ship: {
      const auto& ship = a.as<action::Ship>();
      if (ship.no_field != kNone8) {  // the Richese's own token is concealed; the ally's is revealed at once (richese_no_field.cpp)
        const bool own = !before || (e.seat >= 0 && before->faction_at(e.seat) == Faction::Richese);  // unknown: concealed
        what = own ? fmt::format("ships a No-Field token{} to {}", show_hidden ? fmt::format(" ({})", ship.no_field) : "", loc_name(ship.to))
                   : fmt::format("ships with the {} No-Field to {}, revealed at once", ship.no_field, loc_name(ship.to));
        if (ship.ally_pays) what += fmt::format(" (the ally pays {})", ship.ally_pays);
        break;
      }
      what = ship.to_reserves ? fmt::format("ships {}+{} from {} to reserves", ship.forces, ship.special, loc_name(ship.from))
                    : fmt::format("ships {}+{} to {}{}", ship.forces, ship.special, loc_name(ship.to),
                                  ship.from != kNone8 ? " from " + loc_name(ship.from) : "");
      if (ship.ally_pays) what += fmt::format(" (the ally pays {})", ship.ally_pays);
      break;
    }
    case ActionKind::Move: {
      const auto& move = a.as<action::Move>();
      int n = 0;
      for (int i = 0; i < move.from.size(); ++i) n += move.from[i].forces + move.from[i].special;
      what = fmt::format("moves {} forces from {} to {}", n, move.from.size() ? loc_name(move.from[0].location) : "?", loc_name(move.to));
      if (move.flip) what += " and takes up arms";
      if (move.ornithopter == 1) what += " with the Ornithopter (one group, up to three territories)";
      if (move.ornithopter == 2) what += " with the Ornithopter (the first of two groups)";
      if (before && before->phase == Phase::Battle) what += " (the Diplomat's retreat, Leader Skills)";
      break;
    }
    case ActionKind::ProposeAlliance: {
      const auto& propose = a.as<action::ProposeAlliance>();
      what = "proposes an alliance to " + fac(propose.with); break;
    }
    case ActionKind::AcceptAlliance: {
      const auto& accept = a.as<action::AcceptAlliance>();
      what = "accepts an alliance with " + fac(accept.with); break;
    }
    case ActionKind::BreakAlliance: what = "breaks the alliance"; break;
    case ActionKind::Bribe: {
      const auto& bribe = a.as<action::Bribe>();
      what = fmt::format("bribes {} with {} spice", fac(bribe.to), bribe.amount); break;
    }
    case ActionKind::Deal: {
      const auto& deal = a.as<action::Deal>();
      what = "records a deal: " + deal.text; break;
    }
    case ActionKind::GiveSpice: {
      const auto& gift = a.as<action::GiveSpice>();
      what = fmt::format("gives {} {} spice", fac(gift.to), gift.amount); break;
    }
    case ActionKind::AllyPermission: {
      const auto& permission = a.as<action::AllyPermission>();
      what = show_hidden ? fmt::format("lets the ally use {} spice for shipments, {} for bids", permission.shipment, permission.bids)
                         : "sets what the ally may spend";
      break;
    }
    case ActionKind::ChoamSupport:  // public (CHOAM & Richese)
      what = fmt::format("lets the ally use {} spice for its battle spice", a.as<action::ChoamSupport>().battle);
      break;
    case ActionKind::ChoamKarama: {  // face up (the advanced special Karama)
      const auto& use = a.as<action::ChoamKarama>();
      what = "uses the special Karama, discarding";
      for (uint8_t card : use.cards)
        what += " " + (card < data::kNumAllTreacheryCards ? std::string(data::treachery_card(card).name) : std::string("a card"));
      what += fmt::format(" for {} spice", 3 * use.cards.size());
      break;
    }
    case ActionKind::ChoamSell: {
      const uint8_t card = a.as<action::ChoamSell>().card;  // sold face up (CHOAM & Richese)
      what = fmt::format("sells {}", card < data::kNumAllTreacheryCards ? std::string(data::treachery_card(card).name) : "a card");
      break;
    }
    case ActionKind::ChoamCard: {
      const auto& use = a.as<action::ChoamCard>();  // played face up
      what = fmt::format("plays {}", use.card < data::kNumAllTreacheryCards ? std::string(data::treachery_card(use.card).name) : "a card");
      if (use.faction < kNumFactions) what += " on " + fac(use.faction);
      if (use.location < data::kNumLocations) what += " in " + loc_name(use.location);
      break;
    }
    case ActionKind::ChoamTrade: {
      const uint8_t card = a.as<action::ChoamTrade>().card;  // the faces are the two allies' secret
      what = card == kNone8 ? "withdraws or declines the card trade"
                            : show_hidden && card < data::kNumAllTreacheryCards ? fmt::format("puts {} in the card trade", data::treachery_card(card).name)
                                                                                 : "puts a card in the card trade";
      break;
    }
    case ActionKind::RicheseLot: {  // the cache lot is named face up; a Black Market card is Richese's secret
      const auto& lot = a.as<action::RicheseLot>();
      static constexpr const char* kAuctions[] = {"normal bidding", "once around to the right", "once around to the left", "a silent auction"};
      // Without the state before it, which lot it is cannot be told: the card is named only to adjudicators.
      const bool market = !before || !before->richese.cache.contains(lot.card);
      const std::string which = !before ? (show_hidden ? card(lot.card) : "a card")
                                : market ? (show_hidden ? "Black Market card " + card(lot.card) : "a Black Market card")
                                         : "cache card " + card(lot.card);
      what = fmt::format("puts {} up for bid by {}", which, lot.auction < 4 ? kAuctions[lot.auction] : "?");
      break;
    }
    case ActionKind::AssignSkill: {  // face down until every faction has assigned (core/cards/leader_skills.cpp)
      const auto& as = a.as<action::AssignSkill>();
      const std::string leader = as.leader < data::kNumLeaders ? std::string(data::leader(as.leader).name) : "?";
      const bool revived = before && e.seat >= 0 && as.leader < data::kNumLeaders &&
                           before->skills.revival_leader1[static_cast<int>(before->faction_at(e.seat))] == as.leader + 1;
      if (revived && as.skill < data::kNumLeaderSkills) {  // a revived leader's skill is face up at once
        what = fmt::format("gives {} the leader skill {} (face up)", leader, data::leader_skill_name(as.skill));
        break;
      }
      what = show_hidden ? fmt::format("puts {} under {}", as.skill < data::kNumLeaderSkills ? std::string(data::leader_skill_name(as.skill)) : "?", leader)
                         : "puts a leader skill card face down under " + leader;
      break;
    }
    case ActionKind::MentatQuestion: {  // public: the weapon named
      const uint8_t w = a.as<action::MentatQuestion>().weapon;
      what = fmt::format("asks with its Mentat whether the opponent holds a {}", w < data::kNumAllTreacheryCards ? std::string(data::treachery_card(w).name) : "?");
      break;
    }
    case ActionKind::MentatAnswer: {  // the face is the asker's secret
      const uint8_t sc = a.as<action::MentatAnswer>().card;
      what = show_hidden && sc < data::kNumAllTreacheryCards ? fmt::format("shows the Mentat's owner {}", data::treachery_card(sc).name)
                                                             : "shows the Mentat's owner a card";
      break;
    }
    case ActionKind::DecipherTraitor: {  // the card given back is revealed; the one kept is secret
      const auto& d = a.as<action::DecipherTraitor>();
      const std::string give = d.give < data::kNumLeaders ? std::string(data::leader(d.give).name) : "?";
      what = show_hidden && d.take < data::kNumLeaders ? fmt::format("gives back traitor card {} and keeps {} (Rihani Decipherer)", give, data::leader(d.take).name)
                                                       : fmt::format("gives back traitor card {} for one of the two it drew (Rihani Decipherer)", give);
      break;
    }
    case ActionKind::SkillBehind: {  // public: the card moves behind the shield
      const LeaderId l = a.as<action::SkillBehind>().leader;
      const int skill = before && l < data::kNumLeaders ? rules::leader_skill(*before, l) : -1;
      what = l < data::kNumLeaders ? fmt::format("moves {}'s skill card{} behind its shield", data::leader(l).name,
                                                 skill >= 0 ? fmt::format(" ({})", data::leader_skill_name(static_cast<uint8_t>(skill))) : "")
                                   : "moves a skill card behind its shield";
      break;
    }
    case ActionKind::RicheseCacheTiming:
      what = a.as<action::RicheseCacheTiming>().first ? "will sell its cache card first" : "will sell its cache card last";
      break;
    case ActionKind::RicheseReveal: {  // public: the token turns face up
      int value = -1;
      if (before)
        for (int i = 0; i < kNumNoFieldTokens; ++i)
          if (before->richese.no_field[i].zone == TokenZone::Board) value = kNoFieldValues[i];
      what = value >= 0 ? fmt::format("reveals its No-Field: {}", value) : "reveals its No-Field";
      break;
    }
    case ActionKind::RicheseBuy: {  // the Karama is discarded face up; the card taken is Richese's secret
      const auto& buy = a.as<action::RicheseBuy>();
      what = fmt::format("discards {} and buys {} from its cache for 3 spice (special Karama)", card(buy.karama),
                         show_hidden ? card(buy.card) : "a card");
      break;
    }
    case ActionKind::RicheseGift:  // the face is the two allies' secret
      what = fmt::format("gives its ally {}", show_hidden ? card(a.as<action::RicheseGift>().card) : "a Richese card");
      break;
    case ActionKind::ChoamInflation:
      what = a.as<action::ChoamInflation>().side == 1 ? "places the Inflation token, Double side up" : "places the Inflation token, Cancel side up";
      break;
    case ActionKind::KeepCards: {
      const auto& kept = a.as<action::KeepCards>();
      what = "keeps";
      for (int i = 0; i < kept.keep.size(); ++i)
        what += std::string(i ? ", " : " ") + (kept.keep[i] < data::kNumAllTreacheryCards ? std::string(data::treachery_card(kept.keep[i]).name) : "?");
      if (!kept.keep.size()) what = "discards all its battle cards";
      break;
    }
    case ActionKind::PlayCard: {
      const auto& play = a.as<action::PlayCard>();
      what = play.card < data::kNumAllTreacheryCards ? fmt::format("plays {}", data::treachery_card(play.card).name) : "plays a card";
      if (play.card < data::kNumAllTreacheryCards && data::treachery_card(play.card).kind == data::TreacheryKind::Distrans &&
          play.target < kNumFactions)  // the given card is the two players' secret (core/cards/distrans.cpp)
        what += fmt::format(": gives {} to {}", show_hidden && play.value < data::kNumAllTreacheryCards ? card(play.value) : "a card",
                            fac(play.target));
      else if (play.card < data::kNumAllTreacheryCards && data::treachery_card(play.card).kind == data::TreacheryKind::NullentropyBox)
        what += " (2 spice to the bank): searches the treachery discard pile";
      break;
    }
    case ActionKind::Respond: {
      const auto& answer = a.as<action::Respond>();
      if (before && before->window_depth > 0 && before->windows[before->window_depth - 1].kind == WindowKind::DiscardSearch) {
        // The Nullentropy Box's choice: the face only to the searcher (core/cards/nullentropy_box.cpp).
        what = fmt::format("takes {} from the treachery discard pile", show_hidden && answer.card < data::kNumAllTreacheryCards ? card(answer.card) : "a card");
        break;
      }
      if (before && before->window_depth > 0 && before->windows[before->window_depth - 1].kind == WindowKind::ChoamSale) {
        // CHOAM's end-of-phase sale (ruling choam_sell_timing): sold face up.
        what = answer.accept ? fmt::format("sells {}", answer.card < data::kNumAllTreacheryCards ? card(answer.card) : "a card")
                             : std::string("ends its sales");
        break;
      }
      if (before && before->window_depth > 0 && before->windows[before->window_depth - 1].kind == WindowKind::SkillRevival) {
        what = answer.accept ? "draws two leader skill cards for the leader it revived" : "takes no leader skill for the leader it revived";
        break;
      }
      what = answer.accept ? "answers yes" : "answers no"; break;
    }
    case ActionKind::SendSpiritualAdvisor: {
      const auto& advisor = a.as<action::SendSpiritualAdvisor>();
      what = "sends a spiritual advisor to " + loc_name(advisor.to); break;
    }
    case ActionKind::Flip: {
      const auto& flip = a.as<action::Flip>();
      what = "flips forces in " + loc_name(flip.location); break;
    }
    case ActionKind::GuildTiming: {
      const auto& timing = a.as<action::GuildTiming>();
      what = timing.now ? "acts now" : "waits"; break;
    }
    case ActionKind::WormRide: {
      const auto& ride = a.as<action::WormRide>();
      what = "rides the worm to " + loc_name(ride.to); break;
    }
    case ActionKind::BattlePlan: {
      const auto& plan = a.as<action::BattlePlan>();
      what = show_hidden ? fmt::format("battle plan: leader {}, dial {}, weapon {}, defense {}",
                                                                 plan.leader < data::kNumLeaders ? std::string(data::leader(plan.leader).name) : "none", plan.dial,
                                                                 plan.weapon < data::kNumAllTreacheryCards ? std::string(data::treachery_card(plan.weapon).name) : "none",
                                                                 plan.defense < data::kNumAllTreacheryCards ? std::string(data::treachery_card(plan.defense).name) : "none")
                                                   : "submits a battle plan"; break;
    }
    case ActionKind::ChooseBattle: {
      const auto& choice = a.as<action::ChooseBattle>();
      what = fmt::format("chooses the battle in {} against {}", choice.territory < data::kNumTerritories ? std::string(data::territory(choice.territory).name) : "?", fac(choice.opponent));
      break;
    }
    case ActionKind::CallTraitor: {
      const auto& call = a.as<action::CallTraitor>();
      what = call.call ? "calls traitor!" : "does not call a traitor"; break;
    }
    case ActionKind::Prescience: {
      const auto& prescience = a.as<action::Prescience>();
      static constexpr const char* kElements[] = {"leader", "weapon", "defense", "number dialed"};
      what = fmt::format("uses Prescience: asks for the {}", prescience.element < 4 ? kElements[prescience.element] : "?");
      break;
    }
    case ActionKind::PrescienceAnswer: {
      const auto& answer = a.as<action::PrescienceAnswer>();
      // Hidden from the others: the Atreides (and their ally) see it in their view.
      if (!show_hidden) {
        what = "answers the Prescience";
        break;
      }
      const uint8_t el = before ? before->atreides.battle.prescience : 0;  // 1 + element asked
      std::string v = "not played";
      if (answer.value != kNone8) {
        if (el == 1) v = answer.value >= 100 && answer.value - 100 < data::kNumAllTreacheryCards ? std::string(data::treachery_card(answer.value - 100).name)
                         : answer.value < data::kNumLeaders                            ? std::string(data::leader(answer.value).name)
                                                                                  : "?";
        else if (el == 2 || el == 3) v = answer.value < data::kNumAllTreacheryCards ? std::string(data::treachery_card(answer.value).name) : "?";
        else if (el == 4) v = fmt::format("dial {}", answer.value);
        else v = fmt::format("{}", answer.value);
      }
      what = "answers the Prescience: " + v;
      break;
    }
    case ActionKind::Voice: {
      const auto& voice = a.as<action::Voice>();
      std::string k = "?";
      switch (voice.kind) {
        case 0: k = "a poison weapon"; break;
        case 1: k = "a projectile weapon"; break;
        case 2: k = "a poison defense"; break;
        case 3: k = "a projectile defense"; break;
        case 4: k = "a worthless card"; break;
        case 5: k = "a Cheap Hero"; break;
        default:
          if (voice.kind >= 64 && voice.kind - 64 < data::kNumAllTreacheryKinds)
            k = std::string(data::treachery_kind_name(static_cast<data::TreacheryKind>(voice.kind - 64)));
      }
      what = fmt::format("uses the Voice: {} {}", voice.must ? "play" : "do not play", k);
      break;
    }
    case ActionKind::SetRulings: {  // only what changes
      const Rulings& rulings = *a.as<action::SetRulings>().rulings;
      what = "adjudicator sets rulings:";
      int n = 0;
      for (const auto& info : ruling_registry()) {
        if (before && before->rulings.get(info.id) == rulings.get(info.id)) continue;
        what += fmt::format(" {}={}", info.key, info.values[rulings.get(info.id)]);
        if (before) what += fmt::format(" (was {})", info.values[before->rulings.get(info.id)]);
        ++n;
      }
      if (n == 0) what += " none changed";
      break;
    }
    case ActionKind::None: what = "?"; break;
  }
  // A concealed No-Field the event turned face up (a reveal is public): the
  // battle plans, the storm, a worm, an explosion, a new shipment.
  if (before && a.kind() != ActionKind::RicheseReveal)
    for (int i = 0; i < kNumNoFieldTokens; ++i)
      if (before->richese.no_field[i].zone == TokenZone::Board && after.richese.no_field[i].zone == TokenZone::Revealed)
        what += fmt::format("; the Richese No-Field in {} is revealed: {}", loc_name(before->richese.no_field[i].location), kNoFieldValues[i]);
  std::string drawn;
  if (show_hidden && !e.draws.empty()) drawn = fmt::format(" [{} draws]", e.draws.size());
  // The phase and turn in which the action was taken.
  const GameState& at = before ? *before : after;
  // Free text (a deal, a bribe note) never reaches a terminal with its control characters.
  return codec::printable(fmt::format("v{:<4} T{:<2} {:<22} {} {}{}", e.version, at.turn, phase_name(at.phase), who, what, drawn));
}

std::string_view karama_use_key(const Action& a) {
  const auto* play = a.get_if<action::PlayCard>();
  if (!play || play->card >= data::kNumAllTreacheryCards) return "";
  // A Karama, or a worthless card the Bene Gesserit play as one (2.02.05); the value's meaning: core/rules/rules.h.
  using K = data::TreacheryKind;
  const K k = data::treachery_card(play->card).kind;
  const bool worthless = k == K::Baliset || k == K::JubbaCloak || k == K::Kulon || k == K::LaLaLa || k == K::TripToGamont;
  if (k != K::Karama && !(worthless && play->value >= rules::kKaramaPrevent)) return "";
  if (play->value == rules::kKaramaGuildRates) return "guild_rates";
  if (play->value > rules::kKaramaPrevent && play->value < rules::kKaramaGuildRates) return "prevent";
  return k == K::Karama ? "power" : "";
}

std::string action_label(const GameState& s, Seat seat, const Action& a) {
  codec::Event e;
  e.version = s.version + 1;
  e.seat = seat;
  e.action = a;
  std::string text = summarize_event(e, &s, s, true);
  const std::string who(faction_name(s.faction_at(seat)));
  if (auto at = text.find(who); at != std::string::npos) text.erase(0, at);
  if (const auto use = karama_use(a); !use.empty()) text += ": " + use;  // which Karama use
  return text;
}

std::string karama_use(const Action& a) {
  const std::string_view key = karama_use_key(a);
  if (key == "guild_rates") return "this turn's shipment at Guild rates";
  if (key == "prevent") {
    const auto& play = a.as<action::PlayCard>();
    const auto* info = rules::ability_info(static_cast<rules::Ability>(play.value - rules::kKaramaPrevent));
    return fmt::format("prevents {}{}", info ? info->name : "an ability", play.target < kNumFactions ? " (" + fac(play.target) + ")" : "");
  }
  return key == "power" ? "the faction's own Karama power" : "";
}

namespace {

bool secret_zone(const std::string& z) {
  // Hands, decks, traitors, the storm card, the cards up for bid (face down,
  // 1.04.03), the cards a Harkonnen Karama took and the leader skill cards
  // dealt or face down are not public.
  return z.rfind("hand:", 0) == 0 || z.find("deck") != std::string::npos || z.rfind("traitor", 0) == 0 || z == "storm_card" ||
         z == "up_for_bid" || z == "karama_taken" || z == "nowhere" ||
         z.rfind("skill_hand:", 0) == 0 || z.rfind("skill_face_down:", 0) == 0;  // Leader Skills dealt, or face down
}

}  // namespace

const char* victory_kind_name(uint8_t k) {
  switch (k) {  // core/rules/mentat_pause.cpp
    case 1: return "stronghold victory";
    case 2: return "Bene Gesserit prediction";
    case 3: return "Spacing Guild default victory";
    case 4: return "Fremen special victory";
    case 5: return "Fremen default victory";
    case 6: return "most strongholds at the end";
    default: return "victory";
  }
}

ApplyNotes notes_of(const GameState& before, const codec::Event& e) {
  ApplyNotes notes;
  if (e.action.kind() == ActionKind::CreateGame) return notes;
  GameState s = before;
  apply(s, e.seat, e.action, nullptr, &notes);
  return notes;
}

std::string battle_line(const BattleOutcome& b) {
  const std::string where = b.territory < data::kNumTerritories ? std::string(data::territory(b.territory).name) : "?";
  auto units = [](int half) { return half % 2 ? fmt::format("{}.5", half / 2) : fmt::format("{}", half / 2); };
  switch (b.how) {
    case BattleOutcome::BothTraitors: return fmt::format("battle in {}: both sides called traitor, nobody wins", where);
    case BattleOutcome::LasgunShield: return fmt::format("battle in {}: lasgun and shield explode, nobody wins", where);
    case BattleOutcome::Traitor: return fmt::format("battle in {}: {} wins against {} (traitor)", where, fac(b.winner), fac(b.loser));
    case BattleOutcome::Totals: break;
  }
  return fmt::format("battle in {}: {} wins against {} ({} to {})", where, fac(b.winner), fac(b.loser), units(b.total2[0]), units(b.total2[1]));
}

// A card taken into a hand from the listed (face-up) part of the discard pile,
// the pile still listed afterwards, outside a Nullentropy Box search (a
// Semuta Drug's take): every seat sees which card left the pile, so the line
// may name it. The Box's take stays anonymous even when no hidden rest grows
// (a second search after a Semuta Drug took the Box back).
static bool taken_from_listed_pile(const GameState& before, const GameState& after, const replay::DiffEntry& d) {
  if (d.before != "treachery_discard" || after.treachery_discard_hidden > before.treachery_discard_hidden) return false;
  for (int i = 0; i < before.window_depth; ++i)  // a Box search's take is private even from the listed part
    if (before.windows[i].kind == WindowKind::DiscardSearch) return false;
  const auto hash = d.what.rfind('#');
  if (hash == std::string::npos) return false;
  const int id = std::atoi(d.what.c_str() + hash + 1);
  for (int i = before.treachery_discard_hidden; i < before.treachery_discard.n; ++i)
    if (before.treachery_discard.ids[i] == id) return true;
  return false;
}

std::vector<std::string> what_changed(const GameState& before, const GameState& after, bool show_hidden, const ApplyNotes* notes) {
  std::vector<std::string> out;
  if (notes)
    for (const auto& b : notes->battles) out.push_back(battle_line(b));
  if (after.winners != before.winners) {
    std::string w;
    for (int i = 0; i < kNumFactions; ++i)
      if ((after.winners >> i) & 1u) w += (w.empty() ? "" : ", ") + std::string(faction_name(static_cast<Faction>(i)));
    out.push_back(fmt::format("game over: {} win{} ({})", w, w.find(',') == std::string::npos ? "s" : "", victory_kind_name(after.victory_kind)));
  }
  std::vector<std::string> anonymous;
  for (const auto& d : replay::diff_states(before, after)) {
    if (!show_hidden) {
      if (d.group == "other") continue;
      if (d.group == "spice" && d.what.rfind("behind", 0) == 0) continue;
      if (d.group == "custody") {
        if (d.what.rfind("traitor", 0) == 0 || d.what.rfind("storm", 0) == 0) continue;
        // A No-Field token face down (supply or board) is one unknown token; face up, its value is public.
        // Its line goes after the named ones, sorted by its text: the diff's
        // order (by token id) would tell its value beside a face-up token.
        if (d.what.rfind("No-Field token", 0) == 0 && d.after != "no_field_revealed" && d.before != "no_field_revealed") {
          anonymous.push_back(fmt::format("a No-Field token: {} -> {}", d.before, d.after));
          continue;
        }
        if (secret_zone(d.after)) {
          // A card reaching a hand or the auction: where it went is public,
          // which card is not. After the named lines too: the diff's order
          // (by card id) would tell a base card from a Richese one.
          if (d.after.rfind("hand:", 0) == 0 && taken_from_listed_pile(before, after, d)) {
            out.push_back(fmt::format("{}: {} -> {}", d.what, d.before, d.after));  // public: it left the listed pile
            continue;
          }
          if (d.after.rfind("hand:", 0) == 0 || d.after == "up_for_bid")
            anonymous.push_back(fmt::format("a treachery card: {} -> {}", d.before, d.after));
          continue;
        }
      }
    }
    out.push_back(fmt::format("{}: {} -> {}", d.what, d.before, d.after));
  }
  std::sort(anonymous.begin(), anonymous.end());
  out.insert(out.end(), anonymous.begin(), anonymous.end());
  return out;
}

std::string outcome_line(const GameState& before, const GameState& after, bool show_hidden, const ApplyNotes* notes) {
  std::string line;
  for (const auto& c : what_changed(before, after, show_hidden, notes)) {
    if (c.rfind("waiting for:", 0) == 0 || c.rfind("phase:", 0) == 0) continue;
    line += (line.empty() ? "" : "; ") + c;
  }
  return line;
}

}  // namespace mentat::inspect
