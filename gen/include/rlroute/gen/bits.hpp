// Fixed-capacity bit vector for flit payloads (flit_bits <= 256).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace rlroute {

inline constexpr int kMaxFlitBits = 256;

struct FlitData {
  std::array<std::uint64_t, kMaxFlitBits / 64> words{};

  // Field of up to 64 bits starting at bit `lsb` (in at most two words).
  std::uint64_t get(int lsb, int width) const {
    if (width == 0) return 0;
    const auto w = static_cast<std::size_t>(lsb / 64);
    const int off = lsb % 64;
    std::uint64_t value = words[w] >> off;
    if (off + width > 64) value |= words[w + 1] << (64 - off);
    return value & mask(width);
  }
  void set(int lsb, int width, std::uint64_t value) {
    if (width == 0) return;
    const auto w = static_cast<std::size_t>(lsb / 64);
    const int off = lsb % 64;
    const std::uint64_t m = mask(width);
    value &= m;
    words[w] = (words[w] & ~(m << off)) | (value << off);
    if (off + width > 64) words[w + 1] = (words[w + 1] & ~(m >> (64 - off))) | (value >> (64 - off));
  }
  bool operator==(const FlitData&) const = default;

 private:
  static std::uint64_t mask(int width) { return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1; }
};

}  // namespace rlroute
