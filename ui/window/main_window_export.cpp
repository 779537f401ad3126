// MainWindow's export: the export options kept in the settings, File ▸ Export (the dialog, then the heatmap with the
// chosen method, interventions and style in the chosen format) and Edit ▸ Copy image.
#include "window/main_window.h"

#include "dialogs/export_dialog.h"
#include "heatmap/explanation_data.h"
#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"
#include "state/forcing_history.h"
#include "views/export_prompt.h"
#include "views/gold_links_panel.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

namespace attnviz::ui {

ExportOptions MainWindow::exportOptions() const {
    ExportOptions o;
    o.style = style_;
    o.style.current_row = -1;  // a figure, not the stepping state
    o.style.selected_row = o.style.selected_col = -1;
    if (!state_->attentionView().isDefault()) o.style.alignment_marks.clear();  // marks of the default attention
    // an explanation shown in place of the attention: its diverging map, fitted scale and the method's name
    o.style.diverging = heatmap_->style().diverging;
    o.style.fit_range = heatmap_->style().fit_range;
    o.style.scale_label = heatmap_->style().scale_label;
    if (state_->explanation()) o.style.alignment_marks.clear();               // gold links mark the attention's links
    o.style.interventions = heatmap_->style().interventions;                  // struck-through columns, attended cells
    if (state_->decode()) o.interventions = state_->decode()->interventions;  // the title, the CSV and JSON
    o.context = decodeContext();
    return o;
}

// What the user typed and chose for the decode shown, for the JSON export's "context".
DecodeContext MainWindow::decodeContext() const {
    DecodeContext c;
    c.source_text = sourceText().toStdString();
    c.model_file = QFileInfo(modelPath()).fileName().toStdString();
    c.reference = state_->referenceText().trimmed().toStdString();
    c.gold_links = gold_links_->links().trimmed().toStdString();
    if (const DecodeOutcome* decode = decodes_->outcome())
        for (int row : userForcedRows(*decode, int(state_->forcedTokens().size()))) c.forced_rows.push_back(row);
    return c;
}

bool MainWindow::exportTo(const QString& path, const ExportOptions& options) {
    if (!state_->hasDecode()) {
        reportError(tr("Nothing to export"), tr("Type a sentence first: there is no heatmap to export."));
        return false;
    }
    QString error;
    const ModelConfig& config = state_->decodedModel()->config;
    // CSV: the matrix shown (another attention than the default: its tokens and numbers); JSON: the whole decode.
    const bool view_csv = !state_->attentionView().isDefault() && exportFormatFor(path, options) == "csv";
    const DecodeResult result =
        view_csv ? attentionViewResult(state_->decode()->result, state_->attentionView()) : state_->decode()->result;
    const Explanation* explained = state_->attentionView().isDefault() ? state_->explanation() : nullptr;
    const bool written = explained ? exportExplanation(heatmap_->data(), result, *explained, *state_->decodedModel(),
                                                       path, options, &error)
                                   : exportHeatmap(heatmap_->data(), result, config, path, options, &error);
    if (!written) {
        reportError(tr("Export failed"), tr("Could not write %1.\n\n%2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    showStatus(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

void MainWindow::showExportDialog() {
    if (!state_->hasDecode()) {
        reportError(tr("Nothing to export"), tr("Type a sentence first: there is no heatmap to export."));
        return;
    }
    QSettings s;
    ExportOptions o = exportOptions();
    o.width = s.value(QStringLiteral("Export/width"), o.width).toInt();
    o.height = s.value(QStringLiteral("Export/height"), o.height).toInt();
    o.dpi = s.value(QStringLiteral("Export/dpi"), o.dpi).toDouble();
    o.style.title = s.value(QStringLiteral("Export/title"), QString()).toString();
    ExportDialog dialog(suggestedExportPath(lastExport()), o, this);
    if (dialog.exec() != QDialog::Accepted) return;
    const ExportOptions chosen = dialog.options();
    if (!exportTo(dialog.path(), chosen)) return;
    rememberExport(dialog.path());
    s.setValue(QStringLiteral("Export/width"), chosen.width);
    s.setValue(QStringLiteral("Export/height"), chosen.height);
    s.setValue(QStringLiteral("Export/dpi"), chosen.dpi);
    s.setValue(QStringLiteral("Export/title"), chosen.style.title);
}

void MainWindow::copyImage() {
    if (!state_->hasDecode()) return;
    QApplication::clipboard()->setImage(renderHeatmapImage(heatmap_->data(), exportOptions()));
    showStatus(tr("Heatmap copied to the clipboard"), 3000);
}

}  // namespace attnviz::ui
