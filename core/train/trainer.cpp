#include "train/trainer.h"

#include "base/errors.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <unordered_map>

namespace attnviz {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Fisher–Yates with a fixed generator (std::shuffle's algorithm is not specified), so a seed gives the same order
// on every platform.
void shuffleOrder(std::vector<int>& order, std::mt19937_64& rng) {
    for (size_t i = order.size(); i > 1; --i) {
        const size_t j = size_t(rng() % i);
        std::swap(order[i - 1], order[j]);
    }
}

}  // namespace

double evaluateLoss(const Model& model, const std::vector<TrainExample>& examples, int threads, int batch_size) {
    if (examples.empty()) return std::numeric_limits<double>::quiet_NaN();
    BatchGradient bg(model.config, model.params, threads);
    LossSum total;
    std::vector<const TrainExample*> batch;
    batch_size = std::max(1, batch_size);
    for (size_t i = 0; i < examples.size(); i += size_t(batch_size)) {
        batch.clear();
        for (size_t k = i; k < std::min(examples.size(), i + size_t(batch_size)); ++k) batch.push_back(&examples[k]);
        const LossSum s = bg.loss(model.params, batch);
        total.sum += s.sum;
        total.tokens += s.tokens;
    }
    return total.tokens > 0 ? total.sum / double(total.tokens) : std::numeric_limits<double>::quiet_NaN();
}

TrainReport trainModel(Model& model, const std::vector<TrainExample>& train, const std::vector<TrainExample>& valid,
                       const TrainOptions& o, const TrainCallbacks& cb) {
    if (train.empty()) throw InputError("training data: no examples");
    if (o.batch_size < 1) throw InputError("--batch-size: must be at least 1");
    if (!(o.lr > 0) || !std::isfinite(o.lr)) throw InputError("--lr: must be a positive number");
    if (o.dropout < 0 || o.dropout >= 1) throw InputError("--dropout: must be in [0, 1)");
    if (o.steps <= 0 && o.epochs < 1) throw InputError("--epochs: must be at least 1");
    if (!(o.align_weight >= 0) || !std::isfinite(o.align_weight))
        throw InputError("--align-weight: must be a number >= 0");
    const bool guided = o.align_weight > 0;

    const int n = int(train.size());
    const int64_t per_epoch = (n + o.batch_size - 1) / o.batch_size;
    const int64_t total = o.steps > 0 ? o.steps : per_epoch * o.epochs;
    ModelParams& params = model.params;

    BatchGradient bg(model.config, params, o.threads);
    Optimizer opt(o.optimizer, o.lr, params);
    ModelParams grads, prev;
    zerosLike(grads, params);
    prev = params;

    const bool validate = !valid.empty();
    ModelParams best;
    double best_loss = std::numeric_limits<double>::infinity();
    int64_t best_step = -1, validated_step = -1;
    double last_valid = std::numeric_limits<double>::quiet_NaN();
    auto runValidation = [&](int64_t step) {
        validated_step = step;
        const double vl = evaluateLoss(model, valid, o.threads, std::max(o.batch_size, 64));
        last_valid = vl;
        if (std::isfinite(vl) && vl < best_loss) {
            best_loss = vl;
            best = params;
            best_step = step;
        }
        return vl;
    };

    TrainReport rep;
    std::vector<int> order(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) order[size_t(i)] = i;
    std::mt19937_64 rng(o.seed);
    std::vector<const TrainExample*> batch;
    batch.reserve(size_t(o.batch_size));

    const Clock::time_point t0 = Clock::now();
    double train_seconds = 0, last_report = -1e9;
    int64_t step = 0;
    int epoch = 0;
    double epoch_sum = 0, last_epoch_loss = std::numeric_limits<double>::quiet_NaN();
    double epoch_align = 0, step_align = 0, last_epoch_align = std::numeric_limits<double>::quiet_NaN();
    int64_t epoch_tokens = 0, epoch_steps = 0;
    bool stop = false;
    auto progress = [&](double loss, double el, bool after_validation) {
        TrainProgress pr;
        pr.step = step;
        pr.total_steps = total;
        pr.epoch = epoch;
        pr.loss = loss;
        pr.avg_loss = epoch_sum / double(std::max<int64_t>(1, epoch_tokens));
        pr.tokens_per_second = train_seconds > 0 ? double(rep.target_tokens) / train_seconds : 0;
        pr.elapsed_seconds = el;
        pr.eta_seconds = step > 0 ? el / double(step) * double(total - step) : 0;
        pr.valid_loss = last_valid;
        pr.after_validation = after_validation;
        if (guided) {
            pr.align_loss = step_align;
            pr.avg_align_loss = epoch_align / double(std::max<int64_t>(1, epoch_tokens));
        }
        return pr;
    };

    while (step < total && !stop) {
        if (o.shuffle) shuffleOrder(order, rng);
        ++epoch;
        epoch_sum = 0;
        epoch_align = 0;
        epoch_tokens = 0;
        epoch_steps = 0;
        for (int64_t bi = 0; bi < per_epoch && step < total; ++bi) {
            if (cb.cancel && cb.cancel->load()) {
                rep.status = TrainStatus::Cancelled;
                stop = true;
                break;
            }
            const Clock::time_point ts = Clock::now();
            batch.clear();
            for (int64_t k = bi * o.batch_size; k < std::min<int64_t>(n, (bi + 1) * o.batch_size); ++k)
                batch.push_back(&train[size_t(order[size_t(k)])]);
            const uint64_t drop_seed = o.seed * 0x9E3779B97F4A7C15ull + uint64_t(step) + 1;
            const LossSum ls = bg.compute(params, batch, o.dropout, drop_seed, grads, float(o.align_weight));
            const double loss = ls.tokens > 0 ? ls.sum / double(ls.tokens) : 0.0;
            if (!std::isfinite(loss)) {
                params = prev;  // the last parameters whose loss was finite
                rep.status = TrainStatus::NonFinite;
                rep.message = "the training loss became " + std::string(std::isnan(loss) ? "NaN" : "infinite") +
                              " at step " + std::to_string(step + 1) +
                              " (try a smaller --lr or --clip); the last good parameters were kept";
                stop = true;
                break;
            }
            const double norm = clipGradNorm(grads, o.clip);
            if (!std::isfinite(norm)) {
                rep.status = TrainStatus::NonFinite;
                rep.message = "the gradient became non-finite at step " + std::to_string(step + 1) +
                              " (try a smaller --lr or --clip); the last good parameters were kept";
                stop = true;
                break;
            }
            prev = params;
            opt.step(params, grads);
            ++step;
            ++epoch_steps;
            epoch_sum += ls.sum;
            epoch_align += ls.align_sum;
            step_align = ls.tokens > 0 ? ls.align_sum / double(ls.tokens) : 0.0;
            epoch_tokens += ls.tokens;
            rep.target_tokens += ls.tokens;
            rep.last_loss = loss;
            train_seconds += secondsSince(ts);
            const double el = secondsSince(t0);
            if (cb.progress && (el - last_report >= o.progress_interval || step == total)) {
                last_report = el;
                cb.progress(progress(loss, el, false));
            }
        }
        if (epoch_tokens > 0) last_epoch_loss = epoch_sum / double(epoch_tokens);
        if (epoch_tokens > 0 && guided) last_epoch_align = epoch_align / double(epoch_tokens);
        const bool full_epoch = epoch_steps == per_epoch;
        if (validate && full_epoch && !stop) {
            runValidation(step);
            if (cb.progress) cb.progress(progress(rep.last_loss, secondsSince(t0), true));
        }
    }

    rep.steps = step;
    rep.epochs = double(step) / double(per_epoch);
    rep.train_loss = last_epoch_loss;
    rep.train_align_loss = last_epoch_align;
    rep.seconds = secondsSince(t0);
    rep.tokens_per_second = train_seconds > 0 ? double(rep.target_tokens) / train_seconds : 0;
    if (!allFinite(params)) params = prev;  // never hand back non-finite weights
    rep.best_step = step;
    if (validate) {
        if (validated_step != step || rep.status != TrainStatus::Completed) runValidation(step);
        if (best_step >= 0) {
            params = best;
            rep.best_step = best_step;
        }
        rep.best_valid_loss = best_loss;
        rep.valid_loss = std::isfinite(best_loss) ? best_loss : std::numeric_limits<double>::quiet_NaN();
    }
    return rep;
}

Vocabulary buildVocabulary(const std::vector<std::vector<std::string>>& sentences, int min_freq) {
    std::unordered_map<std::string, int64_t> counts;
    for (const auto& s : sentences)
        for (const std::string& t : s) ++counts[t];
    std::vector<std::pair<std::string, int64_t>> items;
    for (auto& [tok, cnt] : counts) {
        bool special = false;
        for (const char* sp : kSpecialTokens) special = special || tok == sp;
        if (!special && cnt >= min_freq) items.emplace_back(tok, cnt);
    }
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
        if (a.second != b.second) return a.second > b.second;
        return a.first <
               b.first;  // std::string compares bytes (char_traits<char> is unsigned-compare): code-point order
    });
    std::vector<std::string> tokens(std::begin(kSpecialTokens), std::end(kSpecialTokens));
    for (auto& it : items) tokens.push_back(std::move(it.first));
    return Vocabulary(std::move(tokens), "vocabulary");
}

TrainExample makeExample(const Model& model, const std::string& source, const std::string& target, int line) {
    TrainExample ex;
    ex.line = line;
    ex.source = tokenizeSource(model, source).ids;
    ex.target.push_back(kSos);
    const TokenizedText t = tokenizeTarget(model, target);
    ex.target.insert(ex.target.end(), t.ids.begin(), t.ids.end());
    return ex;
}

}  // namespace attnviz
