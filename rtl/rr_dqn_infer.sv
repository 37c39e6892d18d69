// The DQN inference block of DQN-routing (docs/dqn.md): a fixed-point
// multilayer perceptron of NL layers, SIZES[0] inputs -> SIZES[1] -> ... ->
// SIZES[NL] Q-values, one per DQN output channel, and the argmax over the
// channels the action mask allows (ties: the lowest index). Each layer
// (rr_dqn_layer) runs NPAR x IPAR multiply-accumulates per cycle, so a
// decision takes L = sum over layers of (TO x TI + 3) + 3 cycles from start_i
// to done_o (ref::dqn_latency_cycles). The layers form a pipeline: the block
// takes a new observation every II = max over layers of TO x TI cycles
// (ready_o; ref::dqn_interval_cycles), so up to ceil(L / II) decisions are in
// flight; they finish in order, each with the tag it started with (tag_o).
// Bit-exact reference: ref/src/dqn_inference.cpp.
// Programming port: prog_layer_i selects the layer, prog_kind_i
// (rr_pkg::DQN_PROG_*) its weight memory, its biases or its rounding shift,
// prog_addr_i the word or neuron (rr_dqn_layer). Program it while no
// decision is in flight.
module rr_dqn_infer #(
  parameter int unsigned NL = 3,                      // layers (1..4)
  parameter logic [79:0] SIZES = {16'd0, 16'd4, 16'd32, 16'd32, 16'd13},  // SIZES[16l +: 16]: width l
  parameter int unsigned WB = 8,
  parameter int unsigned AB = 8,
  parameter int unsigned ACCW = 22,
  parameter int unsigned NPAR = 8,
  parameter int unsigned IPAR = 4,
  parameter int unsigned PROG_ADDR_W = 8,                      // programming address bits
  parameter int unsigned TAGW = 1,                    // bits of a decision's tag
  localparam int unsigned NIN = 32'(SIZES[15:0]),
  localparam int unsigned NOUT = 32'(SIZES[16*NL+:16]),
  localparam int unsigned LAYER_W = rr_pkg::id_width(NL),
  localparam int unsigned PDW = (NPAR * IPAR * WB > ACCW) ? NPAR * IPAR * WB : ACCW,
  localparam int unsigned ACTION_W = rr_pkg::id_width(NOUT)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              start_i,       // take obs_i, mask_i and tag_i (when ready_o; else ignored)
  input  logic [NIN*AB-1:0] obs_i,
  input  logic [NOUT-1:0]   mask_i,
  input  logic [TAGW-1:0]   tag_i,
  output logic              ready_o,       // a start is taken this cycle
  output logic              done_o,        // one cycle: q_o, action_o, action_valid_o, tag_o
  output logic [TAGW-1:0]   tag_o,
  output logic [NOUT*ACCW-1:0] q_o,
  output logic [ACTION_W-1:0]   action_o,
  output logic              action_valid_o,  // the mask allowed some output
  input  logic              prog_we_i,
  input  logic [LAYER_W-1:0]     prog_layer_i,
  input  logic [1:0]        prog_kind_i,   // rr_pkg::DQN_PROG_*
  input  logic [PROG_ADDR_W-1:0]     prog_addr_i,
  input  logic [PDW-1:0]    prog_data_i
);
  function automatic int unsigned size_of(input int unsigned l);
    size_of = 32'(SIZES[16*l+:16]);
  endfunction
  // The layers' tiles: the block's initiation interval and its latency.
  function automatic int unsigned tiles_of(input int unsigned l);
    tiles_of = ((size_of(l + 1) + NPAR - 1) / NPAR) * ((size_of(l) + IPAR - 1) / IPAR);
  endfunction
  function automatic int unsigned interval();
    interval = 1;
    for (int unsigned l = 0; l < NL; l++) if (tiles_of(l) > interval) interval = tiles_of(l);
  endfunction
  function automatic int unsigned latency();
    latency = 3;
    for (int unsigned l = 0; l < NL; l++) latency = latency + tiles_of(l) + 3;
  endfunction
  localparam int unsigned II = interval();
  localparam int unsigned IIW = rr_pkg::id_width(II);
  // Decisions in flight: at most one per II cycles of the latency.
  localparam int unsigned DEPTH = (latency() + II - 1) / II + 1;
  localparam int unsigned RING_W = rr_pkg::id_width(DEPTH);
  localparam int unsigned MASK_TAG_W = NOUT + TAGW;  // a decision's {mask, tag}

  logic [NIN*AB-1:0] obs_q;
  logic              run_q, argmax_q;
  logic [NL:0]       layer_start;
  logic [NL-1:0]     layer_done, layer_busy;
  logic [NOUT*ACCW-1:0] q;
  logic              take;

  // The interval: a start is taken II cycles after the previous one at the earliest.
  logic [IIW-1:0] gap_q;
  assign ready_o = gap_q == '0;
  assign take    = start_i && ready_o;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) gap_q <= '0;
    else if (take) gap_q <= IIW'(II - 1);
    else if (gap_q != '0) gap_q <= gap_q - 1'b1;
  end

  // The {mask, tag} of each decision in flight, oldest first (a ring).
  logic [MASK_TAG_W-1:0] fifo_q [DEPTH];
  logic [RING_W-1:0] wr_q, rd_q;
  logic [MASK_TAG_W-1:0] oldest;
  assign oldest = fifo_q[rd_q];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_q <= '0;
      rd_q <= '0;
      for (int unsigned k = 0; k < DEPTH; k++) fifo_q[k] <= '0;
    end else begin
      if (take) begin
        fifo_q[wr_q] <= {mask_i, tag_i};
        wr_q <= (wr_q == RING_W'(DEPTH - 1)) ? '0 : wr_q + 1'b1;
      end
      if (argmax_q) rd_q <= (rd_q == RING_W'(DEPTH - 1)) ? '0 : rd_q + 1'b1;
    end
  end

  assign layer_start[0] = run_q;

  for (genvar l = 0; l < NL; l++) begin : gen_layer
    localparam int unsigned FAN_IN = size_of(l);
    localparam int unsigned NEURONS = size_of(l + 1);
    localparam bit LAST = (l == NL - 1);
    localparam int unsigned NEURON_W = LAST ? ACCW : AB;
    logic [FAN_IN*AB-1:0] x;
    logic [NEURONS*NEURON_W-1:0] y;
    if (l == 0) begin : gen_obs
      assign x = obs_q;
    end else begin : gen_hidden
      assign x = gen_layer[l-1].y[FAN_IN*AB-1:0];
    end
    rr_dqn_layer #(
      .FAN_IN(FAN_IN), .NEURONS(NEURONS), .WB(WB), .AB(AB), .ACCW(ACCW), .NPAR(NPAR), .IPAR(IPAR),
      .LAST(LAST), .PROG_ADDR_W(PROG_ADDR_W)
    ) i_layer (
      .clk_i, .rst_ni,
      .start_i    (layer_start[l]),
      .x_i        (x),
      .busy_o     (layer_busy[l]),
      .done_o     (layer_done[l]),
      .y_o        (y),
      .prog_we_i  (prog_we_i && prog_layer_i == LAYER_W'(l)),
      .prog_kind_i,
      .prog_addr_i,
      .prog_data_i
    );
    assign layer_start[l+1] = layer_done[l];
    if (LAST) begin : gen_q
      assign q = y;
    end
  end
  logic unused_layers;
  assign unused_layers = ^{layer_start[NL], layer_busy};

  // Argmax over the allowed outputs of the oldest decision, registered in
  // the cycle after the last layer's done.
  logic [ACTION_W-1:0] best;
  logic            any;
  rr_dqn_argmax #(.NOUT(NOUT), .ACCW(ACCW)) i_argmax (
    .q_i     (q),
    .mask_i  (oldest[TAGW+:NOUT]),
    .action_o(best),
    .any_o   (any)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      obs_q          <= '0;
      run_q          <= 1'b0;
      argmax_q       <= 1'b0;
      done_o         <= 1'b0;
      q_o            <= '0;
      action_o       <= '0;
      action_valid_o <= 1'b0;
      tag_o          <= '0;
    end else begin
      run_q    <= take;
      argmax_q <= layer_done[NL-1];
      done_o   <= argmax_q;
      if (take) obs_q <= obs_i;
      if (argmax_q) begin
        q_o            <= q;
        action_o       <= best;
        action_valid_o <= any;
        tag_o          <= oldest[TAGW-1:0];
      end
    end
  end
endmodule
