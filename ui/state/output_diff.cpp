#include "state/output_diff.h"

#include <algorithm>

namespace attnviz::ui {

std::vector<TokenChange> diffTokens(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    const size_t n = a.size(), m = b.size();
    // d[i][j]: the fewest edits turning a[i..] into b[j..] (suffixes, so that the walk below reads forwards).
    std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n + 1; i-- > 0;)
        for (size_t j = m + 1; j-- > 0;) {
            if (i == n || j == m) {
                d[i][j] = int((n - i) + (m - j));
                continue;
            }
            const int same = d[i + 1][j + 1] + (a[i] == b[j] ? 0 : 1);
            d[i][j] = std::min({same, d[i + 1][j] + 1, d[i][j + 1] + 1});
        }
    std::vector<TokenChange> out;
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && d[i][j] == d[i + 1][j + 1] + (a[i] == b[j] ? 0 : 1)) {
            out.push_back({a[i] == b[j] ? TokenChange::Kind::Kept : TokenChange::Kind::Changed, int(i), int(j)});
            ++i, ++j;
        } else if (i < n && d[i][j] == d[i + 1][j] + 1) {
            out.push_back({TokenChange::Kind::Dropped, int(i), -1});
            ++i;
        } else {
            out.push_back({TokenChange::Kind::Added, -1, int(j)});
            ++j;
        }
    }
    return out;
}

ChangeCounts countChanges(const std::vector<TokenChange>& diff) {
    ChangeCounts c;
    for (const TokenChange& t : diff) {
        switch (t.kind) {
        case TokenChange::Kind::Kept:
            ++c.kept;
            break;
        case TokenChange::Kind::Changed:
            ++c.changed;
            break;
        case TokenChange::Kind::Added:
            ++c.added;
            break;
        case TokenChange::Kind::Dropped:
            ++c.dropped;
            break;
        }
    }
    return c;
}

}  // namespace attnviz::ui
