// Runs before `npm start` (and the other start scripts): installs dependencies on a fresh clone,
// then builds TypeScript and the web UI to dist/. Plain Node, no dependencies, so it works before `npm ci`.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`ssa-audit needs Node >= 20.19 (this is ${process.versions.node}).`);
  process.exit(1);
}
const run = (cmd) => execSync(cmd, { stdio: 'inherit' });
if (!existsSync('node_modules/.package-lock.json')) {
  console.error('[prepare] installing dependencies (npm ci) …');
  try {
    run('npm ci --no-audit --no-fund');
  } catch {
    // npm 11 may reject its own lock for missing other-platform optional packages (npm/cli#4828).
    console.error('[prepare] npm ci failed; installing from the lock with npm install …');
    run('npm install --no-audit --no-fund');
  }
}
console.error('[prepare] building (tsc, then the web UI with vite) …');
run('npm run --silent build');
