// Diagnostic lines on stderr that can never harm the process they run in.
//
// The provider runs inside other programs, some of them sandboxed: OpenSSH's
// sshd runs its pre-authentication child with RLIMIT_FSIZE = 0 under a
// seccomp filter, and a write(2) past that limit to a regular file (sshd -e
// with stderr redirected) raises SIGXFSZ, which kills the child and with it
// the connection. The filter also kills the process on system calls it does
// not list (getrlimit among them) and answers fstat(2) with EACCES. So a line
// is written only when fstat says what stderr is and, for a regular file,
// getrlimit says the line fits under RLIMIT_FSIZE; SIGXFSZ is blocked around
// the write, and should the limit shrink in between (EFBIG), the signal the
// write raised is consumed before the mask is restored.
#pragma once
#include <cstddef>

namespace gpucrypto {

// Writes `len` bytes of `line` to stderr (fd 2, unbuffered) where that is
// safe, as above; returns whether all of it was written. errno is preserved.
bool diag_write(const char* line, size_t len);

}  // namespace gpucrypto
