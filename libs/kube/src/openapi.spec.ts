import type { KubeClient } from './kube-client.js';
import { downloadOpenApi } from './openapi.js';

/** A client serving an index of three group-versions; it fails a request whose signal is aborted, as KubeClient does. */
function fakeClient(onDocument: (path: string) => void): { client: KubeClient; asked: string[]; signals: (AbortSignal | undefined)[] } {
  const asked: string[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  const index = { paths: { 'api/v1': {}, 'apis/apps/v1': {}, 'apis/batch/v1': {} } };
  const client = {
    json: (path: string, _query: unknown, opts: { signal?: AbortSignal } = {}) => {
      if (opts.signal?.aborted) return Promise.reject(new Error('aborted'));
      asked.push(path);
      signals.push(opts.signal);
      if (path === '/openapi/v3') return Promise.resolve(index);
      onDocument(path);
      return Promise.resolve({ openapi: '3.0.0', path });
    },
  } as unknown as KubeClient;
  return { client, asked, signals };
}

describe('downloadOpenApi', () => {
  it('downloads every group-version listed by /openapi/v3, passing the signal to each request', async () => {
    const signal = new AbortController().signal;
    const { client, asked, signals } = fakeClient(() => undefined);
    const docs = await downloadOpenApi(client, { signal });
    expect(docs.version).toBe('v3');
    expect(Object.keys(docs.version === 'v3' ? docs.documents : {})).toEqual(['api/v1', 'apis/apps/v1', 'apis/batch/v1']);
    expect(asked).toEqual(['/openapi/v3', '/openapi/v3/api/v1', '/openapi/v3/apis/apps/v1', '/openapi/v3/apis/batch/v1']);
    expect(signals.every((s) => s === signal)).toBe(true);
  });

  it('stops asking for documents once the signal aborts', async () => {
    const stop = new AbortController();
    const { client, asked } = fakeClient(() => stop.abort());
    await expect(downloadOpenApi(client, { signal: stop.signal })).rejects.toThrow('aborted');
    expect(asked).toEqual(['/openapi/v3', '/openapi/v3/api/v1']);
  });

  it('limits v3 to the group-versions `only` accepts', async () => {
    const { client, asked } = fakeClient(() => undefined);
    await downloadOpenApi(client, { only: (p) => p === 'apis/apps/v1' });
    expect(asked).toEqual(['/openapi/v3', '/openapi/v3/apis/apps/v1']);
  });
});
