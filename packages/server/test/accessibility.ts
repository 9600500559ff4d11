import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

declare const document: unknown;

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is now, and how many rules ran. */
export async function accessibility(
  page: Page,
): Promise<{ serious: string[]; minor: string[]; rules: number }> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: typeof document) => Promise<AxeResults> } })
      .axe;
    interface AxeResults {
      violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
      passes: unknown[];
    }
    const results = await axe.run(document);
    const line = (v: AxeResults['violations'][number]) =>
      `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join(', ')})`;
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    const minor = results.violations.filter((v) => !serious.includes(v));
    return {
      serious: serious.map(line),
      minor: minor.map(line),
      rules: results.passes.length + results.violations.length,
    };
  });
}
