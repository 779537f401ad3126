// MainWindow's status bar in plain words: its message line (window/status_line), what the cell under the mouse says
// (cleared when the mouse leaves the heatmap), and model files that cannot be opened: what is wrong in plain words
// first, the loader's message second.
#include "window/main_window.h"

#include "dialogs/load_error.h"
#include "heatmap/attention_view_data.h"
#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"
#include "window/status_line.h"

#include <QMessageBox>

#include <memory>

namespace attnviz::ui {

void MainWindow::showStatus(const QString& text, int timeout_ms) { status_line_->showMessage(text, timeout_ms); }

QString MainWindow::statusText() const { return status_line_->message(); }

void MainWindow::showHoverStatus(int row, int col) {
    const HeatmapData& data = heatmap_->data();
    if (row < 0 || col < 0 || row >= int(data.weights.size()) || col >= int(data.weights[size_t(row)].size())) {
        status_line_->clearMessage();
        return;
    }
    const double percent = 100.0 * double(data.weights[size_t(row)][size_t(col)]);
    if (!state_->attentionView().isDefault()) {  // another attention (the head grid's): say which
        if (data.causal && col > row) return showStatus(tr("Masked: a position does not see later ones."));
        return showStatus(tr("In the %4, “%1” gives “%2” %3 % of its attention.")
                              .arg(data.target_tokens[row], data.source_tokens[col])
                              .arg(percent, 0, 'f', 1)
                              .arg(attentionKindName(state_->attentionView().kind)));
    }
    QString text = tr("Writing “%1”, the model gives “%2” %3 % of its attention.")
                       .arg(data.target_tokens[row], data.source_tokens[col])
                       .arg(percent, 0, 'f', 1);
    const LabelMarks& marks = heatmap_->labelMarks();
    if (marks.forced_rows.contains(row))
        text += QStringLiteral(" ") + tr("You forced “%1” here.").arg(data.target_tokens[row]);
    if (marks.unknown_cols.contains(col))
        text += QStringLiteral(" ") +
                tr("“%1” is not in the model's vocabulary: it reads <unk>.").arg(data.source_tokens[col]);
    showStatus(text);
}

void MainWindow::reportLoadError(const QString& path, const QString& technical) {
    const LoadErrorText text = describeLoadError(path, technical);
    showStatus(text.plain, 10000);
    emit errorReported(text.plain + QStringLiteral("\n\n") + text.details);
    if (!interactive_) return;
    const std::unique_ptr<QMessageBox> box = makeLoadErrorBox(this, tr("Cannot open model"), text);
    box->exec();
}

}  // namespace attnviz::ui
