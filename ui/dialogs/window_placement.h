// Where a top-level window goes on the screen it opens on: its frame inside the screen's available geometry (the
// screen less its panels), at any scale (QT_SCALE_FACTOR=2 halves the logical room), and a window opened beside
// others (Getting started beside the main window) placed where it covers the least of what they show.
#pragma once
#include <QList>
#include <QMargins>
#include <QRect>
#include <QSize>

class QWidget;

namespace attnviz::ui {

// `wanted` (a window's geometry without its frame) made to fit `available` with `frame` around it: the size bounded
// by the room (never below 1×1), then moved the least distance that brings the framed window inside.
QRect fitInside(const QRect& wanted, const QRect& available, const QMargins& frame);

// The available geometry of the screen `window` is on (the primary screen while it has none).
QRect availableGeometryOf(const QWidget* window);

// The frame the window system puts around `window`: its own once shown, else that of `like` (a shown window the same
// window system frames), else a title bar's height as a guess.
QMargins frameMarginsOf(const QWidget* window, const QWidget* like = nullptr);

// Resizes and moves `window` (top level) so that its frame lies inside its screen's available geometry; a window
// that already fits is left as it is. Returns whether it changed anything.
bool fitToScreen(QWidget* window);

// A rectangle on `available` that overlaps the first of `keepClear` the least, then of those the second the least,
// and so on: beside the first rectangle where the screen has room, else over the part that hides the least of them,
// in their order. Its size is the first of `sizes` (larger first, a narrower one as the fallback) that does best.
QRect placeBeside(const QList<QSize>& sizes, const QRect& available, const QList<QRect>& keepClear);

}  // namespace attnviz::ui
