import type { ByteTransport, PortSettings } from '@liftlink/protocol';

/** The parts of the Web Serial API the bench uses (not in TypeScript's DOM library yet). */
interface WebSerialPort {
  open(options: {
    baudRate: number;
    dataBits: number;
    parity: string;
    stopBits: number;
  }): Promise<void>;
  close(): Promise<void>;
  readonly readable: ReadableStream<Uint8Array> | null;
  readonly writable: WritableStream<Uint8Array> | null;
  getInfo(): { usbVendorId?: number; usbProductId?: number };
}
interface WebSerial extends EventTarget {
  requestPort(options?: object): Promise<WebSerialPort>;
}

function webSerial(): WebSerial | null {
  const nav = navigator as Navigator & { serial?: WebSerial };
  return window.isSecureContext && nav.serial ? nav.serial : null;
}

export function hasWebSerial(): boolean {
  return webSerial() !== null;
}

/** An open serial port: its bytes, a way to close it, and word when it goes away. */
export interface OpenPort {
  transport: ByteTransport;
  /** What the user picked, for display. */
  label: string;
  close(): Promise<void>;
  /** Called once if the port closes without close() (device pulled out, bridge stopped). */
  onLost(listener: () => void): void;
}

/** Opens a port the user picks in the browser's own chooser (Chrome, Edge). */
export async function openWebSerial(settings: PortSettings): Promise<OpenPort> {
  const serial = webSerial();
  if (!serial) throw new Error('Web Serial is not available');
  const port = await serial.requestPort();
  await port.open({
    baudRate: settings.baudRate,
    dataBits: settings.dataBits,
    parity: settings.parity,
    stopBits: settings.stopBits,
  });
  const listeners = new Set<(bytes: Uint8Array) => void>();
  const on: { lost: (() => void) | null } = { lost: null };
  let closing = false;
  const reader = port.readable!.getReader();
  const reading = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (value) listeners.forEach((l) => l(value));
      }
    } catch {
      // the device went away
    } finally {
      reader.releaseLock();
      if (!closing) on.lost?.();
    }
  })();
  const info = port.getInfo();
  return {
    label: info.usbVendorId
      ? `USB ${info.usbVendorId.toString(16).padStart(4, '0')}:${(info.usbProductId ?? 0).toString(16).padStart(4, '0')}`
      : 'Web Serial',
    transport: {
      write: async (bytes) => {
        const writer = port.writable!.getWriter();
        try {
          await writer.write(bytes);
        } finally {
          writer.releaseLock();
        }
      },
      onData: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    onLost: (listener) => {
      on.lost = listener;
    },
    close: async () => {
      closing = true;
      await reader.cancel().catch(() => undefined);
      await reading;
      await port.close().catch(() => undefined);
    },
  };
}
