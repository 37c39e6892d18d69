// Dimension-order route compute for k-ary n-cube torus and mesh (n = 1..3):
// dimension 0 first, then 1, then 2; eject when all coordinates match; on a
// torus the shorter way round, with dateline VC classes. The same rule,
// written once in C++ (gen/src/cube/routing_dor.cpp), is what the generator
// checks for deadlock freedom and what the test bench checks every hop against.
// STAR (star-channel): VC V-1 is the adaptive VC and DOR runs on VCs 0..V-2;
// the next dimension to correct after DOR's is the alternative (alt_*), and
// decide_o leaves the choice to rr_star_decide. DQN (DQN-routing): VC V-1 is
// the DQN VC; below HOP_THRESHOLD hops and not Pdor, decide_o opens the
// choice between the DQN VC and the DOR hop on the escape VCs (alt_*; with
// DOR_ON_DQN_VC on the DQN VC too, as STAR's); else hdr_o sets Pdor. Without
// either, decide_o is 0.
// Ports: NUM_NI NI ports, then per dimension d the + side (NUM_NI + 2d) and
// the - side (NUM_NI + 2d + 1). Address: {coord[n-1], ..., coord[0], NI index}.
// docs/architecture.md, "Routing: dimension-order with dateline VCs";
// docs/routing_star.md, "In rlroute"; docs/dqn.md, "The route unit".
module rr_route_dor #(
  parameter int unsigned P = 5,
  parameter int unsigned V = 2,
  parameter int unsigned W = 64,
  parameter int unsigned NUM_NI = 1,
  parameter int unsigned NUM_DIMS = 2,
  parameter int unsigned COORD_W = 2,   // bits per coordinate
  parameter int unsigned K0 = 4,
  parameter int unsigned K1 = 4,
  parameter int unsigned K2 = 4,
  parameter bit          TORUS = 1'b1,
  parameter int unsigned LOCAL_W = 0,   // bits of the NI index in an address
  parameter int unsigned DST_LSB = 0,   // destination address in the header
  parameter bit          STAR = 1'b0,   // star-channel: VC V-1 adaptive (see above)
  parameter bit          DQN = 1'b0,    // DQN-routing: VC V-1 the DQN VC (see above)
  parameter int unsigned HOP_THRESHOLD = 8,  // DQN: hop threshold (routing.dqn_hop_threshold)
  parameter bit          DOR_ON_DQN_VC = 1'b0,  // DQN: DOR hops may take the DQN VC (routing.dqn_dor_vcs = "all")
  parameter int unsigned HOPS_LSB = 0,  // DQN: the header's hop count and Pdor flag
  parameter int unsigned HOPS_W = 6,
  parameter int unsigned PDOR_LSB = 0,
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned PW = rr_pkg::id_width(P)
) (
  input  logic [NUM_DIMS*COORD_W-1:0] coord_i,
  input  logic [W-1:0]           hdr_i,
  input  logic [PW-1:0]          in_port_i,
  input  logic [VCW-1:0]         in_vc_i,
  output logic [PW-1:0]          out_port_o,
  output logic [V-1:0]           out_vcs_o,
  output logic [PW-1:0]          alt_port_o,  // STAR: the other minimal port, on the adaptive VC
  output logic [V-1:0]           alt_vcs_o,
  output logic                   decide_o,    // STAR, DQN: the choice between the two is open
  output logic [W-1:0]           hdr_o        // the header as it leaves (DQN: Pdor set)
);
  localparam int unsigned NUM_DOR_VCS = (STAR || DQN) ? V - 1 : V;  // the VCs DOR runs on
  localparam int unsigned COORD_LSB = DST_LSB + LOCAL_W;

  function automatic int unsigned radix(input int unsigned d);
    radix = rr_pkg::cube_radix(d, K0, K1, K2);
  endfunction

  logic [PW-1:0] local_port;
  if (LOCAL_W > 0) begin : gen_local
    assign local_port = PW'(hdr_i[DST_LSB+:LOCAL_W]);
  end else begin : gen_single
    assign local_port = '0;
  end

  // The dateline class of a VC is its parity; the upper bits of the id do not matter.
  logic         in_class;
  assign in_class = (NUM_DOR_VCS > 1) ? in_vc_i[0] && !((STAR || DQN) && in_vc_i == VCW'(V - 1)) : 1'b0;
  if (VCW > 1) begin : gen_unused_vc
    logic unused_vc;
    assign unused_vc = ^in_vc_i[VCW-1:1];
  end

  logic [PW-1:0] out_dor_port, star_alt_port;  // DOR's hop, and star's alternative
  logic [V-1:0]  out_dor_vcs, star_alt_vcs;
  always_comb begin
    logic          done, alt, plus, wraps, cont, cls, ahead;
    logic [COORD_W-1:0] here, dest;
    logic [COORD_W:0]   delta;
    out_dor_port = local_port;
    out_dor_vcs  = '1;
    done       = 1'b0;
    alt        = 1'b0;
    star_alt_port = '0;
    star_alt_vcs  = '0;
    plus       = 1'b0;
    wraps      = 1'b0;
    cont       = 1'b0;
    cls        = 1'b0;
    ahead      = 1'b0;
    delta      = '0;
    for (int unsigned d = 0; d < NUM_DIMS; d++) begin
      here = coord_i[d*COORD_W+:COORD_W];
      dest = hdr_i[COORD_LSB+d*COORD_W+:COORD_W];
      if (STAR && done && !alt && (here != dest)) begin
        // The next dimension still to correct: the alternative (STAR).
        alt = 1'b1;
        if (TORUS) begin
          delta = (dest >= here) ? ({1'b0, dest} - {1'b0, here})
                                 : ({1'b0, dest} + (COORD_W+1)'(radix(d)) - {1'b0, here});
          plus  = (delta <= (COORD_W+1)'(radix(d) / 2));
        end else begin
          plus = (dest > here);
        end
        star_alt_port = PW'(NUM_NI + 2 * d + (plus ? 0 : 1));
      end else if (!done && (here != dest)) begin
        done = 1'b1;
        if (TORUS) begin
          // forward distance (dest - here) mod k
          delta = (dest >= here) ? ({1'b0, dest} - {1'b0, here})
                                 : ({1'b0, dest} + (COORD_W+1)'(radix(d)) - {1'b0, here});
          plus  = (delta <= (COORD_W+1)'(radix(d) / 2));
          wraps = plus ? (here == COORD_W'(radix(d) - 1)) : (here == '0);
          cont  = (in_port_i == PW'(NUM_NI + 2 * d)) || (in_port_i == PW'(NUM_NI + 2 * d + 1));
          ahead = plus ? (dest < here) : (dest > here);
          cls   = (cont && in_class) || wraps;
          // With one VC there are no classes to separate (the generator's
          // deadlock check rejects such a torus config; only a test emits
          // it, to show the watchdog catches the real deadlock).
          // Class 1 from the wrap hop on, class 0 while the wrap lies ahead,
          // every VC for a path that never wraps in this dimension.
          if (NUM_DOR_VCS > 1 && (cls || ahead)) begin
            for (int unsigned v = 0; v < NUM_DOR_VCS; v++) out_dor_vcs[v] = ((v % 2) == 1) == cls;
          end
        end else begin
          plus = (dest > here);
        end
        out_dor_port = PW'(NUM_NI + 2 * d + (plus ? 0 : 1));
      end
    end
    if (STAR && alt) star_alt_vcs[V-1] = 1'b1;
  end

  if (DQN) begin : gen_dqn
    // Not at the destination (an ejection port is an NI port), not Pdor,
    // below the threshold: the DQN VC, the DOR hop as the alternative.
    logic         leaves, open_choice;
    logic [V-1:0] dor_hop_vcs;  // DOR's hop: its escape VCs (and the DQN VC with DOR_ON_DQN_VC; every VC to eject)
    assign leaves      = out_dor_port >= PW'(NUM_NI);
    assign open_choice = leaves && !hdr_i[PDOR_LSB] && (hdr_i[HOPS_LSB+:HOPS_W] < HOPS_W'(HOP_THRESHOLD));
    assign dor_hop_vcs = (leaves && !DOR_ON_DQN_VC) ? out_dor_vcs & ~(V'(1) << (V - 1)) : out_dor_vcs;
    assign out_port_o  = out_dor_port;
    assign out_vcs_o   = open_choice ? V'(1) << (V - 1) : dor_hop_vcs;
    assign alt_port_o  = open_choice ? out_dor_port : '0;
    assign alt_vcs_o   = open_choice ? dor_hop_vcs : '0;
    assign decide_o    = open_choice;
    always_comb begin
      hdr_o = hdr_i;
      if (leaves && !open_choice) hdr_o[PDOR_LSB] = 1'b1;
    end
    logic unused_star;
    assign unused_star = ^{star_alt_port, star_alt_vcs};
  end else begin : gen_no_dqn
    assign out_port_o = out_dor_port;
    assign out_vcs_o  = out_dor_vcs;
    assign alt_port_o = star_alt_port;
    assign alt_vcs_o  = star_alt_vcs;
    assign decide_o   = STAR && (star_alt_vcs != '0);
    assign hdr_o      = hdr_i;
  end
endmodule
