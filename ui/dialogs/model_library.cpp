#include "dialogs/model_library.h"
#include "base/errors.h"
#include "dialogs/hub_cache.h"
#include "heatmap/utf8_text.h"

#include "io/marian_folder.h"
#include "io/model_file.h"
#include "model/model.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace attnviz::ui {

ModelInfo readModelInfo(const QString& path) {
    ModelInfo info;
    info.path = path;
    if (isMarianPath(path.toStdString())) {  // a Marian folder (a sample one): its JSON files, no weights
        try {
            const MarianSummary m = readMarianSummary(path.toStdString());
            info.config = m.settings.config;
            info.task = QStringLiteral("marian");
            info.description = qs(m.origin.source_lang + " → " + m.origin.target_lang + ", " +
                                  sizesSummary(m.settings.config) + " (Hugging Face Marian folder)");
            info.source_vocab_size = info.target_vocab_size = m.settings.vocab_size;
        } catch (const std::exception& e) {
            info.error = qs(errorMessage(e));
        }
        return info;
    }
    try {
        const ModelHeader h = readModelHeader(path.toStdString());
        info.config = h.config;
        info.task = qs(h.task);
        info.description = qs(h.description);
        const auto ex = h.extra_metadata.find("example");
        if (ex != h.extra_metadata.end()) info.example = qs(ex->second);
        info.source_vocab_size = h.source_vocab.size();
        info.target_vocab_size = h.target_vocab.size();
    } catch (const std::exception& e) {
        info.error = qs(errorMessage(e));
    }
    return info;
}

QStringList sampleModelDirs() {
    QStringList candidates;
    const QString env = qEnvironmentVariable("ATTNVIZ_SAMPLE_MODELS");
    if (!env.isEmpty()) candidates << env;
    if (QCoreApplication::instance())
        candidates << QDir(QCoreApplication::applicationDirPath()).filePath("../share/attnviz/sample_models");
#ifdef ATTNVIZ_SOURCE_SAMPLE_MODELS
    candidates << QStringLiteral(ATTNVIZ_SOURCE_SAMPLE_MODELS);
#endif
    QStringList dirs;
    for (const QString& c : candidates) {
        const QFileInfo fi(c);
        if (fi.isDir() && !dirs.contains(fi.canonicalFilePath())) dirs << fi.canonicalFilePath();
    }
    return dirs;
}

std::vector<ModelInfo> scanModelDir(const QString& dir) {
    std::vector<ModelInfo> out;
    const QFileInfoList files = QDir(dir).entryInfoList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name);
    for (const QFileInfo& f : files) out.push_back(readModelInfo(f.absoluteFilePath()));
    // and the Marian folders beside them (sample_models/tatoeba-marian/)
    for (const QFileInfo& f : QDir(dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (QFileInfo(QDir(f.absoluteFilePath()).filePath(QStringLiteral("config.json"))).isFile())
            out.push_back(readModelInfo(f.absoluteFilePath()));
    std::stable_sort(out.begin(), out.end(), [](const ModelInfo& a, const ModelInfo& b) {
        if (a.task.isEmpty() != b.task.isEmpty()) return !a.task.isEmpty();
        return a.task < b.task;
    });
    return out;
}

QString defaultSampleModel() {
    // The first folder with a readable model wins; in it, the first of these present (real sentences first, then the
    // synthetic English -> Chinese task: reordering and CJK at once), else its first model.
    const QStringList preferred = {QStringLiteral("tatoeba-bahdanau-additive.safetensors"),
                                   QStringLiteral("en_zh-bahdanau-additive.safetensors")};
    for (const QString& dir : sampleModelDirs()) {
        QStringList present;
        for (const ModelInfo& m : scanModelDir(dir))
            if (m.error.isEmpty()) present << m.path;
        if (present.isEmpty()) continue;
        for (const QString& name : preferred)
            for (const QString& path : present)
                if (QFileInfo(path).fileName() == name) return path;
        return present.first();
    }
    return {};
}

QString exampleSentence(const QString& task, const QString& metadataExample) {
    if (!metadataExample.trimmed().isEmpty()) return metadataExample.trimmed();
    // Sentences in the style of the sample corpora (sample_models/corpora), not copied from their training splits.
    static const std::map<QString, QString> builtIn = {
        {QStringLiteral("en_zh"), QStringLiteral("last year , they gave an apple to the famous teacher .")},
        {QStringLiteral("en_fr"), QStringLiteral("the cat sat on the mat .")},
        {QStringLiteral("dates"), QStringLiteral("9/24/75")},
        {QStringLiteral("tatoeba"), QStringLiteral("I love you.")},
        {QStringLiteral("test-task"), QStringLiteral("i love you")},
    };
    const auto it = builtIn.find(task);
    return it == builtIn.end() ? QString() : it->second;
}

QString firstSentence(const Model& model) {
    const auto ex = model.extra_metadata.find("example");
    const QString sentence =
        exampleSentence(qs(model.task), ex == model.extra_metadata.end() ? QString() : qs(ex->second));
    if (!sentence.isEmpty()) return sentence;
    const bool english = model.marian && (model.marian->source_lang.empty() || model.marian->source_lang == "en" ||
                                          model.marian->source_lang == "eng");
    if (english) return QStringLiteral("My brother and I went to the market.");
    QStringList words;  // a few words the model knows (SentencePiece pieces without their word-start mark)
    for (int i = 4; i < model.source_vocab.size() && words.size() < 5; ++i)
        words << qs(model.source_vocab.token(i)).remove(QChar(0x2581));
    return words.join(u' ');
}

// ---------------------------------------------------------------------------------------------------------------

ModelLibraryDialog::ModelLibraryDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Model library"));
    tree_ = new QTreeWidget(this);
    tree_->setColumnCount(4);
    tree_->setHeaderLabels({tr("Task / model"), tr("Decoder"), tr("Score"), tr("Sizes")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->header()->setStretchLastSection(false);
    details_ = new QLabel(this);
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    details_->setMinimumHeight(details_->fontMetrics().lineSpacing() * 3);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Open)->setEnabled(false);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tree_);
    layout->addWidget(details_);
    layout->addWidget(buttons_);
    resize(720, 460);

    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        const QString path = item ? item->data(0, Qt::UserRole).toString() : QString();
        buttons_->button(QDialogButtonBox::Open)->setEnabled(!path.isEmpty());
        details_->setText(item ? item->toolTip(0) : QString());
    });
    connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (!item->data(0, Qt::UserRole).toString().isEmpty()) accept();
    });
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(this, &QDialog::accepted, this, [this] {
        if (!selectedPath().isEmpty()) emit modelChosen(selectedPath());
    });
    populate(sampleModelDirs());
}

void ModelLibraryDialog::populate(const QStringList& dirs) { populate(dirs, hubCacheDir()); }

void ModelLibraryDialog::populate(const QStringList& dirs, const QString& hub_cache) {
    tree_->clear();
    for (const QString& dir : dirs) {
        auto* folder = new QTreeWidgetItem(tree_, {QDir::toNativeSeparators(dir)});
        folder->setFirstColumnSpanned(true);
        std::map<QString, QTreeWidgetItem*> tasks;
        for (const ModelInfo& m : scanModelDir(dir)) {
            const QString name = QFileInfo(m.path).fileName();
            if (!m.error.isEmpty()) {
                auto* bad = new QTreeWidgetItem(folder, {name, tr("unreadable")});
                bad->setToolTip(0, m.error);
                bad->setDisabled(true);
                continue;
            }
            const QString task = m.task.isEmpty() ? tr("(no task)") : m.task;
            QTreeWidgetItem*& parent = tasks[task];
            if (!parent) {
                parent = new QTreeWidgetItem(folder, {task});
                parent->setFirstColumnSpanned(true);
                QFont f = parent->font(0);
                f.setBold(true);
                parent->setFont(0, f);
            }
            const ModelConfig& c = m.config;
            auto* item = new QTreeWidgetItem(
                parent, {name, qs(toString(c.decoder)), qs(toString(c.score)),
                         tr("%1, V %2/%3").arg(qs(sizesSummary(c))).arg(m.source_vocab_size).arg(m.target_vocab_size)});
            item->setData(0, Qt::UserRole, m.path);
            item->setToolTip(0, m.description.isEmpty() ? m.path : m.path + QStringLiteral("\n") + m.description);
        }
        if (folder->childCount() == 0) new QTreeWidgetItem(folder, {tr("(no models here)")});
    }
    if (dirs.isEmpty())
        new QTreeWidgetItem(tree_, {tr("No sample model folder found (set ATTNVIZ_SAMPLE_MODELS to one).")});
    addHubModels(hub_cache);
    tree_->expandAll();
    for (int i = 0; i < 4; ++i) tree_->resizeColumnToContents(i);
}

// The cache's Marian folders under one heading, or a line saying where they would be.
void ModelLibraryDialog::addHubModels(const QString& hub_cache) {
    const std::vector<HubModel> models = scanHubCache(hub_cache);
    auto* heading = new QTreeWidgetItem(tree_, {tr("Hugging Face cache: %1").arg(QDir::toNativeSeparators(hub_cache))});
    heading->setFirstColumnSpanned(true);
    for (const HubModel& m : models) {
        const QString languages = m.source_lang.isEmpty() ? QString() : tr("%1 → %2").arg(m.source_lang, m.target_lang);
        auto* item = new QTreeWidgetItem(heading, {m.repository, tr("Marian"), QString(), languages});
        item->setData(0, Qt::UserRole, m.path);
        item->setToolTip(0, QDir::toNativeSeparators(m.path));
    }
    if (models.empty())
        new QTreeWidgetItem(heading, {tr("(no Marian models here: see docs/marian.md for getting one)")});
}

QString ModelLibraryDialog::selectedPath() const {
    const QTreeWidgetItem* item = tree_->currentItem();
    return item ? item->data(0, Qt::UserRole).toString() : QString();
}

}  // namespace attnviz::ui
