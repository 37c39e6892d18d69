// Round-robin arbiter of one output VC that may take up to GRANTS single-flit
// packets in a cycle (rr_vc_alloc's stage 2 with GRANTS > 1: internal speedup and
// single-flit packets). The first grant goes to the first requester at or
// after the pointer (mask_q: those requesters first, then the others). If it
// is a single-flit packet and no multi-flit packet holds the VC (busy_i low),
// up to GRANTS - 1 more single-flit requesters follow in the same order, the k-th
// more only with credits for the singles pending (singles_i), the winner and
// k more. The pointer moves past the last one granted. n_o counts the
// single-flit packets granted (zero when the one winner has more flits).
// PREFIX chooses how "the first set bit" is written: OR prefixes for
// synthesis, carry chains for Verilator, the same circuit. Why, and the
// proof: docs/architecture.md, "RTL written for simulation speed".
module rr_arbiter_multi #(
  parameter int unsigned NUM_REQ = 4,
  parameter int unsigned GRANTS = 2,
  parameter int unsigned CREDIT_CNT_W = 4,  // credit counter width
`ifdef VERILATOR
  parameter bit PREFIX = 1'b0,
`else
  parameter bit PREFIX = 1'b1,
`endif
  localparam int unsigned GRANT_CNT_W = $clog2(GRANTS + 1)  // a count of 0..GRANTS packets
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [NUM_REQ-1:0]  req_i,
  input  logic [NUM_REQ-1:0]  single_i,   // per requester: its packet has one flit
  input  logic          busy_i,     // a multi-flit packet holds the VC
  input  logic [CREDIT_CNT_W-1:0] credits_i,
  input  logic [CREDIT_CNT_W-1:0] singles_i,  // single-flit packets allocated, not yet sent
  output logic [NUM_REQ-1:0]  gnt_o,
  output logic [GRANT_CNT_W-1:0] n_o
);
  // Bit i: some bit of x below i (Kogge-Stone OR prefix, log2(NUM_REQ) levels).
  function automatic logic [NUM_REQ-1:0] below(logic [NUM_REQ-1:0] x);
    below = x << 1;
    for (int unsigned s = 1; s < NUM_REQ; s = s * 2) below = below | (below << s);
  endfunction
  // The lowest set bit of x (zero if none).
  function automatic logic [NUM_REQ-1:0] first_one(logic [NUM_REQ-1:0] x);
    first_one = PREFIX ? (x & ~below(x)) : (x & (~x + 1'b1));
  endfunction
  // The bits above the lowest set bit of x that are clear in x (zero if x is).
  function automatic logic [NUM_REQ-1:0] above_first(logic [NUM_REQ-1:0] x);
    above_first = PREFIX ? (below(x) & ~x) : ~((x - 1'b1) | x);
  endfunction

  logic [NUM_REQ-1:0] mask_q, last;
  always_comb begin
    logic [NUM_REQ-1:0]  hi, lo, g;
    logic [CREDIT_CNT_W+1:0] owed;
    logic          more;
    hi = req_i & mask_q;
    lo = req_i & ~mask_q;
    g = (|hi) ? first_one(hi) : first_one(lo);
    gnt_o = g;
    last = g;
    more = |(g & single_i) && !busy_i;
    n_o = GRANT_CNT_W'(|(g & single_i));
    owed = (CREDIT_CNT_W+2)'(singles_i) + (CREDIT_CNT_W+2)'(1);
    hi = hi & single_i & ~g;
    lo = lo & single_i & ~g;
    for (int unsigned k = 1; k < GRANTS; k++) begin
      g = '0;
      if (more && {2'b0, credits_i} >= owed + (CREDIT_CNT_W+2)'(1)) begin
        g = (|hi) ? first_one(hi) : first_one(lo);
      end
      hi = hi & ~g;
      lo = lo & ~g;
      gnt_o = gnt_o | g;
      if (|g) begin
        last = g;
        n_o = n_o + 1'b1;
        owed = owed + (CREDIT_CNT_W+2)'(1);
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) mask_q <= '1;
    else if (|req_i) mask_q <= above_first(last);
  end
endmodule
