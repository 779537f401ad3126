#include "test_models.h"
#include "io/model_file.h"

#include <QTest>

namespace attnviz::testing {

ModelConfig smallConfig(DecoderKind decoder, ScoreKind score, SpanKind span, bool input_feeding, int emb, int enc_hid,
                        int dec_hid) {
    ModelConfig c;
    c.decoder = decoder;
    c.score = score;
    c.span = span;
    c.window = 2;
    c.input_feeding = input_feeding;
    c.emb_dim = emb;
    c.enc_hid_dim = enc_hid;
    c.dec_hid_dim = dec_hid;
    c.tokenizer = {TokenizerKind::Word, TokenizerKind::Whitespace, true};
    return c;
}

Vocabulary vocabWith(const std::vector<std::string>& words) {
    std::vector<std::string> t = {"<pad>", "<unk>", "<sos>", "<eos>"};
    t.insert(t.end(), words.begin(), words.end());
    return Vocabulary(std::move(t));
}

Vocabulary smallSourceVocab() {
    return vocabWith(
        {"i", "love", "you", "the", "cat", "sat", "on", "mat", "ate", "an", "apple", "yesterday", ".", ","});
}

Vocabulary smallTargetVocab() {
    return vocabWith({"我", "爱", "你", "猫", "坐", "在", "垫子", "上", "吃", "了", "一个", "苹果", "昨天", "。"});
}

Model smallTransformer(uint64_t seed, int decoder_layers) {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.tokenizer = {TokenizerKind::Word, TokenizerKind::Whitespace, true};
    c.transformer = {8, 2, 2, decoder_layers, 16, false, Activation::Relu};
    Model m = makeRandomTransformerModel(c, smallSourceVocab(), smallTargetVocab(), {seed, true});
    m.transformer.generator_weight *= 3.0f;
    m.task = "test-task";  // smallModel's: a sibling of its models
    return m;
}

void addKindRows() {
    QTest::addColumn<int>("kind");
    QTest::newRow("bahdanau") << int(DecoderKind::Bahdanau);
    QTest::newRow("luong") << int(DecoderKind::Luong);
    QTest::newRow("transformer") << int(DecoderKind::Transformer);
}

Model smallModel(const ModelConfig& config, uint64_t seed, float scale) {
    Model m = makeRandomModel(config, smallSourceVocab(), smallTargetVocab(), seed);
    if (scale != 1.0f)
        for (ParamRef& r : paramRefs(m.params, m.config, m.source_vocab.size(), m.target_vocab.size()))
            for (int64_t i = 0; i < r.size; ++i) r.data[i] *= scale;
    m.task = "test-task";
    return m;
}

QString saveInto(const Model& model, const QTemporaryDir& dir, const QString& file_name) {
    const QString path = dir.filePath(file_name);
    saveModel(model, path.toStdString());
    return path;
}

Model withHeadZeroed(Model m, const HeadRef& h) {
    const int dh = m.config.transformer.headDim(h.kind);
    TransformerParams& p = m.transformer;
    MultiHeadAttentionParamsT<float>& a = h.kind == AttentionKind::EncoderSelf ? p.encoder_layers[h.layer].self_attn
                                          : h.kind == AttentionKind::DecoderSelf
                                              ? p.decoder_layers[h.layer].self_attn
                                              : p.decoder_layers[h.layer].multihead_attn;
    a.out_proj_weight.middleCols(h.head * dh, dh).setZero();
    return m;
}

}  // namespace attnviz::testing
