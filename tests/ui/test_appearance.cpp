// The window in another language and another theme, as a user switches them: View → Language changes the visible
// texts to the .qm's strings and back, keeping what the window shows; View → Theme changes the palette and the
// heatmap's paper while exports stay white unless the export dialog picks another background; the About text names
// the version and credits Tatoeba where its data ships.
#include "attnviz_version.h"
#include "dialogs/export_dialog.h"
#include "dialogs/model_library.h"
#include "heatmap/heatmap_export.h"
#include "heatmap/heatmap_view.h"
#include "test_models.h"
#include "test_registry.h"
#include "window/about.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/step_panel.h"
#include "window/theme.h"

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyleOptionButton>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QTranslator>

#include <algorithm>
#include <cstdlib>
#include <memory>

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::testing::saveInto;
using attnviz::testing::smallConfig;
using attnviz::testing::smallModel;

class TestAppearance : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void languageMenuSwitchesTextsAndBack();
    void languageFollowsTheSystemLocaleUnlessChosen();
    void themeChangesWindowAndHeatmapButNotExports();
    void darkThemeDrawsUncheckedBoxesVisibly();
    void exportDialogPicksTheBackground();
    void aboutNamesVersionAndTatoeba();

private:
    QString zh(const char* source) const { return zh_.translate("attnviz::ui::MainWindow", source); }
    QString menuTitle(int index) const { return w_->menuBar()->actions().value(index)->text(); }
    QAction* menuAction(const QString& data) const;
    QToolButton* scoreButton(ScoreKind score) const;
    void switchLanguage(const QString& code);

    QTemporaryDir settings_dir_;
    QTemporaryDir models_dir_;
    QString model_;
    QTranslator zh_;  // the embedded .qm, read directly: what the window should show in Chinese
    std::unique_ptr<MainWindow> w_;
};

void TestAppearance::initTestCase() {
    Q_INIT_RESOURCE(attnviz);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("attnviz-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_appearance"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir_.path());
    QVERIFY2(QSettings().fileName().startsWith(settings_dir_.path()), qPrintable(QSettings().fileName()));
    QVERIFY(zh_.load(QStringLiteral(":/i18n/attnviz_zh_CN.qm")));
    model_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 11, 3.0f), models_dir_,
                      QStringLiteral("test-bahdanau-additive.safetensors"));
}

void TestAppearance::init() {
    QSettings().clear();
    setLanguage(QStringLiteral("en"));
    setTheme(Theme::System);
    QCoreApplication::sendPostedEvents();
    w_ = std::make_unique<MainWindow>();
    w_->setInteractive(false);
    w_->show();
    QVERIFY(w_->openModel(model_));
    w_->decodes()->waitForDone();
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    w_->setSourceText(QStringLiteral("i love you"));
    w_->decodeNow();
    QVERIFY(!decoded.isEmpty() || decoded.wait(20000));
    w_->decodes()->waitForDone();
}

void TestAppearance::cleanup() {
    if (w_) w_->decodes()->waitForDone();
    w_.reset();
    setLanguage(QStringLiteral("en"));
    setTheme(Theme::System);
}

QAction* TestAppearance::menuAction(const QString& data) const {
    for (QAction* a : w_->findChildren<QAction*>())
        if (a->data().toString() == data && a->isCheckable()) return a;
    return nullptr;
}

QToolButton* TestAppearance::scoreButton(ScoreKind score) const {
    auto* bar = w_->findChild<QToolBar*>(QStringLiteral("ScoreToolBar"));
    return bar ? qobject_cast<QToolButton*>(bar->widgetForAction(w_->scoreAction(score))) : nullptr;
}

void TestAppearance::switchLanguage(const QString& code) {
    QAction* a = menuAction(code);
    QVERIFY2(a, qPrintable(code));
    a->trigger();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
}

// ------------------------------------------------------------------------------------------------ language

void TestAppearance::languageMenuSwitchesTextsAndBack() {
    w_->hideSpecialsAction()->setChecked(true);
    const int steps = w_->stepCount();
    QVERIFY(steps > 0);
    QCOMPARE(menuTitle(0), QStringLiteral("&File"));
    QCOMPARE(scoreButton(ScoreKind::Additive)->text(), QStringLiteral("Additive"));
    auto* dock = w_->findChild<QDockWidget*>(QStringLiteral("StepDock"));
    QCOMPARE(dock->windowTitle(), QStringLiteral("Current step"));

    switchLanguage(QStringLiteral("zh_CN"));
    QCOMPARE(currentLanguage(), QStringLiteral("zh_CN"));
    QCOMPARE(QSettings().value(QStringLiteral("View/language")).toString(), QStringLiteral("zh_CN"));
    QCOMPARE(menuTitle(0), zh("&File"));
    QVERIFY(menuTitle(0).contains(QChar(0x6587)));  // 文: really Chinese, not the source text passed through
    QCOMPARE(menuTitle(2), zh("&View"));
    QCOMPARE(scoreButton(ScoreKind::Additive)->text(), zh("Additive"));
    QCOMPARE(scoreButton(ScoreKind::Additive)->text(), QStringLiteral("加性"));
    QCOMPARE(dock->windowTitle(), zh("Current step"));
    QCOMPARE(w_->playAction()->text(), zh("&Play"));
    // What the window showed stays: the sentence, its decode and step, the toggles, the menu's own check.
    QCOMPARE(w_->sourceText(), QStringLiteral("i love you"));
    QCOMPARE(w_->stepCount(), steps);
    QVERIFY(w_->hideSpecialsAction()->isChecked());
    QVERIFY(w_->heatmapView()->style().hide_specials);
    QVERIFY(menuAction(QStringLiteral("zh_CN"))->isChecked());
    // The step panel's own texts follow too.
    QCOMPARE(w_->stepPanel()->candidateList()->headerItem()->text(1),
             zh_.translate("attnviz::ui::StepPanel", "Probability"));

    switchLanguage(QStringLiteral("en"));
    QCOMPARE(currentLanguage(), QStringLiteral("en"));
    QCOMPARE(menuTitle(0), QStringLiteral("&File"));
    QCOMPARE(scoreButton(ScoreKind::Additive)->text(), QStringLiteral("Additive"));
    QCOMPARE(dock->windowTitle(), QStringLiteral("Current step"));
    QCOMPARE(w_->stepPanel()->candidateList()->headerItem()->text(1), QStringLiteral("Probability"));
    QVERIFY(w_->hideSpecialsAction()->isChecked());
}

void TestAppearance::languageFollowsTheSystemLocaleUnlessChosen() {
    QCOMPARE(languageForLocale(QLocale(QStringLiteral("zh_CN"))), QStringLiteral("zh_CN"));
    QCOMPARE(languageForLocale(QLocale(QStringLiteral("zh_SG"))), QStringLiteral("zh_CN"));
    QCOMPARE(languageForLocale(QLocale(QStringLiteral("en_GB"))), QStringLiteral("en"));
    QCOMPARE(languageForLocale(QLocale(QStringLiteral("fr_FR"))), QStringLiteral("en"));  // no French yet
    QVERIFY(!setLanguage(QStringLiteral("xx")));
    QCOMPARE(currentLanguage(), QStringLiteral("en"));

    QCOMPARE(savedLanguageChoice(), QString());  // nothing chosen: the system's
    saveLanguageChoice(QStringLiteral("zh_CN"));
    applySavedLanguage();
    QCOMPARE(currentLanguage(), QStringLiteral("zh_CN"));
    QCOMPARE(QCoreApplication::translate("attnviz::ui::MainWindow", "&Edit"), zh("&Edit"));
    saveLanguageChoice(QStringLiteral("en"));
    applySavedLanguage();
    QCOMPARE(QCoreApplication::translate("attnviz::ui::MainWindow", "&Edit"), QStringLiteral("&Edit"));
    saveLanguageChoice(QString());
    applySavedLanguage();
    QCOMPARE(currentLanguage(), languageForLocale(QLocale::system()));
}

// ------------------------------------------------------------------------------------------------ theme

void TestAppearance::themeChangesWindowAndHeatmapButNotExports() {
    auto paper = [this] { return w_->heatmapView()->plot()->toPixmap(200, 150).toImage().pixelColor(1, 1); };
    QVERIFY(w_->palette().color(QPalette::Window).lightness() > 128);  // offscreen's default is light
    QVERIFY(paper().lightness() > 200);

    QAction* dark = menuAction(QStringLiteral("dark"));
    QVERIFY(dark);
    dark->trigger();
    QCoreApplication::sendPostedEvents();
    QCOMPARE(currentTheme(), Theme::Dark);
    QCOMPARE(QSettings().value(QStringLiteral("View/theme")).toString(), QStringLiteral("dark"));
    QCOMPARE(w_->palette().color(QPalette::Window), darkPalette().color(QPalette::Window));
    QVERIFY(w_->palette().color(QPalette::Window).lightness() < 80);
    QCOMPARE(paper(), darkPalette().color(QPalette::Base));  // the heatmap is drawn on the dark base

    // The figure as exported (and copied) keeps its white paper in the dark theme.
    const QImage figure = renderHeatmapImage(w_->heatmapView()->data(), w_->exportOptions());
    QCOMPARE(figure.pixelColor(1, 1), QColor(Qt::white));

    menuAction(QStringLiteral("light"))->trigger();
    QCoreApplication::sendPostedEvents();
    QVERIFY(w_->palette().color(QPalette::Window).lightness() > 128);
    QVERIFY(paper().lightness() > 200);
}

namespace {

// The largest difference in lightness between `background` and any pixel of `area` in `image`.
int contrastIn(const QImage& image, const QRect& area, const QColor& background) {
    int most = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x)
            if (image.valid(x, y))
                most = std::max(most, std::abs(image.pixelColor(x, y).lightness() - background.lightness()));
    return most;
}

}  // namespace

// An unchecked check box, and an unchecked toggle item of a menu, show their box in the dark theme: its edge stands
// out from the window (and the menu) by at least a quarter of the lightness range.
void TestAppearance::darkThemeDrawsUncheckedBoxesVisibly() {
    menuAction(QStringLiteral("dark"))->trigger();
    QCoreApplication::sendPostedEvents();
    const QColor window = darkPalette().color(QPalette::Window);
    constexpr int kVisible = 64;

    QCheckBox box(QStringLiteral("Count <sos>/<eos>"));
    box.resize(box.sizeHint());
    QStyleOptionButton option;
    option.initFrom(&box);
    const QRect indicator = box.style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, &box);
    QVERIFY(!indicator.isEmpty());
    QVERIFY2(contrastIn(box.grab().toImage(), indicator, window) >= kVisible,
             qPrintable(QString::number(contrastIn(box.grab().toImage(), indicator, window))));

    QMenu menu;
    QAction* toggle = menu.addAction(QStringLiteral("Coverage and entropy"));
    toggle->setCheckable(true);
    menu.resize(menu.sizeHint());
    const QImage image = menu.grab().toImage();
    const QRect item = menu.actionGeometry(toggle);
    // The check column: left of the text, which starts after the indicator.
    const QRect column(item.left() + 2, item.top() + 2, item.height(), item.height() - 4);
    const QColor menu_background = image.pixelColor(item.right() - 2, item.center().y());
    QVERIFY2(contrastIn(image, column, menu_background) >= kVisible,
             qPrintable(QString::number(contrastIn(image, column, menu_background))));
}

void TestAppearance::exportDialogPicksTheBackground() {
    setTheme(Theme::Dark);
    ExportDialog dialog(QStringLiteral("/tmp/attention.png"), w_->exportOptions(), w_.get());
    QCOMPARE(dialog.options().style.background, QColor(Qt::white));  // the default, even in the dark theme
    QComboBox* box = dialog.backgroundBox();
    box->setCurrentIndex(box->findData(QColor(Qt::black)));
    QCOMPARE(dialog.options().style.background, QColor(Qt::black));
    const QImage black = renderHeatmapImage(w_->heatmapView()->data(), dialog.options());
    QCOMPARE(black.pixelColor(1, 1), QColor(Qt::black));
    box->setCurrentIndex(2);  // as in the window
    QCOMPARE(dialog.options().style.background, darkPalette().color(QPalette::Base));
}

// ------------------------------------------------------------------------------------------------ about

void TestAppearance::aboutNamesVersionAndTatoeba() {
    const QString text = aboutText(sampleModelDirs());  // the source tree's sample_models/ has tatoeba/
    QVERIFY2(text.contains(QStringLiteral(ATTNVIZ_VERSION)), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("Tatoeba")));
    QVERIFY(text.contains(QStringLiteral("CC-BY 2.0 FR")));
    for (const char* library : {"Qt", "Eigen", "QCustomPlot"}) QVERIFY(text.contains(QLatin1String(library)));
    QTemporaryDir no_tatoeba;
    QVERIFY(!aboutText({no_tatoeba.path()}).contains(QStringLiteral("Tatoeba")));  // credited only when shipped

    setLanguage(QStringLiteral("zh_CN"));
    const QString chinese = aboutText(sampleModelDirs());
    QVERIFY(chinese != text);
    QVERIFY(chinese.contains(QStringLiteral(ATTNVIZ_VERSION)));
    QVERIFY(chinese.contains(QStringLiteral("Tatoeba")));
}

ATTNVIZ_TEST_MAIN(TestAppearance)
#include "test_appearance.moc"
