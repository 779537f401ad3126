#include "window/theme.h"

#include <QApplication>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace attnviz::ui {

namespace {

const QString kThemeSettingsKey = QStringLiteral("View/theme");

// What the platform gave before we changed anything, to go back to for Theme::System.
struct Original {
    bool captured = false;
    QString style;
    QPalette palette;
};

Original& original() {
    static Original o;
    return o;
}

Theme& current() {
    static Theme t = Theme::System;
    return t;
}

void useStyle(const QString& name) {
    if (QApplication::style()->name().compare(name, Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStyleFactory::create(name));
}

}  // namespace

QString themeKey(Theme theme) {
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

Theme themeFromKey(const QString& key) {
    if (key == QLatin1String("light")) return Theme::Light;
    if (key == QLatin1String("dark")) return Theme::Dark;
    return Theme::System;
}

QPalette darkPalette() {
    const QColor window(45, 45, 48), base(30, 30, 32), text(230, 230, 230), disabled(128, 128, 128);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(53, 53, 56));
    p.setColor(QPalette::ToolTipBase, QColor(60, 60, 64));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 90, 90));
    p.setColor(QPalette::Light, QColor(70, 70, 74));
    p.setColor(QPalette::Midlight, QColor(60, 60, 64));
    p.setColor(QPalette::Mid, QColor(40, 40, 42));
    p.setColor(QPalette::Dark, QColor(25, 25, 27));
    p.setColor(QPalette::Shadow, QColor(0, 0, 0));
    p.setColor(QPalette::Link, QColor(110, 170, 255));
    p.setColor(QPalette::LinkVisited, QColor(190, 140, 255));
    p.setColor(QPalette::Highlight, QColor(42, 130, 218));
    p.setColor(QPalette::HighlightedText, Qt::white);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(80, 80, 80));
    return p;
}

void setTheme(Theme theme) {
    Original& o = original();
    if (!o.captured) {
        o.style = QApplication::style()->name();
        o.palette = QApplication::palette();
        o.captured = true;
    }
    switch (theme) {
    case Theme::System:
        useStyle(o.style);
        QApplication::setPalette(o.palette);
        break;
    case Theme::Light:
        useStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Theme::Dark:
        useStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(darkPalette());
        break;
    }
    current() = theme;
}

Theme currentTheme() { return current(); }

Theme savedTheme() { return themeFromKey(QSettings().value(kThemeSettingsKey, QString()).toString()); }
void saveTheme(Theme theme) { QSettings().setValue(kThemeSettingsKey, themeKey(theme)); }

void applySavedTheme() {
    const Theme t = savedTheme();
    if (t != Theme::System) setTheme(t);
}

}  // namespace attnviz::ui
