# SST configuration of the Q-adaptive authors' dragonfly experiments
# [Kang 2021], for their element fork (sim/reference/build_sst.sh): the
# router, link and traffic parameters of the fork's own example
# (tests/dragonfly_q-adaptive.py: 4 GB/s links, 128 B flits and packets,
# 2,560 B buffers, links of 10 / 30 / 300 ns to hosts / in a group / between
# groups, Q-adaptive's learning rates and thresholds), one run per algorithm,
# pattern and offered load. Run by sim/reference/run_sst.py:
#
#   sst sim/reference/sst_dragonfly.py --model-options "--algorithm q-adaptive --pattern uniform --load 0.8
#       --time-us 300"
#
# Each endpoint's receptions (source, destination, hops, latency, injection
# and arrival time in ns) land in link_control_data/ of the working
# directory, written by the fork's LinkControl.
import argparse

import sst
from sst.merlin.base import PlatformDefinition, System
from sst.merlin.endpoint import TrafficGenJob
from sst.merlin.interface import LinkControl  # noqa: F401  (registers the class type below)
from sst.merlin.router import hr_router  # noqa: F401
from sst.merlin.topology import topoDragonFly  # noqa: F401

PATTERNS = {"uniform": "Uniform", "stencil3d": "Stencil_3D", "many_to_many": "FFT3D_all2all",
            "random_neighbors": "RandomNeighbors"}  # and adv+i: the fork's Tornado with shift i
PACKET_NS = 32  # a 128 B packet on a 4 GB/s link

ap = argparse.ArgumentParser()
ap.add_argument("--algorithm", required=True, help="minimal, VALn, ugal-g, ugal-n, par, q-adaptive")
ap.add_argument("--pattern", required=True)
ap.add_argument("--load", type=float, required=True, help="offered load, 0-1 of the injection bandwidth")
ap.add_argument("--time-us", type=float, required=True, help="how long every endpoint injects")
ap.add_argument("--hosts-per-router", type=int, default=4)
ap.add_argument("--routers-per-group", type=int, default=8)
ap.add_argument("--groups", type=int, default=33)
ap.add_argument("--q-threshold2", type=float, default=0.35)
ap.add_argument("--stats-every-us", type=float, default=0,
                help="write every endpoint's packets and non-minimal (adaptively routed) packets so far, every this "
                     "many us, to stats.csv")
args = ap.parse_args()

# The fork's endpoints inject one packet every `delay` ns (whole ns).
delay = max(PACKET_NS, round(PACKET_NS / args.load))
packets = int(args.time_us * 1000 // delay)

plat = PlatformDefinition("rlroute_reference_dragonfly")
PlatformDefinition.registerPlatformDefinition(plat)
plat.addParamSet("topology", {
    "hosts_per_router": args.hosts_per_router, "routers_per_group": args.routers_per_group,
    "intergroup_links": 1, "num_groups": args.groups, "algorithm": args.algorithm,
    "link_lat_host": "10ns", "link_lat_local": "30ns", "link_lat_global": "300ns", "adaptive_threshold": 2,
    "learning_rate": 0.2, "learning_rate2": 0.04, "epsilon": 0.001, "q_threshold1": 0.2,
    "q_threshold2": args.q_threshold2, "save_qtable": "no"})
plat.addClassType("topology", "sst.merlin.topology.topoDragonFly")
plat.addParamSet("router", {
    "link_bw": "4GB/s", "link_bw:host": "4GB/s", "xbar_bw": "40GB/s", "flit_size": "128B",
    "input_buf_size": "2560B", "output_buf_size": "2560B", "input_latency": "10ns", "output_latency": "10ns",
    "input_buf_size:host": "2560B", "output_buf_size:host": "2560B", "num_vns": 1,
    "xbar_arb": "merlin.xbar_arb_lru"})
plat.addClassType("router", "sst.merlin.base.hr_router")
plat.addParamSet("network_interface", {"link_bw": "4GB/s", "input_buf_size": "2560B", "output_buf_size": "2560B"})
plat.addClassType("network_interface", "sst.merlin.interface.LinkControl")
PlatformDefinition.setCurrentPlatform("rlroute_reference_dragonfly")

system = System()
nodes = system.topology.getNumNodes()
ep = TrafficGenJob(0, nodes)
ep.packets_to_send = packets
ep.packet_size = "128B"
ep.delay_between_packets = f"{delay}ns"
ep.message_rate = "1GHz"
if args.pattern.startswith("adv+"):
    ep.extargs["PacketDest:pattern"] = "Tornado"
    ep.topology = "dragonfly"
    ep.extargs["dragonfly:hosts_per_router"] = args.hosts_per_router
    ep.extargs["dragonfly:routers_per_group"] = args.routers_per_group
    ep.extargs["dragonfly:num_groups"] = args.groups
    ep.extargs["Tornado:shift"] = int(args.pattern[4:])
else:
    ep.extargs["PacketDest:pattern"] = PATTERNS[args.pattern]
    size = f"{args.hosts_per_router} {args.routers_per_group} {args.groups}"
    ep.extargs["PacketDest:Stencil_3D:3DSize"] = size
    ep.extargs["PacketDest:FFT3D_all2all:3DSize"] = size
    ep.extargs["PacketDest:RandomNeighbors:range_min"] = 6
    ep.extargs["PacketDest:RandomNeighbors:range_max"] = 21
if args.stats_every_us > 0:
    # Running sums (read without reset): the window's count is the difference of two rows.
    sst.setStatisticLoadLevel(1)
    sst.setStatisticOutput("sst.statOutputCSV", {"filepath": "stats.csv", "separator": ","})
    ep.network_interface.enableStatistics(["packet_hops", "packet_adp"], {
        "type": "sst.AccumulatorStatistic", "rate": f"{args.stats_every_us:g}us"})
system.allocateNodes(ep, "linear")
system.build()
