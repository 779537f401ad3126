// The headers nearly every test includes, precompiled once per test directory (tests/CMakeLists.txt). Only
// headers whose meaning does not depend on the including file belong here.
#pragma once
#include "base/errors.h"
#include "base/tensor.h"
#include "decode/decoding.h"
#include "io/model_file.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <memory>
#include <string>
#include <vector>
