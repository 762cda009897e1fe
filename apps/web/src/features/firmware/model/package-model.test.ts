import { describe, expect, it, vi } from 'vitest';
import { FIRMWARE_MAX_BYTES, type FirmwarePackage } from '@liftlink/protocol';
import {
  createRequest,
  formatBytes,
  imageProblem,
  notesFor,
  publishPackage,
  shortHash,
} from './package-model.ts';

const pkg = (extra: Partial<FirmwarePackage> = {}): FirmwarePackage => ({
  id: '3c3c3c3c-0000-4000-8000-000000000001',
  orgId: 'org',
  orgName: 'Maker',
  kinds: ['verticalHydraulic'],
  version: '1.2.0',
  minVersion: '1.0.0',
  releaseNotes: { 'zh-CN': '', 'en-US': '', 'ru-RU': '' },
  size: null,
  sha256: null,
  state: 'uploading',
  createdByName: 'eng',
  createdAt: '2026-11-20T10:00:00.000Z',
  withdrawnByName: null,
  withdrawnAt: null,
  ...extra,
});

describe('firmware package model', () => {
  it('refuses a missing, empty or oversize image before anything is sent', () => {
    expect(imageProblem(undefined)).toBe('required');
    expect(imageProblem({ size: 0 })).toBe('empty');
    expect(imageProblem({ size: FIRMWARE_MAX_BYTES + 1 })).toBe('tooLarge');
    expect(imageProblem({ size: FIRMWARE_MAX_BYTES })).toBeNull();
    expect(imageProblem({ size: 11 }, 10)).toBe('tooLarge');
  });

  it('builds the create request with trimmed versions and only the notes typed', () => {
    expect(
      createRequest({
        kinds: ['verticalHydraulic'],
        version: ' 1.2.0 ',
        minVersion: '1.0.0',
        releaseNotes: { 'en-US': '  Fixes  ', 'ru-RU': '   ' },
      }),
    ).toEqual({
      kinds: ['verticalHydraulic'],
      version: '1.2.0',
      minVersion: '1.0.0',
      releaseNotes: { 'en-US': 'Fixes' },
    });
    expect(
      createRequest({ kinds: ['verticalHydraulic'], version: '1.2.0', minVersion: '1.0.0' }),
    ).not.toHaveProperty('releaseNotes');
  });

  it('creates then uploads; after a failed upload only the upload is tried again', async () => {
    const created = pkg();
    const api = {
      create: vi.fn().mockResolvedValue(created),
      upload: vi
        .fn()
        .mockRejectedValueOnce(new Error('cut'))
        .mockResolvedValue(pkg({ state: 'ready' })),
    };
    const phases: string[] = [];
    let kept: FirmwarePackage | null = null;
    const request = { kinds: created.kinds, version: '1.2.0', minVersion: '1.0.0' };
    const image = new Blob(['image']);
    await expect(
      publishPackage(api, request, image, {
        onPhase: (p) => phases.push(p),
        onCreated: (p) => (kept = p),
      }),
    ).rejects.toThrow('cut');
    expect(phases).toEqual(['creating', 'uploading']);
    expect(kept).toBe(created);
    await expect(publishPackage(api, request, image, { created: kept })).resolves.toMatchObject({
      state: 'ready',
    });
    expect(api.create).toHaveBeenCalledTimes(1);
    expect(api.upload).toHaveBeenCalledTimes(2);
    expect(api.upload).toHaveBeenLastCalledWith(created.id, image);
  });

  it('formats sizes and hashes for narrow cells', () => {
    expect(formatBytes(512, 'en-US')).toBe('512 byte');
    expect(formatBytes(1_572_864, 'en-US')).toBe('1.5 MB');
    expect(formatBytes(FIRMWARE_MAX_BYTES, 'en-US')).toBe('64 MB');
    expect(formatBytes(1_572_864, 'ru-RU')).toBe('1,5 МБ');
    expect(formatBytes(1_572_864, 'zh-CN')).toBe('1.5 MB');
    expect(shortHash('a'.repeat(56) + 'bbbbbbbb')).toBe('aaaaaaaa…bbbbbbbb');
  });

  it("reads the notes in the user's language, else another one that has some", () => {
    const notes = pkg({ releaseNotes: { 'zh-CN': '修复', 'en-US': 'Fixes', 'ru-RU': '' } });
    expect(notesFor(notes, 'en-US')).toEqual({ language: 'en-US', text: 'Fixes' });
    expect(notesFor(notes, 'ru-RU')).toEqual({ language: 'zh-CN', text: '修复' });
    expect(notesFor(pkg(), 'ru-RU')).toBeNull();
  });
});
