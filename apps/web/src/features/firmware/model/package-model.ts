import {
  FIRMWARE_MAX_BYTES,
  LANGUAGES,
  type DeviceKind,
  type FirmwarePackage,
  type FirmwarePackageCreate,
  type Language,
} from '@liftlink/protocol';

/**
 * The "New package" workflow without the UI: the image check done before anything is sent,
 * the create request from the form's values, and create-then-upload (docs/firmware.md:
 * the metadata first, then the image as the raw body).
 */

/** What the dialog's form holds. */
export interface PackageFormValues {
  kinds: DeviceKind[];
  version: string;
  minVersion: string;
  releaseNotes?: Partial<Record<Language, string>>;
}

/** Why an image is refused before it is sent (the server checks again). */
export type ImageProblem = 'required' | 'empty' | 'tooLarge';

export function imageProblem(
  file: { size: number } | undefined,
  maxBytes: number = FIRMWARE_MAX_BYTES,
): ImageProblem | null {
  if (!file) return 'required';
  if (file.size <= 0) return 'empty';
  if (file.size > maxBytes) return 'tooLarge';
  return null;
}

/** The create request: kinds, versions and the notes typed (trimmed; empty ones left out). */
export function createRequest(values: PackageFormValues): FirmwarePackageCreate {
  const notes: Partial<Record<Language, string>> = {};
  for (const language of LANGUAGES) {
    const text = values.releaseNotes?.[language]?.trim();
    if (text) notes[language] = text;
  }
  return {
    kinds: values.kinds,
    version: values.version.trim(),
    minVersion: values.minVersion.trim(),
    ...(Object.keys(notes).length > 0 ? { releaseNotes: notes } : {}),
  };
}

export type PublishPhase = 'creating' | 'uploading';

export interface PublishApi {
  create: (request: FirmwarePackageCreate) => Promise<FirmwarePackage>;
  upload: (id: string, file: Blob) => Promise<FirmwarePackage>;
}

/**
 * Creates the package and uploads its image. When an earlier attempt created the package
 * (`created`) and only the upload failed, the upload alone is tried again: creating the same
 * version twice is refused (`firmware.exists`). `onCreated` keeps the package for that.
 */
export async function publishPackage(
  api: PublishApi,
  request: FirmwarePackageCreate,
  file: Blob,
  {
    created,
    onPhase,
    onCreated,
  }: {
    created?: FirmwarePackage | null;
    onPhase?: (phase: PublishPhase) => void;
    onCreated?: (pkg: FirmwarePackage) => void;
  } = {},
): Promise<FirmwarePackage> {
  let pkg = created ?? null;
  if (!pkg) {
    onPhase?.('creating');
    pkg = await api.create(request);
    onCreated?.(pkg);
  }
  onPhase?.('uploading');
  return api.upload(pkg.id, file);
}

/** Intl's own unit names, so each language writes them its way ("1,5 МБ" in Russian). */
const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A size in human units (1024-based), in the user's number format: "1.5 MB". */
export function formatBytes(bytes: number, language: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 2 : 1;
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: UNITS[unit],
    maximumFractionDigits: digits,
  }).format(value);
}

/** The first and last characters of a SHA-256, for a narrow cell. */
export function shortHash(sha256: string): string {
  return sha256.length > 16 ? `${sha256.slice(0, 8)}…${sha256.slice(-8)}` : sha256;
}

/** The release notes in the user's language, else the first other language that has some. */
export function notesFor(
  pkg: Pick<FirmwarePackage, 'releaseNotes'>,
  language: Language,
): { language: Language; text: string } | null {
  for (const l of [language, ...LANGUAGES.filter((x) => x !== language)]) {
    const text = pkg.releaseNotes[l].trim();
    if (text) return { language: l, text };
  }
  return null;
}
