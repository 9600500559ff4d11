import { unseenCharacter } from '../../text/unseen.ts';

/**
 * The problem with a short name or label people give (a key's label, a token's name, a project's
 * name), if any: too long, or holding a character a reader cannot see or that reorders what they see
 * (text/unseen.ts: controls, zero-width characters, U+202E …), which would let a label read as
 * another. Emoji, joined ones included, are labels' to use.
 */
export function labelProblem(label: string, what: string, max = 100): string | undefined {
  if ([...label].length > max) return `the ${what} must be at most ${max} characters`;
  const unseen = unseenCharacter(label);
  if (unseen) return `the ${what} must not contain ${unseen.codePoint} (${unseen.kind})`;
  return undefined;
}
