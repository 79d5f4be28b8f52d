// Game modules: the expansions (and their optional parts) a game uses.
//
// A game's modules are chosen at creation and recorded in its creation event
// (events/mentat.fbs CreateGame.modules); they are fixed for the whole game.
// The module set decides which factions may sit (beyond the six base ones),
// which card sets go into which deck or cache, and which rules apply. Rules
// code asks the module set (GameState::uses), never an engine or rules
// version.
//
// Contract: immutable tables compiled into the program; pure, thread-safe.
// Module ids are stable (stored in events and states); new modules are
// appended.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/components.h"
#include "core/types.h"

namespace mentat::data {

enum class Module : uint8_t {
  ChoamRichese = 0,     // CHOAM & Richese: the two factions, the Richese card cache
  LeaderSkills = 1,     // CHOAM & Richese: the 14 Leader Skill cards
  StrongholdCards = 2,  // CHOAM & Richese: the Advanced Stronghold Cards
  IxiansTleilaxu = 3,   // Ixians & Tleilaxu: the two factions, 14 treachery cards
  EcazMoritani = 4,     // Ecaz & Moritani: the two factions, 3 treachery cards, Duke Vidal
  Homeworlds = 5,       // the homeworlds variant
  Discovery = 6,        // discovery tokens
};
inline constexpr int kNumModules = 7;
using ModuleSet = uint16_t;  // bit i = Module i
constexpr ModuleSet module_bit(Module m) { return static_cast<ModuleSet>(1u << static_cast<int>(m)); }
inline constexpr ModuleSet kAllModules = (1u << kNumModules) - 1;

// Where a module puts a card set.
enum class CardPlace : uint8_t { TreacheryDeck, RicheseCache };

struct ModuleInfo {
  Module module;
  std::string_view key;   // "choam_richese", ... (the `mentat new --modules` spelling)
  std::string_view name;  // "CHOAM & Richese", ...
  FactionMask factions;   // factions this module lets sit
  int8_t card_set;        // the CardSet it adds (-1: none)
  CardPlace card_place;   // where that set goes
  bool implemented;       // its rules are in this release
};
const ModuleInfo& module_info(Module m);
bool parse_module(std::string_view key, Module* out);  // the key, case-insensitive
// "unknown module 'KEY' (modules: choam_richese, ...)": the sentence for a key
// parse_module does not know.
std::string unknown_module_error(std::string_view key);
// "choam_richese,leader_skills" style list; false and *error naming the bad entry.
bool parse_module_list(std::string_view list, ModuleSet* out, std::string* error);
std::string module_list(ModuleSet set);  // the keys, comma-separated, "" for none

// Factions a game with `modules` may seat: the six base ones always, plus the
// factions of its modules.
FactionMask factions_allowed(ModuleSet modules);
// Whether this release implements a faction's rules (the six base ones and CHOAM).
bool faction_rules_implemented(Faction f);
// The modules that let faction `f` sit (none for the six base ones).
ModuleSet modules_seating(Faction f);
// The card sets a game with `modules` puts in `place` (bit i = CardSet i); the
// base set is always in the treachery deck.
uint8_t card_sets_in(ModuleSet modules, CardPlace place);
// The card sets anywhere in a game with `modules` (treachery deck and Richese cache).
uint8_t card_sets_in_game(ModuleSet modules);
// The first card (id) of `kind` among the card sets of a game with `modules`, or
// -1 when no card of that kind is in the game (a kind out of range included).
int first_card_of_kind_in_game(ModuleSet modules, int kind);

// Why a game cannot be created with these factions and modules (one sentence
// naming the faction or module and what is implemented), or nullopt.
std::optional<std::string> check_factions_and_modules(const std::vector<Faction>& factions, ModuleSet modules);

}  // namespace mentat::data
