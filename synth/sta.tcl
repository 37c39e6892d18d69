# rlroute synth: static timing analysis of the standard-cell netlist with
# OpenSTA. Filled in by `rlroute synth` ({{CONFIG}}); run from the output
# directory:  sta -no_init -exit logs/sta.tcl
read_liberty {{LIBERTY}}
# Constraints and reports in ns and fF whatever the library's own units.
set_cmd_units -time ns -capacitance fF
read_verilog logs/netlist.v
link_design {{TOP}}
read_sdc logs/constraints.sdc

puts "rlroute: critical path"
report_checks -path_delay max -digits 4 -fields {capacitance slew input_pin}
puts "rlroute: worst endpoints"
report_checks -path_delay max -group_count 10 -endpoint_count 1 -format end -digits 4
puts "rlroute: summary"
report_worst_slack -digits 4
report_tns -digits 4
