// A FIFO in one growable ring: no allocation once it has grown to the most it
// holds (std::deque allocates and frees a block whenever its ends cross one,
// which the checker's per-flit queues did every few flits).
#pragma once

#include <cstddef>
#include <vector>

namespace rlroute {

template <typename T>
class RingQueue {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // The i-th oldest element (0: the front).
  T& operator[](std::size_t i) { return slots_[index(i)]; }
  const T& operator[](std::size_t i) const { return slots_[index(i)]; }
  T& front() { return (*this)[0]; }
  const T& front() const { return (*this)[0]; }

  void push_back(const T& value) {
    if (size_ == slots_.size()) grow();
    slots_[index(size_)] = value;
    ++size_;
  }
  void pop_front() {
    head_ = index(1);
    --size_;
  }
  // Removes the i-th oldest element; those behind it move up one place.
  void erase(std::size_t i) {
    for (; i + 1 < size_; ++i) (*this)[i] = (*this)[i + 1];
    --size_;
  }

 private:
  std::size_t index(std::size_t i) const {
    const std::size_t at = head_ + i;
    return at < slots_.size() ? at : at - slots_.size();
  }
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 8 : 2 * slots_.size());
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
    slots_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace rlroute
