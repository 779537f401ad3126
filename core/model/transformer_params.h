// The Transformer model kind of docs/transformer.md: its config, and its parameters named as the PyTorch
// state_dict keys of the tutorial's Seq2SeqTransformer. The parameter struct is templated on the scalar so that the
// engine (float) and the reference / gradient checks (double) share the one list of names and shapes below.
// Legend: d d_model, F_enc / F_dec the encoder's / decoder's feed-forward width, V_s / V_t vocabulary sizes, maxlen
// rows of a stored positional table.
#pragma once
#include <Eigen/Core>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// gelu: the exact erf form; gelu_tanh: the tanh approximation (transformers' "gelu_new"); swish: x·σ(x) ("silu").
enum class Activation { Relu, Gelu, GeluTanh, Swish };
// The computed sinusoidal table's layout: sin and cos interleaved (PE[p, 2k], PE[p, 2k+1]: the tutorial's), or sines
// in the first half and cosines in the second (Marian's).
enum class PositionLayout { Interleaved, Halves };

// The three attentions of a Transformer (docs/transformer.md); the RNN kinds have Cross only.
enum class AttentionKind {
    Cross,        // T × S: output token i (rows) reads source token j (columns)
    EncoderSelf,  // S × S: source token i (queries) reads source token j (keys); computed once, not per step
    DecoderSelf,  // T × T: output position i reads decoder input j (<sos>, y_1, …, y_{T−1}); 0 above the diagonal
};

// One Transformer computation, configured: the tutorial's (docs/transformer.md) with the defaults below, or a Hugging
// Face Marian model's (docs/marian.md) with post-LN, no final norms, swish, halves positions and tied tables. The
// encoder and the decoder may have different head counts and feed-forward widths (Marian's config allows it).
struct TransformerConfig {
    TransformerConfig() = default;
    // One head count and one feed-forward width for both sides (the tutorial's nn.Transformer).
    TransformerConfig(int d, int heads, int encoder_layers, int decoder_layers, int feedforward, bool pre_ln = false,
                      Activation act = Activation::Relu)
        : d_model(d),
          encoder_nhead(heads),
          decoder_nhead(heads),
          num_encoder_layers(encoder_layers),
          num_decoder_layers(decoder_layers),
          encoder_dim_feedforward(feedforward),
          decoder_dim_feedforward(feedforward),
          norm_first(pre_ln),
          activation(act) {}

    int d_model = 0;        // d, even
    int encoder_nhead = 0;  // the encoder self-attention's heads; divides d
    int decoder_nhead = 0;  // the decoder self-attention's and the cross-attention's heads; divides d
    int num_encoder_layers = 0;
    int num_decoder_layers = 0;
    int encoder_dim_feedforward = 0;  // F_enc
    int decoder_dim_feedforward = 0;  // F_dec
    bool norm_first = false;          // false: post-LN (PyTorch's default); true: pre-LN
    Activation activation = Activation::Relu;
    bool final_norms = true;      // encoder.norm and decoder.norm after the last layers (Marian has none)
    bool scale_embedding = true;  // token embeddings × √d (Marian's scale_embedding)
    PositionLayout positions = PositionLayout::Interleaved;
    int max_positions = 0;                    // the longest side in positions when the table is computed; 0: any length
    bool shared_embeddings = false;           // the source reads the target's table (one table, stored once)
    bool tied_output = false;                 // the output layer's weight is the target table (stored once)
    std::vector<int> forbidden_outputs = {};  // sorted target ids whose logits are removed before the log-softmax
    // The heads, d_h = d / heads and the layers of one attention: the encoder's for EncoderSelf, else the decoder's.
    int nhead(AttentionKind k) const { return k == AttentionKind::EncoderSelf ? encoder_nhead : decoder_nhead; }
    int headDim(AttentionKind k) const { return nhead(k) > 0 ? d_model / nhead(k) : 0; }
    int layers(AttentionKind k) const {
        return k == AttentionKind::EncoderSelf ? num_encoder_layers : num_decoder_layers;
    }
    void setHeads(int heads) { encoder_nhead = decoder_nhead = heads; }
    void setFeedForward(int width) { encoder_dim_feedforward = decoder_dim_feedforward = width; }
    bool sameHeads() const { return encoder_nhead == decoder_nhead; }
    bool sameFeedForward() const { return encoder_dim_feedforward == decoder_dim_feedforward; }
    // Anything but the tutorial's layout (such a config is saved as a Marian folder, not an attnviz file).
    bool isConfigured() const;
    bool operator==(const TransformerConfig&) const = default;
};

// The tables a config reads, whichever tensor holds them: with shared_embeddings the source table is the target's,
// with tied_output the output weight is the target table. P is a TransformerParamsT, const or not.
template <typename P>
auto& sourceTable(P& p, const TransformerConfig& c) {
    return c.shared_embeddings ? p.tgt_embedding : p.src_embedding;
}
template <typename P>
auto& outputTable(P& p, const TransformerConfig& c) {
    return c.tied_output ? p.tgt_embedding : p.generator_weight;
}
// The stored positional table the decoder reads (empty when PE is computed); the encoder reads pos_embedding.
template <typename P>
auto& decoderPositions(P& p) {
    return p.decoder_pos_embedding.rows() > 0 ? p.decoder_pos_embedding : p.pos_embedding;
}

// A per-side size as text: "8" when both sides have it, else "4 encoder / 2 decoder".
std::string perSideText(int encoder, int decoder);

std::string_view toString(Activation);
// "relu", "gelu", "gelu_new" (gelu_tanh), "swish" or "silu": throws ModelError naming the value and the accepted ones.
Activation parseActivation(std::string_view);
// The first rule of docs/transformer.md a config's sizes break, as data: the window says it in the reader's language.
struct TransformerSizeProblem {
    enum class Rule {
        AtLeastOne,           // `key` is below 1
        EvenModelSize,        // d_model is odd (the sinusoidal positions pair sin and cos)
        HeadsDivideModelSize  // a head count does not divide d_model
    };
    Rule rule;
    const char* key;  // the config key whose value breaks the rule ("nhead" when both sides have the value)
    int value;        // that value
};
std::optional<TransformerSizeProblem> transformerSizeProblem(const TransformerConfig& c);
// Throws ModelError naming the first rule of docs/transformer.md it breaks ("nhead 3 does not divide d_model 64",
// "decoder_nhead 3 does not divide d_model 64").
void validateTransformerConfig(const TransformerConfig& c);
// The transformer keys of a "config" object (decoder must be "transformer"); defaults filled in, then validated.
// Keys of the RNN kinds that do not apply (span, window, emb_dim, ...) are an error naming the key; "score" may be
// only "scaled_dot". The "tokenizer" key is shared with the RNN kinds and left to model/config.
// nhead and dim_feedforward are both sides' unless encoder_nhead / decoder_nhead / encoder_dim_feedforward /
// decoder_dim_feedforward give one side's.
TransformerConfig transformerConfigFromJson(const nlohmann::json& j);
// Every transformer key written, defaults included ("decoder": "transformer" too; no tokenizer); the per-side keys
// only for a size whose sides differ (nhead / dim_feedforward then hold the encoder's).
nlohmann::json transformerConfigToJson(const TransformerConfig& c);

template <typename S>
using TMat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;  // row-major as the file
template <typename S>
using TVec = Eigen::Matrix<S, Eigen::Dynamic, 1>;

template <typename S>
struct MultiHeadAttentionParamsT {
    TMat<S> in_proj_weight;   // (3d, d), rows [W_q; W_k; W_v]
    TVec<S> in_proj_bias;     // (3d), [b_q; b_k; b_v]
    TMat<S> out_proj_weight;  // (d, d)
    TVec<S> out_proj_bias;    // (d)
};

template <typename S>
struct LayerNormParamsT {
    TVec<S> weight;  // (d)
    TVec<S> bias;    // (d)
};

template <typename S>
struct FeedForwardParamsT {
    TMat<S> linear1_weight;  // (F, d), F the side's F_enc or F_dec
    TVec<S> linear1_bias;    // (F)
    TMat<S> linear2_weight;  // (d, F)
    TVec<S> linear2_bias;    // (d)
};

template <typename S>
struct EncoderLayerParamsT {
    MultiHeadAttentionParamsT<S> self_attn;
    FeedForwardParamsT<S> ff;
    LayerNormParamsT<S> norm1, norm2;
};

template <typename S>
struct DecoderLayerParamsT {
    MultiHeadAttentionParamsT<S> self_attn;
    MultiHeadAttentionParamsT<S> multihead_attn;  // cross-attention: queries from y, keys and values from memory
    FeedForwardParamsT<S> ff;
    LayerNormParamsT<S> norm1, norm2, norm3;
};

template <typename S>
struct TransformerParamsT {
    TMat<S> src_embedding;  // (V_s, d); empty when shared_embeddings
    TMat<S> tgt_embedding;  // (V_t, d)
    std::vector<EncoderLayerParamsT<S>> encoder_layers;
    LayerNormParamsT<S> encoder_norm;  // empty without final_norms
    std::vector<DecoderLayerParamsT<S>> decoder_layers;
    LayerNormParamsT<S> decoder_norm;  // empty without final_norms
    TMat<S> generator_weight;          // (V_t, d); empty when tied_output
    TVec<S> generator_bias;            // (V_t) (Marian's final_logits_bias)
    TMat<S> pos_embedding;             // (maxlen, d), the file's maxlen × 1 × d; empty when PE is computed
    // (maxlen_dec, d): the decoder's stored table where it is not the encoder's (a Marian folder may store two);
    // empty when the decoder reads pos_embedding
    TMat<S> decoder_pos_embedding;
};
using TransformerParams = TransformerParamsT<float>;

// What sizes every tensor: the config, the vocabularies and the stored positional table's maxlen (0: none).
struct TransformerShape {
    TransformerConfig config;
    int source_vocab = 0;
    int target_vocab = 0;
    int maxlen = 0;
    int decoder_maxlen = 0;  // rows of decoder_pos_embedding (0: the decoder reads the encoder's table)
};

// THE list of tensors, in file order: calls f(name, shape, tensor) for each tensor the config stores (a shared or
// tied table once, no final norms when it has none), with the name and shape of docs/transformer.md and a TMat / TVec (const if p is). A matrix holds a shape (r, c...) as r × (product of the
// rest). The layer vectors must already have the config's sizes (resizeTransformerParams does that).
template <typename P, typename F>
void forEachTransformerTensor(P& p, const TransformerShape& s, F&& f);

// Sizes every tensor (zero-filled) for the shape.
template <typename S>
void resizeTransformerParams(TransformerParamsT<S>& p, const TransformerShape& s);
int64_t transformerParameterCount(const TransformerShape& s);

// The shape the params hold (vocabularies and maxlen from the tensors' sizes).
template <typename S>
TransformerShape shapeOf(const TransformerParamsT<S>& p, const TransformerConfig& c);

// Throws ModelError naming the first tensor whose size is not the one the config and the vocabularies (the
// embeddings' rows) call for, or the layer lists' lengths if they differ from the config's.
void checkTransformerParams(const TransformerParams& p, const TransformerConfig& c);

// A copy in another scalar type (float weights to double for a reference, and back).
template <typename To, typename From>
TransformerParamsT<To> castTransformerParams(const TransformerParamsT<From>& p, const TransformerShape& s);

// Rows first_row .. first_row + rows − 1 of the sinusoidal table, (rows, d), computed in double and rounded once.
// Interleaved (docs/transformer.md): PE[p, 2k] = sin(p / 10000^(2k/d)), PE[p, 2k+1] = cos(p / 10000^(2k/d)).
// Halves (docs/marian.md): PE[p, k] = sin(p / 10000^(2k/d)), PE[p, d/2 + k] = cos(p / 10000^(2k/d)), k < d/2.
template <typename S>
TMat<S> sinusoidalPositions(int rows, int d_model, int first_row = 0,
                            PositionLayout layout = PositionLayout::Interleaved);

// Random weights as the PyTorch tutorial makes them, deterministic in the seed: xavier_uniform_ for every tensor of
// two or more dimensions (embeddings, projections, generator), U(±1/√fan_in) for nn.Linear biases, 0 for the
// attention's in_proj / out_proj biases, LayerNorm weight 1 and bias 0, and the sinusoidal table when maxlen > 0.
// With perturb_all, biases and LayerNorm weights are also random (1 ± 0.5, ±0.5), so that tests see every tensor.
struct TransformerInit {
    uint64_t seed = 1;
    bool perturb_all = false;
};
template <typename S>
void initTransformerParams(TransformerParamsT<S>& p, const TransformerShape& s, const TransformerInit& init);

// ---- the list (a template, so that float and double and const and mutable params share it) ----

namespace detail {
template <typename P, typename F>
void forEachAttention(P& a, const std::string& prefix, int64_t d, F& f) {
    f(prefix + ".in_proj_weight", std::vector<int64_t>{3 * d, d}, a.in_proj_weight);
    f(prefix + ".in_proj_bias", std::vector<int64_t>{3 * d}, a.in_proj_bias);
    f(prefix + ".out_proj.weight", std::vector<int64_t>{d, d}, a.out_proj_weight);
    f(prefix + ".out_proj.bias", std::vector<int64_t>{d}, a.out_proj_bias);
}
template <typename P, typename F>
void forEachFeedForward(P& ff, const std::string& prefix, int64_t d, int64_t F_dim, F& f) {
    f(prefix + ".linear1.weight", std::vector<int64_t>{F_dim, d}, ff.linear1_weight);
    f(prefix + ".linear1.bias", std::vector<int64_t>{F_dim}, ff.linear1_bias);
    f(prefix + ".linear2.weight", std::vector<int64_t>{d, F_dim}, ff.linear2_weight);
    f(prefix + ".linear2.bias", std::vector<int64_t>{d}, ff.linear2_bias);
}
template <typename P, typename F>
void forEachNorm(P& n, const std::string& prefix, int64_t d, F& f) {
    f(prefix + ".weight", std::vector<int64_t>{d}, n.weight);
    f(prefix + ".bias", std::vector<int64_t>{d}, n.bias);
}
void checkLayerCounts(size_t encoder_layers, size_t decoder_layers, const TransformerConfig& c);
}  // namespace detail

template <typename P, typename F>
void forEachTransformerTensor(P& p, const TransformerShape& s, F&& f) {
    const TransformerConfig& c = s.config;
    const int64_t d = c.d_model;
    detail::checkLayerCounts(p.encoder_layers.size(), p.decoder_layers.size(), c);
    if (!c.shared_embeddings)
        f(std::string("src_tok_emb.embedding.weight"), std::vector<int64_t>{s.source_vocab, d}, p.src_embedding);
    f(std::string("tgt_tok_emb.embedding.weight"), std::vector<int64_t>{s.target_vocab, d}, p.tgt_embedding);
    for (int l = 0; l < c.num_encoder_layers; ++l) {
        auto& layer = p.encoder_layers[l];
        const std::string prefix = "transformer.encoder.layers." + std::to_string(l);
        detail::forEachAttention(layer.self_attn, prefix + ".self_attn", d, f);
        detail::forEachFeedForward(layer.ff, prefix, d, c.encoder_dim_feedforward, f);
        detail::forEachNorm(layer.norm1, prefix + ".norm1", d, f);
        detail::forEachNorm(layer.norm2, prefix + ".norm2", d, f);
    }
    if (c.final_norms) detail::forEachNorm(p.encoder_norm, "transformer.encoder.norm", d, f);
    for (int l = 0; l < c.num_decoder_layers; ++l) {
        auto& layer = p.decoder_layers[l];
        const std::string prefix = "transformer.decoder.layers." + std::to_string(l);
        detail::forEachAttention(layer.self_attn, prefix + ".self_attn", d, f);
        detail::forEachAttention(layer.multihead_attn, prefix + ".multihead_attn", d, f);
        detail::forEachFeedForward(layer.ff, prefix, d, c.decoder_dim_feedforward, f);
        detail::forEachNorm(layer.norm1, prefix + ".norm1", d, f);
        detail::forEachNorm(layer.norm2, prefix + ".norm2", d, f);
        detail::forEachNorm(layer.norm3, prefix + ".norm3", d, f);
    }
    if (c.final_norms) detail::forEachNorm(p.decoder_norm, "transformer.decoder.norm", d, f);
    if (!c.tied_output) f(std::string("generator.weight"), std::vector<int64_t>{s.target_vocab, d}, p.generator_weight);
    f(std::string("generator.bias"), std::vector<int64_t>{s.target_vocab}, p.generator_bias);
    if (s.maxlen > 0)
        f(std::string("positional_encoding.pos_embedding"), std::vector<int64_t>{s.maxlen, 1, d}, p.pos_embedding);
    if (s.decoder_maxlen > 0)  // never in an attnviz file: a Marian folder's second table
        f(std::string("positional_encoding.decoder_pos_embedding"), std::vector<int64_t>{s.decoder_maxlen, 1, d},
          p.decoder_pos_embedding);
}

}  // namespace attnviz
