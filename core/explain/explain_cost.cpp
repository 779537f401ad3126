#include "explain/explain_cost.h"

#include "decode/parallel.h"
#include "explain/method_impl.h"

#include <algorithm>

namespace attnviz {
namespace {

// The multiply-adds of the training code's passes and the floats they keep for the backward. The RNN kinds run the
// forward once per distinct input of a pass and share it among the input's copies (each copy's backward runs from
// its row back to the source); a Transformer runs every copy whole.
struct PassSizes {
    const Model& model;

    const TransformerConfig& tc() const { return model.config.transformer; }
    bool transformer() const { return model.config.isTransformer(); }
    double V() const { return model.target_vocab.size(); }

    double encoder(double S) const {
        const ModelConfig& c = model.config;
        if (transformer()) {
            const double d = tc().d_model, F = tc().encoder_dim_feedforward;
            return tc().num_encoder_layers * S *
                   (4 * d * d + 2 * d * F + 2 * S * d);  // projections, feed-forward, scores
        }
        const double E = c.emb_dim, He = c.enc_hid_dim, Hd = c.dec_hid_dim;
        return S * (6 * He * (E + He) + 2 * He * Hd);  // two GRU directions of 3 gates; the attention's keys
    }
    // An RNN decoder row without its output layer: the GRU and the attention over S.
    double rnnStep(double S) const {
        const ModelConfig& c = model.config;
        const double E = c.emb_dim, He = c.enc_hid_dim, Hd = c.dec_hid_dim;
        return 3 * Hd * (E + 2 * He + Hd) + S * (2 * He + Hd);
    }
    double rnnOutput() const {
        const ModelConfig& c = model.config;
        return V() * (c.dec_hid_dim + 2 * c.enc_hid_dim + c.emb_dim);
    }
    double decoder(double n, double S) const {
        if (!transformer()) return n * (rnnStep(S) + rnnOutput());
        const double d = tc().d_model, F = tc().decoder_dim_feedforward;
        // self and cross projections, feed-forward, scores over n and S; the cross keys and values; the generator
        return tc().num_decoder_layers * (n * (6 * d * d + 2 * d * F + 2 * n * d + 2 * S * d) + 2 * S * d * d) +
               n * V() * d;
    }
    // The gradient of row t's objective for one copy: an RNN's backward from row t (its output layer at row t alone)
    // to the source; a Transformer's forward and backward of rows 0..t (a backward about two forwards).
    double copyGradient(double t, double S) const {
        if (!transformer()) return 2 * (rnnOutput() + t * rnnStep(S) + encoder(S));
        return 3 * (encoder(S) + decoder(t, S));
    }
    // Floats a forward keeps for its backward (an RNN's attention cache: the additive scores' tanh over every row
    // and position), and an RNN's attention cache alone (a gradient pass copies it from its inputs' forward to its
    // copies'). A Transformer's, per copy: copyFloats.
    double forwardFloats(double n, double S) const {
        const ModelConfig& c = model.config;
        if (transformer()) return copyFloats(n, S);
        const double He = c.enc_hid_dim, Hd = c.dec_hid_dim;
        return attentionFloats(n, S) + n * (2 * V() + 12 * Hd + 4 * He) + S * (12 * He + 2 * Hd);
    }
    double attentionFloats(double n, double S) const {
        return model.config.score == ScoreKind::Additive ? n * S * (model.config.dec_hid_dim + 1) : 2 * n * S;
    }
    double copyFloats(double n, double S) const {
        const ModelConfig& c = model.config;
        if (!transformer()) return n * (V() + 8 * c.dec_hid_dim + 2 * c.enc_hid_dim + S) + S * (2 * c.enc_hid_dim);
        const double d = tc().d_model, F_enc = tc().encoder_dim_feedforward, F_dec = tc().decoder_dim_feedforward;
        const double h_enc = tc().encoder_nhead, h_dec = tc().decoder_nhead;
        return tc().num_encoder_layers * S * (2 * F_enc + 10 * d + 2 * h_enc * S) +
               tc().num_decoder_layers * n * (2 * F_dec + 16 * d + 2 * h_dec * (n + S)) + 2 * n * V();
    }
    double embeddingWidth() const { return transformer() ? tc().d_model : model.config.emb_dim; }
};

// sourceGradients for `inputs` inputs and every row, called on `at_once` inputs at a time: the passes' forwards (an
// RNN's, one per input of a pass) and every row's copy; the T gradients (S, E) of the inputs of a call are held,
// and every thread's pass buffers.
ExplainCost gradientCost(const PassSizes& p, double S, double T, size_t inputs, size_t at_once, int threads) {
    ExplainCost c;
    for (size_t first = 0; first < inputs; first += at_once)
        c.passes += sourceGradientPasses(std::min(at_once, inputs - first), size_t(T));
    double copies = 0;
    for (double t = 1; t <= T; ++t) copies += p.copyGradient(t, S);
    const double forwards = p.transformer() ? 0 : double(std::max(c.passes, inputs)) * (p.encoder(S) + p.decoder(T, S));
    c.multiply_adds = forwards + double(inputs) * copies;
    const size_t held = std::min(at_once, inputs);
    const PassShape pass = largestPass(held, size_t(T));
    const double buffers = p.transformer() ? double(pass.copies) * p.copyFloats(T, S)
                                           : double(pass.inputs) * (p.forwardFloats(T, S) + p.attentionFloats(T, S)) +
                                                 double(pass.copies) * p.copyFloats(T, S);
    c.bytes = (double(held) * T * S * p.embeddingWidth() + threadsFor(c.passes, threads) * buffers) * 4;
    return c;
}

// forcedObjectives of `inputs` inputs of T rows each: forward passes in batches.
ExplainCost objectiveCost(const PassSizes& p, double S, double T, size_t inputs) {
    ExplainCost c;
    c.passes = objectivePasses(inputs);
    c.multiply_adds = double(inputs) * (p.encoder(S) + p.decoder(T, S));
    const size_t batch = (inputs + c.passes - 1) / std::max<size_t>(c.passes, 1);  // the largest
    c.bytes = double(batch) * p.forwardFloats(T, S) * 4 + double(inputs) * T * 8;
    return c;
}

}  // namespace

ExplainCost explainCost(const Model& model, int source_len, int target_len, ExplainMethod method,
                        const ExplainOptions& options) {
    const PassSizes p{model};
    const double S = source_len, T = target_len, matrix = S * T * 4;  // the (T, S) result
    ExplainCost c;
    switch (method) {
    case ExplainMethod::Attention:
        break;
    case ExplainMethod::Norm:
        c.multiply_adds = p.encoder(S) + T * S * p.embeddingWidth();
        c.bytes =
            p.forwardFloats(1, S) * 4 +
            (model.config.isTransformer() ? model.config.transformer.decoder_nhead : 1) * S * p.embeddingWidth() * 4;
        break;
    case ExplainMethod::GradInput:
    case ExplainMethod::GradNorm:
        c = gradientCost(p, S, T, 1, 1, options.threads);
        break;
    case ExplainMethod::IntegratedGradients: {
        const size_t m = size_t(std::max(options.ig_steps, 1));
        c = gradientCost(p, S, T, m, size_t(kIgStepsAtOnce), options.threads);
        const ExplainCost f = objectiveCost(p, S, T, 2);
        c.passes += f.passes;
        c.multiply_adds += f.multiply_adds;
        c.bytes += T * S * p.embeddingWidth() * 4;  // the mean over the path
        break;
    }
    case ExplainMethod::Occlusion:
        c = objectiveCost(p, S, T, size_t(S) + 1);
        break;
    case ExplainMethod::Rollout: {
        const double layers = model.config.transformer.num_encoder_layers;
        c.multiply_adds = layers * (T * S * S + model.config.transformer.encoder_nhead * S * S);
        c.bytes = 2 * S * S * 4;
        break;
    }
    }
    c.bytes += matrix;
    return c;
}

}  // namespace attnviz
