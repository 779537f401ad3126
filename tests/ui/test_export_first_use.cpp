// The export as a new user meets it: with the default settings on an account without a Pictures folder the export
// succeeds (the folder is made, or the home folder is used), the typed title is there again next time, the file
// label's mnemonic works (no literal "&"), a folder that does not exist is refused in the dialog.
#include "dialogs/export_dialog.h"
#include "main_window_fixture.h"
#include "test_registry.h"
#include "views/export_prompt.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

// Runs `act` on the export dialog once it is shown modally (exec() returns when `act` closes it), for as long as
// the returned token lives (so that `act`, which holds the test's locals, never runs after the test).
void pollForDialog(const std::weak_ptr<int>& token, const std::function<void(ExportDialog*)>& act) {
    QTimer::singleShot(10, [token, act] {
        if (token.expired()) return;
        if (auto* d = qobject_cast<ExportDialog*>(QApplication::activeModalWidget()))
            act(d);
        else
            pollForDialog(token, act);
    });
}

[[nodiscard]] std::shared_ptr<int> whenDialogShown(const std::function<void(ExportDialog*)>& act) {
    auto token = std::make_shared<int>(0);
    pollForDialog(token, act);
    return token;
}

// The field of the form row whose label reads `text` (its buddy: what Alt+mnemonic focuses).
QWidget* fieldOf(QDialog* dialog, const QString& text) {
    for (QLabel* l : dialog->findChildren<QLabel*>())
        if (l->text() == text) return l->buddy();
    return nullptr;
}

QAction* exportAction(QMainWindow* w) {
    for (QAction* a : w->findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(QKeySequence::Save)) return a;
    return nullptr;
}

// $HOME pointing at a fresh folder for the test's lifetime (QStandardPaths' Pictures folder is $HOME/Pictures).
class FreshHome {
public:
    FreshHome() : old_(qgetenv("HOME")) { qputenv("HOME", QFile::encodeName(dir_.path())); }
    ~FreshHome() { qputenv("HOME", old_); }
    QString path(const QString& name = {}) const { return name.isEmpty() ? dir_.path() : dir_.filePath(name); }

private:
    QTemporaryDir dir_;
    QByteArray old_;
};

}  // namespace

class TestExportFirstUse : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_export_first_use")); }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void defaultExportSucceedsWithoutAPicturesFolder();
    void suggestionFallsBackToFoldersThatExist();
    void heatmapExportStartsAtAnotherViewsLastExport();
    void typedTitleIsRememberedAndWritten();
    void fileLabelMnemonicFocusesTheFileField();
    void missingFolderIsRefusedBeforeWriting();
};

void TestExportFirstUse::defaultExportSucceedsWithoutAPicturesFolder() {
    FreshHome home;
    QVERIFY(!QFileInfo::exists(home.path(QStringLiteral("Pictures"))));
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QString suggested;
    bool save_enabled = false;
    const auto answer = whenDialogShown([&](ExportDialog* d) {
        suggested = d->path();
        auto* buttons = d->findChild<QDialogButtonBox*>();
        save_enabled = buttons->button(QDialogButtonBox::Save)->isEnabled();
        if (save_enabled)
            buttons->button(QDialogButtonBox::Save)->click();  // the defaults, as they come
        else
            d->reject();
    });
    QSignalSpy errors(w_.get(), &MainWindow::errorReported);
    QVERIFY(exportAction(w_.get()));
    exportAction(w_.get())->trigger();
    QVERIFY2(save_enabled, qPrintable(suggested));
    QCOMPARE(errors.count(), 0);
    QCOMPARE(QFileInfo(suggested).absolutePath(), QFileInfo(home.path(QStringLiteral("Pictures"))).absoluteFilePath());
    QVERIFY(QFileInfo::exists(suggested));
    QCOMPARE(QImage(suggested).size(), QSize(w_->exportOptions().width, w_->exportOptions().height));
}

void TestExportFirstUse::suggestionFallsBackToFoldersThatExist() {
    FreshHome home;
    // Pictures cannot be made (a file holds its name): the home folder.
    QFile blocker(home.path(QStringLiteral("Pictures")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    QCOMPARE(QFileInfo(suggestedExportPath({})).absolutePath(), QFileInfo(home.path()).absoluteFilePath());
    QCOMPARE(QFileInfo(suggestedExportPath({})).fileName(), QStringLiteral("attention.png"));
    // The last export's folder is gone: same file name, in a folder that exists.
    const QString gone = home.path(QStringLiteral("gone/figure.svg"));
    QCOMPARE(QFileInfo(suggestedExportPath(gone)).fileName(), QStringLiteral("figure.svg"));
    QVERIFY(QFileInfo(suggestedExportPath(gone)).dir().exists());
    // A last export whose folder is still there is kept as it was.
    const QString kept = home.path(QStringLiteral("kept.pdf"));
    QCOMPARE(suggestedExportPath(kept), kept);
}

// The beam tree's (or any view's) last export, remembered by views/export_prompt, is where the heatmap's export
// dialog starts: one remembered path for every view.
void TestExportFirstUse::heatmapExportStartsAtAnotherViewsLastExport() {
    FreshHome home;
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QVERIFY(QDir().mkpath(home.path(QStringLiteral("slides"))));
    const QString beam = home.path(QStringLiteral("slides/beam.svg"));
    rememberExport(beam);
    QCOMPARE(lastExport(), QFileInfo(beam).absoluteFilePath());
    QString suggested;
    const auto answer = whenDialogShown([&](ExportDialog* d) {
        suggested = d->path();
        d->reject();
    });
    exportAction(w_.get())->trigger();
    QCOMPARE(QFileInfo(suggested).absoluteFilePath(), QFileInfo(beam).absoluteFilePath());
}

void TestExportFirstUse::typedTitleIsRememberedAndWritten() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("titled.png"));
    const auto answer = whenDialogShown([&](ExportDialog* d) {
        auto* file = qobject_cast<QLineEdit*>(fieldOf(d, QStringLiteral("F&ile:")));
        auto* title = qobject_cast<QLineEdit*>(fieldOf(d, QStringLiteral("&Title:")));
        if (!file || !title) {  // the checks below fail: no file is written
            d->reject();
            return;
        }
        file->setText(path);
        title->clear();
        QTest::keyClicks(title, QStringLiteral("Attention, step by step"));
        d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save)->click();
    });
    exportAction(w_.get())->trigger();
    QVERIFY(QFileInfo::exists(path));
    QCOMPARE(QImage(path).text(QStringLiteral("Title")), QStringLiteral("Attention, step by step"));

    QString shown_again;
    const auto again = whenDialogShown([&](ExportDialog* d) {
        if (auto* title = qobject_cast<QLineEdit*>(fieldOf(d, QStringLiteral("&Title:")))) shown_again = title->text();
        d->reject();
    });
    exportAction(w_.get())->trigger();
    QCOMPARE(shown_again, QStringLiteral("Attention, step by step"));
}

void TestExportFirstUse::fileLabelMnemonicFocusesTheFileField() {
    ExportDialog dialog(QDir::temp().filePath(QStringLiteral("attention.png")), w_->exportOptions());
    // Every label with a mnemonic has a field to go to (without one Qt shows the "&" as it is).
    for (QLabel* l : dialog.findChildren<QLabel*>())
        if (l->text().contains(u'&')) QVERIFY2(l->buddy(), qPrintable(l->text()));
    QWidget* file = fieldOf(&dialog, QStringLiteral("F&ile:"));
    QVERIFY(file);
    QCOMPARE(qobject_cast<QLineEdit*>(file)->text(), QDir::toNativeSeparators(dialog.path()));
    dialog.show();
    QApplication::setActiveWindow(&dialog);
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    fieldOf(&dialog, QStringLiteral("&Width:"))->setFocus();
    QTest::keyClick(&dialog, Qt::Key_I, Qt::AltModifier);
    QTRY_COMPARE(QApplication::focusWidget(), file);
}

void TestExportFirstUse::missingFolderIsRefusedBeforeWriting() {
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("no such folder"));
    ExportDialog dialog(QDir(missing).filePath(QStringLiteral("a.png")), w_->exportOptions());
    QPushButton* save = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save);
    QVERIFY(!save->isEnabled());
    bool named = false;
    for (QLabel* l : dialog.findChildren<QLabel*>())
        named = named || l->text().contains(QDir::toNativeSeparators(missing));
    QVERIFY(named);
    auto* file = qobject_cast<QLineEdit*>(fieldOf(&dialog, QStringLiteral("F&ile:")));
    file->setText(dir.filePath(QStringLiteral("a.png")));
    QVERIFY(save->isEnabled());
}

ATTNVIZ_TEST_MAIN(TestExportFirstUse)
#include "test_export_first_use.moc"
