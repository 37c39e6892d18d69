// DQN-routing's pending-episode table as a design sets it (docs/dqn.md,
// "DQN-routing around the block"): its entries, the widths of an entry index,
// a timestamp and a distance, and the ack word it sends on the credit
// channel's feedback field (rtl/rr_dqn_episodes.sv):
//   {valid, cancel, index[index_bits], timestamp[stamp_bits]}, timestamp in the LSBs.
#pragma once

#include <cstdint>

#include "rlroute/gen/config.hpp"
#include "rlroute/ref/dqn_episodes.hpp"

namespace rlroute {

// Timestamps of the episode table and its ack words: cycles modulo 2^16, so
// an episode's latency is exact up to 65,535 cycles.
inline constexpr int kDqnStampBits = 16;

struct DqnEpisodeLayout {
  int entries = 0;        // 0: no table (routing.dqn_episodes = 0): no acks, no rewards
  int index_bits = 0;     // rr_pkg::id_width(entries): the header's `episode` field
  int stamp_bits = kDqnStampBits;
  int distance_bits = 0;  // enough for the topology's diameter

  bool enabled() const { return entries > 0; }
  // The credit channel's feedback field: an ack word, none without a table.
  int ack_bits() const { return enabled() ? 2 + index_bits + stamp_bits : 0; }
  std::uint64_t encode(const ref::EpisodeAck& ack) const;
  ref::EpisodeAck decode(std::uint64_t word) const;
};

// The table of a routing.algorithm = "dqn" design (routing.dqn_episodes).
DqnEpisodeLayout dqn_episode_layout(const Config& cfg);

}  // namespace rlroute
