// Order statistics of a set of timed samples: the median is the figure a benchmark reports, the
// percentiles and extremes its spread (a difference smaller than the spread is noise).
#pragma once
#include <cstddef>
#include <vector>

namespace mmaemu::bench {

struct SampleStats {
  size_t count = 0;
  double median = 0, min = 0, max = 0, p10 = 0, p90 = 0;
};

// Throws std::invalid_argument on an empty sample set.
SampleStats summarize(std::vector<double> samples);

// The same statistics of a rate derived from each sample (rate = work / sample): a rate's median is
// the rate of the median time, and its extremes swap places.
SampleStats rate_of(const SampleStats& times, double work);

}  // namespace mmaemu::bench
