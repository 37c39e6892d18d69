#include "rlroute/tb/application.hpp"

#include <algorithm>

namespace rlroute {

std::vector<int> message_packet_lengths(std::int64_t bytes, int flit_bits, int min_packet_flits,
                                        int max_packet_flits) {
  std::vector<int> lengths;
  std::int64_t payload = (bytes * 8 + flit_bits - 1) / flit_bits;  // flits
  const std::int64_t per_packet = max_packet_flits - 2;
  do {
    const std::int64_t chunk = std::min(payload, per_packet);
    payload -= chunk;
    lengths.push_back(std::max(static_cast<int>(chunk) + 2, min_packet_flits));
  } while (payload > 0);
  return lengths;
}

}  // namespace rlroute
