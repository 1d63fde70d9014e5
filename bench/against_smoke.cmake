# bench.smoke_against: gpucrypto-bench --against on one cipher, one size, one
# round, one second; the table must be there with a ratio > 0, and the JSON
# must hold both rows' results. Never asserts performance.
#   cmake -DBENCH=... -DOPENSSL=... -DOUT=... -P against_smoke.cmake
execute_process(
  COMMAND ${BENCH} --against ${OPENSSL} --filter "^aes-128-cbc$" --sizes 16 --reps 1
          --seconds 1 --direction encrypt --json ${OUT}.json --markdown ${OUT}.md
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpucrypto-bench --against failed (${rc}):\n${err}")
endif()
if(NOT out MATCHES "== ours / default inside openssl speed -evp")
  message(FATAL_ERROR "no --against table in the output")
endif()
# "AES-128-CBC  encrypt  1.02 (1234/1210)": a ratio that is not 0.00.
if(NOT out MATCHES "AES-128-CBC +encrypt +([0-9]+\\.[0-9]+) \\(([0-9.]+)/([0-9.]+)\\)")
  message(FATAL_ERROR "no AES-128-CBC encrypt cell in the table")
endif()
if(CMAKE_MATCH_1 STREQUAL "0.00" OR CMAKE_MATCH_2 STREQUAL "0" OR CMAKE_MATCH_3 STREQUAL "0")
  message(FATAL_ERROR "ratio or MB/s is zero: ${CMAKE_MATCH_0}")
endif()
file(READ ${OUT}.json json)
string(JSON mode GET "${json}" modes 0 mode)
string(JSON rows LENGTH "${json}" modes 0 rows)
string(JSON ratio GET "${json}" modes 0 rows 0 cells 0 vs_baseline)
if(NOT mode STREQUAL "against" OR NOT rows EQUAL 2 OR NOT ratio GREATER 0)
  message(FATAL_ERROR "JSON: mode '${mode}', ${rows} rows, ratio '${ratio}'")
endif()
message("ok: ratio ${ratio} in ${OUT}.json")
