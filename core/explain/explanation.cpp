// The method table, the dispatch, and the methods that read the decode's own weights (attention, norm, rollout).
// The gradient methods are in gradient_methods.cpp, occlusion in occlusion.cpp.
#include "explain/explanation.h"
#include "model/model_kind.h"

#include "base/errors.h"
#include "explain/explain_cost.h"
#include "explain/method_impl.h"

#include <algorithm>
#include <limits>
#include <mutex>
#include <string>

namespace attnviz {
namespace {

// Each row divided by its sum; a row summing to 0 stays 0.
void normaliseRows(Mat& m) {
    for (Eigen::Index t = 0; t < m.rows(); ++t) {
        const float sum = m.row(t).sum();
        if (sum > 0) m.row(t) /= sum;
    }
}

// RNN: n_tj = a_tj ‖h_j‖₂ (the attention rows are the intervened decode's own).
Mat rnnNorm(const Model& model, const DecodeResult& decode) {
    const Mat H = encoderOutputs(model, decode.source_ids);  // (S, 2H_e)
    Mat n = matrixOfRows(decode.attention, int(H.rows()));
    for (Eigen::Index j = 0; j < H.rows(); ++j) n.col(j) *= H.row(j).norm();
    return n;
}

// Transformer, the last decoder layer's cross-attention: n_tj = ‖Σ_h A^h_tj W_O[:, h] (W_V^h m_j + b_V^h)‖₂, the sum
// over the heads that are on (a head off adds nothing), m_j the memory of the intervened encoder.
Mat transformerNorm(const Model& model, const DecodeResult& decode, const Interventions& iv) {
    const TransformerConfig& c = model.config.transformer;
    const auto& attn = model.transformer.decoder_layers.back().multihead_attn;
    const std::vector<Mat>& heads = decode.cross_attention.back();    // [h] (T, S)
    const Mat memory = encoderOutputs(model, decode.source_ids, iv);  // (S, d)
    const int nhead = c.decoder_nhead;
    const std::vector<char> off = headsOffMask(iv, AttentionKind::Cross, c.num_decoder_layers - 1, nhead);
    const int d = c.d_model, dh = d / nhead;
    const Eigen::Index S = memory.rows(), T = Eigen::Index(decode.target_ids.size());
    // values[h] (S, d): row j = W_O[:, h] (W_V^h m_j + b_V^h)
    std::vector<Mat> values;
    for (int h = 0; h < nhead; ++h) {
        const auto Wv = attn.in_proj_weight.middleRows(2 * d + h * dh, dh);  // (dh, d)
        const auto bv = attn.in_proj_bias.segment(2 * d + h * dh, dh);       // (dh)
        Mat v = memory * Wv.transpose();                                     // (S, dh)
        v.rowwise() += bv.transpose();
        values.push_back(v * attn.out_proj_weight.middleCols(h * dh, dh).transpose());  // (S, d)
    }
    Mat n(T, S);
    Vec sum(d);
    for (Eigen::Index t = 0; t < T; ++t)
        for (Eigen::Index j = 0; j < S; ++j) {
            sum.setZero();
            for (int h = 0; h < nhead; ++h)
                if (off.empty() || !off[size_t(h)])
                    sum += heads[size_t(h)](t, j) * values[size_t(h)].row(j).transpose();
            n(t, j) = sum.norm();
        }
    return n;
}

// C · Â^L ⋯ Â^1, Â^l = ½ mean_h A^l_h + ½ I (Abnar & Zuidema 2020).
Mat rollout(const DecodeResult& decode) {
    const int S = int(decode.source_ids.size());
    Mat r = matrixOfRows(decode.attention, S);
    for (size_t l = decode.encoder_self_attention.size(); l-- > 0;) {
        const std::vector<Mat>& heads = decode.encoder_self_attention[l];
        Mat a = Mat::Zero(S, S);
        for (const Mat& h : heads) a += h;
        a *= 0.5f / float(heads.size());
        a.diagonal().array() += 0.5f;
        r = (r * a).eval();
    }
    return r;
}

std::string needsTransformer(ExplainMethod method) {
    return std::string(methodInfo(method).name) +
           " needs a Transformer: an RNN model has no encoder self-attention to roll out";
}

void checkDecode(const Model& model, const DecodeResult& decode, ExplainMethod method, const ExplainOptions& o) {
    if (decode.source_ids.size() < 2 || decode.target_ids.empty())
        throw InputError("nothing to explain: the decode has no source or no target tokens");
    if (!offeredFor(method, model.config)) throw InputError(needsTransformer(method));
    if (method == ExplainMethod::IntegratedGradients && (o.ig_steps < 1 || o.ig_steps > kMaxIgSteps))
        throw InputError("--ig-steps must be 1 to " + std::to_string(kMaxIgSteps) + ", not " +
                         std::to_string(o.ig_steps));
    if (kindOffers(model.config).attention_heads && decode.cross_attention.empty())
        throw InputError("the decode has no cross-attention rows to explain");
    // the rows after the decode's last take no attend: any row is a valid one here
    checkInterventions(model, o.interventions, int(decode.source_ids.size()), std::numeric_limits<int>::max());
}

}  // namespace

const std::vector<MethodInfo>& explainMethods() {
    static const std::vector<MethodInfo> methods = {
        // method, name, signed, Transformer only, reads the objective
        {ExplainMethod::Attention, "attention", false, false, false},
        {ExplainMethod::Norm, "norm", false, false, false},
        {ExplainMethod::GradInput, "grad_input", true, false, true},
        {ExplainMethod::GradNorm, "grad_norm", false, false, true},
        {ExplainMethod::IntegratedGradients, "ig", true, false, true},
        {ExplainMethod::Occlusion, "occlusion", true, false, true},
        {ExplainMethod::Rollout, "rollout", false, true, false},
    };
    return methods;
}

const MethodInfo& methodInfo(ExplainMethod method) {
    for (const MethodInfo& m : explainMethods())
        if (m.method == method) return m;
    return explainMethods().front();
}

std::optional<ExplainMethod> methodFromName(std::string_view name) {
    for (const MethodInfo& m : explainMethods())
        if (name == m.name) return m.method;
    return std::nullopt;
}

bool offeredFor(ExplainMethod method, const ModelConfig& config) {
    return !methodInfo(method).transformer_only || kindOffers(config).self_attention;
}

std::vector<ExplainMethod> methodsFor(const ModelConfig& config) {
    std::vector<ExplainMethod> out;
    for (const MethodInfo& m : explainMethods())
        if (offeredFor(m.method, config)) out.push_back(m.method);
    return out;
}

std::vector<ExplainMethod> parseMethodList(std::string_view list, const ModelConfig& config) {
    std::vector<ExplainMethod> out;
    const auto add = [&out](ExplainMethod m) {
        if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    };
    size_t start = 0;
    while (start <= list.size()) {
        const size_t comma = std::min(list.find(',', start), list.size());
        const std::string_view name = list.substr(start, comma - start);
        start = comma + 1;
        if (name == "all") {  // every method of the kind, in the spec's order, where it stands in the list
            for (ExplainMethod m : methodsFor(config)) add(m);
            continue;
        }
        const std::optional<ExplainMethod> method = methodFromName(name);
        if (!method) {
            std::string known;
            for (const MethodInfo& m : explainMethods()) known += std::string(known.empty() ? "" : ", ") + m.name;
            throw InputError("unknown method \"" + std::string(name) + "\" (known: " + known + ", all)");
        }
        if (!offeredFor(*method, config)) throw InputError(needsTransformer(*method));
        add(*method);
    }
    return out;
}

Explanation explainDecode(const Model& model, const DecodeResult& decode, ExplainMethod method,
                          const ExplainOptions& options) {
    checkDecode(model, decode, method, options);
    Explanation e;
    e.method = method;
    if (methodInfo(method).reads_objective) e.contrast = options.contrast;
    const int S = int(decode.source_ids.size());
    const ForcedInput input = forcedInputOf(decode, options.interventions);
    PassOptions run{options.threads, {}};
    std::mutex reporting;
    size_t done = 0;
    const size_t all =
        options.progress ? explainCost(model, S, int(decode.target_ids.size()), method, options).passes : 0;
    if (all > 0)
        run.on_pass = [&] {
            const std::lock_guard<std::mutex> lock(reporting);
            options.progress(std::min(++done, all), all);
        };
    switch (method) {
    case ExplainMethod::Attention:
        e.values = matrixOfRows(decode.attention, S);
        break;
    case ExplainMethod::Norm:
        e.values = model.config.isTransformer() ? transformerNorm(model, decode, options.interventions)
                                                : rnnNorm(model, decode);
        normaliseRows(e.values);
        break;
    case ExplainMethod::GradInput:
        e.values = gradientTimesInput(model, input, options.contrast, run);
        break;
    case ExplainMethod::GradNorm:
        e.values = gradientNorm(model, input, options.contrast, run);
        break;
    case ExplainMethod::IntegratedGradients:
        e.values = integratedGradients(model, input, options.ig_steps, options.contrast, e.ig_delta, run);
        e.ig_steps = options.ig_steps;
        break;
    case ExplainMethod::Occlusion:
        e.values = occlusion(model, input, options.contrast, run);
        break;
    case ExplainMethod::Rollout:
        e.values = rollout(decode);
        break;
    }
    return e;
}

double completenessGap(const Explanation& ig, int row) {
    return double(ig.values.row(row).sum()) - ig.ig_delta[size_t(row)];
}

}  // namespace attnviz
