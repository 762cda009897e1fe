import { describe, expect, it } from 'vitest';
import { brokerConnection, parseBrokerAddress } from './broker-address.ts';

describe('broker address', () => {
  it('takes one URL', () => {
    expect(parseBrokerAddress('mqtt://broker:1884')).toEqual({ primary: 'mqtt://broker:1884', servers: [{ host: 'broker', port: 1884, protocol: 'mqtt' }] });
  });

  it('takes the nodes of a cluster in their order, with spaces around the commas', () => {
    expect(parseBrokerAddress(' mqtt://h1:1883 ,mqtt://h2:1884,  tcp://10.0.0.3 ')).toEqual({
      primary: 'mqtt://h1:1883',
      servers: [
        { host: 'h1', port: 1883, protocol: 'mqtt' },
        { host: 'h2', port: 1884, protocol: 'mqtt' },
        { host: '10.0.0.3', port: 1883, protocol: 'tcp' },
      ],
    });
    expect(parseBrokerAddress('mqtts://h1,mqtts://h2:8884,wss://h3').servers).toEqual([
      { host: 'h1', port: 8883, protocol: 'mqtts' },
      { host: 'h2', port: 8884, protocol: 'mqtts' },
      { host: 'h3', port: 443, protocol: 'wss' },
    ]);
  });

  it('fills in the default ports and keeps an IPv6 address usable', () => {
    expect(parseBrokerAddress('mqtt://h').servers[0]?.port).toBe(1883);
    expect(parseBrokerAddress('tcp://h').servers[0]?.port).toBe(1883);
    expect(parseBrokerAddress('mqtts://h').servers[0]?.port).toBe(8883);
    expect(parseBrokerAddress('ws://h/').servers[0]?.port).toBe(80);
    expect(parseBrokerAddress('mqtt://[::1]')).toEqual({ primary: 'mqtt://[::1]:1883', servers: [{ host: '::1', port: 1883, protocol: 'mqtt' }] });
  });

  it('refuses an empty entry, naming its place', () => {
    expect(() => parseBrokerAddress('')).toThrow(/entry 1 of 1 is empty/);
    expect(() => parseBrokerAddress('mqtt://h1,,mqtt://h2')).toThrow(/entry 2 of 3 is empty/);
    expect(() => parseBrokerAddress('mqtt://h1, ')).toThrow(/entry 2 of 2 is empty/);
  });

  it('refuses an unknown scheme, a non-URL and a missing host, naming the entry', () => {
    expect(() => parseBrokerAddress('mqtt://h1,http://h2:1883')).toThrow(/"http:\/\/h2:1883" has the unknown scheme "http:"/);
    expect(() => parseBrokerAddress('h1:1883')).toThrow(/"h1:1883" has the unknown scheme/);
    expect(() => parseBrokerAddress('mqtt://h1,not a url')).toThrow(/"not a url" is not a URL/);
    expect(() => parseBrokerAddress('mqtt:h1')).toThrow(/"mqtt:h1" names no host/);
    expect(() => parseBrokerAddress('mqtt://h1:0')).toThrow(/"mqtt:\/\/h1:0" has a port outside/);
  });

  it('refuses TLS and plain nodes mixed', () => {
    expect(() => parseBrokerAddress('mqtts://h1,mqtt://h2')).toThrow(/"mqtt:\/\/h2" is plain but "mqtts:\/\/h1" is TLS/);
    expect(() => parseBrokerAddress('ws://h1,wss://h2')).toThrow(/"wss:\/\/h2" is TLS but "ws:\/\/h1" is plain/);
  });

  it('refuses credentials without repeating the password, and paths', () => {
    let message = '';
    try {
      parseBrokerAddress('mqtt://h1,mqtt://lift:s3c@ret@h2');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/"mqtt:\/\/\*\*\*@h2" must not carry credentials/);
    expect(message).not.toMatch(/s3c|ret/);
    expect(() => parseBrokerAddress('wss://h1/mqtt,wss://h2/mqtt')).toThrow(/"wss:\/\/h1\/mqtt" must not have a path/);
    expect(() => parseBrokerAddress('mqtt://h1/x')).toThrow(/must not have a path/);
    expect(() => parseBrokerAddress('mqtt://h1?x=1')).toThrow(/must not have a query or fragment/);
    // One WebSocket broker under a path (EMQX's wss://host:8084/mqtt) stays as it is.
    expect(parseBrokerAddress('wss://h1:8084/mqtt')).toEqual({ primary: 'wss://h1:8084/mqtt', servers: [{ host: 'h1', port: 8084, protocol: 'wss', path: '/mqtt' }] });
  });

  it('gives MQTT.js the node list only when there are several nodes', () => {
    expect(brokerConnection('mqtt://h1')).toEqual({ url: 'mqtt://h1:1883' });
    expect(brokerConnection('mqtt://h1:1883, mqtt://h2:1884')).toEqual({
      url: 'mqtt://h1:1883',
      servers: [
        { host: 'h1', port: 1883, protocol: 'mqtt' },
        { host: 'h2', port: 1884, protocol: 'mqtt' },
      ],
    });
  });
});
