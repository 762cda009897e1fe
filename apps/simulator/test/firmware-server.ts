import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FIRMWARE_TOKEN_TTL_MS,
  firmwareTime,
  formatContentRange,
  parseRangeHeader,
  type DeviceKind,
  type FirmwareManifest,
  FIRMWARE_DEVICE_NO_HEADER,
} from '@liftlink/protocol';
import {
  generateFirmwareKeyPair,
  signManifest,
  type FirmwareKeyPair,
} from '../../../packages/protocol/src/device/firmware-signature.ts';

/** One GET the image server answered. */
export interface ImageRequest {
  packageId: string;
  range: string | undefined;
  authorization: string | undefined;
  deviceNo: string | undefined;
  status: number;
}

interface Package {
  image: Buffer;
  token: string;
  withdrawn: boolean;
}

/**
 * A download server for firmware images as docs/protocol.md 11.5 describes it:
 * `GET /api/iot/firmware/{packageId}/image` with `Authorization: Bearer <token>`; one range
 * (`parseRangeHeader`) is answered 206 with `Content-Range`, a start past the end 416 with
 * the star form, anything else the whole image with 200; a wrong token 401; a withdrawn
 * package 410. It records every request.
 */
export async function startImageServer() {
  const packages = new Map<string, Package>();
  const requests: ImageRequest[] = [];
  const server: Server = createServer((req, res) => {
    const m = /^\/api\/iot\/firmware\/([A-Za-z0-9_-]+)\/image$/.exec(req.url ?? '');
    const pkg = m ? packages.get(m[1]!) : undefined;
    const answer = (status: number) => {
      requests.push({
        packageId: m?.[1] ?? '',
        range: req.headers.range,
        authorization: req.headers.authorization,
        deviceNo: req.headers[FIRMWARE_DEVICE_NO_HEADER] as string | undefined,
        status,
      });
      res.statusCode = status;
    };
    if (req.method !== 'GET' || !pkg) {
      answer(404);
      return res.end();
    }
    if (req.headers.authorization !== `Bearer ${pkg.token}`) {
      answer(401);
      return res.end();
    }
    if (pkg.withdrawn) {
      answer(410);
      return res.end();
    }
    const size = pkg.image.length;
    const range = parseRangeHeader(req.headers.range, size);
    if (range.kind === 'unsatisfiable') {
      answer(416);
      res.setHeader('Content-Range', formatContentRange(null, size));
      return res.end();
    }
    const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, size - 1];
    answer(range.kind === 'partial' ? 206 : 200);
    if (range.kind === 'partial') res.setHeader('Content-Range', formatContentRange(range, size));
    res.setHeader('Content-Length', end - start + 1);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.end(pkg.image.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    /** A new package with `bytes` random bytes; `withdrawn`: the server answers 410. */
    addPackage(bytes = 300 * 1024, options: { withdrawn?: boolean } = {}) {
      const packageId = randomUUID();
      const image = randomBytes(bytes);
      const token = randomBytes(24).toString('base64url');
      packages.set(packageId, { image, token, withdrawn: options.withdrawn ?? false });
      return {
        packageId,
        image,
        token,
        sha256: createHash('sha256').update(image).digest('hex'),
        url: `/api/iot/firmware/${packageId}/image`,
        requests: () => requests.filter((r) => r.packageId === packageId),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type ImageServer = Awaited<ReturnType<typeof startImageServer>>;
export type ImagePackage = ReturnType<ImageServer['addPackage']>;

/** The cloud's signing side for tests: one key pair, manifests for a package and a lift. */
export class TestSigner {
  readonly keys: FirmwareKeyPair = generateFirmwareKeyPair();

  manifest(
    pkg: ImagePackage,
    lift: { deviceNo: string; kind?: DeviceKind },
    fields: Partial<FirmwareManifest> & { seq: number; version: string },
  ): FirmwareManifest {
    const issuedAt = new Date();
    return {
      v: 1,
      packageId: pkg.packageId,
      deviceNo: lift.deviceNo,
      kinds: [lift.kind ?? 'inclinedStraightRack'],
      minVersion: 'SIM-1.0.0',
      size: pkg.image.length,
      sha256: pkg.sha256,
      url: pkg.url,
      token: pkg.token,
      tokenExpiresAt: firmwareTime(new Date(issuedAt.getTime() + FIRMWARE_TOKEN_TTL_MS)),
      issuedAt: firmwareTime(issuedAt),
      ...fields,
    };
  }

  /** The signed offer (`firmware/offer` payload). */
  offer(...args: Parameters<TestSigner['manifest']>) {
    return signManifest(this.manifest(...args), this.keys.privateKey);
  }
}
