// The export dialog's file name decides the format (issue 44): a name typed as x.svg while the format box says PNG
// writes an SVG and moves the box to SVG; a name without an extension gets the box's; an extension that is not a
// format is refused before anything is written.
#include "dialogs/export_dialog.h"
#include "main_window_fixture.h"
#include "test_registry.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

QLineEdit* typedNameField(ExportDialog& dialog) {
    for (QLabel* l : dialog.findChildren<QLabel*>())
        if (l->text() == QStringLiteral("F&ile:")) return qobject_cast<QLineEdit*>(l->buddy());
    return nullptr;
}

QComboBox* formatBox(ExportDialog& dialog) {
    for (QLabel* l : dialog.findChildren<QLabel*>())
        if (l->text() == QStringLiteral("&Format:")) return qobject_cast<QComboBox*>(l->buddy());
    return nullptr;
}

QByteArray fileStart(const QString& path, int bytes) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(bytes) : QByteArray();
}

}  // namespace

class TestExportTypedName : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_export_typed_name")); }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void svgNameWithPngChosenWritesAnSvg();
    void nameWithoutExtensionTakesTheChosenFormat();
    void extensionThatIsNoFormatIsRefused();
};

void TestExportTypedName::svgNameWithPngChosenWritesAnSvg() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QTemporaryDir dir;
    ExportDialog dialog(dir.filePath(QStringLiteral("attention.png")), w_->exportOptions());
    QComboBox* format = formatBox(dialog);
    QLineEdit* file = typedNameField(dialog);
    QVERIFY(format && file);
    QCOMPARE(format->currentData().toString(), QStringLiteral("png"));
    const QString svg = dir.filePath(QStringLiteral("x.svg"));
    file->clear();
    QTest::keyClicks(file, svg);
    QCOMPARE(format->currentData().toString(), QStringLiteral("svg"));  // the box follows the name
    QCOMPARE(dialog.path(), svg);                                       // and the name stays as typed
    QVERIFY(w_->exportTo(dialog.path(), dialog.options()));
    const QByteArray head = fileStart(svg, 400);
    QVERIFY2(head.contains("<svg") || head.startsWith("<?xml"), head.constData());
    QVERIFY(!head.startsWith("\x89PNG"));
}

void TestExportTypedName::nameWithoutExtensionTakesTheChosenFormat() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QTemporaryDir dir;
    ExportDialog dialog(dir.filePath(QStringLiteral("attention.png")), w_->exportOptions());
    typedNameField(dialog)->setText(dir.filePath(QStringLiteral("figure")));
    QCOMPARE(dialog.path(), dir.filePath(QStringLiteral("figure.png")));
    QVERIFY(dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save)->isEnabled());
    QVERIFY(w_->exportTo(dialog.path(), dialog.options()));
    QVERIFY(!QImage(dir.filePath(QStringLiteral("figure.png"))).isNull());
}

void TestExportTypedName::extensionThatIsNoFormatIsRefused() {
    QTemporaryDir dir;
    ExportDialog dialog(dir.filePath(QStringLiteral("attention.png")), w_->exportOptions());
    typedNameField(dialog)->setText(dir.filePath(QStringLiteral("figure.txt")));
    QVERIFY(!dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save)->isEnabled());
    bool named = false;
    for (QLabel* l : dialog.findChildren<QLabel*>()) named = named || l->text().contains(QStringLiteral("“.txt”"));
    QVERIFY(named);
    QCOMPARE(formatBox(dialog)->currentData().toString(), QStringLiteral("png"));
}

ATTNVIZ_TEST_MAIN(TestExportTypedName)
#include "test_export_typed_name.moc"
