// Q-adaptive's decision unit ([Kang 2021], section 4, Figure 4 and Equation 2;
// docs/q_adaptive.md): from the packet's table row, the port (table column)
// it leaves by. role_i says where the router stands on the packet's path
// (rr_pkg::Q_ROLE_*):
//   MINIMAL      : the minimal port;
//   SOURCE       : the row's best port (argmin, lowest column on ties) against
//                  the minimal one with threshold THLD_SRC (q_thld1);
//   INTERMEDIATE : the random local port drawn (local_i) against the minimal
//                  one with THLD_INT (q_thld2); with LOCAL_COLS > 0
//                  (routing.q_intermediate = "best") the lowest-valued of
//                  the local columns 0 .. LOCAL_COLS-1 other than the
//                  minimal one instead (the lowest column on ties);
//   SOURCE_GROUP  : (routing.q_source_group = "decide" or "detour", beyond the paper)
//                  the next router of the source group, reached by the
//                  source's minimal local hop or by its local detour
//                  (rr_route_q_adaptive names it): the lowest-valued global column (FIRST_GLOBAL
//                  .. NUM_COLS-1) other than the minimal one against the
//                  minimal one with THLD_SRC; no exploration.
// The minimal port is kept when dV = (Q_min - Q_other) / Q_min < thld /
// 2^TB, tested without a division as (Q_min - Q_other) x 2^TB < thld x
// Q_min. Then, at the source and the intermediate router, explore_i (the
// epsilon draw, made by the caller's LFSR) sends the packet by rand_i instead.
// QUEUE_WEIGHT > 0 (routing.q_queue_weight, beyond the paper): every
// comparison of the decision weighs a column's entry plus its port's local
// queue, queue_i flits at QUEUE_WEIGHT cycles each (in the entries' fixed
// point, QFB fraction bits); best_o and best_q_o stay the table's. The argmins:
// rr_argmin. Without QUEUE_IN_TEST (routing.q_queue_in = "port", beyond the
// paper) the table's entries alone make the keep-minimal test, against the
// candidate the entries name (the paper's test), and the weighed values only
// pick the port taken when the minimal one is not kept. Combinational;
// bit-exact with rlroute::ref::q_decide (ref/src/q_decision.cpp).
module rr_q_decide #(
  parameter int unsigned NUM_COLS = 4,          // columns: the router's network ports
  parameter int unsigned QW = 16,         // Q-value bits
  parameter int unsigned TB = 8,         // fraction bits of the thresholds
  parameter int unsigned THLD_SRC = 51,  // round(q_thld1 x 2^TB), [Kang 2021]: 0.2
  parameter int unsigned THLD_INT = 90,  // round(q_thld2 x 2^TB), [Kang 2021]: 0.35
  parameter int unsigned LOCAL_COLS = 0,  // > 0: INTERMEDIATE takes the best of these local columns
  parameter bit          SOURCE_GROUP = 1'b0,  // the SOURCE_GROUP role is wired (else it decides as MINIMAL)
  parameter int unsigned FIRST_GLOBAL = 1,    // SOURCE_GROUP: the first global column
  parameter int unsigned QUEUE_WEIGHT = 0,  // cycles per queued flit the decision adds (0: none)
  parameter int unsigned OCC_W = 1,         // width of a port's queue
  parameter int unsigned QFB = 4,           // fraction bits of a Q-value
  parameter bit          QUEUE_IN_TEST = 1'b1,  // QUEUE_WEIGHT: the queues weigh in the keep-minimal test too
  localparam int unsigned COL_W = rr_pkg::id_width(NUM_COLS)
) (
  input  logic [NUM_COLS*QW-1:0] row_i,
  input  logic [NUM_COLS*OCC_W-1:0] queue_i,  // QUEUE_WEIGHT: each column's port's queue, flits
  input  logic [1:0]     role_i,
  input  logic [COL_W-1:0]  min_i,      // the minimal port's column
  input  logic [COL_W-1:0]  local_i,    // INTERMEDIATE: the random local column
  input  logic           explore_i,  // SOURCE, INTERMEDIATE: the epsilon draw came up
  input  logic [COL_W-1:0]  rand_i,     // the column to explore through
  output logic [COL_W-1:0]  port_o,
  output logic [COL_W-1:0]  best_o,     // the row's argmin (also the row minimum's column)
  output logic [QW-1:0]   best_q_o    // the row minimum (Q_y, the estimate sent upstream)
);
  // The values the decision compares (VW bits): the entries, or with
  // QUEUE_WEIGHT the entries plus the weighed queues.
  localparam int unsigned TERM_W = OCC_W + $clog2(QUEUE_WEIGHT + 1) + QFB;
  localparam int unsigned VW = (QUEUE_WEIGHT == 0) ? QW : ((TERM_W > QW) ? TERM_W : QW) + 1;
  logic [NUM_COLS*VW-1:0] value;
  if (QUEUE_WEIGHT > 0) begin : gen_queue
    for (genvar c = 0; c < NUM_COLS; c++) begin : gen_value
      assign value[c*VW+:VW] = VW'(row_i[c*QW+:QW]) + ((VW'(queue_i[c*OCC_W+:OCC_W]) * VW'(QUEUE_WEIGHT)) << QFB);
    end
  end else begin : gen_table_only
    assign value = row_i;
    logic unused_queue;
    assign unused_queue = ^queue_i;
  end

  // The row's minimum and its column (the estimate sent upstream) from the
  // entries; the decision's own order (dbelow, dbest) from the compared
  // values: the same signals without a queue.
  logic [NUM_COLS*NUM_COLS-1:0] below, dbelow;  // [c*NUM_COLS+d]: c's value is below d's
  logic [COL_W-1:0] dbest;
  logic [VW-1:0]    q_dbest;
  rr_argmin #(.NUM_VALUES(NUM_COLS), .VALUE_W(QW)) u_row_min (.value_i(row_i), .below_o(below), .idx_o(best_o),
                                                             .min_o(best_q_o));
  if (QUEUE_WEIGHT > 0) begin : gen_decision_order
    rr_argmin #(.NUM_VALUES(NUM_COLS), .VALUE_W(VW)) u_decision_min (.value_i(value), .below_o(dbelow),
                                                                    .idx_o(dbest), .min_o(q_dbest));
    logic unused_below;
    assign unused_below = ^below;
  end else begin : gen_table_order
    assign dbelow = below;
    assign dbest = best_o;
    assign q_dbest = best_q_o;
  end

  // The minimal port's value and the other candidate's: at the source the
  // decision's minimum itself (no second multiplexer behind the argmin tree).
  logic          source, source_group;
  logic [COL_W-1:0] other;
  logic [VW-1:0]  q_min, q_local, q_other;
  assign source = role_i == 2'(rr_pkg::Q_ROLE_SOURCE);
  assign source_group = SOURCE_GROUP && role_i == 2'(rr_pkg::Q_ROLE_SOURCE_GROUP);
  // The argmin of the columns first .. last but the minimal one, from the
  // comparisons above (a column wins against the candidates only): the
  // local columns for INTERMEDIATE with LOCAL_COLS, the global ones for
  // SOURCE_GROUP.
  function automatic logic [COL_W-1:0] best_in(input logic [NUM_COLS*NUM_COLS-1:0] order,
                                               input logic [COL_W-1:0] except, input int unsigned first,
                                               input int unsigned last);
    logic [NUM_COLS-1:0] cand;
    logic                wins;
    for (int unsigned c = 0; c < NUM_COLS; c++) cand[c] = c >= first && c <= last && except != COL_W'(c);
    best_in = except;
    for (int unsigned c = 0; c < NUM_COLS; c++) begin
      wins = cand[c];
      for (int unsigned d = 0; d < NUM_COLS; d++) begin
        if (cand[d] && d < c && !order[c*NUM_COLS+d]) wins = 1'b0;
        if (cand[d] && d > c && order[d*NUM_COLS+c]) wins = 1'b0;
      end
      if (wins) best_in = COL_W'(c);
    end
  endfunction
  // The candidate other than at the source, from an order: [0] from the
  // compared values' (the port taken), [1] with SPLIT from the table's (the
  // one the test weighs).
  localparam bit SPLIT = QUEUE_WEIGHT > 0 && !QUEUE_IN_TEST;
  localparam int unsigned ORDERS = SPLIT ? 2 : 1;
  localparam int unsigned OW = NUM_COLS * NUM_COLS;
  logic [ORDERS*OW-1:0] order;
  logic [ORDERS*COL_W-1:0] local_col;
  assign order[0+:OW] = dbelow;
  if (SPLIT) begin : gen_table_candidate
    assign order[OW+:OW] = below;
    logic unused_decision_min;
    assign unused_decision_min = ^q_dbest;
  end
  for (genvar k = 0; k < ORDERS; k++) begin : gen_candidate
    logic [COL_W-1:0] inter_col;
    if (LOCAL_COLS > 0) begin : gen_best_local
      assign inter_col = best_in(order[k*OW+:OW], min_i, 0, LOCAL_COLS - 1);
    end else begin : gen_random_local
      assign inter_col = local_i;
    end
    if (SOURCE_GROUP) begin : gen_source_group
      assign local_col[k*COL_W+:COL_W] =
          source_group ? best_in(order[k*OW+:OW], min_i, FIRST_GLOBAL, NUM_COLS - 1) : inter_col;
    end else begin : gen_paper
      assign local_col[k*COL_W+:COL_W] = inter_col;
    end
  end
  if (LOCAL_COLS > 0) begin : gen_local_unused
    logic unused_local;
    assign unused_local = ^local_i;
  end
  if (LOCAL_COLS == 0 && !SOURCE_GROUP) begin : gen_order_unused
    logic unused_order;
    assign unused_order = ^order;
  end
  assign other = source ? dbest : local_col[0+:COL_W];
  // What the test weighs: the compared values, or with SPLIT the entries.
  logic [NUM_COLS*VW-1:0] test_value;
  for (genvar c = 0; c < NUM_COLS; c++) begin : gen_test_value
    assign test_value[c*VW+:VW] = SPLIT ? VW'(row_i[c*QW+:QW]) : value[c*VW+:VW];
  end
  always_comb begin
    q_min = '0;
    q_local = '0;
    for (int unsigned c = 0; c < NUM_COLS; c++) begin
      if (min_i == COL_W'(c)) q_min = test_value[c*VW+:VW];
      if (local_col[(ORDERS-1)*COL_W+:COL_W] == COL_W'(c)) q_local = test_value[c*VW+:VW];
    end
  end
  assign q_other = source ? (SPLIT ? VW'(best_q_o) : q_dbest) : q_local;

  // (q_min - q_other) x 2^TB < thld x q_min, rearranged as
  // q_min x (2^TB - thld) < q_other x 2^TB: the product by a constant is
  // formed beside the argmin tree, and behind the tree is one comparison
  // (q_other x 2^TB is a shift). Signed, so a threshold above 1 works too.
  localparam int unsigned SCALED_W = VW + TB + 3;
  localparam int signed KEEP_SRC = (1 << TB) - THLD_SRC;
  localparam int signed KEEP_INT = (1 << TB) - THLD_INT;
  logic signed [SCALED_W-1:0] lhs_src, lhs_int, lhs, rhs;
  logic                 keep_min;
  assign lhs_src = $signed({{(SCALED_W-VW){1'b0}}, q_min}) * SCALED_W'(KEEP_SRC);
  assign lhs_int = $signed({{(SCALED_W-VW){1'b0}}, q_min}) * SCALED_W'(KEEP_INT);
  assign lhs = (source || source_group) ? lhs_src : lhs_int;
  assign rhs = $signed({{(SCALED_W-VW-TB){1'b0}}, q_other, {TB{1'b0}}});
  // A test candidate that is the minimal port itself keeps it (an entry of 0
  // would fail the product test).
  logic [COL_W-1:0] tested;
  assign tested = source ? (SPLIT ? best_o : dbest) : local_col[(ORDERS-1)*COL_W+:COL_W];
  assign keep_min = lhs < rhs || tested == min_i;

  always_comb begin
    if (role_i == 2'(rr_pkg::Q_ROLE_MINIMAL) || (role_i == 2'(rr_pkg::Q_ROLE_SOURCE_GROUP) && !SOURCE_GROUP)) begin
      port_o = min_i;
    end else if (explore_i && !source_group) begin
      port_o = rand_i;
    end else begin
      port_o = keep_min ? min_i : other;
    end
  end
endmodule
