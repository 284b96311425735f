/** Writes to a sandbox (or any apiserver without auth) over real HTTP, as the tests' scripted clients. */
export interface Written {
  readonly uid: string;
  readonly resourceVersion: string;
  readonly object: Record<string, unknown>;
}

type Obj = Record<string, unknown>;

export class SandboxWriter {
  constructor(private readonly url: string) {}

  /** `path` is the collection (`/api/v1/namespaces/default/configmaps`). */
  create(path: string, body: Obj, fieldManager = 'test-create'): Promise<Written> {
    return this.send('POST', `${path}?fieldManager=${fieldManager}`, body, 'application/json');
  }

  apply(path: string, body: Obj, fieldManager: string, force = false): Promise<Written> {
    const name = (body['metadata'] as Obj)['name'] as string;
    return this.send('PATCH', `${path}/${name}?fieldManager=${fieldManager}${force ? '&force=true' : ''}`, body, 'application/apply-patch+yaml');
  }

  update(path: string, body: Obj, fieldManager = 'test-update'): Promise<Written> {
    const name = (body['metadata'] as Obj)['name'] as string;
    return this.send('PUT', `${path}/${name}?fieldManager=${fieldManager}`, body, 'application/json');
  }

  patch(path: string, name: string, mergePatch: Obj, fieldManager = 'test-patch'): Promise<Written> {
    return this.send('PATCH', `${path}/${name}?fieldManager=${fieldManager}`, mergePatch, 'application/merge-patch+json');
  }

  scale(path: string, name: string, replicas: number, fieldManager = 'test-scale'): Promise<Written> {
    return this.send('PATCH', `${path}/${name}/scale?fieldManager=${fieldManager}`, { spec: { replicas } }, 'application/merge-patch+json');
  }

  delete(path: string, name: string): Promise<Written> {
    return this.send('DELETE', `${path}/${name}`, undefined, 'application/json');
  }

  async get(path: string): Promise<Obj> {
    const res = await fetch(this.url + path);
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Obj;
  }

  private async send(method: string, path: string, body: Obj | undefined, contentType: string): Promise<Written> {
    const res = await fetch(this.url + path, {
      method,
      headers: { 'Content-Type': contentType, Accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    const object = JSON.parse(text) as Obj;
    let md = object['metadata'] as Obj;
    // A /scale write answers with the Scale view; the object's own uid is what the store knows.
    if (object['kind'] === 'Scale') {
      const target = await this.get(path.replace(/\/scale\?.*$/, ''));
      md = { ...(target['metadata'] as Obj), resourceVersion: md['resourceVersion'] };
    }
    return { uid: md['uid'] as string, resourceVersion: md['resourceVersion'] as string, object };
  }
}
