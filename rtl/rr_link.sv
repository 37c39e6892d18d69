// Link pipeline between two routers in the network top: LATENCY-1 register
// stages (the sender's output register is the first cycle of latency).
module rr_link #(
  parameter int unsigned WIDTH = 8,
  parameter int unsigned LATENCY = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [WIDTH-1:0] data_i,
  output logic [WIDTH-1:0] data_o
);
  if (LATENCY <= 1) begin : gen_wire
    assign data_o = data_i;
    logic unused_clk;
    assign unused_clk = clk_i ^ rst_ni;
  end else begin : gen_pipe
    logic [WIDTH-1:0] stage_q [LATENCY-1];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int unsigned s = 0; s < LATENCY - 1; s++) stage_q[s] <= '0;
      end else begin
        stage_q[0] <= data_i;
        for (int unsigned s = 1; s < LATENCY - 1; s++) stage_q[s] <= stage_q[s-1];
      end
    end
    assign data_o = stage_q[LATENCY-2];
  end
endmodule
