#include "window/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

#include <memory>

namespace attnviz::ui {

namespace {

const QString kLanguageSettingsKey = QStringLiteral("View/language");

// Ours (:/i18n/attnviz_<code>.qm) and Qt's (qtbase_<code>.qm), owned by the application once installed.
struct Translators {
    QTranslator* ours = nullptr;
    QTranslator* qt = nullptr;
    QString code = QStringLiteral("en");
};

Translators& translators() {
    static Translators t;
    return t;
}

void removeTranslator(QTranslator*& t) {
    if (!t) return;
    QCoreApplication::removeTranslator(t);
    delete t;
    t = nullptr;
}

}  // namespace

QStringList languageCodes() { return {QStringLiteral("en"), QStringLiteral("zh_CN")}; }

QString languageDisplayName(const QString& code) {
    if (code == QLatin1String("zh_CN")) return QStringLiteral("简体中文");
    return QStringLiteral("English");
}

QString languageForLocale(const QLocale& locale) {
    return locale.language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

QString currentLanguage() { return translators().code; }

bool setLanguage(const QString& code) {
    if (!languageCodes().contains(code)) return false;
    Translators& t = translators();
    if (code == t.code) return true;
    auto ours = std::make_unique<QTranslator>();
    auto qt = std::make_unique<QTranslator>();
    if (code != QLatin1String("en")) {
        if (!ours->load(QStringLiteral(":/i18n/attnviz_%1.qm").arg(code))) return false;
        if (!qt->load(QStringLiteral("qtbase_%1").arg(code), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            qt.reset();  // Qt's own strings stay English without qt6-translations-l10n
    }
    removeTranslator(t.ours);
    removeTranslator(t.qt);
    t.code = code;
    // Installing or removing a translator sends QEvent::LanguageChange to the application, which posts it (once,
    // compressed) to every top-level widget.
    if (code != QLatin1String("en")) {
        if (qt) QCoreApplication::installTranslator(t.qt = qt.release());
        QCoreApplication::installTranslator(t.ours = ours.release());
    }
    return true;
}

QString savedLanguageChoice() {
    const QString v = QSettings().value(kLanguageSettingsKey, QString()).toString();
    return languageCodes().contains(v) ? v : QString();
}

void saveLanguageChoice(const QString& choice) { QSettings().setValue(kLanguageSettingsKey, choice); }

void applySavedLanguage() {
    const QString choice = savedLanguageChoice();
    setLanguage(choice.isEmpty() ? languageForLocale(QLocale::system()) : choice);
}

}  // namespace attnviz::ui
