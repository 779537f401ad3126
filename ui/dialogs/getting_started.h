// Help ▸ Getting started: a short page for a first-time user (what a row and a column are, the four scorings,
// stepping, "what if?", where to go next), in the window's language. It is shown by itself once, on the first start
// with a window that can show dialogs; afterwards only from the Help menu.
#pragma once
#include <QDialog>
#include <QString>

class QTextBrowser;

namespace attnviz::ui {

// The page as HTML, translated (zh_CN).
QString gettingStartedText();

// True until the page has been shown once (QSettings "Help/gettingStartedShown").
bool gettingStartedDue();
void markGettingStartedShown();

class GettingStartedDialog : public QDialog {
    Q_OBJECT
public:
    explicit GettingStartedDialog(QWidget* parent = nullptr);
    QTextBrowser* page() const { return page_; }

private:
    QTextBrowser* page_;
};

}  // namespace attnviz::ui
