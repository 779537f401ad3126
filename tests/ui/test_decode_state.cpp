// DecodeState, the window's document: a change of the state reaches every view that observes it (heatmap, step
// panel, output line) and only then; a click in the heatmap selects in the state; the main window's text fields and
// the state follow each other. Numbers are the engine's (prefixDecode called directly).
#include "decode/decoding.h"
#include "decode/prefix_decode.h"
#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"
#include "state/heatmap_binding.h"
#include "test_models.h"
#include "test_registry.h"
#include "window/main_window.h"
#include "window/output_line.h"
#include "window/source_editor.h"
#include "window/step_panel.h"

#include <qcustomplot.h>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cmath>
#include <memory>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

// Never destroyed (as in test_heatmap_view): the last reference to a model is not dropped in this translation unit.
const std::shared_ptr<const Model>& model() {
    static const auto* m = new std::shared_ptr<const Model>(std::make_shared<const Model>(
        testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 7, 3.0f)));
    return *m;
}

std::shared_ptr<const PrefixDecoding> decode(const char* source) {
    PrefixDecodeInput in;
    in.source = tokenizeSource(*model(), source);
    return std::make_shared<const PrefixDecoding>(prefixDecode(model(), in));
}

// As the output line writes a token.
QString qs(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

// The ids listed by the step panel's candidate list, top first.
std::vector<int> candidateIds(const StepPanel& panel) {
    std::vector<int> ids;
    for (int i = 0; i < panel.candidateList()->topLevelItemCount(); ++i)
        ids.push_back(panel.candidateList()->topLevelItem(i)->data(0, Qt::UserRole).toInt());
    return ids;
}

std::vector<int> topIds(const StepRecord& step) {
    std::vector<int> ids;
    for (const Candidate& c : step.top_k) ids.push_back(c.id);
    return ids;
}

// A state with its three views.
struct Views {
    DecodeState state;
    HeatmapView heatmap;
    StepPanel panel;
    OutputLine line;
    Views() {
        bindHeatmap(&heatmap, &state);
        panel.setDecodeState(&state);
        line.setDecodeState(&state);
    }
};

}  // namespace

class TestDecodeState : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void aNewDecodeReachesEveryView();
    void theCursorReachesEveryView();
    void aClickInTheHeatmapSelectsInTheState();
    void clearingEmptiesEveryView();
    void settersSignalOnlyChanges();
    void aHypothesisKeepsTheWindowsDecode();
    void theWindowsFieldsAndTheStateFollowEachOther();
};

void TestDecodeState::initTestCase() {
    Q_INIT_RESOURCE(attnviz);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("attnviz-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_decode_state"));
}

void TestDecodeState::aNewDecodeReachesEveryView() {
    Views v;
    const auto d = decode("the cat sat on the mat");
    const int T = int(d->steps.size());
    QVERIFY(T >= 3);
    QSignalSpy decoded(&v.state, &DecodeState::decodeChanged);
    QSignalSpy moved(&v.state, &DecodeState::cursorChanged);
    v.state.setDecode(model(), d, 2);
    QCOMPARE(decoded.count(), 1);
    QCOMPARE(moved.count(), 0);  // a new decode is a reset: the views redraw everything once
    QCOMPARE(v.state.cursor(), 2);

    // Heatmap: the engine's matrix, the rows before the cursor shown, the current row marked.
    QCOMPARE(v.heatmap.data().rows(), T);
    QCOMPARE(v.heatmap.data().cols(), int(d->source.tokens.size()));
    QCOMPARE(v.heatmap.visibleRows(), 2);
    QCOMPARE(v.heatmap.style().current_row, 1);
    for (int c = 0; c < v.heatmap.data().cols(); ++c) {
        QCOMPARE(v.heatmap.cellValue(1, c), double(d->result.attention[1][size_t(c)]));
        QVERIFY(std::isnan(v.heatmap.cellValue(2, c)));
    }
    // Step panel: step 2's candidates and entropy.
    QCOMPARE(candidateIds(v.panel), topIds(d->steps[1]));
    QVERIFY(v.panel.entropyText().contains(QString::number(double(d->steps[1].entropy), 'f', 3)));
    // Output line: the second token underlined, the third grey.
    QVERIFY2(v.line.text().contains(QStringLiteral("<u><b>%1</b></u>").arg(qs(d->result.target_tokens[1]))),
             qPrintable(v.line.text()));
    QVERIFY(v.line.text().contains(QStringLiteral("color:#999999'>%1<").arg(qs(d->result.target_tokens[2]))));
}

void TestDecodeState::theCursorReachesEveryView() {
    Views v;
    const auto d = decode("i ate an apple yesterday");
    const int T = int(d->steps.size());
    QVERIFY(T >= 2);
    v.state.setDecode(model(), d, 0);
    QVERIFY(v.panel.candidateList()->topLevelItemCount() == 0);  // before the first step
    QSignalSpy decoded(&v.state, &DecodeState::decodeChanged);
    QSignalSpy moved(&v.state, &DecodeState::cursorChanged);

    v.state.setCursor(1);
    QCOMPARE(moved.count(), 1);
    QCOMPARE(moved.last().at(0).toInt(), 1);
    QCOMPARE(v.heatmap.visibleRows(), 1);
    QCOMPARE(v.heatmap.style().current_row, 0);
    QCOMPARE(candidateIds(v.panel), topIds(d->steps[0]));
    QVERIFY(v.line.text().contains(QStringLiteral("<u><b>%1</b></u>").arg(qs(d->result.target_tokens[0]))));

    v.state.setCursor(T + 5);  // clamped to the end: every row shown
    QCOMPARE(v.state.cursor(), T);
    QCOMPARE(v.heatmap.visibleRows(), -1);
    QCOMPARE(v.heatmap.style().current_row, T - 1);
    QCOMPARE(candidateIds(v.panel), topIds(d->steps[size_t(T - 1)]));
    QVERIFY(!v.line.text().contains(QStringLiteral("color:#999")));
    v.state.setCursor(T);  // no move, no signal
    QCOMPARE(moved.count(), 2);
    QCOMPARE(decoded.count(), 0);
}

void TestDecodeState::aClickInTheHeatmapSelectsInTheState() {
    Views v;
    v.state.setDecode(model(), decode("i love you"));
    v.heatmap.resize(600, 400);
    v.heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v.heatmap));
    QSignalSpy selected(&v.state, &DecodeState::selectionChanged);
    v.heatmap.verticalScrollBar()->setValue(0);  // the view opens on the current (last) row: back to the first rows
    QTest::mouseClick(v.heatmap.plot(), Qt::LeftButton, {}, v.heatmap.cellCenter(1, 2));
    QCOMPARE(selected.count(), 1);
    QCOMPARE(v.state.selectedRow(), 1);
    QCOMPARE(v.state.selectedColumn(), 2);
    // And the other way: the state's selection is the one drawn.
    v.state.setSelection(0, 3);
    QCOMPARE(v.heatmap.style().selected_row, 0);
    QCOMPARE(v.heatmap.style().selected_col, 3);
    v.state.setSelection(-1, 3);  // half a cell is none
    QCOMPARE(v.heatmap.style().selected_row, -1);
    QCOMPARE(v.heatmap.style().selected_col, -1);
}

void TestDecodeState::clearingEmptiesEveryView() {
    Views v;
    v.state.setDecode(model(), decode("the cat sat"));
    QVERIFY(!v.heatmap.data().isEmpty());
    QVERIFY(!v.line.text().isEmpty());
    v.panel.setEmptyHint(QStringLiteral("Nothing decoded here."));
    QSignalSpy decoded(&v.state, &DecodeState::decodeChanged);
    v.state.clearDecode();
    QCOMPARE(decoded.count(), 1);
    QCOMPARE(v.state.stepCount(), 0);
    QVERIFY(v.heatmap.data().isEmpty());
    QVERIFY(v.line.text().isEmpty());
    QCOMPARE(v.panel.candidateList()->topLevelItemCount(), 0);
    QVERIFY(v.panel.entropyText().isEmpty());
    bool hinted = false;
    for (const QLabel* l : v.panel.findChildren<QLabel*>())
        hinted |= l->text() == QStringLiteral("Nothing decoded here.");
    QVERIFY(hinted);
}

void TestDecodeState::settersSignalOnlyChanges() {
    DecodeState state;
    QSignalSpy source(&state, &DecodeState::sourceTextChanged);
    QSignalSpy reference(&state, &DecodeState::referenceTextChanged);
    QSignalSpy forced(&state, &DecodeState::forcedTokensChanged);
    QSignalSpy models(&state, &DecodeState::modelChanged);
    state.setSourceText(QStringLiteral("i love you"));
    state.setSourceText(QStringLiteral("i love you"));
    state.setReferenceText(QStringLiteral("我 爱 你"));
    state.setForcedTokens({4, 5});
    state.setForcedTokens({4, 5});
    state.setForcedTokens({});
    state.setModel(model(), QStringLiteral("a.safetensors"));
    state.setModel(model(), QStringLiteral("a.safetensors"));
    QCOMPARE(source.count(), 1);
    QCOMPARE(source.last().at(0).toString(), QStringLiteral("i love you"));
    QCOMPARE(reference.count(), 1);
    QCOMPARE(forced.count(), 2);
    QCOMPARE(models.count(), 1);
    QCOMPARE(state.modelPath(), QStringLiteral("a.safetensors"));
}

// A beam hypothesis is shown like any decode; the window's own comes back at its cursor, and a new decode of the
// window forgets the hypothesis (nothing to go back from then).
void TestDecodeState::aHypothesisKeepsTheWindowsDecode() {
    DecodeState state;
    const auto main = decode("the cat sat on the mat");
    const auto other = decode("a dog");
    state.setDecode(model(), main, 2);
    const int serial = state.mainDecodeSerial();
    QSignalSpy changed(&state, &DecodeState::decodeChanged);
    BeamHypothesisInfo info;
    info.node = 7;
    info.rank = 1;
    state.showHypothesis(model(), other, info);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(state.decode(), other.get());
    QCOMPARE(state.cursor(), state.stepCount());
    QVERIFY(state.hypothesis() && state.hypothesis()->node == 7);
    QCOMPARE(state.mainDecodeSerial(), serial);
    state.showMainDecode();
    QCOMPARE(changed.count(), 2);
    QCOMPARE(state.decode(), main.get());
    QCOMPARE(state.cursor(), 2);
    QVERIFY(!state.hypothesis());
    state.showMainDecode();  // already shown: no signal
    QCOMPARE(changed.count(), 2);
    state.showHypothesis(model(), other, info);
    state.setDecode(model(), main, -1);
    QVERIFY(!state.hypothesis());
    QCOMPARE(state.mainDecodeSerial(), serial + 1);
    state.showMainDecode();
    QCOMPARE(changed.count(), 4);
}

void TestDecodeState::theWindowsFieldsAndTheStateFollowEachOther() {
    QTemporaryDir settings_dir, models_dir;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir.path());
    const QString path = testing::saveInto(*model(), models_dir, QStringLiteral("test-state.safetensors"));
    MainWindow w;
    w.setInteractive(false);
    w.show();
    QVERIFY(w.openModel(path));
    QCOMPARE(w.state()->modelPath(), QFileInfo(path).absoluteFilePath());

    // The state's sentence shows in the editor and is decoded.
    QSignalSpy finished(&w, &MainWindow::decodeFinished);
    w.state()->setSourceText(QStringLiteral("i love you"));
    QCOMPARE(w.sourceEditor()->text(), QStringLiteral("i love you"));
    QVERIFY(finished.wait(20000));
    QVERIFY(w.state()->hasDecode());
    QCOMPARE(w.state()->decode()->result.target_ids, greedyDecode(*model(), "i love you").target_ids);
    QCOMPARE(w.heatmapView()->data().rows(), w.state()->stepCount());

    // What is typed is the state's; the reference field likewise.
    w.sourceEditor()->setFocus();
    w.sourceEditor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(w.sourceEditor(), QStringLiteral(" the cat"));
    QCOMPARE(w.state()->sourceText(), QStringLiteral("i love you the cat"));
    w.referenceEdit()->setText(QStringLiteral("我"));
    QCOMPARE(w.state()->referenceText(), QStringLiteral("我"));
    w.state()->setReferenceText(QString());
    QVERIFY(w.referenceEdit()->text().isEmpty());
    w.decodes()->waitForDone();
}

ATTNVIZ_TEST_MAIN(TestDecodeState)
#include "test_decode_state.moc"
