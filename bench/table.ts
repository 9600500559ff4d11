/** One line of the results table; a figure left undefined prints as an empty cell. */
export interface Row {
  scenario: string;
  /** `raw` (the node:http baseline), `petstore`, or what was compared. */
  server: string;
  rps?: number;
  p50Ms?: number;
  p99Ms?: number;
  /** To the raw baseline (or, for derived rows, to the row named in the note). */
  ratio?: number;
  rssMb?: number;
  /** Server CPU time per request, in microseconds. */
  cpuMicros?: number;
  /** The target for this row, and whether it was met. */
  target?: string;
  met?: boolean;
  note?: string;
}

const HEADINGS = [
  'scenario',
  'server',
  'req/s',
  'p50 ms',
  'p99 ms',
  '× raw',
  'RSS MB',
  'CPU µs/req',
  'target',
  'notes',
];

function fixed(value: number | undefined, digits: number): string {
  if (value === undefined || !Number.isFinite(value)) return '';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function cells(row: Row): string[] {
  const verdict = row.met === undefined ? '' : row.met ? ' ✓' : ' ✗ MISSED';
  return [
    row.scenario,
    row.server,
    fixed(row.rps, 0),
    fixed(row.p50Ms, row.p50Ms !== undefined && row.p50Ms >= 100 ? 0 : 2),
    fixed(row.p99Ms, row.p99Ms !== undefined && row.p99Ms >= 100 ? 0 : 2),
    row.ratio === undefined ? '' : `${fixed(row.ratio, 2)}×`,
    fixed(row.rssMb, 0),
    fixed(row.cpuMicros, 0),
    row.target ? `${row.target}${verdict}` : '',
    row.note ?? '',
  ];
}

const NUMERIC = new Set([2, 3, 4, 5, 6, 7]);

export function textTable(rows: readonly Row[]): string {
  const table = [HEADINGS, ...rows.map(cells)];
  const widths = HEADINGS.map((_, column) => Math.max(...table.map((line) => line[column]!.length)));
  const format = (line: string[]) =>
    line
      .map((cell, column) =>
        NUMERIC.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  return [
    format(HEADINGS),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.map(cells).map(format),
  ].join('\n');
}

export function markdownTable(rows: readonly Row[]): string {
  const escapeBars = (cell: string) => cell.replaceAll('|', '\\|');
  const align = HEADINGS.map((_, column) => (NUMERIC.has(column) ? '---:' : '---'));
  return [HEADINGS, align, ...rows.map(cells)]
    .map((line) => `| ${line.map(escapeBars).join(' | ')} |`)
    .join('\n');
}
