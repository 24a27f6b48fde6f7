// Makes pkg/ an npm package: writes pkg/package.json and pkg/README.md
// beside what scripts/build.sh built there (the full module isoperf.js +
// isoperf_bg.wasm, the first-paint module isoperf_core.js +
// isoperf_core_bg.wasm, and their TypeScript declarations). Name, version,
// description and license come from Cargo.toml, so the package and the
// crate never disagree.
//
//   node scripts/package.mjs      (the last step of scripts/build.sh)

import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const pkg = new URL('pkg/', root);

/** `key = "value"` of Cargo.toml's [package] table. */
function cargo(key) {
  const toml = readFileSync(new URL('Cargo.toml', root), 'utf8');
  const table = toml.split(/^\[/m).find((t) => t.startsWith('package]')) ?? '';
  const value = table.match(new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, 'm'))?.[1];
  if (value === undefined) throw new Error(`Cargo.toml: no ${key} in [package]`);
  return value;
}

const modules = ['isoperf', 'isoperf_core'];
const files = modules.flatMap((m) => [`${m}.js`, `${m}.d.ts`, `${m}_bg.wasm`, `${m}_bg.wasm.d.ts`]);
const missing = files.filter((f) => !existsSync(new URL(f, pkg)));
if (missing.length) throw new Error(`pkg/ lacks ${missing.join(', ')}: run bash scripts/build.sh`);

const license = cargo('license');
if (license !== 'MIT') throw new Error(`Cargo.toml says license ${license}; the package says MIT`);

const manifest = {
  name: 'isoperf',
  version: cargo('version'),
  description: cargo('description'),
  license,
  keywords: ['performance model', 'parallel computing', 'isoefficiency', 'divisible load', 'webassembly'],
  type: 'module',
  main: './isoperf.js',
  types: './isoperf.d.ts',
  exports: {
    '.': { types: './isoperf.d.ts', default: './isoperf.js' },
    './core': { types: './isoperf_core.d.ts', default: './isoperf_core.js' },
    './isoperf_bg.wasm': './isoperf_bg.wasm',
    './isoperf_core_bg.wasm': './isoperf_core_bg.wasm',
    './package.json': './package.json',
  },
  files,
  sideEffects: false,
};

const readme = `# isoperf

Analytical performance models of parallel and distributed programs, each
following its paper to the printed digit: parallel matrix multiplication on
Dryad and MPI (Li, Fox, Qiu), divisible load on a star and MapReduce
(Drozdowski; Berlinska and Drozdowski), parallel-pipeline reduction
(Kuntraruk, Pottenger, Ross) and Graph500 scalability from measurements
(Medya et al.). Rust compiled to WebAssembly; no dependencies; it computes
everything locally.

Two entry points, each one ES module and one \`.wasm\` file, with TypeScript
declarations:

| import | what it has |
|---|---|
| \`isoperf\` | every export: the registry, \`report\`, \`evaluate\`, \`check\`, \`tables\`, \`remarks\`, charts on a canvas (\`drawChart\`), iso-maps (\`isoMap\`, \`isoMapRows\`, \`isoLines\`, \`mapLayout\`, \`mapCsv\`), sweeps and \`analyze\` for measured data |
| \`isoperf/core\` | a smaller module for a first paint: \`models\`, \`report\`, \`evaluate\`, \`check\`, \`tables\`, \`remarks\`, \`formatNumber\`, \`fieldText\`, \`splitList\` |

## In the browser

\`\`\`js
import init, { evaluate } from 'isoperf';

await init(); // fetches isoperf_bg.wasm beside the module (bundlers copy it)
const out = evaluate('pmm', { impl: 'msmpi', N: 100, M: 20000 });
console.log(out.T, out.speedup);
\`\`\`

## In Node

\`\`\`js
import { readFileSync } from 'node:fs';
import { initSync, evaluate, report } from 'isoperf';

initSync({ module: readFileSync(new URL(import.meta.resolve('isoperf/isoperf_bg.wasm'))) });

// Li, Fox, Qiu, Table 3, "Dryad Tempest 25x1" (the defaults): 6.764e-8
console.log(evaluate('pmm', {}).coef_M2);
console.log(report('pmm', { N: 36 }).display?.coef_M2.text); // as the page prints it
\`\`\`

For \`isoperf/core\`, read \`isoperf/isoperf_core_bg.wasm\` instead.

## What goes in and out

\`models()\` returns the registry (\`ModelSpec[]\`): each model's parameters
with their defaults, ranges and units, its outputs, presets from the papers,
charts, sweeps, maps and notes. Parameters are a plain object (\`Params\`) of
numbers, text as typed, booleans or lists; keys left out take their
defaults. \`evaluate\` returns \`Outputs\` (numbers, booleans, lists, \`null\`
where a value does not exist, never NaN); \`report\` returns everything a
form shows at once (\`Report\`: problems, outputs, their text, tables,
remarks, the state of every field). Every type is declared in
\`isoperf.d.ts\` (\`ModelSpec\`, \`ParamSpec\`, \`Report\`, \`Table\`, \`IsoMap\`,
\`MapRequest\`, \`Analysis\`, ...).

An invalid parameter throws an \`Error\` whose message names it and its
valid range; its \`key\` property names the parameter and \`fields\` lists
every problem (\`IsoperfError\` in the declarations):

\`\`\`ts
import { evaluate, type IsoperfError } from 'isoperf';

try {
  evaluate('pmm', { N: 0 });
} catch (e) {
  console.log((e as IsoperfError).key); // "N"
}
\`\`\`

\`check\` gives the same problems as data, without throwing.

The declarations name DOM types (\`HTMLCanvasElement\` for the chart
exports, \`Response\` for \`init\`): a TypeScript project for Node keeps
\`"dom"\` in its \`lib\` (the default) or sets \`skipLibCheck\`.

License: MIT.
`;

writeFileSync(new URL('package.json', pkg), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(new URL('README.md', pkg), readme);
console.log(`[package] pkg/package.json (isoperf ${manifest.version}) and pkg/README.md`);
