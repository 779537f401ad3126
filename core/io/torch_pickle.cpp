// The restricted unpickler (torch_pickle.h). Opcodes are read through a small buffer over `ReadAt`, so the legacy
// form's pickles are read from the file as they are run, without knowing their lengths beforehand.
#include "io/torch_pickle.h"
#include "base/errors.h"
#include "base/utf8.h"
#include "io/torch_pickle_allowed.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <unordered_map>

namespace attnviz::torch_pickle {

std::string_view kindName(Kind k) {
    switch (k) {
    case Kind::None:
        return "None";
    case Kind::Bool:
        return "bool";
    case Kind::Int:
    case Kind::BigInt:
        return "int";
    case Kind::Float:
        return "float";
    case Kind::String:
        return "string";
    case Kind::Tuple:
        return "tuple";
    case Kind::List:
        return "list";
    case Kind::Dict:
        return "dict";
    case Kind::Global:
        return "global";
    case Kind::PersistentId:
        return "persistent id";
    case Kind::Call:
        return "call";
    }
    return "?";
}

// The stack machine. One instance runs one pickle.
class Machine {
public:
    Machine(const ReadAt& read, uint64_t begin, uint64_t limit, const std::string& name, const std::string& where)
        : read_(read), pos_(begin), limit_(limit), name_(name), where_(where) {}
    Pickle run();

private:
    static constexpr size_t kBufferSize = 1 << 16;
    static constexpr size_t kMaxStringBytes = 1 << 20;
    static constexpr size_t kMaxLineBytes = 256;

    [[noreturn]] void refuse(const std::string& what) const {
        throw ModelError(name_ + ": " + where_ + ", byte " + std::to_string(at_) + ": " + what);
    }
    void fill(size_t n);
    uint8_t u8();
    uint64_t uintLE(int bytes);
    void take(uint8_t* dst, size_t n);
    std::string line();

    Value* make(Kind k);
    void push(Value* v);
    Value* pop();
    Value* top();
    std::vector<Value*> popMark();
    Value* container(Kind k, const char* op);
    void memoPut(uint32_t index);
    void memoGet(uint32_t index);

    bool step(uint8_t op);
    bool scalar(uint8_t op);
    bool structure(uint8_t op);
    bool reference(uint8_t op);
    void pushInt(int64_t x);
    void long1();
    void text(uint64_t n, bool unicode);
    void global();
    void reduce();
    void build();
    void tuple(std::vector<Value*> items);

    const ReadAt& read_;
    uint64_t pos_;     // the next byte to run
    uint64_t limit_;   // no byte at or after it belongs to the pickle
    uint64_t at_ = 0;  // the opcode being run
    const std::string& name_;
    const std::string& where_;
    std::vector<uint8_t> buf_;
    uint64_t buf_start_ = 0;  // buf_ holds the bytes [buf_start_, buf_start_ + buf_.size())

    Pickle out_;
    std::vector<Value*> stack_;
    std::vector<size_t> marks_;  // stack sizes at each open MARK
    std::unordered_map<uint32_t, Value*> memo_;
    uint64_t made_ = 0;
};

void Machine::fill(size_t n) {
    if (pos_ >= buf_start_ && pos_ + n <= buf_start_ + buf_.size()) return;
    if (pos_ > limit_ || n > limit_ - pos_)
        refuse("the pickle is cut off: it needs " + std::to_string(n) + " more bytes, but " +
               std::to_string(limit_ - std::min(limit_, pos_)) + " are left (a truncated file?)");
    const size_t want = size_t(std::min<uint64_t>(std::max(n, kBufferSize), limit_ - pos_));
    buf_.resize(want);
    const size_t got = read_(pos_, buf_.data(), want);
    buf_.resize(got);
    buf_start_ = pos_;
    if (got < n) refuse("the pickle is cut off: the input ends at byte " + std::to_string(pos_ + got));
}

uint8_t Machine::u8() {
    fill(1);
    return buf_[size_t(pos_++ - buf_start_)];
}

uint64_t Machine::uintLE(int bytes) {
    fill(size_t(bytes));
    uint64_t x = 0;
    for (int i = bytes - 1; i >= 0; --i) x = (x << 8) | buf_[size_t(pos_ - buf_start_) + size_t(i)];
    pos_ += uint64_t(bytes);
    return x;
}

void Machine::take(uint8_t* dst, size_t n) {
    while (n > 0) {  // in buffer-sized pieces, so that a long string is not read twice into memory
        const size_t piece = std::min(n, kBufferSize);
        fill(piece);
        std::memcpy(dst, buf_.data() + (pos_ - buf_start_), piece);
        pos_ += piece;
        dst += piece;
        n -= piece;
    }
}

std::string Machine::line() {
    std::string s;
    for (;;) {
        const uint8_t c = u8();
        if (c == '\n') return s;
        if (s.size() == kMaxLineBytes) refuse("GLOBAL names a module or name longer than 256 bytes");
        s.push_back(char(c));
    }
}

Value* Machine::make(Kind k) {
    if (++made_ > kMaxValues)
        refuse("the pickle makes more than " + std::to_string(kMaxValues) + " values (a state dict needs far fewer)");
    Value& v = out_.nodes_.emplace_back();
    v.kind = k;
    v.offset = at_;
    return &v;
}

void Machine::push(Value* v) {
    if (stack_.size() >= kMaxStack) refuse("the pickle's stack grows past " + std::to_string(kMaxStack) + " values");
    stack_.push_back(v);
}

Value* Machine::pop() {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) refuse("an opcode takes a value from an empty stack");
    Value* v = stack_.back();
    stack_.pop_back();
    return v;
}

Value* Machine::top() {
    Value* v = pop();
    stack_.push_back(v);
    return v;
}

std::vector<Value*> Machine::popMark() {
    if (marks_.empty()) refuse("an opcode needs a MARK and there is none");
    std::vector<Value*> items(stack_.begin() + long(marks_.back()), stack_.end());
    stack_.resize(marks_.back());
    marks_.pop_back();
    return items;
}

Value* Machine::container(Kind k, const char* op) {
    Value* v = top();
    if (v->kind != k)
        refuse(std::string(op) + " on a " + std::string(kindName(v->kind)) + ", not a " + std::string(kindName(k)));
    return v;
}

void Machine::memoPut(uint32_t index) {
    Value* v = top();
    auto [it, added] = memo_.try_emplace(index, v);
    if (added && ++made_ > kMaxValues)
        refuse("the pickle makes more than " + std::to_string(kMaxValues) + " values (a state dict needs far fewer)");
    it->second = v;
}

void Machine::memoGet(uint32_t index) {
    auto it = memo_.find(index);
    if (it == memo_.end()) refuse("memo entry " + std::to_string(index) + " is read before it is set");
    push(it->second);
}

void Machine::pushInt(int64_t x) {
    Value* v = make(Kind::Int);
    v->integer = x;
    push(v);
}

void Machine::long1() {
    const size_t n = u8();
    std::string bytes(n, '\0');
    take(reinterpret_cast<uint8_t*>(bytes.data()), n);
    if (n > 8) {
        Value* v = make(Kind::BigInt);
        v->text = std::move(bytes);
        push(v);
        return;
    }
    uint64_t x = 0;
    for (size_t i = n; i-- > 0;) x = (x << 8) | uint8_t(bytes[i]);
    if (n > 0 && n < 8 && (uint8_t(bytes[n - 1]) & 0x80)) x |= ~uint64_t(0) << (8 * n);  // sign-extend
    pushInt(std::bit_cast<int64_t>(x));
}

void Machine::text(uint64_t n, bool unicode) {
    if (n > kMaxStringBytes)
        refuse("a string of " + std::to_string(n) + " bytes (at most " + std::to_string(kMaxStringBytes) +
               " are expected in a checkpoint's pickle)");
    Value* v = make(Kind::String);
    v->text.resize(size_t(n));
    take(reinterpret_cast<uint8_t*>(v->text.data()), size_t(n));
    if (unicode && !isValidUtf8(v->text)) refuse("BINUNICODE holds a string that is not valid UTF-8");
    push(v);
}

void Machine::global() {
    const std::string module = line();
    const std::string name = line();
    const std::string full = module + "." + name;
    if (!isAllowedGlobal(full))
        refuse("the pickle names the global " + printable(full) +
               ", which a PyTorch state dict does not need; it is refused and nothing in the file was run");
    Value* v = make(Kind::Global);
    v->text = full;
    push(v);
}

void Machine::reduce() {
    Value* args = pop();
    Value* callee = pop();
    if (callee->kind != Kind::Global)
        refuse("REDUCE calls a " + std::string(kindName(callee->kind)) + ", not one of the allowed globals");
    if (args->kind != Kind::Tuple)
        refuse("REDUCE calls " + callee->text + " with a " + std::string(kindName(args->kind)) +
               " of arguments, not a tuple");
    if (callee->text == kOrderedDict) {
        if (!args->items.empty())
            refuse(std::string(kOrderedDict) + " is called with " + std::to_string(args->items.size()) +
                   " arguments; these files call it with none; refused, nothing was run");
        Value* d = make(Kind::Dict);
        d->ordered = true;
        push(d);
        return;
    }
    if (const std::string problem = callProblem(*args, callee->text); !problem.empty())
        refuse(problem + "; refused, nothing was run");
    Value* call = make(Kind::Call);
    call->text = callee->text;
    call->items = args->items;
    push(call);
}

void Machine::build() {
    Value* state = pop();
    Value* target = top();
    if (target->kind != Kind::Dict || !target->ordered)
        refuse("BUILD sets the attributes of a " + std::string(kindName(target->kind)) +
               "; in these files only an OrderedDict's are set");
    if (state->kind != Kind::Dict && state->kind != Kind::None)
        refuse("BUILD gives an OrderedDict a " + std::string(kindName(state->kind)) + " as its state, not a dict");
    target->state = state;
}

void Machine::tuple(std::vector<Value*> items) {
    Value* t = make(Kind::Tuple);
    t->items.assign(items.begin(), items.end());
    push(t);
}

// Runs one opcode; false at STOP.
bool Machine::step(uint8_t op) {
    switch (op) {
    case 0x80: {  // PROTO
        const uint8_t p = u8();
        if (p != 2) refuse("pickle protocol " + std::to_string(p) + "; torch.save writes protocol 2");
        return true;
    }
    case '.':  // STOP
        return false;
    default:
        if (scalar(op) || structure(op) || reference(op)) return true;
        refuse("opcode " + opcodeText(op) + " is not one a PyTorch state dict needs; refused, nothing was run");
    }
}

// The opcodes that push a number, a string, None or a bool; false for any other.
bool Machine::scalar(uint8_t op) {
    switch (op) {
    case 'J':  // BININT
        pushInt(std::bit_cast<int32_t>(uint32_t(uintLE(4))));
        return true;
    case 'K':  // BININT1
        pushInt(int64_t(uintLE(1)));
        return true;
    case 'M':  // BININT2
        pushInt(int64_t(uintLE(2)));
        return true;
    case 0x8a:  // LONG1
        long1();
        return true;
    case 'G': {  // BINFLOAT, big-endian
        fill(8);
        uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) bits = (bits << 8) | buf_[size_t(pos_ - buf_start_) + size_t(i)];
        pos_ += 8;
        Value* v = make(Kind::Float);
        v->real = std::bit_cast<double>(bits);
        push(v);
        return true;
    }
    case 'N':  // NONE
        push(make(Kind::None));
        return true;
    case 0x88:    // NEWTRUE
    case 0x89: {  // NEWFALSE
        Value* v = make(Kind::Bool);
        v->integer = op == 0x88;
        push(v);
        return true;
    }
    case 'X':  // BINUNICODE
        text(uintLE(4), true);
        return true;
    case 'T': {  // BINSTRING: a signed length
        const int32_t n = std::bit_cast<int32_t>(uint32_t(uintLE(4)));
        if (n < 0) refuse("BINSTRING has a negative length");
        text(uint64_t(n), false);
        return true;
    }
    case 'U':  // SHORT_BINSTRING
        text(uintLE(1), false);
        return true;
    default:
        return false;
    }
}

// The opcodes that make or fill tuples, lists and dicts; false for any other.
bool Machine::structure(uint8_t op) {
    switch (op) {
    case '(':  // MARK
        if (marks_.size() >= kMaxStack) refuse("too many open MARKs");
        marks_.push_back(stack_.size());
        return true;
    case '}':  // EMPTY_DICT
        push(make(Kind::Dict));
        return true;
    case ']':  // EMPTY_LIST
        push(make(Kind::List));
        return true;
    case ')':  // EMPTY_TUPLE
        tuple({});
        return true;
    case 't':  // TUPLE
        tuple(popMark());
        return true;
    case 0x85:    // TUPLE1
    case 0x86:    // TUPLE2
    case 0x87: {  // TUPLE3
        std::vector<Value*> items(size_t(op - 0x84));
        for (size_t i = items.size(); i-- > 0;) items[i] = pop();
        tuple(std::move(items));
        return true;
    }
    case 's': {  // SETITEM
        Value* value = pop();
        Value* key = pop();
        Value* d = container(Kind::Dict, "SETITEM");
        d->items.insert(d->items.end(), {key, value});
        return true;
    }
    case 'u': {  // SETITEMS
        std::vector<Value*> kv = popMark();
        if (kv.size() % 2) refuse("SETITEMS with an odd number of values (a key without its value)");
        Value* d = container(Kind::Dict, "SETITEMS");
        d->items.insert(d->items.end(), kv.begin(), kv.end());
        return true;
    }
    case 'a': {  // APPEND
        Value* x = pop();
        container(Kind::List, "APPEND")->items.push_back(x);
        return true;
    }
    case 'e': {  // APPENDS
        std::vector<Value*> xs = popMark();
        Value* l = container(Kind::List, "APPENDS");
        l->items.insert(l->items.end(), xs.begin(), xs.end());
        return true;
    }
    default:
        return false;
    }
}

// The opcodes that name globals, "call" them, build, refer to storages and use the memo; false for any other.
bool Machine::reference(uint8_t op) {
    switch (op) {
    case 'c':  // GLOBAL
        global();
        return true;
    case 'R':  // REDUCE
        reduce();
        return true;
    case 'b':  // BUILD
        build();
        return true;
    case 'Q': {  // BINPERSID
        Value* id = pop();
        Value* v = make(Kind::PersistentId);
        v->items.push_back(id);
        push(v);
        return true;
    }
    case 'q':  // BINPUT
        memoPut(uint32_t(uintLE(1)));
        return true;
    case 'r':  // LONG_BINPUT
        memoPut(uint32_t(uintLE(4)));
        return true;
    case 'h':  // BINGET
        memoGet(uint32_t(uintLE(1)));
        return true;
    case 'j':  // LONG_BINGET
        memoGet(uint32_t(uintLE(4)));
        return true;
    default:
        return false;
    }
}

Pickle Machine::run() {
    for (;;) {
        at_ = pos_;
        if (!step(u8())) break;
    }
    if (!marks_.empty()) refuse("STOP with a MARK still open");
    if (stack_.size() != 1)
        refuse("STOP with " + std::to_string(stack_.size()) + " values on the stack; a pickle ends with one");
    out_.root_ = stack_.back();
    out_.end_ = pos_;
    return std::move(out_);
}

Pickle unpickle(const ReadAt& read, uint64_t begin, uint64_t limit, const std::string& name, const std::string& where) {
    return Machine(read, begin, limit, name, where).run();
}

Pickle unpickle(const uint8_t* data, size_t size, const std::string& name, const std::string& where) {
    const ReadAt read = [data, size](uint64_t offset, uint8_t* dst, size_t n) -> size_t {
        if (offset >= size) return 0;
        const size_t k = std::min<uint64_t>(n, size - offset);
        std::memcpy(dst, data + offset, k);
        return k;
    };
    return unpickle(read, 0, size, name, where);
}

}  // namespace attnviz::torch_pickle
