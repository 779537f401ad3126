// The window's corpus browser driven as a user would: open a TSV, wait for the scores, click a column header to sort,
// click a line (and press Enter on another) to open it in the window, filter and export the table as CSV, open files
// with bad lines, switch to a sibling. Checked against the engine: every score is core's scoreLine for that line and
// model, the heatmap shows the forced decode of the line's reference, the CSV parses back to the rows as shown.
#include "main_window_fixture.h"
#include "test_files.h"

#include "decode/decoding.h"
#include "eval/corpus_scores.h"
#include "heatmap/heatmap_view.h"
#include "io/model_file.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "views/compare_view.h"
#include "views/corpus_browser.h"
#include "views/corpus_table_model.h"
#include "window/source_editor.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QtTest>

using namespace attnviz;
using attnviz::testing::csvFields;
using namespace attnviz::ui;

namespace {

// Twelve lines (so that sorting line numbers as text would put 10 before 2), one with gold links and one with a
// comma and quotes, one blank line kept out of the numbering's way.
const char* const kCorpus =
    "i love you\t我 爱 你\n"
    "the cat sat on the mat\t猫 坐 在 垫子 上\t0-0 1-0 2-1 3-2 5-3 5-4\n"
    "the cat ate an apple\t猫 吃 了 一个 苹果\n"
    "i ate an apple yesterday\t我 昨天 吃 了 一个 苹果\n"
    "you sat on the mat\t你 坐 在 垫子 上\n"
    "\n"
    "i , \"the cat\" , ate\t我 吃 了\n"
    "love\t爱\n"
    "the apple\t苹果\n"
    "yesterday you ate the cat .\t昨天 你 吃 了 猫 。\n"
    "i sat\t我 坐\n"
    "an apple on the mat\t一个 苹果 在 垫子 上\n"
    "cat\t猫\n";

}  // namespace

class TestCorpusBrowser : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup() { closeWindow(); }

    void scoresAreTheEngines();
    void headerClickSortsByNumber();
    void clickAndEnterOpenTheLine();
    void filteredExportParsesBack();
    void exportToAMissingFolderFails();
    void badLinesAreSkippedOrRefused();
    void siblingSwitchRescores();

private:
    CorpusBrowser* browser() const { return w_->corpusBrowser(); }
    bool openAndWait(const QString& path);
    // The proxy row showing file line `line` (-1: not shown).
    int viewRowOf(int line) const;
    QString sortText(int view_row, int column) const;

    QTemporaryDir dir_;
    QString corpus_;
};

void TestCorpusBrowser::initTestCase() {
    setUpWindowTests(QStringLiteral("test_corpus_browser"));
    corpus_ = dir_.filePath(QStringLiteral("small.tsv"));
    testing::writeFile(corpus_, kCorpus);
}

void TestCorpusBrowser::init() {
    openWindow();
    QVERIFY(!w_->corpusDock()->isVisible());  // hidden until asked for
    QVERIFY(openAndWait(corpus_));
    QVERIFY(w_->corpusDock()->isVisible());
}

bool TestCorpusBrowser::openAndWait(const QString& path) {
    QSignalSpy done(browser(), &CorpusBrowser::scoringFinished);
    if (!w_->openCorpus(path)) return false;
    return done.wait(20000);
}

int TestCorpusBrowser::viewRowOf(int line) const {
    const QSortFilterProxyModel* p = browser()->proxyModel();
    for (int r = 0; r < p->rowCount(); ++r)
        if (p->index(r, CorpusTableModel::Line).data().toInt() == line) return r;
    return -1;
}

QString TestCorpusBrowser::sortText(int view_row, int column) const {
    return browser()->proxyModel()->index(view_row, column).data().toString();
}

void TestCorpusBrowser::scoresAreTheEngines() {
    const CorpusTableModel* m = browser()->tableModel();
    QCOMPARE(m->rowCount(), 12);
    QVERIFY2(browser()->noticeText().contains(QStringLiteral("12 line")), qPrintable(browser()->noticeText()));
    const Model& model = *w_->model();
    for (int r = 0; r < m->rowCount(); ++r) {
        const CorpusExample& ex = m->examples()[size_t(r)];
        const LineScores s = scoreLine(model, ex, DecodeOptions{});
        QCOMPARE(m->index(r, CorpusTableModel::LogProb).data(CorpusTableModel::SortRole).toDouble(), s.log_prob);
        QCOMPARE(m->index(r, CorpusTableModel::Entropy).data(CorpusTableModel::SortRole).toDouble(), s.mean_entropy);
        QCOMPARE(m->index(r, CorpusTableModel::Confidence).data(CorpusTableModel::SortRole).toDouble(),
                 s.confidence.confidence);
        QCOMPARE(m->index(r, CorpusTableModel::Output).data().toString(), QString::fromStdString(s.output));
        QCOMPARE(m->index(r, CorpusTableModel::Aer).data(CorpusTableModel::SortRole).isValid(), ex.has_alignment);
    }
    QCOMPARE(m->index(5, CorpusTableModel::Line).data().toInt(), 7);  // the blank line 6 keeps its number
    QCOMPARE(m->index(1, CorpusTableModel::Aer).data().toString(),
             QString::number(*scoreLine(model, m->examples()[1], DecodeOptions{}).aer, 'f', 3));
}

void TestCorpusBrowser::headerClickSortsByNumber() {
    QTableView* table = browser()->tableView();
    QHeaderView* header = table->horizontalHeader();
    auto clickHeader = [&](int column) {
        const QPoint at(header->sectionViewportPosition(column) + header->sectionSize(column) / 2,
                        header->height() / 2);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
    };
    clickHeader(CorpusTableModel::LogProb);
    QCOMPARE(header->sortIndicatorSection(), int(CorpusTableModel::LogProb));
    const Qt::SortOrder order = header->sortIndicatorOrder();
    std::vector<double> shown;
    for (int r = 0; r < 12; ++r) shown.push_back(sortText(r, CorpusTableModel::LogProb).toDouble());
    QVERIFY(order == Qt::AscendingOrder ? std::is_sorted(shown.begin(), shown.end())
                                        : std::is_sorted(shown.rbegin(), shown.rend()));
    QVERIFY(shown.front() != shown.back());

    clickHeader(CorpusTableModel::Line);  // by number: 1 2 3 … 13, not 1 10 11 12 13 2 …
    if (header->sortIndicatorOrder() != Qt::AscendingOrder) clickHeader(CorpusTableModel::Line);
    QStringList lines;
    for (int r = 0; r < 12; ++r) lines << sortText(r, CorpusTableModel::Line);
    QCOMPARE(lines.join(u' '), QStringLiteral("1 2 3 4 5 7 8 9 10 11 12 13"));
    clickHeader(CorpusTableModel::Line);
    QCOMPARE(sortText(0, CorpusTableModel::Line), QStringLiteral("13"));
    QCOMPARE(sortText(11, CorpusTableModel::Line), QStringLiteral("1"));
}

void TestCorpusBrowser::clickAndEnterOpenTheLine() {
    QTableView* table = browser()->tableView();
    const auto before = shownWeights(*w_->heatmapView());
    const int row = viewRowOf(2);
    QVERIFY(row >= 0);
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    const QModelIndex index = browser()->proxyModel()->index(row, CorpusTableModel::Source);
    table->scrollTo(index);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
    QVERIFY(waitDecode(decoded));
    w_->decodes()->waitForDone();
    QCOMPARE(w_->sourceText(), QStringLiteral("the cat sat on the mat"));
    QCOMPARE(w_->referenceEdit()->text(), QStringLiteral("猫 坐 在 垫子 上"));
    QCOMPARE(w_->compareView()->goldEdit()->text(), QStringLiteral("0-0 1-0 2-1 3-2 5-3 5-4"));
    // The heatmap: the model forced onto the line's reference, cell by cell.
    const DecodeResult forced = forcedDecode(*w_->model(), "the cat sat on the mat", "猫 坐 在 垫子 上");
    const auto shown = shownWeights(*w_->heatmapView());
    QVERIFY(shown != before);
    QCOMPARE(shown.size(), forced.attention.size());
    for (size_t t = 0; t < shown.size(); ++t)
        for (size_t j = 0; j < shown[t].size(); ++j) QCOMPARE(float(shown[t][j]), forced.attention[t][j]);

    // Enter on another line opens that one.
    const QModelIndex other = browser()->proxyModel()->index(viewRowOf(11), CorpusTableModel::Source);
    table->setFocus();
    table->setCurrentIndex(other);
    decoded.clear();
    QTest::keyClick(table, Qt::Key_Return);
    QVERIFY(waitDecode(decoded));
    QCOMPARE(w_->sourceText(), QStringLiteral("i sat"));
    QCOMPARE(w_->referenceEdit()->text(), QStringLiteral("我 坐"));
    QCOMPARE(w_->compareView()->goldEdit()->text(), QString());

    // Typing another sentence over the line: its reference goes with it, and the model decodes freely.
    decoded.clear();
    w_->sourceEditor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(w_->sourceEditor(), QStringLiteral(" down"));
    QVERIFY(waitDecode(decoded));
    w_->decodes()->waitForDone();
    QCOMPARE(w_->sourceText(), QStringLiteral("i sat down"));
    QCOMPARE(w_->referenceEdit()->text(), QString());
    QVERIFY2(w_->statusText().contains(QStringLiteral("reference and gold links were cleared")),
             qPrintable(w_->statusText()));
    QCOMPARE(w_->state()->decode()->result.target_ids, greedyDecode(*w_->model(), "i sat down").target_ids);
}

void TestCorpusBrowser::filteredExportParsesBack() {
    browser()->tableView()->sortByColumn(CorpusTableModel::Entropy, Qt::DescendingOrder);
    QTest::keyClicks(browser()->filterEdit(), QStringLiteral("CAT"));  // any case
    const QSortFilterProxyModel* p = browser()->proxyModel();
    QCOMPARE(p->rowCount(), 5);  // lines 2, 3, 7, 10 and 13
    const QString path = dir_.filePath(QStringLiteral("out/../scores.csv"));
    QDir(dir_.path()).mkpath(QStringLiteral("out"));
    QVERIFY2(browser()->exportCsv(path), qPrintable(browser()->errorText()));
    const QStringList lines = QString::fromUtf8(testing::readFile(path)).split(u'\n');
    QCOMPARE(lines.size(), 1 + p->rowCount() + 1);  // header, rows, the empty text after the final line end
    QCOMPARE(csvFields(lines[0]).size(), 17);
    const CorpusTableModel* m = browser()->tableModel();
    for (int r = 0; r < p->rowCount(); ++r) {
        const QStringList f = csvFields(lines[r + 1]);
        QCOMPARE(f.size(), 17);
        const int source_row = p->mapToSource(p->index(r, 0)).row();
        const CorpusExample& ex = m->examples()[size_t(source_row)];
        const LineScores& s = m->scores()[size_t(source_row)];
        QCOMPARE(f[0].toInt(), ex.line);  // in the order shown
        QCOMPARE(f[1], QString::fromStdString(ex.source));
        QCOMPARE(f[2], QString::fromStdString(ex.target));
        QCOMPARE(f[3], QString::fromStdString(s.output));
        QCOMPARE(f[4].toDouble(), s.log_prob);
        QCOMPARE(f[6].toDouble(), s.mean_entropy);
        QCOMPARE(f[15].isEmpty(), !ex.has_alignment);
    }
    QVERIFY(lines.join(u'\n').contains(QStringLiteral("\"i , \"\"the cat\"\" , ate\"")));
}

void TestCorpusBrowser::exportToAMissingFolderFails() {
    const QString path = dir_.filePath(QStringLiteral("no-such-folder/scores.csv"));
    QVERIFY(!browser()->exportCsv(path));
    QVERIFY2(browser()->errorText().contains(QStringLiteral("no-such-folder")), qPrintable(browser()->errorText()));
    QVERIFY(!QFile::exists(path));
}

void TestCorpusBrowser::badLinesAreSkippedOrRefused() {
    const QString some_bad = dir_.filePath(QStringLiteral("some-bad.tsv"));
    testing::writeFile(some_bad, "i love you\t我 爱 你\nno tab on this line\ncat\t猫\t0-7\nthe cat\t猫\n");
    QVERIFY(openAndWait(some_bad));
    QCOMPARE(browser()->tableModel()->rowCount(), 2);
    const QString notice = browser()->noticeText();
    QVERIFY2(notice.contains(QStringLiteral("2 bad line(s) skipped")), qPrintable(notice));
    QVERIFY2(notice.contains(QStringLiteral("some-bad.tsv:2: no tab")), qPrintable(notice));

    const QString all_bad = dir_.filePath(QStringLiteral("all-bad.tsv"));
    testing::writeFile(all_bad, "just words\nand more words\n");
    QSignalSpy errors(w_.get(), &MainWindow::errorReported);
    QVERIFY(!w_->openCorpus(all_bad));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(browser()->errorText().contains(QStringLiteral("all-bad.tsv:1: no tab")),
             qPrintable(browser()->errorText()));
    QCOMPARE(browser()->tableModel()->rowCount(), 2);  // the previous corpus stays
    QVERIFY(!w_->openCorpus(dir_.filePath(QStringLiteral("missing.tsv"))));
    QVERIFY2(browser()->errorText().contains(QStringLiteral("missing.tsv")), qPrintable(browser()->errorText()));
}

void TestCorpusBrowser::siblingSwitchRescores() {
    const double additive =
        browser()->tableModel()->index(0, CorpusTableModel::LogProb).data(CorpusTableModel::SortRole).toDouble();
    QSignalSpy done(browser(), &CorpusBrowser::scoringFinished);
    QVERIFY(w_->switchScore(ScoreKind::Dot));
    QVERIFY(browser()->tableModel()->isStale() || !done.isEmpty());  // greyed until the new scores arrive
    QVERIFY(!done.isEmpty() || done.wait(20000));
    QVERIFY(!browser()->tableModel()->isStale());
    const Model dot = loadModel(dot_.toStdString());
    const LineScores s = scoreLine(dot, browser()->tableModel()->examples()[0], DecodeOptions{});
    const double now =
        browser()->tableModel()->index(0, CorpusTableModel::LogProb).data(CorpusTableModel::SortRole).toDouble();
    QCOMPARE(now, s.log_prob);
    QVERIFY(now != additive);
}

ATTNVIZ_TEST_MAIN(TestCorpusBrowser)
#include "test_corpus_browser.moc"
