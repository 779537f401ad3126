#include "args.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace attnviz::cli {
namespace {

std::string quote(const std::string& v) { return "\"" + v + "\""; }

template <typename T>
T parseInteger(const std::string& name, const std::string& value, T min, T max) {
    T x{};
    const char* first = value.data();
    const char* last = value.data() + value.size();
    if (!value.empty() && *first == '+') ++first;
    const auto [ptr, ec] = std::from_chars(first, last, x);
    const std::string range = (min == std::numeric_limits<T>::min() && max == std::numeric_limits<T>::max())
                                  ? std::string("an integer")
                              : max == std::numeric_limits<T>::max()
                                  ? "an integer of at least " + std::to_string(min)
                                  : "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    if (value.empty() || ec != std::errc() || ptr != last || x < min || x > max)
        throw UsageError(name + ": expected " + range + ", got " + quote(value));
    return x;
}

std::string formatNumber(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

}  // namespace

int parseIntegerValue(const std::string& name, const std::string& value, int min, int max) {
    return parseInteger<int>(name, value, min, max);
}

double parseNumberValue(const std::string& name, const std::string& value, double min, double max) {
    double x = 0;
    const char* first = value.data();
    const char* last = value.data() + value.size();
    if (!value.empty() && *first == '+') ++first;
    const auto [ptr, ec] = std::from_chars(first, last, x);
    if (value.empty() || ec != std::errc() || ptr != last || !std::isfinite(x))
        throw UsageError(name + ": expected a number, got " + quote(value));
    if (x < min || x > max) {
        std::string range = std::isinf(max)   ? "at least " + formatNumber(min)
                            : std::isinf(min) ? "at most " + formatNumber(max)
                                              : "from " + formatNumber(min) + " to " + formatNumber(max);
        throw UsageError(name + ": expected a number " + range + ", got " + quote(value));
    }
    return x;
}

ArgParser::ArgParser(std::string command, std::string synopsis, std::string description)
    : command_(std::move(command)), synopsis_(std::move(synopsis)), description_(std::move(description)) {}

ArgParser::Handle& ArgParser::Handle::required() {
    parser_.specs_[index_].required = true;
    return *this;
}

ArgParser::Handle ArgParser::add(Spec spec) {
    specs_.push_back(std::move(spec));
    return Handle(*this, specs_.size() - 1);
}

ArgParser::Spec* ArgParser::find(std::string_view name) {
    for (Spec& s : specs_)
        if (s.name == name) return &s;
    return nullptr;
}

ArgParser::Handle ArgParser::flag(std::string name, bool* out, std::string help) {
    Spec s{std::move(name), {}, std::move(help), false, false, false, {}};
    s.set = [out](const std::string&) { *out = true; };
    return add(std::move(s));
}

ArgParser::Handle ArgParser::option(std::string name, std::string* out, std::string metavar, std::string help) {
    Spec s{name, std::move(metavar), std::move(help), true, false, false, {}};
    s.set = [out](const std::string& v) { *out = v; };
    return add(std::move(s));
}

ArgParser::Handle ArgParser::repeatable(std::string name, std::string metavar, std::string help,
                                        std::function<void(const std::string&)> each) {
    Spec s{name, std::move(metavar), std::move(help), true, false, false, std::move(each)};
    return add(std::move(s));
}

ArgParser::Handle ArgParser::option(std::string name, int* out, std::string metavar, std::string help, int min,
                                    int max) {
    Spec s{name, std::move(metavar), std::move(help), true, false, false, {}};
    s.set = [out, name, min, max](const std::string& v) { *out = parseInteger<int>(name, v, min, max); };
    return add(std::move(s));
}

ArgParser::Handle ArgParser::option(std::string name, int64_t* out, std::string metavar, std::string help, int64_t min,
                                    int64_t max) {
    Spec s{name, std::move(metavar), std::move(help), true, false, false, {}};
    s.set = [out, name, min, max](const std::string& v) { *out = parseInteger<int64_t>(name, v, min, max); };
    return add(std::move(s));
}

ArgParser::Handle ArgParser::option(std::string name, uint64_t* out, std::string metavar, std::string help) {
    Spec s{name, std::move(metavar), std::move(help), true, false, false, {}};
    s.set = [out, name](const std::string& v) {
        if (!v.empty() && v[0] == '-') throw UsageError(name + ": expected a non-negative integer, got " + quote(v));
        *out = parseInteger<uint64_t>(name, v, 0, std::numeric_limits<uint64_t>::max());
    };
    return add(std::move(s));
}

ArgParser::Handle ArgParser::option(std::string name, double* out, std::string metavar, std::string help, double min,
                                    double max) {
    Spec s{name, std::move(metavar), std::move(help), true, false, false, {}};
    s.set = [out, name, min, max](const std::string& v) { *out = parseNumberValue(name, v, min, max); };
    return add(std::move(s));
}

ArgParser::Handle ArgParser::choice(std::string name, std::string* out, std::vector<std::string> choices,
                                    std::string help) {
    std::string metavar;
    for (const std::string& c : choices) metavar += (metavar.empty() ? "" : "|") + c;
    Spec s{name, metavar, std::move(help), true, false, false, {}};
    s.set = [out, name, choices, metavar](const std::string& v) {
        for (const std::string& c : choices)
            if (c == v) {
                *out = v;
                return;
            }
        throw UsageError(name + ": unknown value " + quote(v) + " (expected " + metavar + ")");
    };
    return add(std::move(s));
}

void ArgParser::positionals(std::vector<std::string>* out, std::string metavar, std::string help, int min_count,
                            int max_count) {
    positionals_ = out;
    positional_metavar_ = std::move(metavar);
    positional_help_ = std::move(help);
    positional_min_ = min_count;
    positional_max_ = max_count;
}

bool ArgParser::parse(const std::vector<std::string>& args) {
    for (const std::string& a : args)
        if (a == "--")
            break;
        else if (a == "--help" || a == "-h") {
            std::fputs(helpText().c_str(), stdout);
            return false;
        }

    std::vector<std::string> positional;
    bool options_done = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (options_done || a == "-" || a.empty() || a[0] != '-') {
            positional.push_back(a);
            continue;
        }
        if (a == "--") {
            options_done = true;
            continue;
        }
        const size_t eq = a.find('=');
        const std::string name = a.substr(0, eq);
        Spec* s = name.rfind("--", 0) == 0 ? find(name) : nullptr;
        if (!s) throw UsageError("unknown option " + name);
        if (!s->takes_value) {
            if (eq != std::string::npos) throw UsageError(name + " takes no value");
            s->set({});
        } else if (eq != std::string::npos) {
            s->set(a.substr(eq + 1));
        } else {
            if (i + 1 >= args.size()) throw UsageError(name + ": missing value (" + name + " " + s->metavar + ")");
            s->set(args[++i]);
        }
        s->seen = true;
    }

    for (const Spec& s : specs_)
        if (s.required && !s.seen) throw UsageError("missing required option " + s.name + " " + s.metavar);
    if (!positionals_) {
        if (!positional.empty()) throw UsageError("unexpected argument \"" + positional.front() + "\"");
    } else {
        const int n = static_cast<int>(positional.size());
        if (n < positional_min_) throw UsageError("missing " + positional_metavar_);
        if (positional_max_ >= 0 && n > positional_max_)
            throw UsageError("unexpected argument \"" + positional[static_cast<size_t>(positional_max_)] + "\"");
        *positionals_ = std::move(positional);
    }
    return true;
}

bool ArgParser::seen(std::string_view name) const {
    for (const Spec& s : specs_)
        if (s.name == name) return s.seen;
    return false;
}

std::string ArgParser::usageLine() const {
    return "usage: attnviz-cli " + command_ + (synopsis_.empty() ? "" : " " + synopsis_);
}

std::string ArgParser::helpText() const {
    std::string out = usageLine() + "\n";
    if (!description_.empty()) out += "\n" + description_ + (description_.back() == '\n' ? "" : "\n");
    struct Row {
        std::string left, help;
    };
    std::vector<Row> rows;
    if (positionals_) rows.push_back({positional_metavar_, positional_help_});
    for (const Spec& s : specs_)
        rows.push_back(
            {s.name + (s.metavar.empty() ? "" : " " + s.metavar), s.help + (s.required ? " (required)" : "")});
    rows.push_back({"-h, --help", "show this help and exit"});
    size_t width = 0;
    for (const Row& r : rows) width = std::max(width, r.left.size());
    width = std::min<size_t>(width, 28);
    out += "\noptions:\n";
    for (const Row& r : rows) {
        out += "  " + r.left;
        if (r.left.size() > width)
            out += "\n" + std::string(width + 2, ' ');
        else
            out += std::string(width - r.left.size(), ' ');
        // Multi-line help is indented to the help column.
        std::string help = r.help;
        for (size_t p = 0; (p = help.find('\n', p)) != std::string::npos; p += width + 5)
            help.insert(p + 1, std::string(width + 4, ' '));
        out += "  " + help + "\n";
    }
    return out;
}

}  // namespace attnviz::cli
