// One router input port: a flit FIFO and a route FIFO per virtual channel,
// and per VC the state of its oldest packet: WAITING for an output VC, or
// ACTIVE, its flits asking for the switch.
// Route compute happens at buffer write: rc_* is a combinational round trip
// through the port's route unit, whose result enters the route FIFO in the
// cycle the head enters the flit FIFO, as the unit rewrote it (rc_hdr_i).
// Per VC one VC-allocation request (va_*) and one switch request for up to
// S flits (sa_*; lane_*_i name each crossbar lane's flit); a credit goes
// upstream for every flit popped (credit_o, registered).
// DECIDE: a decision unit outside (hd_*, through rr_head_decision) chooses
// between the route and an alternative when the packet asks for its output
// VC. SPEC: speculative switch requests (sa_spec_o). STAMP_W: a leaving
// head's time stamp is the cycle its packet first asked for an output VC
// (Q-adaptive's routing.q_stamp = "request").
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
  parameter bit          SPEC = 1'b0,     // speculative switch allocation (see above)
  // The decision at the head of the VC (rr_head_decision has the contract)
  parameter bit          DECIDE = 1'b0,         // a decision unit serves this port
  parameter int unsigned DECIDE_CYCLES = 1,     // 0, 1 or 2: rr_head_decision CYCLES
  parameter bit          ANSWER_PORT = 1'b0,    // the answer names the port
  parameter int unsigned DOW = 1,               // width of the decision operands
  parameter int unsigned FIELD_LSB = 0,         // the header field an alternative sets ...
  parameter int unsigned FIELD_W = 0,           // ... (0: none) to the answer's value
  parameter int unsigned STAMP_LSB = 0,         // the header field a leaving head's stamp ...
  parameter int unsigned STAMP_W = 0,           // ... (0: none) is set to: its first VC request's cycle
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned FLIT_IDX_W = rr_pkg::id_width(S),  // a flit index behind the front, 0..S-1
  localparam int unsigned FLIT_CNT_W = $clog2(S + 1),        // a count of 0..S flits
  localparam int unsigned LW = rr_pkg::link_width(V, W),  // link flit (rr_pkg::LINK_*)
  localparam int unsigned CRW = rr_pkg::credit_width(V),    // credit (rr_pkg::CREDIT_*)
  localparam int unsigned PATCH_W = (FIELD_W > 0) ? FIELD_W : 1,  // the answer's field value
  localparam int unsigned STAMP_PW = (STAMP_W > 0) ? STAMP_W : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [31:0]      now_i,         // the router's cycle counter (STAMP_W)
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
  input  logic [PW-1:0]    rc_alt_port_i, // DECIDE: the alternative route
  input  logic [V-1:0]     rc_alt_vcs_i,
  input  logic             rc_decide_i,   // DECIDE: the choice between the two is open
  input  logic [DOW-1:0]   rc_operands_i,
  // DECIDE: the packet that decides this cycle and the decision unit's answer
  output logic             hd_valid_o,
  output logic [PW-1:0]    hd_port_o,
  output logic [PW-1:0]    hd_alt_port_o,
  output logic [DOW-1:0]   hd_operands_o,
  input  logic             hd_alt_i,      // take the alternative (ANSWER_PORT: patch the header)
  input  logic             hd_ready_i,    // the decision unit accepted this cycle's presentation
  output logic             hd_fresh_o,    // the presented packet has not been accepted before
  input  logic [PW-1:0]    hd_choice_i,   // ANSWER_PORT: the port to take
  input  logic [PATCH_W-1:0]    hd_patch_i,    // ANSWER_PORT: the header field's value if it patches
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
  output logic [V*FLIT_CNT_W-1:0]  sa_cnt_o,     // flits the VC can send this cycle (1..S)
  input  logic [V*FLIT_CNT_W-1:0]  sa_gnt_i,     // flits granted (a prefix of those offered)
  input  logic [S-1:0]     lane_valid_i, // per lane: it carries a granted flit,
  input  logic [S*VCW-1:0] lane_vc_i,    // of this VC,
  input  logic [S*FLIT_IDX_W-1:0]  lane_idx_i,   // this many places behind the front
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
  localparam bit          LOOK = DECIDE && DECIDE_CYCLES != 0 && RD >= 2;  // the second route decides ahead
  // Routes read per VC, each with its own decision slot: the oldest, the
  // one behind it (LOOK) and, when the answer comes a cycle late, a third
  // one, which is presented while the second one's answer is on its way.
  localparam int unsigned RR = !LOOK ? 1 : (DECIDE_CYCLES == 2 && RD >= 3) ? 3 : 2;
  localparam int unsigned POP_CNT_W = $clog2(RR + 1);                         // routes popped (0..RR)
  localparam int unsigned ROUTE_CNT_W = $clog2(RD + 1);                         // a count of routes
  // A route: {len, vcs, port}, with DECIDE {operands, decide, alt_vcs, alt_port, len, vcs, port}.
  localparam int unsigned BRW = LEN_W + V + PW;
  localparam int unsigned RTW = DECIDE ? BRW + PW + V + 1 + DOW : BRW;

  logic           in_valid, in_head, in_tail;
  logic [VCW-1:0] in_vc;
  logic [W-1:0]   in_data;
  assign now      = now_i[STAMP_PW-1:0];
  assign in_valid = flit_i[rr_pkg::LINK_VALID];
  assign in_head  = flit_i[rr_pkg::LINK_HEAD];
  assign in_tail  = flit_i[rr_pkg::LINK_TAIL];
  assign in_vc    = flit_i[rr_pkg::LINK_VC_LSB+:VCW];
  assign in_data  = flit_i[rr_pkg::link_data_lsb(V)+:W];

  assign rc_valid_o = in_valid && in_head;
  assign rc_hdr_o   = in_data;
  assign rc_in_vc_o = in_vc;

  logic [RTW-1:0] route_in;
  if (DECIDE) begin : gen_route_alt
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
  logic [FLIT_CNT_W-1:0]  npop     [V];     // flits popped this cycle
  logic [RTW-1:0] route    [V];     // the route of the oldest unallocated packet
  logic [V-1:0]   empty, push, pop, route_empty, route_push;
  logic [V-1:0]   eligible;         // the oldest packet may ask for an output VC
  logic [V*RR*RTW-1:0] routes_all;  // every VC's routes read, for the decision
  logic [V*ROUTE_CNT_W-1:0]    counts_all;
  // The oldest packet's request (req_port), whether it takes the alternative
  // (take_alt) and the value the field takes then (field); the alternative
  // applies to the active and the next packet's head (act_*, next_*).
  logic [PW-1:0]  req_port [V];
  logic [V-1:0]   take_alt, act_alt_q, next_alt_q;
  logic [PATCH_W-1:0]  field [V];
  // STAMP_W: the cycle the oldest packet first asked for an output VC (now,
  // if it asks for the first time).
  logic [STAMP_PW-1:0] now;
  logic [STAMP_PW-1:0] asked_at [V];
  // What the active and the next packet's head is given as it leaves,
  // {field, stamp}: set at the VC grant, it travels with act_alt_q / next_alt_q.
  localparam int unsigned GIVEN_W = PATCH_W + STAMP_PW;
  logic [GIVEN_W-1:0]  act_given_q [V];
  logic [GIVEN_W-1:0]  next_given_q [V];

  for (genvar v = 0; v < V; v++) begin : gen_vc
    logic [$clog2(B+1)-1:0]  count;
    logic [$clog2(RD+1)-1:0] route_count;
    logic [RR*RTW-1:0]       routes;
    logic                    unused_full, unused_route_full;
    logic [S*(W+2)-1:0]      fronts;

    assign push[v]       = in_valid && (in_vc == VCW'(v));
    assign route_push[v] = push[v] && in_head;
    assign npop[v]       = sa_gnt_i[v*FLIT_CNT_W+:FLIT_CNT_W];
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
      sa_cnt_o[v*FLIT_CNT_W+:FLIT_CNT_W] = '0;
      for (int unsigned k = 0; k < S; k++) begin
        if (!stop && count > ($clog2(B+1))'(k)) begin
          sa_cnt_o[v*FLIT_CNT_W+:FLIT_CNT_W] = FLIT_CNT_W'(k + 1);
          stop = front[v][k][W+1];
        end
      end
    end

    rr_fifo #(.WIDTH(RTW), .DEPTH(RD), .READS(RR)) i_route_fifo (
      .clk_i, .rst_ni,
      .push_i (route_push[v]),
      .data_i (route_in),
      .pop_i  (POP_CNT_W'(va_gnt_i[v])),
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
        if (npop[v] == FLIT_CNT_W'(k + 1)) tail_out = front[v][k][W+1];
      end
    end

    assign eligible[v] = !route_empty[v] && (!active_q[v] || (tail_at_front && !next_q[v]));
    assign routes_all[v*RR*RTW+:RR*RTW] = routes;
    assign counts_all[v*ROUTE_CNT_W+:ROUTE_CNT_W]       = route_count;
    if (!DECIDE) begin : gen_no_decision
      assign va_req_o[v]      = eligible[v];
      assign req_port[v]      = route[v][0+:PW];
      assign va_vcs_o[v*V+:V] = route[v][PW+:V];
      assign take_alt[v]      = 1'b0;
      assign field[v]         = PATCH_W'(1);
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
    if (STAMP_W > 0) begin : gen_asked
      // The wait for the output port the packet asks for starts with its
      // first request; a grant ends it.
      logic                asked_q;
      logic [STAMP_PW-1:0] asked_at_q;
      assign asked_at[v] = asked_q ? asked_at_q : now;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          asked_q    <= 1'b0;
          asked_at_q <= '0;
        end else if (va_gnt_i[v]) begin
          asked_q <= 1'b0;
        end else if (va_req_o[v] && !asked_q) begin
          asked_q    <= 1'b1;
          asked_at_q <= now;
        end
      end
    end else begin : gen_no_asked
      assign asked_at[v] = '0;
    end
    if (DECIDE || STAMP_W > 0) begin : gen_given
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          act_given_q[v]  <= {PATCH_W'(1), STAMP_PW'(0)};
          next_given_q[v] <= {PATCH_W'(1), STAMP_PW'(0)};
        end else if (!active_q[v] || (va_gnt_i[v] && tail_out)) begin
          if (va_gnt_i[v]) act_given_q[v] <= {field[v], asked_at[v]};
        end else if (va_gnt_i[v]) begin
          next_given_q[v] <= {field[v], asked_at[v]};
        end else if (tail_out) begin
          act_given_q[v] <= next_given_q[v];
        end
      end
    end else begin : gen_no_given
      assign act_given_q[v]  = {PATCH_W'(1), STAMP_PW'(0)};
      assign next_given_q[v] = {PATCH_W'(1), STAMP_PW'(0)};
      logic unused_given;
      assign unused_given = ^{field[v], asked_at[v], next_given_q[v]};
    end
  end
  if (STAMP_W == 0) begin : gen_unused_now
    logic unused_now;
    assign unused_now = ^{now_i[31:1], now};
  end else if (STAMP_W < 32) begin : gen_unused_now_msbs
    logic unused_now;
    assign unused_now = ^now_i[31:STAMP_PW];
  end

  if (DECIDE) begin : gen_decision
    logic [V*PW-1:0] req_ports;
    logic [V*PATCH_W-1:0] fields;
    rr_head_decision #(
      .P(P), .V(V), .LEN_W(LEN_W), .DOW(DOW), .DEPTH(RD), .SLOTS(RR), .CYCLES(DECIDE_CYCLES),
      .ANSWER_PORT(ANSWER_PORT), .PATCH_W(PATCH_W)
    ) i_decision (
      .clk_i, .rst_ni,
      .routes_i     (routes_all),
      .count_i      (counts_all),
      .eligible_i   (eligible),
      .va_gnt_i,
      .hd_valid_o, .hd_port_o, .hd_alt_port_o, .hd_operands_o, .hd_fresh_o,
      .hd_ready_i, .hd_alt_i, .hd_choice_i, .hd_patch_i,
      .req_o        (va_req_o),
      .req_port_o   (req_ports),
      .req_vcs_o    (va_vcs_o),
      .alt_o        (take_alt),
      .field_o      (fields)
    );
    for (genvar v = 0; v < V; v++) begin : gen_req
      assign req_port[v] = req_ports[v*PW+:PW];
      assign field[v]    = fields[v*PATCH_W+:PATCH_W];
    end
  end else begin : gen_no_hd
    assign hd_valid_o    = 1'b0;
    assign hd_port_o     = '0;
    assign hd_alt_port_o = '0;
    assign hd_operands_o = '0;
    assign hd_fresh_o    = 1'b0;
    logic unused_hd;
    assign unused_hd = ^{routes_all, counts_all};
  end

  // The head as it leaves: the alternative route's header field set, and the stamp.
  function automatic logic [W-1:0] leaving(input logic [W+1:0] f, input logic alt, input logic [PATCH_W-1:0] val,
                                           input logic [STAMP_PW-1:0] stamp);
    leaving = f[W-1:0];
    if (DECIDE && FIELD_W > 0 && f[W] && alt) leaving[FIELD_LSB+:PATCH_W] = val;
    if (STAMP_W > 0 && f[W]) leaving[STAMP_LSB+:STAMP_PW] = stamp;
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
          if (lane_valid_i[m] && lane_vc_i[m*VCW+:VCW] == VCW'(v) && lane_idx_i[m*FLIT_IDX_W+:FLIT_IDX_W] == FLIT_IDX_W'(k)) begin
            if (SPEC && !active_q[v]) begin  // a speculation that won: this cycle's grant
              xb_data_o[m*W+:W]   = leaving(front[v][k], take_alt[v], field[v], asked_at[v]);
              xb_vc_o[m*VCW+:VCW] = va_vc_i[v*VCW+:VCW];
            end else begin
              xb_data_o[m*W+:W]   = leaving(front[v][k], act_alt_q[v], act_given_q[v][STAMP_PW+:PATCH_W], act_given_q[v][0+:STAMP_PW]);
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
    localparam int unsigned CREDIT_CNT_W = $clog2(B + 1);
    logic [CREDIT_CNT_W-1:0] owed_q [V];
    logic [V-1:0]   owed, pick;
    for (genvar v = 0; v < V; v++) begin : gen_owed
      assign owed[v] = (owed_q[v] != '0) || pop[v];
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) owed_q[v] <= '0;
        else owed_q[v] <= owed_q[v] + CREDIT_CNT_W'(npop[v]) - CREDIT_CNT_W'(pick[v]);
      end
    end
    rr_arbiter_rr #(.NUM_REQ(V)) i_credit_arb (
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
