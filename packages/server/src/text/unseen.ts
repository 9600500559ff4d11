/**
 * Characters a reader cannot see, or that change how the text around them is shown: controls
 * (Cc), format characters (Cf: the zero-width space and joiners, the bidirectional marks, embeddings,
 * overrides and isolates such as U+202E, soft hyphens, byte-order marks, tags), line and paragraph
 * separators, default-ignorable code points (Hangul fillers, variation selectors, U+034F), the blank
 * Braille pattern and lone surrogates. In an address or a label they make two texts that read alike
 * differ, or one text read as another.
 */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Cs}\u2800]/u;
/** Direction marks, embeddings, overrides and isolates: they reorder what is shown. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/**
 * Emoji sequences (joined by U+200D, with U+FE0F, flags of tags): whole pictures, not hidden text.
 * Made on first use: V8 builds the set of every emoji sequence when the expression is created, about
 * 5 ms of CPU that a start would spend for a check it may never make.
 */
let emojiPattern: RegExp | undefined;
const EMOJI = () => (emojiPattern ??= /\p{RGI_Emoji}/gv);
const PLAIN = /^[\x20-\x7e]*$/;

/** A character found: `U+202E` and what it does, for a message. */
export interface UnseenCharacter {
  codePoint: string;
  kind: string;
}

export const codePointOf = (char: string): string =>
  `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first character of `text` a reader cannot see or that reorders what they see; undefined when none. */
export function unseenCharacter(text: string): UnseenCharacter | undefined {
  if (PLAIN.test(text)) return undefined;
  const found = UNSEEN.exec(text.replace(EMOJI(), ''));
  if (!found) return undefined;
  const char = found[0];
  const kind = /\p{Cc}/u.test(char)
    ? 'a control character'
    : BIDI.test(char)
      ? 'a character that changes the direction of the text'
      : 'an invisible character';
  return { codePoint: codePointOf(char), kind };
}

/** `text` without the characters unseenCharacter finds (emoji sequences kept whole). */
export function withoutUnseen(text: string): string {
  if (PLAIN.test(text)) return text;
  const emoji = [...text.matchAll(EMOJI())];
  let out = '';
  let at = 0;
  for (const match of emoji) {
    out += strip(text.slice(at, match.index)) + match[0];
    at = match.index + match[0].length;
  }
  return out + strip(text.slice(at));
}

const strip = (text: string) => text.replace(new RegExp(UNSEEN.source, 'gu'), '');
