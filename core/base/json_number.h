// A number as every JSON the programs write holds it: the value, or null when it is not finite (JSON has no NaN or
// Inf). Templated on the JSON type (nlohmann::json or ordered_json).
#pragma once
#include <nlohmann/json.hpp>

#include <cmath>

namespace attnviz {

template <class Json = nlohmann::json>
Json jsonNumber(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

}  // namespace attnviz
