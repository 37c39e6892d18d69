// Round-robin arbiter of one output VC that may take up to G single-flit
// packets in a cycle (rr_vc_alloc's stage 2 with G > 1: internal speedup and
// single-flit packets). The first grant goes to the first requester at or
// after the pointer (mask_q: those requesters first, then the others). If it
// is a single-flit packet and no multi-flit packet holds the VC (busy_i low),
// up to G - 1 more single-flit requesters follow in the same order, the k-th
// more only with credits for the singles pending (singles_i), the winner and
// k more. The pointer moves past the last one granted. n_o counts the
// single-flit packets granted (zero when the one winner has more flits).
// PREFIX chooses how "the first set bit" is written: OR prefixes for
// synthesis, carry chains for Verilator, the same circuit. Why, and the
// proof: docs/architecture.md, "RTL written for simulation speed".
module rr_arbiter_multi #(
  parameter int unsigned N = 4,
  parameter int unsigned G = 2,
  parameter int unsigned CW = 4,  // credit counter width
`ifdef VERILATOR
  parameter bit PREFIX = 1'b0,
`else
  parameter bit PREFIX = 1'b1,
`endif
  localparam int unsigned GW = $clog2(G + 1)  // a count of 0..G packets
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [N-1:0]  req_i,
  input  logic [N-1:0]  single_i,   // per requester: its packet has one flit
  input  logic          busy_i,     // a multi-flit packet holds the VC
  input  logic [CW-1:0] credits_i,
  input  logic [CW-1:0] singles_i,  // single-flit packets allocated, not yet sent
  output logic [N-1:0]  gnt_o,
  output logic [GW-1:0] n_o
);
  // Bit i: some bit of x below i (Kogge-Stone OR prefix, log2(N) levels).
  function automatic logic [N-1:0] below(logic [N-1:0] x);
    below = x << 1;
    for (int unsigned s = 1; s < N; s = s * 2) below = below | (below << s);
  endfunction
  // The lowest set bit of x (zero if none).
  function automatic logic [N-1:0] first_one(logic [N-1:0] x);
    first_one = PREFIX ? (x & ~below(x)) : (x & (~x + 1'b1));
  endfunction
  // The bits above the lowest set bit of x that are clear in x (zero if x is).
  function automatic logic [N-1:0] above_first(logic [N-1:0] x);
    above_first = PREFIX ? (below(x) & ~x) : ~((x - 1'b1) | x);
  endfunction

  logic [N-1:0] mask_q, last;
  always_comb begin
    logic [N-1:0]  hi, lo, g;
    logic [CW+1:0] owed;
    logic          more;
    hi = req_i & mask_q;
    lo = req_i & ~mask_q;
    g = (|hi) ? first_one(hi) : first_one(lo);
    gnt_o = g;
    last = g;
    more = |(g & single_i) && !busy_i;
    n_o = GW'(|(g & single_i));
    owed = (CW+2)'(singles_i) + (CW+2)'(1);
    hi = hi & single_i & ~g;
    lo = lo & single_i & ~g;
    for (int unsigned k = 1; k < G; k++) begin
      g = '0;
      if (more && {2'b0, credits_i} >= owed + (CW+2)'(1)) begin
        g = (|hi) ? first_one(hi) : first_one(lo);
      end
      hi = hi & ~g;
      lo = lo & ~g;
      gnt_o = gnt_o | g;
      if (|g) begin
        last = g;
        n_o = n_o + 1'b1;
        owed = owed + (CW+2)'(1);
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) mask_q <= '1;
    else if (|req_i) mask_q <= above_first(last);
  end
endmodule
