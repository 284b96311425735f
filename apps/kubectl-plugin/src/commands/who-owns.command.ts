import { renderStructured, type OutputFormat } from '../output-format.js';
import type { PluginSession } from '../plugin-session.js';
import { notFound } from '../plugin.error.js';
import type { FieldAnswer, OwnershipAnswer } from '../service-api.types.js';
import { findNode, formatWhoOwns } from '../who-owns.format.js';

/** `who-owns TYPE/NAME PATH [--at T]`: the field's value and owners, and the owned fields under it. */
export async function whoOwns(session: PluginSession, objectArg: string, path: string, opts: { at?: string; output: OutputFormat }): Promise<void> {
  const object = await session.resolveObject(objectArg);
  const { client } = await session.connection();
  const field = await client.get<FieldAnswer>(`/v1/objects/${object.item.id}/fields`, { path, at: opts.at });
  if (opts.output !== 'human') return session.env.write(renderStructured(opts.output, field));
  const ownership = await client.get<OwnershipAnswer>(`/v1/objects/${object.item.id}/ownership`, { at: opts.at });
  const subtree = findNode(ownership.tree, field.path);
  if (!field.present && field.owners.length === 0 && !subtree) throw notFound(`${object.label} has no field ${field.path}${opts.at ? ` at ${opts.at}` : ''}`);
  session.env.write(formatWhoOwns(object.label, field, subtree, session.paint));
}
