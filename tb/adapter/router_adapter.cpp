// RouterModel over the Verilated router top (verilator --prefix Vrouter).
#include <array>
#include <memory>
#include <stdexcept>
#include <vector>

#include "Vrouter.h"
#include "Vrouter___024root.h"
#include "clock_cycle.hpp"
#include "dqn_ports.hpp"
#include "port_bits.hpp"

namespace rlroute::adapter {

// The model's link layout and port count, fixed when it is built
// (tb/src/model_build.cpp passes them): the per-cycle port access below then
// folds to constant shifts and unrolled loops.
constexpr LinkLayout kLayout{RLROUTE_LINK_VC_BITS, RLROUTE_LINK_FLIT_BITS, RLROUTE_LINK_FEEDBACK_BITS};
constexpr int kPorts = RLROUTE_ROUTER_PORTS;
constexpr int kLinkBits = kLayout.link_bits();
constexpr int kCreditBits = kLayout.credit_bits();

class VerilatedRouter final : public RouterModel {
 public:
  explicit VerilatedRouter(const ModelShape& shape)
      : shape_(shape), context_(std::make_unique<VerilatedContext>()),
        top_(std::make_unique<Vrouter>(context_.get())),
        dqn_(make_dqn_ports(*top_, shape.router_ports, shape.dqn)) {
    if (shape.ports != kPorts || shape.vc_bits != kLayout.vc_bits || shape.flit_bits != kLayout.flit_bits ||
        shape.feedback_bits != kLayout.feedback_bits) {
      throw std::logic_error("router model: built for another link layout or port count than the design's");
    }
  }
  ~VerilatedRouter() override { top_->final(); }

  void set_router_id(std::uint64_t id) override { set_field(top_->id_i, 0, shape_.id_bits, id); }
  // An idle word (all zeros) is not written again over an idle word: most
  // ports are idle most cycles, and a flit word is a whole flit (up to 256
  // bits) and a few more.
  void set_flit_in(int port, const LinkFlit& f) override {
    if (!update_idle(flit_in_idle_, port, !f.valid)) return;
    write_flit(top_->flit_i, port * kLinkBits, kLayout, f);
  }
  void set_credit_in(int port, const LinkCredit& c) override {
    if (!update_idle(credit_in_idle_, port, !c.valid && c.feedback == 0)) return;
    write_credit(top_->credit_i, port * kCreditBits, kLayout, c);
  }
  LinkFlit flit_out(int port) const override { return read_flit(top_->flit_o, port * kLinkBits, kLayout); }
  LinkCredit credit_out(int port) const override {
    return read_credit(top_->credit_o, port * kCreditBits, kLayout);
  }
  void read_outputs(LinkFlit* flits, LinkCredit* credits) const override {
    for (int p = 0; p < kPorts; ++p) {
      flits[p] = read_flit(top_->flit_o, p * kLinkBits, kLayout);
      credits[p] = read_credit(top_->credit_o, p * kCreditBits, kLayout);
    }
  }
  void write_inputs(const LinkFlit* flits, const LinkCredit* credits, const char* drive_flit,
                    const char* drive_credit) override {
    for (int p = 0; p < kPorts; ++p) {
      if (drive_flit[p]) set_flit_in(p, flits[p]);
      if (drive_credit[p]) set_credit_in(p, credits[p]);
    }
  }
  std::uint32_t stat_flits(int port) const override {
    return static_cast<std::uint32_t>(get_field(top_->stat_flits_o, port * 32, 32));
  }
  std::uint32_t stat_stall(int port) const override {
    return static_cast<std::uint32_t>(get_field(top_->stat_stall_o, port * 32, 32));
  }
  std::uint32_t cycle() const override { return top_->cycle_o; }

  void reset() override {
    if (dqn_) {
      dqn_->set_write(nullptr);
      dqn_->set_answer(0, nullptr);
    }
    for (int p = 0; p < shape_.ports; ++p) {
      set_flit_in(p, {});
      set_credit_in(p, {});
    }
    reset_sequence(*top_, [this] { tick(); });
  }
  void settle() override { top_->eval(); }
  DqnModelPorts* dqn() override { return dqn_.get(); }
  void tick() override { clock_cycle(*top_); }

 private:
  // Records whether a port's input word is idle now; false if it was idle
  // already and stays idle (nothing to write).
  static bool update_idle(std::array<char, kPorts>& idle, int port, bool now) {
    char& was = idle[static_cast<std::size_t>(port)];
    if (now && was) return false;
    was = now;
    return true;
  }

  ModelShape shape_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Vrouter> top_;
  std::unique_ptr<DqnModelPorts> dqn_;
  std::array<char, kPorts> flit_in_idle_{}, credit_in_idle_{};  // per port: its input word is all zeros
};

}  // namespace rlroute::adapter

extern "C" rlroute::RouterModel* rlroute_new_router(const rlroute::ModelShape* shape) {
  return new rlroute::adapter::VerilatedRouter(*shape);
}
