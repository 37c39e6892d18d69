// Scoreboard: every packet that entered the network is delivered exactly
// once, to the right node, with payload and CRC intact.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/routing.hpp"

namespace rlroute {

// Deterministic payload of flit `index` (0 = first payload flit) of a packet.
FlitData payload_flit(const Design& design, unsigned src_address, unsigned packet_id, int index);
// Footer: CRC-32 (zlib polynomial) of the payload flits' bytes in bits 0..31.
FlitData footer_flit(const Design& design, const std::vector<FlitData>& payload);
std::uint32_t payload_crc(const Design& design, const std::vector<FlitData>& payload);
// A single-flit packet (router.min_packet_flits = 1): the header, the
// deterministic payload in the header's `payload` field and the CRC-32 of
// that field's bytes in its `crc` field.
FlitData single_flit_packet(const Design& design, const Header& header);
// The payload field of a single-flit packet as the source fills it (every
// other bit 0), and the CRC-32 of a payload field's bytes (LSB first, the
// last byte padded with zeros).
FlitData single_flit_payload(const Design& design, unsigned src_address, unsigned packet_id);
std::uint32_t single_flit_crc(const Design& design, const FlitData& flit);

struct DeliveredPacket {
  int src, dst, length;
  int hops;  // router-to-router hops: the header's hop count at ejection
  std::int64_t created, injected, ejected;
  bool measured;  // created in the measurement window
  RouteMode phase = RouteMode::Minimal;  // the header's route phase at ejection
  int inter = -1;                        // the header's intermediate router (non-minimal packets)
  bool pdor = false;                     // DQN-routing: the header's Pdor flag at ejection (fell back to DOR)
  std::uint64_t cookie = 0;              // the application's mark (AppPacket::cookie); 0 for other traffic
  bool minimal() const { return phase == RouteMode::Minimal; }
};

// A reassembled packet (head, payload..., footer; or one flit that is all of
// them) as it arrived at a node, examined: everything that can be checked
// without the record of what was sent, so that it can be done where the
// packet arrives (on the NIC's thread).
struct Arrival {
  Header header;
  int flits = 0;
  // The first thing wrong with the content the header describes (payload,
  // CRC); "" if none, and not looked at when the flit count is not the
  // header's length (the scoreboard reports that).
  std::string content_damage;
};
Arrival examine(const Design& design, const std::vector<FlitData>& flits);

class Scoreboard {
 public:
  explicit Scoreboard(const Design& design) : design_(design) {}
  void injected(int src, int dst, unsigned packet_id, int length, std::int64_t created, std::int64_t injected,
                bool measured, std::uint64_t cookie = 0);
  // Checks a packet arriving at `node` against what was sent: examined
  // here, or already (examine()).
  void delivered(int node, const std::vector<FlitData>& flits, std::int64_t cycle);
  void delivered(int node, const Arrival& arrival, std::int64_t cycle);

  std::int64_t injected_count() const { return injected_; }
  std::int64_t delivered_count() const { return delivered_; }
  std::int64_t corrupted_count() const { return corrupted_; }
  std::int64_t duplicated_count() const { return duplicated_; }
  std::int64_t misrouted_count() const { return misrouted_; }
  std::int64_t in_flight() const { return static_cast<std::int64_t>(in_flight_.size()); }
  std::int64_t measured_in_flight() const { return measured_in_flight_; }
  std::int64_t measured_injected() const { return measured_injected_; }
  const std::vector<std::string>& errors() const { return errors_; }
  const std::vector<DeliveredPacket>& log() const { return log_; }
  std::string describe_in_flight(std::size_t limit) const;

 private:
  struct Record {
    int src, dst, length;
    std::int64_t created, injected;
    bool measured;
    std::uint64_t cookie;
  };
  void error(const std::string& message);
  const Design& design_;
  std::unordered_map<unsigned, Record> in_flight_;
  std::vector<DeliveredPacket> log_;
  std::vector<std::string> errors_;
  std::int64_t injected_ = 0, delivered_ = 0, corrupted_ = 0, duplicated_ = 0, misrouted_ = 0;
  std::int64_t measured_in_flight_ = 0;
  std::int64_t measured_injected_ = 0;
};

}  // namespace rlroute
