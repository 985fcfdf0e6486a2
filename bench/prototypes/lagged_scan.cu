// Prototype, hand-written CUDA (not tcuc output): a single-pass inclusive
// scan of the whole array, f16 -> f32, in which no block waits on the
// look-back chain while it holds a chunk.
//
// Why: tcuc's look-back scan (the `lookback` variant) holds its chunk in
// registers across the look-back and reaches 0.59 of the copy ceiling on
// the H100; the grid scan reads the input twice and is capped at 0.75
// (docs/performance.md, "What limits each missed cell", item 1). Here a
// persistent block's ticket t does two things:
//   - reduce chunk t (from DRAM) and publish its total, agg[t], without
//     waiting for anything;
//   - scan chunk s = t - D, whose input was read D tickets ago (so it should
//     come from L2) and whose predecessors' totals were published about D
//     tickets ago (so its prefix needs no waiting).
// The prefix of chunk s comes from a tree of totals with fan-out 32 and no
// chain: level 0 holds each chunk's total, level l + 1 the sum of 32
// level-l words. Whoever publishes the last of a group's 32 words (a
// counter per group says who) sums the group and publishes the word above;
// that work waits only for words already stored (each word carries its
// flag, so the counter can be relaxed: acq_rel cost 6-9%). The prefix of s
// is the chunk words of [a, s), a = the start of s's level-1 group less
// `window` groups, plus, at each level, the words of the full groups
// before a inside its parent group: at most 31 words a level, one load a
// thread, every sum in a fixed association, so the result is bitwise
// deterministic. (A first version chained one word per 256 chunks, E(g) =
// E(g-1) + group g-1, computed by the scan of each group's first chunk:
// 0.67 of the copy ceiling at best, the chain's links the limit.)
//
// Deadlock freedom: tickets are drawn by running blocks (the next one
// drawn during the current iteration); a ticket waits only on words
// published by smaller tickets or already stored, and the smallest
// unfinished ticket is always held by a running block as its current
// ticket, so it always progresses.
//
// Results: bench/results/lagged-scan-prototype/README.md.
//
// Build and run (on the GPU machine):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/lagged \
//       bench/prototypes/lagged_scan.cu
//   /tmp/lagged [log2 n] [f16f32|f16f16|i8i32] [best] [log2 segment]
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,               \
              cudaGetErrorString(e));                                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kFan = 32;      // a tree word sums 32 words of the level below
constexpr int kMaxLevels = 6; // 32^6 chunks

struct Params {
  const void *in; // the element types are the kernel's template arguments
  void *out;
  // Level l's words (flag << 32 | f32 bits); level 0: a word per chunk.
  unsigned long long *sums[kMaxLevels];
  // Level l's counters (l >= 1): how many of a group's 32 words are out.
  unsigned *counts[kMaxLevels];
  int levels; // 32^levels >= perSeg
  // Chunks a segment (a tree per segment; = chunks for the whole array)
  // and each level's words a segment: level l of segment g starts at
  // g * span[l].
  long long perSeg;
  long long span[kMaxLevels];
  // Sum a group as soon as its counter says so (else: at the next
  // iteration, after the next chunk's loads are issued).
  bool immediate;
  // A block per ticket (grid = chunks + lag), not a persistent loop.
  bool oneTicket;
  // Keep the tree (counters, group sums) even with the oracle: its cost
  // without its waits.
  bool maintain;
  bool acqRel; // the counters' order (else relaxed)
  // Draw the next ticket after the iteration's first barrier (else at its
  // start): a ticket waits less before it is worked on.
  bool lateTicket;
  int window; // level-1 groups before s's own taken from chunk words (0-4)
  // Not null: waits that found their word missing, by prefix level (0-5)
  // and in group sums (6).
  unsigned long long *spins;
  unsigned *ticket;
  // Not null: every chunk's prefix read from here (computed beforehand), no
  // chain and no waiting: the schedule's upper bound.
  const unsigned *oracle; // bits of the accumulator type
  long long chunks;
  long long lag;
};

__device__ __forceinline__ unsigned long long
loadRelaxed(const unsigned long long *p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];"
               : "=l"(v)
               : "l"(p)
               : "memory");
  return v;
}

__device__ __forceinline__ void storeRelaxed(unsigned long long *p,
                                             unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v)
               : "memory");
}

// Flag and value share one 64-bit word, so a relaxed load sees both or
// neither.
// A wait that found its word missing counts once in spins[kind] (when
// spins is not null): where the lag is too short.
__device__ __forceinline__ unsigned
waitWord(const unsigned long long *p, unsigned long long *spins = nullptr,
         int kind = 0) {
  unsigned long long v = loadRelaxed(p);
  if ((v >> 32) == 0) {
    if (spins)
      atomicAdd(spins + kind, 1ull);
    while (((v = loadRelaxed(p)) >> 32) == 0)
      ;
  }
  return unsigned(v);
}

// A group's counter. acq_rel orders the word stored before it, but cost
// 6-9% of the time (the tree kept up with prefixes from a table: 0.853-0.862
// of the copy ceiling acq_rel, 0.914-0.920 relaxed; probably because it
// orders all of the thread's earlier stores, not profiled); relaxed is
// enough, since whoever sums the group waits on each word's own flag
// (waitWord) anyway.
__device__ __forceinline__ unsigned addCounter(unsigned *p, bool acqRel) {
  unsigned old;
  if (acqRel)
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;"
                 : "=r"(old)
                 : "l"(p)
                 : "memory");
  else
    asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1;"
                 : "=r"(old)
                 : "l"(p)
                 : "memory");
  return old;
}

template <class Acc> __device__ __forceinline__ Acc warpSum(Acc v) {
  for (int d = 16; d > 0; d >>= 1)
    v += __shfl_xor_sync(~0u, v, d);
  return v;
}

__host__ __device__ __forceinline__ unsigned bitsOf(float x) {
  unsigned u;
  memcpy(&u, &x, 4);
  return u;
}
__host__ __device__ __forceinline__ unsigned bitsOf(int x) {
  return unsigned(x);
}
template <class Acc> __device__ __forceinline__ Acc fromBits(unsigned u) {
  Acc x;
  memcpy(&x, &u, 4);
  return x;
}

template <class Acc> __device__ __forceinline__ unsigned long long word(Acc x) {
  return (1ull << 32) | bitsOf(x);
}

// Hints = 1: the first read keeps its lines in L2 (evict_last), the second
// read leaves first (evict_first), the output is stored with .cs
// (streaming); Hints = 2: the same loads, the output stored evict_first.
template <int Hints>
__device__ __forceinline__ uint4 loadLine(const void *p, bool firstRead) {
  uint4 v;
  if (Hints) {
    unsigned long long pol;
    if (firstRead)
      asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;"
                   : "=l"(pol));
    else
      asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;"
                   : "=l"(pol));
    asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p), "l"(pol));
  } else {
    v = *reinterpret_cast<const uint4 *>(p);
  }
  return v;
}

template <int Hints>
__device__ __forceinline__ void storeLine(void *p, uint4 v) {
  if (Hints == 2) {
    unsigned long long pol;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;"
                 : "=l"(pol));
    asm volatile(
        "st.global.L2::cache_hint.v4.u32 [%0], {%1,%2,%3,%4}, %5;" ::"l"(p),
        "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "l"(pol)
        : "memory");
  } else if (Hints)
    asm volatile("st.global.cs.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x),
                 "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
  else
    *reinterpret_cast<uint4 *>(p) = v;
}

// E outputs of a thread, converted to Out, as 16-byte stores. With a
// warp's staging buffer (`stage`, 32 lanes' lines), the warp's lines are
// first exchanged through shared memory so that each store instruction
// writes 512 contiguous bytes (lane l line j*32 + l) instead of 16 bytes
// every E * sizeof(Out) bytes.
template <int Hints, class Out, class Acc, int E>
__device__ __forceinline__ void storeOut(Out *p, const Acc (&v)[E], Acc shift,
                                         uint4 *stage = nullptr,
                                         char *warpBase = nullptr) {
  static_assert(E * sizeof(Out) % 16 == 0, "whole lines");
  constexpr int kLines = E * sizeof(Out) / 16;
  uint4 lines[kLines];
  Out *o = reinterpret_cast<Out *>(lines);
  for (int i = 0; i < E; ++i)
    o[i] = Out(v[i] + shift);
  if (!stage) {
    for (int l = 0; l < kLines; ++l)
      storeLine<Hints>(reinterpret_cast<char *>(p) + 16 * l, lines[l]);
    return;
  }
  const int lane = threadIdx.x & 31;
  for (int l = 0; l < kLines; ++l)
    stage[lane * kLines + l] = lines[l];
  __syncwarp();
  for (int l = 0; l < kLines; ++l)
    storeLine<Hints>(warpBase + 16 * (l * 32 + lane), stage[l * 32 + lane]);
  __syncwarp();
}

__device__ __forceinline__ void unpack(uint4 v, float (&f)[8]) {
  const __half2 *h = reinterpret_cast<const __half2 *>(&v);
  for (int i = 0; i < 4; ++i) {
    float2 x = __half22float2(h[i]);
    f[2 * i] = x.x;
    f[2 * i + 1] = x.y;
  }
}
__device__ __forceinline__ void unpack(uint4 v, int (&f)[16]) {
  const unsigned w[4] = {v.x, v.y, v.z, v.w};
  for (int i = 0; i < 16; ++i)
    f[i] = int(static_cast<signed char>(w[i / 4] >> (8 * (i % 4))));
}

// The operations measured: input, accumulator and output types.
struct F16F32 {
  using In = __half;
  using Acc = float;
  using Out = float;
};
struct F16F16 {
  using In = __half;
  using Acc = float;
  using Out = __half;
};
struct I8I32 {
  using In = signed char;
  using Acc = int;
  using Out = int;
};

// Warp 0 (all lanes), having published word `index` of `level` and got
// `old` back from its group's counter: while it was the group's last word,
// sums the group (its words are all out) and publishes the word above.
// Waits on nothing that is not already published.
template <class Acc>
__device__ void completeGroups(const Params &p, int level, long long chunk,
                               unsigned old) {
  const int lane = threadIdx.x & 31;
  long long seg = chunk / p.perSeg, index = chunk % p.perSeg;
  while (old == kFan - 1) {
    long long group = index / kFan;
    Acc v = warpSum(fromBits<Acc>(
        waitWord(&p.sums[level][seg * p.span[level] + group * kFan + lane],
                 p.spins, kMaxLevels)));
    ++level;
    index = group;
    old = 0;
    if (lane == 0) {
      storeRelaxed(&p.sums[level][seg * p.span[level] + index], word(v));
      if (level + 1 < p.levels)
        old = addCounter(
            &p.counts[level + 1][seg * p.span[level + 1] + index / kFan],
            p.acqRel);
    }
    old = __shfl_sync(~0u, old, 0);
  }
}

// Rounds of one 16-byte line a thread (E = 16 / sizeof(In) elements):
// chunk = Rounds * E * kThreads elements, in round-major order (round k,
// thread j holds elements (k*kThreads+j)*E .. +E-1).
//
// Recompute: keep only the loaded lines of the scanned chunk across the
// block's barrier and redo the thread's running sums after it (the same
// adds in the same order, so the same bits), instead of holding E
// accumulators a line: fewer registers, so more elements a thread.
//
// Coalesce: stores go through a per-warp shared-memory staging buffer
// (storeOut), so a store instruction writes 512 contiguous bytes.
//
// Own (1 or 2; 0: off): the block scans its own chunk of Own iterations ago,
// whose loaded lines it kept in a shared-memory ring (each thread its own
// lines: no barrier), instead of re-reading chunk t - lag from L2; the
// reduced chunk's loads then leave L2 first (evict_first). Tickets run to
// the chunks only; a block with no ticket left scans what its ring holds.
// Progress: the smallest unreduced chunk m is held by a running block
// (tickets are drawn by running blocks) that either reduces it (no wait)
// or scans an own chunk below it, whose predecessors are below m, hence
// reduced and their words out (a group's word is published by the block
// that reduced its last chunk, at once with `immediate`).
template <class T, int Rounds, int Hints, int MinBlocks = 1,
          bool Recompute = false, bool Coalesce = false, int Own = 0>
__global__ void __launch_bounds__(kThreads, MinBlocks) laggedScan(Params p) {
  using In = typename T::In;
  using Acc = typename T::Acc;
  using Out = typename T::Out;
  constexpr int E = 16 / sizeof(In);
  constexpr long long kChunk = Rounds * E * kThreads;
  const In *in = static_cast<const In *>(p.in);
  Out *out = static_cast<Out *>(p.out);
  __shared__ Acc reducePart[kWarps];
  __shared__ Acc prefixPart[kWarps];
  __shared__ Acc scanPart[Rounds][kWarps];
  __shared__ Acc oracleBase;
  __shared__ unsigned long long tick[2];
  constexpr int kOutLines = E * sizeof(Out) / 16;
  __shared__ uint4 stage[Coalesce ? kWarps : 1][Coalesce ? 32 * kOutLines : 1];
  __shared__ uint4 ring[Own ? Own : 1][Own ? Rounds : 1][Own ? kThreads : 1];
  // The chunk each ring slot holds (-1: none); the same in every thread.
  // (Two scalars, not an array: a dynamically indexed array lives in local
  // memory.)
  static_assert(Own <= 2, "a ring of at most 2");
  long long held0 = -1, held1 = -1;
  int holding = 0;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  // Warp 0's counter result for the chunk it published, looked at after
  // the block's barrier (immediate) or at the next iteration.
  long long pendingChunk = -1;
  unsigned pendingOld = 0;

  if (threadIdx.x == 0)
    tick[0] = atomicAdd(p.ticket, 1u);
  __syncthreads();
  for (int it = 0;; ++it) {
    long long t = (long long)tick[it & 1];
    const int slot = Own ? it % (Own ? Own : 1) : 0;
    if (Own ? (t >= p.chunks && holding == 0)
            : (t >= p.chunks + p.lag || (p.oneTicket && it > 0)))
      break;
    unsigned next = 0;
    if (threadIdx.x == 0 && !p.oneTicket && !p.lateTicket)
      next = atomicAdd(p.ticket, 1u); // used at the iteration's end
    const bool doReduce = t < p.chunks;
    const long long mine = slot ? held1 : held0;
    const bool doScan = Own ? mine >= 0 : t >= p.lag;
    const long long r = t, s = Own ? mine : t - p.lag;

    uint4 vr[Rounds], vs[Rounds];
    for (int k = 0; k < Rounds; ++k) {
      long long off = (long long)(k * kThreads + threadIdx.x) * E;
      if (doReduce)
        vr[k] = loadLine<Hints>(in + r * kChunk + off, !Own);
      if (doScan)
        vs[k] = Own ? ring[slot][k][threadIdx.x]
                    : loadLine<Hints>(in + s * kChunk + off, false);
    }
    if (Own) {
      if (doReduce)
        for (int k = 0; k < Rounds; ++k)
          ring[slot][k][threadIdx.x] = vr[k];
      holding += (doReduce ? 1 : 0) - (doScan ? 1 : 0);
      (slot ? held1 : held0) = doReduce ? r : -1;
    }
    if (warp == 0 && pendingChunk >= 0)
      completeGroups<Acc>(p, 0, pendingChunk, __shfl_sync(~0u, pendingOld, 0));
    pendingChunk = -1;

    // The prefix's words.
    Acc part = 0, base = 0;
    if (doScan && p.oracle) {
      if (threadIdx.x == 0)
        base = fromBits<Acc>(p.oracle[s]);
    } else if (doScan) {
      // Chunks [a, s) from their own words (warps 0..window), [0, a) from
      // the tree (warp window + l: level l), a = s's level-1 group start
      // less `window` groups: the most recent groups need no group sum.
      // (All within s's segment: c is s's chunk in it.)
      long long seg = s / p.perSeg, c = s % p.perSeg;
      long long a = (c / kFan > p.window ? c / kFan - p.window : 0) * kFan;
      if (warp <= p.window) {
        long long i = a + warp * kFan + lane;
        if (i < c)
          part = fromBits<Acc>(
              waitWord(&p.sums[0][seg * p.span[0] + i], p.spins, 0));
      } else if (int level = warp - p.window; level < p.levels) {
        long long digit = (a >> (5 * level)) & (kFan - 1);
        long long from = (a >> (5 * (level + 1))) * kFan;
        if (lane < digit)
          part = fromBits<Acc>(
              waitWord(&p.sums[level][seg * p.span[level] + from + lane],
                       p.spins, level));
      }
    }

    Acc rsum = 0;
    if (doReduce)
      for (int k = 0; k < Rounds; ++k) {
        Acc f[E];
        unpack(vr[k], f);
        for (int i = 0; i < E; ++i)
          rsum += f[i];
      }
    Acc x[Recompute ? 1 : Rounds][E], incl[Rounds];
    if (doScan)
      for (int k = 0; k < Rounds; ++k) {
        Acc(&y)[E] = x[Recompute ? 0 : k];
        unpack(vs[k], y);
        for (int i = 1; i < E; ++i)
          y[i] += y[i - 1];
        incl[k] = y[E - 1];
      }
    rsum = warpSum(rsum);
    part = warpSum(part);
    Acc excl[Rounds];
    for (int k = 0; k < Rounds; ++k) {
      for (int d = 1; d < 32; d <<= 1) {
        Acc y = __shfl_up_sync(~0u, incl[k], d);
        if (lane >= d)
          incl[k] += y;
      }
      excl[k] = __shfl_up_sync(~0u, incl[k], 1);
    }
    if (lane == 0) {
      reducePart[warp] = rsum;
      prefixPart[warp] = part;
    }
    if (lane == 31)
      for (int k = 0; k < Rounds; ++k)
        scanPart[k][warp] = incl[k];
    if (threadIdx.x == 0)
      oracleBase = base;
    __syncthreads();
    if (threadIdx.x == 0 && !p.oneTicket && p.lateTicket)
      next = atomicAdd(p.ticket, 1u);

    if (doReduce && threadIdx.x == 0) {
      Acc total = reducePart[0];
      for (int w = 1; w < kWarps; ++w)
        total += reducePart[w];
      long long seg = r / p.perSeg, c = r % p.perSeg;
      storeRelaxed(&p.sums[0][seg * p.span[0] + c], word(total));
      if (p.levels > 1 && p.maintain) {
        pendingOld =
            addCounter(&p.counts[1][seg * p.span[1] + c / kFan], p.acqRel);
        pendingChunk = r;
      }
    }
    pendingChunk = __shfl_sync(~0u, pendingChunk, 0);
    if (p.immediate && warp == 0 && pendingChunk >= 0) {
      completeGroups<Acc>(p, 0, pendingChunk, __shfl_sync(~0u, pendingOld, 0));
      pendingChunk = -1;
    }
    if (doScan) {
      // Highest level first: a fixed association.
      Acc prefix = oracleBase;
      for (int w = kWarps - 1; w >= 0; --w)
        prefix += prefixPart[w];
      Acc round = prefix;
      for (int k = 0; k < Rounds; ++k) {
        Acc start = round;
        for (int w = 0; w < warp; ++w)
          start += scanPart[k][w];
        if (lane > 0)
          start += excl[k];
        Acc(&y)[E] = x[Recompute ? 0 : k];
        if (Recompute) {
          unpack(vs[k], y);
          for (int i = 1; i < E; ++i)
            y[i] += y[i - 1];
        }
        Out *mine =
            out + s * kChunk + (long long)(k * kThreads + threadIdx.x) * E;
        if (Coalesce)
          storeOut<Hints>(mine, y, start, stage[warp],
                          reinterpret_cast<char *>(mine - lane * E));
        else
          storeOut<Hints>(mine, y, start);
        for (int w = 0; w < kWarps; ++w)
          round += scanPart[k][w];
      }
    }
    if (threadIdx.x == 0)
      tick[(it + 1) & 1] = next;
    __syncthreads();
  }
  if (warp == 0 && pendingChunk >= 0)
    completeGroups<Acc>(p, 0, pendingChunk, __shfl_sync(~0u, pendingOld, 0));
}

struct Config {
  int rounds, hints, blocksPerSM;
  long long lag; // in chunks
  bool oracle, immediate, oneTicket;
  bool maintainWithOracle = false;
  bool acqRel = false;
  bool lateTicket = false;
  int window = 0;
  bool recompute = false;
  bool coalesce = false; // only with recompute
  int own = 0;           // the shared-memory ring's depth (laggedScan's Own)
};

using Kernel = void (*)(Params);

template <class T>
static Kernel kernelFor(int rounds, int hints, int bps, bool recompute,
                        bool coalesce, int own = 0) {
  if (own) { // f16->f16's best shape only: 4 rounds, 3 blocks, recompute
    if (rounds != 4 || hints != 1 || bps != 3 || !recompute || coalesce)
      return nullptr;
    return own == 1 ? laggedScan<T, 4, 1, 3, true, false, 1>
                    : laggedScan<T, 4, 1, 3, true, false, 2>;
  }
  if (recompute) { // the L2 hints; registers for 2, 3 or 4 blocks an SM
    if (hints != 1 || (rounds != 2 && rounds != 4) || bps < 2 || bps > 4)
      return nullptr;
    Kernel two[] = {laggedScan<T, 2, 1, 2, true>, laggedScan<T, 2, 1, 3, true>,
                    laggedScan<T, 2, 1, 4, true>};
    Kernel four[] = {laggedScan<T, 4, 1, 2, true>, laggedScan<T, 4, 1, 3, true>,
                     laggedScan<T, 4, 1, 4, true>};
    Kernel twoC[] = {laggedScan<T, 2, 1, 2, true, true>,
                     laggedScan<T, 2, 1, 3, true, true>,
                     laggedScan<T, 2, 1, 4, true, true>};
    Kernel fourC[] = {laggedScan<T, 4, 1, 2, true, true>,
                      laggedScan<T, 4, 1, 3, true, true>,
                      laggedScan<T, 4, 1, 4, true, true>};
    if (coalesce)
      return rounds == 2 ? twoC[bps - 2] : fourC[bps - 2];
    return rounds == 2 ? two[bps - 2] : four[bps - 2];
  }
  // Register limits for the occupancy asked for (64 or 51 registers).
  if (rounds == 2 && hints == 1 && bps == 5)
    return laggedScan<T, 2, 1, 5>;
  Kernel two[] = {laggedScan<T, 2, 0, 4>, laggedScan<T, 2, 1, 4>,
                  laggedScan<T, 2, 2, 4>};
  Kernel four[] = {laggedScan<T, 4, 0>, laggedScan<T, 4, 1>,
                   laggedScan<T, 4, 2>};
  if (rounds == 1) // i8: 16 elements a line, so one round holds 16
    return hints == 1 ? laggedScan<T, 1, 1, 4> : nullptr;
  return rounds == 2 ? two[hints] : four[hints];
}

static float hostValue(__half x) { return __half2float(x); }
static float hostValue(float x) { return x; }
static int hostValue(signed char x) { return x; }
static int hostValue(int x) { return x; }

// Runs the configurations of `configs` (lags in MB of input) for one
// operation; returns false on a setup error.
template <class T>
static bool run(int logN, int logSeg, const char *name,
                const cudaDeviceProp &prop,
                const std::vector<Config> &configsMB) {
  using In = typename T::In;
  using Acc = typename T::Acc;
  using Out = typename T::Out;
  constexpr bool kInt = std::is_same<Acc, int>::value;
  constexpr int E = 16 / sizeof(In);
  const long long n = 1ll << logN;
  printf("%s, n = 2^%d, segment %s\n", name, logN,
         logSeg ? ("2^" + std::to_string(logSeg)).c_str() : "whole");

  // Random data (xorshift), the same every run: f16 in [-1, 1), i8 any.
  std::vector<In> host(n);
  uint64_t st = 0x9e3779b97f4a7c15ull;
  for (long long i = 0; i < n; ++i) {
    st ^= st << 13;
    st ^= st >> 7;
    st ^= st << 17;
    if constexpr (kInt)
      host[i] = In((st >> 40) & 0xff);
    else
      host[i] = __float2half(float((st >> 40) & 0xffff) / 32768.f - 1.f);
  }
  // Segments of 2^logSeg elements (0: the whole array), each scanned alone.
  const long long segment = logSeg ? 1ll << logSeg : n;
  std::vector<double> ref(n);
  double acc = 0, refNorm = 0;
  for (long long i = 0; i < n; ++i) {
    if (i % segment == 0)
      acc = 0;
    acc += double(hostValue(host[i]));
    ref[i] = acc;
    refNorm += acc * acc;
  }

  void *in, *out;
  unsigned long long *words;
  const long long maxChunks = n / (E * kThreads);
  const size_t wordCount = 2 * maxChunks + 64;
  CHECK(cudaMalloc(&in, n * sizeof(In)));
  CHECK(cudaMalloc(&out, n * sizeof(Out)));
  CHECK(cudaMalloc(&words, wordCount * 8 + 64));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(In), cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  auto median = [](std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  unsigned long long *spins;
  CHECK(cudaMalloc(&spins, 8 * sizeof(unsigned long long)));

  // The copy ceiling in this run: cudaMemcpy of 4 bytes an element.
  void *copyDst, *copySrc;
  CHECK(cudaMalloc(&copyDst, n * 4));
  CHECK(cudaMalloc(&copySrc, n * 4));
  CHECK(cudaMemset(copySrc, 1, n * 4));
  std::vector<float> ct;
  for (int i = 0; i < 12; ++i) {
    CHECK(cudaEventRecord(a));
    CHECK(cudaMemcpyAsync(copyDst, copySrc, n * 4, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (i > 1)
      ct.push_back(ms);
  }
  CHECK(cudaFree(copyDst));
  CHECK(cudaFree(copySrc));
  double copyGBs = 2.0 * n * 4 / (median(ct) * 1e6);
  printf("copy ceiling (cudaMemcpy) %.0f GB/s\n", copyGBs);

  // Each chunk's exclusive prefix, for the oracle runs.
  unsigned *oracle[5] = {};
  for (int rounds : {1, 2, 4}) {
    long long chunk = rounds * E * (long long)kThreads;
    std::vector<unsigned> prefix(n / chunk);
    for (long long c = 0; c < n / chunk; ++c)
      prefix[c] =
          bitsOf(c * chunk % segment ? Acc(ref[c * chunk - 1]) : Acc(0));
    CHECK(cudaMalloc(&oracle[rounds], prefix.size() * sizeof(unsigned)));
    CHECK(cudaMemcpy(oracle[rounds], prefix.data(),
                     prefix.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  }
  std::vector<Out> outA(n), outB(n);
  for (Config c : configsMB) {
    const long long chunk = c.rounds * E * (long long)kThreads;
    c.lag = (c.lag << 20) / (chunk * (long long)sizeof(In)); // MB -> chunks
    if (c.lag < 1 && !c.oracle) {
      fprintf(stderr, "bad config: no lag\n");
      return false;
    }
    Kernel k = kernelFor<T>(c.rounds, c.hints, c.blocksPerSM, c.recompute,
                            c.coalesce, c.own);
    if (!k) {
      fprintf(stderr, "no such kernel\n");
      return false;
    }
    int fit = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, k, kThreads, 0));
    int bps = std::min(fit, c.blocksPerSM);
    if (bps < c.blocksPerSM) {
      printf("(%d blocks an SM do not fit: skipped)\n", c.blocksPerSM);
      continue;
    }
    Params p;
    p.in = in;
    p.out = out;
    p.chunks = n / chunk;
    p.lag = c.lag;
    p.oracle = c.oracle ? oracle[c.rounds] : nullptr;
    p.immediate = c.immediate;
    p.oneTicket = c.oneTicket;
    p.maintain = !c.oracle || c.maintainWithOracle;
    p.acqRel = c.acqRel;
    p.lateTicket = c.lateTicket;
    p.window = c.window;
    p.spins = spins;
    // The tree's words and counters, then the ticket, in one zeroed range.
    if (segment % chunk) {
      fprintf(stderr, "segment not a multiple of the chunk\n");
      return false;
    }
    p.perSeg = segment / chunk;
    long long segments = p.chunks / p.perSeg;
    p.levels = 1;
    for (long long span = kFan; span < p.perSeg; span *= kFan)
      ++p.levels;
    if (p.levels > kMaxLevels || c.window + p.levels > kWarps) {
      fprintf(stderr, "too many chunks or too wide a window\n");
      return false;
    }
    unsigned long long *w = words;
    for (long long l = 0, span = 1; l < p.levels; ++l, span *= kFan) {
      p.span[l] = (p.perSeg + span - 1) / span;
      p.sums[l] = w;
      w += segments * p.span[l] + 1;
    }
    for (int l = 1; l < p.levels; ++l) {
      p.counts[l] = reinterpret_cast<unsigned *>(w);
      w += segments * p.span[l] + 1;
    }
    p.ticket = reinterpret_cast<unsigned *>(w);
    size_t stateBytes =
        (reinterpret_cast<char *>(w + 1) - reinterpret_cast<char *>(words));
    if (stateBytes > wordCount * 8) {
      fprintf(stderr, "state buffer too small\n");
      return false;
    }
    long long grid = c.oneTicket && !c.own
                         ? p.chunks + p.lag
                         : (long long)bps * prop.multiProcessorCount;
    std::vector<float> times;
    for (int i = 0; i < 14; ++i) {
      if (i == 2 || i == 3)
        CHECK(cudaMemset(out, 0xff, n * sizeof(Out)));
      CHECK(cudaEventRecord(a));
      CHECK(cudaMemsetAsync(words, 0, stateBytes));
      CHECK(cudaMemsetAsync(spins, 0, 8 * sizeof(unsigned long long)));
      k<<<grid, kThreads>>>(p);
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      CHECK(cudaGetLastError());
      float ms;
      CHECK(cudaEventElapsedTime(&ms, a, b));
      if (i >= 2)
        times.push_back(ms);
      if (i == 2 || i == 3)
        CHECK(cudaMemcpy(i == 2 ? outA.data() : outB.data(), out,
                         n * sizeof(Out), cudaMemcpyDeviceToHost));
    }
    unsigned long long spun[8];
    CHECK(cudaMemcpy(spun, spins, sizeof spun, cudaMemcpyDeviceToHost));
    // Floats: ||out - ref|| / ||ref||; integers: the number of mismatches.
    double err = 0;
    for (long long i = 0; i < n; ++i) {
      double d = double(hostValue(outA[i])) - ref[i];
      err += kInt ? (d != 0) : d * d;
    }
    if (!kInt)
      err = std::sqrt(err / refNorm);
    bool same = memcmp(outA.data(), outB.data(), n * sizeof(Out)) == 0;
    float ms = median(times);
    double gbs = double(sizeof(In) + sizeof(Out)) * n / (ms * 1e6);
    printf("%s rounds %d (chunk %lld) hints %d blocks/SM %d lag %lld chunks "
           "(%lld MB) levels %d window %d%s: %.3f ms %.0f GB/s frac %.3f err "
           "%.1e %s; "
           "waits that spun (last call), levels 0-3: %llu %llu %llu %llu, "
           "group sums: %llu\n",
           c.oracle && c.maintainWithOracle
               ? (c.immediate ? (c.acqRel ? "oracle+tree-now-acqrel"
                                          : "oracle+tree-now-relaxed")
                              : (c.acqRel ? "oracle+tree-next-acqrel"
                                          : "oracle+tree-next-relaxed"))
           : c.oracle    ? "oracle"
           : c.oneTicket ? "tree-1ticket-relaxed"
           : c.immediate ? "tree-now-relaxed"
                         : "tree-next-relaxed",
           c.rounds, chunk, c.hints, bps, c.lag,
           c.lag * chunk * (long long)sizeof(In) >> 20, p.levels, c.window,
           (std::string(c.lateTicket ? " late-ticket" : "") +
            (c.own ? " own-ring " + std::to_string(c.own) : "") +
            (c.recompute ? " recompute" : "") +
            (c.coalesce ? " coalesced" : ""))
               .c_str(),
           ms, gbs, gbs / copyGBs, err,
           same ? "deterministic" : "NOT-DETERMINISTIC", spun[0], spun[1],
           spun[2], spun[3], spun[6]);
    fflush(stdout);
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(words));
  CHECK(cudaFree(spins));
  for (unsigned *o : oracle)
    if (o)
      CHECK(cudaFree(o));
  return true;
}

int main(int argc, char **argv) {
  int logN = argc > 1 ? atoi(argv[1]) : 28;
  std::string op = argc > 2 ? argv[2] : "f16f32";
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
         prop.l2CacheSize >> 20);
  // Lags in MB of input here (run() turns them into chunks).
  std::vector<Config> configs;
  // The oracle (prefixes read from a table: no tree, no waits) as the
  // schedule's bound, then the tree (relaxed counters, groups summed at
  // once, the next ticket drawn mid-iteration, 2 recent groups from chunk
  // words), holding the scanned values (16 elements a thread) or only the
  // loaded lines (16 or 32 a thread, "recompute"). i8: 16 elements a line.
  int small = op == "i8i32" ? 1 : 2;
  struct Shape {
    int rounds, blocksPerSM;
    bool recompute, coalesce;
  };
  std::vector<Shape> shapes = {{small, 4, false, false}};
  // A third argument "best": each operation's best shape alone (lags 4, 8
  // and 10 MB), persistent and a block per ticket, e.g. to see what the
  // lag costs at smaller n.
  bool bestOnly = argc > 3 && std::string(argv[3]) == "best";
  // "own" (f16f16): the best shape with a 10 MB lag (with the tree and with
  // the oracle) against the block scanning its own chunks from a
  // shared-memory ring of 1 or 2 (laggedScan's Own), each with the tree and
  // with the oracle.
  bool ownRing = argc > 3 && std::string(argv[3]) == "own";
  if (ownRing) {
    Config base{4, 1, 3, 10, false, true, false, false, false, true, 2};
    base.recompute = true;
    configs.push_back(base);
    Config baseOracle = base;
    baseOracle.oracle = true;
    configs.push_back(baseOracle);
    for (int own : {1, 2})
      for (bool oracle : {false, true}) {
        Config c = base;
        c.own = own;
        c.oracle = oracle;
        configs.push_back(c);
      }
    int logSeg = argc > 4 ? atoi(argv[4]) : 0;
    return run<F16F16>(logN, logSeg, "f16->f16", prop, configs) ? 0 : 1;
  }
  if (bestOnly)
    shapes = {op == "i8i32"    ? Shape{2, 3, true, true}
              : op == "f16f16" ? Shape{4, 3, true, false}
                               : Shape{2, 4, true, false}};
  else if (op == "i8i32") {
    shapes.push_back({2, 3, true, false});
    shapes.push_back({2, 3, true, true});
    shapes.push_back({2, 4, true, true});
  } else {
    shapes.push_back(
        {op == "f16f16" ? 4 : 2, op == "f16f16" ? 3 : 4, true, false});
    shapes.push_back(
        {op == "f16f16" ? 4 : 2, op == "f16f16" ? 3 : 4, true, true});
  }
  for (Shape sh : shapes) {
    Config oracle{sh.rounds, 1, sh.blocksPerSM, 0, true, false, false};
    oracle.recompute = sh.recompute;
    oracle.coalesce = sh.coalesce;
    configs.push_back(oracle);
    for (long long mb : bestOnly ? std::vector<long long>{4, 8, 10}
                                 : std::vector<long long>{8, 10}) {
      Config c{sh.rounds, 1,     sh.blocksPerSM, mb,   false, true,
               false,     false, false,          true, 2};
      c.recompute = sh.recompute;
      c.coalesce = sh.coalesce;
      configs.push_back(c);
      if (bestOnly) { // and as a block per ticket (tcuc's block items)
        c.oneTicket = true;
        c.lateTicket = false;
        configs.push_back(c);
      }
    }
  }
  // A fourth argument: log2 of the segment size (0 or none: whole array).
  int logSeg = argc > 4 ? atoi(argv[4]) : 0;
  bool ok =
      op == "f16f32"   ? run<F16F32>(logN, logSeg, "f16->f32", prop, configs)
      : op == "f16f16" ? run<F16F16>(logN, logSeg, "f16->f16", prop, configs)
      : op == "i8i32"  ? run<I8I32>(logN, logSeg, "i8->i32", prop, configs)
                      : (fprintf(stderr, "unknown op %s\n", op.c_str()), false);
  return ok ? 0 : 1;
}
