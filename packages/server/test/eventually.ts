/** The site hosts' refresh period the suites give their apps and servers: changes are seen in milliseconds. */
export const TEST_SITE_HOSTS_REFRESH_MS = 20;

/**
 * Polls `condition` until it holds. No deadline of its own: what it waits for comes with the next
 * refresh of a short, injected period, and on a loaded machine that period says nothing about the
 * code; the test's time-out stops a real hang.
 */
export async function eventually(condition: () => Promise<boolean>, pollMs = 10): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, pollMs));
}
