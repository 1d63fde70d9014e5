# Hardening build variants, included by the top-level CMakeLists.txt before any
# target exists, so the flags set here reach every target (ciphers, engine,
# module, tests, fuzzers) -- a sanitizer only sees what it instruments.
#
#   -DGPUCRYPTO_SANITIZE=address,undefined   ASan + UBSan (any -fsanitize= list)
#   -DGPUCRYPTO_SANITIZE=thread              TSan
#   -DGPUCRYPTO_FUZZ=ON                      libFuzzer targets in test/fuzz (clang only;
#                                            implies address,undefined unless
#                                            GPUCRYPTO_SANITIZE says otherwise)
# The constant-time harness (test/ct) needs no special flags: it is built
# whenever tests are on and valgrind's memcheck.h is installed.
# .ci/hardening.sh drives all three; see the README section "Hardening".

set(GPUCRYPTO_SANITIZE "" CACHE STRING
    "Sanitizers for every target, as for -fsanitize= (e.g. address,undefined or thread)")
option(GPUCRYPTO_FUZZ "Build the libFuzzer targets in test/fuzz (needs clang)" OFF)

if(GPUCRYPTO_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "GPUCRYPTO_FUZZ needs clang (libFuzzer): configure with "
                        "-DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14")
  endif()
  if(GPUCRYPTO_SANITIZE STREQUAL "")
    set(GPUCRYPTO_SANITIZE "address,undefined" CACHE STRING "" FORCE)
  endif()
  # Coverage instrumentation everywhere; only the fuzz executables link the
  # libFuzzer main (-fsanitize=fuzzer, test/fuzz/CMakeLists.txt).
  add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link>)
  add_compile_definitions(GPUCRYPTO_FUZZING_BUILD=1)
endif()

# Building with clang (the fuzz job): its default constexpr budget (2^20
# steps) is too small for the AES S-box generated at compile time in
# gpu/kernels/host_tables.h, and GCC-only warning names in
# `#pragma GCC diagnostic` lines would be errors under -Werror.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fconstexpr-steps=33554432>
                      $<$<COMPILE_LANGUAGE:C,CXX>:-Wno-unknown-warning-option>)
endif()

if(NOT GPUCRYPTO_SANITIZE STREQUAL "")
  if(GPUCRYPTO_WITH_CUDA AND GPUCRYPTO_HAVE_CUDA)
    message(WARNING "GPUCRYPTO_SANITIZE: device code is not instrumented; "
                    "configure with -DGPUCRYPTO_WITH_CUDA=OFF for a clean sanitizer run")
  endif()
  set(_san -fsanitize=${GPUCRYPTO_SANITIZE} -fno-omit-frame-pointer)
  if(GPUCRYPTO_SANITIZE MATCHES "undefined")
    # A UBSan finding fails the test instead of scrolling past.
    list(APPEND _san -fno-sanitize-recover=undefined)
  endif()
  set(_san_link -fsanitize=${GPUCRYPTO_SANITIZE})
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # clang links its runtime statically into executables only; the module
    # (linked with -z defs) then has undefined __asan_* symbols. The shared
    # runtime serves the executables and gpucrypto.so alike.
    # That runtime lives in clang's resource directory, off the loader's path.
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-resource-dir
                    OUTPUT_VARIABLE _clang_res OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND _san_link -shared-libsan -Wl,-rpath,${_clang_res}/lib/linux)
  endif()
  foreach(f ${_san})
    add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:${f}>)
  endforeach()
  add_link_options(${_san_link})
  add_compile_definitions(GPUCRYPTO_SANITIZER_BUILD=1)
  message(STATUS "gpucrypto: sanitizers ${GPUCRYPTO_SANITIZE}")
endif()

# The constant-time harness is not a GoogleTest executable: include it once
# every library target exists (deferred to the end of the top-level directory).
if(GPUCRYPTO_BUILD_TESTS)
  cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR}
                 CALL include ${PROJECT_SOURCE_DIR}/test/ct/ct.cmake)
endif()
