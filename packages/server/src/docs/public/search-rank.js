// Ranking for the page's search: every word of the query must occur; titles weigh most. Pure, so the
// browser test can check it against the index the server built.

const KIND_LABELS = {
  guide: 'Guide',
  operation: 'Operation',
  parameter: 'Parameter',
  field: 'Field',
  schema: 'Schema',
  error: 'Error code',
};

export const kindLabel = (kind) => KIND_LABELS[kind] ?? kind;

/** Entries prepared once: lower-cased haystacks. */
export function prepareIndex(entries) {
  return entries.map((entry) => ({
    entry,
    title: entry.title.toLowerCase(),
    rest: `${entry.context} ${entry.text} ${kindLabel(entry.kind)}`.toLowerCase(),
  }));
}

function score({ title, rest, entry }, words, phrase) {
  let total = 0;
  for (const word of words) {
    if (title === word) total += 100;
    else if (title.startsWith(word)) total += 60;
    else if (title.includes(word)) total += 40;
    else if (rest.includes(word)) total += 10;
    else return 0;
  }
  if (words.length > 1 && title.includes(phrase)) total += 50;
  if (entry.kind === 'operation' || entry.kind === 'error') total += 5;
  return total;
}

/** The best `limit` entries for a query, best first; nothing for a blank query. */
export function search(index, query, limit = 20) {
  const phrase = query.trim().toLowerCase();
  if (!phrase) return [];
  const words = phrase.split(/\s+/);
  return index
    .map((prepared) => ({ prepared, score: score(prepared, words, phrase) }))
    .filter((result) => result.score > 0)
    .sort((a, b) => b.score - a.score || a.prepared.title.length - b.prepared.title.length)
    .slice(0, limit)
    .map((result) => result.prepared.entry);
}
