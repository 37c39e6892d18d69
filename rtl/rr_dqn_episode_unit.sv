// DQN-routing's episodes in a router ([Lonardo 2019], Algorithms 2 and 3): the
// pending-episode table (rr_dqn_episodes) and what the router does with it
// when a head that requests an ack (ReqAck) arrives on input port p
// (rc_valid_i[p]): at its destination (rc_port_i < NUM_NI) the router acks
// it; elsewhere it opens an entry and writes the entry's index into the
// header's episode field (rc_hdr_o), or, with the table full, clears ReqAck
// and cancels upstream. Those acks and cancels wait a cycle in a register
// per input port. The ack words ride on the credit words' feedback field:
// ack_i from the output ports', ack_o into the input ports'. rc_entry_o
// names the entry a head opened, for the DQN unit, whose decision marks it
// (decide_i) so that its ack reports a reward (rew_*_o, a lane per output
// port). docs/dqn.md, "The episode unit", has the behaviour.
module rr_dqn_episode_unit #(
  parameter int unsigned P = 5,
  parameter int unsigned NUM_NI = 1,
  parameter int unsigned W = 64,
  parameter int unsigned E = 32,
  parameter int unsigned STAMP_W = 16,
  parameter int unsigned DIST_W = 3,
  parameter int unsigned NUM_DIMS = 2,
  parameter int unsigned COORD_W = 2,  // bits per coordinate
  parameter int unsigned K0 = 4,
  parameter int unsigned K1 = 4,
  parameter int unsigned K2 = 4,
  parameter bit          TORUS = 1'b1,
  parameter int unsigned LOCAL_W = 0,  // bits of the NI index below an address's coordinates
  parameter int unsigned DST_LSB = 0,
  parameter int unsigned REQ_ACK_LSB = 0,
  parameter int unsigned EPISODE_LSB = 0,
  localparam int unsigned EW = rr_pkg::id_width(E),
  localparam int unsigned ACK_W = 2 + EW + STAMP_W,
  localparam int unsigned PW = rr_pkg::id_width(P)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [STAMP_W-1:0]     now_i,
  input  logic [NUM_DIMS*COORD_W-1:0] coord_i,
  // route compute of the heads on the links
  input  logic [P-1:0]           rc_valid_i,
  input  logic [P*W-1:0]         rc_hdr_i,        // as it arrived
  input  logic [P*PW-1:0]        rc_port_i,       // its route's output port
  input  logic [P*W-1:0]         rc_hdr_route_i,  // as the route unit rewrote it
  output logic [P*W-1:0]         rc_hdr_o,        // and with ReqAck and the episode field
  output logic [P-1:0]           rc_entry_o,      // the head opened an entry
  output logic [P*EW-1:0]        rc_entry_idx_o,
  // decisions of the agent taken, per input port
  input  logic [P-1:0]           decide_i,
  input  logic [P*EW-1:0]        decide_idx_i,
  // ack words: in per output port, out per input port
  input  logic [P*ACK_W-1:0]        ack_i,
  output logic [P*ACK_W-1:0]        ack_o,
  // rewards, per output port lane
  output logic [P-1:0]           rew_valid_o,
  output logic [P*EW-1:0]        rew_idx_o,
  output logic [P*DIST_W-1:0]    rew_dist_o,
  output logic [P*STAMP_W-1:0]   rew_latency_o,
  output logic [E-1:0]           open_entries_o
);
  function automatic int unsigned radix(input int unsigned d);
    radix = rr_pkg::cube_radix(d, K0, K1, K2);
  endfunction

  logic [P-1:0]    want_ack, dest, open, open_ok;
  logic [P*EW-1:0] up, open_idx;
  logic [P*DIST_W-1:0] distance;
  logic [P*ACK_W-1:0] imm_d, imm_q;

  always_comb begin
    for (int unsigned p = 0; p < P; p++) begin
      logic [W-1:0] hdr;
      int unsigned  sum;
      hdr         = rc_hdr_i[p*W+:W];
      want_ack[p] = rc_valid_i[p] && hdr[REQ_ACK_LSB];
      dest[p]     = 32'(rc_port_i[p*PW+:PW]) < NUM_NI;
      open[p]     = want_ack[p] && !dest[p];
      up[p*EW+:EW] = hdr[EPISODE_LSB+:EW];
      // The distance: per dimension the shorter way round (torus) or the offset (mesh).
      sum = 0;
      for (int unsigned d = 0; d < NUM_DIMS; d++) begin
        int unsigned a, b, off;
        a   = 32'(coord_i[d*COORD_W+:COORD_W]);
        b   = 32'(hdr[DST_LSB+LOCAL_W+d*COORD_W+:COORD_W]);
        off = (a > b) ? a - b : b - a;
        if (TORUS && radix(d) - off < off) off = radix(d) - off;
        sum = sum + off;
      end
      distance[p*DIST_W+:DIST_W] = DIST_W'(sum);
    end
  end

  always_comb begin
    for (int unsigned p = 0; p < P; p++) begin
      rc_hdr_o[p*W+:W]         = rc_hdr_route_i[p*W+:W];
      rc_entry_o[p]            = open[p] && open_ok[p];
      rc_entry_idx_o[p*EW+:EW] = open_idx[p*EW+:EW];
      imm_d[p*ACK_W+:ACK_W]          = '0;
      if (open[p] && open_ok[p]) begin
        rc_hdr_o[p*W+EPISODE_LSB+:EW] = open_idx[p*EW+:EW];
      end else if (open[p]) begin
        rc_hdr_o[p*W+REQ_ACK_LSB] = 1'b0;
      end
      // Words upstream: a destination's ack, or the cancel of a full table.
      if (p >= NUM_NI && want_ack[p] && (dest[p] || !open_ok[p])) begin
        imm_d[p*ACK_W+:ACK_W] = {1'b1, !dest[p], up[p*EW+:EW], now_i};
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) imm_q <= '0;
    else imm_q <= imm_d;
  end

  rr_dqn_episodes #(.P(P), .NUM_NI(NUM_NI), .E(E), .STAMP_W(STAMP_W), .DIST_W(DIST_W)) i_table (
    .clk_i, .rst_ni, .now_i,
    .open_i        (open),
    .open_up_i     (up),
    .open_dist_i   (distance),
    .open_ok_o     (open_ok),
    .open_idx_o    (open_idx),
    .decide_i, .decide_idx_i,
    .ack_i,
    .rew_valid_o, .rew_idx_o, .rew_dist_o, .rew_latency_o,
    .imm_i         (imm_q),
    .ack_o,
    .open_entries_o
  );
endmodule
