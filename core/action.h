// Typed player actions: one C++ type per kind of the `Action` union in
// events/mentat.fbs, with the schema table's field names, types and defaults.
//
//   Action a = action::Ship{.to = loc, .forces = 3};
//   if (const auto* ship = a.get_if<action::Ship>()) ... ship->to ...
//   const auto& plan = a.as<action::BattlePlan>();   // precondition: a.kind() == BattlePlan
//
// Contract:
//  * `Action` holds exactly one alternative (action::None when default
//    constructed); `kind()` is its union tag (ActionKind), which is also the
//    alternative's index in ActionVariant. Every field means one thing, the
//    schema field of the same name; no field is shared between kinds.
//  * Plain values: no heap allocation except the strings of Bribe.note and
//    Deal.text; copyable, comparable, thread-safe for distinct objects.
//  * as<T>() on an Action of another kind is a programming error
//    (std::bad_variant_access); readers that are not sure use get_if<T>().
//  * The bytes an Action is stored as are its FlatBuffers table
//    (events/codec.cpp), never this layout.
//
// Adding a kind (docs/ARCHITECTURE.md "Adding an action kind"): append its
// table to the schema's union, append ActionKind and its struct here (and to
// ActionVariant, in tag order: the static_asserts below check it), map it in
// events/codec.cpp, and give it validate/apply in the one rules file that
// owns it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/rulings.h"
#include "core/types.h"

namespace mentat {

// Action kinds; the numbers equal the FlatBuffers union tags (events/mentat.fbs).
enum class ActionKind : uint8_t {
  None = 0,
  CreateGame = 1,
  SelectTraitor = 2,
  Predict = 3,
  PlaceForces = 4,
  DialStorm = 5,
  Pass = 6,
  ClaimCharity = 7,
  Bid = 8,
  Revive = 9,
  Ship = 10,
  Move = 11,
  ProposeAlliance = 12,
  AcceptAlliance = 13,
  BreakAlliance = 14,
  Bribe = 15,
  Deal = 16,
  PlayCard = 17,
  Respond = 18,
  SendSpiritualAdvisor = 19,
  Flip = 20,
  GuildTiming = 21,
  WormRide = 22,
  BattlePlan = 23,
  ChooseBattle = 24,
  CallTraitor = 25,
  SetRulings = 26,
  Prescience = 27,
  PrescienceAnswer = 28,
  Voice = 29,
  GiveSpice = 30,
  KeepCards = 31,
  AllyPermission = 32,
  ChoamSell = 33,
  ChoamInflation = 34,
  ChoamCard = 35,
  ChoamTrade = 36,
  ChoamSupport = 37,
  ChoamKarama = 38,
  RicheseLot = 39,
  RicheseCacheTiming = 40,
  RicheseBuy = 41,
  RicheseGift = 42,
  RicheseReveal = 43,
  AssignSkill = 44,
  MentatQuestion = 45,
  MentatAnswer = 46,
  DecipherTraitor = 47,
  SkillBehind = 48,
};
inline constexpr int kMaxActionKind = 48;
std::string_view action_kind_name(ActionKind k);

struct Placement {
  LocationId location = kNone8;
  uint8_t forces = 0;
  uint8_t special = 0;
  friend bool operator==(const Placement&, const Placement&) = default;
};
inline constexpr int kMaxPlacements = 12;
inline constexpr int kMaxKeepCards = 4;

// A schema vector with a fixed capacity (no allocation): the decoder rejects
// a stored vector longer than N ("the action has too many entries").
template <class T, int N>
class InlineList {
 public:
  static constexpr int kCapacity = N;
  InlineList() = default;
  InlineList(std::initializer_list<T> items) {
    for (const T& x : items) push_back(x);
  }
  int size() const { return n_; }
  bool empty() const { return n_ == 0; }
  bool full() const { return n_ == N; }
  // Appends; false (and nothing changes) when full.
  bool push_back(const T& x) {
    if (n_ == N) return false;
    items_[n_++] = x;
    return true;
  }
  void clear() { n_ = 0; }
  const T& operator[](int i) const { return items_[i]; }
  T& operator[](int i) { return items_[i]; }
  const T* begin() const { return items_; }
  const T* end() const { return items_ + n_; }
  T* begin() { return items_; }
  T* end() { return items_ + n_; }
  const T& front() const { return items_[0]; }
  friend bool operator==(const InlineList& a, const InlineList& b) {
    if (a.n_ != b.n_) return false;
    for (int i = 0; i < a.n_; ++i)
      if (!(a.items_[i] == b.items_[i])) return false;
    return true;
  }

 private:
  uint8_t n_ = 0;
  T items_[N] = {};
};

using Placements = InlineList<Placement, kMaxPlacements>;
using FactionList = InlineList<uint8_t, kMaxSeats>;    // faction ids
using CardList = InlineList<uint8_t, kMaxKeepCards>;   // treachery card ids

// One struct per table of events/mentat.fbs (see there for the rules each
// implements). Factions are their ids (uint8_t, kNoFaction = the schema's
// None); card, leader and location ids are uint8_t with kNone8 = 255.
namespace action {

#define MENTAT_ACTION_KIND(K)                           \
  static constexpr ActionKind kKind = ActionKind::K; \
  friend bool operator==(const K&, const K&) = default

struct None { MENTAT_ACTION_KIND(None); };
// Version 0 of every room. Its fields (seed, factions, modules, rulings,
// ...) are GameSetup (core/engine.h), carried beside the action in
// codec::Event::setup: create_game takes them, validate/apply never do.
struct CreateGame { MENTAT_ACTION_KIND(CreateGame); };
struct SelectTraitor {
  LeaderId leader = 0;
  MENTAT_ACTION_KIND(SelectTraitor);
};
struct Predict {
  uint8_t faction = kNoFaction;
  uint8_t turn = 0;
  MENTAT_ACTION_KIND(Predict);
};
struct PlaceForces {
  Placements placements;
  MENTAT_ACTION_KIND(PlaceForces);
};
struct DialStorm {
  uint8_t value = 0;
  MENTAT_ACTION_KIND(DialStorm);
};
struct Pass { MENTAT_ACTION_KIND(Pass); };
struct ClaimCharity { MENTAT_ACTION_KIND(ClaimCharity); };
struct Bid {
  uint8_t amount = 0;
  bool karama = false;
  TreacheryId card = kNone8;  // the card spent as the Karama; kNone8: chosen automatically
  MENTAT_ACTION_KIND(Bid);
};
struct Revive {
  uint8_t forces = 0;
  uint8_t special = 0;
  LeaderId leader = kNone8;
  MENTAT_ACTION_KIND(Revive);
};
struct Ship {
  LocationId to = kNone8;
  uint8_t forces = 0;
  uint8_t special = 0;
  LocationId from = kNone8;  // cross-ship source (Guild), kNone8: reserves
  bool to_reserves = false;
  bool advisors = false;
  uint16_t ally_pays = 0;
  uint8_t no_field = kNone8;  // CHOAM & Richese: ship the No-Field token of this value (0, 3 or 5) instead of forces
  MENTAT_ACTION_KIND(Ship);
};
struct Move {
  Placements from = {};
  LocationId to = kNone8;
  bool flip = false;
  uint8_t ornithopter = 0;  // the Ornithopter card: 1 one group up to 3 territories, 2 the first of two groups (core/cards/ornithopter.cpp)
  MENTAT_ACTION_KIND(Move);
};
struct ProposeAlliance {
  uint8_t with = kNoFaction;
  MENTAT_ACTION_KIND(ProposeAlliance);
};
struct AcceptAlliance {
  uint8_t with = kNoFaction;
  MENTAT_ACTION_KIND(AcceptAlliance);
};
struct BreakAlliance { MENTAT_ACTION_KIND(BreakAlliance); };
struct Bribe {
  uint8_t to = kNoFaction;
  uint16_t amount = 0;
  std::string note = {};
  MENTAT_ACTION_KIND(Bribe);
};
struct Deal {
  FactionList with = {};
  std::string text = {};
  MENTAT_ACTION_KIND(Deal);
};
struct PlayCard {
  TreacheryId card = kNone8;
  uint8_t target = kNone8;
  uint8_t value = 0;
  MENTAT_ACTION_KIND(PlayCard);
};
struct Respond {
  bool accept = false;
  TreacheryId card = kNone8;
  MENTAT_ACTION_KIND(Respond);
};
struct SendSpiritualAdvisor {
  LocationId to = kNone8;
  MENTAT_ACTION_KIND(SendSpiritualAdvisor);
};
struct Flip {
  LocationId location = kNone8;
  MENTAT_ACTION_KIND(Flip);
};
struct GuildTiming {
  bool now = false;
  MENTAT_ACTION_KIND(GuildTiming);
};
struct WormRide {
  LocationId to = kNone8;
  uint8_t forces = 0;
  uint8_t special = 0;
  MENTAT_ACTION_KIND(WormRide);
};
struct BattlePlan {
  LeaderId leader = kNone8;
  TreacheryId cheap_hero = kNone8;
  TreacheryId weapon = kNone8;
  TreacheryId defense = kNone8;
  uint8_t dial = 0;
  uint8_t spice = 0;
  bool kwisatz_haderach = false;
  uint8_t ally_pays = 0;  // of `spice`, what the ally pays (CHOAM's alliance ability, up to its ChoamSupport)
  uint8_t skill_spice = 0;  // Spice Banker (Leader Skills): 1-3 spice paid to add to that leader
  MENTAT_ACTION_KIND(BattlePlan);
};
struct ChooseBattle {
  TerritoryId territory = kNone8;
  uint8_t opponent = kNoFaction;
  MENTAT_ACTION_KIND(ChooseBattle);
};
struct CallTraitor {
  bool call = false;
  MENTAT_ACTION_KIND(CallTraitor);
};
// A large, rarely used value held once on the heap and shared by copies, so
// that it does not widen every Action (an Action is copied per candidate in
// legal_actions). Immutable once made; reads never see null.
template <class T>
class Boxed {
 public:
  Boxed() : p_(std::make_shared<const T>()) {}
  Boxed(const T& v) : p_(std::make_shared<const T>(v)) {}  // NOLINT: implicit, like holding T
  Boxed& operator=(const T& v) {
    p_ = std::make_shared<const T>(v);
    return *this;
  }
  const T& operator*() const { return *p_; }
  const T* operator->() const { return p_.get(); }
  friend bool operator==(const Boxed& a, const Boxed& b) { return *a.p_ == *b.p_; }

 private:
  std::shared_ptr<const T> p_;
};

struct SetRulings {
  Boxed<Rulings> rulings;
  MENTAT_ACTION_KIND(SetRulings);
};
struct Prescience {
  uint8_t element = 0;  // 0 leader (or Cheap Hero), 1 weapon, 2 defense, 3 dial
  MENTAT_ACTION_KIND(Prescience);
};
struct PrescienceAnswer {
  uint8_t value = kNone8;  // kNone8: that element is not played
  MENTAT_ACTION_KIND(PrescienceAnswer);
};
struct Voice {
  bool must = false;
  uint8_t kind = 0;  // the card kind named (events/mentat.fbs)
  MENTAT_ACTION_KIND(Voice);
};
struct GiveSpice {
  uint8_t to = kNoFaction;
  uint16_t amount = 0;
  MENTAT_ACTION_KIND(GiveSpice);
};
struct KeepCards {
  CardList keep;
  MENTAT_ACTION_KIND(KeepCards);
};
struct AllyPermission {
  uint16_t shipment = 0;
  uint16_t bids = 0;
  bool no_field = false;  // the Richese only, ruling no_field_ally_permission = richese_allows: the ally may ship a token
  MENTAT_ACTION_KIND(AllyPermission);
};
// CHOAM (core/factions/choam.cpp).
struct ChoamSell {
  TreacheryId card = kNone8;
  MENTAT_ACTION_KIND(ChoamSell);
};
struct ChoamInflation {
  uint8_t side = 0;  // 1 Double, 2 Cancel
  MENTAT_ACTION_KIND(ChoamInflation);
};
struct ChoamCard {
  TreacheryId card = kNone8;
  uint8_t faction = kNoFaction;
  LocationId location = kNone8;
  MENTAT_ACTION_KIND(ChoamCard);
};
struct ChoamTrade {
  TreacheryId card = kNone8;  // kNone8: CHOAM withdraws its offer, the ally declines
  MENTAT_ACTION_KIND(ChoamTrade);
};
struct ChoamSupport {
  uint16_t battle = 0;  // spice of CHOAM's its ally may use for the spice it dials in battle
  MENTAT_ACTION_KIND(ChoamSupport);
};
struct ChoamKarama {
  TreacheryId karama = kNone8;  // the Karama card discarded
  CardList cards;               // the cards discarded with it, 3 spice each
  MENTAT_ACTION_KIND(ChoamKarama);
};

// Richese (core/factions/richese.cpp).
struct RicheseLot {
  TreacheryId card = kNone8;  // Black Market: from Richese's hand; cache lot: from its cache
  uint8_t auction = 0;        // 0 normal (Black Market only), 1 once around right, 2 once around left, 3 silent
  MENTAT_ACTION_KIND(RicheseLot);
};
struct RicheseCacheTiming {
  bool first = false;  // the cache lot before the round's other cards (else after them)
  MENTAT_ACTION_KIND(RicheseCacheTiming);
};
struct RicheseBuy {
  TreacheryId karama = kNone8;  // the Karama card discarded
  TreacheryId card = kNone8;    // the cache card taken
  MENTAT_ACTION_KIND(RicheseBuy);
};
struct RicheseGift {
  TreacheryId card = kNone8;  // a Richese card from Richese's hand, to its ally
  MENTAT_ACTION_KIND(RicheseGift);
};
struct RicheseReveal { MENTAT_ACTION_KIND(RicheseReveal); };  // the concealed No-Field turned face up (before the Battle phase)
// Leader Skills (core/cards/leader_skills.cpp): at setup, one of the two skill
// cards dealt goes under one of the faction's leaders (the other back to the deck).
struct AssignSkill {
  uint8_t skill = kNone8;  // 0..13 (data::LeaderSkill)
  LeaderId leader = kNone8;
  MENTAT_ACTION_KIND(AssignSkill);
};
// The Mentat's front band: before the battle plans, its owner (fighting)
// names a weapon card; the opponent shows a card of that kind, or any card
// of its hand when it holds none (core/cards/leader_skills.cpp).
struct MentatQuestion {
  TreacheryId weapon = kNone8;  // any copy of the weapon kind asked about
  MENTAT_ACTION_KIND(MentatQuestion);
};
struct MentatAnswer {
  TreacheryId card = kNone8;  // the card shown (kNone8 only with an empty hand)
  MENTAT_ACTION_KIND(MentatAnswer);
};
// The Rihani Decipherer's battle band: the winner keeps one of the two
// traitor cards it drew (`take`) by giving back an unrevealed traitor card it
// holds (`give`); Pass keeps its traitors as they are.
struct DecipherTraitor {
  LeaderId take = kNone8;
  LeaderId give = kNone8;
  MENTAT_ACTION_KIND(DecipherTraitor);
};
// Leader Skills, before its battle plan: a battler moves the card of a
// skilled leader of its own behind its shield (public), whether or not the
// plan uses that leader; its front band stops until the battle ends.
struct SkillBehind {
  LeaderId leader = kNone8;
  MENTAT_ACTION_KIND(SkillBehind);
};

#undef MENTAT_ACTION_KIND

}  // namespace action

// In union-tag order: alternative i is the kind with tag i.
using ActionVariant =
    std::variant<action::None, action::CreateGame, action::SelectTraitor, action::Predict, action::PlaceForces, action::DialStorm, action::Pass,
                 action::ClaimCharity, action::Bid, action::Revive, action::Ship, action::Move, action::ProposeAlliance, action::AcceptAlliance,
                 action::BreakAlliance, action::Bribe, action::Deal, action::PlayCard, action::Respond, action::SendSpiritualAdvisor, action::Flip,
                 action::GuildTiming, action::WormRide, action::BattlePlan, action::ChooseBattle, action::CallTraitor, action::SetRulings,
                 action::Prescience, action::PrescienceAnswer, action::Voice, action::GiveSpice, action::KeepCards, action::AllyPermission,
                 action::ChoamSell, action::ChoamInflation, action::ChoamCard, action::ChoamTrade, action::ChoamSupport,
                 action::ChoamKarama, action::RicheseLot, action::RicheseCacheTiming, action::RicheseBuy, action::RicheseGift, action::RicheseReveal,
                 action::AssignSkill, action::MentatQuestion, action::MentatAnswer, action::DecipherTraitor,
                 action::SkillBehind>;
static_assert(std::variant_size_v<ActionVariant> == kMaxActionKind + 1, "one alternative per union tag");

namespace detail {
template <size_t... I>
constexpr bool action_tags_match(std::index_sequence<I...>) {
  return ((static_cast<size_t>(std::variant_alternative_t<I, ActionVariant>::kKind) == I) && ...);
}
}  // namespace detail
static_assert(detail::action_tags_match(std::make_index_sequence<kMaxActionKind + 1>{}),
              "ActionVariant lists the action:: types in union-tag order");

template <class T>
concept ActionType = requires { T::kKind; } &&
                     std::is_same_v<std::variant_alternative_t<static_cast<size_t>(T::kKind), ActionVariant>, T>;

// One player action (decoded from its FlatBuffers table, events/codec.h).
class Action {
 public:
  Action() = default;
  template <ActionType T>
  Action(T alternative) : v_(std::move(alternative)) {}  // NOLINT: implicit on purpose (Action a = action::Pass{})

  // The action of kind `k` with the schema's defaults (None for an unknown kind).
  static Action of_kind(ActionKind k);

  ActionKind kind() const { return static_cast<ActionKind>(v_.index()); }
  template <ActionType T>
  bool is() const { return std::holds_alternative<T>(v_); }
  template <ActionType T>
  const T& as() const { return std::get<T>(v_); }
  template <ActionType T>
  T& as() { return std::get<T>(v_); }
  template <ActionType T>
  const T* get_if() const { return std::get_if<T>(&v_); }
  template <ActionType T>
  T* get_if() { return std::get_if<T>(&v_); }
  const ActionVariant& variant() const { return v_; }
  // Replaces the held alternative in place (the decoder's one assignment).
  template <ActionType T>
  T& emplace(T alternative) { return v_.template emplace<T>(std::move(alternative)); }

  friend bool operator==(const Action&, const Action&) = default;

 private:
  ActionVariant v_;
};

}  // namespace mentat
