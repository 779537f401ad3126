#include "io/siblings.h"

#include "io/model_file.h"
#include "io/safetensors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>

namespace attnviz {

bool isGuided(const std::string& training, const std::string& path) {
    if (!training.empty()) {
        const nlohmann::json j = nlohmann::json::parse(training, nullptr, /*allow_exceptions=*/false);
        if (j.is_object() && j.contains("align_weight") && j["align_weight"].is_number())
            return j["align_weight"].get<double>() > 0;
    }
    const std::string stem = std::filesystem::path(path).stem().string();
    const std::string suffix = "-guided";
    return stem.size() >= suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0;
}

namespace {

// The longest header a sibling of the model at `path` may have. Siblings share the vocabularies, which make most of a
// header; one much longer than the model's own is no sibling and is not read (a hostile file's 100 MB header would
// otherwise be parsed by every `info` and `decode --score` of a model beside it).
uint64_t siblingHeaderCap(const std::string& path) {
    try {
        return 2 * safetensors::readHeaderLengthOf(path) + (uint64_t(1) << 20);
    } catch (const std::exception&) {
        return safetensors::kMaxHeaderSize;  // the model did not come from that file: no narrower bound
    }
}

}  // namespace

std::vector<Sibling> findSiblings(const std::string& path, const Model& model) {
    namespace fs = std::filesystem;
    std::vector<Sibling> out{{path, model.config, isGuided(model.training, path)}};
    if (model.task.empty()) return out;
    const uint64_t cap = siblingHeaderCap(path);

    const fs::path self(path);
    const fs::path dir = self.parent_path();
    std::error_code ec;
    fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec);
    if (ec) return out;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) break;
        const fs::path p = it->path();
        if (p.extension() != ".safetensors" || p.filename() == self.filename()) continue;
        std::error_code ec2;
        if (!it->is_regular_file(ec2) || fs::equivalent(p, self, ec2)) continue;
        const fs::path shown = dir / p.filename();
        try {
            const ModelHeader h = readModelHeader(shown.string(), cap);
            if (h.task == model.task && h.source_vocab == model.source_vocab && h.target_vocab == model.target_vocab)
                out.push_back({shown.string(), h.config, isGuided(h.training, shown.string())});
        } catch (const std::exception&) {
            // unreadable or not a model: not a sibling
        }
    }
    std::sort(out.begin(), out.end(), [](const Sibling& a, const Sibling& b) {
        return a.config.score != b.config.score ? a.config.score < b.config.score : a.path < b.path;
    });
    return out;
}

namespace {

// The config with the window of a global span (which has none) made equal, so that it never tells siblings apart.
ModelConfig comparable(ModelConfig c) {
    if (c.span == SpanKind::Global) c.window = 0;
    return c;
}

std::string tokenizerText(const TokenizerConfig& t) {
    return "tokenizer " + std::string(toString(t.source)) + " → " + std::string(toString(t.target)) +
           (t.lowercase ? ", lowercase" : ", cased");
}

}  // namespace

bool sameSettingsButScore(const Sibling& a, const Sibling& b) {
    ModelConfig x = comparable(a.config), y = comparable(b.config);
    x.score = y.score;
    return a.guided == b.guided && x == y;
}

std::optional<Sibling> matchingSibling(const std::vector<Sibling>& siblings, const Sibling& current, ScoreKind score) {
    if (current.config.score == score) return current;
    for (const Sibling& s : siblings)  // sorted by path within a score: the first match is the same on every call
        if (s.config.score == score && sameSettingsButScore(s, current)) return s;
    return std::nullopt;
}

std::vector<SiblingDifference> siblingDifferenceKinds(const Sibling& current, const Sibling& other) {
    using D = SiblingDifference;
    const ModelConfig& a = current.config;
    const ModelConfig& b = other.config;
    std::vector<D> out;
    if (a.decoder != b.decoder) out.push_back(D::Decoder);
    if (a.score != b.score) out.push_back(D::Score);
    if (a.span != b.span)
        out.push_back(D::Span);
    else if (b.span != SpanKind::Global && a.window != b.window)
        out.push_back(D::Window);
    if (a.input_feeding != b.input_feeding) out.push_back(D::InputFeeding);
    if (current.guided != other.guided) out.push_back(D::Guided);
    if (sizesSummary(b) != sizesSummary(a)) out.push_back(D::Sizes);
    if (a.tokenizer != b.tokenizer) out.push_back(D::Tokenizer);
    ModelConfig rest_a = comparable(a), rest_b = comparable(b);  // settings named above made equal
    rest_b.score = rest_a.score;
    if (out.empty() && !(rest_a == rest_b)) out.push_back(D::OtherSettings);
    return out;
}

std::vector<std::string> siblingDifferences(const Sibling& current, const Sibling& other) {
    const ModelConfig& b = other.config;
    std::vector<std::string> out;
    for (const SiblingDifference d : siblingDifferenceKinds(current, other)) {
        switch (d) {
        case SiblingDifference::Decoder:
            out.emplace_back(toString(b.decoder));
            break;
        case SiblingDifference::Score:
            out.emplace_back(toString(b.score));
            break;
        case SiblingDifference::Span:
            out.push_back(std::string(toString(b.span)) +
                          (b.span == SpanKind::Global ? "" : ", D = " + std::to_string(b.window)));
            break;
        case SiblingDifference::Window:
            out.push_back("D = " + std::to_string(b.window));
            break;
        case SiblingDifference::InputFeeding:
            out.emplace_back(b.input_feeding ? "input feeding" : "no input feeding");
            break;
        case SiblingDifference::Guided:
            out.emplace_back(other.guided ? "guided" : "unguided");
            break;
        case SiblingDifference::Sizes:
            out.push_back(sizesSummary(b));
            break;
        case SiblingDifference::Tokenizer:
            out.push_back(tokenizerText(b.tokenizer));
            break;
        case SiblingDifference::OtherSettings:
            out.emplace_back("other settings");
            break;
        }
    }
    return out;
}

std::string describeDifferences(const Sibling& current, const Sibling& other) {
    const std::vector<std::string> parts = siblingDifferences(current, other);
    if (parts.empty()) return "same settings";
    std::string text;
    for (const std::string& p : parts) text += (text.empty() ? "" : " · ") + p;
    return text;
}

}  // namespace attnviz
