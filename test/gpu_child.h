// For the GPU tests that need a fresh process (the GPU runtime is per process
// and reads its environment once): runs body() in a forked child with its
// stderr captured, returns the child's exit code (99 if it did not exit).
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace gpucrypto::test {

template <class F>
int run_in_child(F&& body, std::string* err) {
  char path[] = "/tmp/gpucrypto_child_XXXXXX";
  const int fd = mkstemp(path);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, 2);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(fd);
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  *err = ss.str();
  std::remove(path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

}  // namespace gpucrypto::test
