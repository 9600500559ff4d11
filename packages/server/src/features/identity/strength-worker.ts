/**
 * The strength check's thread, as source text (strength-pool.ts starts it with `eval`): no module of
 * ours is loaded in it, nor are the dependency bundle's resolve hooks, which are the main thread's. It imports
 * zxcvbn-ts from the URLs it is given (resolved by the pool), builds it on the first message with the
 * common and English dictionaries, and answers each `{ id, password, userInputs }` with
 * `{ id, strength }` or `{ id, error }`, at the lowest scheduling priority. The pool cuts the password to its prefix before sending it;
 * `maxLength` is zxcvbn's own cut, a second bound.
 */
export interface StrengthRequest {
  id: number;
  password: string;
  userInputs: string[];
}

export interface StrengthWorkerData {
  /** File URLs of @zxcvbn-ts/core, @zxcvbn-ts/language-common and @zxcvbn-ts/language-en. */
  modules: [string, string, string];
  maxLength: number;
  /** The thread's nice value (19: the lowest priority). */
  nice: number;
}

export const STRENGTH_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// The lowest priority for this thread alone (Linux keeps a nice value per thread): the checks use
// the CPU that serving requests leaves, and never take a core's time from the event loop.
try {
  require('node:os').setPriority(workerData.nice);
} catch {}
let loading;
async function load() {
  const [{ ZxcvbnFactory }, common, english] = await Promise.all(workerData.modules.map((url) => import(url)));
  return new ZxcvbnFactory({
    translations: english.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...english.dictionary },
    maxLength: workerData.maxLength,
  });
}
parentPort.on('message', async ({ id, password, userInputs }) => {
  try {
    loading ??= load();
    const result = (await loading).check(password, userInputs);
    parentPort.postMessage({ id, strength: { score: result.score, warning: result.feedback.warning || undefined } });
  } catch (error) {
    loading = undefined;
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;
