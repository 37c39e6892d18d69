// 16-bit Galois LFSR (x^16 + x^14 + x^13 + x^11 + 1, period 2^16 - 1), the
// source of randomness of the adaptive and oblivious routing algorithms.
// Reset clears it; the first cycle after reset loads seed_i (forced odd, so
// never zero), and from then on it advances every cycle. The seed comes from
// the router identity and the config seed, so every run is reproducible.
module rr_lfsr (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] seed_i,
  output logic [15:0] rand_o
);
  logic [15:0] state_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) state_q <= '0;
    else if (state_q == '0) state_q <= seed_i | 16'h1;
    else state_q <= {1'b0, state_q[15:1]} ^ (state_q[0] ? 16'hB400 : 16'h0000);
  end
  assign rand_o = state_q;
endmodule
