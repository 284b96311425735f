import type { ObjectListItem } from '../../../libs/audit/src/index.js';
import { KubectlContext } from '../../../libs/kube/src/kubectl-context.js';
import { discoverResourceTypes } from './discover-resources.js';
import { pickObject } from './object-lookup.js';
import { colourWanted, paint, type Paint } from './paint.js';
import { failed, notFound } from './plugin.error.js';
import { objectLabel, parseObjectRef, resolveResource, type DiscoveredResource } from './resource-ref.js';
import { connectToService, type ConnectionOptions, type ServiceConnection } from './service-connection.js';
import type { ObjectPage } from './service-api.types.js';

/** The options every command takes (kubectl's own, and where the service is). */
export interface SessionOptions extends ConnectionOptions {
  readonly kubeconfig?: string | undefined;
  readonly context?: string | undefined;
  readonly namespace?: string | undefined;
  readonly cluster?: string | undefined;
}

/** What the plugin reads from its environment, passed in once (main.ts reads process.env). */
export interface PluginEnvironment {
  /** The environment variables (NO_COLOR, SSA_AUDIT_SERVER, SSA_AUDIT_TOKEN). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutIsTTY: boolean;
  readonly write: (s: string) => void;
  readonly writeError: (s: string) => void;
}

/** A tracked object, as the command line named it. */
export interface ResolvedObject {
  readonly resource: DiscoveredResource;
  readonly item: ObjectListItem;
  /** `configmap/app-config -n shop`, for headings. */
  readonly label: string;
}

/** One command's connections: the user's kube context, discovery, and the service (opened on first use). */
export class PluginSession {
  private kube: KubectlContext | undefined;
  private service: Promise<ServiceConnection> | undefined;
  private resources: Promise<DiscoveredResource[]> | undefined;
  readonly paint: Paint;

  constructor(
    readonly options: SessionOptions,
    readonly env: PluginEnvironment,
  ) {
    this.paint = paint(colourWanted(env.stdoutIsTTY, env.env['NO_COLOR']));
  }

  get context(): KubectlContext {
    if (!this.kube) {
      try {
        this.kube = KubectlContext.load({ ...(this.options.kubeconfig ? { kubeconfig: this.options.kubeconfig } : {}), ...(this.options.context ? { context: this.options.context } : {}) });
      } catch (e) {
        throw failed((e as Error).message);
      }
    }
    return this.kube;
  }

  /** -n, else the context's namespace, else `default` (as kubectl). */
  get namespace(): string {
    return this.options.namespace ?? this.context.namespace ?? 'default';
  }

  connection(): Promise<ServiceConnection> {
    this.service ??= connectToService(this.context, this.options);
    return this.service;
  }

  async resourceTypes(): Promise<DiscoveredResource[]> {
    this.resources ??= discoverResourceTypes(this.context.client).catch((e: Error) => {
      throw failed(`discovery of context ${this.context.contextName} failed: ${e.message}`);
    });
    return this.resources;
  }

  async resolveType(type: string): Promise<DiscoveredResource> {
    const r = resolveResource(type, await this.resourceTypes());
    if (!r) throw notFound(`the server doesn't have a resource type "${type}"`);
    return r;
  }

  /** `TYPE/NAME` → the service's object (its id), through the cluster's discovery and `GET /v1/objects`. */
  async resolveObject(arg: string): Promise<ResolvedObject> {
    const ref = parseObjectRef(arg);
    const resource = await this.resolveType(ref.type);
    const namespace = resource.namespaced ? this.namespace : undefined;
    const label = objectLabel(resource, ref.name, namespace);
    const item = pickObject(await this.findObjects(resource, ref.name, namespace), label, this.options.cluster);
    return { resource, item, label };
  }

  /** The service's objects of this kind and name (any cluster, unless --cluster). */
  async findObjects(resource: Pick<DiscoveredResource, 'group' | 'version' | 'kind'>, name: string, namespace: string | undefined): Promise<ObjectListItem[]> {
    const { client } = await this.connection();
    const query = { group: resource.group, version: resource.version, kind: resource.kind, namespace, name, cluster: this.options.cluster, limit: '500' };
    const exact = await client.get<ObjectPage>('/v1/objects', query);
    // The service may track the object in another version of its group than the preferred one.
    const items = exact.items.length > 0 ? exact.items : (await client.get<ObjectPage>('/v1/objects', { ...query, version: undefined })).items;
    return items.filter((i) => (namespace === undefined ? !i.namespace : i.namespace === namespace));
  }

  async close(): Promise<void> {
    const s = await this.service?.catch(() => undefined);
    await s?.close();
  }
}
