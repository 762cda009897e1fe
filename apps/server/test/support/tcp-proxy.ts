import net from 'node:net';

/**
 * A TCP relay between the server and a dependency, to cut the line in a test: `cut()` drops
 * every connection and refuses new ones, `freeze()` keeps connections open but silent (a
 * dead network path: no FIN, no RST), `restore()` heals both.
 */
export class TcpProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private mode: 'open' | 'cut' | 'frozen' = 'open';
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  private accept(client: net.Socket): void {
    if (this.mode === 'cut') return void client.destroy();
    const upstream = net.connect(this.targetPort, this.targetHost);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.on('data', (d: Buffer) => upstream.write(d));
    upstream.on('data', (d: Buffer) => client.write(d));
    if (this.mode === 'frozen') {
      client.pause();
      upstream.pause();
    }
  }

  cut(): void {
    this.mode = 'cut';
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
  }

  /** Nothing moves while frozen; what was sent arrives after `restore`, as TCP resends it on a healed link. */
  freeze(): void {
    this.mode = 'frozen';
    for (const [a, b] of this.pairs) {
      a.pause();
      b.pause();
    }
  }

  restore(): void {
    this.mode = 'open';
    for (const [a, b] of this.pairs) {
      a.resume();
      b.resume();
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
