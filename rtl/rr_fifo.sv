// Synchronous FIFO, first-word fall-through: data_o is the front entry
// whenever the FIFO is not empty.
// The storage has no reset so synthesis can map it to RAM. With REG_READ = 0
// the front is read asynchronously (LUT-RAM on FPGAs, a register file on
// standard cells). With REG_READ = 1 the storage is read through a register,
// as block RAM and SRAM macros are: every cycle it reads the entry that will
// be the front in the next cycle (the one after the front when popping), and
// an entry written in the same cycle at that address is forwarded around the
// memory. The outputs are the same cycle for cycle either way.
// Popping when empty, or pushing when full without popping in the same cycle,
// is a protocol error: credit-based flow control guarantees neither happens
// (a credit goes upstream only after the pop), and the test bench checks
// credits. Push and pop of a full FIFO in one cycle is legal: the pop reads
// the old front before the write lands.
module rr_fifo #(
  parameter int unsigned WIDTH = 8,
  parameter int unsigned DEPTH = 4,
  parameter bit          REG_READ = 1'b0,  // read the storage through a register (block RAM)
  localparam int unsigned AW = (DEPTH > 1) ? $clog2(DEPTH) : 1,
  localparam int unsigned CW = $clog2(DEPTH + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [WIDTH-1:0] data_i,
  input  logic             pop_i,
  output logic [WIDTH-1:0] data_o,
  output logic             empty_o,
  output logic             full_o,
  output logic [CW-1:0]    count_o
);
  logic [AW-1:0]    wr_ptr_q, rd_ptr_q, rd_ptr_d;
  logic [CW-1:0]    count_q;

  function automatic logic [AW-1:0] next_ptr(input logic [AW-1:0] ptr);
    if (ptr == AW'(DEPTH - 1)) next_ptr = '0;
    else next_ptr = ptr + 1'b1;
  endfunction

  assign rd_ptr_d = pop_i ? next_ptr(rd_ptr_q) : rd_ptr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      if (push_i) wr_ptr_q <= next_ptr(wr_ptr_q);
      rd_ptr_q <= rd_ptr_d;
      if (push_i && !pop_i) count_q <= count_q + 1'b1;
      else if (pop_i && !push_i) count_q <= count_q - 1'b1;
    end
  end

  if (REG_READ) begin : gen_reg_read
    // The read register holds mem[rd_ptr_q] as it was before the last edge;
    // the entry written at that edge to that address is taken from the
    // forwarding register instead. ram_style asks for block RAM even where
    // LUT-RAM would be cheaper for a shallow buffer (Yosys and Vivado read it).
    (* ram_style = "block" *) logic [WIDTH-1:0] mem_q [DEPTH];
    always_ff @(posedge clk_i) begin
      if (push_i) mem_q[wr_ptr_q] <= data_i;
    end
    logic [WIDTH-1:0] read_q, fwd_data_q;
    logic             fwd_q;
    always_ff @(posedge clk_i) begin
      read_q     <= mem_q[rd_ptr_d];
      fwd_data_q <= data_i;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) fwd_q <= 1'b0;
      else fwd_q <= push_i && (wr_ptr_q == rd_ptr_d);
    end
    assign data_o = fwd_q ? fwd_data_q : read_q;
  end else begin : gen_async_read
    logic [WIDTH-1:0] mem_q [DEPTH];
    always_ff @(posedge clk_i) begin
      if (push_i) mem_q[wr_ptr_q] <= data_i;
    end
    assign data_o = mem_q[rd_ptr_q];
  end

  assign empty_o = (count_q == '0);
  assign full_o  = (count_q == CW'(DEPTH));
  assign count_o = count_q;
endmodule
