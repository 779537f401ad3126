#include "model/params.h"

#include "kernels/huge_pages.h"
#include "model/transformer_params.h"

#include <type_traits>

namespace attnviz {

TensorDims::TensorDims(const ModelConfig& c, int source_vocab, int target_vocab)
    : V_s(source_vocab),
      V_t(target_vocab),
      E(c.emb_dim),
      H_e(c.enc_hid_dim),
      H_d(c.dec_hid_dim),
      additive(c.score == ScoreKind::Additive),
      general(c.score == ScoreKind::General),
      local_p(c.span == SpanKind::LocalP),
      luong(c.decoder == DecoderKind::Luong) {
    dec_in = luong ? E + (c.input_feeding ? H_d : 0) : E + 2 * H_e;
}

std::vector<ParamRef> paramRefs(ModelParams& p, const ModelConfig& c, int source_vocab, int target_vocab) {
    std::vector<ParamRef> refs;
    auto add = [&](const char* name, const TensorShape& s, auto& t) {
        if (s.rank == 0) return;
        constexpr bool matrix = std::is_same_v<std::decay_t<decltype(t)>, Mat>;
        ParamRef r{name, std::vector<int64_t>(s.dims, s.dims + s.rank), t.data(), t.size(), matrix};
        if constexpr (matrix)
            r.mat = &t;
        else
            r.vec = &t;
        refs.push_back(std::move(r));
    };
    forEachTensor(TensorDims(c, source_vocab, target_vocab), add, p);
    return refs;
}

std::vector<ParamRef> transformerParamRefs(TransformerParams& p, const TransformerShape& s) {
    std::vector<ParamRef> refs;
    forEachTransformerTensor(p, s, [&](const std::string& name, const std::vector<int64_t>& shape, auto& t) {
        constexpr bool matrix = std::is_same_v<std::decay_t<decltype(t)>, Mat>;
        ParamRef r{name, shape, t.data(), t.size(), matrix};
        if constexpr (matrix)
            r.mat = &t;
        else
            r.vec = &t;
        refs.push_back(std::move(r));
    });
    return refs;
}

void resizeParams(ModelParams& p, const ModelConfig& c, int source_vocab, int target_vocab) {
    p = ModelParams{};
    auto size = [](const char*, const TensorShape& s, auto& t) {
        if (s.rank == 0) return;
        if constexpr (std::is_same_v<std::decay_t<decltype(t)>, Mat>)
            zeroOnHugePages(t, s.dims[0], s.dims[1]);
        else
            t.setZero(s.count());  // a (1, n) file tensor is a vector of n
    };
    forEachTensor(TensorDims(c, source_vocab, target_vocab), size, p);
}

int64_t parameterCount(const ModelConfig& c, int source_vocab, int target_vocab, int maxlen) {
    if (c.isTransformer()) return transformerParameterCount({c.transformer, source_vocab, target_vocab, maxlen});
    int64_t n = 0;
    forEachTensor(TensorDims(c, source_vocab, target_vocab),
                  [&](const char*, const TensorShape& s) { n += s.count(); });
    return n;
}

}  // namespace attnviz
