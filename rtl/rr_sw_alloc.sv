// Separable input-first switch allocator.
// Stage 1 (per input port): round-robin over the port's requesting VCs.
// Stage 2 (per output port): round-robin over the input ports whose chosen VC
//   wants that output. An input arbiter advances only when its choice won,
//   so a VC that loses at the output keeps its turn.
module rr_sw_alloc #(
  parameter int unsigned P = 5,
  parameter int unsigned V = 2,
  localparam int unsigned PW = rr_pkg::id_width(P)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [P*V-1:0]    req_i,
  input  logic [P*V*PW-1:0] port_i,
  output logic [P*V-1:0]    gnt_o,     // per input VC, at most one per input port
  output logic [P-1:0]      out_valid_o,
  output logic [P*PW-1:0]   out_sel_o  // per output port: the winning input port
);
  logic [V-1:0]  in_gnt  [P];
  logic [PW-1:0] in_port [P];
  logic [P-1:0]  in_has, in_won;
  logic [P-1:0]  out_gnt [P];  // [output][input]

  for (genvar p = 0; p < P; p++) begin : gen_in
    rr_arbiter_rr #(.N(V)) i_arb (
      .clk_i, .rst_ni,
      .req_i    (req_i[p*V+:V]),
      .advance_i(in_won[p]),
      .gnt_o    (in_gnt[p])
    );
    assign in_has[p] = |req_i[p*V+:V];
    always_comb begin
      in_port[p] = '0;
      for (int unsigned v = 0; v < V; v++) begin
        if (in_gnt[p][v]) in_port[p] = port_i[(p*V+v)*PW+:PW];
      end
    end
  end

  for (genvar o = 0; o < P; o++) begin : gen_out
    logic [P-1:0] reqs;
    for (genvar p = 0; p < P; p++) begin : gen_col
      assign reqs[p] = in_has[p] && (in_port[p] == PW'(o));
    end
    rr_arbiter_rr #(.N(P)) i_arb (
      .clk_i, .rst_ni,
      .req_i    (reqs),
      .advance_i(1'b1),
      .gnt_o    (out_gnt[o])
    );
    assign out_valid_o[o] = |reqs;
    always_comb begin
      out_sel_o[o*PW+:PW] = '0;
      for (int unsigned p = 0; p < P; p++) begin
        if (out_gnt[o][p]) out_sel_o[o*PW+:PW] = PW'(p);
      end
    end
  end

  always_comb begin
    in_won = '0;
    for (int unsigned o = 0; o < P; o++) in_won = in_won | out_gnt[o];
  end

  for (genvar p = 0; p < P; p++) begin : gen_gnt
    assign gnt_o[p*V+:V] = in_won[p] ? in_gnt[p] : '0;
  end
endmodule
