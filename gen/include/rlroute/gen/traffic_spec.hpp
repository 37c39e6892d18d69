// The text form of a traffic pattern as a user writes it (sim.pattern,
// `rlroute sim --pattern`), parsed and validated without a topology, so a
// config can be rejected with a one-line error before anything runs. The test
// bench (tb/src/traffic*.cpp) builds the pattern from the parsed spec and
// checks what needs the topology. docs/traffic.md defines every pattern.
//
// Syntax: "name", "name:key=value,key=value", or the shorthand "adv+<i>".
//   uniform transpose bitcomp bitrev tornado neighbor hotspot randperm shift
//   adv+<i>                 i >= 1 (i < g is checked against the topology)
//   mixed                   share=[0,1] (0.5), with=shift|randperm (shift),
//                           level=router|node|packet (router with shift, node with randperm)
//   stencil3d               grid=XxYxZ|cubic (dragonfly: p x a x g, else cubic)
//   many2many               axis=x|y|z (z), grid=XxYxZ|cubic
//   randneighbors           min=n (6), max=n (20), 1 <= min <= max
//   dpsnn                   rate=Hz (21), neurons=n (2500), spike_bytes=n (12),
//                           compute=cycles (1000): an application model, not a
//                           destination pattern (is_application_traffic)
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace rlroute {

// Which share of a mixed pattern follows the `with` pattern: a fixed random
// set of routers (all their nodes), a fixed random set of nodes, or each packet
// independently.
enum class MixLevel { Router, Node, Packet };

// The 3D grid that stencil3d and many2many lay the nodes out on; node n sits at
// x = n % X, y = (n / X) % Y, z = n / (X * Y).
struct GridShape {
  enum class Kind {
    Default,   // dragonfly: p x a x g (Q-adaptive's layout); others: Cubic
    Cubic,     // the most cubic factorisation X <= Y <= Z of the node count
    Explicit,  // dims as written
  };
  Kind kind = Kind::Default;
  std::array<int, 3> dims{};  // Explicit only
};

// The DPSNN traffic of the DQN-routing thesis ([Lonardo 2019], section 4.2.2):
// each node is a process of a spiking neural network that, every 1 ms step,
// computes, then sends each other process its spikes (all-to-all), then waits
// at a barrier. docs/traffic.md, "dpsnn".
struct DpsnnSpec {
  double rate_hz = 21;      // mean firing rate per neuron ([Lonardo 2019, Table 4.1]: 21..556 Hz)
  int neurons = 2500;       // neurons per process: one 2500-neuron module per node
  int spike_bytes = 12;     // an AER spike: neuron id and emission time
  int compute_cycles = 1000;  // the compute phase of each step
};

struct TrafficSpec {
  std::string text;  // as written, for messages
  std::string name;  // one of traffic_pattern_names(), "adv" for adv+<i>
  int adv_offset = 0;  // adv+<i>: i >= 1
  // mixed
  double mixed_share = 0.5;
  std::string mixed_with = "shift";  // "shift" or "randperm"
  MixLevel mixed_level = MixLevel::Router;
  // stencil3d, many2many
  GridShape grid;
  int axis = 2;  // many2many: 0 = x, 1 = y, 2 = z
  // randneighbors: targets per node; unset = 6 / 20, capped at nodes - 1
  std::optional<int> min_targets;
  std::optional<int> max_targets;
  DpsnnSpec dpsnn;
};

// True for the application models (dpsnn), which decide when and how much
// each node sends and to whom, instead of picking the destination of packets
// that a Bernoulli source makes at an offered load.
bool is_application_traffic(const TrafficSpec& spec);

// Throws std::invalid_argument with a one-line rule for an unknown name
// ("unknown traffic pattern \"X\"; valid: uniform, ..."), a malformed
// parameter list, an unknown or repeated key, or a value out of range
// ("traffic pattern \"mixed:share=1.5\": share must be in [0, 1]").
TrafficSpec parse_traffic_spec(const std::string& text);

// Every pattern name; the ADV family is listed as "adv+<i>".
const std::vector<std::string>& traffic_pattern_names();

// Throws std::invalid_argument "traffic pattern \"<text>\": <rule>".
[[noreturn]] void traffic_spec_fail(const std::string& text, const std::string& rule);

}  // namespace rlroute
