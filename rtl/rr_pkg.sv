// Shared constants of the rr_ router library: the layout of the words on a
// link and the widths the blocks share. Every rr_ module and every emitted top
// uses these names instead of numbers. No block knows a routing algorithm: each
// takes its algorithm's traits as parameters from the generator.
//
// The link layout is described once in C++ by LinkLayout
// (gen/include/rlroute/gen/link_layout.hpp), which the test bench's adapters
// read; a unit test reads this file and checks that the two agree.
//
// Dialect (../shared/DESIGN.md section 3): localparams and functions only, used
// as rr_pkg::NAME; no import, no types in ports.
package rr_pkg;
  // A design uses only some of the constants.
  /* verilator lint_off UNUSEDPARAM */

  // -------------------------------------------------------------------------
  // Link word, LSB first: {data[W], vc[VCW], tail, head, valid}.
  localparam int unsigned LINK_VALID  = 0;
  localparam int unsigned LINK_HEAD   = 1;
  localparam int unsigned LINK_TAIL   = 2;
  localparam int unsigned LINK_VC_LSB = 3;

  // Credit word, LSB first: {vc[VCW], valid}.
  localparam int unsigned CREDIT_VALID  = 0;
  localparam int unsigned CREDIT_VC_LSB = 1;

  // Bits of an index of n things (a VC or port id); at least 1.
  function automatic int unsigned id_width(int unsigned n);
    id_width = (n > 1) ? $clog2(n) : 1;
  endfunction

  // LSB of the data field of a link word with V VCs.
  function automatic int unsigned link_data_lsb(int unsigned v);
    link_data_lsb = LINK_VC_LSB + id_width(v);
  endfunction

  // Width of a link word with V VCs and W-bit flits.
  function automatic int unsigned link_width(int unsigned v, int unsigned w);
    link_width = link_data_lsb(v) + w;
  endfunction

  // Width of a credit word with V VCs.
  function automatic int unsigned credit_width(int unsigned v);
    credit_width = CREDIT_VC_LSB + id_width(v);
  endfunction

  // Width of a per-port waiting-demand count (rr_demand): every input VC of
  // P ports x V VCs may wait with a packet of up to 2^LEN_W - 1 flits.
  function automatic int unsigned demand_width(int unsigned p, int unsigned v, int unsigned len_w);
    demand_width = $clog2(p * v * ((1 << len_w) - 1) + 1);
  endfunction

  // The UGAL decision's operands (rr_route_dfly -> rr_ugal_decide), carried
  // with a buffered packet when the decision is taken at the head of its VC:
  // {destination group[GB], UGAL-LE term applies, non-minimal hops, minimal hops}.
  localparam int unsigned UGAL_HOPS_W = 3;  // hops of a path: minimal <= 3, Valiant <= 6
  function automatic int unsigned ugal_operands_width(int unsigned gb);
    ugal_operands_width = gb + 1 + 2 * UGAL_HOPS_W;
  endfunction

  // -------------------------------------------------------------------------
  // Q-adaptive: where a router stands on the packet's path (rr_q_decide), as
  // rlroute::ref::QRole (ref/include/rlroute/ref/q_decision.hpp).
  localparam int unsigned Q_ROLE_MINIMAL      = 0;
  localparam int unsigned Q_ROLE_SOURCE       = 1;
  localparam int unsigned Q_ROLE_INTERMEDIATE = 2;
  localparam int unsigned Q_ROLE_SOURCE_GROUP = 3;  // routing.q_source_group = "decide" or "detour"

  // Per-hop time stamps (header field `stamp`, the cycle the packet arrived
  // at its current router) and the r of a hop are Q_STAMP_W-bit cycle counts
  // taken modulo 2^Q_STAMP_W.
  localparam int unsigned Q_STAMP_W = 16;

  // What a Q-adaptive head carries from its route unit (rr_route_q_adaptive) to the
  // router's Q unit (rr_q_unit) through its route FIFO, LSB first:
  //   min_col[id_width(C)]  the minimal port's table column
  //   role[2]               Q_ROLE_*
  //   read[1]               the head needs its row (not in its destination group)
  //   row[id_width(ROWS)]   the packet's row in this router's table
  //   fb[1]                 feedback is due upstream (it came in on a network port)
  //   r[Q_STAMP_W]          cycles from its arrival at the upstream router to here (with
  //                         R_AT_DECISION: the header's stamp, and rr_q_unit takes r)
  //   fb_row[id_width(ROWS)] the packet's row in the upstream router's table
  //   to_dst[H]             which of this router's global ports lead to the destination group
  function automatic int unsigned q_operands_width(int unsigned c, int unsigned rows, int unsigned h);
    q_operands_width = id_width(c) + 2 + 1 + 2 * id_width(rows) + 1 + Q_STAMP_W + h;
  endfunction

  // Q-adaptive's feedback, above {vc, valid} in the credit word, LSB first:
  // {valid, row[id_width(ROWS)], target[QW]}: the upstream router updates
  // that row in the column of the port the credit came in on, towards the
  // target r + Q_y.
  function automatic int unsigned q_feedback_width(int unsigned rows, int unsigned qw);
    q_feedback_width = 1 + id_width(rows) + qw;
  endfunction

  // The radix of dimension d of a k-ary n-cube given as K0, K1, K2 (the
  // torus/mesh route unit's and the DQN unit's parameters).
  function automatic int unsigned cube_radix(int unsigned d, int unsigned k0, int unsigned k1, int unsigned k2);
    if (d == 0) cube_radix = k0;
    else if (d == 1) cube_radix = k1;
    else cube_radix = k2;
  endfunction

  // The largest fan-in of a DQN network's NL layers, its widths 16 bits each
  // in sizes (rr_dqn_infer_parallel: a programming word holds one neuron's
  // weights).
  function automatic int unsigned max_fan_in(logic [79:0] sizes, int unsigned nl);
    max_fan_in = 1;
    for (int unsigned l = 0; l < nl; l++) begin
      if (32'(sizes[16*l+:16]) > max_fan_in) max_fan_in = 32'(sizes[16*l+:16]);
    end
  endfunction

  // Weights and biases of a DQN network of up to 4 layers, its widths 16
  // bits each in sizes, zero past the last (rr_dqn_infer_parallel's constants).
  function automatic int unsigned dqn_num_weights(logic [79:0] sizes);
    dqn_num_weights = 0;
    for (int unsigned l = 0; l < 4; l++) dqn_num_weights += 32'(sizes[16*l+:16]) * 32'(sizes[16*(l+1)+:16]);
  endfunction
  function automatic int unsigned dqn_num_biases(logic [79:0] sizes);
    dqn_num_biases = 0;
    for (int unsigned l = 1; l <= 4; l++) dqn_num_biases += 32'(sizes[16*l+:16]);
  endfunction

  // The DQN inference block's programming port (rr_dqn_infer): what a write
  // sets in the selected layer: a weight word, a neuron's bias, or the
  // layer's rounding shift.
  localparam int unsigned DQN_PROG_KIND_W = 2;
  localparam logic [1:0]  DQN_PROG_WEIGHT = 2'd0;
  localparam logic [1:0]  DQN_PROG_BIAS   = 2'd1;
  localparam logic [1:0]  DQN_PROG_SHIFT  = 2'd2;

  /* verilator lint_on UNUSEDPARAM */
endpackage
