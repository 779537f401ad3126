// Hugging Face MarianMT folders (docs/marian.md): a save_pretrained folder or a Hugging Face cache snapshot, whose
// files may be symbolic links into the repository's blobs/. Read into a Model whose Transformer is configured the
// Marian way, with its SentencePiece models and its vocabulary's own special ids.
#pragma once
#include "io/marian_config.h"
#include "model/model.h"

#include <string>

namespace attnviz {

// Whether `path` names a Marian folder rather than an attnviz file: a directory, or a file named config.json.
bool isMarianPath(const std::string& path);
// The folder of such a path (the directory itself, or config.json's parent).
std::string marianFolderOf(const std::string& path);

// Everything but the weights: the JSON files, vocab.json, the .spm files' presence and the weights file's header
// (its name and dtype). Fast enough for a library listing. Throws ModelError "FOLDER/FILE: what".
struct MarianSummary {
    MarianSettings settings;
    MarianOrigin origin;
    int64_t parameter_count = 0;
};
MarianSummary readMarianSummary(const std::string& path);

// Reads the whole folder. Throws ModelError naming the file and what is wrong.
Model loadMarianFolder(const std::string& path);

// "Helsinki-NLP/opus-mt-en-zh" for a folder inside a Hugging Face cache (…/models--Helsinki-NLP--opus-mt-en-zh/
// snapshots/<hash>), else "".
std::string hubRepositoryName(const std::string& folder);

}  // namespace attnviz
