// One layer of the DQN inference block (rr_dqn_infer): y = f(round_shift(b +
// W x, shift)), f = saturate to AB bits and ReLU for a hidden layer (LAST =
// 0), identity for the output layer (LAST = 1: the ACCW-bit Q-values).
// NPAR neurons x IPAR inputs per cycle; TO x TI + 3 cycles from start_i to
// done_o (TO = ceil(NEURONS / NPAR), TI = ceil(FAN_IN / IPAR)). Pipelined: it latches
// x_i at start_i and takes the next start TO x TI cycles later; y_o is
// complete at done_o and holds for at least TI + 1 cycles.
// Programming port: prog_kind_i selects weight word prog_addr_i (tile_o x TI
// + tile_i), the bias of neuron prog_addr_i or the rounding shift.
// Bit-exact reference: ref/src/dqn_inference.cpp. docs/dqn.md, "The tiled block",
// has the formats, the weight word's lanes and the timing.
module rr_dqn_layer #(
  parameter int unsigned FAN_IN = 13,     // inputs
  parameter int unsigned NEURONS = 32,     // outputs (neurons)
  parameter int unsigned WB = 8,      // signed weight bits
  parameter int unsigned AB = 8,      // signed activation bits (inputs, hidden outputs)
  parameter int unsigned ACCW = 24,   // accumulator bits (ref: DqnNetwork::accumulator_bits)
  parameter int unsigned NPAR = 4,    // neurons per cycle
  parameter int unsigned IPAR = 4,    // inputs per cycle
  parameter bit          LAST = 1'b0, // the output layer: no saturation, no ReLU
  parameter int unsigned PROG_ADDR_W = 8,      // programming address bits
  localparam int unsigned NEURON_W = LAST ? ACCW : AB,  // bits of an output
  localparam int unsigned TO = (NEURONS + NPAR - 1) / NPAR,
  localparam int unsigned TI = (FAN_IN + IPAR - 1) / IPAR,
  localparam int unsigned DEPTH = TO * TI,
  localparam int unsigned WEIGHT_WORD_W = NPAR * IPAR * WB,    // weight word
  localparam int unsigned PDW = (WEIGHT_WORD_W > ACCW) ? WEIGHT_WORD_W : ACCW,  // programming data: a word or a bias
  localparam int unsigned SHW = $clog2(ACCW)               // a shift, 0..ACCW-1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic [FAN_IN*AB-1:0] x_i,
  output logic            busy_o,   // issuing or accumulating
  output logic            done_o,   // one cycle; y_o valid from then until the next start
  output logic [NEURONS*NEURON_W-1:0] y_o,
  input  logic            prog_we_i,
  input  logic [1:0]      prog_kind_i,    // rr_pkg::DQN_PROG_*
  input  logic [PROG_ADDR_W-1:0]   prog_addr_i,
  input  logic [PDW-1:0]  prog_data_i
);
  localparam int unsigned TOW = rr_pkg::id_width(TO);
  localparam int unsigned TIW = rr_pkg::id_width(TI);
  localparam int unsigned ADDR_W = rr_pkg::id_width(DEPTH);

  // Weights: one word per (neuron tile, input tile), registered read.
  logic [WEIGHT_WORD_W-1:0] mem [DEPTH];
  logic [WEIGHT_WORD_W-1:0] word_q;
  logic [ADDR_W-1:0] rd_addr;
  always_ff @(posedge clk_i) begin
    if (prog_we_i && prog_kind_i == rr_pkg::DQN_PROG_WEIGHT && {1'b0, prog_addr_i} < (PROG_ADDR_W+1)'(DEPTH)) begin
      mem[ADDR_W'(prog_addr_i)] <= prog_data_i[WEIGHT_WORD_W-1:0];
    end
    word_q <= mem[rd_addr];
  end

  // Biases and the shift: registers.
  logic [NEURONS*ACCW-1:0] bias_q;
  logic [SHW-1:0]     shift_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bias_q  <= '0;
      shift_q <= '0;
    end else if (prog_we_i && prog_kind_i == rr_pkg::DQN_PROG_BIAS) begin
      for (int unsigned o = 0; o < NEURONS; o++) begin
        if (prog_addr_i == PROG_ADDR_W'(o)) bias_q[o*ACCW+:ACCW] <= prog_data_i[ACCW-1:0];
      end
    end else if (prog_we_i && prog_kind_i == rr_pkg::DQN_PROG_SHIFT) begin
      shift_q <= prog_data_i[SHW-1:0];
    end
  end
  // The observation of the decision being issued.
  logic [FAN_IN*AB-1:0] x_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) x_q <= '0;
    else if (start_i) x_q <= x_i;
  end

  // Sequencer: issue (tile_o, tile_i) in cycle t, accumulate its word in t+1.
  logic           issuing_q, acc_valid_q, acc_last_i_q, acc_first_i_q;
  logic [TOW-1:0] tile_o_q, acc_tile_o_q;
  logic [TIW-1:0] tile_i_q;
  assign rd_addr = ADDR_W'(32'(tile_o_q) * TI + 32'(tile_i_q));
  assign busy_o  = issuing_q || acc_valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      issuing_q     <= 1'b0;
      tile_o_q      <= '0;
      tile_i_q      <= '0;
      acc_valid_q   <= 1'b0;
      acc_tile_o_q  <= '0;
      acc_first_i_q <= 1'b0;
      acc_last_i_q  <= 1'b0;
    end else begin
      acc_valid_q   <= issuing_q;
      acc_tile_o_q  <= tile_o_q;
      acc_first_i_q <= tile_i_q == '0;
      acc_last_i_q  <= tile_i_q == TIW'(TI - 1);
      if (start_i) begin
        issuing_q <= 1'b1;
        tile_o_q  <= '0;
        tile_i_q  <= '0;
      end else if (issuing_q) begin
        if (tile_i_q == TIW'(TI - 1)) begin
          tile_i_q <= '0;
          if (tile_o_q == TOW'(TO - 1)) issuing_q <= 1'b0;
          else tile_o_q <= tile_o_q + 1'b1;
        end else begin
          tile_i_q <= tile_i_q + 1'b1;
        end
      end
    end
  end

  // The input tile of the word being issued: inputs tile_i x IPAR + i (zero
  // past FAN_IN), selected by comparing the tile index with constants, and
  // registered with the word's read (xs_q: the tile being accumulated).
  logic [IPAR*AB-1:0] xs, xs_q;
  always_comb begin
    xs = '0;
    for (int unsigned t = 0; t < TI; t++) begin
      if (tile_i_q == TIW'(t)) begin
        for (int unsigned i = 0; i < IPAR; i++) begin
          if (t * IPAR + i < FAN_IN) xs[i*AB+:AB] = x_q[(t*IPAR+i)*AB+:AB];
        end
      end
    end
  end
  always_ff @(posedge clk_i) xs_q <= xs;

  // The biases of this neuron tile.
  logic [NPAR*ACCW-1:0] bs;
  always_comb begin
    bs = '0;
    for (int unsigned t = 0; t < TO; t++) begin
      if (acc_tile_o_q == TOW'(t)) begin
        for (int unsigned n = 0; n < NPAR; n++) begin
          if (t * NPAR + n < NEURONS) bs[n*ACCW+:ACCW] = bias_q[(t*NPAR+n)*ACCW+:ACCW];
        end
      end
    end
  end

  // NPAR accumulators and the sums of this cycle.
  logic [NPAR*ACCW-1:0] acc_q, acc_d;
  always_comb begin
    for (int unsigned n = 0; n < NPAR; n++) begin
      logic signed [ACCW-1:0] sum;
      sum = acc_first_i_q ? $signed(bs[n*ACCW+:ACCW]) : $signed(acc_q[n*ACCW+:ACCW]);
      for (int unsigned i = 0; i < IPAR; i++) begin
        sum = sum + ACCW'($signed(word_q[(n*IPAR+i)*WB+:WB]) * $signed(xs_q[i*AB+:AB]));
      end
      acc_d[n*ACCW+:ACCW] = sum;
    end
  end

  // Each neuron's result from its registered sum, in the cycle after the
  // tile's last accumulation (its own pipeline stage: the multiply-add chain
  // and the rounding would be one long path).
  logic [NPAR*NEURON_W-1:0] res;
  rr_dqn_activate #(.N(NPAR), .ACCW(ACCW), .AB(AB), .LAST(LAST)) i_activate (
    .sum_i  (acc_q),
    .shift_i(shift_q),
    .y_o    (res)
  );

  logic           out_valid_q;  // acc_q holds a neuron tile's finished sums
  logic [TOW-1:0] out_tile_o_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q        <= '0;
      out_valid_q  <= 1'b0;
      out_tile_o_q <= '0;
      y_o          <= '0;
      done_o       <= 1'b0;
    end else begin
      done_o      <= 1'b0;
      out_valid_q <= acc_valid_q && acc_last_i_q;
      if (acc_valid_q) begin
        acc_q        <= acc_d;
        out_tile_o_q <= acc_tile_o_q;
      end
      if (out_valid_q) begin
        for (int unsigned o = 0; o < NEURONS; o++) begin
          if (out_tile_o_q == TOW'(o / NPAR)) y_o[o*NEURON_W+:NEURON_W] <= res[(o%NPAR)*NEURON_W+:NEURON_W];
        end
        if (out_tile_o_q == TOW'(TO - 1)) done_o <= 1'b1;
      end
    end
  end
endmodule
