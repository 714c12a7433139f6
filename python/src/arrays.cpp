#include "python/src/arrays.hpp"

#include <cstring>

#include "harness/core/errors.hpp"

namespace mmaemu::python {
namespace {

template <class Word>
void widen(const void* data, size_t count, std::vector<uint32_t>& out) {
  const auto* in = static_cast<const Word*>(data);
  if constexpr (sizeof(Word) == 8) {
    out.resize(2 * count);
    for (size_t i = 0; i < count; ++i) {  // low word first, as NpyArray holds 8-byte elements
      out[2 * i] = static_cast<uint32_t>(in[i]);
      out[2 * i + 1] = static_cast<uint32_t>(in[i] >> 32);
    }
  } else {
    out.resize(count);
    for (size_t i = 0; i < count; ++i) out[i] = in[i];
  }
}

template <class Word>
void narrow(const std::vector<uint32_t>& words, void* data, size_t count) {
  auto* out = static_cast<Word*>(data);
  if constexpr (sizeof(Word) == 8) {
    for (size_t i = 0; i < count; ++i) out[i] = words[2 * i] | (uint64_t{words[2 * i + 1]} << 32);
  } else {
    for (size_t i = 0; i < count; ++i) out[i] = static_cast<Word>(words[i]);
  }
}

}  // namespace

api::Operand operand(const HostArray& a, const std::string& name) {
  const auto dt = a.dtype();
  const bool integer = dt.code == static_cast<uint8_t>(nb::dlpack::dtype_code::UInt) ||
                       dt.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Int);
  if (!integer || dt.lanes != 1 || (dt.bits != 8 && dt.bits != 16 && dt.bits != 32 && dt.bits != 64))
    throw InputError(name, "holds no raw bits (dtype code " + std::to_string(dt.code) + ", " + std::to_string(dt.bits) +
                               " bits): give unsigned integers of the format's width, or a float array of the format");
  api::Operand o;
  o.name = name;
  o.array.word_bytes = dt.bits / 8;
  for (size_t i = 0; i < a.ndim(); ++i) o.array.shape.push_back(a.shape(i));
  const size_t count = a.size();
  switch (dt.bits) {
    case 8: widen<uint8_t>(a.data(), count, o.array.values); break;
    case 16: widen<uint16_t>(a.data(), count, o.array.values); break;
    case 32: widen<uint32_t>(a.data(), count, o.array.values); break;
    default: widen<uint64_t>(a.data(), count, o.array.values); break;
  }
  return o;
}

nb::ndarray<nb::numpy> to_numpy(NpyArray&& r) {
  const size_t count = r.size(), bytes = static_cast<size_t>(r.word_bytes);
  void* data = ::operator new(count * bytes == 0 ? 1 : count * bytes);
  nb::capsule owner(data, [](void* p) noexcept { ::operator delete(p); });
  nb::dlpack::dtype dt{static_cast<uint8_t>(nb::dlpack::dtype_code::UInt), static_cast<uint8_t>(8 * bytes), 1};
  switch (bytes) {
    case 1: narrow<uint8_t>(r.values, data, count); break;
    case 2: narrow<uint16_t>(r.values, data, count); break;
    case 4: narrow<uint32_t>(r.values, data, count); break;
    default: narrow<uint64_t>(r.values, data, count); break;
  }
  return nb::ndarray<nb::numpy>(data, r.shape.size(), r.shape.data(), owner, nullptr, dt);
}

}  // namespace mmaemu::python
