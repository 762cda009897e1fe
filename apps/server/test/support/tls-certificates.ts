import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The names every test server certificate is for. */
export const TEST_CERT_NAMES = ['localhost', 'liftlink.test', '127.0.0.1'];

export interface IssuedCertificate {
  /** PEM: the server certificate followed by the CA's (a chain, as ACME clients write fullchain.pem). */
  certFile: string;
  keyFile: string;
  /** Serial number in hex, as X509Certificate and getPeerCertificate() print it. */
  serial: string;
}

export interface TestPki {
  dir: string;
  /** The CA certificate lifts and browsers pin. */
  caFile: string;
  /** A server certificate signed by the CA; `expired` makes one that ended in 2020. */
  issue(name: string, opts?: { serial?: string; expired?: boolean }): IssuedCertificate;
  /** Copies a certificate and key over `target`'s files the way an ACME client renews: write aside, then rename. */
  install(from: IssuedCertificate, target: { certFile: string; keyFile: string }): void;
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

let serials = 0x1000;

/**
 * A private certificate authority in a temporary folder, made with the openssl command line
 * (EC P-256): a CA certificate and server certificates for localhost, liftlink.test and 127.0.0.1.
 */
export function createTestPki(caName = 'LiftLink Test CA'): TestPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-pki-'));
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', `/CN=${caName}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  writeFileSync(path.join(dir, 'index.txt'), '');
  const san = TEST_CERT_NAMES.map((n) => (/^[\d.]+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
  writeFileSync(
    path.join(dir, 'ca.cnf'),
    [
      '[ca]',
      'default_ca = test',
      '[test]',
      'database = index.txt',
      'new_certs_dir = .',
      'certificate = ca.pem',
      'private_key = ca.key',
      'default_md = sha256',
      'policy = any',
      'unique_subject = no',
      'serial = serial',
      '[any]',
      'commonName = supplied',
      '[server]',
      'basicConstraints = CA:FALSE',
      'keyUsage = critical,digitalSignature',
      'extendedKeyUsage = serverAuth',
      `subjectAltName = ${san}`,
      '',
    ].join('\n'),
  );
  const caFile = path.join(dir, 'ca.pem');
  return {
    dir,
    caFile,
    issue(name, opts = {}) {
      serials += 1;
      const serial = (opts.serial ?? serials.toString(16)).toUpperCase();
      writeFileSync(path.join(dir, 'serial'), `${serial}\n`);
      openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', '/CN=liftlink.test'], dir);
      const dates = opts.expired ? ['-startdate', '20200101000000Z', '-enddate', '20200201000000Z'] : ['-days', '20'];
      openssl(['ca', '-batch', '-config', 'ca.cnf', '-extensions', 'server', '-notext', '-in', `${name}.csr`, '-out', `${name}.leaf.pem`, ...dates], dir);
      const certFile = path.join(dir, `${name}.pem`);
      writeFileSync(certFile, readFileSync(path.join(dir, `${name}.leaf.pem`), 'utf8') + readFileSync(caFile, 'utf8'));
      return { certFile, keyFile: path.join(dir, `${name}.key`), serial };
    },
    install(from, target) {
      for (const [source, file] of [
        [from.certFile, target.certFile],
        [from.keyFile, target.keyFile],
      ] as const) {
        writeFileSync(`${file}.new`, readFileSync(source));
        renameSync(`${file}.new`, file);
      }
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
