// attnviz-cli info MODEL [--json] [--vocab]: what a model file holds (docs/cli.md).
#include "args.h"
#include "command_run.h"
#include "commands.h"
#include "info_marian.h"
#include "model_flags.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "io/json_text.h"
#include "io/model_file.h"
#include "io/safetensors.h"
#include "text/display_width.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace attnviz::cli {
namespace {

std::string withThousands(int64_t n) {
    std::string digits = std::to_string(n < 0 ? -n : n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return (n < 0 ? "-" : "") + out;
}

std::string byteSize(uint64_t b) {
    char buf[32];
    if (b < 1024)
        std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(b));
    else if (b < 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(b) / 1024.0);
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1024.0 * 1024.0));
    return buf;
}

using safetensors::shapeText;

// Deeper "training" metadata is shown as its text: the JSON writer recurses once per level.
constexpr size_t kMaxTrainingDepth = 64;

// "training" metadata: the JSON value when it parses, else the text; null when absent.
nlohmann::json trainingJson(const std::string& text) {
    if (text.empty()) return nullptr;
    if (jsonNestingDepth(text) > kMaxTrainingDepth) return text;
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        return text;
    }
}

nlohmann::ordered_json infoJson(const std::string& path, const Model& model, const ModelHeader& header,
                                const std::vector<Sibling>& siblings, bool with_vocab) {
    nlohmann::ordered_json j;
    j["path"] = path;
    j["file_size"] = header.file_size;
    j["format"] = "attnviz.seq2seq";
    j["format_version"] = "1";
    j["config"] = configToJson(model.config);
    j["source_vocab_size"] = model.source_vocab.size();
    j["target_vocab_size"] = model.target_vocab.size();
    j["parameter_count"] = model.parameterCount();
    if (model.config.isTransformer()) j["maxlen"] = header.maxlen;  // 0: positions computed for any length
    j["task"] = model.task;
    j["description"] = model.description;
    j["training"] = trainingJson(model.training);
    j["extra_metadata"] = model.extra_metadata;
    nlohmann::ordered_json sib = nlohmann::ordered_json::array();
    const Sibling self{path, model.config, isGuided(model.training, path)};
    for (const Sibling& s : siblings)
        sib.push_back({{"path", s.path},
                       {"score", toString(s.config.score)},
                       {"decoder", toString(s.config.decoder)},
                       {"span", toString(s.config.span)},
                       {"guided", s.guided},
                       {"differences", siblingDifferences(self, s)},
                       {"self", s.path == path}});
    j["siblings"] = std::move(sib);
    nlohmann::ordered_json tensors = nlohmann::ordered_json::array();
    for (const TensorEntry& t : header.tensors)
        tensors.push_back({{"name", t.name}, {"shape", t.shape}, {"dtype", t.dtype}});
    j["tensors"] = std::move(tensors);
    if (with_vocab) {
        j["source_vocab"] = model.source_vocab.tokens();
        j["target_vocab"] = model.target_vocab.tokens();
    }
    return j;
}

// The decoder line and the sizes line of the text form.
void printKind(const ModelConfig& c, int maxlen) {
    if (c.isTransformer()) {
        const TransformerConfig& t = c.transformer;
        std::printf("decoder      transformer, %s, activation %s, positions %s\n", t.norm_first ? "pre-LN" : "post-LN",
                    std::string(toString(t.activation)).c_str(),
                    maxlen > 0 ? ("stored table of " + std::to_string(maxlen)).c_str() : "sinusoidal, any length");
        std::printf("sizes        d_model %d, nhead %s, %d encoder and %d decoder layers, dim_feedforward %s\n",
                    t.d_model, perSideText(t.encoder_nhead, t.decoder_nhead).c_str(), t.num_encoder_layers,
                    t.num_decoder_layers, perSideText(t.encoder_dim_feedforward, t.decoder_dim_feedforward).c_str());
        return;
    }
    std::printf("decoder      %s, score %s, span %s", std::string(toString(c.decoder)).c_str(),
                std::string(toString(c.score)).c_str(), std::string(toString(c.span)).c_str());
    if (c.span != SpanKind::Global) std::printf(" (window %d)", c.window);
    if (c.decoder == DecoderKind::Luong) std::printf(", input feeding %s", c.input_feeding ? "on" : "off");
    std::printf("\nsizes        emb_dim %d, enc_hid_dim %d, dec_hid_dim %d\n", c.emb_dim, c.enc_hid_dim, c.dec_hid_dim);
}

void printInfoText(const std::string& path, const Model& model, const ModelHeader& header,
                   const std::vector<Sibling>& siblings, bool with_vocab) {
    const ModelConfig& c = model.config;
    std::printf("file         %s (%s)\n", printable(path).c_str(), byteSize(header.file_size).c_str());
    std::printf("task         %s\n", model.task.empty() ? "(none)" : printable(model.task).c_str());
    if (!model.description.empty()) std::printf("description  %s\n", printable(model.description).c_str());
    printKind(c, header.maxlen);
    std::printf("tokenizer    source %s, target %s, lowercase %s\n", std::string(toString(c.tokenizer.source)).c_str(),
                std::string(toString(c.tokenizer.target)).c_str(), c.tokenizer.lowercase ? "yes" : "no");
    std::printf("vocabulary   source %d tokens, target %d tokens\n", model.source_vocab.size(),
                model.target_vocab.size());
    std::printf("parameters   %s\n", withThousands(model.parameterCount()).c_str());
    if (!model.training.empty()) std::printf("training     %s\n", printable(model.training).c_str());
    for (const auto& [k, v] : model.extra_metadata)
        std::printf("metadata     %s = %s\n", printable(k).c_str(), printable(v).c_str());
    std::printf("siblings     %d model%s with this task and vocabularies\n", static_cast<int>(siblings.size()),
                siblings.size() == 1 ? "" : "s");
    const Sibling self{path, model.config, isGuided(model.training, path)};
    for (const Sibling& s : siblings)
        std::printf("  %s %s  (%s)\n", padRight(toString(s.config.score), 11).c_str(), printable(s.path).c_str(),
                    s.path == path ? "this file" : describeDifferences(self, s).c_str());
    std::printf("tensors      %d\n", static_cast<int>(header.tensors.size()));
    size_t width = 0;
    for (const TensorEntry& t : header.tensors) width = std::max(width, t.name.size());
    for (const TensorEntry& t : header.tensors)
        std::printf("  %s  %s %s\n", padRight(t.name, static_cast<int>(width)).c_str(),
                    padRight(shapeText(t.shape), 14).c_str(), t.dtype.c_str());
    if (with_vocab) {
        std::printf("source vocabulary\n");
        for (int i = 0; i < model.source_vocab.size(); ++i)
            std::printf("  %6d  %s\n", i, printable(model.source_vocab.token(i)).c_str());
        std::printf("target vocabulary\n");
        for (int i = 0; i < model.target_vocab.size(); ++i)
            std::printf("  %6d  %s\n", i, printable(model.target_vocab.token(i)).c_str());
    }
}

}  // namespace

int runInfo(const std::vector<std::string>& args) {
    return runCommand("info", [&] {
        ArgParser p(
            "info", "MODEL [--json] [--vocab]",
            "Print a model's config, vocabulary sizes, parameter count, metadata, siblings (models in the same\n"
            "folder with the same task and vocabularies, each with what differs from this model) and tensor list.");
        bool json = false, vocab = false;
        std::vector<std::string> positional;
        p.positionals(&positional, "MODEL", "the model file (.safetensors), or a Hugging Face Marian folder", 1, 1);
        p.flag("--json", &json, "print one JSON object");
        p.flag("--vocab", &vocab, "also list both vocabularies");
        if (!p.parse(args)) return 0;

        const std::string& path = positional.front();
        const LoadedModel loaded = loadModelForCli(path);  // validates everything, weights included
        if (loaded.model->marian) {
            printMarianInfo(path, *loaded.model, json, vocab);
            return 0;
        }
        const ModelHeader header = readModelHeader(path);  // dtypes and file order of the tensors
        const std::vector<Sibling> siblings = findSiblings(path, *loaded.model);
        if (json)
            std::printf("%s\n", jsonText(infoJson(path, *loaded.model, header, siblings, vocab)).c_str());
        else
            printInfoText(path, *loaded.model, header, siblings, vocab);
        return 0;
    });
}

}  // namespace attnviz::cli
