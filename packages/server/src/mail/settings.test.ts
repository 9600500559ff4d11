import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../config.ts';

const load = (env: Record<string, string>) => loadConfig(env).mail;
const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail('accepted');
};

describe('PETSTORE_SMTP_URL and PETSTORE_MAIL_FROM', () => {
  it('unset → mail goes to the log, from the default sender', () => {
    assert.deepEqual(load({}), { smtp: undefined, from: 'Petstore <petstore@localhost>' });
  });

  it('smtp://user:pass@host:port → STARTTLS when offered, credentials percent-decoded; smtps → TLS on 465', () => {
    const from = 'Petstore <no-reply@example.com>';
    assert.deepEqual(
      load({ PETSTORE_SMTP_URL: 'smtp://ann%40corp:p%3Ass@mail.example.com:2525', PETSTORE_MAIL_FROM: from }),
      {
        smtp: {
          host: 'mail.example.com',
          port: 2525,
          secure: false,
          requireTls: false,
          auth: { user: 'ann@corp', pass: 'p:ss' },
        },
        from,
      },
    );
    const smtps = load({
      PETSTORE_SMTP_URL: 'smtps://mail.example.com',
      PETSTORE_MAIL_FROM: 'no-reply@example.com',
    });
    assert.deepEqual(smtps.smtp, {
      host: 'mail.example.com',
      port: 465,
      secure: true,
      requireTls: false,
      auth: undefined,
    });
    const required = load({
      PETSTORE_SMTP_URL: 'smtp://[::1]?starttls=required',
      PETSTORE_MAIL_FROM: 'no-reply@example.com',
    });
    assert.deepEqual(required.smtp, {
      host: '::1',
      port: 587,
      secure: false,
      requireTls: true,
      auth: undefined,
    });
  });

  it('a bad value → one line naming the setting, never the password', () => {
    const from = { PETSTORE_MAIL_FROM: 'no-reply@example.com' };
    for (const [url, reason] of [
      ['http://user:hunter2secret@mail.example.com', /PETSTORE_SMTP_URL must use smtp: or smtps:/],
      ['smtp://user:hunter2secret@mail.example.com/inbox', /PETSTORE_SMTP_URL takes no path/],
      [
        'smtp://user:hunter2secret@mail.example.com?tls=no',
        /PETSTORE_SMTP_URL takes only \?starttls=required/,
      ],
      ['smtps://user:hunter2secret@mail.example.com?starttls=required', /only with smtp:/],
      ['not a url hunter2secret', /PETSTORE_SMTP_URL must be smtp:\/\/user:pass@host:port/],
    ] as const) {
      const message = refusal({ PETSTORE_SMTP_URL: url, ...from });
      assert.match(message, reason);
      assert.doesNotMatch(message, /hunter2secret/);
      assert.doesNotMatch(message, /\n/);
    }
  });

  it('a mail server without PETSTORE_MAIL_FROM, or a sender that is no address → refused, naming it', () => {
    assert.match(
      refusal({ PETSTORE_SMTP_URL: 'smtp://mail.example.com' }),
      /PETSTORE_MAIL_FROM must be set with PETSTORE_SMTP_URL/,
    );
    for (const from of ['nobody', 'Petstore <nobody>', 'a@b.c, d@e.f']) {
      assert.match(
        refusal({ PETSTORE_MAIL_FROM: from }),
        /PETSTORE_MAIL_FROM must be an address or Name <address>/,
      );
    }
    assert.equal(
      load({ PETSTORE_MAIL_FROM: 'Acme Pets <pets@acme.example>' }).from,
      'Acme Pets <pets@acme.example>',
    );
  });
});
