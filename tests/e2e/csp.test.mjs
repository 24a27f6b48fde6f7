// The page under its own Content-Security-Policy (the <meta> in
// index.html): every model's tab reached by clicking, with its charts, map
// and sweeps drawn, an example data set analysed, the Embed dialog and the
// iframe mode, and not one `securitypolicyviolation`. A control proves the
// policy is in force and the recorder hears it.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, assertCleanPage, listen, startEnv, stopEnv, waitComplete } from './helpers.mjs';

/** The directives of the policy, each no looser in index.html. */
const REQUIRED = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'worker-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
};

/** Records every violation in `window.violations` (before any script of the page runs). */
function recordViolations() {
  window.violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.violations.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
  });
}

let env;
before(async () => {
  env = await startEnv();
  await env.context.addInitScript(recordViolations);
});
after(() => stopEnv(env));

test('index.html declares the strict policy', () => {
  const html = readFileSync(join(ROOT, 'index.html'), 'utf8');
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  assert.ok(content, 'a CSP <meta>');
  const policy = Object.fromEntries(content.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  for (const [name, values] of Object.entries(REQUIRED)) {
    assert.deepEqual(policy[name], values, `${name} is exactly ${values.join(' ')}`);
  }
  assert.ok(!content.includes('unsafe-inline') && !content.includes("'unsafe-eval'"), 'no unsafe-inline, no unsafe-eval');
});

test('every tab, chart, map, sweep, data set and dialog: zero violations', async () => {
  const page = await env.context.newPage();
  const log = listen(page);
  await page.goto(env.url);
  await page.waitForFunction(() => window.isoperf);
  const models = await page.$$eval('#model-tabs .tab', (tabs) => tabs.map((t) => t.dataset.model));
  assert.ok(models.length >= 5, 'a tab per model');
  for (const model of models) {
    await page.click(`#model-tabs .tab[data-model="${model}"]`);
    await page.waitForFunction((m) => document.querySelector(`.tab[data-model="${m}"]`)?.getAttribute('aria-current') === 'page', model);
    await waitComplete(page, model);
    const examples = await page.$$eval('.dataset-example', (menus) => menus.map((m) => [m.closest('.dataset').dataset.dataset, m.options[1]?.value]));
    for (const [dataset, example] of examples) {
      if (!example) continue;
      await page.selectOption(`.dataset[data-dataset="${dataset}"] .dataset-example`, example);
      await page.waitForSelector(`.dataset[data-dataset="${dataset}"] table`, { timeout: 10_000 });
    }
    assert.deepEqual(await page.evaluate(() => window.violations), [], `${model}: no violation`);
  }
  await page.click('#embed-open');
  await page.waitForSelector('#embed-dialog[open]');
  await page.click('#embed-dialog .embed-close');
  // The iframe mode hides parts with a generated style sheet.
  await page.goto(`${env.url}#model=dlt&embed=outputs,chart:gantt`);
  await page.waitForFunction(() => window.isoperf && document.documentElement.classList.contains('embedded'));
  assert.ok(await page.$eval('#tables', (t) => getComputedStyle(t).display === 'none'), 'the embed hides what it does not name');
  assert.deepEqual(await page.evaluate(() => window.violations), [], 'embed mode: no violation');
  assertCleanPage(log, new URL(env.url).origin);
  await page.close();
});

test('control: the policy is in force, and a violation is heard', async () => {
  const page = await env.context.newPage();
  listen(page);
  await page.goto(env.url);
  await page.waitForFunction(() => window.isoperf);
  const applied = await page.evaluate(() => {
    const probe = document.createElement('p');
    probe.setAttribute('style', 'color: rgb(1, 2, 3)');
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  });
  assert.notEqual(applied, 'rgb(1, 2, 3)', 'an inline style attribute is not applied');
  await page.waitForFunction(() => window.violations.length > 0);
  assert.match((await page.evaluate(() => window.violations)).join('\n'), /style-src-attr/);
  await page.close();
});
