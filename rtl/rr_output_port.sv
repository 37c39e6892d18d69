// One router output port: the credit counter and the allocated flag of every
// downstream VC, and the output register that drives the link.
// A head flit leaving on a network port (not an NI port) has its hop count
// incremented here.
module rr_output_port #(
  parameter int unsigned V = 2,
  parameter int unsigned B = 8,           // downstream buffer depth per VC
  parameter int unsigned W = 64,
  parameter bit          COUNT_HOP = 1'b1,
  parameter int unsigned HOPS_LSB = 0,
  parameter int unsigned HOPS_W = 6,
  localparam int unsigned VCW = rr_pkg::id_width(V),
  localparam int unsigned CW = $clog2(B + 1),
  localparam int unsigned LW = rr_pkg::link_width(V, W),
  localparam int unsigned CRW = rr_pkg::credit_width(V)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // from the crossbar
  input  logic             send_i,
  input  logic [W-1:0]     data_i,
  input  logic             head_i,
  input  logic             tail_i,
  input  logic [VCW-1:0]   vc_i,
  // from the VC allocator: output VC w was allocated to a packet this cycle
  input  logic [V-1:0]     alloc_i,
  // link
  output logic [LW-1:0]    flit_o,
  input  logic [CRW-1:0]   credit_i,
  // state for the VC allocator
  output logic [V-1:0]     busy_o,
  output logic [V*CW-1:0]  credits_o
);
  logic           credit_valid;
  logic [VCW-1:0] credit_vc;
  assign credit_valid = credit_i[rr_pkg::CREDIT_VALID];
  assign credit_vc    = credit_i[rr_pkg::CREDIT_VC_LSB+:VCW];

  logic [V-1:0] busy_q;
  for (genvar w = 0; w < V; w++) begin : gen_vc
    rr_credit_counter #(.DEPTH(B)) i_credits (
      .clk_i, .rst_ni,
      .consume_i(send_i && (vc_i == VCW'(w))),
      .return_i (credit_valid && (credit_vc == VCW'(w))),
      .credits_o(credits_o[w*CW+:CW])
    );
    // Allocated from VC allocation until the tail flit leaves.
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) busy_q[w] <= 1'b0;
      else if (alloc_i[w]) busy_q[w] <= 1'b1;
      else if (send_i && tail_i && (vc_i == VCW'(w))) busy_q[w] <= 1'b0;
    end
  end
  assign busy_o = busy_q;

  logic [W-1:0] data_out;
  always_comb begin
    data_out = data_i;
    if (COUNT_HOP && head_i) data_out[HOPS_LSB+:HOPS_W] = data_i[HOPS_LSB+:HOPS_W] + 1'b1;
  end

  logic [LW-1:0] flit_d, flit_q;
  always_comb begin
    flit_d = '0;
    flit_d[rr_pkg::LINK_VALID]             = 1'b1;
    flit_d[rr_pkg::LINK_HEAD]              = head_i;
    flit_d[rr_pkg::LINK_TAIL]              = tail_i;
    flit_d[rr_pkg::LINK_VC_LSB+:VCW]       = vc_i;
    flit_d[rr_pkg::link_data_lsb(V)+:W]    = data_out;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) flit_q <= '0;
    else if (send_i) flit_q <= flit_d;
    else flit_q <= '0;
  end
  assign flit_o = flit_q;
endmodule
