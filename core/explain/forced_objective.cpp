#include "explain/forced_objective.h"

#include "base/errors.h"
#include "decode/parallel.h"
#include "explain/kind_passes.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>

namespace attnviz {
namespace {

// Inputs per pass of forcedObjectives: bounds the batch's working memory (a pass holds (T·B, V) logits).
constexpr size_t kBatch = 16;
// Copies per pass of sourceGradients: bounds the backward's working memory (the RNN's holds every step of each
// copy).
constexpr size_t kCopies = 16;

// `start`: the decoder's first input (the target vocabulary's specials().start).
TrainExample exampleOf(const ForcedInput& in, int start) {
    TrainExample ex;
    ex.source = in.source;
    ex.target.reserve(in.target.size() + 1);
    ex.target.push_back(start);
    ex.target.insert(ex.target.end(), in.target.begin(), in.target.end());
    ex.source_scale = in.source_scale;
    ex.interventions = in.interventions;
    return ex;
}

// The input with f_row as its objective: [<sos>, y_0 … y_row] (the decoder reads left to right, so the rows after
// it neither change f_row nor receive its gradient).
TrainExample copyWithObjective(const ForcedInput& in, int start, int row, const std::optional<Contrast>& contrast) {
    TrainExample ex = exampleOf(in, start);
    ex.objective_row = row;
    if (contrast && contrast->row == row) ex.contrast = contrast->token;
    ex.target.resize(size_t(row) + 2);
    return ex;
}

void checkContrast(const Model& model, const std::vector<int>& target, const std::optional<Contrast>& contrast) {
    if (!contrast) return;
    if (contrast->row < 0 || contrast->row >= int(target.size()))
        throw InputError("contrast row " + std::to_string(contrast->row) + " is outside the decode's " +
                         std::to_string(target.size()) + " rows");
    if (contrast->token < 0 || contrast->token >= model.target_vocab.size())
        throw InputError("contrast token id " + std::to_string(contrast->token) + " is outside the target vocabulary");
}

// A pass of sourceGradients: copies of inputs [first_input, end_input), one per input and row, rows given as
// indices into the caller's list.
struct Pass {
    size_t first_input = 0, end_input = 0;
    std::vector<int> rows;
};

// Up to kCopies copies a pass, whole inputs when their rows fit (the RNN shares each input's forward among its
// copies), and at least two passes when there are two rows or more (the engine's threads run passes side by side;
// the plan does not depend on their number, so neither do the numbers). Each pass's rows are latest first (the
// RNN's backward then stops each copy at its row; nn/seq2seq_grad.h), dealt round-robin so that the passes of a
// group of inputs get as many long backwards as short ones.
std::vector<Pass> planPasses(size_t inputs, const std::vector<int>& rows) {
    std::vector<int> order(rows.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = int(k);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rows[size_t(a)] > rows[size_t(b)]; });
    const size_t inputs_per_pass = std::max<size_t>(1, kCopies / std::max<size_t>(1, rows.size()));
    const size_t groups = (inputs + inputs_per_pass - 1) / inputs_per_pass;
    const size_t row_passes =
        std::min(rows.size(), std::max<size_t>((rows.size() + kCopies - 1) / kCopies, groups < 2 ? 2 : 1));
    std::vector<Pass> passes;
    for (size_t first_input = 0; first_input < inputs; first_input += inputs_per_pass)
        for (size_t r = 0; r < row_passes; ++r) {
            Pass pass{first_input, std::min(inputs, first_input + inputs_per_pass), {}};
            for (size_t k = r; k < order.size(); k += row_passes) pass.rows.push_back(order[k]);
            passes.push_back(std::move(pass));
        }
    return passes;
}

}  // namespace

size_t objectivePasses(size_t inputs) { return (inputs + kBatch - 1) / kBatch; }

size_t sourceGradientPasses(size_t inputs, size_t rows) { return planPasses(inputs, std::vector<int>(rows, 0)).size(); }

PassShape largestPass(size_t inputs, size_t rows) {
    PassShape most;
    for (const Pass& pass : planPasses(inputs, std::vector<int>(rows, 0))) {
        most.inputs = std::max(most.inputs, pass.end_input - pass.first_input);
        most.copies = std::max(most.copies, pass.rows.size() * (pass.end_input - pass.first_input));
    }
    return most;
}

std::vector<std::vector<double>> forcedObjectives(const Model& model, const std::vector<ForcedInput>& inputs,
                                                  const std::optional<Contrast>& contrast, const PassOptions& run) {
    std::vector<std::vector<double>> out;
    const std::unique_ptr<KindPasses> passes = passesFor(model);
    for (size_t first = 0; first < inputs.size(); first += kBatch) {
        std::vector<TrainExample> batch;
        for (size_t i = first; i < std::min(inputs.size(), first + kBatch); ++i) {
            checkContrast(model, inputs[i].target, contrast);
            batch.push_back(exampleOf(inputs[i], model.target_vocab.specials().start));
        }
        passes->objectives(batch, contrast, out);
        if (run.on_pass) run.on_pass();
    }
    return out;
}

std::vector<std::vector<Mat>> sourceGradients(const Model& model, const std::vector<ForcedInput>& inputs,
                                              const std::vector<int>& rows, const std::optional<Contrast>& contrast,
                                              const PassOptions& run) {
    for (const ForcedInput& input : inputs) {
        checkContrast(model, input.target, contrast);
        for (const int row : rows)
            if (row < 0 || row >= int(input.target.size()))
                throw InputError("row " + std::to_string(row) + " is outside the decode's " +
                                 std::to_string(input.target.size()) + " rows");
    }
    const std::vector<Pass> plan = planPasses(inputs.size(), rows);
    std::vector<std::vector<Mat>> out(inputs.size(), std::vector<Mat>(rows.size()));
    // The passes side by side on the engine's threads, each thread with its own buffers; a pass's numbers do not
    // depend on the thread that runs it.
    std::atomic<size_t> next{0};
    runInParallel(threadsFor(plan.size(), run.threads), [&](int) {
        const std::unique_ptr<KindPasses> passes = passesFor(model);  // this thread's buffers
        for (size_t k = next++; k < plan.size(); k = next++) {
            const Pass& pass = plan[k];
            std::vector<TrainExample> batch;
            for (const int row : pass.rows)
                for (size_t i = pass.first_input; i < pass.end_input; ++i)
                    batch.push_back(copyWithObjective(inputs[i], model.target_vocab.specials().start,
                                                      rows[size_t(row)], contrast));
            std::vector<Mat> grads = passes->sourceGradients(batch);
            size_t b = 0;
            for (const int row : pass.rows)
                for (size_t i = pass.first_input; i < pass.end_input; ++i) out[i][size_t(row)] = std::move(grads[b++]);
            if (run.on_pass) run.on_pass();
        }
    });
    return out;
}

Mat encoderOutputs(const Model& model, const std::vector<int>& source, const Interventions& iv) {
    const SpecialIds& target = model.target_vocab.specials();
    return passesFor(model)->encoderOutputs(exampleOf(ForcedInput{source, {target.eos}, 1.0, iv}, target.start));
}

Mat sourceEmbeddings(const Model& model, const std::vector<int>& source) {
    const Mat& table = passesFor(model)->sourceEmbeddingTable();
    Mat e(Eigen::Index(source.size()), table.cols());
    for (size_t j = 0; j < source.size(); ++j) {
        if (source[j] < 0 || source[j] >= table.rows())
            throw InputError("source id " + std::to_string(source[j]) + " is outside the vocabulary");
        e.row(Eigen::Index(j)) = table.row(source[j]);
    }
    return e;
}

}  // namespace attnviz
