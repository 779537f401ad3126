// The file dialog behind a view's "Export…" button (the beam tree, the head grid).
#pragma once
#include <QString>

class QWidget;

namespace attnviz::ui {

// Asks for the file to export to: suggests `last_export` while its folder still exists, else `default_name` in the
// home folder, and remembers the choice in `last_export`. Returns "" when the user cancels.
QString askExportPath(QWidget* parent, const QString& title, const QString& filters, const QString& default_name,
                      QString& last_export);

}  // namespace attnviz::ui
