// Placeholder until the eval subcommand lands; replaced by its implementation.
#include "commands.h"

#include <cstdio>

namespace attnviz::cli {

int runEval(const std::vector<std::string>&) {
    std::fprintf(stderr, "attnviz-cli eval: not available in this build yet\n");
    return 1;
}

} // namespace attnviz::cli
