#include "model/interventions.h"
#include "model/model_kind.h"

#include "base/errors.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>

namespace attnviz {
namespace {

std::string range(int n) { return n > 0 ? "0.." + std::to_string(n - 1) : "none"; }

void checkPosition(const char* what, int j, int S) {
    if (j < 0 || j >= S)
        throw InputError(std::string(what) + ": source position " + std::to_string(j) + " is past the source (" +
                         std::to_string(S) + " tokens with <sos> and <eos>: positions " + range(S) + ")");
}

void checkAttendKind(const Model& model, const Interventions& iv) {
    if (!iv.attend.empty() && !kindOffers(model.config).one_scored_row)
        throw InputError(
            "attend: a Transformer has no single attention row to set (attend is for the RNN models; "
            "knock out positions or turn heads off instead)");
}

void checkAttend(const Model& model, const Interventions& iv, int S, int max_rows) {
    if (iv.attend.empty()) return;
    checkAttendKind(model, iv);
    for (const AttendAt& a : iv.attend) {
        if (a.row < 0 || a.row >= max_rows)
            throw InputError("attend: row " + std::to_string(a.row) + " is past the decode's length limit (rows " +
                             range(max_rows) + ")");
        checkPosition("attend", a.position, S);
    }
    // A row given twice: the attends sorted by row (stable: given order within a row), so that equal rows are
    // neighbours; n log n for a command line of 100,000 flags. The pair reported is the one whose second attend
    // comes first, with the first attend of that row.
    std::vector<size_t> order(iv.attend.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return iv.attend[a].row < iv.attend[b].row; });
    size_t first = 0, second = SIZE_MAX;
    for (size_t k = 1, group = 0; k < order.size(); ++k) {
        if (iv.attend[order[k]].row != iv.attend[order[k - 1]].row) {
            group = k;
        } else if (k == group + 1 && order[k] < second) {
            first = order[group];
            second = order[k];
        }
    }
    if (second != SIZE_MAX)
        throw InputError("attend: row " + std::to_string(iv.attend[first].row) + " is given twice (positions " +
                         std::to_string(iv.attend[first].position) + " and " +
                         std::to_string(iv.attend[second].position) + ")");
}

void checkHead(const TransformerConfig& c, const HeadRef& h) {
    const int layers = c.layers(h.kind), heads = c.nhead(h.kind);
    const std::string name = "head off " + std::string(headKindName(h.kind));
    if (h.layer < 0 || h.layer >= layers)
        throw InputError(name + ": layer " + std::to_string(h.layer) + " is out of range (the model has " +
                         std::to_string(layers) + " such layers: " + range(layers) + ")");
    // the side named when the encoder's and the decoder's head counts differ
    const std::string side = c.sameHeads() ? "" : h.kind == AttentionKind::EncoderSelf ? " encoder" : " decoder";
    if (h.head < 0 || h.head >= heads)
        throw InputError(name + ": head " + std::to_string(h.head) + " is out of range (the model has " +
                         std::to_string(heads) + side + " heads: " + range(heads) + ")");
}

}  // namespace

std::string_view headKindName(AttentionKind kind) {
    switch (kind) {
    case AttentionKind::EncoderSelf:
        return "encoder";
    case AttentionKind::DecoderSelf:
        return "decoder";
    case AttentionKind::Cross:
        break;
    }
    return "cross";
}

std::optional<AttentionKind> headKindFromName(std::string_view name) {
    for (AttentionKind kind : {AttentionKind::Cross, AttentionKind::EncoderSelf, AttentionKind::DecoderSelf})
        if (headKindName(kind) == name) return kind;
    return std::nullopt;
}

void checkInterventionKinds(const Model& model, const Interventions& iv) {
    checkAttendKind(model, iv);
    if (!iv.heads_off.empty() && !kindOffers(model.config).attention_heads)
        throw InputError("head off: a " + std::string(toString(model.config.decoder)) +
                         " model has no attention heads (head off is for Transformer models)");
    for (const HeadRef& h : iv.heads_off) checkHead(model.config.transformer, h);
}

void checkInterventions(const Model& model, const Interventions& iv, int S, int max_rows) {
    for (int j : iv.knockout) checkPosition("knockout", j, S);
    checkAttend(model, iv, S, max_rows);
    checkInterventionKinds(model, iv);
}

Interventions interventionsModelTakes(const Model& model, const Interventions& iv, int S, int max_rows,
                                      std::vector<std::string>* refused) {
    Interventions kept;
    // Tries `one` added to what is kept; keeps it when the model takes the whole set.
    const auto tryAdding = [&](const Interventions& with) {
        try {
            checkInterventions(model, with, S, max_rows);
            kept = with;
        } catch (const InputError& e) {
            if (refused) refused->push_back(e.what());
        }
    };
    for (int j : iv.knockout) {
        Interventions with = kept;
        with.knockout.push_back(j);
        tryAdding(with);
    }
    for (const AttendAt& a : iv.attend) {
        Interventions with = kept;
        with.attend.push_back(a);
        tryAdding(with);
    }
    for (const HeadRef& h : iv.heads_off) {
        Interventions with = kept;
        with.heads_off.push_back(h);
        tryAdding(with);
    }
    return kept;
}

std::vector<char> knockoutMask(const Interventions& iv, int S) {
    std::vector<char> mask;
    if (iv.knockout.empty()) return mask;
    mask.assign(size_t(S), 0);
    for (int j : iv.knockout)
        if (j >= 0 && j < S) mask[size_t(j)] = 1;
    return mask;
}

std::vector<char> headsOffMask(const Interventions& iv, AttentionKind kind, int layer, int heads) {
    std::vector<char> mask;
    for (const HeadRef& h : iv.heads_off) {
        if (h.kind != kind || h.layer != layer || h.head < 0 || h.head >= heads) continue;
        mask.resize(size_t(heads), 0);
        mask[size_t(h.head)] = 1;
    }
    return mask;
}

std::vector<int> attendedPositions(const Interventions& iv) {
    std::vector<int> out;
    for (const AttendAt& a : iv.attend) {
        if (a.row < 0) continue;
        if (size_t(a.row) >= out.size()) out.resize(size_t(a.row) + 1, -1);
        if (out[size_t(a.row)] < 0) out[size_t(a.row)] = a.position;  // the first, as attendedPosition
    }
    return out;
}

int attendedPosition(const Interventions& iv, int row) {
    for (const AttendAt& a : iv.attend)
        if (a.row == row) return a.position;
    return -1;
}

}  // namespace attnviz
