#include "io/marian_config.h"

#include "base/errors.h"

#include <algorithm>
#include <set>

namespace attnviz {
namespace {

using json = nlohmann::json;

// A key of one of the folder's JSON files; messages name the file.
struct JsonFile {
    const json& j;
    const char* name;

    const json* field(const char* key) const {
        if (!j.is_object()) return nullptr;
        auto it = j.find(key);
        return it == j.end() || it->is_null() ? nullptr : &*it;
    }
    [[noreturn]] void fail(const char* key, const std::string& what) const {
        throw ModelError(std::string(name) + ": \"" + key + "\" " + what);
    }
    int integer(const char* key, int fallback, int min_value, bool required = false) const {
        const json* v = field(key);
        if (!v) {
            if (required) throw ModelError(std::string(name) + ": missing required key \"" + key + "\"");
            return fallback;
        }
        if (!v->is_number_integer()) fail(key, "must be an integer");
        const long long x = v->get<long long>();
        if (x < min_value || x > (1 << 20))
            fail(key, "= " + std::to_string(x) + " is out of range (" + std::to_string(min_value) + " to " +
                          std::to_string(1 << 20) + ")");
        return int(x);
    }
    bool boolean(const char* key, bool fallback) const {
        const json* v = field(key);
        if (!v) return fallback;
        if (!v->is_boolean()) fail(key, "must be true or false");
        return v->get<bool>();
    }
    std::string string(const char* key, const char* fallback) const {
        const json* v = field(key);
        if (!v) return fallback;
        if (!v->is_string()) fail(key, "must be a string");
        return v->get<std::string>();
    }
};

void refuseUncovered(const JsonFile& c) {
    const std::string type = c.string("model_type", "");
    if (type != "marian")
        throw ModelError("config.json: model_type \"" + type +
                         "\" is not \"marian\" (only Hugging Face MarianMT folders are read; docs/marian.md)");
    for (const char* key : {"normalize_before", "normalize_embedding", "add_final_layer_norm"})
        if (c.boolean(key, false))
            c.fail(key, "is true: Marian models are post-LN with no extra norms, and this one is not (not covered)");
    if (!c.boolean("static_position_embeddings", true))
        c.fail("static_position_embeddings", "is false: learnt positions are not covered");
}

// Each side's heads divide d_model (the message names the side's key, as transformers' own check does).
void checkHeads(const JsonFile& c, const TransformerConfig& t) {
    for (const auto& [key, heads] :
         {std::pair{"encoder_attention_heads", t.encoder_nhead}, std::pair{"decoder_attention_heads", t.decoder_nhead}})
        if (t.d_model % heads != 0)
            c.fail(key, "= " + std::to_string(heads) + " does not divide d_model " + std::to_string(t.d_model));
}

TransformerConfig transformerOf(const JsonFile& c) {
    TransformerConfig t;
    t.d_model = c.integer("d_model", 0, 1, true);
    t.encoder_nhead = c.integer("encoder_attention_heads", 0, 1, true);
    t.decoder_nhead = c.integer("decoder_attention_heads", 0, 1, true);
    t.num_encoder_layers = c.integer("encoder_layers", 0, 1, true);
    t.num_decoder_layers = c.integer("decoder_layers", 0, 1, true);
    t.encoder_dim_feedforward = c.integer("encoder_ffn_dim", 0, 1, true);
    t.decoder_dim_feedforward = c.integer("decoder_ffn_dim", 0, 1, true);
    checkHeads(c, t);
    t.norm_first = false;
    try {
        t.activation = parseActivation(c.string("activation_function", "swish"));
    } catch (const ModelError& e) {
        throw ModelError(std::string("config.json: \"activation_function\": ") + e.what());
    }
    t.final_norms = false;
    t.scale_embedding = c.boolean("scale_embedding", false);
    t.positions = PositionLayout::Halves;
    t.max_positions = c.integer("max_position_embeddings", 1024, 2);
    t.shared_embeddings = c.boolean("share_encoder_decoder_embeddings", true);
    t.tied_output = c.boolean("tie_word_embeddings", true);
    return t;
}

// The single-token entries of generation_config.json's bad_words_ids (longer entries ban sequences, which greedy
// stepping does not need: they are listed in docs/marian.md as not applied).
std::vector<int> singleBadWords(const JsonFile& g, int target_vocab) {
    std::vector<int> ids;
    const json* v = g.field("bad_words_ids");
    if (!v) return ids;
    if (!v->is_array()) g.fail("bad_words_ids", "must be a list of lists of token ids");
    for (const json& entry : *v) {
        if (!entry.is_array()) g.fail("bad_words_ids", "must be a list of lists of token ids");
        if (entry.size() != 1) continue;
        if (!entry[0].is_number_integer() || entry[0].get<long long>() < 0 || entry[0].get<long long>() >= target_vocab)
            g.fail("bad_words_ids",
                   "holds " + entry[0].dump() + ", not a target id (0 to " + std::to_string(target_vocab - 1) + ")");
        ids.push_back(entry[0].get<int>());
    }
    return ids;
}

}  // namespace

MarianSettings marianSettings(const json& config, const json& generation, const json& tokenizer) {
    if (!config.is_object()) throw ModelError("config.json: must be a JSON object");
    const JsonFile c{config, "config.json"}, g{generation, "generation_config.json"},
        tok{tokenizer, "tokenizer_config.json"};
    refuseUncovered(c);
    MarianSettings s;
    s.config.decoder = DecoderKind::Transformer;
    s.config.score = ScoreKind::ScaledDot;
    s.config.tokenizer = {TokenizerKind::SentencePiece, TokenizerKind::SentencePiece, false};
    s.config.transformer = transformerOf(c);
    try {
        validateConfig(s.config);
    } catch (const ModelError& e) {
        throw ModelError(std::string("config.json: ") + e.what());
    }
    s.vocab_size = c.integer("vocab_size", 0, 3, true);
    s.target_vocab_size = c.integer("decoder_vocab_size", s.vocab_size, 3);
    if (s.config.transformer.shared_embeddings && s.target_vocab_size != s.vocab_size)
        throw ModelError("config.json: share_encoder_decoder_embeddings with decoder_vocab_size " +
                         std::to_string(s.target_vocab_size) + " != vocab_size " + std::to_string(s.vocab_size) +
                         ": one table cannot have both sizes");
    // generation_config.json's ids win over config.json's
    const int pad = g.integer("pad_token_id", c.integer("pad_token_id", s.target_vocab_size - 1, 0), 0);
    const int eos = g.integer("eos_token_id", c.integer("eos_token_id", 0, 0), 0);
    const int start = g.integer("decoder_start_token_id", c.integer("decoder_start_token_id", pad, 0), 0);
    s.source_specials = {pad, -1, -1, eos, -1};  // unk: vocab.json's <unk>
    s.target_specials = {pad, -1, -1, eos, start};
    std::set<int> forbidden{pad};
    for (int id : singleBadWords(g, s.target_vocab_size)) forbidden.insert(id);
    s.config.transformer.forbidden_outputs.assign(forbidden.begin(), forbidden.end());
    s.num_beams = g.integer("num_beams", c.integer("num_beams", 0, 0), 0);
    s.max_length = g.integer("max_length", c.integer("max_length", 0, 0), 0);
    s.separate_vocabs = tok.boolean("separate_vocabs", false);
    s.source_lang = tok.string("source_lang", "");
    s.target_lang = tok.string("target_lang", "");
    return s;
}

}  // namespace attnviz
