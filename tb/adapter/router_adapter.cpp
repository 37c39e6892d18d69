// RouterModel over the Verilated router top (verilator --prefix Vrouter).
#include <memory>
#include <vector>

#include "Vrouter.h"
#include "Vrouter___024root.h"
#include "clock_cycle.hpp"
#include "port_bits.hpp"

namespace rlroute::adapter {

class VerilatedRouter final : public RouterModel {
 public:
  explicit VerilatedRouter(const ModelShape& shape)
      : shape_(shape), layout_{shape.vc_bits, shape.flit_bits, shape.feedback_bits}, context_(std::make_unique<VerilatedContext>()),
        top_(std::make_unique<Vrouter>(context_.get())),
        flit_in_idle_(static_cast<std::size_t>(shape.ports), 0),
        credit_in_idle_(static_cast<std::size_t>(shape.ports), 0) {
    link_bits_ = layout_.link_bits();
    credit_bits_ = layout_.credit_bits();
  }
  ~VerilatedRouter() override { top_->final(); }

  void set_router_id(std::uint64_t id) override { set_field(top_->id_i, 0, shape_.id_bits, id); }
  // An idle word (all zeros) is not written again over an idle word: most
  // ports are idle most cycles, and a flit word is a whole flit (up to 256
  // bits) and a few more.
  void set_flit_in(int port, const LinkFlit& f) override {
    if (!update_idle(flit_in_idle_, port, !f.valid)) return;
    write_flit(top_->flit_i, port * link_bits_, layout_, f);
  }
  void set_credit_in(int port, const LinkCredit& c) override {
    if (!update_idle(credit_in_idle_, port, !c.valid && c.feedback == 0)) return;
    write_credit(top_->credit_i, port * credit_bits_, layout_, c);
  }
  LinkFlit flit_out(int port) const override {
    return read_flit(top_->flit_o, port * link_bits_, layout_);
  }
  LinkCredit credit_out(int port) const override {
    return read_credit(top_->credit_o, port * credit_bits_, layout_);
  }
  void read_outputs(LinkFlit* flits, LinkCredit* credits) const override {
    for (int p = 0; p < shape_.ports; ++p) {
      flits[p] = read_flit(top_->flit_o, p * link_bits_, layout_);
      credits[p] = read_credit(top_->credit_o, p * credit_bits_, layout_);
    }
  }
  void write_inputs(const LinkFlit* flits, const LinkCredit* credits, const char* drive_flit,
                    const char* drive_credit) override {
    for (int p = 0; p < shape_.ports; ++p) {
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
    set_dqn_write(nullptr);
    set_dqn_answer(nullptr);
    for (int p = 0; p < shape_.ports; ++p) {
      set_flit_in(p, {});
      set_credit_in(p, {});
    }
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->eval();
    tick();
    tick();
    top_->rst_ni = 1;
    top_->eval();
  }
  void set_dqn_write(const ref::DqnWrite* write) override { write_dqn(*top_, write, shape_.dqn_data_bits); }
  void settle() override { top_->eval(); }
  DqnRequest dqn_request() const override { return read_dqn_request(*top_, 0, shape_); }
  std::vector<DqnReward> dqn_rewards() const override { return read_dqn_rewards(*top_, 0, shape_); }
  void set_dqn_answer(const DqnAnswer* answer) override { write_dqn_answer(*top_, 0, shape_, answer); }
  void tick() override { clock_cycle(*top_); }

 private:
  // Records whether a port's input word is idle now; false if it was idle
  // already and stays idle (nothing to write).
  static bool update_idle(std::vector<char>& idle, int port, bool now) {
    char& was = idle[static_cast<std::size_t>(port)];
    if (now && was) return false;
    was = now;
    return true;
  }

  ModelShape shape_;
  LinkLayout layout_;
  int link_bits_;
  int credit_bits_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Vrouter> top_;
  std::vector<char> flit_in_idle_, credit_in_idle_;  // per port: its input word is all zeros
};

}  // namespace rlroute::adapter

extern "C" rlroute::RouterModel* rlroute_new_router(const rlroute::ModelShape* shape) {
  return new rlroute::adapter::VerilatedRouter(*shape);
}
