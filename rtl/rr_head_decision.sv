// The core's side of a decision at the head of the VC, for one input port:
// per VC a decision slot for each route read, the presentation of one open
// choice per cycle to the decision unit outside the core (hd_*), and the VC
// request each VC's oldest packet makes with its decision (req_*).
// The contract with the decision unit is three parameters: CYCLES (0: the
// answer counts for this cycle's request; 1: it is registered and the packet
// asks a cycle later; 2: it comes a cycle after the presentation, then
// registered), ANSWER_PORT (the answer names the port; else it picks the
// route or the alternative) and the operands' width DOW.
// Routes are rr_input_port's, oldest in the LSBs: {operands, open, alt_vcs,
// alt_port, len, vcs, port}. docs/architecture.md, "rr_head_decision".
module rr_head_decision #(
  parameter int unsigned P = 5,            // router ports (width of port ids)
  parameter int unsigned V = 2,            // virtual channels
  parameter int unsigned LEN_W = 3,        // packet-length field of a route
  parameter int unsigned DOW = 1,          // decision operands
  parameter int unsigned DEPTH = 4,        // routes per VC's route FIFO
  parameter int unsigned SLOTS = 1,        // routes read per VC, each with a decision slot
  parameter int unsigned CYCLES = 1,       // see above
  parameter bit          ANSWER_PORT = 1'b0,
  parameter int unsigned PATCH_W = 1,      // the value the answer sets its header field to (at least 1)
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned BRW = LEN_W + V + PW,              // a route without a choice
  localparam int unsigned RTW = BRW + PW + V + 1 + DOW,      // a route with one
  localparam int unsigned ROUTE_CNT_W = $clog2(DEPTH + 1),
  localparam int unsigned SLOT_W = rr_pkg::id_width(SLOTS)       // a slot index
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // per VC: its first SLOTS routes, how many it holds, whether its oldest
  // packet may ask for an output VC (route-wise), and its grant
  input  logic [V*SLOTS*RTW-1:0] routes_i,
  input  logic [V*ROUTE_CNT_W-1:0]   count_i,
  input  logic [V-1:0]       eligible_i,
  input  logic [V-1:0]       va_gnt_i,
  // the packet that decides this cycle, and the decision unit's answer
  output logic               hd_valid_o,
  output logic [PW-1:0]      hd_port_o,
  output logic [PW-1:0]      hd_alt_port_o,
  output logic [DOW-1:0]     hd_operands_o,
  output logic               hd_fresh_o,    // the presented packet has not been accepted before
  input  logic               hd_ready_i,    // the unit accepted this cycle's presentation
  input  logic               hd_alt_i,      // take the alternative (ANSWER_PORT: patch the header)
  input  logic [PW-1:0]      hd_choice_i,   // ANSWER_PORT: the port to take
  input  logic [PATCH_W-1:0] hd_patch_i,    // ANSWER_PORT: the header field's value if it patches
  // per VC: the oldest packet's VC request and its decision
  output logic [V-1:0]       req_o,
  output logic [V*PW-1:0]    req_port_o,
  output logic [V*V-1:0]     req_vcs_o,
  output logic [V-1:0]       alt_o,         // it takes the alternative
  output logic [V*PATCH_W-1:0] field_o      // the value the leaving head's field takes if alt_o
);
  logic [V-1:0]  wants, fresh, hd_pick, hd_take;
  logic [SLOT_W-1:0] pres_slot [V];
  logic [RTW-1:0] pres_route [V];
  assign hd_take = hd_pick & {V{hd_ready_i}};

  for (genvar v = 0; v < V; v++) begin : gen_vc
    logic [SLOTS*RTW-1:0] routes;
    logic [RTW-1:0]       route;  // the oldest
    logic [ROUTE_CNT_W-1:0]       route_count;
    assign routes      = routes_i[v*SLOTS*RTW+:SLOTS*RTW];
    assign route       = routes[0+:RTW];
    assign route_count = count_i[v*ROUTE_CNT_W+:ROUTE_CNT_W];

    // The slots, packed slot by slot: decided, the alternative and, with
    // ANSWER_PORT, the port and the header field's value.
    logic [SLOTS-1:0]         dec_q, salt_q;
    logic [SLOTS*PW-1:0]      schoice_q;
    logic [SLOTS*PATCH_W-1:0] spatch_q;
    logic decided, take_alt;
    // The answer that arrives this cycle (ans_now) and the slot it is for
    // (ans_slot); with CYCLES < 2, this cycle's presentation's. CYCLES = 2:
    // an answer on its way counts as that slot's decision for what the VC
    // presents (late), so the VC presents the packet behind it meanwhile
    // and no packet is fresh twice.
    logic          ans_now;
    logic [SLOT_W-1:0] ans_slot;
    logic [SLOTS-1:0] late;
    if (CYCLES == 2) begin : gen_late
      logic          pend_q;
      logic [SLOT_W-1:0] pend_slot_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          pend_q      <= 1'b0;
          pend_slot_q <= '0;
        end else begin
          // A grant this cycle moves the presented packet up a slot, or takes it.
          pend_q      <= hd_take[v] && (pres_slot[v] != '0 || !va_gnt_i[v]);
          pend_slot_q <= pres_slot[v] - SLOT_W'(va_gnt_i[v]);
        end
      end
      assign ans_now  = pend_q;
      assign ans_slot = pend_slot_q;
      for (genvar k = 0; k < SLOTS; k++) begin : gen_late_slot
        assign late[k] = pend_q && pend_slot_q == SLOT_W'(k);
      end
    end else begin : gen_now
      assign ans_now  = hd_take[v];
      assign ans_slot = pres_slot[v];
      assign late     = '0;
    end
    // Per slot: its packet's choice is open, it owes no presentation (no
    // open choice, decided, or the answer on its way), and this cycle's
    // answer lands in it (a grant moves every slot up by one).
    logic [SLOTS-1:0] open, settled, land;
    for (genvar k = 0; k < SLOTS; k++) begin : gen_slot
      assign open[k]    = 32'(route_count) > k && routes[k*RTW+BRW+PW+V];
      assign settled[k] = !open[k] || dec_q[k] || late[k];
      assign land[k]    = ans_now && 32'(ans_slot) == k + 32'(va_gnt_i[v]);
    end
    assign decided = dec_q[0];
    if (CYCLES != 0) begin : gen_registered
      // The first slot that owes a presentation; if none, the oldest
      // packet renews its decision.
      always_comb begin
        pres_slot[v] = '0;
        for (int k = SLOTS - 1; k >= 0; k--) begin
          if (!settled[k]) pres_slot[v] = SLOT_W'(k);
        end
      end
      // Renew the oldest packet's decision only while no answer for it is
      // on its way (CYCLES = 2: that renewal would bring nothing newer).
      assign wants[v]  = (open[0] && !late[0]) || !(&settled);
      assign fresh[v]  = !(&settled);
      assign take_alt  = decided && salt_q[0];
      assign req_o[v]  = eligible_i[v] && (!open[0] || decided);
    end else begin : gen_in_front
      assign pres_slot[v] = '0;
      assign wants[v]  = eligible_i[v] && open[0] && !decided;
      assign fresh[v]  = 1'b1;
      assign take_alt  = decided ? salt_q[0] : (hd_take[v] && hd_alt_i);
      assign req_o[v]  = eligible_i[v] && (!open[0] || decided || hd_take[v]);
      logic unused_settled;
      assign unused_settled = ^settled;
    end
    always_comb begin
      pres_route[v] = routes[0+:RTW];
      for (int unsigned k = 1; k < SLOTS; k++) begin
        if (pres_slot[v] == SLOT_W'(k)) pres_route[v] = routes[k*RTW+:RTW];
      end
    end
    if (ANSWER_PORT) begin : gen_chosen
      assign req_port_o[v*PW+:PW] = decided ? schoice_q[0+:PW] : route[0+:PW];
    end else begin : gen_alt
      assign req_port_o[v*PW+:PW] = take_alt ? route[BRW+:PW] : route[0+:PW];
    end
    assign req_vcs_o[v*V+:V] = take_alt ? route[BRW+PW+:V] : route[PW+:V];
    assign alt_o[v]          = take_alt;
    assign field_o[v*PATCH_W+:PATCH_W] = spatch_q[0+:PATCH_W];
    logic unused_route;  // the length, and the fields only presentations read
    assign unused_route = ^route;

    // A grant pops the oldest route: every slot takes over the one behind
    // it (with this cycle's answer if it lands there).
    logic [SLOTS-1:0] dec_up, salt_up;
    assign dec_up  = va_gnt_i[v] ? dec_q >> 1 : dec_q;
    assign salt_up = va_gnt_i[v] ? salt_q >> 1 : salt_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        dec_q  <= '0;
        salt_q <= '0;
      end else begin
        for (int unsigned k = 0; k < SLOTS; k++) begin
          dec_q[k]  <= dec_up[k] || land[k];
          salt_q[k] <= land[k] ? hd_alt_i : salt_up[k];
        end
      end
    end
    if (ANSWER_PORT) begin : gen_choice
      // The chosen port and field value follow dec_q.
      logic [SLOTS*PW-1:0]      schoice_up;
      logic [SLOTS*PATCH_W-1:0] spatch_up;
      assign schoice_up = va_gnt_i[v] ? schoice_q >> PW : schoice_q;
      assign spatch_up  = va_gnt_i[v] ? spatch_q >> PATCH_W : spatch_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          schoice_q <= '0;
          spatch_q  <= '0;
        end else begin
          for (int unsigned k = 0; k < SLOTS; k++) begin
            schoice_q[k*PW+:PW]          <= land[k] ? hd_choice_i : schoice_up[k*PW+:PW];
            spatch_q[k*PATCH_W+:PATCH_W] <= land[k] ? hd_patch_i : spatch_up[k*PATCH_W+:PATCH_W];
          end
        end
      end
    end else begin : gen_no_choice
      // The alternative's value: 1 (phase 1, or Pdor set).
      assign schoice_q = '0;
      assign spatch_q  = {SLOTS{PATCH_W'(1)}};
      logic unused_choice;
      assign unused_choice = ^{schoice_q, spatch_q};
    end
  end

  // One VC per cycle presents its open choice. A packet never presented goes
  // before a renewal (CYCLES > 0): a renewal only refreshes a decision its
  // packet already has, while a packet never presented cannot ask for its
  // output VC at all.
  logic [V-1:0] wants_fresh, hd_req;
  assign wants_fresh = wants & fresh;
  assign hd_req      = (|wants_fresh) ? wants_fresh : wants;
  rr_arbiter_rr #(.NUM_REQ(V)) i_hd_arb (
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
  assign hd_valid_o = |hd_pick;
  if (!ANSWER_PORT) begin : gen_not_chosen
    logic unused_chosen;
    assign unused_chosen = ^{hd_choice_i, hd_patch_i};
  end
endmodule
