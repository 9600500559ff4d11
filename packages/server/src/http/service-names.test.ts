import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseDomain } from '../features/domains/hostname.ts';
import { parseHostHeader } from './host-name.ts';
import { classifyHost, type ServiceNames } from './service-names.ts';

const NAMES: ServiceNames = { siteDomain: 'sites.example.test', apiHosts: ['api.example.test'] };
const OPEN: ServiceNames = { siteDomain: 'sites.localhost', apiHosts: [] };
const EVERYTHING_SERVED = () => 'site' as const;

const FULL_WIDTH_DIGITS = '０１２３４５６７８９';
const BYTE = fc.integer({ min: 0, max: 255 });
const DOTS = ['.', '。', '．', '｡'];

/** One IPv4 address written the ways the WHATWG host parser accepts: bases, short forms, wide digits. */
const ipv4Spelling = fc
  .record({
    parts: fc.tuple(BYTE, BYTE, BYTE, BYTE),
    groups: fc.constantFrom(1, 2, 3, 4),
    base: fc.constantFrom('dec', 'hex', 'HEX', 'oct'),
    wide: fc.boolean(),
    dot: fc.constantFrom(...DOTS),
    trailingDot: fc.boolean(),
  })
  .map(({ parts, groups, base, wide, dot, trailingDot }) => {
    const [a, b, c, d] = parts;
    const value = ((a * 256 + b) * 256 + c) * 256 + d;
    const numbers =
      groups === 4
        ? parts
        : groups === 3
          ? [a, b, c * 256 + d]
          : groups === 2
            ? [a, b * 65_536 + c * 256 + d]
            : [value];
    const write = (n: number) =>
      base === 'hex'
        ? `0x${n.toString(16)}`
        : base === 'HEX'
          ? `0X${n.toString(16).toUpperCase()}`
          : base === 'oct'
            ? `0${n.toString(8)}`
            : String(n);
    let text = numbers.map(write).join(dot);
    if (wide) text = text.replace(/[0-9]/g, (digit) => FULL_WIDTH_DIGITS[Number(digit)]!);
    return { text: trailingDot ? `${text}.` : text, address: parts.join('.') };
  });

describe('host names: every IP spelling is one address, and always the service own', () => {
  it('property: parseHostHeader reads every spelling of an IPv4 address as the dotted address', () => {
    fc.assert(
      fc.property(ipv4Spelling, ({ text, address }) => {
        assert.equal(parseHostHeader(text)?.hostname, address, text);
      }),
      { numRuns: 500 },
    );
  });

  it('property: every IP spelling reaches the API whatever tenants hold, and is refused as a domain', () => {
    fc.assert(
      fc.property(ipv4Spelling, fc.constantFrom(NAMES, OPEN), ({ text }, names) => {
        const host = parseHostHeader(text)!.hostname;
        assert.equal(classifyHost(host, names, EVERYTHING_SERVED), 'api', text);
        const refused = parseDomain(text, { siteDomain: names.siteDomain, apiHost: names.apiHosts[0] });
        assert.ok('problem' in refused, `${text} refused as a domain`);
        assert.match(refused.problem, /IP address/, text);
      }),
      { numRuns: 500 },
    );
  });

  it('the spellings tenants tried, and IPv6 literals, are refused as domains', () => {
    for (const text of [
      '0x7f.1',
      '127.1',
      '2130706433',
      '0',
      '127。0。0。1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '::1',
    ]) {
      const refused = parseDomain(text, { siteDomain: 'sites.localhost' });
      assert.ok('problem' in refused, text);
      assert.match(refused.problem, /IP address/, text);
    }
    assert.equal(classifyHost('[::1]', NAMES, EVERYTHING_SERVED), 'api');
  });

  it('the service own names are decided by configuration: API host, localhost, site domain and below', () => {
    assert.equal(classifyHost('api.example.test', NAMES, EVERYTHING_SERVED), 'api');
    assert.equal(classifyHost('localhost', NAMES, EVERYTHING_SERVED), 'api');
    assert.equal(
      classifyHost('acme.sites.example.test', NAMES, () => 'free'),
      'site',
    );
    assert.equal(classifyHost('sites.example.test', NAMES, EVERYTHING_SERVED), 'none');
    for (const name of [
      'api.example.test',
      'sites.example.test',
      'acme.sites.example.test',
      'app.localhost',
    ]) {
      assert.ok(
        'problem' in parseDomain(name, { siteDomain: 'sites.example.test', apiHost: 'api.example.test' }),
        name,
      );
    }
  });

  it('any other name: a site while served; nothing while it is or was a custom domain; else the API only with no API host', () => {
    assert.equal(classifyHost('docs.example.com', NAMES, EVERYTHING_SERVED), 'site');
    for (const names of [NAMES, OPEN]) {
      assert.equal(
        classifyHost('docs.example.com', names, () => 'claimed'),
        'none',
      );
      assert.equal(
        classifyHost('docs.example.com', names, () => undefined),
        'none',
        'not looked up yet',
      );
    }
    assert.equal(
      classifyHost('docs.example.com', NAMES, () => 'free'),
      'none',
    );
    assert.equal(
      classifyHost('docs.example.com', OPEN, () => 'free'),
      'api',
    );
  });

  it('a Host that names no host (port out of range, userinfo, path, empty) → undefined', () => {
    for (const header of ['x:99999', 'a:b', 'user@x', 'x/y', 'x?y', '', 'x y', '[::1']) {
      assert.equal(parseHostHeader(header), undefined, header);
    }
    assert.deepEqual(parseHostHeader('Docs.Example.com.:8080'), { hostname: 'docs.example.com', port: 8080 });
  });
});
