// `npm run dist`: everything a user takes away, built from pkg/ and www/
// into dist/ (after scripts/build.sh):
//
//   dist/site/          the static site: relative URLs only, content-hashed
//                       file names, a web app manifest and a service worker
//                       (installable, usable offline after the first visit),
//                       and isoperf-embed.js for <isoperf-model> elements on
//                       other pages.
//   dist/isoperf.html   one self-contained file for file:// (no server, no
//                       network): the module bytes, the page's code, the
//                       workers (started from Blob URLs) and the example
//                       data inlined.
//
// The page names its files in one module, www/assets.js; each build here
// replaces that module with one of its own (`assets` below) and bundles
// the rest with esbuild.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const WWW = join(ROOT, 'www');
const PKG = join(ROOT, 'pkg');
const DIST = join(ROOT, 'dist');
const SITE = join(DIST, 'site');

const digest = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex').slice(0, 10);
};

/** An esbuild plugin that serves `source` in place of www/assets.js. */
const assets = (source) => ({
  name: 'isoperf-assets',
  setup(build) {
    build.onLoad({ filter: /[\\/]www[\\/]assets\.js$/ }, () => ({ contents: source, loader: 'js', resolveDir: WWW }));
  },
});

const COMMON = {
  bundle: true,
  minify: true,
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
  // The wasm-bindgen glue's default path uses import.meta.url; the page always passes the module.
  logOverride: { 'empty-import-meta': 'silent' },
};

const WORKERS = ['map', 'sweep', 'report', 'data'];

async function examples() {
  const files = (await readdir(join(WWW, 'data'))).filter((f) => f.endsWith('.csv')).sort();
  return Object.fromEntries(await Promise.all(files.map(async (f) => [`www/data/${f}`, await readFile(join(WWW, 'data', f), 'utf8')])));
}

// ---------------------------------------------------------------- the site


/** index.html's Content-Security-Policy (the site keeps it as it is). */
const CSP = /<meta http-equiv="Content-Security-Policy" content="[^"]*">/;

/**
 * The single file's policy: as strict as the site's, but its one script and
 * one style sheet are inline, so they are allowed by hash; its workers start
 * from Blob URLs; it loads and connects to nothing.
 */
function singleFilePolicy(script, style) {
  const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  return [
    "default-src 'none'",
    `script-src ${hash(script)} 'wasm-unsafe-eval'`,
    `style-src ${hash(style)}`,
    'img-src data:',
    'worker-src blob:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

async function site(build, wasm) {
  await mkdir(SITE, { recursive: true });
  const wasmName = {};
  for (const [which, bytes] of Object.entries(wasm)) {
    wasmName[which] = `isoperf_${which === 'core' ? 'core_' : ''}bg.${digest(bytes)}.wasm`;
    await writeFile(join(SITE, wasmName[which]), bytes);
  }
  // Workers first: self-contained bundles (no shared chunks), hashed names.
  const workers = await esbuild.build({
    ...COMMON,
    entryPoints: Object.fromEntries(WORKERS.map((w) => [`${w}-worker`, join(WWW, `${w}-worker.js`)])),
    format: 'esm',
    outdir: SITE,
    entryNames: '[name]-[hash]',
    metafile: true,
  });
  const workerName = {};
  for (const [out, meta] of Object.entries(workers.metafile.outputs)) {
    const w = WORKERS.find((x) => meta.entryPoint?.endsWith(`${x}-worker.js`));
    if (w) workerName[w] = basename(out);
  }
  const source = `
export const BUILD = ${JSON.stringify(build)};
export const FIRST_PAINT_MODULE = true;
export const SERVICE_WORKER = 'sw.js';
const WASM = ${JSON.stringify(wasmName)};
export function wasmSource(which) {
  return fetch(new URL(WASM[which], import.meta.url));
}
export const fullGlue = () => import('../pkg/isoperf.js');
export async function exampleText(path) {
  const response = await fetch(new URL(path, import.meta.url));
  if (!response.ok) throw new Error(\`\${path}: HTTP \${response.status}\`);
  return response.text();
}
export const PUBLISHED = null;
export const embedScript = () => new URL('isoperf-embed.js', import.meta.url);
export const pageAddress = () => new URL('./', import.meta.url).href;
const WORKERS = ${JSON.stringify(workerName)};
export function startWorker(name) {
  return new Worker(new URL(WORKERS[name], import.meta.url), { type: 'module' });
}
`;
  const entryPoints = { app: join(WWW, 'app.js') };
  const embed = join(WWW, 'embed', 'isoperf-embed.js');
  if (existsSync(embed)) entryPoints['isoperf-embed'] = embed;
  const page = await esbuild.build({
    ...COMMON,
    entryPoints,
    format: 'esm',
    splitting: true,
    outdir: SITE,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    metafile: true,
    plugins: [assets(source)],
  });
  const outputs = page.metafile.outputs;
  const entry = (name) => Object.keys(outputs).find((o) => outputs[o].entryPoint && basename(outputs[o].entryPoint) === name);
  const app = entry('app.js');
  // The stable name other pages load, pointing at this build's hashed bundle.
  if (entry('isoperf-embed.js')) {
    await writeFile(join(SITE, 'isoperf-embed.js'), `import './${basename(entry('isoperf-embed.js'))}';\n`);
  }
  const css = await readFile(join(WWW, 'style.css'));
  const cssName = `style-${digest(css)}.css`;
  await writeFile(join(SITE, cssName), css);
  for (const [path, text] of Object.entries(await examples())) {
    await mkdir(join(SITE, dirname(path)), { recursive: true });
    await writeFile(join(SITE, path), text);
  }
  await writeFile(join(SITE, 'icon.svg'), ICON);
  await writeFile(join(SITE, 'manifest.webmanifest'), JSON.stringify(MANIFEST, null, 2));
  // The first paint needs the app, its static chunks and the first-paint module: ask for them at once.
  const preload = [
    ...outputs[app].imports.filter((i) => i.kind === 'import-statement').map((i) => `<link rel="modulepreload" href="${basename(i.path)}">`),
    `<link rel="preload" href="${wasmName.core}" as="fetch" type="application/wasm" crossorigin>`,
  ];
  const html = (await readFile(join(ROOT, 'index.html'), 'utf8'))
    // The favicon inline: browsers fetch favicons past the service worker, so a file would fail offline.
    .replace('<link rel="icon" href="data:,">', () => `<link rel="icon" href="data:image/svg+xml,${encodeURIComponent(ICON.trim())}">\n  <link rel="manifest" href="manifest.webmanifest">\n  <meta name="theme-color" content="#1d4e89">`)
    .replace('<link rel="stylesheet" href="www/style.css">', `<link rel="stylesheet" href="${cssName}">\n  ${preload.join('\n  ')}`)
    .replace('<script type="module" src="www/app.js"></script>', `<script type="module" src="${basename(app)}"></script>`);
  if (!html.includes(basename(app)) || !html.includes(cssName)) throw new Error('index.html no longer has the stylesheet and script tags dist.mjs rewrites');
  await writeFile(join(SITE, 'index.html'), html);
  // Every file of this build, for the service worker to keep.
  const files = [];
  const walk = async (dir) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else files.push(relative(SITE, p).split('\\').join('/'));
    }
  };
  await walk(SITE);
  await writeFile(join(SITE, 'sw.js'), serviceWorker(build, ['./', ...files.filter((f) => f !== 'isoperf-embed.js').sort()]));
  return files.length + 1;
}

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#1d4e89"/><path d="M10 52 C24 50 40 34 54 12" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"/><path d="M10 52 C26 48 36 40 54 30" fill="none" stroke="#9cc3ff" stroke-width="4" stroke-linecap="round"/><path d="M10 52 C28 50 40 48 54 46" fill="none" stroke="#5b8fd6" stroke-width="4" stroke-linecap="round"/></svg>
`;

const MANIFEST = {
  name: 'isoperf — analytical performance models of parallel programs',
  short_name: 'isoperf',
  description: 'A calculator for analytical performance models of parallel and distributed programs, in the browser, offline.',
  start_url: './',
  scope: './',
  display: 'standalone',
  background_color: '#ffffff',
  theme_color: '#1d4e89',
  icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
};

/**
 * The service worker: keeps every file of its build in a cache named after
 * the build; pages come from the network when there is one (so a new deploy
 * is picked up at once, its hashed files beside the old ones) and from the
 * cache when not; every other file from the cache first. A new build's
 * worker takes over at once and drops the older caches.
 */
function serviceWorker(build, files) {
  return `// isoperf's service worker, build ${build} (generated by scripts/dist.mjs).
const CACHE = 'isoperf-${build}';
const FILES = ${JSON.stringify(files)};
self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('isoperf-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});
self.addEventListener('fetch', (e) => {
  const request = e.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    e.respondWith(fetch(request).catch(() => caches.match(new URL('./', self.location).href, { cacheName: CACHE })));
    return;
  }
  e.respondWith(caches.match(request, { ignoreSearch: true }).then((hit) => hit ?? fetch(request)));
});
`;
}

// --------------------------------------------------------- the single file

async function singleFile(build, wasm) {
  const workerCode = {};
  for (const w of WORKERS) {
    const out = await esbuild.build({ ...COMMON, entryPoints: [join(WWW, `${w}-worker.js`)], format: 'iife', write: false });
    workerCode[w] = out.outputFiles[0].text;
  }
  const source = `
export const BUILD = ${JSON.stringify(build)};
export const FIRST_PAINT_MODULE = false;
export const SERVICE_WORKER = null;
const FULL = ${JSON.stringify(wasm.full.toString('base64'))};
function decode(text) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
  const s = atob(text);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes;
}
export function wasmSource() {
  return decode(FULL);
}
export const fullGlue = () => import('../pkg/isoperf.js');
const EXAMPLES = ${JSON.stringify(await examples())};
export async function exampleText(path) {
  if (!Object.hasOwn(EXAMPLES, path)) throw new Error(\`\${path} is not in this file\`);
  return EXAMPLES[path];
}
// A file has no address other pages could load from: the snippets name where dist/site would be.
export const PUBLISHED = 'https://your-site.example/isoperf/';
export const embedScript = () => new URL('isoperf-embed.js', PUBLISHED);
export const pageAddress = () => null;
const WORKERS = ${JSON.stringify(workerCode)};
const urls = {};
export function startWorker(name) {
  urls[name] ??= URL.createObjectURL(new Blob([WORKERS[name]], { type: 'text/javascript' }));
  return new Worker(urls[name]);
}
`;
  const out = await esbuild.build({ ...COMMON, entryPoints: [join(WWW, 'app.js')], format: 'esm', write: false, plugins: [assets(source)] });
  // Inside <script>, "</script" would end the element: every such text in the bundle is within a string.
  const js = out.outputFiles[0].text.replaceAll('</script', '<\\/script');
  const css = (await readFile(join(WWW, 'style.css'), 'utf8')).replaceAll('</style', '<\\/style');
  const [style, script] = [`\n${css}`, `\n${js}`];
  let html = await readFile(join(ROOT, 'index.html'), 'utf8');
  if (!CSP.test(html)) throw new Error('index.html no longer has its Content-Security-Policy');
  html = html.replace(CSP, () => `<meta http-equiv="Content-Security-Policy" content="${singleFilePolicy(script, style)}">`);
  for (const [tag, inline] of [
    ['<link rel="stylesheet" href="www/style.css">', `<style>${style}</style>`],
    ['<script type="module" src="www/app.js"></script>', `<script type="module">${script}</script>`],
  ]) {
    if (!html.includes(tag)) throw new Error(`index.html no longer has ${tag}`);
    html = html.replace(tag, () => inline);
  }
  await writeFile(join(DIST, 'isoperf.html'), html);
  return Buffer.byteLength(html);
}

// -------------------------------------------------------------------- main

const wasm = {
  core: await readFile(join(PKG, 'isoperf_core_bg.wasm')),
  full: await readFile(join(PKG, 'isoperf_bg.wasm')),
};
const inputs = [await readFile(fileURLToPath(import.meta.url)), await readFile(join(ROOT, 'index.html')), wasm.core, wasm.full, await readFile(join(PKG, 'isoperf.js')), await readFile(join(PKG, 'isoperf_core.js'))];
for (const dir of [WWW, join(WWW, 'embed')]) {
  if (!existsSync(dir)) continue;
  for (const f of (await readdir(dir)).sort()) if (/\.(js|css)$/.test(f)) inputs.push(await readFile(join(dir, f)));
}
const build = digest(...inputs);
await rm(DIST, { recursive: true, force: true });
const count = await site(build, wasm);
const bytes = await singleFile(build, wasm);
console.log(`[dist] build ${build}: dist/site/ (${count} files), dist/isoperf.html (${(bytes / 1024).toFixed(0)} KB)`);
