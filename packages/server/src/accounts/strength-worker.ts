import { parentPort } from 'node:worker_threads';
import { loadStrengthCheck } from './password-strength.ts';

/**
 * The strength check's thread (strength-pool.ts starts it): it loads zxcvbn-ts on its first message
 * and answers each `{ id, password, userInputs }` with `{ id, strength }` or `{ id, error }`.
 */
export interface StrengthRequest {
  id: number;
  password: string;
  userInputs: string[];
}

let loading: ReturnType<typeof loadStrengthCheck> | undefined;

parentPort?.on('message', async ({ id, password, userInputs }: StrengthRequest) => {
  try {
    loading ??= loadStrengthCheck();
    const strength = (await loading)(password, userInputs);
    parentPort!.postMessage({ id, strength });
  } catch (error) {
    loading = undefined;
    parentPort!.postMessage({ id, error: String(error) });
  }
});
