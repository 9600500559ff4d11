import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelProblem } from '../src/features/shared/text-rules.ts';
import { manageContract } from '../src/openapi/contract.ts';

interface StringSchema {
  pattern?: string;
}
const schemas = (
  manageContract().document as unknown as {
    components: { schemas: Record<string, { properties: Record<string, StringSchema> }> };
  }
).components.schemas;
const field = (schema: string, name: string) => schemas[schema]!.properties[name]!;

/** The names and labels people give, whose characters the services check (features/shared/text-rules.ts). */
const INPUTS: [string, StringSchema][] = [
  ['NewProject.name', field('NewProject', 'name')],
  ['ProjectChange.name', field('ProjectChange', 'name')],
  ['NewAccessToken.name', field('NewAccessToken', 'name')],
  ['NewKey.label', field('NewKey', 'label')],
  ['KeyChange.label', field('KeyChange', 'label')],
];
/** Refused by the services only outside an emoji sequence, which a pattern cannot tell: the contract admits them. */
const IN_EMOJI = new Set([0x200d, 0xfe0f]);

describe('the contract’s patterns of names and labels and the services’ rule agree', () => {
  for (const [name, schema] of INPUTS) {
    it(`${name}: every character up to U+FFFF is refused by the pattern exactly when the service refuses it (but U+200D and U+FE0F, parts of emoji)`, () => {
      const pattern = new RegExp(schema.pattern!, 'u');
      const disagree: string[] = [];
      for (let cp = 0; cp <= 0xffff; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const text = `a${String.fromCodePoint(cp)}b`;
        const contract = pattern.test(text);
        const service = labelProblem(text, 'label') === undefined;
        if (contract !== service && !(IN_EMOJI.has(cp) && contract)) disagree.push(`U+${cp.toString(16)}`);
      }
      assert.deepEqual(disagree, []);
    });
  }
});
