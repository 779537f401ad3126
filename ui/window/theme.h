// The window's colours: the platform's own (System), or Qt's Fusion style with a light or a dark palette (Fusion
// because the platform styles may ignore a palette, and Qt 6.4 asks no platform for a dark scheme). Saved in
// QSettings ("View/theme"). Setting the application palette sends QEvent::PaletteChange to every widget: the plots
// (heatmap, step panel) recolour themselves from their palette on it; exports keep their own background.
#pragma once
#include <QString>

class QPalette;

namespace attnviz::ui {

enum class Theme { System, Light, Dark };

QString themeKey(Theme theme);           // "system", "light", "dark" (the settings value)
Theme themeFromKey(const QString& key);  // unknown -> System
QPalette darkPalette();                  // Fusion's dark palette (links and highlights kept readable)

void setTheme(Theme theme);  // applies it to the QApplication now
Theme currentTheme();

Theme savedTheme();
void saveTheme(Theme theme);
void applySavedTheme();  // at startup, after the QApplication exists

}  // namespace attnviz::ui
