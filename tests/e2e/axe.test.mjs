// Accessibility (issue 14): axe-core finds no violation on any tab, in the
// light and the dark colour scheme, at 1366 px and on a 390 px phone.
// axe-core (node_modules) is injected into the page, which needs the
// context to bypass the page's CSP (it allows no script but its own).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { ROOT, startEnv, stopEnv, MODELS } from './helpers.mjs';

const AXE = join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

describe('axe-core', () => {
  for (const [width, colorScheme] of [[1366, 'light'], [1366, 'dark'], [390, 'light'], [390, 'dark']]) {
    test(`every tab at ${width} px, ${colorScheme}: no violation`, async () => {
      const context = await env.browser.newContext({ viewport: { width, height: 900 }, colorScheme, bypassCSP: true, isMobile: width < 500 });
      try {
        const page = await context.newPage();
        const found = {};
        for (const model of MODELS) {
          // The first tab is loaded, the others are reached as a reader would: through the tab strip.
          if (model === MODELS[0]) await page.goto(`${env.url}#model=${model}`);
          else await page.click(`#model-tabs .tab[data-model="${model}"]`);
          await page.waitForFunction((m) => window.isoperf && document.querySelector('.tab[aria-current=page]')?.dataset.model === m
            && document.getElementById('app').getAttribute('aria-busy') === 'false' && document.querySelector('#outputs .output output')?.textContent !== '—', model, { timeout: 15_000 });
          await page.waitForTimeout(300); // the charts' frame
          if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: AXE });
          const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
            .map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`));
          if (violations.length) found[model] = violations;
        }
        assert.deepEqual(found, {});
      } finally {
        await context.close();
      }
    });
  }
});
