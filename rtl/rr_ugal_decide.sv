// The UGAL decision of the dragonfly's adaptive algorithms (UGAL-g, UGAL-n,
// UGAL-LE, PAR): given the minimal and the non-minimal candidate's first
// output ports and path lengths, take the non-minimal one when its cost is
// lower (docs/routing_dragonfly.md, "UGAL-L"):
//   hop-weighted ([Chaulagain 2024], Algorithm 1):
//     non-minimal when q_m*H_m > q_nm*H_nm + b
//   double (the reference code of [Kang 2021]):
//     non-minimal when q_m     > 2*q_nm     + b
// with q of a port = used credits (occ_i) + waiting demand (dem_i). UGAL-LE
// adds q_m * (C_j - 1) to the minimal cost when the destination group j is
// another group, this router has no global link to it (le_i) and C_j > 1.
// Combinational. rr_route_dfly uses it at buffer write; with the decision at
// the head of the VC (routing.decision = "vc_head") the router top wires one
// per input port to the input port's head-decision interface.
module rr_ugal_decide #(
  parameter int unsigned P = 7,
  parameter int unsigned NUM_G = 9,
  parameter int unsigned GB = 4,
  parameter bit          CONTENTION = 1'b0,  // UGAL-LE
  parameter int          BIAS = 0,           // b, flits x hops
  parameter bit          RULE_DOUBLE = 1'b0,
  parameter int unsigned OCC_W = 8,
  parameter int unsigned DEMAND_W = 8,
  parameter int unsigned CFW = 4,
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned HW = rr_pkg::UGAL_HOPS_W
) (
  input  logic [P*OCC_W-1:0]   occ_i,
  input  logic [P*DEMAND_W-1:0] dem_i,
  input  logic [NUM_G*CFW-1:0] contention_i,
  input  logic [PW-1:0]        min_port_i,
  input  logic [PW-1:0]        nonmin_port_i,
  input  logic [HW-1:0]        min_hops_i,
  input  logic [HW-1:0]        nonmin_hops_i,
  input  logic                 le_i,        // the UGAL-LE term applies (see above)
  input  logic [GB-1:0]        dst_group_i,
  output logic                 nonmin_o
);
  // q = occ + dem (QUEUE_W bits); costs: q x hops (<= 6) plus UGAL-LE's
  // q x (C - 1) (C <= A), compared as signed numbers with the bias
  // (|b| <= 1024, config.cpp).
  localparam int unsigned QUEUE_W = ((OCC_W > DEMAND_W) ? OCC_W : DEMAND_W) + 1;
  localparam int unsigned SCORE_W = ((QUEUE_W + CFW + 3 > 11) ? QUEUE_W + CFW + 3 : 11) + 2;

  // Port and group selections are AND-OR muxes (indexing by port*OCC_W would be
  // a run-time multiply).
  function automatic logic [QUEUE_W-1:0] queue_at(input logic [PW-1:0] port);
    queue_at = '0;
    for (int unsigned q = 0; q < P; q++) begin
      if (port == PW'(q)) begin
        queue_at = queue_at | (QUEUE_W'(occ_i[q*OCC_W+:OCC_W]) + QUEUE_W'(dem_i[q*DEMAND_W+:DEMAND_W]));
      end
    end
  endfunction

  function automatic logic [CFW-1:0] contention_at(input logic [GB-1:0] grp);
    contention_at = '0;
    for (int unsigned q = 0; q < NUM_G; q++) begin
      if (grp == GB'(q)) contention_at = contention_at | contention_i[q*CFW+:CFW];
    end
  endfunction

  // q x f as shift-and-add: no multiplier (a DSP slice on the FPGA) for a
  // few-bit factor.
  function automatic logic signed [SCORE_W-1:0] times(input logic signed [SCORE_W-1:0] q, input logic [CFW+HW-1:0] f);
    times = '0;
    for (int unsigned k = 0; k < CFW + HW; k++) begin
      if (f[k]) times = times + (q <<< k);
    end
  endfunction

  always_comb begin
    logic signed [SCORE_W-1:0] qm, qnm, lhs, rhs;
    logic [CFW-1:0]       cf, cf_m1;
    qm  = SCORE_W'(queue_at(min_port_i));
    qnm = SCORE_W'(queue_at(nonmin_port_i));
    cf = contention_at(dst_group_i);
    cf_m1 = cf - 1'b1;
    lhs = RULE_DOUBLE ? qm : times(qm, (CFW+HW)'(min_hops_i));
    if (CONTENTION && le_i && cf > CFW'(1)) lhs = lhs + times(qm, (CFW+HW)'(cf_m1));
    rhs = (RULE_DOUBLE ? (qnm <<< 1) : times(qnm, (CFW+HW)'(nonmin_hops_i))) + SCORE_W'(BIAS);
    nonmin_o = lhs > rhs;
  end
endmodule
