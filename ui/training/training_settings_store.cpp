#include "training/training_settings_store.h"
#include "base/errors.h"
#include "heatmap/utf8_text.h"
#include "text/sentencepiece_training.h"

#include <QFileInfo>
#include <QSettings>
#include <algorithm>

namespace attnviz::ui {
namespace {

const QString kGroup = QStringLiteral("Training");

// A Marian's settings besides the sizes its config keeps ("config"): the pieces, the languages, and the two settings
// the form takes from the sample Marian (the longest sentence, the embeddings' scale). "marian" false: another kind.
void saveMarian(QSettings& q, const std::optional<MarianArchitecture>& marian) {
    q.setValue("marian", marian.has_value());
    if (!marian) return;
    q.setValue("sourcePieces", marian->source_pieces);
    q.setValue("targetPieces", marian->target_pieces);
    q.setValue("sourceCoverage", marian->source_coverage);
    q.setValue("targetCoverage", marian->target_coverage);
    q.setValue("sourceNormalization", qs(marian->source_normalization));
    q.setValue("targetNormalization", qs(marian->target_normalization));
    q.setValue("sourceLang", qs(marian->source_lang));
    q.setValue("targetLang", qs(marian->target_lang));
    q.setValue("maxPositions", marian->transformer.max_positions);
    q.setValue("scaleEmbedding", marian->transformer.scale_embedding);
}

// The task's Marian with the sizes of `config` (read and validated: the keys a Transformer's rows hold) and the saved
// rest; nullopt for another kind. Throws InputError for pieces or positions out of range (an edited entry).
std::optional<MarianArchitecture> savedMarian(const QSettings& q, const ModelConfig& config, const QString& task) {
    if (!q.value("marian", false).toBool()) return std::nullopt;
    MarianArchitecture a = withTransformerSizes(defaultMarianArchitecture(task), config.transformer);
    a.source_pieces = q.value("sourcePieces").toInt();
    a.target_pieces = q.value("targetPieces").toInt();
    for (int pieces : {a.source_pieces, a.target_pieces})
        if (pieces < kMinSentencePieceVocab || pieces > kMaxSentencePieceVocab)
            throw InputError("the saved SentencePiece size is out of range");
    a.source_coverage = q.value("sourceCoverage", 1.0).toDouble();
    a.target_coverage = q.value("targetCoverage", 1.0).toDouble();
    for (double coverage : {a.source_coverage, a.target_coverage})
        if (!(coverage >= kMinCharacterCoverage && coverage <= 1.0))
            throw InputError("the saved character coverage is out of range");
    a.source_normalization = q.value("sourceNormalization", qs(a.source_normalization)).toString().toStdString();
    a.target_normalization = q.value("targetNormalization", qs(a.target_normalization)).toString().toStdString();
    for (const std::string& rule : {a.source_normalization, a.target_normalization})
        if (!isSentencePieceNormalization(rule))
            throw InputError("the saved normalization is not one SentencePiece has");
    a.source_lang = q.value("sourceLang").toString().toStdString();
    a.target_lang = q.value("targetLang").toString().toStdString();
    a.transformer.max_positions = q.value("maxPositions", a.transformer.max_positions).toInt();
    a.transformer.scale_embedding = q.value("scaleEmbedding", a.transformer.scale_embedding).toBool();
    if (a.transformer.max_positions < 2 || a.transformer.max_positions > (1 << 20))  // core's range of the key
        throw InputError("the saved max_position_embeddings is out of range");
    return a;
}

}  // namespace

void saveTrainingSettings(const TrainingSettings& s) {
    QSettings q;
    q.beginGroup(kGroup);
    q.setValue("corpus", s.corpus);
    q.setValue("valid", s.valid);
    q.setValue("init", s.init);
    q.setValue("task", s.task);
    q.setValue("maxLines", s.max_lines);
    q.setValue("config", qs(configToJson(s.marian ? marianModelConfig(*s.marian) : s.config).dump()));
    saveMarian(q, s.marian);
    q.setValue("minFreq", s.min_freq);
    q.setValue("optimizer", QString::fromLatin1(optimizerName(s.options.optimizer)));
    q.setValue("lr", s.options.lr);
    q.setValue("warmup", qlonglong(s.options.warmup));
    q.setValue("lrDecay", QString::fromUtf8(lrDecayName(s.options.lr_decay)));
    q.setValue("labelSmoothing", s.options.label_smoothing);
    q.setValue("batchSize", s.options.batch_size);
    q.setValue("epochs", s.options.epochs);
    q.setValue("clip", s.options.clip);
    q.setValue("dropout", double(s.options.dropout));
    q.setValue("alignWeight", s.options.align_weight);
    q.setValue("seed", qulonglong(s.options.seed));
    q.setValue("snapshotEvery", qlonglong(s.snapshot_every));
    q.setValue("probe", s.probe);
    q.setValue("probeReference", s.probe_reference);
    q.setValue("out", s.out);
}

std::optional<TrainingSettings> savedTrainingSettings() {
    QSettings q;
    q.beginGroup(kGroup);
    const QString corpus = q.value("corpus").toString();
    if (corpus.isEmpty() || !QFileInfo(corpus).isFile()) return std::nullopt;
    TrainingSettings s = defaultTrainingSettings(q.value("task").toString());
    try {
        s.config = configFromJsonText(q.value("config").toString().toStdString());
        validateConfig(s.config);
        s.marian = savedMarian(q, s.config, s.task);
        if (s.marian) s.config = marianModelConfig(*s.marian);
    } catch (const std::exception&) {
        return std::nullopt;  // an older or edited entry: the form keeps the corpus's defaults
    }
    s.corpus = corpus;
    s.valid = q.value("valid").toString();
    s.init = q.value("init").toString();
    s.max_lines = q.value("maxLines", s.max_lines).toInt();
    s.min_freq = q.value("minFreq", s.min_freq).toInt();
    s.options.optimizer = parseOptimizer(q.value("optimizer").toString().toStdString());
    s.options.lr = q.value("lr", s.options.lr).toDouble();
    s.options.warmup = q.value("warmup", 0).toLongLong();
    s.options.lr_decay = parseLrDecay(q.value("lrDecay").toString().toStdString());
    s.options.label_smoothing = std::clamp(q.value("labelSmoothing", 0.0).toDouble(), 0.0, 0.9);
    s.options.batch_size = q.value("batchSize", s.options.batch_size).toInt();
    s.options.epochs = q.value("epochs", s.options.epochs).toInt();
    s.options.clip = q.value("clip", s.options.clip).toDouble();
    s.options.dropout = float(q.value("dropout", double(s.options.dropout)).toDouble());
    s.options.align_weight = q.value("alignWeight", 0.0).toDouble();
    s.options.seed = q.value("seed", qulonglong(s.options.seed)).toULongLong();
    s.snapshot_every = q.value("snapshotEvery", qlonglong(s.snapshot_every)).toLongLong();
    s.probe = q.value("probe").toString();
    s.probe_reference = q.value("probeReference").toString();
    s.out = q.value("out").toString();
    return s;
}

}  // namespace attnviz::ui
