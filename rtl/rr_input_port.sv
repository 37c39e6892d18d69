// One router input port: a flit FIFO and a route FIFO per virtual channel,
// and per VC the state of its oldest packet: WAITING for an output VC, or
// ACTIVE, its flits asking for the switch.
// Route compute happens at buffer write: rc_* is a combinational round trip
// through the port's route unit, whose result enters the route FIFO in the
// cycle the head enters the flit FIFO, as the unit rewrote it (rc_hdr_i).
// Per VC one VC-allocation request (va_*) and one switch request for up to
// S flits (sa_*; lane_*_i name each crossbar lane's flit); a credit goes
// upstream for every flit popped (credit_o, registered).
// HEAD: a decision unit outside (hd_*) chooses between the route and an
// alternative when the packet asks for its output VC (HEAD_REG: through a
// register; CHOOSE: the unit names the port; HD_LATE: its answer comes a
// cycle later). SPEC: speculative switch requests (sa_spec_o).
// docs/architecture.md, "rr_input_port", has the behaviour and the timing.
module rr_input_port #(
  parameter int unsigned P = 5,        // router ports (width of out-port ids)
  parameter int unsigned V = 2,        // virtual channels
  parameter int unsigned B = 8,        // flits per VC buffer
  parameter int unsigned W = 64,       // flit data bits
  parameter int unsigned MIN_LEN = 2,  // shortest packet in flits (1: single-flit packets)
  parameter int unsigned S = 1,        // internal speedup: crossbar lanes
  parameter bit          REG_READ = 1'b0,  // VC buffers read through a register (block RAM; router.buffer_read)
  parameter int unsigned LEN_LSB = 0,  // packet-length field in the header flit
  parameter int unsigned LEN_W = 3,
  parameter bit          HEAD = 1'b0,     // decision at the head of the VC (see above)
  parameter bit          HEAD_REG = 1'b0, // HEAD: the decision goes through a register first
  parameter int unsigned DOW = 1,         // width of the decision operands
  parameter bit          PATCH = 1'b1,    // HEAD: the alternative route sets a header field (star: none)
  parameter int unsigned PATCH_LSB = 0,   // header field the alternative route sets
  parameter int unsigned PATCH_W = 1,
  parameter int unsigned PATCH_VAL = 1,
  parameter bit          CHOOSE = 1'b0,   // HEAD_REG: the decision unit names the port (see above)
  parameter bit          HD_LATE = 1'b0,  // HEAD_REG: the answer comes a cycle after the presentation
  parameter bit          SPEC = 1'b0,     // speculative switch allocation (see above)
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned IW = rr_pkg::id_width(S),  // a flit index behind the front, 0..S-1
  localparam int unsigned RW = $clog2(S + 1),        // a count of 0..S flits
  localparam int unsigned LW = rr_pkg::link_width(V, W),  // link flit (rr_pkg::LINK_*)
  localparam int unsigned CRW = rr_pkg::credit_width(V)     // credit (rr_pkg::CREDIT_*)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // link
  input  logic [LW-1:0]    flit_i,
  output logic [CRW-1:0]   credit_o,
  // route compute of the arriving head flit (combinational round trip
  // through the route unit; rc_valid_o marks a head flit on the link)
  output logic             rc_valid_o,
  output logic [W-1:0]     rc_hdr_o,
  output logic [VCW-1:0]   rc_in_vc_o,
  input  logic [PW-1:0]    rc_out_port_i,
  input  logic [V-1:0]     rc_out_vcs_i,
  input  logic [W-1:0]     rc_hdr_i,      // the head flit as the route unit rewrote it
  input  logic [PW-1:0]    rc_alt_port_i, // HEAD: the alternative route
  input  logic [V-1:0]     rc_alt_vcs_i,
  input  logic             rc_decide_i,   // HEAD: the choice between the two is open
  input  logic [DOW-1:0]   rc_operands_i,
  // HEAD: the packet that decides this cycle and the decision unit's answer
  output logic             hd_valid_o,
  output logic [PW-1:0]    hd_port_o,
  output logic [PW-1:0]    hd_alt_port_o,
  output logic [DOW-1:0]   hd_operands_o,
  input  logic             hd_alt_i,      // take the alternative (CHOOSE: patch the header)
  input  logic             hd_ready_i,    // the decision unit accepted this cycle's presentation
  output logic             hd_fresh_o,    // the presented packet has not been accepted before
  input  logic [PW-1:0]    hd_choice_i,   // CHOOSE: the port to take
  input  logic [PATCH_W-1:0] hd_patch_i,  // CHOOSE: the header field's value if it patches
  // VC allocation, one request per VC
  output logic [V-1:0]     va_req_o,
  output logic [V*PW-1:0]  va_port_o,
  output logic [V*V-1:0]   va_vcs_o,
  output logic [V*LEN_W-1:0] va_len_o,
  output logic [V-1:0]     va_rel_o,     // the active packet's tail is at the front: its output VC is releasing
  output logic [V*PW-1:0]  va_own_port_o,  // the port of the output VC the active packet holds
  output logic [V*VCW-1:0] va_own_vc_o,  // the output VC the active packet holds
  input  logic [V-1:0]     va_gnt_i,
  input  logic [V*VCW-1:0] va_vc_i,
  // switch allocation, one request per VC for up to S flits
  output logic [V-1:0]     sa_req_o,
  output logic [V-1:0]     sa_spec_o,    // SPEC: the request is speculative
  output logic [V*PW-1:0]  sa_port_o,
  output logic [V*RW-1:0]  sa_cnt_o,     // flits the VC can send this cycle (1..S)
  input  logic [V*RW-1:0]  sa_gnt_i,     // flits granted (a prefix of those offered)
  input  logic [S-1:0]     lane_valid_i, // per lane: it carries a granted flit,
  input  logic [S*VCW-1:0] lane_vc_i,    // of this VC,
  input  logic [S*IW-1:0]  lane_idx_i,   // this many places behind the front
  input  logic [V-1:0]     out_pend_i,   // the held output VC's previous tail has not left yet
  // per lane, the flit leaving through the crossbar (valid in the cycle of the grant)
  output logic [S*W-1:0]   xb_data_o,
  output logic [S-1:0]     xb_head_o,
  output logic [S-1:0]     xb_tail_o,
  output logic [S*VCW-1:0] xb_vc_o,
  // per VC: the flits in its buffer (DQN-routing's observation)
  output logic [V*$clog2(B+1)-1:0] occ_o
);
  localparam int unsigned RD = (B / MIN_LEN > 0) ? B / MIN_LEN : 1;  // routes per VC
  localparam bit          LOOK = HEAD && HEAD_REG && RD >= 2;           // the second route decides ahead
  // Routes read per VC, each with its own decision register (a slot): the
  // oldest, the one behind it (LOOK) and, with HD_LATE, a third one, which
  // is presented while the second one's answer is on its way.
  localparam int unsigned RR = !LOOK ? 1 : (HD_LATE && RD >= 3) ? 3 : 2;
  localparam int unsigned RPW = $clog2(RR + 1);                         // routes popped (0..RR)
  localparam int unsigned SW = rr_pkg::id_width(RR);                   // a slot index
  // A route: {len, vcs, port}, with HEAD {operands, decide, alt_vcs, alt_port, len, vcs, port}.
  localparam int unsigned BRW = LEN_W + V + PW;
  localparam int unsigned RTW = HEAD ? BRW + PW + V + 1 + DOW : BRW;

  logic           in_valid, in_head, in_tail;
  logic [VCW-1:0] in_vc;
  logic [W-1:0]   in_data;
  assign in_valid = flit_i[rr_pkg::LINK_VALID];
  assign in_head  = flit_i[rr_pkg::LINK_HEAD];
  assign in_tail  = flit_i[rr_pkg::LINK_TAIL];
  assign in_vc    = flit_i[rr_pkg::LINK_VC_LSB+:VCW];
  assign in_data  = flit_i[rr_pkg::link_data_lsb(V)+:W];

  assign rc_valid_o = in_valid && in_head;
  assign rc_hdr_o   = in_data;
  assign rc_in_vc_o = in_vc;

  logic [RTW-1:0] route_in;
  if (HEAD) begin : gen_route_alt
    assign route_in = {rc_operands_i, rc_decide_i, rc_alt_vcs_i, rc_alt_port_i,
                       in_data[LEN_LSB+:LEN_W], rc_out_vcs_i, rc_out_port_i};
  end else begin : gen_route
    assign route_in = {in_data[LEN_LSB+:LEN_W], rc_out_vcs_i, rc_out_port_i};
    logic unused_alt;
    assign unused_alt = ^{rc_alt_port_i, rc_alt_vcs_i, rc_decide_i, rc_operands_i, hd_alt_i, hd_ready_i,
                          hd_choice_i, hd_patch_i};
  end

  logic [V-1:0]   active_q, next_q;
  logic [V-1:0]   wait_q;  // ACTIVE, and its output VC may still carry the previous holder's tail
  logic [PW-1:0]  port_q   [V];
  logic [VCW-1:0] out_vc_q [V];
  logic [PW-1:0]  next_port_q [V];  // the next packet's allocation, while next_q
  logic [VCW-1:0] next_vc_q   [V];

  logic [W+1:0]   front    [V][S];  // the first S flits of each buffer, {tail, head, data}
  logic [RW-1:0]  npop     [V];     // flits popped this cycle
  logic [RTW-1:0] route    [V];     // the route of the oldest unallocated packet
  logic [RTW-1:0] pres_route [V];   // HEAD: the route the VC presents to the decision unit
  logic [V-1:0]   empty, push, pop, route_empty, route_push;
  // Head decisions: a VC wants a decision (wants) and presents one this
  // cycle (hd_pick): the route in slot pres_slot, fresh if that packet has
  // no decision yet, registered or on its way. The oldest packet has decided
  // (decided_q, alt_q), and the alternative applies to the active and the
  // next packet's head (act_alt_q, next_alt_q).
  logic [V-1:0]   eligible, wants, hd_pick, hd_take, take_alt, fresh;
  logic [V-1:0]   decided_q, alt_q, act_alt_q, next_alt_q;
  logic [SW-1:0]  pres_slot [V];
  logic [PW-1:0]  req_port [V];  // the route this cycle's request asks for
  // CHOOSE: the decided port and patch value of the oldest packet; the patch
  // value of the active and next packets.
  logic [PW-1:0]      choice_q [V];
  logic [PATCH_W-1:0] patch_q [V];
  logic [PATCH_W-1:0] act_patch_q [V];
  logic [PATCH_W-1:0] next_patch_q [V];
  assign hd_take = hd_pick & {V{hd_ready_i}};
  if (HEAD && !CHOOSE) begin : gen_not_chosen
    logic unused_chosen;
    assign unused_chosen = ^{hd_choice_i, hd_patch_i};
  end

  for (genvar v = 0; v < V; v++) begin : gen_vc
    logic [$clog2(B+1)-1:0]  count;
    logic [$clog2(RD+1)-1:0] route_count;
    logic [RR*RTW-1:0]       routes;
    logic                    unused_full, unused_route_full;
    logic [S*(W+2)-1:0]      fronts;

    assign push[v]       = in_valid && (in_vc == VCW'(v));
    assign route_push[v] = push[v] && in_head;
    assign npop[v]       = sa_gnt_i[v*RW+:RW];
    assign pop[v]        = npop[v] != '0;

    rr_fifo #(.WIDTH(W + 2), .DEPTH(B), .READS(S), .REG_READ(REG_READ)) i_fifo (
      .clk_i, .rst_ni,
      .push_i (push[v]),
      .data_i ({in_tail, in_head, in_head ? rc_hdr_i : in_data}),
      .pop_i  (npop[v]),
      .data_o (fronts),
      .empty_o(empty[v]),
      .full_o (unused_full),
      .count_o(count)
    );
    assign occ_o[v*$clog2(B+1)+:$clog2(B+1)] = count;
    for (genvar k = 0; k < S; k++) begin : gen_front
      assign front[v][k] = fronts[k*(W+2)+:W+2];
    end

    // The flits the VC can send this cycle: those of the active packet among
    // the first S in its buffer (the tail ends them).
    always_comb begin
      logic stop;
      stop = 1'b0;
      sa_cnt_o[v*RW+:RW] = '0;
      for (int unsigned k = 0; k < S; k++) begin
        if (!stop && count > ($clog2(B+1))'(k)) begin
          sa_cnt_o[v*RW+:RW] = RW'(k + 1);
          stop = front[v][k][W+1];
        end
      end
    end

    rr_fifo #(.WIDTH(RTW), .DEPTH(RD), .READS(RR)) i_route_fifo (
      .clk_i, .rst_ni,
      .push_i (route_push[v]),
      .data_i (route_in),
      .pop_i  (RPW'(va_gnt_i[v])),
      .data_o (routes),
      .empty_o(route_empty[v]),
      .full_o (unused_route_full),
      .count_o(route_count)
    );
    assign route[v] = routes[0+:RTW];

    logic tail_at_front, tail_out;
    assign tail_at_front = !empty[v] && front[v][0][W+1];
    // Popped flits are a prefix of the active packet's: the tail is the last.
    always_comb begin
      tail_out = 1'b0;
      for (int unsigned k = 0; k < S; k++) begin
        if (npop[v] == RW'(k + 1)) tail_out = front[v][k][W+1];
      end
    end

    assign eligible[v] = !route_empty[v] && (!active_q[v] || (tail_at_front && !next_q[v]));
    if (HEAD) begin : gen_head
      // The decision slots of the routes read (slot 0: the oldest), packed
      // slot by slot: decided, the alternative and, with CHOOSE, the port and
      // the header field's value.
      logic [RR-1:0]         dec_q, salt_q;
      logic [RR*PW-1:0]      schoice_q;
      logic [RR*PATCH_W-1:0] spatch_q;
      // The answer that arrives this cycle (ans_now) and the slot it is for
      // (ans_slot); without HD_LATE, this cycle's presentation's. HD_LATE:
      // an answer on its way counts as that slot's decision for what the VC
      // presents (late), so the VC presents the packet behind it meanwhile
      // and no packet is fresh twice.
      logic          ans_now;
      logic [SW-1:0] ans_slot;
      logic [RR-1:0] late;
      if (HD_LATE) begin : gen_late
        logic          pend_q;
        logic [SW-1:0] pend_slot_q;
        always_ff @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            pend_q      <= 1'b0;
            pend_slot_q <= '0;
          end else begin
            // A grant this cycle moves the presented packet up a slot, or takes it.
            pend_q      <= hd_take[v] && (pres_slot[v] != '0 || !va_gnt_i[v]);
            pend_slot_q <= pres_slot[v] - SW'(va_gnt_i[v]);
          end
        end
        assign ans_now  = pend_q;
        assign ans_slot = pend_slot_q;
        for (genvar k = 0; k < RR; k++) begin : gen_late_slot
          assign late[k] = pend_q && pend_slot_q == SW'(k);
        end
      end else begin : gen_now
        assign ans_now  = hd_take[v];
        assign ans_slot = pres_slot[v];
        assign late     = '0;
      end
      // Per slot: its packet's choice is open, it owes no presentation (no
      // open choice, decided, or the answer on its way), and this cycle's
      // answer lands in it (a grant moves every slot up by one).
      logic [RR-1:0] open, settled, land;
      for (genvar k = 0; k < RR; k++) begin : gen_slot
        assign open[k]    = 32'(route_count) > k && routes[k*RTW+BRW+PW+V];
        assign settled[k] = !open[k] || dec_q[k] || late[k];
        assign land[k]    = ans_now && 32'(ans_slot) == k + 32'(va_gnt_i[v]);
      end
      assign decided_q[v] = dec_q[0];
      assign alt_q[v]     = salt_q[0];
      assign choice_q[v]  = schoice_q[0+:PW];
      assign patch_q[v]   = spatch_q[0+:PATCH_W];
      if (HEAD_REG) begin : gen_registered
        // The first slot that owes a presentation; if none, the oldest
        // packet renews its decision.
        always_comb begin
          pres_slot[v] = '0;
          for (int k = RR - 1; k >= 0; k--) begin
            if (!settled[k]) pres_slot[v] = SW'(k);
          end
        end
        // Renew the oldest packet's decision only while no answer for it
        // is on its way (HD_LATE: that renewal would bring nothing newer).
        assign wants[v]    = (open[0] && !late[0]) || !(&settled);
        assign fresh[v]    = !(&settled);
        assign take_alt[v] = decided_q[v] && alt_q[v];
        assign va_req_o[v] = eligible[v] && (!open[0] || decided_q[v]);
      end else begin : gen_in_front
        assign pres_slot[v] = '0;
        assign wants[v]     = eligible[v] && open[0] && !decided_q[v];
        assign fresh[v]     = 1'b1;
        assign take_alt[v]  = decided_q[v] ? alt_q[v] : (hd_take[v] && hd_alt_i);
        assign va_req_o[v]  = eligible[v] && (!open[0] || decided_q[v] || hd_take[v]);
        logic unused_settled;
        assign unused_settled = ^settled;
      end
      always_comb begin
        pres_route[v] = routes[0+:RTW];
        for (int unsigned k = 1; k < RR; k++) begin
          if (pres_slot[v] == SW'(k)) pres_route[v] = routes[k*RTW+:RTW];
        end
      end
      if (CHOOSE) begin : gen_chosen
        assign req_port[v] = decided_q[v] ? choice_q[v] : route[v][0+:PW];
      end else begin : gen_alt
        assign req_port[v] = take_alt[v] ? route[v][BRW+:PW] : route[v][0+:PW];
      end
      assign va_vcs_o[v*V+:V] = take_alt[v] ? route[v][BRW+PW+:V] : route[v][PW+:V];
      // A grant pops the oldest route: every slot takes over the one behind
      // it (with this cycle's answer if it lands there).
      logic [RR-1:0] dec_up, salt_up;
      assign dec_up  = va_gnt_i[v] ? dec_q >> 1 : dec_q;
      assign salt_up = va_gnt_i[v] ? salt_q >> 1 : salt_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          dec_q  <= '0;
          salt_q <= '0;
        end else begin
          for (int unsigned k = 0; k < RR; k++) begin
            dec_q[k]  <= dec_up[k] || land[k];
            salt_q[k] <= land[k] ? hd_alt_i : salt_up[k];
          end
        end
      end
      if (CHOOSE) begin : gen_choice
        // The chosen port and patch value follow dec_q.
        logic [RR*PW-1:0]      schoice_up;
        logic [RR*PATCH_W-1:0] spatch_up;
        assign schoice_up = va_gnt_i[v] ? schoice_q >> PW : schoice_q;
        assign spatch_up  = va_gnt_i[v] ? spatch_q >> PATCH_W : spatch_q;
        always_ff @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            schoice_q <= '0;
            spatch_q  <= '0;
          end else begin
            for (int unsigned k = 0; k < RR; k++) begin
              schoice_q[k*PW+:PW]          <= land[k] ? hd_choice_i : schoice_up[k*PW+:PW];
              spatch_q[k*PATCH_W+:PATCH_W] <= land[k] ? hd_patch_i : spatch_up[k*PATCH_W+:PATCH_W];
            end
          end
        end
      end else begin : gen_no_choice
        assign schoice_q = '0;
        assign spatch_q  = {RR{PATCH_W'(PATCH_VAL)}};
        logic unused_choice;
        assign unused_choice = ^{schoice_q, spatch_q, choice_q[v], patch_q[v]};
      end
    end else begin : gen_no_head
      assign wants[v]      = 1'b0;
      assign fresh[v]      = 1'b0;
      assign pres_slot[v]  = '0;
      assign pres_route[v] = route[v];
      assign take_alt[v]   = 1'b0;
      assign va_req_o[v]   = eligible[v];
      assign req_port[v]   = route[v][0+:PW];
      assign va_vcs_o[v*V+:V] = route[v][PW+:V];
      assign decided_q[v]  = 1'b0;
      assign alt_q[v]      = 1'b0;
      assign choice_q[v]   = '0;
      assign patch_q[v]    = PATCH_W'(PATCH_VAL);
      logic unused_choice;
      assign unused_choice = ^{choice_q[v], patch_q[v], decided_q[v], alt_q[v], pres_slot[v]};
      logic unused_count;
      assign unused_count = ^{route_count, routes};
    end
    assign va_rel_o[v]              = active_q[v] && tail_at_front;
    assign va_own_port_o[v*PW+:PW]  = port_q[v];
    assign va_own_vc_o[v*VCW+:VCW]  = out_vc_q[v];
    assign va_port_o[v*PW+:PW]      = req_port[v];
    assign va_len_o[v*LEN_W+:LEN_W] = route[v][PW+V+:LEN_W];

    // SPEC: a WAITING VC that asks for an output VC asks for the switch too.
    assign sa_spec_o[v]        = SPEC && !active_q[v] && va_req_o[v];
    assign sa_req_o[v]         = (active_q[v] && !empty[v] && !(wait_q[v] && out_pend_i[v])) || sa_spec_o[v];
    assign sa_port_o[v*PW+:PW] = (SPEC && !active_q[v]) ? req_port[v] : port_q[v];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        active_q[v]    <= 1'b0;
        next_q[v]      <= 1'b0;
        port_q[v]      <= '0;
        out_vc_q[v]    <= '0;
        next_port_q[v] <= '0;
        next_vc_q[v]   <= '0;
        act_alt_q[v]   <= 1'b0;
        next_alt_q[v]  <= 1'b0;
        wait_q[v]      <= 1'b0;
      end else if (!active_q[v] || (va_gnt_i[v] && tail_out)) begin
        // idle, or the next packet's grant arrives as the tail leaves (SPEC:
        // an idle VC's packet may leave whole in the cycle of its grant)
        wait_q[v] <= va_gnt_i[v] && (!SPEC || active_q[v] || !tail_out);
        if (va_gnt_i[v]) begin
          active_q[v]  <= !SPEC || active_q[v] || !tail_out;
          port_q[v]    <= req_port[v];
          out_vc_q[v]  <= va_vc_i[v*VCW+:VCW];
          act_alt_q[v] <= take_alt[v];
        end else begin
          active_q[v] <= 1'b0;
        end
      end else if (va_gnt_i[v]) begin
        // granted for the next packet while the tail waits at the front
        if (!out_pend_i[v]) wait_q[v] <= 1'b0;
        next_q[v]      <= 1'b1;
        next_port_q[v] <= req_port[v];
        next_vc_q[v]   <= va_vc_i[v*VCW+:VCW];
        next_alt_q[v]  <= take_alt[v];
      end else if (tail_out) begin
        active_q[v]  <= next_q[v];
        wait_q[v]    <= next_q[v];
        next_q[v]    <= 1'b0;
        port_q[v]    <= next_port_q[v];
        out_vc_q[v]  <= next_vc_q[v];
        act_alt_q[v] <= next_alt_q[v];
      end else if (!out_pend_i[v]) begin
        wait_q[v] <= 1'b0;  // the previous holder's tail has left
      end
    end
    if (HEAD && CHOOSE) begin : gen_act_patch
      // The patch value travels with act_alt_q / next_alt_q.
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          act_patch_q[v]  <= '0;
          next_patch_q[v] <= '0;
        end else if (!active_q[v] || (va_gnt_i[v] && tail_out)) begin
          if (va_gnt_i[v]) act_patch_q[v] <= patch_q[v];
        end else if (va_gnt_i[v]) begin
          next_patch_q[v] <= patch_q[v];
        end else if (tail_out) begin
          act_patch_q[v] <= next_patch_q[v];
        end
      end
    end else begin : gen_const_patch
      assign act_patch_q[v]  = PATCH_W'(PATCH_VAL);
      assign next_patch_q[v] = PATCH_W'(PATCH_VAL);
      logic unused_next_patch;
      assign unused_next_patch = ^next_patch_q[v];
    end
  end

  // Head decisions: one VC per cycle presents its open choice. A packet
  // never presented goes before a renewal (HEAD_REG): a renewal only
  // refreshes a decision its packet already has, while a packet never
  // presented cannot ask for its output VC at all.
  if (HEAD) begin : gen_hd
    logic [V-1:0] wants_fresh, hd_req;
    assign wants_fresh = wants & fresh;
    assign hd_req      = (|wants_fresh) ? wants_fresh : wants;
    rr_arbiter_rr #(.N(V)) i_hd_arb (
      .clk_i, .rst_ni,
      .req_i    (hd_req),
      .advance_i(1'b1),
      .gnt_o    (hd_pick)
    );
    always_comb begin
      hd_port_o     = '0;
      hd_alt_port_o = '0;
      hd_operands_o = '0;
      hd_fresh_o    = 1'b0;
      for (int unsigned v = 0; v < V; v++) begin
        if (hd_pick[v]) begin
          hd_fresh_o    = fresh[v];
          hd_port_o     = hd_port_o | pres_route[v][0+:PW];
          hd_alt_port_o = hd_alt_port_o | pres_route[v][BRW+:PW];
          hd_operands_o = hd_operands_o | pres_route[v][BRW+PW+V+1+:DOW];
        end
      end
    end
  end else begin : gen_no_hd
    assign hd_pick       = '0;
    assign hd_port_o     = '0;
    assign hd_alt_port_o = '0;
    assign hd_operands_o = '0;
    assign hd_fresh_o    = 1'b0;
    logic unused_hd;
    assign unused_hd = ^{wants, fresh, hd_take};
    for (genvar v = 0; v < V; v++) begin : gen_unused_route
      logic unused_route;
      assign unused_route = ^pres_route[v];
    end
  end
  assign hd_valid_o = |hd_pick;

  // The head as it leaves: the alternative route's header field set.
  function automatic logic [W-1:0] leaving(input logic [W+1:0] f, input logic alt, input logic [PATCH_W-1:0] val);
    leaving = f[W-1:0];
    if (HEAD && PATCH && f[W] && alt) leaving[PATCH_LSB+:PATCH_W] = val;
  endfunction

  // Crossbar inputs: per lane, the flit the switch allocator granted it.
  for (genvar m = 0; m < S; m++) begin : gen_lane
    always_comb begin
      xb_data_o[m*W+:W]   = '0;
      xb_head_o[m]        = 1'b0;
      xb_tail_o[m]        = 1'b0;
      xb_vc_o[m*VCW+:VCW] = '0;
      for (int unsigned v = 0; v < V; v++) begin
        for (int unsigned k = 0; k < S; k++) begin
          if (lane_valid_i[m] && lane_vc_i[m*VCW+:VCW] == VCW'(v) && lane_idx_i[m*IW+:IW] == IW'(k)) begin
            if (SPEC && !active_q[v]) begin  // a speculation that won: this cycle's grant
              xb_data_o[m*W+:W]   = leaving(front[v][k], take_alt[v], patch_q[v]);
              xb_vc_o[m*VCW+:VCW] = va_vc_i[v*VCW+:VCW];
            end else begin
              xb_data_o[m*W+:W]   = leaving(front[v][k], act_alt_q[v], act_patch_q[v]);
              xb_vc_o[m*VCW+:VCW] = out_vc_q[v];
            end
            xb_head_o[m]        = front[v][k][W];
            xb_tail_o[m]        = front[v][k][W+1];
          end
        end
      end
    end
  end

  // One credit per popped flit, registered.
  logic           credit_valid_q;
  logic [VCW-1:0] credit_vc_q;
  if (S == 1) begin : gen_credit
    // At most one pop per cycle: its credit goes out in the next cycle.
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        credit_valid_q <= 1'b0;
        credit_vc_q    <= '0;
      end else begin
        credit_valid_q <= |pop;
        credit_vc_q    <= '0;
        for (int unsigned v = 0; v < V; v++) begin
          if (pop[v]) credit_vc_q <= VCW'(v);
        end
      end
    end
  end else begin : gen_credit_queue
    // Credits owed per VC; one goes out per cycle (this cycle's pops count).
    localparam int unsigned OWW = $clog2(B + 1);
    logic [OWW-1:0] owed_q [V];
    logic [V-1:0]   owed, pick;
    for (genvar v = 0; v < V; v++) begin : gen_owed
      assign owed[v] = (owed_q[v] != '0) || pop[v];
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) owed_q[v] <= '0;
        else owed_q[v] <= owed_q[v] + OWW'(npop[v]) - OWW'(pick[v]);
      end
    end
    rr_arbiter_rr #(.N(V)) i_credit_arb (
      .clk_i, .rst_ni,
      .req_i    (owed),
      .advance_i(1'b1),
      .gnt_o    (pick)
    );
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        credit_valid_q <= 1'b0;
        credit_vc_q    <= '0;
      end else begin
        credit_valid_q <= |owed;
        credit_vc_q    <= '0;
        for (int unsigned v = 0; v < V; v++) begin
          if (pick[v]) credit_vc_q <= VCW'(v);
        end
      end
    end
  end
  always_comb begin
    credit_o = '0;
    credit_o[rr_pkg::CREDIT_VALID]         = credit_valid_q;
    credit_o[rr_pkg::CREDIT_VC_LSB+:VCW]   = credit_vc_q;
  end
endmodule
