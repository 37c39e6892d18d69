// Programs a DQN network into a Verilated block with rr_dqn_infer's
// programming port (rr_dqn_infer itself, rr_dqn_unit), in the layout
// ref::dqn_program gives: one write per clock cycle.
#pragma once

#include "rlroute/ref/dqn_inference.hpp"
#include "vtb.hpp"

namespace rtltest {

template <class Model>
void program_dqn(Dut<Model>& dut, const rlroute::ref::DqnNetwork& network, int npar, int ipar, unsigned prog_bits) {
  for (const rlroute::ref::DqnWrite& w : rlroute::ref::dqn_program(network, npar, ipar)) {
    Bits data;
    for (size_t k = 0; k < w.data.size(); ++k) data.set(static_cast<unsigned>(k) * 64, 64, w.data[k]);
    dut->prog_we_i = 1;
    dut->prog_layer_i = w.layer;
    dut->prog_kind_i = static_cast<unsigned>(w.kind);
    dut->prog_addr_i = w.addr;
    put_bits(dut->prog_data_i, data.truncated(prog_bits), prog_bits);
    dut.tick();
  }
  dut->prog_we_i = 0;
}

}  // namespace rtltest
