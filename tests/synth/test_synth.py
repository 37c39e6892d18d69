#!/usr/bin/env python3
"""End-to-end tests of `rlroute synth` (CTest labels synth, synth_long).

  test_synth.py example RLROUTE CONFIG WORKDIR   all three paths on one config: no tool error, sane numbers
  test_synth.py generic RLROUTE CONFIG WORKDIR   the generic Yosys path only (cells, depth, blocks, memories)
  test_synth.py elaborate RLROUTE CONFIG WORKDIR Yosys reads and elaborates the router top (hierarchy -check;
                                                 proc, check -assert except on the shared blocks): the dialect
  test_synth.py scaling RLROUTE CONFIG WORKDIR   area grows with router.vcs, buffer_flits, flit_bits (FPGA: LUTs, or FFs for buffer_flits)
  test_synth.py bram    RLROUTE CONFIG WORKDIR   64-flit VC buffers with router.buffer_read = "registered" map to
                                                 block RAM on the FPGA path (and stay LUT-RAM with "async")
  test_synth.py errors  RLROUTE CONFIG WORKDIR   bad --liberty / --clock-ns / --paths / -o: one-line
                                                 message, exit code 1, nothing but logs written
  test_synth.py interrupt RLROUTE CONFIG WORKDIR SIGTERM / SIGINT while Yosys runs: one line, exit 1, the tool
                                                 stopped, nothing written, an earlier output untouched
  test_synth.py block   RLROUTE CONFIG WORKDIR   --block: one block on its own (a clocked one on every path, a
                                                 combinational one through OpenSTA), against the same block
                                                 in the whole router; the choice among specializations
                                                 (the dragonfly MIN example beside CONFIG); bad --block values

Every check prints "ok: ..." or "FAIL: ..."; the exit code is the number of failures (capped at 1).
"""

import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys

FAILS = []


def check(name, condition, detail=""):
    print(("ok: " if condition else "FAIL: ") + name + ("" if condition or not detail else f" ({detail})"))
    if not condition:
        FAILS.append(name)


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True)


def synth(rlroute, config, out, *extra):
    p = run([rlroute, "synth", config, "-o", out, "--quiet", *extra])
    if p.returncode != 0:
        print(p.stderr)
    return p


def variant(base, path, name, key, value):
    """Copies BASE with [router] KEY = VALUE and [design] name = NAME."""
    with open(base) as f:
        text = f.read()
    text, n = re.subn(rf"(?m)^{key}\s*=.*$", f"{key} = {value}", text)
    assert n == 1, f"{base} has no {key}"
    text = re.sub(r'(?m)^name\s*=.*$', f'name = "{name}"', text)
    with open(path, "w") as f:
        f.write(text)
    return path


def router(report, path):
    return report[path]["router"]


def test_example(rlroute, config, work):
    name = os.path.splitext(os.path.basename(config))[0]
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    json_copy = os.path.join(work, name + ".json")
    p = synth(rlroute, config, out, "--json", json_copy)
    check(f"{name}: rlroute synth exits 0", p.returncode == 0, p.stderr.strip())
    if p.returncode != 0:
        return
    with open(os.path.join(out, "synth.json")) as f:
        r = json.load(f)
    with open(json_copy) as f:
        check(f"{name}: --json copy equals synth.json", json.load(f) == r)
    check(f"{name}: synth.md written", os.path.getsize(os.path.join(out, "synth.md")) > 0)
    for log in ("generic.log", "depth.log", "liberty.log", "sta.log", "fpga.log"):
        path = os.path.join(out, "logs", log)
        text = open(path).read() if os.path.exists(path) else None
        check(f"{name}: logs/{log} kept", text is not None)
        if text is not None:
            check(f"{name}: no tool error in logs/{log}", "ERROR:" not in text and "\nError:" not in text)

    g, l, f = router(r, "generic"), router(r, "liberty"), router(r, "fpga")
    check(f"{name}: generic cells > 0", g["cells"] > 0, g)
    check(f"{name}: flip-flops > 0", g["flops"] > 0, g)
    check(f"{name}: transistors > cells", g["transistors"] > g["cells"], g)
    check(f"{name}: transistor estimate complete", not g["transistors_incomplete"], g)
    check(f"{name}: logic depth > 0", g.get("depth", 0) > 0, g)
    check(f"{name}: standard-cell area > 0 um^2", l["area_um2"] > 0, l)
    check(f"{name}: LUTs and FFs > 0", f["lut"] > 0 and f["ff"] > 0, f)
    check(f"{name}: FFs on the FPGA = generic flip-flops minus LUTRAM storage", f["ff"] <= g["flops"], (f, g))

    t = r["liberty"]["timing"]
    check(f"{name}: OpenSTA critical path is not empty",
          t["startpoint"] != "" and t["endpoint"] != "" and len(t["path"]) >= 3, t["startpoint"])
    check(f"{name}: Fmax is positive", t["fmax_mhz"] > 0, t["fmax_mhz"])
    check(f"{name}: Fmax = 1 / (clock - worst slack)",
          abs(t["fmax_mhz"] - 1000.0 / (r["clock_ns"] - t["worst_slack_ns"])) < 1e-6 * t["fmax_mhz"])
    last = t["path"][-1]["arrival_ns"]
    check(f"{name}: path arrival <= critical period", last <= t["critical_path_ns"] + 1e-9, (last, t))
    check(f"{name}: every path pin is attributed to a block", all(p["block"] for p in t["path"]))
    check(f"{name}: summary names the critical block", r["summary"].get("critical_path_block", "") != "")
    check(f"{name}: summary names the area-dominant block", r["summary"].get("area_dominant_block", "") != "")

    # Fmax per block: the worst path through the block; the blocks the
    # critical path crosses have the router's Fmax, no block a lower one.
    fmax = t["fmax_mhz"]
    through = {b["name"]: b["liberty"].get("fmax_through_mhz") for b in r["top_blocks"]}
    with_cells = {b["name"] for b in r["top_blocks"] if b["generic"]["cells"] > 0}
    check(f"{name}: every top-level block with cells has an Fmax", all(through[b] for b in with_cells), through)
    check(f"{name}: no block's Fmax below the router's",
          all(v >= fmax * (1 - 1e-6) for v in through.values() if v), (fmax, through))
    for block in {t["start_block"], t["end_block"]} - {"(port)"}:
        check(f"{name}: the critical path's block {block} has the router's Fmax",
              abs(through.get(block, 0) - fmax) <= 1e-6 * fmax, (block, through.get(block), fmax))
    top_module = r["modules"][0]
    check(f"{name}: the router top's Fmax is the router's",
          abs(top_module.get("fmax_through_mhz", 0) - fmax) <= 1e-6 * fmax, top_module)
    fifo_bits = [m for m in r["modules"] if m["rtl_module"] == "rr_fifo" and m["memory_bits_per_instance"] > 0]
    check(f"{name}: VC buffers count their memory bits", len(fifo_bits) > 0, r["modules"])
    check(f"{name}: the router's memory bits are every memory's bits",
          top_module["memory_bits_per_instance"] == sum(m["bits"] * m["instances"] for m in r["memories"]),
          (top_module["memory_bits_per_instance"], r["memories"]))

    names = {m["rtl_module"] for m in r["modules"]}
    for block in ("rr_input_port", "rr_fifo", "rr_vc_alloc", "rr_sw_alloc", "rr_output_port"):
        check(f"{name}: module {block} reported", block in names, sorted(names))
    check(f"{name}: router top is the module list's first", r["modules"][0]["name"] == r["router_top"])
    top_names = {b["name"] for b in r["top_blocks"]}
    for block in ("rr_input_port", "rr_vc_alloc", "rr_sw_alloc", "rr_crossbar", "rr_output_port"):
        check(f"{name}: the router core is split into blocks: {block} is one", block in top_names, sorted(top_names))
    # The top-level blocks partition the router: their sums are the router's.
    for path, key in (("generic", "cells"), ("liberty", "area_um2"), ("fpga", "lut")):
        total = sum(b[path][key] for b in r["top_blocks"])
        check(f"{name}: top-level blocks add up to the router ({path} {key})",
              abs(total - router(r, path)[key]) <= 1e-6 * max(1.0, total), (total, router(r, path)[key]))

    mems = r["memories"]
    fifo = [m for m in mems if m["memory"].endswith("mem_q") and m["block"].startswith("rr_fifo")]
    check(f"{name}: the VC buffer storage (rr_fifo mem_q) is inferred as a memory", len(fifo) > 0, mems)
    for m in fifo:
        check(f"{name}: {m['block']} mem_q depth x width matches the config",
              m["depth"] > 0 and m["width"] > 0)
        check(f"{name}: {m['block']} mem_q maps to LUTRAM on the FPGA", m.get("fpga", "").startswith("LUTRAM"), m)
    buffers = [m for m in fifo if m["depth"] == r["router"]["buffer_flits"]
               and m["width"] >= r["router"]["flit_bits"]]
    check(f"{name}: a buffer_flits x flit_bits memory is among them", len(buffers) > 0, fifo)


def test_generic(rlroute, config, work):
    """The technology-independent path alone: what CI can afford for the large routers."""
    name = os.path.splitext(os.path.basename(config))[0]
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    p = synth(rlroute, config, out, "--paths", "generic")
    check(f"{name}: rlroute synth --paths generic exits 0", p.returncode == 0, p.stderr.strip())
    if p.returncode != 0:
        return
    with open(os.path.join(out, "synth.json")) as f:
        r = json.load(f)
    for log in ("generic.log", "depth.log"):
        text = open(os.path.join(out, "logs", log)).read()
        check(f"{name}: no tool error in logs/{log}", "ERROR:" not in text)
    check(f"{name}: only the generic path ran", "liberty" not in r or not r["liberty"], sorted(r))
    g = router(r, "generic")
    check(f"{name}: generic cells > 0", g["cells"] > 0, g)
    check(f"{name}: flip-flops > 0", g["flops"] > 0, g)
    check(f"{name}: transistors > cells", g["transistors"] > g["cells"], g)
    check(f"{name}: logic depth > 0", g.get("depth", 0) > 0, g)
    top_names = {b["name"] for b in r["top_blocks"]}
    for block in ("rr_input_port", "rr_vc_alloc", "rr_sw_alloc", "rr_crossbar", "rr_output_port"):
        check(f"{name}: the router core is split into blocks: {block} is one", block in top_names, sorted(top_names))
    total = sum(b["generic"]["cells"] for b in r["top_blocks"])
    check(f"{name}: top-level blocks add up to the router (generic cells)",
          abs(total - g["cells"]) <= 1e-6 * max(1.0, total), (total, g["cells"]))
    fifo = [m for m in r["memories"] if m["memory"].endswith("mem_q") and m["block"].startswith("rr_fifo")]
    check(f"{name}: the VC buffer storage (rr_fifo mem_q) is inferred as a memory", len(fifo) > 0, r["memories"])


# The blocks every router holds with the same code, whichever its algorithm.
SHARED_BLOCKS = ("rr_input_port", "rr_fifo", "rr_output_port", "rr_vc_alloc", "rr_sw_alloc", "rr_crossbar")


def test_elaborate(rlroute, config, work):
    name = os.path.splitext(os.path.basename(config))[0]
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    p = run([rlroute, "gen", config, "-o", out])
    check(f"{name}: rlroute gen exits 0", p.returncode == 0, p.stderr.strip())
    if p.returncode != 0:
        return
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    top = manifest["tops"]["router"]
    # proc takes most of the time on the blocks every router shares (buffers,
    # allocators, crossbar); the 4x4 torus example's synthesis and, at the
    # dragonfly's parameters, MIN's generic path (CI's second step) process
    # them whole. Here every other module, where the algorithms differ.
    own = "* " + " ".join(f"*{m} %d" for m in SHARED_BLOCKS)
    script = (f"read_verilog -sv {' '.join(manifest['files'])}; hierarchy -check -top {top}; proc {own}; "
              f"check -assert {own}")
    y = subprocess.run(["yosys", "-q", "-l", "elaborate.log", "-p", script], cwd=out, capture_output=True, text=True)
    check(f"{name}: Yosys elaborates {top} (hierarchy -check; proc and check -assert except on the shared blocks)",
          y.returncode == 0, (y.stderr or y.stdout).strip()[-2000:])


def test_scaling(rlroute, config, work):
    os.makedirs(work, exist_ok=True)
    base = variant(config, os.path.join(work, "base.toml"), "scale_base", "vcs", 2)
    with open(config) as f:
        text = f.read()
    defaults = {k: int(re.search(rf"(?m)^{k}\s*=\s*(\d+)", text).group(1)) for k in ("vcs", "buffer_flits", "flit_bits")}
    configs = {
        "base": base,
        "vcs": variant(config, os.path.join(work, "vcs.toml"), "scale_vcs", "vcs", defaults["vcs"] + 1),
        "buffer_flits": variant(config, os.path.join(work, "buffer.toml"), "scale_buffer", "buffer_flits",
                                defaults["buffer_flits"] * 2),
        "flit_bits": variant(config, os.path.join(work, "flit.toml"), "scale_flit", "flit_bits",
                             defaults["flit_bits"] * 2),
    }
    # Two runs at a time (CTest reserves two processors for this test).
    outs = {key: os.path.join(work, key) for key in configs}
    for out in outs.values():
        shutil.rmtree(out, ignore_errors=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        runs = {key: pool.submit(synth, rlroute, cfg, outs[key]) for key, cfg in configs.items()}
    reports = {}
    for key, future in runs.items():
        p = future.result()
        check(f"scaling: {key} variant synthesizes", p.returncode == 0, p.stderr.strip())
        if p.returncode != 0:
            return
        with open(os.path.join(outs[key], "synth.json")) as f:
            reports[key] = json.load(f)
    measures = [("generic", "cells"), ("generic", "transistors"), ("liberty", "area_um2")]
    # On the FPGA a VC buffer of up to 32 flits fits the depth of one LUT-RAM primitive (32 or 64 entries),
    # so doubling the default 8-flit buffer costs no LUT-RAM (the logic LUT count moves with ABC's noise, a
    # few percent either way: 4830 -> 4758 at 4e54935); it costs wider pointers and credit counters, in FFs.
    fpga_measure = {"vcs": "lut", "buffer_flits": "ff", "flit_bits": "lut"}
    for key in ("vcs", "buffer_flits", "flit_bits"):
        for path, m in measures + [("fpga", fpga_measure[key])]:
            a, b = router(reports["base"], path)[m], router(reports[key], path)[m]
            check(f"scaling: {path} {m} grows with router.{key} ({a:g} -> {b:g})", b > a)
        a, b = router(reports["base"], "fpga")["lutram"], router(reports[key], "fpga")["lutram"]
        check(f"scaling: fpga lutram does not shrink with router.{key} ({a:g} -> {b:g})", b >= a)
        print(f"  {key}: Fmax {reports['base']['liberty']['timing']['fmax_mhz']:.0f} -> "
              f"{reports[key]['liberty']['timing']['fmax_mhz']:.0f} MHz")


def test_bram(rlroute, config, work):
    """Deep VC buffers: registered read makes them block RAM, asynchronous read LUT-RAM (FPGA path only)."""
    for read, expected in (("registered", "BRAM"), ("async", "LUTRAM")):
        name = f"bram_{read}"
        path = variant(config, os.path.join(work, name + ".toml"), name, "buffer_flits",
                       f'64\nbuffer_read = "{read}"')
        out = os.path.join(work, name)
        shutil.rmtree(out, ignore_errors=True)
        p = synth(rlroute, path, out, "--paths", "generic,fpga")  # the generic path lists the memories
        check(f"{name}: rlroute synth --paths generic,fpga exits 0", p.returncode == 0, p.stderr.strip())
        if p.returncode != 0:
            continue
        with open(os.path.join(out, "synth.json")) as f:
            r = json.load(f)
        fifo = [m for m in r["memories"] if m["memory"].endswith("mem_q") and m["block"].startswith("rr_fifo")
                and m["depth"] == 64]
        check(f"{name}: the 64-flit VC buffers are inferred as memories", len(fifo) > 0, r["memories"])
        for m in fifo:
            check(f"{name}: {m['block']} mem_q maps to {expected} on the FPGA", m.get("fpga", "").startswith(expected), m)
        if expected == "BRAM":
            check(f"{name}: the router uses block RAM", router(r, "fpga")["bram"] > 0, router(r, "fpga"))


def test_errors(rlroute, config, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "out")

    def fails(name, args, pattern, out_dir=out):
        p = run([rlroute, "synth", config, "-o", out_dir, "--quiet", *args])
        lines = p.stderr.strip().splitlines()
        check(f"{name}: exit code 1", p.returncode == 1, p.returncode)
        check(f"{name}: one-line message", len(lines) == 1, p.stderr)
        check(f"{name}: message matches /{pattern}/", bool(lines) and re.search(pattern, lines[0]) is not None,
              p.stderr.strip())
        return p

    fails("missing --liberty", ["--liberty", "/nonexistent/cells.lib"],
          r"^rlroute: error: --liberty /nonexistent/cells\.lib: no such file$")
    check("missing --liberty: nothing written", not os.path.exists(out))
    fails("--liberty is a directory", ["--liberty", work], r"--liberty .*: not a regular file")
    garbage = os.path.join(work, "garbage.lib")
    with open(garbage, "w") as f:
        f.write("this is not { a liberty file\n")
    fails("--liberty not Liberty", ["--liberty", garbage], r"--liberty .*garbage\.lib:1: .*not a Liberty file")
    noflop = os.path.join(work, "noflop.lib")
    with open(noflop, "w") as f:
        f.write('library (x) { cell (INV) { area : 1; pin (A) { direction : input; } '
                'pin (Y) { direction : output; function : "!A"; } } }\n')
    fails("--liberty without flip-flops", ["--liberty", noflop], r"--liberty .*noflop\.lib: .*no flip-flop")
    nobuffer = os.path.join(work, "nobuffer.lib")
    with open(nobuffer, "w") as f:
        f.write('library (x) { cell (INV) { area : 1; pin (A) { direction : input; } '
                'pin (Y) { direction : output; function : "!A"; } }\n'
                ' cell (F) { area : 4; ff (IQ, IQN) { clocked_on : "C"; next_state : "D"; }\n'
                '   pin (Q) { direction : output; function : IQ; } } }\n')
    fails("--liberty without a buffer", ["--liberty", nobuffer], r"^rlroute: error: --liberty .*nobuffer\.lib: .*no buffer")
    check("bad --liberty: nothing written", not os.path.exists(out))

    for value in ("0", "-1", "abc", "nan", "inf", "2ns", "0.001", "5000"):
        fails(f"--clock-ns '{value}'", ["--clock-ns", value],
              rf"^rlroute: error: --clock-ns {re.escape(value)}: the clock period must be a positive number "
              r"of nanoseconds from 0\.01 to 1000$")
    fails("--clock-ns ''", ["--clock-ns", ""], r'^rlroute: error: --clock-ns "": an empty value; give one, or leave '
          r"the option out$")
    check("bad --clock-ns: nothing written", not os.path.exists(out))
    fails("--paths bogus", ["--paths", "generic,asic"], r"--paths generic,asic: unknown path \"asic\"")

    foreign = os.path.join(work, "foreign")
    os.makedirs(foreign)
    with open(os.path.join(foreign, "precious.txt"), "w") as f:
        f.write("keep me\n")
    fails("-o on a foreign directory", [], r"is not an rlroute output .*; not overwriting", out_dir=foreign)
    check("-o on a foreign directory: untouched", os.listdir(foreign) == ["precious.txt"])

    # A library Yosys cannot use (its only storage cell is a latch): the tool
    # fails, the message names the path and the log, the log stays.
    latch = os.path.join(work, "latch.lib")
    with open(latch, "w") as f:
        f.write('library (x) {\n'
                ' cell (INV) { area : 1; pin (A) { direction : input; }\n'
                '   pin (Y) { direction : output; function : "!A"; } }\n'
                ' cell (NAND) { area : 1; pin (A) { direction : input; } pin (B) { direction : input; }\n'
                '   pin (Y) { direction : output; function : "!(A&B)"; } }\n'
                ' cell (BUF) { area : 1; pin (A) { direction : input; }\n'
                '   pin (Y) { direction : output; function : "A"; } }\n'
                ' cell (LAT) { area : 4; latch (IQ, IQN) { enable : "G"; data_in : "D"; }\n'
                '   pin (D) { direction : input; } pin (G) { direction : input; }\n'
                '   pin (Q) { direction : output; function : "IQ"; } }\n'
                '}\n')
    p = fails("Yosys failure", ["--liberty", latch, "--paths", "liberty"],
              r"^rlroute: error: yosys \(standard-cell path\) failed: ERROR: .*\(log: .*logs/liberty\.log\)$")
    check("Yosys failure: log kept", os.path.exists(os.path.join(out, "logs", "liberty.log")))
    check("Yosys failure: no report written", not os.path.exists(os.path.join(out, "synth.json"))
          and not os.path.exists(os.path.join(out, "synth.md")))
    check("Yosys failure: only design/ and logs/ remain", sorted(os.listdir(out)) == [".rlroute-output", "design", "logs"],
          os.listdir(out))
    check("Yosys failure: no work directory left", not any(".rlroute-" in n for n in os.listdir(os.path.dirname(out))))


def interrupt_while_yosys_runs(rlroute, config, out, sig, *extra):
    """Starts rlroute synth, sends `sig` once Yosys writes its log, returns (process, stderr, work dirs seen)."""
    import glob
    import signal
    import time
    proc = subprocess.Popen([rlroute, "synth", config, "-o", out, "--quiet", *extra], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    seen = []
    while time.time() < deadline and proc.poll() is None:
        seen = glob.glob(out + ".rlroute-tmp-*/logs/generic.log")
        if seen:
            break
        time.sleep(0.05)
    time.sleep(0.5)  # Yosys (and its ABC) well under way
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    return proc, err, seen


def yosys_left_in(path):
    """Processes whose working directory lies under `path`."""
    left = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.readlink(f"/proc/{pid}/cwd").startswith(path):
                    left.append(pid)
            except OSError:
                pass
    return left


def test_interrupt(rlroute, config, work):
    import signal
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "out")
    p, err, seen = interrupt_while_yosys_runs(rlroute, config, out, signal.SIGTERM)
    check("SIGTERM while Yosys runs: the run had started", bool(seen))
    check("SIGTERM: exit code 1", p.returncode == 1, p.returncode)
    check("SIGTERM: one line naming the signal",
          re.fullmatch(r"rlroute: error: interrupted by SIGTERM \(signal 15\): the tool was stopped and the output "
                       r"directory is left as it was\n", err) is not None, err)
    check("SIGTERM: nothing written", not os.path.exists(out) and os.listdir(work) == [], os.listdir(work))
    check("SIGTERM: no Yosys left running in the work directory", yosys_left_in(out + ".rlroute-tmp") == [])

    # A finished output survives an interrupted run over it.
    q = synth(rlroute, config, out, "--paths", "generic")
    check("a first run (generic path) exits 0", q.returncode == 0, q.stderr.strip())
    before = open(os.path.join(out, "synth.json")).read() if q.returncode == 0 else ""
    p, err, seen = interrupt_while_yosys_runs(rlroute, config, out, signal.SIGINT, "--paths", "generic")
    check("SIGINT over an earlier output: exit code 1 and the signal named",
          p.returncode == 1 and "interrupted by SIGINT (signal 2)" in err, (p.returncode, err))
    check("SIGINT: the earlier output is as it was",
          os.path.exists(os.path.join(out, "synth.json")) and open(os.path.join(out, "synth.json")).read() == before)
    check("SIGINT: no work directory left", not any(".rlroute-" in n for n in os.listdir(work)), os.listdir(work))
    check("SIGINT: no Yosys left running", yosys_left_in(out + ".rlroute-tmp") == [])


def test_block(rlroute, config, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    name = os.path.splitext(os.path.basename(config))[0]

    # The VC allocator on its own, every path, and the same router whole.
    out = os.path.join(work, "vc_alloc")
    p = synth(rlroute, config, out, "--block", "rr_vc_alloc")
    check(f"{name} --block rr_vc_alloc: exits 0", p.returncode == 0, p.stderr.strip())
    # The whole router: the example test's run when CTest made it first
    # (RLROUTE_SYNTH_WHOLE_ROUTER, a fixture), else one of our own.
    whole = os.environ.get("RLROUTE_SYNTH_WHOLE_ROUTER")
    if whole:
        whole_ok = os.path.exists(os.path.join(whole, "synth.json"))
        check(f"{name}: the example test's report of the whole router is there ({whole})", whole_ok)
    else:
        whole = os.path.join(work, "whole")
        q = synth(rlroute, config, whole, "--paths", "generic,liberty")
        check(f"{name}: the whole router: exits 0", q.returncode == 0, q.stderr.strip())
        whole_ok = q.returncode == 0
    if p.returncode == 0 and whole_ok:
        with open(os.path.join(out, "synth.json")) as f:
            r = json.load(f)
        with open(os.path.join(whole, "synth.json")) as f:
            w = json.load(f)
        b = r["block"]
        check("block: module, specialization 0 of 1, one instance in the router",
              (b["module"], b["variant"], b["variants"], b["instances_in_router"]) == ("rr_vc_alloc", 0, 1, 1), b)
        check("block: the router whole has no block entry", w["block"] is None, w["block"])
        check("block: the synthesized top is the block", [m["name"] for m in r["modules"]][0] == "rr_vc_alloc",
              r["modules"][0])
        for path, key in (("generic", "cells"), ("liberty", "area_um2"), ("fpga", "lut")):
            check(f"block: {path} {key} > 0", r[path]["router"].get(key, 0) > 0, r[path]["router"])
        check("block: OpenSTA timed it", r["liberty"]["timing"]["fmax_mhz"] > 0, r["liberty"]["timing"])
        in_router = next(x for x in w["top_blocks"] if x["name"] == "rr_vc_alloc")
        # Same RTL and parameters; ABC maps a module alone a little differently
        # from the same module in the router (its input order differs).
        for path, key in (("generic", "cells"), ("liberty", "area_um2")):
            alone, inside = r[path]["router"][key], in_router[path][key]
            check(f"block: {path} {key} alone within 5 % of the same block in the router ({alone} vs {inside})",
                  abs(alone - inside) <= 0.05 * inside)
        text = open(os.path.join(out, "synth.md")).read()
        check("block: the report says which block and how many the router holds",
              "Block `rr_vc_alloc:0` = rr_vc_alloc, specialization 0 of 1, 1 instance(s) in the router" in text)

    # A block without a clock: OpenSTA times its inputs to its outputs on a virtual clock.
    out = os.path.join(work, "crossbar")
    p = synth(rlroute, config, out, "--block", "rr_crossbar", "--paths", "liberty")
    check(f"{name} --block rr_crossbar (combinational): exits 0", p.returncode == 0, p.stderr.strip())
    if p.returncode == 0:
        with open(os.path.join(out, "synth.json")) as f:
            sta = json.load(f)["liberty"]["timing"]
        check("combinational block: a path from an input to an output, timed", sta["fmax_mhz"] > 0, sta)

    # Output bits with one driver (speedup 2: constant lane indices): the
    # netlist OpenSTA reads has one bit on the left of each assign.
    s2 = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(config))), "tests", "lint", "routers",
                      "torus4x4_s2_single.toml")
    out = os.path.join(work, "sw_alloc_s2")
    p = synth(rlroute, s2, out, "--block", "rr_sw_alloc", "--paths", "liberty")
    check("speedup-2 --block rr_sw_alloc (outputs sharing a driver): OpenSTA reads the netlist", p.returncode == 0,
          p.stderr.strip())

    # Several specializations (a dragonfly router's route units differ per port).
    dfly = os.path.join(os.path.dirname(config), "dfly_2_4_2_9_min.toml")

    def fails(what, cfg, value, pattern):
        bad = os.path.join(work, "bad")
        p = run([rlroute, "synth", cfg, "-o", bad, "--quiet", "--block", value, "--paths", "generic"])
        lines = p.stderr.strip().splitlines()
        check(f"--block {what}: exit code 1", p.returncode == 1, p.returncode)
        check(f"--block {what}: one-line message", len(lines) == 1, p.stderr)
        check(f"--block {what}: message matches /{pattern}/", bool(lines) and re.search(pattern, lines[0]) is not None,
              p.stderr.strip())
        check(f"--block {what}: nothing written", not os.path.exists(bad)
              and not any(".rlroute-" in n for n in os.listdir(work)), os.listdir(work))

    fails("with several specializations and no K", dfly, "rr_route_dfly",
          r"--block rr_route_dfly: the router has 7 specializations of rr_route_dfly, pick one with NAME:K "
          r"\(rr_route_dfly:0 = rr_route_dfly\(.*\) x 1; .*; rr_route_dfly:6 = ")
    fails("K out of range", config, "rr_vc_alloc:1",
          r"--block rr_vc_alloc:1: the router has 1 specialization of rr_vc_alloc, pick one with NAME:K "
          r"\(rr_vc_alloc:0 = rr_vc_alloc x 1\)$")
    fails("unknown module", config, "rr_q_unit",
          r"--block rr_q_unit: the router has no module rr_q_unit \(its modules: .*rr_vc_alloc")
    fails("not a module name", config, "rr vc", r"--block rr vc: name an RTL module of the router")
    fails("K not a number", config, "rr_vc_alloc:-1", r"--block rr_vc_alloc:-1: K in NAME:K must be a whole number")
    out = os.path.join(work, "route1")
    p = synth(rlroute, dfly, out, "--block", "rr_route_dfly:1", "--paths", "generic")
    check("dfly --block rr_route_dfly:1: exits 0", p.returncode == 0, p.stderr.strip())
    if p.returncode == 0:
        with open(os.path.join(out, "synth.json")) as f:
            b = json.load(f)["block"]
        check("dfly --block rr_route_dfly:1: the second of seven", (b["variant"], b["variants"]) == (1, 7), b)


def main():
    mode, rlroute, config, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    {"example": test_example, "generic": test_generic, "elaborate": test_elaborate, "scaling": test_scaling,
     "errors": test_errors, "bram": test_bram, "block": test_block, "interrupt": test_interrupt}[mode](rlroute, config, work)
    print(f"{len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
