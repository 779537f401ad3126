#include "model/intervention_flags.h"

#include "base/errors.h"

#include <charconv>
#include <optional>
#include <string_view>

namespace attnviz {

namespace {

// A non-negative integer that is the whole of `text`, or -1.
int wholeIndex(std::string_view text) {
    int x = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    return !text.empty() && ec == std::errc() && ptr == text.data() + text.size() && x >= 0 ? x : -1;
}

// "A<separator>B" as two indices; false when it is not that.
bool indexPair(std::string_view text, char separator, int& a, int& b) {
    const size_t at = text.find(separator);
    if (at == std::string_view::npos) return false;
    a = wholeIndex(text.substr(0, at));
    b = wholeIndex(text.substr(at + 1));
    return a >= 0 && b >= 0;
}

}  // namespace

void addKnockoutFlag(const std::string& v, Interventions& iv) {
    std::string_view rest = v;
    while (true) {
        const size_t comma = rest.find(',');
        const int j = wholeIndex(rest.substr(0, comma));
        if (j < 0)
            throw InputError("--knockout: expected source positions J[,J...] (0-based, <sos> = 0), got \"" + v + "\"");
        iv.knockout.push_back(j);
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
}

void addAttendFlag(const std::string& v, Interventions& iv) {
    AttendAt a;
    if (!indexPair(v, ':', a.row, a.position))
        throw InputError("--attend: expected T:J (a target row and a source position, 0-based), got \"" + v + "\"");
    iv.attend.push_back(a);
}

void addHeadOffFlag(const std::string& v, Interventions& iv) {
    const size_t colon = v.find(':');
    const std::optional<AttentionKind> kind = headKindFromName(std::string_view(v).substr(0, colon));
    if (!kind) throw InputError("--head-off: expected KIND:L,H with KIND cross, encoder or decoder, got \"" + v + "\"");
    HeadRef h{*kind, 0, 0};
    if (colon == std::string::npos || !indexPair(std::string_view(v).substr(colon + 1), ',', h.layer, h.head))
        throw InputError("--head-off: expected KIND:L,H (a layer and a head, 0-based), got \"" + v + "\"");
    iv.heads_off.push_back(h);
}

}  // namespace attnviz
