#include "train/marian_start.h"

#include "base/errors.h"
#include "io/marian_config.h"
#include "text/sentencepiece_model.h"
#include "text/sentencepiece_training.h"

#include <set>

namespace attnviz {
namespace {

// A side's pieces trained on its lines; the message names the side.
std::shared_ptr<const SentencePieceModel> trainSide(const std::vector<std::string>& lines,
                                                    const SentencePieceTraining& t, const char* side,
                                                    const std::string& corpus) {
    try {
        return std::make_shared<const SentencePieceModel>(
            SentencePieceModel::fromBytes(trainSentencePiece(lines, t), std::string(side) + ".spm"));
    } catch (const InputError& e) {
        throw InputError(corpus + ": the " + side + " side: " + e.what());
    }
}

// </s> 0, <unk> 1, the source's pieces then the target's new ones, <pad> last.
std::vector<std::string> sharedPieces(const SentencePieceModel& source, const SentencePieceModel& target) {
    std::vector<std::string> tokens{"</s>", "<unk>"};
    std::set<std::string> seen(tokens.begin(), tokens.end());
    seen.insert("<pad>");
    for (const SentencePieceModel* spm : {&source, &target})
        for (const std::string& piece : spm->normalPieces())
            if (seen.insert(piece).second) tokens.push_back(piece);
    tokens.push_back("<pad>");
    return tokens;
}

}  // namespace

bool isMarianConfigJson(const nlohmann::json& config) {
    return config.is_object() && config.contains("model_type") && config["model_type"] == "marian";
}

MarianArchitecture marianArchitectureFromJson(const nlohmann::json& config) {
    nlohmann::json c = config;
    if (!c.contains("vocab_size")) c["vocab_size"] = 8;  // decided by the pieces
    for (const char* key : {"pad_token_id", "decoder_start_token_id", "decoder_vocab_size"}) c.erase(key);
    MarianArchitecture a;
    a.transformer = marianSettings(c, nullptr, nullptr).config.transformer;
    a.transformer.forbidden_outputs.clear();
    a.transformer.shared_embeddings = a.transformer.tied_output = true;
    if (!config.contains("max_position_embeddings")) a.transformer.max_positions = 512;
    return a;
}

ModelConfig marianModelConfig(const MarianArchitecture& a) {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.tokenizer = {TokenizerKind::SentencePiece, TokenizerKind::SentencePiece, false};
    c.transformer = a.transformer;
    TransformerConfig& t = c.transformer;
    t.norm_first = false;
    t.final_norms = false;
    t.positions = PositionLayout::Halves;
    t.shared_embeddings = t.tied_output = true;
    t.forbidden_outputs.clear();
    return c;
}

Model makeMarianModelWithoutWeights(const Corpus& corpus, const MarianArchitecture& a, uint64_t seed) {
    std::vector<std::string> source, target;
    for (const CorpusExample& ex : corpus.examples) {
        source.push_back(ex.source);
        target.push_back(ex.target);
    }
    Model m;
    const SentencePieceTraining source_training{.vocab_size = a.source_pieces,
                                                .seed = seed,
                                                .character_coverage = a.source_coverage,
                                                .normalization = a.source_normalization};
    const SentencePieceTraining target_training{.vocab_size = a.target_pieces,
                                                .seed = seed,
                                                .character_coverage = a.target_coverage,
                                                .normalization = a.target_normalization};
    m.source_spm = trainSide(source, source_training, "source", corpus.name);
    m.target_spm = trainSide(target, target_training, "target", corpus.name);
    std::vector<std::string> tokens = sharedPieces(*m.source_spm, *m.target_spm);
    const int V = int(tokens.size()), pad = V - 1;
    m.source_vocab = Vocabulary(tokens, SpecialIds{pad, 1, -1, 0, -1}, "vocabulary");
    m.target_vocab = Vocabulary(std::move(tokens), SpecialIds{pad, 1, -1, 0, pad}, "vocabulary");
    m.config = marianModelConfig(a);
    m.config.transformer.forbidden_outputs = {pad};
    validateConfig(m.config);
    MarianOrigin origin;
    origin.source_lang = a.source_lang;
    origin.target_lang = a.target_lang;
    origin.num_beams = 4;
    m.marian = origin;
    m.task = "marian";
    return m;
}

void initMarianWeights(Model& model, uint64_t seed) {
    const int pad = model.target_vocab.specials().pad;
    initTransformerParams(model.transformer, model.transformerShape(), {seed + 1, false});
    model.transformer.tgt_embedding.row(pad).setZero();
    model.transformer.generator_bias[pad] = 0.0f;
}

Model makeMarianModel(const Corpus& corpus, const MarianArchitecture& a, uint64_t seed) {
    Model m = makeMarianModelWithoutWeights(corpus, a, seed);
    initMarianWeights(m, seed);
    return m;
}

void dropFixedGradients(const Model& model, TransformerParams& gradient) {
    if (!model.marian) return;  // shared or not, the target table's <pad> row is the decoder's first input
    const int pad = model.target_vocab.specials().pad;
    gradient.tgt_embedding.row(pad).setZero();
    gradient.generator_bias[pad] = 0.0f;
}

}  // namespace attnviz
