#include "training/training_form.h"
#include "state/model_names.h"

#include "base/errors.h"
#include "training/marian_fields.h"
#include "training/transformer_fields.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <tuple>

namespace attnviz::ui {
namespace {

// As wide as its longest item where the form has the room, down to kShrunkChars characters where it has not (the
// item shown is then cut short; the list that opens stays as wide as its items): "Marian (Hugging Face layout,
// SentencePiece)" would otherwise keep the form, and the window, wider than an 800-pixel screen.
class ShrinkingComboBox : public QComboBox {
public:
    using QComboBox::QComboBox;
    static constexpr int kShrunkChars = 14;
    QSize minimumSizeHint() const override {
        QStyleOptionComboBox option;
        initStyleOption(&option);
        const QSize text(fontMetrics().averageCharWidth() * kShrunkChars, fontMetrics().height());
        const QSize least = style()->sizeFromContents(QStyle::CT_ComboBox, &option, text, this);
        const QSize full = QComboBox::minimumSizeHint();
        return {std::min(full.width(), least.width()), full.height()};
    }
};

template <typename Kind, size_t N>
QComboBox* kindBox(QWidget* parent, const Kind (&kinds)[N]) {
    auto* box = new ShrinkingComboBox(parent);
    for (Kind k : kinds) box->addItem(QString::fromUtf8(toString(k).data()), QString::fromUtf8(toString(k).data()));
    return box;
}

// The box's items in the reader's language (state/model_names.h); their data stay the engine's names.
template <typename Kind>
void nameKinds(QComboBox* box, Kind (*parse)(std::string_view), QString (*name)(Kind)) {
    for (int i = 0; i < box->count(); ++i) box->setItemText(i, name(parse(box->itemData(i).toString().toStdString())));
}

template <typename Kind>
void selectKind(QComboBox* box, Kind k) {
    box->setCurrentIndex(std::max(0, box->findData(QString::fromUtf8(toString(k).data()))));
}

QSpinBox* spin(QWidget* parent, int lo, int hi) {
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    return s;
}

QDoubleSpinBox* doubleSpin(QWidget* parent, double lo, double hi, int decimals, double step) {
    auto* s = new QDoubleSpinBox(parent);
    s->setRange(lo, hi);
    s->setDecimals(decimals);
    s->setSingleStep(step);
    return s;
}

// The task of a corpus file: the folder's name for <task>/train.tsv, else the file's base name.
QString taskOf(const QString& path) {
    const QFileInfo f(path);
    return f.fileName() == QLatin1String("train.tsv") ? f.dir().dirName() : f.completeBaseName();
}

// The file's first non-blank line as (source, target); empty if none among the first 100 lines.
// The probe a corpus suggests: among its first 10,000 lines, the first whose source has 6 to 8 words, so that the heatmap
// shows something while the model learns (a corpus sorted by length starts with "Hi."); else its first line.
std::pair<QString, QString> probeLine(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    std::pair<QString, QString> first;
    for (int i = 0; i < 10000 && !f.atEnd(); ++i) {
        const QString line = QString::fromUtf8(f.readLine(65536)).trimmed();
        if (line.isEmpty()) continue;
        std::pair<QString, QString> pair{line.section(QLatin1Char('\t'), 0, 0).trimmed(),
                                         line.section(QLatin1Char('\t'), 1, 1).trimmed()};
        const qsizetype words = pair.first.split(QLatin1Char(' '), Qt::SkipEmptyParts).size();
        if (words >= 6 && words <= 8) return pair;
        if (first.first.isEmpty()) first = std::move(pair);
    }
    return first;
}

}  // namespace

TrainingForm::TrainingForm(QWidget* parent) : QWidget(parent) {
    buildFields();
    for (const SampleCorpus& c : findSampleCorpora()) corpus_->addItem(c.task, c.train);
    connect(corpus_, &QComboBox::currentIndexChanged, this, &TrainingForm::corpusChosen);
    connect(browse_, &QPushButton::clicked, this, &TrainingForm::browseCorpus);
    connect(decoder_, &QComboBox::currentIndexChanged, this, &TrainingForm::kindChosen);
    connect(init_, &QLineEdit::textChanged, this, &TrainingForm::updateEnabled);
    connect(transformer_, &TransformerFields::changed, this, &TrainingForm::checkConfig);
    QAction* pick_init = init_->addAction(QIcon(QStringLiteral(":/icons/open.svg")), QLineEdit::TrailingPosition);
    connect(pick_init, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Continue from a model"), QString(),
                                                          tr("attnviz models (*.safetensors)"));
        if (!path.isEmpty()) init_->setText(path);
    });
    retranslate();
    if (corpus_->count() > 0)
        corpusChosen(0);
    else
        applySettings(defaultTrainingSettings(QString()));
}

void TrainingForm::buildFields() {
    corpus_ = new ShrinkingComboBox(this);
    browse_ = new QPushButton(this);
    valid_ = new QLineEdit(this);
    init_ = new QLineEdit(this);
    task_ = new QLineEdit(this);
    lines_ = spin(this, 0, 100000000);
    decoder_ = kindBox(this, {DecoderKind::Bahdanau, DecoderKind::Luong, DecoderKind::Transformer});
    decoder_->addItem(QString(), kMarianKind);  // its text: nameKindsAndOut()
    score_ = kindBox(this, {ScoreKind::Additive, ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::General});
    span_ = kindBox(this, {SpanKind::Global, SpanKind::LocalM, SpanKind::LocalP});
    feed_ = new QCheckBox(this);
    source_tok_ = kindBox(this, {TokenizerKind::Whitespace, TokenizerKind::Word, TokenizerKind::Char});
    target_tok_ = kindBox(this, {TokenizerKind::Whitespace, TokenizerKind::Word, TokenizerKind::Char});
    lowercase_ = new QCheckBox(this);
    emb_ = spin(this, 1, 4096);
    enc_ = spin(this, 1, 4096);
    dec_ = spin(this, 1, 8192);
    min_freq_ = spin(this, 1, 1000000);
    optimizer_ = new QComboBox(this);
    optimizer_->addItem(QStringLiteral("Adam"), QStringLiteral("adam"));
    optimizer_->addItem(QStringLiteral("SGD"), QStringLiteral("sgd"));
    lr_ = doubleSpin(this, 0.00001, 10, 5, 0.0005);
    warmup_ = spin(this, 0, 10000000);
    lr_decay_ = new QComboBox(this);  // item texts: retranslate()
    lr_decay_->addItem(QString(), int(LrDecay::None));
    lr_decay_->addItem(QString(), int(LrDecay::InverseSqrt));
    lr_decay_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);  // never widens the form
    lr_decay_->setMinimumContentsLength(10);
    batch_ = spin(this, 1, 100000);
    epochs_ = spin(this, 1, 100000);
    clip_ = doubleSpin(this, 0, 1000, 2, 0.5);
    dropout_ = doubleSpin(this, 0, 0.9, 2, 0.05);
    smoothing_ = doubleSpin(this, 0, 0.9, 2, 0.05);
    align_ = doubleSpin(this, 0, 1000, 2, 0.5);
    seed_ = spin(this, 0, 2147483647);
    snapshot_every_ = spin(this, 1, 1000000);
    probe_ = new QLineEdit(this);
    probe_reference_ = new QLineEdit(this);
    out_ = new QLineEdit(this);

    form_ = new QFormLayout(this);
    auto* corpus_row = new QHBoxLayout;
    corpus_row->addWidget(corpus_, 1);
    corpus_row->addWidget(browse_);
    corpus_label_ = new QLabel(this);
    corpus_label_->setBuddy(corpus_);
    form_->addRow(corpus_label_, corpus_row);
    const auto addRows = [this](std::initializer_list<QWidget*> fields) {
        for (QWidget* w : fields)
            form_->addRow(w == feed_ || w == lowercase_ ? nullptr : new QLabel(this), w);  // texts: retranslate()
    };
    addRows({valid_, lines_, task_, init_, decoder_});
    transformer_ = new TransformerFields(form_, this);  // the Transformer's rows right under the kind
    marian_ = new MarianFields(form_, this);            // then the Marian's own
    addRows({score_,     span_,      feed_, source_tok_,     target_tok_, lowercase_,       emb_,    enc_,  dec_,
             min_freq_,  optimizer_, lr_,   warmup_,         lr_decay_,   batch_,           epochs_, clip_, dropout_,
             smoothing_, align_,     seed_, snapshot_every_, probe_,      probe_reference_, out_});
}

void TrainingForm::retranslate() {
    const std::pair<QWidget*, QString> labels[] = {
        {valid_, tr("Validation:")},
        {lines_, tr("Lines used:")},
        {task_, tr("Task name:")},
        {init_, tr("Continue from:")},
        {decoder_, tr("Model kind:")},
        {score_, tr("Scoring function:")},
        {span_, tr("Attention span:")},
        {feed_, QString()},
        {source_tok_, tr("Source tokens:")},
        {target_tok_, tr("Target tokens:")},
        {lowercase_, QString()},
        {emb_, tr("Embedding size:")},
        {enc_, tr("Encoder hidden size:")},
        {dec_, tr("Decoder hidden size:")},
        {min_freq_, tr("Minimum frequency:")},
        {optimizer_, tr("Optimizer:")},
        {lr_, tr("Learning rate:")},
        {warmup_, tr("Warm-up:")},
        {lr_decay_, tr("After the warm-up:")},
        {batch_, tr("Batch size:")},
        {epochs_, tr("Epochs:")},
        {clip_, tr("Gradient clipping:")},
        {dropout_, tr("Dropout:")},
        {smoothing_, tr("Label smoothing:")},
        {align_, tr("Guidance weight:")},
        {seed_, tr("Seed:")},
        {snapshot_every_, tr("Snapshot every:")},
        {probe_, tr("Probe sentence:")},
        {probe_reference_, tr("Its translation:")},
    };
    for (const auto& [w, text] : labels)
        if (auto* label = qobject_cast<QLabel*>(form_->labelForField(w))) label->setText(text);
    nameKindsAndOut();
    nameKinds(score_, parseScoreKind, scoringName);
    nameKinds(span_, parseSpanKind, spanName);
    for (QComboBox* box : {source_tok_, target_tok_}) nameKinds(box, parseTokenizerKind, tokenizerName);
    corpus_label_->setText(tr("&Corpus:"));
    browse_->setText(tr("&Browse…"));
    browse_->setToolTip(tr("Any UTF-8 TSV file: source<TAB>target, optionally <TAB>gold links (i-j …)"));
    valid_->setPlaceholderText(tr("none"));
    init_->setPlaceholderText(tr("a new model"));
    init_->setToolTip(tr("A model file to continue training (its kind, sizes and vocabularies are kept)"));
    lines_->setSpecialValueText(tr("all"));
    decoder_->setToolTip(
        tr("bahdanau and luong: RNN encoder-decoders with one attention; transformer: "
           "self-attention and multi-head attention in every layer; Marian: a Transformer in the layout of Hugging "
           "Face's opus-mt models, on SentencePiece pieces trained on the corpus, saved as a folder"));
    warmup_->setSuffix(tr(" updates"));
    warmup_->setSpecialValueText(tr("none"));
    warmup_->setToolTip(
        tr("The learning rate grows linearly to its value over this many updates, then stays "
           "(Transformers need it to start well)"));
    lr_decay_->setItemText(0, tr("constant"));
    lr_decay_->setItemText(1, tr("decays as 1/√update"));
    lr_decay_->setToolTip(tr("Inverse square root: the rate at update u is lr × √(warm-up / u) after the warm-up"));
    smoothing_->setSpecialValueText(tr("none"));
    smoothing_->setToolTip(
        tr("Train towards 1 − ε on the next token and ε spread over every output; "
           "the curves still show the plain loss"));
    dropout_->setToolTip(
        tr("RNN kinds: dropout on the embeddings; Transformer: nn.Transformer's dropout sites and "
           "after the embeddings with positions"));
    transformer_->retranslate();
    marian_->retranslate();
    feed_->setText(tr("Input feeding (luong)"));
    lowercase_->setText(tr("Lower-case the text"));
    align_->setToolTip(
        tr("Guided alignment: this weight times the cross-entropy between the attention and the "
           "corpus's gold links (0: the attention learns by itself)"));
    snapshot_every_->setSuffix(tr(" updates"));
    probe_->setToolTip(tr("The sentence whose attention is shown while the model learns"));
    probe_reference_->setPlaceholderText(tr("none: the model's own output"));
    probe_reference_->setToolTip(
        tr("The model is forced onto this translation in every snapshot, so that the rows "
           "stay the same while the attention changes"));
    checkConfig();  // its message in the new language
}

void TrainingForm::corpusChosen(int index) {
    if (index < 0) return;
    const QString path = corpus_->itemData(index).toString();
    // The defaults of the corpus for the model family chosen.
    const QString task = taskOf(path);
    TrainingSettings s = marianChosen()        ? defaultMarianSettings(task)
                         : transformerChosen() ? defaultTransformerSettings(task)
                                               : defaultTrainingSettings(task);
    s.corpus = path;
    const QString valid = QFileInfo(path).dir().filePath(QStringLiteral("valid.tsv"));
    if (QFileInfo(path).fileName() == QLatin1String("train.tsv") && QFileInfo(valid).isFile()) s.valid = valid;
    std::tie(s.probe, s.probe_reference) = probeLine(path);
    s.out = s.marian ? defaultMarianFolder(s.task) : defaultModelPath(s.task, s.config);
    applySettings(s);
}

void TrainingForm::setCorpusFile(const QString& file) {
    const QString path = QFileInfo(file).absoluteFilePath();
    int index = corpus_->findData(path);
    if (index < 0) {
        corpus_->addItem(taskOf(path), path);
        index = corpus_->count() - 1;
    }
    corpus_->setItemData(index, path, Qt::ToolTipRole);
    if (corpus_->currentIndex() == index)
        corpusChosen(index);
    else
        corpus_->setCurrentIndex(index);
}

void TrainingForm::browseCorpus() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Training corpus"), sampleCorpusDirs().value(0),
                                                      tr("Tab-separated corpora (*.tsv *.txt);;All files (*)"));
    if (!path.isEmpty()) setCorpusFile(path);
}

void TrainingForm::updateEnabled() {
    const bool fresh = init_->text().trimmed().isEmpty(), transformer = transformerFamily(), marian = marianChosen();
    const bool luong = decoder_->currentData().toString() == QLatin1String("luong");
    for (QWidget* w : std::initializer_list<QWidget*>{decoder_, score_, source_tok_, target_tok_, lowercase_, emb_,
                                                      enc_, dec_, min_freq_})
        w->setEnabled(fresh);
    transformer_->setEnabled(fresh);
    marian_->setEnabled(fresh);
    span_->setEnabled(fresh && luong);  // local spans and input feeding are luong's (model-format.md)
    feed_->setEnabled(fresh && luong);
    if (!luong) {
        selectKind(span_, SpanKind::Global);
        feed_->setChecked(false);
    }
    // Each family shows only its own rows: a Transformer has one scoring (scaled_dot) and no RNN sizes (its guidance
    // weight guides the last layer's cross-attention averaged over heads); the RNN kinds have none of the
    // Transformer's rows.
    for (QWidget* w : std::initializer_list<QWidget*>{score_, span_, feed_, emb_, enc_, dec_})
        form_->setRowVisible(w, !transformer);
    transformer_->setVisible(transformer);
    // A Marian's pieces are SentencePiece's, trained on the corpus: no tokenizer, frequency or word-level guidance.
    for (QWidget* w : std::initializer_list<QWidget*>{source_tok_, target_tok_, lowercase_, min_freq_, align_})
        form_->setRowVisible(w, !marian);
    marian_->setVisible(marian);
    checkConfig();
}

bool TrainingForm::isRowShown(QWidget* field) const { return form_->isRowVisible(field); }

bool TrainingForm::transformerChosen() const {
    return decoder_->currentData().toString() == QLatin1String("transformer");
}

void TrainingForm::kindChosen() {
    const bool transformer = transformerFamily();
    showMarianSizes(marianChosen());
    if (transformer != transformer_family_) {  // the other family: its learning rate and warm-up
        transformer_family_ = transformer;
        const ScheduleDefaults schedule = defaultSchedule(transformer);
        lr_->setValue(schedule.lr);
        warmup_->setValue(int(schedule.warmup));
    }
    if (out_->text() == default_out_) {  // the proposed file name follows the kind (not a name the user typed)
        default_out_ = defaultOut();
        out_->setText(default_out_);
    }
    nameKindsAndOut();  // "Model file" or "Model folder"
    updateEnabled();
    emit modelKindChanged(transformer);
}

void TrainingForm::checkConfig() {
    QString problem;
    if (init_->text().trimmed().isEmpty() && transformerFamily())
        problem = TransformerFields::problemText(modelConfig());
    transformer_->setProblem(problem);
    if (problem == problem_) return;
    problem_ = problem;
    emit problemChanged(problem_);
}

ModelConfig TrainingForm::modelConfig() const {
    if (marianChosen()) return marianModelConfig(marianArchitecture());
    ModelConfig c;
    c.decoder = parseDecoderKind(decoder_->currentData().toString().toStdString());
    c.tokenizer.source = parseTokenizerKind(source_tok_->currentData().toString().toStdString());
    c.tokenizer.target = parseTokenizerKind(target_tok_->currentData().toString().toStdString());
    c.tokenizer.lowercase = lowercase_->isChecked();
    if (c.isTransformer()) {  // the RNN keys at their defaults (model/config.h)
        c.score = ScoreKind::ScaledDot;
        c.transformer = transformer_->config();
        return c;
    }
    c.score = parseScoreKind(score_->currentData().toString().toStdString());
    c.span = parseSpanKind(span_->currentData().toString().toStdString());
    c.input_feeding = feed_->isChecked();
    c.emb_dim = emb_->value();
    c.enc_hid_dim = enc_->value();
    c.dec_hid_dim = dec_->value();
    return c;
}

TrainingSettings TrainingForm::settings() const {
    TrainingSettings s;
    s.corpus = corpus_->currentData().toString();
    s.valid = valid_->text().trimmed();
    s.init = init_->text().trimmed();
    s.task = task_->text().trimmed();
    s.max_lines = lines_->value();
    s.config = modelConfig();
    if (marianChosen()) s.marian = marianArchitecture();
    s.min_freq = min_freq_->value();
    s.options.optimizer =
        optimizer_->currentData().toString() == QLatin1String("sgd") ? OptimizerKind::Sgd : OptimizerKind::Adam;
    s.options.lr = lr_->value();
    s.options.warmup = warmup_->value();
    s.options.lr_decay = LrDecay(lr_decay_->currentData().toInt());
    s.options.label_smoothing = smoothing_->value();
    s.options.batch_size = batch_->value();
    s.options.epochs = epochs_->value();
    s.options.clip = clip_->value();
    s.options.dropout = float(dropout_->value());
    s.options.align_weight = marianChosen() ? 0.0 : align_->value();  // the row is hidden for a Marian
    s.options.seed = uint64_t(seed_->value());
    s.options.threads = threads_;
    s.snapshot_every = snapshot_every_->value();
    s.probe = probe_->text();
    s.probe_reference = probe_reference_->text();
    s.out = out_->text().trimmed();
    return s;
}

// The kind and its sizes; the rows of the kinds not chosen propose the task's defaults.
void TrainingForm::applyModel(const TrainingSettings& s) {
    const bool marian = s.marian.has_value();
    transformer_family_ = s.config.isTransformer() || marian;  // applied with the schedule given in `s`
    {
        const QSignalBlocker quiet(decoder_);  // the rows are set here, not by kindChosen()
        if (marian)
            decoder_->setCurrentIndex(decoder_->findData(kMarianKind));
        else
            selectKind(decoder_, s.config.decoder);
    }
    marian_base_ = marian ? *s.marian : defaultMarianArchitecture(s.task);
    transformer_sizes_ = s.config.isTransformer() && !marian ? s.config.transformer : defaultTransformerConfig(s.task);
    marian_sizes_shown_ = marian;
    transformer_->setMarian(marian);
    transformer_->setConfig(marian ? marian_base_.transformer : transformer_sizes_);
    marian_->setArchitecture(marian_base_);
    if (!s.config.isTransformer()) {  // the RNN settings
        selectKind(score_, s.config.score);
        selectKind(span_, s.config.span);
        feed_->setChecked(s.config.input_feeding);
        emb_->setValue(s.config.emb_dim);
        enc_->setValue(s.config.enc_hid_dim);
        dec_->setValue(s.config.dec_hid_dim);
    }
    nameKindsAndOut();
    emit modelKindChanged(transformer_family_);
}

void TrainingForm::applySettings(const TrainingSettings& s) {
    if (!s.corpus.isEmpty()) {  // selected without its defaults: they are the settings given here
        const QSignalBlocker quiet(corpus_);
        const QString path = QFileInfo(s.corpus).absoluteFilePath();
        int index = corpus_->findData(path);
        if (index < 0) {
            corpus_->addItem(taskOf(path), path);
            index = corpus_->count() - 1;
        }
        corpus_->setCurrentIndex(index);
    }
    valid_->setText(s.valid);
    init_->setText(s.init);
    task_->setText(s.task);
    lines_->setValue(s.max_lines);
    applyModel(s);
    if (!s.marian) {  // a Marian's are its SentencePiece models: the rows keep what they propose for the other kinds
        selectKind(source_tok_, s.config.tokenizer.source);
        selectKind(target_tok_, s.config.tokenizer.target);
        lowercase_->setChecked(s.config.tokenizer.lowercase);
    }
    min_freq_->setValue(s.min_freq);
    optimizer_->setCurrentIndex(s.options.optimizer == OptimizerKind::Sgd ? 1 : 0);
    lr_->setValue(s.options.lr);
    warmup_->setValue(int(std::min<int64_t>(s.options.warmup, warmup_->maximum())));
    lr_decay_->setCurrentIndex(lr_decay_->findData(int(s.options.lr_decay)));
    smoothing_->setValue(s.options.label_smoothing);
    batch_->setValue(s.options.batch_size);
    epochs_->setValue(s.options.epochs);
    clip_->setValue(s.options.clip);
    dropout_->setValue(double(s.options.dropout));
    align_->setValue(s.options.align_weight);
    seed_->setValue(int(s.options.seed));
    threads_ = s.options.threads;
    snapshot_every_->setValue(int(s.snapshot_every));
    probe_->setText(s.probe);
    probe_reference_->setText(s.probe_reference);
    out_->setText(s.out);
    default_out_ = s.out == defaultOut() ? s.out : QString();
    updateEnabled();
}

}  // namespace attnviz::ui
