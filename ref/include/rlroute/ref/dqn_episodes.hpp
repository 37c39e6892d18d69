// Bit-exact reference of DQN-routing's pending-episode table
// (rtl/rr_dqn_episodes.sv; docs/dqn.md): the same entries, the same choices
// (each port opens the free entry it holds in reserve; of the ports that hold
// none, the lowest-numbered gets the lowest free entry nobody holds and the
// highest-numbered the highest, from the next cycle; per
// input port the caller's word, else the lowest parked entry of that port)
// and the same outputs, cycle by cycle (tests/rtl/test_rr_dqn_episodes.cpp).
#pragma once

#include <cstdint>
#include <vector>

namespace rlroute::ref {

// An ack word on a credit channel: {valid, cancel, entry index, timestamp}.
struct EpisodeAck {
  bool valid = false;
  bool cancel = false;
  unsigned index = 0;
  std::uint32_t timestamp = 0;
  bool operator==(const EpisodeAck&) const = default;
};

// A reward report: the entry, its distance, and the ack's latency.
struct EpisodeReward {
  bool valid = false;
  unsigned index = 0;
  unsigned distance = 0;
  std::uint32_t latency = 0;
};

class DqnEpisodeTable {
 public:
  DqnEpisodeTable(int ports, int ni_ports, int entries, int timestamp_bits);

  struct Inputs {
    std::uint32_t now = 0;
    std::vector<bool> open;               // per input port
    std::vector<unsigned> open_up, open_dist;
    std::vector<bool> decide;             // per input port
    std::vector<unsigned> decide_index;
    std::vector<EpisodeAck> ack_in;       // per output port
    std::vector<EpisodeAck> immediate;    // per input port: the caller's words
  };
  struct Outputs {
    std::vector<bool> open_ok;
    std::vector<unsigned> open_index;
    std::vector<EpisodeReward> rewards;   // per output port lane
    std::vector<EpisodeAck> ack_out;      // per input port
  };

  // This cycle's outputs for `in`, then the clock edge.
  Outputs step(const Inputs& in);
  // Entries in use, bit e for entry e (before the next step).
  std::vector<bool> open_entries() const;
  bool parked(unsigned e) const { return entries_[e].parked; }
  bool decided(unsigned e) const { return entries_[e].decided; }

 private:
  struct Entry {
    bool valid = false, decided = false, parked = false, cancel = false;
    unsigned up = 0, port = 0, distance = 0;
    std::uint32_t timestamp = 0, ack_timestamp = 0;
  };
  // The entry a port holds in reserve for its next open.
  struct Reserve {
    bool valid = false;
    unsigned index = 0;
  };
  int ports_, ni_ports_;
  std::uint32_t ts_mask_;
  std::vector<Entry> entries_;
  std::vector<Reserve> reserves_;
};

}  // namespace rlroute::ref
