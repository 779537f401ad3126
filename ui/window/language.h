// The window's language: English (the source strings) or Simplified Chinese (translations/attnviz_zh_CN.ts, built
// into a .qm embedded under :/i18n). The choice is saved in QSettings ("View/language"): "" follows the system
// locale (LANG=zh_CN.UTF-8 starts in Chinese), "en" or "zh_CN" is fixed. Installing a translator makes Qt send
// QEvent::LanguageChange to every widget; the widgets retranslate themselves on it (no restart needed).
#pragma once
#include <QString>
#include <QStringList>

class QLocale;

namespace attnviz::ui {

QStringList languageCodes();                       // "en", "zh_CN"
QString languageDisplayName(const QString& code);  // in the language itself: "English", "简体中文"
QString languageForLocale(const QLocale& locale);  // "zh_CN" for any Chinese locale, else "en"
QString currentLanguage();                         // the language installed by setLanguage(), "en" at first

// Installs the translators for `code` ("en" removes ours; Qt's own strings, e.g. dialog buttons, come from
// qtbase_<code>.qm when Debian's qt6-translations-l10n is installed). False for an unknown code or a missing .qm.
bool setLanguage(const QString& code);

QString savedLanguageChoice();  // "" (system), "en" or "zh_CN"
void saveLanguageChoice(const QString& choice);
// setLanguage() of the saved choice, or of the system locale's language when the choice is "" (at startup).
void applySavedLanguage();

}  // namespace attnviz::ui
