// The parallel DQN inference block of DQN-routing (docs/dqn.md, "The
// parallel block"): the same fixed-point multilayer perceptron as
// rr_dqn_infer (NL layers, SIZES[0] inputs -> ... -> SIZES[NL] Q-values, the
// argmax over the channels the action mask allows, ties to the lowest
// index), with every multiplication of a layer in one cycle
// (rr_dqn_layer_parallel). It takes an observation in every cycle and a
// decision is done L = NL + 2 cycles after its start (the observation
// registered, one cycle per layer, the argmax registered;
// ref::dqn_parallel_latency_cycles); decisions finish in order, each with
// its tag. Weights: CONST = 0, registers programmed through the port below
// (prog_addr_i: a neuron; ref::dqn_program(network, 1, the largest fan-in));
// CONST = 1, the parameters WEIGHTS, BIASES and SHIFTS (layer by layer,
// ref::dqn_constants) and no programming port in use.
// Bit-exact reference: ref/src/dqn_inference.cpp.
module rr_dqn_infer_parallel #(
  parameter int unsigned NL = 3,
  parameter logic [79:0] SIZES = {16'd0, 16'd4, 16'd32, 16'd32, 16'd13},  // SIZES[16l +: 16]: width l
  parameter int unsigned WB = 8,
  parameter int unsigned AB = 8,
  parameter int unsigned ACCW = 22,
  parameter int unsigned PROG_ADDR_W = 8,
  parameter int unsigned TAGW = 1,
  parameter bit          CONST = 1'b0,
  localparam int unsigned NIN = 32'(SIZES[15:0]),
  localparam int unsigned NOUT = 32'(SIZES[16*NL+:16]),
  localparam int unsigned NUM_WEIGHTS = rr_pkg::dqn_num_weights(SIZES),
  localparam int unsigned NUM_BIASES = rr_pkg::dqn_num_biases(SIZES),
  /* verilator lint_off WIDTHCONCAT */  // a network's constants may pass 8k bits
  parameter logic [NUM_WEIGHTS*WB-1:0] WEIGHTS = '0,    // CONST: layer by layer, neuron o, input i
  parameter logic [NUM_BIASES*ACCW-1:0] BIASES = '0,    // CONST: layer by layer, neuron o
  parameter logic [4*8-1:0]             SHIFTS = '0,    // CONST: layer l's at bits 8l
  /* verilator lint_on WIDTHCONCAT */
  localparam int unsigned MAX_FAN_IN = rr_pkg::max_fan_in(SIZES, NL),
  localparam int unsigned PDW = (MAX_FAN_IN * WB > ACCW) ? MAX_FAN_IN * WB : ACCW,
  localparam int unsigned LAYER_W = rr_pkg::id_width(NL),
  localparam int unsigned ACTION_W = rr_pkg::id_width(NOUT)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              start_i,
  input  logic [NIN*AB-1:0] obs_i,
  input  logic [NOUT-1:0]   mask_i,
  input  logic [TAGW-1:0]   tag_i,
  output logic              ready_o,         // always: one start per cycle
  output logic              done_o,          // one cycle: q_o, action_o, action_valid_o, tag_o
  output logic [TAGW-1:0]   tag_o,
  output logic [NOUT*ACCW-1:0] q_o,
  output logic [ACTION_W-1:0]  action_o,
  output logic              action_valid_o,  // the mask allowed some output
  input  logic              prog_we_i,
  input  logic [LAYER_W-1:0] prog_layer_i,
  input  logic [1:0]        prog_kind_i,     // rr_pkg::DQN_PROG_*
  input  logic [PROG_ADDR_W-1:0] prog_addr_i,
  input  logic [PDW-1:0]    prog_data_i
);
  function automatic int unsigned size_of(input int unsigned l);
    size_of = 32'(SIZES[16*l+:16]);
  endfunction
  // Where layer l's weights and biases start in WEIGHTS and BIASES.
  function automatic int unsigned weights_before(input int unsigned l);
    weights_before = 0;
    for (int unsigned k = 0; k < l; k++) weights_before = weights_before + size_of(k) * size_of(k + 1);
  endfunction
  function automatic int unsigned biases_before(input int unsigned l);
    biases_before = 0;
    for (int unsigned k = 0; k < l; k++) biases_before = biases_before + size_of(k + 1);
  endfunction

  assign ready_o = 1'b1;

  // A decision's {valid, mask, tag} beside its data: the observation
  // register, then one stage per layer.
  localparam int unsigned META_W = 1 + NOUT + TAGW;
  logic [META_W-1:0] meta_q [NL+1];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned s = 0; s <= NL; s++) meta_q[s] <= '0;
    end else begin
      meta_q[0] <= {start_i, mask_i, tag_i};
      for (int unsigned s = 1; s <= NL; s++) meta_q[s] <= meta_q[s-1];
    end
  end

  logic [NIN*AB-1:0] obs_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) obs_q <= '0;
    else obs_q <= obs_i;
  end

  logic [NOUT*ACCW-1:0] q;
  for (genvar l = 0; l < NL; l++) begin : gen_layer
    localparam int unsigned FAN_IN = size_of(l);
    localparam int unsigned NEURONS = size_of(l + 1);
    localparam bit LAST = (l == NL - 1);
    localparam int unsigned NEURON_W = LAST ? ACCW : AB;
    localparam int unsigned LAYER_PDW = (FAN_IN * WB > ACCW) ? FAN_IN * WB : ACCW;
    logic [FAN_IN*AB-1:0] x;
    logic [NEURONS*NEURON_W-1:0] y;
    if (l == 0) begin : gen_obs
      assign x = obs_q;
    end else begin : gen_hidden
      assign x = gen_layer[l-1].y[FAN_IN*AB-1:0];
    end
    rr_dqn_layer_parallel #(
      .FAN_IN(FAN_IN), .NEURONS(NEURONS), .WB(WB), .AB(AB), .ACCW(ACCW), .LAST(LAST),
      .PROG_ADDR_W(PROG_ADDR_W), .CONST(CONST),
      .WEIGHTS(WEIGHTS[weights_before(l)*WB+:FAN_IN*NEURONS*WB]),
      .BIASES(BIASES[biases_before(l)*ACCW+:NEURONS*ACCW]),
      .SHIFT(32'(SHIFTS[8*l+:8]))
    ) i_layer (
      .clk_i, .rst_ni,
      .x_i        (x),
      .y_o        (y),
      .prog_we_i  (prog_we_i && prog_layer_i == LAYER_W'(l)),
      .prog_kind_i,
      .prog_addr_i,
      .prog_data_i(prog_data_i[LAYER_PDW-1:0])
    );
    if (LAST) begin : gen_q
      assign q = y;
    end
  end

  // Argmax over the allowed outputs of the decision leaving the last layer.
  logic [ACTION_W-1:0] best;
  logic            any;
  rr_dqn_argmax #(.NOUT(NOUT), .ACCW(ACCW)) i_argmax (
    .q_i     (q),
    .mask_i  (meta_q[NL][TAGW+:NOUT]),
    .action_o(best),
    .any_o   (any)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_o         <= 1'b0;
      q_o            <= '0;
      action_o       <= '0;
      action_valid_o <= 1'b0;
      tag_o          <= '0;
    end else begin
      done_o <= meta_q[NL][META_W-1];
      if (meta_q[NL][META_W-1]) begin
        q_o            <= q;
        action_o       <= best;
        action_valid_o <= any;
        tag_o          <= meta_q[NL][TAGW-1:0];
      end
    end
  end
endmodule
