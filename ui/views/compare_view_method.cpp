// The compare view with an explanation method of A's own model as B (docs/explain.md, "Side by side"): B's rows are
// the row shares of |R|, and each row's Spearman correlation with A's attention goes in the table.
#include "views/compare_view.h"

#include "explain/measures.h"
#include "heatmap/utf8_text.h"
#include "state/decode_state.h"
#include "views/head_choice_box.h"

#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace attnviz::ui {

bool CompareView::setMethodB(ExplainMethod method) {
    const std::shared_ptr<const Model> a = state_ ? state_->model() : nullptr;
    if (!a) return false;
    const std::vector<ExplainMethod> methods = methodsFor(a->config);
    if (method == ExplainMethod::Attention || std::find(methods.begin(), methods.end(), method) == methods.end())
        return false;
    b_method_ = method;
    b_model_ = a;
    b_path_ = state_->modelPath();
    head_b_box_->setModelConfig(nullptr);  // B's rows are the method's, not a head's: nothing to choose
    error_.clear();
    fillModelBox();
    emit modelBChanged(b_path_);
    requestB();
    return true;
}

void CompareView::requestMethodB() {
    const quint64 generation = *generation_;
    auto a = std::make_shared<const DecodeResult>(state_->decode()->result);
    auto latest = generation_;
    ++pending_;
    ExplainOptions options;
    options.interventions = state_->decode()->interventions;  // B explains the model A was decoded with
    (void)QtConcurrent::run(
        &pool_, [this, latest, generation, a, model = state_->decodedModel(), method = *b_method_, options] {
            std::shared_ptr<DecodeResult> b;
            std::vector<double> rho;
            QString error;
            try {
                const Explanation e = explainDecode(*model, *a, method, options);
                const Mat shares = rowShares(e.values);
                b = std::make_shared<DecodeResult>(*a);
                for (Eigen::Index t = 0; t < shares.rows(); ++t)
                    b->attention[size_t(t)].assign(shares.row(t).data(), shares.row(t).data() + shares.cols());
                Mat attention(e.values.rows(), e.values.cols());
                for (Eigen::Index t = 0; t < attention.rows(); ++t)
                    for (Eigen::Index j = 0; j < attention.cols(); ++j)
                        attention(t, j) = a->attention[size_t(t)][size_t(j)];
                rho = rowSpearman(attention, e.values);
            } catch (const std::exception& e) {
                error = qs(e.what());
            }
            QMetaObject::invokeMethod(
                this,
                [this, latest, generation, a, b, rho, error] {
                    --pending_;
                    if (generation != latest->load()) return;  // a newer decode of A or another B came first
                    if (!b) return clearPair(tr("The method could not be computed: %1").arg(error));
                    rho_ = rho;
                    showPair(a, b);
                },
                Qt::QueuedConnection);
        });
}

}  // namespace attnviz::ui
