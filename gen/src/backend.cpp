#include "backend.hpp"

namespace rlroute::emit {

const BackendEmitter& backend_emitter(const Design& d) {
  switch (traits(d.cfg.algorithm).backend) {
    case Backend::Cube:
      return cube_backend();
    case Backend::DqnRouting:
      return dqn_backend();
    case Backend::Dragonfly:
      return dragonfly_backend();
    case Backend::QAdaptive:
      return q_adaptive_backend();
  }
  return cube_backend();  // unreachable: the switch names every backend
}

}  // namespace rlroute::emit
