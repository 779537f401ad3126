// Model files (docs/model-format.md): safetensors with the attnviz.seq2seq metadata. The header is checked in full
// (metadata, config, vocabularies, every tensor's name, dtype, shape and offsets) before any weight is converted.
#include "io/model_file.h"
#include "base/errors.h"
#include "io/atomic_file.h"
#include "io/marian_folder.h"
#include "io/safetensors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <unordered_map>

namespace attnviz {
namespace {

namespace st = safetensors;
using json = nlohmann::json;

constexpr const char* kFormat = "attnviz.seq2seq";
constexpr const char* kFormatVersion = "1";
const std::set<std::string, std::less<>> kKnownKeys = {"format",       "format_version", "config",      "source_vocab",
                                                       "target_vocab", "task",           "description", "training"};

using st::fail;
using st::shapeText;

std::string configSummary(const ModelConfig& c) {
    if (c.isTransformer()) {
        const TransformerConfig& t = c.transformer;
        return "decoder \"transformer\", d_model " + std::to_string(t.d_model) + ", nhead " +
               perSideText(t.encoder_nhead, t.decoder_nhead) + ", " + std::to_string(t.num_encoder_layers) +
               " encoder and " + std::to_string(t.num_decoder_layers) + " decoder layers, dim_feedforward " +
               perSideText(t.encoder_dim_feedforward, t.decoder_dim_feedforward);
    }
    std::string s = "decoder \"" + std::string(toString(c.decoder)) + "\", score \"" + std::string(toString(c.score)) +
                    "\", span \"" + std::string(toString(c.span)) + "\"";
    if (c.decoder == DecoderKind::Luong) s += c.input_feeding ? ", input feeding" : ", no input feeding";
    return s;
}

const std::string* metaValue(const st::Header& h, const char* key) {
    auto it = h.metadata.find(key);
    return it == h.metadata.end() ? nullptr : &it->second;
}

const std::string& requiredMeta(const st::Header& h, const char* key, const std::string& name) {
    const std::string* v = metaValue(h, key);
    if (!v) fail(name, std::string("metadata \"") + key + "\" is missing");
    return *v;
}

Vocabulary parseVocab(const std::string& text, const char* key, const std::string& name) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        fail(name, std::string(key) + ": not valid JSON (" + e.what() + ")");
    }
    if (!j.is_array()) fail(name, std::string(key) + ": must be a JSON array of strings, not " + j.type_name());
    std::vector<std::string> tokens;
    tokens.reserve(j.size());
    for (size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_string())
            fail(name,
                 std::string(key) + ": entry " + std::to_string(i) + " is " + j[i].type_name() + ", not a string");
        tokens.push_back(j[i].get<std::string>());
    }
    if (tokens.size() > size_t(1) << 30) fail(name, std::string(key) + ": too many entries");
    try {
        return Vocabulary(std::move(tokens), key);
    } catch (const ModelError& e) {
        fail(name, e.what());
    }
}

// The tensors the header's config calls for, names and shapes only (nothing is allocated).
std::vector<ParamRef> expectedTensors(const ModelHeader& m) {
    if (m.config.isTransformer()) {
        TransformerParams none;
        none.encoder_layers.resize(size_t(m.config.transformer.num_encoder_layers));
        none.decoder_layers.resize(size_t(m.config.transformer.num_decoder_layers));
        return transformerParamRefs(none,
                                    {m.config.transformer, m.source_vocab.size(), m.target_vocab.size(), m.maxlen});
    }
    ModelParams none;
    return paramRefs(none, m.config, m.source_vocab.size(), m.target_vocab.size());
}

// The rows of a stored positional table (docs/transformer.md: maxlen x 1 x d_model), 0 when the file has none.
int storedMaxlen(const st::Header& h, const TransformerConfig& c, const std::string& name) {
    const char* key = "positional_encoding.pos_embedding";
    const auto it =
        std::find_if(h.tensors.begin(), h.tensors.end(), [&](const st::TensorInfo& t) { return t.name == key; });
    if (it == h.tensors.end()) return 0;
    const std::vector<int64_t>& shape = it->shape;
    const std::string wanted = "[maxlen, 1, " + std::to_string(c.d_model) + "]";
    if (shape.size() != 3 || shape[1] != 1 || shape[2] != c.d_model)
        fail(name,
             std::string("tensor \"") + key + "\" has shape " + shapeText(shape) + "; the config needs " + wanted);
    if (shape[0] < 2 || shape[0] > (int64_t(1) << 20))
        fail(name, std::string("tensor \"") + key + "\" has maxlen " + std::to_string(shape[0]) +
                       "; a sentence needs at least 2 positions (<sos> and <eos>) and at most " +
                       std::to_string(1 << 20) + " are read");
    return int(shape[0]);
}

// Every tensor the config calls for is in the file with its shape, and no other.
void checkTensorTable(const st::Header& h, const std::vector<ParamRef>& refs, const ModelConfig& config,
                      const std::string& name) {
    std::unordered_map<std::string_view, const st::TensorInfo*> by_name;
    for (const st::TensorInfo& t : h.tensors) by_name.emplace(t.name, &t);
    for (const ParamRef& r : refs) {
        auto it = by_name.find(r.name);
        if (it == by_name.end())
            fail(name, "missing tensor \"" + r.name + "\" (shape " + shapeText(r.shape) +
                           ", needed by the config: " + configSummary(config) + ")");
        if (it->second->shape != r.shape)
            fail(name, "tensor \"" + r.name + "\" has shape " + shapeText(it->second->shape) + "; the config needs " +
                           shapeText(r.shape));
    }
    if (h.tensors.size() != refs.size()) {
        std::set<std::string_view> wanted;
        for (const ParamRef& r : refs) wanted.insert(r.name);
        for (const st::TensorInfo& t : h.tensors)
            if (!wanted.count(t.name))
                fail(name, "unexpected tensor \"" + t.name + "\": a model with " + configSummary(config) +
                               " has no such tensor");
    }
}

// Checks the metadata and the tensor table against the config; the weights are not looked at.
ModelHeader interpretHeader(const st::Header& h, const std::string& name) {
    if (!h.has_metadata)
        fail(name, std::string("no __metadata__ in the header: not an attnviz model (format \"") + kFormat + "\")");
    const std::string* format = metaValue(h, "format");
    if (!format)
        fail(name, std::string("metadata \"format\" is missing: not an attnviz model (format \"") + kFormat + "\")");
    if (*format != kFormat) fail(name, "metadata format is \"" + *format + "\"; expected \"" + kFormat + "\"");
    const std::string& version = requiredMeta(h, "format_version", name);
    if (version != kFormatVersion)
        fail(name, "format_version \"" + version + "\" is not supported (this build reads format_version \"" +
                       kFormatVersion + "\")");

    ModelHeader m;
    const std::string& config_text = requiredMeta(h, "config", name);
    try {
        m.config = configFromJsonText(config_text);
    } catch (const ModelError& e) {
        fail(name, e.what());
    }
    if (m.config.tokenizer.source == TokenizerKind::SentencePiece ||
        m.config.tokenizer.target == TokenizerKind::SentencePiece || m.config.transformer.isConfigured())
        fail(name,
             "config: a SentencePiece tokenizer or a Marian configuration is read from a Hugging Face Marian "
             "folder, not from an attnviz file (docs/marian.md)");
    m.source_vocab = parseVocab(requiredMeta(h, "source_vocab", name), "source_vocab", name);
    m.target_vocab = parseVocab(requiredMeta(h, "target_vocab", name), "target_vocab", name);
    if (const std::string* v = metaValue(h, "task")) m.task = *v;
    if (const std::string* v = metaValue(h, "description")) m.description = *v;
    if (const std::string* v = metaValue(h, "training")) m.training = *v;
    for (const auto& [k, v] : h.metadata)
        if (!kKnownKeys.count(k)) m.extra_metadata.emplace(k, v);

    if (m.config.isTransformer()) m.maxlen = storedMaxlen(h, m.config.transformer, name);
    checkTensorTable(h, expectedTensors(m), m.config, name);
    for (const st::TensorInfo& t : h.tensors)
        m.tensors.push_back({t.name, std::string(st::dtypeName(t.dtype)), t.shape, t.begin, t.end});
    return m;
}

std::string describeBadValue(const st::TensorInfo& t, const uint8_t* buffer, int64_t index, float v) {
    if (t.dtype == st::DType::F64) {
        double d;
        std::memcpy(&d, buffer + t.begin + uint64_t(index) * 8, 8);
        char text[40];
        std::snprintf(text, sizeof text, "%.17g", d);
        if (std::isfinite(d)) return std::string("value ") + text + " (outside the float range)";
    }
    return std::isnan(v) ? "NaN" : (v > 0 ? "+Inf" : "-Inf");
}

std::string positionText(const std::vector<int64_t>& shape, int64_t index) {
    std::string s = "index " + std::to_string(index);
    if (shape.size() == 2 && shape[1] > 0)
        s += " (row " + std::to_string(index / shape[1]) + ", column " + std::to_string(index % shape[1]) + ")";
    return s;
}

}  // namespace

int64_t ModelHeader::parameterCount() const {
    return attnviz::parameterCount(config, source_vocab.size(), target_vocab.size(), maxlen);
}

Model loadModelFromBytes(const uint8_t* data, size_t size, const std::string& name) {
    const st::Header h = st::parseFile(data, size, name);
    ModelHeader mh = interpretHeader(h, name);
    st::requireExactBuffer(h, name);

    Model m;
    m.config = mh.config;
    m.source_vocab = std::move(mh.source_vocab);
    m.target_vocab = std::move(mh.target_vocab);
    m.task = std::move(mh.task);
    m.description = std::move(mh.description);
    m.training = std::move(mh.training);
    m.extra_metadata = std::move(mh.extra_metadata);

    // Every tensor now matches the config and lies inside the buffer, so these sizes are bounded by the file's.
    if (m.config.isTransformer())
        resizeTransformerParams(m.transformer,
                                {m.config.transformer, m.source_vocab.size(), m.target_vocab.size(), mh.maxlen});
    else
        resizeParams(m.params, m.config, m.source_vocab.size(), m.target_vocab.size());
    std::unordered_map<std::string_view, const st::TensorInfo*> by_name;
    for (const st::TensorInfo& t : h.tensors) by_name.emplace(t.name, &t);
    const uint8_t* buffer = data + h.dataStart();
    for (ParamRef& r : paramRefs(m)) {
        const st::TensorInfo& t = *by_name.at(r.name);
        if (t.numel != r.size) fail(name, "tensor \"" + r.name + "\": internal size mismatch");
        const int64_t bad = st::toFloat(t, buffer, r.data);
        if (bad >= 0)
            fail(name, "tensor \"" + r.name + "\" has " + describeBadValue(t, buffer, bad, r.data[bad]) + " at " +
                           positionText(t.shape, bad));
    }
    return m;
}

Model loadModel(const std::string& path) {
    if (isMarianPath(path)) return loadMarianFolder(path);
    // The header first (8 + N bytes): a file with trailing data, gaps or a bad config is refused before its
    // buffer is read into memory.
    (void)readModelHeader(path);
    const std::vector<uint8_t> bytes = st::readFile(path);
    return loadModelFromBytes(bytes.data(), bytes.size(), path);
}

ModelHeader readModelHeader(const std::string& path, uint64_t max_header) {
    const st::Header h = st::readFileHeader(path, max_header);
    ModelHeader m = interpretHeader(h, path);
    st::requireExactBuffer(h, path);
    m.file_size = h.dataStart() + h.buffer_size;
    return m;
}

std::vector<uint8_t> serializeModel(const Model& model, st::DType dtype) {
    validateConfig(model.config);
    if (model.marian || model.config.transformer.isConfigured() ||
        model.config.tokenizer.source == TokenizerKind::SentencePiece ||
        model.config.tokenizer.target == TokenizerKind::SentencePiece)
        throw ModelError(
            "a Marian-layout model is kept as a Hugging Face folder, not as an attnviz file "
            "(docs/marian.md)");
    if (model.source_vocab.size() < 4 || model.target_vocab.size() < 4)
        throw ModelError("cannot save a model without vocabularies (each needs at least <pad> <unk> <sos> <eos>)");

    std::map<std::string, std::string> meta;
    for (const auto& [k, v] : model.extra_metadata)
        if (!kKnownKeys.count(k)) meta.emplace(k, v);
    meta["format"] = kFormat;
    meta["format_version"] = kFormatVersion;
    meta["config"] = configToJson(model.config).dump();
    meta["source_vocab"] = json(model.source_vocab.tokens()).dump();
    meta["target_vocab"] = json(model.target_vocab.tokens()).dump();
    if (!model.task.empty()) meta["task"] = model.task;
    if (!model.description.empty()) meta["description"] = model.description;
    if (!model.training.empty()) meta["training"] = model.training;

    if (model.config.isTransformer()) checkTransformerParams(model.transformer, model.config.transformer);
    // paramRefs wants a mutable Model; nothing is written through these views.
    std::vector<st::TensorView> views;
    for (const ParamRef& r : paramRefs(const_cast<Model&>(model))) {
        int64_t numel = 1;
        for (int64_t d : r.shape) numel *= d;
        if (r.size != numel)
            throw ModelError("tensor \"" + r.name + "\" has " + std::to_string(r.size) +
                             " values; the config needs shape " + shapeText(r.shape));
        for (int64_t i = 0; i < numel; ++i)
            if (!std::isfinite(r.data[i]))
                throw ModelError("tensor \"" + r.name + "\" has " + (std::isnan(r.data[i]) ? "NaN" : "Inf") + " at " +
                                 positionText(r.shape, i) + " (a file with it could not be loaded)");
        views.push_back({r.name, r.shape, r.data});
    }
    return st::serialize(meta, views, dtype);
}

void saveModel(const Model& model, const std::string& path, st::DType dtype) {
    std::vector<uint8_t> bytes;
    try {
        bytes = serializeModel(model, dtype);
    } catch (const ModelError& e) {
        fail(path, std::string("cannot save: ") + e.what());
    }
    try {
        writeFileAtomically(path, bytes.data(), bytes.size());
    } catch (const WriteError& e) {
        throw ModelError(e.what());  // saveModel's contract: a ModelError naming the path
    }
}

}  // namespace attnviz
