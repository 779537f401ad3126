// The export dialog: format (PNG with size and DPI, SVG, PDF, CSV, JSON), file, size, title, background. The file
// name's extension decides the format: a format chosen renames the file, an extension typed moves the format box to
// it, an extension that is not a format is refused, a name without one gets the chosen format's. It only
// gathers the choice; MainWindow writes the file with exportHeatmap(). The figure's background is white unless
// chosen here (black, or the window's own in its current theme), whatever the window's theme. A file in a folder
// that does not exist is refused here, with the folder named, before anything is written.
#pragma once
#include "heatmap/heatmap_export.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace attnviz::ui {

// Where the dialog suggests writing: `remembered` (the last export's path) when its folder still exists, otherwise
// a file of that name (or attention.png) in the user's pictures folder, which is made when missing (a fresh
// account may have none), or in the home folder when it cannot be made.
QString suggestedExportPath(const QString& remembered);

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // `path` suggests the file (its extension picks the format); `options` the sizes and DPI.
    ExportDialog(const QString& path, const ExportOptions& options, QWidget* parent = nullptr);

    QString path() const;
    // Format, sizes, dpi, title and background (style.title, style.background); the rest of the style as given.
    ExportOptions options() const;
    QComboBox* backgroundBox() const { return background_; }

private:
    void formatChanged();
    void pathEdited();
    void enablePictureFields();
    void browse();
    void validate();

    ExportOptions base_;
    QComboBox* format_;
    QLineEdit* path_;
    QSpinBox* width_;
    QSpinBox* height_;
    QDoubleSpinBox* dpi_;
    QLineEdit* title_;
    QComboBox* background_;
    QLabel* problem_;
    QDialogButtonBox* buttons_;
};

}  // namespace attnviz::ui
