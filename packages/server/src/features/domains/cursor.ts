import type { DomainPosition } from './domain-repository.ts';

/** A page of domains ends at a domain: when it was added and its name, opaque to clients (base64url). */
export const encodeDomainCursor = ({ at, hostname }: DomainPosition): string =>
  Buffer.from(`${at}.${hostname}`, 'utf8').toString('base64url');

/** The position a cursor names; undefined for anything no page gave (then 400 invalid_cursor). */
export function decodeDomainCursor(cursor: string): DomainPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return undefined;
  const match = /^(\d{1,16})\.([a-z0-9.-]{1,253})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? { at: Number(match[1]), hostname: match[2]! } : undefined;
}
