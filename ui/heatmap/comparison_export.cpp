#include "heatmap/comparison_export.h"

#include "eval/compare.h"
#include "eval/compare_json.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <utility>

namespace attnviz::ui {

namespace {
QString trComparison(const char* text) { return QCoreApplication::translate("attnviz::ui::Comparison", text); }

// The models' names in the titles: file names without the extension and without the words both share at the start
// (siblings "en_zh-bahdanau-additive" and "en_zh-bahdanau-dot" become "additive" and "dot"), so that they fit.
std::pair<QString, QString> titleNames(const QString& a, const QString& b) {
    QString x = QFileInfo(a).completeBaseName(), y = QFileInfo(b).completeBaseName();
    qsizetype cut = 0;
    for (qsizetype i = 0; i < std::min(x.size(), y.size()) && x[i] == y[i]; ++i)
        if (x[i] == u'-' || x[i] == u'_') cut = i + 1;
    if (cut < x.size() && cut < y.size()) return {x.mid(cut), y.mid(cut)};
    return {x, y};
}

}  // namespace

HeatmapData differenceData(const DecodeResult& a, const DecodeResult& b) {
    HeatmapData d = HeatmapData::fromDecode(a);
    d.weights = attentionDifference(a, b);
    d.scores.clear();  // raw scores of two models do not subtract into anything meaningful
    return d;
}

HeatmapStyle differenceStyle(HeatmapStyle base) {
    base.diverging = true;
    base.scale_label = trComparison(QT_TRANSLATE_NOOP("attnviz::ui::Comparison", "B − A"));
    base.title.clear();
    return base;
}

std::vector<HeatmapPanel> comparisonPanels(const ModelComparison& c, const HeatmapStyle& base) {
    HeatmapStyle a = base, b = base, d = differenceStyle(base);
    const auto [a_name, b_name] = titleNames(c.a_name, c.b_name);
    a.title = trComparison(QT_TRANSLATE_NOOP("attnviz::ui::Comparison", "A: %1")).arg(a_name);
    b.title = trComparison(QT_TRANSLATE_NOOP("attnviz::ui::Comparison", "B: %1")).arg(b_name);
    d.title = d.scale_label;
    d.fit_range = base.fit_range || c.fit_difference;
    return {HeatmapPanel{HeatmapData::fromDecode(c.a), a}, HeatmapPanel{HeatmapData::fromDecode(c.b), b},
            HeatmapPanel{differenceData(c.a, c.b), d}};
}

std::string comparisonNumbers(const ModelComparison& c, const QString& format) {
    if (format == QLatin1String("csv")) return comparisonToCsv(c.a, c.b);
    const GoldAlignment* gold = c.gold ? &*c.gold : nullptr;
    return comparisonToJson(c.a, c.b, c.a_name.toStdString(), c.b_name.toStdString(), gold)
               .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
           "\n";
}

bool exportComparison(const ModelComparison& c, const QString& path, const ExportOptions& options, QString* error) {
    std::vector<HeatmapPanel> panels;
    try {
        panels = comparisonPanels(c, options.style);
    } catch (const std::exception& e) {  // shapes that differ
        if (error) *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
        return false;
    }
    return exportPanels(panels, path, options, error,
                        [&](const QString& format) { return comparisonNumbers(c, format); });
}

}  // namespace attnviz::ui
