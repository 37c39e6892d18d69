#include "rlroute/tb/scoreboard.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include "rlroute/tb/fabric.hpp"

namespace rlroute {

namespace {
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

FlitData payload_flit(const Design& design, unsigned src_address, unsigned packet_id, int index) {
  FlitData f;
  const std::uint64_t base = (static_cast<std::uint64_t>(src_address) << 40) ^
                             (static_cast<std::uint64_t>(packet_id) << 20) ^ static_cast<std::uint64_t>(index);
  for (int i = 0; i < design.flit_bits; i += 64) {
    f.set(i, std::min(64, design.flit_bits - i), splitmix64(base * 31 + static_cast<std::uint64_t>(i)));
  }
  return f;
}

std::uint32_t payload_crc(const Design& design, const std::vector<FlitData>& payload) {
  uLong crc = crc32(0L, Z_NULL, 0);
  for (const FlitData& f : payload) {
    for (int byte = 0; byte < design.flit_bits / 8; ++byte) {
      const auto b = static_cast<Bytef>(f.get(byte * 8, 8));
      crc = crc32(crc, &b, 1);
    }
  }
  return static_cast<std::uint32_t>(crc);
}

FlitData footer_flit(const Design& design, const std::vector<FlitData>& payload) {
  FlitData f;
  f.set(0, 32, payload_crc(design, payload));
  return f;
}

FlitData single_flit_payload(const Design& design, unsigned src_address, unsigned packet_id) {
  const Field field = design.header.payload;
  const FlitData bits = payload_flit(design, src_address, packet_id, 0);
  FlitData f;
  for (int i = 0; i < field.width; i += 64) {
    const int width = std::min(64, field.width - i);
    f.set(field.lsb + i, width, bits.get(i, width));
  }
  return f;
}

std::uint32_t single_flit_crc(const Design& design, const FlitData& flit) {
  const Field field = design.header.payload;
  uLong crc = crc32(0L, Z_NULL, 0);
  for (int i = 0; i < field.width; i += 8) {
    const auto b = static_cast<Bytef>(flit.get(field.lsb + i, std::min(8, field.width - i)));
    crc = crc32(crc, &b, 1);
  }
  return static_cast<std::uint32_t>(crc);
}

FlitData single_flit_packet(const Design& design, const Header& header) {
  FlitData f = design.encode(header);
  const FlitData payload = single_flit_payload(design, header.src, header.packet_id);
  for (std::size_t w = 0; w < f.words.size(); ++w) f.words[w] |= payload.words[w];
  f.set(design.header.crc.lsb, design.header.crc.width, single_flit_crc(design, payload));
  return f;
}

void Scoreboard::error(const std::string& message) {
  if (errors_.size() < 20) errors_.push_back(message);
}

void Scoreboard::injected(int src, int dst, unsigned packet_id, int length, std::int64_t created,
                          std::int64_t injected, bool measured, std::uint64_t cookie) {
  const unsigned key = packet_key(design_.topo.address_of(src), packet_id);
  if (in_flight_.count(key)) error(fmt::format("node {} reused packet id {} while it was in flight", src, packet_id));
  in_flight_[key] = Record{src, dst, length, created, injected, measured, cookie};
  ++injected_;
  if (measured) {
    ++measured_in_flight_;
    ++measured_injected_;
  }
}

Arrival examine(const Design& design, const std::vector<FlitData>& flits) {
  Arrival a;
  a.header = design.decode(flits.front());
  a.flits = static_cast<int>(flits.size());
  const Header& h = a.header;
  if (flits.size() != h.length) return a;  // Scoreboard::delivered() reports the length
  std::string& damage = a.content_damage;
  if (flits.size() == 1) {
    const Field pf = design.header.payload, cf = design.header.crc;
    const FlitData expected = single_flit_payload(design, h.src, h.packet_id);
    for (int i = 0; damage.empty() && i < pf.width; i += 64) {
      const int width = std::min(64, pf.width - i);
      if (flits[0].get(pf.lsb + i, width) != expected.get(pf.lsb + i, width)) {
        damage = "single-flit payload differs from what the source sent";
      }
    }
    const auto crc = static_cast<std::uint32_t>(flits[0].get(cf.lsb, cf.width));
    if (damage.empty() && crc != single_flit_crc(design, flits[0])) {
      damage = fmt::format("single-flit CRC {:08x}, CRC of the payload {:08x}", crc, single_flit_crc(design, flits[0]));
    }
  } else {
    const std::vector<FlitData> payload(flits.begin() + 1, flits.end() - 1);
    for (size_t i = 0; damage.empty() && i < payload.size(); ++i) {
      if (!(payload[i] == payload_flit(design, h.src, h.packet_id, static_cast<int>(i)))) {
        damage = fmt::format("payload flit {} differs from what the source sent", i);
      }
    }
    const std::uint32_t crc = static_cast<std::uint32_t>(flits.back().get(0, 32));
    if (damage.empty() && crc != payload_crc(design, payload)) {
      damage = fmt::format("footer CRC {:08x}, CRC of the payload {:08x}", crc, payload_crc(design, payload));
    }
  }
  return a;
}

void Scoreboard::delivered(int node, const std::vector<FlitData>& flits, std::int64_t cycle) {
  delivered(node, examine(design_, flits), cycle);
}

void Scoreboard::delivered(int node, const Arrival& arrival, std::int64_t cycle) {
  const Header& h = arrival.header;
  const unsigned key = packet_key(h.src, h.packet_id);
  auto it = in_flight_.find(key);
  if (it == in_flight_.end()) {
    ++duplicated_;
    error(fmt::format("cycle {}: node {} received packet {:#x} (src address {:#x}, id {}) that is not in flight "
                      "(duplicate or forged)", cycle, node, key, h.src, h.packet_id));
    return;
  }
  const Record r = it->second;
  bool ok = true;
  if (r.dst != node) {
    ++misrouted_;
    ok = false;
    error(fmt::format("cycle {}: packet {:#x} from node {} for node {} arrived at node {}", cycle, key, r.src, r.dst, node));
  }
  // The first thing wrong with the packet's content, if anything.
  const std::string damage =
      arrival.flits != r.length || h.length != static_cast<unsigned>(r.length)
          ? fmt::format("{} flits with header length {}, sent {} flits", arrival.flits, h.length, r.length)
          : arrival.content_damage;
  if (!damage.empty()) {
    ++corrupted_;
    ok = false;
    error(fmt::format("cycle {}: packet {:#x} from node {} arrived at node {} corrupted: {}", cycle, key, r.src, node,
                      damage));
  }
  in_flight_.erase(it);
  if (r.measured) --measured_in_flight_;
  if (!ok) return;
  ++delivered_;
  log_.push_back(DeliveredPacket{r.src, r.dst, r.length, static_cast<int>(h.hops), r.created, r.injected, cycle,
                                 r.measured, static_cast<RouteMode>(h.phase),
                                 h.phase == 0 ? -1 : route_state_of(design_, h).inter, h.pdor, r.cookie});
}

std::string Scoreboard::describe_in_flight(std::size_t limit) const {
  std::string s;
  std::size_t n = 0;
  for (const auto& [key, r] : in_flight_) {
    if (n++ == limit) {
      s += fmt::format("  ... {} more\n", in_flight_.size() - limit);
      break;
    }
    s += fmt::format("  packet {:#x}: node {} -> node {}, {} flits, injected at cycle {}\n", key, r.src, r.dst,
                     r.length, r.injected);
  }
  return s;
}

}  // namespace rlroute
