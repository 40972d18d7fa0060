// The sweeps' worker pool (see parallel_for.hpp).
#include "analysis/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace rodcollide {

void parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& body,
                  const std::function<void(std::size_t, std::size_t)>& progress) {
    constexpr std::size_t chunk = 32;
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex mutex;
    std::condition_variable finished_cv;
    unsigned finished = 0;

    auto worker = [&] {
        try {
            for (;;) {
                const std::size_t start = next.fetch_add(chunk);
                if (start >= n || failed) break;
                const std::size_t end = std::min(n, start + chunk);
                for (std::size_t j = start; j < end; ++j) body(j);
                done += end - start;
            }
        } catch (...) {
            std::lock_guard lock(mutex);
            if (!error) error = std::current_exception();
            failed = true;
        }
        std::lock_guard lock(mutex);
        ++finished;
        finished_cv.notify_all();
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
    {
        std::unique_lock lock(mutex);
        while (finished < threads) {
            finished_cv.wait_for(lock, std::chrono::milliseconds(100));
            if (progress) {
                lock.unlock();
                progress(done.load(), n);
                lock.lock();
            }
        }
    }
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
    if (progress) progress(done.load(), n);  // the workers may all have finished before the first wait
}

unsigned worker_threads(unsigned requested, std::size_t n) {
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    return std::max(1u, static_cast<unsigned>(std::min<std::size_t>(requested ? requested : hardware, n)));
}

}  // namespace rodcollide
