// Placeholder until the render subcommand lands; replaced by its implementation.
#include "commands.h"

#include <cstdio>

namespace attnviz::cli {

int runRender(const std::vector<std::string>&) {
    std::fprintf(stderr, "attnviz-cli render: not available in this build yet\n");
    return 1;
}

} // namespace attnviz::cli
