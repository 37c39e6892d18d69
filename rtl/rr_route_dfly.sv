// Dragonfly route compute: MIN, VALg, VALn, UGAL-L (g and n), UGAL-LE and PAR
// for dfly(p, a, h, g) with l = a*h/(g-1) global links per group pair. The same
// rules, written once in C++ (gen/src/routing_dragonfly.cpp), are what the
// generator checks for deadlock freedom and what the test bench checks every
// hop against; docs/routing_dragonfly.md explains each algorithm.
//
// Ports: NUM_NI terminal ports, then A-1 local ports (local port j of the
// router at index i leads to index j < i ? j : j + 1), then H global ports.
// Router identity id_i = {group, index}; node address = {group, index, terminal}.
// Global links (see gen/src/topology_dragonfly.cpp): group G's link end
// n = index*H + k goes to "other group" o = n mod (G-1) as copy n div (G-1);
// absolute: o -> o < G ? o : o + 1; palmtree: o -> (G - o - 1) mod NUM_G.
//
// Minimal route to a router in another group: the router's own global link to
// that group if it has one, else the local hop to the router owning a link that
// lands on the destination router, else to the owner of copy (index mod L).
// Non-minimal (Valiant) packets carry their intermediate in the header (phase,
// inter); the source router (and for PAR the next source-group router) picks
// it with the LFSR. VC levels: +1 after a global hop and for local after local.
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
  parameter int unsigned ALGO = 0,           // 0 min, 1 valg, 2 valn, 3 ugal_g, 4 ugal_n, 5 ugal_le, 6 par
  parameter int unsigned LEVELS = 2,         // VC levels the algorithm needs
  parameter int          BIAS = 0,           // UGAL bias b, flits x hops
  parameter int unsigned OW = 8,             // occupancy width per port
  parameter int unsigned CFW = 4,            // contention factor width per group
  parameter int unsigned PORT = 0,           // this unit's input port (seeds the LFSR)
  parameter int unsigned SEED = 1,           // routing.seed
  localparam int unsigned VCW = (V > 1) ? $clog2(V) : 1,
  localparam int unsigned PW = (P > 1) ? $clog2(P) : 1,
  localparam int unsigned IDW = GB + IB
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [IDW-1:0]       id_i,
  input  logic [W-1:0]         hdr_i,
  input  logic [PW-1:0]        in_port_i,
  input  logic [VCW-1:0]       in_vc_i,
  input  logic [P*OW-1:0]      occ_i,        // per output port: used credits over its VCs
  input  logic [NUM_G*CFW-1:0] contention_i, // per group: contention factor C_j (UGAL-LE)
  output logic [PW-1:0]        out_port_o,
  output logic [V-1:0]         out_vcs_o,
  output logic [W-1:0]         hdr_o
);
  localparam int unsigned FIRST_LOCAL = NUM_NI;
  localparam int unsigned FIRST_GLOBAL = NUM_NI + A - 1;
  localparam int unsigned GROUPS = (LEVELS < V) ? LEVELS : V;  // VC groups
  localparam bit VAL_GROUP = (ALGO == 1) || (ALGO == 3);       // intermediate is a group
  localparam bit ADAPTIVE = (ALGO >= 3);                       // UGAL family and PAR
  localparam int unsigned CW = 12;                              // width of cost products

  // ---- topology arithmetic (mirrors gen/src/topology_dragonfly.cpp) ----
  function automatic int unsigned other_group(input int unsigned g, input int unsigned t);
    if (PALMTREE) other_group = (g + NUM_G - t - 1) % NUM_G;
    else other_group = (t < g) ? t : t - 1;
  endfunction

  function automatic int unsigned local_to(input int unsigned from, input int unsigned to);
    local_to = FIRST_LOCAL + ((to < from) ? to : to - 1);
  endfunction

  // The link copy used from router (g, i) towards group t, preferring the
  // router's own link, then (if want_landing) a link landing on index `land`.
  function automatic int unsigned copy_to(input int unsigned g, input int unsigned i, input int unsigned t,
                                          input bit want_landing, input int unsigned land);
    int unsigned o, far_o, n;
    bit          own, lands;
    o = other_group(g, t);
    far_o = other_group(t, g);
    copy_to = i % L;
    own = 1'b0;
    lands = 1'b0;
    for (int unsigned c = 0; c < L; c++) begin
      n = o + c * (NUM_G - 1);
      if (!own && (n / H == i)) begin
        copy_to = c;
        own = 1'b1;
      end else if (!own && !lands && want_landing && ((far_o + c * (NUM_G - 1)) / H == land)) begin
        copy_to = c;
        lands = 1'b1;
      end
    end
  endfunction

  // Output port of router (g, i) towards group t (!= g) over copy c.
  function automatic int unsigned port_over(input int unsigned g, input int unsigned i, input int unsigned t,
                                            input int unsigned c);
    int unsigned n;
    n = other_group(g, t) + c * (NUM_G - 1);
    if (n / H == i) port_over = FIRST_GLOBAL + n % H;
    else port_over = local_to(i, n / H);
  endfunction

  // Index of the router in group t where copy c from group g lands.
  function automatic int unsigned landing(input int unsigned g, input int unsigned t, input int unsigned c);
    landing = (other_group(t, g) + c * (NUM_G - 1)) / H;
  endfunction

  // Hops of the minimal route from router (g, i) to router (t, j).
  function automatic int unsigned hops_to(input int unsigned g, input int unsigned i, input int unsigned t,
                                          input int unsigned j);
    int unsigned c, n;
    if (g == t) begin
      hops_to = (i != j) ? 1 : 0;
    end else begin
      c = copy_to(g, i, t, 1'b1, j);
      n = other_group(g, t) + c * (NUM_G - 1);
      hops_to = ((n / H != i) ? 1 : 0) + 1 + ((landing(g, t, c) != j) ? 1 : 0);
    end
  endfunction

  // ---- VC levels ----
  function automatic int unsigned level_of(input int unsigned vc);
    level_of = 0;
    for (int unsigned l = 1; l < GROUPS; l++) begin
      if (vc >= l * V / GROUPS) level_of = l;
    end
  endfunction

  function automatic logic [V-1:0] level_vcs(input int unsigned level);
    int unsigned l;
    l = (level < GROUPS) ? level : GROUPS - 1;
    for (int unsigned v = 0; v < V; v++) level_vcs[v] = (v >= l * V / GROUPS) && (v < (l + 1) * V / GROUPS);
  endfunction

  // ---- header fields ----
  logic [GB-1:0] my_g, dst_g, src_g, int_g;
  logic [IB-1:0] my_i, dst_i, int_i;
  assign {my_g, my_i} = id_i;
  assign {dst_g, dst_i} = hdr_i[DST_LSB+LOCAL_W+:IDW];
  assign src_g = hdr_i[SRC_LSB+LOCAL_W+IB+:GB];

  logic [1:0] phase;
  if (ALGO != 0) begin : gen_phase
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

  localparam int unsigned N_SAME = VAL_GROUP ? NUM_G - 1 : (NUM_G - 1) * A;  // src and dst group equal
  localparam int unsigned N_DIFF = VAL_GROUP ? NUM_G - 2 : (NUM_G - 2) * A;
  logic [GB-1:0] cand_g;
  logic [IB-1:0] cand_i;
  always_comb begin
    int unsigned n, pick, cg, lo, hi;
    n = (my_g == dst_g) ? N_SAME : N_DIFF;
    pick = (32'(rand_bits) * n) >> 16;
    cg = VAL_GROUP ? pick : pick / A;
    lo = (my_g < dst_g) ? 32'(my_g) : 32'(dst_g);
    hi = (my_g < dst_g) ? 32'(dst_g) : 32'(my_g);
    if (cg >= lo) cg = cg + 1;
    if ((my_g != dst_g) && (cg >= hi)) cg = cg + 1;
    cand_g = GB'(cg);
    cand_i = VAL_GROUP ? '0 : IB'(pick % A);
  end

  // ---- decision ----
  logic in_ni, in_global, in_local;
  assign in_ni = in_port_i < PW'(NUM_NI);
  assign in_global = in_port_i >= PW'(FIRST_GLOBAL);
  assign in_local = !in_ni && !in_global;

  always_comb begin
    int unsigned min_port, cand_port, port, c, land_i;
    logic [3:0]  hm, hnm;  // hops: at most 3 + 3
    logic [1:0]  new_phase;
    logic [IDW-1:0] new_inter;
    logic        at_dst, decide, at_inter, own_link, nonmin;
    logic [CW-1:0] qm, qnm, cf, cf_m1;
    logic signed [CW+1:0] lhs, rhs;

    at_dst = (my_g == dst_g) && (my_i == dst_i);
    if (at_dst) min_port = 32'(dst_local);
    else if (my_g == dst_g) min_port = local_to(32'(my_i), 32'(dst_i));
    else min_port = port_over(32'(my_g), 32'(my_i), 32'(dst_g),
                              copy_to(32'(my_g), 32'(my_i), 32'(dst_g), 1'b1, 32'(dst_i)));

    // Port towards the candidate intermediate and the candidate's path length.
    if (VAL_GROUP) begin
      c = copy_to(32'(my_g), 32'(my_i), 32'(cand_g), 1'b0, 0);
      cand_port = port_over(32'(my_g), 32'(my_i), 32'(cand_g), c);
      land_i = landing(32'(my_g), 32'(cand_g), c);
      hnm = 4'(((cand_port >= FIRST_GLOBAL) ? 1 : 2) + hops_to(32'(cand_g), land_i, 32'(dst_g), 32'(dst_i)));
    end else begin
      cand_port = port_over(32'(my_g), 32'(my_i), 32'(cand_g),
                            copy_to(32'(my_g), 32'(my_i), 32'(cand_g), 1'b1, 32'(cand_i)));
      hnm = 4'(hops_to(32'(my_g), 32'(my_i), 32'(cand_g), 32'(cand_i))
               + hops_to(32'(cand_g), 32'(cand_i), 32'(dst_g), 32'(dst_i)));
    end
    hm = 4'(hops_to(32'(my_g), 32'(my_i), 32'(dst_g), 32'(dst_i)));

    // UGAL-L: minimal when q_m * H_m <= q_nm * H_nm + b; UGAL-LE adds
    // q_m * max(C - 1, 0) when this router has no global link to the
    // destination group.
    qm  = CW'(occ_i[min_port*OW+:OW]);
    qnm = CW'(occ_i[cand_port*OW+:OW]);
    own_link = (min_port >= FIRST_GLOBAL);
    cf = CW'(contention_i[32'(dst_g)*CFW+:CFW]);
    cf_m1 = cf - CW'(1);
    lhs = (CW+2)'(qm * CW'(hm));
    if (ALGO == 5 && my_g != dst_g && !own_link && cf > 1) lhs = lhs + (CW+2)'(qm * cf_m1);
    rhs = (CW+2)'(qnm * CW'(hnm)) + (CW+2)'(BIAS);
    nonmin = (ALGO == 1 || ALGO == 2) ? 1'b1 : (lhs > rhs);

    decide = !at_dst && phase == 2'd0 && ALGO != 0
             && (in_ni || (ALGO == 6 && in_local && my_g == src_g));
    at_inter = VAL_GROUP ? (my_g == int_g) : ((my_g == int_g) && (my_i == int_i));

    port = min_port;
    new_phase = phase;
    new_inter = {int_g, int_i};
    if (decide && nonmin) begin
      port = cand_port;
      new_phase = 2'd1;
      new_inter = {cand_g, cand_i};
    end else if (phase == 2'd1) begin
      if (at_inter) begin
        new_phase = 2'd2;
      end else if (VAL_GROUP) begin
        port = port_over(32'(my_g), 32'(my_i), 32'(int_g), copy_to(32'(my_g), 32'(my_i), 32'(int_g), 1'b0, 0));
      end else if (my_g == int_g) begin
        port = local_to(32'(my_i), 32'(int_i));
      end else begin
        port = port_over(32'(my_g), 32'(my_i), 32'(int_g),
                         copy_to(32'(my_g), 32'(my_i), 32'(int_g), 1'b1, 32'(int_i)));
      end
    end

    out_port_o = PW'(port);
    if (port < NUM_NI) begin
      out_vcs_o = '1;  // ejection: any VC
    end else if (in_ni) begin
      out_vcs_o = level_vcs(0);
    end else if (in_global || port < FIRST_GLOBAL) begin
      out_vcs_o = level_vcs(level_of(32'(in_vc_i)) + 1);
    end else begin
      out_vcs_o = level_vcs(level_of(32'(in_vc_i)));
    end

    hdr_o = hdr_i;
    if (ALGO != 0) begin
      hdr_o[PHASE_LSB+:2] = new_phase;
      hdr_o[INTER_LSB+:IDW] = new_inter;
    end
  end

  // Adaptive inputs are unused by the oblivious algorithms.
  logic unused;
  assign unused = ADAPTIVE ? 1'b0 : ^{occ_i, contention_i};
endmodule
