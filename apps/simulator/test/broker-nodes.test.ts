import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { Aedes } from 'aedes';
import { describe, expect, it } from 'vitest';
import { liftTopic } from '@liftlink/protocol';
import { startFleet } from '../src/fleet.ts';
import { closeServing, Observer, startBroker, trackSockets, waitFor } from './harness.ts';

/** A port nothing listens on any more, as the address of a broker node that is down: connections to it are refused. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A private CA (openssl, EC P-256) in a temporary folder, and one certificate per node for
 * one name each, as the nodes of a cluster with their own host names have.
 */
function nodePki(names: string[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-nodes-pki-'));
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Nodes Test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  const certs = names.map((name, i) => {
    writeFileSync(path.join(dir, `${i}.ext`), `subjectAltName=${/^[\d.]+$/.test(name) ? 'IP' : 'DNS'}:${name}\nextendedKeyUsage=serverAuth\n`);
    openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${i}.key`, '-out', `${i}.csr`, '-subj', `/CN=node-${i}`]);
    openssl(['x509', '-req', '-in', `${i}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', String(1000 + i), '-out', `${i}.pem`, '-days', '2', '-extfile', `${i}.ext`]);
    return { key: readFileSync(path.join(dir, `${i}.key`)), cert: readFileSync(path.join(dir, `${i}.pem`)) };
  });
  return { caFile: path.join(dir, 'ca.pem'), certs, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An aedes broker behind a TLS listener on a free port; `ids` are the clients it accepted. */
async function startTlsBroker(tls: { key: Buffer; cert: Buffer }) {
  const broker = await Aedes.createBroker();
  const ids: string[] = [];
  broker.on('client', (client) => ids.push(client.id));
  const server = createTlsServer(tls, (socket) => broker.handle(socket));
  const sockets = trackSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    ids,
    close: () => closeServing(server, sockets, broker),
  };
}

describe('a broker address listing several nodes (docs/protocol.md, "Reconnecting")', () => {
  it('connects through a live node when the first is down, and comes back through another node when its own goes away', async () => {
    const NO = 'BN-0001';
    const down = await deadPort();
    const first = await startBroker();
    const second = await startBroker();
    const onFirst = await Observer.connect(first.url);
    const onSecond = await Observer.connect(second.url);
    const fleet = await startFleet({
      mqttUrl: `mqtt://127.0.0.1:${down}, ${first.url}, ${second.url}`,
      lifts: [{ deviceNo: NO, kind: 'verticalHydraulic', floors: 2 }],
      tickMs: 50,
      reconnectMs: 100,
      connectTimeoutMs: 10_000,
      log: () => {},
    });
    let firstClosed = false;
    try {
      const lift = fleet.lift(NO)!;
      expect(lift.connected).toBe(true);
      const there = await waitFor(() => onFirst.of('presence', NO).find((p) => p.online), 10_000, 'online on the live node');

      // the node the lift is on goes away; what happens meanwhile must reach the one that is left
      await onFirst.close();
      await first.close();
      firstClosed = true;
      lift.machine.injectFault('ED');
      lift.flush();

      const back = await waitFor(() => onSecond.of('presence', NO).find((p) => p.online), 20_000, 'online on the other node');
      expect(back.session).toBeGreaterThan(there.session);
      await waitFor(() => onSecond.of('event', NO).some((e) => e.code === 'ED'), 10_000, 'the fault raised while offline');
      expect(onSecond.of('status', NO).length).toBeGreaterThan(0);
      // and it listens there: a request through the surviving node is answered
      await onSecond.send(liftTopic(NO, 'config/get'), { commandId: 'via-second-node' });
      await waitFor(() => onSecond.of('config/report', NO).some((r) => r.commandId === 'via-second-node'), 10_000, 'answer through the other node');
      expect(lift.connected).toBe(true);
    } finally {
      await fleet.stop();
      await onSecond.close();
      await second.close();
      if (!firstClosed) {
        await onFirst.close();
        await first.close();
      }
    }
  });

  it('over TLS with a pinned CA, checks each node against its own name', async () => {
    // node 1 is localhost only, node 2 127.0.0.1 only: a name carried over from the node before fails the check
    const pki = nodePki(['localhost', '127.0.0.1']);
    const first = await startTlsBroker(pki.certs[0]!);
    const second = await startTlsBroker(pki.certs[1]!);
    const NO = 'BN-0002';
    const logs: string[] = [];
    const fleet = await startFleet({
      mqttUrl: `mqtts://localhost:${first.port},mqtts://127.0.0.1:${second.port}`,
      caFile: pki.caFile,
      lifts: [{ deviceNo: NO, kind: 'verticalHydraulic', floors: 2 }],
      reconnectMs: 100,
      connectTimeoutMs: 10_000,
      log: (line) => logs.push(line),
    });
    let firstClosed = false;
    try {
      expect(fleet.connectedCount()).toBe(1);
      expect(first.ids).toContain(NO);
      await first.close();
      firstClosed = true;
      await waitFor(() => second.ids.includes(NO) && fleet.connectedCount() === 1, 20_000, 'on the second node');
      expect(logs.filter((l) => /certificate|altnames/i.test(l))).toEqual([]);
    } finally {
      await fleet.stop();
      await second.close();
      if (!firstClosed) await first.close();
      pki.remove();
    }
  }, 90_000); // two TLS brokers and a PKI made on the spot: slow on a busy machine
});
