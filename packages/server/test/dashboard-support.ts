import assert from 'node:assert/strict';
import type { TestApp, TestResponse } from './harness.ts';

/** What a browser keeps between requests: cookies by name. */
export class Browser {
  readonly cookies: Map<string, string>;
  readonly app: TestApp;
  /** `cookies`: another Browser's, for one browser talking to two instances of the service. */
  constructor(app: TestApp, cookies = new Map<string, string>()) {
    this.app = app;
    this.cookies = cookies;
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async send(
    method: string,
    url: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    const response = await this.app.request({
      method,
      url,
      key: null,
      unchecked: true,
      headers: {
        ...(this.cookies.size > 0 ? { cookie: this.cookieHeader } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of setCookies(response)) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get = (url: string, headers?: Record<string, string>) => this.send('GET', url, undefined, headers);
  post = (url: string, form: Record<string, string>, headers?: Record<string, string>) =>
    this.send('POST', url, form, headers);

  /** Signs in through the form, as a person would; asserts it worked. */
  async signIn(email: string, password: string): Promise<void> {
    const page = await this.get('/dashboard/sign-in');
    const response = await this.post('/dashboard/sign-in', { _csrf: csrfOf(page), email, password });
    assert.equal(response.status, 303, response.body);
    assert.equal(response.headers.location, '/dashboard');
  }
}

export function setCookies(response: TestResponse): string[] {
  const header = response.headers['set-cookie'] as string | string[] | undefined;
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

/** The CSRF token of the first form of a page. */
export function csrfOf(page: TestResponse): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
  assert.ok(token, `no CSRF token in ${page.body.slice(0, 300)}`);
  return token;
}

/**
 * Creates a key through the keys page's form as a person would: the form answers 303 back to the keys
 * page, which shows the new secret once. Returns that page.
 */
export async function createKeyIn(browser: Browser, slug: string, label: string): Promise<TestResponse> {
  const url = `/dashboard/projects/${slug}/keys`;
  const created = await browser.post(url, { _csrf: csrfOf(await browser.get(url)), label });
  assert.equal(created.status, 303, created.body);
  assert.equal(created.headers.location, url);
  return browser.get(url);
}

/** The new key's secret shown on the page after creating it. */
export function secretOf(page: TestResponse): string {
  const secret = /<output id="new-secret">(ps_test_[A-Za-z0-9_-]{43})<\/output>/.exec(page.body)?.[1];
  assert.ok(secret, 'the page shows the new key');
  return secret;
}

/** The headers every dashboard page carries, errors included. */
export function assertPageHeaders(response: TestResponse): void {
  assert.match(response.headers['content-type'] ?? '', /^text\/html/);
  const csp = response.headers['content-security-policy'] ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(response.headers['x-frame-options'], 'DENY');
  assert.equal(response.headers['x-content-type-options'], 'nosniff');
  assert.equal(response.headers['cache-control'], 'no-store');
}

/** An account with a real password hash, member of these projects (created on the free plan when new). */
export async function addAccount(
  app: TestApp,
  email: string,
  password: string,
  slugs: string[],
): Promise<string> {
  const { hashPassword } = await import('../src/features/identity/passwords.ts');
  const { TEST_PASSWORD_PARAMS } = await import('./harness.ts');
  const id = `acc_${email.replace(/\W/g, '_')}`;
  await app.storage.accounts.create({
    id,
    email,
    passwordHash: await hashPassword(password, TEST_PASSWORD_PARAMS),
    createdAt: app.clock.now(),
  });
  for (const slug of slugs) {
    const project =
      (await app.storage.projects.bySlug(slug)) ??
      (await app.storage.projects.create({
        id: `prj_${slug}`,
        slug,
        name: `Project ${slug}`,
        plan: 'free',
        perMinute: null,
        perDay: null,
        createdAt: app.clock.now(),
      }))!;
    await app.storage.projects.addMember(id, project.id, app.clock.now());
  }
  return id;
}
