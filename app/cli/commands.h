// attnviz-cli subcommands (docs/cli.md). Each returns the process exit code: 0 success, 2 bad usage, 1 other failure,
// after printing one clear line on stderr naming the file / line / flag at fault.
#pragma once
#include <string>
#include <vector>

namespace attnviz::cli {

int runInfo(const std::vector<std::string>& args);     // cmd_info.cpp
int runDecode(const std::vector<std::string>& args);   // cmd_decode.cpp
int runRender(const std::vector<std::string>& args);   // cmd_render.cpp
int runTrain(const std::vector<std::string>& args);    // cmd_train.cpp
int runEval(const std::vector<std::string>& args);     // cmd_eval.cpp
int runConvert(const std::vector<std::string>& args);  // cmd_convert.cpp
int runCompare(const std::vector<std::string>& args);  // cmd_compare.cpp
int runExplain(const std::vector<std::string>& args);  // cmd_explain.cpp

}  // namespace attnviz::cli
