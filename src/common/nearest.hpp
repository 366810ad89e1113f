// The candidates nearest to a misspelt name (an unknown command-line option, an unknown metric),
// by edit distance, for "did you mean ...?" messages.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope {

/// Levenshtein distance: insertions, deletions and substitutions of one character.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

/// Up to `limit` candidates within a distance of a third of the name's length (at least 2),
/// nearest first (ties in the candidates' order).
inline std::vector<std::string> nearest(std::string_view name, const std::vector<std::string>& candidates,
                                        std::size_t limit = 3) {
  const std::size_t threshold = std::max<std::size_t>(2, name.size() / 3);
  std::vector<std::pair<std::size_t, std::size_t>> scored;  // distance, index
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::size_t d = edit_distance(name, candidates[i]);
    if (d <= threshold) scored.emplace_back(d, i);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (std::size_t k = 0; k < scored.size() && k < limit; ++k) out.push_back(candidates[scored[k].second]);
  return out;
}

}  // namespace warpscope
