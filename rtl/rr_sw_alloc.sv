// Separable input-first switch allocator with internal speedup S.
// Each input port has S lanes to the crossbar; VC v of a port uses lane
// v mod S, so a port sends up to S flits per cycle, from different VCs. Each
// output port takes up to S flits per cycle (as many as room_i allows).
// Stage 1 (per input lane): round-robin over the lane's requesting VCs.
// Stage 2 (per output port): round-robin over the input lanes whose chosen
//   VC wants that output; up to room_i of them are granted, in round-robin
//   order from the pointer, each into its own output slot.
// An input lane's arbiter advances only when its choice won, so a VC that
// loses at the output keeps its turn. With S = 1 a lane is the port and an
// output grants one lane: the plain separable allocator.
module rr_sw_alloc #(
  parameter int unsigned P = 5,
  parameter int unsigned V = 2,
  parameter int unsigned S = 1,  // internal speedup (router.speedup)
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned L = P * S,                // input lanes
  localparam int unsigned LNW = rr_pkg::id_width(L),
  localparam int unsigned RW = $clog2(S + 1)        // a count of 0..S flits
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [P*V-1:0]     req_i,
  input  logic [P*V*PW-1:0]  port_i,
  input  logic [P*RW-1:0]    room_i,    // per output port: flits it can take this cycle (1..S)
  output logic [P*V-1:0]     gnt_o,     // per input VC, at most one per input lane
  output logic [P*S-1:0]     out_valid_o,  // per output slot o*S + k
  output logic [P*S*LNW-1:0] out_sel_o     // per output slot: the winning input lane
);
  logic [V-1:0]  lane_gnt [L];
  logic [PW-1:0] lane_port [L];
  logic [L-1:0]  lane_has, lane_won;
  logic [L-1:0]  out_gnt [P];  // [output][lane]

  for (genvar l = 0; l < L; l++) begin : gen_lane
    localparam int unsigned LP = l / S;  // the lane's port
    localparam int unsigned LK = l % S;  // its index: VCs v with v mod S = LK
    logic [V-1:0] lane_vcs, lane_req;
    for (genvar v = 0; v < V; v++) begin : gen_member
      assign lane_vcs[v] = (v % S) == LK;
    end
    assign lane_req = req_i[LP*V+:V] & lane_vcs;
    rr_arbiter_rr #(.N(V)) i_arb (
      .clk_i, .rst_ni,
      .req_i    (lane_req),
      .advance_i(lane_won[l]),
      .gnt_o    (lane_gnt[l])
    );
    assign lane_has[l] = |lane_req;
    always_comb begin
      lane_port[l] = '0;
      for (int unsigned v = 0; v < V; v++) begin
        if (lane_gnt[l][v]) lane_port[l] = port_i[(LP*V+v)*PW+:PW];
      end
    end
  end

  for (genvar o = 0; o < P; o++) begin : gen_out
    logic [L-1:0]  reqs, mask_q, granted, last;
    logic [RW-1:0] room;
    logic [S-1:0]  slot_valid;
    logic [S*LNW-1:0] slot_sel;
    assign room = room_i[o*RW+:RW];
    for (genvar l = 0; l < L; l++) begin : gen_col
      assign reqs[l] = lane_has[l] && (lane_port[l] == PW'(o));
    end
    // Up to `room` grants in round-robin order: first the requesters at or
    // after the pointer (mask_q), then the others from lane 0.
    always_comb begin
      logic [L-1:0] hi, lo, g;
      hi = reqs & mask_q;
      lo = reqs & ~mask_q;
      granted = '0;
      last = '0;
      for (int unsigned k = 0; k < S; k++) begin
        g = '0;
        if (RW'(k) < room) begin
          if (|hi) g = hi & (~hi + 1'b1);
          else g = lo & (~lo + 1'b1);
        end
        hi = hi & ~g;
        lo = lo & ~g;
        slot_valid[k] = |g;
        slot_sel[k*LNW+:LNW] = '0;
        for (int unsigned l = 0; l < L; l++) begin
          if (g[l]) slot_sel[k*LNW+:LNW] = LNW'(l);
        end
        granted = granted | g;
        if (|g) last = g;
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) mask_q <= '1;
      else if (|granted) mask_q <= ~((last - 1'b1) | last);  // past the last lane granted
    end
    assign out_gnt[o] = granted;
    assign out_valid_o[o*S+:S] = slot_valid;
    assign out_sel_o[o*S*LNW+:S*LNW] = slot_sel;
  end

  always_comb begin
    lane_won = '0;
    for (int unsigned o = 0; o < P; o++) lane_won = lane_won | out_gnt[o];
  end

  for (genvar p = 0; p < P; p++) begin : gen_gnt
    always_comb begin
      gnt_o[p*V+:V] = '0;
      for (int unsigned k = 0; k < S; k++) begin
        if (lane_won[p*S+k]) gnt_o[p*V+:V] = gnt_o[p*V+:V] | lane_gnt[p*S+k];
      end
    end
  end
endmodule
