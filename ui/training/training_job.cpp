#include "training/training_job.h"

#include "base/byte_size.h"
#include "base/errors.h"
#include "io/corpus.h"
#include "io/model_file.h"
#include "text/tokenizer.h"
#include "train/training_start.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QtGlobal>
#include <algorithm>
#include <cstdlib>
#include <thread>

namespace attnviz::ui {
namespace {

// sample_models/build.sh's settings per task (configs/<task>-bahdanau-additive.json for sizes and tokenizers).
struct TaskDefaults {
    const char* task;
    TokenizerKind source, target;
    int emb, enc, dec, epochs, min_freq;
    int d_model, dim_feedforward;  // its sample Transformer's (4 heads, 2 + 2 layers, pre-LN, relu)
};
constexpr TaskDefaults kTasks[] = {
    {"en_fr", TokenizerKind::Word, TokenizerKind::Whitespace, 64, 64, 128, 10, 1, 64, 256},
    {"en_zh", TokenizerKind::Word, TokenizerKind::Whitespace, 64, 64, 128, 8, 1, 64, 256},
    {"dates", TokenizerKind::Char, TokenizerKind::Char, 32, 64, 128, 6, 1, 64, 256},
    {"tatoeba", TokenizerKind::Word, TokenizerKind::Char, 128, 128, 256, 8, 2, 128, 512},
};

// The Marian of the window per task: SentencePiece sizes below what the first 4,000 lines allow (tatoeba's target
// needs 1,396 pieces for its characters and allows 3,312; en_fr allows 462 and 835, en_zh 472 and 651, dates 1,832 and
// 2,444), the languages, and the target's normalization: the Chinese of Tatoeba and en_zh keeps its full-width
// punctuation ("，", "？"), which NFKC would make ASCII.
struct MarianTaskDefaults {
    const char* task;
    int source_pieces, target_pieces;
    const char *source_lang, *target_lang;
    const char* target_normalization = kSentencePieceNormalizations[0];
};
constexpr MarianTaskDefaults kMarianTasks[] = {
    {"en_fr", 300, 400, "en", "fr"},
    {"en_zh", 300, 400, "en", "zh", "identity"},
    {"dates", 300, 100, "", ""},
    {"tatoeba", 1000, 2000, "en", "zh", "identity"},
};

// sample_models/configs/tatoeba-marian.json
constexpr const char* kMarianConfig =
    R"({"model_type": "marian", "d_model": 256, "encoder_layers": 3, "decoder_layers": 3,)"
    R"( "encoder_attention_heads": 4, "decoder_attention_heads": 4, "encoder_ffn_dim": 768, "decoder_ffn_dim": 768,)"
    R"( "activation_function": "swish", "max_position_embeddings": 256, "scale_embedding": true})";

std::string fileName(const QString& path) { return QFileInfo(path).fileName().toStdString(); }

// Where attnviz keeps files of its own (trained models, corpora): the data folder named after the program alone,
// ~/.local/share/attnviz on Linux. AppDataLocation would be organisation/application: attnviz/attnviz.
QString dataFolder() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QCoreApplication::applicationName());
}

// core's refusal of a training state past kMaxTrainingBytes, in the window's words (its fields, not the CLI's flags).
std::string tooLargeText(const TrainingTooLarge& e) {
    return e.sizesText() + "; use fewer lines, a larger minimum frequency, smaller sizes, SGD or fewer threads";
}

TrainingStart startingPoint(const TrainingSettings& s) {
    TrainingStartRequest request;
    request.data = s.corpus.toStdString();
    request.init = s.init.toStdString();
    request.config = s.config;
    if (s.init.isEmpty()) request.marian = s.marian;  // a model file continued from keeps its own kind
    request.min_freq = s.min_freq;
    request.max_lines = size_t(std::max(0, s.max_lines));
    request.options = s.options;
    request.validation = !s.valid.isEmpty();
    try {
        return startTraining(request);
    } catch (const TrainingTooLarge& e) {
        throw InputError(tooLargeText(e));
    }
}

// Where the run writes its model: the settings' path or the default for its kind; a Marian folder's must not be a file.
QString outPath(const TrainingSettings& s, const Model& model) {
    if (!model.marian) return s.out.isEmpty() ? defaultModelPath(s.task, model.config) : s.out;
    const QString folder = marianFolder(s);
    if (QFileInfo(folder).exists() && !QFileInfo(folder).isDir())
        throw InputError(folder.toStdString() +
                         ": is a file, and a Marian model is written as a folder (config.json, model.safetensors, the "
                         "SentencePiece models, ...): give the name of a folder");
    return folder;
}

TrainingRecord recordOf(const TrainingSettings& s, const TrainingJob& job) {
    TrainingRecord r = trainingRecord(s.options);
    r.data = fileName(s.corpus);
    r.lines = job.train.size();
    if (!s.init.isEmpty()) r.init = fileName(s.init);
    if (!s.valid.isEmpty()) {
        r.valid = fileName(s.valid);
        r.valid_lines = job.valid.size();
    }
    return r;
}

}  // namespace

QStringList sampleCorpusDirs() {
    QStringList candidates;
    if (const QString env = qEnvironmentVariable("ATTNVIZ_CORPORA"); !env.isEmpty()) candidates << env;
    candidates << QDir(dataFolder()).filePath("corpora");
    // Installed beside the sample models (sample_models/CMakeLists.txt), then the build tree's own.
    candidates << QDir(QCoreApplication::applicationDirPath()).filePath("../share/attnviz/corpora");
#ifdef ATTNVIZ_BUILD_CORPORA
    candidates << QStringLiteral(ATTNVIZ_BUILD_CORPORA);
    candidates << QDir::cleanPath(QStringLiteral(ATTNVIZ_SOURCE_SAMPLE_MODELS "/../build/corpora"));
#endif
    QStringList dirs;
    for (const QString& d : candidates)
        if (const QString dir = QFileInfo(d).absoluteFilePath(); QFileInfo(dir).isDir() && !dirs.contains(dir))
            dirs << dir;
    return dirs;
}

std::vector<SampleCorpus> findSampleCorpora() {
    std::vector<SampleCorpus> out;
    for (const QString& dir : sampleCorpusDirs()) {
        for (const QString& task : QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QDir d(QDir(dir).filePath(task));
            if (!QFileInfo(d.filePath("train.tsv")).isFile()) continue;
            const auto known = [&](const SampleCorpus& c) { return c.task == task; };
            if (std::any_of(out.begin(), out.end(), known)) continue;  // the first folder's copy of a task
            const QString valid = QFileInfo(d.filePath("valid.tsv")).isFile() ? d.filePath("valid.tsv") : QString();
            out.push_back({task, d.filePath("train.tsv"), valid});
        }
    }
    return out;
}

TrainingSettings defaultTrainingSettings(const QString& task) {
    TrainingSettings s;
    s.task = task;
    s.max_lines = 4000;
    s.config.decoder = DecoderKind::Bahdanau;
    s.config.score = ScoreKind::Additive;
    s.config.emb_dim = 32;
    s.config.enc_hid_dim = 32;
    s.config.dec_hid_dim = 64;
    s.options.optimizer = OptimizerKind::Adam;
    s.options.lr = defaultSchedule(false).lr;
    s.options.batch_size = 64;
    s.options.epochs = 10;
    s.options.clip = 1.0;
    s.options.dropout = 0.1f;
    s.options.seed = 1;
    s.options.threads = std::max(1, int(std::thread::hardware_concurrency()));
    for (const TaskDefaults& t : kTasks) {
        if (task != QLatin1String(t.task)) continue;
        s.config.tokenizer = {t.source, t.target, true};
        s.config.emb_dim = t.emb;
        s.config.enc_hid_dim = t.enc;
        s.config.dec_hid_dim = t.dec;
        s.options.epochs = t.epochs;
        s.min_freq = t.min_freq;
    }
    return s;
}

TransformerConfig defaultTransformerConfig(const QString& task) {
    TransformerConfig c{64, 4, 2, 2, 256, true, Activation::Relu};
    for (const TaskDefaults& t : kTasks) {
        if (task != QLatin1String(t.task)) continue;
        c.d_model = t.d_model;
        c.setFeedForward(t.dim_feedforward);
    }
    return c;
}

ScheduleDefaults defaultSchedule(bool transformer) {
    return transformer ? ScheduleDefaults{0.001, 100} : ScheduleDefaults{0.002, 0};
}

TrainingSettings defaultTransformerSettings(const QString& task) {
    TrainingSettings s = defaultTrainingSettings(task);
    ModelConfig c;  // the RNN keys at their defaults
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.tokenizer = s.config.tokenizer;
    c.transformer = defaultTransformerConfig(task);
    s.config = c;
    const ScheduleDefaults schedule = defaultSchedule(true);
    s.options.lr = schedule.lr;
    s.options.warmup = schedule.warmup;
    return s;
}

MarianArchitecture defaultMarianArchitecture(const QString& task) {
    MarianArchitecture a = marianArchitectureFromJson(nlohmann::json::parse(kMarianConfig));
    a.source_pieces = a.target_pieces = 500;
    for (const MarianTaskDefaults& t : kMarianTasks) {
        if (task != QLatin1String(t.task)) continue;
        a.source_pieces = t.source_pieces;
        a.target_pieces = t.target_pieces;
        a.source_lang = t.source_lang;
        a.target_lang = t.target_lang;
        a.target_normalization = t.target_normalization;
    }
    return a;
}

MarianArchitecture withTransformerSizes(MarianArchitecture base, const TransformerConfig& sizes) {
    TransformerConfig& t = base.transformer;
    t.d_model = sizes.d_model;
    t.encoder_nhead = sizes.encoder_nhead;
    t.decoder_nhead = sizes.decoder_nhead;
    t.num_encoder_layers = sizes.num_encoder_layers;
    t.num_decoder_layers = sizes.num_decoder_layers;
    t.encoder_dim_feedforward = sizes.encoder_dim_feedforward;
    t.decoder_dim_feedforward = sizes.decoder_dim_feedforward;
    t.activation = sizes.activation;
    return base;
}

TrainingSettings defaultMarianSettings(const QString& task) {
    TrainingSettings s = defaultTransformerSettings(task);
    s.marian = defaultMarianArchitecture(task);
    s.config = marianModelConfig(*s.marian);
    s.out = defaultMarianFolder(task);
    return s;
}

QString defaultMarianFolder(const QString& task) {
    const QDir dir(QDir(dataFolder()).filePath("trained"));
    return dir.filePath((task.isEmpty() ? QStringLiteral("model") : task) + QStringLiteral("-marian-trained"));
}

QString marianFolder(const TrainingSettings& s) {
    return QDir::cleanPath(s.out.isEmpty() ? defaultMarianFolder(s.task) : s.out);
}

QString siblingFileName(const QString& task, const ModelConfig& c, bool guided) {
    const QString prefix = task.isEmpty() ? QStringLiteral("model") : task;
    if (c.isTransformer()) return prefix + QStringLiteral("-transformer-trained.safetensors");
    QString name =
        QStringLiteral("%1-%2-%3")
            .arg(prefix, QString::fromUtf8(toString(c.decoder).data()), QString::fromUtf8(toString(c.score).data()));
    if (c.span != SpanKind::Global) name += QLatin1Char('-') + QString::fromUtf8(toString(c.span).data());
    if (c.input_feeding) name += QStringLiteral("-feed");
    if (guided) name += QStringLiteral("-guided");
    return name + QStringLiteral("-trained.safetensors");
}

QString defaultModelPath(const QString& task, const ModelConfig& config) {
    const QDir dir(QDir(dataFolder()).filePath("trained"));
    return dir.filePath(siblingFileName(task, config, false));
}

DecodeResult decodeProbe(const Model& model, const TrainingJob& job) {
    return job.probe_reference.empty() ? greedyDecode(model, job.probe)
                                       : forcedDecode(model, job.probe, job.probe_reference);
}

TrainingJob prepareTrainingJob(const TrainingSettings& s) {
    if (s.corpus.isEmpty()) throw InputError("no training corpus chosen");
    TrainingJob job;
    TrainingStart start = startingPoint(s);
    job.model = std::make_shared<Model>(std::move(start.model));
    job.unknown = start.unknown;
    const Corpus& corpus = start.corpus;
    if (corpus.examples.empty()) throw InputError(corpus.name + ": no training examples");
    if (!s.task.isEmpty()) job.model->task = s.task.toStdString();
    const bool guided = s.options.align_weight > 0;
    if (guided && corpus.alignedCount() == 0)
        throw InputError("guided alignment needs gold links: " + corpus.name +
                         " has no alignment column (source<TAB>target<TAB>i-j ...)");
    job.train = corpusExamples(*job.model, corpus, guided);
    if (!s.valid.isEmpty()) {
        Corpus vc = readCorpus(s.valid.toStdString(), CorpusOptions{true, job.model->config.tokenizer});
        if (s.max_valid_lines > 0 && vc.examples.size() > size_t(s.max_valid_lines))
            vc.examples.resize(size_t(s.max_valid_lines));
        job.valid = corpusExamples(*job.model, vc);
        job.valid_corpus = std::move(vc.examples);
    }
    const bool default_probe = s.probe.trimmed().isEmpty();
    job.probe = default_probe ? corpus.examples.front().source : s.probe.trimmed().toStdString();
    job.probe_reference = default_probe ? corpus.examples.front().target : s.probe_reference.trimmed().toStdString();
    decodeProbe(*job.model, job);  // throws now on text the model cannot read (invalid UTF-8, ...)
    job.options = s.options;
    job.snapshot_every = std::max<int64_t>(1, s.snapshot_every);
    job.out = outPath(s, *job.model).toStdString();
    job.replace_out = s.replace_out;
    job.record = recordOf(s, job);
    return job;
}

}  // namespace attnviz::ui
