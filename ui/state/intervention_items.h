// The window's interventions (docs/gui.md, "Interventions"): a list of knockouts, attends and heads off, each with its
// on/off switch. The enabled ones are core's Interventions (model/interventions.h) of the next decode; the list keeps
// the words they were made on, so that an entry reads "Knock out “cat”" whatever is decoded since.
// Legend: S source length with <sos>/<eos>.
#pragma once
#include "model/interventions.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace attnviz::ui {

struct InterventionItem {
    enum class Kind { Knockout, Attend, HeadOff };
    Kind kind = Kind::Knockout;
    int position = -1;  // Knockout, Attend: the source position (0 = <sos>)
    int row = -1;       // Attend: the target row (0-based)
    HeadRef head;       // HeadOff
    QString word;       // Knockout, Attend: the source token at `position` when it was made
    QString row_token;  // Attend: the target token of `row` when it was made
    bool enabled = true;

    static InterventionItem knockout(int position, const QString& word);
    static InterventionItem attend(int row, const QString& row_token, int position, const QString& word);
    static InterventionItem headOff(const HeadRef& head);
    // The same intervention (the switch and the words aside).
    bool sameAs(const InterventionItem& other) const;
    // Knockouts and attends name positions of one sentence; heads are the model's.
    bool belongsToSentence() const { return kind != Kind::HeadOff; }
    bool operator==(const InterventionItem&) const = default;
};

using InterventionList = std::vector<InterventionItem>;

// The enabled entries as core's Interventions (knockouts sorted, each once).
Interventions activeInterventions(const InterventionList& list);
// The index of the entry that is the same intervention as `item`, or -1.
int indexOf(const InterventionList& list, const InterventionItem& item);

// What the list entry says ("Knock out “cat”", "Row 3 “le”: attend only to “cat”", "Cross-attention: layer 1, head
// 2 removed"), in the reader's language.
QString interventionText(const InterventionItem& item);
// Whether the knockouts leave a source of S tokens no word: every position 1..S−2 between <sos> and <eos> knocked out
// (a sentence of no words has none to leave), so that the model would read only <sos> and <eos>. The engine decodes
// that as any knockout; the window refuses it, from its right-click menu and its command line alike.
bool knocksOutEveryWord(const Interventions& iv, int S);
// Why the enabled entries of `list` (or `iv`) cannot be decoded for a source of S tokens ("" when they can): every
// word knocked out (knocksOutEveryWord), in the reader's language.
QString knockoutProblem(const InterventionList& list, int S);
QString knockoutProblem(const Interventions& iv, int S);

// The entries that `model` can take for a source of S tokens (each checked alone by core's checkInterventions);
// the others are appended to *dropped with the reason in `reasons`.
InterventionList interventionsFor(const Model& model, const InterventionList& list, int S, InterventionList* dropped,
                                  QStringList* reasons);

}  // namespace attnviz::ui
