// Dimension-order route compute for k-ary n-cube torus and mesh (n = 1..3).
// The same rule, written once in C++ (gen/src/routing_dor.cpp), is what the
// generator checks for deadlock freedom and what the test bench checks every
// hop against.
//   - Correct dimension 0 first, then 1, then 2; eject when all coordinates match.
//   - Torus: take the shorter way round; a tie (k even, distance k/2) goes +.
//     Dateline VC classes, class c = the VCs v with v % 2 == c: a packet whose
//     path in a dimension takes the wrap link (k-1 -> 0 going +, 0 -> k-1
//     going -) uses class 0 before that hop and class 1 from it on; a packet
//     whose path in the dimension never wraps may use every VC, but stays in
//     class 1 once it has entered it (class 1 is sticky within a dimension).
//   - Mesh: any VC (DOR on a mesh has an acyclic channel dependency graph).
// With STAR (routing.algorithm = "star", gen/src/routing_star.cpp) VC V-1 is
// the adaptive VC and DOR runs on VCs 0..V-2 (the escape VCs; their classes
// are the parities among them, and an arrival on the adaptive VC counts as
// class 0): the DOR hop (out_port_o) may take its escape VCs or the adaptive
// VC, and the next dimension still to correct after DOR's is the alternative
// (alt_port_o, the adaptive VC only; decide_o). rr_star_decide chooses
// between the two at the head of the VC. Without STAR, decide_o is 0.
// Port numbering: NUM_NI NI ports, then for every dimension d the + side
// (NUM_NI + 2d) and the - side (NUM_NI + 2d + 1).
// Address of a node: {coord[n-1], ..., coord[0], local NI index}.
module rr_route_dor #(
  parameter int unsigned P = 5,
  parameter int unsigned V = 2,
  parameter int unsigned W = 64,
  parameter int unsigned NUM_NI = 1,
  parameter int unsigned NUM_DIMS = 2,
  parameter int unsigned CW = 2,        // bits per coordinate
  parameter int unsigned K0 = 4,
  parameter int unsigned K1 = 4,
  parameter int unsigned K2 = 4,
  parameter bit          TORUS = 1'b1,
  parameter int unsigned LOCAL_W = 0,   // bits of the NI index in an address
  parameter int unsigned DST_LSB = 0,   // destination address in the header
  parameter bit          STAR = 1'b0,   // star-channel: VC V-1 adaptive (see above)
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned PW = rr_pkg::id_width(P)
) (
  input  logic [NUM_DIMS*CW-1:0] coord_i,
  input  logic [W-1:0]           hdr_i,
  input  logic [PW-1:0]          in_port_i,
  input  logic [VCW-1:0]         in_vc_i,
  output logic [PW-1:0]          out_port_o,
  output logic [V-1:0]           out_vcs_o,
  output logic [PW-1:0]          alt_port_o,  // STAR: the other minimal port, on the adaptive VC
  output logic [V-1:0]           alt_vcs_o,
  output logic                   decide_o     // STAR: the choice between the two is open
);
  localparam int unsigned EV = STAR ? V - 1 : V;  // the VCs DOR runs on
  localparam int unsigned COORD_LSB = DST_LSB + LOCAL_W;

  function automatic int unsigned radix(input int unsigned d);
    if (d == 0) radix = K0;
    else if (d == 1) radix = K1;
    else radix = K2;
  endfunction

  logic [PW-1:0] local_port;
  if (LOCAL_W > 0) begin : gen_local
    assign local_port = PW'(hdr_i[DST_LSB+:LOCAL_W]);
  end else begin : gen_single
    assign local_port = '0;
  end

  // The dateline class of a VC is its parity; the upper bits of the id do not matter.
  logic         in_class;
  assign in_class = (EV > 1) ? in_vc_i[0] && !(STAR && in_vc_i == VCW'(V - 1)) : 1'b0;
  if (VCW > 1) begin : gen_unused_vc
    logic unused_vc;
    assign unused_vc = ^in_vc_i[VCW-1:1];
  end

  always_comb begin
    logic          done, alt, plus, wraps, cont, cls, ahead;
    logic [CW-1:0] here, dest;
    logic [CW:0]   delta;
    out_port_o = local_port;
    out_vcs_o  = '1;
    done       = 1'b0;
    alt        = 1'b0;
    alt_port_o = '0;
    alt_vcs_o  = '0;
    plus       = 1'b0;
    wraps      = 1'b0;
    cont       = 1'b0;
    cls        = 1'b0;
    ahead      = 1'b0;
    delta      = '0;
    for (int unsigned d = 0; d < NUM_DIMS; d++) begin
      here = coord_i[d*CW+:CW];
      dest = hdr_i[COORD_LSB+d*CW+:CW];
      if (STAR && done && !alt && (here != dest)) begin
        // The next dimension still to correct: the alternative (STAR).
        alt = 1'b1;
        if (TORUS) begin
          delta = (dest >= here) ? ({1'b0, dest} - {1'b0, here})
                                 : ({1'b0, dest} + (CW+1)'(radix(d)) - {1'b0, here});
          plus  = (delta <= (CW+1)'(radix(d) / 2));
        end else begin
          plus = (dest > here);
        end
        alt_port_o = PW'(NUM_NI + 2 * d + (plus ? 0 : 1));
      end else if (!done && (here != dest)) begin
        done = 1'b1;
        if (TORUS) begin
          // forward distance (dest - here) mod k
          delta = (dest >= here) ? ({1'b0, dest} - {1'b0, here})
                                 : ({1'b0, dest} + (CW+1)'(radix(d)) - {1'b0, here});
          plus  = (delta <= (CW+1)'(radix(d) / 2));
          wraps = plus ? (here == CW'(radix(d) - 1)) : (here == '0);
          cont  = (in_port_i == PW'(NUM_NI + 2 * d)) || (in_port_i == PW'(NUM_NI + 2 * d + 1));
          ahead = plus ? (dest < here) : (dest > here);
          cls   = (cont && in_class) || wraps;
          // With one VC there are no classes to separate (the generator's
          // deadlock check rejects such a torus config; only a test emits
          // it, to show the watchdog catches the real deadlock).
          // Class 1 from the wrap hop on, class 0 while the wrap lies ahead,
          // every VC for a path that never wraps in this dimension.
          if (EV > 1 && (cls || ahead)) begin
            for (int unsigned v = 0; v < EV; v++) out_vcs_o[v] = ((v % 2) == 1) == cls;
          end
        end else begin
          plus = (dest > here);
        end
        out_port_o = PW'(NUM_NI + 2 * d + (plus ? 0 : 1));
      end
    end
    if (STAR && alt) alt_vcs_o[V-1] = 1'b1;
  end
  assign decide_o = STAR && (alt_vcs_o != '0);
endmodule
