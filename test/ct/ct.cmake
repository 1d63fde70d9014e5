# Constant-time checks, run by .ci/hardening.sh: dudect (timing statistics on
# every runnable path, see dudect.cpp) and the ctgrind harness (see
# ct_harness.cpp, under valgrind). Included from cmake/hardening.cmake once
# every library target exists.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  # The TLS CBC unpadding is built in from its source (it needs no OpenSSL).
  add_executable(dudect ${CMAKE_CURRENT_LIST_DIR}/dudect.cpp ${PROJECT_SOURCE_DIR}/provider/tls_cbc_pad.cpp)
  target_link_libraries(dudect PRIVATE gpucrypto_ciphers gpucrypto_kem OpenSSL::Crypto)
  set_target_properties(dudect PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/test/ct)
endif()
# Built only when valgrind's client-request headers are installed.
find_path(VALGRIND_INCLUDE_DIR valgrind/memcheck.h)
if(NOT VALGRIND_INCLUDE_DIR)
  message(STATUS "gpucrypto: valgrind/memcheck.h not found, ct_harness not built")
  return()
endif()
add_executable(ct_harness ${CMAKE_CURRENT_LIST_DIR}/ct_harness.cpp ${PROJECT_SOURCE_DIR}/provider/tls_cbc_pad.cpp)
target_include_directories(ct_harness PRIVATE ${VALGRIND_INCLUDE_DIR})
target_link_libraries(ct_harness PRIVATE gpucrypto_ciphers gpucrypto_kem gpucrypto_gpu OpenSSL::Crypto)
set_target_properties(ct_harness PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/test/ct)
