// Credits for one downstream VC buffer: starts full (DEPTH free slots),
// decrements when a flit is sent, increments when a credit comes back.
module rr_credit_counter #(
  parameter int unsigned DEPTH = 8,
  localparam int unsigned CW = $clog2(DEPTH + 1)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          consume_i,
  input  logic          return_i,
  output logic [CW-1:0] credits_o
);
  logic [CW-1:0] credits_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credits_q <= CW'(DEPTH);
    end else if (consume_i && !return_i) begin
      credits_q <= credits_q - 1'b1;
    end else if (return_i && !consume_i) begin
      credits_q <= credits_q + 1'b1;
    end
  end

  assign credits_o = credits_q;
endmodule
