#include "rlroute/gen/design.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "rlroute/gen/dqn_episodes.hpp"
#include "rlroute/gen/q_codes.hpp"
#include "rlroute/gen/q_table_layout.hpp"

namespace rlroute {

namespace {
constexpr int kPacketIdBits = 16;
constexpr int kMinTimestampBits = 8;
constexpr int kMaxTimestampBits = 32;
constexpr int kCrcBits = 32;                  // CRC-32 of the payload
constexpr int kMinSingleFlitPayloadBits = 8;  // the least payload a single-flit packet may carry
}  // namespace

std::vector<std::pair<std::string, Field>> HeaderLayout::named() const {
  return {{"dst", dst},         {"src", src},       {"vc_class", vc_class}, {"hops", hops},
          {"type", type},       {"pdor", pdor},     {"req_ack", req_ack},   {"mode", mode},
          {"phase", phase},     {"inter", inter},   {"stamp", stamp},       {"episode", episode},
          {"length", length},
          {"packet_id", packet_id},
          {"timestamp", timestamp}, {"crc", crc},         {"payload", payload}};
}

Design derive_design(const Config& cfg) {
  Design d{.cfg = cfg, .topo = Topology(cfg), .header = {}, .ports = 0, .vcs = cfg.vcs,
           .vc_bits = 0, .port_bits = 0, .link = {},
           .flit_bits = cfg.flit_bits, .buffer_flits = cfg.buffer_flits, .core = {}};
  d.ports = d.topo.num_ports();
  d.vc_bits = std::max(1, bits_for(d.vcs));
  d.port_bits = std::max(1, bits_for(d.ports));
  d.link = LinkLayout{.vc_bits = d.vc_bits, .flit_bits = d.flit_bits};
  d.core = derive_router_core(cfg, d.topo);

  int next = 0;
  auto take = [&next](int width) {
    Field f{next, width};
    next += width;
    return f;
  };
  HeaderLayout& h = d.header;
  const int address_bits = std::max(1, d.topo.address_bits());
  h.dst = take(address_bits);
  h.src = take(address_bits);
  h.vc_class = take(2);
  h.hops = take(kHeaderHopBits);
  h.type = take(1);
  h.pdor = take(1);
  h.req_ack = take(1);
  h.mode = take(2);
  const AlgorithmTraits& algorithm = traits(cfg.algorithm);
  const bool q_table = algorithm.choice == PathChoice::QTable;
  h.phase = take(algorithm.nonminimal() ? 2 : 0);
  h.inter = take(algorithm.names_intermediate() ? d.topo.router_id_bits() : 0);
  h.stamp = take(q_table ? kQStampBits : 0);
  if (q_table) d.link.feedback_bits = q_feedback_bits(QTableLayout::rows(d.topo), cfg.q_value_bits);
  const bool dqn = cfg.algorithm == RoutingAlgorithm::Dqn;
  h.episode = take(dqn && dqn_episode_layout(cfg).enabled() ? dqn_episode_layout(cfg).index_bits : 0);
  if (dqn) d.link.feedback_bits = dqn_episode_layout(cfg).ack_bits();
  h.length = take(bits_for(cfg.max_packet_flits + 1));
  h.packet_id = take(kPacketIdBits);
  // A single-flit packet also carries its CRC and payload in the head flit.
  const bool single = cfg.min_packet_flits == 1;
  const int reserved = single ? kCrcBits + kMinSingleFlitPayloadBits : 0;
  const int left = cfg.flit_bits - next - reserved;
  if (left < kMinTimestampBits) {
    if (single) {
      config_fail(cfg, "router.flit_bits", std::to_string(cfg.flit_bits),
                  fmt::format("a single-flit packet (router.min_packet_flits = 1) needs {} bits: the header ({} "
                              "bits for {} nodes, addresses of {} bits), a {}-bit CRC, a timestamp of at least {} "
                              "bits and at least {} payload bits",
                              next + reserved + kMinTimestampBits, next, d.topo.num_nodes(), address_bits, kCrcBits,
                              kMinTimestampBits, kMinSingleFlitPayloadBits));
    }
    config_fail(cfg, "router.flit_bits", std::to_string(cfg.flit_bits),
                fmt::format("the header flit needs {} bits for {} nodes (addresses of {} bits) plus "
                            "a timestamp of at least {} bits",
                            next + kMinTimestampBits, d.topo.num_nodes(), address_bits,
                            kMinTimestampBits));
  }
  h.timestamp = take(std::min(left, kMaxTimestampBits));
  if (single) {
    h.crc = take(kCrcBits);
    h.payload = take(cfg.flit_bits - next);
  } else {
    h.crc = Field{next, 0};
    h.payload = Field{next, 0};
  }
  return d;
}

FlitData Design::encode(const Header& v) const {
  FlitData f;
  f.set(header.dst.lsb, header.dst.width, v.dst);
  f.set(header.src.lsb, header.src.width, v.src);
  f.set(header.vc_class.lsb, header.vc_class.width, v.vc_class);
  f.set(header.hops.lsb, header.hops.width, v.hops);
  f.set(header.type.lsb, header.type.width, static_cast<unsigned>(v.type));
  f.set(header.pdor.lsb, header.pdor.width, v.pdor);
  f.set(header.req_ack.lsb, header.req_ack.width, v.req_ack);
  f.set(header.mode.lsb, header.mode.width, v.mode);
  f.set(header.phase.lsb, header.phase.width, v.phase);
  f.set(header.inter.lsb, header.inter.width, v.inter);
  f.set(header.stamp.lsb, header.stamp.width, v.stamp);
  f.set(header.episode.lsb, header.episode.width, v.episode);
  f.set(header.length.lsb, header.length.width, v.length);
  f.set(header.packet_id.lsb, header.packet_id.width, v.packet_id);
  f.set(header.timestamp.lsb, header.timestamp.width, v.timestamp);
  return f;
}

Header Design::decode(const FlitData& f) const {
  Header v;
  v.dst = static_cast<unsigned>(f.get(header.dst.lsb, header.dst.width));
  v.src = static_cast<unsigned>(f.get(header.src.lsb, header.src.width));
  v.vc_class = static_cast<unsigned>(f.get(header.vc_class.lsb, header.vc_class.width));
  v.hops = static_cast<unsigned>(f.get(header.hops.lsb, header.hops.width));
  v.type = static_cast<PacketType>(f.get(header.type.lsb, header.type.width));
  v.pdor = f.get(header.pdor.lsb, header.pdor.width) != 0;  // width 0 (not DQN-routing): false
  v.req_ack = f.get(header.req_ack.lsb, header.req_ack.width) != 0;
  v.mode = static_cast<unsigned>(f.get(header.mode.lsb, header.mode.width));
  v.phase = static_cast<unsigned>(f.get(header.phase.lsb, header.phase.width));
  v.inter = static_cast<unsigned>(f.get(header.inter.lsb, header.inter.width));
  v.stamp = static_cast<unsigned>(f.get(header.stamp.lsb, header.stamp.width));
  v.episode = static_cast<unsigned>(f.get(header.episode.lsb, header.episode.width));
  v.length = static_cast<unsigned>(f.get(header.length.lsb, header.length.width));
  v.packet_id = static_cast<unsigned>(f.get(header.packet_id.lsb, header.packet_id.width));
  v.timestamp = f.get(header.timestamp.lsb, header.timestamp.width);
  return v;
}

}  // namespace rlroute
