// A static file server for the page: loopback only, correct MIME types
// (application/wasm for streaming compilation), no caching surprises.
import { createServer } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.csv': 'text/csv; charset=utf-8',
};

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Types worth compressing (text and wasm; images and archives are compressed already). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.webmanifest', '.svg', '.csv']);

/**
 * The body in the best encoding the client accepts (brotli, then gzip),
 * compressed once per file version and kept: a visit transfers the
 * compressed size, as a static host with compression would send it.
 */
const compressed = new Map();
function encode(file, body, mtime, accept) {
  if (!COMPRESSIBLE.has(extname(file)) || body.length < 1024) return { body };
  for (const [name, pattern, fn] of [
    ['br', /\bbr\b/, (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })],
    ['gzip', /\bgzip\b/, (b) => gzipSync(b, { level: 9 })],
  ]) {
    if (!pattern.test(accept ?? '')) continue;
    const key = `${name}:${file}`;
    let hit = compressed.get(key);
    if (!hit || hit.mtime !== mtime) {
      hit = { mtime, body: fn(body) };
      compressed.set(key, hit);
    }
    return { body: hit.body, encoding: name };
  }
  return { body };
}

/** Starts serving `root`; resolves to {server, url}. Port 0 picks a free one. */
export function serve(root = ROOT, port = 0, host = '127.0.0.1') {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw Object.assign(new Error('outside root'), { code: 'ENOENT' });
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      const { body, encoding } = encode(file, await readFile(file), info.mtimeMs, req.headers['accept-encoding']);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
        // A page on another origin may embed the calculator (<isoperf-model>), as static hosts allow.
        'access-control-allow-origin': '*',
        vary: 'accept-encoding',
        ...(encoding ? { 'content-encoding': encoding } : {}),
      });
      res.end(body);
    } catch (e) {
      res.writeHead(e.code === 'ENOENT' || e.code === 'EISDIR' ? 404 : 500, { 'content-type': 'text/plain' });
      res.end('not found\n');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok({ server, url: `http://${host}:${server.address().port}/` }));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await serve(ROOT, Number(process.env.PORT ?? 8080));
  console.log(`isoperf is served at ${url}  (Ctrl-C stops it)`);
}
