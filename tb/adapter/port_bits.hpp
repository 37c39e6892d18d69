// Bit-field access to Verilated ports of any width: narrow ports are C
// integers, ports wider than 64 bits are VlWide arrays of 32-bit words.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "rlroute/gen/bits.hpp"
#include "rlroute/gen/link_layout.hpp"
#include "rlroute/tb/model.hpp"
#include "verilated.h"

namespace rlroute::adapter {

template <typename T>
bool get_bit(const T& port, int bit) {
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<std::uint64_t>(port) >> bit) & 1u;
  } else {
    return (port[static_cast<size_t>(bit / 32)] >> (bit % 32)) & 1u;
  }
}

template <typename T>
void set_bit(T& port, int bit, bool value) {
  if constexpr (std::is_integral_v<T>) {
    const T mask = static_cast<T>(T{1} << bit);
    port = value ? static_cast<T>(port | mask) : static_cast<T>(port & ~mask);
  } else {
    const std::uint32_t mask = 1u << (bit % 32);
    auto& word = port[static_cast<size_t>(bit / 32)];
    word = value ? (word | mask) : (word & ~mask);
  }
}

// Bits [lsb, lsb + width) of a port, width <= 64, a word at a time (the
// harness reads and writes every link of every router every cycle).
template <typename T>
std::uint64_t get_field(const T& port, int lsb, int width) {
  if (width == 0) return 0;
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<std::uint64_t>(port) >> lsb) & mask;
  } else {
    const int first = lsb / 32, last = (lsb + width - 1) / 32;
    std::uint64_t v = 0;
    for (int w = first; w <= last; ++w) {
      const std::uint64_t word = port[static_cast<size_t>(w)];
      const int at = (w - first) * 32 - lsb % 32;  // where the word's bit 0 lands in the field
      v |= at >= 0 ? word << at : word >> -at;
    }
    return v & mask;
  }
}

template <typename T>
void set_field(T& port, int lsb, int width, std::uint64_t value) {
  if (width == 0) return;
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  value &= mask;
  if constexpr (std::is_integral_v<T>) {
    const auto p = static_cast<std::uint64_t>(port);
    port = static_cast<T>((p & ~(mask << lsb)) | (value << lsb));
  } else {
    const int first = lsb / 32, last = (lsb + width - 1) / 32;
    for (int w = first; w <= last; ++w) {
      const int at = (w - first) * 32 - lsb % 32;
      const auto m = static_cast<std::uint32_t>(at >= 0 ? mask >> at : mask << -at);
      const auto v = static_cast<std::uint32_t>(at >= 0 ? value >> at : value << -at);
      auto& word = port[static_cast<size_t>(w)];
      word = (word & ~m) | v;
    }
  }
}

// Link word (LinkLayout) at bit offset `base`.
template <typename T>
LinkFlit read_flit(const T& port, int base, const LinkLayout& l) {
  LinkFlit f;
  f.valid = get_bit(port, base + LinkLayout::kValid);
  if (!f.valid) return f;
  f.head = get_bit(port, base + LinkLayout::kHead);
  f.tail = get_bit(port, base + LinkLayout::kTail);
  f.vc = static_cast<int>(get_field(port, base + LinkLayout::kVcLsb, l.vc_bits));
  for (int i = 0; i < l.flit_bits; i += 64) {
    const int w = std::min(64, l.flit_bits - i);
    f.data.set(i, w, get_field(port, base + l.data_lsb() + i, w));
  }
  return f;
}

template <typename T>
void write_flit(T& port, int base, const LinkLayout& l, const LinkFlit& f) {
  set_bit(port, base + LinkLayout::kValid, f.valid);
  set_bit(port, base + LinkLayout::kHead, f.valid && f.head);
  set_bit(port, base + LinkLayout::kTail, f.valid && f.tail);
  set_field(port, base + LinkLayout::kVcLsb, l.vc_bits, f.valid ? static_cast<std::uint64_t>(f.vc) : 0);
  for (int i = 0; i < l.flit_bits; i += 64) {
    const int w = std::min(64, l.flit_bits - i);
    set_field(port, base + l.data_lsb() + i, w, f.valid ? f.data.get(i, w) : 0);
  }
}

// Credit word (LinkLayout) at bit offset `base`.
template <typename T>
LinkCredit read_credit(const T& port, int base, const LinkLayout& l) {
  LinkCredit c;
  c.valid = get_bit(port, base + LinkLayout::kCreditValid);
  if (c.valid) c.vc = static_cast<int>(get_field(port, base + LinkLayout::kCreditVcLsb, l.vc_bits));
  if (l.feedback_bits > 0) c.feedback = get_field(port, base + l.feedback_lsb(), l.feedback_bits);
  return c;
}

template <typename T>
void write_credit(T& port, int base, const LinkLayout& l, const LinkCredit& c) {
  set_bit(port, base + LinkLayout::kCreditValid, c.valid);
  set_field(port, base + LinkLayout::kCreditVcLsb, l.vc_bits, c.valid ? static_cast<std::uint64_t>(c.vc) : 0);
  if (l.feedback_bits > 0) set_field(port, base + l.feedback_lsb(), l.feedback_bits, c.feedback);
}

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
DqnRequest read_dqn_request(const Top& top, int r, const ModelShape& s) {
  DqnRequest q;
#ifdef RLROUTE_DQN_AGENT
  q.valid = get_bit(top.agent_req_o, r);
  if (!q.valid) return q;
  const int ab = s.dqn_activation_bits, values = s.dqn_obs_values;
  for (int i = 0; i < values; ++i) {
    std::uint64_t v = get_field(top.agent_obs_o, (r * values + i) * ab, ab);
    if ((v >> (ab - 1)) & 1u) v |= ~std::uint64_t{0} << ab;  // sign-extend
    q.observation.push_back(static_cast<std::int32_t>(static_cast<std::int64_t>(v)));
  }
  q.mask = static_cast<std::uint32_t>(get_field(top.agent_mask_o, r * s.dqn_actions, s.dqn_actions));
  q.tag = static_cast<unsigned>(get_field(top.agent_tag_o, r * s.dqn_tag_bits, s.dqn_tag_bits));
  const int eb = s.dqn_episode_bits + 1;
  const std::uint64_t episode = get_field(top.agent_episode_o, r * eb, eb);
  if ((episode >> s.dqn_episode_bits) & 1u) q.episode = static_cast<int>(episode & ((1u << s.dqn_episode_bits) - 1));
#else
  (void)top;
  (void)r;
  (void)s;
#endif
  return q;
}

// The rewards router `r` reports this cycle, a lane per output port.
template <typename Top>
std::vector<DqnReward> read_dqn_rewards(const Top& top, int r, const ModelShape& s) {
  std::vector<DqnReward> rewards;
#ifdef RLROUTE_DQN_AGENT
  const int ports = s.router_ports;
  for (int q = 0; q < ports; ++q) {
    const int lane = r * ports + q;
    if (!get_bit(top.agent_rew_valid_o, lane)) continue;
    rewards.push_back(
        {q, static_cast<unsigned>(get_field(top.agent_rew_idx_o, lane * s.dqn_episode_bits, s.dqn_episode_bits)),
         static_cast<unsigned>(get_field(top.agent_rew_dist_o, lane * s.dqn_distance_bits, s.dqn_distance_bits)),
         static_cast<std::uint32_t>(get_field(top.agent_rew_latency_o, lane * s.dqn_stamp_bits, s.dqn_stamp_bits))});
  }
#else
  (void)top;
  (void)r;
  (void)s;
#endif
  return rewards;
}

template <typename Top>
void write_dqn_answer(Top& top, int r, const ModelShape& s, const DqnAnswer* a) {
#ifdef RLROUTE_DQN_AGENT
  set_bit(top.agent_done_i, r, a != nullptr);
  set_field(top.agent_tag_i, r * s.dqn_tag_bits, s.dqn_tag_bits, a ? a->tag : 0);
  set_field(top.agent_action_i, r * s.dqn_action_bits, s.dqn_action_bits,
            a && a->action >= 0 ? static_cast<std::uint64_t>(a->action) : 0);
  set_bit(top.agent_action_valid_i, r, a != nullptr && a->action >= 0);
#else
  (void)top;
  (void)r;
  (void)s;
  if (a != nullptr) throw std::logic_error("this model has no DQN agent port");
#endif
}

}  // namespace rlroute::adapter
