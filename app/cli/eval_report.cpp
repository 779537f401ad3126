#include "eval_report.h"

#include "base/json_number.h"
#include "base/utf8.h"
#include "eval/compare_heads.h"
#include "eval/compare_json.h"
#include "io/decode_json.h"
#include "io/json_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace attnviz::cli {
namespace {

nlohmann::ordered_json headsJson(const std::vector<HeadScore>& heads) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const HeadScore& h : heads)
        out.push_back({{"kind", std::string(headKindName(h.head.kind))},
                       {"layer", h.head.layer},
                       {"head", h.head.head},
                       {"bleu_off", jsonNumber<nlohmann::ordered_json>(h.bleu_off)},
                       {"mean_log_prob_off", jsonNumber<nlohmann::ordered_json>(h.mean_log_prob_off)},
                       {"importance", jsonNumber<nlohmann::ordered_json>(h.importance)}});
    return out;
}

const char* specialsName(const AlignOptions& o) { return o.include_specials ? "include" : "exclude"; }

// --align-mode all: one object per mode, with the keys `aer` has beside it.
nlohmann::ordered_json modesJson(const AlignSettings& settings, const std::vector<AerCounts>& modes) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (size_t m = 0; m < modes.size(); ++m) {
        nlohmann::ordered_json j;
        j["align_mode"] = alignModeName(settings.modes[m]);
        j["align_specials"] = specialsName(settings.modes[m]);
        j["aer"] = modes[m].aer();
        j["alignment_precision"] = modes[m].precision();
        j["alignment_recall"] = modes[m].recall();
        out.push_back(std::move(j));
    }
    return out;
}

// --explain: {"<method>": {"aer", "alignment_precision", "alignment_recall", "aopc", "occlusion_spearman"}, …,
// "random": {"aopc"}} (the alignment keys only when lines have gold links).
nlohmann::ordered_json explainJson(const LineCounts& total, const ExplainRequest& explain) {
    nlohmann::ordered_json out;
    const bool aligned = total.counts.aligned_lines > 0;
    for (size_t m = 0; m < explain.methods.size(); ++m) {
        const ExplainMeasures& e = total.explain.methods[m];
        nlohmann::ordered_json j;
        if (aligned) {
            j["aer"] = e.aer.aer();
            j["alignment_precision"] = e.aer.precision();
            j["alignment_recall"] = e.aer.recall();
        }
        j["aopc"] = jsonNumber<nlohmann::ordered_json>(e.aopc.mean());
        j["occlusion_spearman"] = jsonNumber<nlohmann::ordered_json>(e.occlusion_spearman.mean());
        out[methodInfo(explain.methods[m]).name] = std::move(j);
    }
    out["random"] = {{"aopc", jsonNumber<nlohmann::ordered_json>(total.explain.random.aopc.mean())}};
    return out;
}

// `v` with 4 decimals right-aligned in `width`, or "-" where the JSON has null (a mean over no rows: every line too
// short for a Spearman correlation).
std::string measureText(double v, int width) {
    char buf[64];
    if (std::isfinite(v))
        std::snprintf(buf, sizeof buf, "%*.4f", width, v);
    else
        std::snprintf(buf, sizeof buf, "%*s", width, "-");
    return buf;
}

void printExplainText(const LineCounts& total, const ExplainRequest& explain) {
    const bool aligned = total.counts.aligned_lines > 0;
    std::printf("explanations    %s  %8s  %18s\n", aligned ? "     aer" : "", "aopc", "occlusion_spearman");
    for (size_t m = 0; m < explain.methods.size(); ++m) {
        const ExplainMeasures& e = total.explain.methods[m];
        std::printf("  %-12s  ", methodInfo(explain.methods[m]).name);
        if (aligned) std::printf("%s", measureText(e.aer.aer(), 8).c_str());
        std::printf("  %s  %s\n", measureText(e.aopc.mean(), 8).c_str(),
                    measureText(e.occlusion_spearman.mean(), 18).c_str());
    }
    std::printf("  %-12s  %s  %s  (a random order of the words, seeded: the floor)\n", "random",
                aligned ? "        " : "", measureText(total.explain.random.aopc.mean(), 8).c_str());
}

// How the links were read, beside the AER: the --merge sides and the --head choice when given.
void addReadingJson(nlohmann::ordered_json& j, const AlignSettings& settings) {
    if (settings.align.words.merge != MergeSides::None)
        j["merge"] = std::string(mergeSidesName(settings.align.words.merge));
    if (!settings.head.isDefault()) j["align_head"] = headChoiceJson(settings.head);
}

}  // namespace

void printEvalJson(const EvalReport& r, const LineCounts& line_total, const AlignSettings& settings, const EvalRun& run,
                   const ExplainRequest& explain, const Interventions& iv, const std::vector<HeadScore>* heads) {
    const EvalCounts& total = line_total.counts;
    nlohmann::ordered_json j;
    j["exact_match"] = r.exact_match;
    j["token_accuracy"] = r.token_accuracy;
    j["bleu"] = r.bleu;
    j["chrf"] = r.chrf;
    j["mean_entropy"] = r.mean_entropy;
    if (r.aer) {
        j["aer"] = *r.aer;
        j["alignment_precision"] = *r.alignment_precision;
        j["alignment_recall"] = *r.alignment_recall;
        j["align_mode"] = alignModeName(settings.align);
        j["align_specials"] = specialsName(settings.align);
        addReadingJson(j, settings);
        j["predicted_links"] = total.alignment.predicted;
        j["sure_links"] = total.alignment.gold;
        j["possible_links"] = total.alignment.possible;
        if (!settings.modes.empty()) j["align_modes"] = modesJson(settings, line_total.modes);
    }
    j["beam"] = run.beam;
    if (run.length_penalty != 0) j["length_penalty"] = run.length_penalty;
    if (!iv.empty()) j["interventions"] = interventionsToJson(iv);
    j["lines"] = total.lines;
    j["aligned_lines"] = total.aligned_lines;
    j["exact_lines"] = total.exact;
    j["reference_tokens"] = total.tokens.positions;
    j["correct_tokens"] = total.tokens.correct;
    j["output_tokens"] = total.output_tokens;
    j["attention_rows"] = total.attention_rows;
    j["model"] = run.model_path;
    j["data"] = run.data_path;
    j["seconds"] = run.seconds;
    if (!explain.methods.empty()) j["explain"] = explainJson(line_total, explain);
    if (heads) j["heads"] = headsJson(*heads);
    std::printf("%s\n", jsonText(j).c_str());
}

namespace {

// The alignment lines of the readable report: the chosen mode's AER, precision and recall, then any further modes.
void printAlignmentText(const EvalReport& r, const LineCounts& line_total, const AlignSettings& settings) {
    const AerCounts& a = line_total.counts.alignment;
    std::printf(
        "aer             %.4f   (%s, specials %sd: %lld predicted links, %lld sure gold links of %lld possible)\n",
        *r.aer, alignModeName(settings.align).c_str(), specialsName(settings.align),
        static_cast<long long>(a.predicted), static_cast<long long>(a.gold), static_cast<long long>(a.possible));
    const MergeSides merge = settings.align.words.merge;
    if (merge != MergeSides::None || !settings.head.isDefault())
        std::printf("                read off %s%s%s\n", headChoiceText(settings.head).c_str(),
                    merge == MergeSides::None ? "" : ", pieces merged into words: ",
                    merge == MergeSides::None ? "" : std::string(mergeSidesName(merge)).c_str());
    std::printf("alignment_precision %.4f   (%lld predicted links possible)\n", *r.alignment_precision,
                static_cast<long long>(a.overlap_possible));
    std::printf("alignment_recall    %.4f   (%lld sure links predicted)\n", *r.alignment_recall,
                static_cast<long long>(a.overlap));
    for (size_t m = 0; m < settings.modes.size(); ++m) {
        const AerCounts& c = line_total.modes[m];
        std::printf("  %-16s specials %sd: aer %.4f  precision %.4f  recall %.4f\n",
                    alignModeName(settings.modes[m]).c_str(), specialsName(settings.modes[m]), c.aer(), c.precision(),
                    c.recall());
    }
}

}  // namespace

void printEvalText(const EvalReport& r, const LineCounts& line_total, const AlignSettings& settings, const EvalRun& run,
                   const ExplainRequest& explain) {
    const EvalCounts& total = line_total.counts;
    std::printf("model           %s\n", printable(run.model_path).c_str());  // a sibling's file name with --score
    std::printf(
        "data            %s: %lld lines (%lld with alignments), %lld reference tokens, %lld output tokens (<eos> "
        "included)\n",
        printable(run.data_name).c_str(), static_cast<long long>(total.lines),
        static_cast<long long>(total.aligned_lines), static_cast<long long>(total.tokens.positions),
        static_cast<long long>(total.output_tokens));
    if (run.beam > 1)
        std::printf("decoding        beam search of width %d (the best hypothesis%s)\n", run.beam,
                    run.length_penalty != 0 ? ", ranked by total log p / length^A, --length-penalty" : "");
    std::printf("exact_match     %.4f   (%lld of %lld lines)\n", r.exact_match, static_cast<long long>(total.exact),
                static_cast<long long>(total.lines));
    std::printf("token_accuracy  %.4f   (%lld of %lld reference positions)\n", r.token_accuracy,
                static_cast<long long>(total.tokens.correct), static_cast<long long>(total.tokens.positions));
    std::printf("bleu            %.2f    (corpus BLEU-4, %%)\n", r.bleu);
    std::printf("chrf            %.2f    (corpus chrF, character 1- to 6-grams, beta 2, %%)\n", r.chrf);
    std::printf("mean_entropy    %.4f   nats over %lld attention rows\n", r.mean_entropy,
                static_cast<long long>(total.attention_rows));
    if (r.aer) printAlignmentText(r, line_total, settings);
    if (!explain.methods.empty()) printExplainText(line_total, explain);
    std::printf("time            %.2f s\n", run.seconds);
}

void printHeadsText(const std::vector<HeadScore>* scores, const Interventions& iv, double bleu) {
    if (!iv.empty()) std::printf("interventions   %s\n", interventionsToJson(iv).dump().c_str());
    if (!scores) return;
    const std::vector<HeadScore> sorted = headsByBleuLost(*scores);
    std::printf("heads           each head off in turn (0-based), by BLEU lost:\n");
    std::printf("  %-8s %5s %4s  %8s  %8s  %12s  %10s\n", "kind", "layer", "head", "bleu_off", "lost", "mean_logp_off",
                "importance");
    for (const HeadScore& h : sorted)
        std::printf("  %-8s %5d %4d  %8.2f  %8.2f  %12.4f  %10.4f\n", std::string(headKindName(h.head.kind)).c_str(),
                    h.head.layer, h.head.head, h.bleu_off, bleu - h.bleu_off, h.mean_log_prob_off, h.importance);
}

}  // namespace attnviz::cli
