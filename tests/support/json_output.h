// Reading the JSON the programs under test print (nlohmann/json).
#pragma once
#include <QByteArray>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace attnviz::testing {

// The JSON document `text`; throws nlohmann::json::parse_error when it is not one.
inline nlohmann::json parseJson(const QByteArray& text) { return nlohmann::json::parse(text.toStdString()); }

// The keys of the object `j` in their written order.
inline std::vector<std::string> keysOf(const nlohmann::ordered_json& j) {
    std::vector<std::string> out;
    for (auto it = j.begin(); it != j.end(); ++it) out.push_back(it.key());
    return out;
}

}  // namespace attnviz::testing
