// Fixed-capacity bit vector for flit payloads (flit_bits <= 256).
#pragma once

#include <array>
#include <cstdint>

namespace rlroute {

inline constexpr int kMaxFlitBits = 256;

struct FlitData {
  std::array<std::uint64_t, kMaxFlitBits / 64> words{};

  // Field of up to 64 bits starting at bit `lsb`.
  std::uint64_t get(int lsb, int width) const {
    std::uint64_t value = 0;
    for (int i = 0; i < width; ++i) {
      const int bit = lsb + i;
      value |= ((words[bit / 64] >> (bit % 64)) & 1u) << i;
    }
    return value;
  }
  void set(int lsb, int width, std::uint64_t value) {
    for (int i = 0; i < width; ++i) {
      const int bit = lsb + i;
      const std::uint64_t mask = std::uint64_t{1} << (bit % 64);
      if ((value >> i) & 1u) words[bit / 64] |= mask;
      else words[bit / 64] &= ~mask;
    }
  }
  bool operator==(const FlitData&) const = default;
};

}  // namespace rlroute
