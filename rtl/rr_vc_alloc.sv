// Separable input-first VC allocator for virtual cut-through. Stage 1 (per
// input VC): among the output VCs the route allows on the requested port,
// those that are free, or releasing (rel_i: the holder's tail is at the
// front), and have credits for the whole packet; one is picked round-robin
// from the port's pointer. Stage 2 (per output VC): a round-robin arbiter
// over the input VCs that picked it; an input VC picks one output VC, so it
// wins at most one.
// GRANTS > 1 (internal speedup with single-flit packets): an output VC that no
// multi-flit packet holds takes up to GRANTS single-flit packets per cycle
// (rr_arbiter_multi; alloc_n_o is zero when the one winner has more flits).
// With GRANTS = 1 the singles ports are unused and every packet holds the VC.
// REQ_MAP: only the requests the routing relation can make are built; the
// default (all) is the full allocator. docs/architecture.md, "Pipeline and
// zero-load latency" and "Internal speedup", has the behaviour and why.
module rr_vc_alloc #(
  parameter int unsigned P = 5,
  parameter int unsigned V = 2,
  parameter int unsigned LEN_W = 3,
  parameter int unsigned CREDIT_CNT_W = 4,  // credit counter width
  parameter int unsigned GRANTS = 1,   // grants per output VC and cycle (single-flit packets)
  parameter bit          SPEC = 1'b0,  // build gnt_free_o (speculative switch allocation); else it is 0
  // [o*P*V + r]: input VC r (port*V + vc) can ever request output VC o
  parameter bit [P*V*P*V-1:0] REQ_MAP = {(P*V*P*V){1'b1}},
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned PW = rr_pkg::id_width(P),
  localparam int unsigned GRANT_CNT_W = $clog2(GRANTS + 1),  // a count of 0..GRANTS packets
  localparam int unsigned R = P * V  // requesters = input VCs = output VCs
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [R-1:0]     req_i,
  input  logic [R*PW-1:0]  port_i,
  input  logic [R*V-1:0]   vcs_i,
  input  logic [R*LEN_W-1:0] len_i,
  // per input VC: its active packet's tail is at the front of its buffer, so
  // the output VC it holds (vc own_vc_i of port own_port_i) is releasing
  input  logic [R-1:0]     rel_i,
  input  logic [R*PW-1:0]  own_port_i,
  input  logic [R*VCW-1:0] own_vc_i,
  input  logic [R-1:0]     busy_i,      // per output VC (port*V + vc)
  input  logic [R-1:0]     handover_i,  // per output VC: allocated to a successor already
  input  logic [R*CREDIT_CNT_W-1:0]  credits_i,   // per output VC
  input  logic [R*CREDIT_CNT_W-1:0]  singles_i,   // per output VC: single-flit packets allocated, not yet sent (GRANTS > 1)
  output logic [R-1:0]     gnt_o,       // per input VC
  output logic [R*VCW-1:0] gnt_vc_o,    // per input VC: the output VC won
  output logic [R-1:0]     gnt_free_o,  // per input VC: granted an output VC no packet holds (SPEC; else 0)
  output logic [R-1:0]     alloc_o,     // per output VC: allocated this cycle
  output logic [R*GRANT_CNT_W-1:0]  alloc_n_o    // per output VC: single-flit packets among them (GRANTS > 1)
);
  localparam bit MULTI = GRANTS > 1;
  // Requesters of output VC o before input VC r in REQ_MAP: r's place among
  // o's requesters (and, for r = R, their number). Yosys 0.23 evaluates it
  // at elaboration; it takes no `return`.
  function automatic int unsigned rank_in_row(bit [R*R-1:0] map, int unsigned o, int unsigned r);
    rank_in_row = 0;
    for (int unsigned i = 0; i < r; i++) begin
      if (map[o*R + i]) rank_in_row = rank_in_row + 1;
    end
  endfunction
  // Stage 1 (and the releasing VCs) is one always_comb, so that the C++
  // model Verilator makes of it can skip idle work: with SKIP_IDLE it does
  // nothing in a cycle without requests and nothing for an input VC without
  // a request. Its outputs are zero there anyway, so the guards change no
  // value; synthesis reads the RTL without them (Yosys kept them as muxes),
  // and a test proves the two readings equivalent (tests/lint/
  // sim_guards_equiv.sh; docs/architecture.md, "RTL written for simulation
  // speed"). Stage 2 keeps one arbiter instance per output VC: mapped as
  // modules of their own, they give ABC a faster allocator than the same
  // arbitration inline (docs/architecture.md, "RTL written for simulation
  // speed").
`ifdef VERILATOR
  localparam bit SKIP_IDLE = 1'b1;
  localparam bit [R*R*RANK_W-1:0] RANKS = rank_table(REQ_MAP);
`else
  localparam bit SKIP_IDLE = 1'b0;
  localparam bit [R*R*RANK_W-1:0] RANKS = '0;  // stage 2 is wired (see gen_out)
`endif
  // Per input VC: its packet has one flit and may share an output VC.
  logic [R-1:0] single;
  for (genvar r = 0; r < R; r++) begin : gen_single
    assign single[r] = MULTI && len_i[r*LEN_W+:LEN_W] == LEN_W'(1);
  end
  // pick[r] is one-hot over output VCs (R bits), zero if nothing eligible.
  logic [R-1:0] pick [R];
  logic [R-1:0] gnt_bits [R];  // [output VC][input VC]
  // Stage 2 under Verilator (SKIP_IDLE): each stage-2 arbiter sees its
  // possible requesters compacted (REQ_MAP), and gathering their requests
  // and scattering the grants back bit by bit cost the simulation more than
  // the arbitration (R x R one-bit assigns, evaluated twice a cycle). There,
  // stage 1 writes each pick straight into its output VC's compact vector at
  // the requester's rank (RANKS, a table of rank_in_row), and a grant is
  // read back at the same place; only the input VCs that picked do any work.
  // Synthesis reads the wires (the same circuit: sim_guards tests).
  localparam int unsigned RANK_W = rr_pkg::id_width(R);  // a rank, 0..R-1
  // [(o*R + r)*RANK_W +: RANK_W]: input VC r's rank among output VC o's possible requesters.
  function automatic bit [R*R*RANK_W-1:0] rank_table(bit [R*R-1:0] map);
    int unsigned k;
    for (int unsigned o = 0; o < R; o++) begin  // every entry is set (no '0: the table can pass 8k bits)
      k = 0;
      for (int unsigned r = 0; r < R; r++) begin
        rank_table[(o*R + r)*RANK_W +: RANK_W] = RANK_W'(k);
        if (map[o*R + r]) k = k + 1;
      end
    end
  endfunction
  logic [R-1:0]   creq [R];     // [output VC]: compact requests (SKIP_IDLE)
  logic [R-1:0]   csingle [R];  // [output VC]: compact single-flit flags of the requests (GRANTS > 1)
  logic [R-1:0]   cgnt [R];     // [output VC]: the arbiter's compact grants
  logic [R-1:0]   picked;       // per input VC: it picked an output VC in stage 1
  logic [RANK_W-1:0]  picked_o [R]; // the output VC it picked
  logic [RANK_W-1:0]  picked_k [R]; // its rank there
  // Per output port: the VCs that have priority in stage 1 (at or after the pointer).
  logic [V-1:0] prio_q [P];
  // Per output VC: busy, but its holder's tail is at the front and it has no successor yet.
  logic [R-1:0] releasing;

  always_comb begin
    logic [PW-1:0]   port;
    logic [V-1:0]    eligible, preferred, first;
    logic [V-1:0]    port_busy, port_releasing, port_prio, port_may, may;
    logic [CREDIT_CNT_W-1:0]   port_credits [V];
    logic [CREDIT_CNT_W-1:0]   port_singles [V];
    logic [CREDIT_CNT_W+1:0]   need;
    logic            free;
    logic [RANK_W-1:0]   held;  // under Verilator: the output VC a releasing input VC holds
    // Temporaries start at zero (no latches): each is set before use below.
    port = '0;
    {eligible, preferred, first, port_busy, port_releasing, port_prio, port_may, may} = '0;
    for (int unsigned w = 0; w < V; w++) begin
      port_credits[w] = '0;
      port_singles[w] = '0;
    end
    {need, free} = '0;
    held = '0;
    releasing = '0;
    gnt_vc_o = '0;
    picked = '0;
    for (int unsigned r = 0; r < R; r++) begin
      pick[r] = '0;
      creq[r] = '0;
      csingle[r] = '0;
      picked_o[r] = '0;
      picked_k[r] = '0;
    end
    if (!SKIP_IDLE || |req_i) begin
      // Each releasing input VC decodes the VC it holds (vc w of port q, index
      // q*V + w) by comparisons against constants, not a variable shift: Yosys's
      // resource sharing pass spends hours on R shifters of R bits (15 ports).
      // Under Verilator only the releasing input VCs decode theirs, by index
      // (the same bits; R x P x V compares a cycle were most of a dragonfly
      // router's simulation).
      if (SKIP_IDLE) begin
        for (int unsigned r = 0; r < R; r++) begin
          if (rel_i[r] && {1'b0, own_port_i[r*PW+:PW]} < (PW+1)'(P) &&
              {1'b0, own_vc_i[r*VCW+:VCW]} < (VCW+1)'(V)) begin
            held = RANK_W'(own_port_i[r*PW+:PW]) * RANK_W'(V) + RANK_W'(own_vc_i[r*VCW+:VCW]);
            if (REQ_MAP[held*R + r]) releasing[held] = 1'b1;
          end
        end
      end else begin
        for (int unsigned r = 0; r < R; r++) begin
          for (int unsigned q = 0; q < P; q++) begin
            for (int unsigned w = 0; w < V; w++) begin
              if (REQ_MAP[(q*V+w)*R + r] && rel_i[r] && own_port_i[r*PW+:PW] == PW'(q) &&
                  own_vc_i[r*VCW+:VCW] == VCW'(w)) begin
                releasing[q*V+w] = 1'b1;
              end
            end
          end
        end
      end
      releasing = releasing & busy_i & ~handover_i;

      // Stage 1, per requesting input VC r.
      for (int unsigned r = 0; r < R; r++) begin
        if (!SKIP_IDLE || req_i[r]) begin
          port = port_i[r*PW+:PW];
          // The requested port's busy and releasing bits, credit counters,
          // stage-1 priority and the VCs r may request there, selected AND-OR
          // by a decoded port (indexing by port*V*CREDIT_CNT_W would be a run-time
          // multiply); only the ports REQ_MAP allows r are decoded.
          port_busy = '0;
          port_releasing = '0;
          port_prio = '0;
          port_may = '0;
          for (int unsigned w = 0; w < V; w++) begin
            port_credits[w] = '0;
            port_singles[w] = '0;
          end
          for (int unsigned q = 0; q < P; q++) begin
            for (int unsigned w = 0; w < V; w++) may[w] = REQ_MAP[(q*V+w)*R + r];
            if (|may && port == PW'(q)) begin
              port_may = may;
              port_busy = port_busy | busy_i[q*V+:V];
              port_releasing = port_releasing | releasing[q*V+:V];
              port_prio = port_prio | prio_q[q];
              for (int unsigned w = 0; w < V; w++) begin
                port_credits[w] = port_credits[w] | credits_i[(q*V+w)*CREDIT_CNT_W+:CREDIT_CNT_W];
                if (MULTI) port_singles[w] = port_singles[w] | singles_i[(q*V+w)*CREDIT_CNT_W+:CREDIT_CNT_W];
              end
            end
          end
          for (int unsigned w = 0; w < V; w++) begin
            // A releasing VC still owes the credit of its holder's tail, and one
            // per single-flit packet allocated to it and not sent yet.
            need = (CREDIT_CNT_W+2)'(len_i[r*LEN_W+:LEN_W]) + (CREDIT_CNT_W+2)'(port_busy[w]) + (CREDIT_CNT_W+2)'(port_singles[w]);
            free = single[r] ? !port_busy[w] : (!port_busy[w] && port_singles[w] == '0);
            eligible[w] = req_i[r] && vcs_i[r*V+w] && port_may[w] && (free || port_releasing[w]) &&
                          ({2'b0, port_credits[w]} >= need);
          end
          preferred = eligible & port_prio;
          first = (|preferred) ? (preferred & (~preferred + 1'b1)) : (eligible & (~eligible + 1'b1));
          // Place the picked VC at output VC port*V + w (a decoder, not a shifter).
          if (!SKIP_IDLE) begin
            for (int unsigned q = 0; q < P; q++) pick[r][q*V+:V] = (port == PW'(q)) ? first : '0;
          end
          for (int unsigned w = 0; w < V; w++) begin
            if (first[w]) begin
              gnt_vc_o[r*VCW+:VCW] = VCW'(w);
              if (SKIP_IDLE) begin
                picked[r] = 1'b1;
                picked_o[r] = RANK_W'(port) * RANK_W'(V) + RANK_W'(w);
                picked_k[r] = RANKS[(picked_o[r]*R + r)*RANK_W +: RANK_W];
                creq[picked_o[r]][picked_k[r]] = 1'b1;
                csingle[picked_o[r]][picked_k[r]] = single[r];
              end
            end
          end
        end
      end
    end
  end

  for (genvar o = 0; o < R; o++) begin : gen_out
    // The arbiter sees only o's possible requesters (REQ_MAP), NUM_REQ of them, in
    // input VC order: requester r is bit rank_in_row(REQ_MAP, o, r).
    localparam int unsigned NUM_REQ = rank_in_row(REQ_MAP, o, R);
    if (NUM_REQ == 0) begin : gen_never
      assign gnt_bits[o] = '0;
      assign cgnt[o] = '0;
      assign alloc_n_o[o*GRANT_CNT_W+:GRANT_CNT_W] = '0;
    end else begin : gen_some
      logic [NUM_REQ-1:0] reqs, gnts, single_of;
      if (SKIP_IDLE) begin : gen_ranked
        assign reqs = creq[o][NUM_REQ-1:0];
        assign single_of = csingle[o][NUM_REQ-1:0];
        assign cgnt[o] = R'(gnts);
        assign gnt_bits[o] = '0;
      end else begin : gen_wired
        for (genvar r = 0; r < R; r++) begin : gen_col
          if (REQ_MAP[o*R + r]) begin : gen_may
            localparam int unsigned RANK = rank_in_row(REQ_MAP, o, r);
            assign reqs[RANK] = pick[r][o];
            assign single_of[RANK] = single[r];
            assign gnt_bits[o][r] = gnts[RANK];
          end else begin : gen_not
            assign gnt_bits[o][r] = 1'b0;
          end
        end
        assign cgnt[o] = '0;
      end
      if (!MULTI) begin : gen_one
        rr_arbiter_rr #(.NUM_REQ(NUM_REQ)) i_arb (
          .clk_i, .rst_ni,
          .req_i    (reqs),
          .advance_i(1'b1),
          .gnt_o    (gnts)
        );
        assign alloc_n_o[o*GRANT_CNT_W+:GRANT_CNT_W] = '0;
        logic unused_single_of;
        assign unused_single_of = ^single_of;
      end else begin : gen_multi
        rr_arbiter_multi #(.NUM_REQ(NUM_REQ), .GRANTS(GRANTS), .CREDIT_CNT_W(CREDIT_CNT_W)) i_arb (
          .clk_i, .rst_ni,
          .req_i    (reqs),
          .single_i (single_of),
          .busy_i   (busy_i[o]),
          .credits_i(credits_i[o*CREDIT_CNT_W+:CREDIT_CNT_W]),
          .singles_i(singles_i[o*CREDIT_CNT_W+:CREDIT_CNT_W]),
          .gnt_o    (gnts),
          .n_o      (alloc_n_o[o*GRANT_CNT_W+:GRANT_CNT_W])
        );
      end
    end
  end

  // Stage-1 pointers: past the first VC (in priority order) allocated on the port.
  for (genvar q = 0; q < P; q++) begin : gen_prio
    logic [V-1:0] alloc, alloc_prio, winner;
    assign alloc = alloc_o[q*V+:V];
    assign alloc_prio = alloc & prio_q[q];
    assign winner = (|alloc_prio) ? (alloc_prio & (~alloc_prio + 1'b1)) : (alloc & (~alloc + 1'b1));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) prio_q[q] <= '1;
      else if (|alloc) prio_q[q] <= ~((winner - 1'b1) | winner);
    end
  end

  if (SKIP_IDLE) begin : gen_unused_pick
    // Stage 2 reads creq here; pick stays zero.
    logic [R-1:0] unused_rows;
    for (genvar r = 0; r < R; r++) begin : gen_row
      assign unused_rows[r] = ^pick[r];
    end
    logic unused_pick;
    assign unused_pick = ^unused_rows;
  end

  if (!MULTI) begin : gen_no_singles
    logic unused_singles;
    assign unused_singles = ^singles_i;
  end

  // gnt_free_o: the packet may leave in this cycle (speculative switch
  // allocation, rr_sw_alloc): its output VC is not handed over from a
  // holder whose tail is still here.
  for (genvar o = 0; o < R; o++) begin : gen_alloc
    assign alloc_o[o] = SKIP_IDLE ? |cgnt[o] : |gnt_bits[o];
  end

  always_comb begin
    gnt_o = '0;
    gnt_free_o = '0;
    if (SKIP_IDLE) begin
      // An input VC picked one output VC: its grant is there, at its rank.
      for (int unsigned r = 0; r < R; r++) begin
        if (picked[r]) begin
          gnt_o[r] = cgnt[picked_o[r]][picked_k[r]];
          if (SPEC) gnt_free_o[r] = gnt_o[r] && !busy_i[picked_o[r]];
        end
      end
    end else begin
      for (int unsigned o = 0; o < R; o++) begin
        gnt_o = gnt_o | gnt_bits[o];
        if (SPEC) gnt_free_o = gnt_free_o | (gnt_bits[o] & {R{!busy_i[o]}});
      end
    end
  end
endmodule
