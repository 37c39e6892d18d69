// Waiting demand per output port: the flits of the packets whose head waits at
// the front of an input VC for a VC of that port (a VC allocation request,
// rr_router's wait_*_o). In an input-queued router these packets are the
// output port's queue; the UGAL route units add this to the port's used
// credits (docs/routing_dragonfly.md, "Queue occupancy"). REGISTERED = 0:
// combinational, the route units see the requests of the cycle in which they
// decide, like the credit counts; REGISTERED = 1 (the decision at the head of
// the VC, whose requests depend on it): the sums of the last cycle.
// Each port's sum is a balanced tree of adders (depth log2(P*V)): written as
// one accumulating loop it became a chain of P*V adders, the longest path of
// the UGAL routers (9 ns of 14 on dfly(2,4,2,9); docs/routing_dragonfly.md, "Queue occupancy for the adaptive algorithms").
module rr_demand #(
  parameter int unsigned P = 5,          // ports
  parameter int unsigned V = 2,          // VCs per port
  parameter int unsigned LEN_W = 3,      // packet length field (flits)
  parameter bit          REGISTERED = 1'b0,  // dem_o through a register (see above)
  localparam int unsigned R = P * V,
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned DEMAND_W = rr_pkg::demand_width(P, V, LEN_W)
) (
  input  logic                  clk_i,        // REGISTERED only
  input  logic                  rst_ni,
  input  logic [R-1:0]          wait_req_i,   // per input VC: its front packet requests VC allocation
  input  logic [R*PW-1:0]       wait_port_i,  // the output port it requests
  input  logic [R*LEN_W-1:0]    wait_len_i,   // its length in flits
  output logic [P*DEMAND_W-1:0] dem_o         // per output port: flits of the requesting packets
);
  // Tree of LEAVES = 2^TREE_LEVELS leaves (R rounded up; the extra leaves are zero),
  // laid out leaves first: each level's sums follow the level below.
  localparam int unsigned TREE_LEVELS = (R > 1) ? $clog2(R) : 1;
  localparam int unsigned LEAVES = 1 << TREE_LEVELS;

  logic [P*DEMAND_W-1:0] dem;
  for (genvar o = 0; o < P; o++) begin : gen_port
    always_comb begin
      logic [DEMAND_W-1:0] node [2*LEAVES-1];  // leaves 0..LEAVES-1, then node LEAVES+i = node 2i + node 2i+1; root last
      for (int unsigned r = 0; r < LEAVES; r++) begin
        node[r] = '0;
        if (r < R && wait_req_i[r] && wait_port_i[r*PW+:PW] == PW'(o)) node[r] = DEMAND_W'(wait_len_i[r*LEN_W+:LEN_W]);
      end
      for (int unsigned i = 0; i < LEAVES - 1; i++) node[LEAVES+i] = node[2*i] + node[2*i+1];
      dem[o*DEMAND_W+:DEMAND_W] = node[2*LEAVES-2];
    end
  end

  if (REGISTERED) begin : gen_registered
    logic [P*DEMAND_W-1:0] dem_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) dem_q <= '0;
      else dem_q <= dem;
    end
    assign dem_o = dem_q;
  end else begin : gen_now
    assign dem_o = dem;
    logic unused_clk;
    assign unused_clk = clk_i ^ rst_ni;
  end
endmodule
