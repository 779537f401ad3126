#include "info_marian.h"

#include "base/utf8.h"
#include "io/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace attnviz::cli {
namespace {

std::string orNone(const std::string& s) { return s.empty() ? "(not given)" : printable(s); }

nlohmann::ordered_json marianJson(const std::string& path, const Model& m, bool vocab) {
    const MarianOrigin& o = *m.marian;
    const TransformerConfig& t = m.config.transformer;
    nlohmann::ordered_json j;
    j["path"] = path;
    j["family"] = "marian";
    j["folder"] = o.folder;
    j["repository"] = o.repository;
    j["source_lang"] = o.source_lang;
    j["target_lang"] = o.target_lang;
    j["weights_file"] = o.weights_file;
    j["weights_dtype"] = o.weights_dtype;
    j["config"] = configToJson(m.config);
    j["source_vocab_size"] = m.source_vocab.size();
    j["target_vocab_size"] = m.target_vocab.size();
    j["parameter_count"] = m.parameterCount();
    j["forbidden_ids"] = t.forbidden_outputs;
    j["eos_id"] = m.target_vocab.specials().eos;
    j["pad_id"] = m.target_vocab.specials().pad;
    j["decoder_start_id"] = m.target_vocab.specials().start;
    j["num_beams"] = o.num_beams;
    j["max_length"] = o.max_length;
    if (vocab) {
        j["source_vocab"] = m.source_vocab.tokens();
        j["target_vocab"] = m.target_vocab.tokens();
    }
    return j;
}

std::string idsText(const Model& m, const std::vector<int>& ids) {
    std::string s;
    for (int id : ids) s += (s.empty() ? "" : ", ") + std::to_string(id) + " " + printable(m.target_vocab.token(id));
    return s.empty() ? "(none)" : s;
}

void printText(const std::string& path, const Model& m, bool vocab) {
    const MarianOrigin& o = *m.marian;
    const TransformerConfig& t = m.config.transformer;
    std::printf("folder       %s\n", printable(o.folder).c_str());
    if (!o.repository.empty()) std::printf("repository   %s\n", printable(o.repository).c_str());
    std::printf("family       marian (Hugging Face MarianMT)\n");
    std::printf("languages    %s → %s\n", orNone(o.source_lang).c_str(), orNone(o.target_lang).c_str());
    std::printf(
        "decoder      transformer, post-LN, no final norms, activation %s, positions sinusoidal (halves), "
        "at most %d\n",
        std::string(toString(t.activation)).c_str(), t.max_positions);
    std::printf("sizes        d_model %d, %s heads, %d encoder and %d decoder layers, ffn %s\n", t.d_model,
                perSideText(t.encoder_nhead, t.decoder_nhead).c_str(), t.num_encoder_layers, t.num_decoder_layers,
                perSideText(t.encoder_dim_feedforward, t.decoder_dim_feedforward).c_str());
    std::printf("embeddings   %s, output layer %s, scale %s\n", t.shared_embeddings ? "one shared table" : "separate",
                t.tied_output ? "tied to the target table" : "its own", t.scale_embedding ? "√d" : "1");
    std::printf("vocabulary   source %d pieces, target %d pieces\n", m.source_vocab.size(), m.target_vocab.size());
    std::printf("specials     </s> %d, <unk> %d, <pad> %d, decoder start %d\n", m.target_vocab.specials().eos,
                m.target_vocab.specials().unk, m.target_vocab.specials().pad, m.target_vocab.specials().start);
    std::printf("forbidden    %s\n", idsText(m, t.forbidden_outputs).c_str());
    std::printf("parameters   %lld\n", static_cast<long long>(m.parameterCount()));
    std::printf("weights      %s (%s)\n", o.weights_file.c_str(), o.weights_dtype.c_str());
    if (o.num_beams > 0) std::printf("generation   num_beams %d, max_length %d\n", o.num_beams, o.max_length);
    if (!vocab) return;
    for (const Vocabulary* v : {&m.source_vocab, &m.target_vocab}) {
        std::printf("%s vocabulary\n", v == &m.source_vocab ? "source" : "target");
        for (int i = 0; i < v->size(); ++i) std::printf("  %6d  %s\n", i, printable(v->token(i)).c_str());
    }
    (void)path;
}

}  // namespace

void printMarianInfo(const std::string& path, const Model& model, bool json, bool vocab) {
    if (json)
        std::printf("%s\n", jsonText(marianJson(path, model, vocab)).c_str());
    else
        printText(path, model, vocab);
}

}  // namespace attnviz::cli
