#include "window/reference_marker.h"

#include "window/source_editor.h"

#include <QCoreApplication>
#include <QInputMethodEvent>
#include <QLineEdit>
#include <QTextCharFormat>

namespace attnviz::ui {

ReferenceMarker::ReferenceMarker(QLineEdit* edit) : QObject(edit), edit_(edit) {
    connect(edit_, &QLineEdit::textChanged, this, &ReferenceMarker::mark);
}

void ReferenceMarker::setModel(std::shared_ptr<const Model> model) {
    model_ = std::move(model);
    mark();
}

void ReferenceMarker::mark() {
    unknown_.clear();
    QTextCharFormat unknown;
    unknown.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    unknown.setUnderlineColor(QColor(220, 30, 30));
    // Input-method attributes count from the cursor.
    QList<QInputMethodEvent::Attribute> formats;
    if (model_) {
        for (const TokenSpan& s : locateTokens(*model_, edit_->text(), TextSide::Target)) {
            if (s.known) continue;
            unknown_ << s.token;
            formats << QInputMethodEvent::Attribute(QInputMethodEvent::TextFormat, s.start - edit_->cursorPosition(),
                                                    s.length, unknown);
        }
    }
    QInputMethodEvent event(QString(), formats);
    QCoreApplication::sendEvent(edit_, &event);
}

}  // namespace attnviz::ui
