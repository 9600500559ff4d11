/**
 * How guessable a new password is, by zxcvbn-ts with its common and English dictionaries (the most
 * used passwords from breaches, names, words, keyboard walks, repeats, dates). The dictionaries are
 * several megabytes, so they are loaded on the first check, never at import: the server asks only
 * when a password is set.
 *
 * zxcvbn's work grows much faster than the password: 256 digits cost over a second of CPU, 32 digits
 * still a tenth of one. So it only ever sees the first `STRENGTH_PREFIX_CHARACTERS` characters
 * (`strengthPrefix`), and it runs in a worker thread, never on the event loop (strength-pool.ts,
 * strength-worker.ts).
 */
export interface Strength {
  /** 0 (among the first thousand guesses) to 4 (beyond 10^10 guesses). */
  score: number;
  /** zxcvbn's reason, when it has one ("This is a commonly used password."). */
  warning: string | undefined;
}

/** Passwords scoring below this are refused: 3 means at least 10^8 guesses ("safely unguessable"). */
export const MIN_PASSWORD_SCORE = 3;

/**
 * The strength check reads this many characters (code points) of a password and no more: a phrase
 * whose first 64 characters are guessable is refused, whatever follows.
 */
export const STRENGTH_PREFIX_CHARACTERS = 64;

/** At most this many user inputs (the email and its parts), each cut to the same prefix. */
export const MAX_USER_INPUTS = 8;

/** What the strength check is given of a password: its first `STRENGTH_PREFIX_CHARACTERS` code points. */
export function strengthPrefix(password: string): string {
  let end = 0;
  let count = 0;
  for (const character of password) {
    if (count === STRENGTH_PREFIX_CHARACTERS) break;
    end += character.length;
    count++;
  }
  return password.slice(0, end);
}

/** The user inputs as the check receives them: a few, each bounded like a password. */
export const boundedInputs = (userInputs: string[]): string[] =>
  userInputs.slice(0, MAX_USER_INPUTS).map(strengthPrefix);
