// attnviz-cli convert: rewrites a model file with its weights in another floating-point type (F32, F16 or BF16),
// everything else (config, vocabularies, metadata) unchanged. Narrowing rounds to nearest, ties to even.
#include "args.h"
#include "command_run.h"
#include "commands.h"
#include "model_flags.h"

#include "io/marian_writer.h"
#include "io/model_file.h"

#include <cstdio>

namespace attnviz::cli {

int runConvert(const std::vector<std::string>& args) {
    return runCommand("convert", [&] {
        ArgParser p("convert", "--dtype f32|f16|bf16 IN OUT",
                    "Write model IN to OUT with its weights stored as f32, f16 (IEEE half) or bf16 (bfloat16),\n"
                    "rounded to nearest, ties to even; config, vocabularies and metadata are kept. Loading widens\n"
                    "the weights back to float32. A weight beyond f16's range (|x| > 65504) is an error. A Hugging Face\n"
                    "Marian folder is written as a folder (OUT replaced whole).");
        std::string dtype;
        std::vector<std::string> paths;
        p.choice("--dtype", &dtype, {"f32", "f16", "bf16"}, "the weight type of OUT").required();
        p.positionals(&paths, "IN OUT", "the model to read and the file to write (atomically: OUT may be IN)", 2, 2);
        if (!p.parse(args)) return 0;

        const std::string &in = paths[0], &out = paths[1];
        const Model model = loadModel(in);
        if (model.marian)  // a Hugging Face Marian folder is written as one (OUT may be IN: it is replaced whole)
            saveMarianFolder(model, out, weightTypeFromFlag(dtype), true);
        else
            saveModel(model, out, weightTypeFromFlag(dtype));
        std::fprintf(stderr, "%s: %lld weights written as %s\n", out.c_str(),
                     static_cast<long long>(model.parameterCount()), dtype.c_str());
        return 0;
    });
}

}  // namespace attnviz::cli
