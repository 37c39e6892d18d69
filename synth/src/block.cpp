// `rlroute synth --block`: parsing the option and choosing the specialization.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "rlroute/synth/block.hpp"

namespace rlroute::synth {

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

}  // namespace

BlockRequest parse_block(const std::string& text) {
  BlockRequest r;
  const auto colon = text.find(':');
  r.module = text.substr(0, colon);
  if (!is_identifier(r.module)) {
    throw SynthError(fmt::format("--block {}: name an RTL module of the router (e.g. rr_vc_alloc), optionally "
                                 "with :K to pick its K-th specialization",
                                 text));
  }
  if (colon != std::string::npos) {
    const std::string k = text.substr(colon + 1);
    const bool digits = !k.empty() && k.size() <= 6 && k.find_first_not_of("0123456789") == std::string::npos;
    if (!digits) {
      throw SynthError(fmt::format("--block {}: K in NAME:K must be a whole number from 0 (got \"{}\")", text, k));
    }
    r.variant = std::stoi(k);
  }
  return r;
}

BlockChoice choose_block(const Hierarchy& router, const BlockRequest& request) {
  const auto counts = router.instance_counts();
  std::vector<std::string> ids;      // specializations of the module, in hierarchy order
  std::vector<std::string> modules;  // the router's RTL modules, for the error
  for (const auto& id : router.order()) {
    const NetlistModule& m = router.at(id);
    if (m.hdlname == request.module) ids.push_back(id);
    if (id != router.top && std::find(modules.begin(), modules.end(), m.hdlname) == modules.end())
      modules.push_back(m.hdlname);
  }
  const std::string asked = request.module + (request.variant ? fmt::format(":{}", *request.variant) : "");
  if (ids.empty()) {
    throw BadBlock(fmt::format("--block {}: the router has no module {} (its modules: {})", asked, request.module,
                               fmt::join(modules, ", ")));
  }
  auto describe = [&](std::size_t k) {
    return fmt::format("{}:{} = {} x {}", request.module, k, router.name_of(ids[k]), counts.at(ids[k]));
  };
  if ((!request.variant && ids.size() > 1) || (request.variant && *request.variant >= static_cast<int>(ids.size()))) {
    std::string choices;
    for (std::size_t k = 0; k < ids.size(); ++k) choices += (k ? "; " : "") + describe(k);
    throw BadBlock(fmt::format("--block {}: the router has {} specialization{} of {}, pick one with NAME:K ({})",
                               asked, ids.size(), ids.size() == 1 ? "" : "s", request.module, choices));
  }
  BlockChoice c;
  c.module = request.module;
  c.variant = request.variant.value_or(0);
  c.variants = static_cast<int>(ids.size());
  c.id = ids[c.variant];
  c.name = router.name_of(c.id);
  c.instances = counts.at(c.id);
  return c;
}

std::string block_yosys_lines(const BlockChoice& b) {
  std::string lines = fmt::format("# --block {}:{}: {}, {} instance(s) in the router\nhierarchy -top {}\n", b.module,
                                  b.variant, b.name, b.instances, b.id);
  if (b.id != b.module) lines += fmt::format("rename -top {}\n", b.module);
  return lines;
}

}  // namespace rlroute::synth
