import { SerialPort } from 'serialport';
import type { BridgePortInfo, PortSettings } from '@liftlink/protocol';
import type { BridgePort, SerialAccess } from './bridge-server.ts';

/**
 * Serial ports through serialport 13. `extraPaths` are offered in the list too: devices
 * the operating system does not enumerate (a socat pseudo-terminal, a symlink).
 */
export function nodeSerialAccess(extraPaths: string[] = []): SerialAccess {
  return {
    async list() {
      const found = await SerialPort.list().catch(() => []);
      const ports: BridgePortInfo[] = found.map((p) => ({
        path: p.path,
        ...(p.manufacturer ? { manufacturer: p.manufacturer } : {}),
        ...(p.serialNumber ? { serialNumber: p.serialNumber } : {}),
        ...(p.vendorId ? { vendorId: p.vendorId } : {}),
        ...(p.productId ? { productId: p.productId } : {}),
      }));
      for (const path of extraPaths) if (!ports.some((p) => p.path === path)) ports.push({ path });
      return ports;
    },
    open(path: string, settings: PortSettings): Promise<BridgePort> {
      const port = new SerialPort({ path, baudRate: settings.baudRate, dataBits: settings.dataBits, parity: settings.parity, stopBits: settings.stopBits, autoOpen: false });
      return new Promise((resolve, reject) => {
        port.open((err) => {
          if (err) return reject(err);
          let closing = false;
          // a pulled cable shows as an error and a close; the close is what the page hears
          port.on('error', () => undefined);
          resolve({
            write: (bytes) => void port.write(bytes),
            onData: (listener) => void port.on('data', listener),
            onLost: (listener) => void port.once('close', () => !closing && listener()),
            close: () =>
              new Promise<void>((done) => {
                closing = true;
                if (!port.isOpen) return done();
                port.close(() => done());
              }),
          });
        });
      });
    },
  };
}
