#include "bots/knowledge.h"

#include <flatbuffers/flatbuffers.h>

#include <string>
#include <unordered_map>

#include "events/view_generated.h"
#include "inspect/view.h"

namespace mentat::bots {

namespace {

// Keyed by views of the static name tables (data::, faction_key, ...), so a
// lookup reads the view's string in place (no std::string per name).
struct Names {
  std::unordered_map<std::string_view, LocationId> locations;
  std::unordered_map<std::string_view, uint8_t> leaders;
  std::unordered_map<std::string_view, data::TreacheryKind> cards;
  std::unordered_map<std::string_view, uint8_t> card_ids;  // the first card of each name
  std::unordered_map<std::string_view, Faction> factions;
  std::unordered_map<std::string_view, Phase> phases;
  std::unordered_map<std::string_view, ActionKind> kinds;
  std::unordered_map<std::string_view, Topic> topics;
  std::unordered_map<std::string_view, WindowKind> windows;
  std::unordered_map<std::string_view, LeaderZone> zones;
  std::unordered_map<std::string_view, const RulingInfo*> rulings;
};

const Names& names() {
  static const Names n = [] {
    Names x;
    for (int l = 0; l < data::kNumLocations; ++l)
      x.locations.emplace(data::location(static_cast<LocationId>(l)).name, static_cast<LocationId>(l));
    for (int l = 0; l < data::kNumLeaders; ++l)
      x.leaders.emplace(data::leader(static_cast<LeaderId>(l)).name, static_cast<uint8_t>(l));
    for (int c = 0; c < data::kNumAllTreacheryCards; ++c) {  // a name twice (Karama): the first id
      const auto& card = data::treachery_card(static_cast<TreacheryId>(c));
      x.cards.emplace(card.name, card.kind);
      x.card_ids.emplace(card.name, static_cast<uint8_t>(c));
    }
    for (int f = 0; f < kNumFactions; ++f) x.factions.emplace(faction_key(static_cast<Faction>(f)), static_cast<Faction>(f));
    for (int p = 0; p <= static_cast<int>(Phase::GameOver); ++p)
      x.phases.emplace(phase_name(static_cast<Phase>(p)), static_cast<Phase>(p));
    for (int k = 0; k <= kMaxActionKind; ++k)
      x.kinds.emplace(action_kind_name(static_cast<ActionKind>(k)), static_cast<ActionKind>(k));
    for (int t = 1; t < kNumTopics; ++t) x.topics.emplace(topic_key(static_cast<Topic>(t)), static_cast<Topic>(t));
    for (int w = 1; w <= static_cast<int>(WindowKind::SkillRevival); ++w)
      x.windows.emplace(window_kind_key(static_cast<WindowKind>(w)), static_cast<WindowKind>(w));
    x.zones = {{"pool", LeaderZone::Pool},
               {"tanks", LeaderZone::Tanks},
               {"tanks_face_down", LeaderZone::TanksFaceDown},
               {"battlefield", LeaderZone::Battlefield}};
    for (const auto& info : ruling_registry()) x.rulings.emplace(info.key, &info);
    return x;
  }();
  return n;
}

std::string_view sv(const flatbuffers::String* s) { return std::string_view(s->c_str(), s->size()); }

template <class Map>
auto lookup(const Map& m, const flatbuffers::String* s, typename Map::mapped_type fallback) {
  if (!s) return fallback;
  auto it = m.find(sv(s));
  return it == m.end() ? fallback : it->second;
}

// A location or leader named in the view beside its id: the id when the name
// is that id's (a compare instead of a hash look-up), else by the name.
LocationId location_of(const flatbuffers::String* name, uint8_t id) {
  if (!name) return kNone8;
  if (id < data::kNumLocations && data::location(static_cast<LocationId>(id)).name == sv(name)) return id;
  return location_by_name(sv(name));
}
uint8_t leader_of(const flatbuffers::String* name, uint8_t id) {
  if (!name) return kNone8;
  if (id < data::kNumLeaders && data::leader(static_cast<LeaderId>(id)).name == sv(name)) return id;
  return leader_by_name(sv(name));
}

uint8_t faction_of(const flatbuffers::String* s) {
  if (!s) return kNoFaction;
  auto it = names().factions.find(sv(s));
  return it == names().factions.end() ? kNoFaction : static_cast<uint8_t>(it->second);
}

PlanInfo read_plan(const fb::PlanView* p) {
  PlanInfo out;
  if (!p) return out;
  out.known = true;
  out.leader = p->leader() ? leader_by_name(sv(p->leader())) : kNone8;
  out.cheap_hero = p->cheap_hero() != nullptr;
  if (p->weapon()) out.has_weapon = treachery_kind_by_name(sv(p->weapon()), &out.weapon);
  if (p->defense()) out.has_defense = treachery_kind_by_name(sv(p->defense()), &out.defense);
  if (out.has_weapon) out.weapon_card = names().card_ids.at(sv(p->weapon()));
  if (out.has_defense) out.defense_card = names().card_ids.at(sv(p->defense()));
  out.dial = p->dial();
  out.dial_hidden = p->dial_hidden();
  out.spice = p->spice();
  return out;
}

}  // namespace

LocationId location_by_name(std::string_view name) {
  auto it = names().locations.find(name);
  return it == names().locations.end() ? kNone8 : it->second;
}
uint8_t leader_by_name(std::string_view name) {
  auto it = names().leaders.find(name);
  return it == names().leaders.end() ? kNone8 : it->second;
}
bool treachery_kind_by_name(std::string_view name, data::TreacheryKind* out) {
  auto it = names().cards.find(name);
  if (it == names().cards.end()) return false;
  *out = it->second;
  return true;
}

uint8_t spice_card_by_name(std::string_view name) {
  for (int c = 0; c < data::kNumSpiceCards; ++c)
    if (data::spice_card_name(static_cast<SpiceCardId>(c)) == name) return static_cast<uint8_t>(c);
  return kNone8;
}

Knowledge read_knowledge(const ViewInput& in) {
  Knowledge k;
  k.seat = in.seat;
  const fb::View* v = in.view();
  if (!v) return k;
  const auto& N = names();
  k.version = v->version();
  k.turn = v->turn();
  k.max_turns = v->max_turns();
  k.advanced = v->advanced();
  k.phase = lookup(N.phases, v->phase(), Phase::Setup);
  k.storm_sector = v->storm_sector();
  if (v->storm_order())
    for (auto x : *v->storm_order()) k.storm_order.push_back(x);
  if (v->viewer()) {
    auto it = N.factions.find(sv(v->viewer()));
    if (it != N.factions.end()) k.me = it->second;
  }
  if (v->factions()) {
    for (const auto* fv : *v->factions()) {
      const uint8_t fi = faction_of(fv->faction());
      if (fi == kNoFaction) continue;
      auto& f = k.fac[fi];
      f.present = true;
      f.seat = fv->seat();
      if (f.seat >= 0 && f.seat < kMaxSeats) {
        k.seat_faction[f.seat] = static_cast<Faction>(fi);
        k.num_seats = std::max<int>(k.num_seats, f.seat + 1);
      }
      if (fv->spice().has_value()) f.spice = *fv->spice();
      f.bribes = fv->bribes();
      f.hand_count = fv->hand_count();
      f.reserves[0] = fv->reserves();
      f.reserves[1] = fv->reserves_special();
      f.tanks[0] = fv->tanks();
      f.tanks[1] = fv->tanks_special();
      f.ally = faction_of(fv->ally());
      f.shipped = fv->shipped();
      if (fv->ally_permission_shipment().has_value()) f.permit_ship = *fv->ally_permission_shipment();
      if (fv->ally_permission_bids().has_value()) f.permit_bids = *fv->ally_permission_bids();
      f.moved = fv->moved();
      if (fv->forces())
        for (const auto* x : *fv->forces()) {
          const LocationId l = location_of(x->location(), x->location_id());
          if (l >= data::kNumLocations) continue;
          k.forces[fi][l][0] = x->forces();
          k.forces[fi][l][1] = x->special();
        }
      if (static_cast<Faction>(fi) == k.me && f.seat == in.seat) {
        if (fv->hand())
          for (const auto* c : *fv->hand()) k.hand.push_back(c->id());
        if (fv->traitors())
          for (const auto* t : *fv->traitors()) {
            const uint8_t id = leader_by_name(sv(t));
            if (id != kNone8) k.traitors.push_back(id);
          }
        if (fv->traitor_offer())
          for (const auto* t : *fv->traitor_offer()) {
            const uint8_t id = leader_by_name(sv(t));
            if (id != kNone8) k.traitor_offer.push_back(id);
          }
      }
    }
  }
  if (v->spice_on_board())
    for (const auto* spv : *v->spice_on_board()) {
      const LocationId l = location_of(spv->location(), spv->location_id());
      if (l < data::kNumLocations) k.spice_on_board[l] = spv->amount();
    }
  if (v->leaders())
    for (const auto* lv : *v->leaders()) {
      const uint8_t id = leader_of(lv->name(), lv->id());
      if (id >= data::kNumLeaders) continue;
      auto& L = k.leaders[id];
      L.known = true;
      L.zone = lookup(N.zones, lv->zone(), LeaderZone::Pool);
      L.holder = faction_of(lv->holder());
    }
  if (v->treachery_discard())
    for (const auto* c : *v->treachery_discard()) k.discard.push_back(c->id());
  k.treachery_deck_count = v->treachery_deck_count();
  if (const auto* b = v->bidding()) {
    k.bidding = true;
    if (b->current_card()) k.bid_card = b->current_card()->id();
    k.high_bid = b->high_bid();
    k.high_bidder = b->high_bidder();
    k.card_number = b->card_number();
    k.cards_up = b->cards_up_for_bid();
  }
  if (const auto* b = v->battle()) {
    k.battle = true;
    if (b->territory()) {
      if (auto t = data::find_territory(sv(b->territory()))) k.battle_territory = *t;
    }
    k.aggressor = b->aggressor();
    k.defender = b->defender();
    k.plan[0] = read_plan(b->aggressor_plan());
    k.plan[1] = read_plan(b->defender_plan());
    if (b->plans_in())
      for (auto x : *b->plans_in()) {
        if (x == k.aggressor) k.plan_in[0] = true;
        if (x == k.defender) k.plan_in[1] = true;
      }
    if (b->prescience_element()) {
      static const char* kElements[] = {"leader", "weapon", "defense", "dial"};
      for (int e = 0; e < 4; ++e)
        if (sv(b->prescience_element()) == kElements[e]) k.prescience_element = e;
    }
    if (b->prescience_value().has_value()) k.prescience_value = *b->prescience_value();
    if (b->voice_kind().has_value()) k.voice_kind = *b->voice_kind();
  }
  k.shield_wall_destroyed = v->shield_wall_destroyed();
  if (v->storm_override().has_value()) k.storm_override = *v->storm_override();
  if (v->cancel_ability().has_value()) k.cancel_ability = *v->cancel_ability();
  if (v->cancel_faction())
    if (auto it = N.factions.find(sv(v->cancel_faction())); it != N.factions.end()) k.cancel_faction = static_cast<uint8_t>(it->second);
  if (v->wormsign()) k.wormsign = spice_card_by_name(v->wormsign()->str());
  if (const auto* ch = v->choam()) {
    k.choam_trade_open = ch->trade_open();
    k.choam_traded_turn = ch->traded_turn();
    k.choam_declined_turn = ch->trade_declined_turn();
    k.choam_support = ch->battle_support();
    k.choam_audit_pending = ch->audit_pending();
    if (ch->audit_of())
      if (auto it = N.factions.find(sv(ch->audit_of())); it != N.factions.end()) k.choam_audit_of = static_cast<uint8_t>(it->second);
    k.choam_audit_turn = ch->audit_turn();
    if (ch->audit_cards())
      for (const auto* c : *ch->audit_cards()) k.choam_audit_cards.push_back(c->id());
  }
  if (const auto* r = v->richese()) {
    const std::string lot = r->lot() ? r->lot()->str() : "", auction = r->auction() ? r->auction()->str() : "";
    k.richese_lot = lot == "cache" ? 1 : lot == "black_market" ? 2 : 0;
    k.richese_auction = auction == "once_around_right" ? 1 : auction == "once_around_left" ? 2 : auction == "silent" ? 3 : 0;
    k.richese_cache_count = r->cache_count();
    if (r->cache())
      for (const auto* c : *r->cache()) k.richese_cache.push_back(c->id());
    k.richese_karama_used = r->karama_used();
    k.no_field_location = r->no_field_location();
    k.no_field_face_up = r->no_field_face_up();
    k.no_field_value = r->no_field_value();
    k.richese_ally_no_field = r->ally_no_field();
  }
  if (v->stronghold_cards())
    for (const auto* c : *v->stronghold_cards())
      if (c->card())
        if (const auto t = data::find_territory(sv(c->card()))) k.stronghold_cards.emplace_back(*t, faction_of(c->holder()));
  if (v->leader_skills())
    for (const auto* ls : *v->leader_skills())
      if (ls->leader_id() < data::kNumLeaders && ls->skill_id() < data::kNumLeaderSkills) {
        k.skill1[ls->leader_id()] = static_cast<uint8_t>(ls->skill_id() + 1);
        k.skill_front[ls->leader_id()] = ls->front();
      }
  if (const auto* bw = v->skill_bureaucracy(); bw && bw->receiver())
    if (auto it = N.factions.find(sv(bw->receiver())); it != N.factions.end()) k.bureau_receiver = static_cast<uint8_t>(it->second);
  if (const auto* mq = v->mentat_question()) {
    k.mentat_weapon = mq->weapon_id();
    if (mq->asker())
      if (auto it = N.factions.find(sv(mq->asker())); it != N.factions.end()) k.mentat_asker = it->second;
    k.mentat_answered = mq->answered();
    k.mentat_shown = mq->shown_id();
  }
  if (v->skill_hand_ids())
    for (const uint8_t id : *v->skill_hand_ids()) k.skill_hand.push_back(id);
  if (v->spice_discard_a())
    for (const auto* c : *v->spice_discard_a()) {
      const uint8_t id = spice_card_by_name(c->str());
      if (id != kNone8) k.spice_discard_a.push_back(id);
    }
  if (v->rulings()) {
    // Views into the rulings registry's names: no string per ruling.
    k.rulings.reserve(v->rulings()->size());
    for (const auto* r : *v->rulings()) {
      if (!r->id() || !r->value()) continue;
      const auto it = N.rulings.find(sv(r->id()));
      if (it == N.rulings.end()) continue;  // a ruling this engine does not know
      for (const std::string_view value : it->second->values)
        if (value == sv(r->value())) k.rulings.emplace_back(it->second->key, value);
    }
  }
  if (const auto* t = v->truthtrance()) {
    auto& T = k.truthtrance;
    T.known = true;
    T.asker = t->asker() ? faction_of(t->asker()) : kNoFaction;
    T.asked = t->asked() ? faction_of(t->asked()) : kNoFaction;
    T.question = t->question();
    T.subject = t->subject();
    if (t->answer().has_value()) T.answer = *t->answer() ? 1 : 0;
    T.turn = t->turn();
  }
  if (v->decisions())
    for (const auto* d : *v->decisions()) {
      DecisionInfo di;
      di.kind = lookup(N.kinds, d->kind(), ActionKind::None);
      di.min = d->min();
      di.max = d->max();
      if (const auto* ab = d->about()) {
        di.topic = lookup(N.topics, ab->topic(), Topic::None);
        di.window = lookup(N.windows, ab->window(), WindowKind::None);
        if (ab->owner()) di.owner = faction_of(ab->owner());
        if (ab->ability()) di.ability = ab->ability()->str();
        di.amount = ab->amount();
        di.place = ab->place();
      }
      if (d->options())
        for (auto o : *d->options()) di.options.push_back(o);
      k.decisions.push_back(std::move(di));
    }
  return k;
}

// ---- board helpers ---------------------------------------------------------------

std::string Knowledge::ruling(std::string_view key) const {
  for (const auto& [k, v] : rulings)
    if (k == key) return std::string(v);
  return {};
}

bool Knowledge::worthless_is_karama() const {
  if (me != Faction::BeneGesserit) return false;
  const std::string r = ruling("bg_worthless_karama");
  if (r == "always") return true;
  if (r == "never") return false;
  return advanced;  // advanced_only (the default)
}

int Knowledge::fighters(Faction f, LocationId l) const {
  const int fi = static_cast<int>(f);
  int n = forces[fi][l][0];
  if (!(f == Faction::BeneGesserit && advanced)) n += forces[fi][l][1];
  return n;
}

int Knowledge::fighters_in_territory(Faction f, TerritoryId t) const {
  const auto& ter = data::territory(t);
  int n = 0;
  for (int i = 0; i < ter.num_locations; ++i) n += fighters(f, static_cast<LocationId>(ter.first_location + i));
  return n;
}

int Knowledge::forces_in_territory(Faction f, TerritoryId t) const {
  const auto& ter = data::territory(t);
  const int fi = static_cast<int>(f);
  int n = 0;
  for (int i = 0; i < ter.num_locations; ++i) {
    const int l = ter.first_location + i;
    n += forces[fi][l][0] + forces[fi][l][1];
  }
  return n;
}

int Knowledge::enemies_in(TerritoryId t) const {
  int n = 0;
  for (int f = 0; f < kNumFactions; ++f) {
    const auto fa = static_cast<Faction>(f);
    if (!fac[f].present || fa == me || is_ally(fa)) continue;
    if (occupies(fa, t)) ++n;
  }
  return n;
}

int Knowledge::enemy_fighters_in(TerritoryId t) const {
  int n = 0;
  for (int f = 0; f < kNumFactions; ++f) {
    const auto fa = static_cast<Faction>(f);
    if (!fac[f].present || fa == me || is_ally(fa)) continue;
    n += fighters_in_territory(fa, t);
  }
  return n;
}

bool Knowledge::in_storm(LocationId l) const {
  const int sector = data::location(l).sector;
  return sector != data::kNoSector && sector == storm_sector;
}

int Knowledge::strength_in(Faction f, TerritoryId t, Faction against) const {
  const auto& ter = data::territory(t);
  const int fi = static_cast<int>(f);
  int worth = 1;
  if (advanced && (f == Faction::Fremen || (f == Faction::Emperor && against != Faction::Fremen))) worth = 2;
  int n = 0;
  for (int i = 0; i < ter.num_locations; ++i) {
    const int l = ter.first_location + i;
    n += forces[fi][l][0];
    if (!(f == Faction::BeneGesserit && advanced)) n += worth * forces[fi][l][1];
  }
  return n;
}

bool Knowledge::controls(Faction f, TerritoryId t) const {
  if (!occupies(f, t)) return false;
  const uint8_t a = fac[static_cast<int>(f)].ally;
  for (int o = 0; o < kNumFactions; ++o) {
    if (!fac[o].present || o == static_cast<int>(f) || a == o) continue;
    if (occupies(static_cast<Faction>(o), t)) return false;
  }
  return true;
}

int Knowledge::strongholds_controlled(Faction f) const {
  int n = 0;
  for (auto t : data::strongholds()) n += controls(f, t) ? 1 : 0;
  return n;
}

int Knowledge::forces_on_board(Faction f) const {
  int n = 0;
  for (int l = 0; l < data::kNumLocations; ++l) n += forces[static_cast<int>(f)][l][0] + forces[static_cast<int>(f)][l][1];
  return n;
}

// ---- input ------------------------------------------------------------------------

const fb::View* ViewInput::view() const {
  if (trusted && trusted == view_bytes.data() && trusted_size == view_bytes.size()) return fb::GetView(view_bytes.data());
  flatbuffers::Verifier ver(reinterpret_cast<const uint8_t*>(view_bytes.data()), view_bytes.size());
  if (!fb::VerifyViewBuffer(ver)) return nullptr;
  return fb::GetView(view_bytes.data());
}

ViewInput make_input(const GameState& s, Seat seat) {
  ViewInput in;
  in.seat = seat;
  in.view_bytes = inspect::build_view(s, inspect::Viewer::of(seat));
  in.legal = legal_actions(s, seat);
  in.trusted = in.view_bytes.data();
  in.trusted_size = in.view_bytes.size();
  return in;
}

bool Knowledge::skill_in_front(Faction f, data::LeaderSkill k) const {
  if (static_cast<uint8_t>(f) >= kNumFactions) return false;
  for (const LeaderId l : data::faction_leaders(f))  // its own leaders only (5 or 6, not all 62)
    if (skill1[l] == static_cast<int>(k) + 1 && skill_front[l]) return true;
  return false;
}

}  // namespace mentat::bots
