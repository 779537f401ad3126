#include "views/export_prompt.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace attnviz::ui {

QString askExportPath(QWidget* parent, const QString& title, const QString& filters, const QString& default_name,
                      QString& last_export) {
    const QString suggested = !last_export.isEmpty() && QFileInfo(last_export).dir().exists()
                                  ? last_export
                                  : QDir::home().filePath(default_name);
    const QString path = QFileDialog::getSaveFileName(parent, title, suggested, filters);
    if (!path.isEmpty()) last_export = path;
    return path;
}

}  // namespace attnviz::ui
