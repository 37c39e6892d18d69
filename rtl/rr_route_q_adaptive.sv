// Q-adaptive's route unit on dfly(p, a, h, g): the minimal route and the VC
// of the hop (rr_dfly_path, rr_vc_levels), and for the router's Q unit
// (rr_q_unit) the operands of a decision at the head of the VC: the
// router's role on the packet's path, the table rows here and upstream, the
// time since the upstream router (now_i - the header's stamp), the minimal
// column and the global ports that lead to the destination group. Stamps
// the header with now_i. q_init_value_o: the table's initial values of row
// q_init_row_i, column 0 in the LSBs. The rules: gen/src/q_adaptive/
// (routing_q_adaptive.cpp, q_table_layout.cpp); docs/q_adaptive.md ("The
// router").
module rr_route_q_adaptive #(
  parameter int unsigned P = 7,
  parameter int unsigned V = 5,
  parameter int unsigned FLIT_W = 64,
  parameter int unsigned NUM_NI = 2,
  parameter int unsigned A = 4,                  // routers per group
  parameter int unsigned H = 2,                  // global ports per router
  parameter int unsigned NUM_G = 9,              // groups
  parameter int unsigned LINKS_PER_PAIR = 1,     // global links per group pair
  parameter bit          PALMTREE = 1'b0,        // global-link arrangement (0: absolute)
  parameter int unsigned GB = 4,                 // group bits in an id
  parameter int unsigned IB = 2,                 // index bits in an id
  parameter int unsigned LOCAL_W = 1,            // terminal bits in an address
  parameter int unsigned DST_LSB = 0,
  parameter int unsigned SRC_LSB = 0,
  parameter int unsigned PHASE_LSB = 0,          // header route phase (2 bits)
  parameter int unsigned STAMP_LSB = 0,          // header time stamp (rr_pkg::Q_STAMP_W bits)
  parameter int unsigned LEVELS = 5,             // VC levels the algorithm needs
  parameter int unsigned QW = 16,                // Q-value bits (routing.q_value_bits)
  parameter int unsigned QFB = 4,                // Q-value fraction bits (routing.q_fraction_bits)
  parameter int unsigned LOCAL_HOP_CYCLES = 3,   // zero-load cycles of a local hop (pipeline.hpp hop_latency)
  parameter int unsigned GLOBAL_HOP_CYCLES = 12, // and of a global hop
  parameter bit          FLAT_INIT = 1'b0,       // routing.q_initial = "flat": the authors' code's initial values
  parameter bit          R_AT_DECISION = 1'b0,   // routing.q_stamp = "crossbar": the operands carry the stamp, the Q unit takes r
  parameter bit          SOURCE_GROUP = 1'b0,     // routing.q_source_group = "decide" or "detour": the next router of the source group decides
  parameter bit          DETOUR = 1'b0,           // "detour": for the packets the source sent there non-minimally (phase 3), not the minimal ones
  parameter bit          RISING = 1'b0,           // routing.q_vcs = "rising": a hop after which the packet decides no more may take higher VC levels
  localparam int unsigned NUM_COLS = P - NUM_NI,       // Q-table columns: the network ports
  localparam int unsigned ROWS = (NUM_G - 1) * NUM_NI, // Q-table rows
  localparam int unsigned ROW_W = rr_pkg::id_width(ROWS),
  localparam int unsigned STAMP_W = rr_pkg::Q_STAMP_W,
  localparam int unsigned VC_W = rr_pkg::id_width(V),
  localparam int unsigned PORT_W = rr_pkg::id_width(P),
  localparam int unsigned ID_W = GB + IB,
  localparam int unsigned OPERANDS_W = rr_pkg::q_operands_width(NUM_COLS, ROWS, H)
) (
  input  logic [ID_W-1:0]       id_i,
  input  logic [FLIT_W-1:0]     hdr_i,
  input  logic [PORT_W-1:0]     in_port_i,
  input  logic [VC_W-1:0]       in_vc_i,
  input  logic [STAMP_W-1:0]    now_i,          // the router's cycle counter
  output logic [PORT_W-1:0]     out_port_o,     // the minimal route
  output logic [V-1:0]          out_vcs_o,
  output logic [FLIT_W-1:0]     hdr_o,
  output logic [PORT_W-1:0]     alt_port_o,     // zero: the Q unit names the port
  output logic [V-1:0]          alt_vcs_o,      // the chosen port keeps the hop's VC level
  output logic                  decide_o,       // a head for the Q unit
  output logic [OPERANDS_W-1:0] operands_o,
  input  logic [ROW_W-1:0]      q_init_row_i,   // a row of the table
  output logic [NUM_COLS*QW-1:0] q_init_value_o // its initial values, column 0 in the LSBs
);
  localparam int unsigned FIRST_GLOBAL = NUM_NI + A - 1;
  localparam int unsigned LINK_END_W = $clog2(A * H + 1);  // a global link end in a group: 0..A*H-1
  localparam int unsigned COPY_W = rr_pkg::id_width(LINKS_PER_PAIR);
  localparam int unsigned QLB = (LOCAL_W > 0) ? LOCAL_W : 1;  // a source node in a Q row

  // The packet's row: rank of its destination group among the others x p +
  // the node of its source router.
  function automatic logic [ROW_W-1:0] row_of(input logic [GB-1:0] own, input logic [GB-1:0] t,
                                              input logic [QLB-1:0] n);
    logic [GB-1:0] rank;
    rank = (t < own) ? t : t - 1'b1;
    row_of = ROW_W'(rank) * ROW_W'(NUM_NI) + ROW_W'(n);
  endfunction
  // The group link end n of group g leads to: link end n is towards other
  // group n mod (G-1) (rr_dfly_path's other_group, inverted).
  function automatic logic [GB-1:0] group_over(input logic [GB-1:0] g, input logic [LINK_END_W-1:0] n);
    logic [LINK_END_W-1:0] m;
    logic [GB:0]   o, u;
    m = n % LINK_END_W'(NUM_G - 1);
    o = (GB+1)'(m);
    if (PALMTREE) begin  // o = (g - u - 1) mod G
      u = {1'b0, g} + (GB+1)'(NUM_G - 1) - o;
      if (u >= (GB+1)'(NUM_G)) u = u - (GB+1)'(NUM_G);
    end else begin
      u = (o < {1'b0, g}) ? o : o + 1'b1;
    end
    group_over = u[GB-1:0];
  endfunction
  // Zero-load cycles from a router to the first router of another group t
  // (t == its group: 0), given whether its link to t is another router's.
  function automatic int unsigned to_group(input bit same_group, input bit via_local);
    if (same_group) to_group = 0;
    else if (!via_local) to_group = GLOBAL_HOP_CYCLES;
    else to_group = LOCAL_HOP_CYCLES + GLOBAL_HOP_CYCLES;
  endfunction
  // A cycle count as a Q-value code (QFB fraction bits), saturated.
  function automatic logic [QW-1:0] code(input int unsigned cycles);
    code = (cycles >= (1 << (QW - QFB))) ? '1 : QW'(cycles << QFB);
  endfunction

  // ---- header fields ----
  logic [GB-1:0] my_g, dst_g;
  logic [IB-1:0] my_i, dst_i;
  logic [1:0]    phase;
  assign {my_g, my_i} = id_i;
  assign {dst_g, dst_i} = hdr_i[DST_LSB+LOCAL_W+:ID_W];
  assign phase = hdr_i[PHASE_LSB+:2];

  logic [PORT_W-1:0] dst_local;
  logic [QLB-1:0]    src_n;
  if (LOCAL_W > 0) begin : gen_local
    assign dst_local = PORT_W'(hdr_i[DST_LSB+:LOCAL_W]);
    assign src_n = hdr_i[SRC_LSB+:LOCAL_W];
  end else begin : gen_single
    assign dst_local = '0;
    assign src_n = '0;
  end

  logic in_ni, in_global;
  assign in_ni = in_port_i < PORT_W'(NUM_NI);
  assign in_global = in_port_i >= PORT_W'(FIRST_GLOBAL);

  // ---- the minimal route and the VC of the hop: the hops taken before it
  // (0 out of the source router); ejection on any VC ----
  logic [PORT_W-1:0] min_port, unused_min_group_port;
  logic              unused_min_via_local;
  logic [IB-1:0]     unused_min_landing;
  logic [rr_pkg::UGAL_HOPS_W-1:0] min_hops;
  rr_dfly_path #(
    .P(P), .NUM_NI(NUM_NI), .A(A), .H(H), .NUM_G(NUM_G), .LINKS_PER_PAIR(LINKS_PER_PAIR), .PALMTREE(PALMTREE),
    .GB(GB), .IB(IB),
    .LANDING(1'b1), .GIVEN_COPY(1'b0)
  ) i_min (
    .from_id_i(id_i), .to_id_i({dst_g, dst_i}), .copy_i('0), .terminal_i(dst_local),
    .route_o(min_port), .group_port_o(unused_min_group_port), .via_local_o(unused_min_via_local),
    .landing_o(unused_min_landing), .hops_o(min_hops)
  );
  logic [V-1:0] first_vcs, next_vcs, rise_vcs, hop_vcs, unused_same_vcs;
  rr_vc_levels #(.V(V), .LEVELS(LEVELS)) i_levels (
    .vc_i(in_vc_i), .first_i(in_ni), .after_i(min_hops - 1'b1),
    .first_o(first_vcs), .same_o(unused_same_vcs), .next_o(next_vcs), .rise_o(rise_vcs)
  );
  assign hop_vcs = in_ni ? first_vcs : next_vcs;
  assign out_port_o = min_port;

  // Where this router stands on the packet's path (rr_pkg::Q_ROLE_*): the
  // source router outside the destination group; the first router of an
  // intermediate group (entered "to intermediate" by a global hop) without
  // a global link to the destination group (its minimal port is local);
  // with SOURCE_GROUP, the next router of the source group, reached by the
  // source's minimal local hop (phase 0 on a local port outside the
  // destination group), or with DETOUR by its non-minimal one (phase 3);
  // else minimal.
  logic       to_inter, in_dst_group;
  logic [1:0] role;
  assign to_inter = phase == 2'd1 && in_global;
  assign in_dst_group = my_g == dst_g;
  always_comb begin
    if (in_ni && !in_dst_group) role = 2'(rr_pkg::Q_ROLE_SOURCE);
    else if (to_inter && min_port < PORT_W'(FIRST_GLOBAL)) role = 2'(rr_pkg::Q_ROLE_INTERMEDIATE);
    else if (SOURCE_GROUP && phase == (DETOUR ? 2'd3 : 2'd0) && !in_ni && !in_global && !in_dst_group) begin
      role = 2'(rr_pkg::Q_ROLE_SOURCE_GROUP);
    end
    else role = 2'(rr_pkg::Q_ROLE_MINIMAL);
  end

  logic [H-1:0] to_dst;
  for (genvar k = 0; k < H; k++) begin : gen_to_dst
    assign to_dst[k] = group_over(my_g, LINK_END_W'(my_i) * LINK_END_W'(H) + LINK_END_W'(k)) == dst_g;
  end

  // A head decides (or reads its row for Q_y, or owes feedback) unless it is
  // in its destination group and came from a node or a router of that group.
  // Feedback goes to the upstream router: its row for the packet is the
  // rank of the destination group among that router's others (its group:
  // this one over a local port, the other end of the global link over a
  // global one).
  localparam int unsigned COL_W = rr_pkg::id_width(NUM_COLS);
  logic [STAMP_W-1:0] r;
  logic [GB-1:0]      up_g;
  logic [PORT_W-1:0]  in_k;  // the input port's index among the global ports
  assign r = R_AT_DECISION ? hdr_i[STAMP_LSB+:STAMP_W] : now_i - hdr_i[STAMP_LSB+:STAMP_W];
  assign in_k = in_port_i - PORT_W'(FIRST_GLOBAL);
  assign up_g = in_global ? group_over(my_g, LINK_END_W'(my_i) * LINK_END_W'(H) + LINK_END_W'(in_k)) : my_g;
  assign decide_o = !in_dst_group || in_global;
  assign operands_o = {to_dst, row_of(up_g, dst_g, src_n), r, !in_ni, row_of(my_g, dst_g, src_n),
                       !in_dst_group, role, COL_W'(min_port - PORT_W'(NUM_NI))};

  // A source detour's decision, like the intermediate group's first router,
  // leaves "from intermediate" unless the Q unit sends it into a third group.
  logic decided_detour;
  assign decided_detour = DETOUR && role == 2'(rr_pkg::Q_ROLE_SOURCE_GROUP);
  always_comb begin
    hdr_o = hdr_i;
    hdr_o[STAMP_LSB+:STAMP_W] = now_i;
    if (to_inter || decided_detour) hdr_o[PHASE_LSB+:2] = 2'd2;  // every port leads on "from intermediate"
  end
  assign alt_port_o = '0;
  assign alt_vcs_o = (min_port < PORT_W'(NUM_NI)) ? '1 : hop_vcs;

  // The minimal hop may rise (RISING) when the packet decides no more after
  // it: not at the intermediate router (whose VCs serve every port it may
  // choose), and with q_source_group = "decide" not on a minimal local hop
  // in the source group (the next router decides). A non-minimal choice at
  // the source takes alt_vcs_o.
  logic settled, min_local;
  assign min_local = min_port >= PORT_W'(NUM_NI) && min_port < PORT_W'(FIRST_GLOBAL);
  assign settled = role != 2'(rr_pkg::Q_ROLE_INTERMEDIATE)
                   && !(SOURCE_GROUP && !DETOUR && phase == 2'd0 && !in_dst_group && min_local);
  assign out_vcs_o = (min_port < PORT_W'(NUM_NI)) ? '1 : (RISING && settled) ? rise_vcs : hop_vcs;

  // ---- initial values (QTableLayout::initial_cycles): a column's hop, then
  // from the router it leads to, the cycles to the row's group ----
  logic [GB-1:0]    init_g;
  logic [ROW_W-1:0] init_quot;
  logic [GB:0]      init_rank;
  assign init_quot = q_init_row_i / ROW_W'(NUM_NI);
  assign init_rank = (GB+1)'(init_quot);
  assign init_g = (init_rank < {1'b0, my_g}) ? init_rank[GB-1:0] : GB'(init_rank + 1'b1);
  for (genvar c = 0; c < NUM_COLS; c++) begin : gen_init
    logic [PORT_W-1:0] unused_route, unused_group_port;
    logic [IB-1:0]     unused_landing;
    logic [rr_pkg::UGAL_HOPS_W-1:0] unused_hops;
    logic [GB-1:0]     u;      // the group the column's hop leads to
    logic [IB-1:0]     j;      // and the router index there
    logic              via_local;
    if (c < A - 1) begin : gen_local_col
      assign u = my_g;
      assign j = (IB'(c) < my_i) ? IB'(c) : IB'(c + 1);
    end else begin : gen_global_col
      // Link end n of this group, copy n / (G-1), lands on router j of group u.
      logic [LINK_END_W-1:0]     n;
      logic [PORT_W-1:0] unused_far_route, unused_far_group_port;
      logic              unused_far_via_local;
      logic [rr_pkg::UGAL_HOPS_W-1:0] unused_far_hops;
      assign n = LINK_END_W'(my_i) * LINK_END_W'(H) + LINK_END_W'(c - (A - 1));
      assign u = group_over(my_g, n);
      rr_dfly_path #(
        .P(P), .NUM_NI(NUM_NI), .A(A), .H(H), .NUM_G(NUM_G), .LINKS_PER_PAIR(LINKS_PER_PAIR), .PALMTREE(PALMTREE),
        .GB(GB), .IB(IB),
        .LANDING(1'b0), .GIVEN_COPY(1'b1)
      ) i_far (
        .from_id_i(id_i), .to_id_i({u, IB'(0)}), .copy_i(COPY_W'(n / LINK_END_W'(NUM_G - 1))), .terminal_i('0),
        .route_o(unused_far_route), .group_port_o(unused_far_group_port), .via_local_o(unused_far_via_local),
        .landing_o(j), .hops_o(unused_far_hops)
      );
      logic unused_far;
      assign unused_far = ^{unused_far_route, unused_far_group_port, unused_far_via_local, unused_far_hops};
    end
    // Whether router (u, j)'s link to the row's group is another router's.
    rr_dfly_path #(
      .P(P), .NUM_NI(NUM_NI), .A(A), .H(H), .NUM_G(NUM_G), .LINKS_PER_PAIR(LINKS_PER_PAIR), .PALMTREE(PALMTREE),
      .GB(GB), .IB(IB),
      .LANDING(1'b0), .GIVEN_COPY(1'b0)
    ) i_to_row (
      .from_id_i({u, j}), .to_id_i({init_g, IB'(0)}), .copy_i('0), .terminal_i('0),
      .route_o(unused_route), .group_port_o(unused_group_port), .via_local_o(via_local),
      .landing_o(unused_landing), .hops_o(unused_hops)
    );
    if (FLAT_INIT) begin : gen_flat
      // One global hop through the own link to the row's group, a global and
      // a local hop through every other port.
      assign q_init_value_o[c*QW+:QW] = code(GLOBAL_HOP_CYCLES + ((u == init_g) ? 0 : LOCAL_HOP_CYCLES));
      logic unused_via_local;
      assign unused_via_local = via_local;
    end else begin : gen_zero_load
      assign q_init_value_o[c*QW+:QW] = code(((c < A - 1) ? LOCAL_HOP_CYCLES : GLOBAL_HOP_CYCLES)
                                             + to_group(u == init_g, via_local));
    end
    logic unused_col;
    assign unused_col = ^{unused_route, unused_group_port, unused_landing, unused_hops};
  end

  logic unused;
  assign unused = ^{unused_min_group_port, unused_min_via_local, unused_min_landing, unused_same_vcs,
                    RISING ? 1'b0 : ^{rise_vcs, settled}};
endmodule
