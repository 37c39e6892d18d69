# rlroute synth: timing constraints of the router top {{TOP}} ({{CONFIG}}).
# Units: ns and fF (sta.tcl sets them with set_cmd_units).

# One ideal clock: no clock tree, so no skew, latency or uncertainty.
create_clock -name clk -period {{CLOCK_NS}} [get_ports {{CLOCK_PORT}}]

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
set_false_path -from [get_ports {{RESET_PORT}}]
