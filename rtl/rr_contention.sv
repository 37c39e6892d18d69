// UGAL-LE contention factors (Chaulagain and Yuan, ICS 2024, section 4.2).
// Counters F[i][j] count the packets from router i of this group (this router
// itself for its terminal ports, the upstream router for a local port) to
// destination group j whose head this router sees arrive, over a window of
// WINDOW cycles. A flow (i, j) is active when F[i][j] > THRESHOLD in the
// current window or at the end of the previous one, and the contention factor
// C_j is the number of routers i with an active flow to group j.
// Counters saturate at THRESHOLD + 1: only "above the threshold" matters.
// Interpretation (docs/routing_dragonfly.md): the paper's sliding window is a
// tumbling window here, with the previous window's verdict kept for one window.
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
  parameter int unsigned WINDOW = 500,
  parameter int unsigned THRESHOLD = 5,
  localparam int unsigned FW = $clog2(THRESHOLD + 2),
  localparam int unsigned CFW = $clog2(A + 1),
  localparam int unsigned WW = (WINDOW > 1) ? $clog2(WINDOW) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [GB+IB-1:0]     id_i,
  input  logic [P*LW-1:0]      flit_i,
  output logic [NUM_G*CFW-1:0] contention_o
);
  localparam int unsigned OBS = NUM_NI + A - 1;  // observed ports: terminals and locals
  localparam logic [FW-1:0] SAT = FW'(THRESHOLD + 1);

  logic [IB-1:0] my_i;
  assign my_i = id_i[IB-1:0];

  logic [OBS-1:0] seen;
  logic [IB-1:0]  from [OBS];
  logic [GB-1:0]  to   [OBS];
  for (genvar p = 0; p < OBS; p++) begin : gen_obs
    logic [LW-1:0] word;
    assign word = flit_i[p*LW+:LW];
    assign seen[p] = word[rr_pkg::LINK_VALID] && word[rr_pkg::LINK_HEAD];
    assign to[p] = word[DATA_LSB+DST_GROUP_LSB+:GB];
    logic unused_word;
    assign unused_word = ^{word[LW-1:DATA_LSB+DST_GROUP_LSB+GB], word[DATA_LSB+DST_GROUP_LSB-1:rr_pkg::LINK_HEAD+1]};
    if (p < NUM_NI) begin : gen_terminal
      assign from[p] = my_i;
    end else begin : gen_local
      assign from[p] = (IB'(p - NUM_NI) < my_i) ? IB'(p - NUM_NI) : IB'(p - NUM_NI + 1);
    end
  end

  logic [WW-1:0] tick_q;
  logic          window_end;
  assign window_end = tick_q == WW'(WINDOW - 1);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) tick_q <= '0;
    else tick_q <= window_end ? '0 : tick_q + 1'b1;
  end

  logic [A*NUM_G-1:0] active;
  for (genvar i = 0; i < A; i++) begin : gen_src
    for (genvar j = 0; j < NUM_G; j++) begin : gen_grp
      logic [FW-1:0] count_q, count_next;
      logic          prev_q;
      always_comb begin
        count_next = window_end ? '0 : count_q;
        for (int unsigned p = 0; p < OBS; p++) begin
          if (seen[p] && from[p] == IB'(i) && to[p] == GB'(j) && count_next != SAT) count_next = count_next + 1'b1;
        end
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          count_q <= '0;
          prev_q  <= 1'b0;
        end else begin
          count_q <= count_next;
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

  logic unused;
  assign unused = ^{id_i[GB+IB-1:IB], flit_i[P*LW-1:OBS*LW]};
endmodule
