// Q-adaptive's update unit ([Kang 2021], section 4, Equation 3;
// docs/q_adaptive.md): one table entry learns from one feedback target.
// delta = target - Q_x; Q_x + floor(delta x rate / 2^RB), rate = ALPHA when
// the estimate falls (delta < 0), BETA when it rises (hysteretic Q-learning);
// the result saturates to the QW-bit value range. Combinational: the table's
// bank wraps it in its read-modify-write. Bit-exact with rlroute::ref::q_update
// (ref/src/q_learning.cpp), which its block test compares on every input.
module rr_q_update #(
  parameter int unsigned QW = 16,      // Q-value bits (routing.q_value_bits)
  parameter int unsigned RB = 8,      // fraction bits of the rates
  parameter int unsigned ALPHA = 51,  // round(alpha x 2^RB), [Kang 2021]: 0.2
  parameter int unsigned BETA = 10    // round(beta x 2^RB), [Kang 2021]: 0.04
) (
  input  logic [QW-1:0] q_i,       // the entry's value Q_x
  input  logic [QW-1:0] target_i,  // r + Q_y, saturated (the feedback)
  output logic [QW-1:0] q_o
);
  localparam int unsigned DELTA_W = QW + 1;           // delta, signed
  localparam int unsigned STEP_W = DELTA_W + RB + 1;     // delta x rate, signed (rate <= 2^RB)
  logic signed [DELTA_W-1:0] delta;
  logic signed [RB+1:0] rate;                   // a non-negative rate as a signed operand
  logic signed [STEP_W-1:0] product, step;
  logic signed [STEP_W:0]   next;

  assign delta = $signed({1'b0, target_i}) - $signed({1'b0, q_i});
  assign rate = delta[DELTA_W-1] ? $signed((RB+2)'(ALPHA)) : $signed((RB+2)'(BETA));
  assign product = STEP_W'(delta) * STEP_W'(rate);
  assign step = product >>> RB;  // floor, as the reference's arithmetic shift
  assign next = $signed({{(STEP_W-QW+1){1'b0}}, q_i}) + (STEP_W+1)'(step);
  // Saturate to 0 .. 2^QW - 1.
  assign q_o = next[STEP_W] ? '0 : (next > $signed((STEP_W+1)'({QW{1'b1}}))) ? '1 : next[QW-1:0];
endmodule
