// Whole-parameter-set arithmetic for training a Transformer, the counterpart of model/params_ops.h for
// TransformerParamsT: walks of several sets side by side, zeros, sums and the finiteness check, each a walk of
// forEachTransformerTensor, so no list of the members is written twice. The sets walked together must have the
// same layout (one was made from the other) and the same scalar type.
#pragma once
#include "model/transformer_params.h"

#include <array>
#include <type_traits>
#include <utility>

namespace attnviz {

// The layout a parameter set holds: its layer counts and whether it has a stored positional table (all a walk of
// forEachTransformerTensor reads; the sizes in the names' shapes are the tensors' own).
template <typename S>
TransformerShape layoutOf(const TransformerParamsT<S>& p) {
    TransformerShape s;
    s.config.num_encoder_layers = int(p.encoder_layers.size());
    s.config.num_decoder_layers = int(p.decoder_layers.size());
    s.config.d_model = int(p.src_embedding.cols());
    s.source_vocab = int(p.src_embedding.rows());
    s.target_vocab = int(p.tgt_embedding.rows());
    s.maxlen = int(p.pos_embedding.rows());
    s.decoder_maxlen = int(p.decoder_pos_embedding.rows());
    return s;
}

namespace detail {
template <class P>
std::vector<void*> tensorAddresses(P& p) {
    std::vector<void*> out;
    forEachTransformerTensor(p, layoutOf(p), [&](const std::string&, const std::vector<int64_t>&, auto& t) {
        out.push_back(const_cast<void*>(static_cast<const void*>(&t)));
    });
    return out;
}
template <class Tensor, class P>
using TensorLike = std::conditional_t<std::is_const_v<P>, const Tensor, Tensor>;
}  // namespace detail

// Calls f(t0, t...) with the matching tensor of every set, in file order (const where the set is const).
template <class F, class P0, class... P>
void visitTransformerTensorSets(F&& f, P0& p0, P&... p) {
    const std::array<std::vector<void*>, sizeof...(P)> others{detail::tensorAddresses(p)...};
    size_t i = 0;
    forEachTransformerTensor(p0, layoutOf(p0), [&](const std::string&, const std::vector<int64_t>&, auto& t0) {
        using Tensor = std::remove_cvref_t<decltype(t0)>;
        [&]<size_t... I>(std::index_sequence<I...>) {
            f(t0, *static_cast<detail::TensorLike<Tensor, P>*>(others[I][i])...);
        }
        (std::index_sequence_for<P...>{});
        ++i;
    });
}

// dst gets src's layout and shapes, zero-filled.
template <typename S>
void zerosLike(TransformerParamsT<S>& dst, const TransformerParamsT<S>& src) {
    dst.encoder_layers.resize(src.encoder_layers.size());
    dst.decoder_layers.resize(src.decoder_layers.size());
    dst.pos_embedding.resize(src.pos_embedding.rows(), src.pos_embedding.cols());
    dst.decoder_pos_embedding.resize(src.decoder_pos_embedding.rows(), src.decoder_pos_embedding.cols());
    visitTransformerTensorSets([](auto& d, const auto& s) { d.setZero(s.rows(), s.cols()); }, dst, src);
}

template <typename S>
void setZero(TransformerParamsT<S>& p) {
    visitTransformerTensorSets([](auto& t) { t.setZero(); }, p);
}

// dst += src (same layout).
template <typename S>
void addInto(TransformerParamsT<S>& dst, const TransformerParamsT<S>& src) {
    visitTransformerTensorSets([](auto& d, const auto& s) { d += s; }, dst, src);
}

template <typename S>
bool allFinite(const TransformerParamsT<S>& p) {
    bool ok = true;
    visitTransformerTensorSets([&](const auto& t) { ok = ok && (t.size() == 0 || t.allFinite()); }, p);
    return ok;
}

}  // namespace attnviz
