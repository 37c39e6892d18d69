// One layer of the parallel DQN inference block (rr_dqn_infer_parallel):
// every neuron's sum b_o + sum_i w_oi x_i in one cycle, registered (acc_o),
// and y_o = f(round_shift(acc, shift)) from the registered sums, f = saturate
// to AB bits and ReLU for a hidden layer (LAST = 0), identity for the output
// layer (LAST = 1: the ACCW-bit Q-values). x_i is taken in every cycle, so
// the layer starts one decision per cycle and y_o follows x_i by one.
// Weights: CONST = 0, registers written through the programming port
// (prog_kind_i WEIGHT: neuron prog_addr_i's weights, input i at lane i of
// WB bits; BIAS: neuron prog_addr_i's bias; SHIFT); CONST = 1, the
// parameters WEIGHTS (neuron o, input i at bits (o x FAN_IN + i) x WB),
// BIASES and SHIFT, so that each product is shift-and-add logic in the
// weight's canonical signed digits and a zero weight costs nothing.
// Bit-exact reference: ref/src/dqn_inference.cpp; docs/dqn.md, "The parallel block".
module rr_dqn_layer_parallel #(
  parameter int unsigned FAN_IN = 13,
  parameter int unsigned NEURONS = 32,
  parameter int unsigned WB = 8,       // signed weight bits
  parameter int unsigned AB = 8,       // signed activation bits (inputs, hidden outputs)
  parameter int unsigned ACCW = 24,    // accumulator bits (ref: DqnNetwork::accumulator_bits)
  parameter bit          LAST = 1'b0,  // the output layer: no saturation, no ReLU
  parameter int unsigned PROG_ADDR_W = 8,
  parameter bit          CONST = 1'b0, // weights, biases and shift are the parameters below
  /* verilator lint_off WIDTHCONCAT */  // a network's constants may pass 8k bits
  parameter logic [FAN_IN*NEURONS*WB-1:0] WEIGHTS = '0,
  parameter logic [NEURONS*ACCW-1:0]      BIASES = '0,
  parameter int unsigned                  SHIFT = 0,
  /* verilator lint_on WIDTHCONCAT */
  localparam int unsigned NEURON_W = LAST ? ACCW : AB,
  localparam int unsigned PDW = (FAN_IN * WB > ACCW) ? FAN_IN * WB : ACCW,  // a neuron's weights or a bias
  localparam int unsigned SHW = $clog2(ACCW)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic [FAN_IN*AB-1:0]        x_i,
  output logic [NEURONS*NEURON_W-1:0] y_o,   // of the x_i of the previous cycle
  input  logic                        prog_we_i,
  input  logic [1:0]                  prog_kind_i,  // rr_pkg::DQN_PROG_*
  input  logic [PROG_ADDR_W-1:0]      prog_addr_i,
  input  logic [PDW-1:0]              prog_data_i
);
  logic [FAN_IN*NEURONS*WB-1:0] weights;
  logic [NEURONS*ACCW-1:0]      biases;
  logic [SHW-1:0]               shift;

  if (CONST) begin : gen_const
    assign weights = WEIGHTS;
    assign biases  = BIASES;
    assign shift   = SHW'(SHIFT);
    logic unused_prog;
    assign unused_prog = ^{clk_i, prog_we_i, prog_kind_i, prog_addr_i, prog_data_i, weights};  // the digits below are used
  end else begin : gen_programmable
    logic [FAN_IN*NEURONS*WB-1:0] weights_q;
    logic [NEURONS*ACCW-1:0]      biases_q;
    logic [SHW-1:0]               shift_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        weights_q <= '0;
        biases_q  <= '0;
        shift_q   <= '0;
      end else if (prog_we_i) begin
        for (int unsigned o = 0; o < NEURONS; o++) begin
          if (prog_addr_i == PROG_ADDR_W'(o)) begin
            if (prog_kind_i == rr_pkg::DQN_PROG_WEIGHT) weights_q[o*FAN_IN*WB+:FAN_IN*WB] <= prog_data_i[FAN_IN*WB-1:0];
            if (prog_kind_i == rr_pkg::DQN_PROG_BIAS) biases_q[o*ACCW+:ACCW] <= prog_data_i[ACCW-1:0];
          end
        end
        if (prog_kind_i == rr_pkg::DQN_PROG_SHIFT) shift_q <= prog_data_i[SHW-1:0];
      end
    end
    assign weights = weights_q;
    assign biases  = biases_q;
    assign shift   = shift_q;
  end

  // The canonical signed digits of the constant weights (no two adjacent
  // digits nonzero), WB + 1 per weight: weight (o, i)'s digit k is +2^k if
  // bit ((o x FAN_IN + i) x (WB + 1) + k) of POS is set, -2^k if NEG's is.
  localparam int unsigned NW = FAN_IN * NEURONS;
  /* verilator lint_off WIDTHCONCAT */
  function automatic logic [NW*(WB+1)-1:0] csd_digits(input bit negative);
    int r;
    csd_digits = '0;
    for (int unsigned n = 0; n < NW; n++) begin
      r = 32'($signed(WEIGHTS[n*WB+:WB]));
      for (int unsigned k = 0; k <= WB; k++) begin
        if (r % 2 != 0) begin
          if (((r % 4) + 4) % 4 == 1) begin
            if (!negative) csd_digits[n*(WB+1)+k] = 1'b1;
            r = r - 1;
          end else begin
            if (negative) csd_digits[n*(WB+1)+k] = 1'b1;
            r = r + 1;
          end
        end
        r = r / 2;
      end
    end
  endfunction
  localparam logic [NW*(WB+1)-1:0] POS = CONST ? csd_digits(1'b0) : '0;
  localparam logic [NW*(WB+1)-1:0] NEG = CONST ? csd_digits(1'b1) : '0;
  /* verilator lint_on WIDTHCONCAT */

  // Every product w_oi x_i (a generate block each, so that a constant
  // weight's digits are constants where its terms are summed), then every
  // neuron's sum of this cycle's inputs, registered.
  logic [NEURONS*ACCW-1:0] acc_d, acc_q;
  for (genvar o = 0; o < NEURONS; o++) begin : gen_neuron
    logic [FAN_IN*ACCW-1:0] terms;
    for (genvar i = 0; i < FAN_IN; i++) begin : gen_input
      logic signed [ACCW-1:0] x;
      assign x = ACCW'($signed(x_i[i*AB+:AB]));
      if (CONST) begin : gen_digits
        localparam logic [WB:0] PLUS = POS[(o*FAN_IN+i)*(WB+1)+:WB+1];
        localparam logic [WB:0] MINUS = NEG[(o*FAN_IN+i)*(WB+1)+:WB+1];
        always_comb begin
          logic signed [ACCW-1:0] t;
          t = '0;
          for (int unsigned k = 0; k <= WB; k++) begin
            if (PLUS[k]) t = t + (x <<< k);
            if (MINUS[k]) t = t - (x <<< k);
          end
          terms[i*ACCW+:ACCW] = t;
        end
      end else begin : gen_multiply
        assign terms[i*ACCW+:ACCW] = ACCW'($signed(weights[(o*FAN_IN+i)*WB+:WB]) * x);
      end
    end
    always_comb begin
      logic signed [ACCW-1:0] sum;
      sum = $signed(biases[o*ACCW+:ACCW]);
      for (int unsigned i = 0; i < FAN_IN; i++) sum = sum + $signed(terms[i*ACCW+:ACCW]);
      acc_d[o*ACCW+:ACCW] = sum;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) acc_q <= '0;
    else acc_q <= acc_d;
  end

  rr_dqn_activate #(.N(NEURONS), .ACCW(ACCW), .AB(AB), .LAST(LAST)) i_activate (
    .sum_i  (acc_q),
    .shift_i(shift),
    .y_o
  );
endmodule
