// A restricted unpickler for the pickles of PyTorch's `torch.save` (protocol 2), with no knowledge of models.
// A pickle is a program for a stack machine; this one runs only the opcodes such files use and refers to only the
// globals they name, and it never calls anything: GLOBAL, REDUCE, BUILD and BINPERSID make nodes of a value tree
// (`Global`, `Call`, a Dict's `state`, `PersistentId`) that the caller reads (io/torch_checkpoint). Any other opcode
// or global is refused with its name and byte offset before anything else happens.
//   opcodes  PROTO STOP MARK EMPTY_{DICT,LIST,TUPLE} TUPLE TUPLE1-3 BININT BININT1 BININT2 LONG1 BINFLOAT NONE
//            NEWTRUE NEWFALSE BINUNICODE BINSTRING SHORT_BINSTRING GLOBAL REDUCE BUILD BINPERSID BINPUT LONG_BINPUT
//            BINGET LONG_BINGET SETITEM SETITEMS APPEND APPENDS
//   globals  the few a state dict needs, each call's arguments checked (io/torch_pickle_allowed.h)
// Every value is made once, in time and memory linear in the pickle, and kept in the Pickle's arena; BINGET shares a
// node instead of copying it, so a pickle can refer to a value many times (or to itself) at no cost.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::torch_pickle {

enum class Kind {
    None,
    Bool,          // integer: 0 or 1
    Int,           // integer
    BigInt,        // LONG1 wider than 64 bits: text holds its little-endian two's-complement bytes
    Float,         // real
    String,        // text (BINUNICODE: valid UTF-8; BINSTRING: the bytes)
    Tuple,         // items
    List,          // items
    Dict,          // items: key, value, key, value, ... in the order set (a repeated key is kept twice);
                   // ordered: made by collections.OrderedDict; state: what BUILD gave it, or null
    Global,        // text: "module.name", one of the allowed globals
    PersistentId,  // items[0]: the id BINPERSID was given (torch: a tuple naming a storage)
    Call,          // text: the global called ("torch._utils._rebuild_tensor_v2"); items: its arguments
};
std::string_view kindName(Kind k);  // "tuple", "int", ... as messages write a value's type

struct Value {
    Kind kind = Kind::None;
    int64_t integer = 0;
    double real = 0;
    bool ordered = false;
    std::string text;
    std::vector<const Value*> items;
    const Value* state = nullptr;
    uint64_t offset = 0;  // the byte (in the whole input) of the opcode that made the value
};

// The most values (and memo entries) one pickle may make, and the deepest its stack may grow: a state dict needs
// about 30 per tensor, so some 30,000 tensors fit (opus-mt models have 260), and a hostile pickle cannot take more
// than about 100 MB however long it is.
inline constexpr uint64_t kMaxValues = 1'000'000;
inline constexpr uint64_t kMaxStack = 1'000'000;

// What unpickle returns: the root value and the arena that owns every node.
class Pickle {
public:
    const Value& root() const { return *root_; }
    uint64_t end() const { return end_; }  // the offset just after STOP

private:
    friend class Machine;
    std::deque<Value> nodes_;
    const Value* root_ = nullptr;
    uint64_t end_ = 0;
};

// Copies up to n bytes at `offset` into dst and returns how many it copied (fewer only at the end of the input).
using ReadAt = std::function<size_t(uint64_t offset, uint8_t* dst, size_t n)>;

// Runs one pickle starting at `begin`, reading no byte at or after `limit`. Errors are ModelError
// "NAME: WHERE, byte N: what" (N counted in the whole input, WHERE says which pickle, e.g. "data.pkl").
Pickle unpickle(const ReadAt& read, uint64_t begin, uint64_t limit, const std::string& name, const std::string& where);
// The same over bytes in memory (offsets counted from `data`).
Pickle unpickle(const uint8_t* data, size_t size, const std::string& name, const std::string& where);

}  // namespace attnviz::torch_pickle
