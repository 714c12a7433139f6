// Arrays crossing the Python boundary: an operand (any DLPack array of raw bits on the CPU: unsigned
// or signed integers of 1, 2, 4 or 8 bytes, C order) widened to the words the harness computes on,
// and a result handed back as a NumPy array of the format's unsigned dtype, owning its memory.
// The package's Python layer (mmaemu/_arrays.py) turns float dtypes into such bit views and back.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <string>

#include "harness/api/compute.hpp"

namespace mmaemu::python {

namespace nb = nanobind;

using HostArray = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;

// The operand's bits as NpyArray words; InputError naming `name` for a dtype that is not raw bits.
api::Operand operand(const HostArray& array, const std::string& name);

nb::ndarray<nb::numpy> to_numpy(NpyArray&& result);

}  // namespace mmaemu::python
