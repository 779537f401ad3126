// MainWindow in another language or theme: View → Language and View → Theme, and the window's answer to
// QEvent::LanguageChange (every text again, without a restart) and QEvent::PaletteChange (colours it sets itself).
#include "window/main_window.h"

#include "dialogs/model_library.h"
#include "heatmap/plot_palette.h"
#include "window/language.h"
#include "window/theme.h"

#include <QAction>
#include <QActionGroup>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>

namespace attnviz::ui {

void MainWindow::addAppearanceMenus(QMenu* view) {
    view->addSeparator();
    QMenu* language = view->addMenu(tr("&Language"));
    auto* languages = new QActionGroup(language);
    const QString choice = savedLanguageChoice();
    // Language names are written in their own language, so that one can find one's way back from any of them.
    auto addLanguage = [&](const QString& text, const QString& code) {
        QAction* a = language->addAction(text);
        a->setCheckable(true);
        a->setChecked(code == choice);
        a->setData(code);
        languages->addAction(a);
        connect(a, &QAction::triggered, this, [code] {
            saveLanguageChoice(code);
            setLanguage(code.isEmpty() ? languageForLocale(QLocale::system()) : code);
        });
    };
    addLanguage(tr("System (%1)").arg(languageDisplayName(languageForLocale(QLocale::system()))), QString());
    for (const QString& code : languageCodes()) addLanguage(languageDisplayName(code), code);

    QMenu* theme = view->addMenu(tr("&Theme"));
    auto* themes = new QActionGroup(theme);
    const std::pair<Theme, QString> choices[] = {
        {Theme::System, tr("&System")}, {Theme::Light, tr("&Light")}, {Theme::Dark, tr("&Dark")}};
    for (const auto& [kind, text] : choices) {
        QAction* a = theme->addAction(text);
        a->setCheckable(true);
        a->setChecked(kind == currentTheme());
        a->setData(themeKey(kind));
        themes->addAction(a);
        connect(a, &QAction::triggered, this, [k = kind] {
            saveTheme(k);
            setTheme(k);
        });
    }
}

void MainWindow::changeEvent(QEvent* event) {
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::LanguageChange && open_act_) {
        retranslateUi();
    } else if (event->type() == QEvent::PaletteChange && notice_) {
        setNotice(notice_->text(), notice_warning_);  // the warning red for this palette
    }
}

void MainWindow::retranslateUi() {
    const bool playing = isPlaying();
    setPlaying(false);  // the timer drives play_act_, rebuilt below
    const QByteArray layout = saveState();
    const double speed = speed_->value();
    const bool annotate = style_.annotate, hide_specials = style_.hide_specials;

    // The old shell: menus (their submenus and actions with them), toolbars (with the speed box and the colour map
    // box) and the window's actions. The library dialog is made again when next shown.
    menuBar()->clear();
    qDeleteAll(menuBar()->findChildren<QMenu*>(Qt::FindDirectChildrenOnly));
    for (QToolBar* bar : findChildren<QToolBar*>(Qt::FindDirectChildrenOnly)) {
        removeToolBar(bar);
        delete bar;
    }
    for (QAction* a : {open_act_, library_act_, export_act_, copy_act_, quit_act_, annotate_act_, hide_specials_act_,
                       first_act_, back_act_, forward_act_, last_act_, play_act_, undo_act_, redo_act_,
                       clear_forced_act_, open_corpus_act_, open_folder_act_})
        delete a;
    delete words_group_;  // and its actions
    delete score_group_;  // and its actions
    score_acts_.clear();
    delete library_;

    createActions();
    createMenus();
    createToolBars();
    restoreState(layout);
    fitFormToHeight();  // the new toolbars' icons for the window's height
    speed_->setValue(speed);
    annotate_act_->setChecked(annotate);
    hide_specials_act_->setChecked(hide_specials);
    applyStyle();

    retranslateCentralWidgets();
    if (model()) {
        modelChanged();  // title, status line, scoring tooltips
    } else {
        updateScoreActions();
        updateStatus();
    }
    updateStepActions();
    retranslateNotices();
    setPlaying(playing);
}

}  // namespace attnviz::ui
