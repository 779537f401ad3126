// MainWindow and its files: the settings kept between sessions (window geometry, dock layout, colour map, export
// options), the recent files menu, File ▸ Open and the model library, and a model file or folder dropped on the
// window.
#include "window/main_window.h"

#include "dialogs/model_library.h"
#include "dialogs/window_placement.h"
#include "heatmap/colormaps.h"
#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMimeData>
#include <QSettings>
#include <QUrl>

namespace attnviz::ui {

namespace {
constexpr int kMaxRecentFiles = 8;

bool isModelFile(const QMimeData* mime, QString* path) {
    if (!mime || !mime->hasUrls() || mime->urls().isEmpty()) return false;
    const QString p = mime->urls().first().toLocalFile();
    // an attnviz file, or a Hugging Face Marian folder (docs/marian.md), or its config.json
    const bool marian = QFileInfo(p + QStringLiteral("/config.json")).isFile() ||
                        QFileInfo(p).fileName() == QStringLiteral("config.json");
    if (!marian && !p.endsWith(QStringLiteral(".safetensors"), Qt::CaseInsensitive)) return false;
    if (path) *path = p;
    return true;
}
}  // namespace

void MainWindow::readSettings() {
    QSettings s;
    const QByteArray geometry = s.value(QStringLiteral("MainWindow/geometry"), QByteArray()).toByteArray();
    if (geometry.isEmpty() || !restoreGeometry(geometry)) {  // the first window: 1400×860, or the screen's room
        const QRect available = availableGeometryOf(this);
        QRect first(QPoint(), QSize(1400, 860));
        first.moveCenter(available.center());
        setGeometry(first);
    }
    if (!isMaximized() && !isFullScreen()) fitToScreen(this);  // a geometry saved on a larger screen or scale
    fitted_geometry_ =
        QWidget::geometry();  // fitted again on the first show, with the frame the window system gives it
    restoreState(s.value(QStringLiteral("MainWindow/state"), QByteArray()).toByteArray());
    const QString cmap = s.value(QStringLiteral("View/colormap"), defaultColormap()).toString();
    style_.colormap = isColormap(cmap) ? cmap.toLower() : defaultColormap();
    annotate_act_->setChecked(s.value(QStringLiteral("View/annotate"), false).toBool());
    hide_specials_act_->setChecked(s.value(QStringLiteral("View/hideSpecials"), false).toBool());
    speed_->setValue(s.value(QStringLiteral("View/playSpeed"), 2.0).toDouble());
}

void MainWindow::writeSettings() {
    QSettings s;
    s.setValue(QStringLiteral("MainWindow/geometry"), saveGeometry());
    s.setValue(QStringLiteral("MainWindow/state"), saveState());
    s.setValue(QStringLiteral("View/colormap"), style_.colormap);
    s.setValue(QStringLiteral("View/annotate"), annotate_act_->isChecked());
    s.setValue(QStringLiteral("View/hideSpecials"), hide_specials_act_->isChecked());
    s.setValue(QStringLiteral("View/playSpeed"), speed_->value());
    if (!modelPath().isEmpty()) s.setValue(QStringLiteral("Session/lastModel"), modelPath());
    s.setValue(QStringLiteral("Session/lastSentence"), sourceText());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    setPlaying(false);
    writeSettings();
    event->accept();
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings s;
    QStringList files = s.value(QStringLiteral("Files/recent"), QStringList()).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecentFiles) files.removeLast();
    s.setValue(QStringLiteral("Files/recent"), files);
}

void MainWindow::updateRecentMenu() {
    recent_menu_->clear();
    const QStringList files = QSettings().value(QStringLiteral("Files/recent"), QStringList()).toStringList();
    int n = 1;
    for (const QString& f : files) {
        QAction* a = recent_menu_->addAction(QStringLiteral("&%1 %2").arg(n++).arg(QFileInfo(f).fileName()));
        a->setStatusTip(QDir::toNativeSeparators(f));
        a->setEnabled(QFileInfo::exists(f));
        connect(a, &QAction::triggered, this, [this, f] { openModel(f); });
    }
    if (files.isEmpty()) recent_menu_->addAction(tr("(none)"))->setEnabled(false);
    recent_menu_->addSeparator();
    recent_menu_->addAction(tr("&Clear list"), this, [] { QSettings().remove(QStringLiteral("Files/recent")); });
}

// ------------------------------------------------------------------------------------------------ files

void MainWindow::open() {
    const QString dir = modelPath().isEmpty() ? QDir::homePath() : QFileInfo(modelPath()).path();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open model"), dir,
        tr("attnviz models (*.safetensors);;Hugging Face Marian folders (config.json);;All files (*)"));
    if (!path.isEmpty()) openModel(path);
}

void MainWindow::showLibrary() {
    if (!library_) {
        library_ = new ModelLibraryDialog(this);
        connect(library_, &ModelLibraryDialog::modelChosen, this, [this](const QString& p) { openModel(p); });
    } else {
        library_->populate(sampleModelDirs());
    }
    library_->show();
    library_->raise();
    library_->activateWindow();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (isModelFile(event->mimeData(), nullptr)) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QString path;
    if (!isModelFile(event->mimeData(), &path)) return;
    event->acceptProposedAction();
    QTimer::singleShot(0, this, [this, path] { openModel(path); });  // not inside the drag's event loop
}

// ------------------------------------------------------------------------------------------------ export

}  // namespace attnviz::ui
