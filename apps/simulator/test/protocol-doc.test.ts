import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, EVENT_CODES, RECONNECT_RULE } from '@liftlink/protocol';
import { PROTOCOL_DOC, renderGenerated } from '../src/protocol-doc.ts';

describe('docs/protocol.md', () => {
  it('carries the current event, refusal and configuration tables (refresh: node --import tsx apps/simulator/src/protocol-doc.ts)', async () => {
    const doc = await readFile(PROTOCOL_DOC, 'utf8');
    expect(renderGenerated(doc)).toBe(doc);
    for (const code of EVENT_CODES) expect(doc).toContain(`| \`${code}\` |`);
    for (const f of CONFIG_FIELDS) expect(doc).toContain(`| \`${f.key}\` |`);
  });

  it('describes the reconnect rule with the constants lifts use', async () => {
    const doc = await readFile(PROTOCOL_DOC, 'utf8');
    expect(doc).toContain('### 1.1 Reconnecting');
    for (const block of ['reconnectRule', 'reconnectWaits']) expect(doc).toContain(`<!-- generated:${block} -->`);
    for (const [key, ms] of Object.entries(RECONNECT_RULE)) expect(doc).toContain(`| \`${key}\` | ${ms / 1000} s |`);
  });
});
