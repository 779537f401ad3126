// attnviz-cli info on a Hugging Face Marian folder (docs/marian.md): family, languages, sizes, parameter count,
// vocabulary sizes, forbidden ids, which weights file and dtype.
#pragma once
#include "model/model.h"

#include <string>

namespace attnviz::cli {

// Prints the text form, or one JSON object with `json`; `vocab` lists the vocabularies too.
void printMarianInfo(const std::string& path, const Model& model, bool json, bool vocab);

}  // namespace attnviz::cli
