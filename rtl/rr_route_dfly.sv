// Dragonfly route compute of MIN, VALg, VALn, UGAL-L (g and n), UGAL-LE and
// PAR on dfly(p, a, h, g): the rules of gen/src/dragonfly/routing_dragonfly.cpp,
// which the generator checks for deadlock freedom and the test bench checks
// every hop against. The algorithm comes as its traits (ROUTE_STATE ..
// REDIVERT), set by the generator from the algorithm's row of kAlgorithms.
// Ports, id_i = {group, index}: docs/topology_dragonfly.md; the paths are
// rr_dfly_path's, the VC levels rr_vc_levels'. Non-minimal packets carry
// their intermediate in the header (phase, inter). UGAL queue of a port:
// occ_i + dem_i. HEAD = 0: the UGAL decision is made here (rr_ugal_decide);
// HEAD = 1: out_* is the minimal route, alt_* the non-minimal one, decide_o
// marks an open choice and operands_o carries rr_ugal_decide's other inputs.
// docs/routing_dragonfly.md ("Common machinery", "Decision point").
module rr_route_dfly #(
  parameter int unsigned P = 7,
  parameter int unsigned V = 4,
  parameter int unsigned FLIT_W = 64,
  parameter int unsigned NUM_NI = 2,
  parameter int unsigned A = 4,              // routers per group
  parameter int unsigned H = 2,              // global ports per router
  parameter int unsigned NUM_G = 9,          // groups
  parameter int unsigned LINKS_PER_PAIR = 1, // global links per group pair
  parameter bit          PALMTREE = 1'b0,    // global-link arrangement (0: absolute)
  parameter int unsigned GB = 4,             // group bits in an id
  parameter int unsigned IB = 2,             // index bits in an id
  parameter int unsigned LOCAL_W = 1,        // terminal bits in an address
  parameter int unsigned DST_LSB = 0,
  parameter int unsigned SRC_LSB = 0,
  parameter int unsigned PHASE_LSB = 0,      // header route phase (2 bits; ROUTE_STATE only)
  parameter int unsigned INTER_LSB = 0,      // header intermediate id (GB+IB bits; ROUTE_STATE only)
  // The algorithm's traits
  parameter bit          ROUTE_STATE = 1'b0,         // the header carries phase and intermediate (all but MIN)
  parameter bit          ALWAYS_VALIANT = 1'b0,      // every packet takes a random intermediate (VALg, VALn)
  parameter bit          GROUP_INTERMEDIATE = 1'b0,  // the intermediate is a group, entered at any router
  parameter bit          ADAPTIVE = 1'b0,            // compares the minimal and a non-minimal route with a bias
  parameter bit          CONTENTION = 1'b0,          // UGAL-LE's contention factors in that comparison
  parameter bit          REDIVERT = 1'b0,            // may divert again at the next router of the source group (PAR)
  parameter int unsigned LEVELS = 2,         // VC levels the algorithm needs
  parameter int          BIAS = 0,           // UGAL bias b, flits x hops
  parameter bit          RULE_DOUBLE = 1'b0, // UGAL rule: 0 q_m*H_m <= q_nm*H_nm + b; 1 q_m <= 2*q_nm + b
  parameter bit          INTRA_VALIANT = 1'b0,  // same-group pairs: 0 minimal, 1 through an intermediate group
  parameter int unsigned OCC_W = 8,          // occupancy width per port
  parameter int unsigned DEMAND_W = 8,       // waiting-demand width per port
  parameter int unsigned CFW = 4,            // contention factor width per group
  parameter int unsigned PORT = 0,           // this unit's input port (seeds the LFSR)
  parameter int unsigned SEED = 1,           // routing.seed
  parameter bit          HEAD = 1'b0,        // decision at the head of the VC (routing.decision = "vc_head")
  localparam int unsigned VC_W = rr_pkg::id_width(V),
  localparam int unsigned PORT_W = rr_pkg::id_width(P),
  localparam int unsigned ID_W = GB + IB,
  localparam int unsigned HW = rr_pkg::UGAL_HOPS_W,
  localparam int unsigned OPERANDS_W = rr_pkg::ugal_operands_width(GB)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [ID_W-1:0]      id_i,
  input  logic [FLIT_W-1:0]    hdr_i,
  input  logic [PORT_W-1:0]    in_port_i,
  input  logic [VC_W-1:0]      in_vc_i,
  input  logic [P*OCC_W-1:0]   occ_i,        // per output port: used credits over its VCs
  input  logic [P*DEMAND_W-1:0] dem_i,       // per output port: flits of packets waiting for it here
  input  logic [NUM_G*CFW-1:0] contention_i, // per group: contention factor C_j (UGAL-LE)
  output logic [PORT_W-1:0]    out_port_o,
  output logic [V-1:0]         out_vcs_o,
  output logic [FLIT_W-1:0]    hdr_o,
  // HEAD only (zero otherwise): the non-minimal outcome and the open decision
  output logic [PORT_W-1:0]    alt_port_o,
  output logic [V-1:0]         alt_vcs_o,
  output logic                 decide_o,
  output logic [OPERANDS_W-1:0] operands_o
);
  localparam int unsigned FIRST_GLOBAL = NUM_NI + A - 1;
  localparam int unsigned NUM_CAND_SAME = GROUP_INTERMEDIATE ? NUM_G - 1 : (NUM_G - 1) * A;  // src and dst group equal
  localparam int unsigned NUM_CAND_DIFF = GROUP_INTERMEDIATE ? NUM_G - 2 : (NUM_G - 2) * A;
  localparam int unsigned CHOICE_W = $clog2(NUM_CAND_SAME + 1);  // an intermediate choice: 0..NUM_CAND_SAME-1

  // ---- header fields ----
  logic [GB-1:0] my_g, dst_g, src_g, int_g;
  logic [IB-1:0] my_i, dst_i, int_i;
  assign {my_g, my_i} = id_i;
  assign {dst_g, dst_i} = hdr_i[DST_LSB+LOCAL_W+:ID_W];
  assign src_g = hdr_i[SRC_LSB+LOCAL_W+IB+:GB];

  logic [1:0] phase;
  if (ROUTE_STATE) begin : gen_phase
    assign phase = hdr_i[PHASE_LSB+:2];
    assign {int_g, int_i} = hdr_i[INTER_LSB+:ID_W];
  end else begin : gen_min_only
    assign phase = 2'd0;
    assign {int_g, int_i} = '0;
  end

  logic [PORT_W-1:0] dst_local;
  if (LOCAL_W > 0) begin : gen_local
    assign dst_local = PORT_W'(hdr_i[DST_LSB+:LOCAL_W]);
  end else begin : gen_single
    assign dst_local = '0;
  end

  // ---- random intermediate candidate ----
  logic [15:0] rand_bits;
  logic [15:0] seed;
  assign seed = 16'(SEED) ^ (16'(id_i) * 16'h9E37) ^ 16'(PORT * 32'h7F4B);
  rr_lfsr i_lfsr (.clk_i, .rst_ni, .seed_i(seed), .rand_o(rand_bits));

  // Products of a run-time value with a small or constant factor, written as
  // shift-and-add so that no synthesis path spends a multiplier (a DSP slice
  // on the FPGA) on a 3-bit factor.
  function automatic logic [16+CHOICE_W-1:0] scale_rand(input logic [15:0] r, input int unsigned n);
    scale_rand = '0;
    for (int unsigned k = 0; k < CHOICE_W; k++) begin
      if (((n >> k) & 1) != 0) scale_rand = scale_rand + ((16+CHOICE_W)'(r) << k);
    end
  endfunction

  // pick = floor(rand * n / 2^16), uniform over 0..n-1 (n: the candidates).
  logic [GB-1:0] cand_g;
  logic [IB-1:0] cand_i;
  always_comb begin
    logic [16+CHOICE_W-1:0] scaled;
    logic [CHOICE_W-1:0]    pick;
    logic [GB-1:0]    cg, lo, hi;
    scaled = (my_g == dst_g) ? scale_rand(rand_bits, NUM_CAND_SAME) : scale_rand(rand_bits, NUM_CAND_DIFF);
    pick = CHOICE_W'(scaled >> 16);
    cg = GROUP_INTERMEDIATE ? GB'(pick) : GB'(pick / CHOICE_W'(A));
    lo = (my_g < dst_g) ? my_g : dst_g;
    hi = (my_g < dst_g) ? dst_g : my_g;
    if (cg >= lo) cg = cg + 1'b1;
    if ((my_g != dst_g) && (cg >= hi)) cg = cg + 1'b1;
    cand_g = cg;
    cand_i = GROUP_INTERMEDIATE ? '0 : IB'(pick % CHOICE_W'(A));
  end

  // ---- decision ----
  logic in_ni, in_global, in_local;
  assign in_ni = in_port_i < PORT_W'(NUM_NI);
  assign in_global = in_port_i >= PORT_W'(FIRST_GLOBAL);
  assign in_local = !in_ni && !in_global;

  // A router id is a legal intermediate only inside the topology (a header
  // written by a source router always is; the check keeps PAR's
  // re-evaluation safe for any header).
  function automatic bit in_topology(input logic [GB-1:0] g, input logic [IB-1:0] i);
    bit gok, iok;
    gok = 1'b0;
    iok = 1'b0;
    for (int unsigned k = 0; k < NUM_G; k++) gok = gok | (g == GB'(k));
    for (int unsigned k = 0; k < A; k++) iok = iok | (i == IB'(k));
    in_topology = gok && iok;
  endfunction

  // Output VCs of a hop out of `port` (the level rises after a global hop and
  // for a local hop after a local one).
  logic [V-1:0] first_vcs, same_vcs, next_vcs, unused_rise_vcs;
  rr_vc_levels #(.V(V), .LEVELS(LEVELS)) i_levels (
    .vc_i(in_vc_i), .first_i(1'b0), .after_i('0),
    .first_o(first_vcs), .same_o(same_vcs), .next_o(next_vcs), .rise_o(unused_rise_vcs)
  );
  function automatic logic [V-1:0] vcs_for(input logic [PORT_W-1:0] port);
    if (port < PORT_W'(NUM_NI)) vcs_for = '1;  // ejection: any VC
    else if (in_ni) vcs_for = first_vcs;
    else if (in_global || port < PORT_W'(FIRST_GLOBAL)) vcs_for = next_vcs;
    else vcs_for = same_vcs;
  endfunction

  // The candidate: the LFSR's draw, or at PAR's re-evaluation (a local input
  // port) the one the source drew and wrote into the header, taken only if
  // it is a legal intermediate (not this group, not the destination's).
  logic          par_again, use_ok;
  logic [GB-1:0] use_g;
  logic [IB-1:0] use_i;
  assign par_again = REDIVERT && in_local;
  assign use_g = par_again ? int_g : cand_g;
  assign use_i = par_again ? int_i : cand_i;
  assign use_ok = !par_again || (in_topology(int_g, int_i) && int_g != my_g && int_g != dst_g);

  // The paths: minimal to the destination; to the candidate intermediate;
  // from there (its router, or where the link to its group lands) to the
  // destination; to the header's intermediate.
  logic [PORT_W-1:0] min_port, cand_port, inter_port;
  logic [HW-1:0] hm, cand_hops, second_hops;
  logic              cand_via_local;
  logic [IB-1:0]     cand_landing;
  logic [PORT_W-1:0] unused_min_group_port, unused_cand_route, unused_second_port, unused_second_group_port,
                     unused_inter_group_port;
  logic [IB-1:0]     unused_min_landing, unused_second_landing, unused_inter_landing;
  logic              unused_min_via_local, unused_second_via_local, unused_inter_via_local;
  logic [HW-1:0] unused_inter_hops;
  rr_dfly_path #(
    .P(P), .NUM_NI(NUM_NI), .A(A), .H(H), .NUM_G(NUM_G), .LINKS_PER_PAIR(LINKS_PER_PAIR), .PALMTREE(PALMTREE),
    .GB(GB), .IB(IB),
    .LANDING(1'b1), .GIVEN_COPY(1'b0)
  ) i_min (
    .from_id_i(id_i), .to_id_i({dst_g, dst_i}), .copy_i('0), .terminal_i(dst_local),
    .route_o(min_port), .group_port_o(unused_min_group_port), .via_local_o(unused_min_via_local),
    .landing_o(unused_min_landing), .hops_o(hm)
  );
  rr_dfly_path #(
    .P(P), .NUM_NI(NUM_NI), .A(A), .H(H), .NUM_G(NUM_G), .LINKS_PER_PAIR(LINKS_PER_PAIR), .PALMTREE(PALMTREE),
    .GB(GB), .IB(IB),
    .LANDING(!GROUP_INTERMEDIATE), .GIVEN_COPY(1'b0)
  ) i_cand (
    .from_id_i(id_i), .to_id_i({use_g, use_i}), .copy_i('0), .terminal_i('0),
    .route_o(unused_cand_route), .group_port_o(cand_port), .via_local_o(cand_via_local),
    .landing_o(cand_landing), .hops_o(cand_hops)
  );
  rr_dfly_path #(
    .P(P), .NUM_NI(NUM_NI), .A(A), .H(H), .NUM_G(NUM_G), .LINKS_PER_PAIR(LINKS_PER_PAIR), .PALMTREE(PALMTREE),
    .GB(GB), .IB(IB),
    .LANDING(1'b1), .GIVEN_COPY(1'b0)
  ) i_second (
    .from_id_i({use_g, GROUP_INTERMEDIATE ? cand_landing : use_i}), .to_id_i({dst_g, dst_i}), .copy_i('0),
    .terminal_i('0), .route_o(unused_second_port), .group_port_o(unused_second_group_port),
    .via_local_o(unused_second_via_local), .landing_o(unused_second_landing), .hops_o(second_hops)
  );
  rr_dfly_path #(
    .P(P), .NUM_NI(NUM_NI), .A(A), .H(H), .NUM_G(NUM_G), .LINKS_PER_PAIR(LINKS_PER_PAIR), .PALMTREE(PALMTREE),
    .GB(GB), .IB(IB),
    .LANDING(!GROUP_INTERMEDIATE), .GIVEN_COPY(1'b0)
  ) i_inter (
    .from_id_i(id_i), .to_id_i({int_g, GROUP_INTERMEDIATE ? IB'(0) : int_i}), .copy_i('0), .terminal_i('0),
    .route_o(inter_port), .group_port_o(unused_inter_group_port), .via_local_o(unused_inter_via_local),
    .landing_o(unused_inter_landing), .hops_o(unused_inter_hops)
  );

  // The candidates' path lengths, and whether a choice is open.
  logic [HW-1:0] hnm;
  logic              decide, le;
  always_comb begin
    logic at_dst;
    at_dst = (my_g == dst_g) && (my_i == dst_i);
    if (GROUP_INTERMEDIATE) hnm = (cand_via_local ? HW'(2) : HW'(1)) + second_hops;
    else hnm = cand_hops + second_hops;
    // UGAL-LE's contention term: another destination group, reached over
    // another router's global link.
    le = (my_g != dst_g) && (min_port < PORT_W'(FIRST_GLOBAL));
    decide = !at_dst && phase == 2'd0 && ROUTE_STATE && (INTRA_VALIANT || my_g != dst_g)
             && (in_ni || (REDIVERT && in_local && my_g == src_g)) && use_ok;
  end

  // The UGAL comparison here (at buffer write) or at the head of the VC.
  logic nonmin_now;
  if (ADAPTIVE && !HEAD) begin : gen_decide_here
    rr_ugal_decide #(
      .P(P), .NUM_G(NUM_G), .GB(GB), .CONTENTION(CONTENTION), .BIAS(BIAS), .RULE_DOUBLE(RULE_DOUBLE),
      .OCC_W(OCC_W), .DEMAND_W(DEMAND_W), .CFW(CFW)
    ) i_decide (
      .occ_i, .dem_i, .contention_i,
      .min_port_i   (min_port),
      .nonmin_port_i(cand_port),
      .min_hops_i   (hm),
      .nonmin_hops_i(hnm),
      .le_i         (le),
      .dst_group_i  (dst_g),
      .nonmin_o     (nonmin_now)
    );
  end else begin : gen_decide_elsewhere
    // Valiant always diverts; MIN never; with HEAD the head of the VC decides.
    assign nonmin_now = ALWAYS_VALIANT;
  end

  always_comb begin
    logic [PORT_W-1:0] port;
    logic [1:0]        new_phase;
    logic [ID_W-1:0]   new_inter;
    logic              at_inter;

    at_inter = GROUP_INTERMEDIATE ? (my_g == int_g) : ((my_g == int_g) && (my_i == int_i));

    port = min_port;
    new_phase = phase;
    new_inter = {int_g, int_i};
    if (decide && nonmin_now) begin
      port = cand_port;
      new_phase = 2'd1;
      new_inter = {use_g, use_i};
    end else if (phase == 2'd1) begin
      if (at_inter) new_phase = 2'd2;
      else port = inter_port;  // towards the intermediate (a group: never this one)
    end
    // PAR: a packet the source routes minimally keeps the source's candidate
    // for the re-evaluation at the next router of the group. With the
    // decision at the head, every open decision writes the candidate: the
    // input port only sets the phase if the head takes the alternative.
    if (decide && !nonmin_now && ((REDIVERT && in_ni) || (HEAD && ADAPTIVE))) new_inter = {use_g, use_i};

    out_port_o = port;
    out_vcs_o = vcs_for(port);

    hdr_o = hdr_i;
    if (ROUTE_STATE) begin
      hdr_o[PHASE_LSB+:2] = new_phase;
      hdr_o[INTER_LSB+:ID_W] = new_inter;
    end
  end

  if (HEAD && ADAPTIVE) begin : gen_head
    assign alt_port_o = cand_port;
    assign alt_vcs_o  = vcs_for(cand_port);
    assign decide_o   = decide;
    assign operands_o = {dst_g, le, hnm, hm};
  end else begin : gen_no_head
    assign alt_port_o = '0;
    assign alt_vcs_o  = '0;
    assign decide_o   = 1'b0;
    assign operands_o = '0;
  end

  // Adaptive inputs are unused by the oblivious algorithms and with HEAD;
  // the path lengths by the oblivious algorithms.
  logic unused;
  assign unused = ((ADAPTIVE && !HEAD) ? 1'b0 : ^{occ_i, dem_i, contention_i}) ^ (ADAPTIVE ? 1'b0 : ^{hm, hnm, le})
                  ^ ^{unused_min_group_port, unused_cand_route, unused_second_port, unused_second_group_port,
                      unused_inter_group_port,
                      unused_min_landing, unused_second_landing, unused_inter_landing, unused_min_via_local,
                      unused_second_via_local, unused_inter_via_local, unused_inter_hops, unused_rise_vcs};
endmodule
