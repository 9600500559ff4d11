import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  escapeLabelValue,
  type Family,
  formatLabels,
  formatValue,
  histogramSamples,
  joinLabels,
  renderFamilies,
} from './exposition.ts';

describe('Prometheus text exposition 0.0.4', () => {
  it('escapes backslash, double quote and line feed in label values, nothing else', () => {
    assert.equal(escapeLabelValue('a\\b"c\nd\te'), 'a\\\\b\\"c\\nd\te');
    assert.equal(
      formatLabels({ path: '/v1/"x"', note: 'line\nbreak' }),
      'path="/v1/\\"x\\"",note="line\\nbreak"',
    );
  });

  it('formats special values as +Inf, -Inf and NaN, and numbers as they are', () => {
    assert.deepEqual([Infinity, -Infinity, Number.NaN, 0, 42, 0.25, 1e21].map(formatValue), [
      '+Inf',
      '-Inf',
      'NaN',
      '0',
      '42',
      '0.25',
      '1e+21',
    ]);
  });

  it('joins extra labels before a sample’s own, with no stray commas', () => {
    assert.equal(joinLabels('', ''), '');
    assert.equal(joinLabels('worker="1"', ''), 'worker="1"');
    assert.equal(joinLabels('', 'a="b"'), 'a="b"');
    assert.equal(joinLabels('worker="1"', 'a="b"'), 'worker="1",a="b"');
  });

  it('renders HELP and TYPE once per family, escapes HELP, and ends with a line feed', () => {
    const families: Family[] = [
      {
        name: 'x_total',
        help: 'back\\slash and\nnewline, "quotes" kept',
        type: 'counter',
        samples: [
          { suffix: '', labels: 'a="1"', value: 1 },
          { suffix: '', labels: '', value: 2 },
        ],
      },
    ];
    assert.equal(
      renderFamilies(families),
      '# HELP x_total back\\\\slash and\\nnewline, "quotes" kept\n# TYPE x_total counter\nx_total{a="1"} 1\nx_total 2\n',
    );
  });

  it('merges families of the same name (one per worker) under one HELP and TYPE', () => {
    const family = (worker: string, value: number): Family => ({
      name: 'up',
      help: 'h',
      type: 'gauge',
      samples: [{ suffix: '', labels: `worker="${worker}"`, value }],
    });
    const text = renderFamilies([family('1', 1), family('2', 0)]);
    assert.equal(text, '# HELP up h\n# TYPE up gauge\nup{worker="1"} 1\nup{worker="2"} 0\n');
  });

  it('makes histogram buckets cumulative, adds +Inf, _sum and _count', () => {
    const samples = histogramSamples('op="a"', [0.1, 1], [2, 3, 1], 4.5);
    assert.deepEqual(
      samples.map((s) => `${s.suffix}{${s.labels}} ${s.value}`),
      [
        '_bucket{op="a",le="0.1"} 2',
        '_bucket{op="a",le="1"} 5',
        '_bucket{op="a",le="+Inf"} 6',
        '_sum{op="a"} 4.5',
        '_count{op="a"} 6',
      ],
    );
  });
});
