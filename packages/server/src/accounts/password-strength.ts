/**
 * How guessable a new password is, by zxcvbn-ts with its common and English dictionaries (the most
 * used passwords from breaches, names, words, keyboard walks, repeats, dates). The dictionaries are
 * several megabytes, so they are loaded on the first check, never at import: the server asks only
 * when a password is set.
 */
export interface Strength {
  /** 0 (among the first thousand guesses) to 4 (beyond 10^10 guesses). */
  score: number;
  /** zxcvbn's reason, when it has one ("This is a commonly used password."). */
  warning: string | undefined;
}

/** Passwords scoring below this are refused: 3 means at least 10^8 guesses ("safely unguessable"). */
export const MIN_PASSWORD_SCORE = 3;

type Check = (password: string, userInputs: string[]) => Strength;

let loading: Promise<Check> | undefined;

async function load(): Promise<Check> {
  const [{ ZxcvbnFactory }, common, english] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  const zxcvbn = new ZxcvbnFactory({
    translations: english.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...english.dictionary },
  });
  return (password, userInputs) => {
    const result = zxcvbn.check(password, userInputs);
    return { score: result.score, warning: result.feedback.warning ?? undefined };
  };
}

/** The strength of `password`; words of `userInputs` (the email, the project) count as guessable. */
export async function passwordStrength(password: string, userInputs: string[] = []): Promise<Strength> {
  loading ??= load();
  loading.catch(() => (loading = undefined));
  return (await loading)(password, userInputs);
}
