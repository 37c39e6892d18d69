// Separable input-first VC allocator for virtual cut-through.
// Stage 1 (per input VC): among the output VCs the routing relation allows on
//   the requested port, keep those that are free and hold credits for the whole
//   packet, and pick the lowest-numbered one.
// Stage 2 (per output VC): a round-robin arbiter over all input VCs that
//   picked it. Each input VC picks one output VC, so it gets at most one grant.
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
  input  logic [R-1:0]     busy_i,     // per output VC (port*V + vc)
  input  logic [R*CW-1:0]  credits_i,  // per output VC
  output logic [R-1:0]     gnt_o,      // per input VC
  output logic [R*VCW-1:0] gnt_vc_o,   // per input VC: the output VC won
  output logic [R-1:0]     alloc_o     // per output VC: allocated this cycle
);
  // pick[r] is one-hot over output VCs (R bits), zero if nothing eligible.
  logic [R-1:0] pick [R];
  logic [R-1:0] gnt_bits [R];  // [output VC][input VC]

  for (genvar r = 0; r < R; r++) begin : gen_in
    logic [PW-1:0]    port;
    logic [V-1:0]     eligible;
    logic [V-1:0]     first;
    assign port = port_i[r*PW+:PW];

    // The requested port's busy bits and credit counters, selected AND-OR
    // by a decoded port (indexing by port*V*CW would be a run-time multiply).
    logic [V-1:0]  port_busy;
    logic [CW-1:0] port_credits [V];
    always_comb begin
      port_busy = '0;
      for (int unsigned w = 0; w < V; w++) port_credits[w] = '0;
      for (int unsigned q = 0; q < P; q++) begin
        if (port == PW'(q)) begin
          port_busy = port_busy | busy_i[q*V+:V];
          for (int unsigned w = 0; w < V; w++) port_credits[w] = port_credits[w] | credits_i[(q*V+w)*CW+:CW];
        end
      end
    end

    always_comb begin
      for (int unsigned w = 0; w < V; w++) begin
        eligible[w] = req_i[r] && vcs_i[r*V+w] && !port_busy[w]
                      && (port_credits[w] >= CW'(len_i[r*LEN_W+:LEN_W]));
      end
    end
    assign first = eligible & (~eligible + 1'b1);
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

  always_comb begin
    gnt_o = '0;
    for (int unsigned o = 0; o < R; o++) gnt_o = gnt_o | gnt_bits[o];
  end
endmodule
