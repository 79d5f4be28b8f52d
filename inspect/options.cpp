// Labelled choices (inspect/options.h). The meaning of Decision::options per
// action kind is read here from the decisions' documented encodings
// (core/rules/*.cpp: leaders, 100 + card id for a Cheap Hero, territory +
// 256 x opponent for ChooseBattle, Voice kinds); this is the one place that
// turns them into names and action fields.
#include "inspect/options.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include <flatbuffers/flatbuffers.h>
#include <fmt/format.h>

#include "core/data/board.h"
#include "core/data/components.h"
#include "core/rules/battle_abilities.h"
#include "core/rules/move_reach.h"
#include "core/rules/rules.h"
#include "events/codec.h"
#include "events/names.h"
#include "events/view_generated.h"
#include "inspect/options_view.h"

namespace mentat::inspect {
namespace {

constexpr int kCheapHeroOption = 100;  // BattlePlan / PrescienceAnswer: 100 + card id

Choice location_choice(int option, LocationId l, const char* role, const char* field) {
  return Choice{option, names::location_name(l), role, {{field, l}}};
}

Choice leader_or_hero(int option, int v, const char* leader_field, const char* hero_field) {
  if (v == rules::ability::kKwisatzHaderachToken) return Choice{option, "Kwisatz Haderach", "kwisatz_haderach", {{"kwisatz_haderach", 1}}};
  if (v >= kCheapHeroOption && v - kCheapHeroOption < data::kNumTreacheryCards)
    return Choice{option, names::card_name(static_cast<TreacheryId>(v - kCheapHeroOption)), "cheap_hero", {{hero_field, v - kCheapHeroOption}}};
  return Choice{option, names::leader_name(static_cast<LeaderId>(v)), "leader", {{leader_field, v}}};
}

std::string voice_kind_name(int k) {
  static constexpr const char* kKinds[] = {"poison weapon", "projectile weapon", "poison defense", "projectile defense",
                                           "worthless card", "Cheap Hero"};
  if (k >= 0 && k < 6) return kKinds[k];
  if (k >= rules::ability::kNamed && k - rules::ability::kNamed < data::kNumAllTreacheryKinds)
    return std::string(data::treachery_kind_name(static_cast<data::TreacheryKind>(k - rules::ability::kNamed)));
  return std::to_string(k);
}

Choice faction_choice(int option, int f, const char* field) {
  return Choice{option, f < kNumFactions ? std::string(faction_name(static_cast<Faction>(f))) : "?", "faction", {{field, f}}};
}

// The origins a movement (or the Guild's shipment back from the board) may
// start from: each location holding the seat's forces, with, for a movement,
// the destinations the engine accepts a group from there for.
void add_origins(const LabelInputs& in, const char* field, bool with_reach, std::vector<Choice>& out) {
  size_t r = 0;  // in.reach is sorted by origin, then destination
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto id = static_cast<LocationId>(l);
    std::vector<int> to;
    for (; r < in.reach.size() && (in.reach[r] >> 8) <= l; ++r)
      if ((in.reach[r] >> 8) == l && with_reach) to.push_back(in.reach[r] & 0xff);
    const int n = in.forces[l][0] + in.forces[l][1];
    if (n == 0) continue;
    Choice c = location_choice(-1, id, "origin", field);
    c.forces = n;
    c.special = in.forces[l][1];
    c.to = std::move(to);
    out.push_back(std::move(c));
  }
}

}  // namespace

LabelInputs label_inputs(const GameState& s, Seat seat, const std::vector<Decision>& ds) {
  LabelInputs in;
  in.prescience = s.atreides.battle.prescience;
  bool move = false, guild_ship = false;
  for (const auto& d : ds) {
    move |= d.kind == ActionKind::Move;
    guild_ship |= d.kind == ActionKind::Ship && s.faction_at(seat) == Faction::Guild;
  }
  if (!move && !guild_ship) return in;
  in.guild = s.faction_at(seat) == Faction::Guild;
  std::memcpy(in.forces, s.forces[static_cast<int>(s.faction_at(seat))], sizeof in.forces);
  // Per origin, the destinations the engine accepts a group from there for:
  // legal_actions lists every single-origin movement (engine.h), and
  // rules::move_reach the origins and destinations of that list.
  if (move) {
    rules::move_reach(s, seat, in.reach);
    std::sort(in.reach.begin(), in.reach.end());
    in.reach.erase(std::unique(in.reach.begin(), in.reach.end()), in.reach.end());
  }
  return in;
}

std::vector<Choice> label_choices(const GameState& s, Seat seat, const Decision& d) {
  return label_choices(label_inputs(s, seat, {d}), d);
}

std::vector<Choice> label_choices(const LabelInputs& in, const Decision& d) {
  std::vector<Choice> out;
  for (uint16_t o : d.options) {
    const int v = o;
    switch (d.kind) {
      case ActionKind::Ship: out.push_back(location_choice(v, static_cast<LocationId>(v), "destination", "to")); break;
      case ActionKind::Move: out.push_back(location_choice(v, static_cast<LocationId>(v), "destination", "to")); break;
      case ActionKind::SendSpiritualAdvisor: out.push_back(location_choice(v, static_cast<LocationId>(v), "destination", "to")); break;
      case ActionKind::WormRide: out.push_back(location_choice(v, static_cast<LocationId>(v), "destination", "to")); break;
      case ActionKind::Flip: out.push_back(location_choice(v, static_cast<LocationId>(v), "location", "location")); break;
      case ActionKind::PlaceForces: out.push_back(location_choice(v, static_cast<LocationId>(v), "location", "placements[].location")); break;
      case ActionKind::SelectTraitor: out.push_back(Choice{v, names::leader_name(static_cast<LeaderId>(v)), "traitor", {{"leader", v}}}); break;
      case ActionKind::Revive: out.push_back(Choice{v, names::leader_name(static_cast<LeaderId>(v)), "leader", {{"leader", v}}}); break;
      case ActionKind::AssignSkill: out.push_back(Choice{v, names::leader_name(static_cast<LeaderId>(v)), "leader", {{"leader", v}}}); break;
      case ActionKind::MentatQuestion: out.push_back(Choice{v, names::card_name(static_cast<TreacheryId>(v)), "weapon", {{"weapon", v}}}); break;
      case ActionKind::MentatAnswer: out.push_back(Choice{v, names::card_name(static_cast<TreacheryId>(v)), "card", {{"card", v}}}); break;
      case ActionKind::DecipherTraitor: out.push_back(Choice{v, names::leader_name(static_cast<LeaderId>(v)), "traitor", {{"take", v}}}); break;
      case ActionKind::SkillBehind: out.push_back(Choice{v, names::leader_name(static_cast<LeaderId>(v)), "leader", {{"leader", v}}}); break;
      case ActionKind::BattlePlan: out.push_back(leader_or_hero(v, v, "leader", "cheap_hero")); break;
      case ActionKind::KeepCards: out.push_back(Choice{v, names::card_name(static_cast<TreacheryId>(v)), "card", {{"keep[]", v}}}); break;
      case ActionKind::ChoamSell:
      case ActionKind::ChoamCard:
      case ActionKind::ChoamTrade:
      case ActionKind::RicheseLot:
      case ActionKind::RicheseBuy:
      case ActionKind::RicheseGift:
      case ActionKind::PlayCard:
      case ActionKind::Respond: out.push_back(Choice{v, names::card_name(static_cast<TreacheryId>(v)), "card", {{"card", v}}}); break;
      case ActionKind::Predict: out.push_back(faction_choice(v, v, "faction")); break;
      case ActionKind::ProposeAlliance:
      case ActionKind::AcceptAlliance: out.push_back(faction_choice(v, v, "with")); break;
      case ActionKind::Bribe:
      case ActionKind::GiveSpice: out.push_back(faction_choice(v, v, "to")); break;
      case ActionKind::ChooseBattle: {
        const int t = v & 0xff, f = v >> 8;
        out.push_back(Choice{v, fmt::format("{} against {}", names::territory_name(static_cast<TerritoryId>(t)),
                                            f < kNumFactions ? faction_name(static_cast<Faction>(f)) : "?"),
                             "battle", {{"territory", t}, {"opponent", f}}});
        break;
      }
      case ActionKind::Prescience: {
        static constexpr const char* kElements[] = {"leader", "weapon", "defense", "number dialed"};
        out.push_back(Choice{v, v < 4 ? kElements[v] : std::to_string(v), "element", {{"element", v}}});
        break;
      }
      case ActionKind::PrescienceAnswer: {
        const int e = in.prescience - 1;
        Choice c{v, std::to_string(v), "answer", {{"value", v}}};
        if (v == 255) c.name = "not played";
        else if (e == rules::ability::kLeader) c.name = leader_or_hero(v, v, "value", "value").name;
        else if (e == rules::ability::kWeapon || e == rules::ability::kDefense) c.name = names::card_name(static_cast<TreacheryId>(v));
        out.push_back(std::move(c));
        break;
      }
      case ActionKind::Voice: out.push_back(Choice{v, voice_kind_name(v), "voice_kind", {{"kind", v}}}); break;
      default: out.push_back(Choice{v, std::to_string(v), "value", {}}); break;
    }
  }
  if (d.kind == ActionKind::Move) add_origins(in, "from[].location", true, out);
  if (d.kind == ActionKind::Ship && in.guild) add_origins(in, "from", false, out);
  return out;
}

std::string choice_text(const Choice& c) {
  std::string id;
  for (const auto& f : c.set) id += (id.empty() ? "" : "/") + std::to_string(f.value);
  if (id.empty()) id = std::to_string(c.option);
  std::string out = id + " " + c.name;
  if (c.forces >= 0)
    out += fmt::format(" ({} force{}{})", c.forces, c.forces == 1 ? "" : "s", c.special > 0 ? fmt::format(", {} special", c.special) : "");
  return out;
}

flatbuffers::Offset<fb::DecisionView> build_decision_view(flatbuffers::FlatBufferBuilder& b, const LabelInputs& in,
                                                          const Decision& d) {
  std::vector<flatbuffers::Offset<fb::ChoiceView>> choices;
  for (const auto& c : label_choices(in, d)) {
    std::vector<flatbuffers::Offset<fb::ChoiceField>> set;
    for (const auto& f : c.set) set.push_back(fb::CreateChoiceField(b, b.CreateString(f.field), f.value));
    auto name = b.CreateString(c.name);
    auto role = b.CreateString(c.role);
    auto setv = b.CreateVector(set);
    std::vector<uint16_t> to(c.to.begin(), c.to.end());
    auto tov = c.to.empty() ? flatbuffers::Offset<flatbuffers::Vector<uint16_t>>() : b.CreateVector(to);
    fb::ChoiceViewBuilder cb(b);
    cb.add_option(c.option);
    cb.add_name(name);
    cb.add_role(role);
    cb.add_set(setv);
    if (c.forces >= 0) cb.add_forces(static_cast<uint8_t>(c.forces));
    if (c.special >= 0) cb.add_special(static_cast<uint8_t>(c.special));
    if (!c.to.empty()) cb.add_to(tov);
    choices.push_back(cb.Finish());
  }
  auto kind = b.CreateString(action_kind_name(d.kind));
  auto prompt = b.CreateString(d.prompt);
  auto options = b.CreateVector(d.options);
  auto cv = b.CreateVector(choices);
  // The typed fields, only where one applies (absent otherwise).
  flatbuffers::Offset<fb::DecisionAbout> about;
  if (d.topic != Topic::None || d.window != WindowKind::None || d.owner < kNumFactions || d.ability || d.amount >= 0 ||
      d.place < data::kNumTerritories) {
    auto opt_string = [&](std::string_view t) { return t.empty() ? flatbuffers::Offset<flatbuffers::String>() : b.CreateString(t); };
    auto topic = opt_string(topic_key(d.topic));
    auto window = opt_string(window_kind_key(d.window));
    auto owner = opt_string(d.owner < kNumFactions ? faction_key(static_cast<Faction>(d.owner)) : std::string_view());
    const auto* ability = d.ability ? rules::ability_info(static_cast<rules::Ability>(d.ability)) : nullptr;
    auto ab = opt_string(ability ? std::string_view(ability->name) : std::string_view());
    fb::DecisionAboutBuilder ab_b(b);
    ab_b.add_topic(topic);
    ab_b.add_window(window);
    ab_b.add_owner(owner);
    ab_b.add_ability(ab);
    ab_b.add_amount(d.amount);
    ab_b.add_place(d.place < data::kNumTerritories ? d.place : -1);
    about = ab_b.Finish();
  }
  return fb::CreateDecisionView(b, kind, prompt, d.min, d.max, options, cv, about);
}

std::string decisions_json(const GameState& s, Seat seat) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<fb::DecisionView>> ds;
  const auto all = decisions(s, seat);
  const LabelInputs in = label_inputs(s, seat, all);
  for (const auto& d : all) ds.push_back(build_decision_view(b, in, d));
  auto faction = b.CreateString(faction_key(s.faction_at(seat)));
  auto dv = b.CreateVector(ds);
  b.Finish(fb::CreateDecisionsView(b, s.version, static_cast<int8_t>(seat), faction, dv));
  std::string json, err;
  codec::table_to_json("DecisionsView", std::string_view(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize()), &json, &err);
  return json;
}

}  // namespace mentat::inspect
