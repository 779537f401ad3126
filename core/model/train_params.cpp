#include "model/train_params.h"

#include <cmath>

namespace attnviz {

ModelParamsD toDouble(const ModelParams& p) {
    ModelParamsD d;
    visitTensorPairs(d, const_cast<ModelParams&>(p), [](auto& a, const auto& b) { a = b.template cast<double>(); });
    return d;
}

ModelParams toFloat(const ModelParamsD& p) {
    ModelParams f;
    visitTensorPairs(f, const_cast<ModelParamsD&>(p), [](auto& a, const auto& b) { a = b.template cast<float>(); });
    return f;
}

int64_t scalarCount(const ModelParams& p) {
    int64_t n = 0;
    visitTensors(const_cast<ModelParams&>(p), [&](const char*, const auto& t) { n += t.size(); });
    return n;
}

bool allFinite(const ModelParams& p) {
    bool ok = true;
    visitTensors(const_cast<ModelParams&>(p), [&](const char*, const auto& t) {
        if (ok && t.size() > 0) ok = t.allFinite();
    });
    return ok;
}

}  // namespace attnviz
