import { once } from 'node:events';
import WebSocket from 'ws';

/** A browser's live connection: collects what the server pushes. */
export async function openLiveSocket(httpUrl: string, token: string) {
  const socket = new WebSocket(`${httpUrl.replace(/^http/, 'ws')}/ws/live`, { headers: { cookie: `Access-Token=${token}` } });
  const messages: any[] = [];
  socket.on('message', (raw: Buffer) => messages.push(JSON.parse(raw.toString())));
  await once(socket, 'open');
  const next = async (what: string, pred: (m: any) => boolean, timeoutMs = 15_000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const i = messages.findIndex(pred);
      if (i >= 0) return messages.splice(i, 1)[0];
      if (Date.now() > end) throw new Error(`no live message: ${what}; got ${JSON.stringify(messages.slice(-20))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { socket, messages, next, send: (m: unknown) => socket.send(JSON.stringify(m)), close: () => socket.close() };
}
