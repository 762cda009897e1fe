import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync, unwatchFile, watch, watchFile, type FSWatcher } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import fp from 'fastify-plugin';
import { ConfigError, type TlsConfig } from '../config.ts';

/** A certificate (with its chain) and its key, read and checked. */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
  /** The leaf certificate's serial number (hex, as OpenSSL prints it). */
  serial: string;
  validTo: Date;
  /** The names the certificate is for (subjectAltName DNS and IP entries). */
  names: string[];
}

/** A certificate or key file that cannot serve: `variable` names the environment variable. */
export class TlsFileError extends ConfigError {
  constructor(
    readonly variable: 'TLS_CERT_FILE' | 'TLS_KEY_FILE',
    detail: string,
  ) {
    super(`${variable}: ${detail}`);
  }
}

const READ_ERRORS: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied', EPERM: 'permission denied', EISDIR: 'is a folder, not a file' };

function readPem(variable: TlsFileError['variable'], file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new TlsFileError(variable, `cannot read ${file} (${READ_ERRORS[code] ?? code}).`);
  }
}

/**
 * Reads TLS_CERT_FILE and TLS_KEY_FILE and checks that they can serve now: a PEM certificate
 * (the server's first, then its chain), a PEM private key that belongs to it, and a
 * certificate that is valid today. Throws a TlsFileError with one line naming the variable.
 */
export function readTlsFiles(files: Pick<TlsConfig, 'certFile' | 'keyFile'>, now = new Date()): TlsMaterial {
  const cert = readPem('TLS_CERT_FILE', files.certFile);
  const key = readPem('TLS_KEY_FILE', files.keyFile);
  let x509: X509Certificate;
  try {
    if (!cert.includes('-----BEGIN CERTIFICATE-----')) throw new Error('not PEM');
    x509 = new X509Certificate(cert);
  } catch {
    throw new TlsFileError('TLS_CERT_FILE', `${files.certFile} holds no PEM certificate.`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new TlsFileError('TLS_KEY_FILE', `${files.keyFile} holds no PEM private key (or it is encrypted).`);
  }
  if (!x509.checkPrivateKey(privateKey)) {
    throw new TlsFileError('TLS_KEY_FILE', `the key in ${files.keyFile} does not belong to the certificate in TLS_CERT_FILE (${files.certFile}).`);
  }
  const validTo = new Date(x509.validTo);
  const validFrom = new Date(x509.validFrom);
  if (validTo <= now) throw new TlsFileError('TLS_CERT_FILE', `the certificate in ${files.certFile} expired on ${validTo.toISOString()}.`);
  if (validFrom > now) throw new TlsFileError('TLS_CERT_FILE', `the certificate in ${files.certFile} is not valid before ${validFrom.toISOString()}.`);
  try {
    tls.createSecureContext({ cert, key });
  } catch (err) {
    throw new TlsFileError('TLS_CERT_FILE', `${files.certFile} cannot be used with its key: ${(err as Error).message}.`);
  }
  const names = (x509.subjectAltName ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('DNS:') || entry.startsWith('IP Address:'))
    .map((entry) => entry.slice(entry.indexOf(':') + 1));
  return { cert, key, serial: x509.serialNumber, validTo, names };
}

/** A TLS server whose certificate follows the files (https.Server and tls.Server both are). */
export type SecureServer = Pick<tls.Server, 'setSecureContext'>;

/** The certificate in use and the servers that present it; the files are watched while the app runs. */
export interface TlsState {
  readonly files: TlsConfig;
  /** The certificate the servers present now. */
  readonly current: TlsMaterial;
  /** Adds a server created with `current`; it gets every reloaded certificate. */
  serve(server: SecureServer): void;
  /** Re-reads the files; resolves whether a new certificate is now in use (false: unchanged or bad, old one kept). */
  reload(reason: string): boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** TLS_CERT_FILE / TLS_KEY_FILE in use, or null for plain HTTP and MQTT. */
    tls: TlsState | null;
  }
}

/** Wait this long after the last change in the files' folders: a renewal writes the certificate and the key one after the other. */
const SETTLE_MS = 300;
/** Polling as well: some file systems (network shares, some container mounts) deliver no change events. */
const POLL_MS = 60_000;
/** Warn this long before the certificate expires. */
const EXPIRY_WARNING_MS = 14 * 24 * 3600 * 1000;

/**
 * TLS from two files. Reads them once at start (buildApp passes what it read for the HTTPS
 * server), then re-reads them when they change (change events in their folders, polling,
 * SIGHUP). A new certificate goes to every server with `setSecureContext`: connections that
 * are open stay as they are, new ones get the new certificate. A bad file at reload keeps the
 * certificate in use and logs an error.
 */
export default fp<{ initial: TlsMaterial | null }>(async (app, opts) => {
  const files = app.config.tls;
  if (!files || !opts.initial) {
    app.decorate('tls', null);
    return;
  }
  let current = opts.initial;
  const servers: SecureServer[] = [];
  const warnIfExpiring = (material: TlsMaterial) => {
    if (material.validTo.getTime() - Date.now() < EXPIRY_WARNING_MS) app.log.warn({ validTo: material.validTo.toISOString() }, 'the TLS certificate expires soon; renew TLS_CERT_FILE');
  };
  const reload = (reason: string): boolean => {
    let next: TlsMaterial;
    try {
      next = readTlsFiles(files);
    } catch (err) {
      app.log.error({ reason, err: (err as Error).message }, 'TLS certificate not reloaded; the one in use stays');
      return false;
    }
    if (next.cert.equals(current.cert) && next.key.equals(current.key)) return false;
    for (const server of servers) server.setSecureContext({ cert: next.cert, key: next.key });
    current = next;
    app.log.info({ reason, serial: next.serial, validTo: next.validTo.toISOString() }, 'TLS certificate reloaded');
    warnIfExpiring(next);
    return true;
  };
  warnIfExpiring(current);

  let settle: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(settle);
    settle = setTimeout(() => reload('files changed'), SETTLE_MS);
  };
  // Watch the folders, not the files: ACME clients replace files (rename) or swap symlinks.
  const watchers: FSWatcher[] = [];
  const watched = new Set([files.certFile, files.keyFile]);
  for (const dir of new Set([...watched].map((f) => path.dirname(f)))) {
    try {
      watchers.push(watch(dir, { persistent: false }, changed).on('error', () => {}));
    } catch (err) {
      app.log.warn({ dir, err: (err as Error).message }, 'cannot watch the TLS files folder; polling only');
    }
  }
  for (const file of watched) watchFile(file, { persistent: false, interval: POLL_MS }, changed);
  const onHangup = () => {
    app.log.info('SIGHUP: re-reading TLS_CERT_FILE and TLS_KEY_FILE');
    reload('SIGHUP');
  };
  process.on('SIGHUP', onHangup);

  app.decorate('tls', {
    files,
    get current() {
      return current;
    },
    serve(server: SecureServer) {
      servers.push(server);
    },
    reload,
  } satisfies TlsState);
  // The HTTPS server (buildApp created it with the initial certificate).
  if ('setSecureContext' in app.server) servers.push(app.server as unknown as SecureServer);

  app.addHook('onClose', async () => {
    clearTimeout(settle);
    process.off('SIGHUP', onHangup);
    for (const w of watchers) w.close();
    for (const file of watched) unwatchFile(file, changed);
  });
});
