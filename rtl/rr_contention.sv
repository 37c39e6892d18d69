// UGAL-LE contention factors (Chaulagain and Yuan, ICS 2024, section 4.2.1).
// Counters F[i][j] count the flits of the packets that originated at router i
// of this group (source router of the header) and go to destination group j,
// whose head this router sees arrive on a terminal or local port; packets from
// other groups are not counted (the paper: "it checks whether the packet is
// originated from the same group"). A packet adds its length (header field) at
// its head, so THRESHOLD is in flits: with the paper's one-flit packets it is
// its packet threshold, and a flow's activity does not depend on packet size.
// Window: tumbling, WINDOW cycles; a flow (i, j) is active when F[i][j] >
// THRESHOLD in the current window or at the end of the previous one, and the
// contention factor C_j is the number of routers i with an active flow to j.
// Counters saturate at THRESHOLD + 1: only "above the threshold" matters.
// Interpretation (docs/routing_dragonfly.md): the paper's sliding window is
// this tumbling window with the previous window's verdict kept for one window.
module rr_contention #(
  parameter int unsigned P = 7,
  parameter int unsigned NUM_NI = 2,
  parameter int unsigned A = 4,
  parameter int unsigned NUM_G = 9,
  parameter int unsigned GB = 4,
  parameter int unsigned IB = 2,
  parameter int unsigned LW = 68,             // link word (rr_pkg::LINK_*, rr_pkg::link_width)
  parameter int unsigned DATA_LSB = 4,        // data field in a link word (rr_pkg::link_data_lsb)
  parameter int unsigned DST_GROUP_LSB = 3,   // destination group in the header
  parameter int unsigned SRC_ROUTER_LSB = 10, // source router id {group, index} in the header
  parameter int unsigned LEN_LSB = 20,        // packet length (flits) in the header
  parameter int unsigned LEN_W = 3,
  parameter int unsigned WINDOW = 500,
  parameter int unsigned THRESHOLD = 5,
  localparam int unsigned SAT_CNT_W = $clog2(THRESHOLD + 2),
  localparam int unsigned CFW = $clog2(A + 1),
  localparam int unsigned TICK_W = (WINDOW > 1) ? $clog2(WINDOW) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [GB+IB-1:0]     id_i,
  input  logic [P*LW-1:0]      flit_i,
  output logic [NUM_G*CFW-1:0] contention_o
);
  localparam int unsigned NUM_OBS = NUM_NI + A - 1;  // observed ports: terminals and locals
  localparam logic [SAT_CNT_W-1:0] SAT = SAT_CNT_W'(THRESHOLD + 1);
  // A cycle adds at most NUM_OBS packets of 2^LEN_W - 1 flits to one counter.
  localparam int unsigned SUM_W = ((SAT_CNT_W > LEN_W) ? SAT_CNT_W : LEN_W) + $clog2(NUM_OBS + 1) + 1;

  logic [GB-1:0] my_g;
  assign my_g = id_i[IB+:GB];

  logic [NUM_OBS-1:0]   seen;
  logic [IB-1:0]    from [NUM_OBS];
  logic [GB-1:0]    to   [NUM_OBS];
  logic [LEN_W-1:0] len  [NUM_OBS];
  for (genvar p = 0; p < NUM_OBS; p++) begin : gen_obs
    /* verilator lint_off UNUSEDSIGNAL */
    logic [LW-1:0] word;  // only the fields below are read
    /* verilator lint_on UNUSEDSIGNAL */
    logic [GB-1:0] src_g;
    assign word = flit_i[p*LW+:LW];
    assign {src_g, from[p]} = word[DATA_LSB+SRC_ROUTER_LSB+:GB+IB];
    assign seen[p] = word[rr_pkg::LINK_VALID] && word[rr_pkg::LINK_HEAD] && src_g == my_g;
    assign to[p] = word[DATA_LSB+DST_GROUP_LSB+:GB];
    assign len[p] = word[DATA_LSB+LEN_LSB+:LEN_W];
  end

  logic [TICK_W-1:0] tick_q;
  logic          window_end;
  assign window_end = tick_q == TICK_W'(WINDOW - 1);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) tick_q <= '0;
    else tick_q <= window_end ? '0 : tick_q + 1'b1;
  end

  logic [A*NUM_G-1:0] active;
  for (genvar i = 0; i < A; i++) begin : gen_src
    for (genvar j = 0; j < NUM_G; j++) begin : gen_grp
      logic [SAT_CNT_W-1:0] count_q;
      logic [SUM_W-1:0] sum;
      logic          prev_q;
      always_comb begin
        sum = window_end ? '0 : SUM_W'(count_q);
        for (int unsigned p = 0; p < NUM_OBS; p++) begin
          if (seen[p] && from[p] == IB'(i) && to[p] == GB'(j)) sum = sum + SUM_W'(len[p]);
        end
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          count_q <= '0;
          prev_q  <= 1'b0;
        end else begin
          count_q <= (sum >= SUM_W'(SAT)) ? SAT : SAT_CNT_W'(sum);
          if (window_end) prev_q <= count_q == SAT;
        end
      end
      assign active[i*NUM_G+j] = prev_q || (count_q == SAT);
    end
  end

  for (genvar j = 0; j < NUM_G; j++) begin : gen_factor
    always_comb begin
      contention_o[j*CFW+:CFW] = '0;
      for (int unsigned i = 0; i < A; i++) contention_o[j*CFW+:CFW] = contention_o[j*CFW+:CFW] + CFW'(active[i*NUM_G+j]);
    end
  end

  // Only the header fields above are read; global ports are not observed.
  logic unused;
  assign unused = ^{id_i[IB-1:0], flit_i[P*LW-1:NUM_OBS*LW]};
endmodule
