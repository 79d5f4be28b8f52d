// Base-game board tables. See board.h for the contract.
//
// The tables below are the project's own transcription of the GF9 Dune (2019)
// board. Territory ids follow the alphabetical order of territory names;
// location ids are contiguous per territory, and within a territory follow the
// storm's direction (increasing sector; Cielago West wraps from 17 to 0).
// Consistency (contiguity, symmetric irreflexive neighbours, sector sanity,
// Fremen range) is checked at compile time by the static_asserts below.
#include "core/data/board.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>

namespace mentat::data {
namespace {

// ---- Symbolic ids -----------------------------------------------------------
// Location suffixes: E/W/C/M/N/S/FN/FS = the East/West/Center/Middle/North/
// South/Far North/Far South sector piece of the territory.

namespace terr {
enum : TerritoryId {
  Arrakeen, Arsunt, Basin, BightOfTheCliff, BrokenLand,
  Carthag, CielagoDepression, CielagoEast, CielagoNorth, CielagoSouth,
  CielagoWest, FalseWallEast, FalseWallSouth, FalseWallWest, FuneralPlain,
  GaraKulon, HabbanyaErg, HabbanyaRidgeFlat, HabbanyaSietch, HaggaBasin,
  HargPass, HoleInTheRock, ImperialBasin, Meridian, OldGap,
  PastyMesa, PlasticBasin, PolarSink, RedChasm, RimWallWest,
  RockOutcroppings, ShieldWall, SietchTabr, SihayaRidge, SouthMesa,
  TheGreatFlat, TheGreaterFlat, TheMinorErg, Tsimpo, TueksSietch,
  WindPass, WindPassNorth,
  kCount
};
}  // namespace terr

namespace loc {
enum : LocationId {
  Arrakeen, ArsuntE, ArsuntW, Basin, BightOfTheCliffN,
  BightOfTheCliffS, BrokenLandE, BrokenLandW, Carthag, CielagoDepressionW,
  CielagoDepressionC, CielagoDepressionE, CielagoEastW, CielagoEastE, CielagoNorthW,
  CielagoNorthC, CielagoNorthE, CielagoSouthW, CielagoSouthE, CielagoWestN,
  CielagoWestS, FalseWallEastFS, FalseWallEastS, FalseWallEastM, FalseWallEastN,
  FalseWallEastFN, FalseWallSouthW, FalseWallSouthE, FalseWallWestN, FalseWallWestM,
  FalseWallWestS, FuneralPlain, GaraKulon, HabbanyaErgW, HabbanyaErgE,
  HabbanyaRidgeFlatW, HabbanyaRidgeFlatE, HabbanyaSietch, HaggaBasinE, HaggaBasinW,
  HargPassW, HargPassE, HoleInTheRock, ImperialBasinE, ImperialBasinC,
  ImperialBasinW, MeridianW, MeridianE, OldGapE, OldGapM,
  OldGapW, PastyMesaFS, PastyMesaS, PastyMesaN, PastyMesaFN,
  PlasticBasinN, PlasticBasinM, PlasticBasinS, PolarSink, RedChasm,
  RimWallWest, RockOutcroppingsN, RockOutcroppingsS, ShieldWallS, ShieldWallN,
  SietchTabr, SihayaRidge, SouthMesaS, SouthMesaM, SouthMesaN,
  TheGreatFlat, TheGreaterFlat, TheMinorErgFS, TheMinorErgS, TheMinorErgN,
  TheMinorErgFN, TsimpoE, TsimpoM, TsimpoW, TueksSietch,
  WindPassFN, WindPassN, WindPassS, WindPassFS, WindPassNorthN,
  WindPassNorthS,
  kCount
};
}  // namespace loc

static_assert(terr::kCount == kNumTerritories);
static_assert(loc::kCount == kNumLocations);

// ---- Territories ------------------------------------------------------------

using K = TerritoryKind;

// name, kind, stronghold, storm_protected, protection_lost_after_family_atomics,
// first_location, num_locations
constexpr Territory kTerritories[kNumTerritories] = {
  {"Arrakeen", K::Stronghold, true, true, true, loc::Arrakeen, 1},
  {"Arsunt", K::Sand, false, false, false, loc::ArsuntE, 2},
  {"Basin", K::Sand, false, false, false, loc::Basin, 1},
  {"Bight Of The Cliff", K::Sand, false, false, false, loc::BightOfTheCliffN, 2},
  {"Broken Land", K::Sand, false, false, false, loc::BrokenLandE, 2},
  {"Carthag", K::Stronghold, true, true, true, loc::Carthag, 1},
  {"Cielago Depression", K::Sand, false, false, false, loc::CielagoDepressionW, 3},
  {"Cielago East", K::Sand, false, false, false, loc::CielagoEastW, 2},
  {"Cielago North", K::Sand, false, false, false, loc::CielagoNorthW, 3},
  {"Cielago South", K::Sand, false, false, false, loc::CielagoSouthW, 2},
  {"Cielago West", K::Sand, false, false, false, loc::CielagoWestN, 2},
  {"False Wall East", K::Rock, false, true, false, loc::FalseWallEastFS, 5},
  {"False Wall South", K::Rock, false, true, false, loc::FalseWallSouthW, 2},
  {"False Wall West", K::Rock, false, true, false, loc::FalseWallWestN, 3},
  {"Funeral Plain", K::Sand, false, false, false, loc::FuneralPlain, 1},
  {"Gara Kulon", K::Sand, false, false, false, loc::GaraKulon, 1},
  {"Habbanya Erg", K::Sand, false, false, false, loc::HabbanyaErgW, 2},
  {"Habbanya Ridge Flat", K::Sand, false, false, false, loc::HabbanyaRidgeFlatW, 2},
  {"Habbanya Sietch", K::Stronghold, true, true, false, loc::HabbanyaSietch, 1},
  {"Hagga Basin", K::Sand, false, false, false, loc::HaggaBasinE, 2},
  {"Harg Pass", K::Sand, false, false, false, loc::HargPassW, 2},
  {"Hole In The Rock", K::Sand, false, false, false, loc::HoleInTheRock, 1},
  {"Imperial Basin", K::ProtectedSand, false, true, true, loc::ImperialBasinE, 3},
  {"Meridian", K::Sand, false, false, false, loc::MeridianW, 2},
  {"Old Gap", K::Sand, false, false, false, loc::OldGapE, 3},
  {"Pasty Mesa", K::Rock, false, true, false, loc::PastyMesaFS, 4},
  {"Plastic Basin", K::Rock, false, true, false, loc::PlasticBasinN, 3},
  {"Polar Sink", K::PolarSink, false, true, false, loc::PolarSink, 1},
  {"Red Chasm", K::Sand, false, false, false, loc::RedChasm, 1},
  {"Rim Wall West", K::Rock, false, true, false, loc::RimWallWest, 1},
  {"Rock Outcroppings", K::Sand, false, false, false, loc::RockOutcroppingsN, 2},
  {"Shield Wall", K::Rock, false, true, false, loc::ShieldWallS, 2},
  {"Sietch Tabr", K::Stronghold, true, true, false, loc::SietchTabr, 1},
  {"Sihaya Ridge", K::Sand, false, false, false, loc::SihayaRidge, 1},
  {"South Mesa", K::Sand, false, false, false, loc::SouthMesaS, 3},
  {"The Great Flat", K::Sand, false, false, false, loc::TheGreatFlat, 1},
  {"The Greater Flat", K::Sand, false, false, false, loc::TheGreaterFlat, 1},
  {"The Minor Erg", K::Sand, false, false, false, loc::TheMinorErgFS, 4},
  {"Tsimpo", K::Sand, false, false, false, loc::TsimpoE, 3},
  {"Tuek's Sietch", K::Stronghold, true, true, false, loc::TueksSietch, 1},
  {"Wind Pass", K::Sand, false, false, false, loc::WindPassFN, 4},
  {"Wind Pass North", K::Sand, false, false, false, loc::WindPassNorthN, 2},
};

// ---- Locations --------------------------------------------------------------

// name, territory, sector, spice_blow_amount
constexpr Location kLocations[kNumLocations] = {
  {"Arrakeen", terr::Arrakeen, 9, 0},
  {"Arsunt (East Sector)", terr::Arsunt, 10, 0},
  {"Arsunt (West Sector)", terr::Arsunt, 11, 0},
  {"Basin", terr::Basin, 8, 0},
  {"Bight Of The Cliff (North Sector)", terr::BightOfTheCliff, 13, 0},
  {"Bight Of The Cliff (South Sector)", terr::BightOfTheCliff, 14, 0},
  {"Broken Land (East Sector)", terr::BrokenLand, 10, 0},
  {"Broken Land (West Sector)", terr::BrokenLand, 11, 8},
  {"Carthag", terr::Carthag, 10, 0},
  {"Cielago Depression (West Sector)", terr::CielagoDepression, 0, 0},
  {"Cielago Depression (Center Sector)", terr::CielagoDepression, 1, 0},
  {"Cielago Depression (East Sector)", terr::CielagoDepression, 2, 0},
  {"Cielago East (West Sector)", terr::CielagoEast, 2, 0},
  {"Cielago East (East Sector)", terr::CielagoEast, 3, 0},
  {"Cielago North (West Sector)", terr::CielagoNorth, 0, 0},
  {"Cielago North (Center Sector)", terr::CielagoNorth, 1, 0},
  {"Cielago North (East Sector)", terr::CielagoNorth, 2, 8},
  {"Cielago South (West Sector)", terr::CielagoSouth, 1, 12},
  {"Cielago South (East Sector)", terr::CielagoSouth, 2, 0},
  {"Cielago West (North Sector)", terr::CielagoWest, 17, 0},
  {"Cielago West (South Sector)", terr::CielagoWest, 0, 0},
  {"False Wall East (Far South Sector)", terr::FalseWallEast, 4, 0},
  {"False Wall East (South Sector)", terr::FalseWallEast, 5, 0},
  {"False Wall East (Middle Sector)", terr::FalseWallEast, 6, 0},
  {"False Wall East (North Sector)", terr::FalseWallEast, 7, 0},
  {"False Wall East (Far North Sector)", terr::FalseWallEast, 8, 0},
  {"False Wall South (West Sector)", terr::FalseWallSouth, 3, 0},
  {"False Wall South (East Sector)", terr::FalseWallSouth, 4, 0},
  {"False Wall West (North Sector)", terr::FalseWallWest, 15, 0},
  {"False Wall West (Middle Sector)", terr::FalseWallWest, 16, 0},
  {"False Wall West (South Sector)", terr::FalseWallWest, 17, 0},
  {"Funeral Plain", terr::FuneralPlain, 14, 6},
  {"Gara Kulon", terr::GaraKulon, 7, 0},
  {"Habbanya Erg (West Sector)", terr::HabbanyaErg, 15, 8},
  {"Habbanya Erg (East Sector)", terr::HabbanyaErg, 16, 0},
  {"Habbanya Ridge Flat (West Sector)", terr::HabbanyaRidgeFlat, 16, 0},
  {"Habbanya Ridge Flat (East Sector)", terr::HabbanyaRidgeFlat, 17, 10},
  {"Habbanya Sietch", terr::HabbanyaSietch, 16, 0},
  {"Hagga Basin (East Sector)", terr::HaggaBasin, 11, 0},
  {"Hagga Basin (West Sector)", terr::HaggaBasin, 12, 6},
  {"Harg Pass (West Sector)", terr::HargPass, 3, 0},
  {"Harg Pass (East Sector)", terr::HargPass, 4, 0},
  {"Hole In The Rock", terr::HoleInTheRock, 8, 0},
  {"Imperial Basin (East Sector)", terr::ImperialBasin, 8, 0},
  {"Imperial Basin (Center Sector)", terr::ImperialBasin, 9, 0},
  {"Imperial Basin (West Sector)", terr::ImperialBasin, 10, 0},
  {"Meridian (West Sector)", terr::Meridian, 0, 0},
  {"Meridian (East Sector)", terr::Meridian, 1, 0},
  {"Old Gap (East Sector)", terr::OldGap, 8, 0},
  {"Old Gap (Middle Sector)", terr::OldGap, 9, 6},
  {"Old Gap (West Sector)", terr::OldGap, 10, 0},
  {"Pasty Mesa (Far South Sector)", terr::PastyMesa, 4, 0},
  {"Pasty Mesa (South Sector)", terr::PastyMesa, 5, 0},
  {"Pasty Mesa (North Sector)", terr::PastyMesa, 6, 0},
  {"Pasty Mesa (Far North Sector)", terr::PastyMesa, 7, 0},
  {"Plastic Basin (North Sector)", terr::PlasticBasin, 11, 0},
  {"Plastic Basin (Middle Sector)", terr::PlasticBasin, 12, 0},
  {"Plastic Basin (South Sector)", terr::PlasticBasin, 13, 0},
  {"Polar Sink", terr::PolarSink, kNoSector, 0},
  {"Red Chasm", terr::RedChasm, 6, 8},
  {"Rim Wall West", terr::RimWallWest, 8, 0},
  {"Rock Outcroppings (North Sector)", terr::RockOutcroppings, 12, 0},
  {"Rock Outcroppings (South Sector)", terr::RockOutcroppings, 13, 6},
  {"Shield Wall (South Sector)", terr::ShieldWall, 7, 0},
  {"Shield Wall (North Sector)", terr::ShieldWall, 8, 0},
  {"Sietch Tabr", terr::SietchTabr, 13, 0},
  {"Sihaya Ridge", terr::SihayaRidge, 8, 6},
  {"South Mesa (South Sector)", terr::SouthMesa, 3, 0},
  {"South Mesa (Middle Sector)", terr::SouthMesa, 4, 10},
  {"South Mesa (North Sector)", terr::SouthMesa, 5, 0},
  {"The Great Flat", terr::TheGreatFlat, 14, 10},
  {"The Greater Flat", terr::TheGreaterFlat, 15, 0},
  {"The Minor Erg (Far South Sector)", terr::TheMinorErg, 4, 0},
  {"The Minor Erg (South Sector)", terr::TheMinorErg, 5, 0},
  {"The Minor Erg (North Sector)", terr::TheMinorErg, 6, 0},
  {"The Minor Erg (Far North Sector)", terr::TheMinorErg, 7, 8},
  {"Tsimpo (East Sector)", terr::Tsimpo, 10, 0},
  {"Tsimpo (Middle Sector)", terr::Tsimpo, 11, 0},
  {"Tsimpo (West Sector)", terr::Tsimpo, 12, 0},
  {"Tuek's Sietch", terr::TueksSietch, 4, 0},
  {"Wind Pass (Far North Sector)", terr::WindPass, 13, 0},
  {"Wind Pass (North Sector)", terr::WindPass, 14, 0},
  {"Wind Pass (South Sector)", terr::WindPass, 15, 0},
  {"Wind Pass (Far South Sector)", terr::WindPass, 16, 0},
  {"Wind Pass North (North Sector)", terr::WindPassNorth, 16, 6},
  {"Wind Pass North (South Sector)", terr::WindPassNorth, 17, 0},
};

// ---- Location neighbours ----------------------------------------------------

struct LocPair {
  LocationId a;
  LocationId b;
};

namespace pairs {
using namespace loc;
// Undirected pairs, each listed once as {lower id, higher id}, grouped by the
// lower id.
constexpr LocPair kNeighbourPairs[] = {
  {Arrakeen, ImperialBasinC}, {Arrakeen, OldGapM}, {Arrakeen, RimWallWest},
  {ArsuntE, ArsuntW}, {ArsuntE, Carthag}, {ArsuntE, HaggaBasinE}, {ArsuntE, ImperialBasinC},
  {ArsuntE, ImperialBasinW}, {ArsuntE, PolarSink},
  {ArsuntW, HaggaBasinE}, {ArsuntW, HaggaBasinW}, {ArsuntW, PolarSink},
  {Basin, HoleInTheRock}, {Basin, OldGapE}, {Basin, RimWallWest}, {Basin, SihayaRidge},
  {BightOfTheCliffN, BightOfTheCliffS}, {BightOfTheCliffN, PlasticBasinS},
  {BightOfTheCliffN, RockOutcroppingsS}, {BightOfTheCliffN, SietchTabr},
  {BightOfTheCliffS, FuneralPlain},
  {BrokenLandE, BrokenLandW}, {BrokenLandE, OldGapW}, {BrokenLandE, TsimpoE},
  {BrokenLandW, PlasticBasinN}, {BrokenLandW, RockOutcroppingsN}, {BrokenLandW, TsimpoM},
  {Carthag, HaggaBasinE}, {Carthag, ImperialBasinW}, {Carthag, TsimpoE}, {Carthag, TsimpoM},
  {CielagoDepressionW, CielagoDepressionC}, {CielagoDepressionW, CielagoNorthW},
  {CielagoDepressionW, CielagoWestS}, {CielagoDepressionW, MeridianW},
  {CielagoDepressionC, CielagoDepressionE}, {CielagoDepressionC, CielagoNorthC},
  {CielagoDepressionC, CielagoSouthW}, {CielagoDepressionC, MeridianE},
  {CielagoDepressionE, CielagoEastW}, {CielagoDepressionE, CielagoNorthE},
  {CielagoDepressionE, CielagoSouthE},
  {CielagoEastW, CielagoEastE}, {CielagoEastW, CielagoNorthE}, {CielagoEastW, CielagoSouthE},
  {CielagoEastW, FalseWallSouthW},
  {CielagoEastE, FalseWallSouthW}, {CielagoEastE, SouthMesaS},
  {CielagoNorthW, CielagoNorthC}, {CielagoNorthW, CielagoWestN}, {CielagoNorthW, CielagoWestS},
  {CielagoNorthW, PolarSink}, {CielagoNorthW, WindPassNorthS},
  {CielagoNorthC, CielagoNorthE}, {CielagoNorthC, PolarSink},
  {CielagoNorthE, FalseWallSouthW}, {CielagoNorthE, HargPassW}, {CielagoNorthE, PolarSink},
  {CielagoSouthW, CielagoSouthE}, {CielagoSouthW, MeridianE},
  {CielagoWestN, CielagoWestS}, {CielagoWestN, FalseWallWestS},
  {CielagoWestN, HabbanyaRidgeFlatE}, {CielagoWestN, WindPassFS}, {CielagoWestN, WindPassNorthS},
  {CielagoWestS, MeridianW},
  {FalseWallEastFS, FalseWallEastS}, {FalseWallEastFS, HargPassW}, {FalseWallEastFS, HargPassE},
  {FalseWallEastFS, PolarSink}, {FalseWallEastFS, TheMinorErgFS},
  {FalseWallEastS, FalseWallEastM}, {FalseWallEastS, PolarSink}, {FalseWallEastS, TheMinorErgS},
  {FalseWallEastM, FalseWallEastN}, {FalseWallEastM, PolarSink}, {FalseWallEastM, TheMinorErgN},
  {FalseWallEastN, FalseWallEastFN}, {FalseWallEastN, PolarSink}, {FalseWallEastN, ShieldWallS},
  {FalseWallEastN, TheMinorErgFN},
  {FalseWallEastFN, ImperialBasinE}, {FalseWallEastFN, PolarSink}, {FalseWallEastFN, ShieldWallN},
  {FalseWallSouthW, FalseWallSouthE}, {FalseWallSouthW, HargPassW}, {FalseWallSouthW, SouthMesaS},
  {FalseWallSouthE, HargPassE}, {FalseWallSouthE, PastyMesaFS}, {FalseWallSouthE, SouthMesaM},
  {FalseWallSouthE, TheMinorErgFS}, {FalseWallSouthE, TueksSietch},
  {FalseWallWestN, FalseWallWestM}, {FalseWallWestN, TheGreaterFlat}, {FalseWallWestN, WindPassS},
  {FalseWallWestM, FalseWallWestS}, {FalseWallWestM, HabbanyaErgE},
  {FalseWallWestM, HabbanyaRidgeFlatW}, {FalseWallWestM, WindPassFS},
  {FalseWallWestS, HabbanyaRidgeFlatE},
  {FuneralPlain, PlasticBasinS}, {FuneralPlain, TheGreatFlat},
  {GaraKulon, PastyMesaFN}, {GaraKulon, ShieldWallS}, {GaraKulon, SihayaRidge},
  {HabbanyaErgW, HabbanyaErgE}, {HabbanyaErgW, HabbanyaRidgeFlatW},
  {HabbanyaErgW, TheGreaterFlat},
  {HabbanyaErgE, HabbanyaRidgeFlatW},
  {HabbanyaRidgeFlatW, HabbanyaRidgeFlatE}, {HabbanyaRidgeFlatW, HabbanyaSietch},
  {HabbanyaRidgeFlatE, HabbanyaSietch}, {HabbanyaRidgeFlatE, MeridianW},
  {HaggaBasinE, HaggaBasinW}, {HaggaBasinE, TsimpoM},
  {HaggaBasinW, PlasticBasinM}, {HaggaBasinW, PlasticBasinS}, {HaggaBasinW, PolarSink},
  {HaggaBasinW, TsimpoW}, {HaggaBasinW, WindPassFN},
  {HargPassW, HargPassE}, {HargPassW, PolarSink},
  {HargPassE, TheMinorErgFS},
  {HoleInTheRock, ImperialBasinE}, {HoleInTheRock, RimWallWest}, {HoleInTheRock, ShieldWallN},
  {HoleInTheRock, SihayaRidge},
  {ImperialBasinE, ImperialBasinC}, {ImperialBasinE, PolarSink}, {ImperialBasinE, RimWallWest},
  {ImperialBasinE, ShieldWallN},
  {ImperialBasinC, ImperialBasinW}, {ImperialBasinC, OldGapM}, {ImperialBasinC, PolarSink},
  {ImperialBasinC, RimWallWest},
  {ImperialBasinW, TsimpoE},
  {MeridianW, MeridianE},
  {OldGapE, OldGapM}, {OldGapE, RimWallWest},
  {OldGapM, OldGapW},
  {OldGapW, TsimpoE},
  {PastyMesaFS, PastyMesaS}, {PastyMesaFS, SouthMesaM}, {PastyMesaFS, TheMinorErgFS},
  {PastyMesaFS, TueksSietch},
  {PastyMesaS, PastyMesaN}, {PastyMesaS, SouthMesaN}, {PastyMesaS, TheMinorErgS},
  {PastyMesaN, PastyMesaFN}, {PastyMesaN, RedChasm}, {PastyMesaN, TheMinorErgN},
  {PastyMesaFN, ShieldWallS}, {PastyMesaFN, TheMinorErgFN},
  {PlasticBasinN, PlasticBasinM}, {PlasticBasinN, TsimpoM},
  {PlasticBasinM, PlasticBasinS}, {PlasticBasinM, RockOutcroppingsN}, {PlasticBasinM, TsimpoW},
  {PlasticBasinS, RockOutcroppingsS}, {PlasticBasinS, SietchTabr}, {PlasticBasinS, TheGreatFlat},
  {PlasticBasinS, WindPassFN},
  {PolarSink, WindPassFN}, {PolarSink, WindPassN}, {PolarSink, WindPassS},
  {PolarSink, WindPassNorthN}, {PolarSink, WindPassNorthS},
  {RedChasm, SouthMesaN},
  {RockOutcroppingsN, RockOutcroppingsS},
  {RockOutcroppingsS, SietchTabr},
  {ShieldWallS, ShieldWallN}, {ShieldWallS, TheMinorErgFN},
  {ShieldWallN, SihayaRidge},
  {SouthMesaS, SouthMesaM},
  {SouthMesaM, SouthMesaN}, {SouthMesaM, TueksSietch},
  {TheGreatFlat, TheGreaterFlat}, {TheGreatFlat, WindPassN},
  {TheGreaterFlat, WindPassS},
  {TheMinorErgFS, TheMinorErgS},
  {TheMinorErgS, TheMinorErgN},
  {TheMinorErgN, TheMinorErgFN},
  {TsimpoE, TsimpoM},
  {TsimpoM, TsimpoW},
  {WindPassFN, WindPassN},
  {WindPassN, WindPassS},
  {WindPassS, WindPassFS}, {WindPassS, WindPassNorthN},
  {WindPassFS, WindPassNorthN},
  {WindPassNorthN, WindPassNorthS},
};
}  // namespace pairs

using pairs::kNeighbourPairs;
constexpr int kNumNeighbourPairs = static_cast<int>(std::size(kNeighbourPairs));
static_assert(kNumNeighbourPairs == 190);

// Compressed adjacency: the neighbours of location i are
// ids[offsets[i] .. offsets[i+1]), sorted ascending.
struct NeighbourIndex {
  std::array<uint16_t, kNumLocations + 1> offsets{};
  std::array<LocationId, 2 * kNumNeighbourPairs> ids{};
};

constexpr NeighbourIndex build_neighbour_index() {
  constexpr std::size_t n = kNumLocations;
  NeighbourIndex idx;
  std::array<uint16_t, n> degree{};
  for (const LocPair& p : kNeighbourPairs) {
    ++degree[p.a];
    ++degree[p.b];
  }
  for (std::size_t i = 0; i < n; ++i) {
    idx.offsets[i + 1] = static_cast<uint16_t>(idx.offsets[i] + degree[i]);
  }
  std::array<uint16_t, n> fill{};
  for (std::size_t i = 0; i < n; ++i) fill[i] = idx.offsets[i];
  for (const LocPair& p : kNeighbourPairs) {
    idx.ids[fill[p.a]++] = p.b;
    idx.ids[fill[p.b]++] = p.a;
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::sort(idx.ids.begin() + idx.offsets[i], idx.ids.begin() + idx.offsets[i + 1]);
  }
  return idx;
}

constexpr NeighbourIndex kNeighbourIndex = build_neighbour_index();

using TerritoryMatrix = std::array<std::array<bool, kNumTerritories>, kNumTerritories>;

// Two different territories are adjacent when any of their pieces neighbour.
constexpr TerritoryMatrix build_territory_adjacency() {
  TerritoryMatrix adj{};
  for (const LocPair& p : kNeighbourPairs) {
    const TerritoryId ta = kLocations[p.a].territory;
    const TerritoryId tb = kLocations[p.b].territory;
    if (ta != tb) {
      adj[ta][tb] = true;
      adj[tb][ta] = true;
    }
  }
  return adj;
}

constexpr TerritoryMatrix kTerritoryAdjacency = build_territory_adjacency();

// ---- Derived sets -----------------------------------------------------------

constexpr TerritoryId kStrongholds[] = {terr::Arrakeen, terr::Carthag, terr::HabbanyaSietch,
                                        terr::SietchTabr, terr::TueksSietch};

// The Great Flat and every territory within two territories of it
// (checked against the adjacency below).
constexpr TerritoryId kFremenShippingRange[] = {
  terr::BightOfTheCliff, terr::BrokenLand, terr::CielagoWest, terr::FalseWallWest,
  terr::FuneralPlain, terr::HabbanyaErg, terr::HaggaBasin, terr::PlasticBasin,
  terr::PolarSink, terr::RockOutcroppings, terr::SietchTabr, terr::TheGreatFlat,
  terr::TheGreaterFlat, terr::Tsimpo, terr::WindPass, terr::WindPassNorth,
};

constexpr std::array<bool, kNumTerritories> build_fremen_range_flags() {
  std::array<bool, kNumTerritories> in{};
  for (TerritoryId t : kFremenShippingRange) in[t] = true;
  return in;
}

constexpr std::array<bool, kNumTerritories> kInFremenRange = build_fremen_range_flags();

// ---- Compile-time consistency checks ----------------------------------------

constexpr bool locations_contiguous() {
  int next = 0;
  for (int t = 0; t < kNumTerritories; ++t) {
    if (kTerritories[t].first_location != next || kTerritories[t].num_locations == 0) return false;
    for (int i = 0; i < kTerritories[t].num_locations; ++i, ++next) {
      if (kLocations[next].territory != t) return false;
    }
  }
  return next == kNumLocations;
}
static_assert(locations_contiguous());

constexpr bool territory_names_sorted() {
  for (int t = 1; t < kNumTerritories; ++t) {
    if (!(kTerritories[t - 1].name < kTerritories[t].name)) return false;
  }
  return true;
}
static_assert(territory_names_sorted());

constexpr bool stronghold_flags_consistent() {
  int count = 0;
  for (const Territory& t : kTerritories) {
    if (t.stronghold != (t.kind == TerritoryKind::Stronghold)) return false;
    if (t.stronghold) ++count;
  }
  for (TerritoryId t : kStrongholds) {
    if (!kTerritories[t].stronghold) return false;
  }
  return count == static_cast<int>(std::size(kStrongholds));
}
static_assert(stronghold_flags_consistent());

constexpr bool sectors_equal_or_adjacent(int a, int b) {
  const int d = (a - b + kNumSectors) % kNumSectors;
  return d == 0 || d == 1 || d == kNumSectors - 1;
}

constexpr bool neighbour_pairs_valid() {
  for (int i = 0; i < kNumNeighbourPairs; ++i) {
    const LocPair& p = kNeighbourPairs[i];
    if (p.a == p.b || p.a >= kNumLocations || p.b >= kNumLocations) return false;
    for (int j = 0; j < i; ++j) {
      const LocPair& q = kNeighbourPairs[j];
      if ((q.a == p.a && q.b == p.b) || (q.a == p.b && q.b == p.a)) return false;  // duplicate
    }
    const int sa = kLocations[p.a].sector;
    const int sb = kLocations[p.b].sector;
    if (sa != kNoSector && sb != kNoSector && !sectors_equal_or_adjacent(sa, sb)) return false;
    // Two pieces of one territory touch only across a sector boundary.
    if (kLocations[p.a].territory == kLocations[p.b].territory && sa == sb) return false;
  }
  return true;
}
static_assert(neighbour_pairs_valid());

constexpr bool spice_blows_on_sand() {
  int count = 0;
  for (const Location& l : kLocations) {
    if (l.spice_blow_amount == 0) continue;
    if (kTerritories[l.territory].kind != TerritoryKind::Sand) return false;
    ++count;
  }
  return count == 15;
}
static_assert(spice_blows_on_sand());

// Distance in territories from The Great Flat by breadth-first search over the
// derived territory adjacency; the Fremen range is distance <= 2.
constexpr bool fremen_range_matches_adjacency() {
  constexpr std::size_t n = kNumTerritories;
  std::array<int, n> dist{};
  dist.fill(-1);
  std::array<std::size_t, n> queue{};
  std::size_t head = 0;
  std::size_t tail = 0;
  dist[terr::TheGreatFlat] = 0;
  queue[tail++] = terr::TheGreatFlat;
  while (head < tail) {
    const std::size_t t = queue[head++];
    for (std::size_t u = 0; u < n; ++u) {
      if (kTerritoryAdjacency[t][u] && dist[u] < 0) {
        dist[u] = dist[t] + 1;
        queue[tail++] = u;
      }
    }
  }
  for (std::size_t t = 0; t < n; ++t) {
    if ((dist[t] >= 0 && dist[t] <= 2) != kInFremenRange[t]) return false;
  }
  return true;
}
static_assert(fremen_range_matches_adjacency());

constexpr bool polar_sink_shape() {
  return kTerritories[terr::PolarSink].kind == TerritoryKind::PolarSink &&
         kTerritories[terr::PolarSink].num_locations == 1 &&
         kLocations[loc::PolarSink].sector == kNoSector &&
         kLocations[loc::PolarSink].territory == terr::PolarSink;
}
static_assert(polar_sink_shape());

}  // namespace

// ---- Public API -------------------------------------------------------------

namespace detail {
namespace {

constexpr BoardTables build_tables() {
  BoardTables b{};
  for (int t = 0; t < kNumTerritories; ++t) {
    b.territories[t] = kTerritories[t];
    for (int i = 0; i < kTerritories[t].num_locations; ++i)
      b.territory_pieces[t].set(static_cast<LocationId>(kTerritories[t].first_location + i));
  }
  for (int l = 0; l < kNumLocations; ++l) {
    b.locations[l] = kLocations[l];
    if (kLocations[l].sector != kNoSector) b.sector_pieces[kLocations[l].sector].set(static_cast<LocationId>(l));
  }
  for (const LocPair& p : kNeighbourPairs) {
    b.neighbours[p.a].set(p.b);
    b.neighbours[p.b].set(p.a);
    const bool same = kLocations[p.a].territory == kLocations[p.b].territory;
    (same ? b.same_territory : b.other_territory)[p.a].set(p.b);
    (same ? b.same_territory : b.other_territory)[p.b].set(p.a);
  }
  // 0-1 breadth-first search from every location: a step into another
  // territory costs 1, a step within the territory 0.
  for (int src = 0; src < kNumLocations; ++src) {
    std::array<int, kNumLocations> dist{};
    dist.fill(1000);
    std::array<int, 8192> dq{};  // a 0-1 deque: front pushes grow down from the middle
    int head = 4096, tail = head;
    dist[src] = 0;
    dq[tail++] = src;
    while (head < tail) {
      const int u = dq[head++];
      for (std::size_t k = kNeighbourIndex.offsets[u]; k < kNeighbourIndex.offsets[u + 1]; ++k) {
        const int v = kNeighbourIndex.ids[k];
        const int w = kLocations[v].territory != kLocations[u].territory ? 1 : 0;
        if (dist[u] + w >= dist[v]) continue;
        dist[v] = dist[u] + w;
        if (w == 0) dq[--head] = v;
        else dq[tail++] = v;
      }
    }
    for (int l = 0; l < kNumLocations; ++l) b.crossings[src][l] = static_cast<uint8_t>(dist[l]);
  }
  return b;
}

}  // namespace

constexpr BoardTables kBoard = build_tables();  // declared extern in board.h

constexpr bool board_connected() {
  for (const auto& row : kBoard.crossings)
    for (uint8_t d : row)
      if (d > kNumTerritories) return false;
  return true;
}
static_assert(board_connected());

}  // namespace detail

std::span<const LocationId> neighbours(LocationId id) {
  const std::size_t begin = kNeighbourIndex.offsets[id];
  const std::size_t end = kNeighbourIndex.offsets[id + 1];
  return std::span<const LocationId>(kNeighbourIndex.ids.data() + begin, end - begin);
}

bool territories_adjacent(TerritoryId a, TerritoryId b) {
  if (a >= kNumTerritories || b >= kNumTerritories) return false;
  return kTerritoryAdjacency[a][b];
}

std::optional<TerritoryId> find_territory(std::string_view name) {
  for (int i = 0; i < kNumTerritories; ++i) {
    if (kTerritories[i].name == name) return static_cast<TerritoryId>(i);
  }
  return std::nullopt;
}

std::optional<LocationId> find_location(std::string_view name) {
  for (int i = 0; i < kNumLocations; ++i) {
    if (kLocations[i].name == name) return static_cast<LocationId>(i);
  }
  return std::nullopt;
}

TerritoryId polar_sink_territory() { return terr::PolarSink; }
LocationId polar_sink() { return loc::PolarSink; }
LocationId arrakeen() { return loc::Arrakeen; }
LocationId carthag() { return loc::Carthag; }
LocationId sietch_tabr() { return loc::SietchTabr; }
LocationId tueks_sietch() { return loc::TueksSietch; }
LocationId habbanya_sietch() { return loc::HabbanyaSietch; }
TerritoryId the_great_flat() { return terr::TheGreatFlat; }
TerritoryId shield_wall() { return terr::ShieldWall; }
TerritoryId imperial_basin() { return terr::ImperialBasin; }

std::span<const TerritoryId> strongholds() { return kStrongholds; }

bool in_fremen_shipping_range(TerritoryId t) { return t < kNumTerritories && kInFremenRange[t]; }

}  // namespace mentat::data
