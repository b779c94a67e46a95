// ONNX Runtime peer of gather's benchmark: onnxruntime-node (CPU execution
// provider), intra-op threads 1 and 2, output preallocated (fetches), on the
// inputs of ../workloads.h rebuilt bit for bit. Prints one JSON object per
// measurement: the wall time per run() and, from ORT's own profiler, the
// time of the GatherElements kernel alone.
//
// Usage (bench/run.py runs it): node bench.mjs --workloads ../workloads.json
//   --models DIR [--only a,b] [--threads 1,2] [--repetitions 10]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => {
    if (arg.startsWith('--')) pairs.push([arg.slice(2), all[i + 1]]);
    return pairs;
  }, []));
const repetitions = Number(args.repetitions ?? 10);
const only = new Set((args.only ?? '').split(',').filter(Boolean));
const threadCounts = (args.threads ?? '1,2').split(',').filter(Boolean).map(Number);

function hash32(x) {
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const product = (shape) => shape.reduce((a, b) => a * b, 1);

function makeInputs(w) {
  const n = product(w.data);
  const data = new Float32Array(n);
  for (let k = 0; k < n; ++k)
    data[k] = (hash32((k ^ 0x9e3779b9) >>> 0) >>> 8) / 16777216;
  const m = product(w.indices);
  const s = w.data[w.axis];
  let indices;
  if (w.indices_type === 'int32') {
    indices = new Int32Array(m);
    for (let k = 0; k < m; ++k) {
      let index = hash32((k ^ 0x85ebca6b) >>> 0) % s;
      if (w.negatives && (hash32((k ^ 0xc2b2ae35) >>> 0) & 1)) index -= s;
      indices[k] = index;
    }
  } else {
    // int64 through two int32 words (little endian): no BigInt per element.
    indices = new BigInt64Array(m);
    const words = new Int32Array(indices.buffer);
    for (let k = 0; k < m; ++k) {
      let index = hash32((k ^ 0x85ebca6b) >>> 0) % s;
      if (w.negatives && (hash32((k ^ 0xc2b2ae35) >>> 0) & 1)) index -= s;
      words[2 * k] = index;
      words[2 * k + 1] = index < 0 ? -1 : 0;
    }
  }
  return {data, indices};
}

// The timing method of ../measure.py.
async function medianPerCall(fn, batchSeconds = 0.05) {
  const now = () => Number(process.hrtime.bigint()) / 1e9;
  let start = now();
  let warmups = 0;
  while (warmups < 3 || now() - start < batchSeconds) {
    await fn();
    ++warmups;
  }
  const estimate = (now() - start) / warmups;
  const n = Math.max(1, Math.floor(batchSeconds / Math.max(estimate, 1e-9)));
  const samples = [];
  for (let r = 0; r < repetitions; ++r) {
    const t0 = now();
    for (let i = 0; i < n; ++i) await fn();
    samples.push((now() - t0) / n);
  }
  return {median: median(samples), calls: n * repetitions + warmups};
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const emit = (record) => console.log(JSON.stringify(record));

const workloads = JSON.parse(fs.readFileSync(args.workloads)).workloads;
for (const w of workloads) {
  if (only.size && !only.has(w.name)) continue;
  const {data, indices} = makeInputs(w);
  const model = path.join(args.models, `${w.name}.onnx`);
  const feeds = {
    data: new ort.Tensor('float32', data, w.data),
    indices: new ort.Tensor(w.indices_type, indices, w.indices),
  };
  for (const threads of threadCounts) {
    const options = {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    };
    const out = new ort.Tensor('float32', new Float32Array(product(w.indices)),
                               w.indices);
    const session = await ort.InferenceSession.create(model, options);
    const run = () => session.run(feeds, {y: out});
    const result = await run();
    let checksum = 0;
    for (const v of result.y.data) checksum += v;
    if (global.gc) global.gc();
    const wall = await medianPerCall(run);
    await session.release();

    // The kernel alone, from ORT's profiler (microseconds per node run).
    const prefix = path.join(os.tmpdir(), `gather_ort_${process.pid}_${w.name}_${threads}`);
    const profiled = await ort.InferenceSession.create(
      model, {...options, enableProfiling: true, profileFilePrefix: prefix});
    const calls = Math.min(Math.max(wall.calls, 20), 2000);
    for (let i = 0; i < calls; ++i) await profiled.run(feeds, {y: out});
    profiled.endProfiling();
    await profiled.release();
    const dir = path.dirname(prefix);
    const file = fs.readdirSync(dir).find(
      (f) => path.join(dir, f).startsWith(prefix) && f.endsWith('.json'));
    const events = JSON.parse(fs.readFileSync(path.join(dir, file)));
    fs.unlinkSync(path.join(dir, file));
    const kernel = events
      .filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time') &&
                     e.args?.op_name === 'GatherElements')
      .map((e) => e.dur / 1e6);
    emit({peer: 'ort', workload: w.name, threads, seconds: wall.median,
          kernel_seconds: kernel.length ? median(kernel.slice(3)) : null,
          checksum,
          note: 'run() wall time with a preallocated output (ORT still returns a copy)'});
  }
}
