#include "views/gold_links_panel.h"

#include "base/errors.h"
#include "decode/subword_words.h"
#include "heatmap/plot_palette.h"
#include "heatmap/utf8_text.h"
#include "io/corpus.h"
#include "state/decode_state.h"
#include "text/tokenizer.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace attnviz::ui {

namespace {

// The longest links file read: a few thousand links, far more than any sentence has words.
constexpr qint64 kMaxLinksFileBytes = 1 << 20;

// Whether the model reads pieces: the gold's words are then its decode merged into words on both sides.
bool readsPieces(const Model& m) { return !readsWords(m, MergeSides::None); }

// Source words (without <sos>/<eos>) and reference words (without <eos>) of the state's texts, or -1 when the text
// cannot be tokenized. A SentencePiece model's words are the texts' whitespace words, as `eval` counts them.
std::pair<int, int> wordCounts(const DecodeState& state) {
    try {
        const Model& m = *state.model();
        const std::string source = state.sourceText().toStdString();
        const std::string reference = state.referenceText().trimmed().toStdString();
        if (readsPieces(m))
            return {int(tokenize(source, m.config.tokenizer.source, m.config.tokenizer.lowercase).size()),
                    int(tokenize(reference, m.config.tokenizer.target, m.config.tokenizer.lowercase).size())};
        return {int(tokenizeSource(m, source).tokens.size()) - 2, int(tokenizeTarget(m, reference).tokens.size()) - 1};
    } catch (const std::exception&) {
        return {-1, -1};
    }
}

// The tokens the model reads of the state's source and reference (with their specials), or -1 as above.
std::pair<int, int> tokenCounts(const DecodeState& state) {
    try {
        const Model& m = *state.model();
        return {int(tokenizeSource(m, state.sourceText().toStdString()).tokens.size()),
                int(tokenizeTarget(m, state.referenceText().trimmed().toStdString()).tokens.size())};
    } catch (const std::exception&) {
        return {-1, -1};
    }
}

// The heatmap cells of word `word` on one axis: the word's own row or column when the heatmap shows words, else the
// pieces it spans (a word model: its one token, `first` positions in).
std::pair<int, int> cellsOfWord(int word, const std::vector<WordSpan>& spans, bool pieces, int first) {
    if (!pieces) return {word + first, word + first + 1};
    const WordSpan& s = spans[size_t(word + first)];
    return {s.first, s.end};
}

}  // namespace

GoldLinksPanel::GoldLinksPanel(DecodeState* state, QWidget* parent) : QWidget(parent), state_(state) {
    buildUi();
    retranslateUi();
    for (auto signal : {&DecodeState::decodeChanged, &DecodeState::modelChanged, &DecodeState::forcedTokensChanged})
        connect(state_, signal, this, &GoldLinksPanel::recompute);
    connect(state_, &DecodeState::sourceTextChanged, this, &GoldLinksPanel::recompute);
    connect(state_, &DecodeState::referenceTextChanged, this, &GoldLinksPanel::recompute);
    connect(state_, &DecodeState::wordsChanged, this, &GoldLinksPanel::marksChanged);  // the same links, other cells
    recompute();
}

void GoldLinksPanel::buildUi() {
    label_ = new QLabel(this);
    edit_ = new QLineEdit(this);
    edit_->setClearButtonEnabled(true);
    label_->setBuddy(edit_);
    load_ = new QPushButton(this);
    mode_box_ = new QComboBox(this);
    mode_box_->addItem(QString(), int(AlignMode::Argmax));
    mode_box_->addItem(QString(), int(AlignMode::Threshold));
    mode_box_->addItem(QString(), int(AlignMode::Shift));
    threshold_ = new QDoubleSpinBox(this);
    threshold_->setRange(0.01, 1.0);
    threshold_->setSingleStep(0.05);
    threshold_->setDecimals(2);
    threshold_->setValue(kDefaultAlignThreshold);
    threshold_->setEnabled(false);
    specials_ = new QCheckBox(this);
    result_ = new QLabel(this);
    result_->setTextFormat(Qt::PlainText);
    result_->setFixedHeight(result_->fontMetrics().lineSpacing() + 6);  // one line whatever it says: nothing moves
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    options_row_ = new QWidget(this);
    auto* options = new QHBoxLayout(options_row_);
    options->setContentsMargins(0, 0, 0, 0);
    options->addWidget(mode_box_);
    options->addWidget(threshold_);
    options->addWidget(specials_);
    options->addStretch(1);
    row_ = new QHBoxLayout;
    row_->setContentsMargins(0, 0, 0, 0);
    row_->addWidget(edit_, 1);
    row_->addWidget(load_);
    row_->addWidget(options_row_);
    column_ = new QVBoxLayout(this);
    column_->setContentsMargins(0, 0, 0, 0);
    column_->setSpacing(2);
    column_->addLayout(row_);
    column_->addWidget(result_);

    connect(edit_, &QLineEdit::textChanged, this, [this] {
        parseLinks();
        recompute();
    });
    connect(load_, &QPushButton::clicked, this, &GoldLinksPanel::chooseFile);
    connect(mode_box_, &QComboBox::currentIndexChanged, this, &GoldLinksPanel::optionsEdited);
    connect(threshold_, &QDoubleSpinBox::valueChanged, this, &GoldLinksPanel::optionsEdited);
    connect(specials_, &QCheckBox::toggled, this, &GoldLinksPanel::optionsEdited);
}

void GoldLinksPanel::retranslateUi() {
    label_->setText(tr("&Gold links:"));
    edit_->setPlaceholderText(tr("Optional: the reference's word alignment, e.g. 0-0 1-2 2?1"));
    edit_->setToolTip(
        tr("Gold links of the reference in Pharaoh format: i-j links source word i to reference word j (both "
           "counted from 0, <sos>/<eos> not counted) as sure, i?j as possible. The heatmap marks each cell correct, "
           "false or missed and the AER, precision and recall are shown below."));
    load_->setText(tr("Load…"));
    load_->setToolTip(tr("Read the links from a text file (its first non-blank line)"));
    mode_box_->setItemText(0, tr("argmax"));
    mode_box_->setItemText(1, tr("threshold"));
    mode_box_->setItemText(2, tr("shift"));
    mode_box_->setToolTip(
        tr("How links are read off the attention: argmax, each reference word to the source word it attends most; "
           "threshold, every source word with at least the weight τ; shift, the argmax of the next step's row"));
    threshold_->setPrefix(tr("τ "));
    threshold_->setToolTip(tr("The threshold τ of the threshold mode"));
    specials_->setText(tr("Count <sos>/<eos>"));
    specials_->setToolTip(
        tr("Off: <sos> and <eos> are taken out of each row before the links are read. On: the row as it is, and a "
           "word that attends most to <sos> or <eos> gets no link"));
    showResult();
}

// The field keeps kLeastFieldChars characters' width: where the options beside it would leave it less, they go on a
// line of their own under it.
void GoldLinksPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const int spacing = row_->spacing() * 2;
    const int field = edit_->fontMetrics().averageCharWidth() * kLeastFieldChars;
    const bool beside = width() >= field + load_->sizeHint().width() + options_row_->sizeHint().width() + spacing;
    if (beside == optionsBesideField()) return;
    if (beside) {
        column_->removeWidget(options_row_);
        row_->addWidget(options_row_);
    } else {
        row_->removeWidget(options_row_);
        column_->insertWidget(1, options_row_);
    }
}

bool GoldLinksPanel::optionsBesideField() const { return row_->indexOf(options_row_) >= 0; }

void GoldLinksPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    if (event->type() == QEvent::PaletteChange) showResult();
    QWidget::changeEvent(event);
}

QString GoldLinksPanel::setLinks(const QString& pharaoh) {
    edit_->setText(pharaoh);  // textChanged parses and updates
    return problem_;
}

QString GoldLinksPanel::links() const { return edit_->text(); }

bool GoldLinksPanel::loadLinks(const QString& path) {
    QString line;
    try {
        if (QFileInfo(path).size() > kMaxLinksFileBytes)
            throw InputError(path.toStdString() + ": too large for gold links (at most 1 MiB is read)");
        const std::string text = readTextFile(path.toStdString());
        for (const QString& l : qs(text).split(u'\n'))
            if (!l.trimmed().isEmpty()) {
                line = l.trimmed();
                break;
            }
    } catch (const std::exception& e) {
        problem_ = tr("Gold links: %1").arg(qs(errorMessage(e)));
        showResult();
        return false;
    }
    setLinks(line);
    return problem_.isEmpty();
}

void GoldLinksPanel::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load gold links"), QString(),
                                                      tr("Text files (*.txt *.align *.tsv);;All files (*)"));
    if (!path.isEmpty()) loadLinks(path);
}

void GoldLinksPanel::setAlignOptions(const AlignOptions& options) {
    const QSignalBlocker b1(mode_box_), b2(threshold_), b3(specials_);
    mode_box_->setCurrentIndex(mode_box_->findData(int(options.mode)));
    threshold_->setValue(options.threshold);
    specials_->setChecked(options.include_specials);
    optionsEdited();
}

void GoldLinksPanel::optionsEdited() {
    options_.mode = AlignMode(mode_box_->currentData().toInt());
    options_.threshold = threshold_->value();
    options_.include_specials = specials_->isChecked();
    threshold_->setEnabled(options_.mode == AlignMode::Threshold);
    recompute();
}

void GoldLinksPanel::parseLinks() {
    gold_.reset();
    parse_error_.clear();
    if (edit_->text().trimmed().isEmpty()) return;
    try {
        gold_ = parseAlignment(edit_->text().toStdString());
    } catch (const std::exception& e) {
        parse_error_ = tr("Gold links: %1").arg(qs(errorMessage(e)));
    }
}

// The links against the typed sentence and reference, by the corpus reader's own range check.
QString GoldLinksPanel::wordCountProblem() const {
    if (!gold_ || !state_->model() || state_->referenceText().trimmed().isEmpty()) return {};
    const auto [source, target] = wordCounts(*state_);
    if (source < 0) return {};
    try {
        checkAlignmentRange(*gold_, source, target);
    } catch (const std::exception& e) {
        return tr("Gold links: %1").arg(qs(errorMessage(e)));
    }
    return {};
}

// The decode shown is the model forced onto the typed reference (no "what if" tokens), and as long as it.
bool GoldLinksPanel::decodeIsOnReference() const {
    const PrefixDecoding* d = state_->decode();
    if (!d || !state_->model() || state_->referenceText().trimmed().isEmpty() || !state_->forcedTokens().empty())
        return false;
    const auto [source, target] = tokenCounts(*state_);
    return int(d->result.source_tokens.size()) == source && int(d->result.target_tokens.size()) == target;
}

void GoldLinksPanel::recompute() {
    problem_ = parse_error_.isEmpty() ? wordCountProblem() : parse_error_;
    counts_.reset();
    cells_.clear();
    if (state_->model())
        options_.words =
            wordAxes(*state_->model(), readsPieces(*state_->model()) ? MergeSides::Both : MergeSides::None);
    if (gold_ && problem_.isEmpty() && decodeIsOnReference()) {
        const DecodeResult& forced = state_->decode()->result;
        try {
            const auto [source, target] = wordCounts(*state_);
            checkWordCounts(forced, options_.words, size_t(source), size_t(target));
            const std::vector<AlignmentLink> predicted = extractAlignment(forced, options_);
            counts_ = aerCounts(predicted, *gold_);
            cells_ = classifyAlignment(predicted, *gold_);
        } catch (const std::exception& e) {
            problem_ = tr("Gold links: %1").arg(qs(errorMessage(e)));
        }
    }
    showResult();
    emit marksChanged();
}

// Each link on its cell: source word i, target word j. A SentencePiece model's link covers every cell of its two
// words' pieces while the heatmap shows pieces.
std::vector<AlignmentMark> GoldLinksPanel::marks() const {
    std::vector<AlignmentMark> out;
    const PrefixDecoding* d = state_->decode();
    if (!d) return out;
    const bool pieces = options_.words.merge == MergeSides::Both && !state_->showsWords();
    for (const AlignmentCell& c : cells_) {
        const auto [col0, col1] =
            cellsOfWord(c.link.first, d->result.source_words, pieces, options_.words.first_column);
        const auto [row0, row1] = cellsOfWord(c.link.second, d->result.target_words, pieces, 0);
        for (int row = row0; row < row1; ++row)
            for (int col = col0; col < col1; ++col) out.push_back({row, col, c.kind});
    }
    return out;
}

QString GoldLinksPanel::resultText() const { return result_->text(); }

void GoldLinksPanel::showResult() {
    result_->setStyleSheet(problem_.isEmpty() ? QString() : warningStyleSheet(palette()));
    result_->setToolTip({});
    if (!problem_.isEmpty()) return result_->setText(problem_);
    if (!gold_) return result_->setText({});
    if (state_->referenceText().trimmed().isEmpty())
        return result_->setText(tr("Gold links describe the reference: type a reference translation."));
    if (!state_->forcedTokens().empty())
        return result_->setText(tr("Gold links measure the reference: clear the forced tokens to see them."));
    if (!counts_) return result_->setText({});
    int kinds[3] = {0, 0, 0};
    for (const AlignmentCell& c : cells_) ++kinds[int(c.kind)];
    result_->setText(tr("AER %1 · precision %2 · recall %3   ● correct %4 · ✕ false %5 · ○ missed %6")
                         .arg(counts_->aer(), 0, 'f', 3)
                         .arg(counts_->precision(), 0, 'f', 3)
                         .arg(counts_->recall(), 0, 'f', 3)
                         .arg(kinds[int(AlignmentCellKind::Correct)])
                         .arg(kinds[int(AlignmentCellKind::False)])
                         .arg(kinds[int(AlignmentCellKind::Missed)]));
    result_->setToolTip(tr("%1 predicted links (%2), %3 sure and %4 possible gold links")
                            .arg(counts_->predicted)
                            .arg(qs(alignModeName(options_)))
                            .arg(counts_->gold)
                            .arg(counts_->possible - counts_->gold));
}

}  // namespace attnviz::ui
