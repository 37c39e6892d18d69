// Credits for one downstream VC buffer: starts full (DEPTH free slots),
// decreases by the flits sent in a cycle (up to MAXC: with internal speedup
// several flits of one VC may enter the output port together), increases by
// one when a credit comes back. A returning credit counts in the cycle it
// arrives (credits_o includes return_i): the credit loop is one cycle
// shorter than with a registered count (gen/pipeline.hpp).
module rr_credit_counter #(
  parameter int unsigned DEPTH = 8,
  parameter int unsigned MAXC = 1,  // flits consumed per cycle, at most
  localparam int unsigned CW = $clog2(DEPTH + 1),
  localparam int unsigned NW = $clog2(MAXC + 1)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [NW-1:0] consume_i,  // flits sent this cycle
  input  logic          return_i,
  output logic [CW-1:0] credits_o
);
  logic [CW-1:0] credits_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credits_q <= CW'(DEPTH);
    end else begin
      credits_q <= credits_o - CW'(consume_i);
    end
  end

  assign credits_o = credits_q + CW'(return_i);
endmodule
