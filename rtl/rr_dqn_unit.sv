// DQN-routing's deciding part of a router (002 Algorithm 2; docs/dqn.md): the
// inference block (rr_dqn_infer) and the decisions of the heads the input
// ports present at the head of their VCs (rr_input_port, HEAD_REG + CHOOSE).
//
// A head whose choice is open (rr_route_dor with DQN: not Pdor, below the hop
// threshold, not ejecting here) presents {its length, its destination's
// coordinates} (hd_operands_i) and DOR's port (hd_port_i). Each input port
// has one decision slot. A fresh presentation at a port whose slot is free
// is refused (hd_ready_o low) and, when the block takes a start this cycle
// and the round-robin picks that port, starts a decision in its slot: the
// observation, of AB-bit values saturated at 2^(AB-1) - 1:
//   [the router's coordinates, the destination's, the packet's length,
//    per network port (NUM_NI..P-1) the flits in its input buffer of the DQN
//    VC (in_occ_i), per network port the flits downstream in the DQN VC of
//    its output (B - credits)]
// (13 values on a 2-D torus). The block is a pipeline (a start every II
// cycles, ref::dqn_interval_cycles), so several ports' decisions are in
// flight at once; each lands in its port's slot. Until then, and until the
// head presents again with the same operands, every fresh presentation at
// that port is refused. When it does, it gets the answer and frees the slot:
// the agent's port (network port NUM_NI + action) if the block's action is
// valid and that port's DQN VC is free with credits for the whole packet;
// otherwise DOR's port with the alternative (the escape VCs) and Pdor
// (hd_alt_o, hd_patch_o), as 002 escapes a packet whose proposed channel
// cannot take it. A renewal (a head presented again after its decision, not
// granted meanwhile: hd_fresh_i low) is answered at once with DOR and Pdor,
// so no packet waits for a DQN VC that another packet took: it is offered
// the escape VCs (Duato). A head cannot leave its VC before its decision,
// and a port presents its VCs round-robin, so the head a slot holds an
// answer for always presents again.
// The action mask: on a mesh, the ports that lead out of the network are
// never proposed.
module rr_dqn_unit #(
  parameter int unsigned P = 5,
  parameter int unsigned NUM_NI = 1,
  parameter int unsigned V = 3,
  parameter int unsigned B = 8,          // flits per VC buffer
  parameter int unsigned NUM_DIMS = 2,
  parameter int unsigned CW = 2,         // bits per coordinate
  parameter int unsigned K0 = 4,
  parameter int unsigned K1 = 4,
  parameter int unsigned K2 = 4,
  parameter bit          TORUS = 1'b1,
  parameter int unsigned LEN_W = 3,
  // the network (rr_dqn_infer): SIZES[0] = 6 x NUM_DIMS + 1, SIZES[NL] = 2 x NUM_DIMS
  parameter int unsigned NL = 3,
  parameter logic [79:0] SIZES = {16'd0, 16'd4, 16'd32, 16'd32, 16'd13},
  parameter int unsigned WB = 8,
  parameter int unsigned AB = 8,
  parameter int unsigned ACCW = 22,
  parameter int unsigned NPAR = 8,
  parameter int unsigned IPAR = 4,
  parameter int unsigned AW = 8,
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned BW = $clog2(B + 1),
  localparam int unsigned DOW = NUM_DIMS * CW + LEN_W,
  localparam int unsigned NP = P - NUM_NI,           // network ports = actions
  localparam int unsigned NIN = 2 * NUM_DIMS + 1 + 2 * NP,
  localparam int unsigned LW = rr_pkg::id_width(NL),
  localparam int unsigned PDW = (NPAR * IPAR * WB > ACCW) ? NPAR * IPAR * WB : ACCW
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [NUM_DIMS*CW-1:0] coord_i,
  // heads at the head of their VCs, per input port
  input  logic [P-1:0]        hd_valid_i,
  input  logic [P-1:0]        hd_fresh_i,
  input  logic [P*PW-1:0]     hd_port_i,      // DOR's port
  input  logic [P*DOW-1:0]    hd_operands_i,  // {length, destination coordinates}
  output logic [P-1:0]        hd_ready_o,
  output logic [P*PW-1:0]     hd_choice_o,
  output logic [P-1:0]        hd_alt_o,       // DOR on the escape VCs, Pdor set
  output logic [P-1:0]        hd_patch_o,     // the Pdor value it leaves with
  // the router's VC state
  input  logic [P*V-1:0]      vc_busy_i,      // output VCs allocated
  input  logic [P*V*BW-1:0]   vc_credits_i,   // output VCs' credits
  input  logic [P*V*BW-1:0]   in_occ_i,       // input VCs' flits
  // the inference block's programming port (rr_dqn_infer)
  input  logic                prog_we_i,
  input  logic [LW-1:0]       prog_layer_i,
  input  logic [1:0]          prog_kind_i,
  input  logic [AW-1:0]       prog_addr_i,
  input  logic [PDW-1:0]      prog_data_i,
  output logic [P-1:0]        busy_o          // per input port: a decision in its slot (observability)
);
  localparam int unsigned AMAX = (1 << (AB - 1)) - 1;
  localparam int unsigned OUTW = rr_pkg::id_width(NP);

  function automatic int unsigned radix(input int unsigned d);
    radix = rr_pkg::cube_radix(d, K0, K1, K2);
  endfunction

  function automatic logic [AB-1:0] sat(input logic [31:0] x);
    sat = (x > 32'(AMAX)) ? AB'(AMAX) : AB'(x);
  endfunction

  // Per input port: its slot's state, the operands it decides for, and the answer.
  typedef enum logic [1:0] {Free, Wait, Held} slot_e;
  slot_e           slot_q [P];
  logic [DOW-1:0]  operands_q [P];
  logic [OUTW-1:0] action_q [P];
  logic [P-1:0]    action_valid_q;

  logic [P-1:0]   fresh_free, pick, answered;
  logic [PW-1:0]  pick_port, done_port;
  logic           start, infer_ready, infer_done, action_valid;
  logic [OUTW-1:0] action;
  logic [NIN*AB-1:0] obs;
  logic [NP-1:0]  mask;
  logic [NP*ACCW-1:0] q_values;  // not used: the action is the argmax

  always_comb begin
    for (int unsigned p = 0; p < P; p++) fresh_free[p] = hd_valid_i[p] && hd_fresh_i[p] && slot_q[p] == Free;
  end
  rr_arbiter_rr #(.N(P)) i_pick (
    .clk_i, .rst_ni,
    .req_i    (fresh_free),
    .advance_i(infer_ready),
    .gnt_o    (pick)
  );
  assign start = infer_ready && (|fresh_free);

  // The observation of the picked head (its operands this cycle).
  always_comb begin
    logic [DOW-1:0] ops;
    ops       = '0;
    pick_port = '0;
    for (int unsigned p = 0; p < P; p++) begin
      if (pick[p]) begin
        ops       = hd_operands_i[p*DOW+:DOW];
        pick_port = PW'(p);
      end
    end
    obs = '0;
    for (int unsigned d = 0; d < NUM_DIMS; d++) begin
      obs[d*AB+:AB]              = sat(32'(coord_i[d*CW+:CW]));
      obs[(NUM_DIMS+d)*AB+:AB]   = sat(32'(ops[d*CW+:CW]));
    end
    obs[2*NUM_DIMS*AB+:AB] = sat(32'(ops[NUM_DIMS*CW+:LEN_W]));
    for (int unsigned q = 0; q < NP; q++) begin
      obs[(2*NUM_DIMS+1+q)*AB+:AB] = sat(32'(in_occ_i[((NUM_NI+q)*V+V-1)*BW+:BW]));
      obs[(2*NUM_DIMS+1+NP+q)*AB+:AB] = sat(32'(B) - 32'(vc_credits_i[((NUM_NI+q)*V+V-1)*BW+:BW]));
    end
  end

  // Network ports that lead to a neighbour (all on a torus).
  always_comb begin
    for (int unsigned d = 0; d < NUM_DIMS; d++) begin
      mask[2*d]     = TORUS || (32'(coord_i[d*CW+:CW]) < radix(d) - 1);
      mask[2*d + 1] = TORUS || (coord_i[d*CW+:CW] != '0);
    end
    for (int unsigned q = 2 * NUM_DIMS; q < NP; q++) mask[q] = 1'b0;
  end

  rr_dqn_infer #(
    .NL(NL), .SIZES(SIZES), .WB(WB), .AB(AB), .ACCW(ACCW), .NPAR(NPAR), .IPAR(IPAR), .AW(AW), .TAGW(PW)
  ) i_infer (
    .clk_i, .rst_ni,
    .start_i       (start),
    .obs_i         (obs),
    .mask_i        (mask),
    .tag_i         (pick_port),
    .ready_o       (infer_ready),
    .done_o        (infer_done),
    .tag_o         (done_port),
    .q_o           (q_values),
    .action_o      (action),
    .action_valid_o(action_valid),
    .prog_we_i, .prog_layer_i, .prog_kind_i, .prog_addr_i, .prog_data_i
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      action_valid_q <= '0;
      for (int unsigned p = 0; p < P; p++) begin
        slot_q[p]     <= Free;
        operands_q[p] <= '0;
        action_q[p]   <= '0;
      end
    end else begin
      for (int unsigned p = 0; p < P; p++) begin
        if (start && pick[p]) begin
          slot_q[p]     <= Wait;
          operands_q[p] <= hd_operands_i[p*DOW+:DOW];
        end else if (infer_done && done_port == PW'(p)) begin
          slot_q[p]         <= Held;
          action_q[p]       <= action;
          action_valid_q[p] <= action_valid;
        end else if (answered[p]) begin
          slot_q[p] <= Free;
        end
      end
    end
  end
  always_comb begin
    for (int unsigned p = 0; p < P; p++) busy_o[p] = slot_q[p] != Free;
  end

  // The answers. The agent's port is free for the packet when its DQN VC is
  // not allocated and has credits for the whole packet.
  always_comb begin
    for (int unsigned p = 0; p < P; p++) begin
      logic [PW-1:0]    agent_port;
      logic [LEN_W-1:0] len;
      logic             free;
      agent_port  = PW'(NUM_NI) + PW'(action_q[p]);
      len         = operands_q[p][NUM_DIMS*CW+:LEN_W];
      free        = 1'b0;
      for (int unsigned q = NUM_NI; q < P; q++) begin
        if (agent_port == PW'(q)) begin
          free = !vc_busy_i[q*V+V-1] && (32'(vc_credits_i[(q*V+V-1)*BW+:BW]) >= 32'(len));
        end
      end
      hd_ready_o[p]         = 1'b0;
      hd_choice_o[p*PW+:PW] = hd_port_i[p*PW+:PW];
      hd_alt_o[p]           = 1'b1;
      hd_patch_o[p]         = 1'b1;
      answered[p]           = 1'b0;
      if (hd_valid_i[p] && !hd_fresh_i[p]) begin
        hd_ready_o[p] = 1'b1;  // a renewal: DOR and Pdor at once
      end else if (hd_valid_i[p] && slot_q[p] == Held && hd_operands_i[p*DOW+:DOW] == operands_q[p]) begin
        hd_ready_o[p] = 1'b1;
        answered[p]   = 1'b1;
        if (action_valid_q[p] && free) begin
          hd_choice_o[p*PW+:PW] = agent_port;
          hd_alt_o[p]           = 1'b0;
        end
      end
    end
  end

  logic unused_q_values;
  assign unused_q_values = ^q_values;
endmodule
