// Placeholder until the train subcommand lands; replaced by its implementation.
#include "commands.h"

#include <cstdio>

namespace attnviz::cli {

int runTrain(const std::vector<std::string>&) {
    std::fprintf(stderr, "attnviz-cli train: not available in this build yet\n");
    return 1;
}

} // namespace attnviz::cli
