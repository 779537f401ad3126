#include "model_flags.h"

#include "args.h"
#include "base/errors.h"
#include "eval/compare_heads.h"
#include "io/model_file.h"
#include "io/siblings.h"

namespace attnviz::cli {

const std::vector<std::string>& scoreChoices() {
    static const std::vector<std::string> k = {"additive", "dot", "scaled_dot", "general"};
    return k;
}

namespace {

// loadModel's messages start with the path; make sure of it whatever the failure.
Model loadNamed(const std::string& path) {
    // The loader names a missing file, a directory, a FIFO or a symlink loop by its cause (io/input_file.h).
    try {
        return loadModel(path);
    } catch (const std::exception& e) {
        const std::string msg = e.what();
        if (msg.rfind(path, 0) == 0) throw;
        throw ModelError(path + ": " + msg);
    }
}

// "PATH: no sibling trained with score "dot" and the same other settings (siblings: FILE (what differs), ...)".
std::string noMatchingSibling(const std::string& path, const Model& model, const std::vector<Sibling>& siblings,
                              const Sibling& self, ScoreKind score) {
    std::string found;
    for (const Sibling& s : siblings) {
        if (s.path == path) continue;
        found += (found.empty() ? "" : ", ") + s.path + " (" + describeDifferences(self, s) + ")";
    }
    std::string msg = path + ": no sibling model trained with score \"" + std::string(toString(score)) +
                      "\" and this model's other settings (decoder, span, input feeding, guidance, sizes, tokenizers)";
    if (!found.empty())
        msg += "; siblings found, with what differs from this model: " + found;
    else if (model.task.empty())
        msg += " (the model has no \"task\" metadata, so it has no siblings)";
    else
        msg += " (no other model in its folder has task \"" + model.task + "\" and the same vocabularies)";
    return msg;
}

}  // namespace

LoadedModel loadModelForCli(const std::string& path, const std::optional<ScoreKind>& score) {
    auto model = std::make_shared<Model>(loadNamed(path));
    if (!score || model->config.score == *score) return {std::move(model), path};

    const std::vector<Sibling> siblings = findSiblings(path, *model);
    const Sibling self{path, model->config, isGuided(model->training, path)};
    const std::optional<Sibling> pick = matchingSibling(siblings, self, *score);
    if (!pick) throw ModelError(noMatchingSibling(path, *model, siblings, self, *score));
    auto sibling = std::make_shared<Model>(loadNamed(pick->path));
    return {std::move(sibling), pick->path};
}

AttentionView headChoiceOption(const std::string& flag, const std::string& value) {
    try {
        return parseHeadChoice(value);
    } catch (const InputError& e) {
        throw UsageError(flag + " " + e.what());
    }
}

void checkHeadChoice(const std::string& flag, const AttentionView& view, const Model& m, const std::string& side,
                     const std::string& path) {
    const std::string what = headChoiceProblem(m.config, view);
    if (!what.empty())
        throw InputError(flag + " " + std::to_string(view.layer + 1) + "," +
                         (view.head < 0 ? std::string("mean") : std::to_string(view.head + 1)) +
                         " cannot be used with " + side + " " + path + ": " + what);
}

safetensors::DType weightTypeFromFlag(const std::string& name) {
    if (name == "f16") return safetensors::DType::F16;
    if (name == "bf16") return safetensors::DType::BF16;
    return safetensors::DType::F32;
}

}  // namespace attnviz::cli
