// tb/src/scoreboard.cpp: every packet delivered exactly once, to the right
// node, with payload and CRC intact; single-flit packets (header, payload and
// CRC in one flit) are checked as strictly as longer ones.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "configs.hpp"
#include "rlroute/gen/design.hpp"
#include "rlroute/tb/scoreboard.hpp"

using namespace rlroute;

namespace {

// A 4x4 torus whose packets may be a single flit (128-bit flits).
Design single_flit_design() {
  Config c = rlroute::test::grid(TopologyKind::Torus, {4, 4});
  c.min_packet_flits = 1;
  c.flit_bits = 128;
  return derive_design(c);
}

// The flits node `src` sends for packet `id` of `length` flits to `dst`.
std::vector<FlitData> packet(const Design& d, int src, int dst, unsigned id, int length) {
  Header h;
  h.src = d.topo.address_of(src);
  h.dst = d.topo.address_of(dst);
  h.packet_id = id;
  h.length = static_cast<unsigned>(length);
  if (length == 1) return {single_flit_packet(d, h)};
  std::vector<FlitData> flits{d.encode(h)};
  std::vector<FlitData> payload;
  for (int i = 0; i < length - 2; ++i) payload.push_back(payload_flit(d, h.src, id, i));
  flits.insert(flits.end(), payload.begin(), payload.end());
  flits.push_back(footer_flit(d, payload));
  return flits;
}

std::string deliver(const Design& d, std::vector<FlitData> flits, int length, int at, Scoreboard* keep = nullptr) {
  Scoreboard local(d);
  Scoreboard& s = keep ? *keep : local;
  s.injected(3, 7, 42, length, 0, 1, true);
  s.delivered(at, flits, 10);
  return s.errors().empty() ? "" : s.errors().front();
}

}  // namespace

TEST(Scoreboard, SingleFlitLayoutFillsTheFlit) {
  const Design d = single_flit_design();
  const HeaderLayout& h = d.header;
  EXPECT_EQ(h.crc.width, 32);
  EXPECT_EQ(h.crc.lsb, h.timestamp.lsb + h.timestamp.width);
  EXPECT_EQ(h.payload.lsb, h.crc.lsb + 32);
  EXPECT_EQ(h.payload.lsb + h.payload.width, 128);
  EXPECT_GE(h.payload.width, 8);
  // Without single-flit packets neither field takes a bit.
  const Design two = derive_design(rlroute::test::grid(TopologyKind::Torus, {4, 4}));
  EXPECT_EQ(two.header.crc.width, 0);
  EXPECT_EQ(two.header.payload.width, 0);
}

TEST(Scoreboard, IntactPacketsOfOneAndMoreFlitsAreDelivered) {
  const Design d = single_flit_design();
  for (const int length : {1, 2, 4}) {
    Scoreboard s(d);
    EXPECT_EQ(deliver(d, packet(d, 3, 7, 42, length), length, 7, &s), "") << length << " flits";
    EXPECT_EQ(s.delivered_count(), 1);
    EXPECT_EQ(s.in_flight(), 0);
  }
}

TEST(Scoreboard, SingleFlitPayloadDamageIsCaught) {
  const Design d = single_flit_design();
  std::vector<FlitData> flits = packet(d, 3, 7, 42, 1);
  const int bit = d.header.payload.lsb + d.header.payload.width - 1;  // the last payload bit
  flits[0].set(bit, 1, flits[0].get(bit, 1) ^ 1);
  Scoreboard s(d);
  EXPECT_NE(deliver(d, flits, 1, 7, &s).find("corrupted: single-flit payload differs from what the source sent"),
            std::string::npos);
  EXPECT_EQ(s.corrupted_count(), 1);
  EXPECT_EQ(s.delivered_count(), 0);
}

TEST(Scoreboard, SingleFlitCrcDamageIsCaught) {
  const Design d = single_flit_design();
  std::vector<FlitData> flits = packet(d, 3, 7, 42, 1);
  flits[0].set(d.header.crc.lsb, 1, flits[0].get(d.header.crc.lsb, 1) ^ 1);
  EXPECT_NE(deliver(d, flits, 1, 7).find("corrupted: single-flit CRC"), std::string::npos);
}

TEST(Scoreboard, LengthMismatchMisrouteAndDuplicateAreCaught) {
  const Design d = single_flit_design();
  // A single flit where two were sent (the footer lost).
  std::vector<FlitData> two = packet(d, 3, 7, 42, 2);
  two.pop_back();
  EXPECT_NE(deliver(d, two, 2, 7).find("corrupted: 1 flits with header length 2, sent 2 flits"), std::string::npos);
  EXPECT_NE(deliver(d, packet(d, 3, 7, 42, 1), 1, 6).find("for node 7 arrived at node 6"), std::string::npos);
  Scoreboard s(d);
  EXPECT_EQ(deliver(d, packet(d, 3, 7, 42, 1), 1, 7, &s), "");
  s.delivered(7, packet(d, 3, 7, 42, 1), 11);
  ASSERT_FALSE(s.errors().empty());
  EXPECT_NE(s.errors().front().find("not in flight (duplicate or forged)"), std::string::npos);
  EXPECT_EQ(s.duplicated_count(), 1);
}
