// The interventions of HeatmapStyle::interventions on the heatmap, drawn by the scene's overlay so that the window and
// every export show them alike, and named in an export's title. Shapes carry the meaning without colour:
//   a knocked-out column: hatched, struck through from top to bottom, a "no entry" tape under its label;
//   an attended cell (the one-hot row of "attend only here"): a diamond (Okabe & Ito's reddish purple on a dark rim).
#pragma once
#include "heatmap/heatmap_data.h"

#include <QString>
#include <QStringList>

class QCPPainter;

namespace attnviz::ui {

class HeatmapScene;

// Marks on the columns and cells that are shown (an attended cell only once its row is decoded).
void drawInterventionMarks(QCPPainter* painter, const HeatmapScene& scene);

// The interventions in one line with the words they touch, in the reader's language ("knocked out “cat”, “mat” ·
// step 3 attends only to “cat” · heads off: cross-attention layer 1 head 2"); "" when there are none. `source` are
// the decode's source tokens (positions past them are named by number).
QString interventionsTitle(const Interventions& iv, const QStringList& source);
// `title` with the interventions after it (" — "), or the interventions alone: an intervened decode's export title.
QString titleWithInterventions(const QString& title, const Interventions& iv, const QStringList& source);

}  // namespace attnviz::ui
