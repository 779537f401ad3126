#include "window/about.h"

#include "attnviz_version.h"

#include <qcustomplot.h>
#include <Eigen/Core>
#include <QCoreApplication>
#include <QDir>

namespace attnviz::ui {

namespace {
bool shipsTatoeba(const QStringList& sample_dirs) {
    for (const QString& dir : sample_dirs)
        if (QDir(dir).exists(QStringLiteral("tatoeba"))) return true;
    return false;
}
}  // namespace

QString aboutText(const QStringList& sample_dirs) {
    const QString eigen =
        QStringLiteral("%1.%2.%3").arg(EIGEN_WORLD_VERSION).arg(EIGEN_MAJOR_VERSION).arg(EIGEN_MINOR_VERSION);
    QString text =
        QCoreApplication::translate(
            "attnviz::ui::About",
            "<p><b>attnviz</b> %1</p>"
            "<p>attnviz shows where a sequence-to-sequence model looks while it translates: the attention weights of "
            "each output token over the source tokens.</p>")
            .arg(QStringLiteral(ATTNVIZ_VERSION));
    text +=
        QCoreApplication::translate(
            "attnviz::ui::About",
            "<p>Built with <a href=\"https://www.qt.io\">Qt</a> %1, <a href=\"https://eigen.tuxfamily.org\">Eigen</a> "
            "%2 and <a href=\"https://www.qcustomplot.com\">QCustomPlot</a> %3.</p>")
            .arg(QString::fromLatin1(qVersion()), eigen, QStringLiteral(QCUSTOMPLOT_VERSION_STR));
    if (shipsTatoeba(sample_dirs))
        text += QCoreApplication::translate(
            "attnviz::ui::About",
            "<p>The English–Chinese sample models are trained on sentence pairs from "
            "<a href=\"https://tatoeba.org\">Tatoeba</a> (tatoeba.org), © their contributors, licensed under "
            "<a href=\"https://creativecommons.org/licenses/by/2.0/fr/\">CC-BY 2.0 FR</a>.</p>");
    return text;
}

}  // namespace attnviz::ui
