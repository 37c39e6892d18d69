#!/usr/bin/python3
"""Writes synth/rlroute45.lib, the generic 45 nm-class Liberty library that
`rlroute synth` maps to by default.

Source of the numbers: the NanGate FreePDK45 Open Cell Library (Nangate
45nm Open Cell Library, typical corner: 1.10 V, 25 C, nominal process),
X1 drive strength of every cell, plus X2/X4/X8 inverters and buffers so
that ABC can buffer high-fanout nets (abc -constr: buffer, upsize).

  * Cell areas (um^2) are the library's published values (the cells sit on
    a 0.19 um x 1.4 um site grid, so every area is a multiple of 0.266 um^2).
  * Pin capacitances are the library's X1 values, rounded to 0.05 fF.
  * Delays are NOT copied tables: each arc is a first-order fit of the
    library's typical-corner X1 timing, delay = d0 + R * C_load + 0.25 *
    t_in, transition = 0.004 ns + 2 R * C_load + 0.1 * t_in, tabulated at 3 x
    3 points (input transition x output load). Good to roughly +-30 % of the
    original tables in the range of the index points; enough to rank paths
    and estimate Fmax, not for signoff.

Run it from the repository root to regenerate the library (the output is
deterministic):  /usr/bin/python3 synth/make_liberty.py
"""

import os

SLEWS = [0.005, 0.05, 0.2]  # ns, input transition
LOADS = [0.5, 4.0, 16.0]  # fF, output load
SLEW_FACTOR = 0.25

# name: (area um^2, {input pin: cap fF}, {output pin: function}, d0 rise ns, d0 fall ns,
#        R rise ns/fF, R fall ns/fF, timing sense per input or None for the default)
COMB = [
    ("INV_X1", 0.532, {"A": 1.70}, {"ZN": "!A"}, 0.007, 0.005, 0.0060, 0.0035),
    ("INV_X2", 0.798, {"A": 3.25}, {"ZN": "!A"}, 0.007, 0.005, 0.0030, 0.0018),
    ("INV_X4", 1.330, {"A": 6.25}, {"ZN": "!A"}, 0.007, 0.005, 0.0015, 0.0009),
    ("INV_X8", 2.394, {"A": 11.80}, {"ZN": "!A"}, 0.007, 0.005, 0.0008, 0.0005),
    ("BUF_X1", 0.798, {"A": 0.95}, {"Z": "A"}, 0.022, 0.025, 0.0045, 0.0035),
    ("BUF_X2", 1.064, {"A": 1.65}, {"Z": "A"}, 0.022, 0.025, 0.0023, 0.0018),
    ("BUF_X4", 1.862, {"A": 3.10}, {"Z": "A"}, 0.022, 0.025, 0.0012, 0.0009),
    ("BUF_X8", 3.458, {"A": 6.25}, {"Z": "A"}, 0.022, 0.025, 0.0006, 0.0005),
    ("NAND2_X1", 0.798, {"A1": 1.60, "A2": 1.60}, {"ZN": "!(A1 & A2)"}, 0.009, 0.010, 0.0060, 0.0050),
    ("NAND3_X1", 1.064, {"A1": 1.60, "A2": 1.60, "A3": 1.60}, {"ZN": "!(A1 & A2 & A3)"},
     0.011, 0.014, 0.0060, 0.0065),
    ("NAND4_X1", 1.330, {"A1": 1.50, "A2": 1.55, "A3": 1.55, "A4": 1.55}, {"ZN": "!(A1 & A2 & A3 & A4)"},
     0.013, 0.019, 0.0060, 0.0080),
    ("NOR2_X1", 0.798, {"A1": 1.70, "A2": 1.65}, {"ZN": "!(A1 | A2)"}, 0.015, 0.007, 0.0110, 0.0035),
    ("NOR3_X1", 1.064, {"A1": 1.60, "A2": 1.60, "A3": 1.65}, {"ZN": "!(A1 | A2 | A3)"},
     0.025, 0.008, 0.0165, 0.0035),
    ("NOR4_X1", 1.330, {"A1": 1.55, "A2": 1.60, "A3": 1.60, "A4": 1.60}, {"ZN": "!(A1 | A2 | A3 | A4)"},
     0.038, 0.009, 0.0220, 0.0035),
    ("AND2_X1", 1.064, {"A1": 0.90, "A2": 0.95}, {"ZN": "A1 & A2"}, 0.025, 0.030, 0.0045, 0.0035),
    ("AND3_X1", 1.330, {"A1": 0.90, "A2": 0.90, "A3": 0.95}, {"ZN": "A1 & A2 & A3"},
     0.028, 0.036, 0.0045, 0.0035),
    ("AND4_X1", 1.596, {"A1": 0.90, "A2": 0.90, "A3": 0.90, "A4": 0.95}, {"ZN": "A1 & A2 & A3 & A4"},
     0.031, 0.043, 0.0045, 0.0035),
    ("OR2_X1", 1.064, {"A1": 0.90, "A2": 0.95}, {"ZN": "A1 | A2"}, 0.023, 0.050, 0.0045, 0.0035),
    ("OR3_X1", 1.330, {"A1": 0.90, "A2": 0.90, "A3": 0.95}, {"ZN": "A1 | A2 | A3"},
     0.026, 0.065, 0.0045, 0.0035),
    ("OR4_X1", 1.596, {"A1": 0.90, "A2": 0.90, "A3": 0.90, "A4": 0.95}, {"ZN": "A1 | A2 | A3 | A4"},
     0.028, 0.080, 0.0045, 0.0035),
    ("AOI21_X1", 1.064, {"A": 1.60, "B1": 1.65, "B2": 1.65}, {"ZN": "!(A | (B1 & B2))"},
     0.020, 0.011, 0.0110, 0.0050),
    ("AOI22_X1", 1.330, {"A1": 1.60, "A2": 1.60, "B1": 1.60, "B2": 1.65}, {"ZN": "!((A1 & A2) | (B1 & B2))"},
     0.024, 0.013, 0.0110, 0.0055),
    ("OAI21_X1", 1.064, {"A": 1.65, "B1": 1.65, "B2": 1.60}, {"ZN": "!(A & (B1 | B2))"},
     0.016, 0.014, 0.0080, 0.0060),
    ("OAI22_X1", 1.330, {"A1": 1.60, "A2": 1.60, "B1": 1.60, "B2": 1.60}, {"ZN": "!((A1 | A2) & (B1 | B2))"},
     0.020, 0.016, 0.0110, 0.0060),
    ("XOR2_X1", 1.596, {"A": 2.20, "B": 2.40}, {"Z": "A ^ B"}, 0.030, 0.032, 0.0060, 0.0040),
    ("XNOR2_X1", 1.596, {"A": 2.20, "B": 2.55}, {"ZN": "!(A ^ B)"}, 0.030, 0.032, 0.0060, 0.0040),
    ("MUX2_X1", 1.862, {"A": 0.95, "B": 0.95, "S": 1.90}, {"Z": "(S & B) | (A & !S)"},
     0.040, 0.050, 0.0045, 0.0035),
]

# Flip-flops: (name, area, reset pin or None, clear/preset attribute)
FLOPS = [
    ("DFF_X1", 4.522, None, None),
    ("DFFR_X1", 5.320, "RN", 'clear : "!RN" ;'),
    ("DFFS_X1", 5.320, "SN", 'preset : "!SN" ;'),
]
CLK_Q = (0.085, 0.080, 0.0045, 0.0035)  # d0 rise, d0 fall, R rise, R fall
SETUP, HOLD = 0.035, 0.004  # ns, D relative to CK rising
RECOVERY, REMOVAL = 0.030, 0.020  # ns, RN/SN release relative to CK rising
RESET_Q = (0.060, 0.055)  # ns, async clear/preset to Q


def fmt_list(values):
    return ", ".join(f"{v:.4f}" for v in values)


def table(name, d0, r, transition=False):
    rows = []
    for slew in SLEWS:
        row = []
        for load in LOADS:
            if transition:
                row.append(0.004 + 2.0 * r * load + 0.1 * slew)
            else:
                row.append(d0 + r * load + SLEW_FACTOR * slew)
        rows.append('"' + fmt_list(row) + '"')
    body = ", \\\n            ".join(rows)
    return f"        {name} (delay_3x3) {{\n          values ({body}) ;\n        }}\n"


def arc(related, sense, d0r, d0f, rr, rf, timing_type=None):
    out = "      timing () {\n"
    out += f'        related_pin : "{related}" ;\n'
    if timing_type:
        out += f"        timing_type : {timing_type} ;\n"
    out += f"        timing_sense : {sense} ;\n"
    out += table("cell_rise", d0r, rr)
    out += table("rise_transition", d0r, rr, transition=True)
    out += table("cell_fall", d0f, rf)
    out += table("fall_transition", d0f, rf, transition=True)
    out += "      }\n"
    return out


def sense_of(function, pin):
    if "^" in function:
        return "non_unate"
    if pin == "S":
        return "non_unate"
    return "negative_unate" if function.startswith("!") else "positive_unate"


def constraint(related, timing_type, value):
    return (f"      timing () {{\n        related_pin : \"{related}\" ;\n        timing_type : {timing_type} ;\n"
            f"        rise_constraint (scalar) {{ values (\"{value:.4f}\") ; }}\n"
            f"        fall_constraint (scalar) {{ values (\"{value:.4f}\") ; }}\n      }}\n")


def comb_cell(name, area, inputs, outputs, d0r, d0f, rr, rf):
    out = f"  cell ({name}) {{\n    area : {area:.3f} ;\n"
    for pin, cap in inputs.items():
        out += f"    pin ({pin}) {{\n      direction : input ;\n      capacitance : {cap:.4f} ;\n    }}\n"
    for pin, function in outputs.items():
        out += f'    pin ({pin}) {{\n      direction : output ;\n      function : "{function}" ;\n'
        out += "      max_capacitance : 60.0 ;\n"
        for inp in inputs:
            out += arc(inp, sense_of(function, inp), d0r, d0f, rr, rf)
        out += "    }\n"
    return out + "  }\n"


def flop_cell(name, area, reset_pin, reset_attr):
    out = f"  cell ({name}) {{\n    area : {area:.3f} ;\n"
    out += '    ff (IQ, IQN) {\n      next_state : "D" ;\n      clocked_on : "CK" ;\n'
    if reset_attr:
        out += f"      {reset_attr}\n"
    out += "    }\n"
    out += "    pin (D) {\n      direction : input ;\n      capacitance : 1.1000 ;\n"
    out += constraint("CK", "setup_rising", SETUP) + constraint("CK", "hold_rising", HOLD) + "    }\n"
    out += "    pin (CK) {\n      direction : input ;\n      clock : true ;\n      capacitance : 0.9500 ;\n    }\n"
    if reset_pin:
        out += f"    pin ({reset_pin}) {{\n      direction : input ;\n      capacitance : 1.7500 ;\n"
        out += constraint("CK", "recovery_rising", RECOVERY) + constraint("CK", "removal_rising", REMOVAL)
        out += "    }\n"
    for pin, function in (("Q", "IQ"), ("QN", "IQN")):
        out += f'    pin ({pin}) {{\n      direction : output ;\n      function : "{function}" ;\n'
        out += "      max_capacitance : 60.0 ;\n"
        out += arc("CK", "non_unate", *CLK_Q, timing_type="rising_edge")
        if reset_pin:
            # Clear drives Q low and QN high; preset the opposite. Only the
            # edge that can happen gets a table.
            falls = (reset_pin == "RN") == (pin == "Q")
            d0 = RESET_Q[1] if falls else RESET_Q[0]
            kind = "cell_fall" if falls else "cell_rise"
            trans = "fall_transition" if falls else "rise_transition"
            sense = "positive_unate" if falls else "negative_unate"
            ttype = "clear" if reset_pin == "RN" else "preset"
            out += (f"      timing () {{\n        related_pin : \"{reset_pin}\" ;\n        timing_type : {ttype} ;\n"
                    f"        timing_sense : {sense} ;\n")
            out += table(kind, d0, CLK_Q[3]) + table(trans, d0, CLK_Q[3], transition=True) + "      }\n"
        out += "    }\n"
    return out + "  }\n"


def tie_cell(name, value):
    return (f"  cell ({name}) {{\n    area : 0.532 ;\n    pin (Z) {{\n      direction : output ;\n"
            f"      function : \"{value}\" ;\n    }}\n  }}\n")


HEADER = """/*
 * rlroute45: a small generic 45 nm-class standard-cell library for
 * `rlroute synth` (area and first-order timing; no power, no layout).
 *
 * Source of the numbers: NanGate FreePDK45 Open Cell Library (Nangate 45nm
 * Open Cell Library), typical corner 1.10 V / 25 C, X1 cells (inverters and
 * buffers also X2, X4, X8, for buffering high-fanout nets). Cell names,
 * pin names, functions and areas follow that library's published datasheet;
 * pin capacitances are its X1 values rounded; delays are a first-order fit
 * (delay = d0 + R * C_load + 0.25 * t_in) of its typical-corner X1 timing,
 * tabulated at 3 x 3 points. This file was written for rlroute by
 * synth/make_liberty.py (regenerate with that script); it is not a copy of
 * the NanGate library files and is not signoff data.
 *
 * Units: time ns, capacitance fF, area um^2. Wire load model rlroute_wl
 * (0.2 fF per um, about 4 um per net plus 3 um per extra fanout) is the
 * library default, so nets are not free.
 */
"""


def library():
    out = HEADER
    out += "library (rlroute45) {\n"
    out += '  technology (cmos) ;\n  delay_model : table_lookup ;\n'
    out += '  time_unit : "1ns" ;\n  voltage_unit : "1V" ;\n  current_unit : "1mA" ;\n'
    out += '  pulling_resistance_unit : "1kohm" ;\n  leakage_power_unit : "1nW" ;\n'
    out += "  capacitive_load_unit (1, ff) ;\n"
    out += "  nom_process : 1.0 ;\n  nom_voltage : 1.10 ;\n  nom_temperature : 25.0 ;\n"
    out += "  operating_conditions (typical) {\n    process : 1.0 ;\n    voltage : 1.10 ;\n    temperature : 25.0 ;\n  }\n"
    out += '  default_operating_conditions : typical ;\n'
    out += "  input_threshold_pct_rise : 50 ;\n  input_threshold_pct_fall : 50 ;\n"
    out += "  output_threshold_pct_rise : 50 ;\n  output_threshold_pct_fall : 50 ;\n"
    out += "  slew_lower_threshold_pct_rise : 30 ;\n  slew_lower_threshold_pct_fall : 30 ;\n"
    out += "  slew_upper_threshold_pct_rise : 70 ;\n  slew_upper_threshold_pct_fall : 70 ;\n"
    out += "  slew_derate_from_library : 1.0 ;\n"
    out += "  default_max_transition : 0.5 ;\n  default_fanout_load : 1.0 ;\n"
    out += "  default_inout_pin_cap : 1.0 ;\n  default_input_pin_cap : 1.0 ;\n  default_output_pin_cap : 0.0 ;\n"
    out += "  default_cell_leakage_power : 0.0 ;\n  default_leakage_power_density : 0.0 ;\n"
    out += "  wire_load (rlroute_wl) {\n    capacitance : 0.2 ;\n    resistance : 0.0 ;\n    area : 0.0 ;\n"
    out += "    slope : 3.0 ;\n"
    for fanout in range(1, 9):
        out += f"    fanout_length ({fanout}, {4.0 + 3.0 * (fanout - 1):.1f}) ;\n"
    out += "  }\n  default_wire_load : rlroute_wl ;\n  default_wire_load_mode : top ;\n"
    out += "  lu_table_template (delay_3x3) {\n    variable_1 : input_net_transition ;\n"
    out += "    variable_2 : total_output_net_capacitance ;\n"
    out += f'    index_1 ("{fmt_list(SLEWS)}") ;\n    index_2 ("{fmt_list(LOADS)}") ;\n  }}\n'
    for cell in COMB:
        out += comb_cell(*cell)
    for cell in FLOPS:
        out += flop_cell(*cell)
    out += tie_cell("LOGIC0_X1", "0") + tie_cell("LOGIC1_X1", "1")
    return out + "}\n"


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "rlroute45.lib"), "w", encoding="ascii") as f:
        f.write(library())
