// Bit-exact reference of the DQN inference block (rtl/rr_dqn_infer.sv,
// docs/dqn.md): a fixed-point multilayer perceptron as the hardware runs it.
// Each layer accumulates bias + sum(w * x) exactly, shifts the sum right with
// rounding (round half up), and, for every layer but the last, saturates it
// to the activation width and applies ReLU; the last layer's outputs are the
// Q-values (shifted, not saturated), and the action is the argmax over the
// outputs the mask allows (ties: the lowest index). The RTL block test
// drives the block and dqn_infer() with the same weights and observations
// and requires identical Q-values, actions and latency.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace rlroute::ref {

struct DqnLayer {
  int inputs = 0;
  int outputs = 0;
  std::vector<int32_t> weights;  // outputs x inputs, row-major: weights[o * inputs + i]
  std::vector<int64_t> biases;   // outputs, in accumulator units
  unsigned shift = 0;            // right shift of the accumulation, with rounding
  bool operator==(const DqnLayer&) const = default;
};

struct DqnNetwork {
  unsigned weight_bits = 8;      // signed weights
  unsigned activation_bits = 8;  // signed observations and hidden activations
  std::vector<DqnLayer> layers;  // layers[l].inputs == layers[l-1].outputs

  int inputs() const { return layers.empty() ? 0 : layers.front().inputs; }
  int outputs() const { return layers.empty() ? 0 : layers.back().outputs; }
  // Bits of an accumulator that no weights, biases and inputs in range can
  // overflow: weight_bits + activation_bits + clog2(largest fan-in + 1),
  // with biases limited to half its range (bias_limit()).
  unsigned accumulator_bits() const;
  int64_t bias_limit() const;  // |bias| < bias_limit()
  // Throws std::invalid_argument naming the first field out of range.
  void validate() const;
  bool operator==(const DqnNetwork&) const = default;
};

struct DqnResult {
  std::vector<int64_t> q;  // one per output
  int action = -1;         // argmax over the allowed outputs; -1 if none is allowed
};

// Runs the network on one observation (activation_bits-wide signed values).
DqnResult dqn_infer(const DqnNetwork& network, std::span<const int32_t> observation, uint32_t action_mask);

// Cycles from the block's start to its done with `npar` neurons and `ipar`
// inputs per cycle (npar x ipar multiply-accumulates): per layer
// ceil(outputs / npar) x ceil(inputs / ipar) tiles + 3 (the weight memory's
// registered read, the registered sums' rounding, the registered outputs),
// plus 3 (the observation
// latched, the argmax registered, done). The start cycle counts as the first.
int dqn_latency_cycles(const DqnNetwork& network, int npar, int ipar);
// Cycles between two decisions the block starts back to back (its layers are
// a pipeline): the largest layer's ceil(outputs / npar) x ceil(inputs / ipar).
int dqn_interval_cycles(const DqnNetwork& network, int npar, int ipar);

// Cycles from the parallel block's start to its done (rr_dqn_infer_parallel,
// which starts one decision per cycle): the observation registered, one
// cycle per layer, the argmax registered.
int dqn_parallel_latency_cycles(const DqnNetwork& network);

// DQN-routing's observation of a packet at a router (rr_dqn_unit; the 13
// values of [Lonardo 2019] on a 2-D torus): the router's coordinates, the
// destination's, the packet's length, then per network port the flits in the
// router's input buffer of the DQN VC, then per network port the flits
// downstream in the DQN VC of its output (buffer depth - credits). The length
// and the occupancies are scaled to the activation range first (shifted right
// by dqn_observation_shift of their largest value: router.max_packet_flits,
// router.buffer_flits); every value saturates at the largest activation,
// 2^(activation_bits - 1) - 1.
struct DqnObservationInputs {
  std::vector<int> coords, dst;         // one per dimension
  int length = 0;                       // flits
  std::vector<int> local, downstream;   // one per network port, in port order
  int max_length = 1;                   // router.max_packet_flits
  int buffer_flits = 1;                 // router.buffer_flits
};
// The right shift that maps 0..largest onto 0..2^(activation_bits - 1),
// the smallest for which only the top value or two saturate:
// max(0, ceil(log2(largest)) - (activation_bits - 1)). 0 up to 128 with
// 8-bit activations, 1 for 129..256.
unsigned dqn_observation_shift(int largest, unsigned activation_bits);
std::vector<int32_t> dqn_observation(const DqnObservationInputs& in, unsigned activation_bits);

// One write of the block's programming port (rr_dqn_infer; the kinds are
// rr_pkg::DQN_PROG_*): a weight word of `layer` (word addr = tile_o x TI +
// tile_i, lane n x ipar + i at bits (n x ipar + i) x weight_bits, two's
// complement), the bias of neuron addr (accumulator_bits() bits), or the
// layer's rounding shift. data holds the bits, 64 per element, least
// significant first.
enum class DqnWriteKind : unsigned { Weight = 0, Bias = 1, Shift = 2 };
struct DqnWrite {
  unsigned layer = 0;
  DqnWriteKind kind = DqnWriteKind::Weight;
  unsigned addr = 0;
  std::vector<uint64_t> data;
};

// Every write that programs `network` into a block with `npar` x `ipar`
// multipliers per layer: the weight words, the biases and the shift, layer
// by layer.
std::vector<DqnWrite> dqn_program(const DqnNetwork& network, int npar, int ipar);

// x >> shift rounded half up (an arithmetic shift of x + 2^(shift-1)).
int64_t round_shift(int64_t x, unsigned shift);

}  // namespace rlroute::ref
