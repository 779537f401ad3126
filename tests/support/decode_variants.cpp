#include "decode_variants.h"

#include "test_models.h"

#include <QtTest>

namespace attnviz::testing {

void addAllVariants() {
    QTest::addColumn<int>("decoder");
    QTest::addColumn<int>("score");
    QTest::addColumn<int>("span");
    QTest::addColumn<bool>("input_feeding");
    QTest::addColumn<int>("folding");
    QTest::addColumn<bool>("tables");  // greedy decodes with token tables filled in advance (token_tables.h)
    const ScoreKind scores[] = {ScoreKind::Additive, ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::General};
    for (ScoreKind sc : scores) {
        QTest::addRow("bahdanau/%s/global/unfolded", toString(sc).data())
            << int(DecoderKind::Bahdanau) << int(sc) << int(SpanKind::Global) << false << int(Folding::Never) << false;
        for (bool tables : {false, true})
            QTest::addRow("bahdanau/%s/global/folded%s", toString(sc).data(), tables ? "/tables" : "")
                << int(DecoderKind::Bahdanau) << int(sc) << int(SpanKind::Global) << false << int(Folding::Always)
                << tables;
    }
    for (ScoreKind sc : scores)
        for (SpanKind sp : {SpanKind::Global, SpanKind::LocalM, SpanKind::LocalP})
            for (bool inf : {false, true})
                QTest::addRow("luong/%s/%s/%s", toString(sc).data(), toString(sp).data(), inf ? "if" : "no_if")
                    << int(DecoderKind::Luong) << int(sc) << int(sp) << inf << int(Folding::Auto) << false;
}

RowPath fetchPath(const Model& model) {
    QFETCH(int, folding);
    QFETCH(bool, tables);
    RowPath row;
    row.path.folding = Folding(folding);
    row.path.pool = &ThreadPool::engine();
    if (tables) {
        row.tables = std::make_unique<TokenTables>(model);
        row.tables->computeAll(&ThreadPool::engine());
        row.path.tables = row.tables.get();
    }
    return row;
}

ModelConfig fetchConfig() {
    QFETCH(int, decoder);
    QFETCH(int, score);
    QFETCH(int, span);
    QFETCH(bool, input_feeding);
    return smallConfig(DecoderKind(decoder), ScoreKind(score), SpanKind(span), input_feeding);
}

TokenizedText sourceOf(const Model& m, const std::vector<std::string>& words) {
    TokenizedText t;
    t.tokens.push_back("<sos>");
    t.ids.push_back(kSos);
    for (const std::string& w : words) {
        t.tokens.push_back(w);
        t.ids.push_back(m.source_vocab.id(w));
    }
    t.tokens.push_back("<eos>");
    t.ids.push_back(kEos);
    return t;
}

TokenizedText catSentence() {
    return TokenizedText{{"<sos>", "the", "cat", "ate", "an", "apple", "<eos>"}, {kSos, 7, 8, 12, 13, 14, kEos}};
}

ModelConfig configFor(const QString& variant) {
    const QStringList parts = variant.split('/');  // decoder/score/span[/feed]
    return smallConfig(parseDecoderKind(parts[0].toStdString()), parseScoreKind(parts[1].toStdString()),
                       parseSpanKind(parts[2].toStdString()), parts.size() > 3 && parts[3] == "feed");
}

}  // namespace attnviz::testing
