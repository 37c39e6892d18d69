// DQN-routing's ports on a Verilated top (rlroute/tb/dqn_model_ports.hpp),
// compiled into the model library of a design that has them:
// RLROUTE_DQN_PROG when the top has the inference blocks' programming port,
// RLROUTE_DQN_AGENT when it has the routers' agent ports (model_build.cpp).
#pragma once

#include <memory>
#include <stdexcept>
#include <vector>

#include "port_bits.hpp"
#include "rlroute/tb/dqn_model_ports.hpp"

namespace rlroute::adapter {

// DQN-routing: drives a top's programming port (prog_*_i) with `write`, or
// idles it (nullptr). Compiled with RLROUTE_DQN_PROG when the top has the
// port (model_build.cpp); without it a write is a logic error.
template <typename Top>
void write_dqn(Top& top, const ref::DqnWrite* write, int data_bits) {
#ifdef RLROUTE_DQN_PROG
  top.prog_we_i = write != nullptr;
  if (write == nullptr) return;
  top.prog_layer_i = write->layer;
  top.prog_kind_i = static_cast<unsigned>(write->kind);
  top.prog_addr_i = write->addr;
  for (int i = 0; i < data_bits; i += 64) {
    const size_t word = static_cast<size_t>(i / 64);
    set_field(top.prog_data_i, i, std::min(64, data_bits - i), word < write->data.size() ? write->data[word] : 0);
  }
#else
  (void)top;
  (void)data_bits;
  if (write != nullptr) throw std::logic_error("this model has no DQN programming port");
#endif
}

// DQN-routing's agent port of router `r` of a top (the router top: r = 0;
// the network top: every router's side by side). Compiled with
// RLROUTE_DQN_AGENT when the top has it (model_build.cpp).
template <typename Top>
DqnRequest read_dqn_request(const Top& top, int r, const DqnShape& s) {
  DqnRequest q;
#ifdef RLROUTE_DQN_AGENT
  q.valid = get_bit(top.agent_req_o, r);
  if (!q.valid) return q;
  const int ab = s.activation_bits, values = s.obs_values;
  for (int i = 0; i < values; ++i) {
    std::uint64_t v = get_field(top.agent_obs_o, (r * values + i) * ab, ab);
    if ((v >> (ab - 1)) & 1u) v |= ~std::uint64_t{0} << ab;  // sign-extend
    q.observation.push_back(static_cast<std::int32_t>(static_cast<std::int64_t>(v)));
  }
  q.mask = static_cast<std::uint32_t>(get_field(top.agent_mask_o, r * s.actions, s.actions));
  q.tag = static_cast<unsigned>(get_field(top.agent_tag_o, r * s.tag_bits, s.tag_bits));
  const int eb = s.episode_bits + 1;
  const std::uint64_t episode = get_field(top.agent_episode_o, r * eb, eb);
  if ((episode >> s.episode_bits) & 1u) q.episode = static_cast<int>(episode & ((1u << s.episode_bits) - 1));
#else
  (void)top;
  (void)r;
  (void)s;
#endif
  return q;
}

// The rewards router `r` reports this cycle, a lane per output port.
template <typename Top>
std::vector<DqnReward> read_dqn_rewards(const Top& top, int r, int router_ports, const DqnShape& s) {
  std::vector<DqnReward> rewards;
#ifdef RLROUTE_DQN_AGENT
  const int ports = router_ports;
  for (int q = 0; q < ports; ++q) {
    const int lane = r * ports + q;
    if (!get_bit(top.agent_rew_valid_o, lane)) continue;
    rewards.push_back(
        {q, static_cast<unsigned>(get_field(top.agent_rew_idx_o, lane * s.episode_bits, s.episode_bits)),
         static_cast<unsigned>(get_field(top.agent_rew_dist_o, lane * s.distance_bits, s.distance_bits)),
         static_cast<std::uint32_t>(get_field(top.agent_rew_latency_o, lane * s.stamp_bits, s.stamp_bits))});
  }
#else
  (void)top;
  (void)r;
  (void)router_ports;
  (void)s;
#endif
  return rewards;
}

template <typename Top>
void write_dqn_answer(Top& top, int r, const DqnShape& s, const DqnAnswer* a) {
#ifdef RLROUTE_DQN_AGENT
  set_bit(top.agent_done_i, r, a != nullptr);
  set_field(top.agent_tag_i, r * s.tag_bits, s.tag_bits, a ? a->tag : 0);
  set_field(top.agent_action_i, r * s.action_bits, s.action_bits,
            a && a->action >= 0 ? static_cast<std::uint64_t>(a->action) : 0);
  set_bit(top.agent_action_valid_i, r, a != nullptr && a->action >= 0);
#else
  (void)top;
  (void)r;
  (void)s;
  if (a != nullptr) throw std::logic_error("this model has no DQN agent port");
#endif
}

// DqnModelPorts over the top's ports; router r's agent port is the r-th of
// the top's (the router top: r = 0; the network top: every router's side by
// side).
template <typename Top>
class VerilatedDqnPorts final : public DqnModelPorts {
 public:
  VerilatedDqnPorts(Top& top, int router_ports, const DqnShape& shape)
      : top_(top), router_ports_(router_ports), shape_(shape) {}
  void set_write(const ref::DqnWrite* write) override { write_dqn(top_, write, shape_.data_bits); }
  DqnRequest request(int router) const override { return read_dqn_request(top_, router, shape_); }
  void set_answer(int router, const DqnAnswer* answer) override {
    write_dqn_answer(top_, router, shape_, answer);
  }
  std::vector<DqnReward> rewards(int router) const override {
    return read_dqn_rewards(top_, router, router_ports_, shape_);
  }

 private:
  Top& top_;
  int router_ports_;
  DqnShape shape_;
};

// The top's DQN ports, nullptr for a top without any.
template <typename Top>
std::unique_ptr<DqnModelPorts> make_dqn_ports(Top& top, int router_ports, const DqnShape& shape) {
#if defined(RLROUTE_DQN_PROG) || defined(RLROUTE_DQN_AGENT)
  return std::make_unique<VerilatedDqnPorts<Top>>(top, router_ports, shape);
#else
  (void)top;
  (void)router_ports;
  (void)shape;
  return nullptr;
#endif
}

}  // namespace rlroute::adapter
