// Synchronous FIFO, first-word fall-through: data_o is the front entry
// whenever the FIFO is not empty. With READS > 1 it shows the first READS
// entries (data_o word k = the entry k places behind the front, valid while
// count_o > k) and pops up to READS per cycle (pop_i is a count).
// The storage has no reset, so that synthesis can map it to RAM; REG_READ = 1
// reads it through a register (block RAM), with the same outputs.
// Popping more than count_o, or pushing when full without popping in the
// same cycle, is a protocol error; a push and a pop of a full FIFO in one
// cycle is legal. docs/architecture.md, "rr_fifo", has the details.
module rr_fifo #(
  parameter int unsigned WIDTH = 8,
  parameter int unsigned DEPTH = 4,
  parameter int unsigned READS = 1,        // entries shown and popped per cycle (1..DEPTH)
  parameter bit          REG_READ = 1'b0,  // read the storage through a register (block RAM)
  localparam int unsigned ADDR_W = (DEPTH > 1) ? $clog2(DEPTH) : 1,
  localparam int unsigned ENTRY_CNT_W = $clog2(DEPTH + 1),
  localparam int unsigned POP_CNT_W = $clog2(READS + 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   push_i,
  input  logic [WIDTH-1:0]       data_i,
  input  logic [POP_CNT_W-1:0]         pop_i,   // entries popped (0..READS)
  output logic [READS*WIDTH-1:0] data_o,
  output logic                   empty_o,
  output logic                   full_o,
  output logic [ENTRY_CNT_W-1:0]          count_o
);
  logic [ADDR_W-1:0]    wr_ptr_q, rd_ptr_q, rd_ptr_d;
  logic [ENTRY_CNT_W-1:0]    count_q;

  // ptr + n modulo DEPTH, for n <= DEPTH.
  function automatic logic [ADDR_W-1:0] advance(input logic [ADDR_W-1:0] ptr, input logic [ADDR_W:0] n);
    logic [ADDR_W:0] sum;
    sum = (ADDR_W+1)'(ptr) + n;
    advance = (sum >= (ADDR_W+1)'(DEPTH)) ? ADDR_W'(sum - (ADDR_W+1)'(DEPTH)) : ADDR_W'(sum);
  endfunction

  always_comb begin
    rd_ptr_d = rd_ptr_q;
    for (int unsigned n = 1; n <= READS; n++) begin
      if (pop_i == POP_CNT_W'(n)) rd_ptr_d = advance(rd_ptr_q, (ADDR_W+1)'(n));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      if (push_i) wr_ptr_q <= advance(wr_ptr_q, (ADDR_W+1)'(1));
      rd_ptr_q <= rd_ptr_d;
      count_q  <= count_q + ENTRY_CNT_W'(push_i) - ENTRY_CNT_W'(pop_i);
    end
  end

  if (REG_READ) begin : gen_reg_read
    // Read register k holds mem[rd_ptr_q + k] as it was before the last edge;
    // the entry written at that edge to that address is taken from the
    // forwarding register instead. ram_style asks for block RAM even where
    // LUT-RAM would be cheaper for a shallow buffer (Yosys and Vivado read it).
    (* ram_style = "block" *) logic [WIDTH-1:0] mem_q [DEPTH];
    always_ff @(posedge clk_i) begin
      if (push_i) mem_q[wr_ptr_q] <= data_i;
    end
    logic [WIDTH-1:0] fwd_data_q;
    always_ff @(posedge clk_i) fwd_data_q <= data_i;
    for (genvar k = 0; k < READS; k++) begin : gen_read
      logic [ADDR_W-1:0]    addr;
      logic [WIDTH-1:0] read_q;
      logic             fwd_q;
      assign addr = advance(rd_ptr_d, (ADDR_W+1)'(k));
      always_ff @(posedge clk_i) read_q <= mem_q[addr];
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) fwd_q <= 1'b0;
        else fwd_q <= push_i && (wr_ptr_q == addr);
      end
      assign data_o[k*WIDTH+:WIDTH] = fwd_q ? fwd_data_q : read_q;
    end
  end else begin : gen_async_read
    logic [WIDTH-1:0] mem_q [DEPTH];
    always_ff @(posedge clk_i) begin
      if (push_i) mem_q[wr_ptr_q] <= data_i;
    end
    for (genvar k = 0; k < READS; k++) begin : gen_read
      assign data_o[k*WIDTH+:WIDTH] = mem_q[advance(rd_ptr_q, (ADDR_W+1)'(k))];
    end
  end

  assign empty_o = (count_q == '0);
  assign full_o  = (count_q == ENTRY_CNT_W'(DEPTH));
  assign count_o = count_q;
endmodule
