import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const SRC = path.join(import.meta.dirname, '../src');
const sources = () => globSync('**/*.ts', { cwd: SRC }).filter((file) => !file.endsWith('.test.ts'));

/** The lines of the `await`s in a module's own body (top-level await), outside every function. */
function topLevelAwaits(file: string, text: string): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return;
    const awaits =
      ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier !== undefined);
    if (awaits) lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return lines;
}

/**
 * The lines of the regular expressions with the `v` flag a module creates in its own body: V8 builds
 * their sets of strings (`\\p{RGI_Emoji}`: every emoji sequence) when the expression is created.
 */
function topLevelSetRegExps(file: string, text: string): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return;
    if (ts.isRegularExpressionLiteral(node) && /\/[a-z]*v[a-z]*$/.test(node.text)) {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return lines;
}

describe('importing a server module does no work a build or a first request can do', () => {
  it('no server source awaits at its top level (an import would wait on I/O)', () => {
    const found = sources().flatMap((file) =>
      topLevelAwaits(file, readFileSync(path.join(SRC, file), 'utf8')).map((line) => `${file}:${line}`),
    );
    assert.deepEqual(found, []);
  });

  it('the check finds a top-level await, in a loop too, and not one inside a function', () => {
    const probe = (text: string) => topLevelAwaits('probe.ts', text).length;
    assert.equal(probe('const x = await load();'), 1);
    assert.equal(probe('if (ready) {\n  for await (const x of y) {}\n}'), 1);
    assert.equal(probe('export const c = { v: await load() };'), 1);
    assert.equal(probe('async function f() { await g(); }\nconst h = async () => await g();'), 0);
  });

  it('no server source creates a regular expression with the v flag at its top level (made on first use)', () => {
    const found = sources().flatMap((file) =>
      topLevelSetRegExps(file, readFileSync(path.join(SRC, file), 'utf8')).map((line) => `${file}:${line}`),
    );
    assert.deepEqual(found, []);
    const probe = (text: string) => topLevelSetRegExps('probe.ts', text).length;
    assert.equal(probe('const EMOJI = /\\p{RGI_Emoji}/gv;'), 1);
    assert.equal(probe('const PLAIN = /^[a-z]v$/u;\nconst f = () => /\\p{RGI_Emoji}/v;'), 0);
  });

  it('no server source parses YAML: the contracts are emitted as JSON by the build', () => {
    const yaml = sources().filter((file) =>
      /from 'yaml'|import\('yaml'\)/.test(readFileSync(path.join(SRC, file), 'utf8')),
    );
    assert.deepEqual(yaml, []);
  });
});
