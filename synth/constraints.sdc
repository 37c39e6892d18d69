# rlroute synth: timing constraints of the top {{TOP}} ({{CONFIG}}): the router,
# or with --block the block.
# Units: ns and fF (sta.tcl sets them with set_cmd_units).

# One ideal clock: no clock tree, so no skew, latency or uncertainty. A
# block without a clock port (`rlroute synth --block` of a combinational
# block) gets a virtual clock: its paths from inputs to outputs are timed
# against the period.
if {[llength [get_ports -quiet {{CLOCK_PORT}}]] > 0} {
  create_clock -name clk -period {{CLOCK_NS}} [get_ports {{CLOCK_PORT}}]
} else {
  create_clock -name clk -period {{CLOCK_NS}}
}

# The router's ports face other routers' registers (output register -> link
# -> input FIFO), so the paths from inputs and to outputs get the whole period.
set rlroute_inputs {}
foreach rlroute_port [all_inputs] {
  if {[get_full_name $rlroute_port] ne "{{CLOCK_PORT}}"} { lappend rlroute_inputs $rlroute_port }
}
set_input_delay 0.0 -clock clk $rlroute_inputs
set_output_delay 0.0 -clock clk [all_outputs]
set_input_transition {{INPUT_TRANSITION}} $rlroute_inputs
set_load {{OUTPUT_LOAD}} [all_outputs]

# The asynchronous reset is synchronised outside the router: not timed here.
if {[llength [get_ports -quiet {{RESET_PORT}}]] > 0} {
  set_false_path -from [get_ports {{RESET_PORT}}]
}
