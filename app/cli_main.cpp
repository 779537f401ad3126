// attnviz-cli: dispatches to the subcommands of spec/cli.md.
#include "attnviz_version.h"
#include "cli/commands.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Subcommand {
    const char* name;
    const char* summary;
    int (*run)(const std::vector<std::string>&);
};

const Subcommand kSubcommands[] = {
    {"info", "print a model's config, vocabulary sizes, parameter count, siblings and tensors", attnviz::cli::runInfo},
    {"decode", "decode a sentence (greedy, beam or forced) and print tokens, attention and log-probs",
     attnviz::cli::runDecode},
    {"render", "write the attention heatmap as PNG, SVG, PDF, CSV or JSON", attnviz::cli::runRender},
    {"train", "train a model on a TSV corpus", attnviz::cli::runTrain},
    {"eval", "report exact match, token accuracy, BLEU, attention entropy and AER on a TSV corpus",
     attnviz::cli::runEval},
    {"convert", "rewrite a model with its weights as f32, f16 or bf16", attnviz::cli::runConvert},
};

void printUsage(FILE* out) {
    std::fprintf(out,
                 "usage: attnviz-cli COMMAND [options]   (attnviz-cli COMMAND --help for its options)\n\ncommands:\n");
    for (const Subcommand& s : kSubcommands) std::fprintf(out, "  %-8s %s\n", s.name, s.summary);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        printUsage(stderr);
        return 2;
    }
    const std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        printUsage(stdout);
        return 0;
    }
    if (name == "--version") {
        std::printf("attnviz-cli %s\n", ATTNVIZ_VERSION);
        return 0;
    }
    for (const Subcommand& s : kSubcommands) {
        if (name == s.name) return s.run(std::vector<std::string>(argv + 2, argv + argc));
    }
    std::fprintf(stderr, "attnviz-cli: unknown command '%s' (expected info, decode, render, train, eval or convert)\n",
                 name.c_str());
    return 2;
}
