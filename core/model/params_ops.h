// Whole-parameter-set arithmetic for training: walks, zeros, sums and casts of ModelParamsT (params.h), each a walk
// of forEachTensor, so no list of the members is written twice. Shapes are the tensors' own (no config needed).
#pragma once
#include "model/params.h"

namespace attnviz {

// Calls f(t...) with the matching tensor of every parameter set passed (of any scalar types), empty ones included.
template <class F, class... P>
void visitTensorSets(F&& f, P&... p) {
    forEachTensor(
        TensorDims{}, [&](const char*, const TensorShape&, auto&... t) { f(t...); }, p...);
}

// Calls f(name, tensor) for every tensor member (empty ones included), in the file's order, with the file's names.
template <class P, class F>
void visitTensors(P& p, F&& f) {
    forEachTensor(
        TensorDims{}, [&](const char* name, const TensorShape&, auto& t) { f(name, t); }, p);
}

// Calls f(a_tensor, b_tensor) for the matching members of two parameter structs (of any scalar types).
template <class A, class B, class F>
void visitTensorPairs(A& a, B& b, F&& f) {
    visitTensorSets(f, a, b);
}

// dst gets src's shapes, zero-filled (the gradient / moment buffers of a parameter set).
template <class A, class B>
void zerosLike(A& dst, const B& src) {
    visitTensorPairs(dst, src, [](auto& d, const auto& s) { d.setZero(s.rows(), s.cols()); });
}

// Every tensor set to zero, shapes kept.
template <class A>
void setZero(A& p) {
    visitTensorSets([](auto& t) { t.setZero(); }, p);
}

// dst += src (same shapes).
template <class A>
void addInto(A& dst, const A& src) {
    visitTensorPairs(dst, src, [](auto& d, const auto& s) { d += s; });
}

// The same parameters in another scalar type.
template <typename To, typename From>
ModelParamsT<To> castParams(const ModelParamsT<From>& p) {
    ModelParamsT<To> out;
    visitTensorPairs(out, p, [](auto& a, const auto& b) { a = b.template cast<To>(); });
    return out;
}
inline ModelParamsD toDouble(const ModelParams& p) { return castParams<double>(p); }
inline ModelParams toFloat(const ModelParamsD& p) { return castParams<float>(p); }

// True when every value is finite.
template <typename T>
bool allFinite(const ModelParamsT<T>& p) {
    bool ok = true;
    visitTensorSets([&](const auto& t) { ok = ok && (t.size() == 0 || t.allFinite()); }, p);
    return ok;
}

}  // namespace attnviz
