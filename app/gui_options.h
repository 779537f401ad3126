// The desktop app's command line: its options (QCommandLineParser) and how the window reads their values (gui_check.h
// checks them, for `--check` and for the window alike).
#pragma once
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QPoint>
#include <QSize>

#include <optional>

namespace attnviz::app {

struct Options {
    QCommandLineOption sentence{{QStringLiteral("s"), QStringLiteral("sentence")},
                                QStringLiteral("Decode this sentence first."),
                                QStringLiteral("text")};
    QCommandLineOption step{QStringLiteral("step"), QStringLiteral("Show the decoder at this step (default: the end)."),
                            QStringLiteral("n")};
    QCommandLineOption select{QStringLiteral("select"),
                              QStringLiteral("Inspect this heatmap cell (row,column from 0) after the first decode."),
                              QStringLiteral("row,col")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Save the window to this PNG after the first decode, then quit."),
                                  QStringLiteral("file")};
    QCommandLineOption compare{QStringLiteral("compare"),
                               QStringLiteral("Show the compare view with this model as B (same vocabularies), or "
                                              "with method:NAME one of the model's explanation methods as B."),
                               QStringLiteral("model")};
    QCommandLineOption compare_head_a{QStringLiteral("compare-head-a"),
                                      QStringLiteral("In the compare view, compare this cross-attention layer and "
                                                     "head of a Transformer A (from 1; \"mean\": the layer's mean)."),
                                      QStringLiteral("layer,head")};
    QCommandLineOption compare_head_b{QStringLiteral("compare-head-b"), QStringLiteral("The same for B."),
                                      QStringLiteral("layer,head")};
    QCommandLineOption language{QStringLiteral("language"),
                                QStringLiteral("Use this language now (en, zh_CN), not the saved or system one."),
                                QStringLiteral("code")};
    QCommandLineOption theme{QStringLiteral("theme"),
                             QStringLiteral("Use this theme now (system, light, dark), not the saved one."),
                             QStringLiteral("name")};
    QCommandLineOption coverage{QStringLiteral("coverage"),
                                QStringLiteral("Turn View > Coverage and entropy on (the heatmap's diagnostics).")};
    QCommandLineOption words{
        QStringLiteral("words"),
        QStringLiteral("Turn View > Words on (a SentencePiece model's pieces merged into words).")};
    QCommandLineOption size{QStringLiteral("size"),
                            QStringLiteral("Open the window at this size in pixels (e.g. 800x600), not the saved one."),
                            QStringLiteral("WxH")};
    QCommandLineOption beam{QStringLiteral("beam"), QStringLiteral("Show the beam search with this width (1 to 32)."),
                            QStringLiteral("k")};
    QCommandLineOption length_penalty{
        QStringLiteral("length-penalty"),
        QStringLiteral("With --beam: rank the finished hypotheses by total log p / length^A (-3 to 3, rounded to "
                       "tenths as the beam view's box), as attnviz-cli decode --length-penalty; 0 by the total."),
        QStringLiteral("A")};
    QCommandLineOption corpus{QStringLiteral("corpus"),
                              QStringLiteral("Open this TSV corpus (source<TAB>reference[<TAB>gold links]) in the "
                                             "corpus browser; with --screenshot, its first line is shown once scored."),
                              QStringLiteral("file")};
    QCommandLineOption reference{QStringLiteral("reference"),
                                 QStringLiteral("Force the model onto this reference translation."),
                                 QStringLiteral("text")};
    QCommandLineOption gold{QStringLiteral("gold"),
                            QStringLiteral("Gold links of the reference (Pharaoh: i-j sure, i?j possible)."),
                            QStringLiteral("links")};
    QCommandLineOption heads{QStringLiteral("heads"),
                             QStringLiteral("Show the attention heads of a Transformer: cross, encoder or decoder "
                                            "(self-attention)."),
                             QStringLiteral("kind")};
    QCommandLineOption head{QStringLiteral("head"),
                            QStringLiteral("Show this layer and head (from 1; \"mean\" for the mean of the heads) of "
                                           "the --heads attention in the heatmap."),
                            QStringLiteral("layer,head")};
    QCommandLineOption knockout{QStringLiteral("knockout"),
                                QStringLiteral("Knock out these source positions (0-based, <sos> = 0), as attnviz-cli "
                                               "decode --knockout."),
                                QStringLiteral("J[,J...]")};
    QCommandLineOption attend{QStringLiteral("attend"),
                              QStringLiteral("RNN models: row T attends only to source position J (0-based; "
                                             "repeatable), as attnviz-cli decode --attend."),
                              QStringLiteral("T:J")};
    QCommandLineOption head_off{QStringLiteral("head-off"),
                                QStringLiteral("Transformer: turn off head H of layer L of cross, encoder or decoder "
                                               "attention (0-based; repeatable), as attnviz-cli decode --head-off."),
                                QStringLiteral("KIND:L,H")};
    QCommandLineOption hypothesis{QStringLiteral("hypothesis"),
                                  QStringLiteral("With --beam: show the n-th best finished hypothesis (from 1) of the "
                                                 "first search, in the heatmap and the head grid."),
                                  QStringLiteral("n")};
    QCommandLineOption explain{QStringLiteral("explain"),
                               QStringLiteral("Explain by this method (attention, norm, grad_input, grad_norm, ig, "
                                              "occlusion, rollout); with --screenshot, saved once it is shown."),
                               QStringLiteral("method")};
    QCommandLineOption contrast{QStringLiteral("contrast"),
                                QStringLiteral("With --step N: why the token of step N and not this output token (as "
                                               "a right-click on a candidate of the step panel asks); with "
                                               "--screenshot, saved once it is shown."),
                                QStringLiteral("token")};
    QCommandLineOption force{QStringLiteral("force"),
                             QStringLiteral("What if?: force this output token at step N (from 1) of the first decode "
                                            "and decode on from it, as a click on a candidate does; with --screenshot, "
                                            "saved once that decode is shown."),
                             QStringLiteral("N:token")};
    QCommandLineOption explain_scores{QStringLiteral("explain-scores"),
                                      QStringLiteral("Show View > Which explanation is right? (with --reference and "
                                                     "--gold: every method's AER and AOPC); with --screenshot, saved "
                                                     "once measured.")};
    QCommandLineOption head_importance{
        QStringLiteral("head-importance"),
        QStringLiteral("Show the head importance of a Transformer computed on the first n lines of the open corpus "
                       "(or the model's sample test split); with --screenshot, saved once it is shown."),
        QStringLiteral("n")};
    QCommandLineOption train{QStringLiteral("train"),
                             QStringLiteral("Open the training window on this corpus (TSV) and start training."),
                             QStringLiteral("corpus")};
    QCommandLineOption check{QStringLiteral("check"),
                             QStringLiteral("Check the command line (the files, the model, every value) without "
                                            "opening a window: exit 0 when it would run, 1 naming what is wrong.")};
    QCommandLineOption train_kind{
        QStringLiteral("train-kind"),
        QStringLiteral("With --train: the model kind (bahdanau, luong, transformer, marian), with the "
                       "corpus's defaults for it."),
        QStringLiteral("kind")};
};

void setUpParser(QCommandLineParser& parser, const Options& options);

// How the window reads a value, and --check with it: nullopt when the value is not of that form.
// --force "N:token": step N (from 1) and the token.
struct ForceAt {
    int step = 0;
    QString token;
};
std::optional<ForceAt> forceAt(const QString& value);
// The NAME of a --compare value "method:NAME" (B is an explanation method of the model), or nullopt (B is a file).
std::optional<QString> compareMethodName(const QString& value);
// --size "WIDTHxHEIGHT", each 1 to 20000.
std::optional<QSize> windowSize(const QString& value);
// --select "row,column", each 0 to 100000.
std::optional<QPoint> selectedCell(const QString& value);  // x: the column, y: the row
// An integer from `least` to `most`.
std::optional<int> integerIn(const QString& value, int least, int most);
// A decimal number from `least` to `most`, else nullopt.
std::optional<double> numberIn(const QString& value, double least, double most);

// "--name", the option's long name as the user types it (for messages).
QString flagName(const QCommandLineOption& option);

}  // namespace attnviz::app
