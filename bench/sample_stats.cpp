#include "bench/sample_stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mmaemu::bench {
namespace {

// Linear interpolation between the closest ranks of sorted samples (quantile q in [0, 1]).
double quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

SampleStats summarize(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("summarize: no samples");
  std::sort(samples.begin(), samples.end());
  SampleStats s;
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.median = quantile(samples, 0.5);
  s.p10 = quantile(samples, 0.1);
  s.p90 = quantile(samples, 0.9);
  return s;
}

SampleStats rate_of(const SampleStats& t, double work) {
  auto rate = [work](double x) { return x > 0 ? work / x : 0.0; };
  SampleStats r;
  r.count = t.count;
  r.median = rate(t.median);
  r.min = rate(t.max);
  r.max = rate(t.min);
  r.p10 = rate(t.p90);
  r.p90 = rate(t.p10);
  return r;
}

}  // namespace mmaemu::bench
