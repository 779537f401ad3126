#include "train/trainer.h"

#include "base/errors.h"
#include "text/tokenizer.h"
#include "train/marian_start.h"
#include "train/transformer_batch.h"

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

// What training needs of each kind: its weights in the Model and the gradient of a batch.
template <class P>
struct KindOf;
template <>
struct KindOf<ModelParams> {
    using Gradient = BatchGradient;
    static ModelParams& weights(Model& m) { return m.params; }
    static const ModelParams& weights(const Model& m) { return m.params; }
};
template <>
struct KindOf<TransformerParams> {
    using Gradient = TransformerBatchGradient;
    static TransformerParams& weights(Model& m) { return m.transformer; }
    static const TransformerParams& weights(const Model& m) { return m.transformer; }
};

// The training objective reads every logit, as MarianMTModel's loss with labels does (docs/marian.md); a
// configured Transformer's forbidden outputs are removed only where a decode's log-probabilities are read.
ModelConfig objectiveConfig(const ModelConfig& c) {
    ModelConfig t = c;
    t.transformer.forbidden_outputs.clear();
    return t;
}

// The RNN kinds train every parameter (train/marian_start.h's overload keeps a Marian model's <pad> row at 0).
void dropFixedGradients(const Model&, ModelParams&) {}

template <class P>
double evaluateLossOf(const Model& model, const std::vector<TrainExample>& examples, int threads, int batch_size) {
    const P& weights = KindOf<P>::weights(model);
    typename KindOf<P>::Gradient bg(objectiveConfig(model.config), weights, threads);
    LossSum total;
    std::vector<const TrainExample*> batch;
    batch_size = std::max(1, batch_size);
    for (size_t i = 0; i < examples.size(); i += size_t(batch_size)) {
        batch.clear();
        for (size_t k = i; k < std::min(examples.size(), i + size_t(batch_size)); ++k) batch.push_back(&examples[k]);
        const LossSum s = bg.loss(weights, batch);
        total.sum += s.sum;
        total.tokens += s.tokens;
    }
    return total.tokens > 0 ? total.sum / double(total.tokens) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

TrainingMemory trainingMemory(int64_t parameters, const TrainOptions& options, bool validation) {
    const uint64_t copy = 4 * uint64_t(std::max<int64_t>(parameters, 0));
    const uint64_t extra_threads = uint64_t(std::max(1, options.threads) - 1);
    TrainingMemory m;
    m.weights = copy;
    m.gradients = copy * (1 + extra_threads * (validation ? 2 : 1));
    m.optimizer = options.optimizer == OptimizerKind::Adam ? 2 * copy : 0;
    m.snapshots = copy * (validation ? 2 : 1);  // the previous weights, and the best ones
    return m;
}

double evaluateLoss(const Model& model, const std::vector<TrainExample>& examples, int threads, int batch_size) {
    if (examples.empty()) return std::numeric_limits<double>::quiet_NaN();
    if (model.config.isTransformer()) return evaluateLossOf<TransformerParams>(model, examples, threads, batch_size);
    return evaluateLossOf<ModelParams>(model, examples, threads, batch_size);
}

namespace {

// Throws InputError saying which option value is wrong and why; the caller (CLI, GUI) names its own flag or field.
void checkOptions(const TrainOptions& o, const Model& model) {
    if (o.batch_size < 1)
        throw InputError("training options: the batch size must be at least 1 (got " + std::to_string(o.batch_size) +
                         ")");
    if (!(o.lr > 0) || !std::isfinite(o.lr))
        throw InputError("training options: the learning rate must be a positive number");
    if (o.dropout < 0 || o.dropout >= 1) throw InputError("training options: the dropout must be in [0, 1)");
    if (o.steps <= 0 && o.epochs < 1)
        throw InputError("training options: the number of epochs must be at least 1 when no step count is given");
    if (!(o.align_weight >= 0) || !std::isfinite(o.align_weight))
        throw InputError("training options: the alignment weight must be a number >= 0");
    if (o.warmup < 0) throw InputError("training options: the warmup must be a number of updates >= 0");
    if (!(o.label_smoothing >= 0 && o.label_smoothing < 1))
        throw InputError("training options: the label smoothing must be in [0, 1)");
}

// One call of trainModel: epochs of shuffled batches, each step a gradient, clipping and an optimizer update, with
// validation after every full epoch. Stops early on cancel or a non-finite loss / gradient. P is the kind's
// parameter set (KindOf).
template <class P>
class TrainingRun {
public:
    TrainingRun(Model& model, const std::vector<TrainExample>& train, const std::vector<TrainExample>& valid,
                const TrainOptions& o, const TrainCallbacks& cb)
        : model_(model),
          params_(KindOf<P>::weights(model)),
          train_(train),
          valid_(valid),
          o_(o),
          cb_(cb),
          per_epoch_((int64_t(train.size()) + o.batch_size - 1) / o.batch_size),
          total_(o.steps > 0 ? o.steps : per_epoch_ * o.epochs),
          bg_(objectiveConfig(model.config), params_, o.threads),
          opt_(o.optimizer, o.lr, params_),
          rng_(o.seed) {
        zerosLike(grads_, params_);
        opt_.setThreads(o.threads);
        prev_ = params_;
        order_.resize(train.size());
        for (size_t i = 0; i < order_.size(); ++i) order_[i] = int(i);
        batch_.reserve(size_t(o.batch_size));
    }

    TrainReport run() {
        t0_ = Clock::now();
        model_.engine_cache = EngineCache();  // decode/'s memo of the weights, which are about to change
        while (step_ < total_ && !stop_) runEpoch();
        return finish();
    }

private:
    void runEpoch() {
        if (o_.shuffle) shuffleOrder(order_, rng_);
        ++epoch_;
        epoch_sum_ = 0;
        epoch_align_ = 0;
        epoch_tokens_ = 0;
        epoch_steps_ = 0;
        for (int64_t bi = 0; bi < per_epoch_ && step_ < total_; ++bi) {
            if (mustStop()) {
                rep_.status = TrainStatus::Cancelled;
                stop_ = true;
                break;
            }
            if (!trainStep(bi)) {
                stop_ = true;
                break;
            }
        }
        if (epoch_tokens_ > 0) last_epoch_loss_ = epoch_sum_ / double(epoch_tokens_);
        if (epoch_tokens_ > 0 && guided()) last_epoch_align_ = epoch_align_ / double(epoch_tokens_);
        if (!valid_.empty() && epoch_steps_ == per_epoch_ && !stop_) {
            validate();
            const TrainProgress pr = progress(rep_.last_loss, secondsSince(t0_), true);
            if (cb_.progress) cb_.progress(pr);
            if (cb_.validated) showModel(cb_.validated, pr);
        }
    }

    // Batch bi of the epoch's order; false when training must stop (rep_ says why).
    bool trainStep(int64_t bi) {
        const Clock::time_point ts = Clock::now();
        const int64_t n = int64_t(train_.size());
        batch_.clear();
        for (int64_t k = bi * o_.batch_size; k < std::min<int64_t>(n, (bi + 1) * o_.batch_size); ++k)
            batch_.push_back(&train_[size_t(order_[size_t(k)])]);
        const uint64_t drop_seed = o_.seed * 0x9E3779B97F4A7C15ull + uint64_t(step_) + 1;
        const LossSum ls = bg_.compute(params_, batch_, o_.dropout, drop_seed, grads_, float(o_.align_weight),
                                       float(o_.label_smoothing));
        dropFixedGradients(model_, grads_);
        const double loss = ls.tokens > 0 ? ls.sum / double(ls.tokens) : 0.0;
        if (!std::isfinite(loss)) {
            params_ = prev_;  // the last parameters whose loss was finite
            return nonFinite("the training loss became " + std::string(std::isnan(loss) ? "NaN" : "infinite"));
        }
        if (!std::isfinite(clipGradNorm(grads_, o_.clip, o_.threads)))
            return nonFinite("the gradient became non-finite");
        prev_ = params_;
        opt_.setLr(scheduledLearningRate(o_.lr, step_ + 1, o_.warmup, o_.lr_decay));
        opt_.step(params_, grads_);
        ++step_;
        ++epoch_steps_;
        epoch_sum_ += ls.sum;
        epoch_align_ += ls.align_sum;
        step_align_ = ls.tokens > 0 ? ls.align_sum / double(ls.tokens) : 0.0;
        epoch_tokens_ += ls.tokens;
        rep_.target_tokens += ls.tokens;
        rep_.last_loss = loss;
        train_seconds_ += secondsSince(ts);
        const double el = secondsSince(t0_);
        if (cb_.progress && (el - last_report_ >= o_.progress_interval || step_ == total_)) {
            last_report_ = el;
            cb_.progress(progress(loss, el, false));
        }
        if (cb_.snapshot && cb_.snapshot_every > 0 && (step_ % cb_.snapshot_every == 0 || step_ == total_))
            showModel(cb_.snapshot, progress(loss, el, false));
        return true;
    }

    // Cancel or the gate's stop; a pause waits here (the gate's condition variable) after the paused callback.
    bool mustStop() {
        if (cb_.cancel && cb_.cancel->load()) return true;
        if (!cb_.gate) return false;
        return !cb_.gate->passOrWait([this] {
            if (cb_.paused) showModel(cb_.paused, progress(rep_.last_loss, secondsSince(t0_), false));
        });
    }

    // A callback reads the model as it is now. decode/ keeps per-model tables of the weights in engine_cache
    // (model.h), made by a decode in the callback: they are dropped before and after, as the weights change.
    void showModel(const std::function<void(const Model&, const TrainProgress&)>& f, const TrainProgress& pr) {
        model_.engine_cache = EngineCache();
        f(model_, pr);
        model_.engine_cache = EngineCache();
    }

    bool nonFinite(const std::string& what) {
        rep_.status = TrainStatus::NonFinite;
        rep_.message = what + " at step " + std::to_string(step_ + 1) +
                       " (a smaller learning rate or gradient clipping may help); the last good parameters were kept";
        return false;
    }

    void validate() {
        validated_step_ = step_;
        const double vl = evaluateLoss(model_, valid_, o_.threads, std::max(o_.batch_size, 64));
        last_valid_ = vl;
        if (std::isfinite(vl) && vl < best_loss_) {
            best_loss_ = vl;
            best_ = params_;
            best_step_ = step_;
        }
    }

    TrainProgress progress(double loss, double elapsed, bool after_validation) const {
        TrainProgress pr;
        pr.step = step_;
        pr.total_steps = total_;
        pr.epoch = epoch_;
        pr.loss = loss;
        pr.avg_loss = epoch_sum_ / double(std::max<int64_t>(1, epoch_tokens_));
        pr.tokens_per_second = train_seconds_ > 0 ? double(rep_.target_tokens) / train_seconds_ : 0;
        pr.elapsed_seconds = elapsed;
        pr.eta_seconds = step_ > 0 ? elapsed / double(step_) * double(total_ - step_) : 0;
        pr.valid_loss = last_valid_;
        pr.after_validation = after_validation;
        if (guided()) {
            pr.align_loss = step_align_;
            pr.avg_align_loss = epoch_align_ / double(std::max<int64_t>(1, epoch_tokens_));
        }
        return pr;
    }

    // The report, and model.params: the best validated parameters, else the last finite ones.
    TrainReport finish() {
        model_.engine_cache = EngineCache();
        rep_.steps = step_;
        rep_.epochs = double(step_) / double(per_epoch_);
        rep_.train_loss = last_epoch_loss_;
        rep_.train_align_loss = last_epoch_align_;
        rep_.seconds = secondsSince(t0_);
        rep_.tokens_per_second = train_seconds_ > 0 ? double(rep_.target_tokens) / train_seconds_ : 0;
        if (!allFinite(params_)) params_ = prev_;  // never hand back non-finite weights
        rep_.best_step = step_;
        if (!valid_.empty()) {
            if (validated_step_ != step_ || rep_.status != TrainStatus::Completed) validate();
            if (best_step_ >= 0) {
                params_ = best_;
                rep_.best_step = best_step_;
            }
            rep_.best_valid_loss = best_loss_;
            rep_.valid_loss = std::isfinite(best_loss_) ? best_loss_ : std::numeric_limits<double>::quiet_NaN();
        }
        return rep_;
    }

    bool guided() const { return o_.align_weight > 0; }

    Model& model_;
    P& params_;  // model_.params or model_.transformer, trained in place
    const std::vector<TrainExample>& train_;
    const std::vector<TrainExample>& valid_;
    const TrainOptions& o_;
    const TrainCallbacks& cb_;
    const int64_t per_epoch_, total_;  // steps per epoch, steps in all
    typename KindOf<P>::Gradient bg_;
    OptimizerT<P> opt_;
    std::mt19937_64 rng_;  // the shuffles
    P grads_, prev_, best_;
    std::vector<int> order_;  // this epoch's order of train_
    std::vector<const TrainExample*> batch_;
    TrainReport rep_;
    Clock::time_point t0_;
    double train_seconds_ = 0, last_report_ = -1e9;
    int64_t step_ = 0, epoch_steps_ = 0, epoch_tokens_ = 0;
    int epoch_ = 0;
    bool stop_ = false;
    double epoch_sum_ = 0, last_epoch_loss_ = std::numeric_limits<double>::quiet_NaN();
    double epoch_align_ = 0, step_align_ = 0, last_epoch_align_ = std::numeric_limits<double>::quiet_NaN();
    double best_loss_ = std::numeric_limits<double>::infinity(), last_valid_ = std::numeric_limits<double>::quiet_NaN();
    int64_t best_step_ = -1, validated_step_ = -1;
};

}  // namespace

TrainReport trainModel(Model& model, const std::vector<TrainExample>& train, const std::vector<TrainExample>& valid,
                       const TrainOptions& o, const TrainCallbacks& cb) {
    if (train.empty()) throw InputError("training data: no examples");
    checkOptions(o, model);
    if (model.config.isTransformer()) return TrainingRun<TransformerParams>(model, train, valid, o, cb).run();
    return TrainingRun<ModelParams>(model, train, valid, o, cb).run();
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
    ex.target.push_back(model.target_vocab.specials().start);
    const TokenizedText t = tokenizeTarget(model, target);
    ex.target.insert(ex.target.end(), t.ids.begin(), t.ids.end());
    return ex;
}

}  // namespace attnviz
