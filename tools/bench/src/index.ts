/**
 * @hookgate/bench: the benchmark harness (`npm run bench`), usable from tests and scripts.
 *
 *   const report = await runBench({ scenarios: ['noop'], mutating: 3, validating: 3, workers: 2, repeats: 5,
 *     durationMs: 1500, maxReviews: 100_000, concurrency: [4, 16, 48], warmupMs: 1500, scale: [10, 1000], cpuProfile: false });
 *   console.log(formatReport(report));
 */
export { runBench, type BenchOptions, type BenchReport, type ScenarioResult, type MachineInfo } from './run-bench.js';
export type { PathSummary, RepeatMeasurement } from './measure.js';
export { formatReport } from './report/format-report.js';
export { checkTargets, type TargetCheck } from './report/targets.js';
export { parseCliOptions, USAGE } from './cli-options.js';
export { podReview } from './review/pod-review.js';
export { SCENARIO_IDS, type ScenarioId } from './scenarios.js';
export { summarizeCpuProfiles, formatProfileSummary, type ProfileSummary } from './profile/summarize-profile.js';
