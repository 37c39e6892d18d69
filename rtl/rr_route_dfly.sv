// Dragonfly route compute: MIN, VALg, VALn, UGAL-L (g and n), UGAL-LE, PAR
// and Q-adaptive's minimal route for dfly(p, a, h, g) with l = a*h/(g-1)
// global links per group pair. The same rules, written once in C++
// (gen/src/dragonfly/routing_dragonfly.cpp), are what the generator checks
// for deadlock freedom and what the test bench checks every hop against.
// Ports, id_i = {group, index} and node addresses: docs/topology_dragonfly.md.
// Non-minimal packets carry their intermediate in the header (phase, inter).
// UGAL queue of a port: occ_i + dem_i. HEAD = 0: the UGAL decision is made
// here (rr_ugal_decide inside); HEAD = 1: out_* is the minimal route, alt_*
// the non-minimal one, decide_o marks an open choice and operands_o carries
// rr_ugal_decide's other inputs. Q-adaptive: decide_o marks a head for the
// Q unit and operands_o carries its operands; q_init_* the table's initial
// values. docs/routing_dragonfly.md ("Common machinery", "Decision point")
// and docs/q_adaptive.md ("The router") have the rules.
module rr_route_dfly #(
  parameter int unsigned P = 7,
  parameter int unsigned V = 4,
  parameter int unsigned W = 64,
  parameter int unsigned NUM_NI = 2,
  parameter int unsigned A = 4,              // routers per group
  parameter int unsigned H = 2,              // global ports per router
  parameter int unsigned NUM_G = 9,          // groups
  parameter int unsigned L = 1,              // global links per group pair
  parameter bit          PALMTREE = 1'b0,    // global-link arrangement (0: absolute)
  parameter int unsigned GB = 4,             // group bits in an id
  parameter int unsigned IB = 2,             // index bits in an id
  parameter int unsigned LOCAL_W = 1,        // terminal bits in an address
  parameter int unsigned DST_LSB = 0,
  parameter int unsigned SRC_LSB = 0,
  parameter int unsigned PHASE_LSB = 0,      // header route phase (2 bits; unused for MIN)
  parameter int unsigned INTER_LSB = 0,      // header intermediate id (GB+IB bits; unused for MIN)
  parameter int unsigned ALGO = rr_pkg::ALGO_MIN,  // rr_pkg::ALGO_{MIN,VALG,VALN,UGAL_G,UGAL_N,UGAL_LE,PAR}
  parameter int unsigned LEVELS = 2,         // VC levels the algorithm needs
  parameter int          BIAS = 0,           // UGAL bias b, flits x hops
  parameter bit          RULE_DOUBLE = 1'b0, // UGAL rule: 0 q_m*H_m <= q_nm*H_nm + b; 1 q_m <= 2*q_nm + b
  parameter bit          INTRA_VALIANT = 1'b0,  // same-group pairs: 0 minimal, 1 through an intermediate group
  parameter int unsigned OW = 8,             // occupancy width per port
  parameter int unsigned DW = 8,             // waiting-demand width per port
  parameter int unsigned CFW = 4,            // contention factor width per group
  parameter int unsigned PORT = 0,           // this unit's input port (seeds the LFSR)
  parameter int unsigned SEED = 1,           // routing.seed
  parameter bit          HEAD = 1'b0,        // decision at the head of the VC (routing.decision = "vc_head")
  // Q-adaptive only
  parameter int unsigned STAMP_LSB = 0,      // header time stamp (rr_pkg::Q_STAMP_W bits)
  parameter int unsigned QW = 16,            // Q-value bits (routing.q_value_bits)
  parameter int unsigned QFB = 4,            // Q-value fraction bits (routing.q_fraction_bits)
  parameter int unsigned HOP_LOCAL = 3,      // zero-load cycles of a local hop (pipeline.hpp hop_latency)
  parameter int unsigned HOP_GLOBAL = 12,    // and of a global hop
  localparam int unsigned C = P - NUM_NI,              // Q-table columns: the network ports
  localparam int unsigned ROWS = (NUM_G - 1) * NUM_NI, // Q-table rows
  localparam int unsigned AW = rr_pkg::id_width(ROWS),
  localparam int unsigned TW = rr_pkg::Q_STAMP_W,
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned IDW = GB + IB,
  localparam int unsigned HW = rr_pkg::UGAL_HOPS_W,
  localparam int unsigned DOW = (ALGO == rr_pkg::ALGO_Q_ADAPTIVE)
                                ? rr_pkg::q_operands_width(C, ROWS, H)
                                : rr_pkg::ugal_operands_width(GB)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [IDW-1:0]       id_i,
  input  logic [W-1:0]         hdr_i,
  input  logic [PW-1:0]        in_port_i,
  input  logic [VCW-1:0]       in_vc_i,
  input  logic [P*OW-1:0]      occ_i,        // per output port: used credits over its VCs
  input  logic [P*DW-1:0]      dem_i,        // per output port: flits of packets waiting for it here
  input  logic [NUM_G*CFW-1:0] contention_i, // per group: contention factor C_j (UGAL-LE)
  output logic [PW-1:0]        out_port_o,
  output logic [V-1:0]         out_vcs_o,
  output logic [W-1:0]         hdr_o,
  // HEAD only (zero otherwise): the non-minimal outcome and the open decision
  output logic [PW-1:0]        alt_port_o,
  output logic [V-1:0]         alt_vcs_o,
  output logic                 decide_o,
  output logic [DOW-1:0]       operands_o,
  // Q-adaptive only (else unused, zero)
  input  logic [TW-1:0]        now_i,          // the router's cycle counter
  input  logic [AW-1:0]        q_init_row_i,   // a row of the table
  output logic [C*QW-1:0]      q_init_value_o  // its initial values, column 0 in the LSBs
);
  localparam int unsigned FIRST_LOCAL = NUM_NI;
  localparam int unsigned FIRST_GLOBAL = NUM_NI + A - 1;
  localparam int unsigned GROUPS = (LEVELS < V) ? LEVELS : V;  // VC groups
  // The algorithm's traits (rows of the C++ table kAlgorithms).
  localparam bit MINIMAL    = (ALGO == rr_pkg::ALGO_MIN);
  // Every packet takes a random intermediate.
  localparam bit VALIANT    = (ALGO == rr_pkg::ALGO_VALG) || (ALGO == rr_pkg::ALGO_VALN);
  // The intermediate is a group (entered at any of its routers), not a router.
  localparam bit VAL_GROUP  = (ALGO == rr_pkg::ALGO_VALG) || (ALGO == rr_pkg::ALGO_UGAL_G);
  // UGAL-LE: contention factors in the UGAL rule.
  localparam bit CONTENTION = (ALGO == rr_pkg::ALGO_UGAL_LE);
  // PAR: may divert again at the next router of the source group.
  localparam bit PAR        = (ALGO == rr_pkg::ALGO_PAR);
  // Compares a minimal and a non-minimal candidate with a bias.
  localparam bit ADAPTIVE   = (ALGO == rr_pkg::ALGO_UGAL_G) || (ALGO == rr_pkg::ALGO_UGAL_N) || CONTENTION || PAR;
  // Q-adaptive: the router's Q-table decides (rr_q_unit), this unit prepares.
  localparam bit QADAPT     = (ALGO == rr_pkg::ALGO_Q_ADAPTIVE);
  // Every quantity below is computed at the width it needs, never as a 32-bit
  // int: a division or modulo by a constant on a 32-bit operand is a 32-bit
  // divider to Yosys (minutes of opt_expr and thousands of cells per unit).
  localparam int unsigned NW = $clog2(A * H + 1);              // a global link end in a group: 0..A*H-1
  localparam int unsigned CPW = (L > 1) ? $clog2(L) : 1;       // a link copy: 0..L-1
  localparam int unsigned KW = ((IB > CPW) ? IB : CPW) + 1;    // router index mod L
  localparam int unsigned LVW = 3;                             // a VC level: 0..LEVELS (<= 5)
  localparam int unsigned N_SAME = VAL_GROUP ? NUM_G - 1 : (NUM_G - 1) * A;  // src and dst group equal
  localparam int unsigned N_DIFF = VAL_GROUP ? NUM_G - 2 : (NUM_G - 2) * A;
  localparam int unsigned NB = $clog2(N_SAME + 1);             // an intermediate choice: 0..N_SAME-1

  // ---- topology arithmetic (mirrors gen/src/topology_dragonfly.cpp) ----
  // Position of group t among group g's other groups (t != g).
  function automatic logic [GB-1:0] other_group(input logic [GB-1:0] g, input logic [GB-1:0] t);
    logic [GB:0] x;  // g + NUM_G - t - 1 lies in 0..2*NUM_G-2: one conditional subtract is mod NUM_G
    x = {1'b0, g} + (GB+1)'(NUM_G - 1) - {1'b0, t};
    if (x >= (GB+1)'(NUM_G)) x = x - (GB+1)'(NUM_G);
    if (PALMTREE) other_group = x[GB-1:0];
    else other_group = (t < g) ? t : t - 1'b1;
  endfunction

  // Group g's global link end towards group t over copy c (c < L, a constant).
  function automatic logic [NW-1:0] link_end(input logic [GB-1:0] g, input logic [GB-1:0] t,
                                             input int unsigned c);
    link_end = NW'(other_group(g, t)) + NW'(c * (NUM_G - 1));
  endfunction

  function automatic logic [IB-1:0] owner(input logic [NW-1:0] n);  // router index holding link end n
    owner = IB'(n / NW'(H));
  endfunction

  function automatic logic [PW-1:0] local_to(input logic [IB-1:0] from, input logic [IB-1:0] to);
    logic [IB-1:0] k;  // local ports skip the router's own index
    k = (to < from) ? to : to - 1'b1;
    local_to = PW'(FIRST_LOCAL) + PW'(k);
  endfunction

  // The link copy used from router (g, i) towards group t, preferring the
  // router's own link, then (if want_landing) a link landing on index `land`,
  // else copy i mod L.
  function automatic logic [CPW-1:0] copy_to(input logic [GB-1:0] g, input logic [IB-1:0] i,
                                             input logic [GB-1:0] t, input bit want_landing,
                                             input logic [IB-1:0] land);
    bit own, lands;
    copy_to = CPW'(KW'(i) % KW'(L));
    own = 1'b0;
    lands = 1'b0;
    for (int unsigned c = 0; c < L; c++) begin
      if (!own && owner(link_end(g, t, c)) == i) begin
        copy_to = CPW'(c);
        own = 1'b1;
      end else if (!own && !lands && want_landing && owner(link_end(t, g, c)) == land) begin
        copy_to = CPW'(c);
        lands = 1'b1;
      end
    end
  endfunction

  // Link end of copy c (a run-time value) from group g towards group t.
  function automatic logic [NW-1:0] link_end_of(input logic [GB-1:0] g, input logic [GB-1:0] t,
                                                input logic [CPW-1:0] c);
    link_end_of = '0;
    for (int unsigned k = 0; k < L; k++) begin
      if (c == CPW'(k)) link_end_of = link_end(g, t, k);
    end
  endfunction

  // Output port of router (g, i) towards group t (!= g) over copy c.
  function automatic logic [PW-1:0] port_over(input logic [GB-1:0] g, input logic [IB-1:0] i,
                                              input logic [GB-1:0] t, input logic [CPW-1:0] c);
    logic [NW-1:0] n;
    n = link_end_of(g, t, c);
    if (owner(n) == i) port_over = PW'(FIRST_GLOBAL) + PW'(n % NW'(H));
    else port_over = local_to(i, owner(n));
  endfunction

  // Index of the router in group t where copy c from group g lands.
  function automatic logic [IB-1:0] landing(input logic [GB-1:0] g, input logic [GB-1:0] t,
                                            input logic [CPW-1:0] c);
    landing = owner(link_end_of(t, g, c));
  endfunction

  // Hops of the minimal route from router (g, i) to router (t, j).
  function automatic logic [HW-1:0] hops_to(input logic [GB-1:0] g, input logic [IB-1:0] i,
                                            input logic [GB-1:0] t, input logic [IB-1:0] j);
    logic [CPW-1:0] c;
    if (g == t) begin
      hops_to = (i != j) ? HW'(1) : HW'(0);
    end else begin
      c = copy_to(g, i, t, 1'b1, j);
      hops_to = HW'(1) + ((owner(link_end_of(g, t, c)) != i) ? HW'(1) : HW'(0))
                + ((landing(g, t, c) != j) ? HW'(1) : HW'(0));
    end
  endfunction

  // ---- VC levels ----
  function automatic logic [LVW-1:0] level_of(input logic [VCW-1:0] vc);
    level_of = '0;
    for (int unsigned l = 1; l < GROUPS; l++) begin
      if (32'(vc) >= l * V / GROUPS) level_of = LVW'(l);
    end
  endfunction

  function automatic logic [V-1:0] level_vcs(input logic [LVW-1:0] level);
    for (int unsigned v = 0; v < V; v++) begin
      level_vcs[v] = 1'b0;
      for (int unsigned l = 0; l < GROUPS; l++) begin
        // levels beyond the last VC group share it
        if ((level == LVW'(l) || (l == GROUPS - 1 && level > LVW'(l)))
            && v >= l * V / GROUPS && v < (l + 1) * V / GROUPS) level_vcs[v] = 1'b1;
      end
    end
  endfunction

  localparam int unsigned QLB = (LOCAL_W > 0) ? LOCAL_W : 1;  // a source node in a Q row
  // ---- Q-adaptive's arithmetic ----
  // The packet's row: rank of its destination group among the others x p +
  // the node of its source router.
  function automatic logic [AW-1:0] row_of(input logic [GB-1:0] own, input logic [GB-1:0] t,
                                           input logic [QLB-1:0] n);
    logic [GB-1:0] rank;
    rank = (t < own) ? t : t - 1'b1;
    row_of = AW'(rank) * AW'(NUM_NI) + AW'(n);
  endfunction
  // Which global ports lead to group t: global port k of router (g, i) is
  // link end i*H + k of its group, towards other group (i*H + k) mod (G-1).
  function automatic logic [GB-1:0] group_over(input logic [GB-1:0] g, input logic [NW-1:0] n);
    logic [NW-1:0] m;
    logic [GB:0]   o, u;
    m = n % NW'(NUM_G - 1);
    o = (GB+1)'(m);
    if (PALMTREE) begin  // o = (g - u - 1) mod G
      u = {1'b0, g} + (GB+1)'(NUM_G - 1) - o;
      if (u >= (GB+1)'(NUM_G)) u = u - (GB+1)'(NUM_G);
    end else begin
      u = (o < {1'b0, g}) ? o : o + 1'b1;
    end
    group_over = u[GB-1:0];
  endfunction
  // Whether router (g, i) has a global link to group t.
  function automatic bit owns_link(input logic [GB-1:0] g, input logic [IB-1:0] i, input logic [GB-1:0] t);
    owns_link = 1'b0;
    for (int unsigned c = 0; c < L; c++) begin
      if (owner(link_end(g, t, c)) == i) owns_link = 1'b1;
    end
  endfunction
  // Zero-load cycles from router (g, i) to the first router of group t.
  function automatic int unsigned to_group(input logic [GB-1:0] g, input logic [IB-1:0] i, input logic [GB-1:0] t);
    if (g == t) to_group = 0;
    else if (owns_link(g, i, t)) to_group = HOP_GLOBAL;
    else to_group = HOP_LOCAL + HOP_GLOBAL;
  endfunction
  // A cycle count as a Q-value code (QFB fraction bits), saturated.
  function automatic logic [QW-1:0] code(input int unsigned cycles);
    code = (cycles >= (1 << (QW - QFB))) ? '1 : QW'(cycles << QFB);
  endfunction

  // ---- header fields ----
  logic [GB-1:0] my_g, dst_g, src_g, int_g;
  logic [IB-1:0] my_i, dst_i, int_i;
  assign {my_g, my_i} = id_i;
  assign {dst_g, dst_i} = hdr_i[DST_LSB+LOCAL_W+:IDW];
  assign src_g = hdr_i[SRC_LSB+LOCAL_W+IB+:GB];

  logic [1:0] phase;
  if (QADAPT) begin : gen_phase_only
    assign phase = hdr_i[PHASE_LSB+:2];
    assign {int_g, int_i} = '0;
  end else if (!MINIMAL) begin : gen_phase
    assign phase = hdr_i[PHASE_LSB+:2];
    assign {int_g, int_i} = hdr_i[INTER_LSB+:IDW];
  end else begin : gen_min_only
    assign phase = 2'd0;
    assign {int_g, int_i} = '0;
  end

  logic [PW-1:0] dst_local;
  if (LOCAL_W > 0) begin : gen_local
    assign dst_local = PW'(hdr_i[DST_LSB+:LOCAL_W]);
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
  function automatic logic [16+NB-1:0] scale_rand(input logic [15:0] r, input int unsigned n);
    scale_rand = '0;
    for (int unsigned k = 0; k < NB; k++) begin
      if (((n >> k) & 1) != 0) scale_rand = scale_rand + ((16+NB)'(r) << k);
    end
  endfunction


  // pick = floor(rand * n / 2^16), uniform over 0..n-1 (n: the candidates).
  logic [GB-1:0] cand_g;
  logic [IB-1:0] cand_i;
  always_comb begin
    logic [16+NB-1:0] scaled;
    logic [NB-1:0]    pick;
    logic [GB-1:0]    cg, lo, hi;
    scaled = (my_g == dst_g) ? scale_rand(rand_bits, N_SAME) : scale_rand(rand_bits, N_DIFF);
    pick = NB'(scaled >> 16);
    cg = VAL_GROUP ? GB'(pick) : GB'(pick / NB'(A));
    lo = (my_g < dst_g) ? my_g : dst_g;
    hi = (my_g < dst_g) ? dst_g : my_g;
    if (cg >= lo) cg = cg + 1'b1;
    if ((my_g != dst_g) && (cg >= hi)) cg = cg + 1'b1;
    cand_g = cg;
    cand_i = VAL_GROUP ? '0 : IB'(pick % NB'(A));
  end

  // ---- decision ----
  logic in_ni, in_global, in_local;
  assign in_ni = in_port_i < PW'(NUM_NI);
  assign in_global = in_port_i >= PW'(FIRST_GLOBAL);
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
  function automatic logic [V-1:0] vcs_for(input logic [PW-1:0] port);
    if (port < PW'(NUM_NI)) vcs_for = '1;  // ejection: any VC
    else if (in_ni) vcs_for = level_vcs('0);
    else if (in_global || port < PW'(FIRST_GLOBAL)) vcs_for = level_vcs(level_of(in_vc_i) + 1'b1);
    else vcs_for = level_vcs(level_of(in_vc_i));
  endfunction

  // The candidates: the minimal route, and the route towards the candidate
  // intermediate with both path lengths.
  logic [PW-1:0]  min_port, cand_port;
  logic [HW-1:0]  hm, hnm;
  logic           decide, le, use_ok;
  logic [GB-1:0]  use_g;
  logic [IB-1:0]  use_i;
  always_comb begin
    logic [CPW-1:0] c;
    logic           at_dst, par_again;

    at_dst = (my_g == dst_g) && (my_i == dst_i);
    if (at_dst) min_port = dst_local;
    else if (my_g == dst_g) min_port = local_to(my_i, dst_i);
    else min_port = port_over(my_g, my_i, dst_g, copy_to(my_g, my_i, dst_g, 1'b1, dst_i));

    // The candidate: the LFSR's draw, or at PAR's re-evaluation (a local input
    // port) the one the source drew and wrote into the header, taken only if
    // it is a legal intermediate (not this group, not the destination's).
    par_again = PAR && in_local;
    use_g = par_again ? int_g : cand_g;
    use_i = par_again ? int_i : cand_i;
    use_ok = !par_again || (in_topology(int_g, int_i) && int_g != my_g && int_g != dst_g);

    // Port towards the candidate intermediate and the candidate's path length.
    if (VAL_GROUP) begin
      c = copy_to(my_g, my_i, use_g, 1'b0, '0);
      cand_port = port_over(my_g, my_i, use_g, c);
      hnm = ((cand_port >= PW'(FIRST_GLOBAL)) ? HW'(1) : HW'(2)) + hops_to(use_g, landing(my_g, use_g, c), dst_g, dst_i);
    end else begin
      cand_port = port_over(my_g, my_i, use_g, copy_to(my_g, my_i, use_g, 1'b1, use_i));
      hnm = hops_to(my_g, my_i, use_g, use_i) + hops_to(use_g, use_i, dst_g, dst_i);
    end
    hm = hops_to(my_g, my_i, dst_g, dst_i);
    // UGAL-LE's contention term: another destination group, reached over
    // another router's global link.
    le = (my_g != dst_g) && (min_port < PW'(FIRST_GLOBAL));

    decide = !at_dst && phase == 2'd0 && !MINIMAL && (INTRA_VALIANT || my_g != dst_g)
             && (in_ni || (PAR && in_local && my_g == src_g)) && use_ok;
  end

  // The UGAL comparison here (at buffer write) or at the head of the VC.
  logic nonmin_now;
  if (ADAPTIVE && !HEAD) begin : gen_decide_here
    rr_ugal_decide #(
      .P(P), .NUM_G(NUM_G), .GB(GB), .CONTENTION(CONTENTION), .BIAS(BIAS), .RULE_DOUBLE(RULE_DOUBLE),
      .OW(OW), .DW(DW), .CFW(CFW)
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
    assign nonmin_now = VALIANT;
  end

  logic [PW-1:0] std_port;
  logic [V-1:0]  std_vcs;
  logic [W-1:0]  std_hdr;
  always_comb begin
    logic [PW-1:0]   port;
    logic [1:0]      new_phase;
    logic [IDW-1:0]  new_inter;
    logic            at_inter;

    at_inter = VAL_GROUP ? (my_g == int_g) : ((my_g == int_g) && (my_i == int_i));

    port = min_port;
    new_phase = phase;
    new_inter = {int_g, int_i};
    if (decide && nonmin_now) begin
      port = cand_port;
      new_phase = 2'd1;
      new_inter = {use_g, use_i};
    end else if (phase == 2'd1) begin
      if (at_inter) begin
        new_phase = 2'd2;
      end else if (VAL_GROUP) begin
        port = port_over(my_g, my_i, int_g, copy_to(my_g, my_i, int_g, 1'b0, '0));
      end else if (my_g == int_g) begin
        port = local_to(my_i, int_i);
      end else begin
        port = port_over(my_g, my_i, int_g, copy_to(my_g, my_i, int_g, 1'b1, int_i));
      end
    end
    // PAR: a packet the source routes minimally keeps the source's candidate
    // for the re-evaluation at the next router of the group. With the
    // decision at the head, every open decision writes the candidate: the
    // input port only sets the phase if the head takes the alternative.
    if (decide && !nonmin_now && ((PAR && in_ni) || (HEAD && ADAPTIVE))) new_inter = {use_g, use_i};

    std_port = port;
    std_vcs = vcs_for(port);

    std_hdr = hdr_i;
    if (!MINIMAL) begin
      std_hdr[PHASE_LSB+:2] = new_phase;
      std_hdr[INTER_LSB+:IDW] = new_inter;
    end
  end

  if (QADAPT) begin : gen_q
    // ---- Q-adaptive (000 section 4, Figure 4) ----
    localparam int unsigned CW = rr_pkg::id_width(C);
    logic [QLB-1:0] src_n;
    if (LOCAL_W > 0) begin : gen_src_node
      assign src_n = hdr_i[SRC_LSB+:LOCAL_W];
    end else begin : gen_one_node
      assign src_n = '0;
    end

    // The VC of a hop: the hops taken before it (0 out of the source router);
    // ejection on any VC.
    assign out_port_o = min_port;
    assign out_vcs_o = (min_port < PW'(NUM_NI)) ? '1 : in_ni ? level_vcs('0) : level_vcs(level_of(in_vc_i) + 1'b1);

    // Where this router stands on the packet's path (rr_pkg::Q_ROLE_*): the
    // source router outside the destination group; the first router of an
    // intermediate group (entered "to intermediate" by a global hop) without
    // a global link to the destination group (its minimal port is local);
    // else minimal.
    logic       to_inter, in_dst_group;
    logic [1:0] role;
    assign to_inter = phase == 2'd1 && in_global;
    assign in_dst_group = my_g == dst_g;
    always_comb begin
      if (in_ni && !in_dst_group) role = 2'(rr_pkg::Q_ROLE_SOURCE);
      else if (to_inter && min_port < PW'(FIRST_GLOBAL)) role = 2'(rr_pkg::Q_ROLE_INTERMEDIATE);
      else role = 2'(rr_pkg::Q_ROLE_MINIMAL);
    end


    logic [H-1:0] to_dst;
    for (genvar k = 0; k < H; k++) begin : gen_to_dst
      assign to_dst[k] = group_over(my_g, NW'(my_i) * NW'(H) + NW'(k)) == dst_g;
    end

    // A head decides (or reads its row for Q_y, or owes feedback) unless it is
    // in its destination group and came from a node or a router of that group.
    // Feedback goes to the upstream router: its row for the packet is the
    // rank of the destination group among that router's others (its group:
    // this one over a local port, the other end of the global link over a
    // global one).
    logic [TW-1:0] r;
    logic [GB-1:0] up_g;
    logic [PW-1:0] in_k;  // the input port's index among the global ports
    assign r = now_i - hdr_i[STAMP_LSB+:TW];
    assign in_k = in_port_i - PW'(FIRST_GLOBAL);
    assign up_g = in_global ? group_over(my_g, NW'(my_i) * NW'(H) + NW'(in_k)) : my_g;
    assign decide_o = !in_dst_group || in_global;
    assign operands_o = {to_dst, row_of(up_g, dst_g, src_n), r, !in_ni, row_of(my_g, dst_g, src_n),
                         !in_dst_group, role, CW'(min_port - PW'(NUM_NI))};

    always_comb begin
      hdr_o = hdr_i;
      hdr_o[STAMP_LSB+:TW] = now_i;
      if (to_inter) hdr_o[PHASE_LSB+:2] = 2'd2;  // every port leads on "from intermediate"
    end
    assign alt_port_o = '0;
    assign alt_vcs_o = out_vcs_o;  // the chosen port keeps the hop's VC level

    // ---- initial values (QTableLayout::initial_cycles) ----
    logic [GB-1:0] init_g;
    logic [AW-1:0] init_quot;
    logic [GB:0]   init_rank;
    assign init_quot = q_init_row_i / AW'(NUM_NI);
    assign init_rank = (GB+1)'(init_quot);
    assign init_g = (init_rank < {1'b0, my_g}) ? init_rank[GB-1:0] : GB'(init_rank + 1'b1);
    for (genvar c = 0; c < C; c++) begin : gen_init
      if (c < A - 1) begin : gen_local_col
        logic [IB-1:0] j;  // the router index this local port leads to
        assign j = (IB'(c) < my_i) ? IB'(c) : IB'(c + 1);
        assign q_init_value_o[c*QW+:QW] = code(HOP_LOCAL + to_group(my_g, j, init_g));
      end else begin : gen_global_col
        logic [NW-1:0] n;
        logic [GB-1:0] u;
        logic [IB-1:0] land;
        assign n = NW'(my_i) * NW'(H) + NW'(c - (A - 1));
        assign u = group_over(my_g, n);
        assign land = owner(link_end_of(u, my_g, CPW'(n / NW'(NUM_G - 1))));
        assign q_init_value_o[c*QW+:QW] = code(HOP_GLOBAL + to_group(u, land, init_g));
      end
    end
    logic unused_std;
    assign unused_std = ^{std_port, std_vcs, std_hdr, cand_port, hm, hnm, le, decide};
  end else begin : gen_not_q
    assign out_port_o = std_port;
    assign out_vcs_o = std_vcs;
    assign hdr_o = std_hdr;
    assign q_init_value_o = '0;
    logic unused_q;
    assign unused_q = ^{now_i, q_init_row_i};
  end

  if (HEAD && ADAPTIVE) begin : gen_head
    assign alt_port_o = cand_port;
    assign alt_vcs_o  = vcs_for(cand_port);
    assign decide_o   = decide;
    assign operands_o = {dst_g, le, hnm, hm};
  end else if (!QADAPT) begin : gen_no_head
    assign alt_port_o = '0;
    assign alt_vcs_o  = '0;
    assign decide_o   = 1'b0;
    assign operands_o = '0;
  end

  // Adaptive inputs are unused by the oblivious algorithms and with HEAD;
  // the path lengths by the oblivious algorithms.
  logic unused;
  assign unused = ((ADAPTIVE && !HEAD) ? 1'b0 : ^{occ_i, dem_i, contention_i}) ^ (ADAPTIVE ? 1'b0 : ^{hm, hnm, le});
endmodule
