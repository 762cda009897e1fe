import { z } from 'zod';
import { FLOORS_MAX, FLOORS_MIN } from '../constants.ts';

/** The five device kinds of the spec (section 1). Labels: `device.kind.<id>` in the web client. */
export const DEVICE_KINDS = [
  'inclinedStraightRack',
  'inclined2dRack',
  'inclined2dSprocket',
  'inclined3dSprocket',
  'verticalHydraulic',
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];
export const deviceKindSchema = z.enum(DEVICE_KINDS);

/** Parts of a lift: J is the housing / traction room, P the platform (spec section 9). */
export const PARTS = ['J', 'P'] as const;
export type Part = (typeof PARTS)[number];
export const partSchema = z.enum(PARTS);

export const FLOORS = [1, 2, 3, 4] as const;
export type Floor = (typeof FLOORS)[number];
/** A floor number 1..4; whether the floor exists on a lift is checked against its floor count. */
export const floorSchema = z.number().int().min(FLOORS_MIN).max(FLOORS_MAX) as z.ZodType<Floor>;
/** The number of floors of a lift, 1..4. */
export const floorCountSchema = z.number().int().min(FLOORS_MIN).max(FLOORS_MAX);

/**
 * A device number, assigned by the manufacturer. It is also the lift's MQTT client id and
 * username and a topic level, so it excludes `/`, `+`, `#` and lower case.
 */
export const deviceNoSchema = z.string().regex(/^[A-Z0-9-]{4,32}$/, 'validation.deviceNo');

/**
 * Encoder resolution shared by the configuration (positions in counts) and the
 * simulator's physics (speeds in mm/s): 10 counts per millimetre of travel.
 */
export const ENCODER_COUNTS_PER_MM = 10;
