#include "gui_options.h"
#include "base/errors.h"

#include "eval/compare_heads.h"
#include "explain/explanation.h"
#include "heatmap/utf8_text.h"
#include "io/model_file.h"
#include "model/intervention_flags.h"

#include <QFileInfo>
#include <QStringList>
#include <cstdio>
#include <functional>
#include <stdexcept>

namespace attnviz::app {

void setUpParser(QCommandLineParser& parser, const Options& options) {
    parser.setApplicationDescription(QStringLiteral("Watch attention work inside a seq2seq model."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("A model file (.safetensors) to open."),
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
    parser.addOption(options.size);
    parser.addOption(options.beam);
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

namespace {

bool isInteger(const QString& text, int least, int most) {
    bool ok = false;
    const int n = text.toInt(&ok);
    return ok && n >= least && n <= most;
}

}  // namespace

std::optional<ForceAt> forceAt(const QString& value) {
    const qsizetype colon = value.indexOf(u':');
    if (colon < 1 || colon + 1 >= value.size() || !isInteger(value.left(colon), 1, 100000)) return std::nullopt;
    return ForceAt{value.left(colon).toInt(), value.mid(colon + 1)};
}

std::optional<QString> compareMethodName(const QString& value) {
    if (!value.startsWith(QLatin1String("method:"))) return std::nullopt;
    return value.mid(7);
}

int checkCommandLine(const QCommandLineParser& parser, const Options& o) {
    int problems = 0;
    auto problem = [&](const QCommandLineOption& option, const QString& what) {
        std::fprintf(stderr, "attnviz: --%s: %s\n", qPrintable(option.names().constLast()), qPrintable(what));
        ++problems;
    };
    // A value that must name a readable file.
    auto file = [&](const QCommandLineOption& option) {
        if (parser.isSet(option) && !QFileInfo(parser.value(option)).isFile())
            problem(option, QStringLiteral("no such file: ") + parser.value(option));
    };
    // A value one of core's parsers reads; its InputError is the message.
    auto parses = [&](const QCommandLineOption& option, const std::function<void(const std::string&)>& parse) {
        for (const QString& v : parser.values(option)) {
            try {
                parse(v.toStdString());
            } catch (const std::exception& e) {
                problem(option, ui::qs(errorMessage(e)));
            }
        }
    };
    auto oneOf = [&](const QCommandLineOption& option, const QStringList& choices) {
        if (parser.isSet(option) && !choices.contains(parser.value(option)))
            problem(option, QStringLiteral("%1 is not one of %2").arg(parser.value(option), choices.join(u',')));
    };
    auto integer = [&](const QCommandLineOption& option, int least, int most) {
        if (parser.isSet(option) && !isInteger(parser.value(option), least, most))
            problem(option,
                    QStringLiteral("%1 is not a number from %2 to %3").arg(parser.value(option)).arg(least).arg(most));
    };
    const QStringList args = parser.positionalArguments();
    if (args.size() > 1)
        std::fprintf(stderr, "attnviz: one model at most, got %lld\n", (long long)args.size()), ++problems;
    if (!args.isEmpty()) {
        try {
            const Model model = loadModel(args.front().toStdString());
            auto known = [&](const QCommandLineOption& option, const QString& token) {  // an output token
                if (!model.target_vocab.contains(token.toStdString()))
                    problem(option, QStringLiteral("%1 is not in the model's output vocabulary").arg(token));
            };
            if (parser.isSet(o.contrast)) known(o.contrast, parser.value(o.contrast));
            if (const std::optional<ForceAt> at = forceAt(parser.value(o.force)); parser.isSet(o.force) && at)
                known(o.force, at->token);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "attnviz: %s\n", e.what());
            ++problems;
        }
    }
    if (const std::optional<QString> method = compareMethodName(parser.value(o.compare)))
        parses(o.compare, [&](const std::string&) {
            const std::optional<ExplainMethod> m = methodFromName(method->toStdString());
            if (!m || *m == ExplainMethod::Attention)
                throw std::invalid_argument("method:" + method->toStdString() + " is not an explanation method");
        });
    else
        file(o.compare);
    for (const QCommandLineOption* option : {&o.corpus, &o.train}) file(*option);
    integer(o.step, 0, 100000);
    integer(o.beam, 1, 32);
    integer(o.hypothesis, 1, 32);
    integer(o.head_importance, 1, 200000);
    oneOf(o.heads, {"cross", "encoder", "decoder"});
    oneOf(o.language, {"en", "zh_CN"});
    oneOf(o.theme, {"system", "light", "dark"});
    oneOf(o.train_kind, {"bahdanau", "luong", "transformer"});
    if (parser.isSet(o.hypothesis) && !parser.isSet(o.beam)) problem(o.hypothesis, QStringLiteral("needs --beam"));
    if (parser.isSet(o.head) && !parser.isSet(o.heads)) problem(o.head, QStringLiteral("needs --heads"));
    if (parser.isSet(o.contrast) && !parser.isSet(o.step)) problem(o.contrast, QStringLiteral("needs --step"));
    if (parser.isSet(o.force) && !forceAt(parser.value(o.force)))
        problem(o.force, QStringLiteral("wants N:token (N from 1), got ") + parser.value(o.force));
    if (parser.isSet(o.size)) {
        const QStringList wh = parser.value(o.size).split(u'x');
        if (wh.size() != 2 || !isInteger(wh[0], 1, 20000) || !isInteger(wh[1], 1, 20000))
            problem(o.size, QStringLiteral("wants WIDTHxHEIGHT (e.g. 800x600), got ") + parser.value(o.size));
    }
    if (parser.isSet(o.select)) {
        const QStringList cell = parser.value(o.select).split(u',');
        if (cell.size() != 2 || !isInteger(cell[0], 0, 100000) || !isInteger(cell[1], 0, 100000))
            problem(o.select, QStringLiteral("wants row,column (e.g. 2,3), got ") + parser.value(o.select));
    }
    for (const QCommandLineOption* option : {&o.head, &o.compare_head_a, &o.compare_head_b})
        parses(*option, [](const std::string& v) { parseHeadChoice(v); });
    Interventions iv;
    parses(o.knockout, [&](const std::string& v) { addKnockoutFlag(v, iv); });
    parses(o.attend, [&](const std::string& v) { addAttendFlag(v, iv); });
    parses(o.head_off, [&](const std::string& v) { addHeadOffFlag(v, iv); });
    parses(o.explain, [&](const std::string& v) {
        if (!methodFromName(v)) throw std::invalid_argument("unknown method " + v);
    });
    return problems == 0 ? 0 : 1;
}

}  // namespace attnviz::app
