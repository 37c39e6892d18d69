// DPSNN-like bursty all-to-all traffic ([Lonardo 2019], sections 4.2.2 and
// 4.3.3): every node runs one process of a distributed spiking neural network.
// Each step (1 ms of neural time) the processes compute, then send every other
// process the spikes of their neurons (an all-to-all exchange), then meet at a
// barrier. docs/traffic.md, "dpsnn", states the model and its interpretations.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/traffic_spec.hpp"
#include "rlroute/tb/application.hpp"

namespace rlroute {

class DpsnnApp : public Application {
 public:
  // Messages are cut into packets of at most `max_packet_flits` (>= 3: a
  // header, payload, a footer) and at least `min_packet_flits` (padded), with
  // `flit_bits` of payload per flit. Throws std::invalid_argument when the
  // network cannot carry the model (fewer than 2 nodes, packets under 3 flits).
  DpsnnApp(const DpsnnSpec& spec, int num_nodes, int flit_bits, int min_packet_flits, int max_packet_flits,
           std::uint64_t seed);

  // One cycle of the application. `network_empty`: no packet queued at a
  // source or in flight (every message of the step has arrived: the barrier).
  // Returns the packets that the processes post this cycle, every packet of a
  // step's exchange at once, each node's in its sending order.
  std::vector<AppPacket> tick(std::int64_t cycle, bool network_empty) override;

  // The packets of one message of `spikes` spikes (none for 0 spikes).
  std::vector<AppPacket> message(int src, int dst, std::int64_t spikes) const;

  // Mean spikes per process and step (neurons x rate x 1 ms).
  double mean_spikes() const;
  std::int64_t steps_completed() const { return steps_completed_; }
  // Mean cycles of a completed step (compute, exchange, barrier).
  double mean_step_cycles() const;
  nlohmann::ordered_json report() const override;
  std::string summary() const override;

 private:
  enum class Phase { Compute, Exchange };
  DpsnnSpec spec_;
  int num_nodes_, flit_bits_, min_packet_flits_, max_packet_flits_;
  std::mt19937_64 rng_;
  Phase phase_ = Phase::Compute;
  std::int64_t step_start_ = 0, compute_end_ = 0;
  std::int64_t steps_completed_ = 0, step_cycles_total_ = 0;
};

// The model of `spec` (a dpsnn spec) on `design`'s nodes, flits and packet
// sizes. Throws std::invalid_argument "traffic pattern \"<text>\": <rule>"
// when the network cannot carry it.
std::unique_ptr<DpsnnApp> make_dpsnn_app(const Design& design, const TrafficSpec& spec, std::uint64_t seed);

}  // namespace rlroute
