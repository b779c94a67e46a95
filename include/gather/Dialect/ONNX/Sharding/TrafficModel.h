//===- TrafficModel.h - Bytes each MPI process sends per scheme -*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place that computes the bytes each process sends for each scheme
// of a partitioned gather (docs/Sharding.md, "Which scheme is chosen
// when"): what onnx-shard-gathers chooses the scheme of a split of the
// gather axis by (axis-scheme=auto), what the collectives' remarks print,
// and what test/lib/MPITraffic measures (the bandwidth-optimal algorithm of
// each MPI call: ring all-gather, reduce-scatter + all-gather for the
// all-reduce, each block addressed to another process for the all-to-all).
// Plain C++, no MLIR.
//
// Notation: P processes, n elements of the result (of `indices`), e bytes
// per element, D elements of `data`.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_SHARDING_TRAFFICMODEL_H
#define GATHER_DIALECT_ONNX_SHARDING_TRAFFICMODEL_H

#include <cstdint>

namespace gather {

/// How a gather split along its axis combines the processes' slabs of
/// `data` (onnx-shard-gathers{axis-scheme}).
enum class AxisScheme {
  /// Not a scheme: the value of the axis-scheme options that lets
  /// chooseAxisScheme decide (ShardingOptions.h).
  Auto,
  /// A masked gather from each slab, the results summed (bit-exact
  /// MPI_Allreduce of the whole result).
  AllReduce,
  /// The slabs of `data` assembled on every process (MPI_Allgatherv), then
  /// an ordinary local gather.
  AllGatherData,
  /// Each process looks up its block of the indices: requests (the 8-byte
  /// positions) to the owners of the slabs, values back (MPI_Alltoall of
  /// the counts, MPI_Alltoallv of requests and values), then the result
  /// assembled (MPI_Allgatherv).
  AllToAll,
};

/// Every scheme, in the order of AxisScheme (without Auto).
inline constexpr AxisScheme kAxisSchemes[] = {
    AxisScheme::AllReduce, AxisScheme::AllGatherData, AxisScheme::AllToAll};

/// The bytes sent per process, for `processes` processes.
struct TrafficModel {
  int64_t processes;

  /// MPI_Allreduce of `bytes` (reduce-scatter + all-gather):
  /// 2 (P-1)/P · bytes.
  constexpr int64_t allReduce(int64_t bytes) const {
    return 2 * bytes * (processes - 1) / processes;
  }

  /// MPI_Allgatherv of a whole of `bytes` in P blocks (ring): (P-1)/P · bytes.
  constexpr int64_t allGather(int64_t bytes) const {
    return bytes * (processes - 1) / processes;
  }

  /// The index-error consensus: one 8-byte MPI_Allreduce per call.
  constexpr int64_t indexConsensus() const { return allReduce(8); }

  /// The bytes of one request of the all-to-all (a position in `data`) and
  /// of one count (both int64_t).
  static constexpr int64_t kRequestBytes = 8, kCountBytes = 8;

  /// The all-to-all lookup of n = `elements` results of `elementBytes`
  /// bytes, with the indices spread evenly over the slabs: the counts
  /// (P-1)·8, the requests to the other processes and their values back,
  /// (P-1)/P² · n · (8 + e).
  constexpr int64_t allToAllLookup(int64_t elements,
                                   int64_t elementBytes) const {
    return (processes - 1) * kCountBytes + elements * (processes - 1) *
                                               (kRequestBytes + elementBytes) /
                                               (processes * processes);
  }

  /// The bytes per process of `scheme` for a gather of n = `elements`
  /// results from D = `dataElements` elements of `elementBytes` bytes, the
  /// result whole on every process (the index consensus not counted: every
  /// scheme has it):
  ///   all-reduce       2 (P-1)/P · n·e
  ///   all-gather-data  (P-1)/P · D·e
  ///   all-to-all       (P-1)·8 + (P-1)/P² · n·(8+e) + (P-1)/P · n·e
  constexpr int64_t axisSplit(AxisScheme scheme, int64_t elements,
                              int64_t dataElements,
                              int64_t elementBytes) const {
    switch (scheme) {
    case AxisScheme::AllReduce:
      return allReduce(elements * elementBytes);
    case AxisScheme::AllGatherData:
      return allGather(dataElements * elementBytes);
    case AxisScheme::AllToAll:
      return allToAllLookup(elements, elementBytes) +
             allGather(elements * elementBytes);
    case AxisScheme::Auto:
      break;
    }
    return 0;
  }

  /// The scheme of axis-scheme=auto: the fewest bytes (axisSplit), the
  /// earlier one of AxisScheme on a tie.
  constexpr AxisScheme chooseAxisScheme(int64_t elements, int64_t dataElements,
                                        int64_t elementBytes) const {
    AxisScheme best = kAxisSchemes[0];
    for (AxisScheme scheme : kAxisSchemes)
      if (axisSplit(scheme, elements, dataElements, elementBytes) <
          axisSplit(best, elements, dataElements, elementBytes))
        best = scheme;
    return best;
  }
};

static_assert(TrafficModel{2}.allReduce(256) == 256 &&
                  TrafficModel{8}.allGather(256) == 224 &&
                  TrafficModel{4}.indexConsensus() == 12 &&
                  TrafficModel{4}.allToAllLookup(64, 4) == 24 + 144,
              "the traffic model of docs/Sharding.md");

} // namespace gather

#endif // GATHER_DIALECT_ONNX_SHARDING_TRAFFICMODEL_H
