import { getPriority } from 'node:os';
import { createStrengthPool, STRENGTH_LIMITS } from '../src/features/identity/strength-pool.ts';

/** Password hashing cost for tests: the real code path, a fraction of production's memory and time. */
export const TEST_PASSWORD_PARAMS = { N: 2 ** 10, r: 8, p: 1 };

/**
 * The strength check of the tests: production's worker (zxcvbn-ts) and limits, one for the process
 * as in production (its start builds the dictionaries: about a second of CPU), but at the process's
 * own priority rather than the lowest, so that a busy machine does not starve it
 * (password-bounds.test.ts checks production's priority). Never closed: it lets the process exit.
 */
export const TEST_PASSWORD_STRENGTH = createStrengthPool(STRENGTH_LIMITS, getPriority());
