// Eigen types the engine uses. Weights are row-major so that a (rows, cols) tensor of a safetensors file
// (C order, the PyTorch layout) maps onto them byte for byte.
#pragma once
#include <Eigen/Core>

namespace attnviz {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::VectorXf;  // column vector
using RowVec = Eigen::RowVectorXf;
using MatMap = Eigen::Map<Mat>;
using ConstMatMap = Eigen::Map<const Mat>;
using VecMap = Eigen::Map<Vec>;
using ConstVecMap = Eigen::Map<const Vec>;

}  // namespace attnviz
