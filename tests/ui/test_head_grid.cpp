// The head grid dock as a user meets it, on a small random Transformer (2 encoder and 2 decoder layers, 2 heads):
// its thumbnails hold the numbers of an independent run of the engine's forward pass (nn/transformer: encode, then
// the decoder fed the decode's tokens one by one), a click on a thumbnail puts exactly that matrix in the main
// heatmap (decoder self-attention: nothing above the diagonal), stepping changes the rows shown, the grid exports as
// an image, and an RNN model disables the dock with a plain message; an encoder of 4 heads and a decoder of 2 show 4
// heads in the encoder's grid and 2 in the decoder's two.
#include "decode/attention_views.h"
#include "main_window_fixture.h"
#include "nn/transformer.h"
#include "state/decode_state.h"
#include "test_files.h"
#include "test_registry.h"
#include "views/head_grid.h"
#include "window/main_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

// 2 encoder and 2 decoder layers of 2 heads, a sibling of the fixture's RNN models.
// The engine's forward pass run again on the decode's source and output: the steps and the encoding.
struct EngineRun {
    TransformerEncoding encoding;
    std::vector<TransformerStep> steps;
};
EngineRun runEngine(const Model& m, const DecodeResult& r) {
    const Transformer net(m.config.transformer, m.transformer);
    EngineRun run{net.encode(r.source_ids), {}};
    TransformerDecoderState cache;
    int token = kSos;
    for (size_t i = 0; i < r.target_ids.size(); ++i) {
        run.steps.emplace_back();
        net.step(run.encoding, cache, token, run.steps.back());
        token = r.target_ids[i];
    }
    return run;
}

bool identicalMatrix(const HeadMatrix& shown, const Mat& engine) {
    if (int(shown.size()) != engine.rows()) return false;
    for (int i = 0; i < engine.rows(); ++i) {
        if (int(shown[size_t(i)].size()) != engine.cols()) return false;
        for (int j = 0; j < engine.cols(); ++j)
            if (shown[size_t(i)][size_t(j)] != engine(i, j)) return false;
    }
    return true;
}

}  // namespace

class TestHeadGrid : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup() { closeWindow(); }

    void cellsAreTheEnginesNumbers();
    void clickShowsThatMatrixInTheHeatmap();
    void steppingChangesTheRowsShown();
    void exportWritesOneImage();
    void rnnModelDisablesTheDock();
    void eachKindShowsItsSidesHeads();

private:
    HeadGridView* grid() const { return w_->headGrid(); }
    const DecodeResult& result() const { return w_->state()->decode()->result; }
    void click(int layer, int head) {
        const QPoint at = grid()->canvas()->thumbnailCenter(layer, head);
        QVERIFY(at.x() >= 0);
        QTest::mouseClick(grid()->canvas(), Qt::LeftButton, {}, at);
    }

    QTemporaryDir dir_;
    QString transformer_;
    std::shared_ptr<const Model> model_;
};

void TestHeadGrid::initTestCase() {
    setUpWindowTests(QStringLiteral("attnviz-test-head-grid"));
    const Model m = testing::smallTransformer(5, 2);
    transformer_ = testing::saveInto(m, models_dir_, QStringLiteral("test-transformer.safetensors"));
    model_ = std::make_shared<const Model>(testing::smallTransformer(5, 2));
}

void TestHeadGrid::init() {
    openWindow();
    QVERIFY(w_->openModel(transformer_));
    w_->decodes()->waitForDone();
    w_->resize(1400, 900);
    w_->headDock()->show();
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    QVERIFY(grid()->hasHeads());
}

void TestHeadGrid::cellsAreTheEnginesNumbers() {
    const EngineRun run = runEngine(*model_, result());
    QCOMPARE(int(run.steps.size()), w_->stepCount());
    grid()->setKind(AttentionKind::Cross);
    const HeadGridFigure* f = &grid()->canvas()->figure();
    QCOMPARE(f->layers(), 2);
    QCOMPARE(f->heads(), 2);
    QVERIFY(identicalMatrix(f->cells[1][0], crossAttentionMatrix(run.steps, 1, 0)));
    QVERIFY(identicalMatrix(f->cells[0][1], crossAttentionMatrix(run.steps, 0, 1)));
    QVERIFY(!identicalMatrix(f->cells[0][1], crossAttentionMatrix(run.steps, 0, 0)));  // the heads differ
    grid()->setKind(AttentionKind::DecoderSelf);
    QVERIFY(identicalMatrix(grid()->canvas()->figure().cells[1][1], decoderSelfAttentionMatrix(run.steps, 1, 1)));
    grid()->setKind(AttentionKind::EncoderSelf);
    QVERIFY(identicalMatrix(grid()->canvas()->figure().cells[0][1], run.encoding.self_attention[0][1]));
    // The mean over heads: the last layer's is the decode's `attention`, the default heatmap.
    grid()->setKind(AttentionKind::Cross);
    grid()->setAveraged(true);
    f = &grid()->canvas()->figure();
    QCOMPARE(f->heads(), 1);
    QVERIFY(identicalMatrix(f->cells[0][0], crossAttentionMatrix(run.steps, 0, -1)));
    QVERIFY(f->cells[1][0] == result().attention);
}

void TestHeadGrid::clickShowsThatMatrixInTheHeatmap() {
    const EngineRun run = runEngine(*model_, result());
    const int T = w_->stepCount(), S = int(result().source_ids.size());
    grid()->setKind(AttentionKind::DecoderSelf);
    click(1, 0);
    QVERIFY(w_->state()->attentionView() == (AttentionView{AttentionKind::DecoderSelf, 1, 0}));
    const Mat self = decoderSelfAttentionMatrix(run.steps, 1, 0);
    QCOMPARE(w_->heatmapView()->matrixSize(), QSize(T, T));
    for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j) {
            const double shown = w_->heatmapView()->cellValue(i, j);
            if (j > i)
                QVERIFY2(std::isnan(shown), "above the diagonal: empty");
            else
                QCOMPARE(shown, double(self(i, j)));
        }
    QCOMPARE(w_->heatmapView()->data().source_tokens.first(), QStringLiteral("<sos>"));
    QVERIFY(w_->attentionViewText().contains(QStringLiteral("Decoder self-attention, layer 2, head 1")));
    grid()->setKind(AttentionKind::EncoderSelf);
    click(0, 1);
    QCOMPARE(w_->heatmapView()->matrixSize(), QSize(S, S));
    QCOMPARE(w_->heatmapView()->cellValue(2, 3), double(run.encoding.self_attention[0][1](2, 3)));
    // Back to the default: the decode's `attention`, and no line above the heatmap.
    QVERIFY(grid()->defaultButton()->isEnabled());
    QTest::mouseClick(grid()->defaultButton(), Qt::LeftButton);
    QVERIFY(w_->state()->attentionView().isDefault());
    QVERIFY(w_->attentionViewText().isEmpty());
    QCOMPARE(w_->heatmapView()->matrixSize(), QSize(S, T));
    QCOMPARE(w_->heatmapView()->cellValue(1, 2), double(result().attention[1][2]));
}

void TestHeadGrid::steppingChangesTheRowsShown() {
    grid()->setKind(AttentionKind::Cross);
    click(0, 0);
    const QImage end = grid()->canvas()->grab().toImage();
    w_->setCursorStep(1);
    QCOMPARE(grid()->canvas()->figure().visible_rows, 1);
    QVERIFY(std::isnan(w_->heatmapView()->cellValue(1, 0)));  // row 1 not decoded yet
    QCOMPARE(w_->heatmapView()->cellValue(0, 0), double(result().cross_attention[0][0](0, 0)));
    const QImage first = grid()->canvas()->grab().toImage();
    QVERIFY(first != end);
    w_->step(MainWindow::Step::Forward);
    QCOMPARE(grid()->canvas()->figure().visible_rows, 2);
    QVERIFY(!std::isnan(w_->heatmapView()->cellValue(1, 0)));
    // The encoder runs once: its self-attention is whole at every step.
    grid()->setKind(AttentionKind::EncoderSelf);
    QCOMPARE(grid()->canvas()->figure().visible_rows, -1);
}

void TestHeadGrid::exportWritesOneImage() {
    QTemporaryDir out;
    QString error;
    const QString png = out.filePath(QStringLiteral("grid.png"));
    QVERIFY2(grid()->exportTo(png, ExportOptions{}, &error), qPrintable(error));
    const QImage image(png);
    QVERIFY(!image.isNull());
    // Two layers of two thumbnails of at least 4 pixels a cell (at 144 dpi: 1.5 x the screen's layout).
    const int S = int(result().source_ids.size());
    QVERIFY2(image.width() >= 2 * 4 * S && image.height() >= 2 * 4 * w_->stepCount(), qPrintable(error));
    QVERIFY(image.width() <= 20000 && image.height() <= 20000);
    int coloured = 0;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            if (qGray(image.pixel(x, y)) < 200) ++coloured;
    QVERIFY(coloured > 50);
    const QString svg = out.filePath(QStringLiteral("grid.svg"));
    QVERIFY2(grid()->exportTo(svg, ExportOptions{}, &error), qPrintable(error));
    const QByteArray text = testing::readFile(svg);
    QVERIFY(text.contains("<svg") && text.contains("layer 2") && text.contains("head 2"));
    const QString pdf = out.filePath(QStringLiteral("grid.pdf"));
    QVERIFY2(grid()->exportTo(pdf, ExportOptions{}, &error), qPrintable(error));
    QVERIFY(testing::readFile(pdf).startsWith("%PDF"));
    // Not an image, or a folder that does not exist: an error naming the path, no file.
    const QString csv = out.filePath(QStringLiteral("grid.csv"));
    QVERIFY(!grid()->exportTo(csv, ExportOptions{}, &error));
    QVERIFY(error.contains(csv));
    QVERIFY(!QFile::exists(csv));
    const QString missing = out.filePath(QStringLiteral("no/such/grid.png"));
    QVERIFY(!grid()->exportTo(missing, ExportOptions{}, &error));
    QVERIFY(!QFile::exists(missing));
}

void TestHeadGrid::rnnModelDisablesTheDock() {
    grid()->setKind(AttentionKind::EncoderSelf);
    click(1, 1);
    QVERIFY(!w_->state()->attentionView().isDefault());
    QVERIFY(w_->openModel(additive_));
    w_->decodes()->waitForDone();
    QVERIFY(typeAndWait(QStringLiteral("the cat sat")));
    QVERIFY(!grid()->hasHeads());
    QVERIFY(grid()->canvas()->figure().isEmpty());
    QVERIFY(!grid()->kindBox()->isEnabled() && !grid()->exportButton()->isEnabled());
    QVERIFY(grid()->messageText().contains(QStringLiteral("no attention heads")));
    // The heatmap is back on the model's one attention.
    QVERIFY(w_->state()->attentionView().isDefault());
    QCOMPARE(w_->heatmapView()->cellValue(0, 1), double(result().attention[0][1]));
    QString error;
    QVERIFY(!grid()->exportTo(QDir::temp().filePath(QStringLiteral("attnviz-no-grid.png")), {}, &error));
}

void TestHeadGrid::eachKindShowsItsSidesHeads() {
    Model m = testing::smallTransformer(5, 2);
    TransformerConfig& c = m.config.transformer;
    c.encoder_nhead = 4;  // d_model 8: heads of 2; the decoder keeps 2 heads of 4
    const QString path = testing::saveInto(m, models_dir_, QStringLiteral("uneven-transformer.safetensors"));
    QVERIFY(w_->openModel(path));
    w_->decodes()->waitForDone();
    QVERIFY(typeAndWait(QStringLiteral("the cat sat")));
    const EngineRun run = runEngine(m, result());
    grid()->setKind(AttentionKind::EncoderSelf);
    QCOMPARE(grid()->canvas()->figure().heads(), 4);
    QVERIFY(identicalMatrix(grid()->canvas()->figure().cells[1][3], run.encoding.self_attention[1][3]));
    click(1, 3);
    QCOMPARE(w_->state()->attentionView(), (AttentionView{AttentionKind::EncoderSelf, 1, 3}));
    for (AttentionKind kind : {AttentionKind::Cross, AttentionKind::DecoderSelf}) {
        grid()->setKind(kind);
        QCOMPARE(grid()->canvas()->figure().heads(), 2);
    }
    QVERIFY(identicalMatrix(grid()->canvas()->figure().cells[1][1], decoderSelfAttentionMatrix(run.steps, 1, 1)));
}

ATTNVIZ_TEST_MAIN(TestHeadGrid)
#include "test_head_grid.moc"
