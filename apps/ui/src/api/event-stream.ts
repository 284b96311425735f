import { authHeaders, failure, query } from './api-client';
import { ApiError } from './api-error';
import type { StoredEvent } from './api-types';

/** A running follow of `/v1/events/stream`. */
export interface EventFollower {
  stop(): void;
  /**
   * Only the events of `cluster` from now on (`cluster=`), so fewer arrive. The stream reconnects
   * with it from the id of the next message it gets: reconnecting before it knows a position would
   * start "from now" and could skip an event. Until then the stream it has goes on.
   */
  onlyCluster(cluster: string): void;
}

/**
 * Follows `/v1/events/stream` with fetch streaming (EventSource cannot send an Authorization
 * header), calling `onEvent` for each stored event. Reconnects after a drop from the last cursor
 * seen (not after a 401 or 403).
 */
export function followEvents(onEvent: (e: StoredEvent) => void, onError?: (e: unknown) => void): EventFollower {
  const stop = new AbortController();
  let since: string | undefined;
  let cluster: string | undefined;
  const run = async (): Promise<void> => {
    while (!stop.signal.aborted) {
      const following = cluster;
      let narrowed = false;
      try {
        const r = await fetch(`/v1/events/stream${query({ since, cluster: following })}`, {
          headers: { accept: 'text/event-stream', ...authHeaders() },
          signal: stop.signal,
        });
        if (!r.ok || !r.body) throw await failure(r);
        for await (const message of serverSentMessages(r.body)) {
          if (message.id) since = message.id;
          if (message.event === 'event') onEvent(JSON.parse(message.data) as StoredEvent);
          if (cluster !== following && since !== undefined) {
            narrowed = true;
            break;
          }
        }
      } catch (e) {
        if (stop.signal.aborted) return;
        onError?.(e);
        // Not allowed (no token, or no `list` on objects.ssa-audit.io): retrying will not help.
        if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return;
      }
      if (!narrowed) await new Promise((r) => setTimeout(r, 3000));
    }
  };
  void run();
  return {
    stop: () => stop.abort(),
    onlyCluster: (c) => {
      cluster = c;
    },
  };
}

export interface ServerSentMessage {
  event: string;
  id: string | undefined;
  data: string;
}

/** The messages of a text/event-stream body (the WHATWG format: blank-line separated fields). */
export async function* serverSentMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      // A CR at the end may be the first half of a CRLF: it waits for the next chunk.
      buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n|\r(?!$)/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const message = parseMessage(block);
        if (message) yield message;
      }
    }
  } finally {
    // Also when the caller stops early (`break`): cancelling the body ends the request.
    reader.cancel().catch(() => undefined);
  }
}

/** One message block; `null` for a comment-only block (keep-alives). */
export function parseMessage(block: string): ServerSentMessage | null {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, id, data: data.join('\n') };
}
