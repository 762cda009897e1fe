import { deviceNoSchema } from '../device/kinds.ts';

/**
 * MQTT topics of a lift: `lifts/{deviceNo}/{kind}`. Uplink topics are published by the
 * lift (QoS 1), downlink topics by the cloud (QoS 1). A lift may publish only its own
 * uplink topics and subscribe only its own downlink topics (see `liftMayPublish`).
 */
export const TOPIC_ROOT = 'lifts';

export const UPLINK_TOPICS = ['status', 'event', 'presence', 'config/report', 'cmd/ack', 'alarm', 'firmware/state'] as const;
export const DOWNLINK_TOPICS = ['cmd', 'config/set', 'config/get', 'firmware/offer'] as const;
export type UplinkTopic = (typeof UPLINK_TOPICS)[number];
export type DownlinkTopic = (typeof DOWNLINK_TOPICS)[number];
export type LiftTopicKind = UplinkTopic | DownlinkTopic;
export const LIFT_TOPIC_KINDS: readonly LiftTopicKind[] = [...UPLINK_TOPICS, ...DOWNLINK_TOPICS];

export const MQTT_QOS = 1;

/** Per topic: direction, whether the broker retains the last message, QoS. */
export const TOPIC_RULES: Record<LiftTopicKind, { direction: 'uplink' | 'downlink'; retain: boolean; qos: 0 | 1 | 2 }> = {
  status: { direction: 'uplink', retain: false, qos: MQTT_QOS },
  event: { direction: 'uplink', retain: false, qos: MQTT_QOS },
  presence: { direction: 'uplink', retain: true, qos: MQTT_QOS },
  'config/report': { direction: 'uplink', retain: false, qos: MQTT_QOS },
  'cmd/ack': { direction: 'uplink', retain: false, qos: MQTT_QOS },
  alarm: { direction: 'uplink', retain: false, qos: MQTT_QOS },
  cmd: { direction: 'downlink', retain: false, qos: MQTT_QOS },
  'config/set': { direction: 'downlink', retain: false, qos: MQTT_QOS },
  'config/get': { direction: 'downlink', retain: false, qos: MQTT_QOS },
  // Firmware over the air (docs/protocol.md section 11). The offer is not retained: a retained
  // offer would outlive its token and its withdrawal; the cloud sends the current offer again
  // when the lift comes online.
  'firmware/state': { direction: 'uplink', retain: false, qos: MQTT_QOS },
  'firmware/offer': { direction: 'downlink', retain: false, qos: MQTT_QOS },
};

const KINDS = new Set<string>(LIFT_TOPIC_KINDS);

export function isUplinkTopic(kind: LiftTopicKind): kind is UplinkTopic {
  return TOPIC_RULES[kind].direction === 'uplink';
}

/** `lifts/{deviceNo}/{kind}`; throws on a device number that is not valid (it would break topic matching). */
export function liftTopic(deviceNo: string, kind: LiftTopicKind): string {
  if (!deviceNoSchema.safeParse(deviceNo).success) throw new Error(`invalid device number: ${deviceNo}`);
  return `${TOPIC_ROOT}/${deviceNo}/${kind}`;
}

/**
 * Splits a concrete topic into device number and kind; null for a foreign, malformed or
 * wildcard topic (`lifts/+/status`, `lifts/A/#`, `other/A/status`, `lifts/a b/status`).
 */
export function parseLiftTopic(topic: string): { deviceNo: string; kind: LiftTopicKind } | null {
  if (topic.length > 128) return null;
  const first = topic.indexOf('/');
  const second = topic.indexOf('/', first + 1);
  if (first < 0 || second < 0 || topic.slice(0, first) !== TOPIC_ROOT) return null;
  const deviceNo = topic.slice(first + 1, second);
  const kind = topic.slice(second + 1);
  if (!KINDS.has(kind) || !deviceNoSchema.safeParse(deviceNo).success) return null;
  return { deviceNo, kind: kind as LiftTopicKind };
}

/**
 * The cloud's subscription to one uplink kind of every lift, e.g. `lifts/+/status`; with
 * `shareGroup` an MQTT 5 / 3.1.1-extension shared subscription `$share/{group}/lifts/+/status`,
 * so that each message reaches one of several server instances.
 */
export function uplinkSubscription(kind: UplinkTopic, shareGroup?: string): string {
  const filter = `${TOPIC_ROOT}/+/${kind}`;
  return shareGroup ? `$share/${shareGroup}/${filter}` : filter;
}

/** Broker ACL for a lift's own connection: publish only to its own uplink topics. */
export function liftMayPublish(deviceNo: string, topic: string): boolean {
  const t = parseLiftTopic(topic);
  return t !== null && t.deviceNo === deviceNo && isUplinkTopic(t.kind);
}

/** Broker ACL for a lift's own connection: subscribe only to its own downlink topics, no wildcards. */
export function liftMaySubscribe(deviceNo: string, filter: string): boolean {
  const t = parseLiftTopic(filter);
  return t !== null && t.deviceNo === deviceNo && !isUplinkTopic(t.kind);
}
