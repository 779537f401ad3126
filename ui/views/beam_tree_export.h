// The beam view's exports: the tree as drawn on screen (png/svg/pdf: views/beam_tree_painter.h, on white whatever
// the theme, at the screen's layout scaled by options.dpi / 96, shrunk to fit 20,000 pixels a side) and its numbers
// (csv/json: core's io/beam_json.h). Written by the heatmap's export path (exportFigure in heatmap/heatmap_export.h):
// made in memory, then written atomically; on failure nothing is left at the path and the error names it.
#pragma once
#include "decode/decoding.h"
#include "heatmap/heatmap_export.h"
#include "model/vocab.h"
#include "text/tokenizer.h"

#include <QSize>
#include <QString>

namespace attnviz::ui {

struct BeamTreeExport {
    const BeamResult* tree = nullptr;
    const Vocabulary* target_vocab = nullptr;
    TokenizedText source;  // <sos> … <eos>
    int beam_width = 0;
    bool show_pruned = true;  // as the view draws it
    int selected = -1;        // the node drawn selected (-1: none)
};

// The pixel size of a drawing of `logical` (the layout's size) exported at `dpi`: scaled by dpi / 96, and shrunk
// (keeping its aspect) so that neither side passes 20,000 pixels.
QSize beamTreeExportPixels(const QSize& logical, double dpi);

// Writes the tree to `path` in options.format (or the path's extension). options.width and options.height are
// ignored: the drawing's size is beamTreeExportPixels; options.dpi and options.style.title are used. Returns false
// and sets *error ("PATH: what") on failure.
bool exportBeamTree(const BeamTreeExport& what, const QString& path, const ExportOptions& options, QString* error);

}  // namespace attnviz::ui
