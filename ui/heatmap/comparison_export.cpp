#include "heatmap/comparison_export.h"
#include "heatmap/utf8_text.h"

#include "base/errors.h"
#include "eval/compare.h"
#include "eval/compare_json.h"
#include "io/json_text.h"

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

QString comparedAttentionName(const AttentionView& view, int nhead) {
    if (view.isDefault())
        return nhead > 0 ? trComparison(QT_TRANSLATE_NOOP("attnviz::ui::Comparison", "mean of heads, last layer"))
                         : QString();
    if (view.head < 0)
        return trComparison(QT_TRANSLATE_NOOP("attnviz::ui::Comparison", "layer %1 · mean of heads"))
            .arg(view.layer + 1);
    return trComparison(QT_TRANSLATE_NOOP("attnviz::ui::Comparison", "layer %1 · head %2"))
        .arg(view.layer + 1)
        .arg(view.head + 1);
}

namespace {

// "A: NAME", or for a Transformer "A: NAME" over "layer 2 · head 3" (two lines: a third of a figure is narrow;
// `side` is "A: %1" or "B: %1").
QString panelTitle(const char* side, const QString& name, const DecodeResult& r, const AttentionView& view) {
    const QString shown = comparedAttentionName(view, attentionHeads(r, AttentionKind::Cross));
    const QString title = trComparison(side).arg(name);
    if (shown.isEmpty()) return title;
    return title + u'\n' + shown;
}

}  // namespace

std::vector<HeatmapPanel> comparisonPanels(const ModelComparison& c, const HeatmapStyle& base) {
    HeatmapStyle a = base, b = base, d = differenceStyle(base);
    const auto [a_name, b_name] = titleNames(c.a_name, c.b_name);
    a.title = panelTitle(QT_TRANSLATE_NOOP("attnviz::ui::Comparison", "A: %1"), a_name, c.a, c.a_view);
    b.title = panelTitle(QT_TRANSLATE_NOOP("attnviz::ui::Comparison", "B: %1"), b_name, c.b, c.b_view);
    if (!c.b_shows.isEmpty()) {
        b.title += u'\n' + c.b_shows;
        b.scale_label = c.b_shows;
    }
    d.title = d.scale_label;
    // A title of two lines beside ones of one would start its map lower: the others get an empty second line.
    if (a.title.contains(u'\n') || b.title.contains(u'\n'))
        for (HeatmapStyle* s : {&a, &b, &d})
            if (!s->title.contains(u'\n')) s->title += QStringLiteral("\n ");
    d.fit_range = base.fit_range || c.fit_difference;
    return {HeatmapPanel{HeatmapData::fromDecode(c.a), a}, HeatmapPanel{HeatmapData::fromDecode(c.b), b},
            HeatmapPanel{differenceData(c.a, c.b), d}};
}

std::string comparisonNumbers(const ModelComparison& c, const QString& format) {
    if (format == QLatin1String("csv")) return comparisonToCsv(c.a, c.b);
    const GoldAlignment* gold = c.gold ? &*c.gold : nullptr;
    std::string text;
    JsonWriter w([&](std::string_view piece) { text += piece; }, 2);
    w.beginObject();
    writeComparisonMembers(w, c.a, c.b, c.a_name.toStdString(), c.b_name.toStdString(), gold);
    if (!c.b_method.empty()) w.key("method_b").string(c.b_method);
    if (!c.a_view.isDefault() || !c.b_view.isDefault()) {  // a chosen head: say which (else the keys as before)
        w.key("head_a").value(headChoiceJson(c.a_view));
        w.key("head_b").value(headChoiceJson(c.b_view));
    }
    w.endObject().flush();
    return text + "\n";
}

bool exportComparison(const ModelComparison& c, const QString& path, const ExportOptions& options, QString* error) {
    std::vector<HeatmapPanel> panels;
    try {
        panels = comparisonPanels(c, options.style);
    } catch (const std::exception& e) {  // shapes that differ, or out of memory
        if (error) *error = QStringLiteral("%1: %2").arg(path, qs(errorMessage(e)));
        return false;
    }
    return exportPanels(panels, path, options, error,
                        [&](const QString& format) { return comparisonNumbers(c, format); });
}

}  // namespace attnviz::ui
