import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** How long a paired browser may come back without a new code. */
export const TOKEN_TTL_MS = 30 * 24 * 3_600_000;

interface StoredToken {
  hash: string;
  user: string;
  createdAt: string;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The tokens of the browsers this bridge is paired with, kept hashed in a small JSON file
 * (replaced atomically) so a page can reconnect after the bridge restarts.
 */
export class TokenStore {
  private tokens: StoredToken[] = [];

  private constructor(private readonly file: string | null) {}

  static async open(file: string | null): Promise<TokenStore> {
    const store = new TokenStore(file);
    if (!file) return store;
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as { tokens?: StoredToken[] };
      store.tokens = Array.isArray(parsed.tokens) ? parsed.tokens.filter((t) => typeof t.hash === 'string' && typeof t.user === 'string') : [];
    } catch {
      store.tokens = [];
    }
    return store;
  }

  private live(now: number): StoredToken[] {
    return this.tokens.filter((t) => now - Date.parse(t.createdAt) < TOKEN_TTL_MS);
  }

  /** A new token for `user`; only its hash is kept. */
  async issue(user: string, now = Date.now()): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    this.tokens = [...this.live(now), { hash: hash(token), user, createdAt: new Date(now).toISOString() }];
    await this.save();
    return token;
  }

  /** The user a token was issued to, or null. */
  check(token: string, now = Date.now()): string | null {
    const h = hash(token);
    return this.live(now).find((t) => t.hash === h)?.user ?? null;
  }

  async forgetAll(): Promise<void> {
    this.tokens = [];
    await this.save();
  }

  private async save(): Promise<void> {
    if (!this.file) return;
    await mkdir(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    await writeFile(temp, `${JSON.stringify({ tokens: this.tokens }, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, this.file);
  }
}
