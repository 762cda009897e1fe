import { describe, expect, it } from 'vitest';
import { FrameDecoder } from './frame.ts';
import { SerialError, SerialLink, type ByteTransport } from './client.ts';
import { decodeRequest, encodeError, encodeResponse, SERIAL_COMMANDS, type DecodedRequest } from './messages.ts';

/** A transport whose far end is a function that may answer each request frame (or not). */
function fakeController(answer: (req: DecodedRequest, attempt: number) => (Uint8Array | null)[]) {
  const listeners = new Set<(b: Uint8Array) => void>();
  const decoder = new FrameDecoder();
  const attempts = new Map<number, number>();
  const transport: ByteTransport = {
    write: async (bytes) => {
      for (const ev of decoder.push(bytes, 0)) {
        if (ev.type !== 'frame') continue;
        const req = decodeRequest(ev.frame);
        const n = (attempts.get(req.seq) ?? 0) + 1;
        attempts.set(req.seq, n);
        const out = answer(req, n);
        setTimeout(() => out.forEach((b) => b && listeners.forEach((l) => l(b))), 1);
      }
    },
    onData: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  return { transport, attempts };
}

describe('serial link (host side)', () => {
  it('matches answers by SEQ and ignores a late answer to an earlier request', async () => {
    let last = -1;
    const { transport } = fakeController((req) => {
      if (!req.ok) return [];
      const stale = last >= 0 ? encodeResponse('writeDeviceNo', last, { deviceNo: 'OLD-0001' }) : null;
      last = req.seq;
      return [stale, encodeResponse('writeDeviceNo', req.seq, { deviceNo: (req.body as { deviceNo: string }).deviceNo })];
    });
    const link = new SerialLink(transport, { timeoutMs: 200 });
    expect(await link.writeDeviceNo('LL-0001')).toEqual({ deviceNo: 'LL-0001' });
    expect(await link.writeDeviceNo('LL-0002')).toEqual({ deviceNo: 'LL-0002' });
  });

  it('retries with the same SEQ after a lost answer, then gives up with timeout', async () => {
    const { transport, attempts } = fakeController((req, attempt) => (attempt < 2 ? [] : [encodeResponse('saveConfig', req.seq, { version: 3 })]));
    const link = new SerialLink(transport, { timeoutMs: 50, retries: 2 });
    expect(await link.saveConfig()).toEqual({ version: 3 });
    expect([...attempts.values()]).toEqual([2]);

    const silent = new SerialLink(fakeController(() => []).transport, { timeoutMs: 30, retries: 1 });
    await expect(silent.handshake()).rejects.toMatchObject({ code: 'timeout' });
  });

  it("reports the controller's refusal with its code and issues", async () => {
    const { transport } = fakeController((req) => [
      encodeError(req.seq, { code: 'configInvalid', cmd: SERIAL_COMMANDS.writeConfig.code, issues: [{ path: 'rapidSpeed', message: 'validation.max', params: { max: 150 } }] }),
    ]);
    const link = new SerialLink(transport, { timeoutMs: 200 });
    const error = await link.writeConfig({ baseVersion: 0, config: { rapidSpeed: 999 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SerialError);
    expect(error).toMatchObject({ code: 'configInvalid', issues: [{ path: 'rapidSpeed' }] });
  });

  it('refuses an invalid request without sending it, and fails the pending request when closed', async () => {
    const { transport, attempts } = fakeController(() => []);
    const link = new SerialLink(transport, { timeoutMs: 5_000 });
    await expect(link.writeDeviceNo('bad/no')).rejects.toMatchObject({ code: 'invalid' });
    expect(attempts.size).toBe(0);
    const waiting = link.handshake();
    await new Promise((r) => setTimeout(r, 10));
    link.close();
    await expect(waiting).rejects.toMatchObject({ code: 'closed' });
    await expect(link.handshake()).rejects.toMatchObject({ code: 'closed' });
  });

  it('fails with closed when the port cannot be written', async () => {
    const link = new SerialLink({ write: () => Promise.reject(new Error('gone')), onData: () => () => undefined });
    await expect(link.handshake()).rejects.toMatchObject({ code: 'closed' });
  });
});
