// The window's command line checked in one place, for `attnviz --check` (no window: scripts/screenshot.sh --check
// tests the documented screenshots' commands this way) and for the window itself before it applies what the line
// asks. What a model and a sentence can take is checked by the checks attnviz-cli and the window's menus use: core's
// checkInterventions (--knockout, --attend, --head-off) and parseMethodList (--explain), the right-click menu's
// knockoutProblem (every word knocked out), the corpus browser's reader (--corpus). Each problem is one line,
// "--flag: what" or the engine's own message.
#pragma once
#include "gui_options.h"
#include "model/interventions.h"
#include "model/model.h"

#include <QStringList>

namespace attnviz::app {

// The form of every value, the rules between options, and the files that must exist: no model needed.
QStringList valueProblems(const QCommandLineParser& parser, const Options& options);

// The --knockout, --attend and --head-off of the line (core's parsers, as attnviz-cli's); throws InputError naming a
// value of the wrong form.
Interventions interventionsOf(const QCommandLineParser& parser, const Options& options);
// Why `model` cannot take the --knockout, --attend and --head-off of the line for `sentence` ("" when it can, or when
// none is given, or their form is wrong: valueProblems names that).
QString interventionProblem(const QCommandLineParser& parser, const Options& options, const Model& model,
                            const QString& sentence);
// Why `model` has no explanation method `name` (attnviz-cli's reason, e.g. rollout of an RNN model); "" when it has.
QString methodProblem(const QString& name, const Model& model);
// What `model` and `sentence` (the one the window decodes first) cannot take: the interventions, the --explain and
// --compare method:NAME methods, the --contrast and --force tokens (its output vocabulary).
QStringList modelProblems(const QCommandLineParser& parser, const Options& options, const Model& model,
                          const QString& sentence);

// --check: valueProblems, then with a MODEL its modelProblems for --sentence (else the sentence it opens with) and
// the --corpus read with it. Each problem on stderr (printProblems); the exit status, 0 or 1.
int checkCommandLine(const QCommandLineParser& parser, const Options& options);

// Each line on stderr as "attnviz: LINE", escaped as all text from files and command lines on its way to a terminal.
void printProblems(const QStringList& problems);

}  // namespace attnviz::app
