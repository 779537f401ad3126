// A beam search's tree (BeamResult) as numbers: what the window's beam view exports and `attnviz-cli decode --beam K
// --tree FILE` writes.
//
// CSV (RFC 4180, UTF-8, "\n" line ends; fields quoted as csvField in io/decode_json.h), one row per node in node order:
//   id,parent,step,token,token_id,log_prob,total_log_prob,kept,finished,forced,best_path
// parent is -1 for the root (id 0, the decoder's start token: <sos>, a Marian's <pad>; step 0, log-probs 0); kept, finished, forced and best_path are 1 or 0
// (kept: among the K best of its step, else pruned; best_path: on the path of the best finished hypothesis).
// Numbers as in the decode JSON (shortest text that reads back to the same double).
//
// JSON, keys in this order:
//   source_tokens, source_ids   the source with <sos>/<eos> (S tokens)
//   beam_width                  K
//   length_penalty              α the finished hypotheses were ranked with (0: by total log p; DecodeOptions)
//   nodes   [{id, parent, step, token, token_id, log_prob, total_log_prob, kept, finished, forced, best_path, row,
//            children}], row = the index into `rows` of the step that produced the node (-1 for the root)
//   nbest   [{node, tokens, token_ids, total_log_prob, score}] the finished hypotheses, best first by score: the total
//           log p, or total / L^α with a length penalty (beamRank in decode/decoding.h)
//   rows    [expansion][S] the attention rows: one per decoder step taken, shared by the children it made
#pragma once
#include "decode/decoding.h"
#include "model/vocab.h"

#include <string>

namespace attnviz {

std::string beamTreeToCsv(const BeamResult& tree, const Vocabulary& target_vocab);
// One line when `indent` < 0, else pretty-printed; no trailing newline.
std::string beamTreeToJsonText(const BeamResult& tree, const Vocabulary& target_vocab, const TokenizedText& source,
                               int beam_width, int indent = -1);

}  // namespace attnviz
