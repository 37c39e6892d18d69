// The argmin of NUM_VALUES unsigned values with every pair compared at once
// (N(N-1)/2 comparators for N values, one comparator deep where a tree would
// be log2(N) in series): value c wins if it is strictly below every
// lower-indexed value and not above any higher one, so ties go to the lowest
// index and exactly one value wins. below_o[c*NUM_VALUES+d]: value c is below
// value d, for a caller that picks among a subset from the same comparators
// (rr_q_decide's best local port). Combinational; bit-exact reference:
// rlroute::ref::q_argmin.
module rr_argmin #(
  parameter int unsigned NUM_VALUES = 4,
  parameter int unsigned VALUE_W = 16,
  localparam int unsigned VALUE_IDX_W = rr_pkg::id_width(NUM_VALUES)
) (
  input  logic [NUM_VALUES*VALUE_W-1:0]    value_i,
  output logic [NUM_VALUES*NUM_VALUES-1:0] below_o,
  output logic [VALUE_IDX_W-1:0]           idx_o,
  output logic [VALUE_W-1:0]               min_o
);
  logic [NUM_VALUES-1:0] wins;
  always_comb begin
    for (int unsigned c = 0; c < NUM_VALUES; c++) begin
      for (int unsigned d = 0; d < NUM_VALUES; d++) below_o[c*NUM_VALUES+d] = value_i[c*VALUE_W+:VALUE_W] < value_i[d*VALUE_W+:VALUE_W];
    end
    for (int unsigned c = 0; c < NUM_VALUES; c++) begin
      wins[c] = 1'b1;
      for (int unsigned d = 0; d < NUM_VALUES; d++) begin
        if (d < c && !below_o[c*NUM_VALUES+d]) wins[c] = 1'b0;
        if (d > c && below_o[d*NUM_VALUES+c]) wins[c] = 1'b0;
      end
    end
    idx_o = '0;
    min_o = '0;
    for (int unsigned c = 0; c < NUM_VALUES; c++) begin
      if (wins[c]) begin
        idx_o = idx_o | VALUE_IDX_W'(c);
        min_o = min_o | value_i[c*VALUE_W+:VALUE_W];
      end
    end
  end
endmodule
