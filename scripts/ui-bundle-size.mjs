// The web UI's first-page weight: the JS and CSS that dist/ui/index.html loads (scripts, module
// preloads, stylesheets), each gzipped (level 9), summed. Lazy-loaded views are not counted.
// Usage: npm run build && node scripts/ui-bundle-size.mjs
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dir = new URL('../dist/ui/', import.meta.url);
const html = readFileSync(new URL('index.html', dir), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="\/ui\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let total = 0;
for (const asset of assets) {
  const bytes = readFileSync(new URL(asset, dir));
  const gz = gzipSync(bytes, { level: 9 }).length;
  total += gz;
  console.log(`${asset}\t${(bytes.length / 1024).toFixed(1)} KiB\t${(gz / 1024).toFixed(1)} KiB gzipped`);
}
console.log(`first page (JS + CSS): ${(total / 1024).toFixed(1)} KiB gzipped`);
if (total > 300 * 1024) {
  console.error('over the 300 KB budget');
  process.exitCode = 1;
}
