#include "io/json_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace attnviz {
namespace {

constexpr size_t kBlockBytes = 64 * 1024;

// A string as jsonText writes it: nlohmann's escapes (one definition of them), then C1.
void appendJsonString(std::string& out, std::string_view s) {
    std::string text = nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    escapeC1Controls(text);
    out += text;
}

// The exponent as nlohmann writes it: a sign and at least two digits ("e-05", "e+16", "e+308").
void appendExponent(std::string& out, int e) {
    out += e < 0 ? '-' : '+';
    const int a = std::abs(e);
    if (a < 10) out += '0';
    out += std::to_string(a);
}

}  // namespace

size_t jsonNestingDepth(std::string_view text) {
    size_t depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (const char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

void escapeC1Controls(std::string& text) {
    static constexpr char kHex[] = "0123456789abcdef";
    size_t at = text.find('\xC2');
    if (at == std::string::npos) return;  // the common case: no copy
    std::string out;
    out.reserve(text.size() + 16);
    size_t from = 0;
    for (; at != std::string::npos; at = text.find('\xC2', at + 1)) {
        const auto next = at + 1 < text.size() ? static_cast<unsigned char>(text[at + 1]) : 0u;
        if (next < 0x80 || next > 0x9F) continue;
        out.append(text, from, at - from);
        out += "\\u00";
        out += kHex[next >> 4];
        out += kHex[next & 0xF];
        from = at + 2;
    }
    out.append(text, from, std::string::npos);
    text = std::move(out);
}

void appendJsonDouble(std::string& out, double value) {
    if (std::signbit(value)) {
        out += '-';
        value = -value;
    }
    if (value == 0) {
        out += "0.0";
        return;
    }
    // The shortest round-trip digits d.ddd and the exponent, laid out as nlohmann's format_buffer does (digits10 of
    // double, 15, as the largest fixed exponent; -4 the smallest).
    char sci[40];
    const char* end = std::to_chars(sci, sci + sizeof sci, value, std::chars_format::scientific).ptr;
    std::string digits;
    const char* e = sci;
    for (; e < end && *e != 'e'; ++e)
        if (*e != '.') digits += *e;
    int exponent = 0;
    std::from_chars(e + 2, end, exponent);  // after "e+" or "e-"
    if (e[1] == '-') exponent = -exponent;
    const int k = int(digits.size()), n = exponent + 1;  // value = 0.digits * 10^n
    if (k <= n && n <= 15) {
        out += digits;
        out.append(size_t(n - k), '0');
        out += ".0";
    } else if (0 < n && n <= 15) {
        out.append(digits, 0, size_t(n));
        out += '.';
        out.append(digits, size_t(n), std::string::npos);
    } else if (-4 < n && n <= 0) {
        out += "0.";
        out.append(size_t(-n), '0');
        out += digits;
    } else {
        out += digits[0];
        if (k > 1) {
            out += '.';
            out.append(digits, 1, std::string::npos);
        }
        out += 'e';
        appendExponent(out, n - 1);
    }
}

JsonWriter::JsonWriter(Sink sink, int indent) : sink_(std::move(sink)), indent_(indent) {
    buffer_.reserve(kBlockBytes + 4096);
}

void JsonWriter::newline(size_t depth) {
    buffer_ += '\n';
    buffer_.append(depth * size_t(indent_), ' ');
}

void JsonWriter::beforeValue() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (levels_.empty()) return;
    Level& level = levels_.back();
    if (!level.empty) buffer_ += ',';
    if (indent_ >= 0) newline(levels_.size());
    level.empty = false;
}

void JsonWriter::emitIfFull() {
    if (buffer_.size() >= kBlockBytes) flush();
}

void JsonWriter::open(char bracket, bool object) {
    beforeValue();
    buffer_ += bracket;
    levels_.push_back({object, true});
}

void JsonWriter::close(char bracket) {
    const Level level = levels_.back();
    levels_.pop_back();
    if (!level.empty && indent_ >= 0) newline(levels_.size());
    buffer_ += bracket;
    emitIfFull();
}

JsonWriter& JsonWriter::beginObject() {
    open('{', true);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    close('}');
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    open('[', false);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    close(']');
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    Level& level = levels_.back();
    if (!level.empty) buffer_ += ',';
    if (indent_ >= 0) newline(levels_.size());
    level.empty = false;
    appendJsonString(buffer_, name);
    buffer_ += indent_ >= 0 ? ": " : ":";
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
    beforeValue();
    appendJsonString(buffer_, text);
    emitIfFull();
    return *this;
}

JsonWriter& JsonWriter::number(double value) {
    beforeValue();
    if (std::isfinite(value))
        appendJsonDouble(buffer_, value);
    else
        buffer_ += "null";
    emitIfFull();
    return *this;
}

JsonWriter& JsonWriter::integer(int64_t value) {
    beforeValue();
    buffer_ += std::to_string(value);
    emitIfFull();
    return *this;
}

JsonWriter& JsonWriter::value(const nlohmann::ordered_json& j) {
    using Type = nlohmann::ordered_json::value_t;
    switch (j.type()) {
    case Type::object:
        beginObject();
        for (const auto& [k, v] : j.items()) key(k).value(v);
        return endObject();
    case Type::array:
        beginArray();
        for (const auto& v : j) value(v);
        return endArray();
    case Type::string:
        return string(j.get_ref<const std::string&>());
    case Type::number_float:
        return number(j.get<double>());
    case Type::number_integer:
    case Type::number_unsigned:
    case Type::boolean:
        beforeValue();
        buffer_ += j.dump();
        return *this;
    default:  // null (binary and discarded values are never built here)
        beforeValue();
        buffer_ += "null";
        return *this;
    }
}

JsonWriter& JsonWriter::numbers(const std::vector<float>& values) {
    beginArray();
    for (float x : values) number(double(x));
    return endArray();
}

JsonWriter& JsonWriter::integers(const std::vector<int>& values) {
    beginArray();
    for (int x : values) integer(x);
    return endArray();
}

JsonWriter& JsonWriter::strings(const std::vector<std::string>& values) {
    beginArray();
    for (const std::string& s : values) string(s);
    return endArray();
}

void JsonWriter::flush() {
    if (buffer_.empty()) return;
    sink_(buffer_);
    buffer_.clear();
}

}  // namespace attnviz
