#include "dialogs/getting_started.h"

#include <QDialogButtonBox>
#include <QSettings>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace attnviz::ui {

namespace {
const QString kShownKey = QStringLiteral("Help/gettingStartedShown");
}

QString gettingStartedText() {
    return GettingStartedDialog::tr(
        "<h3>Watching attention work</h3>"
        "<p>Type an English sentence under <b>Source</b>: the model translates it, and the heatmap shows where it "
        "looked. <b>Each row</b> is one output token, in the order the decoder produced it; <b>each column</b> is a "
        "source token, with <tt>&lt;sos&gt;</tt> and <tt>&lt;eos&gt;</tt> at the ends. A cell's colour is the "
        "attention weight: how much that output step read that source word. Every row adds up to 1.</p>"
        "<h3>The four scorings</h3>"
        "<p>The sample models of a task differ only in how a decoder state is scored against each source word "
        "before the softmax: <b>additive</b> (Bahdanau: a small network of both), <b>dot</b> (their dot product), "
        "<b>scaled dot</b> (the dot product divided by √d) and <b>general</b> (Luong: a learned matrix between "
        "them). Switch with the Scoring toolbar or Ctrl+1 … Ctrl+4 and compare the pictures: the same data, the "
        "same training, another score.</p>"
        "<h3>Stepping</h3>"
        "<p>The step buttons (or ← and → in the heatmap) move the decoder one token at a time. The <b>Current "
        "step</b> panel shows that row's weights as bars, the most likely next tokens and their probabilities.</p>"
        "<h3>What if?</h3>"
        "<p>Click another candidate in the Current step panel, or type any word of the output vocabulary, to force "
        "it at that step: the decoder goes on from there and the heatmap follows. Edit ▸ Undo takes it back. A "
        "reference translation forces a whole sentence.</p>"
        "<h3>Where to go next</h3>"
        "<ul><li><b>Explain by</b> (toolbar): gradients, integrated gradients and occlusion beside the attention: "
        "what the model used, not only where it looked.</li>"
        "<li>Right-click a source word: <b>Knock out</b> it and watch the translation change.</li>"
        "<li>View ▸ <b>Beam search</b>, <b>Compare models</b>, <b>Attention heads</b> (Transformer models).</li>"
        "<li>File ▸ <b>Model library</b> for other tasks, File ▸ <b>Train a model</b> to watch attention "
        "learn.</li></ul>"
        "<p>Help ▸ Getting started shows this page again.</p>");
}

bool gettingStartedDue() { return !QSettings().value(kShownKey, false).toBool(); }
void markGettingStartedShown() { QSettings().setValue(kShownKey, true); }

GettingStartedDialog::GettingStartedDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Getting started"));
    page_ = new QTextBrowser(this);
    page_->setHtml(gettingStartedText());
    page_->setOpenExternalLinks(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(page_, 1);
    layout->addWidget(buttons);
    resize(640, 560);
}

}  // namespace attnviz::ui
