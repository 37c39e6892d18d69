// Separable input-first switch allocator with internal speedup S: each input
// port has S lanes to the crossbar and each output port S slots.
// Stage 1 (per input port): round-robin over the requesting VCs, each taking
// the next lanes for the flits it offers (cnt_i); lane m carries flit
// lane_idx_o[m] (0 = the front) of VC lane_vc_o[m]. Stage 2 (per output
// port): round-robin over the input ports, up to room_i lanes, one per slot
// (out_valid_o, out_sel_o). A VC is granted a prefix of its flits (gnt_o).
// With S = 1 it is the plain separable allocator.
// SPEC: speculative requests (spec_i) rank below every other one; ok_i, late
// in the cycle, says which won their output VC, and the grants of the others
// are dropped from every output.
// docs/architecture.md, "Internal speedup" and "Speculative switch
// allocation", has the behaviour and why.
module rr_sw_alloc #(
  parameter int unsigned P = 5,
  parameter int unsigned V = 2,
  parameter int unsigned S = 1,  // internal speedup (router.speedup)
  parameter bit          SPEC = 1'b0,  // speculative requests (see above)
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned NUM_LANES = P * S,                // input lanes
  localparam int unsigned LANE_W = rr_pkg::id_width(NUM_LANES),
  localparam int unsigned FLIT_IDX_W = rr_pkg::id_width(S),  // a flit index 0..S-1
  localparam int unsigned FLIT_CNT_W = $clog2(S + 1)        // a count of 0..S flits
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [P*V-1:0]     req_i,
  input  logic [P*V*PW-1:0]  port_i,
  input  logic [P*V*FLIT_CNT_W-1:0]  cnt_i,     // per input VC: flits it can send this cycle (1..S)
  input  logic [P*FLIT_CNT_W-1:0]    room_i,    // per output port: flits it can take this cycle (1..S)
  input  logic [P*V-1:0]     spec_i,    // SPEC: per input VC, the request is speculative
  input  logic [P*V-1:0]     ok_i,      // SPEC: per input VC, its speculation won its output VC
  output logic [P*V*FLIT_CNT_W-1:0]  gnt_o,     // per input VC: flits granted (0..S)
  output logic [NUM_LANES-1:0]       lane_valid_o,  // per input lane: granted
  output logic [NUM_LANES*VCW-1:0]   lane_vc_o,     // per input lane: the VC it carries
  output logic [NUM_LANES*FLIT_IDX_W-1:0]    lane_idx_o,    // per input lane: which of the VC's flits
  output logic [P*S-1:0]     out_valid_o,   // per output slot o*S + k
  output logic [P*S*LANE_W-1:0] out_sel_o      // per output slot: the winning input lane
);
  logic [NUM_LANES-1:0]  lane_has, lane_won, lane_spec, lane_ok;
  logic [PW-1:0] lane_port [NUM_LANES];
  logic [NUM_LANES-1:0]  out_gnt [P];  // [output][lane]

  for (genvar p = 0; p < P; p++) begin : gen_in
    logic [V-1:0]   req, spec, first_class, vmask_q, primary;
    logic [S-1:0]   has;
    logic [VCW-1:0] vc  [S];
    logic [FLIT_IDX_W-1:0]  idx [S];
    assign req  = req_i[p*V+:V];
    assign spec = SPEC ? spec_i[p*V+:V] & req : '0;
    // The class that takes the lanes: the non-speculative requests if there
    // are any, else the speculative ones.
    assign first_class = (SPEC && |(req & ~spec)) ? req & ~spec : req;

    always_comb begin
      logic [V-1:0] hi, lo, pick;
      logic [FLIT_CNT_W:0]  at, n;
      hi = first_class & vmask_q;
      lo = first_class & ~vmask_q;
      primary = (|hi) ? (hi & (~hi + 1'b1)) : (lo & (~lo + 1'b1));
      has = '0;
      for (int unsigned m = 0; m < S; m++) begin
        vc[m]  = '0;
        idx[m] = '0;
      end
      // Lanes in round-robin order of the VCs of that class: first those at
      // or after the pointer, then the others.
      at = '0;
      n = '0;
      for (int unsigned pass = 0; pass < 2; pass++) begin
        pick = (pass == 0) ? hi : lo;
        for (int unsigned v = 0; v < V; v++) begin
          if (pick[v]) begin
            n = (FLIT_CNT_W+1)'(cnt_i[(p*V+v)*FLIT_CNT_W+:FLIT_CNT_W]);
            for (int unsigned m = 0; m < S; m++) begin
              if ((FLIT_CNT_W+1)'(m) >= at && (FLIT_CNT_W+1)'(m) < at + n) begin
                has[m] = 1'b1;
                vc[m]  = VCW'(v);
                idx[m] = FLIT_IDX_W'((FLIT_CNT_W+1)'(m) - at);
              end
            end
            at = (at + n > (FLIT_CNT_W+1)'(S)) ? (FLIT_CNT_W+1)'(S) : at + n;
          end
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) vmask_q <= '1;
      else if (lane_won[p*S]) vmask_q <= ~((primary - 1'b1) | primary);  // past the primary
    end

    for (genvar m = 0; m < S; m++) begin : gen_lane
      assign lane_has[p*S+m] = has[m];
      assign lane_vc_o[(p*S+m)*VCW+:VCW] = vc[m];
      assign lane_idx_o[(p*S+m)*FLIT_IDX_W+:FLIT_IDX_W] = idx[m];
      always_comb begin
        lane_port[p*S+m] = '0;
        lane_spec[p*S+m] = 1'b0;
        lane_ok[p*S+m]   = 1'b1;
        for (int unsigned v = 0; v < V; v++) begin
          if (vc[m] == VCW'(v)) begin
            lane_port[p*S+m] = port_i[(p*V+v)*PW+:PW];
            lane_spec[p*S+m] = spec[v];
            lane_ok[p*S+m]   = !spec[v] || ok_i[p*V+v];
          end
        end
      end
    end

    // Flits granted per VC: its won lanes (none if its speculation failed).
    for (genvar v = 0; v < V; v++) begin : gen_gnt
      always_comb begin
        gnt_o[(p*V+v)*FLIT_CNT_W+:FLIT_CNT_W] = '0;
        for (int unsigned m = 0; m < S; m++) begin
          if (lane_won[p*S+m] && vc[m] == VCW'(v)) gnt_o[(p*V+v)*FLIT_CNT_W+:FLIT_CNT_W] = gnt_o[(p*V+v)*FLIT_CNT_W+:FLIT_CNT_W] + 1'b1;
        end
        if (SPEC && spec[v] && !ok_i[p*V+v]) gnt_o[(p*V+v)*FLIT_CNT_W+:FLIT_CNT_W] = '0;
      end
    end
  end

  for (genvar o = 0; o < P; o++) begin : gen_out
    logic [NUM_LANES-1:0]  reqs, lane_mask, granted, last;
    logic [P-1:0]  pmask_q, last_port;
    logic [FLIT_CNT_W-1:0] room;
    logic [S-1:0]  slot_valid;
    logic [S*LANE_W-1:0] slot_sel;
    assign room = room_i[o*FLIT_CNT_W+:FLIT_CNT_W];
    for (genvar l = 0; l < NUM_LANES; l++) begin : gen_col
      assign reqs[l] = lane_has[l] && (lane_port[l] == PW'(o));
      assign lane_mask[l] = pmask_q[l/S];
    end
    // Up to `room` grants in round-robin order of the input ports: first the
    // lanes of the ports at or after the pointer (pmask_q), then the others
    // from lane 0; lanes of one port in lane order. With SPEC only the
    // non-speculative lanes compete if any asks for this output (cls), else
    // the speculative ones; a slot granted to a failed speculation stays
    // empty.
    logic [NUM_LANES-1:0] cls;  // the lanes that compete: the non-speculative ones if any
    assign cls = (SPEC && |(reqs & ~lane_spec)) ? reqs & ~lane_spec : reqs;
    always_comb begin
      logic [NUM_LANES-1:0] hi, lo, g;
      hi = cls & lane_mask;
      lo = cls & ~lane_mask;
      granted = '0;
      last = '0;
      for (int unsigned k = 0; k < S; k++) begin
        g = '0;
        if (FLIT_CNT_W'(k) < room) begin
          if (|hi) g = hi & (~hi + 1'b1);
          else g = lo & (~lo + 1'b1);
        end
        hi = hi & ~g;
        lo = lo & ~g;
        slot_valid[k] = |(g & lane_ok);
        slot_sel[k*LANE_W+:LANE_W] = '0;
        for (int unsigned l = 0; l < NUM_LANES; l++) begin
          if (g[l]) slot_sel[k*LANE_W+:LANE_W] = LANE_W'(l);
        end
        granted = granted | g;
        if (|g) last = g;
      end
    end
    for (genvar q = 0; q < P; q++) begin : gen_last
      assign last_port[q] = |last[q*S+:S];
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) pmask_q <= '1;
      else if (|granted) pmask_q <= ~((last_port - 1'b1) | last_port);  // past the last port granted
    end
    assign out_gnt[o] = granted;
    assign out_valid_o[o*S+:S] = slot_valid;
    assign out_sel_o[o*S*LANE_W+:S*LANE_W] = slot_sel;
  end

  always_comb begin
    lane_won = '0;
    for (int unsigned o = 0; o < P; o++) lane_won = lane_won | out_gnt[o];
  end
  assign lane_valid_o = lane_won & lane_ok;
  if (!SPEC) begin : gen_no_spec
    logic unused_spec;
    assign unused_spec = ^{spec_i, ok_i, lane_spec};
  end
endmodule
