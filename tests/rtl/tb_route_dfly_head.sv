// Test wrapper: the dragonfly route unit with its decision at the head of the
// VC (rr_route_dfly HEAD = 1 followed by rr_ugal_decide and the input port's
// header patch), presented with the ports of the buffer-write unit, so that
// test_rr_route_dfly.cpp checks the split decision with the same models and
// cases as the unit that decides at buffer write.
module tb_route_dfly_head #(
  parameter int unsigned P = 7,
  parameter int unsigned V = 4,
  parameter int unsigned FLIT_W = 64,
  parameter int unsigned NUM_NI = 2,
  parameter int unsigned A = 4,
  parameter int unsigned H = 2,
  parameter int unsigned NUM_G = 9,
  parameter int unsigned LINKS_PER_PAIR = 1,
  parameter bit          PALMTREE = 1'b0,
  parameter int unsigned GB = 4,
  parameter int unsigned IB = 2,
  parameter int unsigned LOCAL_W = 1,
  parameter int unsigned DST_LSB = 0,
  parameter int unsigned SRC_LSB = 0,
  parameter int unsigned PHASE_LSB = 0,
  parameter int unsigned INTER_LSB = 0,
  parameter bit          ROUTE_STATE = 1'b1,
  parameter bit          ALWAYS_VALIANT = 1'b0,
  parameter bit          GROUP_INTERMEDIATE = 1'b1,
  parameter bit          ADAPTIVE = 1'b1,
  parameter bit          CONTENTION = 1'b0,
  parameter bit          REDIVERT = 1'b0,
  parameter int unsigned LEVELS = 2,
  parameter int          BIAS = 0,
  parameter bit          RULE_DOUBLE = 1'b0,
  parameter bit          INTRA_VALIANT = 1'b0,
  parameter int unsigned OCC_W = 8,
  parameter int unsigned DEMAND_W = 8,
  parameter int unsigned CFW = 4,
  parameter int unsigned PORT = 0,
  parameter int unsigned SEED = 1,
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned ID_W = GB + IB,
  localparam int unsigned HW = rr_pkg::UGAL_HOPS_W,
  localparam int unsigned DOW = rr_pkg::ugal_operands_width(GB)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [ID_W-1:0]      id_i,
  input  logic [FLIT_W-1:0]         hdr_i,
  input  logic [PW-1:0]        in_port_i,
  input  logic [VCW-1:0]       in_vc_i,
  input  logic [P*OCC_W-1:0]   occ_i,
  input  logic [P*DEMAND_W-1:0] dem_i,
  input  logic [NUM_G*CFW-1:0] contention_i,
  output logic [PW-1:0]        out_port_o,
  output logic [V-1:0]         out_vcs_o,
  output logic [FLIT_W-1:0]         hdr_o,
  output logic                 decide_o  // the head decided (the choice was open)
);
  logic [PW-1:0]  min_port, alt_port;
  logic [V-1:0]   min_vcs, alt_vcs;
  logic [FLIT_W-1:0]   hdr;
  logic [DOW-1:0] operands;
  logic           nonmin;

  rr_route_dfly #(
    .P(P), .V(V), .FLIT_W(FLIT_W), .NUM_NI(NUM_NI), .A(A), .H(H), .NUM_G(NUM_G), .LINKS_PER_PAIR(LINKS_PER_PAIR),
    .PALMTREE(PALMTREE),
    .GB(GB), .IB(IB), .LOCAL_W(LOCAL_W), .DST_LSB(DST_LSB), .SRC_LSB(SRC_LSB), .PHASE_LSB(PHASE_LSB),
    .INTER_LSB(INTER_LSB), .ROUTE_STATE(ROUTE_STATE), .ALWAYS_VALIANT(ALWAYS_VALIANT),
    .GROUP_INTERMEDIATE(GROUP_INTERMEDIATE), .ADAPTIVE(ADAPTIVE), .CONTENTION(CONTENTION), .REDIVERT(REDIVERT),
    .LEVELS(LEVELS), .BIAS(BIAS), .RULE_DOUBLE(RULE_DOUBLE),
    .INTRA_VALIANT(INTRA_VALIANT), .OCC_W(OCC_W), .DEMAND_W(DEMAND_W), .CFW(CFW), .PORT(PORT), .SEED(SEED), .HEAD(1'b1)
  ) i_route (
    .clk_i, .rst_ni, .id_i, .hdr_i, .in_port_i, .in_vc_i, .occ_i, .dem_i, .contention_i,
    .out_port_o(min_port),
    .out_vcs_o (min_vcs),
    .hdr_o     (hdr),
    .alt_port_o(alt_port),
    .alt_vcs_o (alt_vcs),
    .decide_o,
    .operands_o(operands)
  );

  logic [GB-1:0] dst_group;
  logic          le;
  logic [HW-1:0] min_hops, nonmin_hops;
  assign {dst_group, le, nonmin_hops, min_hops} = operands;

  rr_ugal_decide #(
    .P(P), .NUM_G(NUM_G), .GB(GB), .CONTENTION(CONTENTION), .BIAS(BIAS),
    .RULE_DOUBLE(RULE_DOUBLE), .OCC_W(OCC_W), .DEMAND_W(DEMAND_W), .CFW(CFW)
  ) i_decide (
    .occ_i, .dem_i, .contention_i,
    .min_port_i   (min_port),
    .nonmin_port_i(alt_port),
    .min_hops_i   (min_hops),
    .nonmin_hops_i(nonmin_hops),
    .le_i         (le),
    .dst_group_i  (dst_group),
    .nonmin_o     (nonmin)
  );

  always_comb begin
    out_port_o = min_port;
    out_vcs_o  = min_vcs;
    hdr_o      = hdr;
    if (decide_o && nonmin) begin
      out_port_o = alt_port;
      out_vcs_o  = alt_vcs;
      hdr_o[PHASE_LSB+:2] = 2'd1;  // the input port's patch as the head leaves
    end
  end
endmodule
