// Writes the seed corpus of fuzz_model_loader: tiny valid model files (E = 2, H_e = 1, H_d = 2, vocabularies of
// five or six tokens), one per decoder/score/span family, a few hundred bytes to 2 KB each.
//   fuzz_make_corpus fuzz/corpus/model_loader
#include "io/model_file.h"
#include "model/model.h"

#include <cstdio>
#include <string>

using namespace attnviz;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_FOLDER\n", argv[0]);
        return 2;
    }
    const std::string out = argv[1];
    const Vocabulary src({"<pad>", "<unk>", "<sos>", "<eos>", "cat", "sat"}, "source_vocab");
    const Vocabulary tgt({"<pad>", "<unk>", "<sos>", "<eos>", "猫"}, "target_vocab");
    struct Seed {
        const char* name;
        DecoderKind decoder;
        ScoreKind score;
        SpanKind span;
        bool feeding;
    };
    const Seed seeds[] = {
        {"bahdanau_additive", DecoderKind::Bahdanau, ScoreKind::Additive, SpanKind::Global, false},
        {"bahdanau_dot", DecoderKind::Bahdanau, ScoreKind::Dot, SpanKind::Global, false},
        {"luong_general_local_p_feeding", DecoderKind::Luong, ScoreKind::General, SpanKind::LocalP, true},
        {"luong_scaled_dot_local_m", DecoderKind::Luong, ScoreKind::ScaledDot, SpanKind::LocalM, false},
    };
    uint64_t seed = 1;
    for (const Seed& s : seeds) {
        ModelConfig c;
        c.decoder = s.decoder;
        c.score = s.score;
        c.span = s.span;
        c.input_feeding = s.feeding;
        c.window = 2;
        c.emb_dim = 2;
        c.enc_hid_dim = 1;
        c.dec_hid_dim = 2;
        Model m = makeRandomModel(c, src, tgt, seed++);
        m.task = "seed";
        if (s.feeding) {
            m.description = "说明";
            m.training = R"({"steps": 1})";
            m.extra_metadata["x-extra"] = "kept";
        }
        saveModel(m, out + "/" + s.name + ".safetensors");
    }
    return 0;
}
