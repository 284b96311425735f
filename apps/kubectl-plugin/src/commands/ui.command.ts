import open from 'open';
import type { PluginSession } from '../plugin-session.js';
import { startUiProxy } from '../ui-proxy.js';

/**
 * `ui [--no-browser]`: a local proxy (127.0.0.1, random port) that adds the user's credentials to every
 * request to the service, and the browser opened at its /ui. Runs until interrupted.
 */
export async function ui(session: PluginSession, opts: { browser: boolean }, stopped: Promise<void>): Promise<void> {
  const connection = await session.connection();
  const proxy = await startUiProxy(connection.client.baseUrl, connection.token);
  const url = `${proxy.url}/ui/`;
  session.env.write(`${url}\n`);
  if (opts.browser) {
    await open(url).catch((e: Error) => session.env.writeError(`could not open a browser (${e.message}): open ${url} yourself\n`));
  }
  session.env.writeError('serving until interrupted (Ctrl-C)\n');
  await stopped;
  await proxy.close();
}
