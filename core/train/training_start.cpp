#include "train/training_start.h"

#include "base/byte_size.h"
#include "io/model_file.h"
#include "model/params.h"
#include "train/corpus_training.h"

#include <algorithm>

namespace attnviz {
namespace {

void keepFirst(Corpus& corpus, size_t lines) {
    if (lines > 0 && corpus.examples.size() > lines) corpus.examples.resize(lines);
}

void requireFits(const TrainingSize& size, const ModelConfig& config) {
    if (!size.fits()) throw TrainingTooLarge(size, config);
}

// Before the pieces are trained: the shared vocabulary holds at least the larger side's pieces, so a model too large
// with that many is refused without training SentencePiece first.
void requireMarianMayFit(const MarianArchitecture& a, const TrainOptions& options, bool validation) {
    const ModelConfig config = marianModelConfig(a);
    const int least_vocab = std::max(a.source_pieces, a.target_pieces);
    requireFits(trainingSize(config, least_vocab, least_vocab, options, validation), config);
}

}  // namespace

TrainingSize trainingSize(const ModelConfig& config, int source_vocab, int target_vocab, const TrainOptions& options,
                          bool validation) {
    TrainingSize s;
    s.parameters = parameterCount(config, source_vocab, target_vocab);
    s.source_vocab = source_vocab;
    s.target_vocab = target_vocab;
    s.memory = trainingMemory(s.parameters, options, validation);
    return s;
}

namespace {

// The sizes of a config that make its parameter count with the vocabularies: "emb_dim E, enc_hid_dim H,
// dec_hid_dim D" or "d_model d, dim_feedforward F, N + M layers".
std::string configSizesText(const ModelConfig& c) {
    if (c.isTransformer())
        return "d_model " + std::to_string(c.transformer.d_model) + ", dim_feedforward " +
               perSideText(c.transformer.encoder_dim_feedforward, c.transformer.decoder_dim_feedforward) + ", " +
               std::to_string(c.transformer.num_encoder_layers) + " + " +
               std::to_string(c.transformer.num_decoder_layers) + " layers";
    return "emb_dim " + std::to_string(c.emb_dim) + ", enc_hid_dim " + std::to_string(c.enc_hid_dim) +
           ", dec_hid_dim " + std::to_string(c.dec_hid_dim);
}

std::string needsText(const TrainingSize& size) {
    return "training this model needs " + gibText(double(size.memory.total())) + " (the limit is " +
           gibText(double(kMaxTrainingBytes)) + ")";
}

}  // namespace

TrainingTooLarge::TrainingTooLarge(const TrainingSize& size, const ModelConfig& config)
    : InputError(needsText(size) + ": " + std::to_string(size.parameters) + " parameters"),
      size(size),
      config(config) {}

std::string TrainingTooLarge::sizesText(const std::string& vocab_origin) const {
    return needsText(size) + ": vocabularies of " + std::to_string(size.source_vocab) + " source and " +
           std::to_string(size.target_vocab) + " target tokens" +
           (vocab_origin.empty() ? "" : " (" + vocab_origin + ")") + " with " + configSizesText(config) + " make " +
           std::to_string(size.parameters) + " parameters";
}

UnknownShare unknownTokenShare(const Model& model, const Corpus& corpus) {
    size_t src = 0, src_unknown = 0, tgt = 0, tgt_unknown = 0;
    for (const CorpusExample& ex : corpus.examples) {
        for (const std::string& t : ex.source_tokens) src_unknown += !model.source_vocab.contains(t);
        for (const std::string& t : ex.target_tokens) tgt_unknown += !model.target_vocab.contains(t);
        src += ex.source_tokens.size();
        tgt += ex.target_tokens.size();
    }
    return {src ? double(src_unknown) / double(src) : 0.0, tgt ? double(tgt_unknown) / double(tgt) : 0.0};
}

TrainingStart startTraining(const TrainingStartRequest& r) {
    if (!r.init.empty()) {
        // A Marian folder (ours or a Hugging Face one) keeps its pieces and vocabulary, which cover any text, so
        // there is no share of unknown words to warn about.
        Model model = loadModel(r.init);
        const TrainingSize size =
            trainingSize(model.config, model.source_vocab.size(), model.target_vocab.size(), r.options, r.validation);
        requireFits(size, model.config);
        Corpus corpus = readCorpus(r.data, CorpusOptions{true, model.config.tokenizer});
        keepFirst(corpus, r.max_lines);
        const UnknownShare unknown = model.marian ? UnknownShare{} : unknownTokenShare(model, corpus);
        return {std::move(model), std::move(corpus), size, unknown};
    }
    if (r.marian) {  // raw text: the pieces are trained on it, then the examples are encoded with them
        Corpus corpus = readCorpus(r.data, CorpusOptions{true, std::nullopt});
        keepFirst(corpus, r.max_lines);
        if (corpus.examples.empty()) throw InputError(corpus.name + ": no training examples");
        requireMarianMayFit(*r.marian, r.options, r.validation);
        Model model = makeMarianModelWithoutWeights(corpus, *r.marian, r.options.seed);
        const TrainingSize size =
            trainingSize(model.config, model.source_vocab.size(), model.target_vocab.size(), r.options, r.validation);
        requireFits(size, model.config);
        initMarianWeights(model, r.options.seed);
        return {std::move(model), std::move(corpus), size, {}};
    }
    validateConfig(r.config);
    if (r.config.tokenizer.source == TokenizerKind::SentencePiece ||
        r.config.tokenizer.target == TokenizerKind::SentencePiece)
        throw InputError(
            "config: the SentencePiece tokenizer is for Marian-layout models: give a Marian config "
            "(\"model_type\": \"marian\") and the pieces' sizes (--spm-vocab)");
    Corpus corpus = readCorpus(r.data, CorpusOptions{true, r.config.tokenizer});
    keepFirst(corpus, r.max_lines);
    CorpusVocabularies v = corpusVocabularies(corpus, r.min_freq);
    const TrainingSize size = trainingSize(r.config, v.source.size(), v.target.size(), r.options, r.validation);
    requireFits(size, r.config);
    Model model = makeRandomModel(r.config, std::move(v.source), std::move(v.target), r.options.seed);
    return {std::move(model), std::move(corpus), size, {}};
}

}  // namespace attnviz
