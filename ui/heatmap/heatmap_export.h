// Writing the heatmap to a file: PNG (exact pixel size, DPI metadata), SVG and PDF (vector, text as text, same
// size), CSV and JSON (the numbers, via core/io/decode_json.h). Shared by the GUI's export and `attnviz-cli render`.
// Every file is made in memory and written by core's atomic writer (io/atomic_file.h): on failure nothing, not even
// a partial file, is left at the path, an older file there is kept, and the error names the path and the OS reason.
#pragma once
#include "decode/decoding.h"
#include "heatmap/heatmap_data.h"
#include "heatmap/heatmap_renderer.h"
#include "io/decode_json.h"
#include "model/config.h"

#include <QColor>
#include <QImage>
#include <QString>
#include <QStringList>
#include <functional>
#include <string>
#include <vector>

namespace attnviz::ui {

struct ExportOptions {
    QString format;    // png svg pdf csv json; empty: from the path's extension
    int width = 1600;  // pixels (SVG/PDF: the page is width/dpi x height/dpi inches)
    int height = 1200;
    double dpi = 144;
    HeatmapStyle style;
    int columns = 0;  // several panels: this many per row, row by row (a filmstrip); 0: all in one row
    // The decode's interventions (docs/explain.md): exportHeatmap's JSON ends with their "interventions" object, its
    // CSV names them in the header's first cell (io/decode_json.h), its PNG/SVG/PDF title lists them. Drawn marks
    // are style.interventions'.
    Interventions interventions;
    // Where the decode came from (io/decode_json.h): the JSON's last key, "context", when not empty.
    DecodeContext context;
};

QStringList exportFormats();  // png svg pdf csv json
// The format for `path` (its extension, lower case) or `options.format` when set; empty if not one we write.
QString exportFormatFor(const QString& path, const ExportOptions& options);
// Checks the sizes: width/height 16..20000 pixels, dpi 10..2400. Returns "" or the problem ("--width"-neutral).
QString validateExportOptions(const ExportOptions& options);

// Writes `data` drawn with options.style (png/svg/pdf) or `result` as numbers (csv: the attention matrix,
// json: the decode object of docs/cli.md with `config`), with options.interventions as described above. Returns false and sets *error ("PATH: what") on failure.
bool exportHeatmap(const HeatmapData& data, const DecodeResult& result, const ModelConfig& config, const QString& path,
                   const ExportOptions& options, QString* error);

// The path every export takes: `panels` side by side (heatmap_renderer.h) for png/svg/pdf, where options.style
// gives only the file's title (each panel has its own style), or the text `numbers(format)` makes for csv/json; made
// in memory, then written atomically as described above. exportHeatmap is this with one panel.
bool exportPanels(const std::vector<HeatmapPanel>& panels, const QString& path, const ExportOptions& options,
                  QString* error, const std::function<std::string(const QString& format)>& numbers);

// Any figure an export draws (the heatmap's panels, the beam tree): `paint` draws all of it on `device`, `pixels`
// device pixels at `dpi` (vector: SVG or PDF, text as text). `paper` fills a PNG first; `description` goes into the
// PNG's and SVG's metadata; `title` names the SVG and PDF when options.style.title is empty.
struct ExportFigure {
    QString title;
    QString description;
    QColor paper = Qt::white;
    std::function<void(QPaintDevice* device, const QSize& pixels, double dpi, bool vector)> paint;
};
// What exportPanels does for any figure: png/svg/pdf drawn at options.width x options.height, csv/json the text
// `numbers(format)` makes; in memory, then written atomically. exportPanels is this with the panels' figure.
bool exportFigure(const ExportFigure& figure, const QString& path, const ExportOptions& options, QString* error,
                  const std::function<std::string(const QString& format)>& numbers);

// The figure as an image of options.width x options.height with the DPI set (the GUI's "copy image").
QImage renderHeatmapImage(const HeatmapData& data, const ExportOptions& options);

}  // namespace attnviz::ui
