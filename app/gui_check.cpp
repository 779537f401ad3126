#include "gui_check.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "dialogs/model_library.h"
#include "eval/compare_heads.h"
#include "explain/explanation.h"
#include "heatmap/utf8_text.h"
#include "io/model_file.h"
#include "model/intervention_flags.h"
#include "state/intervention_items.h"
#include "text/tokenizer.h"
#include "views/beam_tree.h"
#include "views/corpus_browser.h"

#include <QFileInfo>

#include <climits>
#include <cstdio>
#include <functional>
#include <stdexcept>

namespace attnviz::app {

namespace {

// The problems of one command line, each "--flag: what".
class Problems {
public:
    Problems(const QCommandLineParser& parser, QStringList& out) : parser_(parser), out_(out) {}

    void add(const QCommandLineOption& option, const QString& what) { out_ << flagName(option) + ": " + what; }
    // Each value of `option` read by one of core's parsers; its error is the message.
    void parses(const QCommandLineOption& option, const std::function<void(const std::string&)>& parse) {
        for (const QString& v : parser_.values(option)) {
            try {
                parse(v.toStdString());
            } catch (const std::exception& e) {
                add(option, ui::qs(errorMessage(e)));
            }
        }
    }
    void file(const QCommandLineOption& option) {
        if (parser_.isSet(option) && !QFileInfo(parser_.value(option)).isFile())
            add(option, QStringLiteral("no such file: ") + parser_.value(option));
    }
    void oneOf(const QCommandLineOption& option, const QStringList& choices) {
        if (parser_.isSet(option) && !choices.contains(parser_.value(option)))
            add(option, QStringLiteral("%1 is not one of %2").arg(parser_.value(option), choices.join(u',')));
    }
    void integer(const QCommandLineOption& option, int least, int most) {
        if (parser_.isSet(option) && !integerIn(parser_.value(option), least, most))
            add(option,
                QStringLiteral("%1 is not a number from %2 to %3").arg(parser_.value(option)).arg(least).arg(most));
    }
    void number(const QCommandLineOption& option, double least, double most) {
        if (parser_.isSet(option) && !numberIn(parser_.value(option), least, most))
            add(option,
                QStringLiteral("%1 is not a number from %2 to %3").arg(parser_.value(option)).arg(least).arg(most));
    }
    void needs(const QCommandLineOption& option, const QCommandLineOption& other) {
        if (parser_.isSet(option) && !parser_.isSet(other)) add(option, QStringLiteral("needs ") + flagName(other));
    }
    // A value the window reads with `read` (nullopt: not of that form), else "wants FORM, got VALUE".
    template <class Read>
    void form(const QCommandLineOption& option, Read read, const QString& wanted) {
        if (parser_.isSet(option) && !read(parser_.value(option)))
            add(option, QStringLiteral("wants %1, got %2").arg(wanted, parser_.value(option)));
    }

private:
    const QCommandLineParser& parser_;
    QStringList& out_;
};

void checkNumbersAndChoices(Problems& p, const Options& o) {
    p.integer(o.step, 0, 100000);
    p.integer(o.beam, 1, 32);
    p.integer(o.hypothesis, 1, 32);
    p.number(o.length_penalty, -ui::kMaxLengthPenalty, ui::kMaxLengthPenalty);  // the beam view's box
    p.integer(o.head_importance, 1, 200000);
    p.oneOf(o.heads, {"cross", "encoder", "decoder"});
    p.oneOf(o.language, {"en", "zh_CN"});
    p.oneOf(o.theme, {"system", "light", "dark"});
    p.oneOf(o.train_kind, {"bahdanau", "luong", "transformer", "marian"});
    p.needs(o.hypothesis, o.beam);
    p.needs(o.length_penalty, o.beam);
    p.needs(o.head, o.heads);
    p.needs(o.contrast, o.step);
    p.form(o.force, forceAt, QStringLiteral("N:token (N from 1)"));
    p.form(o.size, windowSize, QStringLiteral("WIDTHxHEIGHT (e.g. 800x600)"));
    p.form(o.select, selectedCell, QStringLiteral("row,column (e.g. 2,3)"));
}

void checkParsedValues(Problems& p, const QCommandLineParser& parser, const Options& o) {
    for (const QCommandLineOption* option : {&o.head, &o.compare_head_a, &o.compare_head_b})
        p.parses(*option, [](const std::string& v) { parseHeadChoice(v); });
    Interventions iv;  // each value on its own: every one of the wrong form is named
    p.parses(o.knockout, [&](const std::string& v) { addKnockoutFlag(v, iv); });
    p.parses(o.attend, [&](const std::string& v) { addAttendFlag(v, iv); });
    p.parses(o.head_off, [&](const std::string& v) { addHeadOffFlag(v, iv); });
    p.parses(o.explain, [](const std::string& v) {
        if (!methodFromName(v)) throw std::invalid_argument("unknown method " + v);
    });
    if (const std::optional<QString> method = compareMethodName(parser.value(o.compare)))
        p.parses(o.compare, [&](const std::string&) {
            const std::optional<ExplainMethod> m = methodFromName(method->toStdString());
            if (!m || *m == ExplainMethod::Attention)
                throw std::invalid_argument("method:" + method->toStdString() + " is not an explanation method");
        });
    else
        p.file(o.compare);
    for (const QCommandLineOption* option : {&o.corpus, &o.train}) p.file(*option);
}

}  // namespace

Interventions interventionsOf(const QCommandLineParser& parser, const Options& o) {
    Interventions iv;
    for (const QString& v : parser.values(o.knockout)) addKnockoutFlag(v.toStdString(), iv);
    for (const QString& v : parser.values(o.attend)) addAttendFlag(v.toStdString(), iv);
    for (const QString& v : parser.values(o.head_off)) addHeadOffFlag(v.toStdString(), iv);
    return iv;
}

QStringList valueProblems(const QCommandLineParser& parser, const Options& options) {
    QStringList out;
    Problems p(parser, out);
    if (const qsizetype models = parser.positionalArguments().size(); models > 1)
        out << QStringLiteral("one model at most, got %1").arg(models);
    checkNumbersAndChoices(p, options);
    checkParsedValues(p, parser, options);
    return out;
}

QString interventionProblem(const QCommandLineParser& parser, const Options& o, const Model& model,
                            const QString& sentence) {
    Interventions iv;
    try {
        iv = interventionsOf(parser, o);
    } catch (const std::exception&) {
        return {};  // of the wrong form: valueProblems says so
    }
    if (iv.empty()) return {};
    try {
        const int S = int(tokenizeSource(model, sentence.toStdString()).ids.size());
        checkInterventions(model, iv, S, INT_MAX);  // attnviz-cli's check of the same flags
        if (const QString every = ui::knockoutProblem(iv, S); !every.isEmpty())
            return flagName(o.knockout) + ": " + every;  // the right-click menu's refusal
    } catch (const std::exception& e) {
        return ui::qs(errorMessage(e));
    }
    return {};
}

QString methodProblem(const QString& name, const Model& model) {
    try {
        parseMethodList(name.toStdString(), model.config);  // attnviz-cli's reading of --method
    } catch (const std::exception& e) {
        return ui::qs(errorMessage(e));
    }
    return {};
}

QStringList modelProblems(const QCommandLineParser& parser, const Options& o, const Model& model,
                          const QString& sentence) {
    QStringList out;
    Problems p(parser, out);
    if (const QString why = interventionProblem(parser, o, model, sentence); !why.isEmpty()) out << why;
    if (parser.isSet(o.explain) && methodFromName(parser.value(o.explain).toStdString()))
        if (const QString why = methodProblem(parser.value(o.explain), model); !why.isEmpty()) p.add(o.explain, why);
    if (const std::optional<QString> method = compareMethodName(parser.value(o.compare));
        method && methodFromName(method->toStdString()))
        if (const QString why = methodProblem(*method, model); !why.isEmpty()) p.add(o.compare, why);
    auto known = [&](const QCommandLineOption& option, const QString& token) {  // an output token
        if (!model.target_vocab.contains(token.toStdString()))
            p.add(option, QStringLiteral("%1 is not in the model's output vocabulary").arg(token));
    };
    if (parser.isSet(o.contrast)) known(o.contrast, parser.value(o.contrast));
    if (const std::optional<ForceAt> at = forceAt(parser.value(o.force)); parser.isSet(o.force) && at)
        known(o.force, at->token);
    return out;
}

int checkCommandLine(const QCommandLineParser& parser, const Options& o) {
    QStringList problems = valueProblems(parser, o);
    const QStringList args = parser.positionalArguments();
    if (!args.isEmpty()) {
        try {
            const Model model = loadModel(args.front().toStdString());
            const QString sentence = parser.isSet(o.sentence) ? parser.value(o.sentence) : ui::firstSentence(model);
            problems << modelProblems(parser, o, model, sentence);
            QString corpus_error;
            if (parser.isSet(o.corpus) && QFileInfo(parser.value(o.corpus)).isFile())
                if (ui::CorpusBrowser::readCorpusFile(parser.value(o.corpus), model, &corpus_error).examples.empty())
                    problems << flagName(o.corpus) + ": " + corpus_error;
        } catch (const std::exception& e) {
            problems << ui::qs(errorMessage(e));
        }
    }
    printProblems(problems);
    return problems.isEmpty() ? 0 : 1;
}

void printProblems(const QStringList& problems) {
    for (const QString& line : problems) std::fprintf(stderr, "attnviz: %s\n", printable(line.toStdString()).c_str());
}

}  // namespace attnviz::app
