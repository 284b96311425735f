import { formatHistory } from '../history.format.js';
import { renderStructured, type OutputFormat } from '../output-format.js';
import type { PluginSession } from '../plugin-session.js';
import type { HistoryAnswer } from '../service-api.types.js';

/** `history TYPE/NAME PATH [--at T]`: every ownership transition of the field and the values it held. */
export async function history(session: PluginSession, objectArg: string, path: string, opts: { at?: string; output: OutputFormat }): Promise<void> {
  const object = await session.resolveObject(objectArg);
  const { client } = await session.connection();
  const answer = await client.get<HistoryAnswer>(`/v1/objects/${object.item.id}/fields/history`, { path, at: opts.at });
  session.env.write(opts.output === 'human' ? formatHistory(object.label, answer, session.paint) : renderStructured(opts.output, answer));
}
