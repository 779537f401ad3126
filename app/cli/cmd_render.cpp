// attnviz-cli render --model MODEL --out FILE [options] SENTENCE: writes the heatmap the GUI shows (PNG, SVG, PDF)
// or its numbers (CSV, JSON), chosen by FILE's extension; --input FILE --out-dir DIR --format EXT renders every
// line of FILE to DIR/0001.EXT, DIR/0002.EXT, ... With --with B, the comparison: A, B forced onto A's target and
// B − A side by side, or the distances as numbers. With --method NAME, an explanation method's matrix
// (docs/explain.md) instead of the attention. Runs headless: without a display it uses Qt's offscreen platform.
#include "commands.h"
#include "decode_request.h"

#ifdef ATTNVIZ_HAVE_RENDER
#include "base/errors.h"
#include "base/utf8.h"
#include "command_run.h"
#include "decode/decoding.h"
#include "eval/compare.h"
#include "eval/compare_heads.h"
#include "explain/explanation.h"
#include "explain/word_explanation.h"
#include "explain_run.h"
#include "heatmap/colormaps.h"
#include "heatmap/comparison_export.h"
#include "heatmap/explanation_data.h"
#include "heatmap/heatmap_export.h"
#include "heatmap/utf8_text.h"
#include "input_bounds.h"
#include "io/model_file.h"
#include "model_flags.h"
#include "text/tokenizer.h"

#include <QApplication>
#include <QDir>
#include <cstdio>
#include <memory>
#include <optional>

namespace attnviz::cli {
namespace {

// QCustomPlot is a QWidget: a QApplication must exist. Without a display (no DISPLAY / WAYLAND_DISPLAY and no
// QT_QPA_PLATFORM chosen by the user) Qt would abort, so the offscreen platform is chosen first. The application
// belongs to the caller's scope and ends before `exit`. Its destructor runs Qt's post routines (qAddPostRoutine),
// among them Qt Gui's clearing of its cache of pattern-brush images, a global static made when a knocked-out column
// is first hatched: as a static itself, the application was destroyed among the exit handlers after that cache (made
// later, destroyed first), the routine read the destroyed cache, and the process ended in a segfault (139) after
// every file had been written.
std::unique_ptr<QApplication> makeApplication() {
    if (QCoreApplication::instance()) return nullptr;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt's own chatter ("XDG_RUNTIME_DIR not set ...") would break the one-line-on-stderr rule; keep only the
    // critical messages, or everything with ATTNVIZ_QT_DEBUG set.
    if (qEnvironmentVariableIsEmpty("ATTNVIZ_QT_DEBUG"))
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& msg) {
            if (type == QtCriticalMsg || type == QtFatalMsg)
                std::fprintf(stderr, "%s\n", printable(msg.toStdString()).c_str());
        });
    static int argc = 1;  // QApplication keeps references to both: they outlive it
    static char name[] = "attnviz-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QApplication>(argc, argv);
}

struct RenderSettings {
    int beam = 1;
    int max_len = 0;
    int max_source_len = kMaxSourceTokens;
    ui::ExportOptions exp;
    ExplainMethod method = ExplainMethod::Attention;  // --method
    ExplainOptions explain;                           // --ig-steps
    double max_work = kDefaultMaxExplainWork;         // --max-work
    Interventions interventions;          // --knockout, --attend, --head-off: of the rendered model, not of --with's
    MergeSides merge = MergeSides::None;  // --merge: a SentencePiece model's pieces drawn as words
};

DecodeResult decodeOne(const Model& model, const std::string& source, const std::string* reference,
                       const RenderSettings& s, const std::string& where) {
    TokenizedText src;
    try {
        src = tokenizeSource(model, source);
    } catch (const InputError& e) {
        throw InputError(where + ": " + e.what());
    }
    checkSourceLength(src, s.max_source_len, where);
    if (where == "SENTENCE") warnIfEmptySentence(src, "render");
    if (reference) {
        TokenizedText ref;
        try {
            ref = tokenizeTarget(model, *reference);
        } catch (const InputError& e) {
            throw InputError((where == "SENTENCE" ? std::string("--target") : where) + ": " + e.what());
        }
        checkReferenceLength(ref, s.max_source_len, where == "SENTENCE" ? std::string("--target") : where);
        DecodeOptions o;
        o.interventions = s.interventions;
        return forcedDecode(model, src, ref, o);
    }
    checkDecodeSize(model, src, s.beam, s.max_len, where);
    DecodeOptions o;
    o.max_len = s.max_len;
    o.interventions = s.interventions;
    if (s.beam > 1) return beamSearch(model, src, s.beam, o).best;
    return greedyDecode(model, src, o);
}

// The second model of --with and its name in the figure's titles and the JSON (the path as given).
struct CompareWith {
    const Model* model = nullptr;
    QString a_name, b_name;
    AttentionView head_a, head_b;  // --head-a / --head-b: which cross-attention each side compares
};

// `r` alone (its attention, or the --method's matrix on the diverging or fitted scale the window uses), or with
// `with.model` set the comparison: that model forced onto r's target (as `compare` does).
void writeOne(const DecodeResult& r, const Model& model, const QString& path, const RenderSettings& s,
              const CompareWith& with, const std::string& where, const GoldAlignment* gold = nullptr) {
    const ui::ExportOptions& options = s.exp;
    QString error;
    bool ok = false;
    if (with.model) {
        ui::ModelComparison c;
        c.a = mergeWords(withComparedAttention(r, with.head_a), s.merge);
        c.b = mergeWords(withComparedAttention(forcedDecode(*with.model, TokenizedText{r.source_tokens, r.source_ids},
                                                            TokenizedText{r.target_tokens, r.target_ids}),
                                               with.head_b),
                         s.merge);
        c.a_view = with.head_a;
        c.b_view = with.head_b;
        c.a_name = with.a_name;
        c.b_name = with.b_name;
        if (gold) c.gold = *gold;
        ui::ExportOptions compared = options;  // B is not intervened: no marks on its panel or the difference
        compared.style.interventions = {};
        ok = ui::exportComparison(c, path, compared, &error);
    } else if (s.method != ExplainMethod::Attention) {
        const Explanation e =
            mergeExplanation(r, explainForCli(model, r, s.method, s.explain, s.max_work, where, "render"), s.merge);
        const DecodeResult shown = mergeWords(r, s.merge);
        ui::ExportOptions drawn = options;
        drawn.style = ui::explanationStyle(options.style, &e);
        ok = ui::exportExplanation(ui::explanationData(shown, e), shown, e, model, path, drawn, &error);
    } else {
        const DecodeResult shown = mergeWords(r, s.merge);
        ok = ui::exportHeatmap(ui::HeatmapData::fromDecode(shown), shown, model.config, path, options, &error);
    }
    if (!ok) throw std::runtime_error(error.toStdString());
    // The path as the user typed it may hold a terminal escape: escaped as every other text that reaches a terminal.
    std::printf("%s\n", printable(QDir::toNativeSeparators(path).toStdString()).c_str());
}

// --method NAME: one method the model's kind has (UsageError otherwise, naming why).
ExplainMethod renderMethod(const std::string& name, const ModelConfig& config) {
    std::vector<ExplainMethod> methods;
    try {
        methods = parseMethodList(name, config);
    } catch (const InputError& error) {
        throw UsageError(std::string("--method: ") + error.what());
    }
    if (methods.size() != 1) throw UsageError("--method takes one method name, not \"" + name + "\"");
    return methods.front();
}

// Everything `render` was asked for.
struct RenderArgs {
    std::string model_path, with_path, out, target, input, out_dir, format, score, colormap = "viridis", title;
    std::string head_a, head_b, method = "attention";
    RenderSettings s;
    bool annotate = false, hide_specials = false, fit_range = false, diagnostics = false;
    bool batch = false, has_target = false;
    std::vector<std::string> words;
};

void addRenderOptions(ArgParser& p, RenderArgs& a) {
    std::vector<std::string> colormaps, formats;
    for (const QString& n : ui::colormapNames()) colormaps.push_back(n.toStdString());
    for (const QString& f : ui::exportFormats()) formats.push_back(f.toStdString());
    RenderSettings& s = a.s;
    p.option("--model", &a.model_path, "MODEL", "the model file (.safetensors)").required();
    p.option("--out", &a.out, "FILE", "the file to write: .png .svg .pdf .csv or .json");
    p.option("--target", &a.target, "TEXT", "forced decoding on this reference translation (<eos> is appended)");
    p.option("--with", &a.with_path, "B",
             "compare with model B (same vocabularies, e.g. a sibling) forced onto the same target: images show "
             "A, B and B - A side by side; .csv/.json hold the distances per row, as `compare` computes them");
    p.option("--head-a", &a.head_a, "L,H",
             "with --with: compare a Transformer's cross-attention of layer L, head H (from 1; L,mean), as `compare`");
    p.option("--head-b", &a.head_b, "L,H", "the same for B");
    p.option("--method", &a.method, "NAME",
             "draw this explanation method's matrix instead of the attention (docs/explain.md: attention, norm, "
             "grad_input, grad_norm, ig, occlusion, rollout): signed methods on a diverging map centred on 0 with "
             "symmetric limits, the others on a scale fitted to their values; .csv/.json hold its numbers");
    p.option("--ig-steps", &s.explain.ig_steps, "M", "with --method ig: the integrated gradients' steps (default 32)",
             1, kMaxIgSteps);
    addMaxWorkOption(p, &s.max_work);
    p.option("--beam", &s.beam, "K", "beam search of width K (default 1 = greedy)", 1, 1000);
    p.option("--max-len", &s.max_len, "N", "at most N target tokens, <eos> included (default 2*S+10)", 1, 1000000);
    p.choice("--score", &a.score, scoreChoices(), "use the sibling model trained with this score");
    p.option("--max-source-len", &s.max_source_len, "N",
             "refuse sources of more than N tokens (default 1000); references may have 2*N+10", 1, kMaxSourceLenLimit);
    p.option("--width", &s.exp.width, "PX", "image width in pixels (default 1600)", 16, 20000);
    p.option("--height", &s.exp.height, "PX", "image height in pixels (default 1200)", 16, 20000);
    p.option("--dpi", &s.exp.dpi, "DPI", "resolution: text size and the PDF/SVG page size follow it (default 144)", 10,
             2400);
    p.choice("--colormap", &a.colormap, colormaps,
             "colour map (default viridis; cividis is colour-blind safe, gray "
             "is black = 0 / white = 1, greys the reverse for print)");
    p.flag("--annotate", &a.annotate, "write the weight (2 decimals) in each cell");
    p.option("--title", &a.title, "TEXT", "a title above the matrix");
    p.flag("--hide-specials", &a.hide_specials, "leave out the <sos>/<eos> columns and the <eos> row (images only)");
    p.flag("--fit-range", &a.fit_range, "colours span 0 to the largest weight instead of 0 to 1");
    p.flag("--diagnostics", &a.diagnostics,
           "draw the coverage row under the matrix and each row's entropy at its right (docs/diagnostics.md)");
    p.option("--input", &a.input, "FILE",
             "render every line of FILE (- for standard input; `source` or `source<TAB>reference`)");
    p.option("--out-dir", &a.out_dir, "DIR",
             "with --input: the folder for 0001.EXT, 0002.EXT, ... (created if missing)");
    p.choice("--format", &a.format, formats, "with --input: the format of every file (default png)");
    addInterventionOptions(p, s.interventions);
    addMergeOption(p, s.merge);
    p.positionals(&a.words, "SENTENCE", "the source sentence (several arguments are joined with spaces)");
}

// The options that go together, and the format of the output (UsageError otherwise).
void checkRenderUsage(const ArgParser& p, RenderArgs& a) {
    if (p.seen("--method") && p.seen("--with"))
        throw UsageError("--method draws one model's explanation; --with compares two models' attention: use one");
    if (p.seen("--target") && p.seen("--beam"))
        throw UsageError("--beam and --target cannot be used together (forced decoding does not search)");
    if (p.seen("--ig-steps") && a.method != "ig")
        throw UsageError("--ig-steps is integrated gradients' (--method ig), not " + a.method + "'s");
    const Interventions& iv = a.s.interventions;
    if ((mergesSource(a.s.merge) && !iv.knockout.empty()) || (a.s.merge != MergeSides::None && !iv.attend.empty()))
        throw UsageError("--knockout and --attend mark cells of pieces: they cannot be drawn on words (--merge)");
    if (p.seen("--max-work") && a.method == "attention")
        throw UsageError("--max-work bounds an explanation method (--method NAME): the attention needs none");
    if (a.batch) {
        if (!a.words.empty()) throw UsageError("give either SENTENCE or --input FILE, not both");
        if (p.seen("--out"))
            throw UsageError("--out names one file; with --input use --out-dir DIR (and --format EXT)");
        if (!p.seen("--out-dir")) throw UsageError("--input needs --out-dir DIR");
        if (p.seen("--target"))
            throw UsageError("--target cannot be used with --input (put the reference after a tab on each line)");
        a.s.exp.format = a.format.empty() ? QStringLiteral("png") : ui::qs(a.format);
        return;
    }
    if (p.seen("--out-dir")) throw UsageError("--out-dir is for --input; for one sentence use --out FILE");
    if (!p.seen("--out")) throw UsageError("missing required option --out FILE");
    if (a.words.empty()) throw UsageError("missing SENTENCE (or --input FILE)");
    // The extension says the format; --format may name it for a file without a known extension, and must agree
    // with a known one (f.png holding SVG would mislead every program that opens it).
    const QString from_extension = ui::exportFormatFor(ui::qs(a.out), {});
    if (!a.format.empty() && !from_extension.isEmpty() && from_extension != ui::qs(a.format))
        throw UsageError("--format " + a.format + " does not match --out \"" + a.out + "\" (a ." +
                         from_extension.toStdString() + " file): change one of them");
    a.s.exp.format = ui::qs(a.format);
    if (ui::exportFormatFor(ui::qs(a.out), a.s.exp).isEmpty())
        throw UsageError("--out: cannot tell the format of \"" + a.out +
                         "\" (use a .png, .svg, .pdf, .csv or .json file, or --format)");
}

// False when --help was printed.
bool parseRenderArgs(const std::vector<std::string>& args, RenderArgs& a) {
    ArgParser p("render", "--model MODEL --out FILE [options] SENTENCE",
                "Write the attention heatmap the GUI shows, chosen by FILE's extension: .png (exactly --width x\n"
                "--height pixels, DPI in the metadata), .svg and .pdf (vector, text as text; the page is\n"
                "width/dpi x height/dpi inches), .csv (the attention matrix) or .json (the decode object).\n"
                "Colours span weights 0 to 1 (fixed, so figures compare across models) unless --fit-range.\n"
                "With --input FILE --out-dir DIR [--format EXT], every non-blank line of FILE (`source` or\n"
                "`source<TAB>reference`, forced) is written to DIR/0001.EXT, DIR/0002.EXT, ... in order.\n"
                "With --with B, the comparison: B is forced onto the model's target and the image shows A, B and\n"
                "B - A (a diverging scale centred on 0) side by side; .csv has one line of distances per target\n"
                "token (TV, JS, argmaxes, entropies) and .json the comparison with the same summary as `compare`.\n"
                "With --method NAME, an explanation method's matrix instead of the attention (signed methods on a\n"
                "diverging map centred on 0); .csv holds its matrix and .json the decode with \"explanations\".\n"
                "Files are written atomically; the path of each file written is printed on stdout.");
    addRenderOptions(p, a);
    if (!p.parse(args)) return false;
    a.batch = p.seen("--input");
    a.has_target = p.seen("--target");
    checkRenderUsage(p, a);
    a.s.exp.style.colormap = ui::qs(a.colormap);
    a.s.exp.style.annotate = a.annotate;
    a.s.exp.style.hide_specials = a.hide_specials;
    a.s.exp.style.fit_range = a.fit_range;
    a.s.exp.style.diagnostics = a.diagnostics;
    a.s.exp.style.title = ui::qs(a.title);
    a.s.explain.interventions = a.s.interventions;    // a method explains the intervened model
    a.s.exp.interventions = a.s.interventions;        // the JSON's "interventions", the CSV header, the title
    a.s.exp.style.interventions = a.s.interventions;  // the struck-through columns and attended cells
    return true;
}

// Every line of --input to DIR/0001.EXT, ...; a file that cannot be written (a full disk) is reported and the others
// are still tried, then the command fails.
void renderBatch(const Model& model, const RenderArgs& a, const CompareWith& with,
                 const std::vector<NamedInput>& inputs) {
    const Corpus corpus = readInputLines(a.input);
    const std::string& input = corpus.name;  // "<stdin>" for --input -
    const QDir dir(ui::qs(a.out_dir));
    createFolders(a.out_dir);
    // DIR/0001.EXT, ...: every name is checked before the first file is written.
    std::vector<QString> paths;
    for (size_t i = 1; i <= corpus.examples.size(); ++i) {
        paths.push_back(dir.filePath(QStringLiteral("%1.%2").arg(i, 4, 10, QLatin1Char('0')).arg(a.s.exp.format)));
        refuseOverwritingInput(paths.back().toStdString(), inputs);
    }
    int index = 0, failed = 0;
    for (const CorpusExample& ex : corpus.examples) {
        ++index;
        const std::string where = input + ":" + std::to_string(ex.line);
        DecodeResult r;
        try {
            r = decodeOne(model, ex.source, ex.has_target ? &ex.target : nullptr, a.s, where);
        } catch (const std::exception& e) {
            throw InputError(atLine(input, ex.line, e));
        }
        try {
            const bool gold = with.model && ex.has_target && ex.has_alignment;
            writeOne(r, model, paths[size_t(index) - 1], a.s, with, where, gold ? &ex.alignment : nullptr);
        } catch (const std::exception& e) {
            fail("render", e.what());
            ++failed;
        }
    }
    if (failed > 0)
        throw std::runtime_error(std::to_string(failed) + " of " + std::to_string(index) +
                                 " files could not be written (see above)");
    if (corpus.examples.empty()) warn("render", input + ": no lines to render (the file is empty or blank)");
}

}  // namespace

int runRender(const std::vector<std::string>& args) {
    return runCommand("render", [&] {
        RenderArgs a;
        if (!parseRenderArgs(args, a)) return 0;
        std::optional<ScoreKind> score_kind;
        if (!a.score.empty()) score_kind = parseScoreKind(a.score);
        const LoadedModel loaded = loadModelForCli(a.model_path, score_kind);
        const Model& model = *loaded.model;
        a.s.method = renderMethod(a.method, model.config);
        checkInterventionKinds(model, a.s.interventions);  // before the first line: the error names no line
        std::optional<LoadedModel> other;
        CompareWith with;
        if (!a.with_path.empty()) {
            other = loadModelForCli(a.with_path);
            if (const std::string what = comparabilityProblem(model, *other->model); !what.empty())
                throw ModelError(loaded.path + " and " + a.with_path + " cannot be compared: " + what +
                                 "; --with needs two models with the same vocabularies and tokenizers (siblings)");
            with.model = other->model.get();
            with.a_name = ui::qs(loaded.path);
            with.b_name = ui::qs(a.with_path);
            if (!a.head_a.empty()) with.head_a = headChoiceOption("--head-a", a.head_a);
            if (!a.head_b.empty()) with.head_b = headChoiceOption("--head-b", a.head_b);
            checkHeadChoice("--head-a", with.head_a, model, "A", loaded.path);
            checkHeadChoice("--head-b", with.head_b, *other->model, "B", a.with_path);
        } else if (!a.head_a.empty() || !a.head_b.empty()) {
            throw UsageError("--head-a and --head-b need --with B");
        }
        // What this run reads, never to be written over (the sibling --score loaded too).
        const std::vector<NamedInput> inputs = {
            {"--model", a.model_path}, {"--model", loaded.path}, {"--with", a.with_path}, {"--input", a.input}};
        if (!a.batch) refuseOverwritingInput(a.out, inputs);
        const std::unique_ptr<QApplication> app = makeApplication();  // every figure is drawn and freed under it
        if (a.batch) {
            renderBatch(model, a, with, inputs);
            return 0;
        }
        std::string sentence;
        for (const std::string& w : a.words) sentence += (sentence.empty() ? "" : " ") + w;
        const DecodeResult r = decodeOne(model, sentence, a.has_target ? &a.target : nullptr, a.s, "SENTENCE");
        warnUnreachedAttends("render", a.s.interventions, r.target_ids.size(), "");
        writeOne(r, model, ui::qs(a.out), a.s, with, "SENTENCE");
        return 0;
    });
}

}  // namespace attnviz::cli

#else  // built without the GUI libraries (ATTNVIZ_BUILD_GUI=OFF)

#include <cstdio>

namespace attnviz::cli {

int runRender(const std::vector<std::string>&) {
    std::fprintf(stderr, "attnviz-cli render: this build has no renderer (configure with -DATTNVIZ_BUILD_GUI=ON)\n");
    return 1;
}

}  // namespace attnviz::cli
#endif
