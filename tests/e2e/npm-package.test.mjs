// pkg/ as an npm package, the way someone else's project uses it: `npm pack`
// it, install the tarball into a fresh project (offline, with the registry
// pointed at a closed local port, so nothing is fetched), then
//  (a) from Node, as ES modules through the package's `exports`: the full
//      module and `isoperf/core` evaluate pmm at its defaults to the paper's
//      printed value, `report` prints it as the page does, and an invalid
//      parameter throws an Error with `key`; the README's Node example runs;
//  (b) TypeScript (the repo's `tsc`, strict, no skipLibCheck) compiles a
//      file that reads typed fields of models(), evaluate and report, with
//      `@ts-expect-error` lines that only compile if the types are real
//      (not `any`), under both "bundler" and "node16" module resolution;
//      the README's TypeScript example compiles too.
// Needs pkg/ built (bash scripts/build.sh, which also writes package.json).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { MODELS } from './helpers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PKG = join(ROOT, 'pkg');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
const execFileAsync = promisify(execFile);

/**
 * Li, Fox, Qiu, Table 3, row "Dryad Tempest 25x1" (pmm's defaults): the M²
 * coefficient printed as 6.764e-8, to 4 significant figures.
 */
const TABLE3_ROW1_M2 = 6.764e-8;
/** Half a unit in the 4th printed figure, relative to the printed value. */
const PRINTED_4_FIGURES_RTOL = 0.5e-3 / 6.764;

/** The files the package must hold, and nothing else. */
const PACKAGE_FILES = [
  'README.md',
  'package.json',
  ...['isoperf', 'isoperf_core'].flatMap((m) => [`${m}.js`, `${m}.d.ts`, `${m}_bg.wasm`, `${m}_bg.wasm.d.ts`]),
].sort();

// npm without the network: offline, a registry nobody listens on (anything
// that tried it would fail at once), a cache of its own, no audit or fund calls.
let tmp;
const npmEnv = () => ({
  ...process.env,
  npm_config_offline: 'true',
  npm_config_registry: 'http://127.0.0.1:9/',
  npm_config_cache: join(tmp, 'npm-cache'),
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
});

function run(cmd, args, cwd, env = process.env) {
  try {
    return execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

let packed; // npm pack's report of the tarball
let project; // the consumer project with the tarball installed

before(() => {
  assert.ok(
    existsSync(join(PKG, 'package.json')),
    'pkg/package.json is missing: build the package with `bash scripts/build.sh`',
  );
  tmp = mkdtempSync(join(tmpdir(), 'isoperf-npm-'));
  [packed] = JSON.parse(run('npm', ['pack', PKG, '--json', '--pack-destination', tmp], tmp, npmEnv()));
  project = join(tmp, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(tmp, packed.filename)], project, npmEnv());
});

after(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Runs an ES module in the consumer project and returns what it printed. */
function node(name, source) {
  writeFileSync(join(project, name), source);
  return run(process.execPath, [name], project);
}

/** The first fenced block of `lang` in the package README after `heading`. */
function readmeBlock(heading, lang) {
  const readme = readFileSync(join(project, 'node_modules', 'isoperf', 'README.md'), 'utf8');
  const section = readme.split(heading)[1] ?? '';
  const block = section.split('```' + lang + '\n')[1]?.split('```')[0];
  assert.ok(block, `the package README has no \`\`\`${lang} block after "${heading}"`);
  return block;
}

test('the tarball holds the two modules, their declarations and nothing else', () => {
  assert.equal(packed.name, 'isoperf');
  const cargo = readFileSync(join(ROOT, 'Cargo.toml'), 'utf8').match(/^version = "(.*)"/m)[1];
  assert.equal(packed.version, cargo, 'the package version is the crate version');
  assert.deepEqual(packed.files.map((f) => f.path).sort(), PACKAGE_FILES);
  const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'isoperf', 'package.json'), 'utf8'));
  assert.equal(manifest.type, 'module');
  assert.equal(manifest.license, 'MIT');
  assert.equal(manifest.sideEffects, false);
  assert.equal(manifest.dependencies, undefined, 'no dependencies');
});

test('no export is typed `any`', () => {
  for (const file of ['isoperf.d.ts', 'isoperf_core.d.ts']) {
    const dts = readFileSync(join(PKG, file), 'utf8');
    // Past InitInput are wasm-bindgen's own declarations of the raw wasm exports.
    const api = dts.split('export type InitInput')[0];
    const loose = api.split('\n').filter((line) => /\bany\b/.test(line) && !line.trim().startsWith('*'));
    assert.deepEqual(loose, [], `${file}: declarations with any`);
    assert.match(api, /export function report\(model_id: string, params\?: Params \| null, on_progress\?: ProgressHook \| null\): Report;/);
  }
});

test('from Node: both entries evaluate pmm to the paper, report it and throw Errors with a key', () => {
  const out = JSON.parse(
    node(
      'check.mjs',
      `
import { readFileSync } from 'node:fs';
import { initSync, evaluate, report, check, models } from 'isoperf';
import * as core from 'isoperf/core';

const wasm = (entry) => readFileSync(new URL(import.meta.resolve(entry)));
initSync({ module: wasm('isoperf/isoperf_bg.wasm') });
core.initSync({ module: wasm('isoperf/isoperf_core_bg.wasm') });

function thrown(f) {
  try {
    f();
  } catch (e) {
    return { isError: e instanceof Error, message: e.message, key: e.key, fields: e.fields };
  }
  return null;
}

const r = report('pmm', {});
console.log(JSON.stringify({
  models: models().map((m) => m.id),
  coefM2: evaluate('pmm', {}).coef_M2,
  text: r.display.coef_M2.text,
  problems: r.problems,
  tables: r.tables.length,
  error: thrown(() => evaluate('pmm', { N: 0 })),
  check: check('pmm', { N: 0 }),
  core: {
    coefM2: core.evaluate('pmm', {}).coef_M2,
    text: core.report('pmm', { N: 25 }).display.coef_M2.text,
    error: thrown(() => core.evaluate('pmm', { N: 'abc' })),
    hasMaps: 'isoMap' in core,
  },
}));
`,
    ),
  );
  assert.deepEqual(out.models, MODELS);
  for (const coef of [out.coefM2, out.core.coefM2]) {
    assert.ok(
      Math.abs(coef - TABLE3_ROW1_M2) <= PRINTED_4_FIGURES_RTOL * TABLE3_ROW1_M2,
      `coef_M2 = ${coef}, Table 3 row 1 prints ${TABLE3_ROW1_M2}`,
    );
  }
  assert.equal(out.coefM2, out.core.coefM2, 'the two modules compute the same bits');
  assert.equal(out.text, '6.764 × 10⁻⁸');
  assert.equal(out.core.text, '6.764 × 10⁻⁸');
  assert.deepEqual(out.problems, []);
  assert.ok(out.tables > 0);
  assert.equal(out.error.isError, true);
  assert.equal(out.error.key, 'N');
  assert.match(out.error.message, /^N: /);
  assert.deepEqual(out.error.fields.map((f) => f.key), ['N']);
  assert.deepEqual(out.check.map((f) => f.key), ['N']);
  assert.equal(out.core.error.isError, true);
  assert.equal(out.core.error.key, 'N');
  assert.equal(out.core.hasMaps, false, 'isoperf/core is the small module');
});

test("the README's Node example runs", () => {
  const lines = node('readme.mjs', readmeBlock('## In Node', 'js')).trim().split('\n');
  const coef = Number(lines[0]);
  assert.ok(Math.abs(coef - TABLE3_ROW1_M2) <= PRINTED_4_FIGURES_RTOL * TABLE3_ROW1_M2, lines[0]);
  assert.match(lines[1], /× 10⁻⁸$/);
});

const TYPED = `
import init, { initSync, models, evaluate, report, check, isoMap, type IsoperfError, type Params, type Report } from 'isoperf';
import initCore, { report as coreReport, type ModelSpec } from 'isoperf/core';

declare const bytes: Uint8Array;
initSync({ module: bytes });
await init();
await initCore();

const specs: ModelSpec[] = models();
const pmm = specs.find((m) => m.id === 'pmm');
for (const p of pmm?.params ?? []) {
  if (p.kind === 'number') {
    const bounds: [number, number] = [p.range.min, p.range.max];
    const step: number = p.integer ? 1 : p.default / 10;
    console.log(bounds, step, p.reciprocal_unit?.length);
  } else if (p.kind === 'choice') {
    const values: string[] = p.options.map((o) => o.value);
    console.log(values, p.default.toUpperCase());
  } else {
    const defaults: number[] = p.default;
    console.log(defaults, p.max_len, p.group);
  }
}
const presets: [string, number | string | number[]][] = pmm?.preset_groups[0]?.presets[0]?.values ?? [];

const params: Params = { N: 25, M: 20000, impl: 'dryad', A_list: [1, '2'], t_io: null };
const out = evaluate('pmm', params);
const c = out['coef_M2'];
const coef: number = typeof c === 'number' ? c : NaN;

const r: Report = report('pmm', params);
const text: string | undefined = r.display?.['coef_M2']?.text;
const problems: { key: string; message: string }[] = r.problems.concat(check('pmm'));
const status: 'plain' | 'current' | 'agrees' | 'disagrees' | undefined = r.tables?.[0]?.rows[0]?.status;
const level: 'info' | 'warning' | undefined = r.remarks[0]?.level;
const active: boolean | undefined = r.fields['N']?.active;
const core: Report = coreReport('pmm');

try {
  evaluate('pmm', { N: 0 });
} catch (e) {
  const err = e as IsoperfError;
  const key: string | undefined = err.key;
  const message: string = err.message;
  console.log(key, message, err.fields?.[0]?.key);
}

const map = isoMap('pmm', {}, { output: 'efficiency', x: 'N:4:100:log', y: 'M:100:1e6:log', nx: 8, ny: 8 });
const values: (number | null)[] = map.values;

// @ts-expect-error: a report has "outputs", not "output" (an any would accept it)
console.log(report('pmm', params).output);
// @ts-expect-error: an output is a number, a boolean, a list or null, never a string
const wrong: string = out['T'];
// @ts-expect-error: a parameter value is not an object
evaluate('pmm', { N: { value: 25 } });
// @ts-expect-error: a map request needs its grid size
isoMap('pmm', {}, { output: 'efficiency', x: 'N:4:100', y: 'M:100:1e6' });
// @ts-expect-error: a field's state has no "valid"
console.log(r.fields['N']?.valid);

console.log(presets, coef, text, problems, status, level, active, core, values, wrong);
`;

test('TypeScript (strict; "bundler" and "node16" resolution) compiles typed uses and rejects wrong fields', async () => {
  assert.ok(existsSync(TSC), `${TSC} is missing: install the dev dependencies with \`npm ci\``);
  writeFileSync(join(project, 'typed.ts'), TYPED);
  writeFileSync(join(project, 'readme.ts'), readmeBlock('## What goes in and out', 'ts'));
  const compile = async (resolution) => {
    const config = `tsconfig.${resolution}.json`;
    const compilerOptions = {
      target: 'es2022',
      module: resolution === 'bundler' ? 'esnext' : 'node16',
      moduleResolution: resolution,
      lib: ['es2022', 'dom'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false, // the package's own declarations are checked too
    };
    writeFileSync(join(project, config), JSON.stringify({ compilerOptions, files: ['typed.ts', 'readme.ts'] }));
    try {
      await execFileAsync(TSC, ['-p', config, '--noEmit', '--strict'], { cwd: project, timeout: 60_000 });
    } catch (e) {
      assert.fail(`tsc, moduleResolution ${resolution}:\n${e.stdout}${e.stderr}`);
    }
  };
  await Promise.all(['bundler', 'node16'].map(compile));
});
