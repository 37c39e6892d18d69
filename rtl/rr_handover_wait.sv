// Per input VC: the output VC its active packet holds was handed over to it
// while the previous holder's tail had not left (that output VC's
// handover_i), so its flits wait for that tail (rr_input_port out_pend_i).
// The held VC (vc own_vc_i of port own_port_i) is selected by comparisons
// against constants, not a variable shift (a shift per input VC costs the
// synthesis hours: rr_vc_alloc's `releasing`), and only among the output
// VCs the input VC can ever hold (REQ_MAP, as rr_vc_alloc's).
// With SKIP_IDLE (Verilator) nothing is evaluated in a cycle without a
// hand-over, when every output is 0 anyway, and each input VC reads its held
// VC's bit by index; synthesis reads the RTL without the guard and the index, and tests/lint/sim_guards_equiv.sh proves the two readings
// equivalent (docs/architecture.md, "RTL written for simulation speed").
module rr_handover_wait #(
  parameter int unsigned P = 5,
  parameter int unsigned V = 2,
  // [o*P*V + r]: input VC r (port*V + vc) can ever hold output VC o
  parameter bit [P*V*P*V-1:0] REQ_MAP = {(P*V*P*V){1'b1}},
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned R = P * V
) (
  input  logic [R*PW-1:0]  own_port_i,  // per input VC: the output VC it holds
  input  logic [R*VCW-1:0] own_vc_i,
  input  logic [R-1:0]     handover_i,  // per output VC (port*V + vc)
  output logic [R-1:0]     wait_o       // per input VC
);
`ifdef VERILATOR
  localparam bit SKIP_IDLE = 1'b1;
`else
  localparam bit SKIP_IDLE = 1'b0;
`endif
  localparam int unsigned RVC_W = rr_pkg::id_width(R);
  always_comb begin
    logic [RVC_W-1:0] held;  // under Verilator: the output VC input VC r holds
    wait_o = '0;
    held = '0;
    if (SKIP_IDLE) begin
      // Under Verilator the held VC is read by index (the same bits; R x P x V
      // compares a cycle cost a dragonfly router's simulation much).
      if (|handover_i) begin
        for (int unsigned r = 0; r < R; r++) begin
          if ({1'b0, own_port_i[r*PW+:PW]} < (PW+1)'(P) && {1'b0, own_vc_i[r*VCW+:VCW]} < (VCW+1)'(V)) begin
            held = RVC_W'(own_port_i[r*PW+:PW]) * RVC_W'(V) + RVC_W'(own_vc_i[r*VCW+:VCW]);
            if (REQ_MAP[held*R + r]) wait_o[r] = handover_i[held];
          end
        end
      end
    end else begin
      for (int unsigned r = 0; r < R; r++) begin
        for (int unsigned q = 0; q < P; q++) begin
          for (int unsigned w = 0; w < V; w++) begin
            if (REQ_MAP[(q*V+w)*R + r] && own_port_i[r*PW+:PW] == PW'(q) && own_vc_i[r*VCW+:VCW] == VCW'(w)) begin
              wait_o[r] = handover_i[q*V+w];
            end
          end
        end
      end
    end
  end
endmodule
