// A step's fields by index: the order of scene/names.ts STEP_KEYS and of scene/object-reader.ts's STEP rows,
// and the index of each field's value in scene/step.ts `slot`.

export const K_ID = 0;
export const K_TYPE = 1;
export const K_RUNNER = 2;
export const K_COLOR = 3;
export const K_COLOR_TO = 4;
export const K_COLOR_FROM = 5;
export const K_DURATION = 6;
export const K_LOOP = 7;
export const K_PINGPONG = 8;
export const K_PARAMS = 9;
export const K_ANIMATES = 10;
export const K_FROM = 11;
export const K_TO = 12;
export const K_AMOUNT = 13;
export const K_SOURCE = 14;
export const K_DIRECTIONALITY = 15;
export const K_ANGLE = 16;
export const K_REVERSE = 17;
export const K_WAVE_WIDTH = 18;
export const K_RIPPLE_WIDTH = 19;
export const K_WIDTH = 20;
export const K_COUNT = 21;
export const K_REPEAT = 22;
export const K_REPEAT_COUNT = 23;
export const K_WAVES = 24;
export const K_SPEED = 25;
export const K_LINES = 26;
export const K_THICKNESS = 27;
export const K_ORIGIN_PANEL = 28;

/** `source: "geometric"` (the legacy form of directionality) as a source's value in `slot`: its index
 * in scene/step.ts SOURCE_NAMES. */
export const SOURCE_GEOMETRIC = 4;
