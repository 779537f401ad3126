#include "dialogs/hub_cache.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace attnviz::ui {

namespace {

// A config or tokenizer config is a few kilobytes; anything much larger is not one (and is not read whole).
constexpr qint64 kMaxJsonBytes = 1 << 20;

QJsonObject readSmallJson(const QString& path) {
    QFile f(path);
    if (f.size() > kMaxJsonBytes || !f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.read(kMaxJsonBytes)).object();
}

// refs/main's snapshot when it exists (what from_pretrained opens), else the most recently modified snapshot.
QString chosenSnapshot(const QDir& repo) {
    QFile ref(repo.filePath(QStringLiteral("refs/main")));
    if (ref.size() < 200 && ref.open(QIODevice::ReadOnly)) {
        const QString hash = QString::fromLatin1(ref.read(200)).trimmed();
        const QString path = repo.filePath(QStringLiteral("snapshots/") + hash);
        if (!hash.isEmpty() && !hash.contains(u'/') && QFileInfo(path + QStringLiteral("/config.json")).isFile())
            return path;
    }
    const QFileInfoList snapshots =
        QDir(repo.filePath(QStringLiteral("snapshots"))).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
    for (const QFileInfo& s : snapshots)
        if (QFileInfo(s.filePath() + QStringLiteral("/config.json")).isFile()) return s.filePath();
    return {};
}

// "opus-mt-en-zh" → en, zh; "opus-mt-tc-big-en-zh" → en, zh: the last two parts, when they look like languages.
void languagesFromName(const QString& name, HubModel& m) {
    static const QRegularExpression pair(QStringLiteral("-([a-zA-Z_]{2,8})-([a-zA-Z_]{2,8})$"));
    const QRegularExpressionMatch match = pair.match(name);
    if (!match.hasMatch()) return;
    if (m.source_lang.isEmpty()) m.source_lang = match.captured(1);
    if (m.target_lang.isEmpty()) m.target_lang = match.captured(2);
}

}  // namespace

QString hubCacheDir() {
    const QString hub = qEnvironmentVariable("HF_HUB_CACHE");
    if (!hub.isEmpty()) return hub;
    const QString home = qEnvironmentVariable("HF_HOME");
    if (!home.isEmpty()) return QDir(home).filePath(QStringLiteral("hub"));
    return QDir::home().filePath(QStringLiteral(".cache/huggingface/hub"));
}

std::vector<HubModel> scanHubCache(const QString& cache) {
    std::vector<HubModel> out;
    const QStringList repos = QDir(cache).entryList({QStringLiteral("models--*")}, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& name : repos) {
        const QString snapshot = chosenSnapshot(QDir(QDir(cache).filePath(name)));
        if (snapshot.isEmpty()) continue;
        const QJsonObject config = readSmallJson(snapshot + QStringLiteral("/config.json"));
        if (config.value(QStringLiteral("model_type")).toString() != QStringLiteral("marian")) continue;
        HubModel m;
        m.path = snapshot;
        m.repository = name.mid(int(qstrlen("models--"))).replace(QStringLiteral("--"), QStringLiteral("/"));
        const QJsonObject tokenizer = readSmallJson(snapshot + QStringLiteral("/tokenizer_config.json"));
        m.source_lang = tokenizer.value(QStringLiteral("source_lang")).toString();
        m.target_lang = tokenizer.value(QStringLiteral("target_lang")).toString();
        languagesFromName(m.repository, m);
        out.push_back(std::move(m));
    }
    std::sort(out.begin(), out.end(), [](const HubModel& a, const HubModel& b) {
        return a.repository.compare(b.repository, Qt::CaseInsensitive) < 0;
    });
    return out;
}

}  // namespace attnviz::ui
