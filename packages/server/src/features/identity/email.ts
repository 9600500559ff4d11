import { domainToUnicode } from 'node:url';
import { mixedScripts } from '../../text/mixed-script.ts';
import { codePointOf, unseenCharacter, withoutUnseen } from '../../text/unseen.ts';

/** A plausible address, as sign-up forms check it: something@domain.tld, no spaces, at most 254 characters. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/**
 * The address as stored and compared everywhere: NFKC (so full-width `ｄｅｖ＠ｅｘａｍｐｌｅ．ｃｏｍ` is
 * `dev@example.com`), trimmed, lower-cased, its domain in Unicode (so `xn--…` and the Unicode spelling
 * are one address); undefined when it is not plausible.
 */
export function normalizeEmail(text: string): string | undefined {
  const email = text.normalize('NFKC').trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) return undefined;
  const at = email.lastIndexOf('@');
  const domain = domainToUnicode(email.slice(at + 1));
  if (domain === '' || !EMAIL.test(`${email.slice(0, at)}@${domain}`)) return undefined;
  return `${email.slice(0, at)}@${domain}`;
}

/**
 * Cyrillic and Greek letters drawn like Latin ones (lower case, from Unicode's confusables.txt): a
 * label made only of these reads as a Latin word it is not (`аре` is Cyrillic).
 */
const LATIN_LOOKALIKES: Record<string, string> = {
  а: 'a', е: 'e', һ: 'h', і: 'i', ј: 'j', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', ѕ: 's', ԁ: 'd',
  ԛ: 'q', ԝ: 'w', ӏ: 'l', ү: 'y', α: 'a', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', υ: 'u', χ: 'x',
  ϲ: 'c', ϳ: 'j',
}; // prettier-ignore

/** The Latin word a label imitates when every letter of it is a Latin lookalike; undefined otherwise. */
function latinImitation(label: string): string | undefined {
  const letters = [...label].filter((char) => /\p{L}/u.test(char));
  if (letters.length === 0 || letters.some((char) => /[a-z]/.test(char))) return undefined;
  if (!letters.every((char) => char in LATIN_LOOKALIKES)) return undefined;
  return [...label].map((char) => LATIN_LOOKALIKES[char] ?? char).join('');
}

/**
 * Punctuation drawn like the ASCII an address is written with, once NFKC has mapped the full-width
 * forms: dashes and minus signs like `-` (U+2010 HYPHEN, U+2011, U+2012–U+2015, U+2212, …), dots like
 * `.` (U+00B7, U+2027, U+2219, U+22C5, U+30FB).
 */
const PUNCTUATION_LOOKALIKES = /(?!-)[\p{Pd}\u2212\u2043\u02d7\u2796]|[\u00b7\u2027\u2219\u22c5\u30fb]/gu;
const DOT_LIKE = /[\u00b7\u2027\u2219\u22c5\u30fb]/u;

/**
 * The address a reader sees in a normalised one: without the characters nobody sees (text/unseen.ts:
 * zero-width, bidirectional and other invisible ones) and with lookalike punctuation read as the ASCII
 * it imitates. Two addresses with one skeleton read alike: a new one whose skeleton is a member's is
 * that member, not a new address.
 */
export function emailSkeleton(email: string): string {
  return withoutUnseen(email).replace(PUNCTUATION_LOOKALIKES, (char) => (DOT_LIKE.test(char) ? '.' : '-'));
}

/**
 * Why a new address (normalised) is refused: a character nobody sees or that reorders what is shown
 * (`dev\u200b@example.com`, U+202E), punctuation drawn like an address's ASCII (`dev‐ops`, U+2010), a
 * part that mixes scripts (`dev-а@example.com`, Cyrillic `а`), or written wholly in letters that
 * imitate Latin ones (`аре@example.com`): each could pass for another person's address, as domain
 * names cannot (text/mixed-script.ts). Undefined when fine.
 */
export function emailProblem(email: string): string | undefined {
  const unseen = unseenCharacter(email);
  if (unseen) {
    return `the address contains ${unseen.codePoint} (${unseen.kind}), which can make it pass for another: type it without`;
  }
  const punctuation = email.match(PUNCTUATION_LOOKALIKES)?.[0];
  if (punctuation !== undefined) {
    const imitated = DOT_LIKE.test(punctuation) ? '.' : '-';
    return `${email} contains ${codePointOf(punctuation)}, which is drawn like “${imitated}” and can imitate another address`;
  }
  const labels = email.split(/[@.]/);
  for (const label of labels) {
    const scripts = mixedScripts(label);
    if (scripts) {
      return `${email} mixes ${scripts.join(' and ')} letters in “${label}”, which can imitate another address`;
    }
    const imitated = latinImitation(label);
    if (imitated !== undefined) {
      return `${email} is written in letters that imitate Latin ones (“${label}” reads as “${imitated}”)`;
    }
  }
  return undefined;
}
