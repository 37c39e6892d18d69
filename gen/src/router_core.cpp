#include "rlroute/gen/router_core.hpp"

#include <fmt/format.h>

namespace rlroute {

bool choice_opens_at(const AlgorithmTraits& algorithm, const Topology& topo, int in_port) {
  if (!algorithm.biased()) return false;
  return topo.is_ni_port(in_port) || (algorithm.choice == PathChoice::AtSourceGroup && topo.is_local_port(in_port));
}

namespace {

HeadDecision derive_head_decision(const Config& cfg, const Topology& topo) {
  const AlgorithmTraits& algorithm = traits(cfg.algorithm);
  HeadDecision h;
  switch (algorithm.head_decision) {
    case HeadDecisionKind::None:
      return h;
    case HeadDecisionKind::Configurable:
      if (!at_vc_head(cfg.decision)) return h;
      h.registered = cfg.decision == DecisionPoint::VcHeadRegistered;
      h.why = fmt::format("routing.decision = \"{}\"", to_string(cfg.decision));
      h.unit = "rr_ugal_decide";
      break;
    case HeadDecisionKind::Alternative:
    case HeadDecisionKind::NamesPort:
      h.registered = true;
      h.every_port = true;
      h.unit = algorithm.head_decision == HeadDecisionKind::Alternative ? "rr_star_decide"
               : algorithm.choice == PathChoice::QTable                 ? "the Q unit"
                                                                        : "the DQN unit";
      h.why = h.unit + " decides at the head of the VC, registered";
      break;
  }
  h.enabled = true;
  h.names_port = algorithm.head_decision == HeadDecisionKind::NamesPort;
  h.late = algorithm.choice == PathChoice::QTable && cfg.q_decision_cycles == 2;
  h.field = algorithm.patched;
  // routing.dqn_fallback = "hop": the escape to DOR leaves Pdor as it is.
  h.patches = h.field != PatchedField::None && !(h.field == PatchedField::Pdor && cfg.dqn_fallback == DqnFallback::Hop);
  for (int p = 0; p < topo.num_ports(); ++p) h.ports.push_back(h.every_port || choice_opens_at(algorithm, topo, p));
  if (!h.every_port) {
    h.ports_where = algorithm.choice == PathChoice::AtSourceGroup ? "the NI ports, and for PAR the local ports" : "the NI ports";
  }
  return h;
}

}  // namespace

RouterCore derive_router_core(const Config& cfg, const Topology& topo) {
  const AlgorithmTraits& algorithm = traits(cfg.algorithm);
  return {.waiting_demand = topo.dragonfly() && algorithm.biased() && cfg.ugal_queue == UgalQueue::CreditsAndWaiting,
          .head_stamp = algorithm.choice == PathChoice::QTable ? cfg.q_stamp : QStamp::Arrival,
          .head = derive_head_decision(cfg, topo)};
}

}  // namespace rlroute
