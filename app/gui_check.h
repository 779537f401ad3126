// The window's command line checked in one place, for `attnviz --check` (no window: scripts/screenshot.sh --check
// tests the documented screenshots' commands this way) and for the window itself before it applies what the line
// asks; a --corpus is read as the corpus browser reads it. Each problem is one line, "--flag: what" or the engine's
// own message.
#pragma once
#include "gui_options.h"
#include "model/model.h"

#include <QStringList>

namespace attnviz::app {

// The form of every value, the rules between options, and the files that must exist: no model needed.
QStringList valueProblems(const QCommandLineParser& parser, const Options& options);

// What `model` cannot take: the --contrast and --force tokens (its output vocabulary).
QStringList modelProblems(const QCommandLineParser& parser, const Options& options, const Model& model);

// --check: valueProblems, then with a MODEL its modelProblems and the --corpus read with it. Each problem on stderr (printProblems); the exit status, 0 or 1.
int checkCommandLine(const QCommandLineParser& parser, const Options& options);

// Each line on stderr as "attnviz: LINE", escaped as all text from files and command lines on its way to a terminal.
void printProblems(const QStringList& problems);

}  // namespace attnviz::app
