// Separable input-first VC allocator for virtual cut-through.
// Stage 1 (per input VC): among the output VCs the routing relation allows on
//   the requested port, keep those that are free and hold credits for the whole
//   packet, and pick one round-robin: the first at or after the port's
//   pointer, which moves past the VC the port last handed out (so successive
//   packets on a port spread over its VCs instead of all trying the lowest).
// Stage 2 (per output VC): a round-robin arbiter over all input VCs that
//   picked it. Each input VC picks one output VC, so it gets at most one grant.
// Hand-over (no idle cycle on an output VC between packets): an output VC
//   whose holder's tail is at the front of the holder's buffer (rel_i, with
//   the held VC on own_port_i/own_vc_i) is releasing, and counts as free for
//   every requester, the holder's own next packet included, with one credit
//   set aside for the tail still to leave; it gets one successor (handover_i:
//   the output port marks a VC allocated while busy until that tail leaves),
//   and the successor's flits wait for the tail (rr_input_port, out_pend_i).
module rr_vc_alloc #(
  parameter int unsigned P = 5,
  parameter int unsigned V = 2,
  parameter int unsigned LEN_W = 3,
  parameter int unsigned CW = 4,  // credit counter width
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned R = P * V  // requesters = input VCs = output VCs
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [R-1:0]     req_i,
  input  logic [R*PW-1:0]  port_i,
  input  logic [R*V-1:0]   vcs_i,
  input  logic [R*LEN_W-1:0] len_i,
  // per input VC: its active packet's tail is at the front of its buffer, so
  // the output VC it holds (vc own_vc_i of port own_port_i) is releasing
  input  logic [R-1:0]     rel_i,
  input  logic [R*PW-1:0]  own_port_i,
  input  logic [R*VCW-1:0] own_vc_i,
  input  logic [R-1:0]     busy_i,      // per output VC (port*V + vc)
  input  logic [R-1:0]     handover_i,  // per output VC: allocated to a successor already
  input  logic [R*CW-1:0]  credits_i,   // per output VC
  output logic [R-1:0]     gnt_o,       // per input VC
  output logic [R*VCW-1:0] gnt_vc_o,    // per input VC: the output VC won
  output logic [R-1:0]     alloc_o      // per output VC: allocated this cycle
);
  // pick[r] is one-hot over output VCs (R bits), zero if nothing eligible.
  logic [R-1:0] pick [R];
  logic [R-1:0] gnt_bits [R];  // [output VC][input VC]
  // Per output port: the VCs that have priority in stage 1 (at or after the pointer).
  logic [V-1:0] prio_q [P];
  // Per output VC: busy, but its holder's tail is at the front and it has no successor yet.
  logic [R-1:0] releasing;
  // Each releasing input VC decodes the index (port*V + vc) of the VC it holds.
  always_comb begin
    releasing = '0;
    for (int unsigned r = 0; r < R; r++) begin
      if (rel_i[r]) releasing = releasing | (R'(1) << (32'(own_port_i[r*PW+:PW]) * V + 32'(own_vc_i[r*VCW+:VCW])));
    end
    releasing = releasing & busy_i & ~handover_i;
  end

  for (genvar r = 0; r < R; r++) begin : gen_in
    logic [PW-1:0]    port;
    logic [V-1:0]     eligible, preferred;
    logic [V-1:0]     first;
    assign port = port_i[r*PW+:PW];

    // The requested port's busy and releasing bits, credit counters and
    // stage-1 priority, selected AND-OR by a decoded port (indexing by
    // port*V*CW would be a run-time multiply).
    logic [V-1:0]  port_busy, port_releasing, port_prio;
    logic [CW-1:0] port_credits [V];
    always_comb begin
      port_busy = '0;
      port_releasing = '0;
      port_prio = '0;
      for (int unsigned w = 0; w < V; w++) port_credits[w] = '0;
      for (int unsigned q = 0; q < P; q++) begin
        if (port == PW'(q)) begin
          port_busy = port_busy | busy_i[q*V+:V];
          port_releasing = port_releasing | releasing[q*V+:V];
          port_prio = port_prio | prio_q[q];
          for (int unsigned w = 0; w < V; w++) port_credits[w] = port_credits[w] | credits_i[(q*V+w)*CW+:CW];
        end
      end
    end

    always_comb begin
      logic [CW:0] need;
      for (int unsigned w = 0; w < V; w++) begin
        // A releasing VC still owes the credit of its holder's tail.
        need = (CW+1)'(len_i[r*LEN_W+:LEN_W]) + (CW+1)'(port_busy[w]);
        eligible[w] = req_i[r] && vcs_i[r*V+w] && (!port_busy[w] || port_releasing[w])
                      && ({1'b0, port_credits[w]} >= need);
      end
    end
    assign preferred = eligible & port_prio;
    assign first = (|preferred) ? (preferred & (~preferred + 1'b1)) : (eligible & (~eligible + 1'b1));
    // Place the picked VC at output VC port*V + w (a decoder, not a shifter).
    always_comb begin
      for (int unsigned q = 0; q < P; q++) pick[r][q*V+:V] = (port == PW'(q)) ? first : '0;
    end

    always_comb begin
      gnt_vc_o[r*VCW+:VCW] = '0;
      for (int unsigned w = 0; w < V; w++) begin
        if (first[w]) gnt_vc_o[r*VCW+:VCW] = VCW'(w);
      end
    end
  end

  for (genvar o = 0; o < R; o++) begin : gen_out
    logic [R-1:0] reqs, gnts;
    for (genvar r = 0; r < R; r++) begin : gen_col
      assign reqs[r] = pick[r][o];
    end
    rr_arbiter_rr #(.N(R)) i_arb (
      .clk_i, .rst_ni,
      .req_i    (reqs),
      .advance_i(1'b1),
      .gnt_o    (gnts)
    );
    assign alloc_o[o] = |gnts;
    for (genvar r = 0; r < R; r++) begin : gen_gnt
      assign gnt_bits[o][r] = gnts[r];
    end
  end

  // Stage-1 pointers: past the first VC (in priority order) allocated on the port.
  for (genvar q = 0; q < P; q++) begin : gen_prio
    logic [V-1:0] alloc, alloc_prio, winner;
    assign alloc = alloc_o[q*V+:V];
    assign alloc_prio = alloc & prio_q[q];
    assign winner = (|alloc_prio) ? (alloc_prio & (~alloc_prio + 1'b1)) : (alloc & (~alloc + 1'b1));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) prio_q[q] <= '1;
      else if (|alloc) prio_q[q] <= ~((winner - 1'b1) | winner);
    end
  end

  always_comb begin
    gnt_o = '0;
    for (int unsigned o = 0; o < R; o++) gnt_o = gnt_o | gnt_bits[o];
  end
endmodule
