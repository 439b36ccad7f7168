// BullMQ in the shapes of queuekit's benchmark (see ../README.md), written as a BullMQ user writes
// it: a Queue adding one job per call (delayed jobs with {delay}), one Worker whose concurrency is
// the scenario's consumer count, jobs removed on completion, defaults everywhere else.
//
//   node bench.mjs --redis redis://127.0.0.1:6390 --shape delay-light [--scale 0.1] [--warmup]
//
// Prints one JSON line at the end: {"event":"result", sent, received, duplicates, lost, ...}.
// With --handshake (how the Java harness runs it) it also prints {"event":"ready"} before the
// measured run and, in delay-backlog, {"event":"stored"} before the worker starts, and waits for a
// line on stdin after each, so that the harness reads Redis's figures at those points.

import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Queue, Worker } from 'bullmq';

// The Java scenarios' parameters (WorkQueueScenario, DelayScenario, in Scenarios).
const SHAPES = {
  'work-queue': { kind: 'work', count: 200_000, consumers: 4 },
  'delay-load-5s': { kind: 'load', count: 100_000, consumers: 10, windowMs: 5_000 },
  'delay-light': { kind: 'light', count: 2_000, consumers: 10, intervalMs: 20, minDelayMs: 50, maxDelayMs: 2_000 },
  'delay-backlog': { kind: 'backlog', count: 100_000, consumers: 10 },
  idle: { kind: 'idle', count: 0, consumers: 10 },
};
const IDLE_MS = 10_000; // a run ends when nothing arrived for this long
const BODY_SIZE = 100;

const { values: opt } = parseArgs({
  options: {
    redis: { type: 'string' },
    shape: { type: 'string' },
    queue: { type: 'string' },
    scale: { type: 'string', default: '1' },
    'time-scale': { type: 'string', default: '1' },
    limit: { type: 'string', default: '120' },
    seconds: { type: 'string', default: '60' }, // idle
    warmup: { type: 'boolean', default: false },
    handshake: { type: 'boolean', default: false },
  },
});
const shape = SHAPES[opt.shape];
if (!opt.redis || !shape) {
  console.error(`usage: node bench.mjs --redis URL --shape ${Object.keys(SHAPES).join('|')} [--queue NAME]`
    + ' [--scale X] [--time-scale X] [--limit S] [--seconds S] [--warmup] [--handshake]');
  process.exit(2);
}
const scale = Number(opt.scale);
const timeScale = Number(opt['time-scale']);
const connection = { url: opt.redis };
const queueName = opt.queue ?? `bench-${opt.shape}-${process.pid}`;
const input = opt.handshake ? createInterface({ input: process.stdin })[Symbol.asyncIterator]() : null;

const count = (base) => Math.max(20, Math.round(base * scale)); // BenchConfig.count
const millis = (base) => Math.max(1, Math.round(base * timeScale)); // BenchConfig.millis
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const wallMillis = () => performance.timeOrigin + performance.now();
const body = (i) => `${i}:`.padEnd(BODY_SIZE, 'x');

/** The same numbers on every run (mulberry32), as the Java scenarios use Random(42). */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Tells the harness where the run is and, with --handshake, waits for its answer. */
async function step(event) {
  console.log(JSON.stringify({ event }));
  if (input && (await input.next()).done) {
    throw new Error(`stdin closed while waiting after '${event}'`);
  }
}

/**
 * Counts receipts by message index (the number before the body's colon), like the Java Tracker:
 * latency from sending for the work queue, lateness against the job's due time for delays.
 */
class Tracker {
  constructor(n, wallClock) {
    this.n = n;
    this.wallClock = wallClock;
    this.sentAt = new Float64Array(n);
    this.counts = new Uint32Array(n);
    this.latencies = new Float64Array(n);
    this.receipts = 0;
    this.distinct = 0;
    this.early = 0;
    this.last = 0;
  }

  sent(i) {
    this.sentAt[i] = performance.now();
  }

  /** A job in the Worker's processor: its latency in ms, negative when handled before its due time. */
  received(job) {
    const i = Number.parseInt(job.data, 10);
    const latency = this.wallClock
      ? wallMillis() - (job.timestamp + (job.opts.delay ?? 0))
      : performance.now() - this.sentAt[i];
    if (this.counts[i]++ === 0) {
      this.latencies[this.distinct++] = latency;
    }
    this.receipts++;
    if (latency < 0) {
      this.early++;
    }
    this.last = performance.now();
  }

  complete() {
    return this.distinct >= this.n;
  }

  /** Waits until every message arrived, or none did for IDLE_MS, or the deadline passed. */
  async await(deadline) {
    let seen = -1;
    let progress = performance.now();
    while (!this.complete()) {
      const now = performance.now();
      if (this.receipts !== seen) {
        seen = this.receipts;
        progress = now;
      } else if (now - progress > IDLE_MS) {
        return `nothing more arrived with ${this.distinct} of ${this.n} received`;
      }
      if (now > deadline) {
        return `time limit reached with ${this.distinct} of ${this.n} received`;
      }
      await sleep(1);
    }
    return '';
  }

  percentile(sorted, q) {
    return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  }

  summary(sent, start) {
    const sorted = this.latencies.slice(0, this.distinct).sort();
    const windowS = Math.max(1e-9, (this.last - start) / 1000);
    return {
      sent,
      received: this.distinct,
      duplicates: this.receipts - this.distinct,
      lost: this.n - this.distinct,
      early: this.early,
      p50_ms: this.percentile(sorted, 0.5),
      p99_ms: this.percentile(sorted, 0.99),
      max_ms: this.percentile(sorted, 1),
      window_s: windowS,
      msgs_per_s: this.receipts === 0 ? 0 : this.distinct / windowS,
    };
  }
}

/** One run of shape s on a queue of its own; measured runs call step() at the harness's points. */
async function run(s, name, n, measured) {
  const t = new Tracker(n, s.kind !== 'work');
  const bodies = Array.from({ length: n }, (_, i) => body(i));
  const next = random(42);
  if (measured) {
    await step('ready');
  }
  const queue = new Queue(name, { connection });
  let worker;
  const startWorker = () => {
    worker = new Worker(name, async (job) => t.received(job), { connection, concurrency: s.consumers });
    worker.on('error', (e) => console.error(`bullmq worker: ${e}`));
  };
  const deadline = performance.now() + Number(opt.limit) * 1000;
  let start;
  let sent = 0;
  let producerS;
  let note = '';
  if (s.kind === 'idle') {
    startWorker();
    start = performance.now();
    await sleep(millis(Number(opt.seconds) * 1000));
  } else if (s.kind === 'work') {
    startWorker();
    start = performance.now();
    for (; sent < n; sent++) {
      t.sent(sent);
      await queue.add('bench', bodies[sent], { removeOnComplete: true });
      if ((sent & 1023) === 0 && performance.now() > deadline) {
        break;
      }
    }
  } else if (s.kind === 'load') {
    const window = millis(s.windowMs);
    startWorker();
    start = performance.now();
    for (; sent < n; sent++) {
      const delay = Math.floor(next() * window);
      await queue.add('bench', bodies[sent], { delay, removeOnComplete: true });
      if ((sent & 255) === 0 && performance.now() > deadline) {
        break;
      }
    }
    producerS = (performance.now() - start) / 1000;
  } else if (s.kind === 'light') {
    const interval = millis(s.intervalMs);
    const minDelay = millis(s.minDelayMs);
    const spread = millis(s.maxDelayMs) - minDelay;
    startWorker();
    start = performance.now();
    for (; sent < n && performance.now() < deadline; sent++) {
      const wait = start + sent * interval - performance.now();
      if (wait > 0) {
        await sleep(wait);
      }
      const delay = minDelay + Math.floor(next() * spread);
      await queue.add('bench', bodies[sent], { delay, removeOnComplete: true });
    }
  } else {
    // backlog: all due before the worker starts, stored a thousand per call like the Java peers;
    // a job due now has no delay, so BullMQ puts it straight on its wait list.
    for (let from = 0; from < n; from += 1000) {
      const part = bodies.slice(from, from + 1000);
      await queue.addBulk(part.map((b) => ({ name: 'bench', data: b, opts: { removeOnComplete: true } })));
    }
    sent = n;
    if (measured) {
      await step('stored');
    }
    startWorker();
    start = performance.now();
  }
  if (sent < n) {
    note = `time limit reached after sending ${sent} of ${n}`;
  }
  const incomplete = s.kind === 'idle' ? '' : await t.await(deadline);
  await worker.close();
  await queue.close();
  const result = { shape: opt.shape, ...t.summary(sent, start), note: note || incomplete };
  if (s.kind === 'idle') {
    result.window_s = (performance.now() - start) / 1000;
  }
  return producerS === undefined ? result : { ...result, producer_s: producerS };
}

const n = count(shape.count);
if (opt.warmup && shape.kind !== 'idle') {
  // as the Java scenarios warm up: a tenth of the work queue (2,000 at least), or 2,000 delayed
  // jobs due over 300 ms
  const warm = shape.kind === 'work'
    ? { ...shape, count: Math.min(n, Math.max(2_000, Math.floor(n / 10))) }
    : { ...SHAPES['delay-load-5s'], windowMs: 300, count: Math.min(n, 2_000) };
  await run(warm, `${queueName}-warmup`, warm.count, false);
}
const result = await run(shape, queueName, shape.kind === 'idle' ? 0 : n, true);
const version = createRequire(import.meta.url)('bullmq/package.json').version;
const line = JSON.stringify({ event: 'result', ...result, bullmq: version, node: process.version });
process.stdout.write(`${line}\n`, () => process.exit(0)); // stdin, if read, would keep Node running
