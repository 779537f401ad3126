// The window among siblings that differ in more than the score: the scoring buttons move only to the sibling with
// the open model's other settings (never a luong model from a bahdanau one, never guided from unguided), a button
// without one is disabled with a tooltip saying why, and the Siblings menu lists every sibling with what differs and
// opens the chosen file keeping the sentence. A "what if" carries over as what the user forced, not the tokens the
// first model chose on the way there.
#include "decode/decoding.h"
#include "heatmap/heatmap_view.h"
#include "io/model_file.h"
#include "state/forcing_history.h"
#include "test_models.h"
#include "test_registry.h"
#include "window/main_window.h"
#include "window/siblings_menu.h"

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::testing::saveInto;
using attnviz::testing::smallConfig;
using attnviz::testing::smallModel;

namespace {

Model trained(Model m, double align_weight) {
    m.training = nlohmann::json{{"align_weight", align_weight}}.dump();
    return m;
}

}  // namespace

class TestSiblingsMenu : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void buttonsEnabledOnlyForTheSameSettings();
    void dotOnBahdanauLoadsTheBahdanauDot();
    void siblingsMenuListsWhatDiffers();
    void choosingASiblingLoadsItKeepingTheSentence();
    void fromTheGuidedModelOnlyGuidedSiblings();
    void siblingKeepsOnlyTheTokensTheUserForced();
    void userAtTheEndStaysAtTheEnd();

private:
    bool openAndType(const QString& path, const QString& sentence);
    QString path(const QString& name) const { return models_dir_.filePath(name + ".safetensors"); }
    QStringList menuTexts() const;

    QTemporaryDir settings_dir_;
    QTemporaryDir models_dir_;
    std::unique_ptr<MainWindow> w_;
};

void TestSiblingsMenu::initTestCase() {
    Q_INIT_RESOURCE(attnviz);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("attnviz-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_siblings_menu"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir_.path());

    using DK = DecoderKind;
    using SK = ScoreKind;
    // "a-luong-dot" sorts before "c-bahdanau-dot": picking the first dot file would swap in a luong model.
    saveInto(trained(smallModel(smallConfig(DK::Bahdanau, SK::Additive), 51, 3.0f), 0), models_dir_,
             "b-bahdanau-additive.safetensors");
    saveInto(trained(smallModel(smallConfig(DK::Luong, SK::Dot), 52, 3.0f), 0), models_dir_, "a-luong-dot.safetensors");
    saveInto(trained(smallModel(smallConfig(DK::Bahdanau, SK::Dot), 53, 3.0f), 0), models_dir_,
             "c-bahdanau-dot.safetensors");
    saveInto(trained(smallModel(smallConfig(DK::Luong, SK::General, SpanKind::Global, true), 54, 3.0f), 0), models_dir_,
             "d-luong-general-feed.safetensors");
    saveInto(trained(smallModel(smallConfig(DK::Bahdanau, SK::Additive), 55, 3.0f), 1), models_dir_,
             "e-bahdanau-additive-guided.safetensors");
}

void TestSiblingsMenu::init() {
    QSettings().clear();
    w_ = std::make_unique<MainWindow>();
    w_->setInteractive(false);
    w_->show();
}

void TestSiblingsMenu::cleanup() {
    if (w_) w_->decodes()->waitForDone();
    w_.reset();
}

bool TestSiblingsMenu::openAndType(const QString& file, const QString& sentence) {
    if (!w_->openModel(file)) return false;
    w_->decodes()->waitForDone();
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    w_->setSourceText(sentence);
    w_->decodeNow();
    return !spy.isEmpty() || spy.wait(20000);
}

QStringList TestSiblingsMenu::menuTexts() const {
    QStringList out;
    for (QAction* a : w_->siblingsMenu()->actions()) out << a->text();
    return out;
}

void TestSiblingsMenu::buttonsEnabledOnlyForTheSameSettings() {
    QVERIFY(openAndType(path("b-bahdanau-additive"), QStringLiteral("i love you")));
    QVERIFY(w_->scoreAction(ScoreKind::Additive)->isEnabled());
    QVERIFY(w_->scoreAction(ScoreKind::Additive)->isChecked());
    QVERIFY(w_->scoreAction(ScoreKind::Dot)->isEnabled());
    QVERIFY(w_->scoreAction(ScoreKind::Dot)->toolTip().contains(QStringLiteral("c-bahdanau-dot.safetensors")));
    // General exists only as a luong input-feeding model: disabled, and the tooltip says what differs.
    QAction* general = w_->scoreAction(ScoreKind::General);
    QVERIFY(!general->isEnabled());
    QVERIFY2(general->toolTip().contains(QStringLiteral("no model trained with general scoring and this model's "
                                                        "other settings")),
             qPrintable(general->toolTip()));
    QVERIFY2(general->toolTip().contains(QStringLiteral(
                 "d-luong-general-feed.safetensors differs in more: Luong (RNN) · general · input feeding")),
             qPrintable(general->toolTip()));
    // No scaled dot at all: the plain reason.
    QAction* scaled = w_->scoreAction(ScoreKind::ScaledDot);
    QVERIFY(!scaled->isEnabled());
    QVERIFY2(
        scaled->toolTip().startsWith(QStringLiteral("no model trained with scaled_dot scoring for task test-task")),
        qPrintable(scaled->toolTip()));
    QVERIFY(!w_->switchScore(ScoreKind::General));
    QCOMPARE(w_->modelPath(), QFileInfo(path("b-bahdanau-additive")).absoluteFilePath());
}

void TestSiblingsMenu::dotOnBahdanauLoadsTheBahdanauDot() {
    QVERIFY(openAndType(path("b-bahdanau-additive"), QStringLiteral("i love the cat")));
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    w_->scoreAction(ScoreKind::Dot)->trigger();
    QVERIFY(spy.wait(20000));
    QCOMPARE(QFileInfo(w_->modelPath()).fileName(), QStringLiteral("c-bahdanau-dot.safetensors"));
    QVERIFY(w_->model()->config.decoder == DecoderKind::Bahdanau);
    const Model dot = loadModel(path("c-bahdanau-dot").toStdString());
    QCOMPARE(w_->decodes()->outcome()->result.attention, greedyDecode(dot, "i love the cat").attention);
    // From the bahdanau dot model, additive goes back to the unguided additive one.
    QVERIFY(
        w_->scoreAction(ScoreKind::Additive)->toolTip().contains(QStringLiteral("b-bahdanau-additive.safetensors")));
}

void TestSiblingsMenu::siblingsMenuListsWhatDiffers() {
    QVERIFY(openAndType(path("b-bahdanau-additive"), QStringLiteral("i love you")));
    const QStringList texts = menuTexts();
    // Sorted by score, then path.
    const QStringList want = {"b-bahdanau-additive — this model", "e-bahdanau-additive-guided — guided",
                              "a-luong-dot — Luong (RNN) · dot", "c-bahdanau-dot — dot",
                              "d-luong-general-feed — Luong (RNN) · general · input feeding"};
    QCOMPARE(texts, want);
    QAction* self = w_->siblingsMenu()->actions().first();
    QVERIFY(self->isChecked());
    QVERIFY(!w_->siblingsMenu()->actions().at(3)->isChecked());
    // The menu is in the menu bar.
    bool in_bar = false;
    for (QAction* a : w_->menuBar()->actions()) in_bar = in_bar || a->menu() == w_->siblingsMenu();
    QVERIFY(in_bar);
    // The toolbar's Siblings button opens the menu on a click anywhere on it, as a user expects of a button that does
    // nothing else.
    auto* bar = w_->findChild<QToolBar*>(QStringLiteral("ScoreToolBar"));
    QVERIFY(bar);
    auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(w_->siblingsMenu()->menuAction()));
    QVERIFY(button);
    bool opened = false;
    QTimer::singleShot(50, [&opened] {
        QWidget* popup = QApplication::activePopupWidget();
        opened = popup != nullptr;
        if (popup) popup->close();
    });
    QTest::mouseClick(button, Qt::LeftButton, {}, QPoint(8, button->height() / 2));  // on its text, left of the arrow
    QTRY_VERIFY_WITH_TIMEOUT(opened, 2000);
}

void TestSiblingsMenu::choosingASiblingLoadsItKeepingTheSentence() {
    QVERIFY(openAndType(path("b-bahdanau-additive"), QStringLiteral("i ate an apple")));
    QAction* luong = nullptr;
    for (QAction* a : w_->siblingsMenu()->actions())
        if (a->text().startsWith(QStringLiteral("d-luong-general-feed"))) luong = a;
    QVERIFY(luong);
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    luong->trigger();
    QVERIFY(spy.wait(20000));
    QCOMPARE(QFileInfo(w_->modelPath()).fileName(), QStringLiteral("d-luong-general-feed.safetensors"));
    QCOMPARE(w_->sourceText(), QStringLiteral("i ate an apple"));
    const Model feed = loadModel(path("d-luong-general-feed").toStdString());
    QCOMPARE(w_->decodes()->outcome()->result.attention, greedyDecode(feed, "i ate an apple").attention);
    // The menu now speaks from the luong model.
    QVERIFY(menuTexts().contains(QStringLiteral("d-luong-general-feed — this model")));
    QVERIFY(menuTexts().contains(QStringLiteral("c-bahdanau-dot — Bahdanau (RNN) · dot · no input feeding")));
    QVERIFY(w_->scoreAction(ScoreKind::General)->isChecked());
    QVERIFY(!w_->scoreAction(ScoreKind::Dot)->isEnabled());  // a-luong-dot has no input feeding
}

void TestSiblingsMenu::fromTheGuidedModelOnlyGuidedSiblings() {
    QVERIFY(openAndType(path("e-bahdanau-additive-guided"), QStringLiteral("i love you")));
    QAction* dot = w_->scoreAction(ScoreKind::Dot);
    QVERIFY(!dot->isEnabled());
    QVERIFY2(dot->toolTip().contains(QStringLiteral("c-bahdanau-dot.safetensors differs in more: dot · unguided")),
             qPrintable(dot->toolTip()));
    QVERIFY(menuTexts().contains(QStringLiteral("b-bahdanau-additive — unguided")));
}

void TestSiblingsMenu::siblingKeepsOnlyTheTokensTheUserForced() {
    const std::string sentence = "i love the cat on the mat";
    QVERIFY(openAndType(path("b-bahdanau-additive"), QString::fromStdString(sentence)));
    const Model additive = loadModel(path("b-bahdanau-additive").toStdString());
    const Model dot = loadModel(path("c-bahdanau-dot").toStdString());
    const std::vector<int> own_additive = greedyDecode(additive, sentence).target_ids;
    const std::vector<int> own_dot = greedyDecode(dot, sentence).target_ids;
    // The case that matters: the two models choose differently before the forced step.
    constexpr int kStep = 2;
    QVERIFY(own_additive.size() > size_t(kStep) && own_dot.size() > size_t(kStep));
    QVERIFY(!std::equal(own_additive.begin(), own_additive.begin() + kStep, own_dot.begin()));
    // The user forces, at step 2, a token neither model chooses there.
    int token = -1;
    for (const auto& c : w_->decodes()->outcome()->steps[kStep].top_k)
        if (c.id != own_additive[kStep] && c.id != own_dot[kStep] && c.id != kEos) token = c.id;
    QVERIFY(token >= 0);
    QSignalSpy forced(w_.get(), &MainWindow::decodeFinished);
    QVERIFY(w_->forcingHistory()->force(kStep, token));
    QVERIFY(forced.wait(20000));

    QSignalSpy switched(w_.get(), &MainWindow::decodeFinished);
    w_->scoreAction(ScoreKind::Dot)->trigger();
    QVERIFY(switched.wait(20000));
    // The dot model's own steps 0 and 1, the user's token at step 2, then dot's greedy decode: as the engine decodes it.
    DecodingSession session(std::make_shared<const Model>(dot), sentence);
    QVERIFY(session.forward() && session.forward());
    session.force(kStep, token);
    session.runToEnd();
    const DecodeResult expected = resultFromSession(session);
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, expected.target_ids);
    QCOMPARE(w_->decodes()->outcome()->result.attention, expected.attention);
    std::vector<bool> forced_steps;
    for (const StepRecord& step : w_->decodes()->outcome()->steps) forced_steps.push_back(step.forced);
    std::vector<bool> want(expected.target_ids.size(), false);
    want[kStep] = true;
    QCOMPARE(forced_steps, want);
    QCOMPARE(w_->heatmapView()->labelMarks().forced_rows, QVector<int>{kStep});
}

void TestSiblingsMenu::userAtTheEndStaysAtTheEnd() {
    // A sentence the dot model decodes longer than the additive one, so that "the same step" is not the end.
    const Model additive = loadModel(path("b-bahdanau-additive").toStdString());
    const Model dot = loadModel(path("c-bahdanau-dot").toStdString());
    const std::vector<std::string> words = {"i", "love", "you", "the", "cat", "sat", "on", "mat", "apple", "."};
    QString sentence;
    for (size_t i = 0; i < words.size() && sentence.isEmpty(); ++i)
        for (size_t j = 0; j < words.size() && sentence.isEmpty(); ++j) {
            const std::string text = words[i] + " " + words[j];
            if (greedyDecode(additive, text).target_ids.size() < greedyDecode(dot, text).target_ids.size())
                sentence = QString::fromStdString(text);
        }
    QVERIFY2(!sentence.isEmpty(), "no test sentence that the dot model decodes longer");
    QVERIFY(openAndType(path("b-bahdanau-additive"), sentence));
    QCOMPARE(w_->cursorStep(), w_->stepCount());
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    w_->scoreAction(ScoreKind::Dot)->trigger();
    QVERIFY(spy.wait(20000));
    QCOMPARE(w_->stepCount(), int(greedyDecode(dot, sentence.toStdString()).target_ids.size()));
    QCOMPARE(w_->cursorStep(), w_->stepCount());
}

ATTNVIZ_TEST_MAIN(TestSiblingsMenu)
#include "test_siblings_menu.moc"
