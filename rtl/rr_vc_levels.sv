// VC levels of the dragonfly route units (rr_route_dfly, rr_route_q_adaptive):
// the V VCs split into min(LEVELS, V) contiguous groups, level l on group l,
// a level beyond the last group on the last group (as DragonflyRouting's
// level_vcs and level_of, gen/src/dragonfly/routing_dragonfly.cpp).
// Combinational: for the VC vc_i a packet arrived on, the VCs of level 0
// (first_o), of vc_i's level (same_o) and of the level above it (next_o);
// and rise_o, the VCs of a hop that may rise (Q-adaptive's routing.q_vcs =
// "rising"): the levels from the hop's own (0 with first_i, else vc_i's
// plus one) up to the last that leaves one group for each of after_i later
// hops, or the hop's own level alone when none is left.
// docs/routing_dragonfly.md ("VC levels"), docs/q_adaptive.md ("VCs that rise").
module rr_vc_levels #(
  parameter int unsigned V = 4,
  parameter int unsigned LEVELS = 2,  // VC levels the algorithm needs
  localparam int unsigned VC_W = rr_pkg::id_width(V)
) (
  input  logic [VC_W-1:0] vc_i,
  input  logic            first_i,   // rise_o: the hop out of the source router
  input  logic [rr_pkg::UGAL_HOPS_W-1:0] after_i,  // rise_o: hops after this one
  output logic [V-1:0]    first_o,
  output logic [V-1:0]    same_o,
  output logic [V-1:0]    next_o,
  output logic [V-1:0]    rise_o
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

  logic [LVW-1:0] own;  // the hop's level
  assign own = first_i ? '0 : level_of(vc_i) + 1'b1;
  always_comb begin
    rise_o = level_vcs(own);
    for (int unsigned l = 0; l < GROUPS; l++) begin
      if (LVW'(l) > own && l + 32'(after_i) < GROUPS) rise_o = rise_o | level_vcs(LVW'(l));
    end
  end

  assign first_o = level_vcs('0);
  assign same_o = level_vcs(level_of(vc_i));
  assign next_o = level_vcs(level_of(vc_i) + 1'b1);
endmodule
