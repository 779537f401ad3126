// Comparisons as numbers in files: the summary object of `attnviz-cli compare --json` (per sentence and on average),
// and one compared sentence as JSON or CSV, as the window's compare view and `attnviz-cli render --with` export it
// (docs/cli.md).
//
// Summary keys: rows, tv, js, argmax_agreement, entropy_a, entropy_b and, with gold links, aer_a and aer_b (the means
// of comparisonSummary).
// One comparison as JSON: model, with (the names given), log_base "e", source_tokens, target_tokens, the summary
// keys, per_row (T objects: target, tv, js, argmax_a, argmax_b, agree, entropy_a, entropy_b; an argmax is a source
// column, <sos> = 0), attention_a, attention_b and difference (B − A), each T rows of S. Floats are the doubles
// equal to the engine's floats, as in io/decode_json.h.
// As CSV (RFC 4180, "\n" line ends): the header `target,tv,js,argmax_a,argmax_b,agree,entropy_a,entropy_b`, then one
// line per target token (agree is 1 or 0); numbers as formatFloat writes them.
// Which cross-attention a side compares (eval/compare_heads.h), as the keys head_a / head_b: null for the decode's
// `attention`, else {"layer": L, "head": H} counted from 1, "head": "mean" for the mean over the layer's heads.
#pragma once
#include "eval/compare.h"
#include "eval/compare_heads.h"
#include "io/json_text.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace attnviz {

nlohmann::ordered_json comparisonSummaryJson(const AttentionComparisonCounts& counts);
nlohmann::ordered_json headChoiceJson(const AttentionView& view);

// The keys of one comparison, written into an object the caller has begun, piece by piece (io/json_text.h): the
// three T × S matrices cost a buffer, not a tree. `a` and `b` as compareAttention takes them (InputError when their
// shapes differ); `gold` as there.
void writeComparisonMembers(JsonWriter& w, const DecodeResult& a, const DecodeResult& b, const std::string& a_name,
                            const std::string& b_name, const GoldAlignment* gold = nullptr);
std::string comparisonToCsv(const DecodeResult& a, const DecodeResult& b);

}  // namespace attnviz
