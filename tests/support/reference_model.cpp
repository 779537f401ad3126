// Plain loops over std::vector<double>, from docs/model-format.md; no Eigen arithmetic, no code shared with core/.
#include "reference_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace attnviz::testing {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// y = W x (+ b), W read element by element.
DVec matvec(const Mat& W, const DVec& x) {
    if (size_t(W.cols()) != x.size()) throw std::logic_error("reference: matvec size mismatch");
    DVec y(size_t(W.rows()), 0.0);
    for (Eigen::Index i = 0; i < W.rows(); ++i) {
        double acc = 0;
        for (Eigen::Index j = 0; j < W.cols(); ++j) acc += double(W(i, j)) * x[size_t(j)];
        y[size_t(i)] = acc;
    }
    return y;
}
DVec plus(DVec a, const Vec& b) {
    for (size_t i = 0; i < a.size(); ++i) a[i] += double(b[Eigen::Index(i)]);
    return a;
}
DVec cat(DVec a, const DVec& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}
DVec row(const Mat& M, int r) {
    DVec v(size_t(M.cols()));
    for (Eigen::Index j = 0; j < M.cols(); ++j) v[size_t(j)] = M(r, j);
    return v;
}
double dot(const DVec& a, const DVec& b) {
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}
double dotv(const Vec& a, const DVec& b) {
    double s = 0;
    for (size_t i = 0; i < b.size(); ++i) s += double(a[Eigen::Index(i)]) * b[i];
    return s;
}
double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

DVec gru(const GruParams& g, const DVec& x, const DVec& h) {
    const size_t H = h.size();
    const DVec gi = plus(matvec(g.w_ih, x), g.b_ih);
    const DVec gh = plus(matvec(g.w_hh, h), g.b_hh);
    DVec out(H);
    for (size_t k = 0; k < H; ++k) {
        const double r = sigmoid(gi[k] + gh[k]);
        const double z = sigmoid(gi[H + k] + gh[H + k]);
        const double n = std::tanh(gi[2 * H + k] + r * gh[2 * H + k]);
        out[k] = (1 - z) * n + z * h[k];
    }
    return out;
}

RefStep attend(const Model& m, const RefEncoding& enc, const DVec& s, int t, const RefInterventions& iv) {
    const ModelConfig& c = m.config;
    const ModelParams& p = m.params;
    const int S = int(enc.h.size());
    const int Hd = c.dec_hid_dim;
    const double D = c.window;
    RefStep st;
    st.scores.assign(size_t(S), kNaN);
    st.attention.assign(size_t(S), 0.0);
    st.center = kNaN;

    // Which positions take part.
    std::vector<bool> in(size_t(S), true);
    if (c.span == SpanKind::LocalM) {
        st.center = std::min(t, S - 1);
    } else if (c.span == SpanKind::LocalP) {
        const DVec wp = matvec(p.attn_Wp, s);
        double a = 0;
        for (int k = 0; k < Hd; ++k) a += double(p.attn_vp[k]) * std::tanh(wp[size_t(k)]);
        st.center = S * sigmoid(a);
    }
    if (c.span != SpanKind::Global)
        for (int j = 0; j < S; ++j) in[size_t(j)] = std::abs(j - st.center) <= D;
    st.lo = S, st.hi = -1;
    for (int j = 0; j < S; ++j)
        if (in[size_t(j)]) st.lo = std::min(st.lo, j), st.hi = std::max(st.hi, j);

    for (int j = 0; j < S; ++j) {
        if (!in[size_t(j)]) continue;
        const DVec& hj = enc.h[size_t(j)];
        double e = 0;
        switch (c.score) {
        case ScoreKind::Additive: {
            const DVec u = plus(matvec(p.attn_w, cat(s, hj)), p.attn_b);  // attn([s ; h_j])
            for (int k = 0; k < Hd; ++k) e += double(p.attn_v[k]) * std::tanh(u[size_t(k)]);
            break;
        }
        case ScoreKind::Dot:
            e = dot(s, hj);
            break;
        case ScoreKind::ScaledDot:
            e = dot(s, hj) / std::sqrt(double(Hd));
            break;
        case ScoreKind::General:
            e = dot(s, matvec(p.attn_W, hj));
            break;
        }
        st.scores[size_t(j)] = e;
    }
    for (int j : iv.knockout)  // scored −∞, so out of the softmax
        if (in[size_t(j)]) st.scores[size_t(j)] = -std::numeric_limits<double>::infinity(), in[size_t(j)] = false;
    double mx = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < S; ++j)
        if (in[size_t(j)]) mx = std::max(mx, st.scores[size_t(j)]);
    double sum = 0;
    for (int j = 0; j < S; ++j)
        if (in[size_t(j)]) sum += std::exp(st.scores[size_t(j)] - mx);
    for (int j = 0; j < S; ++j) {
        if (!in[size_t(j)]) continue;
        double a = std::exp(st.scores[size_t(j)] - mx) / sum;
        if (c.span == SpanKind::LocalP) {
            const double sigma = D / 2;
            a *= std::exp(-(j - st.center) * (j - st.center) / (2 * sigma * sigma));
        }
        st.attention[size_t(j)] = a;
    }
    for (const auto& [row, position] : iv.attend)
        if (row == t - 1) {  // one-hot
            st.attention.assign(size_t(S), 0.0);
            st.attention[size_t(position)] = 1.0;
        }
    st.context.assign(enc.h[0].size(), 0.0);
    for (int j = 0; j < S; ++j)
        for (size_t k = 0; k < st.context.size(); ++k) st.context[k] += st.attention[size_t(j)] * enc.h[size_t(j)][k];
    return st;
}

void logSoftmax(DVec& v) {
    const double mx = *std::max_element(v.begin(), v.end());
    double sum = 0;
    for (double x : v) sum += std::exp(x - mx);
    const double lse = mx + std::log(sum);
    for (double& x : v) x -= lse;
}

struct DecState {
    DVec s;
    DVec htilde;
};

// One decoder step: fills the step (attention, context, log-probs) and advances the state.
RefStep decodeStep(const Model& m, const RefEncoding& enc, int y_prev, int t, DecState& st,
                   const RefInterventions& iv) {
    const ModelConfig& c = m.config;
    const ModelParams& p = m.params;
    const DVec x = row(p.dec_embedding, y_prev);
    RefStep out;
    DVec logits;
    if (c.decoder == DecoderKind::Bahdanau) {
        out = attend(m, enc, st.s, t, iv);
        const DVec s = gru(p.dec_rnn, cat(x, out.context), st.s);
        logits = plus(matvec(p.fc_out_w, cat(cat(s, out.context), x)), p.fc_out_b);
        st.s = s;
    } else {
        const DVec in = c.input_feeding ? cat(x, st.htilde) : x;
        const DVec s = gru(p.dec_rnn, in, st.s);
        out = attend(m, enc, s, t, iv);
        DVec ht = matvec(p.combine_w, cat(out.context, s));
        for (double& v : ht) v = std::tanh(v);
        logits = plus(matvec(p.fc_out_w, ht), p.fc_out_b);
        st.s = s;
        st.htilde = ht;
    }
    logSoftmax(logits);
    out.log_probs = std::move(logits);
    return out;
}

DecState initialState(const Model& m, const RefEncoding& enc) {
    DecState st;
    st.s = enc.s0;
    st.htilde.assign(size_t(m.config.dec_hid_dim), 0.0);
    return st;
}

}  // namespace

RefEncoding referenceEncode(const Model& m, const std::vector<int>& ids, const std::vector<DVec>* embeddings) {
    const ModelParams& p = m.params;
    const size_t S = ids.size(), He = size_t(m.config.enc_hid_dim);
    auto x = [&](size_t j) { return embeddings ? (*embeddings)[j] : row(p.enc_embedding, ids[j]); };
    std::vector<DVec> f(S), b(S);
    DVec h(He, 0.0);
    for (size_t j = 0; j < S; ++j) f[j] = h = gru(p.enc_fwd, x(j), h);
    h.assign(He, 0.0);
    for (size_t j = S; j-- > 0;) b[j] = h = gru(p.enc_bwd, x(j), h);
    RefEncoding enc;
    for (size_t j = 0; j < S; ++j) enc.h.push_back(cat(f[j], b[j]));
    enc.s0 = plus(matvec(p.enc_fc_w, cat(f[S - 1], b[0])), p.enc_fc_b);
    for (double& v : enc.s0) v = std::tanh(v);
    return enc;
}

RefDecode referenceForced(const Model& m, const std::vector<int>& source_ids, const std::vector<int>& target_ids,
                          const std::vector<DVec>* source_embeddings, const RefInterventions& iv) {
    const RefEncoding enc = referenceEncode(m, source_ids, source_embeddings);
    DecState st = initialState(m, enc);
    RefDecode r;
    for (size_t i = 0; i < target_ids.size(); ++i) {
        r.steps.push_back(decodeStep(m, enc, i == 0 ? kSos : target_ids[i - 1], int(i) + 1, st, iv));
        r.tokens.push_back(target_ids[i]);
        r.total_log_prob += r.steps.back().log_probs[size_t(target_ids[i])];
    }
    return r;
}

RefDecode referenceGreedy(const Model& m, const std::vector<int>& source_ids, int max_len, const RefInterventions& iv) {
    const RefEncoding enc = referenceEncode(m, source_ids);
    DecState st = initialState(m, enc);
    RefDecode r;
    int y = kSos;
    for (int i = 0; i < max_len; ++i) {
        r.steps.push_back(decodeStep(m, enc, y, i + 1, st, iv));
        const DVec& lp = r.steps.back().log_probs;
        int best = -1;
        for (int v = 0; v < int(lp.size()); ++v) {
            if (v == kPad || v == kSos) continue;
            if (best < 0 || lp[size_t(v)] > lp[size_t(best)]) best = v;
        }
        y = best;
        r.tokens.push_back(y);
        r.total_log_prob += lp[size_t(y)];
        if (y == kEos) break;
    }
    return r;
}

double referenceLoss(const Model& m, const std::vector<int>& source_ids, const std::vector<int>& target_ids) {
    const RefDecode r = referenceForced(m, source_ids, target_ids);
    return target_ids.empty() ? 0.0 : -r.total_log_prob / double(target_ids.size());
}

}  // namespace attnviz::testing
