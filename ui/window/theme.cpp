#include "window/theme.h"

#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QProxyStyle>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>

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

// Fusion for the dark palette: check boxes and radio buttons (also those of toggle menu items) outlined in the text
// colour. Fusion outlines them in the window colour darkened, which a dark window or menu swallows, so an unchecked
// item showed no box at all.
class DarkFusionStyle : public QProxyStyle {
public:
    DarkFusionStyle() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))) {}

    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget) const override {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        if (element != PE_IndicatorCheckBox && element != PE_IndicatorRadioButton) return;
        QColor edge = option->palette.color(QPalette::Text);
        edge.setAlpha(option->state & State_Enabled ? 160 : 80);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->setPen(QPen(edge, 1.0));
        painter->setBrush(Qt::NoBrush);
        const QRectF box = QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5);
        if (element == PE_IndicatorRadioButton)
            painter->drawEllipse(box);
        else
            painter->drawRoundedRect(box, 1.5, 1.5);
        painter->restore();
    }
};

bool usingDarkStyle() { return dynamic_cast<DarkFusionStyle*>(QApplication::style()) != nullptr; }

void useStyle(const QString& name) {
    if (usingDarkStyle() || QApplication::style()->name().compare(name, Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStyleFactory::create(name));
}

void useDarkStyle() {
    if (!usingDarkStyle()) QApplication::setStyle(new DarkFusionStyle);
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
        useDarkStyle();
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
