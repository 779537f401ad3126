#include "training/training_history.h"

#include "base/number_text.h"
#include "heatmap/heatmap_data.h"

#include <QCoreApplication>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace attnviz::ui {
namespace {

std::string csvNumber(double v) { return std::isfinite(v) ? numberText(v) : std::string(); }

// ",BLEU,AER" of the validation at `step`, or ",," when there are no metrics for it.
std::string metricsFields(const std::vector<EpochMetrics>& metrics, int64_t step) {
    for (const EpochMetrics& m : metrics) {
        if (m.progress.step != step) continue;
        return "," + csvNumber(m.report.bleu) + "," + (m.report.aer ? csvNumber(*m.report.aer) : std::string());
    }
    return ",,";
}

}  // namespace

std::string lossCurvesCsv(const std::vector<TrainProgress>& reports, const std::vector<EpochMetrics>& metrics) {
    std::string out =
        "step,epoch,loss,epoch_avg_loss,valid_loss,tokens_per_second,elapsed_seconds,valid_bleu,"
        "valid_aer\n";
    for (const TrainProgress& p : reports) {
        out += std::to_string(p.step) + "," + std::to_string(p.epoch) + "," + csvNumber(p.loss) + "," +
               csvNumber(p.avg_loss) + "," + (p.after_validation ? csvNumber(p.valid_loss) : std::string()) + "," +
               csvNumber(p.tokens_per_second) + "," + csvNumber(p.elapsed_seconds) +
               (p.after_validation ? metricsFields(metrics, p.step) : std::string(",,")) + "\n";
    }
    return out;
}

HeatmapPanel snapshotPanel(const TrainingSnapshot& s, const HeatmapStyle& style) {
    HeatmapPanel panel{HeatmapData::fromDecode(s.decode), style};
    panel.style.title = QCoreApplication::translate("attnviz::ui::TrainingWindow", "update %1")
                            .arg(static_cast<qlonglong>(s.progress.step));
    return panel;
}

std::vector<int> filmstripPicks(int count, int most) {
    std::vector<int> picks;
    if (count <= 0 || most <= 0) return picks;
    if (count <= most) {
        for (int i = 0; i < count; ++i) picks.push_back(i);
        return picks;
    }
    if (most == 1) return {count - 1};
    // most points from 0 to count-1, rounded; distinct because count > most
    for (int k = 0; k < most; ++k) picks.push_back(int(std::lround(double(k) * (count - 1) / (most - 1))));
    return picks;
}

int filmstripColumns(int n) {
    int c = 1;
    while (c * c < n) ++c;
    return c;
}

bool exportFilmstrip(const std::vector<TrainingSnapshot>& snapshots, const QString& path, ExportOptions options,
                     QString* error) {
    std::vector<HeatmapPanel> panels;
    for (int i : filmstripPicks(int(snapshots.size()), kFilmstripMost)) {
        panels.push_back(snapshotPanel(snapshots[size_t(i)], options.style));
    }
    if (panels.empty()) {
        if (error) *error = QStringLiteral("%1: no snapshots to draw").arg(path);
        return false;
    }
    const int n = int(panels.size()), cols = filmstripColumns(n), rows = (n + cols - 1) / cols;
    options.columns = cols;
    options.width = cols * kFilmstripCellWidth;
    options.height = rows * kFilmstripCellHeight;
    options.style.title = QCoreApplication::translate("attnviz::ui::TrainingWindow", "attention while training");
    return exportPanels(panels, path, options, error, [](const QString& format) -> std::string {
        throw std::runtime_error("a filmstrip is an image (png, svg or pdf), not " + format.toStdString());
    });
}

}  // namespace attnviz::ui
