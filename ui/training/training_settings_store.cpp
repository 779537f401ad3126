#include "training/training_settings_store.h"
#include "heatmap/utf8_text.h"

#include <QFileInfo>
#include <QSettings>

namespace attnviz::ui {
namespace {

const QString kGroup = QStringLiteral("Training");

}  // namespace

void saveTrainingSettings(const TrainingSettings& s) {
    QSettings q;
    q.beginGroup(kGroup);
    q.setValue("corpus", s.corpus);
    q.setValue("valid", s.valid);
    q.setValue("init", s.init);
    q.setValue("task", s.task);
    q.setValue("maxLines", s.max_lines);
    q.setValue("config", qs(configToJson(s.config).dump()));
    q.setValue("minFreq", s.min_freq);
    q.setValue("optimizer", s.options.optimizer == OptimizerKind::Sgd ? "sgd" : "adam");
    q.setValue("lr", s.options.lr);
    q.setValue("warmup", qlonglong(s.options.warmup));
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
    } catch (const std::exception&) {
        return std::nullopt;  // an older or edited entry: the form keeps the corpus's defaults
    }
    s.corpus = corpus;
    s.valid = q.value("valid").toString();
    s.init = q.value("init").toString();
    s.max_lines = q.value("maxLines", s.max_lines).toInt();
    s.min_freq = q.value("minFreq", s.min_freq).toInt();
    s.options.optimizer = q.value("optimizer").toString() == "sgd" ? OptimizerKind::Sgd : OptimizerKind::Adam;
    s.options.lr = q.value("lr", s.options.lr).toDouble();
    s.options.warmup = q.value("warmup", 0).toLongLong();
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
