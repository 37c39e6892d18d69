#include "rlroute/gen/dqn_episodes.hpp"

#include <algorithm>

#include "rlroute/gen/topology.hpp"

namespace rlroute {

DqnEpisodeLayout dqn_episode_layout(const Config& cfg) {
  DqnEpisodeLayout l;
  l.entries = cfg.dqn_episodes;
  l.index_bits = std::max(1, bits_for(cfg.dqn_episodes));
  l.distance_bits = std::max(1, bits_for(cube_diameter(cfg) + 1));
  return l;
}

std::uint64_t DqnEpisodeLayout::encode(const ref::EpisodeAck& ack) const {
  const std::uint64_t index_mask = (std::uint64_t{1} << index_bits) - 1;
  const std::uint64_t stamp_mask = (std::uint64_t{1} << stamp_bits) - 1;
  return (std::uint64_t{ack.valid} << (stamp_bits + index_bits + 1)) |
         (std::uint64_t{ack.cancel} << (stamp_bits + index_bits)) | ((ack.index & index_mask) << stamp_bits) |
         (ack.timestamp & stamp_mask);
}

ref::EpisodeAck DqnEpisodeLayout::decode(std::uint64_t word) const {
  ref::EpisodeAck a;
  a.timestamp = static_cast<std::uint32_t>(word & ((std::uint64_t{1} << stamp_bits) - 1));
  a.index = static_cast<unsigned>((word >> stamp_bits) & ((std::uint64_t{1} << index_bits) - 1));
  a.cancel = ((word >> (stamp_bits + index_bits)) & 1u) != 0;
  a.valid = ((word >> (stamp_bits + index_bits + 1)) & 1u) != 0;
  return a;
}

}  // namespace rlroute
