import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  FIRMWARE_DEVICE_NO_HEADER,
  errorEnvelopeSchema,
  fileResponsesOf,
  firmwareImageParamsSchema,
  firmwarePackageCreateSchema,
  firmwarePackageIdSchema,
  firmwarePackageListQuerySchema,
  firmwarePackageListSchema,
  firmwarePackageSchema,
  firmwareSigningKeyQuerySchema,
  firmwareSigningKeySchema,
  responsesOf,
} from '@liftlink/protocol';
import { z } from 'zod';
import { AppError, ok } from '../../lib/errors.ts';
import { imageDownload } from './download.ts';
import { FirmwareKeys } from './keys.ts';
import { makerOrgOf } from '../manufacture/scope.ts';
import { campaignRoutes } from './campaign-routes.ts';
import { liftUpdateRoutes } from './lift-updates.ts';
import { CAMPAIGN_JOB, cancelCampaignsOfPackage, runCampaigns } from './campaigns.ts';
import { buildOffer, sendOffer, type Offer } from './offer.ts';
import {
  createPackage,
  manufacturerOf,
  packageInReach,
  packagesInReach,
  uploadImage,
  withdraw,
} from './service.ts';

/** Image requests one lift may make per minute: a download and its resumes, with room to spare. */
const FIRMWARE_DOWNLOAD_REQUESTS_PER_MINUTE = 30;

/** What other modules (campaigns) use: the signing keys, the signed per-lift offer, and sending it. */
export interface FirmwareService {
  keys: FirmwareKeys;
  offer(o: Parameters<typeof buildOffer>[2]): Promise<Offer>;
  /** The offer, sent to the lift on `firmware/offer`. */
  send(o: Parameters<typeof buildOffer>[2]): Promise<Offer>;
}

declare module 'fastify' {
  interface FastifyInstance {
    firmware: FirmwareService;
  }
}

/**
 * Firmware packages (docs/firmware.md): list, get, create, upload the image, withdraw
 * (`firmware.*`, the caller's organization's packages); the signing key's public half for
 * the factory bench (`manufacture.add`); the lift's ranged download with its offer's token.
 */
const packageRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/auth/access/firmware/packages';
  const tags = ['firmware'];

  // The image arrives as the raw body and is read as a stream by the upload (never buffered
  // whole); this parser lives only in this plugin's scope.
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) =>
    done(null, payload),
  );

  app.get(
    base,
    {
      config: { access: 'firmware.query' },
      schema: {
        tags,
        response: responsesOf(firmwarePackageListSchema),
        querystring: firmwarePackageListQuerySchema,
      },
    },
    async (request) => ok({ list: await packagesInReach(app, request.auth!, request.query.state) }),
  );

  app.get(
    `${base}/get`,
    {
      config: { access: 'firmware.query' },
      schema: {
        tags,
        response: responsesOf(firmwarePackageSchema),
        querystring: firmwarePackageIdSchema,
      },
    },
    async (request) => ok(await packageInReach(app, request.auth!, request.query.id)),
  );

  app.post(
    `${base}/create`,
    {
      config: { access: 'firmware.add' },
      schema: {
        tags,
        response: responsesOf(firmwarePackageSchema),
        body: firmwarePackageCreateSchema,
      },
    },
    async (request) => ok(await createPackage(app, request, request.body)),
  );

  app.post(
    `${base}/upload`,
    {
      config: { access: 'firmware.add' },
      schema: {
        tags,
        description:
          'The body is the image itself (application/octet-stream), at most FIRMWARE_MAX_BYTES; once per package.',
        response: responsesOf(firmwarePackageSchema),
        querystring: firmwarePackageIdSchema,
      },
    },
    async (request) => ok(await uploadImage(app, request, request.query.id, request.body)),
  );

  app.post(
    `${base}/withdraw`,
    {
      config: { access: 'firmware.delete' },
      schema: { tags, response: responsesOf(firmwarePackageSchema), body: firmwarePackageIdSchema },
    },
    async (request) => {
      const pkg = await withdraw(app, request, request.body.id);
      await cancelCampaignsOfPackage(app, request, pkg.id);
      return ok(pkg);
    },
  );

  app.get(
    '/manufacture/firmware/signing-key',
    {
      config: { access: 'manufacture.add' },
      schema: {
        tags,
        response: responsesOf(firmwareSigningKeySchema),
        querystring: firmwareSigningKeyQuerySchema,
      },
    },
    async (request) => {
      const auth = request.auth!;
      // By default the caller's organization's key; a caller of no organization (the
      // administrator) gets the key of the maker its bench registers lifts for (makerOrgOf).
      const target = request.query.orgId ?? auth.orgId ?? (await makerOrgOf(app.database.sql, auth));
      if (target !== auth.orgId && auth.grant?.scope !== 'all') throw new AppError('org.notFound');
      const key = await app.firmware.keys.forOrg(await manufacturerOf(app, target));
      return ok({
        orgId: key.orgId,
        keyId: key.keyId,
        publicKey: key.publicKey,
        source: key.source,
      });
    },
  );

  app.get(
    '/api/iot/firmware/:packageId/image',
    {
      // Limited per lift, not per address: a wave of lifts behind one carrier's NAT shares an
      // address. A lift needs a few requests (resumes); a guess without a valid token costs a
      // hash lookup.
      config: {
        access: 'public',
        rateLimit: {
          max: FIRMWARE_DOWNLOAD_REQUESTS_PER_MINUTE,
          timeWindow: 60_000,
          keyGenerator: (r: FastifyRequest) => `firmware-image:${String(r.headers[FIRMWARE_DEVICE_NO_HEADER] ?? r.ip).slice(0, 64)}`,
        },
      },
      schema: {
        tags,
        description:
          'The lift downloads an image it was offered (docs/protocol.md 11.5): `Authorization: Bearer <token of the offer>` and its device number in `X-Device-No`; `Range: bytes=N-` or `bytes=N-M` is answered 206 with `Content-Range`, a start past the end 416, no range 200.',
        params: firmwareImageParamsSchema,
        response: {
          ...fileResponsesOf('application/octet-stream', 'The whole image.'),
          206: {
            description: 'The requested bytes, with Content-Range.',
            content: {
              'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) },
            },
          },
          '4xx': errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) => {
      const answer = await imageDownload(
        app.database.sql,
        request.params.packageId,
        request.headers,
      );
      // A file answer: its schema describes bytes, which the typed reply cannot express.
      return reply
        .code(answer.status)
        .headers(answer.headers)
        .send(answer.body as unknown as string);
    },
  );
};

export default fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const keys = new FirmwareKeys(app.config, app.database.sql, app.log);
    app.decorate('firmware', {
      keys,
      offer: (o) => buildOffer(app, keys, o),
      send: (o) => sendOffer(app, keys, o),
    } satisfies FirmwareService);
    await app.register(packageRoutes);
    await app.register(campaignRoutes);
    await app.register(liftUpdateRoutes);
    app.jobs.add({ name: CAMPAIGN_JOB, everyMs: app.config.firmwareCampaignPollMs, firstAfterMs: app.config.firmwareCampaignPollMs, run: (a, signal) => runCampaigns(a, signal) });
  },
  {
    name: 'liftlink-firmware',
    fastify: '5.x',
    dependencies: ['liftlink-jobs'],
    decorators: { fastify: ['config', 'database', 'audit', 'publishCommand', 'jobs'] },
  },
);
