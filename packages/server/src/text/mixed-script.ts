import { domainToUnicode } from 'node:url';

/**
 * Scripts a label may be written in (Unicode Script property). Characters of the Common and Inherited
 * scripts (digits, the hyphen, combining marks) go with any script; a letter of a script not named
 * here counts as a script of its own.
 */
const SCRIPT_NAMES = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Georgian',
  'Hangul',
  'Ethiopic',
  'Cherokee',
  'Khmer',
  'Mongolian',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
];

let tables: { scripts: { name: string; test: RegExp }[]; neutral: RegExp } | undefined;

/** The Unicode property tests, compiled on first use: the first check pays, not every import. */
function scriptTables() {
  tables ??= {
    scripts: SCRIPT_NAMES.map((name) => ({ name, test: new RegExp(`^\\p{Script=${name}}$`, 'u') })),
    neutral: /^[\p{Script=Common}\p{Script=Inherited}]$/u,
  };
  return tables;
}

/**
 * Scripts that are written together (UTS #39, "Highly Restrictive"): Han with Japanese kana, with
 * Bopomofo, or with Hangul; each of these may also be mixed with Latin.
 */
const ALLOWED_SETS = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

function scriptOf(char: string): string | undefined {
  const { scripts, neutral } = scriptTables();
  if (neutral.test(char)) return undefined;
  return scripts.find((script) => script.test.test(char))?.name ?? `U+${char.codePointAt(0)!.toString(16)}`;
}

/**
 * The scripts of one label when they are mixed in a way that can imitate another name (UTS #39
 * mixed-script detection, "Highly Restrictive"); undefined when the label keeps to one script or to one
 * of the sets written together. Email addresses use it too (features/identity/email.ts).
 */
export function mixedScripts(label: string): string[] | undefined {
  const scripts = [...new Set([...label].map(scriptOf).filter((s): s is string => s !== undefined))];
  if (scripts.length < 2) return undefined;
  if (ALLOWED_SETS.some((set) => scripts.every((script) => set.includes(script)))) return undefined;
  return scripts;
}

/**
 * Why a host name is refused for mixing scripts in one label (UTS #39 mixed-script detection), as
 * `аpple.com` with a Cyrillic `а` imitates `apple.com`; undefined when each label keeps to one script
 * (or to one of the sets written together). Takes the canonical (punycode) or the Unicode name.
 */
export function mixedScriptProblem(hostname: string): string | undefined {
  for (const label of domainToUnicode(hostname).split('.')) {
    const scripts = mixedScripts(label);
    if (!scripts) continue;
    return `the label ${label} mixes ${scripts.join(' and ')} letters, which can imitate another name: write each label in one script`;
  }
  return undefined;
}
