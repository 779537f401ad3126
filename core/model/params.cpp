#include "model/params.h"

#include "kernels/huge_pages.h"

namespace attnviz {
namespace {

void addMat(std::vector<ParamRef>& out, std::string name, Mat& m, std::vector<int64_t> shape) {
    ParamRef r{std::move(name), std::move(shape), m.data(), m.size(), true};
    r.mat = &m;
    out.push_back(std::move(r));
}
void addVec(std::vector<ParamRef>& out, std::string name, Vec& v, std::vector<int64_t> shape) {
    ParamRef r{std::move(name), std::move(shape), v.data(), v.size(), false};
    r.vec = &v;
    out.push_back(std::move(r));
}
void addGru(std::vector<ParamRef>& out, const std::string& prefix, const std::string& suffix, GruParams& g, int64_t in,
            int64_t h) {
    addMat(out, prefix + ".weight_ih_l0" + suffix, g.w_ih, {3 * h, in});
    addMat(out, prefix + ".weight_hh_l0" + suffix, g.w_hh, {3 * h, h});
    addVec(out, prefix + ".bias_ih_l0" + suffix, g.b_ih, {3 * h});
    addVec(out, prefix + ".bias_hh_l0" + suffix, g.b_hh, {3 * h});
}

int64_t decoderInput(const ModelConfig& c) {
    if (c.decoder == DecoderKind::Bahdanau) return int64_t(c.emb_dim) + 2 * c.enc_hid_dim;
    return int64_t(c.emb_dim) + (c.input_feeding ? c.dec_hid_dim : 0);
}

// The list, with shapes, for params whose storage may not be sized yet (data pointers then meaningless).
std::vector<ParamRef> listRefs(ModelParams& p, const ModelConfig& c, int64_t vs, int64_t vt) {
    const int64_t E = c.emb_dim, He = c.enc_hid_dim, Hd = c.dec_hid_dim;
    std::vector<ParamRef> out;
    addMat(out, "encoder.embedding.weight", p.enc_embedding, {vs, E});
    addGru(out, "encoder.rnn", "", p.enc_fwd, E, He);
    addGru(out, "encoder.rnn", "_reverse", p.enc_bwd, E, He);
    addMat(out, "encoder.fc.weight", p.enc_fc_w, {Hd, 2 * He});
    addVec(out, "encoder.fc.bias", p.enc_fc_b, {Hd});
    switch (c.score) {
    case ScoreKind::Additive:
        addMat(out, "decoder.attention.attn.weight", p.attn_w, {Hd, Hd + 2 * He});
        addVec(out, "decoder.attention.attn.bias", p.attn_b, {Hd});
        addVec(out, "decoder.attention.v.weight", p.attn_v, {1, Hd});
        break;
    case ScoreKind::General:
        addMat(out, "decoder.attention.W.weight", p.attn_W, {Hd, 2 * He});
        break;
    case ScoreKind::Dot:
    case ScoreKind::ScaledDot:
        break;
    }
    if (c.span == SpanKind::LocalP) {
        addMat(out, "decoder.attention.Wp.weight", p.attn_Wp, {Hd, Hd});
        addVec(out, "decoder.attention.vp.weight", p.attn_vp, {1, Hd});
    }
    addMat(out, "decoder.embedding.weight", p.dec_embedding, {vt, E});
    addGru(out, "decoder.rnn", "", p.dec_rnn, decoderInput(c), Hd);
    if (c.decoder == DecoderKind::Luong) {
        addMat(out, "decoder.combine.weight", p.combine_w, {Hd, 2 * He + Hd});
        addMat(out, "decoder.fc_out.weight", p.fc_out_w, {vt, Hd});
    } else {
        addMat(out, "decoder.fc_out.weight", p.fc_out_w, {vt, Hd + 2 * He + E});
    }
    addVec(out, "decoder.fc_out.bias", p.fc_out_b, {vt});
    return out;
}

}  // namespace

void resizeParams(ModelParams& p, const ModelConfig& c, int source_vocab, int target_vocab) {
    p = ModelParams{};
    for (ParamRef& r : listRefs(p, c, source_vocab, target_vocab)) {
        if (r.is_matrix)
            zeroOnHugePages(*r.mat, r.shape[0], r.shape[1]);
        else
            r.vec->setZero(r.shape.size() == 2 ? r.shape[1] : r.shape[0]);
    }
}

std::vector<ParamRef> paramRefs(ModelParams& p, const ModelConfig& c, int source_vocab, int target_vocab) {
    std::vector<ParamRef> refs = listRefs(p, c, source_vocab, target_vocab);
    for (ParamRef& r : refs) {
        r.data = r.is_matrix ? r.mat->data() : r.vec->data();
        r.size = r.is_matrix ? r.mat->size() : r.vec->size();
    }
    return refs;
}

int64_t parameterCount(const ModelConfig& c, int source_vocab, int target_vocab) {
    ModelParams p;
    int64_t n = 0;
    for (const ParamRef& r : listRefs(p, c, source_vocab, target_vocab)) {
        int64_t k = 1;
        for (int64_t d : r.shape) k *= d;
        n += k;
    }
    return n;
}

}  // namespace attnviz
