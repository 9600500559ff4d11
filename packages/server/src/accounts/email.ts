/** A plausible address, as sign-up forms check it: something@domain.tld, no spaces, at most 254 characters. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The address as stored and compared: trimmed and lower-cased; undefined when it is not plausible. */
export function normalizeEmail(text: string): string | undefined {
  const email = text.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : undefined;
}
