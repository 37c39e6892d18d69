// The argmin of N unsigned values with every pair compared at once
// (N(N-1)/2 comparators, one comparator deep where a tree would be log2(N)
// in series): value c wins if it is strictly below every lower-indexed value
// and not above any higher one, so ties go to the lowest index and exactly
// one value wins. below_o[c*N+d]: value c is below value d, for a caller
// that picks among a subset from the same comparators (rr_q_decide's best
// local port). Combinational; bit-exact reference: rlroute::ref::q_argmin.
module rr_argmin #(
  parameter int unsigned N = 4,  // values
  parameter int unsigned W = 16, // bits of a value
  localparam int unsigned IDX_W = rr_pkg::id_width(N)
) (
  input  logic [N*W-1:0]   value_i,
  output logic [N*N-1:0]   below_o,
  output logic [IDX_W-1:0] idx_o,
  output logic [W-1:0]     min_o
);
  logic [N-1:0] wins;
  always_comb begin
    for (int unsigned c = 0; c < N; c++) begin
      for (int unsigned d = 0; d < N; d++) below_o[c*N+d] = value_i[c*W+:W] < value_i[d*W+:W];
    end
    for (int unsigned c = 0; c < N; c++) begin
      wins[c] = 1'b1;
      for (int unsigned d = 0; d < N; d++) begin
        if (d < c && !below_o[c*N+d]) wins[c] = 1'b0;
        if (d > c && below_o[d*N+c]) wins[c] = 1'b0;
      end
    end
    idx_o = '0;
    min_o = '0;
    for (int unsigned c = 0; c < N; c++) begin
      if (wins[c]) begin
        idx_o = idx_o | IDX_W'(c);
        min_o = min_o | value_i[c*W+:W];
      end
    end
  end
endmodule
