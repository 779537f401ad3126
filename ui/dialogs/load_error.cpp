#include "dialogs/load_error.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>

#include <initializer_list>

namespace attnviz::ui {

namespace {

// The translation context of these texts.
struct LoadError {
    Q_DECLARE_TR_FUNCTIONS(LoadError)
};

// A safetensors file starts with an 8-byte header length and then the header's JSON object: '{'.
bool looksLikeSafetensors(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return true;  // cannot tell: let the loader's message speak
    const QByteArray head = f.read(9);
    return head.size() == 9 && head[8] == '{';
}

bool mentions(const QString& technical, std::initializer_list<const char*> words) {
    for (const char* w : words)
        if (technical.contains(QLatin1String(w), Qt::CaseInsensitive)) return true;
    return false;
}

QString plainReason(const QString& path, const QString& technical) {
    const QFileInfo info(path);
    const QString name = info.fileName();
    if (!info.exists())
        return LoadError::tr("The file “%1” does not exist. It may have been moved, renamed or deleted.").arg(name);
    if (info.isDir())
        return LoadError::tr("“%1” is a folder, not a model file. Choose a .safetensors file inside it.").arg(name);
    if (!info.isReadable())
        return LoadError::tr("You are not allowed to read “%1”. Check the file's permissions.").arg(name);
    const QString not_a_model = LoadError::tr(
        "“%1” is not an attnviz model. attnviz opens .safetensors files written by attnviz-cli train or by the "
        "PyTorch bridge (python/attnviz_torch.py).");
    if (!looksLikeSafetensors(path)) return not_a_model.arg(name);
    // The loader's words (io/safetensors.cpp, io/model_file.cpp) for the other cases.
    if (mentions(technical, {"truncated", "past the end"}))
        return LoadError::tr(
                   "“%1” is incomplete: the file ends before all of its data. A download or copy may not have "
                   "finished; fetch or copy it again.")
            .arg(name);
    if (mentions(technical, {"has shape", "missing tensor", "unexpected tensor", "the config needs"}))
        return LoadError::tr(
                   "“%1” does not fit together: its weights do not have the sizes its own settings call for. It may "
                   "have been edited or written by another program; save the model again.")
            .arg(name);
    if (mentions(technical, {"not an attnviz model", "not a safetensors", "header"})) return not_a_model.arg(name);
    return LoadError::tr("“%1” cannot be used as a model: something in it is wrong (see the details).").arg(name);
}

}  // namespace

LoadErrorText describeLoadError(const QString& path, const QString& technical) {
    LoadErrorText text;
    text.plain = plainReason(path, technical);
    text.details = LoadError::tr("File: %1").arg(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath())) +
                   QStringLiteral("\n\n") + technical;
    return text;
}

std::unique_ptr<QMessageBox> makeLoadErrorBox(QWidget* parent, const QString& title, const LoadErrorText& text) {
    auto box = std::make_unique<QMessageBox>(QMessageBox::Warning, title, text.plain, QMessageBox::Ok, parent);
    box->setDetailedText(text.details);
    return box;
}

}  // namespace attnviz::ui
