// Times the DLT iso-map natively (criterion) and in headless Chromium (wasm,
// www/bench.html), and prints the wasm/native ratios the iso-map issue
// targets, beside benches/isomap_numpy.py's figure if Python has NumPy.
//
//   node scripts/bench-compare.mjs
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const criterion = execFileSync('cargo', ['bench', '--bench', 'isomap', '--', '--warm-up-time', '1', '--measurement-time', '5', 'dlt'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
});
const ms = (name) => {
  const at = criterion.indexOf(name);
  const m = criterion.slice(at).match(/time:\s+\[[^\]]*?([\d.]+) (ns|µs|us|ms) ([\d.]+) (ns|µs|us|ms)/);
  if (at < 0 || !m) return NaN;
  const unit = { ns: 1e-6, µs: 1e-3, us: 1e-3, ms: 1 }[m[4]];
  return Number(m[3]) * unit; // the median estimate
};
const native = { compute: ms('grid only'), isolines: ms('isolines only'), map: ms('dlt efficiency 256x256') };

const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
const page = await browser.newPage();
const query = Object.entries(native).map(([k, v]) => `${k}:${v.toFixed(3)}`).join(',');
await page.goto(`${url}www/bench.html?native=${query}`);
await page.waitForFunction(() => window.benchResults, null, { timeout: 120000 });
const ratios = await page.evaluate(() => window.benchRatios);
await browser.close();
server.close();

let numpy = '';
try {
  numpy = execFileSync('python3', ['benches/isomap_numpy.py'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
} catch {
  numpy = 'numpy + contourpy: not installed (pip install numpy contourpy)';
}
console.log('DLT efficiency map, 256 x 256, 3 levels (wasm: isoMapRows + isoLines, as the worker runs it)');
for (const [k, v] of Object.entries(native)) console.log(`  native ${k.padEnd(9)} ${v.toFixed(3)} ms   wasm/native ${ratios[k]?.toFixed(2) ?? '—'}`);
console.log(`  ${numpy}`);
