/** Anything shaped like a secret of this service (an API key, an access token), wherever it appears. */
export const KEY_SHAPE = /ps_(?:live|test|at)_[A-Za-z0-9_-]{8,}/i;

/** Query parameters whose values are secrets by their name, whatever the value looks like. */
const SECRET_NAME =
  /^(?:api[-_.]?key|apikey|key|x[-_]api[-_]key|(?:access|private|secret|client|signing)[-_.]?key|auth|authorization|bearer|passwd|pwd|pass|sig|credentials?|code|pw|_?csrf(?:[-_]?token)?|_?xsrf(?:[-_]?token)?|otp|invitation|invite|jwt|refresh)$/i;

/**
 * Names that are secrets by their kind, wherever the word stands in them: `auth_token`,
 * `sessionToken`, `new_password`, `user[password]`, `X-Amz-Signature`, `client_secret`, `jwt`, `jsessionid`, and
 * every name starting with `session`.
 */
const SECRET_KIND = /token|secret|password|signature|jwt|^session|sessionid/i;

/** Cheap pre-check: a URL without any of these needs no decoding at all (the common case). */
const SUSPICIOUS =
  /ps_|%|\+|key|token|auth|bearer|secret|pass|pw|sig|session|cred|code|csrf|xsrf|otp|invit|jwt|refresh/i;

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

/** Whether a `name=value` parameter (decoded) is a secret: by its name, or a value shaped like one. */
function secretParameter(piece: string): boolean {
  const equals = piece.indexOf('=');
  return equals !== -1 && (secretName(piece.slice(0, equals)) || KEY_SHAPE.test(piece.slice(equals + 1)));
}

/**
 * A path segment as it may be logged: one shaped like a key is replaced whole; its parameters
 * (`/pets;token=…`, or a segment that is `name=value`) are redacted like a query's, and when they are
 * percent-encoded (`%3Btoken%3D…`) the whole segment is.
 */
function redactSegment(segment: string): string {
  const decoded = decode(segment);
  if (KEY_SHAPE.test(decoded)) return REDACTED;
  if (!decoded.includes('=')) return segment;
  if (segment.includes('%')) return decoded.split(';').some(secretParameter) ? REDACTED : segment;
  return segment.replace(/[^;]+/g, (piece) => (piece.includes('=') ? redactParameter(piece) : piece));
}

function redactTarget(url: string): string {
  if (!SUSPICIOUS.test(url)) return url;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? undefined : url.slice(queryAt + 1);
  const safe = path.replace(/[^/]+/g, redactSegment);
  return query === undefined ? safe : `${safe}?${query.replace(/[^&;]+/g, redactParameter)}`;
}

/**
 * The request target as it may be logged: parameters of the query and of path segments (`;token=…`)
 * named like secrets (`api_key`, `token`, `password`, `refresh`, …) and any path segment, parameter
 * name or value shaped like a key or an access token (`ps_live_`, `ps_test_`, `ps_at_`; also when
 * percent-encoded) are replaced by `[redacted]`, and the result is cut at LOGGED_URL_MAX characters.
 */
export function redactUrl(url: string): string {
  const safe = redactTarget(url);
  return safe.length > LOGGED_URL_MAX ? `${safe.slice(0, LOGGED_URL_MAX)}…` : safe;
}

/** What separates the words of a message: spaces, quotes, brackets, commas. */
const WORD = /[^\s'"`“”‘’()<>[\],]+/g;

/**
 * A message that may echo what a client sent (an Error body's, stored by the request log) as it may
 * be kept: each word of it redacted as a request target is (a path, a parameter, a bare key).
 */
export function redactText(text: string): string {
  return SUSPICIOUS.test(text) ? text.replace(WORD, redactTarget) : text;
}
