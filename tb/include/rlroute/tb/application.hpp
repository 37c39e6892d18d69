// An application model: decides, cycle by cycle, the packets the nodes send,
// instead of Bernoulli sources at an offered load, and hears when each of
// them arrives. The DPSNN model (dpsnn_app.hpp) and the SystemC host layer
// (host/) are applications.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rlroute/tb/scoreboard.hpp"

namespace rlroute {

// A packet an application posts: from node `src` to node `dst`, `length`
// flits (header and footer included). `cookie` is the application's own
// mark; the packet brings it back on delivery (DeliveredPacket::cookie).
struct AppPacket {
  int src = 0, dst = 0, length = 0;
  std::uint64_t cookie = 0;
};

// The lengths of the packets that carry a message of `bytes` bytes in flits
// of `flit_bits` payload bits: a header, the payload, a footer, at most
// `max_packet_flits` (>= 3) and padded to at least `min_packet_flits`. A
// message of 0 bytes is one packet without payload.
std::vector<int> message_packet_lengths(std::int64_t bytes, int flit_bits, int min_packet_flits,
                                        int max_packet_flits);

class Application {
 public:
  virtual ~Application() = default;
  // One cycle of the application, before the NICs run. `network_empty`: no
  // packet queued at a source or in flight. Returns the packets posted this
  // cycle, each node's in its sending order.
  virtual std::vector<AppPacket> tick(std::int64_t cycle, bool network_empty) = 0;
  // The NIC of `node` started injecting the packet marked `cookie` this
  // cycle (its flits follow one per cycle).
  virtual void injected(int node, std::uint64_t cookie, std::int64_t cycle) {
    (void)node, (void)cookie, (void)cycle;
  }
  // A packet arrived whole and intact (its tail ejected this cycle).
  virtual void delivered(const DeliveredPacket& packet) { (void)packet; }
  // True once it will post nothing more: the run ends when the network is
  // empty too, before the end of the measurement window.
  virtual bool finished() const { return false; }
  // The first thing that went wrong inside the application (a receive that
  // nothing in the network can match, ...); "" if none. Ends the run.
  virtual std::string failure() const { return ""; }
  // What it did: SimResult::app, the results JSON's "app" object (with its
  // "name"), and one line for the console.
  virtual nlohmann::ordered_json report() const = 0;
  virtual std::string summary() const = 0;
};

}  // namespace rlroute
