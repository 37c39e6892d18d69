// DQN-routing's pending-episode table of a router ([Lonardo 2019], Algorithms 2
// and 3): an entry per packet with ReqAck that this router routes, from the
// head's arrival until its ack has gone upstream; in a router inside
// rr_dqn_episode_unit. Bit-exact reference: ref/src/dqn_episodes.cpp.
// Per input port p and cycle: open an entry (open_i: the free entry the port
// holds in reserve, open_idx_o; none, open_ok_o low, is the caller's to
// cancel), mark one decided (decide_i, decide_idx_i) and send one word
// upstream (ack_o: the caller's imm_* word first, else the port's lowest
// parked entry as {cancel, its upstream index, the ack's timestamp}).
// Per output port q: an ack word (ack_i) for a decided entry reports {entry,
// distance, latency} on lane q (rew_*_o) and parks in the entry to go
// upstream, unless the packet was injected here.
// docs/dqn.md, "The pending-episode table", has the behaviour and the reserves.
module rr_dqn_episodes #(
  parameter int unsigned P = 5,
  parameter int unsigned NUM_NI = 1,
  parameter int unsigned E = 32,      // entries
  parameter int unsigned STAMP_W = 16,    // timestamp bits (cycles, modulo 2^STAMP_W)
  parameter int unsigned DIST_W = 6,      // distance bits
  localparam int unsigned EW = rr_pkg::id_width(E),
  localparam int unsigned ACK_W = 2 + EW + STAMP_W  // an ack word {valid, cancel, index, timestamp}
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [STAMP_W-1:0]    now_i,
  // opens, per input port
  input  logic [P-1:0]      open_i,
  input  logic [P*EW-1:0]   open_up_i,     // the upstream router's entry (its ack goes there)
  input  logic [P*DIST_W-1:0]   open_dist_i,
  output logic [P-1:0]      open_ok_o,
  output logic [P*EW-1:0]   open_idx_o,    // the entry, for the header (the downstream's upstream index)
  // decisions, per input port
  input  logic [P-1:0]      decide_i,
  input  logic [P*EW-1:0]   decide_idx_i,
  // ack words in, per output port: {valid, cancel, index, timestamp}
  input  logic [P*ACK_W-1:0]   ack_i,
  // rewards, per output port lane
  output logic [P-1:0]      rew_valid_o,
  output logic [P*EW-1:0]   rew_idx_o,
  output logic [P*DIST_W-1:0]   rew_dist_o,
  output logic [P*STAMP_W-1:0]  rew_latency_o,
  // the caller's words that cannot wait, per input port
  input  logic [P*ACK_W-1:0]   imm_i,
  // ack words out, per input port (its reverse link)
  output logic [P*ACK_W-1:0]   ack_o,
  output logic [E-1:0]      open_entries_o  // observability: entries in use
);
  localparam int unsigned PW = rr_pkg::id_width(P);

  logic [E-1:0]   valid_q, decided_q, parked_q, cancel_q;
  logic [EW-1:0]  up_q [E];
  logic [PW-1:0]  port_q [E];
  logic [STAMP_W-1:0] ts_q [E], ack_ts_q [E];
  logic [DIST_W-1:0]  dist_q [E];

  // Reserves: per input port a free entry held for its next open; two ports
  // that hold none get one per cycle, from either end of the table.
  logic [P-1:0]  res_valid_q, refill_ok;
  logic [EW-1:0] res_idx_q [P], refill_idx [P];
  logic [E-1:0]  unheld;
  logic          lo_found, hi_found, lo_port_found, hi_port_found;
  logic [EW-1:0] lo_idx, hi_idx;
  logic [PW-1:0] lo_port, hi_port;
  always_comb begin
    unheld = ~valid_q;
    for (int unsigned p = 0; p < P; p++) begin
      if (res_valid_q[p]) unheld[res_idx_q[p]] = 1'b0;
    end
    lo_found = 1'b0;
    lo_idx   = '0;
    for (int unsigned e = 0; e < E; e++) begin
      if (!lo_found && unheld[e]) begin
        lo_found = 1'b1;
        lo_idx   = EW'(e);
      end
    end
    hi_found = 1'b0;
    hi_idx   = '0;
    for (int unsigned e = E; e > 0; e--) begin
      if (!hi_found && unheld[e-1]) begin
        hi_found = 1'b1;
        hi_idx   = EW'(e - 1);
      end
    end
    lo_port_found = 1'b0;
    lo_port       = '0;
    for (int unsigned p = 0; p < P; p++) begin
      if (!lo_port_found && !res_valid_q[p]) begin
        lo_port_found = 1'b1;
        lo_port       = PW'(p);
      end
    end
    hi_port_found = 1'b0;
    hi_port       = '0;
    for (int unsigned p = P; p > 0; p--) begin
      if (!hi_port_found && !res_valid_q[p-1]) begin
        hi_port_found = 1'b1;
        hi_port       = PW'(p - 1);
      end
    end
    for (int unsigned p = 0; p < P; p++) begin
      refill_ok[p]  = 1'b0;
      refill_idx[p] = '0;
      if (lo_port_found && lo_port == PW'(p)) begin
        refill_ok[p]  = lo_found;
        refill_idx[p] = lo_idx;
      end else if (hi_port_found && hi_port == PW'(p)) begin
        refill_ok[p]  = hi_found && hi_idx != lo_idx;
        refill_idx[p] = hi_idx;
      end
    end
  end

  // Opens: each with the entry its port holds.
  always_comb begin
    for (int unsigned p = 0; p < P; p++) begin
      open_ok_o[p]         = open_i[p] && res_valid_q[p];
      open_idx_o[p*EW+:EW] = res_idx_q[p];
    end
  end

  // Acks in: rewards of decided entries, and what each entry does.
  logic [E-1:0] acked, ack_cancel;
  logic [STAMP_W-1:0] ack_ts [E];
  always_comb begin
    acked      = '0;
    ack_cancel = '0;
    for (int unsigned e = 0; e < E; e++) ack_ts[e] = '0;
    for (int unsigned q = 0; q < P; q++) begin
      logic            v, c;
      logic [EW-1:0]   idx;
      logic [STAMP_W-1:0]  ts;
      {v, c, idx, ts}        = ack_i[q*ACK_W+:ACK_W];
      rew_valid_o[q]         = 1'b0;
      rew_idx_o[q*EW+:EW]    = idx;
      rew_dist_o[q*DIST_W+:DIST_W]   = '0;
      rew_latency_o[q*STAMP_W+:STAMP_W] = '0;
      for (int unsigned e = 0; e < E; e++) begin
        if (v && idx == EW'(e)) begin
          acked[e]      = 1'b1;
          ack_cancel[e] = c;
          ack_ts[e]     = ts;
          rew_valid_o[q]            = !c && decided_q[e];
          rew_dist_o[q*DIST_W+:DIST_W]      = dist_q[e];
          rew_latency_o[q*STAMP_W+:STAMP_W] = ts - ts_q[e];
        end
      end
    end
  end

  // Acks out: the caller's word first, else the lowest parked entry of the port.
  logic [E-1:0] sent;
  always_comb begin
    sent = '0;
    for (int unsigned p = 0; p < P; p++) begin
      logic found;
      found            = 1'b0;
      ack_o[p*ACK_W+:ACK_W]  = imm_i[p*ACK_W+:ACK_W];
      if (!imm_i[p*ACK_W+ACK_W-1]) begin
        ack_o[p*ACK_W+:ACK_W] = '0;
        for (int unsigned e = 0; e < E; e++) begin
          if (!found && parked_q[e] && port_q[e] == PW'(p)) begin
            found           = 1'b1;
            sent[e]         = 1'b1;
            ack_o[p*ACK_W+:ACK_W] = {1'b1, cancel_q[e], up_q[e], ack_ts_q[e]};
          end
        end
      end
    end
  end

  // Per entry: opened this cycle (by which port, with what), decided.
  logic [E-1:0]   opened, decided;
  logic [PW-1:0]  open_port [E];
  logic [EW-1:0]  open_up [E];
  logic [DIST_W-1:0]  open_dist [E];
  always_comb begin
    opened  = '0;
    decided = '0;
    for (int unsigned e = 0; e < E; e++) begin
      open_port[e] = '0;
      open_up[e]   = '0;
      open_dist[e] = '0;
      for (int unsigned p = 0; p < P; p++) begin
        if (open_i[p] && open_ok_o[p] && open_idx_o[p*EW+:EW] == EW'(e)) begin
          opened[e]    = 1'b1;
          open_port[e] = PW'(p);
          open_up[e]   = open_up_i[p*EW+:EW];
          open_dist[e] = open_dist_i[p*DIST_W+:DIST_W];
        end
        if (decide_i[p] && decide_idx_i[p*EW+:EW] == EW'(e)) decided[e] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned p = 0; p < P; p++) begin
        res_valid_q[p] <= p < E;
        res_idx_q[p]   <= (p < E) ? EW'(p) : '0;
      end
    end else begin
      for (int unsigned p = 0; p < P; p++) begin
        if (!res_valid_q[p]) begin
          res_valid_q[p] <= refill_ok[p];
          if (refill_ok[p]) res_idx_q[p] <= refill_idx[p];
        end else if (open_i[p]) begin
          res_valid_q[p] <= 1'b0;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q   <= '0;
      decided_q <= '0;
      parked_q  <= '0;
      cancel_q  <= '0;
      for (int unsigned e = 0; e < E; e++) begin
        up_q[e]     <= '0;
        port_q[e]   <= '0;
        ts_q[e]     <= '0;
        ack_ts_q[e] <= '0;
        dist_q[e]   <= '0;
      end
    end else begin
      for (int unsigned e = 0; e < E; e++) begin
        if (opened[e]) begin
          // Opened entries were free: no ack or send for them this cycle.
          valid_q[e]   <= 1'b1;
          decided_q[e] <= 1'b0;
          parked_q[e]  <= 1'b0;
          up_q[e]      <= open_up[e];
          port_q[e]    <= open_port[e];
          ts_q[e]      <= now_i;
          dist_q[e]    <= open_dist[e];
        end else if (sent[e]) begin
          valid_q[e]   <= 1'b0;
          parked_q[e]  <= 1'b0;
          decided_q[e] <= 1'b0;
        end else if (acked[e]) begin
          if (32'(port_q[e]) < NUM_NI) begin
            // A packet injected here: its episode ends here.
            valid_q[e]   <= 1'b0;
            decided_q[e] <= 1'b0;
          end else begin
            parked_q[e] <= 1'b1;
            cancel_q[e] <= ack_cancel[e];
            ack_ts_q[e] <= ack_ts[e];
          end
        end else if (decided[e]) begin
          decided_q[e] <= 1'b1;
        end
      end
    end
  end
  assign open_entries_o = valid_q;
endmodule
