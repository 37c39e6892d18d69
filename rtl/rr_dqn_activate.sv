// A DQN layer's outputs from its sums (rr_dqn_layer, rr_dqn_layer_parallel):
// each sum shifted right by `shift_i` rounded half up, then, for a hidden
// layer (LAST = 0), saturated to AB bits and cut at 0 (ReLU); the output
// layer (LAST = 1) keeps the ACCW-bit value (a Q-value). Combinational.
// Bit-exact reference: ref::round_shift and ref::dqn_infer.
module rr_dqn_activate #(
  parameter int unsigned N = 4,       // sums
  parameter int unsigned ACCW = 22,
  parameter int unsigned AB = 8,
  parameter bit          LAST = 1'b0,
  localparam int unsigned NEURON_W = LAST ? ACCW : AB,
  localparam int unsigned SHW = $clog2(ACCW)
) (
  input  logic [N*ACCW-1:0]     sum_i,
  input  logic [SHW-1:0]        shift_i,
  output logic [N*NEURON_W-1:0] y_o
);
  // Half a step of the shift, added before it (round half up).
  logic signed [ACCW:0] half;
  assign half = (shift_i == '0) ? '0 : (ACCW+1)'(1) <<< (shift_i - 1'b1);
  always_comb begin
    for (int unsigned n = 0; n < N; n++) begin
      logic signed [ACCW:0] rounded;
      // one bit wider, so the rounding cannot overflow
      rounded = ((ACCW+1)'($signed(sum_i[n*ACCW+:ACCW])) + half) >>> shift_i;
      if (LAST) begin
        y_o[n*NEURON_W+:NEURON_W] = NEURON_W'(rounded);
      end else if (rounded < 0) begin
        y_o[n*NEURON_W+:NEURON_W] = '0;  // ReLU
      end else if (rounded > (ACCW+1)'((1 << (AB - 1)) - 1)) begin
        y_o[n*NEURON_W+:NEURON_W] = NEURON_W'((1 << (AB - 1)) - 1);  // saturate
      end else begin
        y_o[n*NEURON_W+:NEURON_W] = NEURON_W'(rounded);
      end
    end
  end
endmodule
