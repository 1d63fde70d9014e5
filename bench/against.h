// --against: our provider vs the default provider measured inside another
// OpenSSL's own `openssl speed` (see bench/README.md, "Inside the host's
// openssl speed").
#pragma once
#include <vector>

#include "bench/table.h"

namespace gpucrypto::bench {

struct Options;
struct RunInfo;
struct ModeResult;

// Probes the openssl program or runner of opt.against, finds the ciphers
// and KEMs both providers implement, prints the header and runs the rounds
// (progress on stderr). Returns the "against" (ciphers) and "against-kem"
// results (either may have no rows). Throws on a target that does not work.
std::vector<ModeResult> run_against(const Options& opt, RunInfo* info);

// The tables of those results (report.cpp's mode_tables dispatches here).
std::vector<Table> against_tables(const ModeResult& m);

}  // namespace gpucrypto::bench
