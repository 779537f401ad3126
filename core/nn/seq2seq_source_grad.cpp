// Attribution's gradient (seq2seqLossAndSourceGrad, nn/seq2seq_grad.h): the training code's passes
// (nn/seq2seq_passes.h) on a batch of copies of few inputs, each copy with its own objective row.
// Legend: B copies, B_f distinct inputs, S the longest source, N decoder steps; buffers time-major (rows t*B + b).
#include "nn/seq2seq_grad.h"
#include "nn/seq2seq_passes.h"

#include <algorithm>
#include <vector>

namespace attnviz {
namespace {

using Index = Eigen::Index;
using seq2seq_passes::backwardSteps;
using seq2seq_passes::batchSizes;
using seq2seq_passes::fillTargets;
using seq2seq_passes::forwardSteps;
using seq2seq_passes::outputForward;

// A batch of copies of few inputs, each copy with its own objective
// row. Copies of one input share its forward: the forward runs on the B_f distinct inputs, then the step buffers
// are spread to the B copies (rows t*B + b ← t*B_f + input_of[b]), except the attention's encoder side and cache
// (S times larger), which the backward reads through w.enc.input_of. The backward then runs for the B copies.

// Whether a and b can share a forward: the same source, scale and interventions, and one target a prefix of the other (the
// decoder reads left to right, so the shorter one's steps are the longer one's first steps).
bool shareForward(const TrainExample& a, const TrainExample& b) {
    if (a.source != b.source || a.source_scale != b.source_scale || a.interventions != b.interventions) return false;
    const size_t n = std::min(a.target.size(), b.target.size());
    return std::equal(a.target.begin(), a.target.begin() + Index(n), b.target.begin());
}

// The distinct inputs of a batch (each the example with the longest target of its group) and, per example, the
// input whose forward it reads.
std::vector<const TrainExample*> distinctInputs(const TrainExample* const* batch, int B, std::vector<int>& input_of) {
    std::vector<const TrainExample*> inputs;
    input_of.assign(size_t(B), -1);
    for (int b = 0; b < B; ++b) {
        int& in = input_of[size_t(b)];
        for (size_t i = 0; i < inputs.size() && in < 0; ++i)
            if (shareForward(*batch[b], *inputs[i])) in = int(i);
        if (in < 0) {
            in = int(inputs.size());
            inputs.push_back(batch[b]);
        } else if (batch[b]->target.size() > inputs[size_t(in)]->target.size()) {
            inputs[size_t(in)] = batch[b];
        }
    }
    return inputs;
}

// to's rows t*B + b ← from's rows t*B_f + input_of[b], for time-major buffers of `steps` steps (B_f = from's rows /
// steps).
template <typename T>
void spreadRows(const MatT<T>& from, MatT<T>& to, int steps, const std::vector<int>& input_of) {
    const Index B = Index(input_of.size()), Bf = from.rows() / steps;
    to.resize(Index(steps) * B, from.cols());
    for (Index t = 0; t < steps; ++t)
        for (Index b = 0; b < B; ++b) to.row(t * B + b) = from.row(t * Bf + input_of[size_t(b)]);
}

// The attention's forward side, as the inputs' forward left it (the backward reads it through w.enc.input_of), and
// the backward's scratch sized for B copies.
template <typename T>
void takeAttention(const ModelConfig& c, const Seq2SeqWorkspace<T>& f, int B, Seq2SeqWorkspace<T>& w) {
    const int S = f.enc.S, Hd = c.dec_hid_dim;
    w.enc.S = S;
    w.enc.inputs = f.enc.inputs;
    w.enc.len = f.enc.len;
    w.enc.interventions = f.enc.interventions;  // the inputs': pointers into the batch, read through input_of
    w.enc.H = f.enc.H;
    w.enc.keys = f.enc.keys;
    w.enc.dH.setZero(Index(B) * S, f.enc.H.cols());
    if (f.enc.keys.rows() > 0) w.enc.dkeys.setZero(Index(B) * S, f.enc.keys.cols());
    AttnCache<T>& a = w.attn;
    a.A = f.attn.A;
    a.alpha = f.attn.alpha;
    a.tanhs = f.attn.tanhs;
    a.wq = f.attn.wq;
    a.pq = f.attn.pq;
    a.center = f.attn.center;
    a.sig = f.attn.sig;
    a.lo = f.attn.lo;
    a.hi = f.attn.hi;
    a.guide.resize(0, 0);
    a.e.resize(S);
    a.da.resize(S);
    if (c.score == ScoreKind::Additive) {
        a.dwq.resize(B, Hd);
        a.dpre.resize(S, Hd);
    }
    if (c.span == SpanKind::LocalP) a.dpq.resize(B, Hd);
}

// The forward of the inputs (f: S source and N decoder steps) as the B copies' forward (w), for the backward. Two
// workspaces, so that each keeps its sizes from pass to pass (reallocating large buffers costs page faults).
template <typename T>
void spreadForward(const ModelConfig& c, const std::vector<int>& input_of, int S, int N, const Seq2SeqWorkspace<T>& f,
                   Seq2SeqWorkspace<T>& w) {
    const int B = int(input_of.size());
    for (const auto& [from, to] : {std::pair(&f.fwd, &w.fwd), std::pair(&f.bwd, &w.bwd)}) {
        spreadRows(from->gates, to->gates, S, input_of);
        spreadRows(from->ghn, to->ghn, S, input_of);
        spreadRows(from->h, to->h, S, input_of);
        to->zeros.setZero(B, from->zeros.cols());
    }
    spreadRows(f.xe, w.xe, S, input_of);
    const size_t Bf = f.src_mask.size() / size_t(S);
    w.src_mask.resize(size_t(S) * size_t(B));
    for (size_t t = 0; t < size_t(S); ++t)
        for (size_t b = 0; b < size_t(B); ++b) w.src_mask[t * size_t(B) + b] = f.src_mask[t * Bf + size_t(input_of[b])];
    spreadRows(f.fin, w.fin, 1, input_of);
    spreadRows(f.states, w.states, N + 1, input_of);
    spreadRows(f.gates, w.gates, N, input_of);
    spreadRows(f.ghn, w.ghn, N, input_of);
    spreadRows(f.ctx, w.ctx, N, input_of);
    if (c.decoder == DecoderKind::Bahdanau)
        spreadRows(f.feat, w.feat, N, input_of);
    else
        spreadRows(f.htil, w.htil, N, input_of);
    takeAttention(c, f, B, w);
    w.enc.B = B;
    w.enc.input_of = input_of;
}

// active[t]: 1 + the last example whose objective row is t or later (or that has none). Step t's backward runs on
// the rows before it: the others' objectives are before step t, so they have no gradient there. The caller orders
// the copies by objective row, latest first, so that these are the rows with a gradient and no more.
void activeRows(const TrainExample* const* batch, int B, int N, std::vector<int>& active) {
    active.assign(size_t(N), 0);
    for (int t = 0; t < N; ++t)
        for (int b = 0; b < B; ++b)
            if (batch[b]->objective_row < 0 || batch[b]->objective_row >= t) active[size_t(t)] = b + 1;
}

// seq2seqLossAndSourceGrad: the inputs' forward in f, spread to the copies in w, then the copies' output layer
// (each its objective row) and backward.
template <typename T>
LossSum sharedForwardSourceGrad(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B,
                                Seq2SeqWorkspace<T>& w, Seq2SeqWorkspace<T>& f) {
    int S = 0, N = 0;
    batchSizes(batch, B, S, N);
    LossSum out;
    if (B == 0) return out;
    std::vector<int> input_of;
    const std::vector<const TrainExample*> inputs = distinctInputs(batch, B, input_of);
    forwardSteps<T>(c, p, inputs.data(), int(inputs.size()), S, N, DropoutSpec{}, true, f, T(0), T(1));
    spreadForward<T>(c, input_of, S, N, f, w);
    fillTargets(batch, B, N, int(p.fc_out_w.rows()), w.targets);
    outputForward<T>(p, c.decoder == DecoderKind::Bahdanau ? w.feat : w.htil, batch, B, T(1), true, w, out);
    activeRows(batch, B, N, w.active);
    backwardSteps<T>(c, p, batch, B, S, N, false, nullptr, w);
    return out;
}

}  // namespace

template <typename T>
LossSum seq2seqLossAndSourceGrad(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch,
                                 int B, Seq2SeqWorkspace<T>& w, Seq2SeqWorkspace<T>& inputs) {
    return sharedForwardSourceGrad<T>(c, p, batch, B, w, inputs);
}

template LossSum seq2seqLossAndSourceGrad<float>(const ModelConfig&, const ModelParams&, const TrainExample* const*,
                                                 int, Seq2SeqWorkspace<float>&, Seq2SeqWorkspace<float>&);
template LossSum seq2seqLossAndSourceGrad<double>(const ModelConfig&, const ModelParamsD&, const TrainExample* const*,
                                                  int, Seq2SeqWorkspace<double>&, Seq2SeqWorkspace<double>&);

}  // namespace attnviz
