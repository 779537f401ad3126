#include "views/cell_inspector.h"
#include "base/errors.h"

#include "eval/attention_diagnostics.h"
#include "heatmap/explanation_data.h"
#include "heatmap/utf8_text.h"
#include "state/decode_state.h"

#include <QEvent>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <cmath>

namespace attnviz::ui {

namespace {

QString htmlText(const std::string& s) { return qs(s).toHtmlEscaped(); }
QString num(double v) { return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'g', 5); }
// "a row of the table": name, value, and an optional note.
QString row(const QString& name, const QString& value, const QString& note = {}) {
    return QStringLiteral("<tr><td>%1</td><td align=\"right\">&nbsp;<b>%2</b></td><td>&nbsp;%3</td></tr>")
        .arg(name, value, note);
}
// A vector's first components, "[0.12, −0.5, …]".
QString head(const std::vector<float>& v) {
    QStringList parts;
    for (size_t i = 0; i < v.size() && i < 4; ++i) parts << QString::number(double(v[i]), 'g', 3);
    if (v.size() > 4) parts << QStringLiteral("…");
    return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

}  // namespace

CellInspector::CellInspector(QWidget* parent) : QWidget(parent), view_(new QTextBrowser(this)) {
    view_->setOpenLinks(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(view_);
    refresh();
}

void CellInspector::setDecodeState(DecodeState* state) {
    if (state_) disconnect(state_, nullptr, this, nullptr);
    state_ = state;
    if (state_) {
        connect(state_, &DecodeState::selectionChanged, this, &CellInspector::refresh);
        connect(state_, &DecodeState::decodeChanged, this, &CellInspector::refresh);
        connect(state_, &DecodeState::explanationChanged, this, &CellInspector::refresh);
        connect(state_, &DecodeState::cursorChanged, this, &CellInspector::refresh);
        connect(state_, &DecodeState::attentionViewChanged, this, &CellInspector::refresh);
    }
    refresh();
}

QString CellInspector::text() const { return view_->toPlainText(); }

void CellInspector::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) refresh();
}

void CellInspector::refresh() {
    explanation_.reset();
    const PrefixDecoding* decode = state_ ? state_->decode() : nullptr;
    const int r = state_ ? state_->selectedRow() : -1, c = state_ ? state_->selectedColumn() : -1;
    if (!decode || !state_->decodedModel() || r < 0 || r >= int(decode->steps.size()) ||
        c >= int(decode->source.ids.size())) {
        view_->setHtml(tr("Click a cell of the heatmap to see how its attention weight was made."));
        return;
    }
    // Only a cell the heatmap shows: a row decoded at the current step, of the model's own cross-attention.
    if (r >= state_->cursor()) {
        view_->setHtml(tr("Row %1 is not decoded yet at this step (%2 of %3): step forward to see how its weights "
                          "were made.")
                           .arg(r + 1)
                           .arg(state_->cursor())
                           .arg(decode->steps.size()));
        return;
    }
    if (!state_->attentionView().isDefault()) {
        view_->setHtml(
            tr("The heatmap shows another attention than the decoder's own (a head, a layer or "
               "self-attention): the inspector takes apart the model's own cross-attention rows only. "
               "Choose the default view in the Attention heads dock to inspect a cell."));
        return;
    }
    // explainCell takes a step's scores apart as the plain model makes them: not a knocked-out or one-hot row.
    if (!decode->interventions.knockout.empty() || attendedPosition(decode->interventions, r) >= 0) {
        view_->setHtml(
            tr("This row was changed by an intervention (a knockout or “attend only here”): its weights are not the "
               "softmax of its scores, so there is nothing to take apart here. Interventions ▸ Plain model shows "
               "the model's own."));
        return;
    }
    try {
        explanation_ = explainCell(*state_->decodedModel(), decode->source.ids, decode->steps[size_t(r)], r, c);
    } catch (const std::exception& e) {
        view_->setHtml(tr("This cell cannot be explained: %1").arg(qs(errorMessage(e)).toHtmlEscaped()));
        return;
    }
    view_->setHtml(describe(*explanation_));
}

// The cell in the gold links' numbering (Pharaoh "source-target", words from 0, <sos> and <eos> not counted), the
// link a user types to mark it: the one numbering of the heatmap's cells besides the positions above.
QString CellInspector::goldLinkOf(const CellExplanation& x, const DecodeResult& r) const {
    const int source_word = x.source - 1;  // position 0 is <sos>
    const bool source_is_word = source_word >= 0 && x.source < int(r.source_tokens.size()) - 1;
    const bool target_is_word = r.target_tokens[size_t(x.step)] != "<eos>";
    if (!source_is_word || !target_is_word)
        return tr("not a word pair: no gold link (&lt;sos&gt; and &lt;eos&gt; are not counted)");
    return tr("gold link %1-%2 (words from 0, &lt;sos&gt; not counted)").arg(source_word).arg(x.step);
}

QString CellInspector::describe(const CellExplanation& x) const {
    const DecodeResult& r = state_->decode()->result;
    QString html = tr("<p><b>“%1” ← “%2”</b><br>step %3, source position %4 (&lt;sos&gt; = 0)<br>%5</p>")
                       .arg(htmlText(r.target_tokens[size_t(x.step)]), htmlText(r.source_tokens[size_t(x.source)]))
                       .arg(x.step + 1)
                       .arg(x.source)
                       .arg(goldLinkOf(x, r));
    if (!x.has_score) {
        html +=
            tr("<p>A Transformer's row is the mean of its last layer's cross-attention heads: there is no single "
               "score to take apart.</p>");
    } else if (!x.in_window) {
        html += tr("<p>Position %1 is outside this step's window [%2, %3]: it has no score and weight 0.</p>")
                    .arg(x.source)
                    .arg(x.lo)
                    .arg(x.hi);
    } else {
        html += scoreHtml(x);
    }
    html += QStringLiteral("<table>");
    html += row(tr("weight a<sub>tj</sub>"), num(x.weight),
                x.span == SpanKind::LocalP && x.in_window
                    ? tr("= softmax %1 × Gaussian %2").arg(num(x.softmax_weight), num(x.gaussian))
                    : tr("softmax of the scores"));
    html += row(tr("rank in the row"), tr("%1 of %2").arg(x.rank).arg(x.row_size));
    if (!std::isnan(x.share))
        html += row(tr("share of the context"), QStringLiteral("%1 %").arg(x.share * 100, 0, 'f', 1),
                    tr("‖a<sub>tj</sub> h<sub>j</sub>‖ / Σ<sub>j</sub> ‖a<sub>tj</sub> h<sub>j</sub>‖"));
    const RowDiagnosis d = diagnoseRow(state_->decode()->steps[size_t(x.step)].attention);
    html += row(tr("row entropy"), tr("%1 nats").arg(d.entropy, 0, 'f', 3),
                tr("uniform ln S = %1 (%2 %)%3")
                    .arg(d.uniform, 0, 'f', 3)
                    .arg(d.share * 100, 0, 'f', 0)
                    .arg(d.diffuse ? tr(": <b>diffuse</b>") : QString()));
    html += QStringLiteral("</table>");
    html += spanHtml(x);
    html += methodHtml(x);
    return html;
}

QString CellInspector::scoreHtml(const CellExplanation& x) const {
    const QString s = x.decoder == DecoderKind::Luong ? tr("s<sub>t</sub>, the state after this step's GRU")
                                                      : tr("s<sub>t−1</sub>, the state before this step");
    QString formula, table;
    switch (x.score_kind) {
    case ScoreKind::Additive:
        formula = tr("additive: e = v · tanh(W s + U h<sub>j</sub> + b)");
        table = row(tr("W s"), num(x.query_term_norm), tr("norm; %1").arg(head(x.query_term))) +
                row(tr("U h<sub>j</sub>"), num(x.key_term_norm), tr("norm; %1").arg(head(x.key_term))) +
                row(tr("tanh(W s + U h<sub>j</sub> + b)"), head(x.hidden));
        break;
    case ScoreKind::Dot:
        formula = tr("dot: e = s · h<sub>j</sub>");
        table = row(tr("s · h<sub>j</sub>"), num(x.dot));
        break;
    case ScoreKind::ScaledDot:
        formula = tr("scaled dot: e = s · h<sub>j</sub> / √d, d = %1").arg(int(x.query.size()));
        table = row(tr("s · h<sub>j</sub>"), num(x.dot)) + row(tr("scale 1/√d"), num(x.scale));
        break;
    case ScoreKind::General:
        formula = tr("general: e = s · (W h<sub>j</sub>)");
        table = row(tr("W h<sub>j</sub>"), num(x.key_term_norm), tr("norm; %1").arg(head(x.key_term))) +
                row(tr("s · (W h<sub>j</sub>)"), num(x.dot));
        break;
    }
    table += row(tr("score e<sub>tj</sub>"), num(x.score));
    return tr("<p>%1<br>s = %2</p>").arg(formula, s) + QStringLiteral("<table>%1</table>").arg(table);
}

QString CellInspector::spanHtml(const CellExplanation& x) const {
    if (x.span == SpanKind::Global || !x.has_score) return {};
    const QString kind = x.span == SpanKind::LocalM
                             ? tr("local_m: p = min(t, S − 1)")
                             : tr("local_p: p = S · sigmoid(v<sub>p</sub> · tanh(W<sub>p</sub> s))");
    QString html = QStringLiteral("<p>%1</p><table>").arg(kind);
    html += row(tr("centre p"), num(x.center));
    html += row(tr("window"), QStringLiteral("[%1, %2]").arg(x.lo).arg(x.hi), tr("p ± D, D = %1").arg(x.half_width));
    if (x.span == SpanKind::LocalP)
        html += row(tr("Gaussian factor"), num(x.gaussian), tr("exp(−(j − p)² / (2 (D/2)²))"));
    return html + QStringLiteral("</table>");
}

// The chosen method's R[t][j], the cell's rank in the row by that method (by size for signed methods), and for
// integrated gradients the row's completeness gap.
QString CellInspector::methodHtml(const CellExplanation& x) const {
    const Explanation* e = state_->explanation();
    if (!e || x.step >= e->values.rows() || x.source >= e->values.cols()) return {};
    const auto values = e->values.row(x.step);
    const float value = values(x.source);
    int rank = 1;
    for (Eigen::Index j = 0; j < values.size(); ++j)
        if (std::abs(values(j)) > std::abs(value)) ++rank;
    QString html = QStringLiteral("<p><b>%1</b></p><table>").arg(explainMethodTitle(e->method).toHtmlEscaped());
    html += row(tr("R<sub>tj</sub>"), num(value), explainMethodHint(e->method).toHtmlEscaped());
    html += row(tr("rank in the row"), tr("%1 of %2").arg(rank).arg(values.size()),
                methodInfo(e->method).is_signed ? tr("by size |R|") : QString());
    if (e->contrast && e->contrast->row == x.step)
        html += row(tr("contrast"), qs(state_->decodedModel()->target_vocab.token(e->contrast->token)).toHtmlEscaped(),
                    tr("f = log p(token) − log p(contrast)"));
    if (e->method == ExplainMethod::IntegratedGradients && size_t(x.step) < e->ig_delta.size())
        html += row(
            tr("completeness gap"), num(completenessGap(*e, x.step)),
            tr("Σ<sub>j</sub> R<sub>tj</sub> − (f(x) − f(0)), f(x) − f(0) = %1").arg(num(e->ig_delta[size_t(x.step)])));
    return html + QStringLiteral("</table>");
}

}  // namespace attnviz::ui
