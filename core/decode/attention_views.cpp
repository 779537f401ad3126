#include "decode/attention_views.h"

#include "base/errors.h"
#include "model/vocab.h"

#include <string>

namespace attnviz {

namespace {

const std::vector<std::vector<Mat>>& stackOf(const DecodeResult& r, AttentionKind kind) {
    switch (kind) {
    case AttentionKind::EncoderSelf:
        return r.encoder_self_attention;
    case AttentionKind::DecoderSelf:
        return r.decoder_self_attention;
    case AttentionKind::Cross:
        break;
    }
    return r.cross_attention;
}

std::vector<std::vector<float>> rowsOf(const Mat& m) {
    std::vector<std::vector<float>> out(size_t(m.rows()));
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        const Vec row = m.row(i).transpose();
        out[size_t(i)].assign(row.data(), row.data() + row.size());
    }
    return out;
}

// Row i of the mean: meanOverHeads of the (nhead, n) matrix of every head's row i.
std::vector<std::vector<float>> meanRows(const std::vector<Mat>& heads) {
    const Eigen::Index n = heads[0].rows(), cols = heads[0].cols();
    std::vector<std::vector<float>> out(static_cast<size_t>(n));
    Mat query(Eigen::Index(heads.size()), cols);
    for (Eigen::Index i = 0; i < n; ++i) {
        for (size_t h = 0; h < heads.size(); ++h) query.row(Eigen::Index(h)) = heads[h].row(i);
        const Vec mean = meanOverHeads(query);
        out[size_t(i)].assign(mean.data(), mean.data() + mean.size());
    }
    return out;
}

}  // namespace

int attentionLayers(const DecodeResult& r, AttentionKind kind) { return int(stackOf(r, kind).size()); }

int attentionHeads(const DecodeResult& r, AttentionKind kind) {
    const auto& stack = stackOf(r, kind);
    return stack.empty() ? 0 : int(stack[0].size());
}

bool isValidView(const DecodeResult& r, const AttentionView& view) {
    if (view.isDefault()) return view.kind == AttentionKind::Cross && view.head < 0;
    return view.layer < attentionLayers(r, view.kind) && view.head >= -1 && view.head < attentionHeads(r, view.kind);
}

bool stepsWithDecoder(AttentionKind kind) { return kind != AttentionKind::EncoderSelf; }

Vec meanOverHeads(const Mat& heads) { return (heads.colwise().sum() / float(heads.rows())).transpose(); }

std::vector<std::vector<float>> attentionViewRows(const DecodeResult& r, const AttentionView& view) {
    if (!isValidView(r, view))
        throw InputError("the decode has no attention of layer " + std::to_string(view.layer) + ", head " +
                         std::to_string(view.head));
    if (view.isDefault()) return r.attention;
    const std::vector<Mat>& heads = stackOf(r, view.kind)[size_t(view.layer)];
    if (view.head >= 0) return rowsOf(heads[size_t(view.head)]);
    return meanRows(heads);
}

AttentionAxes attentionViewAxes(const DecodeResult& r, AttentionKind kind) {
    AttentionAxes axes;
    switch (kind) {
    case AttentionKind::Cross:
        return {r.target_tokens, r.source_tokens};
    case AttentionKind::EncoderSelf:
        return {r.source_tokens, r.source_tokens};
    case AttentionKind::DecoderSelf:
        axes.rows = r.target_tokens;
        axes.cols.push_back(r.decoder_start);
        for (size_t i = 0; i + 1 < r.target_tokens.size(); ++i) axes.cols.push_back(r.target_tokens[i]);
        return axes;
    }
    return axes;
}

DecodeResult attentionViewResult(const DecodeResult& r, const AttentionView& view) {
    DecodeResult out;
    AttentionAxes axes = attentionViewAxes(r, view.kind);
    out.target_tokens = std::move(axes.rows);
    out.source_tokens = std::move(axes.cols);
    out.attention = attentionViewRows(r, view);
    return out;
}

}  // namespace attnviz
