// Credits for one downstream VC buffer: starts full (DEPTH free slots),
// decreases by the flits sent in a cycle (up to MAX_CONSUME: with internal speedup
// several flits of one VC may enter the output port together), increases by
// one when a credit comes back. A returning credit counts in the cycle it
// arrives (credits_o includes return_i): the credit loop is one cycle
// shorter than with a registered count (gen/pipeline.hpp).
module rr_credit_counter #(
  parameter int unsigned DEPTH = 8,
  parameter int unsigned MAX_CONSUME = 1,  // flits consumed per cycle, at most
  localparam int unsigned CREDIT_CNT_W = $clog2(DEPTH + 1),
  localparam int unsigned CONSUME_CNT_W = $clog2(MAX_CONSUME + 1)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [CONSUME_CNT_W-1:0] consume_i,  // flits sent this cycle
  input  logic          return_i,
  output logic [CREDIT_CNT_W-1:0] credits_o
);
  logic [CREDIT_CNT_W-1:0] credits_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credits_q <= CREDIT_CNT_W'(DEPTH);
    end else begin
      credits_q <= credits_o - CREDIT_CNT_W'(consume_i);
    end
  end

  assign credits_o = credits_q + CREDIT_CNT_W'(return_i);
endmodule
