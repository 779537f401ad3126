#include "state/intervention_items.h"
#include "base/errors.h"
#include "heatmap/utf8_text.h"

#include <QCoreApplication>

#include <algorithm>
#include <climits>
#include <exception>

namespace attnviz::ui {

namespace {

QString kindText(AttentionKind kind) {
    switch (kind) {
    case AttentionKind::EncoderSelf:
        return QCoreApplication::translate("attnviz::ui::Interventions", "Encoder self-attention");
    case AttentionKind::DecoderSelf:
        return QCoreApplication::translate("attnviz::ui::Interventions", "Decoder self-attention");
    case AttentionKind::Cross:
        break;
    }
    return QCoreApplication::translate("attnviz::ui::Interventions", "Cross-attention");
}

}  // namespace

InterventionItem InterventionItem::knockout(int position, const QString& word) {
    InterventionItem item;
    item.kind = Kind::Knockout;
    item.position = position;
    item.word = word;
    return item;
}

InterventionItem InterventionItem::attend(int row, const QString& row_token, int position, const QString& word) {
    InterventionItem item;
    item.kind = Kind::Attend;
    item.row = row;
    item.row_token = row_token;
    item.position = position;
    item.word = word;
    return item;
}

InterventionItem InterventionItem::headOff(const HeadRef& head) {
    InterventionItem item;
    item.kind = Kind::HeadOff;
    item.head = head;
    return item;
}

bool InterventionItem::sameAs(const InterventionItem& o) const {
    if (kind != o.kind) return false;
    switch (kind) {
    case Kind::Knockout:
        return position == o.position;
    case Kind::Attend:
        return row == o.row;  // one attend per row: a second one replaces the first
    case Kind::HeadOff:
        return head == o.head;
    }
    return false;
}

Interventions activeInterventions(const InterventionList& list) {
    Interventions iv;
    for (const InterventionItem& item : list) {
        if (!item.enabled) continue;
        switch (item.kind) {
        case InterventionItem::Kind::Knockout:
            iv.knockout.push_back(item.position);
            break;
        case InterventionItem::Kind::Attend:
            iv.attend.push_back({item.row, item.position});
            break;
        case InterventionItem::Kind::HeadOff:
            iv.heads_off.push_back(item.head);
            break;
        }
    }
    std::sort(iv.knockout.begin(), iv.knockout.end());
    iv.knockout.erase(std::unique(iv.knockout.begin(), iv.knockout.end()), iv.knockout.end());
    return iv;
}

int indexOf(const InterventionList& list, const InterventionItem& item) {
    for (size_t i = 0; i < list.size(); ++i)
        if (list[i].sameAs(item)) return int(i);
    return -1;
}

QString interventionText(const InterventionItem& item) {
    switch (item.kind) {
    case InterventionItem::Kind::Knockout:
        return QCoreApplication::translate("attnviz::ui::Interventions", "Knock out “%1” (position %2)")
            .arg(item.word)
            .arg(item.position);
    case InterventionItem::Kind::Attend:
        if (item.row_token.isEmpty())
            return QCoreApplication::translate("attnviz::ui::Interventions", "Step %1: attend only to “%2”")
                .arg(item.row + 1)
                .arg(item.word);
        return QCoreApplication::translate("attnviz::ui::Interventions", "Step %1 “%2”: attend only to “%3”")
            .arg(item.row + 1)
            .arg(item.row_token, item.word);
    case InterventionItem::Kind::HeadOff:
        return QCoreApplication::translate("attnviz::ui::Interventions", "%1: layer %2, head %3 removed")
            .arg(kindText(item.head.kind))
            .arg(item.head.layer + 1)
            .arg(item.head.head + 1);
    }
    return {};
}

bool knocksOutEveryWord(const Interventions& iv, int S) {
    if (S <= 2 || int64_t(iv.knockout.size()) < int64_t(S) - 2) return false;  // too few to cover every word
    std::vector<char> out(size_t(S), 0);
    for (int j : iv.knockout)
        if (j >= 1 && j <= S - 2) out[size_t(j)] = 1;
    return std::all_of(out.begin() + 1, out.end() - 1, [](char o) { return o != 0; });
}

QString knockoutProblem(const InterventionList& list, int S) { return knockoutProblem(activeInterventions(list), S); }

QString knockoutProblem(const Interventions& iv, int S) {
    if (!knocksOutEveryWord(iv, S)) return {};
    return QCoreApplication::translate(
        "attnviz::ui::Interventions",
        "Every word of the sentence would be knocked out: the model would read nothing but <sos> and <eos>. "
        "Keep at least one word.");
}

InterventionList interventionsFor(const Model& model, const InterventionList& list, int S, InterventionList* dropped,
                                  QStringList* reasons) {
    InterventionList kept;
    for (const InterventionItem& item : list) {
        InterventionItem on = item;
        on.enabled = true;
        try {
            checkInterventions(model, activeInterventions({on}), S, INT_MAX);
            kept.push_back(item);
        } catch (const std::exception& e) {
            if (dropped) dropped->push_back(item);
            if (reasons) reasons->push_back(qs(errorMessage(e)));
        }
    }
    return kept;
}

}  // namespace attnviz::ui
