// The decode object of docs/cli.md as JSON and the attention matrix as CSV: what `attnviz-cli decode --json`,
// `render --out x.json / x.csv` and the GUI's export write.
//
// JSON keys (exactly cli.md): source_tokens, source_ids, target_tokens, target_ids, attention (T rows of S),
// log_probs (T), total_log_prob, config (every default filled in); for a Transformer also docs/transformer.md's
// cross_attention (L_dec × nhead × T × S), encoder_self_attention (L_enc × nhead × S × S) and
// decoder_self_attention (L_dec × nhead × T × T). Floats are written as the double equal to the
// float (the shortest text that reads back to that double, as nlohmann prints it: up to 17 significant digits, "0.5"
// for 0.5), so a float32 reader gets every value back bit for bit. A value that is not finite is written as null.
// Strings as io/json_text.h writes them (C1 controls as \u0080..\u009f).
//
// CSV (RFC 4180, "\n" line ends): a header row `target\source,<sos>,tok1,...,<eos>` then one row per target token:
// its spelling, then its attention weights. An intervened decode names its interventions in the header's first cell:
// `target\source interventions {"knockout":[2]}` (the "interventions" object below, on one line). Fields holding a comma, quote, CR or LF are quoted ("," -> `","`,
// `"` -> `""""`). Numbers as in the JSON.
#pragma once
#include "base/json_number.h"  // jsonNumber, for the JSON built from a decode
#include "decode/decoding.h"
#include "io/json_text.h"
#include "model/config.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace attnviz {

// Where a decode came from, as the window's exports record it in the decode object's last key, "context"
// (docs/gui.md): the sentence as typed, the model's file name, the reference and gold links as typed ("" when none)
// and the rows the user forced (0-based; a reference's rows are not listed: the reference says them).
struct DecodeContext {
    std::string source_text;
    std::string model_file;
    std::string reference;
    std::string gold_links;
    std::vector<int> forced_rows;
    bool empty() const {
        return source_text.empty() && model_file.empty() && reference.empty() && gold_links.empty() &&
               forced_rows.empty();
    }
};
// {"source_text", "model_file", "reference", "gold_links", "forced_rows"}, every key always present.
template <typename Json = nlohmann::ordered_json>
Json contextToJson(const DecodeContext& c) {
    Json j = Json::object();
    j["source_text"] = c.source_text;
    j["model_file"] = c.model_file;
    j["reference"] = c.reference;
    j["gold_links"] = c.gold_links;
    j["forced_rows"] = c.forced_rows;
    return j;
}

nlohmann::json decodeToJson(const DecodeResult& result, const ModelConfig& config);
// One line, no trailing newline (a JSON Lines record); `indent` >= 0 pretty-prints. Made by writeDecodeMembers.
// With interventions (not empty), the object ends with their "interventions" object (docs/explain.md).
// With a context (not empty), "context" follows as the last key.
std::string decodeToJsonText(const DecodeResult& result, const ModelConfig& config, int indent = -1,
                             const Interventions& iv = {}, const DecodeContext& context = {});
// The keys of the decode object, written into an object the caller has begun (which may add keys of its own, as
// `decode --input --json` adds "line"): piece by piece, so that a decode of any size is written to standard output
// without a copy of it in memory (io/json_text.h). The last key is "interventions" when `iv` is not empty: the one
// definition of an intervened decode object (the CLI's decode and render, the window's export).
void writeDecodeMembers(JsonWriter& w, const DecodeResult& result, const ModelConfig& config,
                        const Interventions& iv = {}, const DecodeContext& context = {});

// docs/marian.md's "model" key of a Marian folder's decode: {"family": "marian", "folder", "source_lang",
// "target_lang", "repository"}; nothing for an attnviz model.
void writeModelOrigin(JsonWriter& w, const Model& model);

// Reads a decode object back (the GUI's import, tests). Checks the shapes: as many ids as tokens, T attention rows
// of S values, T log-probs. Throws InputError naming the key at fault. `config` receives the object's config if
// non-null (the key is then required). null attention values read as NaN. The three Transformer keys are read when
// present (each head's shape checked).
DecodeResult decodeFromJson(const nlohmann::json& j, ModelConfig* config = nullptr);

// docs/explain.md's "interventions" object of an intervened decode: {"knockout": [j, ...], "attend": [[t, j], ...],
// "head_off": [["cross", l, h], ...]}, each key only when it has entries (0-based, as the CLI takes them).
// Templated on the JSON type, as jsonNumber.
template <typename Json = nlohmann::ordered_json>
Json interventionsToJson(const Interventions& iv) {
    Json j = Json::object();
    if (!iv.knockout.empty()) j["knockout"] = iv.knockout;
    for (const AttendAt& a : iv.attend) j["attend"].push_back({a.row, a.position});
    for (const HeadRef& h : iv.heads_off) j["head_off"].push_back({std::string(headKindName(h.kind)), h.layer, h.head});
    return j;
}

std::string decodeToCsv(const DecodeResult& result, const Interventions& iv = {});
// One CSV field, quoted as described above when it holds a comma, quote, CR or LF.
std::string csvField(const std::string& text);

// The text of a float as written in the JSON and CSV (shortest round-trip text of the equal double).
std::string formatFloat(double value);

}  // namespace attnviz
