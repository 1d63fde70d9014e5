// Running another program (openssl) without a shell: argv is passed as is,
// stdout and stderr are captured separately.
#pragma once
#include <string>
#include <vector>

namespace gpucrypto::bench {

struct SpawnResult {
  int exit_code = -1;  // the program's exit status; -1 if it did not start or was killed
  std::string out, err;
  std::string error;   // why it did not start or how it ended, if not normally
};

// Runs argv[0] (searched in PATH when it has no '/') with argv, stdin from
// /dev/null, and waits for it.
SpawnResult spawn_capture(const std::vector<std::string>& argv);

// Splits a command prefix into words: blanks separate words; single quotes,
// double quotes and backslashes work as in the shell (no expansions other
// than a leading "~/", which becomes $HOME/). False on an unterminated quote.
bool split_command(const std::string& s, std::vector<std::string>* words);

// argv as a shell command line (each word quoted where needed), for display.
std::string command_text(const std::vector<std::string>& argv);

}  // namespace gpucrypto::bench
