#include "marian_folders.h"

#include "io/atomic_file.h"
#include "io/marian_weights.h"
#include "io/safetensors.h"
#include "text/sentencepiece_model.h"
#include "text/sentencepiece_training.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <random>

namespace attnviz::testing {
namespace {

namespace fs = std::filesystem;
namespace st = safetensors;

void writeText(const std::string& path, const std::string& text) {
    writeFileAtomically(path, reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

st::DType dtypeOf(const std::string& name) {
    return name == "F16" ? st::DType::F16 : name == "BF16" ? st::DType::BF16 : st::DType::F32;
}

// Every value as the file's dtype will hold it, so that the loaded weights equal `p` exactly.
void roundTo(TransformerParams& p, const TransformerShape& s, st::DType dtype) {
    if (dtype == st::DType::F32) return;
    forEachTransformerTensor(p, s, [&](const std::string&, const std::vector<int64_t>&, auto& t) {
        for (Eigen::Index i = 0; i < t.size(); ++i) {
            const float v = t.data()[i];
            t.data()[i] = dtype == st::DType::F16 ? float(Eigen::half(v)) : float(Eigen::bfloat16(v));
        }
    });
}

nlohmann::json configJson(const MarianFolderOptions& o, int V) {
    return {{"model_type", "marian"},
            {"d_model", o.d_model},
            {"encoder_layers", o.layers},
            {"decoder_layers", o.layers},
            {"encoder_attention_heads", o.heads},
            {"decoder_attention_heads", o.decoder_heads > 0 ? o.decoder_heads : o.heads},
            {"encoder_ffn_dim", o.ffn},
            {"decoder_ffn_dim", o.decoder_ffn > 0 ? o.decoder_ffn : o.ffn},
            {"activation_function", o.activation},
            {"vocab_size", V},
            {"max_position_embeddings", 64},
            {"scale_embedding", true},
            {"pad_token_id", V - 1},
            {"eos_token_id", 0},
            {"decoder_start_token_id", V - 1},
            {"share_encoder_decoder_embeddings", true},
            {"tie_word_embeddings", true},
            {"static_position_embeddings", true},
            {"architectures", {"MarianMTModel"}}};
}

void writeWeights(const std::string& folder, const MarianFolderOptions& o, const MarianFolder& f) {
    std::vector<st::TensorView> views;
    for (const MarianTensor& t : marianTensors(f.config, f.params)) {
        if (t.name == "final_logits_bias" && !o.write_logits_bias) continue;
        views.push_back({t.name == "model.shared.weight" ? o.table_name : t.name, t.shape, t.data});
    }
    if (o.write_lm_head) views.push_back({"lm_head.weight", {f.vocab, o.d_model}, f.params.tgt_embedding.data()});
    const std::vector<uint8_t> bytes = st::serialize({{"format", "pt"}}, views, dtypeOf(o.dtype));
    writeFileAtomically((fs::path(folder) / "model.safetensors").string(), bytes.data(), bytes.size());
}

}  // namespace

std::vector<std::string> marianTestLines(int count) {
    static const char* words[] = {"the",    "cat",    "sat",     "on",    "a",       "mat",     "dog",    "ran",
                                  "to",     "house",  "green",   "river", "walked",  "under",   "bright", "morning",
                                  "we",     "saw",    "three",   "small", "birds",   "singing", "near",   "old",
                                  "bridge", "she",    "reads",   "books", "about",   "distant", "cities", "and",
                                  "he",     "writes", "letters", "every", "evening", "market",  "fresh",  "bread"};
    std::mt19937 rng(11);
    std::vector<std::string> lines;
    for (int i = 0; i < count; ++i) {
        std::string line;
        const int n = 4 + int(rng() % 8);
        for (int k = 0; k < n; ++k) line += (k ? " " : "") + std::string(words[rng() % std::size(words)]);
        lines.push_back(line + (i % 3 == 0 ? "." : ""));
    }
    return lines;
}

MarianFolder makeMarianFolder(const std::string& path, const MarianFolderOptions& o) {
    fs::remove_all(path);
    fs::create_directories(path);
    const std::string spm_bytes = trainSentencePiece(marianTestLines(), {o.spm_vocab, 1, 1.0, 1000000});
    const SentencePieceModel spm = SentencePieceModel::fromBytes(spm_bytes, "test.spm");
    std::vector<std::string> pieces{"</s>", "<unk>"};
    for (const std::string& piece : spm.normalPieces()) pieces.push_back(piece);
    pieces.push_back("<pad>");
    MarianFolder f;
    f.path = path;
    f.vocab = int(pieces.size());
    nlohmann::json vocab = nlohmann::json::object();
    for (size_t i = 0; i < pieces.size(); ++i) vocab[pieces[i]] = i;
    writeText(path + "/vocab.json", vocab.dump());
    writeText(path + "/source.spm", spm_bytes);
    writeText(path + "/target.spm", spm_bytes);
    writeText(path + "/config.json", configJson(o, f.vocab).dump(2));
    nlohmann::json bad = nlohmann::json::array({nlohmann::json::array({f.vocab - 1})});
    for (const auto& b : o.bad_words) bad.push_back(b);
    writeText(path + "/generation_config.json",
              nlohmann::json{{"bad_words_ids", bad}, {"num_beams", 4}, {"max_length", 64}}.dump());
    writeText(path + "/tokenizer_config.json",
              nlohmann::json{{"source_lang", "en"}, {"target_lang", "xx"}, {"separate_vocabs", false}}.dump());

    TransformerConfig& c = f.config;
    c.d_model = o.d_model;
    c.encoder_nhead = o.heads;
    c.decoder_nhead = o.decoder_heads > 0 ? o.decoder_heads : o.heads;
    c.num_encoder_layers = c.num_decoder_layers = o.layers;
    c.encoder_dim_feedforward = o.ffn;
    c.decoder_dim_feedforward = o.decoder_ffn > 0 ? o.decoder_ffn : o.ffn;
    c.activation = parseActivation(o.activation);
    c.final_norms = false;
    c.positions = PositionLayout::Halves;
    c.max_positions = 64;
    c.shared_embeddings = c.tied_output = true;
    std::vector<int> forbidden{f.vocab - 1};
    for (const auto& b : o.bad_words)
        if (b.size() == 1) forbidden.push_back(b[0]);
    std::sort(forbidden.begin(), forbidden.end());
    forbidden.erase(std::unique(forbidden.begin(), forbidden.end()), forbidden.end());
    c.forbidden_outputs = forbidden;
    const int rows = o.write_positions ? 64 : 0;
    const TransformerShape shape{c, f.vocab, f.vocab, rows, o.distinct_positions ? rows : 0};
    initTransformerParams(f.params, shape, {o.seed, true});
    if (o.distinct_positions) {
        std::mt19937 rng(uint32_t(o.seed));
        std::uniform_real_distribution<float> noise(-0.5f, 0.5f);
        for (Eigen::Index i = 0; i < f.params.decoder_pos_embedding.size(); ++i)
            f.params.decoder_pos_embedding.data()[i] += noise(rng);
    }
    if (!o.write_logits_bias) f.params.generator_bias.setZero();
    roundTo(f.params, shape, dtypeOf(o.dtype));
    writeWeights(path, o, f);
    return f;
}

void rewriteMarianWeights(const std::string& folder, const std::function<void(TensorTable&)>& edit) {
    const std::string path = folder + "/model.safetensors";
    const std::vector<uint8_t> bytes = st::readFile(path);
    const st::Header h = st::parseFile(bytes.data(), bytes.size(), path);
    TensorTable table;
    for (const st::TensorInfo& t : h.tensors) {
        std::vector<float> values(size_t(t.numel));
        st::toFloat(t, bytes.data() + h.dataStart(), values.data());
        table[t.name] = {t.shape, std::move(values)};
    }
    edit(table);
    std::vector<st::TensorView> views;
    for (const auto& [name, entry] : table) views.push_back({name, entry.first, entry.second.data()});
    const std::vector<uint8_t> out = st::serialize({{"format", "pt"}}, views, st::DType::F32);
    writeFileAtomically(path, out.data(), out.size());
}

}  // namespace attnviz::testing
