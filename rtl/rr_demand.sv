// Waiting demand per output port: the flits of the packets whose head waits at
// the front of an input VC for a VC of that port (a VC allocation request).
// In an input-queued router these packets are the output port's queue; the
// UGAL route units add this to the port's used credits (docs/routing_dragonfly.md,
// "Queue occupancy"). Combinational: the route units see the requests of the
// cycle in which they decide, like the credit counts.
module rr_demand #(
  parameter int unsigned P = 5,        // ports
  parameter int unsigned V = 2,        // VCs per port
  parameter int unsigned LEN_W = 3,    // packet length field (flits)
  localparam int unsigned R = P * V,
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned DW = rr_pkg::demand_width(P, V, LEN_W)
) (
  input  logic [R-1:0]       va_req_i,   // per input VC: its front packet requests VC allocation
  input  logic [R*PW-1:0]    va_port_i,  // the output port it requests
  input  logic [R*LEN_W-1:0] va_len_i,   // its length in flits
  output logic [P*DW-1:0]    dem_o       // per output port: flits of the requesting packets
);
  for (genvar o = 0; o < P; o++) begin : gen_port
    always_comb begin
      dem_o[o*DW+:DW] = '0;
      for (int unsigned r = 0; r < R; r++) begin
        if (va_req_i[r] && va_port_i[r*PW+:PW] == PW'(o)) begin
          dem_o[o*DW+:DW] = dem_o[o*DW+:DW] + DW'(va_len_i[r*LEN_W+:LEN_W]);
        end
      end
    end
  end
endmodule
