/** How often the suites' apps and servers read the change feed unasked: changes are seen in milliseconds. */
export const TEST_CHANGE_POLL_MS = 20;

/**
 * Polls `condition` until it holds. No deadline of its own: what it waits for comes with the next
 * refresh of a short, injected period, and on a loaded machine that period says nothing about the
 * code; the test's time-out stops a real hang.
 */
export async function eventually(condition: () => Promise<boolean>, pollMs = 10): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, pollMs));
}
