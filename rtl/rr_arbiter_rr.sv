// Round-robin arbiter: grants the first requester at or after the priority
// pointer. The pointer moves past the winner only when advance_i is high, so a
// grant that a later stage refuses does not cost the requester its turn.
module rr_arbiter_rr #(
  parameter int unsigned NUM_REQ = 4
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [NUM_REQ-1:0] req_i,
  input  logic         advance_i,
  output logic [NUM_REQ-1:0] gnt_o
);
  // mask_q has a 1 for every requester that has priority this round.
  logic [NUM_REQ-1:0] mask_q;
  logic [NUM_REQ-1:0] masked_req;
  logic [NUM_REQ-1:0] upto_winner;

  assign masked_req = req_i & mask_q;
  // x & -x isolates the lowest set bit.
  assign gnt_o = (|masked_req) ? (masked_req & (~masked_req + 1'b1))
                               : (req_i & (~req_i + 1'b1));
  // Bits 0..winner set; their complement is everyone after the winner.
  assign upto_winner = (gnt_o - 1'b1) | gnt_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mask_q <= '1;
    end else if (advance_i && (|req_i)) begin
      mask_q <= ~upto_winner;
    end
  end
endmodule
