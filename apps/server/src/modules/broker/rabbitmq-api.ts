/**
 * RabbitMQ's management HTTP API, spoken to whichever node answers: every node serves the
 * whole cluster's users, permissions and connections, so a node that is down is skipped.
 */
export class RabbitApi {
  private next = 0;

  constructor(
    private readonly urls: string[],
    private readonly username: string,
    private readonly password: string,
    private readonly timeoutMs = 5_000,
  ) {
    if (!urls.length) throw new Error('RabbitApi needs at least one management URL');
  }

  /** One request; a node that cannot be reached or answers 5xx hands it to the next. 404 resolves to null. */
  async request(method: 'GET' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
    const errors: string[] = [];
    for (let tried = 0; tried < this.urls.length; tried++) {
      const base = this.urls[(this.next + tried) % this.urls.length]!;
      let res: Response;
      try {
        res = await fetch(`${base.replace(/\/$/, '')}${path}`, {
          method,
          headers: {
            authorization: `Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        errors.push(`${base}: ${(err as Error).message}`);
        continue;
      }
      if (res.status >= 500) {
        errors.push(`${base}: ${res.status} ${await res.text()}`);
        continue;
      }
      // Later requests start at the node that answered.
      this.next = (this.next + tried) % this.urls.length;
      if (res.status === 404) return null;
      const text = await res.text();
      if (!res.ok)
        throw new Error(`RabbitMQ management API ${method} ${path}: ${res.status} ${text}`);
      return text ? (JSON.parse(text) as unknown) : null;
    }
    throw new Error(
      `RabbitMQ management API ${method} ${path}: no node answered (${errors.join('; ')})`,
    );
  }
}

export const encodeName = (name: string) => encodeURIComponent(name);
