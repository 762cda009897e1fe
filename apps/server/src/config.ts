import path from 'node:path';
import { z } from 'zod';
import { APPROVAL_WINDOW_MS, COMMAND_CANCEL_WINDOW_MS, FIRMWARE_MAX_BYTES, parseBrokerAddress } from '@liftlink/protocol';

/**
 * Configuration from the environment. Every variable is documented in the README;
 * a bad value stops the start with a message naming the variable, never a stack trace.
 */
const port = z.coerce.number().int().min(0).max(65_535);
const optionalUrl = (protocols: RegExp) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || (URL.canParse(v) && protocols.test(new URL(v).protocol)), 'must be a URL of the right kind');

/** Comma-separated URLs of one kind, without credentials (those come from MQTT_USERNAME / MQTT_PASSWORD). */
const urlList = (protocols: RegExp) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v.split(',').map((u) => u.trim()) : []))
    .refine((list) => list.every((u) => URL.canParse(u) && protocols.test(new URL(u).protocol)), 'must be URLs of the right kind, separated by commas')
    .refine((list) => list.every((u) => !new URL(u).username && !new URL(u).password), 'must not hold credentials: set MQTT_USERNAME and MQTT_PASSWORD');

const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(/^postgres(ql)?:$/),
  /** One broker, or the nodes of a cluster separated by commas (the server and the lifts try them in turn). */
  MQTT_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .superRefine((v, ctx) => {
      if (v === undefined) return;
      try {
        parseBrokerAddress(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  /** Which kind of external broker MQTT_URL names: `mqtt` (Mosquitto, EMQX) or `rabbitmq` (a cluster; docs/operations.md 15). */
  BROKER: z.enum(['mqtt', 'rabbitmq']).default('mqtt'),
  /** BROKER=rabbitmq: the nodes' AMQP listeners (ingest) and management APIs (lift accounts), comma-separated. */
  AMQP_URL: urlList(/^amqps?:$/),
  RABBITMQ_API_URL: urlList(/^https?:$/),
  MQTT_PORT: port.default(1883),
  MQTT_USERNAME: z.string().optional(),
  MQTT_PASSWORD: z.string().optional(),
  /** With MQTT_URL: drive Mosquitto's dynamic-security plugin for per-lift accounts and ACLs. */
  MQTT_DYNSEC: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  SIMULATOR: z.coerce.number().int().min(0).max(10_000).optional(),
  /** Days of history written for each demo lift the first start creates (0: none). */
  DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(90).default(30),
  /** Seconds after the start when the last demo lift raises a fault that clears itself five minutes later (0: none). */
  DEMO_FAULT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(90),
  DEMO_LOCAL_CALLS_PER_HOUR: z.coerce.number().int().min(0).max(3_600).default(4),
  LIFTLINK_ADMIN_USER: z.string().trim().min(1).max(64).regex(/^[\p{L}\p{N}._@-]+$/u, 'letters, digits, . _ @ - only').default('admin'),
  LIFTLINK_ADMIN_PASSWORD: z.string().min(8, 'at least 8 characters').max(128).optional(),
  SMTP_URL: optionalUrl(/^smtps?:$/),
  MAIL_FROM: z.string().trim().min(3).default('LiftLink <no-reply@liftlink.local>'),
  PUBLIC_URL: optionalUrl(/^https?:$/),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  SITE_PRODUCT_NAME: z.string().trim().min(1).max(80).default('LiftLink'),
  SITE_MAKER: z.string().trim().min(1).max(80).default('LiftLink Lifts'),
  SITE_COPYRIGHT: z.string().trim().max(200).default('© 2026 LiftLink Lifts'),
  SITE_FILING_NUMBER: z.string().trim().max(80).default(''),
  SITE_SERVICE_CONTACT: z.string().trim().max(200).default(''),
  WEB_DIST: z.string().trim().optional(),
  HEARTBEAT_SECONDS: z.coerce.number().int().min(2).max(600).default(30),
  INSTANCE_ID: z.string().trim().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, _ and - only').optional(),
  INGEST_CONNECTIONS: z.coerce.number().int().min(1).max(64).default(4),
  /** Requests per client address and minute, counted across all instances with PostgreSQL. */
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).max(1_000_000).default(600),
  COMMAND_WAIT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** How long a command of a leased class waits in the cloud, cancellable, before it is sent (docs/remote-control.md). */
  COMMAND_CANCEL_WINDOW_MS: z.coerce.number().int().min(0).max(60_000).default(COMMAND_CANCEL_WINDOW_MS),
  /** How long a request for two-person approval waits for a second person (docs/remote-control.md). */
  APPROVAL_WINDOW_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(APPROVAL_WINDOW_MS),
  /** How long a new fault is held before anyone is notified; one that clears meanwhile notifies nobody (docs/service.md). */
  FAULT_SETTLE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(0),
  /** Webhooks (docs/webhooks.md): the first retry's delay (doubling, with jitter, up to WEBHOOK_RETRY_MAX_MS), each attempt's timeout, how often due deliveries are sent. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().min(10).max(86_400_000).default(3_600_000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
  /** 'true' lets webhooks use http:// to any host (default: https, http only to loopback addresses). */
  WEBHOOK_ALLOW_HTTP: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** How often the escalation job looks for unacknowledged incidents to escalate (docs/service.md, "Escalation"). */
  ESCALATION_POLL_MS: z.coerce.number().int().min(50).max(300_000).default(15_000),
  FIRMWARE_CAMPAIGN_POLL_MS: z.coerce.number().int().min(50).max(300_000).default(15_000),
  FIRMWARE_REOFFER_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(300_000),
  /** The weekly maintenance mail (docs/service.md): the weekday (0 = Sunday … 6, or `any`: every day) and the hour (UTC) it goes out from. */
  MAINTENANCE_MAIL_WEEKDAY: z.union([z.literal('any'), z.coerce.number().int().min(0).max(6)]).default(1),
  MAINTENANCE_MAIL_HOUR: z.coerce.number().int().min(0).max(23).default(6),
  /** The monthly report (docs/reports.md): built and mailed on the first day of the month from this hour (UTC) on. */
  REPORT_MAIL_HOUR: z.coerce.number().int().min(0).max(23).default(5),
  /** Prometheus metrics on a listener of their own (never on PORT); 0 turns them off. */
  METRICS_PORT: port.default(9464),
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** Days a run-log entry is kept (at most a month longer: a whole month is dropped at once). */
  RUN_LOG_RETENTION_DAYS: z.coerce.number().int().min(31).max(36_500).default(400),
  /** PEM certificate (chain allowed) and its key: HTTPS on PORT and MQTT over TLS on MQTT_TLS_PORT. */
  TLS_CERT_FILE: z.string().trim().optional(),
  TLS_KEY_FILE: z.string().trim().optional(),
  MQTT_TLS_PORT: port.default(8883),
  /** With TLS: 'false' keeps plain MQTT off the network (the server's own connection uses a loopback port). */
  MQTT_PLAIN: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** Firmware packages (docs/firmware.md): the secret that encrypts the organizations' signing keys in the database (at least 32 characters, e.g. `openssl rand -base64 32`). */
  FIRMWARE_KEY_SECRET: z.string().trim().min(32, 'at least 32 characters (e.g. openssl rand -base64 32)').max(1024).optional(),
  /** A PEM Ed25519 private key that signs every organization's firmware instead of keys kept in the database. */
  FIRMWARE_SIGNING_KEY_FILE: z.string().trim().optional(),
  /** The largest firmware image accepted, in bytes (at most the protocol's FIRMWARE_MAX_BYTES). */
  FIRMWARE_MAX_BYTES: z.coerce.number().int().min(1).max(FIRMWARE_MAX_BYTES).default(FIRMWARE_MAX_BYTES),
  /** OpenID Connect providers offered on the login page, e.g. `corp,partner`; each one's OIDC_<ID>_* variables: oidcProviders() below. */
  OIDC_PROVIDERS: z.string().trim().optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** MQTT_URL as given: one URL, or a cluster's nodes separated by commas. */
  mqttUrl: string | undefined;
  /** The external broker's kind (with MQTT_URL); null in the embedded mode. */
  broker: 'mqtt' | 'rabbitmq' | null;
  /** BROKER=rabbitmq: where ingest consumes and lift accounts are kept. */
  rabbitmq: { amqpUrls: string[]; apiUrls: string[] } | null;
  mqttPort: number;
  mqttUsername: string | undefined;
  mqttPassword: string | undefined;
  mqttDynsec: boolean;
  simulator: number;
  demoHistoryDays: number;
  demoFaultSeconds: number;
  /** Floor calls made on site per demo lift and hour (local use: each ends a remote control lease). */
  demoLocalCallsPerHour: number;
  adminUser: string;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  logLevel: string;
  trustProxy: boolean;
  site: { productName: string; maker: string; version: string; copyright: string; filingNumber: string; serviceContact: string };
  webDist: string | undefined;
  heartbeatSeconds: number;
  instanceId: string | undefined;
  ingestConnections: number;
  commandWaitMs: number;
  commandCancelWindowMs: number;
  approvalWindowMs: number;
  faultSettleSeconds: number;
  rateLimitMax: number;
  /** Webhook delivery (WEBHOOK_*): backoff, timeout, polling, and whether plain http may leave the machine. */
  webhooks: { retryBaseMs: number; retryMaxMs: number; timeoutMs: number; pollMs: number; allowHttp: boolean };
  /** The escalation job's polling interval (ESCALATION_POLL_MS). */
  escalationPollMs: number;
  /** How often the campaign job moves firmware campaigns on (FIRMWARE_CAMPAIGN_POLL_MS). */
  firmwareCampaignPollMs: number;
  /** After how long an online lift that has not answered its campaign offer is offered again (FIRMWARE_REOFFER_MS). */
  firmwareReofferMs: number;
  /** The weekly maintenance mail's slot (MAINTENANCE_MAIL_*): weekday (null = every day) and hour, UTC. */
  maintenanceMail: { weekday: number | null; hour: number };
  /** The hour (UTC) of the first day of the month from which last month's reports are built and mailed (REPORT_MAIL_HOUR). */
  reportMailHour: number;
  /** Prometheus metrics listener; port 0 = no listener. */
  metrics: { port: number; host: string };
  runLogRetentionDays: number;
  /** TLS_CERT_FILE and TLS_KEY_FILE, or null for plain HTTP and MQTT. */
  tls: TlsConfig | null;
  /** Firmware packages: FIRMWARE_KEY_SECRET, FIRMWARE_SIGNING_KEY_FILE (resolved), FIRMWARE_MAX_BYTES. */
  firmware: { keySecret: string | undefined; signingKeyFile: string | undefined; maxBytes: number };
  /** OIDC_PROVIDERS: "sign in with another provider", in the order given. */
  oidc: OidcProviderConfig[];
}

/** One OpenID Connect provider (OIDC_PROVIDERS and its OIDC_<ID>_* variables). */
export interface OidcProviderConfig {
  /** Lower case, in the routes: /auth/oidc/<id>/start and /auth/oidc/<id>/callback. */
  id: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button's text: "Sign in with <label>". */
  label: string;
  /** E-mail domain (lower case) -> the organization and role, by name, of the account a first sign-in creates. */
  domains: Map<string, { organization: string; role: string }>;
  /** The variable that holds the mapping, for messages. */
  domainsVariable: string;
}

export interface TlsConfig {
  certFile: string;
  keyFile: string;
  /** MQTT over TLS on the embedded broker. */
  mqttTlsPort: number;
  /** Whether the embedded broker also takes plain MQTT on MQTT_PORT. */
  mqttPlain: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(env[String(i.path[0])])})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const tls = tlsConfig(e);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    mqttUrl: e.MQTT_URL,
    broker: e.MQTT_URL ? e.BROKER : null,
    rabbitmq: rabbitmqConfig(e),
    mqttPort: e.MQTT_PORT,
    mqttUsername: e.MQTT_USERNAME,
    mqttPassword: e.MQTT_PASSWORD,
    mqttDynsec: e.MQTT_DYNSEC && !!e.MQTT_URL,
    simulator: e.SIMULATOR ?? (e.MQTT_URL ? 0 : 8),
    demoHistoryDays: e.DEMO_HISTORY_DAYS,
    demoFaultSeconds: e.DEMO_FAULT_SECONDS,
    demoLocalCallsPerHour: e.DEMO_LOCAL_CALLS_PER_HOUR,
    adminUser: e.LIFTLINK_ADMIN_USER,
    adminPassword: e.LIFTLINK_ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL ?? `${tls ? 'https' : 'http'}://localhost:${e.PORT}`,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    site: {
      productName: e.SITE_PRODUCT_NAME,
      maker: e.SITE_MAKER,
      version: '1.0',
      copyright: e.SITE_COPYRIGHT,
      filingNumber: e.SITE_FILING_NUMBER,
      serviceContact: e.SITE_SERVICE_CONTACT,
    },
    webDist: e.WEB_DIST,
    heartbeatSeconds: e.HEARTBEAT_SECONDS,
    instanceId: e.INSTANCE_ID,
    ingestConnections: e.INGEST_CONNECTIONS,
    commandWaitMs: e.COMMAND_WAIT_MS,
    commandCancelWindowMs: e.COMMAND_CANCEL_WINDOW_MS,
    approvalWindowMs: e.APPROVAL_WINDOW_MS,
    faultSettleSeconds: e.FAULT_SETTLE_SECONDS,
    rateLimitMax: e.RATE_LIMIT_MAX,
    webhooks: { retryBaseMs: e.WEBHOOK_RETRY_BASE_MS, retryMaxMs: Math.max(e.WEBHOOK_RETRY_BASE_MS, e.WEBHOOK_RETRY_MAX_MS), timeoutMs: e.WEBHOOK_TIMEOUT_MS, pollMs: e.WEBHOOK_POLL_MS, allowHttp: e.WEBHOOK_ALLOW_HTTP },
    escalationPollMs: e.ESCALATION_POLL_MS,
    firmwareCampaignPollMs: e.FIRMWARE_CAMPAIGN_POLL_MS,
    firmwareReofferMs: e.FIRMWARE_REOFFER_MS,
    maintenanceMail: { weekday: e.MAINTENANCE_MAIL_WEEKDAY === 'any' ? null : e.MAINTENANCE_MAIL_WEEKDAY, hour: e.MAINTENANCE_MAIL_HOUR },
    reportMailHour: e.REPORT_MAIL_HOUR,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST },
    runLogRetentionDays: e.RUN_LOG_RETENTION_DAYS,
    tls,
    firmware: { keySecret: e.FIRMWARE_KEY_SECRET, signingKeyFile: e.FIRMWARE_SIGNING_KEY_FILE ? path.resolve(e.FIRMWARE_SIGNING_KEY_FILE) : undefined, maxBytes: e.FIRMWARE_MAX_BYTES },
    oidc: oidcProviders(e.OIDC_PROVIDERS, given, e.PUBLIC_URL),
  };
}

function rabbitmqConfig(e: z.infer<typeof envSchema>): Config['rabbitmq'] {
  if (e.BROKER !== 'rabbitmq') {
    if (e.AMQP_URL.length || e.RABBITMQ_API_URL.length) throw new ConfigError('AMQP_URL and RABBITMQ_API_URL are for BROKER=rabbitmq.');
    return null;
  }
  const missing = [
    ...(['MQTT_URL', 'MQTT_USERNAME', 'MQTT_PASSWORD'] as const).filter((k) => !e[k]),
    ...(['AMQP_URL', 'RABBITMQ_API_URL'] as const).filter((k) => !e[k].length),
  ];
  if (missing.length) throw new ConfigError(`BROKER=rabbitmq needs ${missing.join(', ')} (docs/operations.md section 15).`);
  if (e.MQTT_DYNSEC) throw new ConfigError('MQTT_DYNSEC=true is for Mosquitto; with BROKER=rabbitmq the lift accounts live in RabbitMQ.');
  return { amqpUrls: e.AMQP_URL, apiUrls: e.RABBITMQ_API_URL };
}

const OIDC_ID = /^[a-z][a-z0-9]{0,19}$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * OIDC_PROVIDERS=corp,partner and, per provider (its id in upper case):
 * OIDC_CORP_ISSUER (https; http only on a loopback host), OIDC_CORP_CLIENT_ID,
 * OIDC_CORP_CLIENT_SECRET, OIDC_CORP_LABEL (default: the id) and OIDC_CORP_DOMAINS, the
 * e-mail domains whose first sign-in creates an account:
 * `example.com=Acme Operators:operator;acme.org=Acme Lifts:viewer` (entries split by `;`,
 * each `domain=organization:role`, the role after the last `:`). Whether the organization
 * and role exist is checked in the database when a sign-in needs them.
 */
export function oidcProviders(list: string | undefined, env: Record<string, string | undefined>, publicUrl: string | undefined): OidcProviderConfig[] {
  if (!list) return [];
  const ids = list.split(',').map((v) => v.trim().toLowerCase()).filter((v) => v !== '');
  const providers: OidcProviderConfig[] = [];
  for (const id of ids) {
    if (!OIDC_ID.test(id)) throw new ConfigError(`OIDC_PROVIDERS: "${id}" is not a provider id (a letter, then letters or digits, at most 20).`);
    if (providers.some((p) => p.id === id)) throw new ConfigError(`OIDC_PROVIDERS: "${id}" is named twice.`);
    const name = (suffix: string) => `OIDC_${id.toUpperCase()}_${suffix}`;
    const need = (suffix: string) => {
      const value = env[name(suffix)]?.trim();
      if (!value) throw new ConfigError(`${name(suffix)} is not set: provider "${id}" of OIDC_PROVIDERS needs it.`);
      return value;
    };
    const issuer = need('ISSUER');
    const url = URL.canParse(issuer) ? new URL(issuer) : null;
    if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) || url.search || url.hash) {
      throw new ConfigError(`${name('ISSUER')}: must be the provider's https:// issuer URL (http:// only on localhost) (got ${JSON.stringify(issuer)}).`);
    }
    const label = env[name('LABEL')]?.trim() || id;
    if (label.length > 40) throw new ConfigError(`${name('LABEL')}: at most 40 characters (got ${JSON.stringify(label)}).`);
    providers.push({
      id,
      issuer,
      clientId: need('CLIENT_ID'),
      clientSecret: need('CLIENT_SECRET'),
      label,
      domains: domainMapping(name('DOMAINS'), env[name('DOMAINS')]),
      domainsVariable: name('DOMAINS'),
    });
  }
  if (providers.length > 0 && !publicUrl) throw new ConfigError('PUBLIC_URL is not set: OIDC_PROVIDERS needs it for the callback address registered at each provider (PUBLIC_URL/auth/oidc/<id>/callback).');
  return providers;
}

function domainMapping(variable: string, value: string | undefined): Map<string, { organization: string; role: string }> {
  const mapping = new Map<string, { organization: string; role: string }>();
  for (const raw of (value ?? '').split(';')) {
    const entry = raw.trim();
    if (!entry) continue;
    const eq = entry.indexOf('=');
    const colon = entry.lastIndexOf(':');
    const domain = entry.slice(0, eq).trim().toLowerCase();
    const organization = entry.slice(eq + 1, colon).trim();
    const role = entry.slice(colon + 1).trim();
    if (eq <= 0 || colon < eq || !organization || !role) throw new ConfigError(`${variable}: "${entry}" is not domain=organization:role (e.g. example.com=Acme Operators:operator).`);
    if (!DOMAIN.test(domain)) throw new ConfigError(`${variable}: "${domain}" is not an e-mail domain.`);
    if (mapping.has(domain)) throw new ConfigError(`${variable}: the domain "${domain}" is mapped twice.`);
    mapping.set(domain, { organization, role });
  }
  return mapping;
}

/** Both TLS files or neither; the files themselves are checked when the server starts (plugins/tls.ts). */
function tlsConfig(e: z.infer<typeof envSchema>): TlsConfig | null {
  const { TLS_CERT_FILE: cert, TLS_KEY_FILE: key } = e;
  if (cert && !key) throw new ConfigError('TLS_KEY_FILE is not set: TLS_CERT_FILE needs the key file that goes with it.');
  if (key && !cert) throw new ConfigError('TLS_CERT_FILE is not set: TLS_KEY_FILE needs the certificate file that goes with it.');
  if (!cert || !key) {
    if (!e.MQTT_PLAIN) throw new ConfigError('MQTT_PLAIN=false needs TLS_CERT_FILE and TLS_KEY_FILE: without TLS it would leave lifts no broker port.');
    return null;
  }
  return { certFile: path.resolve(cert), keyFile: path.resolve(key), mqttTlsPort: e.MQTT_TLS_PORT, mqttPlain: e.MQTT_PLAIN };
}
