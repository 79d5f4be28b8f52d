// Big-endian 64-bit integers as 8 bytes (internal to store/: RocksDB keys,
// stored-event checksums). from_be64 reads at most 8 bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mentat::store {

inline std::string be64(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 7; i >= 0; --i) {
    s[static_cast<size_t>(i)] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
  return s;
}

inline uint64_t from_be64(std::string_view s) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8 && i < s.size(); ++i) v = (v << 8) | static_cast<uint8_t>(s[i]);
  return v;
}

}  // namespace mentat::store
