// The fixture of tests that drive the main window as a user would (tests/ui/): settings kept away from the user's,
// three sibling models on disk, a fresh window with the additive one open before each test, typing that waits for
// the decode. Header-only: it needs attnviz::ui, which the ui tests link and attnviz_testsupport does not.
#pragma once
#include "heatmap/heatmap_view.h"
#include "test_models.h"
#include "window/main_window.h"
#include "window/source_editor.h"

#include <QCoreApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

// The window's resources (icons, translations); Q_INIT_RESOURCE cannot be used inside a namespace.
inline void initAttnvizResources() { Q_INIT_RESOURCE(attnviz); }

namespace attnviz::testing {

// The sentences the window tests type, with their references. "i ate an apple yesterday" has a gold alignment: sure
// links, and two possible ones (吃 了: "ate" to 了 is less certain, as is "an" to 苹果).
inline const QString kAppleSource = QStringLiteral("i ate an apple yesterday");
inline const QString kAppleReference = QStringLiteral("我 昨天 吃 了 一个 苹果");
inline const QString kAppleLinks = QStringLiteral("0-0 4-1 1-2 1?3 2-4 3-5 2?5");
inline const QString kMatSource = QStringLiteral("the cat sat on the mat .");
inline const QString kMatReference = QStringLiteral("猫 坐 在 垫子 上 。");

class MainWindowFixture {
protected:
    // From initTestCase: test-mode settings in a temporary folder (never the user's), and the siblings of one task
    // and vocabularies: additive / dot / scaled dot (no general on purpose).
    void setUpWindowTests(const QString& application_name) {
        initAttnvizResources();
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attnviz-tests"));
        QCoreApplication::setApplicationName(application_name);
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir_.path());
        QVERIFY2(QSettings().fileName().startsWith(settings_dir_.path()), qPrintable(QSettings().fileName()));
        additive_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 11, 3.0f), models_dir_,
                             QStringLiteral("test-bahdanau-additive.safetensors"));
        dot_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), 12, 3.0f), models_dir_,
                        QStringLiteral("test-bahdanau-dot.safetensors"));
        scaled_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::ScaledDot), 13, 3.0f), models_dir_,
                           QStringLiteral("test-bahdanau-scaled_dot.safetensors"));
    }

    // From init: cleared settings and a shown, non-interactive window with the additive model decoded.
    void openWindow() {
        QSettings().clear();
        w_ = std::make_unique<ui::MainWindow>();
        w_->setInteractive(false);
        w_->show();
        QVERIFY(w_->openModel(additive_));
        w_->decodes()->waitForDone();
    }

    // From cleanup.
    void closeWindow() {
        if (w_) w_->decodes()->waitForDone();
        w_.reset();
    }

    // Types `text` into an emptied source field; true once its decode arrived.
    bool typeAndWait(const QString& text) {
        w_->sourceEditor()->clear();  // an empty sentence is shown at once (no decode)
        w_->sourceEditor()->setFocus();
        QSignalSpy spy(w_.get(), &ui::MainWindow::decodeFinished);
        QTest::keyClicks(w_->sourceEditor(), text);
        return waitDecode(spy);
    }
    static bool waitDecode(QSignalSpy& spy) { return !spy.isEmpty() || spy.wait(20000); }

    // The weights the heatmap shows, row by row.
    static std::vector<std::vector<double>> shownWeights(const ui::HeatmapView& view) {
        std::vector<std::vector<double>> out;
        const QSize size = view.matrixSize();
        for (int r = 0; r < size.height(); ++r) {
            out.emplace_back();
            for (int c = 0; c < size.width(); ++c) out.back().push_back(view.cellValue(r, c));
        }
        return out;
    }

    QTemporaryDir settings_dir_;
    QTemporaryDir models_dir_;
    QString additive_, dot_, scaled_;
    std::unique_ptr<ui::MainWindow> w_;
};

}  // namespace attnviz::testing
