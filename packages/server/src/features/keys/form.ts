import { field } from '../../web/form-body.ts';
import type { KeyChange, NewKeyInput } from './service.ts';

/** The expiries the dashboard offers a new key, in days; '' never expires. */
export const EXPIRY_DAYS = [7, 30, 90, 365] as const;
/** The overlaps the dashboard offers a roll, in seconds (the keys service allows 0 to seven days). */
export const OVERLAP_CHOICES = [
  { seconds: 0, label: 'None: the old key stops now' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 3 * 86_400, label: '3 days' },
  { seconds: 7 * 86_400, label: '7 days' },
] as const;

/** A form's answer: what it asks for, or why it cannot be read (said beside the form). */
export type FormRead<T> = { ok: true; value: T } | { ok: false; problem: string };

const LIMIT = /^[1-9][0-9]{0,12}$/;

/** An own-limit field: blank is none (null); anything but a whole number from 1 is a problem. */
function limitField(body: unknown, name: 'perMinute' | 'perDay', said: string): FormRead<number | null> {
  const text = field(body, name).trim();
  if (text === '') return { ok: true, value: null };
  if (!LIMIT.test(text))
    return { ok: false, problem: `${said} must be a whole number from 1, or blank for none.` };
  return { ok: true, value: Number(text) };
}

/** The own limits of a key's form: both read, or the first problem. */
function limitsOf(body: unknown): FormRead<{ perMinute: number | null; perDay: number | null }> {
  const perMinute = limitField(body, 'perMinute', 'Requests a minute');
  if (!perMinute.ok) return perMinute;
  const perDay = limitField(body, 'perDay', 'Requests a day');
  if (!perDay.ok) return perDay;
  return { ok: true, value: { perMinute: perMinute.value, perDay: perDay.value } };
}

/** The create form: label, expiry (days from now, or never) and own limits. */
export function newKeyOf(body: unknown, now: number): FormRead<NewKeyInput> {
  const days = field(body, 'expiresInDays');
  if (days !== '' && !EXPIRY_DAYS.map(String).includes(days))
    return { ok: false, problem: 'Choose an expiry from the list.' };
  const limits = limitsOf(body);
  if (!limits.ok) return limits;
  return {
    ok: true,
    value: {
      label: field(body, 'label').trim(),
      expiresAt: days === '' ? null : now + Number(days) * 86_400_000,
      ...limits.value,
    },
  };
}

/** The edit form: every field is sent, so each is set (a blank label or limit clears it). */
export function keyChangeOf(body: unknown): FormRead<KeyChange> {
  const limits = limitsOf(body);
  if (!limits.ok) return limits;
  return { ok: true, value: { label: field(body, 'label').trim() || null, ...limits.value } };
}

/** The roll form's overlap, one of OVERLAP_CHOICES. */
export function overlapOf(body: unknown): FormRead<number> {
  const choice = OVERLAP_CHOICES.find(({ seconds }) => String(seconds) === field(body, 'overlapSeconds'));
  return choice
    ? { ok: true, value: choice.seconds }
    : { ok: false, problem: 'Choose an overlap from the list.' };
}
