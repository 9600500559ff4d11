import { stringifyJson } from '@petstore/json';
import type { Pet } from './api-client.ts';
import type { Output } from './io.ts';
import { type Column, formatTable } from './table.ts';

const COLUMNS: Column[] = [
  { title: 'ID', align: 'right' },
  { title: 'NAME' },
  { title: 'CATEGORY', align: 'right' },
  { title: 'STATUS' },
];

/** Pets as a table for people; `-` for a pet without a status. */
export function petTable(pets: Pet[]): string {
  const rows = pets.map((pet) => [String(pet.id), pet.name, String(pet.categoryId), pet.status ?? '-']);
  return formatTable(COLUMNS, rows);
}

/** One pet as a JSON line, 64-bit integers digit for digit. */
export function petJson(pet: Pet): string {
  return stringifyJson(pet);
}

/**
 * A progress line rewritten in place on a terminal's standard error (at most ten times a second),
 * and nothing at all when standard error is not a terminal.
 */
export function progressLine(stream: Output) {
  let shownAt = 0;
  let shown = false;
  return {
    update(text: string) {
      if (!stream.isTTY || Date.now() - shownAt < 100) return;
      shownAt = Date.now();
      shown = true;
      stream.write(`\r\x1b[K${text}`);
    },
    clear() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
