// A cone sweep's solves as bytes (cone_sweep.hpp): what an MPI rank sends rank 0. Both ends run the
// same binary, so numbers travel as their native bytes (doubles bit for bit, NaN included) and the
// joined sweep is the one-process sweep exactly. Reading checks every size against what is left.
#include "rodcollide/cone_sweep.hpp"

#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace rodcollide {

namespace {

class Writer {
public:
    template <class T>
    void put(T value) {
        static_assert(std::is_trivially_copyable_v<T>);
        out_.append(reinterpret_cast<const char*>(&value), sizeof value);
    }
    void put(const Eigen::VectorXd& v) {
        put(static_cast<std::uint64_t>(v.size()));
        out_.append(reinterpret_cast<const char*>(v.data()), static_cast<std::size_t>(v.size()) * sizeof(double));
    }
    void put(const std::string& s) {
        put(static_cast<std::uint64_t>(s.size()));
        out_.append(s);
    }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

class Reader {
public:
    explicit Reader(std::string_view bytes) : in_(bytes) {}
    template <class T>
    T get() {
        T value;
        std::memcpy(&value, take(sizeof value).data(), sizeof value);
        return value;
    }
    /// A vector of exactly `size` entries (the chain's contacts).
    Eigen::VectorXd vector(std::size_t size) {
        if (get<std::uint64_t>() != size) throw std::invalid_argument("cone sweep solves: a vector of another size");
        Eigen::VectorXd v(static_cast<Eigen::Index>(size));
        std::memcpy(v.data(), take(size * sizeof(double)).data(), size * sizeof(double));
        return v;
    }
    std::string string() {
        const auto size = get<std::uint64_t>();
        if (size > in_.size()) throw std::invalid_argument("cone sweep solves: cut short");
        return std::string(take(static_cast<std::size_t>(size)));
    }
    bool done() const { return in_.empty(); }

private:
    std::string_view take(std::size_t n) {
        if (n > in_.size()) throw std::invalid_argument("cone sweep solves: cut short");
        const std::string_view part = in_.substr(0, n);
        in_.remove_prefix(n);
        return part;
    }
    std::string_view in_;
};

/// The point's flags in one byte.
enum Flag : std::uint8_t { ray = 1, recontact = 2, fixed_times = 4, unsettled = 8, kinematic = 16, kinetic = 32, energetic = 64 };

}  // namespace

std::string cone_sweep_solves_bytes(const ConeSweepSolves& s) {
    Writer w;
    w.put(static_cast<std::uint64_t>(s.shard.index));
    w.put(static_cast<std::uint64_t>(s.shard.count));
    w.put(static_cast<std::uint64_t>(s.first));
    w.put(static_cast<std::uint64_t>(s.last));
    w.put(static_cast<std::uint64_t>(s.points.size()));
    for (std::size_t j = 0; j < s.points.size(); ++j) {
        const ConeSweepPoint& p = s.points[j];
        const laws::Consistency& c = s.consistency[j];
        w.put(static_cast<std::uint64_t>(p.index));
        w.put(static_cast<std::uint8_t>((p.ray ? ray : 0) | (p.recontact ? recontact : 0) | (p.fixed_times ? fixed_times : 0) |
                                        (p.unsettled ? unsettled : 0) | (c.kinematic ? kinematic : 0) |
                                        (c.kinetic ? kinetic : 0) | (c.energetic ? energetic : 0)));
        w.put(p.gamma_pre);
        w.put(p.gamma_post);
        w.put(p.signature);
        w.put(static_cast<std::uint64_t>(p.events));
        w.put(p.accuracy);
        w.put(static_cast<std::uint64_t>(p.law_post.size()));
        for (std::size_t l = 0; l < p.law_post.size(); ++l) {
            w.put(p.law_post[l]);
            w.put(p.law_error[l]);
        }
        w.put(s.sequential_post[j]);
        w.put(s.sequential_signatures[j]);
    }
    return w.take();
}

ConeSweepSolves cone_sweep_solves_from_bytes(std::string_view bytes, std::size_t bodies, std::size_t laws) {
    if (bodies < 2) throw std::invalid_argument("cone sweep solves: fewer than two bodies");
    const std::size_t contacts = bodies - 1;
    Reader r(bytes);
    ConeSweepSolves s;
    s.shard.index = static_cast<std::size_t>(r.get<std::uint64_t>());
    s.shard.count = static_cast<std::size_t>(r.get<std::uint64_t>());
    s.first = static_cast<std::size_t>(r.get<std::uint64_t>());
    s.last = static_cast<std::size_t>(r.get<std::uint64_t>());
    const auto n = r.get<std::uint64_t>();
    if (s.last < s.first || n != s.last - s.first || n > bytes.size())  // every point takes more than a byte
        throw std::invalid_argument("cone sweep solves: the point count is not the shard's");
    for (std::uint64_t j = 0; j < n; ++j) {
        ConeSweepPoint p;
        p.index = static_cast<std::size_t>(r.get<std::uint64_t>());
        const auto flags = r.get<std::uint8_t>();
        p.ray = flags & ray;
        p.recontact = flags & recontact;
        p.fixed_times = flags & fixed_times;
        p.unsettled = flags & unsettled;
        p.gamma_pre = r.vector(contacts);
        p.gamma_post = r.vector(contacts);
        p.signature = r.string();
        p.events = static_cast<std::size_t>(r.get<std::uint64_t>());
        p.accuracy = r.get<double>();
        if (r.get<std::uint64_t>() != laws) throw std::invalid_argument("cone sweep solves: another number of laws");
        for (std::size_t l = 0; l < laws; ++l) {
            p.law_post.push_back(r.vector(contacts));
            p.law_error.push_back(r.get<double>());
        }
        s.points.push_back(std::move(p));
        s.sequential_post.push_back(r.vector(contacts));
        s.sequential_signatures.push_back(r.string());
        s.consistency.push_back({(flags & kinematic) != 0, (flags & kinetic) != 0, (flags & energetic) != 0});
    }
    if (!r.done()) throw std::invalid_argument("cone sweep solves: bytes left over");
    return s;
}

}  // namespace rodcollide
