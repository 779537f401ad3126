// A small option parser for the attnviz-cli subcommands.
//
//   ArgParser p("decode", "--model MODEL [options] SENTENCE", "Decode a sentence and print tokens, attention, log-probs.");
//   std::string model;  bool json = false;  int beam = 1;
//   p.option("--model", &model, "MODEL", "the model file (.safetensors)").required();
//   p.flag("--json", &json, "print the decode object as JSON");
//   p.option("--beam", &beam, "K", "beam width (1 = greedy)", 1, 1000);
//   p.positionals(&words, "SENTENCE", "the source sentence (several words are joined with spaces)");
//   if (!p.parse(args)) return 0;          // --help was given: the help text is already on stdout
//   if (p.seen("--beam")) ...
//
// Accepted forms: `--flag value`, `--flag=value`, boolean `--flag`, positionals anywhere, `--` ends the options
// (everything after it is positional), `-h` / `--help`. A value is always taken verbatim, even if it starts with '-'
// (`--lr -1`, `--target -`). A lone `-` is a positional. An option given twice keeps the last value (a
// repeatable one keeps every value).
//
// Every mistake throws UsageError whose message names the flag: "--beam: expected an integer from 1 to 1000,
// got \"x\"", "unknown option --bem", "--model: missing value", "--json takes no value". Subcommands turn it into
// exit code 2 (see command_run.h, runCommand).
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::cli {

// Bad usage: exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `value` as a whole integer (an optional leading '+') in [min, max]; a UsageError naming option `name` otherwise.
// The parser's own integer options read their values with it; an option holding several numbers reads each part.
int parseIntegerValue(const std::string& name, const std::string& value, int min, int max);
// The same for a finite number in [min, max].
double parseNumberValue(const std::string& name, const std::string& value, double min, double max);

class ArgParser {
public:
    // `command` is the subcommand name ("decode"); `synopsis` what follows it in the usage line;
    // `description` one or more lines printed under the usage line by --help.
    ArgParser(std::string command, std::string synopsis, std::string description = {});

    // Chainable handle to the last declared option.
    class Handle {
    public:
        Handle& required();  // parse() throws "missing required option --model" when absent
    private:
        friend class ArgParser;
        Handle(ArgParser& p, size_t i) : parser_(p), index_(i) {}
        ArgParser& parser_;
        size_t index_;
    };

    // A boolean flag: set to true when present. `--flag=...` is an error.
    Handle flag(std::string name, bool* out, std::string help);
    // Options taking one value. Numbers must be the whole value and lie in [min, max].
    Handle option(std::string name, std::string* out, std::string metavar, std::string help);
    Handle option(std::string name, int* out, std::string metavar, std::string help,
                  int min = std::numeric_limits<int>::min(), int max = std::numeric_limits<int>::max());
    Handle option(std::string name, int64_t* out, std::string metavar, std::string help,
                  int64_t min = std::numeric_limits<int64_t>::min(), int64_t max = std::numeric_limits<int64_t>::max());
    Handle option(std::string name, uint64_t* out, std::string metavar, std::string help);
    Handle option(std::string name, double* out, std::string metavar, std::string help,
                  double min = -std::numeric_limits<double>::infinity(),
                  double max = std::numeric_limits<double>::infinity());
    // An option that may be given several times: `each` gets every value in order (and throws UsageError naming
    // the option for a bad one).
    Handle repeatable(std::string name, std::string metavar, std::string help,
                      std::function<void(const std::string&)> each);
    // A value from a fixed list ("--score additive|dot|scaled_dot|general"); anything else is a UsageError listing them.
    Handle choice(std::string name, std::string* out, std::vector<std::string> choices, std::string help);
    // Positional arguments collected in order; parse() checks min_count / max_count (max_count < 0 = unlimited).
    void positionals(std::vector<std::string>* out, std::string metavar, std::string help, int min_count = 0,
                     int max_count = -1);

    // Parses the arguments after the subcommand name. Returns false if --help / -h was given (the help text has been
    // printed to stdout; nothing else is checked), true otherwise. Throws UsageError.
    bool parse(const std::vector<std::string>& args);
    // Whether the option appeared on the command line (after parse).
    bool seen(std::string_view name) const;

    const std::string& command() const { return command_; }
    std::string usageLine() const;  // "usage: attnviz-cli decode --model MODEL [options] SENTENCE"
    std::string helpText() const;   // usage line, description, one line per option

private:
    struct Spec {
        std::string name;
        std::string metavar;  // empty for boolean flags
        std::string help;
        bool takes_value = false;
        bool required = false;
        bool seen = false;
        std::function<void(const std::string&)> set;  // parses and stores the value; throws UsageError
    };
    Handle add(Spec spec);
    Spec* find(std::string_view name);

    std::string command_, synopsis_, description_;
    std::vector<Spec> specs_;
    std::vector<std::string>* positionals_ = nullptr;
    std::string positional_metavar_, positional_help_;
    int positional_min_ = 0, positional_max_ = -1;
};

}  // namespace attnviz::cli
