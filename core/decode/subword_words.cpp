#include "decode/subword_words.h"

#include "base/errors.h"
#include "text/language_code.h"
#include "text/piece_words.h"
#include "text/tokenizer.h"

#include <iterator>

namespace attnviz {
namespace {

std::vector<WordSpan> spansOf(const std::vector<std::string>& tokens, const std::vector<int>& ids,
                              const Vocabulary& vocab) {
    return wordSpans(tokens, [&](int j) {
        const int id = ids[size_t(j)];
        return vocab.isControl(id) || id == vocab.specials().unk || isLanguageCode(tokens[size_t(j)]);
    });
}

// The identity spans of n words.
std::vector<WordSpan> oneEach(size_t n) {
    std::vector<WordSpan> s;
    for (int i = 0; i < int(n); ++i) s.push_back({i, i + 1});
    return s;
}

std::vector<std::vector<float>> toRows(const Mat& m) {
    std::vector<std::vector<float>> rows(size_t(m.rows()));
    for (Eigen::Index i = 0; i < m.rows(); ++i) rows[size_t(i)].assign(m.row(i).data(), m.row(i).data() + m.cols());
    return rows;
}

// Each word's first id and label.
void mergeTokens(std::vector<std::string>& tokens, std::vector<int>& ids, const std::vector<WordSpan>& spans) {
    std::vector<int> first;
    for (const WordSpan& s : spans) first.push_back(ids[size_t(s.first)]);
    tokens = wordLabels(tokens, spans);
    ids = std::move(first);
}

// Each head of a stack merged: rows by `rows`, columns by `cols` (either may be the identity).
void mergeStack(std::vector<std::vector<Mat>>& stack, const std::vector<WordSpan>& rows,
                const std::vector<WordSpan>& cols) {
    for (auto& layer : stack)
        for (Mat& head : layer) head = mergeBoth(head, rows, cols);
}

}  // namespace

namespace {
constexpr std::string_view kMergeNames[] = {"none", "source", "target", "both"};  // in MergeSides' order
}

MergeSides parseMergeSides(std::string_view text) {
    for (size_t i = 0; i < std::size(kMergeNames); ++i)
        if (text == kMergeNames[i]) return MergeSides(i);
    throw InputError("--merge \"" + std::string(text) + "\" is not one of none, source, target, both");
}

std::string_view mergeSidesName(MergeSides m) { return kMergeNames[size_t(m)]; }

Mat mergeMatrix(const DecodeResult& r, const Mat& m, MergeSides sides) {
    if (r.source_words.empty() || sides == MergeSides::None) return m;
    const std::vector<WordSpan> rows = mergesTarget(sides) ? r.target_words : oneEach(size_t(m.rows()));
    const std::vector<WordSpan> cols = mergesSource(sides) ? r.source_words : oneEach(size_t(m.cols()));
    return mergeBoth(m, rows, cols);
}

DecodeResult mergeWords(const DecodeResult& r, MergeSides sides) {
    if (r.source_words.empty() || sides == MergeSides::None) return r;
    DecodeResult out = r;
    const size_t S = r.source_tokens.size(), T = r.target_tokens.size();
    const std::vector<WordSpan> src = mergesSource(sides) ? r.source_words : oneEach(S);
    const std::vector<WordSpan> tgt = mergesTarget(sides) ? r.target_words : oneEach(T);
    out.attention = toRows(mergeBoth(matrixOfRows(r.attention, Eigen::Index(S)), tgt, src));
    out.scores = toRows(mergeBoth(matrixOfRows(r.scores, Eigen::Index(S)), tgt, src));
    mergeStack(out.cross_attention, tgt, src);
    mergeStack(out.encoder_self_attention, src, src);
    // its columns are the decoder's inputs [start, y_1, …], one position behind the target's pieces: rows only
    mergeStack(out.decoder_self_attention, tgt, oneEach(T));
    if (mergesTarget(sides)) {
        out.log_probs.clear();
        for (const WordSpan& s : tgt) {
            float sum = 0;
            for (int i = s.first; i < s.end; ++i) sum += r.log_probs[size_t(i)];
            out.log_probs.push_back(sum);
        }
        mergeTokens(out.target_tokens, out.target_ids, tgt);
        out.target_words = oneEach(tgt.size());
    }
    if (mergesSource(sides)) {
        mergeTokens(out.source_tokens, out.source_ids, src);
        out.source_words = oneEach(src.size());
    }
    return out;
}

void describeSubwords(const Model& model, DecodeResult& r) {
    const TokenizerConfig& t = model.config.tokenizer;
    if (t.source != TokenizerKind::SentencePiece || t.target != TokenizerKind::SentencePiece) return;
    r.source_words = spansOf(r.source_tokens, r.source_ids, model.source_vocab);
    r.target_words = spansOf(r.target_tokens, r.target_ids, model.target_vocab);
    r.text = detokenizeTarget(model, r.target_tokens);
}

}  // namespace attnviz
