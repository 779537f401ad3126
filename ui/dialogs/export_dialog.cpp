#include "dialogs/export_dialog.h"

#include "heatmap/plot_palette.h"
#include "views/export_prompt.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardPaths>

namespace attnviz::ui {

namespace {
QString describe(const QString& format) {
    if (format == QLatin1String("png")) return ExportDialog::tr("PNG image (*.png)");
    if (format == QLatin1String("svg")) return ExportDialog::tr("SVG vector image (*.svg)");
    if (format == QLatin1String("pdf")) return ExportDialog::tr("PDF document (*.pdf)");
    if (format == QLatin1String("csv")) return ExportDialog::tr("CSV attention matrix (*.csv)");
    if (format == QLatin1String("json")) return ExportDialog::tr("JSON decode object (*.json)");
    return format;
}
}  // namespace

QString suggestedExportPath(const QString& remembered) {
    if (!remembered.isEmpty() && QFileInfo(remembered).dir().exists()) return remembered;
    const QString name = remembered.isEmpty() ? QStringLiteral("attention.png") : QFileInfo(remembered).fileName();
    return QDir(defaultExportFolder()).filePath(name);
}

ExportDialog::ExportDialog(const QString& path, const ExportOptions& options, QWidget* parent)
    : QDialog(parent), base_(options) {
    setWindowTitle(tr("Export heatmap"));
    format_ = new QComboBox(this);
    for (const QString& f : exportFormats()) format_->addItem(describe(f), f);
    path_ = new QLineEdit(path, this);
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* file_row = new QHBoxLayout;
    file_row->addWidget(path_, 1);
    file_row->addWidget(browse);
    width_ = new QSpinBox(this);
    width_->setRange(16, 20000);
    width_->setValue(options.width);
    width_->setSuffix(tr(" px"));
    height_ = new QSpinBox(this);
    height_->setRange(16, 20000);
    height_->setValue(options.height);
    height_->setSuffix(tr(" px"));
    dpi_ = new QDoubleSpinBox(this);
    dpi_->setRange(10, 2400);
    dpi_->setDecimals(0);
    dpi_->setValue(options.dpi);
    dpi_->setToolTip(tr("PNG: written into the file; SVG/PDF: the page is width/DPI × height/DPI inches"));
    title_ = new QLineEdit(options.style.title, this);
    title_->setPlaceholderText(tr("Optional title above the matrix"));
    background_ = new QComboBox(this);
    background_->addItem(tr("White"), QColor(Qt::white));
    background_->addItem(tr("Black"), QColor(Qt::black));
    background_->addItem(tr("As in the window (%1)").arg(palette().color(QPalette::Base).name()),
                         palette().color(QPalette::Base));
    background_->setToolTip(tr("The figure's background; the labels are drawn black or white against it"));
    problem_ = new QLabel(this);
    problem_->setStyleSheet(warningStyleSheet(palette()));
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);

    auto* form = new QFormLayout(this);
    form->addRow(tr("&Format:"), format_);
    auto* file_label = new QLabel(tr("F&ile:"), this);  // a row of a layout gets no buddy by itself: the mnemonic
    file_label->setBuddy(path_);                        // would show as a literal "&"
    form->addRow(file_label, file_row);
    form->addRow(tr("&Width:"), width_);
    form->addRow(tr("&Height:"), height_);
    form->addRow(tr("&DPI:"), dpi_);
    form->addRow(tr("&Title:"), title_);
    form->addRow(tr("&Background:"), background_);
    form->addRow(problem_);
    form->addRow(buttons_);
    resize(560, sizeHint().height());

    const QString initial = exportFormatFor(path, {});
    const int i = format_->findData(initial.isEmpty() ? QStringLiteral("png") : initial);
    format_->setCurrentIndex(std::max(i, 0));
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChanged);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(path_, &QLineEdit::textChanged, this, &ExportDialog::pathEdited);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    formatChanged();
}

void ExportDialog::formatChanged() {
    enablePictureFields();
    // Keep the file name, change its extension.
    const QString f = format_->currentData().toString();
    QString p = path_->text();
    if (!p.isEmpty()) {
        const QFileInfo fi(p);
        p = QDir(fi.path()).filePath(fi.completeBaseName() + u'.' + f);
        path_->setText(QDir::toNativeSeparators(p));
    }
    validate();
}

// The typed name's extension decides the format: the box follows it (without renaming the file again).
void ExportDialog::pathEdited() {
    const QString typed = QFileInfo(path_->text().trimmed()).suffix().toLower();
    const int i = exportFormats().contains(typed) ? format_->findData(typed) : -1;
    if (i >= 0 && i != format_->currentIndex()) {
        const QSignalBlocker quiet(format_);
        format_->setCurrentIndex(i);
        enablePictureFields();
    }
    validate();
}

void ExportDialog::enablePictureFields() {
    const QString f = format_->currentData().toString();
    const bool picture = f == QLatin1String("png") || f == QLatin1String("svg") || f == QLatin1String("pdf");
    for (QWidget* w : {static_cast<QWidget*>(width_), static_cast<QWidget*>(height_), static_cast<QWidget*>(dpi_),
                       static_cast<QWidget*>(title_), static_cast<QWidget*>(background_)})
        w->setEnabled(picture);
}

void ExportDialog::browse() {
    const QString f = format_->currentData().toString();
    const QString p = QFileDialog::getSaveFileName(this, tr("Export heatmap"), path_->text(), describe(f));
    if (!p.isEmpty()) path_->setText(QDir::toNativeSeparators(p));
}

void ExportDialog::validate() {
    QString problem;
    const QString typed = QFileInfo(path_->text().trimmed()).suffix();
    if (path_->text().trimmed().isEmpty())
        problem = tr("Choose a file.");
    else if (!typed.isEmpty() && !exportFormats().contains(typed.toLower()))
        problem =
            tr("“.%1” is not a format the export writes: name the file .png, .svg, .pdf, .csv or .json.").arg(typed);
    else if (!QFileInfo(path()).dir().exists())
        problem = tr("The folder %1 does not exist.").arg(QDir::toNativeSeparators(QFileInfo(path()).path()));
    else
        problem = validateExportOptions(options());
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    buttons_->button(QDialogButtonBox::Save)->setEnabled(problem.isEmpty());
}

// A name without an extension gets the chosen format's.
QString ExportDialog::path() const {
    const QString p = QDir::fromNativeSeparators(path_->text().trimmed());
    if (p.isEmpty() || !QFileInfo(p).suffix().isEmpty()) return p;
    return p + u'.' + format_->currentData().toString();
}

ExportOptions ExportDialog::options() const {
    ExportOptions o = base_;
    o.format = format_->currentData().toString();
    o.width = width_->value();
    o.height = height_->value();
    o.dpi = dpi_->value();
    o.style.title = title_->text();
    o.style.background = background_->currentData().value<QColor>();
    return o;
}

}  // namespace attnviz::ui
