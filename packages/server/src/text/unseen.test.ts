import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { emailProblem, emailSkeleton, normalizeEmail } from '../features/identity/email.ts';
import { unseenCharacter, withoutUnseen } from './unseen.ts';

/** Characters nobody sees or that reorder what is shown: each must be found. */
export const UNSEEN_SAMPLES = [
  '\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u00ad', '\u034f', '\u061c', '\u115f', '\u180e',
  '\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2028', '\u2029', '\u202a', '\u202b', '\u202c',
  '\u202d', '\u202e', '\u2060', '\u2061', '\u2066', '\u2067', '\u2068', '\u2069', '\u2800', '\u3164',
  '\ufe0f', '\ufeff', '\uffa0', '\u{e0041}', '\u{e0100}', '\ud800',
]; // prettier-ignore

/** Whole pictures made with joiners, variation selectors and tags: labels may hold them. */
const EMOJI = ['👨‍👩‍👧', '🏳️‍🌈', '❤️', '1️⃣', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '👍🏽', '🇫🇷'];

const visibleText = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((text) => !unseenCharacter(text));

describe('characters a reader cannot see (text/unseen.ts)', () => {
  it('property: any text with one of them anywhere → found; without → nothing found', () => {
    fc.assert(
      fc.property(visibleText, visibleText, fc.constantFrom(...UNSEEN_SAMPLES), (before, after, char) => {
        // A selector or joiner that completes an emoji with its neighbour (🗂 + U+FE0F) is part of a
        // picture, which labels may hold: the property is about characters that stand alone.
        fc.pre(`${before}${char}${after}`.replace(/\p{RGI_Emoji}/gv, '').includes(char));
        const found = unseenCharacter(`${before}${char}${after}`);
        assert.ok(found, JSON.stringify(`${before}${char}${after}`));
        assert.match(found.codePoint, /^U\+[0-9A-F]{4,6}$/);
        assert.equal(unseenCharacter(`${before}${after}`), undefined);
        assert.equal(withoutUnseen(`${before}${char}${after}`), `${before}${after}`);
      }),
      { numRuns: 500 },
    );
  });

  it('a variation selector completing an emoji with the character before it → nothing found, as in 🗂️', () => {
    assert.equal(unseenCharacter('\u{1f5c2}\ufe0f'), undefined);
    assert.equal(
      unseenCharacter('\u{1f5c2}\u200b')?.codePoint,
      'U+200B',
      'a zero-width space beside it is still found',
    );
  });

  it('U+202E and the other direction controls are named as such; controls as controls', () => {
    assert.equal(unseenCharacter('abc\u202edef')?.kind, 'a character that changes the direction of the text');
    assert.equal(unseenCharacter('a\u0007')?.kind, 'a control character');
    assert.equal(unseenCharacter('a\u200bb')?.kind, 'an invisible character');
  });

  it('emoji sequences (joiners, variation selectors, tag flags, skin tones) → nothing found, nothing removed', () => {
    for (const emoji of EMOJI) {
      assert.equal(unseenCharacter(`deploy ${emoji} key`), undefined, emoji);
      assert.equal(withoutUnseen(`a${emoji}b`), `a${emoji}b`, emoji);
    }
    assert.ok(unseenCharacter('a\u200db'), 'a joiner outside an emoji is hidden');
  });

  it('property: an address with an unseen character or lookalike punctuation → refused, and its skeleton is the address without', () => {
    const local = fc.stringMatching(/^[a-z][a-z0-9]{0,6}-[a-z0-9]{1,6}$/);
    fc.assert(
      fc.property(
        local,
        // Characters an address may not hold at all (spaces, controls) are no address to begin with.
        fc.constantFrom(...UNSEEN_SAMPLES.filter((c) => !/[\s\p{Cc}\ud800]/u.test(c))),
        fc.nat(),
        (name, char, at) => {
          const plain = `${name}@example.com`;
          const position = at % (name.length + 1);
          const hidden = normalizeEmail(
            `${name.slice(0, position)}${char}${name.slice(position)}@example.com`,
          );
          assert.ok(hidden);
          assert.match(emailProblem(hidden) ?? '', /contains U\+/);
          assert.equal(emailSkeleton(hidden), plain);
          for (const dash of ['\u2010', '\u2011', '\u2012', '\u2013', '\u2212']) {
            const imitation = normalizeEmail(plain.replace('-', dash))!;
            assert.match(emailProblem(imitation) ?? '', /drawn like “-”/, dash);
            assert.equal(emailSkeleton(imitation), plain);
          }
          assert.equal(emailProblem(plain), undefined);
        },
      ),
      { numRuns: 300 },
    );
  });
});
