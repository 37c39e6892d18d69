// DQN-routing's deciding part of a router ([Lonardo 2019], Algorithm 2): the
// inference block (rr_dqn_infer) and the decisions for the heads the input
// ports present at the head of their VCs (rr_head_decision, CYCLES = 1 and ANSWER_PORT).
// A head presents {input VC, its episode entry (rr_dqn_episode_unit),
// length, destination coordinates} (hd_operands_i) and DOR's port
// (hd_port_i); the answer is the agent's port, or DOR's port with the escape
// VCs and Pdor (hd_alt_o, hd_patch_o). One decision slot per input VC.
// The agent port (DESIGN.md section 4): a request {observation, action mask,
// tag} per decision started (agent_req_o ...), an answer {tag, action}
// (agent_done_i ...). AGENT = 0: the agent is the block inside, the agent_*
// outputs show its requests and the inputs are unused; AGENT = 1: no block,
// the agent outside answers each request, in any order, in its cycle or later.
// The block: tiled (rr_dqn_infer, NPAR x IPAR multipliers per layer) or
// parallel (PARALLEL: rr_dqn_infer_parallel, a decision per cycle; CONST: its
// weights are the parameters WEIGHTS, BIASES, SHIFTS).
// docs/dqn.md, "The unit" and "The agent port", has the behaviour.
module rr_dqn_unit #(
  parameter int unsigned P = 5,
  parameter int unsigned NUM_NI = 1,
  parameter int unsigned V = 3,
  parameter int unsigned B = 8,          // flits per VC buffer
  parameter int unsigned NUM_DIMS = 2,
  parameter int unsigned COORD_W = 2,    // bits per coordinate
  parameter int unsigned K0 = 4,
  parameter int unsigned K1 = 4,
  parameter int unsigned K2 = 4,
  parameter bit          TORUS = 1'b1,
  parameter int unsigned LEN_W = 3,
  parameter int unsigned MAX_LEN = 4,    // router.max_packet_flits
  // the network (rr_dqn_infer): SIZES[0] = 6 x NUM_DIMS + 1, SIZES[NL] = 2 x NUM_DIMS
  parameter int unsigned NL = 3,
  parameter logic [79:0] SIZES = {16'd0, 16'd4, 16'd32, 16'd32, 16'd13},
  parameter int unsigned WB = 8,
  parameter int unsigned AB = 8,
  parameter int unsigned ACCW = 22,
  parameter int unsigned NPAR = 8,      // the tiled block's multipliers per layer (rr_dqn_infer)
  parameter int unsigned IPAR = 4,
  parameter bit          PARALLEL = 1'b0,  // the parallel block (rr_dqn_infer_parallel) instead
  parameter bit          CONST = 1'b0,     // the parallel block's weights are WEIGHTS, BIASES, SHIFTS
  /* verilator lint_off WIDTHCONCAT */  // a network's constants may pass 8k bits
  parameter logic [rr_pkg::dqn_num_weights(SIZES)*WB-1:0] WEIGHTS = '0,
  parameter logic [rr_pkg::dqn_num_biases(SIZES)*ACCW-1:0] BIASES = '0,
  parameter logic [31:0] SHIFTS = '0,
  /* verilator lint_on WIDTHCONCAT */
  parameter int unsigned PROG_ADDR_W = 8,
  parameter bit          AGENT = 1'b0,  // the agent outside (agent port) instead of the inference block
  parameter int unsigned EW = 5,         // a pending-episode entry's index
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned CREDIT_CNT_W = $clog2(B + 1),
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned DOW = VCW + 1 + EW + NUM_DIMS * COORD_W + LEN_W,
  localparam int unsigned NP = P - NUM_NI,           // network ports = actions
  localparam int unsigned NIN = 2 * NUM_DIMS + 1 + 2 * NP,
  localparam int unsigned LAYER_W = rr_pkg::id_width(NL),
  // programming data: a tiled block's weight word or a parallel block's neuron, or a bias
  localparam int unsigned WORD_W = PARALLEL ? rr_pkg::max_fan_in(SIZES, NL) * WB : NPAR * IPAR * WB,
  localparam int unsigned PDW = (WORD_W > ACCW) ? WORD_W : ACCW,
  localparam int unsigned ACTION_W = rr_pkg::id_width(NP),
  localparam int unsigned RVC_W = rr_pkg::id_width(P * V),
  localparam int unsigned LEN_SHIFT = ($clog2(MAX_LEN) > AB - 1) ? $clog2(MAX_LEN) - (AB - 1) : 0,
  localparam int unsigned OCC_SHIFT = ($clog2(B) > AB - 1) ? $clog2(B) - (AB - 1) : 0
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [NUM_DIMS*COORD_W-1:0] coord_i,
  // heads at the head of their VCs, per input port
  input  logic [P-1:0]        hd_valid_i,
  input  logic [P-1:0]        hd_fresh_i,
  input  logic [P*PW-1:0]     hd_port_i,      // DOR's port
  input  logic [P*DOW-1:0]    hd_operands_i,  // {input VC, entry opened, entry, length, destination coordinates}
  output logic [P-1:0]        hd_ready_o,
  output logic [P*PW-1:0]     hd_choice_o,
  output logic [P-1:0]        hd_alt_o,       // DOR on the escape VCs, Pdor set
  output logic [P-1:0]        hd_patch_o,     // the Pdor value it leaves with
  // the router's VC state
  input  logic [P*V-1:0]      vc_busy_i,      // output VCs allocated
  input  logic [P*V*CREDIT_CNT_W-1:0] vc_credits_i,  // output VCs' credits
  input  logic [P*V*CREDIT_CNT_W-1:0] in_occ_i,  // input VCs' flits
  // the inference block's programming port (rr_dqn_infer)
  input  logic                prog_we_i,
  input  logic [LAYER_W-1:0]       prog_layer_i,
  input  logic [1:0]          prog_kind_i,
  input  logic [PROG_ADDR_W-1:0] prog_addr_i,
  input  logic [PDW-1:0]      prog_data_i,
  output logic [P*V-1:0]      busy_o,         // per input VC: a decision in its slot (observability)
  // the agent's decisions taken, per input port: the entries they mark
  output logic [P-1:0]        decide_o,
  output logic [P*EW-1:0]     decide_idx_o,
  // the agent port
  output logic                agent_req_o,    // a decision starts: its observation, mask and tag
  output logic [NIN*AB-1:0]   agent_obs_o,
  output logic [NP-1:0]       agent_mask_o,
  output logic [RVC_W-1:0]       agent_tag_o,
  output logic [EW:0]         agent_episode_o,  // {the head opened an entry, its index}
  input  logic                agent_done_i,   // AGENT: the action for the decision with agent_tag_i
  input  logic [RVC_W-1:0]       agent_tag_i,
  input  logic [ACTION_W-1:0]     agent_action_i,
  input  logic                agent_action_valid_i
);
  localparam int unsigned AMAX = (1 << (AB - 1)) - 1;

  function automatic int unsigned radix(input int unsigned d);
    radix = rr_pkg::cube_radix(d, K0, K1, K2);
  endfunction

  function automatic logic [AB-1:0] sat(input logic [31:0] x);
    sat = (x > 32'(AMAX)) ? AB'(AMAX) : AB'(x);
  endfunction

  // Per input VC (slot p x V + v): its state, the operands it decides for,
  // and the answer.
  localparam int unsigned R = P * V;
  typedef enum logic [1:0] {Free, Wait, Held} slot_e;
  slot_e           slot_q [R];
  logic [DOW-1:0]  operands_q [R];
  logic [ACTION_W-1:0] action_q [R];
  logic [R-1:0]    action_valid_q;

  // The slot of each port's presentation: its input VC (the operands' top bits).
  function automatic logic [RVC_W-1:0] slot_of(input int unsigned p, input logic [VCW-1:0] vc);
    slot_of = RVC_W'(p * V) + RVC_W'(vc);
  endfunction

  logic [P-1:0]   fresh_free, pick;
  logic [R-1:0]   answered;
  logic [RVC_W-1:0]  pick_slot, done_slot;
  logic           start, infer_ready, infer_done, action_valid;
  logic [ACTION_W-1:0] action;
  logic [NIN*AB-1:0] obs;
  logic [NP-1:0]  mask;
  logic [NP*ACCW-1:0] q_values;  // not used: the action is the argmax

  always_comb begin
    for (int unsigned p = 0; p < P; p++) begin
      fresh_free[p] = hd_valid_i[p] && hd_fresh_i[p] && slot_q[slot_of(p, hd_operands_i[p*DOW+DOW-VCW+:VCW])] == Free;
    end
  end
  rr_arbiter_rr #(.NUM_REQ(P)) i_pick (
    .clk_i, .rst_ni,
    .req_i    (fresh_free),
    .advance_i(infer_ready),
    .gnt_o    (pick)
  );
  assign start = infer_ready && (|fresh_free);

  // The observation of the picked head (its operands this cycle).
  logic [EW:0]    pick_episode;
  always_comb begin
    logic [DOW-1:0] ops;
    ops       = '0;
    pick_slot = '0;
    for (int unsigned p = 0; p < P; p++) begin
      if (pick[p]) begin
        ops       = hd_operands_i[p*DOW+:DOW];
        pick_slot = slot_of(p, hd_operands_i[p*DOW+DOW-VCW+:VCW]);
      end
    end
    pick_episode = ops[NUM_DIMS*COORD_W+LEN_W+:EW+1];
    obs = '0;
    for (int unsigned d = 0; d < NUM_DIMS; d++) begin
      obs[d*AB+:AB]              = sat(32'(coord_i[d*COORD_W+:COORD_W]));
      obs[(NUM_DIMS+d)*AB+:AB]   = sat(32'(ops[d*COORD_W+:COORD_W]));
    end
    obs[2*NUM_DIMS*AB+:AB] = sat(32'(ops[NUM_DIMS*COORD_W+:LEN_W]) >> LEN_SHIFT);
    for (int unsigned q = 0; q < NP; q++) begin
      obs[(2*NUM_DIMS+1+q)*AB+:AB] = sat(32'(in_occ_i[((NUM_NI+q)*V+V-1)*CREDIT_CNT_W+:CREDIT_CNT_W]) >> OCC_SHIFT);
      obs[(2*NUM_DIMS+1+NP+q)*AB+:AB] =
          sat((32'(B) - 32'(vc_credits_i[((NUM_NI+q)*V+V-1)*CREDIT_CNT_W+:CREDIT_CNT_W])) >> OCC_SHIFT);
    end
  end

  // Network ports that lead to a neighbour (all on a torus).
  always_comb begin
    for (int unsigned d = 0; d < NUM_DIMS; d++) begin
      mask[2*d]     = TORUS || (32'(coord_i[d*COORD_W+:COORD_W]) < radix(d) - 1);
      mask[2*d + 1] = TORUS || (coord_i[d*COORD_W+:COORD_W] != '0);
    end
    for (int unsigned q = 2 * NUM_DIMS; q < NP; q++) mask[q] = 1'b0;
  end

  assign agent_req_o  = start;
  assign agent_obs_o  = obs;
  assign agent_mask_o = mask;
  assign agent_tag_o  = pick_slot;
  assign agent_episode_o = pick_episode;
  if (AGENT) begin : gen_agent_outside
    assign infer_ready  = 1'b1;
    assign infer_done   = agent_done_i;
    assign done_slot    = agent_tag_i;
    assign action       = agent_action_i;
    assign action_valid = agent_action_valid_i;
    assign q_values     = '0;
    logic unused_prog;
    assign unused_prog = ^{prog_we_i, prog_layer_i, prog_kind_i, prog_addr_i, prog_data_i};
  end else if (PARALLEL) begin : gen_parallel_block
    rr_dqn_infer_parallel #(
      .NL(NL), .SIZES(SIZES), .WB(WB), .AB(AB), .ACCW(ACCW), .PROG_ADDR_W(PROG_ADDR_W), .TAGW(RVC_W),
      .CONST(CONST), .WEIGHTS(WEIGHTS), .BIASES(BIASES), .SHIFTS(SHIFTS)
    ) i_infer (
      .clk_i, .rst_ni,
      .start_i       (start),
      .obs_i         (obs),
      .mask_i        (mask),
      .tag_i         (pick_slot),
      .ready_o       (infer_ready),
      .done_o        (infer_done),
      .tag_o         (done_slot),
      .q_o           (q_values),
      .action_o      (action),
      .action_valid_o(action_valid),
      .prog_we_i, .prog_layer_i, .prog_kind_i, .prog_addr_i, .prog_data_i
    );
    logic unused_agent;
    assign unused_agent = ^{agent_done_i, agent_tag_i, agent_action_i, agent_action_valid_i};
  end else begin : gen_block
    logic unused_constants;  // the tiled block's weights are programmed
    assign unused_constants = ^{CONST, WEIGHTS, BIASES, SHIFTS};
    rr_dqn_infer #(
      .NL(NL), .SIZES(SIZES), .WB(WB), .AB(AB), .ACCW(ACCW), .NPAR(NPAR), .IPAR(IPAR), .PROG_ADDR_W(PROG_ADDR_W),
      .TAGW(RVC_W)
    ) i_infer (
      .clk_i, .rst_ni,
      .start_i       (start),
      .obs_i         (obs),
      .mask_i        (mask),
      .tag_i         (pick_slot),
      .ready_o       (infer_ready),
      .done_o        (infer_done),
      .tag_o         (done_slot),
      .q_o           (q_values),
      .action_o      (action),
      .action_valid_o(action_valid),
      .prog_we_i, .prog_layer_i, .prog_kind_i, .prog_addr_i, .prog_data_i
    );
    logic unused_agent;
    assign unused_agent = ^{agent_done_i, agent_tag_i, agent_action_i, agent_action_valid_i};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      action_valid_q <= '0;
      for (int unsigned r = 0; r < R; r++) begin
        slot_q[r]     <= Free;
        operands_q[r] <= '0;
        action_q[r]   <= '0;
      end
    end else begin
      // An agent outside may answer in the cycle of the request (done and
      // start for the same slot): the slot then holds the answer at once.
      for (int unsigned r = 0; r < R; r++) begin
        if (start && pick_slot == RVC_W'(r)) operands_q[r] <= hd_operands_i[(r/V)*DOW+:DOW];
        if (infer_done && done_slot == RVC_W'(r)) begin
          slot_q[r]         <= Held;
          action_q[r]       <= action;
          action_valid_q[r] <= action_valid;
        end else if (start && pick_slot == RVC_W'(r)) begin
          slot_q[r] <= Wait;
        end else if (answered[r]) begin
          slot_q[r] <= Free;
        end
      end
    end
  end
  always_comb begin
    for (int unsigned r = 0; r < R; r++) busy_o[r] = slot_q[r] != Free;
  end

  // The answers. The agent's port is free for the packet when its DQN VC is
  // not allocated and has credits for the whole packet.
  always_comb begin
    answered     = '0;
    decide_o     = '0;
    decide_idx_o = '0;
    for (int unsigned p = 0; p < P; p++) begin
      logic [DOW-1:0]   ops;
      logic [RVC_W-1:0]    r;
      logic [ACTION_W-1:0]  act;
      logic             held, act_valid;
      logic [PW-1:0]    agent_port;
      logic [LEN_W-1:0] len;
      logic             free;
      ops        = hd_operands_i[p*DOW+:DOW];
      r          = slot_of(p, ops[DOW-1-:VCW]);
      held       = 1'b0;
      act        = '0;
      act_valid  = 1'b0;
      for (int unsigned v = 0; v < V; v++) begin
        if (r == RVC_W'(p * V + v)) begin
          held      = slot_q[p*V+v] == Held && operands_q[p*V+v] == ops;
          act       = action_q[p*V+v];
          act_valid = action_valid_q[p*V+v];
        end
      end
      agent_port = PW'(NUM_NI) + PW'(act);
      len        = ops[NUM_DIMS*COORD_W+:LEN_W];
      free       = 1'b0;
      for (int unsigned q = NUM_NI; q < P; q++) begin
        if (agent_port == PW'(q)) begin
          free = !vc_busy_i[q*V+V-1] && (32'(vc_credits_i[(q*V+V-1)*CREDIT_CNT_W+:CREDIT_CNT_W]) >= 32'(len));
        end
      end
      hd_ready_o[p]         = 1'b0;
      hd_choice_o[p*PW+:PW] = hd_port_i[p*PW+:PW];
      hd_alt_o[p]           = 1'b1;
      hd_patch_o[p]         = 1'b1;
      if (hd_valid_i[p] && !hd_fresh_i[p]) begin
        hd_ready_o[p] = 1'b1;  // a renewal: DOR and Pdor at once
      end else if (hd_valid_i[p] && held) begin
        hd_ready_o[p]                     = 1'b1;
        answered[p*V+32'(ops[DOW-1-:VCW])] = 1'b1;
        if (act_valid && free) begin
          hd_choice_o[p*PW+:PW]   = agent_port;
          hd_alt_o[p]             = 1'b0;
          decide_o[p]             = ops[NUM_DIMS*COORD_W+LEN_W+EW];
          decide_idx_o[p*EW+:EW]  = ops[NUM_DIMS*COORD_W+LEN_W+:EW];
        end
      end
    end
  end

  logic unused_q_values;
  assign unused_q_values = ^q_values;
endmodule
