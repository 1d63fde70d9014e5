#include <cstdarg>

#include "provider/provctx.h"

namespace gpucrypto {
namespace {

OSSL_FUNC_core_new_error_fn* c_new_error = nullptr;
OSSL_FUNC_core_set_error_debug_fn* c_set_error_debug = nullptr;
OSSL_FUNC_core_vset_error_fn* c_vset_error = nullptr;

const OSSL_ITEM kReasons[] = {
    {kErrWrongKeyLength, const_cast<char*>("wrong key length")},
    {kErrWrongIvLength, const_cast<char*>("wrong iv length")},
    {kErrNoKeySet, const_cast<char*>("no key set")},
    {kErrWrongFinalBlockLength, const_cast<char*>("wrong final block length")},
    {kErrBadDecrypt, const_cast<char*>("bad decrypt")},
    {kErrNullOutput, const_cast<char*>("null output buffer with non-zero length")},
    {kErrOutputTooSmall, const_cast<char*>("output buffer too small")},
    {kErrLengthOverflow, const_cast<char*>("length overflow")},
    {kErrOverlap, const_cast<char*>("partially overlapping buffers")},
    {kErrBadParam, const_cast<char*>("invalid parameter")},
    {kErrUpdateAfterFinal, const_cast<char*>("update after final")},
    {kErrConfig, const_cast<char*>("invalid configuration value")},
    {kErrMalloc, const_cast<char*>("out of memory")},
    {kErrInternal, const_cast<char*>("internal error")},
    {kErrWrongLength, const_cast<char*>("wrong length")},
    {kErrInvalidKey, const_cast<char*>("invalid key")},
    {kErrFetchFailed, const_cast<char*>("algorithm fetch failed")},
    {kErrBackendFailed, const_cast<char*>("back end failed")},
    {kErrTlsRecord, const_cast<char*>("TLS record operation failed")},
    {0, nullptr}};

}  // namespace

void errors_init(const OSSL_DISPATCH* in) {
  for (; in->function_id != 0; ++in) {
    switch (in->function_id) {
      case OSSL_FUNC_CORE_NEW_ERROR:
        c_new_error = OSSL_FUNC_core_new_error(in);
        break;
      case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
        c_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
        break;
      case OSSL_FUNC_CORE_VSET_ERROR:
        c_vset_error = OSSL_FUNC_core_vset_error(in);
        break;
      default:
        break;
    }
  }
}

const OSSL_ITEM* reason_strings() { return kReasons; }

void raise_error(const ProvCtx* ctx, int reason, const char* file, int line,
                 const char* func, const char* fmt, ...) {
  if (c_new_error == nullptr || c_vset_error == nullptr) return;
  const OSSL_CORE_HANDLE* h = ctx != nullptr ? ctx->handle : nullptr;
  c_new_error(h);
  if (c_set_error_debug != nullptr) c_set_error_debug(h, file, line, func);
  va_list ap;
  va_start(ap, fmt);
  c_vset_error(h, uint32_t(reason), fmt, ap);
  va_end(ap);
}

}  // namespace gpucrypto
