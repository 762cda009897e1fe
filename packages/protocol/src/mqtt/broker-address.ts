/**
 * A lift's broker address (docs/protocol.md, "Reconnecting"): one broker URL, or the nodes of
 * a clustered broker as a comma-separated list of URLs, tried in turn. Pure: parses and
 * refuses, connects nowhere.
 */

export const BROKER_PROTOCOLS = ['mqtt', 'mqtts', 'ws', 'wss', 'tcp'] as const;
export type BrokerProtocol = (typeof BROKER_PROTOCOLS)[number];

export interface BrokerServer {
  /** Host name or IP address (an IPv6 address without its brackets). */
  host: string;
  port: number;
  protocol: BrokerProtocol;
  /** MQTT over WebSocket's path (a single ws:// or wss:// broker only). */
  path?: string;
}

export interface BrokerAddress {
  /** The first node as a URL, for clients that take one URL (MQTT.js's `connect`). */
  primary: string;
  /** Every node in the order given: MQTT.js's `servers`. */
  servers: BrokerServer[];
}

const TLS_PROTOCOLS: ReadonlySet<BrokerProtocol> = new Set(['mqtts', 'wss']);

const DEFAULT_PORTS: Readonly<Record<BrokerProtocol, number>> = { mqtt: 1883, tcp: 1883, mqtts: 8883, ws: 80, wss: 443 };

function isBrokerProtocol(p: string): p is BrokerProtocol {
  return (BROKER_PROTOCOLS as readonly string[]).includes(p);
}

/** The entry as it may appear in an error message: a password never goes into a log. */
function shown(entry: string): string {
  return JSON.stringify(entry.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, '$1***@'));
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function parseEntry(entry: string, single: boolean): BrokerServer {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error(`broker address: ${shown(entry)} is not a URL (expected e.g. mqtt://broker:1883)`);
  }
  const protocol = url.protocol.replace(/:$/, '').toLowerCase();
  if (!isBrokerProtocol(protocol)) throw new Error(`broker address: ${shown(entry)} has the unknown scheme "${protocol}:" (use ${BROKER_PROTOCOLS.join(', ')})`);
  // The lift logs in with its own device number and secret; a URL's credentials would override them.
  if (url.username || url.password) throw new Error(`broker address: ${shown(entry)} must not carry credentials`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new Error(`broker address: ${shown(entry)} names no host (expected e.g. mqtt://broker:1883)`);
  if (url.search || url.hash) throw new Error(`broker address: ${shown(entry)} must not have a query or fragment`);
  // MQTT over WebSocket may live under a path (wss://broker/mqtt); MQTT.js's node list has no
  // path per node, so a path is for one broker alone.
  const path = url.pathname === '' || url.pathname === '/' ? '' : url.pathname;
  if (path && !(single && (protocol === 'ws' || protocol === 'wss'))) {
    throw new Error(`broker address: ${shown(entry)} must not have a path (only a single ws:// or wss:// broker may)`);
  }
  // URL leaves out a special scheme's default port (ws 80, wss 443); mqtt: keeps whatever was written
  const port = url.port === '' ? DEFAULT_PORTS[protocol] : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`broker address: ${shown(entry)} has a port outside 1..65535`);
  return { host, port, protocol, ...(path ? { path } : {}) };
}

/**
 * Parses "mqtt://h1:1883, mqtt://h2:1884" (or one URL). Throws an Error naming the bad entry
 * for an empty entry, an unknown scheme, credentials, a path (but on a single WebSocket broker), and for TLS and plain entries
 * mixed (a lift would otherwise send its secret in the clear whenever it lands on a plain node).
 */
export function parseBrokerAddress(address: string): BrokerAddress {
  const entries = address.split(',').map((e) => e.trim());
  const servers = entries.map((entry, i) => {
    if (!entry) throw new Error(`broker address: entry ${i + 1} of ${entries.length} is empty`);
    return parseEntry(entry, entries.length === 1);
  });
  const tls = TLS_PROTOCOLS.has(servers[0]!.protocol);
  const odd = servers.findIndex((s) => TLS_PROTOCOLS.has(s.protocol) !== tls);
  if (odd !== -1) {
    throw new Error(`broker address: ${shown(entries[odd]!)} is ${tls ? 'plain' : 'TLS'} but ${shown(entries[0]!)} is ${tls ? 'TLS' : 'plain'}; list only TLS or only plain nodes`);
  }
  const first = servers[0]!;
  return { primary: `${first.protocol}://${urlHost(first.host)}:${first.port}${first.path ?? ''}`, servers };
}

/**
 * What MQTT.js's `connect` takes for a broker address: the first node's URL, and the node
 * list only when there are several (MQTT.js then builds each new connection to the next).
 */
export function brokerConnection(address: string): { url: string; servers?: BrokerServer[] } {
  const { primary, servers } = parseBrokerAddress(address);
  return servers.length > 1 ? { url: primary, servers } : { url: primary };
}
