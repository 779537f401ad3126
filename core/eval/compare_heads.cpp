#include "eval/compare_heads.h"
#include "model/model_kind.h"

#include "base/errors.h"

#include <charconv>

namespace attnviz {

namespace {

// A whole decimal number from 1 to 1,000,000, or -1.
int countFromOne(const std::string& text) {
    int value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || value < 1 || value > 1000000) return -1;
    return value;
}

}  // namespace

DecodeResult withComparedAttention(const DecodeResult& r, const AttentionView& view) {
    if (view.kind != AttentionKind::Cross)
        throw InputError("a comparison compares cross-attention (output tokens over source tokens) only");
    if (view.isDefault()) return r;
    DecodeResult out = r;
    out.attention = attentionViewRows(r, view);  // InputError for a layer or head `r` does not have
    out.scores.clear();
    return out;
}

AttentionView parseHeadChoice(const std::string& text) {
    const size_t comma = text.find(',');
    const std::string layer_text = text.substr(0, comma);
    const std::string head_text = comma == std::string::npos ? std::string() : text.substr(comma + 1);
    const int layer = countFromOne(layer_text);
    const int head = head_text == "mean" ? 0 : countFromOne(head_text);
    if (comma == std::string::npos || layer < 1 || head < 0)
        throw InputError(
            "wants LAYER,HEAD counted from 1, e.g. 2,1 or 2,mean (the mean over the layer's heads); got \"" + text +
            "\"");
    return {AttentionKind::Cross, layer - 1, head_text == "mean" ? -1 : head - 1};
}

std::string headChoiceProblem(const ModelConfig& config, const AttentionView& view) {
    if (view.isDefault()) return {};
    if (!kindOffers(config).attention_heads)
        return "it is an RNN model (" + std::string(toString(config.decoder)) +
               "): its attention has one row per output token and no layers or heads to choose";
    const TransformerConfig& t = config.transformer;
    const std::string side = view.kind == AttentionKind::EncoderSelf ? "encoder" : "decoder";
    if (view.layer >= t.layers(view.kind))
        return "it has " + std::to_string(t.layers(view.kind)) + " " + side + " layers; layer " +
               std::to_string(view.layer + 1) + " asked for";
    if (view.head >= t.nhead(view.kind))
        return (t.sameHeads() ? "its layers have " : "its " + side + " layers have ") +
               std::to_string(t.nhead(view.kind)) + " heads; head " + std::to_string(view.head + 1) + " asked for";
    return {};
}

std::string headChoiceText(const AttentionView& view) {
    if (view.isDefault()) return "attention";
    const std::string layer = "layer " + std::to_string(view.layer + 1);
    if (view.head < 0) return layer + ", mean of heads";
    return layer + ", head " + std::to_string(view.head + 1);
}

}  // namespace attnviz
