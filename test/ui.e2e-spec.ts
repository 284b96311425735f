import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { FieldHistoryResponseDto, ListObjectsResponseDto } from '../apps/api/src/objects.dto.js';
import { itWithKubectl } from '../libs/testing/src/kubectl-sandbox.js';
import { GHOST_LABEL, POD_IMAGE, podManifest, writeGhostLabel, writeImageTakenAndForcedBack } from '../libs/testing/src/incident-scenarios.js';
import { useBuiltService } from '../libs/testing/src/use-built-service.js';
import { createTestContext, startBuiltService, waitFor } from '../libs/testing/src/index.js';
import { SANDBOX_ADMIN_TOKEN } from '../libs/sandbox/src/index.js';

// The web UI in a real browser (chromium through playwright-core) against the BUILT service
// (`npm run build` first: it builds dist/ui too) watching the sandbox, which the real kubectl drives.
// Every assertion is on what the page shows. UI_SCREENSHOTS=docs/ui saves the main views there.

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
const SCREENSHOTS = process.env['UI_SCREENSHOTS'];
const LONG = 240_000;
const GHOST_NS = 'ui-ghost';
const IMAGE_NS = 'ui-image';

// Before anything starts: what the tests need besides the service.
if (!existsSync(CHROMIUM)) {
  throw new Error(`chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM to its path; the UI tests need a real browser`);
}
if (!existsSync(resolve(ROOT, 'dist/ui/index.html'))) throw new Error('dist/ui/index.html is missing: run `npm run build` first');

describe('web UI (chromium → /ui → /v1, kubectl → sandbox → service)', () => {
  const e2e = useBuiltService('ui');
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];

  const api = <T>(path: string) => e2e.service.api<T>(path);
  const objectOf = (kind: string, ns: string, name: string) =>
    waitFor(`${kind} ${ns}/${name} in the API`, async () => (await api<ListObjectsResponseDto>(`/v1/objects?kind=${kind}&namespace=${ns}&name=${name}`)).items[0], 60_000, 250);
  const transitionsOf = (id: string, path: string, n: number) =>
    waitFor(`${n} transitions of ${path}`, async () => {
      const h = await api<FieldHistoryResponseDto>(`/v1/objects/${id}/fields/history?path=${encodeURIComponent(path)}`);
      return h.transitions.length >= n;
    }, 60_000, 250);
  const shoot = async (name: string) => {
    if (!SCREENSHOTS) return;
    mkdirSync(resolve(ROOT, SCREENSHOTS), { recursive: true });
    await page.screenshot({ path: resolve(ROOT, SCREENSHOTS, `${name}.png`), fullPage: false });
  };
  /** The row of one field in the tree (its own line, not its children's). */
  const fieldRow = (path: string) => page.locator(`li[data-path="${path.replace(/"/g, '\\"')}"] > div`).first();

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('request', (r) => requested.push(r.url()));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  }, 60_000);

  itWithKubectl(18, 'server-side apply', LONG)('ghost label: found, owned by kubectl-client-side-apply, explained with remedies; the slider shows both owners before flux dropped it; live updates', async () => {
    await writeGhostLabel(e2e.k, GHOST_NS);
    const { id } = await objectOf('ConfigMap', GHOST_NS, 'app-config');
    await transitionsOf(id, GHOST_LABEL, 3);

    // Find it from the landing page.
    await page.goto(`${e2e.service.url}/ui/`);
    await page.getByLabel('Namespace').fill(GHOST_NS);
    await page.getByLabel('Name', { exact: true }).fill('app-config');
    await page.getByRole('button', { name: 'Find' }).click();
    const found = page.getByRole('table', { name: 'Objects' }).getByRole('link', { name: `ConfigMap ${GHOST_NS}/app-config` });
    await found.waitFor();
    await page.getByRole('region', { name: 'Recent transitions' }).getByText('kept').first().waitFor();
    await shoot('landing');
    await found.click();

    // The tree: the label, its value, owned by kubectl-client-side-apply alone (flux released it).
    const label = fieldRow(GHOST_LABEL);
    await label.getByText('kubectl-client-side-apply').waitFor();
    await label.getByTestId('field-value').getByText('true', { exact: true }).waitFor();
    expect(await label.getByText('flux-controller').count()).toBe(0);
    // Read with the bundled schema (the sandbox publishes the same structure).
    await page.getByText('schema: bundled').waitFor();

    // Its explanation and remedies (opened with the keyboard).
    await page.getByRole('button', { name: `Open field ${GHOST_LABEL}` }).focus();
    await page.keyboard.press('Enter');
    const explanation = page.getByRole('region', { name: 'Explanation' });
    await explanation.getByText('co-owned-after-release').first().waitFor();
    await explanation.getByText('flux-controller stopped applying').waitFor();
    const remedies = page.getByRole('list', { name: 'Remedies' });
    await remedies.getByText(`kubectl apply --server-side -n ${GHOST_NS} -f <manifest without ${GHOST_LABEL}>`).first().waitFor();
    await remedies.getByText(`kubectl label configmap/app-config -n ${GHOST_NS} test-data-`).first().waitFor();
    for (const kind of ['csa-migration', 'delete-field', 'remove-managed-fields-entry']) {
      await remedies.getByRole('button', { name: `Copy ${kind} command` }).first().waitFor();
    }
    await remedies.getByRole('button', { name: 'Copy remove-managed-fields-entry JSON patch' }).waitFor();
    await shoot('field-explain');

    // The slider, with the keyboard: the first moment (kubectl alone), then flux's first apply (both own it).
    const slider = page.getByRole('slider', { name: /Time/ });
    await slider.focus();
    await page.keyboard.press('Home');
    await page.getByTestId('time-position').getByText(/acquired kubectl-client-side-apply/).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.getByTestId('time-position').getByText(/shared flux-controller/).waitFor();
    expect(page.url()).toMatch(/[?&]at=\d+/);
    await label.getByText('flux-controller').waitFor();
    await label.getByText('kubectl-client-side-apply').waitFor();
    await label.getByLabel('co-owned').waitFor();
    await shoot('object-slider');

    // Back to now; a new label arrives through the event stream, no reload. The label is written
    // only once the page has re-read the ownership of now, so that read cannot be what shows it.
    const nowRead = page.waitForResponse((r) => {
      const u = new URL(r.url());
      return u.pathname === `/v1/objects/${id}/ownership` && u.search === '?values=true';
    });
    await page.keyboard.press('End');
    await page.waitForURL((u) => !u.searchParams.has('at'));
    await nowRead;
    await e2e.k.ok(['label', 'configmap', 'app-config', '-n', GHOST_NS, 'live=yes']);
    await page.getByRole('button', { name: 'Open field .metadata.labels.live' }).waitFor({ timeout: 60_000 });
  });

  itWithKubectl(18, 'server-side apply', LONG)('image taken by kubectl-set and forced back: the timeline shows both; simulate shows the conflict exactly as kubectl prints it', async () => {
    await writeImageTakenAndForcedBack(e2e.k, IMAGE_NS);
    const pod = await objectOf('Pod', IMAGE_NS, 'nginx');
    await transitionsOf(pod.id, POD_IMAGE, 3);

    await page.goto(`${e2e.service.url}/ui/objects/${pod.id}?tab=timeline`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const taken = timeline.getByRole('button', { name: `taken by kubectl-set (Update) on ${POD_IMAGE}`, exact: false });
    const forced = timeline.getByRole('button', { name: `forced by kubectl (Apply) on ${POD_IMAGE}`, exact: false });
    await taken.waitFor();
    await forced.waitFor();
    await shoot('timeline');
    await forced.click();
    const history = page.getByRole('table', { name: 'Field history' });
    await history.getByText('nginx:1.17').waitFor();
    await history.getByText('forced').waitFor();

    // Simulate an apply by another manager that changes the image: kubectl's own message.
    const manifest = podManifest(IMAGE_NS, 'nginx:1.18');
    const real = await e2e.k.kubectl(['apply', '--server-side', '--field-manager=ci-tool', '-f', '-'], { input: manifest });
    expect(real.code).toBe(1);
    expect(real.stderr).toMatch(/^error: Apply failed with 1 conflict: conflict with "kubectl".*\.spec\.containers\[name="nginx-container"\]\.image\nPlease review the fields above/);

    await page.getByRole('link', { name: 'Simulate an apply' }).click();
    const editor = page.getByLabel('Manifest (YAML or JSON)');
    await waitFor('the manifest of the Pod', async () => (await editor.inputValue()).startsWith(`apiVersion: v1\nkind: Pod\nmetadata:\n  name: nginx\n  namespace: ${IMAGE_NS}`), 30_000, 100);
    expect(await page.getByLabel('Cluster').inputValue()).toBe(pod.cluster);
    await page.getByLabel('Field manager').fill('ci-tool');
    await editor.fill(manifest);
    await page.getByRole('button', { name: 'Simulate' }).click();
    const output = page.getByLabel('kubectl output');
    await output.waitFor();
    expect((await output.innerText()).trim()).toBe(real.stderr.trim());
    await shoot('simulate');
    expect(new URL(page.url()).searchParams.get('manager')).toBe('ci-tool');

    // Forced: no conflict; the resulting managedFields beside today's owners.
    await page.getByLabel('Force conflicts').check();
    await page.getByRole('button', { name: 'Simulate' }).click();
    await page.getByText('No conflicts: the apply would succeed.').waitFor();
    await page.getByRole('heading', { name: 'managedFields after the apply' }).waitFor();
    const today = page.getByRole('table', { name: 'managedFields today' });
    await today.waitFor();
    expect(await today.innerText()).toContain(POD_IMAGE);
  });

  // The tests below read the ConfigMap the ghost-label test writes: without kubectl they skip with it.
  itWithKubectl(18, 'server-side apply', 60_000)('findings and managers pages, filtered from the URL', async () => {
    await page.goto(`${e2e.service.url}/ui/findings?type=client-side-apply-leftover`);
    const findings = page.getByRole('table', { name: 'Findings' });
    await findings.getByRole('link', { name: `ConfigMap ${GHOST_NS}/app-config ${GHOST_LABEL}` }).waitFor();
    expect(await findings.getByText('recently-forced').count()).toBe(0);
    await page.goto(`${e2e.service.url}/ui/managers?manager=kubectl-client-side-apply&namespace=${GHOST_NS}`);
    await page.getByRole('table', { name: 'Managers' }).getByRole('link', { name: 'kubectl-client-side-apply' }).waitFor();
    const fields = page.getByRole('region', { name: 'Fields of kubectl-client-side-apply' });
    await fields.getByRole('link', { name: `ConfigMap ${GHOST_NS}/app-config` }).waitFor();
    await fields.getByRole('link', { name: GHOST_LABEL }).waitFor();
    // As of the event before the ConfigMap's first: the same view, the manager owning nothing there then.
    const { id } = await objectOf('ConfigMap', GHOST_NS, 'app-config');
    const transitions = await api<{ items: { seq: string }[] }>(`/v1/objects/${id}/transitions?limit=500`);
    const first = transitions.items.map((t) => BigInt(t.seq)).reduce((a, b) => (a < b ? a : b));
    await page.goto(`${e2e.service.url}/ui/managers?manager=kubectl-client-side-apply&namespace=${GHOST_NS}&at=${first - 1n}`);
    await page.getByText(`Showing the managers as of event #${first - 1n}`).waitFor();
    await page.getByRole('region', { name: 'Fields of kubectl-client-side-apply' }).getByText('No fields.').waitFor();
    // As of its first event, its fields then, each linked to the object as of then.
    await page.goto(`${e2e.service.url}/ui/managers?manager=kubectl-client-side-apply&namespace=${GHOST_NS}&at=${first}`);
    const then = page.getByRole('region', { name: 'Fields of kubectl-client-side-apply' });
    expect(await then.getByRole('link', { name: `ConfigMap ${GHOST_NS}/app-config` }).getAttribute('href')).toBe(`/ui/objects/${id}?at=${first}`);
  });

  itWithKubectl(18, 'server-side apply', 60_000)('says an unknown object is not found or not visible; fits a phone-sized window', async () => {
    await page.goto(`${e2e.service.url}/ui/objects/99999999`);
    await page.getByRole('alert').getByText('not found, or not visible').waitFor();
    const { id } = await objectOf('ConfigMap', GHOST_NS, 'app-config');
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${e2e.service.url}/ui/objects/${id}?path=${encodeURIComponent(GHOST_LABEL)}`);
      await page.getByRole('region', { name: 'Explanation' }).getByText('co-owned-after-release').first().waitFor();
      // Nothing wider than the window but the scrollable tables and lanes.
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
      await shoot('object-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    // Offline: every request of every page so far went to the service itself (no CDN, fonts or scripts from elsewhere).
    expect(requested.filter((u) => !u.startsWith(`${e2e.service.url}/`) && !u.startsWith('data:'))).toEqual([]);
    expect(requested.some((u) => u.includes('/ui/assets/'))).toBe(true);
  });

  itWithKubectl(18, 'server-side apply', 180_000)('with AUTH_MODE=kubernetes: the page loads without a token, asks for one on 401, and uses the pasted one', async () => {
    const authCtx = await createTestContext('ui-auth');
    const guarded = await startBuiltService(authCtx, e2e.k.kubeconfig, { AUTH_MODE: 'kubernetes', API_HOST: '127.0.0.1' });
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      expect((await fetch(`${guarded.url}/ui/objects/1?at=2`)).status).toBe(200); // the SPA fallback, open
      expect((await fetch(`${guarded.url}/v1/objects`)).status).toBe(401);
      await tab.goto(`${guarded.url}/ui/`);
      const prompt = tab.getByRole('dialog', { name: 'Bearer token' });
      await prompt.waitFor();
      await prompt.getByLabel('Token').fill(SANDBOX_ADMIN_TOKEN);
      await prompt.getByRole('button', { name: 'Use token' }).click();
      await tab.getByRole('table', { name: 'Objects' }).getByRole('link', { name: `ConfigMap ${GHOST_NS}/app-config` }).waitFor({ timeout: 60_000 })
        .catch(async (e: unknown) => { throw new Error(`${String(e)}\npage shows:\n${await tab.locator('body').innerText()}\nservice log:\n${guarded.stdout().slice(-3000)}`); });
    } finally {
      await tab.close();
      await guarded.stop();
      await authCtx.dispose();
    }
  });
});
