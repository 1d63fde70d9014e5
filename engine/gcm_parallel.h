// Large GCM calls on the thread pool (docs/ARCHITECTURE.md, "Dispatch
// rules"): each 64 KiB chunk runs CTR from its own counter and a partial
// GHASH from zero; the partials are combined with powers of H into exactly
// the value one thread would compute, so the tag is byte-identical.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/gcm/gcm_mode.h"
#include "engine/config.h"

namespace gpucrypto {

// A GcmBulk (ciphers/gcm/gcm_mode.h) for `cfg`: calls of at least
// mt_min_bytes whole blocks go to the pool (threads > 1), others stay on
// the calling thread. `cfg` must outlive the uses of the result.
GcmBulk gcm_bulk_for(const EngineConfig& cfg);

// GcmBulk::run: arg is the EngineConfig.
void gcm_parallel_blocks(const void* cfg, const GcmKey& k, uint8_t ctr[16], uint8_t xi[16],
                         const uint8_t* in, uint8_t* out, size_t nblocks, bool enc);

}  // namespace gpucrypto
