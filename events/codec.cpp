#include "events/codec.h"
#include "events/names.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include <flatbuffers/flatbuffers.h>
#include <flatbuffers/idl.h>

#include "events/json_text.h"
#include "events/mentat_generated.h"
#include "events/position.h"
#include "events/schema_binary.h"
#include "events/schema_text.h"

namespace mentat::codec {

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

static_assert(static_cast<int>(fb::Action::MAX) == kMaxActionKind,
              "ActionKind and the schema's Action union must list the same kinds");

Offset<flatbuffers::Vector<Offset<fb::RulingChoice>>> build_rulings(FlatBufferBuilder& b, const Rulings& r) {
  std::vector<Offset<fb::RulingChoice>> rulings;
  for (const auto& info : ruling_registry())
    rulings.push_back(fb::CreateRulingChoice(b, b.CreateString(info.key), b.CreateString(info.values[r.get(info.id)])));
  return b.CreateVector(rulings);
}

Offset<flatbuffers::Vector<const fb::Placement*>> build_placements(FlatBufferBuilder& b, const Placements& list) {
  std::vector<fb::Placement> v;
  for (const auto& p : list) v.emplace_back(p.location, p.forces, p.special);
  return b.CreateVectorOfStructs(v);
}

fb::Faction fbf(uint8_t f) { return static_cast<fb::Faction>(f); }

Offset<void> build_action(FlatBufferBuilder& b, const Action& action, const GameSetup* setup) {
  switch (action.kind()) {
    case ActionKind::CreateGame: {
      std::vector<fb::Faction> factions;
      for (auto f : setup->factions) factions.push_back(static_cast<fb::Faction>(f));
      auto rulings = build_rulings(b, setup->rulings);
      std::vector<fb::Module> modules;
      for (int m = 0; m < data::kNumModules; ++m)
        if (setup->modules & data::module_bit(static_cast<data::Module>(m))) modules.push_back(static_cast<fb::Module>(m));
      const Offset<fb::Position> position(setup->start ? position::build(b, *setup->start, setup->resume, setup->shuffle_decks) : 0);
      return fb::CreateCreateGame(b, setup->seed, b.CreateVector(factions), setup->advanced, setup->max_turns,
                                  rulings, b.CreateString(setup->name),
                                  modules.empty() ? 0 : b.CreateVector(modules), setup->state_format, position)
          .Union();
    }
    case ActionKind::SelectTraitor: return fb::CreateSelectTraitor(b, action.as<action::SelectTraitor>().leader).Union();
    case ActionKind::Predict: {
      const auto& a = action.as<action::Predict>();
      return fb::CreatePredict(b, fbf(a.faction), a.turn).Union();
    }
    case ActionKind::PlaceForces:
      return fb::CreatePlaceForces(b, build_placements(b, action.as<action::PlaceForces>().placements)).Union();
    case ActionKind::DialStorm: return fb::CreateDialStorm(b, action.as<action::DialStorm>().value).Union();
    case ActionKind::Pass: return fb::CreatePass(b).Union();
    case ActionKind::ClaimCharity: return fb::CreateClaimCharity(b).Union();
    case ActionKind::Bid: {
      const auto& a = action.as<action::Bid>();
      return fb::CreateBid(b, a.amount, a.karama, a.card).Union();
    }
    case ActionKind::Revive: {
      const auto& a = action.as<action::Revive>();
      return fb::CreateRevive(b, a.forces, a.special, a.leader).Union();
    }
    case ActionKind::Ship: {
      const auto& a = action.as<action::Ship>();
      return fb::CreateShip(b, a.to, a.forces, a.special, a.from, a.to_reserves, a.advisors, a.ally_pays, a.no_field).Union();
    }
    case ActionKind::Move: {
      const auto& a = action.as<action::Move>();
      return fb::CreateMove(b, build_placements(b, a.from), a.to, a.flip, a.ornithopter).Union();
    }
    case ActionKind::ProposeAlliance: return fb::CreateProposeAlliance(b, fbf(action.as<action::ProposeAlliance>().with)).Union();
    case ActionKind::AcceptAlliance: return fb::CreateAcceptAlliance(b, fbf(action.as<action::AcceptAlliance>().with)).Union();
    case ActionKind::BreakAlliance: return fb::CreateBreakAlliance(b).Union();
    case ActionKind::Bribe: {
      const auto& a = action.as<action::Bribe>();
      return fb::CreateBribe(b, fbf(a.to), a.amount, b.CreateString(a.note)).Union();
    }
    case ActionKind::Deal: {
      const auto& a = action.as<action::Deal>();
      std::vector<fb::Faction> with;
      for (uint8_t f : a.with) with.push_back(fbf(f));
      return fb::CreateDeal(b, b.CreateVector(with), b.CreateString(a.text)).Union();
    }
    case ActionKind::PlayCard: {
      const auto& a = action.as<action::PlayCard>();
      return fb::CreatePlayCard(b, a.card, a.target, a.value).Union();
    }
    case ActionKind::Respond: {
      const auto& a = action.as<action::Respond>();
      return fb::CreateRespond(b, a.accept, a.card).Union();
    }
    case ActionKind::SendSpiritualAdvisor:
      return fb::CreateSendSpiritualAdvisor(b, action.as<action::SendSpiritualAdvisor>().to).Union();
    case ActionKind::Flip: return fb::CreateFlip(b, action.as<action::Flip>().location).Union();
    case ActionKind::GuildTiming: return fb::CreateGuildTiming(b, action.as<action::GuildTiming>().now).Union();
    case ActionKind::WormRide: {
      const auto& a = action.as<action::WormRide>();
      return fb::CreateWormRide(b, a.to, a.forces, a.special).Union();
    }
    case ActionKind::BattlePlan: {
      const auto& a = action.as<action::BattlePlan>();
      return fb::CreateBattlePlan(b, a.leader, a.cheap_hero, a.weapon, a.defense, a.dial, a.spice, a.kwisatz_haderach, a.ally_pays, a.skill_spice).Union();
    }
    case ActionKind::ChooseBattle: {
      const auto& a = action.as<action::ChooseBattle>();
      return fb::CreateChooseBattle(b, a.territory, fbf(a.opponent)).Union();
    }
    case ActionKind::CallTraitor: return fb::CreateCallTraitor(b, action.as<action::CallTraitor>().call).Union();
    case ActionKind::SetRulings: {
      return fb::CreateSetRulings(b, build_rulings(b, *action.as<action::SetRulings>().rulings)).Union();
    }
    case ActionKind::Prescience: return fb::CreatePrescience(b, action.as<action::Prescience>().element).Union();
    case ActionKind::PrescienceAnswer: return fb::CreatePrescienceAnswer(b, action.as<action::PrescienceAnswer>().value).Union();
    case ActionKind::Voice: {
      const auto& a = action.as<action::Voice>();
      return fb::CreateVoice(b, a.must, a.kind).Union();
    }
    case ActionKind::GiveSpice: {
      const auto& a = action.as<action::GiveSpice>();
      return fb::CreateGiveSpice(b, fbf(a.to), a.amount).Union();
    }
    case ActionKind::KeepCards: {
      const auto& a = action.as<action::KeepCards>();
      std::vector<uint8_t> keep(a.keep.begin(), a.keep.end());
      return fb::CreateKeepCards(b, b.CreateVector(keep)).Union();
    }
    case ActionKind::AllyPermission: {
      const auto& a = action.as<action::AllyPermission>();
      return fb::CreateAllyPermission(b, a.shipment, a.bids, a.no_field).Union();
    }
    case ActionKind::ChoamSell: return fb::CreateChoamSell(b, action.as<action::ChoamSell>().card).Union();
    case ActionKind::ChoamInflation: return fb::CreateChoamInflation(b, action.as<action::ChoamInflation>().side).Union();
    case ActionKind::ChoamTrade: return fb::CreateChoamTrade(b, action.as<action::ChoamTrade>().card).Union();
    case ActionKind::ChoamCard: {
      const auto& a = action.as<action::ChoamCard>();
      return fb::CreateChoamCard(b, a.card, fbf(a.faction), a.location).Union();
    }
    case ActionKind::ChoamSupport: return fb::CreateChoamSupport(b, action.as<action::ChoamSupport>().battle).Union();
    case ActionKind::ChoamKarama: {
      const auto& a = action.as<action::ChoamKarama>();
      std::vector<uint8_t> cards(a.cards.begin(), a.cards.end());
      return fb::CreateChoamKarama(b, a.karama, b.CreateVector(cards)).Union();
    }
    case ActionKind::RicheseLot: {
      const auto& a = action.as<action::RicheseLot>();
      return fb::CreateRicheseLot(b, a.card, a.auction).Union();
    }
    case ActionKind::RicheseCacheTiming: return fb::CreateRicheseCacheTiming(b, action.as<action::RicheseCacheTiming>().first).Union();
    case ActionKind::RicheseBuy: {
      const auto& a = action.as<action::RicheseBuy>();
      return fb::CreateRicheseBuy(b, a.karama, a.card).Union();
    }
    case ActionKind::RicheseGift: return fb::CreateRicheseGift(b, action.as<action::RicheseGift>().card).Union();
    case ActionKind::RicheseReveal: return fb::CreateRicheseReveal(b).Union();
    case ActionKind::AssignSkill: {
      const auto& a = action.as<action::AssignSkill>();
      return fb::CreateAssignSkill(b, a.skill, a.leader).Union();
    }
    case ActionKind::MentatQuestion: return fb::CreateMentatQuestion(b, action.as<action::MentatQuestion>().weapon).Union();
    case ActionKind::MentatAnswer: return fb::CreateMentatAnswer(b, action.as<action::MentatAnswer>().card).Union();
    case ActionKind::DecipherTraitor: {
      const auto& a = action.as<action::DecipherTraitor>();
      return fb::CreateDecipherTraitor(b, a.take, a.give).Union();
    }
    case ActionKind::SkillBehind: {
      return fb::CreateSkillBehind(b, action.as<action::SkillBehind>().leader).Union();
    }
    case ActionKind::None: break;
  }
  return 0;
}

// Copies a stored vector into its fixed-capacity list; false when it is longer.
template <class List, class V, class F>
bool read_list(const V* v, List* out, F convert) {
  if (!v) return true;
  if (v->size() > static_cast<size_t>(List::kCapacity)) return false;
  for (auto x : *v) out->push_back(convert(x));
  return true;
}

bool read_placements(const flatbuffers::Vector<const fb::Placement*>* v, Placements* out) {
  return read_list(v, out, [](const fb::Placement* p) { return Placement{p->location(), p->forces(), p->special()}; });
}

// A ruling the list does not name takes the value it had for a game recorded
// under `rules_version` (Rulings::defaults_for: the defaults, or a legacy value).
bool read_rulings(const flatbuffers::Vector<Offset<fb::RulingChoice>>* v, uint32_t rules_version, Rulings* out,
                  std::string* error) {
  *out = Rulings::defaults_for(rules_version);
  if (!v) return true;
  for (const auto* r : *v)
    if (!r->id() || !r->value() || !out->set(r->id()->string_view(), r->value()->string_view(), error)) {
      if (error->empty()) *error = "a ruling has no id or value";
      return false;
    }
  return true;
}

template <class T>
const T* table(const void* obj) {
  return static_cast<const T*>(obj);
}

// Reads the action union into `out` (and `setup` for CreateGame); rulings a
// recorded CreateGame or SetRulings does not name are read as of the event's
// `rules_version`.
bool read_action(fb::Action type, const void* obj, Action* out, GameSetup* setup, std::string* error,
                 uint32_t rules_version = kRulesVersion) {
  const int tag = static_cast<int>(type);
  if (tag < 1 || tag > kMaxActionKind) {
    *error = "unknown action kind (union tag " + std::to_string(tag) + ")";
    *out = Action{};
    return false;
  }
  if (!obj) {
    *error = "the action table is missing";
    *out = Action{};
    return false;
  }
  bool ok = true;
  switch (type) {
    case fb::Action::CreateGame: {
      auto* t = table<fb::CreateGame>(obj);
      GameSetup g;
      g.seed = t->seed();
      if (t->factions())
        for (auto f : *t->factions()) g.factions.push_back(static_cast<Faction>(f));
      g.advanced = t->advanced();
      g.max_turns = t->max_turns();
      if (!read_rulings(t->rulings(), rules_version, &g.rulings, error)) {
        *out = Action{};
        return false;
      }
      if (t->name()) g.name = t->name()->str();
      if (t->modules()) {
        for (auto m : *t->modules()) {
          if (static_cast<int>(m) >= data::kNumModules) {
            *error = "unknown module id " + std::to_string(static_cast<int>(m));
            *out = Action{};
            return false;
          }
          g.modules = static_cast<data::ModuleSet>(g.modules | data::module_bit(static_cast<data::Module>(m)));
        }
      }
      g.state_format = t->state_format();
      if (t->position()) {  // a described position: its own fields must agree with the header's
        GameSetup p;
        if (!position::read(t->position(), &p, error)) {
          *error = "the creation event's position: " + *error;
          return false;
        }
        if (p.seed != g.seed || p.factions != g.factions || p.advanced != g.advanced || p.max_turns != g.max_turns ||
            p.modules != g.modules || !(p.rulings == g.rulings)) {
          *error = "the creation event's position disagrees with its seats, modules, rulings or seed";
          return false;
        }
        g.start = std::move(p.start);
        g.resume = p.resume;
        g.shuffle_decks = p.shuffle_decks;
      }
      if (setup) *setup = std::move(g);
      out->emplace(action::CreateGame{});
      break;
    }
    case fb::Action::SelectTraitor: out->emplace(action::SelectTraitor{.leader = table<fb::SelectTraitor>(obj)->leader()}); break;
    case fb::Action::Predict: {
      auto* t = table<fb::Predict>(obj);
      out->emplace(action::Predict{.faction = static_cast<uint8_t>(t->faction()), .turn = t->turn()});
      break;
    }
    case fb::Action::PlaceForces: {
      action::PlaceForces a;
      ok = read_placements(table<fb::PlaceForces>(obj)->placements(), &a.placements);
      out->emplace(std::move(a));
      break;
    }
    case fb::Action::DialStorm: out->emplace(action::DialStorm{.value = table<fb::DialStorm>(obj)->value()}); break;
    case fb::Action::Pass: out->emplace(action::Pass{}); break;
    case fb::Action::ClaimCharity: out->emplace(action::ClaimCharity{}); break;
    case fb::Action::BreakAlliance: out->emplace(action::BreakAlliance{}); break;
    case fb::Action::Bid: {
      auto* t = table<fb::Bid>(obj);
      out->emplace(action::Bid{.amount = t->amount(), .karama = t->karama(), .card = t->card()});
      break;
    }
    case fb::Action::Revive: {
      auto* t = table<fb::Revive>(obj);
      out->emplace(action::Revive{.forces = t->forces(), .special = t->special(), .leader = t->leader()});
      break;
    }
    case fb::Action::Ship: {
      auto* t = table<fb::Ship>(obj);
      out->emplace(action::Ship{.to = t->to(),
                       .forces = t->forces(),
                       .special = t->special(),
                       .from = t->from(),
                       .to_reserves = t->to_reserves(),
                       .advisors = t->advisors(),
                       .ally_pays = t->ally_pays(),
                       .no_field = t->no_field()});
      break;
    }
    case fb::Action::Move: {
      auto* t = table<fb::Move>(obj);
      action::Move a;
      ok = read_placements(t->from(), &a.from);
      a.to = t->to();
      a.flip = t->flip();
      a.ornithopter = t->ornithopter();
      out->emplace(std::move(a));
      break;
    }
    case fb::Action::ProposeAlliance:
      out->emplace(action::ProposeAlliance{.with = static_cast<uint8_t>(table<fb::ProposeAlliance>(obj)->with())});
      break;
    case fb::Action::AcceptAlliance:
      out->emplace(action::AcceptAlliance{.with = static_cast<uint8_t>(table<fb::AcceptAlliance>(obj)->with())});
      break;
    case fb::Action::Bribe: {
      auto* t = table<fb::Bribe>(obj);
      action::Bribe a{.to = static_cast<uint8_t>(t->to()), .amount = t->amount()};
      if (t->note()) a.note = t->note()->str();
      out->emplace(std::move(a));
      break;
    }
    case fb::Action::Deal: {
      auto* t = table<fb::Deal>(obj);
      action::Deal a;
      ok = read_list(t->with(), &a.with, [](fb::Faction f) { return static_cast<uint8_t>(f); });
      if (t->text()) a.text = t->text()->str();
      out->emplace(std::move(a));
      break;
    }
    case fb::Action::PlayCard: {
      auto* t = table<fb::PlayCard>(obj);
      out->emplace(action::PlayCard{.card = t->card(), .target = t->target(), .value = t->value()});
      break;
    }
    case fb::Action::Respond: {
      auto* t = table<fb::Respond>(obj);
      out->emplace(action::Respond{.accept = t->accept(), .card = t->card()});
      break;
    }
    case fb::Action::SendSpiritualAdvisor:
      out->emplace(action::SendSpiritualAdvisor{.to = table<fb::SendSpiritualAdvisor>(obj)->to()});
      break;
    case fb::Action::Flip: out->emplace(action::Flip{.location = table<fb::Flip>(obj)->location()}); break;
    case fb::Action::GuildTiming: out->emplace(action::GuildTiming{.now = table<fb::GuildTiming>(obj)->now()}); break;
    case fb::Action::WormRide: {
      auto* t = table<fb::WormRide>(obj);
      out->emplace(action::WormRide{.to = t->to(), .forces = t->forces(), .special = t->special()});
      break;
    }
    case fb::Action::BattlePlan: {
      auto* t = table<fb::BattlePlan>(obj);
      out->emplace(action::BattlePlan{.leader = t->leader(),
                             .cheap_hero = t->cheap_hero(),
                             .weapon = t->weapon(),
                             .defense = t->defense(),
                             .dial = t->dial(),
                             .spice = t->spice(),
                             .kwisatz_haderach = t->kwisatz_haderach(),
                             .ally_pays = t->ally_pays(),
                             .skill_spice = t->skill_spice()});
      break;
    }
    case fb::Action::ChooseBattle: {
      auto* t = table<fb::ChooseBattle>(obj);
      out->emplace(action::ChooseBattle{.territory = t->territory(), .opponent = static_cast<uint8_t>(t->opponent())});
      break;
    }
    case fb::Action::CallTraitor: out->emplace(action::CallTraitor{.call = table<fb::CallTraitor>(obj)->call()}); break;
    case fb::Action::SetRulings: {
      Rulings r;
      if (!read_rulings(table<fb::SetRulings>(obj)->rulings(), rules_version, &r, error)) return false;
      out->emplace(action::SetRulings{.rulings = r});
      break;
    }
    case fb::Action::Prescience: out->emplace(action::Prescience{.element = table<fb::Prescience>(obj)->element()}); break;
    case fb::Action::PrescienceAnswer: out->emplace(action::PrescienceAnswer{.value = table<fb::PrescienceAnswer>(obj)->value()}); break;
    case fb::Action::Voice: {
      auto* t = table<fb::Voice>(obj);
      out->emplace(action::Voice{.must = t->must(), .kind = t->kind()});
      break;
    }
    case fb::Action::GiveSpice: {
      auto* t = table<fb::GiveSpice>(obj);
      out->emplace(action::GiveSpice{.to = static_cast<uint8_t>(t->to()), .amount = t->amount()});
      break;
    }
    case fb::Action::KeepCards: {
      action::KeepCards a;
      ok = read_list(table<fb::KeepCards>(obj)->keep(), &a.keep, [](uint8_t id) { return id; });
      out->emplace(std::move(a));
      break;
    }
    case fb::Action::AllyPermission: {
      auto* t = table<fb::AllyPermission>(obj);
      out->emplace(action::AllyPermission{.shipment = t->shipment(), .bids = t->bids(), .no_field = t->no_field()});
      break;
    }
    case fb::Action::ChoamSell: out->emplace(action::ChoamSell{.card = table<fb::ChoamSell>(obj)->card()}); break;
    case fb::Action::ChoamInflation: out->emplace(action::ChoamInflation{.side = table<fb::ChoamInflation>(obj)->side()}); break;
    case fb::Action::ChoamTrade: out->emplace(action::ChoamTrade{.card = table<fb::ChoamTrade>(obj)->card()}); break;
    case fb::Action::ChoamCard: {
      auto* t = table<fb::ChoamCard>(obj);
      out->emplace(action::ChoamCard{.card = t->card(), .faction = static_cast<uint8_t>(t->faction()), .location = t->location()});
      break;
    }
    case fb::Action::ChoamSupport: out->emplace(action::ChoamSupport{.battle = table<fb::ChoamSupport>(obj)->battle()}); break;
    case fb::Action::ChoamKarama: {
      auto* t = table<fb::ChoamKarama>(obj);
      action::ChoamKarama a{.karama = t->karama(), .cards = {}};
      ok = read_list(t->cards(), &a.cards, [](uint8_t id) { return id; });
      out->emplace(std::move(a));
      break;
    }
    case fb::Action::RicheseLot: {
      auto* t = table<fb::RicheseLot>(obj);
      out->emplace(action::RicheseLot{.card = t->card(), .auction = t->auction()});
      break;
    }
    case fb::Action::RicheseCacheTiming: out->emplace(action::RicheseCacheTiming{.first = table<fb::RicheseCacheTiming>(obj)->first()}); break;
    case fb::Action::RicheseBuy: {
      auto* t = table<fb::RicheseBuy>(obj);
      out->emplace(action::RicheseBuy{.karama = t->karama(), .card = t->card()});
      break;
    }
    case fb::Action::RicheseGift: out->emplace(action::RicheseGift{.card = table<fb::RicheseGift>(obj)->card()}); break;
    case fb::Action::RicheseReveal: out->emplace(action::RicheseReveal{}); break;
    case fb::Action::AssignSkill: {
      auto* t = table<fb::AssignSkill>(obj);
      out->emplace(action::AssignSkill{.skill = t->skill(), .leader = t->leader()});
      break;
    }
    case fb::Action::MentatQuestion: out->emplace(action::MentatQuestion{.weapon = table<fb::MentatQuestion>(obj)->weapon()}); break;
    case fb::Action::MentatAnswer: out->emplace(action::MentatAnswer{.card = table<fb::MentatAnswer>(obj)->card()}); break;
    case fb::Action::DecipherTraitor: {
      auto* t = table<fb::DecipherTraitor>(obj);
      out->emplace(action::DecipherTraitor{.take = t->take(), .give = t->give()});
      break;
    }
    case fb::Action::SkillBehind: {
      out->emplace(action::SkillBehind{.leader = table<fb::SkillBehind>(obj)->leader()});
      break;
    }
    case fb::Action::NONE: *out = Action{}; break;
  }
  if (!ok) {
    *out = Action{};
    *error = "the action has too many entries";
    return false;
  }
  return true;
}

}  // namespace

std::string encode_event(const Event& e) {
  FlatBufferBuilder b(256);
  auto action = build_action(b, e.action, &e.setup);
  std::vector<fb::Draw> draws;
  draws.reserve(e.draws.size());
  for (const auto& d : e.draws) draws.emplace_back(static_cast<uint8_t>(d.kind), d.value);
  auto ev = fb::CreateEvent(b, e.version, e.seat, static_cast<fb::Action>(e.action.kind()), action,
                            b.CreateString(e.client_action_id), e.engine_version, e.rules_version,
                            b.CreateVectorOfStructs(draws), e.state_hash);
  fb::FinishEventBuffer(b, ev);
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

bool decode_event(std::string_view bytes, Event* out, std::string* error) {
  error->clear();
  if (bytes.size() < 8 || !fb::EventBufferHasIdentifier(bytes.data())) {
    *error = "not a Mentat event (bad size or file identifier)";
    return false;
  }
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (!fb::VerifyEventBuffer(verifier)) {
    *error = "event bytes failed FlatBuffers verification";
    return false;
  }
  const auto* ev = fb::GetEvent(bytes.data());
  *out = Event{};
  out->version = ev->version();
  out->seat = ev->seat();
  out->engine_version = ev->engine_version();
  out->rules_version = ev->rules_version();
  if (!read_action(ev->action_type(), ev->action(), &out->action, &out->setup, error, out->rules_version)) return false;
  if (ev->client_action_id()) out->client_action_id = ev->client_action_id()->str();
  if (ev->draws())
    for (const auto* d : *ev->draws()) out->draws.push_back({static_cast<DrawKind>(d->kind()), d->value()});
  out->state_hash = ev->state_hash();
  return true;
}

bool parse_action_json(std::string_view json, Action* out, GameSetup* setup, std::string* error) {
  flatbuffers::IDLOptions opts;
  flatbuffers::Parser parser(opts);
  if (!parser.Parse(schema::kEventSchema) || !parser.SetRootType("ActionRequest")) {
    *error = "internal: the event schema does not parse: " + parser.error_;
    return false;
  }
  std::string text;  // names given for ids become ids (events/names.h)
  if (!names::resolve_action_json(json, names::Context{}, &text, error)) return false;
  if (!parser.ParseJson(text.c_str())) {  // JSON only: no schema text or includes
    *error = "invalid action JSON: " + parser.error_;
    return false;
  }
  const uint8_t* buf = parser.builder_.GetBufferPointer();
  flatbuffers::Verifier verifier(buf, parser.builder_.GetSize());
  if (!verifier.VerifyBuffer<fb::ActionRequest>(nullptr)) {
    *error = "invalid action JSON: the result failed verification";
    return false;
  }
  const auto* req = flatbuffers::GetRoot<fb::ActionRequest>(buf);
  if (req->action_type() == fb::Action::NONE) {
    *error = "invalid action JSON: no action_type given";
    return false;
  }
  return read_action(req->action_type(), req->action(), out, setup, error);
}

uint32_t action_to_table(FlatBufferBuilder& b, const Action& a, const GameSetup* setup) {
  static const GameSetup kNoSetup;
  return build_action(b, a, setup ? setup : &kNoSetup).o;
}

bool action_from_table(uint8_t type, const void* table, Action* out, GameSetup* setup, std::string* error) {
  return read_action(static_cast<fb::Action>(type), table, out, setup, error);
}

bool parse_event_json(std::string_view json, Event* out, std::string* error) {
  flatbuffers::IDLOptions opts;
  flatbuffers::Parser parser(opts);
  if (!parser.Parse(schema::kEventSchema) || !parser.SetRootType("Event")) {
    *error = "internal: the event schema does not parse: " + parser.error_;
    return false;
  }
  std::string text(json);
  if (!parser.ParseJson(text.c_str())) {  // JSON only: no schema text or includes
    *error = "invalid event JSON: " + parser.error_;
    return false;
  }
  return decode_event(std::string_view(reinterpret_cast<const char*>(parser.builder_.GetBufferPointer()), parser.builder_.GetSize()),
                      out, error);
}

namespace {

// One parser per thread and schema, built on first use and reused. It is
// loaded from the binary schema (events/schema_binary.h), which prints the
// same JSON as a parser of the schema text (test "json: printers loaded from
// the binary schemas print what the schema text's parsers print") at a
// fraction of the cost: parsing the view schema's text was about 1 M
// instructions of every `mentat show`.
flatbuffers::Parser& output_parser(const char* schema) {
  thread_local std::unique_ptr<flatbuffers::Parser> event_parser, view_parser;
  const bool event = schema == schema::kEventSchema;
  auto& slot = event ? event_parser : view_parser;
  if (!slot) {
    flatbuffers::IDLOptions opts;
    opts.strict_json = true;
    opts.indent_step = -1;  // one line
    opts.output_default_scalars_in_json = true;
    auto p = std::make_unique<flatbuffers::Parser>(opts);
    const bool ok = event ? p->Deserialize(schema::kEventBinarySchema, sizeof schema::kEventBinarySchema)
                          : p->Deserialize(schema::kViewBinarySchema, sizeof schema::kViewBinarySchema);
    if (!ok) throw std::logic_error("internal: a compiled-in binary schema does not load: " + p->error_);
    slot = std::move(p);
  }
  return *slot;
}

bool to_json(const char* schema, const char* root, std::string_view bytes, std::string* out, std::string* error) {
  auto& parser = output_parser(schema);
  if (!parser.SetRootType(root)) {
    *error = std::string("internal: no table ") + root + " in the schema";
    return false;
  }
  if (!print_json(parser, bytes.data(), out) || out->empty()) {
    *error = "could not print the buffer as JSON";
    return false;
  }
  return true;
}
}  // namespace

std::string action_to_json(const Action& a) {
  static const GameSetup kNoSetup;
  FlatBufferBuilder b(128);
  const auto table = build_action(b, a, &kNoSetup);
  b.Finish(fb::CreateActionRequest(b, static_cast<fb::Action>(a.kind()), table));
  std::string out, error;
  if (!to_json(schema::kEventSchema, "ActionRequest",
               std::string_view(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize()), &out, &error))
    return std::string(action_kind_name(a.kind()));
  return out;
}

bool event_to_json(std::string_view bytes, std::string* out, std::string* error) {
  Event e;
  if (!decode_event(bytes, &e, error)) return false;
  return to_json(schema::kEventSchema, "Event", bytes, out, error);
}

bool view_to_json(std::string_view bytes, std::string* out, std::string* error) {
  return to_json(schema::kViewSchema, "View", bytes, out, error);
}

bool table_to_json(const char* root, std::string_view bytes, std::string* out, std::string* error) {
  return to_json(schema::kViewSchema, root, bytes, out, error);
}

}  // namespace mentat::codec
