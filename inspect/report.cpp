#include "inspect/report.h"

#include <fmt/format.h>

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
  switch (a.kind) {
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
    case ActionKind::SelectTraitor:
      what = show_hidden ? fmt::format("keeps traitor {}", data::leader(a.value).name) : "selects a traitor";
      break;
    case ActionKind::Predict:
      what = show_hidden ? fmt::format("predicts {} on turn {}", fac(a.faction), a.value) : "makes the prediction";
      break;
    case ActionKind::PlaceForces: {
      what = "places";
      for (int i = 0; i < a.n_placements; ++i)
        what += fmt::format(" {}+{} in {}", a.placements[i].forces, a.placements[i].special, loc_name(a.placements[i].location));
      break;
    }
    case ActionKind::DialStorm: what = show_hidden ? fmt::format("dials {} for the storm", a.value) : "dials the storm"; break;
    case ActionKind::Pass: what = "passes"; break;
    case ActionKind::ClaimCharity: what = "claims CHOAM Charity"; break;
    case ActionKind::Bid: what = fmt::format("bids {}{}", a.amount, a.flag ? " with Karama" : ""); break;
    case ActionKind::Revive:
      what = fmt::format("revives {} forces, {} special{}", a.forces, a.special,
                         a.card == 254                                   ? std::string(" and the Kwisatz Haderach")  // 2.01.14
                         : a.card != kNone8 && a.card < data::kNumLeaders ? fmt::format(" and {}", data::leader(a.card).name)
                                                                          : std::string());
      break;
    case ActionKind::Ship:
      what = a.flag ? fmt::format("ships {}+{} from {} to reserves", a.forces, a.special, loc_name(a.from))
                    : fmt::format("ships {}+{} to {}{}", a.forces, a.special, loc_name(a.to),
                                  a.from != kNone8 ? " from " + loc_name(a.from) : "");
      if (a.amount2) what += fmt::format(" (the ally pays {})", a.amount2);
      break;
    case ActionKind::Move: {
      int n = 0;
      for (int i = 0; i < a.n_placements; ++i) n += a.placements[i].forces + a.placements[i].special;
      what = fmt::format("moves {} forces from {} to {}", n, a.n_placements ? loc_name(a.placements[0].location) : "?", loc_name(a.to));
      if (a.flag) what += " and takes up arms";
      break;
    }
    case ActionKind::ProposeAlliance: what = "proposes an alliance to " + fac(a.faction); break;
    case ActionKind::AcceptAlliance: what = "accepts an alliance with " + fac(a.faction); break;
    case ActionKind::BreakAlliance: what = "breaks the alliance"; break;
    case ActionKind::Bribe: what = fmt::format("bribes {} with {} spice", fac(a.faction), a.amount); break;
    case ActionKind::Deal: what = "records a deal: " + a.text; break;
    case ActionKind::GiveSpice: what = fmt::format("gives {} {} spice", fac(a.faction), a.amount); break;
    case ActionKind::AllyPermission:
      what = show_hidden ? fmt::format("lets the ally use {} spice for shipments, {} for bids", a.amount, a.amount2)
                         : "sets what the ally may spend";
      break;
    case ActionKind::KeepCards: {
      what = "keeps";
      for (int i = 0; i < a.n_cards; ++i)
        what += std::string(i ? ", " : " ") + (a.cards[i] < data::kNumTreacheryCards ? std::string(data::treachery_card(a.cards[i]).name) : "?");
      if (!a.n_cards) what = "discards all its battle cards";
      break;
    }
    case ActionKind::PlayCard:
      what = a.card < data::kNumTreacheryCards ? fmt::format("plays {}", data::treachery_card(a.card).name) : "plays a card";
      break;
    case ActionKind::Respond: what = a.flag ? "answers yes" : "answers no"; break;
    case ActionKind::SendSpiritualAdvisor: what = "sends a spiritual advisor to " + loc_name(a.to); break;
    case ActionKind::Flip: what = "flips forces in " + loc_name(a.to); break;
    case ActionKind::GuildTiming: what = a.flag ? "acts now" : "waits"; break;
    case ActionKind::WormRide: what = "rides the worm to " + loc_name(a.to); break;
    case ActionKind::BattlePlan: what = show_hidden ? fmt::format("battle plan: leader {}, dial {}, weapon {}, defense {}",
                                                                 a.card < data::kNumLeaders ? std::string(data::leader(a.card).name) : "none", a.value,
                                                                 a.to < data::kNumTreacheryCards ? std::string(data::treachery_card(a.to).name) : "none",
                                                                 a.from < data::kNumTreacheryCards ? std::string(data::treachery_card(a.from).name) : "none")
                                                   : "submits a battle plan"; break;
    case ActionKind::ChooseBattle:
      what = fmt::format("chooses the battle in {} against {}", a.to < data::kNumTerritories ? std::string(data::territory(a.to).name) : "?", fac(a.faction));
      break;
    case ActionKind::CallTraitor: what = a.flag ? "calls traitor!" : "does not call a traitor"; break;
    case ActionKind::Prescience: {
      static constexpr const char* kElements[] = {"leader", "weapon", "defense", "number dialed"};
      what = fmt::format("uses Prescience: asks for the {}", a.value < 4 ? kElements[a.value] : "?");
      break;
    }
    case ActionKind::PrescienceAnswer: {
      // Hidden from the others: the Atreides (and their ally) see it in their view.
      if (!show_hidden) {
        what = "answers the Prescience";
        break;
      }
      const uint8_t el = before ? before->atreides.battle.prescience : 0;  // 1 + element asked
      std::string v = "not played";
      if (a.value != kNone8) {
        if (el == 1) v = a.value >= 100 && a.value - 100 < data::kNumTreacheryCards ? std::string(data::treachery_card(a.value - 100).name)
                         : a.value < data::kNumLeaders                            ? std::string(data::leader(a.value).name)
                                                                                  : "?";
        else if (el == 2 || el == 3) v = a.value < data::kNumTreacheryCards ? std::string(data::treachery_card(a.value).name) : "?";
        else if (el == 4) v = fmt::format("dial {}", a.value);
        else v = fmt::format("{}", a.value);
      }
      what = "answers the Prescience: " + v;
      break;
    }
    case ActionKind::Voice: {
      std::string k = "?";
      switch (a.value) {
        case 0: k = "a poison weapon"; break;
        case 1: k = "a projectile weapon"; break;
        case 2: k = "a poison defense"; break;
        case 3: k = "a projectile defense"; break;
        case 4: k = "a worthless card"; break;
        case 5: k = "a Cheap Hero"; break;
        default:
          if (a.value >= 64 && a.value - 64 < data::kNumTreacheryKinds)
            k = std::string(data::treachery_kind_name(static_cast<data::TreacheryKind>(a.value - 64)));
      }
      what = fmt::format("uses the Voice: {} {}", a.flag ? "play" : "do not play", k);
      break;
    }
    case ActionKind::SetRulings: {  // only what changes
      what = "adjudicator sets rulings:";
      int n = 0;
      for (const auto& info : ruling_registry()) {
        if (before && before->rulings.get(info.id) == a.rulings.get(info.id)) continue;
        what += fmt::format(" {}={}", info.key, info.values[a.rulings.get(info.id)]);
        if (before) what += fmt::format(" (was {})", info.values[before->rulings.get(info.id)]);
        ++n;
      }
      if (n == 0) what += " none changed";
      break;
    }
    case ActionKind::None: what = "?"; break;
  }
  std::string drawn;
  if (show_hidden && !e.draws.empty()) drawn = fmt::format(" [{} draws]", e.draws.size());
  // The phase and turn in which the action was taken.
  const GameState& at = before ? *before : after;
  // Free text (a deal, a bribe note) never reaches a terminal with its control characters.
  return codec::printable(fmt::format("v{:<4} T{:<2} {:<22} {} {}{}", e.version, at.turn, phase_name(at.phase), who, what, drawn));
}

std::string karama_use(const Action& a) {
  if (a.kind != ActionKind::PlayCard || a.card >= data::kNumTreacheryCards) return "";
  // A Karama, or a worthless card the Bene Gesserit play as one (2.02.05); the value's meaning: events/names.h.
  using K = data::TreacheryKind;
  const K k = data::treachery_card(a.card).kind;
  const bool worthless = k == K::Baliset || k == K::JubbaCloak || k == K::Kulon || k == K::LaLaLa || k == K::TripToGamont;
  if (k != K::Karama && !(worthless && a.value >= 0x40)) return "";
  if (a.value == 0x80) return "this turn's shipment at Guild rates";
  if (a.value > 0x40 && a.value < 0x80) {
    const auto* info = rules::ability_info(static_cast<rules::Ability>(a.value - 0x40));
    return fmt::format("prevents {}{}", info ? info->name : "an ability", a.to < kNumFactions ? " (" + fac(a.to) + ")" : "");
  }
  return k == K::Karama ? "the faction's own Karama power" : "";
}

namespace {

bool secret_zone(const std::string& z) {
  // Hands, decks, traitors, the storm card, the cards up for bid (face down,
  // 1.04.03) and the cards a Harkonnen Karama took are not public.
  return z.rfind("hand:", 0) == 0 || z.find("deck") != std::string::npos || z.rfind("traitor", 0) == 0 || z == "storm_card" ||
         z == "up_for_bid" || z == "karama_taken" || z == "nowhere";
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
  if (e.action.kind == ActionKind::CreateGame) return notes;
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
  for (const auto& d : replay::diff_states(before, after)) {
    if (!show_hidden) {
      if (d.group == "other") continue;
      if (d.group == "spice" && d.what.rfind("behind", 0) == 0) continue;
      if (d.group == "custody") {
        if (d.what.rfind("traitor", 0) == 0 || d.what.rfind("storm", 0) == 0) continue;
        if (secret_zone(d.after)) {
          // A card reaching a hand or the auction: where it went is public, which card is not.
          if (d.after.rfind("hand:", 0) == 0 || d.after == "up_for_bid")
            out.push_back(fmt::format("a treachery card: {} -> {}", d.before, d.after));
          continue;
        }
      }
    }
    out.push_back(fmt::format("{}: {} -> {}", d.what, d.before, d.after));
  }
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
