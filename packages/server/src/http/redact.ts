/** Anything shaped like an API key of this service, wherever it appears. */
export const KEY_SHAPE = /ps_(?:live|test)_[A-Za-z0-9_-]{8,}/i;

/** Query parameters whose values are secrets by their name, whatever the value looks like. */
const SECRET_NAME =
  /^(?:api[-_.]?key|apikey|key|x[-_]api[-_]key|(?:access|private|secret|client|signing)[-_.]?key|auth|authorization|bearer|passwd|pwd|pass|sig|credentials?|code|pw|_?csrf(?:[-_]?token)?|_?xsrf(?:[-_]?token)?|otp|invitation|invite|jwt)$/i;

/**
 * Names that are secrets by their kind, wherever the word stands in them: `auth_token`,
 * `sessionToken`, `new_password`, `user[password]`, `X-Amz-Signature`, `client_secret`, `jwt`, and
 * every name starting with `session`.
 */
const SECRET_KIND = /token|secret|password|signature|jwt|^session/i;

/** Cheap pre-check: a URL without any of these needs no decoding at all (the common case). */
const SUSPICIOUS =
  /ps_|%|\+|key|token|auth|bearer|secret|pass|pw|sig|session|cred|code|csrf|xsrf|otp|invit|jwt/i;

/** Percent-decoding stops here: enough for any honest URL, and bounded for a hostile one. */
const MAX_DECODINGS = 8;

/** Logged URLs are cut here: a request line may be 16 KiB, a log line need not be. */
export const LOGGED_URL_MAX = 1024;

export const REDACTED = '[redacted]';

function decodeOnce(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/**
 * Decoded until it no longer changes (`ps%255Ftest%255F…` is `ps%5Ftest%5F…` once decoded and a key
 * twice), at most MAX_DECODINGS times.
 */
function decode(text: string): string {
  let decoded = decodeOnce(text);
  for (let i = 1; i < MAX_DECODINGS && decoded.includes('%'); i++) {
    const next = decodeOnce(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}

const secretName = (name: string) => {
  const trimmed = name.trim();
  return SECRET_NAME.test(trimmed) || SECRET_KIND.test(trimmed);
};

function redactParameter(pair: string): string {
  const equals = pair.indexOf('=');
  const name = decode(equals === -1 ? pair : pair.slice(0, equals));
  const value = equals === -1 ? '' : decode(pair.slice(equals + 1));
  if (KEY_SHAPE.test(name)) return REDACTED;
  if (secretName(name) || KEY_SHAPE.test(value)) {
    return `${pair.slice(0, equals === -1 ? pair.length : equals)}=${REDACTED}`;
  }
  return pair;
}

function redactSegment(segment: string): string {
  return KEY_SHAPE.test(decode(segment)) ? REDACTED : segment;
}

/**
 * The request target as it may be logged: query parameters named like secrets (`api_key`, `token`,
 * `password`, …) and any path segment, parameter name or value shaped like an API key (also when
 * percent-encoded) are replaced by `[redacted]`, and the result is cut at LOGGED_URL_MAX characters.
 */
export function redactUrl(url: string): string {
  let safe = url;
  if (SUSPICIOUS.test(url)) {
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const query = queryAt === -1 ? undefined : url.slice(queryAt + 1);
    safe = path.replace(/[^/]+/g, redactSegment);
    if (query !== undefined) safe += `?${query.replace(/[^&;]+/g, redactParameter)}`;
  }
  return safe.length > LOGGED_URL_MAX ? `${safe.slice(0, LOGGED_URL_MAX)}…` : safe;
}
