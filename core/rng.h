// The project's own PRNG, bounded draw and shuffle.
//
// Contract: bit-for-bit identical results on every platform and compiler
// (only fixed-width unsigned arithmetic, no std:: distributions). A Rng is a
// 32-byte value type; copying it forks the stream. Not thread-safe per object.
#pragma once

#include <cstdint>
#include <span>

namespace mentat {

// What a recorded random outcome was drawn for (stored in Event.draws.kind).
enum class DrawKind : uint8_t {
  ShuffleTreachery = 1,  // value: card id at each position, top first
  ShuffleSpice = 2,
  ShuffleTraitors = 3,
  ShuffleStormDeck = 4,
  DrawTreachery = 5,     // value: card id drawn
  DrawSpice = 6,         // value: spice card id revealed
  DealTraitor = 7,       // value: traitor (leader) id dealt
  StormCard = 8,         // value: storm card drawn (1..6)
  StormMove = 9,         // value: sectors the storm moved
  Random = 10,           // any other bounded draw
  ShuffleSkills = 11,    // Leader Skills: the skill deck, card id at each position
  DealSkill = 12,        // value: skill card id dealt
};

// xoshiro256** seeded through splitmix64.
struct Rng {
  uint64_t s[4] = {0, 0, 0, 0};

  static Rng from_seed(uint64_t seed);
  uint64_t next();
  // Uniform integer in [0, bound), bound > 0; Lemire's method with rejection.
  uint32_t below(uint32_t bound);
  // Fisher-Yates from the last index down.
  void shuffle(std::span<uint8_t> items);

  friend bool operator==(const Rng&, const Rng&) = default;
};

}  // namespace mentat
