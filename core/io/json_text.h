// JSON text as every program of attnviz writes it (decode objects, `info`, `eval`, `compare`, `explain`, train's
// metrics, beam trees): nlohmann's layout, invalid UTF-8 replaced by U+FFFD, control characters escaped (C0 as
// nlohmann writes them, \u001b; C1, U+0080..U+009F, as \u0080..\u009f, which nlohmann leaves raw and a terminal
// showing the JSON would obey: U+009B is CSI). jsonText turns a tree into text; JsonWriter writes a value of any
// size piece by piece, so that a decode of 10,000 x 10,000 attention weights costs a buffer, not a tree of 100
// million nodes (whose destructor allocates: nlohmann's tree out of memory ends in std::terminate).
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// Writes each C1 control character (bytes C2 80..C2 9F) of JSON text as \u0080..\u009f. `text` must be valid UTF-8,
// as nlohmann's dump with error_handler_t::replace makes it: C2 then starts a character and is never inside one, so
// every such pair lies inside a string.
void escapeC1Controls(std::string& text);

// The deepest nesting of arrays and objects in JSON text (brackets inside strings not counted), in one pass. A
// reader of untrusted JSON text checks it first: nlohmann parses any depth, but writes and compares recursively.
size_t jsonNestingDepth(std::string_view text);

// `j` as JSON text: one line (indent < 0) or indented by `indent` spaces.
template <typename Json>
std::string jsonText(const Json& j, int indent = -1) {
    std::string text = j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
    escapeC1Controls(text);
    return text;
}

// Appends a finite double as nlohmann lays it out: the shortest digits that read back to it, "1.0" for an integral
// value, exponents from 1e-05 and 1e+16 on ("0.0001", "1e-05"). (nlohmann's Grisu2 may end on the other of two
// equally short last digits, or rarely write one more: the same value.) Non-finite values are the caller's (JsonWriter writes null).
void appendJsonDouble(std::string& out, double value);

// JSON written piece by piece, in jsonText's layout, to a sink (a string, standard output). Every value of an
// object follows its key(); the caller keeps the nesting right. Text reaches the sink in blocks of about 64 KiB and
// at flush(); a sink that throws (out of memory, a failed write) stops the writing with its exception.
class JsonWriter {
public:
    using Sink = std::function<void(std::string_view)>;
    explicit JsonWriter(Sink sink, int indent = -1);

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);
    JsonWriter& string(std::string_view text);
    JsonWriter& number(double value);  // null when not finite (JSON has no NaN or Inf)
    JsonWriter& integer(int64_t value);
    // A small value from a tree (a config), written through the writer so that it takes the writer's indentation.
    JsonWriter& value(const nlohmann::ordered_json& j);
    JsonWriter& numbers(const std::vector<float>& values);  // an array of number()
    JsonWriter& integers(const std::vector<int>& values);
    JsonWriter& strings(const std::vector<std::string>& values);
    void flush();

private:
    struct Level {
        bool object = false;
        bool empty = true;
    };
    void beforeValue();  // the comma, newline and indentation before an element of an array
    void newline(size_t depth);
    void open(char bracket, bool object);
    void close(char bracket);
    void emitIfFull();

    Sink sink_;
    int indent_;
    std::string buffer_;
    std::vector<Level> levels_;
    bool after_key_ = false;  // a key was written: its value follows without a separator
};

}  // namespace attnviz
