// Q-adaptive's learning and deciding part of a router ([Kang 2021], section 4):
// the router's Q-table (rr_q_table), READ_PORTS decision units (rr_q_decide)
// behind its READ_PORTS read ports, and the feedback in both directions.
// Decisions: each input port presents at most one head per cycle (hd_*, with
// the operands its route unit prepared, rr_pkg::q_operands_width); input port
// p reads on read port p mod READ_PORTS. A head not accepted (hd_ready_o low:
// its read port taken, or the table not ready_o yet) presents again. The
// answer: the port (hd_choice_o) and, for a non-minimal choice at the source
// router (or, with SOURCE_GROUP, at the next router of the source group), the
// header phase it leaves with (hd_alt_o, hd_patch_o).
// DECIDE_CYCLES = 2 (routing.q_decision_cycles): the answer comes a cycle
// after the presentation.
// QUEUE_WEIGHT (routing.q_queue_weight, beyond the paper): the decisions
// weigh each network port's local queue (occ_i, at the decision's cycle)
// beside its entry, QUEUE_WEIGHT cycles per flit (rr_q_decide); without
// QUEUE_IN_TEST (routing.q_queue_in = "port") only in the choice of the port.
// R_AT_DECISION (routing.q_stamp = "crossbar"): the operands carry the stamp
// of the head's upstream crossbar and r is now_i less it, at the answer.
// Feedback: fb_o goes upstream with the input port's next credit word; fb_i,
// with the credits of output port o, updates column o - NUM_NI.
// docs/q_adaptive.md, "The router" and "Two-cycle decisions".
module rr_q_unit #(
  parameter int unsigned P = 7,
  parameter int unsigned NUM_NI = 2,
  parameter int unsigned A = 4,          // routers per group (A - 1 local columns)
  parameter int unsigned H = 2,          // global ports per router
  parameter int unsigned NUM_G = 9,      // groups
  parameter int unsigned QW = 16,        // Q-value bits (routing.q_value_bits)
  parameter int unsigned QFB = 4,        // fraction bits of a Q-value (routing.q_fraction_bits)
  parameter int unsigned RB = 8,         // fraction bits of the rates
  parameter int unsigned ALPHA = 51,     // round(routing.alpha x 2^RB)
  parameter int unsigned BETA = 10,      // round(routing.beta x 2^RB)
  parameter int unsigned TB = 8,         // fraction bits of the thresholds
  parameter int unsigned THLD_SRC = 51,  // round(routing.q_thld1 x 2^TB)
  parameter int unsigned THLD_INT = 90,  // round(routing.q_thld2 x 2^TB)
  parameter bit          INT_BEST = 1'b0,  // routing.q_intermediate = "best": the best local port, not a random one
  parameter bit          SOURCE_GROUP = 1'b0,  // routing.q_source_group = "decide" or "detour": the next router of the source group decides too
  parameter bit          DETOUR = 1'b0,        // "detour": the source's local detours leave with phase 3, which that router decides
  parameter int unsigned EPS = 66,       // round(routing.epsilon x 2^16)
  parameter int unsigned READ_PORTS = 1, // read ports (routing.q_read_ports)
  parameter int unsigned DECIDE_CYCLES = 1,  // cycles per decision, 1 or 2 (routing.q_decision_cycles)
  parameter bit          R_AT_DECISION = 1'b0,  // routing.q_stamp = "crossbar": r = now_i - the operands' stamp, at the answer
  parameter int unsigned QUEUE_WEIGHT = 0,   // routing.q_queue_weight: cycles per queued flit (0: the table alone)
  parameter int unsigned OCC_W = 1,          // width of a port's queue (occ_i)
  parameter bit          QUEUE_IN_TEST = 1'b1,  // routing.q_queue_in = "test_and_port"
  localparam int unsigned NUM_COLS = P - NUM_NI,
  localparam int unsigned ROWS = (NUM_G - 1) * NUM_NI,
  localparam int unsigned ROW_W = rr_pkg::id_width(ROWS),
  localparam int unsigned COL_W = rr_pkg::id_width(NUM_COLS),
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned STAMP_W = rr_pkg::Q_STAMP_W,
  localparam int unsigned DOW = rr_pkg::q_operands_width(NUM_COLS, ROWS, H),
  localparam int unsigned FB_W = rr_pkg::q_feedback_width(ROWS, QW)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [15:0]     seed_i,         // routing.seed mixed with the router identity
  input  logic [STAMP_W-1:0] now_i,       // the router's cycle counter (R_AT_DECISION)
  input  logic [NUM_COLS*OCC_W-1:0] occ_i,  // QUEUE_WEIGHT: each network port's queue, flits (column order)
  // decisions, per input port
  input  logic [P-1:0]    hd_valid_i,
  input  logic [P-1:0]    hd_fresh_i,     // the head presents for the first time
  input  logic [P*PW-1:0] hd_port_i,      // its route: the minimal port
  input  logic [P*DOW-1:0] hd_operands_i,
  output logic [P-1:0]    hd_ready_o,     // accepted (a read port was free or none was needed)
  output logic [P*PW-1:0] hd_choice_o,    // the port to take
  output logic [P-1:0]    hd_alt_o,       // a non-minimal choice at a deciding router: patch the phase
  output logic [P*2-1:0]  hd_patch_o,     // the phase it leaves with
  // feedback: out with each input port's credit, in with each output port's
  output logic [P*FB_W-1:0] fb_o,
  input  logic [P*FB_W-1:0] fb_i,
  // the table's initial values, one row per cycle after reset (from a route unit)
  output logic [ROW_W-1:0]   init_row_o,
  input  logic [NUM_COLS*QW-1:0] init_value_i,
  output logic            ready_o,
  output logic [NUM_COLS-1:0]    fb_drop_o       // per column: feedback dropped (table not ready)
);
  localparam int unsigned FIRST_GLOBAL_COL = A - 1;
  if (!R_AT_DECISION) begin : gen_unused_now
    logic unused_now;
    assign unused_now = ^now_i;
  end
  localparam int unsigned GLOBAL_IDX_W = rr_pkg::id_width(H);

  // ---- operands of each input port's head ----
  logic [COL_W-1:0] min_col [P];
  logic [1:0]    role    [P];
  logic [P-1:0]  read, fb_due;
  logic [ROW_W-1:0] row     [P];
  logic [ROW_W-1:0] fb_row  [P];
  logic [STAMP_W-1:0] r       [P];
  logic [H-1:0]  to_dst  [P];
  for (genvar p = 0; p < P; p++) begin : gen_operands
    assign {to_dst[p], fb_row[p], r[p], fb_due[p], row[p], read[p], role[p], min_col[p]} = hd_operands_i[p*DOW+:DOW];
  end

  // ---- the table ----
  logic [NUM_COLS-1:0]      tbl_fb_valid;
  logic [NUM_COLS*ROW_W-1:0]   tbl_fb_row;
  logic [NUM_COLS*QW-1:0]   tbl_fb_target;
  logic [READ_PORTS*ROW_W-1:0]  rd_row;
  logic [READ_PORTS*NUM_COLS*QW-1:0] rd_data;
  for (genvar c = 0; c < NUM_COLS; c++) begin : gen_fb_in
    // {target, row, valid} of the credit word of output port NUM_NI + c
    assign {tbl_fb_target[c*QW+:QW], tbl_fb_row[c*ROW_W+:ROW_W], tbl_fb_valid[c]} = fb_i[(NUM_NI+c)*FB_W+:FB_W];
  end
  logic [NUM_NI*FB_W-1:0] unused_ni_fb; // nothing sends feedback to a node
  assign unused_ni_fb = fb_i[NUM_NI*FB_W-1:0];

  rr_q_table #(
    .ROWS(ROWS), .NUM_COLS(NUM_COLS), .QW(QW), .READ_PORTS(READ_PORTS), .RB(RB), .ALPHA(ALPHA), .BETA(BETA)
  ) i_table (
    .clk_i, .rst_ni,
    .fb_valid_i  (tbl_fb_valid),
    .fb_row_i    (tbl_fb_row),
    .fb_target_i (tbl_fb_target),
    .rd_row_i    (rd_row),
    .rd_data_o   (rd_data),
    .ready_o,
    .init_row_o,
    .init_value_i,
    .fb_drop_o
  );

  // ---- the stage between the read and the decision ----
  // What each read port's decision needs (its row, the head's role and
  // minimal column, the LFSR draws) and each input port's operands for its
  // answer and feedback: straight through (DECIDE_CYCLES = 1) or registered
  // (DECIDE_CYCLES = 2).
  localparam int unsigned DECIDE_IN_W = NUM_COLS * QW + 2 + 3 * COL_W + 1;
  localparam int unsigned ANSWER_IN_W = 1 + 2 + COL_W + H + STAMP_W + ROW_W + 1 + PW;
  logic [READ_PORTS*DECIDE_IN_W-1:0] dec_in, dec;
  logic [P*ANSWER_IN_W-1:0]  op_in, op;
  if (DECIDE_CYCLES == 2) begin : gen_stage
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        dec <= '0;
        op  <= '0;
      end else begin
        dec <= dec_in;
        op  <= op_in;
      end
    end
  end else begin : gen_direct
    assign dec = dec_in;
    assign op  = op_in;
  end

  // ---- read ports: arbitration and decision ----
  logic [P-1:0]  granted;           // the head of port p has its read port this cycle
  logic [COL_W-1:0] col_of  [P];       // its read port's decision (a column)
  logic [QW-1:0] best_of [P];       // and its row's minimum
  for (genvar k = 0; k < READ_PORTS; k++) begin : gen_read
    logic [P-1:0] mine, gnt;
    for (genvar p = 0; p < P; p++) begin : gen_mine
      assign mine[p] = (p % READ_PORTS) == k;
    end
    rr_arbiter_rr #(.NUM_REQ(P)) i_arb (
      .clk_i, .rst_ni,
      .req_i    (hd_valid_i & read & mine),
      .advance_i(1'b1),
      .gnt_o    (gnt)
    );

    logic [ROW_W-1:0] k_row;
    logic [1:0]    k_role;
    logic [COL_W-1:0] k_min;
    always_comb begin
      k_row = '0;
      k_role = '0;
      k_min = '0;
      for (int unsigned p = 0; p < P; p++) begin
        if (gnt[p]) begin
          k_row = k_row | row[p];
          k_role = k_role | role[p];
          k_min = k_min | min_col[p];
        end
      end
    end
    assign rd_row[k*ROW_W+:ROW_W] = k_row;

    // Random draws: explore with probability EPS / 2^16; the random local
    // column and the exploring column, each uniform (floor(rand x n / 2^8)).
    logic [15:0] rand_eps, rand_col;
    rr_lfsr i_lfsr_eps (.clk_i, .rst_ni, .seed_i(seed_i ^ 16'(k * 32'h3C6F)), .rand_o(rand_eps));
    rr_lfsr i_lfsr_col (.clk_i, .rst_ni, .seed_i(seed_i ^ 16'(k * 32'h3C6F + 32'h5A5A)), .rand_o(rand_col));
    logic [COL_W-1:0] local_col, rand_any;
    assign local_col = COL_W'((16'(rand_col[7:0]) * 16'(A - 1)) >> 8);
    assign rand_any = COL_W'((16'(rand_col[15:8]) * 16'(NUM_COLS)) >> 8);

    assign dec_in[k*DECIDE_IN_W+:DECIDE_IN_W] = {rd_data[k*NUM_COLS*QW+:NUM_COLS*QW], k_role, k_min, local_col, rand_any, rand_eps < 16'(EPS)};
    logic [NUM_COLS*QW-1:0] d_row;
    logic [1:0]      d_role;
    logic [COL_W-1:0]   d_min, d_local, d_rand;
    logic            d_explore;
    assign {d_row, d_role, d_min, d_local, d_rand, d_explore} = dec[k*DECIDE_IN_W+:DECIDE_IN_W];

    logic [COL_W-1:0] k_col, unused_best_col;
    logic [QW-1:0] k_best;
    rr_q_decide #(
      .NUM_COLS(NUM_COLS), .QW(QW), .TB(TB), .THLD_SRC(THLD_SRC), .THLD_INT(THLD_INT), .LOCAL_COLS(INT_BEST ? A - 1 : 0),
      .SOURCE_GROUP(SOURCE_GROUP), .FIRST_GLOBAL(FIRST_GLOBAL_COL), .QUEUE_WEIGHT(QUEUE_WEIGHT), .OCC_W(OCC_W), .QFB(QFB),
      .QUEUE_IN_TEST(QUEUE_IN_TEST)
    ) i_decide (
      .row_i    (d_row),
      .queue_i  (occ_i),
      .role_i   (d_role),
      .min_i    (d_min),
      .local_i  (d_local),
      .explore_i(d_explore),
      .rand_i   (d_rand),
      .port_o   (k_col),
      .best_o   (unused_best_col),
      .best_q_o (k_best)
    );
    for (genvar p = 0; p < P; p++) begin : gen_answer
      if ((p % READ_PORTS) == k) begin : gen_mapped
        assign granted[p] = gnt[p];
        assign col_of[p]  = k_col;
        assign best_of[p] = k_best;
      end
    end
  end

  // ---- answers and feedback, per input port ----
  for (genvar p = 0; p < P; p++) begin : gen_port
    logic accept;
    assign accept = ready_o && (!read[p] || granted[p]);  // nothing before the table holds its initial values
    assign hd_ready_o[p] = accept;

    assign op_in[p*ANSWER_IN_W+:ANSWER_IN_W] = {read[p], role[p], min_col[p], to_dst[p], r[p], fb_row[p],
                              hd_valid_i[p] && accept && hd_fresh_i[p] && fb_due[p], hd_port_i[p*PW+:PW]};
    logic          o_read, o_fb;
    logic [1:0]    o_role;
    logic [COL_W-1:0] o_min;
    logic [H-1:0]  o_to_dst;
    logic [STAMP_W-1:0] o_r;
    logic [ROW_W-1:0] o_fb_row;
    logic [PW-1:0] o_port;
    assign {o_read, o_role, o_min, o_to_dst, o_r, o_fb_row, o_fb, o_port} = op[p*ANSWER_IN_W+:ANSWER_IN_W];

    logic [COL_W-1:0] col;
    logic          global_col;
    assign col = col_of[p];
    assign global_col = col >= COL_W'(FIRST_GLOBAL_COL);
    assign hd_choice_o[p*PW+:PW] = o_read ? PW'(NUM_NI) + PW'(col) : o_port;
    assign hd_alt_o[p] = o_read && (o_role == 2'(rr_pkg::Q_ROLE_SOURCE) || o_role == 2'(rr_pkg::Q_ROLE_SOURCE_GROUP))
                         && col != o_min;
    // Into a third group: "to intermediate" (1); with DETOUR the source's
    // local detour: "source detour" (3); else "from intermediate" (2).
    assign hd_patch_o[p*2+:2] = (global_col && !o_to_dst[GLOBAL_IDX_W'(col - COL_W'(FIRST_GLOBAL_COL))]) ? 2'd1
                              : (DETOUR && !global_col && o_role == 2'(rr_pkg::Q_ROLE_SOURCE)) ? 2'd3 : 2'd2;

    // r: from the operands, or (R_AT_DECISION) from the upstream crossbar to this answer.
    logic [STAMP_W-1:0] r_hop;
    assign r_hop = R_AT_DECISION ? now_i - o_r : o_r;
    // target = r + Q_y (Q_y = 0 without a read), as a saturated Q code.
    localparam int unsigned TARGET_SUM_W = ((STAMP_W + QFB > QW) ? STAMP_W + QFB : QW) + 1;
    logic [TARGET_SUM_W-1:0] sum;
    logic [QW-1:0] target;
    logic [QW-1:0] q_y;
    assign q_y = o_read ? best_of[p] : '0;
    assign sum = (TARGET_SUM_W'(r_hop) << QFB) + TARGET_SUM_W'(q_y);
    assign target = (sum > TARGET_SUM_W'({QW{1'b1}})) ? '1 : QW'(sum);
    logic [FB_W-1:0] fb_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) fb_q <= '0;
      else fb_q <= {target, o_fb_row, o_fb};
    end
    assign fb_o[p*FB_W+:FB_W] = fb_q;
  end
endmodule
