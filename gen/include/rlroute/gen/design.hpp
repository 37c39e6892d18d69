// Derived, internal parameters of one design: widths, port maps, the header
// flit layout. Derived once from a validated Config; the emitter and the test
// bench read only this.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rlroute/gen/bits.hpp"
#include "rlroute/gen/config.hpp"
#include "rlroute/gen/link_layout.hpp"
#include "rlroute/gen/router_core.hpp"
#include "rlroute/gen/topology.hpp"

namespace rlroute {

struct Field {
  int lsb = 0;
  int width = 0;
};

// Header flit fields, LSB first (DESIGN.md section 4). `phase` and `inter`
// carry the non-minimal (Valiant) routing state of dragonfly algorithms; they
// have width 0 when the algorithm never routes non-minimally. `crc` and
// `payload` hold the CRC-32 and the payload of a single-flit packet (after
// the timestamp, to the end of the flit); width 0 unless
// router.min_packet_flits = 1. Routers never touch them. `episode` (DQN-routing
// only) is the pending-episode entry the last router opened for the packet
// (its ack goes there; docs/dqn.md).
struct HeaderLayout {
  Field dst, src, vc_class, hops, type, pdor, req_ack, mode, phase, inter, stamp, episode, length, packet_id,
      timestamp, crc, payload;
  // Every field with its name (lower case), LSB first.
  std::vector<std::pair<std::string, Field>> named() const;
};

enum class PacketType : std::uint8_t { Regular = 0, Ack = 1 };

struct Header {
  unsigned dst = 0;  // address (Topology::address_of)
  unsigned src = 0;
  unsigned vc_class = 0;
  unsigned hops = 0;
  PacketType type = PacketType::Regular;
  bool pdor = false;
  bool req_ack = false;
  unsigned mode = 0;
  unsigned phase = 0;  // RouteMode of routing.hpp
  unsigned inter = 0;  // router id (Topology::router_id) of the intermediate
  unsigned stamp = 0;  // Q-adaptive: the cycle the packet arrived at its current router (mod 2^width)
  unsigned episode = 0;  // DQN-routing: the last router's pending-episode entry for the packet
  unsigned length = 0;  // flits, head and footer included
  unsigned packet_id = 0;
  std::uint64_t timestamp = 0;  // injection cycle modulo 2^width
};

struct Design {
  Config cfg;
  Topology topo;
  HeaderLayout header;
  int ports;         // per router
  int vcs;
  int vc_bits;       // width of a VC id
  int port_bits;     // width of a port id
  LinkLayout link;   // the link and credit words
  int flit_bits;
  int buffer_flits;
  RouterCore core;   // how rr_router is built for the algorithm

  std::string module(const std::string& suffix) const { return cfg.name + "_" + suffix; }
  FlitData encode(const Header& h) const;
  Header decode(const FlitData& flit) const;
};

// Throws ConfigError (reported on router.flit_bits) when the header does not fit.
Design derive_design(const Config& cfg);

}  // namespace rlroute
