// The main window's "see why" parts of docs/diagnostics.md: the cell inspector dock (a click on a heatmap cell selects
// it, the inspector explains it), View → Coverage and entropy (the heatmap's diagnostics, in exports too) and the
// sentence's attention confidence in the status bar.
#include "eval/attention_diagnostics.h"
#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"
#include "views/cell_inspector.h"
#include "window/dock_scroller.h"
#include "window/main_window.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>

namespace attnviz::ui {

namespace {
const QString kDiagnosticsKey = QStringLiteral("View/diagnostics");
}

void MainWindow::createInspector() {
    inspector_ = new CellInspector(this);
    inspector_->setDecodeState(state_);
    inspector_dock_ = new QDockWidget(this);
    inspector_dock_->setObjectName(QStringLiteral("CellInspectorDock"));
    inspector_dock_->setWidget(new DockScroller(inspector_, inspector_dock_));
    addDockWidget(Qt::RightDockWidgetArea, inspector_dock_);  // under the current step
    connect(heatmap_, &HeatmapView::cellClicked, this, [this] {
        if (!state_->attentionView().isDefault()) return;  // it explains cells of the default attention only
        if (inspector_dock_->isHidden()) inspector_dock_->show();
        inspector_dock_->raise();  // when tabbed with another dock
    });

    diagnostics_act_ = new QAction(this);
    diagnostics_act_->setCheckable(true);
    diagnostics_act_->setChecked(QSettings().value(kDiagnosticsKey, false).toBool());
    style_.diagnostics = diagnostics_act_->isChecked();
    connect(diagnostics_act_, &QAction::toggled, this, [this](bool on) {
        style_.diagnostics = on;
        QSettings().setValue(kDiagnosticsKey, on);
        applyStyle();
    });

    confidence_label_ = new QLabel(this);
    statusBar()->addPermanentWidget(confidence_label_);
    connect(state_, &DecodeState::decodeChanged, this, &MainWindow::updateConfidence);
}

void MainWindow::retranslateInspector() {
    inspector_dock_->setWindowTitle(tr("Cell inspector"));
    diagnostics_act_->setText(tr("C&overage and entropy"));
    diagnostics_act_->setToolTip(
        tr("Under the heatmap, how much attention each source word received in all (blue: neglected, red: "
           "over-attended); at its right, each row's entropy against a uniform row (orange: diffuse)"));
    diagnostics_act_->setStatusTip(diagnostics_act_->toolTip());
    updateConfidence();
}

void MainWindow::updateConfidence() {
    const PrefixDecoding* decode = state_->decode();
    if (!decode || decode->result.attention.empty()) {
        confidence_label_->clear();
        confidence_label_->setToolTip({});
        return;
    }
    const SentenceConfidence c = sentenceConfidence(decode->result.attention);
    // the scale in the bar itself: a bare "-2.34" says nothing until hovered
    confidence_label_->setText(tr("attention confidence %1 (0 is best)").arg(c.confidence, 0, 'f', 2));
    confidence_label_->setToolTip(
        tr("How focused and complete the attention of this sentence is (0 is best; the sum of the first three):\n"
           "coverage deviation penalty %1 (words read more or less than once)\n"
           "absentmindedness of the output %2 (rows spread over many words)\n"
           "absentmindedness of the input %3 (words looked at from many steps)\n"
           "GNMT coverage penalty %4")
            .arg(c.coverage_deviation, 0, 'f', 3)
            .arg(c.absentminded_out, 0, 'f', 3)
            .arg(c.absentminded_in, 0, 'f', 3)
            .arg(c.gnmt_coverage, 0, 'f', 3));
}

QString MainWindow::confidenceText() const { return confidence_label_->text(); }

}  // namespace attnviz::ui
