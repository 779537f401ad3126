#include "views/export_prompt.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace attnviz::ui {

namespace {
const QString kLastExportKey = QStringLiteral("Export/lastPath");
}

QString defaultExportFolder() {
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    return !pictures.isEmpty() && QDir().mkpath(pictures) ? pictures : QDir::homePath();
}

QString lastExport() { return QSettings().value(kLastExportKey).toString(); }

QString exportFolder() {
    const QString last = lastExport();
    if (!last.isEmpty() && QFileInfo(last).dir().exists()) return QFileInfo(last).absolutePath();
    return defaultExportFolder();
}

void rememberExport(const QString& path) { QSettings().setValue(kLastExportKey, QFileInfo(path).absoluteFilePath()); }

QString askExportPath(QWidget* parent, const QString& title, const QString& filters, const QString& default_name,
                      QString& last_export) {
    const QString suggested = !last_export.isEmpty() && QFileInfo(last_export).dir().exists()
                                  ? last_export
                                  : QDir(exportFolder()).filePath(default_name);
    const QString path = QFileDialog::getSaveFileName(parent, title, suggested, filters);
    if (path.isEmpty()) return path;
    last_export = path;
    rememberExport(path);
    return path;
}

}  // namespace attnviz::ui
