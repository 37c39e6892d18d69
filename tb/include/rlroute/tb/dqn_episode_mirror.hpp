// DQN-routing's ack check (docs/dqn.md, "Checks"): a copy of every router's
// pending-episode table, kept from the headers that leave each router and the
// ack words the routers send upstream on their credit channels. It fails
//   - an ack or cancel for an entry that is not open at the upstream router,
//     or open for a packet that left by another port (a lost, duplicated or
//     misaddressed ack word);
//   - an entry opened while the copy holds it open (an entry reused before
//     its ack went upstream);
//   - a router that forwards no parked ack and owes no immediate word but
//     sends one (a word out of nowhere);
//   - a head that asked for an ack (ReqAck) and left its destination, or
//     left with ReqAck cleared (a full table), without the router having sent
//     the ack or cancel it owes upstream, or left with an entry after
//     sending a cancel;
//   - ReqAck set on a packet that arrived without it;
//   - at the end of a run, entries still open once every packet is out
//     (open_entries(): an ack lost on the way back).
// Events come in the network checker's order within a cycle: heads leaving,
// credit words, heads arriving.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rlroute/gen/design.hpp"
#include "rlroute/gen/dqn_episodes.hpp"
#include "rlroute/tb/side_band_check.hpp"

namespace rlroute {

class DqnEpisodeMirror final : public SideBandCheck {
 public:
  explicit DqnEpisodeMirror(const Design& design);

  void head_arrived(int router, int port, unsigned key, const Header& h, std::int64_t cycle,
                    std::int64_t hop_cycles) override;
  // Each returns a violation or "".
  std::string head_left(int router, int port, unsigned key, const Header& h, std::int64_t cycle) override;
  std::string word_sent(int router, int port, std::uint64_t feedback, std::int64_t cycle) override;
  // A router's word closes an entry of its upstream router's copy.
  bool routers_in_parallel() const override { return false; }
  // The entry a router opened, or ReqAck cleared (a full table).
  std::vector<Field> rewritten_fields() const override { return {design_.header.episode, design_.header.req_ack}; }
  // Entries open in the copy, over all routers, and the end-of-run failure
  // with a line per open entry (at most 20).
  int owed() const override { return open_; }
  std::string owed_failure(std::int64_t waited_cycles) const override;
  std::string open_entries(int most) const;

 private:
  enum class State { Free, Open, Parked };
  struct Entry {
    State state = State::Free;
    int out_port = 0;     // where its packet left
    int in_port = 0;      // where its packet arrived (its ack goes back there)
    bool has_up = false;  // the packet arrived from a router with an entry for it
    unsigned up = 0;      // that router's entry
    unsigned key = 0;
    std::int64_t opened = 0;
  };
  struct Arrival {
    int port = 0;
    bool req_ack = false;
    unsigned up = 0;
    bool paid = false;  // the router sent its immediate word (ack or cancel) upstream
  };
  Entry& entry(int router, unsigned e) { return entries_[static_cast<size_t>(router * layout_.entries) + e]; }
  // Router `router` sent word `a` on input port `port`: the entry it names at
  // the upstream router must be open toward it.
  std::string upstream_takes(int router, int port, const ref::EpisodeAck& a, std::int64_t cycle);

  const Design& design_;
  DqnEpisodeLayout layout_;
  std::vector<Entry> entries_;
  std::vector<std::map<unsigned, Arrival>> arrivals_;  // per router, by packet key
  int open_ = 0;
};

}  // namespace rlroute
