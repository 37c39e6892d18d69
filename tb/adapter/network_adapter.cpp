// NetworkModel over the Verilated network top (verilator --prefix Vnetwork,
// with --trace-fst unless it was built without a waveform: VM_TRACE 0).
// RLROUTE_NETWORK_TOP is the top module's name: Verilator names the top's
// signals <top>__DOT__<signal> in the root class, and the emitted top marks
// the routers' port arrays flit_in, flit_out and credit_out public_flat_rd.
#include <memory>
#include <stdexcept>
#include <string>

#include "Vnetwork.h"
#include "Vnetwork___024root.h"
#include "clock_cycle.hpp"
#include "dqn_ports.hpp"
#include "port_bits.hpp"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#ifndef RLROUTE_NETWORK_TOP
#error "RLROUTE_NETWORK_TOP (the network top module's name) must be defined"
#endif
#define RLROUTE_PASTE(a, b) a##b
#define RLROUTE_TOP_SIGNAL(top, name) RLROUTE_PASTE(top, __DOT__##name)
#define RLROUTE_SIGNAL(name) RLROUTE_TOP_SIGNAL(RLROUTE_NETWORK_TOP, name)

namespace rlroute::adapter {

class VerilatedNetwork final : public NetworkModel {
 public:
  explicit VerilatedNetwork(const ModelShape& shape)
      : shape_(shape), layout_{shape.vc_bits, shape.flit_bits, shape.feedback_bits}, context_(std::make_unique<VerilatedContext>()),
        top_(std::make_unique<Vnetwork>(context_.get())),
        dqn_(make_dqn_ports(*top_, shape.router_ports, shape.dqn)) {
    link_bits_ = layout_.link_bits();
    credit_bits_ = layout_.credit_bits();
  }
  ~VerilatedNetwork() override {
    close_trace();
    top_->final();
  }

  void set_flit_in(int node, const LinkFlit& f) override {
    write_flit(top_->ni_flit_i, node * link_bits_, layout_, f);
  }
  void set_credit_in(int node, const LinkCredit& c) override {
    write_credit(top_->ni_credit_i, node * credit_bits_, layout_, c);
  }
  LinkFlit flit_out(int node) const override {
    return read_flit(top_->ni_flit_o, node * link_bits_, layout_);
  }
  LinkCredit credit_out(int node) const override {
    return read_credit(top_->ni_credit_o, node * credit_bits_, layout_);
  }
  LinkFlit router_flit_out(int router, int port) const override {
    return read_flit(top_->rootp->RLROUTE_SIGNAL(flit_out)[router], port * link_bits_, layout_);
  }
  LinkCredit router_credit_out(int router, int port) const override {
    return read_credit(top_->rootp->RLROUTE_SIGNAL(credit_out)[router], port * credit_bits_, layout_);
  }
  LinkFlit router_flit_in(int router, int port) const override {
    return read_flit(top_->rootp->RLROUTE_SIGNAL(flit_in)[router], port * link_bits_, layout_);
  }

  void reset() override {
    if (dqn_) {
      dqn_->set_write(nullptr);
      for (int r = 0; shape_.dqn.agent() && r < shape_.routers; ++r) dqn_->set_answer(r, nullptr);
    }
    for (int n = 0; n < shape_.ports; ++n) {
      set_flit_in(n, {});
      set_credit_in(n, {});
    }
    reset_sequence(*top_, [this] { tick(); });
    time_ = 0;  // waveform time 10*C is the rising edge that ends cycle C
  }
  void settle() override { top_->eval(); }
  DqnModelPorts* dqn() override { return dqn_.get(); }
  void tick() override {
    if (!dumping()) {
      clock_cycle(*top_);
      time_ += 10;
      return;
    }
    // A waveform shows the clock low, so it gets the evaluation at the low clock.
    top_->clk_i = 1;
    top_->eval();
    dump();
    top_->clk_i = 0;
    top_->eval();
    dump();
  }
#if VM_TRACE
  void open_trace(const std::string& path) override {
    context_->traceEverOn(true);
    trace_ = std::make_unique<VerilatedFstC>();
    top_->trace(trace_.get(), 99);
    trace_->open(path.c_str());
  }
#else
  void open_trace(const std::string& path) override {
    throw std::runtime_error(path + ": this network model was built without a waveform (ModelCacheOptions::waveform)");
  }
#endif
  void set_tracing(bool on) override { tracing_ = on; }
  void close_trace() override {
#if VM_TRACE
    if (trace_) trace_->close();
    trace_.reset();
#endif
  }

 private:
#if VM_TRACE
  bool dumping() const { return trace_ && tracing_; }
  void dump() {
    if (dumping()) trace_->dump(time_);
    time_ += 5;  // half a 10-unit clock period
  }
#else
  bool dumping() const { return false; }
  void dump() { time_ += 5; }
#endif
  ModelShape shape_;
  LinkLayout layout_;
  int link_bits_;
  int credit_bits_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Vnetwork> top_;
  std::unique_ptr<DqnModelPorts> dqn_;
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> trace_;
#endif
  std::uint64_t time_ = 0;
  bool tracing_ = false;
};

}  // namespace rlroute::adapter

extern "C" rlroute::NetworkModel* rlroute_new_network(const rlroute::ModelShape* shape) {
  return new rlroute::adapter::VerilatedNetwork(*shape);
}
