import { formatFindings } from '../findings.format.js';
import { renderStructured, type OutputFormat } from '../output-format.js';
import type { PluginSession } from '../plugin-session.js';
import type { Finding, Page } from '../service-api.types.js';

/** `findings [-n NS | -A] [--type T]`: the service's cluster-wide findings, every page, filtered by namespace. */
export async function findings(session: PluginSession, opts: { type?: string; allNamespaces?: boolean; output: OutputFormat }): Promise<void> {
  const { client } = await session.connection();
  const items: Finding[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.get<Page<Finding>>('/v1/findings', { type: opts.type, limit: '500', cursor });
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const namespace = opts.allNamespaces ? undefined : session.namespace;
  const cluster = session.options.cluster;
  const kept = items.filter((f) => (namespace === undefined || f.namespace === namespace) && (!cluster || f.cluster === cluster));
  session.env.write(opts.output === 'human' ? formatFindings(kept, session.paint) : renderStructured(opts.output, { items: kept }));
}
