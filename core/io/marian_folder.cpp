#include "io/marian_folder.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "io/input_file.h"
#include "io/marian_weights.h"
#include "io/safetensors.h"
#include "io/sentencepiece_file.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <system_error>

namespace attnviz {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr uint64_t kMaxJsonBytes = uint64_t(64) << 20;  // a 250,000-piece vocab.json is about 8 MB

std::string joinPath(const std::string& folder, const char* file) { return (fs::path(folder) / file).string(); }

bool isFile(const std::string& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec);  // follows links: a cache snapshot's files point into blobs/
}

std::string readFolderFile(const std::string& path, uint64_t max_bytes) {
    try {
        return readRegularFile(path, max_bytes);
    } catch (const InputError& e) {
        throw ModelError(e.what());
    }
}

// A JSON file of the folder; null when `optional` and absent.
json readJson(const std::string& folder, const char* file, bool optional) {
    const std::string path = joinPath(folder, file);
    if (optional && !isFile(path)) return nullptr;
    const std::string text = readFolderFile(path, kMaxJsonBytes);
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        throw ModelError(path + ": not valid JSON (" + e.what() + ")");
    }
}

// vocab.json: piece → id, every id of 0 .. size − 1 exactly once.
std::vector<std::string> readVocabTokens(const std::string& path, int size) {
    const std::string text = readFolderFile(path, kMaxJsonBytes);
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        throw ModelError(path + ": not valid JSON (" + e.what() + ")");
    }
    if (!j.is_object()) throw ModelError(path + ": must be a JSON object of piece → id");
    std::vector<std::string> tokens(static_cast<size_t>(size));
    std::vector<char> seen(static_cast<size_t>(size), 0);
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string piece = printable(it.key());
        if (!it.value().is_number_integer())
            throw ModelError(path + ": the id of \"" + piece + "\" is not an integer");
        const long long id = it.value().get<long long>();
        if (id < 0 || id >= size)
            throw ModelError(path + ": \"" + piece + "\" has id " + std::to_string(id) + ", outside 0.." +
                             std::to_string(size - 1) + " (config.json's vocabulary size " + std::to_string(size) + ")");
        if (seen[size_t(id)])
            throw ModelError(path + ": id " + std::to_string(id) + " is given to both \"" +
                             printable(tokens[size_t(id)]) + "\" and \"" + piece + "\"");
        seen[size_t(id)] = 1;
        tokens[size_t(id)] = it.key();
    }
    for (int id = 0; id < size; ++id)
        if (!seen[size_t(id)])
            throw ModelError(path + ": no piece has id " + std::to_string(id) + " (the ids must be 0.." +
                             std::to_string(size - 1) + " without gaps)");
    return tokens;
}

Vocabulary vocabularyOf(const std::string& path, int size, SpecialIds specials) {
    std::vector<std::string> tokens = readVocabTokens(path, size);
    for (int id = 0; id < size; ++id)
        if (tokens[size_t(id)] == "<unk>") specials.unk = id;
    if (specials.unk < 0) throw ModelError(path + ": has no \"<unk>\" piece");
    try {
        return Vocabulary(std::move(tokens), specials, path);
    } catch (const ModelError& e) {
        throw ModelError(std::string(e.what()) + " (ids from config.json / generation_config.json)");
    }
}

std::shared_ptr<const SentencePieceModel> readSpm(const std::string& folder, const char* file) {
    return std::make_shared<const SentencePieceModel>(readSentencePieceModel(joinPath(folder, file)));
}

// The weights file: model.safetensors wins over pytorch_model.bin; sharded and other frameworks' files are refused.
std::string weightsFile(const std::string& folder) {
    for (const char* file : {"model.safetensors", "pytorch_model.bin"})
        if (isFile(joinPath(folder, file))) return file;
    for (const char* file : {"model.safetensors.index.json", "pytorch_model.bin.index.json"})
        if (isFile(joinPath(folder, file)))
            throw ModelError(joinPath(folder, file) + ": a sharded checkpoint, which attnviz does not read (not covered)");
    for (const char* file : {"tf_model.h5", "flax_model.msgpack"})
        if (isFile(joinPath(folder, file)))
            throw ModelError(joinPath(folder, file) +
                             ": TensorFlow and Flax weights are not read; the folder needs model.safetensors or "
                             "pytorch_model.bin");
    throw ModelError(folder + ": no weights (expected model.safetensors or pytorch_model.bin)");
}

std::unique_ptr<StoredWeights> openWeights(const std::string& folder, const std::string& file) {
    const std::string path = joinPath(folder, file.c_str());
    return file == "model.safetensors" ? openSafetensorsWeights(path) : openTorchWeights(path);
}

MarianSummary summaryOf(const std::string& path, std::unique_ptr<StoredWeights>* weights) {
    MarianSummary s;
    const std::string folder = marianFolderOf(path);
    if (folder == path && !isFile(joinPath(folder, "config.json")))
        throw ModelError(path + ": is a directory, not a model file, and not a Marian folder (it has no config.json)");
    const json config = readJson(folder, "config.json", false);
    try {
        s.settings = marianSettings(config, readJson(folder, "generation_config.json", true),
                                    readJson(folder, "tokenizer_config.json", true));
    } catch (const ModelError& e) {
        throw ModelError(folder + "/" + e.what());
    }
    s.origin.folder = folder;
    s.origin.repository = hubRepositoryName(folder);
    s.origin.source_lang = s.settings.source_lang;
    s.origin.target_lang = s.settings.target_lang;
    s.origin.num_beams = s.settings.num_beams;
    s.origin.max_length = s.settings.max_length;
    s.origin.weights_file = weightsFile(folder);
    std::unique_ptr<StoredWeights> w = openWeights(folder, s.origin.weights_file);
    s.origin.weights_dtype = w->entries().empty() ? "" : w->entries().front().dtype;
    s.parameter_count = transformerParameterCount(
        {s.settings.config.transformer, s.settings.vocab_size, s.settings.target_vocab_size, 0});
    if (weights) *weights = std::move(w);
    return s;
}

}  // namespace

bool isMarianPath(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return true;
    return fs::path(path).filename() == "config.json";
}

std::string marianFolderOf(const std::string& path) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec && ec.value() == ELOOP) throw ModelError(path + ": a symbolic link loop");
    if (fs::is_directory(status)) return path;
    const fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

std::string hubRepositoryName(const std::string& folder) {
    // …/models--OWNER--NAME/snapshots/HASH
    const fs::path p = fs::path(folder).lexically_normal();
    const fs::path hash_dir = p.filename().empty() ? p.parent_path() : p;
    const fs::path snapshots = hash_dir.parent_path();
    if (snapshots.filename() != "snapshots") return "";
    const std::string repo = snapshots.parent_path().filename().string();
    if (repo.rfind("models--", 0) != 0) return "";
    std::string name = repo.substr(8);
    const size_t sep = name.find("--");
    if (sep != std::string::npos) name.replace(sep, 2, "/");
    return name;
}

MarianSummary readMarianSummary(const std::string& path) { return summaryOf(path, nullptr); }

Model loadMarianFolder(const std::string& path) {
    std::unique_ptr<StoredWeights> weights;
    MarianSummary s = summaryOf(path, &weights);
    const std::string folder = s.origin.folder;
    const MarianSettings& st = s.settings;
    Model m;
    m.config = st.config;
    const std::string source_vocab = joinPath(folder, "vocab.json");
    m.source_vocab = vocabularyOf(source_vocab, st.vocab_size, st.source_specials);
    m.target_vocab = st.separate_vocabs
                         ? vocabularyOf(joinPath(folder, "target_vocab.json"), st.target_vocab_size, st.target_specials)
                         : vocabularyOf(source_vocab, st.target_vocab_size, st.target_specials);
    m.source_spm = readSpm(folder, "source.spm");
    m.target_spm = readSpm(folder, "target.spm");
    readMarianWeights(*weights, joinPath(folder, s.origin.weights_file.c_str()), m.config.transformer,
                      m.source_vocab.size(), m.target_vocab.size(), m.transformer);
    m.task = "marian";
    m.description = s.origin.repository.empty() ? "Marian model in " + folder : s.origin.repository;
    m.marian = std::move(s.origin);
    return m;
}

}  // namespace attnviz
