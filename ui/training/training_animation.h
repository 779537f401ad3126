// The snapshots as an animated PNG for slides (heatmap/apng.h): one frame per snapshot, each drawn exactly as the
// filmstrip draws its cells (training_history.h: kFilmstripCellWidth x kFilmstripCellHeight pixels, titled
// "update N"), every frame shown for the same delay, looping forever.
#pragma once
#include "training/training_history.h"

#include <QImage>
#include <QString>
#include <vector>

namespace attnviz::ui {

// The most frames an animation has: past it, that many snapshots evenly spread (filmstripPicks), the first and the
// last among them.
inline constexpr int kAnimationMost = 240;
inline constexpr int kDefaultFrameDelayMs = 400;

// One frame: the snapshot as a filmstrip cell, at options.dpi.
QImage snapshotFrame(const TrainingSnapshot& snapshot, const ExportOptions& options);

// Writes the animation (an APNG: .png or .apng) atomically. False and *error ("PATH: what") when there are no
// snapshots, the delay is out of 1 … 65535 ms or the file cannot be written.
bool exportAnimation(const std::vector<TrainingSnapshot>& snapshots, const QString& path, const ExportOptions& options,
                     int delay_ms, QString* error);

}  // namespace attnviz::ui
