// Eigen types the engine uses. Weights are row-major so that a (rows, cols) tensor of a safetensors file
// (C order, the PyTorch layout) maps onto them byte for byte.
#pragma once
#include <Eigen/Core>

#include <vector>

namespace attnviz {

// The same in any scalar type: float for the engine, double for the finite-difference gradient checks.
template <typename T>
using MatT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using VecT = Eigen::Matrix<T, Eigen::Dynamic, 1>;  // column vector
template <typename T>
using MapT = Eigen::Map<MatT<T>>;
template <typename T>
using CMapT = Eigen::Map<const MatT<T>>;

using Mat = MatT<float>;
using Vec = VecT<float>;  // Eigen::VectorXf
using RowVec = Eigen::RowVectorXf;
using MatMap = Eigen::Map<Mat>;
using ConstMatMap = Eigen::Map<const Mat>;
using VecMap = Eigen::Map<Vec>;
using ConstVecMap = Eigen::Map<const Vec>;

// (rows.size(), cols) from a decode's rows (attention, scores); a short row's missing cells are 0.
inline Mat matrixOfRows(const std::vector<std::vector<float>>& rows, Eigen::Index cols) {
    Mat m = Mat::Zero(Eigen::Index(rows.size()), cols);
    for (size_t t = 0; t < rows.size(); ++t)
        for (Eigen::Index j = 0; j < cols && size_t(j) < rows[t].size(); ++j)
            m(Eigen::Index(t), j) = rows[t][size_t(j)];
    return m;
}

}  // namespace attnviz
