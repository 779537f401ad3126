// exportHeatmap: every format writes a valid file of the asked size (PNG pixels + DPI, SVG viewBox and size, PDF page
// box), CSV/JSON read back to the engine's numbers, failures name the path and leave nothing behind.
#include "decode/decoding.h"
#include "heatmap/colormaps.h"
#include "heatmap/fitted_title.h"
#include "heatmap/heatmap_export.h"
#include "heatmap/heatmap_fonts.h"
#include "heatmap/heatmap_renderer.h"
#include "heatmap/heatmap_scene.h"
#include "io/decode_json.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <unistd.h>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <cmath>

using namespace attnviz;
using attnviz::testing::csvFields;
using namespace attnviz::ui;

using attnviz::testing::readFile;
using attnviz::testing::writeFile;

namespace {

const Model& exportModel() {
    // Never destroyed: see test_heatmap_view.cpp (Eigen buffers freed across the -march=native boundary).
    static const Model* m =
        new Model(testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 11, 3.0f));
    return *m;
}

DecodeResult chineseResult() { return forcedDecode(exportModel(), "the cat sat on the mat .", "猫 坐 在 垫子 上 。"); }

// Parses a CSV line with RFC 4180 quoting.
ExportOptions sized(int width, int height, double dpi) {
    ExportOptions o;
    o.width = width;
    o.height = height;
    o.dpi = dpi;
    return o;
}

}  // namespace

class TestHeatmapExport : public QObject {
    Q_OBJECT
private slots:
    void pngHasTheAskedSizeAndDpi_data();
    void pngHasTheAskedSizeAndDpi();
    void svgHasTheAskedSizeAndTextAsText();
    void aLongTitleIsShortenedInTheMiddle();
    void aTitleALittleTooWideIsDrawnSmaller();
    void pdfHasTheAskedPageSize_data();
    void pdfHasTheAskedPageSize();
    void csvReadsBackToTheWeights();
    void jsonReadsBackToTheDecodeObject();
    void formatFromExtensionOrOption_data();
    void formatFromExtensionOrOption();
    void unwritableTargetFailsNamingThePath_data();
    void unwritableTargetFailsNamingThePath();
    void badSizesAreRejected();
    void rendererShowsTheWholeMatrixWithAllLabels();
    void higherDpiGivesLargerText();
};

void TestHeatmapExport::pngHasTheAskedSizeAndDpi_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<double>("dpi");
    QTest::addColumn<bool>("annotate");
    QTest::newRow("default 1600x1200 @144") << 1600 << 1200 << 144.0 << false;
    QTest::newRow("odd size 777x333 @96, annotated") << 777 << 333 << 96.0 << true;
    QTest::newRow("print 2400x1800 @300") << 2400 << 1800 << 300.0 << false;
    QTest::newRow("tiny 64x48 @72") << 64 << 48 << 72.0 << true;
}

void TestHeatmapExport::pngHasTheAskedSizeAndDpi() {
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(double, dpi);
    QFETCH(bool, annotate);
    QTemporaryDir dir;
    const QString path = dir.filePath("h.png");
    const DecodeResult r = chineseResult();
    ExportOptions o = sized(width, height, dpi);
    o.style.annotate = annotate;
    QString error;
    QVERIFY2(exportHeatmap(HeatmapData::fromDecode(r), r, exportModel().config, path, o, &error), qPrintable(error));
    const QByteArray bytes = readFile(path);
    QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n"));
    QImage img;
    QVERIFY(img.load(path));
    QCOMPARE(img.size(), QSize(width, height));
    QCOMPARE(img.dotsPerMeterX(), int(std::lround(dpi / 0.0254)));
    QCOMPARE(img.dotsPerMeterY(), int(std::lround(dpi / 0.0254)));
    // Not blank: the matrix is drawn (many distinct colours).
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3) colours.insert(img.pixel(x, y));
    QVERIFY2(colours.size() > 10, qPrintable(QString::number(colours.size())));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"h.png"});  // no temp file left
}

void TestHeatmapExport::svgHasTheAskedSizeAndTextAsText() {
    QTemporaryDir dir;
    const QString path = dir.filePath("h.svg");
    const DecodeResult r = chineseResult();
    ExportOptions o = sized(1200, 900, 150);
    o.style.title = "cat & mat";
    QString error;
    QVERIFY2(exportHeatmap(HeatmapData::fromDecode(r), r, exportModel().config, path, o, &error), qPrintable(error));
    QXmlStreamReader xml(readFile(path));
    QString viewBox, width, height, text;
    QStringList fills;  // the fill of the group around each <rect>
    QString fill;
    int images = 0;
    bool fallbacks = true;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("svg")) {
            viewBox = xml.attributes().value("viewBox").toString();
            width = xml.attributes().value("width").toString();
            height = xml.attributes().value("height").toString();
        } else if (xml.isStartElement() && xml.name() == QLatin1String("g")) {
            fill = xml.attributes().value("fill").toString();
            if (xml.attributes().hasAttribute("font-family"))
                fallbacks &= xml.attributes().value("font-family").contains(QLatin1String("'Noto Sans CJK SC'"));
        } else if (xml.isStartElement() && xml.name() == QLatin1String("rect")) {
            fills << fill.toLower();
        } else if (xml.isStartElement() && xml.name() == QLatin1String("image")) {
            ++images;
        } else if (xml.isCharacters()) {
            text += xml.text();
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(viewBox.split(' ', Qt::SkipEmptyParts), (QStringList{"0", "0", "1200", "900"}));
    // Physical size = pixels / dpi: 8 x 6 inches = 203.2 x 152.4 mm.
    QVERIFY2(width.endsWith("mm") && std::abs(width.chopped(2).toDouble() - 203.2) < 0.6, qPrintable(width));
    QVERIFY2(height.endsWith("mm") && std::abs(height.chopped(2).toDouble() - 152.4) < 0.6, qPrintable(height));
    // Text as text: the tokens and the title are in the document, not paths.
    for (const char* t : {"垫子", "mat", "<eos>", "cat & mat", "attention weight"})
        QVERIFY2(text.contains(QString::fromUtf8(t)), t);
    // Every font names the CJK fallback (a viewer without DejaVu's Han glyphs would draw boxes).
    QVERIFY(fallbacks);
    // Cells are vector rectangles in the colour map's colours: every weight's colour is among the rect fills. At most
    // one bitmap remains (the colour scale's gradient bar), never one per cell or the matrix.
    QVERIFY2(images <= 1, qPrintable(QString::number(images)));
    const HeatmapData data = HeatmapData::fromDecode(r);
    QVERIFY(fills.size() >= data.rows() * data.cols());
    QCPColorGradient gradient = colormapGradient(o.style.colormap);  // colorize() is not const
    for (int row = 0; row < data.rows(); ++row)
        for (int col = 0; col < data.cols(); ++col) {
            const double v = data.weights[size_t(row)][size_t(col)];
            QRgb rgb = 0;
            gradient.colorize(&v, QCPRange(0, 1), &rgb, 1);
            QVERIFY2(fills.contains(QColor(rgb).name()),
                     qPrintable(QString("cell %1,%2 colour %3").arg(row).arg(col).arg(QColor(rgb).name())));
        }
}

// The characters of an SVG's <text> elements, one string per element (not its <title> or <desc>).
QStringList svgTexts(const QByteArray& svg) {
    QXmlStreamReader xml(svg);
    QStringList texts;
    int depth = 0;  // > 0 inside a <text>
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("text") && depth++ == 0)
            texts << QString();
        else if (xml.isEndElement() && xml.name() == QLatin1String("text"))
            --depth;
        else if (xml.isCharacters() && depth > 0)
            texts.last() += xml.text();
    }
    return texts;
}

void TestHeatmapExport::aLongTitleIsShortenedInTheMiddle() {
    // A long file name in a narrow figure: the line keeps its start and its end around an ellipsis, and fits, instead
    // of running past both sides; a line that fits (the second) and the same title in a wide figure are whole.
    const QString name = "A: tatoeba-an-unusually-long-model-file-name-for-a-title.safetensors";
    const QString title = name + "\nlayer 2 · head 3";
    const DecodeResult r = chineseResult();
    QTemporaryDir dir;
    auto texts = [&](int width) {
        ExportOptions o = sized(width, 500, 96);
        o.style.title = title;
        const QString path = dir.filePath(QString("t%1.svg").arg(width));
        QString error;
        if (!exportHeatmap(HeatmapData::fromDecode(r), r, exportModel().config, path, o, &error)) qWarning() << error;
        return svgTexts(readFile(path));
    };
    const QStringList narrow = texts(360);
    QVERIFY(narrow.contains("layer 2 · head 3"));
    QVERIFY2(!narrow.contains(name), qPrintable(narrow.join(" | ")));
    QString shortened;
    for (const QString& t : narrow)
        if (t.contains(QChar(0x2026))) shortened = t;
    QVERIFY2(shortened.startsWith("A: tatoeba") && shortened.endsWith("safetensors"), qPrintable(shortened));
    QVERIFY2(shortened.size() < name.size() - 10, qPrintable(shortened));
    const QStringList wide = texts(2400);
    QVERIFY2(wide.contains(name) && wide.contains("layer 2 · head 3"), qPrintable(wide.join(" | ")));
}

void TestHeatmapExport::aTitleALittleTooWideIsDrawnSmaller() {
    QFont font = heatmapFont(20);
    font.setBold(true);
    const QString line = "mean of heads, last layer";
    const double full = QFontMetricsF(font).horizontalAdvance(line);
    auto widthOf = [](const TitleFit& fit) { return QFontMetricsF(fit.font).horizontalAdvance(fit.text); };
    // Room enough: unchanged.
    TitleFit fit = fitTitle(line, font, full + 1);
    QCOMPARE(fit.text, line);
    QCOMPARE(fit.font.pixelSize(), 20);
    // 10 % short: the whole line, a smaller font, within the width.
    fit = fitTitle(line, font, full * 0.9);
    QCOMPARE(fit.text, line);
    QVERIFY2(fit.font.pixelSize() < 20 && fit.font.pixelSize() >= 16,
             qPrintable(QString::number(fit.font.pixelSize())));
    QVERIFY(fit.font.bold());
    QVERIFY2(widthOf(fit) <= full * 0.9, qPrintable(QString::number(widthOf(fit))));
    // Half the width: the font stops at 80 % (16 px) and the line is shortened in the middle to fit.
    fit = fitTitle(line + "\nA", font, full * 0.5);
    QCOMPARE(fit.font.pixelSize(), 16);
    const QStringList lines = fit.text.split('\n');
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[1], QStringLiteral("A"));
    QVERIFY2(lines[0].startsWith("mean") && lines[0].endsWith("layer") && lines[0].contains(QChar(0x2026)),
             qPrintable(lines[0]));
    QVERIFY(QFontMetricsF(fit.font).horizontalAdvance(lines[0]) <= full * 0.5);
}

void TestHeatmapExport::pdfHasTheAskedPageSize_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<double>("dpi");
    QTest::newRow("1600x1200 @144 = 800x600 pt") << 1600 << 1200 << 144.0;
    QTest::newRow("1000x500 @72 = 1000x500 pt") << 1000 << 500 << 72.0;
}

void TestHeatmapExport::pdfHasTheAskedPageSize() {
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(double, dpi);
    QTemporaryDir dir;
    const QString path = dir.filePath("h.pdf");
    const DecodeResult r = chineseResult();
    ExportOptions o = sized(width, height, dpi);
    QString error;
    QVERIFY2(exportHeatmap(HeatmapData::fromDecode(r), r, exportModel().config, path, o, &error), qPrintable(error));
    const QByteArray pdf = readFile(path);
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY(pdf.trimmed().endsWith("%%EOF"));
    const QRegularExpression box(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)\\s*\\]"));
    const auto m = box.match(QString::fromLatin1(pdf));
    QVERIFY(m.hasMatch());
    QVERIFY2(std::abs(m.captured(1).toDouble() - width * 72.0 / dpi) < 1.0, qPrintable(m.captured(0)));
    QVERIFY2(std::abs(m.captured(2).toDouble() - height * 72.0 / dpi) < 1.0, qPrintable(m.captured(0)));
    QVERIFY(pdf.contains("/Font"));  // text as text: fonts embedded
}

void TestHeatmapExport::csvReadsBackToTheWeights() {
    QTemporaryDir dir;
    const QString path = dir.filePath("h.csv");
    const DecodeResult r = chineseResult();
    QString error;
    QVERIFY2(exportHeatmap(HeatmapData::fromDecode(r), r, exportModel().config, path, ExportOptions{}, &error),
             qPrintable(error));
    const QStringList lines = QString::fromUtf8(readFile(path)).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), int(r.target_tokens.size()) + 1);
    const QStringList header = csvFields(lines[0]);
    QCOMPARE(header.size(), int(r.source_tokens.size()) + 1);
    for (int j = 0; j < int(r.source_tokens.size()); ++j)
        QCOMPARE(header[j + 1], QString::fromStdString(r.source_tokens[j]));
    for (int t = 0; t < int(r.target_tokens.size()); ++t) {
        const QStringList f = csvFields(lines[t + 1]);
        QCOMPARE(f[0], QString::fromStdString(r.target_tokens[t]));
        for (int j = 0; j < int(r.source_tokens.size()); ++j) QCOMPARE(f[j + 1].toFloat(), r.attention[t][j]);  // exact
    }
}

void TestHeatmapExport::jsonReadsBackToTheDecodeObject() {
    QTemporaryDir dir;
    const QString path = dir.filePath("h.json");
    const DecodeResult r = chineseResult();
    QString error;
    QVERIFY2(exportHeatmap(HeatmapData::fromDecode(r), r, exportModel().config, path, ExportOptions{}, &error),
             qPrintable(error));
    const nlohmann::json j = nlohmann::json::parse(readFile(path).toStdString());
    ModelConfig cfg;
    const DecodeResult back = decodeFromJson(j, &cfg);
    QVERIFY(cfg == exportModel().config);
    QCOMPARE(back.source_tokens, r.source_tokens);
    QCOMPARE(back.target_tokens, r.target_tokens);
    QCOMPARE(back.target_ids, r.target_ids);
    QCOMPARE(back.attention, r.attention);  // bit for bit
    QCOMPARE(back.log_probs, r.log_probs);
}

void TestHeatmapExport::formatFromExtensionOrOption_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("expected");
    QTest::newRow("png by extension") << "a/b.png"
                                      << ""
                                      << "png";
    QTest::newRow("upper-case extension") << "a/b.PDF"
                                          << ""
                                          << "pdf";
    QTest::newRow("option wins") << "a/b.dat"
                                 << "svg"
                                 << "svg";
    QTest::newRow("unknown extension") << "a/b.jpg"
                                       << ""
                                       << "";
    QTest::newRow("no extension") << "a/b"
                                  << ""
                                  << "";
}

void TestHeatmapExport::formatFromExtensionOrOption() {
    QFETCH(QString, path);
    QFETCH(QString, format);
    QFETCH(QString, expected);
    ExportOptions o;
    o.format = format;
    QCOMPARE(exportFormatFor(path, o), expected);
}

void TestHeatmapExport::unwritableTargetFailsNamingThePath_data() {
    QTest::addColumn<QString>("relative");
    QTest::addColumn<bool>("makeParentAFile");
    for (const char* ext : {"png", "svg", "pdf", "csv", "json"}) {
        QTest::newRow(qPrintable(QStringLiteral("missing folder, %1").arg(ext)))
            << QStringLiteral("no/such/dir/h.%1").arg(ext) << false;
        QTest::newRow(qPrintable(QStringLiteral("parent is a file, %1").arg(ext)))
            << QStringLiteral("file.txt/h.%1").arg(ext) << true;
    }
    QTest::newRow("unknown format") << "h.jpg" << false;
}

void TestHeatmapExport::unwritableTargetFailsNamingThePath() {
    QFETCH(QString, relative);
    QFETCH(bool, makeParentAFile);
    QTemporaryDir dir;
    if (makeParentAFile) {
        QFile f(dir.filePath("file.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x");
    }
    const QStringList before = QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    const QString path = dir.filePath(relative);
    const DecodeResult r = chineseResult();
    QString error;
    QVERIFY(!exportHeatmap(HeatmapData::fromDecode(r), r, exportModel().config, path, ExportOptions{}, &error));
    QVERIFY2(error.startsWith(path + ": "), qPrintable(error));
    QVERIFY(!QFile::exists(path));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), before);
}

void TestHeatmapExport::badSizesAreRejected() {
    QTemporaryDir dir;
    const DecodeResult r = chineseResult();
    for (auto [w, h, dpi] : {std::tuple{0, 100, 96.0}, std::tuple{100, 30000, 96.0}, std::tuple{100, 100, 0.0}}) {
        const ExportOptions o = sized(w, h, dpi);
        QString error;
        const QString path = dir.filePath("bad.png");
        QVERIFY(!exportHeatmap(HeatmapData::fromDecode(r), r, exportModel().config, path, o, &error));
        QVERIFY2(error.contains("out of range"), qPrintable(error));
        QVERIFY(!QFile::exists(path));
    }
}

void TestHeatmapExport::rendererShowsTheWholeMatrixWithAllLabels() {
    // 60 source tokens: an export is the whole matrix with every label, whatever a window would show.
    HeatmapData d;
    d.source_tokens << "<sos>";
    for (int i = 1; i < 59; ++i) d.source_tokens << QStringLiteral("w%1").arg(i);
    d.source_tokens << "<eos>";
    d.target_tokens << "a"
                    << "b"
                    << "<eos>";
    d.weights.assign(3, std::vector<float>(60, 1.0f / 60));
    HeatmapRenderer renderer(d, HeatmapStyle{});
    const QImage img = renderer.toImage(QSize(1600, 1200), 144);
    QCOMPARE(img.size(), QSize(1600, 1200));
    QCPAxis* key = renderer.scene().keyAxis();
    QCOMPARE(key->range(), QCPRange(-0.5, 59.5));
    auto ticker = key->ticker().dynamicCast<QCPAxisTickerText>();
    QCOMPARE(ticker->ticks().size(), 60);
    QCOMPARE(key->tickLabelRotation(), -90.0);  // 60 labels do not fit across their cells
}

void TestHeatmapExport::higherDpiGivesLargerText() {
    // Same pixels, twice the DPI: the figure is laid out on half the logical size, so the labels take more pixels
    // (the matrix area, in pixels, shrinks).
    const DecodeResult r = chineseResult();
    const HeatmapData d = HeatmapData::fromDecode(r);
    HeatmapRenderer lo(d, HeatmapStyle{}), hi(d, HeatmapStyle{});
    lo.toImage(QSize(1200, 900), 96);
    hi.toImage(QSize(1200, 900), 192);
    const double loFrac = lo.scene().axisRect()->width() / 1200.0;
    const double hiFrac = hi.scene().axisRect()->width() / 600.0;
    QVERIFY2(hiFrac < loFrac, qPrintable(QStringLiteral("%1 vs %2").arg(hiFrac).arg(loFrac)));
}

ATTNVIZ_TEST_MAIN(TestHeatmapExport)
#include "test_heatmap_export.moc"
