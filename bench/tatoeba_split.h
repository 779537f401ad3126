// The Tatoeba test split and one shipped Tatoeba model, as the corpus benchmarks read them: the split made by
// sample_models/corpora/tatoeba.py under $ATTNVIZ_CORPORA (else the source tree's build/corpora), read with the
// model's tokenizers. A missing file is an error the benchmark reports with SkipWithError.
#pragma once
#include "io/corpus.h"
#include "io/model_file.h"

#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

namespace attnviz::bench {

struct TatoebaSplit {
    std::shared_ptr<const Model> model;
    Corpus corpus;
    std::string error;  // not empty: the model or the split could not be read, and how to make the split
};

inline TatoebaSplit readTatoebaSplit(const std::string& model_file) {
    TatoebaSplit out;
    const char* env = std::getenv("ATTNVIZ_CORPORA");
    const std::string corpora = env ? env : std::string(ATTNVIZ_SOURCE_DIR) + "/build/corpora";
    try {
        out.model =
            std::make_shared<const Model>(loadModel(std::string(ATTNVIZ_SOURCE_DIR) + "/sample_models/" + model_file));
        CorpusOptions o;
        o.tokenizer = out.model->config.tokenizer;
        out.corpus = readCorpus(corpora + "/tatoeba/test.tsv", o);
    } catch (const std::exception& e) {
        out.error =
            std::string(e.what()) + " (make the split: python3 sample_models/corpora/tatoeba.py --out build/corpora)";
    }
    return out;
}

}  // namespace attnviz::bench
