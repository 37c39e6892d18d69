// The router's crossbar, NUM_IN inputs x NUM_OUT outputs (the router's P
// ports, or with internal speedup S its P*S lanes and slots): output o
// carries the word of input sel[o].
// A word is whatever the input ports present to the switch ({vc, tail, head,
// data} in rr_router). The selects come from the switch allocator; the mux is
// written AND-OR over a decoded select, so every output is a balanced tree.
module rr_crossbar #(
  parameter int unsigned NUM_IN = 5,    // inputs
  parameter int unsigned NUM_OUT = NUM_IN,    // outputs
  parameter int unsigned XBAR_W = 67,  // bits per word
  localparam int unsigned IN_W = rr_pkg::id_width(NUM_IN)
) (
  input  logic [NUM_IN*XBAR_W-1:0] in_i,
  input  logic [NUM_OUT*IN_W-1:0] sel_i,
  output logic [NUM_OUT*XBAR_W-1:0] out_o
);
  for (genvar o = 0; o < NUM_OUT; o++) begin : gen_out
    always_comb begin
      out_o[o*XBAR_W+:XBAR_W] = '0;
      for (int unsigned q = 0; q < NUM_IN; q++) begin
        if (sel_i[o*IN_W+:IN_W] == IN_W'(q)) out_o[o*XBAR_W+:XBAR_W] = out_o[o*XBAR_W+:XBAR_W] | in_i[q*XBAR_W+:XBAR_W];
      end
    end
  end
endmodule
