import { Dispatchers } from './load/dispatch.js';
import { runLoad, percentile } from './load/load-loops.js';
import { ReviewBodies } from './load/review-bodies.js';
import { podReview } from './review/pod-review.js';
const info = JSON.parse(process.argv[2]!);
const d = new Dispatchers(64);
const admit = d.admitter({ kind: 'gateway', origin: info.origin }, new ReviewBodies(podReview()));
await runLoad({ kind: 'closed', concurrency: 8, durationMs: 2000, maxReviews: 1e6 }, admit);
for (const spec of JSON.parse(process.argv[3]!)) {
  const s = await runLoad({ ...spec, durationMs: 2000, maxReviews: 1e6 }, admit);
  const sorted = Float64Array.from(s.latenciesMs).sort();
  console.log(JSON.stringify(spec), 'done', s.completed, 'rate', (s.completed / s.elapsedMs * 1000).toFixed(0), 'p50', percentile(sorted, .5).toFixed(2), 'p99', percentile(sorted, .99).toFixed(2));
}
await d.close();
