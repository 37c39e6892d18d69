// The action of a DQN inference block (rr_dqn_infer, rr_dqn_infer_parallel):
// the argmax of the Q-values over the outputs the mask allows, ties to the
// lowest index; any_o low when the mask allows none. Combinational.
// Bit-exact reference: ref::dqn_infer.
module rr_dqn_argmax #(
  parameter int unsigned NOUT = 4,
  parameter int unsigned ACCW = 22,
  localparam int unsigned ACTION_W = rr_pkg::id_width(NOUT)
) (
  input  logic [NOUT*ACCW-1:0] q_i,
  input  logic [NOUT-1:0]      mask_i,
  output logic [ACTION_W-1:0]  action_o,
  output logic                 any_o
);
  always_comb begin
    logic signed [ACCW-1:0] best_q;
    action_o = '0;
    best_q   = '0;
    any_o    = 1'b0;
    for (int unsigned o = 0; o < NOUT; o++) begin
      if (mask_i[o] && (!any_o || $signed(q_i[o*ACCW+:ACCW]) > best_q)) begin
        action_o = ACTION_W'(o);
        best_q   = $signed(q_i[o*ACCW+:ACCW]);
        any_o    = 1'b1;
      end
    end
  end
endmodule
