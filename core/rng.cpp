#include "core/rng.h"

#include <utility>

namespace mentat {

namespace {
uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

Rng Rng::from_seed(uint64_t seed) {
  Rng r;
  uint64_t x = seed;
  for (auto& w : r.s) w = splitmix64(x);
  return r;
}

uint64_t Rng::next() {
  const uint64_t result = rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint32_t Rng::below(uint32_t bound) {
  // Lemire: multiply a 32-bit draw by the bound, reject the biased low part.
  uint32_t x = static_cast<uint32_t>(next() >> 32);
  uint64_t m = static_cast<uint64_t>(x) * bound;
  uint32_t low = static_cast<uint32_t>(m);
  if (low < bound) {
    const uint32_t threshold = static_cast<uint32_t>(-bound) % bound;
    while (low < threshold) {
      x = static_cast<uint32_t>(next() >> 32);
      m = static_cast<uint64_t>(x) * bound;
      low = static_cast<uint32_t>(m);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

void Rng::shuffle(std::span<uint8_t> items) {
  for (size_t i = items.size(); i > 1; --i) {
    const uint32_t j = below(static_cast<uint32_t>(i));
    std::swap(items[i - 1], items[j]);
  }
}

}  // namespace mentat
