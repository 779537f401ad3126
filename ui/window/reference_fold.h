// The reference and gold links rows of the main window's form behind a disclosure (docs/gui.md, "Small screens"): a
// button at the end of the source field's row folds them away, so that a short window keeps its height for the
// heatmap's rows; folded, the button says whether a reference is forced and its tooltip what is typed (the reference,
// the gold links' AER). A window below MainWindow::kCompactHeight folds them, a taller one unfolds them; the button
// folds and unfolds them at any size, until the window crosses that height again.
#pragma once
#include <QObject>
#include <QString>

class QFormLayout;
class QLineEdit;
class QToolButton;
class QWidget;

namespace attnviz::ui {

class GoldLinksPanel;

class ReferenceFold : public QObject {
    Q_OBJECT
public:
    // `button` is placed by the caller (beside the source field); `reference` and `gold` are fields of `form`.
    ReferenceFold(QFormLayout* form, QLineEdit* reference, GoldLinksPanel* gold, QWidget* parent);

    void setCompact(bool compact);  // the window became short (folds) or tall (unfolds)
    void setFolded(bool folded);
    bool isFolded() const { return folded_; }
    QToolButton* button() const { return button_; }
    QString summary() const;  // what the folded rows hold, in words (the button's tooltip)
    void retranslate();

private:
    void update();

    QFormLayout* form_;
    QLineEdit* reference_;
    GoldLinksPanel* gold_;
    QToolButton* button_;
    bool folded_ = false;
    bool compact_ = false;
};

}  // namespace attnviz::ui
