import { useCallback, useEffect, useRef, useState } from 'react';
import {
  BRIDGE_DEFAULT_PORT,
  SerialLink,
  type BridgePortInfo,
  type PortSettings,
} from '@liftlink/protocol';
import { BRIDGE_PORT_KEY, BRIDGE_TOKEN_KEY, BridgeClient, BridgeError } from './bridge-client.ts';
import { hasWebSerial, openWebSerial, type OpenPort } from './web-serial.ts';

export type ConnectionMode = 'webSerial' | 'bridge';
export type PortStatus = 'closed' | 'opening' | 'open';

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function store(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // private mode: pairing lasts for this page only
  }
}

/**
 * The bench's serial connection: Web Serial where the browser has it, otherwise the
 * serial bridge over its loopback WebSocket. Gives a SerialLink while the port is open
 * and tells when the port goes away (cable pulled, bridge stopped).
 */
export function useSerialConnection(onLost: () => void) {
  const webSerial = hasWebSerial();
  const [mode, setMode] = useState<ConnectionMode>(webSerial ? 'webSerial' : 'bridge');
  const [status, setStatus] = useState<PortStatus>('closed');
  const [link, setLink] = useState<SerialLink | null>(null);
  const [portLabel, setPortLabel] = useState<string | null>(null);
  const [bridgePort, setBridgePortState] = useState<number>(
    () => Number(stored(BRIDGE_PORT_KEY)) || BRIDGE_DEFAULT_PORT,
  );
  const [bridgeUser, setBridgeUser] = useState<string | null>(null);
  const [paired, setPaired] = useState<boolean>(() => stored(BRIDGE_TOKEN_KEY) !== null);
  const [ports, setPorts] = useState<BridgePortInfo[]>([]);
  const open = useRef<OpenPort | null>(null);
  // The link as of now (state lags a render behind: a step right after open must see it).
  const linkRef = useRef<SerialLink | null>(null);
  const client = useRef<BridgeClient | null>(null);
  const lostRef = useRef(onLost);
  useEffect(() => {
    lostRef.current = onLost;
  });

  /** The open link right now, also between a change and the next render. */
  const currentLink = useCallback(() => linkRef.current, []);

  const setBridgePort = useCallback((port: number) => {
    client.current?.disconnect();
    client.current = null;
    store(BRIDGE_PORT_KEY, String(port));
    setBridgePortState(port);
  }, []);

  /** A connected, paired bridge client (with the stored token). */
  const bridge = useCallback(async (): Promise<BridgeClient> => {
    if (client.current?.connected && client.current.user) return client.current;
    const token = stored(BRIDGE_TOKEN_KEY);
    if (!token) throw new BridgeError('notPaired');
    const c = new BridgeClient(bridgePort);
    await c.connect();
    try {
      const welcome = await c.hello({ token });
      setBridgeUser(welcome.user);
    } catch (error) {
      c.disconnect();
      if (error instanceof BridgeError && error.code === 'badToken') {
        store(BRIDGE_TOKEN_KEY, null);
        setPaired(false);
      }
      throw error;
    }
    client.current = c;
    return c;
  }, [bridgePort]);

  /** Presents a one-time code to the bridge; resolves once paired (throws while the bridge has not verified it). */
  const pairWithCode = useCallback(
    async (code: string) => {
      const c = new BridgeClient(bridgePort);
      await c.connect();
      try {
        const welcome = await c.hello({ code });
        store(BRIDGE_TOKEN_KEY, welcome.token);
        setPaired(true);
        setBridgeUser(welcome.user);
        client.current?.disconnect();
        client.current = c;
      } catch (error) {
        c.disconnect();
        throw error;
      }
    },
    [bridgePort],
  );

  const refreshPorts = useCallback(async () => {
    const list = await (await bridge()).list();
    setPorts(list);
    return list;
  }, [bridge]);

  const close = useCallback(async () => {
    const port = open.current;
    open.current = null;
    linkRef.current?.close();
    linkRef.current = null;
    setLink(null);
    setStatus('closed');
    setPortLabel(null);
    if (port) await port.close();
  }, []);

  const openPort = useCallback(
    async (settings: PortSettings, path?: string) => {
      if (open.current) await close();
      setStatus('opening');
      try {
        const port =
          mode === 'webSerial'
            ? await openWebSerial(settings)
            : await (await bridge()).open(path ?? '', settings);
        const serialLink = new SerialLink(port.transport, { timeoutMs: 1_000, retries: 2 });
        port.onLost(() => {
          if (open.current !== port) return;
          open.current = null;
          serialLink.close();
          linkRef.current = null;
          setLink(null);
          setStatus('closed');
          setPortLabel(null);
          lostRef.current();
        });
        open.current = port;
        linkRef.current = serialLink;
        setLink(serialLink);
        setPortLabel(port.label);
        setStatus('open');
      } catch (error) {
        setStatus('closed');
        throw error;
      }
    },
    [bridge, close, mode],
  );

  useEffect(
    () => () => {
      void open.current?.close();
      client.current?.disconnect();
    },
    [],
  );

  return {
    webSerial,
    mode,
    setMode,
    status,
    link,
    currentLink,
    portLabel,
    open: openPort,
    close,
    bridge: {
      port: bridgePort,
      setPort: setBridgePort,
      paired,
      user: bridgeUser,
      ports,
      refreshPorts,
      pairWithCode,
    },
  };
}

export type SerialConnection = ReturnType<typeof useSerialConnection>;
