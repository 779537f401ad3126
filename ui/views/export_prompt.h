// Where export dialogs start, the same for every view: the folder of the last export (any view's, kept in the
// settings as Export/lastPath) while it exists, else the Pictures folder, else home; never the working folder.
// Also the file dialog behind a view's "Export…" button (the beam tree, the head grid).
#pragma once
#include <QString>

class QWidget;

namespace attnviz::ui {

// The Pictures folder (created if missing), else the home folder.
QString defaultExportFolder();
// The file of the last export of any view, as remembered (empty: none yet).
QString lastExport();
// The folder of the last export while it exists, else defaultExportFolder().
QString exportFolder();
// Remembers `path` as the last export: the next export dialog of any view starts in its folder.
void rememberExport(const QString& path);

// Asks for the file to export to: suggests `last_export` (this view's last) while its folder still exists, else
// `default_name` in exportFolder(), and remembers the choice in `last_export` and as the last export. Returns ""
// when the user cancels.
QString askExportPath(QWidget* parent, const QString& title, const QString& filters, const QString& default_name,
                      QString& last_export);

}  // namespace attnviz::ui
