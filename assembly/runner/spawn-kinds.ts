// The spawner kinds, in the order of the runner names RAIN, SPARKLE, MATRIX (runner/fields.ts
// R_RAIN + kind).
export const SP_RAIN: i32 = 0;
export const SP_SPARKLE: i32 = 1;
export const SP_MATRIX: i32 = 2;
