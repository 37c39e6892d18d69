// The DQN inference block of DQN-routing (docs/dqn.md): a fixed-point
// multilayer perceptron of NL layers, SIZES[0] inputs -> SIZES[1] -> ... ->
// SIZES[NL] Q-values, one per DQN output channel, and the argmax over the
// channels the action mask allows (ties: the lowest index). The layers run
// one after the other (rr_dqn_layer, NPAR x IPAR multiply-accumulates per
// cycle each), so a decision takes sum over layers of (TO x TI + 2) cycles
// + 3 from start_i to done_o (ref::dqn_latency_cycles), and the block takes
// the next observation when done. Bit-exact reference:
// ref/src/dqn_inference.cpp.
// Programming port: prog_layer_i selects the layer, prog_kind_i
// (rr_pkg::DQN_PROG_*) its weight memory, its biases or its rounding shift,
// prog_addr_i the word or neuron (rr_dqn_layer).
module rr_dqn_infer #(
  parameter int unsigned NL = 3,                      // layers (1..4)
  parameter logic [79:0] SIZES = {16'd0, 16'd4, 16'd32, 16'd32, 16'd13},  // SIZES[16l +: 16]: width l
  parameter int unsigned WB = 8,
  parameter int unsigned AB = 8,
  parameter int unsigned ACCW = 22,
  parameter int unsigned NPAR = 8,
  parameter int unsigned IPAR = 4,
  parameter int unsigned AW = 8,                      // programming address bits
  localparam int unsigned NIN = 32'(SIZES[15:0]),
  localparam int unsigned NOUT = 32'(SIZES[16*NL+:16]),
  localparam int unsigned LW = rr_pkg::id_width(NL),
  localparam int unsigned PDW = (NPAR * IPAR * WB > ACCW) ? NPAR * IPAR * WB : ACCW,
  localparam int unsigned OUTW = rr_pkg::id_width(NOUT)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              start_i,       // take obs_i and mask_i (when !busy_o)
  input  logic [NIN*AB-1:0] obs_i,
  input  logic [NOUT-1:0]   mask_i,
  output logic              busy_o,
  output logic              done_o,        // one cycle: q_o, action_o, action_valid_o
  output logic [NOUT*ACCW-1:0] q_o,
  output logic [OUTW-1:0]   action_o,
  output logic              action_valid_o,  // the mask allowed some output
  input  logic              prog_we_i,
  input  logic [LW-1:0]     prog_layer_i,
  input  logic [1:0]        prog_kind_i,   // rr_pkg::DQN_PROG_*
  input  logic [AW-1:0]     prog_addr_i,
  input  logic [PDW-1:0]    prog_data_i
);
  function automatic int unsigned size_of(input int unsigned l);
    size_of = 32'(SIZES[16*l+:16]);
  endfunction

  logic [NIN*AB-1:0] obs_q;
  logic [NOUT-1:0]   mask_q;
  logic              run_q, argmax_q;
  logic [NL:0]       layer_start;
  logic [NL-1:0]     layer_done, layer_busy;
  logic [NOUT*ACCW-1:0] q;

  assign layer_start[0] = run_q;

  for (genvar l = 0; l < NL; l++) begin : gen_layer
    localparam int unsigned NI = size_of(l);
    localparam int unsigned NO = size_of(l + 1);
    localparam bit LAST = (l == NL - 1);
    localparam int unsigned OW = LAST ? ACCW : AB;
    logic [NI*AB-1:0] x;
    logic [NO*OW-1:0] y;
    if (l == 0) begin : gen_obs
      assign x = obs_q;
    end else begin : gen_hidden
      assign x = gen_layer[l-1].y[NI*AB-1:0];
    end
    rr_dqn_layer #(
      .NI(NI), .NO(NO), .WB(WB), .AB(AB), .ACCW(ACCW), .NPAR(NPAR), .IPAR(IPAR),
      .LAST(LAST), .AW(AW)
    ) i_layer (
      .clk_i, .rst_ni,
      .start_i    (layer_start[l]),
      .x_i        (x),
      .busy_o     (layer_busy[l]),
      .done_o     (layer_done[l]),
      .y_o        (y),
      .prog_we_i  (prog_we_i && prog_layer_i == LW'(l)),
      .prog_kind_i,
      .prog_addr_i,
      .prog_data_i
    );
    assign layer_start[l+1] = layer_done[l];
    if (LAST) begin : gen_q
      assign q = y;
    end
  end
  logic unused_start;
  assign unused_start = layer_start[NL];

  // Argmax over the allowed outputs, registered in the cycle after the last
  // layer's done.
  logic [OUTW-1:0] best;
  logic            any;
  always_comb begin
    logic signed [ACCW-1:0] best_q;
    best   = '0;
    best_q = '0;
    any    = 1'b0;
    for (int unsigned o = 0; o < NOUT; o++) begin
      if (mask_q[o] && (!any || $signed(q[o*ACCW+:ACCW]) > best_q)) begin
        best   = OUTW'(o);
        best_q = $signed(q[o*ACCW+:ACCW]);
        any    = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      obs_q          <= '0;
      mask_q         <= '0;
      run_q          <= 1'b0;
      argmax_q       <= 1'b0;
      done_o         <= 1'b0;
      q_o            <= '0;
      action_o       <= '0;
      action_valid_o <= 1'b0;
    end else begin
      run_q    <= 1'b0;
      argmax_q <= layer_done[NL-1];
      done_o   <= argmax_q;
      if (start_i && !busy_o) begin
        obs_q  <= obs_i;
        mask_q <= mask_i;
        run_q  <= 1'b1;
      end
      if (argmax_q) begin
        q_o            <= q;
        action_o       <= best;
        action_valid_o <= any;
      end
    end
  end
  assign busy_o = run_q || (|layer_busy) || (|layer_done) || argmax_q;
endmodule
