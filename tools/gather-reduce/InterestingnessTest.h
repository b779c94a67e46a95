//===- InterestingnessTest.h - The test run with a time limit ---*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mlir-reduce runs the interestingness test itself (mlir::Tester) with no
// time limit, and trusts it to answer the same for the same input: a test
// that hangs makes it wait forever, one that is not deterministic leads it
// into inconsistent states (fatal errors, segfaults in ReductionNode).
// gather-reduce therefore points the reduction passes' `test=` at itself,
// run in test mode (argv[1] is kRunTestFlag), with the user's test as
// arguments:
//
//   gather-reduce <candidate> --gather-reduce-run-test <timeout> <state dir>
//                 <test> <test-arg>... <candidate>
//
// (mlir::Tester passes the candidate as argv[0] and as the last argument).
// In test mode it runs the test in a process group of its own and kills the
// group after `timeout` seconds (0: no limit): a test that times out or ends
// by a signal is not interesting. The state directory, shared by all the
// runs of one reduction, remembers each candidate's first answer (by a hash
// of its text) and returns it ever after, so the reduction always sees one
// answer per candidate. The first candidate (the input) is tested twice, and
// any candidate tested again is run again: an answer that differs from the
// first one, or the input timing out, is recorded as an error that
// gather-reduce reports at the end (getRecordedTestError). It also keeps the
// smallest interesting candidate (getSmallestInterestingCandidate).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TOOLS_GATHER_REDUCE_INTERESTINGNESSTEST_H
#define GATHER_TOOLS_GATHER_REDUCE_INTERESTINGNESSTEST_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace gather::reduce {

/// argv[1] of gather-reduce in test mode.
inline constexpr llvm::StringLiteral kRunTestFlag = "--gather-reduce-run-test";

/// gather-reduce in test mode (the file comment); returns the exit status
/// mlir::Tester expects: 1 if the candidate is interesting, else 0.
int runInterestingnessTest(int argc, char **argv);

/// The error the test runs of a reduction recorded in `stateDir`, or "".
std::string getRecordedTestError(llvm::StringRef stateDir);

/// The file in `stateDir` that holds the smallest candidate found
/// interesting so far, or "" if none was.
std::string getSmallestInterestingCandidate(llvm::StringRef stateDir);

} // namespace gather::reduce

#endif // GATHER_TOOLS_GATHER_REDUCE_INTERESTINGNESSTEST_H
