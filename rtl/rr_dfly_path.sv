// Dragonfly path arithmetic: the minimal path from router from_id_i towards
// router to_id_i (ids {group, index}) of dfly(p, a, h, g) with
// LINKS_PER_PAIR global links per group pair, numbered as
// gen/src/topology_dragonfly.cpp numbers them (docs/topology_dragonfly.md).
// The one RTL home of the global-link arithmetic (other group, link end,
// owner, link copy, local port); the route units (rr_route_dfly,
// rr_route_q_adaptive) instantiate it once per path they need. Combinational. route_o: the first hop's port (terminal_i
// when both are the same router); group_port_o: the port towards group
// to_id_i over the chosen link copy; via_local_o: that link is another
// router's; landing_o: the index where it lands; hops_o: the path's
// router-to-router hops (LANDING = 1). docs/routing_dragonfly.md ("Common
// machinery") has the copy rule.
module rr_dfly_path #(
  parameter int unsigned P = 7,
  parameter int unsigned NUM_NI = 2,
  parameter int unsigned A = 4,              // routers per group
  parameter int unsigned H = 2,              // global ports per router
  parameter int unsigned NUM_G = 9,          // groups
  parameter int unsigned LINKS_PER_PAIR = 1, // global links per group pair
  parameter bit          PALMTREE = 1'b0,    // global-link arrangement (0: absolute)
  parameter int unsigned GB = 4,             // group bits in an id
  parameter int unsigned IB = 2,             // index bits in an id
  parameter bit          LANDING = 1'b1,     // after an own link, prefer one landing on to_id_i's router
  parameter bit          GIVEN_COPY = 1'b0,  // take link copy copy_i instead of choosing one
  localparam int unsigned PORT_W = rr_pkg::id_width(P),
  localparam int unsigned ID_W = GB + IB,
  localparam int unsigned COPY_W = rr_pkg::id_width(LINKS_PER_PAIR),
  localparam int unsigned HW = rr_pkg::UGAL_HOPS_W
) (
  input  logic [ID_W-1:0]   from_id_i,
  input  logic [ID_W-1:0]   to_id_i,
  input  logic [COPY_W-1:0] copy_i,        // GIVEN_COPY only
  input  logic [PORT_W-1:0] terminal_i,    // route_o when from and to are the same router
  output logic [PORT_W-1:0] route_o,
  output logic [PORT_W-1:0] group_port_o,
  output logic              via_local_o,
  output logic [IB-1:0]     landing_o,
  output logic [HW-1:0]     hops_o
);
  localparam int unsigned FIRST_LOCAL = NUM_NI;
  localparam int unsigned FIRST_GLOBAL = NUM_NI + A - 1;
  // Every quantity below is computed at the width it needs, never as a 32-bit
  // int: a division or modulo by a constant on a 32-bit operand is a 32-bit
  // divider to Yosys (minutes of opt_expr and thousands of cells per unit).
  localparam int unsigned LINK_END_W = $clog2(A * H + 1);        // a global link end in a group: 0..A*H-1
  localparam int unsigned KW = ((IB > COPY_W) ? IB : COPY_W) + 1;  // router index mod LINKS_PER_PAIR

  // Position of group t among group g's other groups (t != g).
  function automatic logic [GB-1:0] other_group(input logic [GB-1:0] g, input logic [GB-1:0] t);
    logic [GB:0] x;  // g + NUM_G - t - 1 lies in 0..2*NUM_G-2: one conditional subtract is mod NUM_G
    x = {1'b0, g} + (GB+1)'(NUM_G - 1) - {1'b0, t};
    if (x >= (GB+1)'(NUM_G)) x = x - (GB+1)'(NUM_G);
    if (PALMTREE) other_group = x[GB-1:0];
    else other_group = (t < g) ? t : t - 1'b1;
  endfunction

  // Group g's global link end towards group t over copy c (c < LINKS_PER_PAIR, a constant).
  function automatic logic [LINK_END_W-1:0] link_end(input logic [GB-1:0] g, input logic [GB-1:0] t,
                                             input int unsigned c);
    link_end = LINK_END_W'(other_group(g, t)) + LINK_END_W'(c * (NUM_G - 1));
  endfunction

  function automatic logic [IB-1:0] owner(input logic [LINK_END_W-1:0] n);  // router index holding link end n
    owner = IB'(n / LINK_END_W'(H));
  endfunction

  function automatic logic [PORT_W-1:0] local_to(input logic [IB-1:0] from, input logic [IB-1:0] to);
    logic [IB-1:0] k;  // local ports skip the router's own index
    k = (to < from) ? to : to - 1'b1;
    local_to = PORT_W'(FIRST_LOCAL) + PORT_W'(k);
  endfunction

  // The link copy used from router (g, i) towards group t, preferring the
  // router's own link, then (if LANDING) a link landing on index `land`,
  // else copy i mod LINKS_PER_PAIR.
  function automatic logic [COPY_W-1:0] copy_to(input logic [GB-1:0] g, input logic [IB-1:0] i,
                                                input logic [GB-1:0] t, input logic [IB-1:0] land);
    bit own, lands;
    copy_to = COPY_W'(KW'(i) % KW'(LINKS_PER_PAIR));
    own = 1'b0;
    lands = 1'b0;
    for (int unsigned c = 0; c < LINKS_PER_PAIR; c++) begin
      if (!own && owner(link_end(g, t, c)) == i) begin
        copy_to = COPY_W'(c);
        own = 1'b1;
      end else if (!own && !lands && LANDING && owner(link_end(t, g, c)) == land) begin
        copy_to = COPY_W'(c);
        lands = 1'b1;
      end
    end
  endfunction

  // Link end of copy c (a run-time value) from group g towards group t.
  function automatic logic [LINK_END_W-1:0] link_end_of(input logic [GB-1:0] g, input logic [GB-1:0] t,
                                                input logic [COPY_W-1:0] c);
    link_end_of = '0;
    for (int unsigned k = 0; k < LINKS_PER_PAIR; k++) begin
      if (c == COPY_W'(k)) link_end_of = link_end(g, t, k);
    end
  endfunction

  logic [GB-1:0] from_g, to_g;
  logic [IB-1:0] from_x, to_x;
  assign {from_g, from_x} = from_id_i;
  assign {to_g, to_x} = to_id_i;

  always_comb begin
    logic [COPY_W-1:0] c;
    logic [LINK_END_W-1:0]     n;
    c = GIVEN_COPY ? copy_i : copy_to(from_g, from_x, to_g, to_x);
    n = link_end_of(from_g, to_g, c);
    via_local_o = owner(n) != from_x;
    group_port_o = via_local_o ? local_to(from_x, owner(n)) : PORT_W'(FIRST_GLOBAL) + PORT_W'(n % LINK_END_W'(H));
    landing_o = owner(link_end_of(to_g, from_g, c));
    if (from_g == to_g) begin
      hops_o = (from_x != to_x) ? HW'(1) : HW'(0);
      route_o = (from_x != to_x) ? local_to(from_x, to_x) : terminal_i;
    end else begin
      hops_o = HW'(1) + (via_local_o ? HW'(1) : HW'(0)) + ((landing_o != to_x) ? HW'(1) : HW'(0));
      route_o = group_port_o;
    end
  end

  if (!GIVEN_COPY) begin : gen_chosen_copy
    logic unused_copy;
    assign unused_copy = ^copy_i;
  end
endmodule
