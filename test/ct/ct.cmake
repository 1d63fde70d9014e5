# ctgrind harness (see ct_harness.cpp); run by .ci/hardening.sh under valgrind.
# Included from cmake/hardening.cmake once every library target exists.
# Built only when valgrind's client-request headers are installed.
find_path(VALGRIND_INCLUDE_DIR valgrind/memcheck.h)
if(NOT VALGRIND_INCLUDE_DIR)
  message(STATUS "gpucrypto: valgrind/memcheck.h not found, ct_harness not built")
  return()
endif()
add_executable(ct_harness ${CMAKE_CURRENT_LIST_DIR}/ct_harness.cpp)
target_include_directories(ct_harness PRIVATE ${VALGRIND_INCLUDE_DIR})
target_link_libraries(ct_harness PRIVATE gpucrypto_ciphers gpucrypto_kem OpenSSL::Crypto)
set_target_properties(ct_harness PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/test/ct)
