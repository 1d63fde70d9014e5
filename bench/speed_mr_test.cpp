// bench.speed_mr: the parsers of --against on output captured from OpenSSL
// 3.0.19 and 3.5.9 (openssl speed -mr, openssl list), and the command
// splitting, without running any openssl.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/spawn.h"
#include "bench/speed_mr.h"

namespace {

int failures = 0;

void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::fprintf(stderr, "FAIL line %d: %s\n", line, what);
  ++failures;
}
#define CHECK(x) check((x), #x, __LINE__)

bool near(double a, double b) { return std::fabs(a - b) <= 1e-6 * std::fabs(b); }

}  // namespace

int main() {
  using namespace gpucrypto::bench;
  // 3.0.19, default sizes (stdout, stderr).
  const std::string out30 =
      "+H:16:64:256:1024:8192:16384\n"
      "+F:25:AES-128-CBC:395119524.75:421687508.91:496354598.02:504776237.62:508239872.00:"
      "461850360.40\n";
  const std::string err30 =
      "You have chosen to measure elapsed time instead of user CPU time.\n"
      "+DT:AES-128-CBC:1:16\n+R:24941920:AES-128-CBC:1.010000\n"
      "+DT:AES-128-CBC:1:64\n+R:6654756:AES-128-CBC:1.010000\n"
      "+DT:AES-128-CBC:1:256\n+R:1958274:AES-128-CBC:1.010000\n"
      "+DT:AES-128-CBC:1:1024\n+R:497875:AES-128-CBC:1.010000\n"
      "+DT:AES-128-CBC:1:8192\n+R:62041:AES-128-CBC:1.000000\n"
      "+DT:AES-128-CBC:1:16384\n+R:28471:AES-128-CBC:1.010000\n";
  auto c = parse_speed_cipher(out30, err30);
  CHECK(c.size() == 6);
  CHECK(near(c[16].bytes_per_s, 395119524.75));
  CHECK(near(c[16384].bytes_per_s, 461850360.40));
  CHECK(near(c[16].count, 24941920) && near(c[16].seconds, 1.01));
  CHECK(near(c[8192].count, 62041) && near(c[8192].seconds, 1.0));
  // 3.5.9, -bytes 1048576 -decrypt.
  c = parse_speed_cipher("+H:1048576\n+F:25:AES-128-CBC:4134535168.00\n",
                         "+DT:AES-128-CBC:1:1048576\n+R:3943:AES-128-CBC:1.000000\n");
  CHECK(c.size() == 1 && near(c[1048576].bytes_per_s, 4134535168.0) && near(c[1048576].count, 3943));
  // No result: an error message only.
  CHECK(parse_speed_cipher("", "speed: Unknown algorithm aes-999\n").empty());
  CHECK(parse_speed_cipher("+H:16:64\n+F:25:X:1.0\n", "").empty());  // sizes and rates disagree

  // 3.5.9 KEM.
  auto k = parse_speed_kem("+F9:7:6557.000000:3898.019802:3728.712871\n",
                           "+DTP:X25519MLKEM768:keygen:1\n+R15:6557:X25519MLKEM768:1.00\n"
                           "+DTP:X25519MLKEM768:encaps:1\n+R16:3937:X25519MLKEM768:1.01\n"
                           "+DTP:X25519MLKEM768:decaps:1\n+R17:3766:X25519MLKEM768:1.01\n");
  CHECK(k.ok && near(k.per_s[0], 6557) && near(k.per_s[1], 3898.019802) && near(k.per_s[2], 3728.712871));
  CHECK(near(k.count[2], 3766) && near(k.seconds[1], 1.01));
  CHECK(!parse_speed_kem("", "speed: Unknown algorithm secp256r1mlkem768\n").ok);

  // openssl list (3.0 with its "Legacy:" section, and 3.5's KEM lines).
  const std::string list30 =
      "Legacy:\n  AES-128-CBC\n  aes128 => AES-128-CBC\nProvided:\n"
      "  { 2.16.840.1.101.3.4.1.6, aes-128-gcm, id-aes128-GCM } @ gpucrypto\n"
      "  { 1.2.156.10197.1.104.2, SM4, SM4-CBC } @ gpucrypto\n"
      "  { 1.2.156.10197.1.104.3, SM4-OFB, SM4-OFB128 } @ gpucrypto\n"
      "  { SKINNY-128-256-ECB, SKINNY-256-ECB } @ gpucrypto\n"
      "  AES-128-CFB1 @ gpucrypto\n  AES-128-CTR @ default\n";
  auto l = parse_list_algorithms(list30, "gpucrypto");
  CHECK(l.size() == 5);
  CHECK(l.size() == 5 && display_name(l[0]) == "AES-128-GCM");
  CHECK(l.size() == 5 && display_name(l[1]) == "SM4-CBC");
  CHECK(l.size() == 5 && display_name(l[2]) == "SM4-OFB");
  CHECK(l.size() == 5 && display_name(l[3]) == "SKINNY-128-256-ECB");
  CHECK(l.size() == 5 && display_name(l[4]) == "AES-128-CFB1");
  const std::string list35 =
      "  { 2.16.840.1.101.3.4.4.2, id-alg-ml-kem-768, ML-KEM-768, MLKEM768 } @ default\n"
      "  X25519MLKEM768 @ default\n  SecP256r1MLKEM768 @ default\n";
  l = parse_list_algorithms(list35, "default");
  CHECK(l.size() == 3 && display_name(l[0]) == "ML-KEM-768" && display_name(l[1]) == "X25519MLKEM768" &&
        display_name(l[2]) == "SecP256r1MLKEM768");

  // --against's word splitting.
  std::vector<std::string> w;
  setenv("HOME", "/home/u", 1);
  CHECK(split_command("~/.cache/gpucrypto-openssl-3.5/run  openssl", &w) && w.size() == 2 &&
        w[0] == "/home/u/.cache/gpucrypto-openssl-3.5/run" && w[1] == "openssl");
  CHECK(split_command("'/opt/my ssl/openssl' \"a b\" c\\ d", &w) && w.size() == 3 &&
        w[0] == "/opt/my ssl/openssl" && w[1] == "a b" && w[2] == "c d");
  CHECK(!split_command("'unterminated", &w));
  CHECK(command_text({"openssl", "speed", "a b", "it's"}) == "openssl speed 'a b' 'it'\\''s'");

  if (failures == 0) std::printf("speed_mr: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
