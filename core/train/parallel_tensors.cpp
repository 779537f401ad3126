#include "train/parallel_tensors.h"

#include "kernels/thread_pool.h"

#include <algorithm>

namespace attnviz {
namespace {

// A boundary of the whole list as an index into the tensor at `offset` (n elements): 0 before it, n after it, and
// inside it rounded up to a multiple of 16.
Eigen::Index localBoundary(Eigen::Index boundary, Eigen::Index offset, Eigen::Index n) {
    if (boundary <= offset) return 0;
    if (boundary >= offset + n) return n;
    return std::min(n, (boundary - offset + 15) / 16 * 16);
}

Eigen::Index totalOf(const std::vector<Eigen::Index>& sizes) {
    Eigen::Index total = 0;
    for (const Eigen::Index n : sizes) total += n;
    return total;
}

int partsFor(Eigen::Index total, int threads) { return total < (Eigen::Index(1) << 16) ? 1 : std::max(1, threads); }

// Every tensor's data as floats, in visitSets order.
template <class P>
std::vector<float*> dataOf(P& p) {
    std::vector<float*> out;
    visitSets([&](auto& t) { out.push_back(const_cast<float*>(t.data())); }, p);
    return out;
}

template <class P>
std::vector<Eigen::Index> sizesOf(const P& p) {
    std::vector<Eigen::Index> out;
    visitSets([&](const auto& t) { out.push_back(t.size()); }, p);
    return out;
}

}  // namespace

void forElementRanges(const std::vector<Eigen::Index>& sizes, int threads, const RangeUpdate& update) {
    const Eigen::Index total = totalOf(sizes);
    const int parts = partsFor(total, threads);
    auto part = [&](int i) {
        const Eigen::Index begin = total * i / parts, end = total * (i + 1) / parts;
        Eigen::Index offset = 0;  // of the current tensor in the whole list
        for (size_t k = 0; k < sizes.size(); ++k) {
            const Eigen::Index first = localBoundary(begin, offset, sizes[k]),
                               last = localBoundary(end, offset, sizes[k]);
            if (first < last) update(k, first, last - first);
            offset += sizes[k];
        }
    };
    ThreadPool::engine().run(parts, part);
}

void forTensorRuns(const std::vector<Eigen::Index>& sizes, int threads, const std::function<void(size_t)>& task) {
    const Eigen::Index total = totalOf(sizes);
    const int parts = partsFor(total, threads);
    auto part = [&](int i) {  // the tensors that start in this part's share of the elements
        const Eigen::Index begin = total * i / parts, end = total * (i + 1) / parts;
        Eigen::Index offset = 0;
        for (size_t k = 0; k < sizes.size(); offset += sizes[k], ++k)
            if (offset >= begin && (offset < end || (i == parts - 1 && offset == end))) task(k);
    };
    ThreadPool::engine().run(parts, part);
}

template <class P>
void addParts(P& dst, const std::vector<P>& parts, int count, int threads) {
    if (count < 2) return;
    const std::vector<float*> d = dataOf(dst);
    std::vector<std::vector<float*>> s;
    for (int i = 1; i < count; ++i) s.push_back(dataOf(parts[size_t(i)]));
    forElementRanges(sizesOf(dst), threads, [&](size_t k, Eigen::Index first, Eigen::Index n) {
        Eigen::Map<Eigen::ArrayXf> to(d[k] + first, n);
        for (const std::vector<float*>& part : s) to += Eigen::Map<const Eigen::ArrayXf>(part[k] + first, n);
    });
}

template <class P>
double squaredNormOf(const P& p, int threads) {
    std::vector<std::function<float()>> norms;
    visitSets([&](const auto& t) { norms.push_back([&t] { return t.size() > 0 ? float(t.squaredNorm()) : 0.0f; }); },
              p);
    std::vector<double> each(norms.size());
    forTensorRuns(sizesOf(p), threads, [&](size_t k) { each[k] = double(norms[k]()); });
    double sum = 0;
    for (const double v : each) sum += v;
    return sum;
}

template <class P>
void scaleBy(P& p, float c, int threads) {
    const std::vector<float*> d = dataOf(p);
    forElementRanges(sizesOf(p), threads, [&](size_t k, Eigen::Index first, Eigen::Index n) {
        Eigen::Map<Eigen::ArrayXf>(d[k] + first, n) *= c;
    });
}

template void addParts(ModelParams&, const std::vector<ModelParams>&, int, int);
template void addParts(TransformerParams&, const std::vector<TransformerParams>&, int, int);
template double squaredNormOf(const ModelParams&, int);
template double squaredNormOf(const TransformerParams&, int);
template void scaleBy(ModelParams&, float, int);
template void scaleBy(TransformerParams&, float, int);

}  // namespace attnviz
