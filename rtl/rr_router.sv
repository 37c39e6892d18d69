// Input-queued virtual cut-through router core (DESIGN.md section 4): P
// ports, the NUM_NI NI ports first; an rr_input_port per input port, the VC
// and switch allocators, the crossbar and an rr_output_port per output port.
// At zero load a head flit spends a cycle in each stage: buffer write and
// route compute, VC allocation, switch allocation and traversal into the
// output register (SPEC: both allocations in one cycle).
// Route compute sits outside the core (rc_* ports) so that one core serves
// every topology and routing algorithm: the generated router top wires one
// route unit per input port. At the DECIDE_PORTS a decision unit, also
// outside (hd_*), chooses between two routes at the head of the VC; its
// contract is rr_head_decision's (DECIDE_CYCLES, ANSWER_PORT, DOW, FIELD_*).
// docs/architecture.md, "Router microarchitecture (rtl/)" and its
// subsections, has the blocks, the pipeline and the options.
module rr_router #(
  parameter int unsigned P = 5,          // ports: NUM_NI NI ports first, then network ports
  parameter int unsigned NUM_NI = 1,
  parameter int unsigned V = 2,
  parameter int unsigned B = 8,
  parameter int unsigned W = 64,
  parameter int unsigned MIN_LEN = 2,    // shortest packet, flits (router.min_packet_flits)
  parameter int unsigned S = 1,          // internal speedup (router.speedup)
  parameter int unsigned OB = 0,         // output buffer per port, flits (router.output_buffer_flits)
  parameter bit          REG_READ = 1'b0,  // VC buffers read through a register (router.buffer_read)
  parameter int unsigned LEN_LSB = 0,
  parameter int unsigned LEN_W = 3,
  parameter int unsigned HOPS_LSB = 0,
  parameter int unsigned HOPS_W = 6,
  parameter int unsigned STAMP_LSB = 0,  // a header field heads leave with set to a cycle (0: none): ...
  parameter int unsigned STAMP_W = 0,
  parameter bit          STAMP_AT_REQUEST = 1'b0,  // ... their first VC request's (input ports), or the
                                                   // crossing of the crossbar (network output ports)
  // The decision at the head of the VC (rr_head_decision has the contract)
  parameter logic [P-1:0] DECIDE_PORTS = '0,  // the input ports a decision unit serves
  parameter int unsigned DECIDE_CYCLES = 1,   // 0, 1 or 2: rr_head_decision CYCLES
  parameter bit          ANSWER_PORT = 1'b0,  // the answer names the port
  parameter int unsigned DOW = 1,             // width of the decision operands
  parameter int unsigned FIELD_LSB = 0,       // the header field an alternative sets ...
  parameter int unsigned FIELD_W = 0,         // ... (0: none) to the answer's value
  parameter bit          SPEC = 1'b0,    // speculative switch allocation (router.switch_allocation)
  // rr_vc_alloc: [o*P*V + r]: input VC r can ever request output VC o (the
  // generator's walk over the routing relation; all by default)
  parameter bit [P*V*P*V-1:0] REQ_MAP = {(P*V*P*V){1'b1}},
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned CREDIT_CNT_W = $clog2(B + 1),
  localparam int unsigned LW = rr_pkg::link_width(V, W),
  localparam int unsigned CRW = rr_pkg::credit_width(V),
  localparam int unsigned OCC_W = $clog2(V * B + 1),
  localparam int unsigned R = P * V,
  localparam int unsigned PATCH_W = (FIELD_W > 0) ? FIELD_W : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [P*LW-1:0]   flit_i,
  output logic [P*LW-1:0]   flit_o,
  input  logic [P*CRW-1:0]  credit_i,
  output logic [P*CRW-1:0]  credit_o,
  // route compute of the head flit arriving on each input port
  output logic [P-1:0]      rc_valid_o,
  output logic [P*W-1:0]    rc_hdr_o,
  output logic [P*VCW-1:0]  rc_in_vc_o,
  input  logic [P*PW-1:0]   rc_out_port_i,
  input  logic [P*V-1:0]    rc_out_vcs_i,
  input  logic [P*W-1:0]    rc_hdr_i,
  input  logic [P*PW-1:0]   rc_alt_port_i,   // DECIDE_PORTS: the alternative route and the open choice
  input  logic [P*V-1:0]    rc_alt_vcs_i,
  input  logic [P-1:0]      rc_decide_i,
  input  logic [P*DOW-1:0]  rc_operands_i,
  // DECIDE_PORTS: per input port, the packet deciding this cycle and the decision
  output logic [P-1:0]      hd_valid_o,
  output logic [P*PW-1:0]   hd_port_o,
  output logic [P*PW-1:0]   hd_alt_port_o,
  output logic [P*DOW-1:0]  hd_operands_o,
  input  logic [P-1:0]      hd_alt_i,
  input  logic [P-1:0]      hd_ready_i,      // the decision unit accepted the port's presentation
  output logic [P-1:0]      hd_fresh_o,      // the presented packet's first accepted decision
  input  logic [P*PW-1:0]   hd_choice_i,     // ANSWER_PORT: the port to take
  input  logic [P*PATCH_W-1:0]   hd_patch_i,      // ANSWER_PORT: the header field's value if it patches
  // per output port: credits in use over all its VCs (downstream occupancy),
  // for adaptive route units
  output logic [P*OCC_W-1:0]   occ_o,
  // per input VC: its front packet waits for an output VC (a VC allocation
  // request), the output port it asks for and its length in flits (the UGAL
  // queue's waiting demand, rr_demand in the router top)
  output logic [R-1:0]      wait_req_o,
  output logic [R*PW-1:0]   wait_port_o,
  output logic [R*LEN_W-1:0] wait_len_o,
  // per output VC: allocated to a packet, and its credits (star's decision)
  output logic [R-1:0]      vc_busy_o,
  output logic [R*CREDIT_CNT_W-1:0]   vc_credits_o,
  // per input VC: the flits in its buffer (DQN-routing's observation)
  output logic [R*CREDIT_CNT_W-1:0]   in_occ_o,
  // observability: free-running cycle counter, per output port flits sent and
  // cycles in which a packet waited for the port but nothing was sent (both
  // up to the cycle before)
  output logic [31:0]       cycle_o,
  output logic [P*32-1:0]   stat_flits_o,
  output logic [P*32-1:0]   stat_stall_o
);
  // With speedup and single-flit packets an output VC takes up to S of them
  // per cycle (rr_vc_alloc GRANTS, rr_output_port MULTI_GRANT): else a VC of
  // single-flit packets would take one packet per cycle, the link's rate,
  // and speedup could not drain it faster than it fills.
  localparam bit          MULTI_GRANT = S > 1 && MIN_LEN == 1;
  localparam int unsigned GRANTS = MULTI_GRANT ? S : 1;
  localparam int unsigned GRANT_CNT_W = $clog2(GRANTS + 1);

  logic [R-1:0]       va_req, va_rel, va_gnt, sa_req, out_busy, out_handover, out_alloc, out_pend;
  logic [R-1:0]       va_gnt_free, sa_spec, sa_ok;
  logic [R*PW-1:0]    va_port, va_own_port, sa_port;
  logic [R*V-1:0]     va_vcs;
  logic [R*LEN_W-1:0] va_len;
  logic [R*VCW-1:0]   va_vc, va_own_vc;
  logic [R*CREDIT_CNT_W-1:0]    out_credits, out_singles;
  logic [R*GRANT_CNT_W-1:0]    out_alloc_n;  // per output VC: single-flit packets allocated (MULTI_GRANT)

  localparam int unsigned XBAR_W = VCW + 2 + W;  // crossbar word {vc, tail, head, data}
  localparam int unsigned NUM_LANES = P * S;         // crossbar lanes (inputs) and slots (outputs)
  localparam int unsigned LANE_W = rr_pkg::id_width(NUM_LANES);
  localparam int unsigned FLIT_CNT_W = $clog2(S + 1);
  localparam int unsigned FLIT_IDX_W = rr_pkg::id_width(S);
  logic [R*FLIT_CNT_W-1:0]    sa_cnt, sa_gnt;  // per input VC: flits offered, flits granted
  logic [NUM_LANES-1:0]       sa_lane_valid;   // per input lane p*S + m: the flit it carries
  logic [NUM_LANES*VCW-1:0]   sa_lane_vc;
  logic [NUM_LANES*FLIT_IDX_W-1:0]    sa_lane_idx;
  logic [NUM_LANES*XBAR_W-1:0]    xb_in, xb_out;
  logic [NUM_LANES-1:0]       sw_valid;   // per output slot o*S + k
  logic [NUM_LANES*LANE_W-1:0]   sw_sel;
  logic [P*FLIT_CNT_W-1:0]    room;

  // The free-running cycle counter: observability, and the time stamp of STAMP_W.
  logic [31:0] cycle_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cycle_q <= '0;
    else cycle_q <= cycle_q + 1'b1;
  end
  assign cycle_o = cycle_q;

  for (genvar p = 0; p < P; p++) begin : gen_in
    logic [S*W-1:0]   lane_data;
    logic [S-1:0]     lane_head, lane_tail;
    logic [S*VCW-1:0] lane_vc;
    rr_input_port #(
      .P(P), .V(V), .B(B), .W(W), .MIN_LEN(MIN_LEN), .S(S), .REG_READ(REG_READ), .LEN_LSB(LEN_LSB), .LEN_W(LEN_W),
      .SPEC(SPEC), .DECIDE(DECIDE_PORTS[p]), .DECIDE_CYCLES(DECIDE_CYCLES), .ANSWER_PORT(ANSWER_PORT),
      .DOW(DOW), .FIELD_LSB(FIELD_LSB), .FIELD_W(FIELD_W), .STAMP_LSB(STAMP_LSB),
      .STAMP_W(STAMP_AT_REQUEST ? STAMP_W : 0)
    ) i_input (
      .clk_i, .rst_ni,
      .now_i        (cycle_q),
      .flit_i       (flit_i[p*LW+:LW]),
      .credit_o     (credit_o[p*CRW+:CRW]),
      .rc_valid_o   (rc_valid_o[p]),
      .rc_hdr_o     (rc_hdr_o[p*W+:W]),
      .rc_in_vc_o   (rc_in_vc_o[p*VCW+:VCW]),
      .rc_out_port_i(rc_out_port_i[p*PW+:PW]),
      .rc_out_vcs_i (rc_out_vcs_i[p*V+:V]),
      .rc_hdr_i     (rc_hdr_i[p*W+:W]),
      .rc_alt_port_i(rc_alt_port_i[p*PW+:PW]),
      .rc_alt_vcs_i (rc_alt_vcs_i[p*V+:V]),
      .rc_decide_i  (rc_decide_i[p]),
      .rc_operands_i(rc_operands_i[p*DOW+:DOW]),
      .hd_valid_o   (hd_valid_o[p]),
      .hd_port_o    (hd_port_o[p*PW+:PW]),
      .hd_alt_port_o(hd_alt_port_o[p*PW+:PW]),
      .hd_operands_o(hd_operands_o[p*DOW+:DOW]),
      .hd_alt_i     (hd_alt_i[p]),
      .hd_ready_i   (hd_ready_i[p]),
      .hd_fresh_o   (hd_fresh_o[p]),
      .hd_choice_i  (hd_choice_i[p*PW+:PW]),
      .hd_patch_i   (hd_patch_i[p*PATCH_W+:PATCH_W]),
      .va_req_o     (va_req[p*V+:V]),
      .va_port_o    (va_port[p*V*PW+:V*PW]),
      .va_vcs_o     (va_vcs[p*V*V+:V*V]),
      .va_len_o     (va_len[p*V*LEN_W+:V*LEN_W]),
      .va_rel_o     (va_rel[p*V+:V]),
      .va_own_port_o(va_own_port[p*V*PW+:V*PW]),
      .va_own_vc_o  (va_own_vc[p*V*VCW+:V*VCW]),
      .va_gnt_i     (va_gnt[p*V+:V]),
      .va_vc_i      (va_vc[p*V*VCW+:V*VCW]),
      .sa_req_o     (sa_req[p*V+:V]),
      .sa_spec_o    (sa_spec[p*V+:V]),
      .sa_port_o    (sa_port[p*V*PW+:V*PW]),
      .sa_cnt_o     (sa_cnt[p*V*FLIT_CNT_W+:V*FLIT_CNT_W]),
      .sa_gnt_i     (sa_gnt[p*V*FLIT_CNT_W+:V*FLIT_CNT_W]),
      .lane_valid_i (sa_lane_valid[p*S+:S]),
      .lane_vc_i    (sa_lane_vc[p*S*VCW+:S*VCW]),
      .lane_idx_i   (sa_lane_idx[p*S*FLIT_IDX_W+:S*FLIT_IDX_W]),
      .out_pend_i   (out_pend[p*V+:V]),
      .xb_data_o    (lane_data),
      .xb_head_o    (lane_head),
      .xb_tail_o    (lane_tail),
      .xb_vc_o      (lane_vc),
      .occ_o        (in_occ_o[p*V*CREDIT_CNT_W+:V*CREDIT_CNT_W])
    );
    for (genvar k = 0; k < S; k++) begin : gen_lane
      assign xb_in[(p*S+k)*XBAR_W+:XBAR_W] = {lane_vc[k*VCW+:VCW], lane_tail[k], lane_head[k], lane_data[k*W+:W]};
    end
  end

  rr_vc_alloc #(.P(P), .V(V), .LEN_W(LEN_W), .CREDIT_CNT_W(CREDIT_CNT_W), .GRANTS(GRANTS), .SPEC(SPEC), .REQ_MAP(REQ_MAP)) i_vc_alloc (
    .clk_i, .rst_ni,
    .req_i     (va_req),
    .port_i    (va_port),
    .vcs_i     (va_vcs),
    .len_i     (va_len),
    .rel_i     (va_rel),
    .own_port_i(va_own_port),
    .own_vc_i  (va_own_vc),
    .busy_i    (out_busy),
    .handover_i(out_handover),
    .credits_i (out_credits),
    .singles_i (out_singles),
    .gnt_o     (va_gnt),
    .gnt_vc_o  (va_vc),
    .gnt_free_o(va_gnt_free),
    .alloc_o   (out_alloc),
    .alloc_n_o (out_alloc_n)
  );

  // Per input VC: the output VC its active packet holds still waits for the
  // tail of its previous holder (the successor's flits wait for it).
  rr_handover_wait #(.P(P), .V(V), .REQ_MAP(REQ_MAP)) i_handover_wait (
    .own_port_i(va_own_port),
    .own_vc_i  (va_own_vc),
    .handover_i(out_handover),
    .wait_o    (out_pend)
  );

  assign wait_req_o  = va_req;
  assign wait_port_o = va_port;
  assign wait_len_o  = va_len;

  // A speculation stands if its packet won an output VC that no packet holds.
  assign sa_ok = va_gnt & va_gnt_free;

  rr_sw_alloc #(.P(P), .V(V), .S(S), .SPEC(SPEC)) i_sw_alloc (
    .clk_i, .rst_ni,
    .req_i      (sa_req),
    .port_i     (sa_port),
    .cnt_i      (sa_cnt),
    .room_i     (room),
    .spec_i     (sa_spec),
    .ok_i       (sa_ok),
    .gnt_o      (sa_gnt),
    .lane_valid_o(sa_lane_valid),
    .lane_vc_o  (sa_lane_vc),
    .lane_idx_o (sa_lane_idx),
    .out_valid_o(sw_valid),
    .out_sel_o  (sw_sel)
  );

  rr_crossbar #(.NUM_IN(NUM_LANES), .NUM_OUT(NUM_LANES), .XBAR_W(XBAR_W)) i_crossbar (
    .in_i (xb_in),
    .sel_i(sw_sel),
    .out_o(xb_out)
  );

  // Per output port: a packet in VA or a flit in SA asks for it (the stall
  // statistic). One pass over the input VCs, each setting its port's bit
  // (a loop per port over every input VC cost the simulation 5 % of its
  // instructions on a 4x4 torus; docs/architecture.md, "RTL written for
  // simulation speed").
  logic [P-1:0] port_wanted;
  always_comb begin
    port_wanted = '0;
    for (int unsigned r = 0; r < R; r++) begin
      if (va_req[r]) port_wanted = port_wanted | (P'(1) << va_port[r*PW+:PW]);
      if (sa_req[r]) port_wanted = port_wanted | (P'(1) << sa_port[r*PW+:PW]);
    end
  end

  for (genvar o = 0; o < P; o++) begin : gen_out
    logic [S*W-1:0]   slot_data;
    logic [S-1:0]     slot_head, slot_tail;
    logic [S*VCW-1:0] slot_vc;
    for (genvar k = 0; k < S; k++) begin : gen_slot
      assign {slot_vc[k*VCW+:VCW], slot_tail[k], slot_head[k], slot_data[k*W+:W]} = xb_out[(o*S+k)*XBAR_W+:XBAR_W];
    end
    // The single-flit allocations of this port's VCs, as the port counts them.
    logic [V*FLIT_CNT_W-1:0] alloc_n;
    for (genvar w = 0; w < V; w++) begin : gen_alloc_n
      if (MULTI_GRANT) begin : gen_n
        assign alloc_n[w*FLIT_CNT_W+:FLIT_CNT_W] = FLIT_CNT_W'(out_alloc_n[(o*V+w)*GRANT_CNT_W+:GRANT_CNT_W]);
      end else begin : gen_zero
        assign alloc_n[w*FLIT_CNT_W+:FLIT_CNT_W] = '0;
      end
    end
    rr_output_port #(
      .V(V), .B(B), .W(W), .S(S), .OB(OB), .MULTI_GRANT(MULTI_GRANT), .SPEC(SPEC), .COUNT_HOP(o >= NUM_NI),
      .HOPS_LSB(HOPS_LSB), .HOPS_W(HOPS_W), .STAMP_LSB(STAMP_LSB),
      .STAMP_W((o >= NUM_NI && !STAMP_AT_REQUEST) ? STAMP_W : 0)
    ) i_output (
      .clk_i, .rst_ni,
      .now_i    (cycle_q),
      .send_i   (sw_valid[o*S+:S]),
      .data_i   (slot_data),
      .head_i   (slot_head),
      .tail_i   (slot_tail),
      .vc_i     (slot_vc),
      .room_o   (room[o*FLIT_CNT_W+:FLIT_CNT_W]),
      .alloc_i  (out_alloc[o*V+:V]),
      .alloc_n_i(alloc_n),
      .flit_o   (flit_o[o*LW+:LW]),
      .credit_i (credit_i[o*CRW+:CRW]),
      .busy_o   (out_busy[o*V+:V]),
      .handover_o(out_handover[o*V+:V]),
      .credits_o(out_credits[o*V*CREDIT_CNT_W+:V*CREDIT_CNT_W]),
      .singles_o(out_singles[o*V*CREDIT_CNT_W+:V*CREDIT_CNT_W])
    );

    always_comb begin
      occ_o[o*OCC_W+:OCC_W] = '0;
      for (int unsigned w = 0; w < V; w++) begin
        occ_o[o*OCC_W+:OCC_W] = occ_o[o*OCC_W+:OCC_W] + OCC_W'(B) - OCC_W'(out_credits[(o*V+w)*CREDIT_CNT_W+:CREDIT_CNT_W]);
      end
    end


    // The counters add last cycle's events (registered first), so that no
    // 32-bit carry chain hangs off the switch allocator's outputs.
    logic [31:0]   flits_q, stall_q;
    logic [FLIT_CNT_W-1:0] n_sent, sent_q;  // flits into the port this cycle, last cycle
    logic          stalled_q;
    always_comb begin
      n_sent = '0;
      for (int unsigned k = 0; k < S; k++) n_sent = n_sent + FLIT_CNT_W'(sw_valid[o*S+k]);
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        sent_q    <= '0;
        stalled_q <= 1'b0;
        flits_q   <= '0;
        stall_q   <= '0;
      end else begin
        sent_q    <= n_sent;
        stalled_q <= !(|sw_valid[o*S+:S]) && port_wanted[o];
        flits_q   <= flits_q + 32'(sent_q);
        if (stalled_q) stall_q <= stall_q + 1'b1;
      end
    end
    assign stat_flits_o[o*32+:32] = flits_q;
    assign stat_stall_o[o*32+:32] = stall_q;
  end

  if (!MULTI_GRANT) begin : gen_no_multi
    logic unused_alloc_n;
    assign unused_alloc_n = ^out_alloc_n;
  end

  assign vc_busy_o = out_busy;
  assign vc_credits_o = out_credits;
endmodule
