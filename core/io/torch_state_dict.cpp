// The state dict of a torch.save pickle (torch_state_dict.h): names, storages and views, all checked.
#include "io/torch_state_dict.h"
#include "base/errors.h"
#include "base/utf8.h"
#include "io/torch_pickle_allowed.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace attnviz::torch_pickle {

namespace {

std::string listText(const std::vector<int64_t>& xs) { return safetensors::shapeText(xs); }

class StateDictReader {
public:
    explicit StateDictReader(const std::string& name) : name_(name) {}
    void add(const Value& key, const Value& value);
    StateDict take() { return std::move(out_); }

private:
    [[noreturn]] void refuse(const std::string& what) const {
        safetensors::fail(name_, "tensor \"" + printable(tensor_) + "\": " + what);
    }
    size_t storage(const Value& pid);
    std::vector<int64_t> ints(const Value& tuple, const char* what) const;
    void checkView(TensorEntry& t) const;
    void requireDistinctElements(const TensorEntry& t) const;

    const std::string& name_;
    std::string tensor_;  // the tensor being read, for messages
    StateDict out_;
    std::unordered_map<std::string, size_t> storage_index_;
    std::unordered_set<std::string> names_;
};

size_t StateDictReader::storage(const Value& pid) {
    const Value& id = *pid.items.at(0);
    const size_t n = id.items.size();
    if (id.kind != Kind::Tuple || n < 5 || n > 6 || id.items[0]->kind != Kind::String || id.items[0]->text != "storage")
        refuse("its storage is a persistent id other than ('storage', type, key, location, numel)");
    const Value& type = *id.items[1];
    const Value& key = *id.items[2];
    const Value& numel = *id.items[4];
    const StorageType* st = type.kind == Kind::Global ? storageType(type.text) : nullptr;
    if (!st) refuse("its storage type is a " + std::string(kindName(type.kind)) + ", not a torch storage type");
    if (key.kind != Kind::String || id.items[3]->kind != Kind::String || numel.kind != Kind::Int)
        refuse("its storage's key, location and size must be a string, a string and an int");
    if (n == 6 && id.items[5]->kind != Kind::None)
        refuse("its storage is a view of another (view_metadata, written by PyTorch before 1.0), which is not read");
    if (!st->read)
        refuse("stored as " + type.text + " (" + st->element +
               "); only float32, float16, bfloat16 and float64 tensors are read");
    if (numel.integer < 0) refuse("its storage has a negative size (" + std::to_string(numel.integer) + ")");

    auto [it, added] = storage_index_.try_emplace(key.text, out_.storages.size());
    if (added) {
        out_.storages.push_back({key.text, st->dtype, numel.integer});
        return it->second;
    }
    const StorageRef& s = out_.storages[it->second];
    if (s.dtype != st->dtype || s.numel != numel.integer)
        refuse("its storage \"" + printable(key.text) + "\" is named earlier as " + std::to_string(s.numel) + " " +
               std::string(safetensors::dtypeName(s.dtype)) + " and here as " + std::to_string(numel.integer) + " " +
               std::string(safetensors::dtypeName(st->dtype)));
    return it->second;
}

std::vector<int64_t> StateDictReader::ints(const Value& tuple, const char* what) const {
    if (tuple.items.size() > kMaxDims)
        refuse(std::string("its ") + what + " has " + std::to_string(tuple.items.size()) + " dimensions (at most " +
               std::to_string(kMaxDims) + " are read)");
    std::vector<int64_t> xs;
    for (const Value* x : tuple.items) xs.push_back(x->integer);
    for (int64_t x : xs)
        if (x < 0) refuse(std::string("its ") + what + " " + listText(xs) + " has a negative entry");
    return xs;
}

// Views whose elements are distinct storage elements, in an order the reader can walk forwards: with the dimensions
// of size > 1 sorted by stride, largest first, each stride must exceed the furthest reach of the dimensions after
// it. Transposes, slices and contiguous tensors pass; a zero stride (an expanded tensor) or a crafted overlap does
// not. This is what lets readFloat read each storage byte at most once.
void StateDictReader::requireDistinctElements(const TensorEntry& t) const {
    std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size)
    for (size_t d = 0; d < t.shape.size(); ++d)
        if (t.shape[d] > 1) dims.emplace_back(t.strides[d], t.shape[d]);
    std::stable_sort(dims.begin(), dims.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    int64_t reach = 0;  // sum of (size - 1) * stride of the dimensions after the one looked at (checked already)
    for (size_t k = dims.size(); k-- > 0;) {
        if (dims[k].first <= reach)
            refuse("size " + listText(t.shape) + " with stride " + listText(t.strides) +
                   " makes elements share storage (a zero stride or an overlapping view), which is not read");
        reach += (dims[k].second - 1) * dims[k].first;  // no overflow: checkView bounded the whole sum
    }
}

// Offset, shape and strides against the storage, in elements and without overflow: the furthest element a view
// reaches is offset + sum((size_d - 1) * stride_d), which must lie inside the storage.
void StateDictReader::checkView(TensorEntry& t) const {
    const StorageRef& s = out_.storages[t.storage];
    if (t.shape.size() != t.strides.size())
        refuse("size " + listText(t.shape) + " and stride " + listText(t.strides) + " have different lengths");
    if (t.offset < 0 || t.offset > s.numel)
        refuse("storage offset " + std::to_string(t.offset) + " is outside its storage of " + std::to_string(s.numel) +
               " elements");
    int64_t numel = 1;
    for (int64_t d : t.shape)
        if (__builtin_mul_overflow(numel, d, &numel))
            refuse("size " + listText(t.shape) + " has more elements than a 64-bit count holds");
    if (numel > s.numel)
        refuse("size " + listText(t.shape) + " has " + std::to_string(numel) + " elements, more than its storage \"" +
               printable(s.key) + "\" holds (" + std::to_string(s.numel) + ")");
    t.numel = numel;
    if (numel == 0) return;
    int64_t last = t.offset;
    for (size_t d = 0; d < t.shape.size(); ++d) {
        int64_t step = 0;
        if (__builtin_mul_overflow(t.shape[d] - 1, t.strides[d], &step) || __builtin_add_overflow(last, step, &last)) {
            last = INT64_MAX;
            break;
        }
    }
    if (last >= s.numel)
        refuse("size " + listText(t.shape) + " with stride " + listText(t.strides) + " at offset " +
               std::to_string(t.offset) + " reaches element " +
               (last == INT64_MAX ? "2^63 or more" : std::to_string(last)) + " of its storage \"" + printable(s.key) +
               "\", which holds " + std::to_string(s.numel));
    requireDistinctElements(t);
}

void StateDictReader::add(const Value& key, const Value& value) {
    if (key.kind != Kind::String)
        safetensors::fail(name_, "the state dict has a " + std::string(kindName(key.kind)) + " key, not a name");
    tensor_ = key.text;
    if (!names_.insert(key.text).second) refuse("the name appears twice in the state dict");
    const Value* call = &value;
    if (call->kind == Kind::Call && call->text.rfind("torch._utils._rebuild_parameter", 0) == 0)
        call = call->items.at(0);
    if (call->kind != Kind::Call || call->text.rfind("torch._utils._rebuild_tensor", 0) != 0 || call->items.size() < 4)
        refuse("the value is a " + std::string(kindName(value.kind)) +
               (value.kind == Kind::Call ? " of " + value.text : std::string()) + ", not a tensor");
    TensorEntry t;
    t.name = key.text;
    t.storage = storage(*call->items[0]);
    t.offset = call->items[1]->integer;
    t.shape = ints(*call->items[2], "size");
    t.strides = ints(*call->items[3], "stride");
    checkView(t);
    out_.tensors.push_back(std::move(t));
}

}  // namespace

StateDict readStateDict(const Value& root, const std::string& name) {
    if (root.kind != Kind::Dict)
        safetensors::fail(
            name, "the pickle holds a " + std::string(kindName(root.kind)) + ", not a state dict (a dict of tensors)");
    StateDictReader r(name);
    for (size_t i = 0; i + 1 < root.items.size(); i += 2) r.add(*root.items[i], *root.items[i + 1]);
    return r.take();
}

}  // namespace attnviz::torch_pickle
