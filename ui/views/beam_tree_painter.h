// The beam tree's layout and drawing, one code for the canvas on screen (views/beam_tree_canvas.h) and the exports
// (views/beam_tree_export.h): one column per target step, the root (<sos>) on the left; in each column the kept
// hypotheses first, best first, then the pruned ones, best first. A node shows its token, its step log-prob and its
// total score; kept, pruned, finished and forced nodes are styled apart, the best hypothesis' path is drawn bold.
// Sizes are logical pixels (96 per inch); the painter may be scaled for an export.
#pragma once
#include "decode/decoding.h"

#include <QFont>
#include <QPalette>
#include <QRect>
#include <QSize>
#include <QStringList>

#include <vector>

class QPainter;

namespace attnviz::ui {

struct BeamTreeLayout {
    std::vector<int> row;                   // per node: its row in its step's column (-1: not drawn)
    std::vector<int> step;                  // per node: its column
    std::vector<std::vector<int>> columns;  // per step: the nodes drawn, top to bottom
    std::vector<char> on_best_path;         // per node
    QStringList tokens;                     // per node, the vocabulary's spelling
    QSize size{0, 0};                       // of the whole drawing

    // Lays `tree` out (tokens spelt by `target_vocab`, else their ids); a null tree gives an empty layout. Pruned
    // nodes are left out unless `show_pruned`.
    static BeamTreeLayout of(const BeamResult* tree, const Vocabulary* target_vocab, bool show_pruned);
    // Where node `node` is drawn (empty when not drawn), and the node at a point (-1: none).
    QRect nodeRect(int node) const;
    int nodeAt(const QPoint& pos) const;
    bool empty() const { return columns.empty(); }
};

// What paintBeamTree draws with: the palette's Base (background), Text, Mid, PlaceholderText (pruned), Highlight
// (kept, best path) and HighlightedText (the selected node); `font` for the tokens (a smaller one for the scores).
struct BeamTreeStyle {
    QPalette palette;
    QFont font;
    int selected = -1;
};

// The palette of an export: dark ink on white whatever the window's theme (as the heatmap's exports).
QPalette beamTreeExportPalette();

// Draws the parts of the tree that meet `exposed` (logical pixels); the background is the caller's.
void paintBeamTree(QPainter& p, const BeamResult& tree, const BeamTreeLayout& layout, const BeamTreeStyle& style,
                   const QRect& exposed);

}  // namespace attnviz::ui
