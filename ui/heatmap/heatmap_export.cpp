#include "heatmap/heatmap_export.h"
#include "heatmap/utf8_text.h"

#include "base/errors.h"
#include "heatmap/heatmap_renderer.h"
#include "heatmap/heatmap_scene.h"
#include "heatmap/intervention_marks.h"
#include "io/atomic_file.h"
#include "io/decode_json.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImageWriter>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {

QString describe(const std::vector<HeatmapPanel>& panels) {
    const HeatmapPanel& first = panels.front();
    const QString one = QStringLiteral("attention heatmap: %1 target x %2 source tokens, colour map %3")
                            .arg(first.data.rows())
                            .arg(first.data.cols())
                            .arg(first.style.colormap);
    return panels.size() == 1 ? one
                              : QStringLiteral("%1 panels side by side, the first an %2").arg(panels.size()).arg(one);
}

bool writeImage(QIODevice& file, const ExportFigure& figure, const ExportOptions& options, QString* what) {
    const QSize pixels(options.width, options.height);
    QImage image = figureImage(pixels, options.dpi, figure.paper,
                               [&](QPaintDevice* device) { figure.paint(device, pixels, options.dpi, false); });
    image.setText(QStringLiteral("Software"), QStringLiteral("attnviz"));
    image.setText(QStringLiteral("Description"), figure.description);
    if (!options.style.title.isEmpty()) image.setText(QStringLiteral("Title"), options.style.title);
    QImageWriter writer(&file, "png");
    if (!writer.write(image)) {
        *what = QStringLiteral("cannot encode the PNG: ") + writer.errorString();
        return false;
    }
    return true;
}

// QSvgGenerator names only a font's first family: a viewer without it (or without its CJK glyphs) would draw boxes.
// Every font-family attribute gets the whole fallback list, ending in the generic sans-serif.
QByteArray withFontFallbacks(QByteArray svg) {
    QByteArray fallbacks;
    for (const QString& family : heatmapFontFamilies()) fallbacks += ", '" + family.toUtf8() + "'";
    fallbacks += ", sans-serif";
    static const QRegularExpression attribute(QStringLiteral("font-family=\"([^\"]*)\""));
    QString text = QString::fromUtf8(svg);
    text.replace(attribute, QStringLiteral("font-family=\"'\\1'%1\"").arg(QString::fromUtf8(fallbacks)));
    return text.toUtf8();
}

QString titleOf(const ExportFigure& figure, const ExportOptions& options) {
    return options.style.title.isEmpty() ? figure.title : options.style.title;
}

bool writeSvg(QIODevice& file, const ExportFigure& figure, const ExportOptions& options, QString* what) {
    const QSize pixels(options.width, options.height);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(pixels);
        svg.setViewBox(QRect(QPoint(0, 0), pixels));
        svg.setResolution(int(std::lround(options.dpi)));
        // QSvgGenerator writes these verbatim into <title>/<desc>: escape them ("cat & mat" would break the XML).
        svg.setTitle(titleOf(figure, options).toHtmlEscaped());
        svg.setDescription(figure.description.toHtmlEscaped());
        figure.paint(&svg, pixels, options.dpi, true);
    }  // the generator finishes the document when it goes
    const QByteArray text = withFontFallbacks(buffer.data());
    if (file.write(text) != text.size()) {
        *what = QStringLiteral("cannot write: ") + file.errorString();
        return false;
    }
    return true;
}

bool writePdf(QIODevice& file, const ExportFigure& figure, const ExportOptions& options, QString* what) {
    QPdfWriter pdf(&file);
    pdf.setCreator(QStringLiteral("attnviz"));
    pdf.setTitle(titleOf(figure, options));
    pdf.setResolution(int(std::lround(options.dpi)));
    // The page is the figure: width/dpi x height/dpi inches, no margins.
    const QSizeF points(options.width * 72.0 / options.dpi, options.height * 72.0 / options.dpi);
    if (!pdf.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch))) {
        *what = QStringLiteral("cannot make a PDF page of %1 x %2 points").arg(points.width()).arg(points.height());
        return false;
    }
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Point);
    // The device's pixel size at the page resolution (within a pixel of width x height).
    figure.paint(&pdf, QSize(pdf.width(), pdf.height()), options.dpi, true);
    return true;
}

}  // namespace

QStringList exportFormats() {
    return {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"), QStringLiteral("csv"),
            QStringLiteral("json")};
}

QString exportFormatFor(const QString& path, const ExportOptions& options) {
    const QString f = (options.format.isEmpty() ? QFileInfo(path).suffix() : options.format).toLower();
    return exportFormats().contains(f) ? f : QString();
}

QString validateExportOptions(const ExportOptions& o) {
    if (o.width < 16 || o.width > 20000)
        return QStringLiteral("width %1 is out of range (16 to 20000 pixels)").arg(o.width);
    if (o.height < 16 || o.height > 20000)
        return QStringLiteral("height %1 is out of range (16 to 20000 pixels)").arg(o.height);
    if (!(o.dpi >= 10 && o.dpi <= 2400)) return QStringLiteral("dpi %1 is out of range (10 to 2400)").arg(o.dpi);
    return {};
}

QImage renderHeatmapImage(const HeatmapData& data, const ExportOptions& options) {
    HeatmapRenderer renderer(data, options.style);
    return renderer.toImage(QSize(options.width, options.height), options.dpi);
}

bool exportHeatmap(const HeatmapData& data, const DecodeResult& result, const ModelConfig& config, const QString& path,
                   const ExportOptions& options, QString* error) {
    const Interventions& iv = options.interventions;
    ExportOptions o = options;
    o.style.title = titleWithInterventions(options.style.title, iv, data.source_tokens);
    return exportPanels({HeatmapPanel{data, o.style}}, path, o, error, [&](const QString& format) {
        return format == QLatin1String("csv") ? decodeToCsv(result, iv)
                                              : decodeToJsonText(result, config, 2, iv, options.context) + "\n";
    });
}

bool exportPanels(const std::vector<HeatmapPanel>& panels, const QString& path, const ExportOptions& options,
                  QString* error, const std::function<std::string(const QString& format)>& numbers) {
    const QString format = exportFormatFor(path, options);
    const bool image =
        format == QLatin1String("png") || format == QLatin1String("svg") || format == QLatin1String("pdf");
    const bool empty = panels.empty() || std::any_of(panels.begin(), panels.end(),
                                                     [](const HeatmapPanel& p) { return p.data.isEmpty(); });
    if (image && empty && validateExportOptions(options).isEmpty()) {  // bad sizes are named first (exportFigure)
        if (error) *error = QStringLiteral("%1: nothing to draw (no target or no source tokens)").arg(path);
        return false;
    }
    ExportFigure figure;
    figure.title = QStringLiteral("attention heatmap");
    figure.description = empty ? QString() : describe(panels);
    figure.paper = panels.empty() ? QColor(Qt::white) : panels.front().style.background;
    figure.paint = [&](QPaintDevice* device, const QSize& pixels, double dpi, bool vector) {
        paintPanels(panels, device, pixels, dpi, vector, options.columns);
    };
    return exportFigure(figure, path, options, error, numbers);
}

bool exportFigure(const ExportFigure& figure, const QString& path, const ExportOptions& options, QString* error,
                  const std::function<std::string(const QString& format)>& numbers) {
    auto fail = [&](const QString& what) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, what);
        return false;
    };
    const QString format = exportFormatFor(path, options);
    if (format.isEmpty())
        return fail(QStringLiteral("unknown format \"%1\" (expected %2)")
                        .arg(options.format.isEmpty() ? QFileInfo(path).suffix() : options.format,
                             exportFormats().join(QStringLiteral(", "))));
    if (const QString bad = validateExportOptions(options); !bad.isEmpty()) return fail(bad);

    // The whole file is made in memory, then written by core's atomic writer (io/atomic_file.h), as model files
    // are: on a full disk or any other failure the old file stays and the error names the path and the reason.
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    QString what;
    bool ok = true;
    if (format == QLatin1String("png")) {
        ok = writeImage(file, figure, options, &what);
    } else if (format == QLatin1String("svg")) {
        ok = writeSvg(file, figure, options, &what);
    } else if (format == QLatin1String("pdf")) {
        ok = writePdf(file, figure, options, &what);
    } else {
        try {
            const std::string text = numbers(format);
            file.write(text.data(), qint64(text.size()));
        } catch (const std::exception& e) {
            ok = false;
            what = qs(errorMessage(e));
        }
    }
    if (!ok) return fail(what);
    file.close();
    try {
        const QByteArray& bytes = file.data();
        writeFileAtomically(QFile::encodeName(path).toStdString(),
                            std::string_view(bytes.constData(), size_t(bytes.size())));
    } catch (const WriteError& e) {
        if (error) *error = QString::fromLocal8Bit(e.what());  // "PATH: cannot save: what: reason"
        return false;
    }
    return true;
}

}  // namespace attnviz::ui
