import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LoadResult } from '../load.ts';
import { emptyResults, median, report } from './report.ts';
import { SERVERS } from './servers.ts';

const run = (rps: number, p99Ms: number, non2xx = 0): LoadResult => ({
  requests: rps * 5,
  rps,
  p50Ms: p99Ms / 4,
  p99Ms,
  non2xx,
  errors: 0,
  loadCpuSeconds: 1,
});

function filled() {
  const results = emptyResults();
  SERVERS.forEach((name, index) => {
    const scale = index === 0 ? 4 : 1 / index;
    for (const scenario of ['list', 'get', 'create'] as const) {
      results.runs[scenario][name] = [run(1_000 * scale, 3), run(3_000 * scale, 1), run(2_000 * scale, 2)];
    }
    results.startupMs[name] = [300, 100, 200];
    results.peakRssMb[name] = 100 + index;
  });
  return results;
}

test('median of an odd and an even count', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

test('report: req/s, p99 and start-up as median (min–max) over rounds, peak RSS per server', () => {
  const text = report(filled());
  assert.match(text, /\| list req\/s \| 8,000 \(4,000–12,000\) \| 2,000 \(1,000–3,000\) \|/);
  assert.match(text, /\| get p99 ms \| 2\.0 \(1\.0–3\.0\) \|/);
  assert.match(text, /\| start-up to first 200, ms \| 200 \(100–300\) \|/);
  assert.match(text, /\| peak RSS after all loads, MB \| 100 \| 101 \| 102 \| 103 \| 104 \|/);
});

test('report: ratios of medians to raw, and of the project to each peer', () => {
  const text = report(filled());
  // petstore is 1/4 of raw; fastify 1/2 of petstore, fastify-log 1/3, express 1/4.
  assert.match(text, /\| list × raw \| 1\.00× \| 0\.25× \| 0\.13× \| 0\.08× \| 0\.06× \|/);
  assert.match(text, /\| create req\/s \| 2\.00× \| 3\.00× \| 4\.00× \|/);
  assert.match(text, /\| list p99 \| 1\.00× \| 1\.00× \| 1\.00× \|/);
});

test('report: names every server and scenario that had non-2xx answers or socket errors', () => {
  const results = filled();
  results.runs.create.express[1] = run(500, 9, 12);
  assert.match(report(results), /- Express peer create: 12 non-2xx answers or socket errors/);
  assert.doesNotMatch(report(filled()), /non-2xx/);
});
