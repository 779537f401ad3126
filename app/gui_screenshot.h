// What attnviz's command line asks of the window once it shows a decode: a cell inspected (--select), a token forced
// (--force), a contrast explained (--contrast), a step shown (--step), and --screenshot: the window saved once what
// the line asked for is on screen (the first decode, the forced decode, the method's matrix, the corpus's first line,
// head importance...), then the program ends (0 when it was shown, 1 when nothing came within the time allowed).
#pragma once
#include "gui_options.h"

namespace attnviz::ui {
class MainWindow;
}

namespace attnviz::app {

class StartupReport;

void scheduleStartupActions(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                            StartupReport& report);

}  // namespace attnviz::app
