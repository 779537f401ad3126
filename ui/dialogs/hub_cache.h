// The Marian folders in the Hugging Face cache (docs/marian.md "Getting a model onto this machine"), for the model
// library: one line per repository, read from its newest snapshot's config.json and tokenizer_config.json only (no
// weights, no vocabulary), so that a cache with ten thousand snapshot folders lists in well under a second.
#pragma once
#include <QString>

#include <vector>

namespace attnviz::ui {

struct HubModel {
    QString repository;                // "Helsinki-NLP/opus-mt-en-zh"
    QString source_lang, target_lang;  // tokenizer_config.json's, else the repository name's "-en-zh" ending; may be ""
    QString path;                      // the snapshot folder opened
};

// $HF_HUB_CACHE when set, else $HF_HOME/hub, else ~/.cache/huggingface/hub (whether it exists or not).
QString hubCacheDir();

// Each models--OWNER--NAME folder of `cache` whose snapshot (refs/main's when it names one, else the newest by
// modification time) has a config.json with "model_type": "marian", sorted by repository name. Folders that are not
// such snapshots are skipped silently: the cache holds other models too.
std::vector<HubModel> scanHubCache(const QString& cache);

}  // namespace attnviz::ui
