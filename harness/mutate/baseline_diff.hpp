// Compares a campaign's kill matrix with a committed one (--baseline): every mutant killed by the
// same tests is quiet; every change is a line ("M12: killed by [T2] before, [T2, T3] now"), and a
// mutant that was killed before and survives now is a regression that fails the campaign.
#pragma once
#include <string>
#include <vector>

#include "harness/mutate/kill_matrix.hpp"

namespace mmaemu::mutate {

struct BaselineChange {
  int id = 0;
  std::string text;         // one line, for the terminal and the reports
  bool regression = false;  // killed before, not killed now
};

// `compare_tests`: false when the current run stopped mutants at their first kill (--fast), so that
// only killed / not killed is compared, not the tests that killed. `whole_catalogue`: the current
// run selected every mutant, so one of the baseline that it lacks has left the catalogue (reported);
// with --only, absent mutants were merely not selected.
std::vector<BaselineChange> compare_with_baseline(const KillMatrix& baseline, const KillMatrix& current,
                                                  bool compare_tests, bool whole_catalogue = false);

}  // namespace mmaemu::mutate
