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
#include "events/schema_text.h"

namespace mentat::codec {

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

static_assert(static_cast<int>(fb::Action::MAX) == kMaxActionKind,
              "ActionKind and the schema's Action union must list the same kinds");

Offset<void> build_action(FlatBufferBuilder& b, const Action& a, const GameSetup* setup) {
  auto placements = [&](const Action& x) {
    std::vector<fb::Placement> v;
    for (int i = 0; i < x.n_placements; ++i)
      v.emplace_back(x.placements[i].location, x.placements[i].forces, x.placements[i].special);
    return b.CreateVectorOfStructs(v);
  };
  switch (a.kind) {
    case ActionKind::CreateGame: {
      std::vector<fb::Faction> factions;
      for (auto f : setup->factions) factions.push_back(static_cast<fb::Faction>(f));
      std::vector<Offset<fb::RulingChoice>> rulings;
      for (const auto& info : ruling_registry()) {
        rulings.push_back(fb::CreateRulingChoice(b, b.CreateString(info.key),
                                                 b.CreateString(info.values[setup->rulings.get(info.id)])));
      }
      std::vector<fb::Module> modules;
      for (int m = 0; m < data::kNumModules; ++m)
        if (setup->modules & data::module_bit(static_cast<data::Module>(m))) modules.push_back(static_cast<fb::Module>(m));
      const Offset<fb::Position> position(setup->start ? position::build(b, *setup->start, setup->resume, setup->shuffle_decks) : 0);
      return fb::CreateCreateGame(b, setup->seed, b.CreateVector(factions), setup->advanced, setup->max_turns,
                                  b.CreateVector(rulings), b.CreateString(setup->name),
                                  modules.empty() ? 0 : b.CreateVector(modules), setup->state_format, position)
          .Union();
    }
    case ActionKind::SelectTraitor: return fb::CreateSelectTraitor(b, a.value).Union();
    case ActionKind::Predict: return fb::CreatePredict(b, static_cast<fb::Faction>(a.faction), a.value).Union();
    case ActionKind::PlaceForces: return fb::CreatePlaceForces(b, placements(a)).Union();
    case ActionKind::DialStorm: return fb::CreateDialStorm(b, a.value).Union();
    case ActionKind::Pass: return fb::CreatePass(b).Union();
    case ActionKind::ClaimCharity: return fb::CreateClaimCharity(b).Union();
    case ActionKind::Bid: return fb::CreateBid(b, static_cast<uint8_t>(a.amount), a.flag, a.card).Union();
    case ActionKind::Revive: return fb::CreateRevive(b, a.forces, a.special, a.card).Union();
    case ActionKind::Ship: return fb::CreateShip(b, a.to, a.forces, a.special, a.from, a.flag, a.flag2, a.amount2).Union();
    case ActionKind::Move: return fb::CreateMove(b, placements(a), a.to, a.flag).Union();
    case ActionKind::ProposeAlliance: return fb::CreateProposeAlliance(b, static_cast<fb::Faction>(a.faction)).Union();
    case ActionKind::AcceptAlliance: return fb::CreateAcceptAlliance(b, static_cast<fb::Faction>(a.faction)).Union();
    case ActionKind::BreakAlliance: return fb::CreateBreakAlliance(b).Union();
    case ActionKind::Bribe:
      return fb::CreateBribe(b, static_cast<fb::Faction>(a.faction), a.amount, b.CreateString(a.text)).Union();
    case ActionKind::Deal: {
      std::vector<fb::Faction> with;
      for (int i = 0; i < a.n_factions; ++i) with.push_back(static_cast<fb::Faction>(a.factions[i]));
      return fb::CreateDeal(b, b.CreateVector(with), b.CreateString(a.text)).Union();
    }
    case ActionKind::PlayCard: return fb::CreatePlayCard(b, a.card, a.to, a.value).Union();
    case ActionKind::Respond: return fb::CreateRespond(b, a.flag, a.card).Union();
    case ActionKind::SendSpiritualAdvisor: return fb::CreateSendSpiritualAdvisor(b, a.to).Union();
    case ActionKind::Flip: return fb::CreateFlip(b, a.to).Union();
    case ActionKind::GuildTiming: return fb::CreateGuildTiming(b, a.flag).Union();
    case ActionKind::WormRide: return fb::CreateWormRide(b, a.to, a.forces, a.special).Union();
    case ActionKind::BattlePlan:
      return fb::CreateBattlePlan(b, a.card, a.forces, a.to, a.from, a.value, static_cast<uint8_t>(a.amount), a.flag).Union();
    case ActionKind::ChooseBattle: return fb::CreateChooseBattle(b, a.to, static_cast<fb::Faction>(a.faction)).Union();
    case ActionKind::CallTraitor: return fb::CreateCallTraitor(b, a.flag).Union();
    case ActionKind::SetRulings: {
      std::vector<Offset<fb::RulingChoice>> rulings;
      for (const auto& info : ruling_registry())
        rulings.push_back(fb::CreateRulingChoice(b, b.CreateString(info.key), b.CreateString(info.values[a.rulings.get(info.id)])));
      return fb::CreateSetRulings(b, b.CreateVector(rulings)).Union();
    }
    case ActionKind::Prescience: return fb::CreatePrescience(b, a.value).Union();
    case ActionKind::PrescienceAnswer: return fb::CreatePrescienceAnswer(b, a.value).Union();
    case ActionKind::Voice: return fb::CreateVoice(b, a.flag, a.value).Union();
    case ActionKind::GiveSpice: return fb::CreateGiveSpice(b, static_cast<fb::Faction>(a.faction), a.amount).Union();
    case ActionKind::KeepCards: {
      std::vector<uint8_t> keep(a.cards, a.cards + std::min<int>(a.n_cards, kMaxKeepCards));
      return fb::CreateKeepCards(b, b.CreateVector(keep)).Union();
    }
    case ActionKind::AllyPermission: return fb::CreateAllyPermission(b, a.amount, a.amount2).Union();
    case ActionKind::None: break;
  }
  return 0;
}

void read_placements(const flatbuffers::Vector<const fb::Placement*>* v, Action* a, bool* ok) {
  if (!v) return;
  if (v->size() > kMaxPlacements) {
    *ok = false;
    return;
  }
  for (const auto* p : *v) a->placements[a->n_placements++] = Placement{p->location(), p->forces(), p->special()};
}

// Reads the action union into `a` (and `setup` for CreateGame).
bool read_action(fb::Action type, const void* obj, Action* a, GameSetup* setup, std::string* error) {
  *a = Action{};
  const int tag = static_cast<int>(type);
  if (tag < 1 || tag > kMaxActionKind) {
    *error = "unknown action kind (union tag " + std::to_string(tag) + ")";
    return false;
  }
  if (!obj) {
    *error = "the action table is missing";
    return false;
  }
  a->kind = static_cast<ActionKind>(tag);
  bool ok = true;
  switch (type) {
    case fb::Action::CreateGame: {
      auto* t = static_cast<const fb::CreateGame*>(obj);
      GameSetup g;
      g.seed = t->seed();
      if (t->factions())
        for (auto f : *t->factions()) g.factions.push_back(static_cast<Faction>(f));
      g.advanced = t->advanced();
      g.max_turns = t->max_turns();
      g.rulings = Rulings::defaults();
      if (t->rulings()) {
        for (const auto* r : *t->rulings()) {
          if (!r->id() || !r->value() || !g.rulings.set(r->id()->string_view(), r->value()->string_view(), error))
            return (error->empty() ? (*error = "a ruling has no id or value", false) : false);
        }
      }
      if (t->name()) g.name = t->name()->str();
      if (t->modules()) {
        for (auto m : *t->modules()) {
          if (static_cast<int>(m) >= data::kNumModules) {
            *error = "unknown module id " + std::to_string(static_cast<int>(m));
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
      break;
    }
    case fb::Action::SelectTraitor: a->value = static_cast<const fb::SelectTraitor*>(obj)->leader(); break;
    case fb::Action::Predict: {
      auto* t = static_cast<const fb::Predict*>(obj);
      a->faction = static_cast<uint8_t>(t->faction());
      a->value = t->turn();
      break;
    }
    case fb::Action::PlaceForces: read_placements(static_cast<const fb::PlaceForces*>(obj)->placements(), a, &ok); break;
    case fb::Action::DialStorm: a->value = static_cast<const fb::DialStorm*>(obj)->value(); break;
    case fb::Action::Pass:
    case fb::Action::ClaimCharity:
    case fb::Action::BreakAlliance: break;
    case fb::Action::Bid: {
      auto* t = static_cast<const fb::Bid*>(obj);
      a->amount = t->amount();
      a->flag = t->karama();
      a->card = t->card();
      break;
    }
    case fb::Action::Revive: {
      auto* t = static_cast<const fb::Revive*>(obj);
      a->forces = t->forces();
      a->special = t->special();
      a->card = t->leader();
      break;
    }
    case fb::Action::Ship: {
      auto* t = static_cast<const fb::Ship*>(obj);
      a->to = t->to();
      a->forces = t->forces();
      a->special = t->special();
      a->from = t->from();
      a->flag = t->to_reserves();
      a->flag2 = t->advisors();
      a->amount2 = t->ally_pays();
      break;
    }
    case fb::Action::Move: {
      auto* t = static_cast<const fb::Move*>(obj);
      read_placements(t->from(), a, &ok);
      a->to = t->to();
      a->flag = t->flip();
      break;
    }
    case fb::Action::ProposeAlliance: a->faction = static_cast<uint8_t>(static_cast<const fb::ProposeAlliance*>(obj)->with()); break;
    case fb::Action::AcceptAlliance: a->faction = static_cast<uint8_t>(static_cast<const fb::AcceptAlliance*>(obj)->with()); break;
    case fb::Action::Bribe: {
      auto* t = static_cast<const fb::Bribe*>(obj);
      a->faction = static_cast<uint8_t>(t->to());
      a->amount = t->amount();
      if (t->note()) a->text = t->note()->str();
      break;
    }
    case fb::Action::Deal: {
      auto* t = static_cast<const fb::Deal*>(obj);
      if (t->with()) {
        if (t->with()->size() > kMaxSeats) ok = false;
        else
          for (auto f : *t->with()) a->factions[a->n_factions++] = static_cast<uint8_t>(f);
      }
      if (t->text()) a->text = t->text()->str();
      break;
    }
    case fb::Action::PlayCard: {
      auto* t = static_cast<const fb::PlayCard*>(obj);
      a->card = t->card();
      a->to = t->target();
      a->value = t->value();
      break;
    }
    case fb::Action::Respond: {
      auto* t = static_cast<const fb::Respond*>(obj);
      a->flag = t->accept();
      a->card = t->card();
      break;
    }
    case fb::Action::SendSpiritualAdvisor: a->to = static_cast<const fb::SendSpiritualAdvisor*>(obj)->to(); break;
    case fb::Action::Flip: a->to = static_cast<const fb::Flip*>(obj)->location(); break;
    case fb::Action::GuildTiming: a->flag = static_cast<const fb::GuildTiming*>(obj)->now(); break;
    case fb::Action::WormRide: {
      auto* t = static_cast<const fb::WormRide*>(obj);
      a->to = t->to();
      a->forces = t->forces();
      a->special = t->special();
      break;
    }
    case fb::Action::BattlePlan: {
      auto* t = static_cast<const fb::BattlePlan*>(obj);
      a->card = t->leader();
      a->forces = t->cheap_hero();
      a->to = t->weapon();
      a->from = t->defense();
      a->value = t->dial();
      a->amount = t->spice();
      a->flag = t->kwisatz_haderach();
      break;
    }
    case fb::Action::ChooseBattle: {
      auto* t = static_cast<const fb::ChooseBattle*>(obj);
      a->to = t->territory();
      a->faction = static_cast<uint8_t>(t->opponent());
      break;
    }
    case fb::Action::CallTraitor: a->flag = static_cast<const fb::CallTraitor*>(obj)->call(); break;
    case fb::Action::SetRulings: {
      auto* t = static_cast<const fb::SetRulings*>(obj);
      a->rulings = Rulings::defaults();
      if (t->rulings())
        for (const auto* r : *t->rulings())
          if (!r->id() || !r->value() || !a->rulings.set(r->id()->string_view(), r->value()->string_view(), error)) {
            if (error->empty()) *error = "a ruling has no id or value";
            return false;
          }
      break;
    }
    case fb::Action::Prescience: a->value = static_cast<const fb::Prescience*>(obj)->element(); break;
    case fb::Action::PrescienceAnswer: a->value = static_cast<const fb::PrescienceAnswer*>(obj)->value(); break;
    case fb::Action::Voice: {
      auto* t = static_cast<const fb::Voice*>(obj);
      a->flag = t->must();
      a->value = t->kind();
      break;
    }
    case fb::Action::GiveSpice: {
      auto* t = static_cast<const fb::GiveSpice*>(obj);
      a->faction = static_cast<uint8_t>(t->to());
      a->amount = t->amount();
      break;
    }
    case fb::Action::KeepCards: {
      auto* t = static_cast<const fb::KeepCards*>(obj);
      if (t->keep()) {
        if (t->keep()->size() > kMaxKeepCards) ok = false;
        else
          for (auto id : *t->keep()) a->cards[a->n_cards++] = id;
      }
      break;
    }
    case fb::Action::AllyPermission: {
      auto* t = static_cast<const fb::AllyPermission*>(obj);
      a->amount = t->shipment();
      a->amount2 = t->bids();
      break;
    }
    case fb::Action::NONE: break;
  }
  if (!ok) {
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
  auto ev = fb::CreateEvent(b, e.version, e.seat, static_cast<fb::Action>(e.action.kind), action,
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
  if (!read_action(ev->action_type(), ev->action(), &out->action, &out->setup, error)) return false;
  if (ev->client_action_id()) out->client_action_id = ev->client_action_id()->str();
  out->engine_version = ev->engine_version();
  out->rules_version = ev->rules_version();
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

// One parser per thread and schema, built on first use and reused (building
// one parses the schema text: about 0.3 ms).
flatbuffers::Parser& output_parser(const char* schema) {
  thread_local std::unique_ptr<flatbuffers::Parser> event_parser, view_parser;
  auto& slot = schema == schema::kEventSchema ? event_parser : view_parser;
  if (!slot) {
    flatbuffers::IDLOptions opts;
    opts.strict_json = true;
    opts.indent_step = -1;  // one line
    opts.output_default_scalars_in_json = true;
    auto p = std::make_unique<flatbuffers::Parser>(opts);
    if (!p->Parse(schema)) throw std::logic_error("internal: a compiled-in schema does not parse: " + p->error_);
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
