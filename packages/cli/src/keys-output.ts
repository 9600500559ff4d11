import { type CliIo, say } from './io.ts';
import { formatInstant } from './table.ts';

/** A new key as `keys create` prints it, in either mode. */
export interface CreatedKeyView {
  id: string;
  project: string | null;
  environment: string;
  plan: string;
  perMinute: number | null;
  perDay: number | null;
  ownPerMinute?: number | null;
  ownPerDay?: number | null;
  label: string | null;
  /** Epoch ms, or null when it never expires. */
  expiresAt: number | null;
  /** The secret, shown once. */
  key: string;
}

export function ownLimitsText(own: { ownPerMinute?: number | null; ownPerDay?: number | null }): string[] {
  const parts = [];
  if (own.ownPerMinute) parts.push(`${own.ownPerMinute} a minute`);
  if (own.ownPerDay) parts.push(`${own.ownPerDay} a day`);
  return parts.length > 0 ? [`own limits ${parts.join(', ')}`] : [];
}

/** One line about the key, then the secret alone on the last line (or one JSON object with --json). */
export function printCreatedKey(io: CliIo, created: CreatedKeyView, json: boolean): void {
  if (json) {
    say(io, JSON.stringify(created));
    return;
  }
  const details = [
    ...(created.project ? [`project ${created.project}`] : []),
    `plan ${created.plan}`,
    ...ownLimitsText(created),
    `environment ${created.environment}`,
  ];
  if (created.label) details.push(`label ${JSON.stringify(created.label)}`);
  if (created.expiresAt) details.push(`expires ${formatInstant(created.expiresAt, '')}`);
  say(io, `created ${created.id} (${details.join(', ')}); the key is shown once:`);
  say(io, created.key);
}

/** A rolled key as `keys roll` prints it: the new key's secret alone on the last line. */
export function printRolledKey(
  io: CliIo,
  rolled: { id: string; previous: string; previousExpiresAt: number | null; key: string },
  json: boolean,
): void {
  if (json) {
    say(io, JSON.stringify(rolled));
    return;
  }
  const until = formatInstant(rolled.previousExpiresAt, 'never');
  say(
    io,
    `rolled ${rolled.previous} to ${rolled.id} (${rolled.previous} works until ${until}); the key is shown once:`,
  );
  say(io, rolled.key);
}

/** What `keys unban` says, in either mode. */
export const unbanLine = (id: string, wasBanned: boolean): string =>
  wasBanned ? `unbanned ${id}: it is active again` : `${id} was not banned: nothing to lift`;
