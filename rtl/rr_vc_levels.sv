// VC levels of the dragonfly route units (rr_route_dfly, rr_route_q_adaptive):
// the V VCs split into min(LEVELS, V) contiguous groups, level l on group l,
// a level beyond the last group on the last group (as DragonflyRouting's
// level_vcs and level_of, gen/src/dragonfly/routing_dragonfly.cpp).
// Combinational: for the VC vc_i a packet arrived on, the VCs of level 0
// (first_o), of vc_i's level (same_o) and of the level above it (next_o).
// docs/routing_dragonfly.md ("VC levels").
module rr_vc_levels #(
  parameter int unsigned V = 4,
  parameter int unsigned LEVELS = 2,  // VC levels the algorithm needs
  localparam int unsigned VC_W = rr_pkg::id_width(V)
) (
  input  logic [VC_W-1:0] vc_i,
  output logic [V-1:0]    first_o,
  output logic [V-1:0]    same_o,
  output logic [V-1:0]    next_o
);
  localparam int unsigned GROUPS = (LEVELS < V) ? LEVELS : V;  // VC groups
  localparam int unsigned LVW = 3;                             // a VC level: 0..LEVELS (<= 5)

  function automatic logic [LVW-1:0] level_of(input logic [VC_W-1:0] vc);
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

  assign first_o = level_vcs('0);
  assign same_o = level_vcs(level_of(vc_i));
  assign next_o = level_vcs(level_of(vc_i) + 1'b1);
endmodule
