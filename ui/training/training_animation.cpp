#include "training/training_animation.h"
#include "base/errors.h"
#include "heatmap/utf8_text.h"

#include "heatmap/apng.h"
#include "heatmap/heatmap_renderer.h"
#include "io/atomic_file.h"

#include <QBuffer>
#include <QFile>
#include <QImageWriter>
#include <stdexcept>

namespace attnviz::ui {

QImage snapshotFrame(const TrainingSnapshot& snapshot, const ExportOptions& options) {
    return panelsToImage({snapshotPanel(snapshot, options.style)}, QSize(kFilmstripCellWidth, kFilmstripCellHeight),
                         options.dpi, 1);
}

namespace {

QByteArray pngBytes(const QImage& image) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image)) throw std::runtime_error("cannot encode a frame: " + writer.errorString().toStdString());
    return buffer.data();
}

}  // namespace

bool exportAnimation(const std::vector<TrainingSnapshot>& snapshots, const QString& path, const ExportOptions& options,
                     int delay_ms, QString* error) {
    try {
        std::vector<QByteArray> frames;
        for (int i : filmstripPicks(int(snapshots.size()), kAnimationMost))
            frames.push_back(pngBytes(snapshotFrame(snapshots[size_t(i)], options)));
        if (frames.empty()) throw std::runtime_error("no snapshots to animate");
        const QByteArray apng = assembleApng(frames, delay_ms);
        writeFileAtomically(QFile::encodeName(path).toStdString(),
                            std::string_view(apng.constData(), size_t(apng.size())));
        return true;
    } catch (const std::exception& e) {
        const QString what = qs(errorMessage(e));
        if (error) *error = what.startsWith(path) ? what : QStringLiteral("%1: %2").arg(path, what);
        return false;
    }
}

}  // namespace attnviz::ui
