// The DQN inference block of a design (routing.algorithm = "dqn"; docs/dqn.md):
// its shape as the config sets it (the observation and action counts of the
// topology, the hidden layers, the formats and the multipliers), the widths
// of its programming port, and the network the simulator programs into it:
// a weights file (routing.dqn_weights, or --weights) that must fit the
// shape, or an untrained random network.
#pragma once

#include <filesystem>

#include <cstdint>
#include <string>
#include <vector>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/gen/emit.hpp"
#include "rlroute/ref/dqn_float.hpp"
#include "rlroute/ref/dqn_inference.hpp"

namespace rlroute {

struct DqnBlock {
  std::vector<int> sizes;  // observation values, hidden layer sizes, actions (one per network port)
  int weight_bits = 8;
  int activation_bits = 8;
  int npar = 8;  // the tiled block: neurons per cycle
  int ipar = 4;  // the tiled block: inputs per cycle
  bool parallel = false;  // rr_dqn_infer_parallel: every product of a layer in one cycle
  bool constant = false;  // the parallel block's weights are constants of the RTL

  int layers() const { return static_cast<int>(sizes.size()) - 1; }
  // A network of this shape with every weight, bias and shift zero.
  ref::DqnNetwork zero_network() const;
  int accumulator_bits() const { return static_cast<int>(zero_network().accumulator_bits()); }
  // The programming port (rr_dqn_infer): layer select, address (the most
  // weight words or neurons of a layer) and data (a weight word or a bias).
  int layer_bits() const;
  int address_bits() const;
  int data_bits() const;
  // Cycles from a decision's start to its done (ref::dqn_latency_cycles,
  // ref::dqn_parallel_latency_cycles), and between two starts.
  int latency_cycles() const;
  int interval_cycles() const;
  // The programming port's writes that load `network` (ref::dqn_program in
  // this block's layout: a tiled block's weight words, a parallel block's
  // neurons; none for constant weights).
  std::vector<ref::DqnWrite> program(const ref::DqnNetwork& network) const;
  int largest_fan_in() const;
};

// The block of a DQN design: 6 x dims + 1 observation values (rr_dqn_unit),
// routing.dqn_hidden, 2 x dims actions.
DqnBlock dqn_block(const Config& cfg);

// The agent port of a DQN router (rr_dqn_unit): a request carries the
// observation (obs_values signed activation_bits-wide values), an action mask
// (one bit per action), a tag and the head's episode entry; an answer the tag
// and an action. Rewards (rr_dqn_episode_unit) come on a lane per output
// port: {entry, distance, latency} (DqnEpisodeLayout's widths).
struct DqnAgentPort {
  int obs_values = 0;
  int activation_bits = 0;
  int actions = 0;
  int tag_bits = 0;     // a decision slot per input VC: id_width(ports x VCs)
  int action_bits = 0;  // id_width(actions)
  int episode_bits = 0;
  int distance_bits = 0;
  int stamp_bits = 0;
};
DqnAgentPort dqn_agent_port(const Design& design);

// Throws WeightsError ("<where>: <key> = <value>: <rule>") if `network` does
// not have the block's layer sizes and formats.
void check_fits(const DqnBlock& block, const ref::DqnNetwork& network, const std::string& where);

// The package's constants of a block with constant weights
// (routing.dqn_weights_mode = "constant"): the network of dqn_network_for(cfg,
// "") as DQN_WEIGHTS (layer by layer, neuron o, input i, weight_bits each,
// LSB first), DQN_BIASES (accumulator bits each) and DQN_SHIFTS (8 bits per
// layer), after a comment naming the network and, for a file, its hash
// (content_hash of its text).
std::string dqn_constants_sv(const Config& cfg);

// An untrained network of the block's shape, the same for the same seed:
// weights uniform over their range, biases zero, each layer's shift chosen
// so that an activation keeps about the spread of its inputs.
ref::DqnNetwork random_dqn_network(const DqnBlock& block, std::uint64_t seed);

// The weights file to program for `cfg`: `weights` if given (a path as the
// user typed it), else routing.dqn_weights (relative to the config's
// directory); empty for a random network.
std::filesystem::path dqn_weights_file(const Config& cfg, const std::string& weights);

// A weights file given on the command line (`weights`, as the user typed
// it; empty: none) becomes routing.dqn_weights, made absolute, so that a
// design with constant weights is generated with that network.
void use_dqn_weights(Config& cfg, const std::string& weights);

// The network to program for `cfg`: the weights file `weights` if given
// (a path as the user typed it), else routing.dqn_weights (relative to the
// config's directory), else random_dqn_network(block, routing.seed).
// `source` says which (for the run's output).
// *float_network (when given) gets the file's floating-point network (no
// layers without a file or when the file has none).
ref::DqnNetwork dqn_network_for(const Config& cfg, const std::string& weights, std::string* source = nullptr,
                                ref::FloatNetwork* float_network = nullptr);

// The programming port's writes of `network` as a memory image for a test
// bench of the generated RTL ($readmemh): a comment header, then one write
// per line, {layer, kind, address, data} packed MSB first into
// DQN_PROG_LAYER_BITS + 2 + DQN_PROG_ADDR_BITS + DQN_PROG_DATA_BITS bits, in
// hex. `source` names the network in the header.
std::string dqn_program_memh(const Config& cfg, const ref::DqnNetwork& network, const std::string& source);

// Adds "<name>_dqn_program.memh" (dqn_program_memh) to an emitted DQN design
// and names it in its manifest ("dqn_program").
void add_dqn_program(EmittedDesign& emitted, const Config& cfg, const ref::DqnNetwork& network,
                     const std::string& source);

}  // namespace rlroute
