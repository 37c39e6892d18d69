// The harness's extension for a credit side-band (LinkLayout::side_band): a
// check that keeps its own copy of the state the routers exchange on the
// credit channel's feedback field and judges every word against it. The
// network checker runs the design's check beside its own and knows no
// algorithm: Q-adaptive's is QMirror (rlroute/tb/q_mirror.hpp), DQN-routing's
// DqnEpisodeMirror (rlroute/tb/dqn_episode_mirror.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rlroute/gen/design.hpp"

namespace rlroute {

class SideBandCheck {
 public:
  virtual ~SideBandCheck() = default;

  // The network checker's events, in its order within a cycle (begin_cycle,
  // heads leaving and credit words, heads arriving); each returning a string
  // returns a violation or "". A head arrived at `router` on `port`
  // `hop_cycles` after it arrived at the router before (0 from a NIC).
  virtual void begin_cycle(std::int64_t /*cycle*/) {}
  virtual void head_arrived(int router, int port, unsigned key, const Header& h, std::int64_t cycle,
                            std::int64_t hop_cycles) = 0;
  virtual std::string word_sent(int router, int port, std::uint64_t feedback, std::int64_t cycle) = 0;
  virtual std::string head_left(int router, int port, unsigned key, const Header& h, std::int64_t cycle) = 0;

  // Whether different routers' events may come from different threads at
  // once (each touching only that router's state).
  virtual bool routers_in_parallel() const = 0;
  // Header fields the routers rewrite for this side-band, which this check
  // checks (the flit-identity check leaves them to it).
  virtual std::vector<Field> rewritten_fields() const { return {}; }
  // Words still owed once the network is empty (they may need a few cycles
  // to travel back), and the failure to report if they never come.
  virtual int owed() const { return 0; }
  virtual std::string owed_failure(std::int64_t /*waited_cycles*/) const { return ""; }
};

// The check of the design's side-band; nullptr for SideBand::None.
std::unique_ptr<SideBandCheck> make_side_band_check(const Design& design);

}  // namespace rlroute
