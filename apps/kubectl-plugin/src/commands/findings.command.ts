import { formatFindings } from '../findings.format.js';
import { renderStructured, type OutputFormat } from '../output-format.js';
import type { PluginSession } from '../plugin-session.js';
import type { Finding, FindingPage } from '../service-api.types.js';

/** `findings [-n NS | -A] [--type T] [--cluster C]`: the service's findings (of the cluster when given), every page, filtered by namespace. */
export async function findings(session: PluginSession, opts: { type?: string; allNamespaces?: boolean; output: OutputFormat }): Promise<void> {
  const { client } = await session.connection();
  const items: Finding[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.get<FindingPage>('/v1/findings', { cluster: session.options.cluster || undefined, type: opts.type, limit: '500', cursor });
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const namespace = opts.allNamespaces ? undefined : session.namespace;
  const kept = items.filter((f) => namespace === undefined || f.namespace === namespace);
  session.env.write(opts.output === 'human' ? formatFindings(kept, session.paint) : renderStructured(opts.output, { items: kept }));
}
