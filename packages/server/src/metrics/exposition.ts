/** The Prometheus text exposition format, version 0.0.4. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface Sample {
  /** Appended to the family name: `_bucket`, `_sum`, `_count` for histograms, else empty. */
  suffix: string;
  /** Rendered label pairs without braces (`method="GET",status="200"`), from `formatLabels`; may be empty. */
  labels: string;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

/** Label values escape `\`, `"` and line feeds. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** HELP text escapes `\` and line feeds (quotes stay as they are). */
function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));
}

/** `{a: 'x', b: 'y'}` → `a="x",b="y"`, in the given order, values escaped. Done once per series, not per request. */
export function formatLabels(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([name, value]) => `${name}="${escapeLabelValue(value)}"`)
    .join(',');
}

/** Puts `extra` (already formatted) before a sample's own labels. */
export function joinLabels(extra: string, labels: string): string {
  if (extra === '') return labels;
  return labels === '' ? extra : `${extra},${labels}`;
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

/** One HELP and TYPE line per family, then its samples; families with the same name are merged. */
export function renderFamilies(families: readonly Family[]): string {
  const merged = new Map<string, Family>();
  for (const family of families) {
    const seen = merged.get(family.name);
    if (seen) seen.samples = [...seen.samples, ...family.samples];
    else merged.set(family.name, { ...family });
  }
  const lines: string[] = [];
  for (const family of merged.values()) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      const labels = sample.labels === '' ? '' : `{${sample.labels}}`;
      lines.push(`${family.name}${sample.suffix}${labels} ${formatValue(sample.value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The samples of one histogram series: cumulative `_bucket`s (le in seconds), `+Inf`, `_sum`, `_count`. */
export function histogramSamples(
  labels: string,
  bounds: readonly number[],
  counts: ArrayLike<number>,
  sum: number,
): Sample[] {
  const samples: Sample[] = [];
  let cumulative = 0;
  for (let i = 0; i < bounds.length; i++) {
    cumulative += counts[i]!;
    samples.push({ suffix: '_bucket', labels: joinLabels(labels, `le="${bounds[i]}"`), value: cumulative });
  }
  cumulative += counts[bounds.length]!;
  samples.push({ suffix: '_bucket', labels: joinLabels(labels, 'le="+Inf"'), value: cumulative });
  samples.push({ suffix: '_sum', labels, value: sum }, { suffix: '_count', labels, value: cumulative });
  return samples;
}
