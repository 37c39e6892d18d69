// The router's crossbar, P inputs x O outputs (O = P without speedup; with
// internal speedup S both are lanes and slots, P*S): output o carries the word
// of input sel[o].
// A word is whatever the input ports present to the switch ({vc, tail, head,
// data} in rr_router). The selects come from the switch allocator; the mux is
// written AND-OR over a decoded select, so every output is a balanced tree.
module rr_crossbar #(
  parameter int unsigned P = 5,    // inputs
  parameter int unsigned O = P,    // outputs
  parameter int unsigned XW = 67,  // bits per word
  localparam int unsigned PW = rr_pkg::id_width(P)
) (
  input  logic [P*XW-1:0] in_i,
  input  logic [O*PW-1:0] sel_i,
  output logic [O*XW-1:0] out_o
);
  for (genvar o = 0; o < O; o++) begin : gen_out
    always_comb begin
      out_o[o*XW+:XW] = '0;
      for (int unsigned q = 0; q < P; q++) begin
        if (sel_i[o*PW+:PW] == PW'(q)) out_o[o*XW+:XW] = out_o[o*XW+:XW] | in_i[q*XW+:XW];
      end
    end
  end
endmodule
