// The compare view's exports: A, B, the difference map or the whole comparison, as pictures (the shown style) or
// numbers (CSV, JSON), from the Export button's menu.
#include "views/compare_view.h"

#include "heatmap/comparison_export.h"
#include "heatmap/heatmap_export.h"
#include "state/decode_state.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>

namespace attnviz::ui {

bool CompareView::exportPart(Part part, const QString& path, const ExportOptions& options, QString* error) const {
    if (!shown_a_ || !shown_b_) {
        if (error) *error = tr("%1: nothing to export (no comparison is shown)").arg(QDir::toNativeSeparators(path));
        return false;
    }
    const ModelComparison c = comparison();
    ExportOptions o = options;
    switch (part) {
    case Part::A:
    case Part::B: {
        const bool is_a = part == Part::A;
        const std::shared_ptr<const Model> model = !is_a ? b_model_ : state_ ? state_->decodedModel() : nullptr;
        o.style = comparisonPanels(c, options.style)[is_a ? 0 : 1].style;
        const DecodeResult& r = is_a ? c.a : c.b;
        return exportHeatmap(HeatmapData::fromDecode(r), r, model ? model->config : ModelConfig{}, path, o, error);
    }
    case Part::Difference:  // the map alone; csv/json: the comparison's numbers (the JSON holds the difference)
        return exportPanels({comparisonPanels(c, options.style)[2]}, path, o, error,
                            [&](const QString& format) { return comparisonNumbers(c, format); });
    case Part::Comparison:
        return exportComparison(c, path, o, error);
    }
    return false;
}

void CompareView::exportInteractively(Part part) {
    const QString dir = QFileInfo(state_ ? state_->modelPath() : QString()).path();
    const QString name = part == Part::A            ? QStringLiteral("model-a")
                         : part == Part::B          ? QStringLiteral("model-b")
                         : part == Part::Difference ? QStringLiteral("difference")
                                                    : QStringLiteral("comparison");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export"), QDir(dir).filePath(name + QStringLiteral(".png")),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV numbers (*.csv);;JSON numbers (*.json)"));
    if (path.isEmpty()) return;
    ExportOptions options;
    options.style = base_;
    if (part == Part::Comparison) options.width = 2400;  // three maps side by side
    QString error;
    if (!exportPart(part, path, options, &error)) {
        error_ = error;
        summary_label_->setText(summaryText() + QLatin1Char('\n') + error);
    }
}

}  // namespace attnviz::ui
