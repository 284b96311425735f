import { renderStructured, type OutputFormat } from '../output-format.js';
import type { PluginSession } from '../plugin-session.js';
import type { Explanation } from '../service-api.types.js';
import { formatWhy } from '../why.format.js';

/** `why TYPE/NAME PATH [--at T]`: the service's explanation of the field, with its remedies. */
export async function why(session: PluginSession, objectArg: string, path: string, opts: { at?: string; output: OutputFormat }): Promise<void> {
  const object = await session.resolveObject(objectArg);
  const { client } = await session.connection();
  const answer = await client.get<Explanation>(`/v1/objects/${object.item.id}/explain`, { path, at: opts.at });
  session.env.write(opts.output === 'human' ? formatWhy(object.label, answer, session.paint) : renderStructured(opts.output, answer));
}
