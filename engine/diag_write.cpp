#include "engine/diag_write.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <ctime>

namespace gpucrypto {
namespace {

// Whether `len` more bytes at the end of stderr stay under RLIMIT_FSIZE.
// Uses only fstat, getrlimit and lseek; any failure means "unsafe".
bool fits(int fd, size_t len) {
  struct stat st;
  if (fstat(fd, &st) != 0) return false;  // EACCES in sshd's sandbox: cannot tell
  if (!S_ISREG(st.st_mode)) return true;  // the limit applies to regular files only
  struct rlimit rl;
  if (getrlimit(RLIMIT_FSIZE, &rl) != 0) return false;
  if (rl.rlim_cur == RLIM_INFINITY) return true;
  // The write lands at the offset, or at the end with O_APPEND: the larger.
  const off_t pos = lseek(fd, 0, SEEK_CUR);
  const uint64_t end = std::max<uint64_t>(uint64_t(st.st_size), pos < 0 ? 0 : uint64_t(pos));
  return end <= rl.rlim_cur && len <= rl.rlim_cur - end;
}

}  // namespace

bool diag_write(const char* line, size_t len) {
  const int saved_errno = errno;
  const int fd = STDERR_FILENO;
  bool ok = false;
  sigset_t xfsz, old, pending;
  sigemptyset(&xfsz);
  sigaddset(&xfsz, SIGXFSZ);
  if (fits(fd, len) && pthread_sigmask(SIG_BLOCK, &xfsz, &old) == 0) {
    // A SIGXFSZ already pending is the host's: leave it to the host.
    const bool was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1;
    size_t done = 0;
    while (done < len) {
      const ssize_t w = write(fd, line + done, len - done);
      if (w > 0) {
        done += size_t(w);
      } else if (w < 0 && errno == EINTR) {
        continue;
      } else {
        if (w < 0 && errno == EFBIG && !was_pending) {
          const timespec zero{};
          while (sigtimedwait(&xfsz, nullptr, &zero) < 0 && errno == EINTR) {
          }
        }
        break;
      }
    }
    ok = done == len;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }
  errno = saved_errno;
  return ok;
}

}  // namespace gpucrypto
