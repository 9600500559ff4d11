const TOKEN_ID = /^at_[0-9a-f]{1,40}$/;

/**
 * The tokens a form (a password change, turning two-factor on) lists and asks to keep: each listed
 * token is sent as `listed:<id>`, its box `revoke:<id>` is checked by default; the ones listed whose
 * box was cleared are kept. A token the form did not list (made since the page was shown) is revoked.
 */
export function keptTokens(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const fields = body as Record<string, unknown>;
  return Object.keys(fields)
    .filter((name) => name.startsWith('listed:'))
    .map((name) => name.slice('listed:'.length))
    .filter((id) => TOKEN_ID.test(id) && !Object.hasOwn(fields, `revoke:${id}`));
}
