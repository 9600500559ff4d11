/** Anything shaped like an API key of this service, wherever it appears. */
export const KEY_SHAPE = /ps_(?:live|test)_[A-Za-z0-9_-]{8,}/i;

/** Query parameters whose values are secrets by their name, whatever the value looks like. */
const SECRET_NAME =
  /^(?:api[-_.]?key|apikey|key|x[-_]api[-_]key|token|access[-_]?token|id[-_]?token|refresh[-_]?token|auth|authorization|bearer|secret|client[-_]?secret|password|passwd|pwd|pass|signature|sig|session|session[-_]?id|credentials?|code|pw|_?csrf(?:[-_]?token)?|_?xsrf(?:[-_]?token)?|otp|invitation|invite)$/i;

/** Cheap pre-check: a URL without any of these needs no decoding at all (the common case). */
const SUSPICIOUS = /ps_|%|\+|key|token|auth|bearer|secret|pass|pw|sig|session|cred|code|csrf|xsrf|otp|invit/i;

/** Logged URLs are cut here: a request line may be 16 KiB, a log line need not be. */
export const LOGGED_URL_MAX = 1024;

export const REDACTED = '[redacted]';

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

function redactParameter(pair: string): string {
  const equals = pair.indexOf('=');
  const name = decode(equals === -1 ? pair : pair.slice(0, equals));
  const value = equals === -1 ? '' : decode(pair.slice(equals + 1));
  if (KEY_SHAPE.test(name)) return REDACTED;
  if (SECRET_NAME.test(name.trim()) || KEY_SHAPE.test(value)) {
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
