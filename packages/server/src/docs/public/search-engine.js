// The page's search, on MiniSearch (served as /docs/assets/minisearch.js): an index of the entries the
// server prepared, with typo tolerance, prefixes and field boosts. The engine is passed in, so the same
// options rank results in the page and in the server's relevance test.

const KIND_LABELS = {
  guide: 'Guide',
  operation: 'Operation',
  parameter: 'Parameter',
  field: 'Field',
  schema: 'Schema',
  error: 'Error code',
};

export const kindLabel = (kind) => KIND_LABELS[kind] ?? kind;

/** Words too common to narrow anything: dropped from entries and queries alike. */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'by',
  'for',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'to',
]);

/** Letters and digits, `_` kept inside a word so an error code is a term of its own too. */
const WORD = /[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)*/gu;

/** A word and its parts: `createPet` → createPet, create, Pet; `rate_limited` → rate_limited, rate, limited. */
function parts(word) {
  const pieces = word.split(/_|(?<=[\p{Ll}\p{N}])(?=\p{Lu})/u);
  return pieces.length > 1 ? [word, ...pieces] : [word];
}

const processTerm = (term) => {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : lower;
};

const words = (text) => (text.match(WORD) ?? []).filter((word) => processTerm(word));

/** Each two neighbouring words joined: `the rate limits` → ratelimits. */
const pairs = (text) => {
  const found = words(text);
  return found.slice(1).map((word, i) => `${found[i]}${word}`);
};

/**
 * An entry's terms: in its fields, the words with their parts; in `phrases` (its title and text again),
 * each two neighbouring words joined, searched apart (below) so they never match a query word by prefix.
 */
const tokenize = (text, field) => (field === 'phrases' ? pairs(text) : words(text).flatMap(parts));

/** How much a match in each field counts: a title says most, an identifier next, the prose least. */
const BOOST = { title: 4, keywords: 2, context: 1.5, text: 1 };

/** Among equal matches, what a reader most often looks for comes first. */
const KIND_BOOST = { guide: 1.3, operation: 1.3, schema: 1, error: 1.1, parameter: 1, field: 0.8 };

/** An entry with the query's words standing together, as typed, counts this many times more. */
const PHRASE_BOOST = 5;

const FIELDS = ['title', 'keywords', 'context', 'text'];

/** One typo in a word of five letters or more, two from ten. */
const fuzzy = (term) => (term.length >= 10 ? 2 : term.length >= 5 ? 1 : false);

export const SEARCH_OPTIONS = {
  fields: [...FIELDS, 'phrases'],
  storeFields: ['kind', 'title', 'context', 'anchor', 'text'],
  extractField: (entry, field) => (field === 'phrases' ? `${entry.title} ${entry.text}` : entry[field]),
  tokenize,
  processTerm,
  searchOptions: {
    fields: FIELDS,
    tokenize: (text) => words(text).flatMap(parts),
    processTerm,
    boost: BOOST,
    fuzzy,
    prefix: (term) => term.length >= 3,
    combineWith: 'AND',
    boostDocument: (_id, _term, stored) => KIND_BOOST[stored?.kind] ?? 1,
  },
};

/** The index of the server's entries (`x-search` of the reference). */
export function createIndex(MiniSearch, entries) {
  const index = new MiniSearch(SEARCH_OPTIONS);
  index.addAll(entries.map((entry, id) => ({ id, ...entry })));
  return index;
}

const stored = ({ kind, title, context, anchor, text }) => ({ kind, title, context, anchor, text });

/**
 * The best `limit` entries for a query, best first; nothing for a blank query. Every word must match
 * (when no entry has them all, entries with most of them), and an entry where the words stand together
 * in the query's order ranks above one where they are apart.
 */
export function search(index, query, limit = 20) {
  const terms = words(query);
  if (terms.length === 0) return [];
  // The words as one (`ratelimit`), or each two together (`api key` → apikey), as the entries have them.
  const together = index.search((terms.length === 1 ? terms : pairs(query)).join(' '), {
    fields: ['phrases'],
    combineWith: 'OR',
  });
  const apart = index.search(query);
  const results = apart.length ? apart : index.search(query, { combineWith: 'OR' });
  if (results.length === 0) return together.slice(0, limit).map(stored);
  if (terms.length === 1) return results.slice(0, limit).map(stored);
  const phrase = new Set(together.map((hit) => hit.id));
  for (const hit of results) if (phrase.has(hit.id)) hit.score *= PHRASE_BOOST;
  results.sort((a, b) => b.score - a.score);
  return results.slice(0, limit).map(stored);
}
