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
# The worst setup slack of any path through each module instance: every
# cell pin's worst max-delay slack (a vertex's slacks are per
# analysis point, min first, then max; in seconds), the worst per instance
# prefix of the cell's flattened name (the part before its last '.'; "-" for
# the top's own cells). rlroute attributes each prefix to its modules and
# top-level block and checks that the worst of them is the worst slack.
puts "rlroute: slack by instance"
set rlroute_worst [dict create]
foreach pin [get_pins -hierarchical *] {
  set name [get_full_name $pin]
  set cell [string range $name 0 [expr {[string last / $name] - 1}]]
  set dot [string last . $cell]
  set prefix [expr {$dot < 0 ? "-" : [string range $cell 0 [expr {$dot - 1}]]}]
  foreach vertex [$pin vertices] {
    foreach tr {rise fall} {
      set s [lindex [$vertex slacks $tr] 1]
      if {$s > 1e20} continue
      if {![dict exists $rlroute_worst $prefix] || $s < [dict get $rlroute_worst $prefix]} {
        dict set rlroute_worst $prefix $s
      }
    }
  }
}
dict for {prefix s} $rlroute_worst { puts [format "rlroute-slack %s %.4f" $prefix [expr {$s * 1e9}]] }
puts "rlroute: end"
