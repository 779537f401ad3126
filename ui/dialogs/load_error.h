// Why a model file could not be opened, for people first: what is wrong in plain words (the file is missing, is not
// a model, is incomplete, does not fit together...) and what to do, then the technical detail (the path and the
// loader's own message, e.g. io/safetensors.h's "file truncated: ..."), shown under "Show Details..." in the box.
#pragma once
#include <QString>

#include <memory>

class QMessageBox;
class QWidget;

namespace attnviz::ui {

struct LoadErrorText {
    QString plain;    // a sentence or two, naming the file
    QString details;  // the full path, then the loader's message
};

// `technical` is the loader's message (ModelError's what()). The kind of problem is told from the file itself
// (missing, a folder, unreadable, not a safetensors file) and else from the loader's message (truncated, a tensor
// of the wrong shape, not an attnviz model).
LoadErrorText describeLoadError(const QString& path, const QString& technical);

// A warning box: `text.plain` as its text, `text.details` as its detailed text.
std::unique_ptr<QMessageBox> makeLoadErrorBox(QWidget* parent, const QString& title, const LoadErrorText& text);

}  // namespace attnviz::ui
