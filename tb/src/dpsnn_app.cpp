#include "rlroute/tb/dpsnn_app.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace rlroute {

DpsnnApp::DpsnnApp(const DpsnnSpec& spec, int num_nodes, int flit_bits, int min_packet_flits,
                   int max_packet_flits, std::uint64_t seed)
    : spec_(spec), num_nodes_(num_nodes), flit_bits_(flit_bits), min_packet_flits_(min_packet_flits),
      max_packet_flits_(max_packet_flits), rng_(seed ^ 0xd9511a7fc0ffee11ull),
      compute_end_(spec.compute_cycles) {
  if (num_nodes < 2) {
    throw std::invalid_argument(fmt::format("needs at least 2 nodes (processes); this network has {}", num_nodes));
  }
  if (max_packet_flits < 3) {
    throw std::invalid_argument(fmt::format(
        "needs router.max_packet_flits >= 3 (a header, payload, a footer); this router: {}", max_packet_flits));
  }
}

double DpsnnApp::mean_spikes() const { return spec_.neurons * spec_.rate_hz * 1e-3; }

double DpsnnApp::mean_step_cycles() const {
  return steps_completed_ > 0 ? static_cast<double>(step_cycles_total_) / static_cast<double>(steps_completed_) : 0.0;
}

nlohmann::ordered_json DpsnnApp::report() const {
  return {{"name", "dpsnn"},
          {"steps_completed", steps_completed_},
          {"mean_step_cycles", mean_step_cycles()},
          {"mean_spikes_per_step", mean_spikes()}};
}

std::string DpsnnApp::summary() const {
  return fmt::format("dpsnn: {} steps completed, {:.0f} cycles per step, {:.1f} spikes per process and step",
                     steps_completed_, mean_step_cycles(), mean_spikes());
}

std::vector<AppPacket> DpsnnApp::message(int src, int dst, std::int64_t spikes) const {
  std::vector<AppPacket> packets;
  if (spikes == 0) return packets;
  for (const int length :
       message_packet_lengths(spikes * spec_.spike_bytes, flit_bits_, min_packet_flits_, max_packet_flits_)) {
    packets.push_back(AppPacket{src, dst, length, 0});
  }
  return packets;
}

std::unique_ptr<DpsnnApp> make_dpsnn_app(const Design& design, const TrafficSpec& spec, std::uint64_t seed) {
  try {
    return std::make_unique<DpsnnApp>(spec.dpsnn, design.topo.num_nodes(), design.cfg.flit_bits,
                                      design.cfg.min_packet_flits, design.cfg.max_packet_flits, seed);
  } catch (const std::invalid_argument& e) {
    traffic_spec_fail(spec.text, e.what());
  }
}

std::vector<AppPacket> DpsnnApp::tick(std::int64_t cycle, bool network_empty) {
  std::vector<AppPacket> posted;
  if (phase_ == Phase::Exchange) {
    if (!network_empty) return posted;
    // Barrier: every message of the step has arrived. The next step's
    // compute phase starts now.
    ++steps_completed_;
    step_cycles_total_ += cycle - step_start_;
    step_start_ = cycle;
    compute_end_ = cycle + spec_.compute_cycles;
    phase_ = Phase::Compute;
  }
  if (cycle < compute_end_) return posted;
  // The exchange: each process's spikes of this step, to every other process,
  // in the order of a pairwise all-to-all (src + 1, src + 2, ...).
  std::poisson_distribution<std::int64_t> spikes_of(mean_spikes());
  for (int src = 0; src < num_nodes_; ++src) {
    const std::int64_t spikes = spikes_of(rng_);
    for (int i = 1; i < num_nodes_; ++i) {
      const std::vector<AppPacket> m = message(src, (src + i) % num_nodes_, spikes);
      posted.insert(posted.end(), m.begin(), m.end());
    }
  }
  phase_ = Phase::Exchange;
  return posted;
}

}  // namespace rlroute
