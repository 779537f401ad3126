// What a training run in the window leaves behind: every progress report (the loss curves' points) and the probe
// sentence's decode every N updates (the snapshots the timeline scrubs through), and their exports: the loss curves
// as CSV, the snapshots as a filmstrip (a grid of heatmaps labelled with their update numbers, drawn by the heatmap
// export, heatmap/heatmap_export.h). Every number is the engine's (train/trainer.h, decode/decoding.h).
#pragma once
#include "decode/decoding.h"
#include "eval/metrics.h"
#include "heatmap/heatmap_export.h"
#include "train/trainer.h"

#include <QString>
#include <string>
#include <vector>

namespace attnviz::ui {

// The probe sentence greedily decoded by the model as it was after `progress.step` updates (0: before training).
struct TrainingSnapshot {
    TrainProgress progress;
    DecodeResult decode;
};

// The validation corpus scored by the model just validated at the end of an epoch (TrainCallbacks::validated), or by
// the model a run stopped inside an epoch returns when core's validation at the stop was its best:
// eval/corpus_scores.h's evaluateCorpus, the measures of `attnviz-cli eval` (BLEU; AER where lines have gold links).
struct EpochMetrics {
    TrainProgress progress;  // the report of that validation (step, epoch, valid_loss)
    EvalReport report;
    bool part_epoch = false;  // validated where the run stopped, inside its epoch
};

struct TrainingHistory {
    std::vector<TrainProgress> reports;  // in order; those with after_validation carry an epoch's validation loss
    std::vector<TrainingSnapshot> snapshots;
    std::vector<EpochMetrics> metrics;  // one per validated epoch, in order
};

// The reports as CSV: step,epoch,loss,epoch_avg_loss,valid_loss,tokens_per_second,elapsed_seconds,valid_bleu,
// valid_aer; one row per report. valid_loss only on the rows that follow a validation, valid_bleu and valid_aer on
// those of them whose step has metrics (valid_aer where the validation corpus has gold links); empty elsewhere.
std::string lossCurvesCsv(const std::vector<TrainProgress>& reports, const std::vector<EpochMetrics>& metrics = {});

// A snapshot as a filmstrip cell or an animation frame draws it: the probe's heatmap in `style`, titled "update N".
HeatmapPanel snapshotPanel(const TrainingSnapshot& snapshot, const HeatmapStyle& style);

// The snapshots a filmstrip shows: all when there are at most `most`, else `most` of them evenly spread, the first
// and the last always among them. Indices into the snapshots, increasing.
std::vector<int> filmstripPicks(int count, int most);
// Columns of a filmstrip of n panels: the smallest c with c * c >= n (a near-square grid).
int filmstripColumns(int n);
// The largest number of snapshots a filmstrip shows and the size of each one, in pixels.
inline constexpr int kFilmstripMost = 24;
inline constexpr int kFilmstripCellWidth = 480, kFilmstripCellHeight = 400;

// Writes the picked snapshots as a grid (PNG, SVG or PDF from the path's extension or options.format), each titled
// "update N", options.style for every cell; width and height are set from the grid (columns x cell size). Returns
// false and sets *error ("PATH: what") on failure; written atomically.
bool exportFilmstrip(const std::vector<TrainingSnapshot>& snapshots, const QString& path, ExportOptions options,
                     QString* error);

}  // namespace attnviz::ui
