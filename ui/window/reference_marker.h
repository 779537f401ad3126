// The reference field's unknown words: a word the model's output vocabulary lacks (it becomes <unk>) is underlined
// in red like the source field's. A QLineEdit has no syntax highlighter: the underline is given as the formats of an
// input-method event without text, the way Qt lets one format part of a line edit's text; it is written again after
// every edit (only committed text is marked, never an input method's composition).
#pragma once
#include "model/model.h"

#include <QObject>
#include <QStringList>

#include <memory>

class QLineEdit;

namespace attnviz::ui {

class ReferenceMarker : public QObject {
    Q_OBJECT
public:
    explicit ReferenceMarker(QLineEdit* edit);  // a child of `edit`
    void setModel(std::shared_ptr<const Model> model);
    // The unknown words of the field's text, as the target tokenizer writes them.
    QStringList unknownWords() const { return unknown_; }

private:
    void mark();

    QLineEdit* edit_;
    std::shared_ptr<const Model> model_;
    QStringList unknown_;
};

}  // namespace attnviz::ui
