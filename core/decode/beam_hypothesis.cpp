#include "decode/beam_hypothesis.h"

#include "base/errors.h"

#include <algorithm>
#include <string>

namespace attnviz {

namespace {

void checkNode(const BeamResult& tree, int node) {
    if (node < 0 || size_t(node) >= tree.nodes.size())
        throw InputError("beam search: no node " + std::to_string(node) + " (the tree has " +
                         std::to_string(tree.nodes.size()) + ")");
}

}  // namespace

std::vector<int> beamPath(const BeamResult& tree, int node) {
    checkNode(tree, node);
    std::vector<int> path;
    for (int n = node; n > 0; n = tree.nodes[size_t(n)].parent) path.push_back(n);
    std::reverse(path.begin(), path.end());
    return path;
}

int finishedRank(const BeamResult& tree, int node) {
    const auto at = std::find(tree.finished.begin(), tree.finished.end(), node);
    return at == tree.finished.end() ? -1 : int(at - tree.finished.begin());
}

DecodeResult hypothesisDecode(const Model& model, const BeamResult& tree, int node, const DecodeOptions& options) {
    if (node == 0) throw InputError("beam search: the root (<sos>) is no hypothesis yet");
    TokenizedText source, target;
    source.tokens = tree.best.source_tokens;
    source.ids = tree.best.source_ids;
    for (int n : beamPath(tree, node)) target.ids.push_back(tree.nodes[size_t(n)].token);
    return forcedDecode(model, source, target, options);
}

}  // namespace attnviz
