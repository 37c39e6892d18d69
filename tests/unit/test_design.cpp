// gen/src/design.cpp: the header layout and its encoding.
#include <gtest/gtest.h>

#include "rlroute/gen/config.hpp"
#include "rlroute/gen/design.hpp"

#include "configs.hpp"

using namespace rlroute;
using rlroute::test::grid;

TEST(Design, HeaderMustFitInTheFlit) {
  Config c = grid(TopologyKind::Torus, {16, 16, 16}, 2, 8);
  c.flit_bits = 32;
  try {
    derive_design(c);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("router.flit_bits = 32: the header flit needs"), std::string::npos) << e.what();
  }
}

TEST(Design, HeaderEncodeDecodeRoundTrip) {
  const Design d = derive_design(grid(TopologyKind::Torus, {8, 8}));
  Header h;
  h.dst = 0x2a;
  h.src = 0x15;
  h.vc_class = 1;
  h.hops = 9;
  h.type = PacketType::Ack;
  h.pdor = true;
  h.req_ack = true;
  h.mode = 2;
  h.length = 4;
  h.packet_id = 0xbeef;
  h.timestamp = 123456;
  const Header back = d.decode(d.encode(h));
  EXPECT_EQ(back.dst, h.dst);
  EXPECT_EQ(back.src, h.src);
  EXPECT_EQ(back.hops, h.hops);
  EXPECT_EQ(back.type, h.type);
  EXPECT_TRUE(back.pdor);
  EXPECT_TRUE(back.req_ack);
  EXPECT_EQ(back.mode, h.mode);
  EXPECT_EQ(back.length, h.length);
  EXPECT_EQ(back.packet_id, h.packet_id);
  EXPECT_EQ(back.timestamp, h.timestamp);
}

TEST(Design, SingleFlitPacketsNeedRoomForCrcAndPayload) {
  Config c = grid(TopologyKind::Torus, {4, 4});
  c.min_packet_flits = 1;
  try {
    derive_design(c);  // 64-bit flits
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "t.toml: router.flit_bits = 64: a single-flit packet (router.min_packet_flits = 1) needs 88 bits: "
              "the header (40 bits for 16 nodes, addresses of 4 bits), a 32-bit CRC, a timestamp of at least 8 "
              "bits and at least 8 payload bits");
  }
  c.flit_bits = 96;
  const Design d = derive_design(c);
  EXPECT_EQ(d.header.timestamp.width, 16);  // what is left after the CRC and the least payload
  EXPECT_EQ(d.header.crc.lsb, 56);
  EXPECT_EQ(d.header.payload.lsb, 88);
  EXPECT_EQ(d.header.payload.width, 8);
}
