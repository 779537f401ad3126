#include "gui_options.h"

#include <QStringList>

namespace attnviz::app {

void setUpParser(QCommandLineParser& parser, const Options& options) {
    parser.setApplicationDescription(QStringLiteral("Watch attention work inside a seq2seq model."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("model"),
                                 QStringLiteral("A model file (.safetensors) or a Hugging Face Marian folder to open."),
                                 QStringLiteral("[model]"));
    parser.addOption(options.sentence);
    parser.addOption(options.step);
    parser.addOption(options.select);
    parser.addOption(options.screenshot);
    parser.addOption(options.compare);
    parser.addOption(options.compare_head_a);
    parser.addOption(options.compare_head_b);
    parser.addOption(options.language);
    parser.addOption(options.theme);
    parser.addOption(options.coverage);
    parser.addOption(options.words);
    parser.addOption(options.size);
    parser.addOption(options.beam);
    parser.addOption(options.length_penalty);
    parser.addOption(options.corpus);
    parser.addOption(options.reference);
    parser.addOption(options.gold);
    parser.addOption(options.heads);
    parser.addOption(options.head);
    parser.addOption(options.hypothesis);
    parser.addOption(options.knockout);
    parser.addOption(options.attend);
    parser.addOption(options.head_off);
    parser.addOption(options.explain);
    parser.addOption(options.contrast);
    parser.addOption(options.explain_scores);
    parser.addOption(options.force);
    parser.addOption(options.head_importance);
    parser.addOption(options.train);
    parser.addOption(options.train_kind);
    parser.addOption(options.check);
}

std::optional<double> numberIn(const QString& value, double least, double most) {
    bool ok = false;
    const double x = value.trimmed().toDouble(&ok);
    if (!ok || !(x >= least && x <= most)) return std::nullopt;
    return x;
}

std::optional<int> integerIn(const QString& value, int least, int most) {
    bool ok = false;
    const int n = value.toInt(&ok);
    if (!ok || n < least || n > most) return std::nullopt;
    return n;
}

std::optional<ForceAt> forceAt(const QString& value) {
    const qsizetype colon = value.indexOf(u':');
    if (colon < 1 || colon + 1 >= value.size()) return std::nullopt;
    const std::optional<int> step = integerIn(value.left(colon), 1, 100000);
    if (!step) return std::nullopt;
    return ForceAt{*step, value.mid(colon + 1)};
}

std::optional<QString> compareMethodName(const QString& value) {
    if (!value.startsWith(QLatin1String("method:"))) return std::nullopt;
    return value.mid(7);
}

std::optional<QSize> windowSize(const QString& value) {
    const QStringList wh = value.split(u'x');
    if (wh.size() != 2) return std::nullopt;
    const std::optional<int> w = integerIn(wh[0], 1, 20000), h = integerIn(wh[1], 1, 20000);
    if (!w || !h) return std::nullopt;
    return QSize(*w, *h);
}

std::optional<QPoint> selectedCell(const QString& value) {
    const QStringList cell = value.split(u',');
    if (cell.size() != 2) return std::nullopt;
    const std::optional<int> row = integerIn(cell[0], 0, 100000), col = integerIn(cell[1], 0, 100000);
    if (!row || !col) return std::nullopt;
    return QPoint(*col, *row);
}

QString flagName(const QCommandLineOption& option) { return QStringLiteral("--") + option.names().constLast(); }

}  // namespace attnviz::app
