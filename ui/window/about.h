// The About box's text: what attnviz is, its version (attnviz_version.h, from the top CMakeLists.txt) and the
// credits: the libraries it is built on and, when the sample models' Tatoeba data ships beside them, Tatoeba.
#pragma once
#include <QString>
#include <QStringList>

namespace attnviz::ui {

// Rich text for QMessageBox::about. `sample_dirs`: the folders searched for sample models (sampleModelDirs()); the
// Tatoeba credit is given when one of them has a tatoeba/ folder.
QString aboutText(const QStringList& sample_dirs);

}  // namespace attnviz::ui
