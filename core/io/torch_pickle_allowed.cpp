// What the restricted unpickler allows (torch_pickle_allowed.h): the globals, the calls' signatures, and the names
// of the opcodes it refuses.
#include "io/torch_pickle_allowed.h"

#include <algorithm>
#include <cstdio>

namespace attnviz::torch_pickle {

namespace {

// Every opcode of pickle protocols 0 to 5, so that a refused one is named.
struct OpName {
    uint8_t code;
    const char* name;
};
constexpr OpName kOpNames[] = {
    {'(', "MARK"},
    {'.', "STOP"},
    {'0', "POP"},
    {'1', "POP_MARK"},
    {'2', "DUP"},
    {'F', "FLOAT"},
    {'I', "INT"},
    {'J', "BININT"},
    {'K', "BININT1"},
    {'L', "LONG"},
    {'M', "BININT2"},
    {'N', "NONE"},
    {'P', "PERSID"},
    {'Q', "BINPERSID"},
    {'R', "REDUCE"},
    {'S', "STRING"},
    {'T', "BINSTRING"},
    {'U', "SHORT_BINSTRING"},
    {'V', "UNICODE"},
    {'X', "BINUNICODE"},
    {'a', "APPEND"},
    {'b', "BUILD"},
    {'c', "GLOBAL"},
    {'d', "DICT"},
    {'}', "EMPTY_DICT"},
    {'e', "APPENDS"},
    {'g', "GET"},
    {'h', "BINGET"},
    {'i', "INST"},
    {'j', "LONG_BINGET"},
    {'l', "LIST"},
    {']', "EMPTY_LIST"},
    {'o', "OBJ"},
    {'p', "PUT"},
    {'q', "BINPUT"},
    {'r', "LONG_BINPUT"},
    {'s', "SETITEM"},
    {'t', "TUPLE"},
    {')', "EMPTY_TUPLE"},
    {'u', "SETITEMS"},
    {'G', "BINFLOAT"},
    {0x80, "PROTO"},
    {0x81, "NEWOBJ"},
    {0x82, "EXT1"},
    {0x83, "EXT2"},
    {0x84, "EXT4"},
    {0x85, "TUPLE1"},
    {0x86, "TUPLE2"},
    {0x87, "TUPLE3"},
    {0x88, "NEWTRUE"},
    {0x89, "NEWFALSE"},
    {0x8a, "LONG1"},
    {0x8b, "LONG4"},
    {'B', "BINBYTES"},
    {'C', "SHORT_BINBYTES"},
    {0x8c, "SHORT_BINUNICODE"},
    {0x8d, "BINUNICODE8"},
    {0x8e, "BINBYTES8"},
    {0x8f, "EMPTY_SET"},
    {0x90, "ADDITEMS"},
    {0x91, "FROZENSET"},
    {0x92, "NEWOBJ_EX"},
    {0x93, "STACK_GLOBAL"},
    {0x94, "MEMOIZE"},
    {0x95, "FRAME"},
    {0x96, "BYTEARRAY8"},
    {0x97, "NEXT_BUFFER"},
    {0x98, "READONLY_BUFFER"},
};

constexpr std::string_view kRebuildTensorV2 = "torch._utils._rebuild_tensor_v2";
constexpr std::string_view kRebuildTensor = "torch._utils._rebuild_tensor";
constexpr std::string_view kRebuildParameter = "torch._utils._rebuild_parameter";
constexpr std::string_view kRebuildParameterState = "torch._utils._rebuild_parameter_with_state";

bool isTensorCall(const Value& v) {
    return v.kind == Kind::Call && (v.text == kRebuildTensorV2 || v.text == kRebuildTensor);
}
bool isIntTuple(const Value& v) {
    return v.kind == Kind::Tuple &&
           std::all_of(v.items.begin(), v.items.end(), [](const Value* x) { return x->kind == Kind::Int; });
}

// One parameter of an allowed call: its name, a test of the argument, and what the message says it must be.
struct Param {
    const char* name;
    bool (*ok)(const Value&);
    const char* expected;
};
constexpr Param kStoragePid{"storage", [](const Value& v) { return v.kind == Kind::PersistentId; }, "a storage"};
constexpr Param kOffset{"storage_offset", [](const Value& v) { return v.kind == Kind::Int; }, "an int"};
constexpr Param kSize{"size", isIntTuple, "a tuple of ints"};
constexpr Param kStride{"stride", isIntTuple, "a tuple of ints"};
constexpr Param kRequiresGrad{"requires_grad", [](const Value& v) { return v.kind == Kind::Bool; }, "a bool"};
constexpr Param kHooks{"backward_hooks", [](const Value& v) { return v.kind == Kind::Dict; }, "an OrderedDict"};
constexpr Param kMetadata{"metadata", [](const Value& v) { return v.kind == Kind::Dict || v.kind == Kind::None; },
                          "a dict or None"};
constexpr Param kData{"data", [](const Value& v) { return isTensorCall(v); }, "a tensor"};
constexpr Param kState{
    "state", [](const Value& v) { return v.kind == Kind::Dict || v.kind == Kind::None || v.kind == Kind::Tuple; },
    "a dict, a tuple or None"};

struct Signature {
    std::string_view global;
    std::vector<Param> params;
    size_t optional = 0;  // how many trailing parameters may be left out
};
const std::vector<Signature>& signatures() {
    static const std::vector<Signature> s = {
        {kRebuildTensorV2, {kStoragePid, kOffset, kSize, kStride, kRequiresGrad, kHooks, kMetadata}, 1},
        {kRebuildTensor, {kStoragePid, kOffset, kSize, kStride}, 0},
        {kRebuildParameter, {kData, kRequiresGrad, kHooks}, 0},
        {kRebuildParameterState, {kData, kRequiresGrad, kHooks, kState}, 0},
    };
    return s;
}

}  // namespace

std::string opcodeText(uint8_t op) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", op);
    for (const OpName& o : kOpNames)
        if (o.code == op) return std::string(o.name) + " (" + hex + ")";
    return std::string("byte ") + hex + ", not a pickle opcode";
}

const StorageType* storageType(std::string_view global) {
    using safetensors::DType;
    static constexpr StorageType kTypes[] = {
        {"torch.FloatStorage", "float32", true, DType::F32},
        {"torch.HalfStorage", "float16", true, DType::F16},
        {"torch.BFloat16Storage", "bfloat16", true, DType::BF16},
        {"torch.DoubleStorage", "float64", true, DType::F64},
        {"torch.LongStorage", "int64", false, DType::F32},
        {"torch.IntStorage", "int32", false, DType::F32},
        {"torch.ShortStorage", "int16", false, DType::F32},
        {"torch.CharStorage", "int8", false, DType::F32},
        {"torch.ByteStorage", "uint8", false, DType::F32},
        {"torch.BoolStorage", "bool", false, DType::F32},
        {"torch.ComplexFloatStorage", "complex64", false, DType::F32},
        {"torch.ComplexDoubleStorage", "complex128", false, DType::F32},
        {"torch.QInt8Storage", "qint8", false, DType::F32},
        {"torch.QUInt8Storage", "quint8", false, DType::F32},
        {"torch.QInt32Storage", "qint32", false, DType::F32},
        {"torch.QUInt4x2Storage", "quint4x2", false, DType::F32},
    };
    for (const StorageType& t : kTypes)
        if (t.global == global) return &t;
    return nullptr;
}

bool isAllowedGlobal(std::string_view g) {
    if (g == kOrderedDict || storageType(g)) return true;
    return std::any_of(signatures().begin(), signatures().end(), [&](const Signature& s) { return s.global == g; });
}

std::string callProblem(const Value& args, const std::string& callee) {
    for (const Signature& s : signatures()) {
        if (s.global != callee) continue;
        const size_t n = args.items.size();
        if (n > s.params.size() || n + s.optional < s.params.size())
            return callee + " is called with " + std::to_string(n) + " arguments; it takes " +
                   (s.optional ? std::to_string(s.params.size() - s.optional) + " or " : std::string()) +
                   std::to_string(s.params.size());
        for (size_t i = 0; i < n; ++i)
            if (!s.params[i].ok(*args.items[i]))
                return callee + " is called with " + std::string(kindName(args.items[i]->kind)) + " as argument " +
                       std::to_string(i + 1) + " (" + s.params[i].name + "), which must be " + s.params[i].expected;
        return {};
    }
    return callee + " is a type these files name, never call";
}

}  // namespace attnviz::torch_pickle
