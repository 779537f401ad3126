// The beam view's export as a user meets it: the window's sentence searched at width 3, then written as PNG (the
// tree's size scaled by dpi / 96, non-empty pixels, the best path's blue drawn), SVG (that size, text as text), PDF
// (a PDF), CSV (a row per node, as core writes it) and JSON (read back against the engine's own search of the same
// sentence). A path that cannot be written reports the path and leaves no file; the button and the context menu
// offer the export.
#include "decode/decoding.h"
#include "io/beam_json.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_files.h"
#include "test_registry.h"
#include "views/beam_tree.h"
#include "views/beam_tree_canvas.h"
#include "views/beam_tree_export.h"
#include "window/main_window.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::testing::readFile;
using attnviz::testing::writeFile;

class TestBeamTreeExport : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("attnviz-test-beam-tree-export")); }
    void init();
    void cleanup() { closeWindow(); }

    void pngIsTheTreeAsDrawn();
    void svgAndPdf();
    void numbersAreTheEnginesSearch();
    void unwritablePathLeavesNoFile();
    void buttonFollowsTheSearch();

private:
    BeamTreeView* view() const { return w_->beamTree(); }
    QString exported(const QString& name, const ExportOptions& options = {}) {
        const QString path = dir_.filePath(name);
        QString error;
        if (!view()->exportTo(path, options, &error)) qWarning("%s", qPrintable(error));
        return path;
    }

    QTemporaryDir dir_;
};

void TestBeamTreeExport::init() {
    openWindow();
    w_->beamDock()->show();
    QVERIFY(typeAndWait(QStringLiteral("the cat ate an apple")));
    view()->setBeamWidth(3);
    QVERIFY(view()->result());
}

// The PNG is the screen's layout at dpi / 96 (144 dpi: 1.5 times), white around the nodes, with the best path in the
// export palette's highlight somewhere and the pruned nodes' grey.
void TestBeamTreeExport::pngIsTheTreeAsDrawn() {
    const QSize logical = view()->canvas()->layout().size;
    QVERIFY(!logical.isEmpty());
    const QImage png(exported(QStringLiteral("tree.png")));
    QVERIFY(!png.isNull());
    QCOMPARE(png.size(), QSize(qRound(logical.width() * 1.5), qRound(logical.height() * 1.5)));
    QCOMPARE(png.pixelColor(1, 1), QColor(Qt::white));
    const QColor highlight = beamTreeExportPalette().color(QPalette::Highlight);
    int blue = 0, dark = 0;
    for (int y = 0; y < png.height(); y += 2)
        for (int x = 0; x < png.width(); x += 2) {
            const QColor c = png.pixelColor(x, y);
            blue += c == highlight ? 1 : 0;
            dark += c.lightness() < 80 ? 1 : 0;  // text
        }
    QVERIFY2(blue > 100, qPrintable(QString::number(blue)));
    QVERIFY2(dark > 100, qPrintable(QString::number(dark)));
    // At 96 dpi the image is the layout itself; a huge dpi is shrunk to 20,000 pixels a side.
    ExportOptions at96;
    at96.width = at96.height = 0;
    at96.dpi = 96;
    QCOMPARE(QImage(exported(QStringLiteral("tree96.png"), at96)).size(), logical);
    const QSize huge = beamTreeExportPixels(QSize(4000, 100), 2400);
    QCOMPARE(huge, QSize(20000, 500));
}

void TestBeamTreeExport::svgAndPdf() {
    const QSize logical = view()->canvas()->layout().size;
    const QByteArray svg = readFile(exported(QStringLiteral("tree.svg")));
    QVERIFY(svg.startsWith("<?xml"));
    const QString view_box =
        QStringLiteral("viewBox=\"0 0 %1 %2\"").arg(qRound(logical.width() * 1.5)).arg(qRound(logical.height() * 1.5));
    QVERIFY2(svg.contains(view_box.toUtf8()), svg.left(600).constData());
    // Text as text: the best hypothesis' first token and a step header are in the file.
    const BeamResult& tree = *view()->result();
    const int first = tree.nodes[size_t(tree.finished.front())].step > 0 ? tree.nodes[0].children.front() : 0;
    QVERIFY(svg.contains(view()->canvas()->tokenText(first).toHtmlEscaped().toUtf8()));
    QVERIFY(svg.contains("step 1"));
    const QByteArray pdf = readFile(exported(QStringLiteral("tree.pdf")));
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY(pdf.size() > 1000);
}

// The CSV and JSON are of the tree shown, which is the engine's search of the window's sentence at width 3.
void TestBeamTreeExport::numbersAreTheEnginesSearch() {
    const BeamResult expected = beamSearch(*view()->model(), w_->state()->decode()->source, 3);
    const QByteArray csv = readFile(exported(QStringLiteral("tree.csv")));
    QCOMPARE(csv, QByteArray::fromStdString(beamTreeToCsv(expected, view()->model()->target_vocab)));
    QCOMPARE(csv.count('\n'), qsizetype(expected.nodes.size() + 1));
    const nlohmann::json j = nlohmann::json::parse(readFile(exported(QStringLiteral("tree.json"))).toStdString());
    QCOMPARE(j["beam_width"].get<int>(), 3);
    QCOMPARE(j["source_ids"].get<std::vector<int>>(), w_->state()->decode()->source.ids);
    QCOMPARE(j["nodes"].size(), expected.nodes.size());
    for (size_t i = 0; i < expected.nodes.size(); ++i) {
        QCOMPARE(j["nodes"][i]["token_id"].get<int>(), expected.nodes[i].token);
        QCOMPARE(j["nodes"][i]["total_log_prob"].get<double>(), expected.nodes[i].total_log_prob);
        QCOMPARE(j["nodes"][i]["kept"].get<bool>(), expected.nodes[i].in_beam);
    }
    QCOMPARE(j["rows"].size(), expected.rows.size());
    for (size_t r = 0; r < expected.rows.size(); ++r)
        QCOMPARE(j["rows"][r].get<std::vector<float>>(), expected.rows[r]);
    QCOMPARE(j["nbest"][0]["token_ids"].get<std::vector<int>>(), expected.best.target_ids);
}

// A folder that is a file (and, when not root, a read-only folder): false, the path in the message, no file left.
void TestBeamTreeExport::unwritablePathLeavesNoFile() {
    writeFile(dir_.filePath(QStringLiteral("plain")), "x");
    const QString under_file = dir_.filePath(QStringLiteral("plain/tree.png"));
    QString error;
    QVERIFY(!view()->exportTo(under_file, {}, &error));
    QVERIFY2(error.startsWith(QDir::toNativeSeparators(under_file)), qPrintable(error));
    QVERIFY(!QFile::exists(under_file));
    if (geteuid() == 0) return;  // root writes into a read-only folder
    const QString locked = dir_.filePath(QStringLiteral("locked"));
    QVERIFY(QDir().mkpath(locked));
    QVERIFY(QFile::setPermissions(locked, QFile::ReadOwner | QFile::ExeOwner));
    for (const char* ext : {"png", "svg", "pdf", "csv", "json"}) {
        const QString path = QDir(locked).filePath(QStringLiteral("tree.") + ext);
        QVERIFY(!view()->exportTo(path, {}, &error));
        QVERIFY2(error.contains(QStringLiteral("tree.") + ext), qPrintable(error));
    }
    QVERIFY(QDir(locked).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden).isEmpty());
    QFile::setPermissions(locked, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

// The button is enabled while a tree is shown; an empty sentence clears the tree and disables it, and an export then
// says there is nothing to export.
void TestBeamTreeExport::buttonFollowsTheSearch() {
    QVERIFY(view()->exportButton()->isEnabled());
    w_->sourceEditor()->clear();
    QTRY_VERIFY(!view()->result());
    QVERIFY(!view()->exportButton()->isEnabled());
    QString error;
    QVERIFY(!view()->exportTo(dir_.filePath(QStringLiteral("none.png")), {}, &error));
    QVERIFY2(error.contains(QStringLiteral("nothing to export")), qPrintable(error));
    QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("none.png"))));
}

ATTNVIZ_TEST_MAIN(TestBeamTreeExport)
#include "test_beam_tree_export.moc"
