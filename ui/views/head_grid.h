// The head grid dock (bertviz's "model view" for an encoder-decoder): for a Transformer, every layer (rows) and head
// (columns) of one of its three attentions (cross, encoder self, decoder self; a selector) as small heatmaps of the
// decode's own numbers, stepping with the decoder (rows up to the cursor). "Average over heads" shows one thumbnail
// per layer, the mean over its heads. A click on a thumbnail shows it in the main heatmap (the state's
// attentionView); "Default view" returns to the decode's `attention`. The grid shows the decode the state shows: the
// window's own, or a hypothesis chosen in the beam search view, which the line above the grid names ("Beam
// hypothesis 3 of 4, log p −4.21") beside a button back to the window's decode. Export… writes the grid as one image (PNG,
// SVG, PDF) through the heatmap's export path. An RNN model has no heads: the view says so and is disabled.
// A right click on a head offers "Remove this head" (an intervention, state/intervention_edits.h); the heads the
// decode shown was made without are drawn greyed and crossed out.
#pragma once
#include "decode/attention_views.h"
#include "heatmap/heatmap_export.h"
#include "views/head_grid_painter.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace attnviz::ui {

class DecodeState;
class InterventionEdits;

// The grid itself: paints a HeadGridFigure and reports clicks on its thumbnails.
class HeadGridCanvas : public QWidget {
    Q_OBJECT
public:
    explicit HeadGridCanvas(QWidget* parent = nullptr);
    void setFigure(HeadGridFigure figure);
    const HeadGridFigure& figure() const { return figure_; }
    const HeadGridLayout& layout() const { return layout_; }
    QPoint thumbnailCenter(int layer, int head) const;  // widget coordinates; (-1, -1) if there is none
    // At least kMinLayerHeight pixels a layer (6 layers of 8 heads stay readable: the dock scrolls instead).
    static constexpr int kMinLayerHeight = 36;
    QSize minimumSizeHint() const override;
    // About 80 pixels a layer (2 layers: 190), so that a shown dock leaves the heatmap its room.
    QSize sizeHint() const override;

signals:
    void thumbnailClicked(int layer, int head);
    void thumbnailMenuRequested(int layer, int head, const QPoint& globalPos);  // a right click on a thumbnail

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void relayout();
    HeadGridFigure figure_;
    HeadGridLayout layout_;
};

class HeadGridView : public QWidget {
    Q_OBJECT
public:
    explicit HeadGridView(QWidget* parent = nullptr);

    void setDecodeState(DecodeState* state);
    void setColormap(const QString& name);  // the main heatmap's
    // Where "Remove this head" puts its edit (without: no menu).
    void setInterventionEdits(InterventionEdits* edits) { edits_ = edits; }
    // The thumbnail menu of head `head` of layer `layer` (the kind shown) at `globalPos`; returns when it closes.
    void showHeadMenu(int layer, int head, const QPoint& globalPos);

    AttentionKind kind() const;
    void setKind(AttentionKind kind);
    bool averaged() const;
    void setAveraged(bool on);
    // Whether the decode shown has heads (a Transformer's); false for the RNN kinds and without a decode.
    bool hasHeads() const;

    HeadGridCanvas* canvas() const { return canvas_; }
    QComboBox* kindBox() const { return kind_; }
    QCheckBox* averageBox() const { return average_; }
    QPushButton* defaultButton() const { return default_; }
    QPushButton* exportButton() const { return export_; }
    QPushButton* mainDecodeButton() const { return main_; }
    QString messageText() const;
    // Which decode the grid shows: the window's own or a beam hypothesis (with its rank and log-probability).
    QString decodeTitle() const;

    // Writes the grid as one image (png/svg/pdf from options.format or the extension) of options.width x
    // options.height at options.dpi, on white, titled with the attention shown. False and *error ("PATH: what")
    // when there is no grid, the format is not an image, or the file cannot be written (nothing is left then).
    bool exportTo(const QString& path, const ExportOptions& options, QString* error) const;
    void exportInteractively();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void refresh();
    HeadGridFigure makeFigure() const;
    void showThumbnail(int layer, int head);

    DecodeState* state_ = nullptr;
    InterventionEdits* edits_ = nullptr;
    QString colormap_;
    QString last_export_;
    QComboBox* kind_;
    QCheckBox* average_;
    QPushButton* default_;
    QPushButton* export_;
    QLabel* message_;
    QLabel* title_;
    QPushButton* main_;
    HeadGridCanvas* canvas_;
};

}  // namespace attnviz::ui
