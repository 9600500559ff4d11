/** The problem with a short name or label people give (a key's label, a token's name), if any. */
export function labelProblem(label: string, what: string, max = 100): string | undefined {
  if ([...label].length > max) return `the ${what} must be at most ${max} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(label)) return `the ${what} must not contain control characters`;
  return undefined;
}
