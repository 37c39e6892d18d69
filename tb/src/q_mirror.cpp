// Q-adaptive's tables kept by the reference; see the header.
#include "rlroute/tb/q_mirror.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "rlroute/gen/q_codes.hpp"

namespace rlroute {

QMirror::QMirror(const Design& design)
    : design_(design),
      topo_(design.topo),
      layout_(design),
      format_{static_cast<unsigned>(design.cfg.q_value_bits), static_cast<unsigned>(design.cfg.q_fraction_bits)},
      rates_{kQRateBits, q_codes(design.cfg).alpha, q_codes(design.cfg).beta},
      columns_(layout_.columns()),
      row_bits_(std::max(1, bits_for(layout_.rows()))),
      tables_(static_cast<size_t>(topo_.num_routers())),
      owed_(static_cast<size_t>(topo_.num_routers() * design.ports)) {
  for (int router = 0; router < topo_.num_routers(); ++router) {
    auto& t = tables_[static_cast<size_t>(router)];
    for (int row = 0; row < layout_.rows(); ++row) {
      const int group = layout_.dst_group_of_row(router, row);
      for (int c = 0; c < columns_; ++c) {
        t.push_back(format_.from_cycles(static_cast<std::uint64_t>(layout_.initial_cycles(router, group, c))));
      }
    }
  }
}

void QMirror::begin_cycle(std::int64_t cycle) {
  // A decision in cycle t - 1 read the table as the edge before it left it:
  // the feedback that reached a router's input up to cycle t - 2 is in.
  auto due = [cycle](const Update& u) { return u.cycle <= cycle - 2; };
  for (const Update& u : in_flight_) {
    if (!due(u)) continue;
    std::uint32_t& q = tables_[static_cast<size_t>(u.router)][static_cast<size_t>(u.row * columns_ + u.column)];
    q = ref::q_update(format_, rates_, q, u.target);
    ++updates_;
  }
  std::erase_if(in_flight_, due);
}

std::uint32_t QMirror::q_y(int router, int row) const {
  if (row < 0) return 0;  // in the destination group
  const auto& t = tables_[static_cast<size_t>(router)];
  const auto first = t.begin() + row * columns_;
  return *std::min_element(first, first + columns_);
}

void QMirror::head_arrived(int router, int port, unsigned key, int src, int dst, std::int64_t cycle) {
  const std::int64_t before = arrived_.count(key) ? arrived_[key] : cycle;
  arrived_[key] = cycle;
  if (topo_.is_ni_port(port)) return;
  const int dst_group = topo_.group_of(topo_.router_of_node(dst));
  const bool outside = topo_.group_of(router) != dst_group;
  if (!outside && !topo_.is_global_port(port)) return;  // no feedback into the destination group's local links
  const int up = topo_.neighbor(router, port)->router;
  owed_[static_cast<size_t>(router * design_.ports + port)].push_back(
      {key, layout_.row(up, src, dst), cycle - before, outside ? layout_.row(router, src, dst) : -1, false, 0, 0});
}

std::string QMirror::feedback_sent(int router, int port, std::uint64_t feedback, std::int64_t cycle) {
  if ((feedback & 1u) == 0) return "";
  const int row = static_cast<int>((feedback >> 1) & ((1u << row_bits_) - 1));
  const auto target = static_cast<std::uint32_t>((feedback >> (1 + row_bits_)) & format_.max_code());
  if (topo_.is_ni_port(port)) {
    return fmt::format("Q feedback check: router {} sent feedback to the node on its port {} (cycle {})", router,
                       port, cycle);
  }
  std::vector<Owed>& owed = owed_[static_cast<size_t>(router * design_.ports + port)];
  auto target_of = [&](const Owed& o, std::uint32_t q_y) {
    return ref::q_target(format_, static_cast<std::uint64_t>(o.r) & 0xffffu, q_y);
  };
  std::string expected;
  Owed* matched = nullptr;
  for (Owed& o : owed) {
    if (o.fed || o.row_up != row) continue;
    const std::uint32_t q_y_here = q_y(router, o.row_here);
    if (target_of(o, q_y_here) == target) {
      matched = &o;
      break;
    }
    expected += fmt::format(" packet {:#x}: {} (r = {}, Q_y = {})", o.key, target_of(o, q_y_here), o.r, q_y_here);
  }
  if (matched == nullptr) {
    // A head already paid whose word an unpaid head of the row fits as
    // well: that word was the unpaid head's, and this one is the paid head's.
    for (Owed& o : owed) {
      if (!o.fed || o.row_up != row || target_of(o, q_y(router, o.row_here)) != target) continue;
      const auto unpaid = std::find_if(owed.begin(), owed.end(), [&](const Owed& u) {
        return !u.fed && u.row_up == row && target_of(u, o.paid_q_y) == o.paid_target;
      });
      if (unpaid == owed.end()) continue;
      unpaid->fed = true;
      unpaid->paid_target = o.paid_target;
      unpaid->paid_q_y = o.paid_q_y;
      matched = &o;
      break;
    }
  }
  if (matched != nullptr) {
    matched->fed = true;
    matched->paid_target = target;
    matched->paid_q_y = q_y(router, matched->row_here);
    const PortRef up = *topo_.neighbor(router, port);
    in_flight_.push_back({cycle + topo_.credit_latency(up.port) - 1, up.router, layout_.column_of_port(up.port), row,
                          target});
    return "";
  }
  return fmt::format(
      "Q feedback check: router {} port {} sent row {} target {} at cycle {}, which no head it took in on that port "
      "owes (the reference's targets for that row:{})",
      router, port, row, target, cycle, expected.empty() ? " none" : expected);
}

std::string QMirror::head_left(int router, int port, unsigned key) {
  if (topo_.is_ni_port(port)) arrived_.erase(key);  // ejected: its id may come back
  for (int in = 0; in < design_.ports; ++in) {
    std::vector<Owed>& owed = owed_[static_cast<size_t>(router * design_.ports + in)];
    const auto it = std::find_if(owed.begin(), owed.end(), [key](const Owed& o) { return o.key == key; });
    if (it == owed.end()) continue;
    if (!it->fed) {
      // The word matched to another head of the row may have been this one's
      // (the same target with that word's Q_y); that head then still owes.
      const auto twin = std::find_if(owed.begin(), owed.end(), [&](const Owed& o) {
        return o.fed && o.key != key && o.row_up == it->row_up &&
               ref::q_target(format_, static_cast<std::uint64_t>(it->r) & 0xffffu, o.paid_q_y) == o.paid_target;
      });
      if (twin == owed.end()) {
        return fmt::format("Q feedback check: packet {:#x} left router {} without the feedback it owes its upstream "
                           "router (row {}, r = {})",
                           key, router, it->row_up, it->r);
      }
      twin->fed = false;
    }
    owed.erase(it);
    return "";
  }
  return "";
}

double QMirror::mean_cycles() const {
  double sum = 0;
  std::size_t n = 0;
  for (const auto& t : tables_) {
    for (std::uint32_t q : t) sum += q;
    n += t.size();
  }
  return n == 0 ? 0.0 : sum / static_cast<double>(n) / static_cast<double>(1u << format_.fraction_bits);
}

std::string QMirror::dump(int router) const {
  std::string s = fmt::format("# Q-table of router {} ({}): {} rows x {} columns (network ports {}..{}), cycles\n",
                              router, topo_.router_name(router), layout_.rows(), columns_, layout_.port_of_column(0),
                              layout_.port_of_column(columns_ - 1));
  const auto& t = tables_[static_cast<size_t>(router)];
  const double scale = 1.0 / static_cast<double>(1u << format_.fraction_bits);
  for (int row = 0; row < layout_.rows(); ++row) {
    s += fmt::format("row {:3} (group {:2}, node {}):", row, layout_.dst_group_of_row(router, row),
                     row % topo_.nodes_per_router());
    for (int c = 0; c < columns_; ++c) s += fmt::format(" {:8.3f}", t[static_cast<size_t>(row * columns_ + c)] * scale);
    s += "\n";
  }
  return s;
}

}  // namespace rlroute
