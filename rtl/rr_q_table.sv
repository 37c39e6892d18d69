// Q-adaptive's table ([Kang 2021], section 4): ROWS rows x NUM_COLS columns of
// QW-bit Q-values, one column per network port of the router, learning online
// from the feedback that comes back with the credits.
// Banked by column: bank c holds column c and takes the feedback of output
// port c, one read-modify-write per cycle through its rr_q_update. READ_PORTS
// row read ports read the same row of every bank, asynchronously; a read sees
// the table as it was at the start of the cycle.
// After reset the table writes its initial values, one row per cycle
// (init_row_o, the values on init_value_i); ready_o rises after ROWS cycles,
// and feedback that arrives before is dropped (fb_drop_o).
// docs/q_adaptive.md, "The hardware" and "The table's memory", has why.
module rr_q_table #(
  parameter int unsigned ROWS = 16,
  parameter int unsigned NUM_COLS = 4,       // columns = banks (the router's network ports)
  parameter int unsigned QW = 16,      // Q-value bits
  parameter int unsigned READ_PORTS = 1,  // row read ports
  parameter int unsigned RB = 8,      // update unit: fraction bits of the rates
  parameter int unsigned ALPHA = 51,
  parameter int unsigned BETA = 10,
  localparam int unsigned ROW_W = rr_pkg::id_width(ROWS)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // feedback per column: the row to update and its target r + Q_y
  input  logic [NUM_COLS-1:0]      fb_valid_i,
  input  logic [NUM_COLS*ROW_W-1:0]   fb_row_i,
  input  logic [NUM_COLS*QW-1:0]    fb_target_i,
  // row reads
  input  logic [READ_PORTS*ROW_W-1:0] rd_row_i,
  output logic [READ_PORTS*NUM_COLS*QW-1:0] rd_data_o,
  // initialisation
  output logic              ready_o,
  output logic [ROW_W-1:0]     init_row_o,
  input  logic [NUM_COLS*QW-1:0]    init_value_i,
  output logic [NUM_COLS-1:0]      fb_drop_o   // per column: feedback dropped this cycle (not ready)
);
  logic          ready_q;
  logic [ROW_W-1:0] init_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ready_q <= 1'b0;
      init_q  <= '0;
    end else if (!ready_q) begin
      if (init_q == ROW_W'(ROWS - 1)) ready_q <= 1'b1;
      else init_q <= init_q + 1'b1;
    end
  end
  assign ready_o = ready_q;
  assign init_row_o = init_q;
  assign fb_drop_o = ready_q ? '0 : fb_valid_i;

  for (genvar c = 0; c < NUM_COLS; c++) begin : gen_bank
    logic [QW-1:0]  mem_q [ROWS];
    logic [ROW_W-1:0] fb_row;
    logic [QW-1:0]  q_x, q_next;
    assign fb_row = fb_row_i[c*ROW_W+:ROW_W];
    assign q_x = mem_q[fb_row];
    rr_q_update #(.QW(QW), .RB(RB), .ALPHA(ALPHA), .BETA(BETA)) i_update (
      .q_i     (q_x),
      .target_i(fb_target_i[c*QW+:QW]),
      .q_o     (q_next)
    );
    // One write port: the initial value, or the update.
    always_ff @(posedge clk_i) begin
      if (!ready_q) mem_q[init_q] <= init_value_i[c*QW+:QW];
      else if (fb_valid_i[c]) mem_q[fb_row] <= q_next;
    end
    for (genvar r = 0; r < READ_PORTS; r++) begin : gen_read
      assign rd_data_o[(r*NUM_COLS+c)*QW+:QW] = mem_q[rd_row_i[r*ROW_W+:ROW_W]];
    end
  end
endmodule
