// Gathers and scatters between the caller's strided arrays and the planar
// chunk layout (gpu/planar.h).
#include "gpu/planar.h"

#include <cstring>

namespace gpucrypto::gpu {
namespace {

// `count` records of `size` bytes; one memcpy when both sides are packed.
void copy_records(uint8_t* dst, size_t dst_stride, const uint8_t* src, size_t src_stride,
                  size_t size, size_t count) {
  if (dst_stride == size && src_stride == size) return (void)std::memcpy(dst, src, count * size);
  for (size_t i = 0; i < count; ++i) std::memcpy(dst + i * dst_stride, src + i * src_stride, size);
}

}  // namespace

void pack_planar(uint8_t* staging, size_t first, size_t count, std::initializer_list<InArray> arrays) {
  for (const InArray& a : arrays) {
    copy_records(staging, a.size, a.base + first * a.stride, a.stride, a.size, count);
    staging += count * a.size;
  }
}

void unpack_planar(const uint8_t* staging, size_t first, size_t count,
                   std::initializer_list<OutArray> arrays) {
  for (const OutArray& a : arrays) {
    if (a.base != nullptr) copy_records(a.base + first * a.stride, a.stride, staging, a.size, a.size, count);
    staging += count * a.size;
  }
}

size_t run_planar(UnitJob job, std::initializer_list<InArray> in, std::initializer_list<OutArray> out) {
  job.pack = [in](size_t first, size_t count, uint8_t* s) { pack_planar(s, first, count, in); };
  job.unpack = [out](size_t first, size_t count, const uint8_t* s) { unpack_planar(s, first, count, out); };
  return run_units(job);
}

}  // namespace gpucrypto::gpu
