import type { Role } from '../members/member-records.ts';

/** What each role may do: an owner everything, a developer keys and logs, a viewer read only. */
const RANK: Record<Role, number> = { viewer: 0, developer: 1, owner: 2 };

export const allows = (role: Role, needed: Role): boolean => RANK[role] >= RANK[needed];

export const ROLE_NAMES: Record<Role, string> = {
  owner: 'an owner',
  developer: 'a developer',
  viewer: 'a viewer',
};

/** Who a role check asked for, as a sentence ends: "this needs a developer or an owner". */
export const neededText = (needed: Role): string =>
  needed === 'owner' ? 'an owner' : needed === 'developer' ? 'a developer or an owner' : 'a member';
