// Quantizes a trained floating-point network into the inference block's fixed
// point (docs/dqn.md, "Quantization"): per layer, the weights to signed
// weight_bits integers with one scale (the largest |weight| at full range),
// the biases to accumulator units, and the layer's rounding shift chosen from
// calibration data so that the largest activation the calibration
// observations produce fits the activation range (hidden layers; the last
// layer keeps the accumulator, shift 0, since only its argmax is used).
// The block's observation values are integers, so the input scale is 1.
#pragma once

#include <cstdint>
#include <vector>

#include "rlroute/gen/dqn_block.hpp"
#include "rlroute/ref/dqn_inference.hpp"
#include "rlroute/ref/dqn_float.hpp"

namespace rlroute::train {

struct Calibration {
  std::vector<std::vector<std::int32_t>> observations;
  std::vector<std::uint32_t> masks;  // one per observation
  // Each hidden layer's largest activation, if given (the scales a
  // quantization-aware training used); else the observations' largest.
  std::vector<double> activation_maxima;
};

struct Quantized {
  ref::DqnNetwork network;
  // Of the calibration observations, the share whose action (the masked
  // argmax) is the same in fixed and in floating point (after a
  // quantization-aware training, the trainer sets it against the network's
  // rounding forward pass instead).
  double agreement = 0;
  std::vector<double> scales;  // per layer: the real value of one output unit
};

// Throws std::invalid_argument if `net` does not have the block's sizes or
// the calibration set is empty.
Quantized quantize(const ref::FloatNetwork& net, const DqnBlock& block, const Calibration& calibration);

}  // namespace rlroute::train
