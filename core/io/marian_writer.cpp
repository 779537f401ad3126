#include "io/marian_writer.h"

#include "base/errors.h"
#include "io/atomic_file.h"
#include "io/marian_weights.h"
#include "text/sentencepiece_model.h"

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace attnviz {
namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

void requireMarianLayout(const Model& m) {
    const TransformerConfig& t = m.config.transformer;
    if (!m.config.isTransformer() || t.final_norms || t.norm_first || t.positions != PositionLayout::Halves ||
        !m.source_spm || !m.target_spm || m.source_vocab.specials().sos >= 0)
        throw ModelError(
            "only a Marian-layout model (post-LN, no final norms, halves positions, SentencePiece "
            "pieces) is written as a Hugging Face folder");
}

std::string activationName(Activation a) { return a == Activation::Swish ? "swish" : std::string(toString(a)); }

ojson vocabJson(const Vocabulary& v) {
    ojson j = ojson::object();
    for (int i = 0; i < v.size(); ++i) j[v.token(i)] = i;
    return j;
}

// A fresh hidden folder beside `folder`: ".NAME.tmp-PID-XXXXXX".
std::string temporaryFolderBeside(const fs::path& folder) {
    std::string pattern =
        (folder.parent_path() / ("." + folder.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-XXXXXX"))
            .string();
    if (!::mkdtemp(pattern.data()))
        throw WriteError(folder.string() +
                         ": cannot save: cannot create a temporary folder beside it: " + std::strerror(errno));
    const mode_t mask = ::umask(0);  // mkdtemp makes it 0700; the folder gets the permissions a mkdir would give
    ::umask(mask);
    ::chmod(pattern.c_str(), 0777 & ~mask);
    return pattern;
}

void writeFiles(const Model& m, const std::string& dir, safetensors::DType dtype) {
    auto path = [&](const char* name) { return (fs::path(dir) / name).string(); };
    writeFileAtomically(path("config.json"), marianConfigJson(m));
    writeFileAtomically(path("generation_config.json"), marianGenerationConfigJson(m));
    const MarianOrigin origin = m.marian.value_or(MarianOrigin{});
    const ojson tokenizer = {{"tokenizer_class", "MarianTokenizer"},
                             {"source_lang", origin.source_lang},
                             {"target_lang", origin.target_lang},
                             {"separate_vocabs", false},
                             {"model_max_length", m.config.transformer.max_positions},
                             {"eos_token", "</s>"},
                             {"unk_token", "<unk>"},
                             {"pad_token", "<pad>"}};
    writeFileAtomically(path("tokenizer_config.json"), tokenizer.dump(2) + "\n");
    writeFileAtomically(path("vocab.json"), vocabJson(m.source_vocab).dump(2) + "\n");
    writeFileAtomically(path("source.spm"), m.source_spm->bytes());
    writeFileAtomically(path("target.spm"), m.target_spm->bytes());
    std::vector<safetensors::TensorView> views;
    for (const MarianTensor& t : marianTensors(m.config.transformer, m.transformer))
        views.push_back({t.name, t.shape, t.data});
    const std::vector<uint8_t> bytes = safetensors::serialize({{"format", "pt"}}, views, dtype);
    writeFileAtomically(path("model.safetensors"), bytes.data(), bytes.size());
}

}  // namespace

std::string marianConfigJson(const Model& m) {
    const TransformerConfig& t = m.config.transformer;
    const SpecialIds& s = m.target_vocab.specials();
    const ojson j = {{"architectures", {"MarianMTModel"}},
                     {"model_type", "marian"},
                     {"d_model", t.d_model},
                     {"encoder_layers", t.num_encoder_layers},
                     {"decoder_layers", t.num_decoder_layers},
                     {"encoder_attention_heads", t.encoder_nhead},
                     {"decoder_attention_heads", t.decoder_nhead},
                     {"encoder_ffn_dim", t.encoder_dim_feedforward},
                     {"decoder_ffn_dim", t.decoder_dim_feedforward},
                     {"activation_function", activationName(t.activation)},
                     {"vocab_size", m.source_vocab.size()},
                     {"decoder_vocab_size", m.target_vocab.size()},
                     {"max_position_embeddings", t.max_positions},
                     {"scale_embedding", t.scale_embedding},
                     {"pad_token_id", s.pad},
                     {"eos_token_id", s.eos},
                     {"decoder_start_token_id", s.start},
                     {"forced_eos_token_id", s.eos},
                     {"share_encoder_decoder_embeddings", t.shared_embeddings},
                     {"tie_word_embeddings", t.tied_output},
                     {"static_position_embeddings", true},
                     {"normalize_embedding", false},
                     {"is_encoder_decoder", true},
                     {"dropout", 0.1},
                     {"attention_dropout", 0.0},
                     {"activation_dropout", 0.0},
                     {"init_std", 0.02},
                     {"use_cache", true}};
    return j.dump(2) + "\n";
}

std::string marianGenerationConfigJson(const Model& m) {
    const SpecialIds& s = m.target_vocab.specials();
    ojson bad = ojson::array();
    for (int id : m.config.transformer.forbidden_outputs) bad.push_back(ojson::array({id}));
    const int beams = m.marian && m.marian->num_beams > 0 ? m.marian->num_beams : 4;
    const ojson j = {{"bad_words_ids", bad},
                     {"decoder_start_token_id", s.start},
                     {"eos_token_id", s.eos},
                     {"forced_eos_token_id", s.eos},
                     {"pad_token_id", s.pad},
                     {"num_beams", beams},
                     {"max_length", m.config.transformer.max_positions}};
    return j.dump(2) + "\n";
}

bool isOccupiedFolder(const std::string& path) {
    std::error_code ec;
    return fs::is_directory(path, ec) && !fs::is_empty(path, ec);
}

void saveMarianFolder(const Model& m, const std::string& folder, safetensors::DType dtype, bool replace) {
    requireMarianLayout(m);
    const fs::path target = fs::absolute(fs::path(folder).lexically_normal());
    std::error_code ec;
    const bool exists = fs::exists(target, ec);
    if (exists && !fs::is_directory(target, ec)) throw WriteError(folder + ": exists and is not a folder");
    if (isOccupiedFolder(target.string()) && !replace)
        throw WriteError(folder + ": exists and is not empty (use --force to replace it)");
    createFolders(target.parent_path().string());
    const std::string tmp = temporaryFolderBeside(target);
    try {
        writeFiles(m, tmp, dtype);
        if (exists) {
            const std::string old = temporaryFolderBeside(target);
            fs::rename(target, fs::path(old) / "replaced");
            fs::rename(tmp, target);
            fs::remove_all(old);
        } else {
            fs::rename(tmp, target);
        }
    } catch (const std::exception& e) {
        fs::remove_all(tmp, ec);
        if (dynamic_cast<const WriteError*>(&e)) throw;
        throw WriteError(folder + ": cannot save: " + e.what());
    }
}

}  // namespace attnviz
