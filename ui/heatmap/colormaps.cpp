// Colour map tables. The stop tables below were generated from matplotlib 3.6's _cm_listed.py / _cm.py
// (viridis, magma and cividis are 256-entry lists: every 8th entry is kept, 33 stops, linear in between).
#include "heatmap/colormaps.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace attnviz::ui {
namespace {

struct Stop {
    double t;
    int r, g, b;
};

// matplotlib's _viridis_data (256 entries): every 8th entry, 33 stops
constexpr Stop kViridis[] = {
    {0.0000, 68, 1, 84},    {0.0314, 71, 13, 96},   {0.0627, 72, 24, 106},  {0.0941, 72, 35, 116},
    {0.1255, 71, 45, 123},  {0.1569, 69, 55, 129},  {0.1882, 66, 64, 134},  {0.2196, 62, 73, 137},
    {0.2510, 59, 82, 139},  {0.2824, 55, 91, 141},  {0.3137, 51, 99, 141},  {0.3451, 47, 107, 142},
    {0.3765, 44, 114, 142}, {0.4078, 41, 122, 142}, {0.4392, 38, 130, 142}, {0.4706, 35, 137, 142},
    {0.5020, 33, 145, 140}, {0.5294, 31, 151, 139}, {0.5608, 31, 159, 136}, {0.5922, 33, 166, 133},
    {0.6235, 39, 173, 129}, {0.6549, 49, 181, 123}, {0.6863, 61, 188, 116}, {0.7176, 76, 194, 108},
    {0.7490, 92, 200, 99},  {0.7804, 110, 206, 88}, {0.8118, 129, 211, 77}, {0.8431, 149, 216, 64},
    {0.8745, 170, 220, 50}, {0.9059, 192, 223, 37}, {0.9373, 213, 226, 26}, {0.9686, 234, 229, 26},
    {1.0000, 253, 231, 37},
};
// matplotlib's _magma_data (256 entries): every 8th entry, 33 stops
constexpr Stop kMagma[] = {
    {0.0000, 0, 0, 4},       {0.0314, 3, 3, 18},      {0.0627, 10, 8, 34},     {0.0941, 19, 13, 52},
    {0.1255, 29, 17, 71},    {0.1569, 41, 17, 90},    {0.1882, 54, 16, 107},   {0.2196, 68, 15, 118},
    {0.2510, 81, 18, 124},   {0.2824, 93, 23, 127},   {0.3137, 106, 28, 129},  {0.3451, 118, 33, 129},
    {0.3765, 131, 38, 129},  {0.4078, 144, 42, 129},  {0.4392, 156, 46, 127},  {0.4706, 170, 51, 125},
    {0.5020, 183, 55, 121},  {0.5294, 194, 59, 117},  {0.5608, 207, 64, 112},  {0.5922, 219, 71, 106},
    {0.6235, 229, 80, 100},  {0.6549, 238, 91, 94},   {0.6863, 244, 105, 92},  {0.7176, 249, 120, 93},
    {0.7490, 251, 135, 97},  {0.7804, 253, 150, 104}, {0.8118, 254, 165, 113}, {0.8431, 254, 180, 123},
    {0.8745, 254, 194, 135}, {0.9059, 254, 209, 148}, {0.9373, 253, 224, 161}, {0.9686, 252, 238, 176},
    {1.0000, 252, 253, 191},
};
// matplotlib's _cividis_data (256 entries): every 8th entry, 33 stops
constexpr Stop kCividis[] = {
    {0.0000, 0, 34, 78},     {0.0314, 0, 40, 91},     {0.0627, 0, 46, 106},    {0.0941, 5, 51, 113},
    {0.1255, 26, 56, 111},   {0.1569, 39, 62, 110},   {0.1882, 50, 67, 109},   {0.2196, 59, 73, 108},
    {0.2510, 67, 78, 108},   {0.2824, 75, 84, 108},   {0.3137, 83, 90, 109},   {0.3451, 90, 95, 110},
    {0.3765, 97, 101, 111},  {0.4078, 104, 106, 113}, {0.4392, 111, 112, 115}, {0.4706, 118, 118, 118},
    {0.5020, 125, 124, 120}, {0.5294, 131, 129, 121}, {0.5608, 139, 135, 120}, {0.5922, 146, 141, 120},
    {0.6235, 154, 147, 118}, {0.6549, 162, 153, 117}, {0.6863, 170, 160, 115}, {0.7176, 179, 166, 112},
    {0.7490, 187, 173, 109}, {0.7804, 195, 179, 105}, {0.8118, 204, 186, 100}, {0.8431, 212, 193, 95},
    {0.8745, 221, 200, 88},  {0.9059, 230, 208, 81},  {0.9373, 239, 215, 72},  {0.9686, 248, 223, 60},
    {1.0000, 254, 232, 56},
};
// ColorBrewer sequential Blues, 9 classes (matplotlib's _Blues_data)
constexpr Stop kBlues[] = {
    {0.0000, 247, 251, 255}, {0.1250, 222, 235, 247}, {0.2500, 198, 219, 239},
    {0.3750, 158, 202, 225}, {0.5000, 107, 174, 214}, {0.6250, 66, 146, 198},
    {0.7500, 33, 113, 181},  {0.8750, 8, 81, 156},    {1.0000, 8, 48, 107},
};
// matplotlib's bone (segmented data; linear between these breakpoints): black = 0, white = 1
constexpr Stop kBone[] = {
    {0.0000, 0, 0, 0},
    {0.3651, 81, 81, 113},
    {0.7460, 166, 198, 198},
    {1.0000, 255, 255, 255},
};

// ColorBrewer diverging RdBu, 11 classes (matplotlib's _RdBu_data), reversed (matplotlib's RdBu_r): dark blue at
// 0, the light grey centre at 0.5, dark red at 1.
constexpr Stop kRdBuReversed[] = {
    {0.0, 5, 48, 97},     {0.1, 33, 102, 172},  {0.2, 67, 147, 195},  {0.3, 146, 197, 222},
    {0.4, 209, 229, 240}, {0.5, 247, 247, 247}, {0.6, 253, 219, 199}, {0.7, 244, 165, 130},
    {0.8, 214, 96, 77},   {0.9, 178, 24, 43},   {1.0, 103, 0, 31},
};

struct Entry {
    const char* name;
    const char* display;  // English; colormapDisplayName() translates it
    const Stop* stops;
    int count;
    bool reversed;  // read the table from 1 to 0
};

constexpr Stop kGray[] = {{0.0, 0, 0, 0}, {1.0, 255, 255, 255}};

const Entry kEntries[] = {
    {"viridis", QT_TRANSLATE_NOOP("attnviz::ui::Colormaps", "Viridis (perceptually uniform)"), kViridis,
     int(std::size(kViridis)), false},
    {"magma", QT_TRANSLATE_NOOP("attnviz::ui::Colormaps", "Magma"), kMagma, int(std::size(kMagma)), false},
    {"cividis", QT_TRANSLATE_NOOP("attnviz::ui::Colormaps", "Cividis (colour-blind safe)"), kCividis,
     int(std::size(kCividis)), false},
    {"bone", QT_TRANSLATE_NOOP("attnviz::ui::Colormaps", "Bone (black to white)"), kBone, int(std::size(kBone)), false},
    {"gray", QT_TRANSLATE_NOOP("attnviz::ui::Colormaps", "Gray (black = 0, white = 1)"), kGray, int(std::size(kGray)),
     false},
    {"greys", QT_TRANSLATE_NOOP("attnviz::ui::Colormaps", "Greys (white = 0, black = 1, for print)"), kGray,
     int(std::size(kGray)), true},
    {"blues", QT_TRANSLATE_NOOP("attnviz::ui::Colormaps", "Blues"), kBlues, int(std::size(kBlues)), false},
};

const Entry& entryFor(const QString& name) {
    for (const Entry& e : kEntries)
        if (name.compare(QLatin1String(e.name), Qt::CaseInsensitive) == 0) return e;
    return kEntries[0];
}

double channelToLinear(double c) {
    c /= 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double relativeLuminance(const QColor& c) {
    return 0.2126 * channelToLinear(c.red()) + 0.7152 * channelToLinear(c.green()) + 0.0722 * channelToLinear(c.blue());
}

}  // namespace

QStringList colormapNames() {
    QStringList names;
    for (const Entry& e : kEntries) names << QLatin1String(e.name);
    return names;
}

QString defaultColormap() { return QStringLiteral("viridis"); }

bool isColormap(const QString& name) {
    for (const Entry& e : kEntries)
        if (name.compare(QLatin1String(e.name), Qt::CaseInsensitive) == 0) return true;
    return false;
}

namespace {

QCPColorGradient gradientOf(const Stop* table, int count, bool reversed) {
    QMap<double, QColor> stops;
    for (int i = 0; i < count; ++i) {
        const Stop& s = table[i];
        stops.insert(reversed ? 1.0 - s.t : s.t, QColor(s.r, s.g, s.b));
    }
    QCPColorGradient g;
    g.setColorStops(stops);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(256);
    g.setPeriodic(false);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

}  // namespace

QCPColorGradient colormapGradient(const QString& name) {
    const Entry& e = entryFor(name);
    return gradientOf(e.stops, e.count, e.reversed);
}

QCPColorGradient divergingGradient() { return gradientOf(kRdBuReversed, int(std::size(kRdBuReversed)), false); }

QString colormapDisplayName(const QString& name) {
    return QCoreApplication::translate("attnviz::ui::Colormaps", entryFor(name).display);
}

QColor contrastingTextColor(const QColor& bg) {
    const double l = relativeLuminance(bg);
    // Contrast ratio with black (l + 0.05) / 0.05 against white 1.05 / (l + 0.05): black wins above l ~ 0.179.
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? QColor(Qt::black) : QColor(Qt::white);
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace attnviz::ui
