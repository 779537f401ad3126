// Where the compare view's B comes from (docs/gui.md, "Compare models"): a model file (setModelB), forced along A's
// output with the part of A's interventions it can take (requestB, decodeB); or an explanation method of A's own model
// (docs/explain.md, "Side by side"; setMethodB, requestMethodB): B's rows are the row shares of |R|, and each row's
// Spearman correlation with A's attention goes in the table. Both run off the UI thread (state/latest_wins.h): only
// B for the latest decode of A is shown.
#include "base/errors.h"
#include "views/compare_view.h"

#include "eval/compare_heads.h"
#include "explain/measures.h"
#include "heatmap/utf8_text.h"
#include "io/model_file.h"
#include "state/decode_state.h"
#include "state/latest_wins.h"
#include "views/head_choice_box.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace attnviz::ui {

bool CompareView::setModelB(const QString& path) {
    std::shared_ptr<const Model> model;
    try {
        model = std::make_shared<const Model>(loadModel(QDir::toNativeSeparators(path).toStdString()));
    } catch (const std::exception& e) {
        error_ = tr("Could not open the model %1: %2").arg(QDir::toNativeSeparators(path), qs(errorMessage(e)));
        updateSummary();
        return false;
    }
    const std::shared_ptr<const Model> a = state_ ? state_->model() : nullptr;
    if (a) {
        if (const std::string what = comparabilityProblem(*a, *model); !what.empty()) {
            error_ = tr("%1 cannot be compared with the open model: %2").arg(QFileInfo(path).fileName(), qs(what));
            updateSummary();
            return false;
        }
    }
    b_model_ = std::move(model);
    b_method_.reset();
    b_path_ = QFileInfo(path).absoluteFilePath();
    head_b_box_->setModelConfig(&b_model_->config);
    error_.clear();
    fillModelBox();
    emit modelBChanged(b_path_);
    requestB();
    return true;
}

DecodeResult CompareView::decodeB(const Model& b, const DecodeResult& a, const Interventions& iv) {
    DecodeOptions options;
    options.interventions = iv;
    return forcedDecode(b, TokenizedText{a.source_tokens, a.source_ids}, TokenizedText{a.target_tokens, a.target_ids},
                        options);
}

QString CompareView::interventionsNote(const Interventions& taken, const std::vector<std::string>& refused) {
    QStringList parts;
    if (!taken.empty()) parts << tr("B is decoded with the same interventions as A.");
    if (!refused.empty()) {
        QStringList reasons;
        for (const std::string& r : refused) reasons << qs(r);
        parts << tr("B cannot take %n of A's interventions, left out: %1", "", int(refused.size()))
                     .arg(reasons.join(QStringLiteral("; ")));
    }
    return parts.join(QLatin1Char(' '));
}

void CompareView::setActive(bool on) {
    if (on == active_) return;
    active_ = on;
    if (active_) requestB();
}

void CompareView::requestB() {
    runner_->cancelAll();  // whatever B is shown next, a running one is for an older decode of A
    if (!active_) return;  // the pair shown is redone when the view is activated
    const PrefixDecoding* decode = state_ ? state_->decode() : nullptr;
    if (!decode || decode->result.target_tokens.empty()) return clearPair(QString());
    if (!b_model_)
        return clearPair(
            tr("Choose model B above: a sibling of the open model or any model with the same "
               "vocabularies."));
    if (b_method_) return requestMethodB();
    if (const auto& a_model = state_->decodedModel(); a_model) {
        if (const std::string what = comparabilityProblem(*a_model, *b_model_); !what.empty())
            return clearPair(
                tr("%1 cannot be compared with the open model: %2").arg(QFileInfo(b_path_).fileName(), qs(what)));
    }
    struct DecodedB {
        std::shared_ptr<const DecodeResult> b;
        QString error, note;
    };
    auto a = std::make_shared<const DecodeResult>(decode->result);
    runner_->submit(
        [a, iv = decode->interventions, model = b_model_] {
            DecodedB out;
            try {
                std::vector<std::string> refused;
                const Interventions taken =
                    interventionsModelTakes(*model, iv, int(a->source_ids.size()), int(a->target_ids.size()), &refused);
                out.note = interventionsNote(taken, refused);
                out.b = std::make_shared<const DecodeResult>(decodeB(*model, *a, taken));
            } catch (const std::exception& e) {
                out.error = qs(errorMessage(e));
            }
            return out;
        },
        [this, a](DecodedB out) {
            if (!out.b) return clearPair(tr("Model B could not be decoded: %1").arg(out.error));
            b_interventions_note_ = out.note;
            showPair(a, out.b);
        });
}

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
    struct ExplainedB {
        std::shared_ptr<const DecodeResult> b;
        std::vector<double> rho;
        QString error;
    };
    auto a = std::make_shared<const DecodeResult>(state_->decode()->result);
    ExplainOptions options;
    options.interventions = state_->decode()->interventions;  // B explains the model A was decoded with
    runner_->submit(
        [a, model = state_->decodedModel(), method = *b_method_, options] {
            ExplainedB out;
            try {
                const Explanation e = explainDecode(*model, *a, method, options);
                const Mat shares = rowShares(e.values);
                auto b = std::make_shared<DecodeResult>(*a);
                for (Eigen::Index t = 0; t < shares.rows(); ++t)
                    b->attention[size_t(t)].assign(shares.row(t).data(), shares.row(t).data() + shares.cols());
                Mat attention(e.values.rows(), e.values.cols());
                for (Eigen::Index t = 0; t < attention.rows(); ++t)
                    for (Eigen::Index j = 0; j < attention.cols(); ++j)
                        attention(t, j) = a->attention[size_t(t)][size_t(j)];
                out.rho = rowSpearman(attention, e.values);
                out.b = std::move(b);
            } catch (const std::exception& e) {
                out.error = qs(errorMessage(e));
            }
            return out;
        },
        [this, a](ExplainedB out) {
            if (!out.b) return clearPair(tr("The method could not be computed: %1").arg(out.error));
            rho_ = std::move(out.rho);
            showPair(a, out.b);
        });
}

}  // namespace attnviz::ui
