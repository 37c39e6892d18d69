#include "rlroute/tb/side_band_check.hpp"

#include "rlroute/tb/dqn_episode_mirror.hpp"
#include "rlroute/tb/q_mirror.hpp"

namespace rlroute {

std::unique_ptr<SideBandCheck> make_side_band_check(const Design& design) {
  switch (design.link.side_band) {
    case SideBand::None: return nullptr;
    case SideBand::QFeedback: return std::make_unique<QMirror>(design);
    case SideBand::DqnAck: return std::make_unique<DqnEpisodeMirror>(design);
  }
  return nullptr;
}

}  // namespace rlroute
