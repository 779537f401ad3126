#include "io/marian_weights.h"

#include "base/errors.h"
#include "base/tensor.h"
#include "io/safetensors.h"
#include "io/torch_checkpoint.h"

#include <map>
#include <optional>
#include <set>

namespace attnviz {
namespace {

using Shape = std::vector<int64_t>;

// Where a file tensor goes: `size` floats at `data`, which must have `shape` in the file.
struct Destination {
    float* data;
    Shape shape;
};

// A weight's destinations by name. Alternatives: names that stand for one tensor (tied tables); the first present
// is read, the others are the same values and are skipped.
struct NameMap {
    std::map<std::string, Destination> single;  // exactly this name, required
    struct Group {
        std::vector<std::string> names;  // in order of preference
        Destination dest;
        bool required = true;
    };
    std::vector<Group> groups;
};

void addAttention(NameMap& m, const std::string& prefix, MultiHeadAttentionParamsT<float>& a, int64_t d) {
    const char* parts[3] = {"q_proj", "k_proj", "v_proj"};  // in_proj's row blocks [W_q; W_k; W_v]
    for (int i = 0; i < 3; ++i) {
        m.single[prefix + "." + parts[i] + ".weight"] = {a.in_proj_weight.data() + i * d * d, {d, d}};
        m.single[prefix + "." + parts[i] + ".bias"] = {a.in_proj_bias.data() + i * d, {d}};
    }
    m.single[prefix + ".out_proj.weight"] = {a.out_proj_weight.data(), {d, d}};
    m.single[prefix + ".out_proj.bias"] = {a.out_proj_bias.data(), {d}};
}
void addNorm(NameMap& m, const std::string& prefix, LayerNormParamsT<float>& n, int64_t d) {
    m.single[prefix + ".weight"] = {n.weight.data(), {d}};
    m.single[prefix + ".bias"] = {n.bias.data(), {d}};
}
void addFeedForward(NameMap& m, const std::string& prefix, FeedForwardParamsT<float>& f, int64_t d, int64_t F) {
    m.single[prefix + ".fc1.weight"] = {f.linear1_weight.data(), {F, d}};
    m.single[prefix + ".fc1.bias"] = {f.linear1_bias.data(), {F}};
    m.single[prefix + ".fc2.weight"] = {f.linear2_weight.data(), {d, F}};
    m.single[prefix + ".fc2.bias"] = {f.linear2_bias.data(), {d}};
}

void addLayers(NameMap& m, const TransformerConfig& c, TransformerParams& p) {
    const int64_t d = c.d_model;
    for (int l = 0; l < c.num_encoder_layers; ++l) {
        auto& layer = p.encoder_layers[size_t(l)];
        const std::string prefix = "model.encoder.layers." + std::to_string(l);
        addAttention(m, prefix + ".self_attn", layer.self_attn, d);
        addNorm(m, prefix + ".self_attn_layer_norm", layer.norm1, d);
        addFeedForward(m, prefix, layer.ff, d, c.encoder_dim_feedforward);
        addNorm(m, prefix + ".final_layer_norm", layer.norm2, d);
    }
    for (int l = 0; l < c.num_decoder_layers; ++l) {
        auto& layer = p.decoder_layers[size_t(l)];
        const std::string prefix = "model.decoder.layers." + std::to_string(l);
        addAttention(m, prefix + ".self_attn", layer.self_attn, d);
        addNorm(m, prefix + ".self_attn_layer_norm", layer.norm1, d);
        addAttention(m, prefix + ".encoder_attn", layer.multihead_attn, d);
        addNorm(m, prefix + ".encoder_attn_layer_norm", layer.norm2, d);
        addFeedForward(m, prefix, layer.ff, d, c.decoder_dim_feedforward);
        addNorm(m, prefix + ".final_layer_norm", layer.norm3, d);
    }
}

// The embedding tables and the output layer, by the config's sharing and tying (docs/marian.md: any one of the
// tied names stands for the others).
void addTables(NameMap& m, const TransformerConfig& c, TransformerParams& p, int64_t V, int64_t V_t) {
    const int64_t d = c.d_model;
    const std::string shared = "model.shared.weight", enc = "model.encoder.embed_tokens.weight",
                      dec = "model.decoder.embed_tokens.weight", head = "lm_head.weight";
    Destination target{p.tgt_embedding.data(), {V_t, d}};
    if (c.shared_embeddings) {
        std::vector<std::string> names{shared, dec, enc};
        if (c.tied_output) names.push_back(head);
        m.groups.push_back({names, target});
    } else {
        m.groups.push_back({{enc, shared}, {p.src_embedding.data(), {V, d}}});
        std::vector<std::string> names{dec};
        if (c.tied_output) names.push_back(head);
        m.groups.push_back({names, target});
    }
    if (!c.tied_output) m.single[head] = {p.generator_weight.data(), {V_t, d}};
    m.groups.push_back({{"final_logits_bias"}, {p.generator_bias.data(), {1, V_t}}, false});
}

[[noreturn]] void failInWeights(const std::string& file, const std::string& what) {
    throw ModelError(file + ": " + what);
}

void readInto(const StoredWeights& w, size_t i, const Destination& dest, const std::string& file) {
    const StoredWeights::Entry& e = w.entries()[i];
    if (e.shape != dest.shape)
        failInWeights(file, "tensor \"" + e.name + "\" has shape " + safetensors::shapeText(e.shape) +
                                "; the config needs " + safetensors::shapeText(dest.shape));
    const int64_t bad = w.readFloat(i, dest.data);
    if (bad >= 0)
        failInWeights(file, "tensor \"" + e.name + "\" has a value that is not finite at index " + std::to_string(bad));
}

// One side's stored positional table (name, index), (rows, d).
TMat<float> readPositionTable(const StoredWeights& w, const std::pair<const std::string, size_t>& entry,
                              const TransformerConfig& c, const std::string& file) {
    const Shape shape = w.entries()[entry.second].shape;
    if (shape.size() != 2 || shape[1] != c.d_model || shape[0] < 2 || shape[0] > (int64_t(1) << 20))
        failInWeights(file, "tensor \"" + entry.first + "\" has shape " + safetensors::shapeText(shape) +
                                "; the config needs [" + std::to_string(c.max_positions) + ", " +
                                std::to_string(c.d_model) + "]");
    TMat<float> table(shape[0], c.d_model);
    readInto(w, entry.second, {table.data(), shape}, file);
    return table;
}

// The stored positional tables, each side's used as stored and the sinusoid for a side without one (docs/marian.md),
// as many rows as the stored one (a size the file bounds): the encoder's into pos_embedding, the decoder's into
// decoder_pos_embedding only where it is another table.
void readPositions(const StoredWeights& w, const std::map<std::string, size_t>& index, const TransformerConfig& c,
                   TransformerParams& p, const std::string& file) {
    const auto e = index.find("model.encoder.embed_positions.weight");
    const auto d = index.find("model.decoder.embed_positions.weight");
    if (e == index.end() && d == index.end()) return;
    auto computed = [&](const TMat<float>& stored) {
        return sinusoidalPositions<float>(int(stored.rows()), c.d_model, 0, c.positions);
    };
    TMat<float> encoder = e != index.end() ? readPositionTable(w, *e, c, file) : TMat<float>();
    TMat<float> decoder = d != index.end() ? readPositionTable(w, *d, c, file) : computed(encoder);
    p.pos_embedding = e != index.end() ? std::move(encoder) : computed(decoder);
    const bool same = decoder.rows() == p.pos_embedding.rows() && decoder == p.pos_embedding;
    if (!same) p.decoder_pos_embedding = std::move(decoder);
}

}  // namespace

void readMarianWeights(const StoredWeights& w, const std::string& file, const TransformerConfig& c, int source_vocab,
                       int target_vocab, TransformerParams& p) {
    resizeTransformerParams(p, {c, source_vocab, target_vocab, 0});
    NameMap m;
    addLayers(m, c, p);
    addTables(m, c, p, source_vocab, target_vocab);
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < w.entries().size(); ++i)
        if (!index.emplace(w.entries()[i].name, i).second)
            failInWeights(file, "tensor \"" + w.entries()[i].name + "\" is stored twice");
    std::set<std::string> used{"model.encoder.embed_positions.weight", "model.decoder.embed_positions.weight"};
    for (const auto& [name, dest] : m.single) {
        const auto it = index.find(name);
        if (it == index.end())
            failInWeights(file, "missing tensor \"" + name + "\" (shape " + safetensors::shapeText(dest.shape) +
                                    ", needed by config.json)");
        readInto(w, it->second, dest, file);
        used.insert(name);
    }
    for (const NameMap::Group& g : m.groups) {
        std::optional<size_t> found;
        for (const std::string& name : g.names) {
            used.insert(name);
            if (!found && index.count(name)) found = index.at(name);
        }
        if (found)
            readInto(w, *found, g.dest, file);
        else if (g.required)
            failInWeights(file, "missing tensor \"" + g.names.front() + "\" (shape " +
                                    safetensors::shapeText(g.dest.shape) +
                                    "; none of the names that stand for it is stored)");
    }
    for (const StoredWeights::Entry& e : w.entries())
        if (!used.count(e.name))
            failInWeights(
                file, "unexpected tensor \"" + e.name + "\": a Marian model with this config.json has no such tensor");
    readPositions(w, index, c, p, file);
}

std::vector<MarianTensor> marianTensors(const TransformerConfig& c, const TransformerParams& p) {
    // NameMap wants writable params; nothing is written through these views.
    TransformerParams& q = const_cast<TransformerParams&>(p);
    NameMap m;
    addLayers(m, c, q);
    addTables(m, c, q, sourceTable(p, c).rows(), p.tgt_embedding.rows());
    std::vector<MarianTensor> out;
    for (const NameMap::Group& g : m.groups) out.push_back({g.names.front(), g.dest.shape, g.dest.data});
    for (const auto& [name, dest] : m.single) out.push_back({name, dest.shape, dest.data});
    // stored positional tables as read (a model trained here computes its positions and stores none)
    const int64_t d = c.d_model;
    if (p.pos_embedding.rows() > 0)
        out.push_back({"model.encoder.embed_positions.weight", {p.pos_embedding.rows(), d}, p.pos_embedding.data()});
    if (const TMat<float>& dec = decoderPositions(p); dec.rows() > 0)
        out.push_back({"model.decoder.embed_positions.weight", {dec.rows(), d}, dec.data()});
    return out;
}

namespace {

class SafetensorsWeights : public StoredWeights {
public:
    explicit SafetensorsWeights(const std::string& path) : file_(path) {
        safetensors::requireExactBuffer(file_.header(), path);
        for (const safetensors::TensorInfo& t : file_.header().tensors)
            entries_.push_back({t.name, t.shape, std::string(safetensors::dtypeName(t.dtype))});
    }
    const std::vector<Entry>& entries() const override { return entries_; }
    int64_t readFloat(size_t i, float* out) const override { return file_.readFloat(file_.header().tensors[i], out); }

private:
    safetensors::TensorFile file_;
    std::vector<Entry> entries_;
};

class TorchWeights : public StoredWeights {
public:
    explicit TorchWeights(const std::string& path) : file_(TorchCheckpoint::open(path)) {
        for (const StoredTensor& t : file_.tensors())
            entries_.push_back({t.name, t.shape, std::string(safetensors::dtypeName(t.dtype))});
    }
    const std::vector<Entry>& entries() const override { return entries_; }
    int64_t readFloat(size_t i, float* out) const override { return file_.readFloat(i, out); }

private:
    TorchCheckpoint file_;
    std::vector<Entry> entries_;
};

}  // namespace

std::unique_ptr<StoredWeights> openSafetensorsWeights(const std::string& path) {
    return std::make_unique<SafetensorsWeights>(path);
}
std::unique_ptr<StoredWeights> openTorchWeights(const std::string& path) {
    return std::make_unique<TorchWeights>(path);
}

}  // namespace attnviz
