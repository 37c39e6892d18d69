// A fabric is the network between the NICs: either the C++ harness of N
// Verilated routers joined by C++ link models, or the Verilated network top.
// Per cycle the simulation reads the NI outputs, sets the NI inputs, then
// calls step() (one clock edge everywhere).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rlroute/design.hpp"
#include "rlroute/model.hpp"
#include "rlroute/model_build.hpp"
#include "rlroute/routing.hpp"

namespace rlroute {

class Fabric {
 public:
  virtual ~Fabric() = default;
  virtual LinkFlit ni_flit_out(int node) const = 0;
  virtual LinkCredit ni_credit_out(int node) const = 0;
  virtual void set_ni_flit_in(int node, const LinkFlit& flit) = 0;
  virtual void set_ni_credit_in(int node, const LinkCredit& credit) = 0;
  virtual void reset() = 0;
  virtual void step() = 0;
  // Whether any flit crossed a router-to-router link in the last step (only
  // the harness sees inside; the network top reports false).
  virtual bool moved_inside() const = 0;
  // First violation found (route checker, credit protocol); empty if none.
  virtual std::string violation() const = 0;
  // Human-readable state of every occupied VC, for deadlock reports.
  virtual std::string dump_occupied() const = 0;
  // Router-to-router hops the harness has seen a packet take so far, keyed by
  // (src address << 16 | packet id), while its head is in the network (the
  // count is dropped when the head is ejected, so that packet ids can wrap);
  // -1 if the fabric cannot see it.
  virtual int observed_hops(unsigned src_address, unsigned packet_id) const = 0;
  virtual void forget_packet(unsigned src_address, unsigned packet_id) = 0;
  // Link utilisation: flits sent on router-to-router links so far.
  virtual std::uint64_t network_link_flits() const = 0;
  // The same per output port: flits sent so far out of each router port that
  // leads to another router, indexed router * ports + port (NI ports stay 0).
  // Empty when the fabric cannot see its links (the network top).
  virtual std::vector<std::uint64_t> link_flits() const = 0;
};

// Fixed-latency delay line for link words. latency 1 = no extra register.
template <typename T>
class DelayLine {
 public:
  explicit DelayLine(int latency) : stages_(static_cast<size_t>(latency - 1)) {}
  T push(const T& value) {
    if (stages_.empty()) return value;
    stages_.push_back(value);
    T out = stages_.front();
    stages_.pop_front();
    return out;
  }

 private:
  std::deque<T> stages_;
};

class HarnessFabric : public Fabric {
 public:
  HarnessFabric(const Design& design, const RoutingRelation& relation, const ModelFactory& factory);
  LinkFlit ni_flit_out(int node) const override;
  LinkCredit ni_credit_out(int node) const override;
  void set_ni_flit_in(int node, const LinkFlit& flit) override;
  void set_ni_credit_in(int node, const LinkCredit& credit) override;
  void reset() override;
  void step() override;
  bool moved_inside() const override { return moved_; }
  std::string violation() const override { return violation_; }
  std::string dump_occupied() const override;
  int observed_hops(unsigned src_address, unsigned packet_id) const override;
  void forget_packet(unsigned src_address, unsigned packet_id) override;
  std::uint64_t network_link_flits() const override { return link_flits_; }
  std::vector<std::uint64_t> link_flits() const override { return port_flits_; }

 private:
  struct Link {
    int from_router, from_port, to_router, to_port;
    DelayLine<LinkFlit> flits;
    DelayLine<LinkCredit> credits;  // to_router's credit_o -> from_router's credit_i
  };
  struct InputVc {
    int occupancy = 0;        // flits in the buffer (entered minus credited)
    std::deque<unsigned> packets;  // keys of packets whose head entered, oldest first
  };
  void observe_input(int router, int port, const LinkFlit& flit);
  void observe_output(int router, int port, const LinkFlit& flit);
  void fail(const std::string& what);
  InputVc& input_vc(int router, int port, int vc);

  const Design& design_;
  const RoutingRelation& relation_;
  std::vector<std::unique_ptr<RouterModel>> routers_;
  std::vector<Link> links_;
  std::vector<InputVc> input_vcs_;
  // Packet key -> (input port, input VC) of the head in each router it is in.
  // Per router: packet key -> where its head entered and its route state then.
  struct HeadIn {
    int port;
    int vc;
    RouteState state;
  };
  std::vector<std::map<unsigned, HeadIn>> heads_in_router_;
  std::map<unsigned, int> hops_;  // packet key -> router-to-router hops seen
  // Per router output port and VC: key of the packet that owns it (-1 none).
  std::vector<long> output_owner_;
  bool moved_ = false;
  std::uint64_t link_flits_ = 0;
  std::vector<std::uint64_t> port_flits_;  // [router * ports + port], router-to-router ports only
  std::string violation_;
};

class NetworkTopFabric : public Fabric {
 public:
  NetworkTopFabric(const Design& design, const ModelFactory& factory);
  LinkFlit ni_flit_out(int node) const override { return net_->flit_out(node); }
  LinkCredit ni_credit_out(int node) const override { return net_->credit_out(node); }
  void set_ni_flit_in(int node, const LinkFlit& f) override { net_->set_flit_in(node, f); }
  void set_ni_credit_in(int node, const LinkCredit& c) override { net_->set_credit_in(node, c); }
  void reset() override { net_->reset(); }
  void step() override { net_->tick(); }
  bool moved_inside() const override { return false; }
  std::string violation() const override { return {}; }
  std::string dump_occupied() const override { return "(network top: internal state not visible; rerun with the harness)"; }
  int observed_hops(unsigned, unsigned) const override { return -1; }
  void forget_packet(unsigned, unsigned) override {}
  std::uint64_t network_link_flits() const override { return 0; }
  std::vector<std::uint64_t> link_flits() const override { return {}; }
  NetworkModel& model() { return *net_; }

 private:
  std::unique_ptr<NetworkModel> net_;
};

inline unsigned packet_key(unsigned src_address, unsigned packet_id) {
  return (src_address << 16) | (packet_id & 0xffffu);
}

}  // namespace rlroute
