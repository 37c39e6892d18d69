// One router output port: the credit counter and the allocated flag of every
// downstream VC, and the output register that drives the link. A head flit
// leaving on a network port (COUNT_HOP) has its hop count incremented here,
// and with STAMP_W > 0 its time stamp field set to now_i: the cycle it
// crossed the crossbar (Q-adaptive's routing.q_stamp = "crossbar").
// With internal speedup S > 1 up to S flits enter per cycle (slots 0..S-1,
// in order) into an output buffer of OB flits that drains one per cycle onto
// the link and is bypassed when empty; room_o tells the switch allocator how
// many the port takes. Credits are consumed as flits enter the port.
// MULTI_GRANT (speedup with single-flit packets): a single-flit packet does
// not hold its output VC; singles_o counts those allocated and not yet
// entered, and busy_o/handover_o track the multi-flit holder and its one
// successor. docs/architecture.md, "Internal speedup", has the behaviour.
module rr_output_port #(
  parameter int unsigned V = 2,
  parameter int unsigned B = 8,           // downstream buffer depth per VC
  parameter int unsigned W = 64,
  parameter int unsigned S = 1,           // internal speedup: flits in per cycle (router.speedup)
  parameter int unsigned OB = 0,          // output buffer, flits (router.output_buffer_flits; >= S when S > 1)
  parameter bit          MULTI_GRANT = 1'b0,  // single-flit packets share an output VC (see above)
  parameter bit          SPEC = 1'b0,     // speculative switch allocation: a packet may enter in its allocation cycle
  parameter bit          COUNT_HOP = 1'b1,
  parameter int unsigned HOPS_LSB = 0,
  parameter int unsigned HOPS_W = 6,
  parameter int unsigned STAMP_LSB = 0,   // the header field set to now_i on heads ...
  parameter int unsigned STAMP_W = 0,     // ... (0: none)
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned CREDIT_CNT_W = $clog2(B + 1),
  localparam int unsigned LW = rr_pkg::link_width(V, W),
  localparam int unsigned CRW = rr_pkg::credit_width(V),
  localparam int unsigned FLIT_CNT_W = $clog2(S + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [31:0]      now_i,       // the router's cycle counter
  // from the crossbar, per slot
  input  logic [S-1:0]     send_i,
  input  logic [S*W-1:0]   data_i,
  input  logic [S-1:0]     head_i,
  input  logic [S-1:0]     tail_i,
  input  logic [S*VCW-1:0] vc_i,
  // to the switch allocator: flits the port takes this cycle (1..S)
  output logic [FLIT_CNT_W-1:0]    room_o,
  // from the VC allocator: output VC w was allocated to a packet this cycle
  // (possibly while busy: to the successor of a holder whose tail is at the
  // front of its buffer)
  input  logic [V-1:0]     alloc_i,
  input  logic [V*FLIT_CNT_W-1:0]  alloc_n_i,   // MULTI_GRANT: single-flit packets among them (0: one multi-flit packet)
  // link
  output logic [LW-1:0]    flit_o,
  input  logic [CRW-1:0]   credit_i,
  // state for the VC allocator
  output logic [V-1:0]     busy_o,
  output logic [V-1:0]     handover_o,  // allocated to a successor; the previous tail has not left
  output logic [V*CREDIT_CNT_W-1:0]  credits_o,
  output logic [V*CREDIT_CNT_W-1:0]  singles_o    // MULTI_GRANT: single-flit packets allocated, not yet entered
);
  logic           credit_valid;
  logic [VCW-1:0] credit_vc;
  assign credit_valid = credit_i[rr_pkg::CREDIT_VALID];
  assign credit_vc    = credit_i[rr_pkg::CREDIT_VC_LSB+:VCW];

  // Per downstream VC: the flits of it entering the port this cycle (with
  // speedup up to S of one VC), whether the tail of the packet holding it is
  // among them, and (MULTI_GRANT) how many single-flit packets.
  logic [FLIT_CNT_W-1:0] sent [V];
  logic [FLIT_CNT_W-1:0] singles_in [V];
  logic [V-1:0]  tail_out;
  always_comb begin
    tail_out = '0;
    for (int unsigned w = 0; w < V; w++) begin
      sent[w] = '0;
      singles_in[w] = '0;
      for (int unsigned k = 0; k < S; k++) begin
        if (send_i[k] && vc_i[k*VCW+:VCW] == VCW'(w)) begin
          sent[w] = sent[w] + 1'b1;
          if (MULTI_GRANT && head_i[k] && tail_i[k]) singles_in[w] = singles_in[w] + 1'b1;
          else if (tail_i[k]) tail_out[w] = 1'b1;
        end
      end
    end
  end

  logic [V-1:0] busy_q, handover_q;
  for (genvar w = 0; w < V; w++) begin : gen_vc
    rr_credit_counter #(.DEPTH(B), .MAX_CONSUME(S)) i_credits (
      .clk_i, .rst_ni,
      .consume_i(sent[w]),
      .return_i (credit_valid && (credit_vc == VCW'(w))),
      .credits_o(credits_o[w*CREDIT_CNT_W+:CREDIT_CNT_W])
    );
    // Allocated from VC allocation until the tail flit leaves. Once the
    // holder's tail is at the front of its buffer the VC may be allocated
    // again, to a successor (rr_vc_alloc, rel_i), before that tail has left:
    // the VC then stays busy when the tail leaves and belongs to the
    // successor, whose flits wait while handover_q marks the tail as pending.
    // MULTI_GRANT: the allocation is of single-flit packets (alloc_n_i), and
    // the successor a VC was handed over to is one (it then does not hold the
    // VC when the previous tail has left).
    // SPEC: a packet allocated a VC no packet holds may enter in the same
    // cycle, up to its tail (with speedup); it then no longer holds the VC.
    logic multi_alloc, succ_multi, gone;
    assign multi_alloc = alloc_i[w] && !(MULTI_GRANT && alloc_n_i[w*FLIT_CNT_W+:FLIT_CNT_W] != '0);
    assign gone = SPEC && !busy_q[w] && tail_out[w];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        busy_q[w]     <= 1'b0;
        handover_q[w] <= 1'b0;
      end else if (alloc_i[w]) begin
        busy_q[w]     <= (multi_alloc && !gone) || (busy_q[w] && !tail_out[w]);
        handover_q[w] <= busy_q[w] && !tail_out[w];
      end else if (tail_out[w]) begin
        busy_q[w]     <= handover_q[w] && succ_multi;
        handover_q[w] <= 1'b0;
      end
    end
    if (MULTI_GRANT) begin : gen_singles
      logic succ_multi_q;
      logic [CREDIT_CNT_W-1:0] singles_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          succ_multi_q <= 1'b0;
          singles_q    <= '0;
        end else begin
          if (alloc_i[w]) succ_multi_q <= multi_alloc;
          singles_q <= singles_q + CREDIT_CNT_W'(alloc_n_i[w*FLIT_CNT_W+:FLIT_CNT_W]) - CREDIT_CNT_W'(singles_in[w]);
        end
      end
      assign succ_multi = succ_multi_q;
      assign singles_o[w*CREDIT_CNT_W+:CREDIT_CNT_W] = singles_q;
    end else begin : gen_no_singles
      assign succ_multi = 1'b1;
      assign singles_o[w*CREDIT_CNT_W+:CREDIT_CNT_W] = '0;
      logic unused_alloc_n;
      assign unused_alloc_n = ^{alloc_n_i[w*FLIT_CNT_W+:FLIT_CNT_W], singles_in[w]};
    end
  end
  assign busy_o     = busy_q;
  assign handover_o = handover_q;

  // The link word of each slot, hop count incremented and time stamped on heads.
  localparam int unsigned STAMP_PW = (STAMP_W > 0) ? STAMP_W : 1;
  logic [STAMP_PW-1:0] stamp;
  assign stamp = now_i[STAMP_PW-1:0];
  if (STAMP_PW < 32) begin : gen_unused_now
    logic unused_now;
    assign unused_now = ^now_i[31:STAMP_PW];
  end
  logic [LW-1:0] word [S];
  for (genvar k = 0; k < S; k++) begin : gen_word
    logic [W-1:0] data;
    always_comb begin
      data = data_i[k*W+:W];
      if (COUNT_HOP && head_i[k]) data[HOPS_LSB+:HOPS_W] = data_i[k*W+HOPS_LSB+:HOPS_W] + 1'b1;
      if (STAMP_W > 0 && head_i[k]) data[STAMP_LSB+:STAMP_PW] = stamp;
      word[k] = '0;
      word[k][rr_pkg::LINK_VALID]          = 1'b1;
      word[k][rr_pkg::LINK_HEAD]           = head_i[k];
      word[k][rr_pkg::LINK_TAIL]           = tail_i[k];
      word[k][rr_pkg::LINK_VC_LSB+:VCW]    = vc_i[k*VCW+:VCW];
      word[k][rr_pkg::link_data_lsb(V)+:W] = data;
    end
  end

  logic [LW-1:0] flit_q;
  if (S == 1) begin : gen_register
    // One flit per cycle: the output register alone.
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) flit_q <= '0;
      else if (send_i[0]) flit_q <= word[0];
      else flit_q <= '0;
    end
    assign room_o = FLIT_CNT_W'(1);
  end else begin : gen_buffer
    localparam int unsigned ADDR_W = $clog2(OB);
    localparam int unsigned ENTRY_CNT_W = $clog2(OB + 1);
    logic [LW-1:0] buf_q [OB];  // no reset: storage only
    logic [ADDR_W-1:0] rd_q, wr_q;
    logic [ENTRY_CNT_W-1:0] count_q;

    function automatic logic [ADDR_W-1:0] wrap(input logic [ADDR_W:0] x);  // x < 2*OB
      wrap = (x >= (ADDR_W+1)'(OB)) ? ADDR_W'(x - (ADDR_W+1)'(OB)) : ADDR_W'(x);
    endfunction

    // The first slot's word of this cycle (for the bypass).
    logic [LW-1:0] word_first;
    always_comb begin
      word_first = '0;
      for (int unsigned k = S; k > 0; k--) begin
        if (send_i[k-1]) word_first = word[k-1];
      end
    end

    // The oldest flit goes to the output register: the buffer's front, else
    // the first slot of this cycle; every other flit of this cycle is queued.
    logic          from_buf, bypass;
    logic [S-1:0]  queued;
    logic [ENTRY_CNT_W-1:0] n_queued;
    always_comb begin
      from_buf = count_q != '0;
      bypass = 1'b0;
      queued = send_i;
      if (!from_buf) begin
        for (int unsigned k = 0; k < S; k++) begin
          if (send_i[k] && !bypass) begin
            bypass = 1'b1;
            queued[k] = 1'b0;
          end
        end
      end
      n_queued = '0;
      for (int unsigned k = 0; k < S; k++) n_queued = n_queued + ENTRY_CNT_W'(queued[k]);
    end

    // Queued flits take consecutive places from the write pointer, in slot order.
    logic [ADDR_W-1:0] addr [S];
    always_comb begin
      logic [ADDR_W:0] at;
      at = {1'b0, wr_q};
      for (int unsigned k = 0; k < S; k++) begin
        addr[k] = wrap(at);
        if (queued[k]) at = {1'b0, wrap(at)} + 1'b1;
      end
    end
    always_ff @(posedge clk_i) begin
      for (int unsigned k = 0; k < S; k++) begin
        if (queued[k]) buf_q[addr[k]] <= word[k];
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        flit_q  <= '0;
        rd_q    <= '0;
        wr_q    <= '0;
        count_q <= '0;
      end else begin
        flit_q  <= from_buf ? buf_q[rd_q] : '0;
        if (bypass) flit_q <= word_first;
        if (from_buf) rd_q <= wrap({1'b0, rd_q} + 1'b1);
        wr_q    <= wrap({1'b0, wr_q} + (ADDR_W+1)'(n_queued));
        count_q <= count_q - ENTRY_CNT_W'(from_buf) + n_queued;
      end
    end

    // Flits the port can take: the free slots plus the one leaving now
    // (count <= OB), and at most S.
    logic [ENTRY_CNT_W:0] free_now;
    assign free_now = (ENTRY_CNT_W+1)'(OB) - (ENTRY_CNT_W+1)'(count_q) + (ENTRY_CNT_W+1)'(1);
    assign room_o = (free_now > (ENTRY_CNT_W+1)'(S)) ? FLIT_CNT_W'(S) : FLIT_CNT_W'(free_now);
  end
  assign flit_o = flit_q;
endmodule
