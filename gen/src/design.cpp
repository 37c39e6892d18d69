#include "rlroute/gen/design.hpp"

#include <algorithm>
#include <array>
#include <type_traits>
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

namespace {

template <auto Member>
std::uint64_t read_field(const Header& h) {
  return static_cast<std::uint64_t>(h.*Member);
}

template <auto Member>
void write_field(Header& h, std::uint64_t value) {
  using T = std::remove_reference_t<decltype(h.*Member)>;
  h.*Member = static_cast<T>(value);
}

// Every header field, LSB first: its name, its place in the layout and its
// value in a Header (none for the CRC and the payload of a single-flit packet,
// which routers never touch). The layout's names, the encoding and the
// decoding all go through this list.
struct HeaderFieldSpec {
  const char* name;
  Field HeaderLayout::*place;
  std::uint64_t (*read)(const Header&);
  void (*write)(Header&, std::uint64_t);
};

// clang-format off
constexpr std::array<HeaderFieldSpec, 17> kHeaderFields{{
    {"dst",       &HeaderLayout::dst,       read_field<&Header::dst>,       write_field<&Header::dst>},
    {"src",       &HeaderLayout::src,       read_field<&Header::src>,       write_field<&Header::src>},
    {"vc_class",  &HeaderLayout::vc_class,  read_field<&Header::vc_class>,  write_field<&Header::vc_class>},
    {"hops",      &HeaderLayout::hops,      read_field<&Header::hops>,      write_field<&Header::hops>},
    {"type",      &HeaderLayout::type,      read_field<&Header::type>,      write_field<&Header::type>},
    {"pdor",      &HeaderLayout::pdor,      read_field<&Header::pdor>,      write_field<&Header::pdor>},
    {"req_ack",   &HeaderLayout::req_ack,   read_field<&Header::req_ack>,   write_field<&Header::req_ack>},
    {"mode",      &HeaderLayout::mode,      read_field<&Header::mode>,      write_field<&Header::mode>},
    {"phase",     &HeaderLayout::phase,     read_field<&Header::phase>,     write_field<&Header::phase>},
    {"inter",     &HeaderLayout::inter,     read_field<&Header::inter>,     write_field<&Header::inter>},
    {"stamp",     &HeaderLayout::stamp,     read_field<&Header::stamp>,     write_field<&Header::stamp>},
    {"episode",   &HeaderLayout::episode,   read_field<&Header::episode>,   write_field<&Header::episode>},
    {"length",    &HeaderLayout::length,    read_field<&Header::length>,    write_field<&Header::length>},
    {"packet_id", &HeaderLayout::packet_id, read_field<&Header::packet_id>, write_field<&Header::packet_id>},
    {"timestamp", &HeaderLayout::timestamp, read_field<&Header::timestamp>, write_field<&Header::timestamp>},
    {"crc",       &HeaderLayout::crc,       nullptr,                        nullptr},
    {"payload",   &HeaderLayout::payload,   nullptr,                        nullptr},
}};
// clang-format on

}  // namespace

std::vector<std::pair<std::string, Field>> HeaderLayout::named() const {
  std::vector<std::pair<std::string, Field>> fields;
  for (const HeaderFieldSpec& f : kHeaderFields) fields.emplace_back(f.name, this->*f.place);
  return fields;
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
  if (q_table) {
    d.link.feedback_bits = QFeedbackLayout(QTableLayout::rows(d.topo), cfg.q_value_bits).bits();
    d.link.side_band = SideBand::QFeedback;
  }
  const bool acks = cfg.algorithm == RoutingAlgorithm::Dqn && dqn_episode_layout(cfg).enabled();
  h.episode = take(acks ? dqn_episode_layout(cfg).index_bits : 0);
  if (acks) {
    d.link.feedback_bits = dqn_episode_layout(cfg).ack_bits();
    d.link.side_band = SideBand::DqnAck;
  }
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
  FlitData flit;
  for (const HeaderFieldSpec& f : kHeaderFields) {
    if (f.read) flit.set((header.*f.place).lsb, (header.*f.place).width, f.read(v));
  }
  return flit;
}

Header Design::decode(const FlitData& flit) const {
  Header v;
  for (const HeaderFieldSpec& f : kHeaderFields) {
    if (f.write) f.write(v, flit.get((header.*f.place).lsb, (header.*f.place).width));
  }
  return v;
}

}  // namespace rlroute
