export interface Column {
  title: string;
  /** Numbers read best right-aligned. */
  align?: 'left' | 'right';
}

const width = (text: string) => [...text].length;

/**
 * Rows under a header, each column as wide as its widest cell, two spaces apart; the last column is
 * not padded, so no line ends in blanks.
 */
export function formatTable(columns: Column[], rows: string[][]): string {
  // A loop, not Math.max(...cells): spreading a million cells overflows the call stack.
  const widths = columns.map((column, index) => {
    let widest = width(column.title);
    for (const row of rows) widest = Math.max(widest, width(row[index] ?? ''));
    return widest;
  });
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => {
        const pad = ' '.repeat(widths[index]! - width(cell));
        if (columns[index]!.align === 'right') return pad + cell;
        return index === cells.length - 1 ? cell : cell + pad;
      })
      .join('  ');
  return [line(columns.map((column) => column.title)), ...rows.map(line)].join('\n');
}

/** An instant as `2026-11-22 12:00Z` (UTC, to the minute), or `fallback` when there is none. */
export function formatInstant(epochMs: number | null, fallback: string): string {
  if (epochMs === null) return fallback;
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')}Z`;
}
