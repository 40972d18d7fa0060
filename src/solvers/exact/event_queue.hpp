// The exact solver's event queue (docs/physics.md §5.1): each junction has one pending event time,
// its next arrival or gap closing, and the solver repeatedly takes the earliest. A tournament tree
// over the junctions holds exactly one entry per junction, so rescheduling a junction updates it
// in place (log2 n steps) instead of leaving a superseded entry behind as a binary heap would, and
// equal times come out in junction order, whatever the history of updates.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <limits>
#include <vector>

namespace rodcollide {

class EventQueue {
public:
    /// n junctions, none scheduled.
    explicit EventQueue(std::size_t n) : leaves_(std::bit_ceil(std::max<std::size_t>(n, 1))), node_(2 * leaves_) {
        for (std::size_t j = 0; j < leaves_; ++j) node_[leaves_ + j].junction = j;
        for (std::size_t k = leaves_ - 1; k >= 1; --k) node_[k] = node_[2 * k];
    }

    /// Junction j's next event is at t (+inf: none).
    void set(std::size_t j, double t) {
        std::size_t k = leaves_ + j;
        node_[k].time = t;
        // Replay the matches on the way up; once one's result is unchanged, so are those above.
        for (; k > 1; k /= 2) {
            const Node& left = node_[k & ~std::size_t{1}];
            const Node& right = node_[k | 1];
            const Node& win = right.time < left.time ? right : left;
            Node& parent = node_[k / 2];
            if (parent.time == win.time && parent.junction == win.junction) break;
            parent = win;
        }
    }
    double time(std::size_t j) const { return node_[leaves_ + j].time; }
    /// The junction with the earliest event (the lowest index among equal times), and its time.
    std::size_t top() const { return node_[1].junction; }
    double top_time() const { return node_[1].time; }

private:
    // A complete binary tree in an array: node k has children 2k and 2k+1, leaf leaves_ + j is
    // junction j (padded with +inf), and each inner node holds the earlier of its children's
    // entries (the left one if equal).
    struct Node {
        double time = std::numeric_limits<double>::infinity();
        std::size_t junction = 0;
    };
    std::size_t leaves_;
    std::vector<Node> node_;
};

}  // namespace rodcollide
