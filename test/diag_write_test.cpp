// Diagnostics never kill their host (engine/diag_write.h): with `log = 1`
// the provider writes its GCM count when it is unloaded, and OpenSSH's sshd
// runs its pre-auth child with RLIMIT_FSIZE = 0 and stderr redirected to a
// file, where a write raises SIGXFSZ (signal 25) -- which killed the child and
// every connection. Each case runs in a forked child (fresh provider, own
// stderr file) and reports through its exit status:
//   * FSIZE = 0, stderr a file: the child uses AES-256-GCM, unloads the
//     provider, and exits normally; nothing is written; SIGXFSZ is not left
//     blocked or pending;
//   * the same without the limit writes the line (so the first case can fail);
//   * a child forked after the parent served GCM reports only what it served
//     itself, and nothing when it served nothing;
//   * diag_write itself under FSIZE = 0: refused for a file, written to a pipe
//     (the limit applies to regular files only).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "engine/diag_write.h"
#include "test_util.h"

namespace gpucrypto::test {
namespace {

// Exit codes a child reports (0: all well).
enum : int { kOk = 0, kNoProvider = 10, kGcmFailed, kWrittenUnderLimit, kMaskLeft, kPendingLeft,
             kPipeNotWritten, kForkFailed, kGrandchildFailed };

std::string temp_file(const char* tag) {
  return std::string("/tmp/diag_write_test_") + tag + "_" + std::to_string(getpid());
}
std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
// stderr (fd 2) to a new file.
void stderr_to(const std::string& path) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd >= 0) {
    dup2(fd, 2);
    close(fd);
  }
}
void limit_file_size_to_zero() {
  const rlimit zero{0, 0};
  setrlimit(RLIMIT_FSIZE, &zero);
}
// One 16-byte AES-256-GCM message through gpucrypto: one GCM record.
bool one_gcm_record(OSSL_LIB_CTX* lib) {
  Bytes out;
  return evp_crypt(lib, "AES-256-GCM", "provider=gpucrypto", true, Bytes(32, 1), Bytes(12, 2),
                   Bytes(16, 3), &out);
}
// After the call under test: SIGXFSZ neither blocked nor pending.
int signal_state() {
  sigset_t mask, pending;
  pthread_sigmask(SIG_SETMASK, nullptr, &mask);
  if (sigismember(&mask, SIGXFSZ) == 1) return kMaskLeft;
  sigpending(&pending);
  return sigismember(&pending, SIGXFSZ) == 1 ? kPendingLeft : kOk;
}
std::unique_ptr<ProviderFixture> provider_logging() {
  setenv("GPUCRYPTO_LOG", "1", 1);
  auto p = std::make_unique<ProviderFixture>();
  unsetenv("GPUCRYPTO_LOG");
  return p;
}

// Runs `body` in a child; its exit code, or 128 + the signal that killed it.
template <class Body>
int in_child(const Body& body) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

// A child with log = 1 and its stderr in `err` serves one GCM record, then
// (with `fsize0`, as sshd's sandbox, after setup) drops RLIMIT_FSIZE to 0,
// and unloads the provider (teardown: the GCM count line). Its exit code.
int one_record_then_unload(const std::string& err, bool fsize0) {
  return in_child([&] {
    stderr_to(err);
    auto prov = provider_logging();
    if (!prov->ok()) return int(kNoProvider);
    if (!one_gcm_record(prov->libctx())) return int(kGcmFailed);
    if (fsize0) limit_file_size_to_zero();
    prov.reset();
    return signal_state();
  });
}

// The sshd case: a sandbox-like child uses the provider with log = 1 and
// unloads it. Before the fix it died of SIGXFSZ (exit 128 + 25).
TEST(DiagWrite, LogLineAtUnloadNeverKillsAFileSizeLimitedChild) {
  const std::string err = temp_file("fsize0");
  const int rc = one_record_then_unload(err, true);
  EXPECT_EQ(rc, kOk) << "128 + " << SIGXFSZ << " = killed by SIGXFSZ; stderr: " << slurp(err);
  EXPECT_EQ(slurp(err), "") << "nothing may be written past RLIMIT_FSIZE";
  std::remove(err.c_str());
}

// The same without the limit writes the line: the guard above is what kept
// the child alive, not a line that was never attempted.
TEST(DiagWrite, LogLineWrittenWhereSafe) {
  const std::string err = temp_file("nolimit");
  const int rc = one_record_then_unload(err, false);
  EXPECT_EQ(rc, kOk);
  EXPECT_NE(slurp(err).find("gpucrypto: GCM served 1 records, 16 bytes"), std::string::npos) << slurp(err);
  std::remove(err.c_str());
}

// A child forked from the process that loaded the provider: quiet when it
// served nothing (it inherited `log`, not a use), its own count otherwise.
TEST(DiagWrite, ForkedChildReportsOnlyWhatItServed) {
  const std::string parent = temp_file("parent"), quiet = temp_file("quiet"), busy = temp_file("busy");
  const int rc = in_child([&] {
    stderr_to(parent);
    auto prov = provider_logging();
    if (!prov->ok()) return int(kNoProvider);
    if (!one_gcm_record(prov->libctx())) return int(kGcmFailed);
    if (in_child([&] {
          stderr_to(quiet);
          prov.reset();
          return int(kOk);
        }) != kOk)
      return int(kGrandchildFailed);
    if (in_child([&] {
          stderr_to(busy);
          if (!one_gcm_record(prov->libctx()) || !one_gcm_record(prov->libctx())) return int(kGcmFailed);
          prov.reset();
          return int(kOk);
        }) != kOk)
      return int(kGrandchildFailed);
    prov.reset();
    return int(kOk);
  });
  EXPECT_EQ(rc, kOk);
  EXPECT_EQ(slurp(quiet), "") << "a child that served nothing must stay quiet";
  EXPECT_NE(slurp(busy).find("GCM served 2 records, 32 bytes"), std::string::npos)
      << "a child counts from zero: " << slurp(busy);
  EXPECT_NE(slurp(parent).find("GCM served 1 records, 16 bytes"), std::string::npos) << slurp(parent);
  for (const std::string& f : {parent, quiet, busy}) std::remove(f.c_str());
}

TEST(DiagWrite, RefusedForAFileUnderTheLimitWrittenToAPipe) {
  const std::string err = temp_file("direct");
  const int rc = in_child([&] {
    stderr_to(err);
    limit_file_size_to_zero();
    if (diag_write("x\n", 2)) return int(kWrittenUnderLimit);
    if (const int s = signal_state(); s != kOk) return s;
    int p[2];
    if (pipe(p) != 0) return int(kPipeNotWritten);
    dup2(p[1], 2);
    const bool ok = diag_write("pipe\n", 5);
    char buf[8] = {};
    const bool got = read(p[0], buf, sizeof buf) == 5 && std::string(buf) == "pipe\n";
    return ok && got ? signal_state() : int(kPipeNotWritten);
  });
  EXPECT_EQ(rc, kOk);
  EXPECT_EQ(slurp(err), "");
  std::remove(err.c_str());
}

}  // namespace
}  // namespace gpucrypto::test
