// Star-channel's choice at the head of the VC (routing.algorithm = "star",
// docs/routing_star.md): between the DOR hop (port_i: its escape VCs and
// the adaptive VC V-1) and the other minimal port (alt_port_i: the adaptive
// VC only). Take the alternative when its adaptive VC is free and has
// credits for the whole packet (virtual cut-through) and its port is less
// occupied downstream than the DOR port (occ_i: credits in use over all of
// a port's VCs); else, and on a tie, the DOR hop. The packet renews the
// decision until it is granted (rr_head_decision, CYCLES = 1), so a packet whose
// alternative stays taken falls back to the DOR hop and its escape VCs:
// the escape sub-network is always offered (Duato), never waited out.
// Combinational; one per input port.
module rr_star_decide #(
  parameter int unsigned P = 5,
  parameter int unsigned V = 3,
  parameter int unsigned CREDIT_CNT_W = 4,  // bits of a credit count
  parameter int unsigned OCC_W = 5,   // bits of a port's occupancy
  parameter int unsigned LEN_W = 3,   // packet length in flits
  localparam int unsigned PW = rr_pkg::id_width(P)
) (
  input  logic [PW-1:0]     port_i,
  input  logic [PW-1:0]     alt_port_i,
  input  logic [LEN_W-1:0]  len_i,
  input  logic [P*V-1:0]    vc_busy_i,     // per output VC: allocated to a packet
  input  logic [P*V*CREDIT_CNT_W-1:0] vc_credits_i,  // per output VC: credits
  input  logic [P*OCC_W-1:0] occ_i,
  output logic              alt_o
);
  // Selections by comparing the port with constants (AND-OR muxes).
  always_comb begin
    logic          free;
    logic [CREDIT_CNT_W-1:0] credits;
    logic [OCC_W-1:0] occ_alt, occ_dor;
    free    = 1'b0;
    credits = '0;
    occ_alt = '0;
    occ_dor = '0;
    for (int unsigned q = 0; q < P; q++) begin
      if (alt_port_i == PW'(q)) begin
        free    = !vc_busy_i[q*V+V-1];
        credits = vc_credits_i[(q*V+V-1)*CREDIT_CNT_W+:CREDIT_CNT_W];
        occ_alt = occ_i[q*OCC_W+:OCC_W];
      end
      if (port_i == PW'(q)) occ_dor = occ_i[q*OCC_W+:OCC_W];
    end
    alt_o = free && ({1'b0, credits} >= (CREDIT_CNT_W+1)'(len_i)) && (occ_alt < occ_dor);
  end
endmodule
